/* sched_flow.c - the dataflow engine, the choice of way and why a run got
 * stuck (sched_flow.h). */
#include "sched_flow.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- execution */

#define NONE UINT32_MAX

/* The messages in flight from one rank to another, oldest first: the index
 * of a receiver with many messages waiting (flow_t.indexed). */
typedef struct {
    uint32_t from, to;   /* the pair */
    uint32_t head, tail; /* nodes; head NONE: a free slot */
} pair_fifo_t;

#define SCAN_LIMIT 32 /* a longer scan of an inbox moves the receiver to the index */

typedef struct {
    const sched_t *s;
    const sched_flow_ops_t *ops;
    void *ctx;
    uint32_t *pc;        /* next op of each rank (an index in its ops) */
    uint8_t *blocked;    /* is the rank waiting at pc for a message? */
    uint32_t *queue;     /* ring of ranks runnable in this level, each at most once */
    uint32_t head, count;
    uint32_t level;      /* the level being run */
    uint32_t step_cap;   /* UINT32_MAX: steps are levels; 0: everything is level 0 */
    uint32_t budget;     /* messages in flight before ranks wait for their level */
    uint32_t *park;      /* per level, a FIFO of ranks waiting for it (via park_next) */
    uint32_t *park_end;  /* per level, the last of them */
    uint32_t *park_next; /* per rank */
    uint32_t *inbox;     /* per receiver, its messages in flight, posting order */
    uint32_t *inbox_end; /* per receiver, the last of them */
    uint8_t *indexed;    /* per receiver: are its messages in 'pairs' instead? */
    pair_fifo_t *pairs;  /* open addressing over (sender, receiver) */
    uint32_t pairs_size, pairs_used;
    uint32_t *taken;     /* per rank, the messages its current RECV run took (newest first) */
    sched_msg_t *pool;   /* message nodes */
    uint32_t *link;      /* per node: the next in its inbox, pair, run or free list */
    uint32_t pool_cap, free_list, in_flight;
    sched_msg_t *batch;  /* one RECV run's messages, for the callback */
    lop_status_t error;  /* NOMEM growing the pool */
    int halted;          /* the callbacks have seen enough (sched_flow_ops_t.halted) */
    uint64_t events;
} flow_t;

/* The level of an op: its step, or 0 when steps are not levels. */
static inline uint32_t level_of(const flow_t *f, sched_op_t o)
{
    return o.step < f->step_cap ? o.step : 0;
}

/* A rank's ops and their count. */
static inline const sched_op_t *rank_ops(const flow_t *f, uint32_t rank, uint32_t *end)
{
    *end = f->s->first[rank + 1] - f->s->first[rank];
    return f->s->op + f->s->first[rank];
}

/* A rank that can go on: woken at a RECV, or at the start. */
static void enqueue(flow_t *f, uint32_t rank)
{
    uint32_t at = f->head + f->count++; /* < 2P: a subtraction, not a division */
    f->queue[at >= f->s->p ? at - f->s->p : at] = rank;
}

static void make_runnable(flow_t *f, uint32_t rank)
{
    f->blocked[rank] = 0;
    enqueue(f, rank);
}

static void park(flow_t *f, uint32_t rank, uint32_t level)
{
    f->park_next[rank] = NONE; /* FIFO: ranks keep their order, and the cache its lines */
    if (f->park[level] == NONE)
        f->park[level] = rank;
    else
        f->park_next[f->park_end[level]] = rank;
    f->park_end[level] = rank;
}

static uint32_t node_new(flow_t *f)
{
    if (f->free_list == NONE) {
        uint32_t cap = f->pool_cap ? 2 * f->pool_cap : 1024;
        sched_msg_t *grown =
            cap > f->pool_cap ? lop_realloc_array(f->pool, cap, sizeof *grown) : NULL;
        if (grown)
            f->pool = grown;
        uint32_t *links = grown ? lop_realloc_array(f->link, cap, sizeof *links) : NULL;
        if (!links) {
            f->error = LOP_ERR_NOMEM;
            return NONE;
        }
        for (uint32_t i = f->pool_cap; i < cap; i++)
            links[i] = i + 1 < cap ? i + 1 : NONE;
        f->link = links;
        f->free_list = f->pool_cap;
        f->pool_cap = cap;
    }
    uint32_t n = f->free_list;
    f->free_list = f->link[n];
    f->in_flight++;
    return n;
}

static void node_free(flow_t *f, uint32_t n)
{
    f->link[n] = f->free_list;
    f->free_list = n;
    f->in_flight--;
}

/* ------------------------------------------- the index of busy receivers */

/* A receiver that scans long lists of other senders' messages (a root that
 * takes P - 1 reports in another order than they were posted) would cost
 * O(P^2); after one scan longer than SCAN_LIMIT its messages move to a hash
 * table of per-pair FIFOs.  The inbox lists stay the common case: they are
 * indexed by receiver, which the ranks visit in order (cache-friendly, 3-4
 * times faster for diss at P = 2^20 than hashing every message). */

static uint32_t pair_home(const flow_t *f, uint32_t from, uint32_t to)
{
    uint32_t h = from * 0x9E3779B1u ^ to * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (uint32_t)(((uint64_t)h * f->pairs_size) >> 32); /* any size, no division */
}

/* The slot holding the pair, or the free slot where it would go. */
static uint32_t pair_slot(const flow_t *f, uint32_t from, uint32_t to)
{
    uint32_t i = pair_home(f, from, to);
    while (f->pairs[i].head != NONE && (f->pairs[i].from != from || f->pairs[i].to != to))
        i = i + 1 == f->pairs_size ? 0 : i + 1;
    return i;
}

/* Empty slot i and shift later entries of its probe run back (linear
 * probing's deletion: no tombstones). */
static void pair_delete(flow_t *f, uint32_t i)
{
    for (uint32_t j = i;;) {
        f->pairs[i].head = NONE;
        uint32_t home;
        do {
            j = j + 1 == f->pairs_size ? 0 : j + 1;
            if (f->pairs[j].head == NONE)
                return;
            home = pair_home(f, f->pairs[j].from, f->pairs[j].to);
        } while (i <= j ? i < home && home <= j : i < home || home <= j);
        f->pairs[i] = f->pairs[j];
        i = j;
    }
}

/* Twice the slots when three quarters would be used. */
static lop_status_t pairs_grow(flow_t *f)
{
    if (4 * (uint64_t)(f->pairs_used + 1) <= 3 * (uint64_t)f->pairs_size)
        return LOP_OK;
    pair_fifo_t *old = f->pairs;
    uint32_t old_size = f->pairs_size;
    pair_fifo_t *grown = lop_calloc(old_size ? 2 * (size_t)old_size : 1024, sizeof *grown);
    if (!grown)
        return f->error = LOP_ERR_NOMEM;
    f->pairs = grown;
    f->pairs_size = old_size ? 2 * old_size : 1024;
    for (uint32_t k = 0; k < f->pairs_size; k++)
        f->pairs[k].head = NONE;
    for (uint32_t k = 0; k < old_size; k++)
        if (old[k].head != NONE)
            f->pairs[pair_slot(f, old[k].from, old[k].to)] = old[k];
    free(old);
    return LOP_OK;
}

static void pair_push(flow_t *f, uint32_t from, uint32_t to, uint32_t n)
{
    if (pairs_grow(f))
        return;
    uint32_t i = pair_slot(f, from, to);
    if (f->pairs[i].head == NONE) {
        f->pairs[i] = (pair_fifo_t){from, to, n, n};
        f->pairs_used++;
        return;
    }
    f->link[f->pairs[i].tail] = n;
    f->pairs[i].tail = n;
}

static uint32_t pair_take(flow_t *f, uint32_t from, uint32_t to)
{
    uint32_t i = pair_slot(f, from, to), n = f->pairs[i].head;
    if (n == NONE)
        return NONE;
    f->pairs[i].head = f->link[n];
    if (f->pairs[i].head == NONE) {
        pair_delete(f, i);
        f->pairs_used--;
    }
    return n;
}

/* Move q's inbox into the index, in order. */
static void index_receiver(flow_t *f, uint32_t q)
{
    f->indexed[q] = 1;
    for (uint32_t n = f->inbox[q], next; n != NONE; n = next) {
        next = f->link[n];
        f->link[n] = NONE;
        pair_push(f, f->pool[n].from, q, n);
    }
    f->inbox[q] = NONE;
}

/* ------------------------------------------------------------ running */

/* Append a message of op k of 'rank' carrying 'value' to q's inbox (or the
 * index); wake q if it waits for it.  0 when out of memory. */
static int deliver(flow_t *f, uint32_t rank, uint32_t k, double value, uint32_t q)
{
    uint32_t n = node_new(f);
    if (n == NONE)
        return 0;
    f->pool[n] = (sched_msg_t){k, rank, value};
    f->link[n] = NONE;
    if (f->indexed[q])
        pair_push(f, rank, q, n);
    else if (f->inbox[q] == NONE)
        f->inbox[q] = n;
    else
        f->link[f->inbox_end[q]] = n;
    if (!f->indexed[q])
        f->inbox_end[q] = n;
    if (f->blocked[q] && f->s->op[f->s->first[q] + f->pc[q]].peer == (int32_t)rank)
        make_runnable(f, q);
    return f->error == LOP_OK;
}

/* Op k of 'rank', a SEND or MCAST, executes; 0 when out of memory. */
static int post(flow_t *f, uint32_t rank, uint32_t k, sched_op_t o)
{
    double value = f->ops->post(f->ctx, rank, k, o);
    if (o.kind == SCHED_SEND)
        return deliver(f, rank, k, value, (uint32_t)o.peer);
    for (uint32_t q = 0; q < f->s->p; q++)
        if (q != rank && !deliver(f, rank, k, value, q))
            return 0;
    return 1;
}

/* Take the first message from 'sender' out of q's inbox, or NONE. */
static uint32_t take(flow_t *f, uint32_t q, uint32_t sender)
{
    if (f->indexed[q])
        return pair_take(f, sender, q);
    uint32_t prev = NONE, n = f->inbox[q], scanned = 0;
    while (n != NONE && f->pool[n].from != sender) {
        prev = n;
        n = f->link[n];
        scanned++;
    }
    if (n == NONE)
        return NONE;
    uint32_t next = f->link[n];
    if (prev == NONE)
        f->inbox[q] = next;
    else
        f->link[prev] = next;
    if (f->inbox_end[q] == n)
        f->inbox_end[q] = prev;
    if (scanned > SCAN_LIMIT)
        index_receiver(f, q);
    return n;
}

/* The RECV run of 'rank' ending at its op 'last' is complete: hand it over. */
static void recv_run(flow_t *f, uint32_t rank, uint32_t last)
{
    uint32_t k = 0, n;
    for (n = f->taken[rank]; n != NONE; n = f->link[n])
        k++;
    uint32_t first = last + 1 - k, i = k;
    for (n = f->taken[rank]; n != NONE;) { /* newest first: fill from the end */
        uint32_t next = f->link[n];
        f->batch[--i] = f->pool[n];
        node_free(f, n);
        n = next;
    }
    f->taken[rank] = NONE;
    f->ops->recv_run(f->ctx, rank, first, last, f->batch);
}

/* Execute the RECV at op k of 'rank' if its message is there; 0 if the
 * rank must wait.  A run of one RECV (the rule in the exchanges) is handed
 * over at once; longer runs collect in 'taken' until their last RECV. */
static int try_recv(flow_t *f, uint32_t rank, uint32_t k, const sched_op_t *op, uint32_t end)
{
    uint32_t n = take(f, rank, (uint32_t)op[k].peer);
    if (n == NONE) {
        f->blocked[rank] = 1;
        return 0;
    }
    int last = k + 1 == end || op[k + 1].kind != SCHED_RECV;
    if (last && f->taken[rank] == NONE) {
        f->batch[0] = f->pool[n];
        node_free(f, n);
        f->ops->recv_run(f->ctx, rank, k, k, f->batch);
        return 1;
    }
    f->link[n] = f->taken[rank];
    f->taken[rank] = n;
    if (last)
        recv_run(f, rank, k);
    return 1;
}

/* Run 'rank' until it blocks, ends or reaches a later level ('posting':
 * or a RECV, which it leaves untried).  1 when it stopped at that RECV. */
static int run_rank(flow_t *f, uint32_t rank, int posting)
{
    uint32_t end, k = f->pc[rank], k0 = k;
    const sched_op_t *op = rank_ops(f, rank, &end);
    int at_recv = 0;
    for (; k < end; k++) {
        sched_op_t o = op[k];
        if (f->in_flight >= f->budget && level_of(f, o) > f->level) {
            park(f, rank, level_of(f, o));
            break;
        }
        if (o.kind == SCHED_RECV) {
            if ((at_recv = posting) || !try_recv(f, rank, k, op, end))
                break;
        } else {
            f->pc[rank] = k + 1; /* done, whoever the message wakes */
            if (!post(f, rank, k, o))
                break;
        }
    }
    f->pc[rank] = k;
    f->events += k - k0;
    return at_recv;
}

/* Describe the cycle of waits that starts at a blocked rank. */
static lop_status_t deadlock(const sched_t *s, const uint32_t *pc)
{
    uint32_t r = 0;
    while (pc[r] == sched_rank_count(s, r))
        r++;
    for (uint32_t steps = 0; steps < s->p; steps++) /* walk into the cycle */
        r = (uint32_t)s->op[s->first[r] + pc[r]].peer;
    char msg[512] = "", where[128], file[4200];
    uint32_t start = r;
    sched_op_file_line(s, s->first[r] + pc[r], file, sizeof file);
    for (int shown = 0; shown < 6; shown++) {
        sched_op_describe(s, s->first[r] + pc[r], where, sizeof where);
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, "%s%s", shown ? "; " : "", where);
        r = (uint32_t)s->op[s->first[r] + pc[r]].peer;
        if (r == start)
            break;
    }
    return lop_err(LOP_ERR_INVALID, "%sschedule %s: deadlock: %s%s", file, s->alg, msg,
                   r == start ? "" : "; ...");
}

lop_status_t sched_flow_stuck(const sched_t *s, const uint32_t *pc)
{
    uint32_t *match = lop_calloc(s->n_ops, sizeof *match);
    if (!match)
        return LOP_ERR_NOMEM;
    lop_status_t st = sched_match(s, match);
    free(match);
    return st ? st : deadlock(s, pc);
}

static lop_status_t flow_alloc(flow_t *f, uint32_t levels, uint32_t longest_run)
{
    const sched_t *s = f->s;
    f->pc = lop_calloc(s->p, sizeof *f->pc);
    f->blocked = lop_calloc(s->p, 1);
    f->queue = lop_calloc(s->p, sizeof *f->queue);
    f->park = lop_calloc(levels, sizeof *f->park);
    f->park_end = lop_calloc(levels, sizeof *f->park_end);
    f->park_next = lop_calloc(s->p, sizeof *f->park_next);
    f->inbox = lop_calloc(s->p, sizeof *f->inbox);
    f->inbox_end = lop_calloc(s->p, sizeof *f->inbox_end);
    f->indexed = lop_calloc(s->p, 1);
    f->taken = lop_calloc(s->p, sizeof *f->taken);
    f->batch = lop_calloc(longest_run + 1, sizeof *f->batch);
    if (!f->pc || !f->blocked || !f->queue || !f->park || !f->park_end || !f->park_next ||
        !f->inbox || !f->inbox_end || !f->indexed || !f->taken || !f->batch)
        return LOP_ERR_NOMEM;
    memset(f->park, 0xff, levels * sizeof *f->park); /* NONE */
    memset(f->inbox, 0xff, s->p * sizeof *f->inbox);
    memset(f->taken, 0xff, s->p * sizeof *f->taken);
    f->free_list = NONE;
    return LOP_OK;
}

static void flow_free(flow_t *f)
{
    free(f->pc);
    free(f->blocked);
    free(f->queue);
    free(f->park);
    free(f->park_end);
    free(f->park_next);
    free(f->inbox);
    free(f->inbox_end);
    free(f->indexed);
    free(f->pairs);
    free(f->taken);
    free(f->batch);
    free(f->pool);
    free(f->link);
}

/* Run the ranks parked for level 'level' and whoever they wake.  In
 * lockstep every rank first posts the level's sends up to its first RECV,
 * so the RECVs find their messages: an exchange round (nwise's n sends,
 * then n receives in another order than the senders run) blocks and wakes
 * no rank, where running each rank in turn blocked about half of them. */
static void run_level(flow_t *f, uint32_t level)
{
    uint32_t r = f->park[level], next;
    f->level = level;
    f->park[level] = NONE;
    for (; r != NONE; r = next) {
        next = f->park_next[r]; /* before running it: it may park again */
        if (f->budget > 0 || run_rank(f, r, 1))
            enqueue(f, r);
    }
    while (f->count > 0 && f->error == LOP_OK && !f->halted) {
        uint32_t rank = f->queue[f->head];
        f->head = f->head + 1 == f->s->p ? 0 : f->head + 1;
        f->count--;
        run_rank(f, rank, 0);
        f->halted = f->ops->halted && f->ops->halted(f->ctx);
    }
}

/* Steps as levels unless a file names absurd steps (the park array is per
 * step); lockstep when the average step keeps every rank busy. */
static int steps_are_levels(const sched_t *s)
{
    return s->n_steps <= (uint64_t)s->n_ops + 1;
}

static int lockstep(const sched_t *s)
{
    uint32_t levels = steps_are_levels(s) && s->n_steps > 0 ? s->n_steps : 1;
    return (uint64_t)s->n_ops >= (uint64_t)levels * s->p;
}

sched_run_t sched_flow_way(const sched_t *s, const sched_scan_t *scan)
{
    if (s->form != SCHED_STORED)
        return SCHED_RUN_SWEEP;
    /* built (sched.h's step promises; a file may break them), runs of RECVs
     * within a step, few RECVs a step */
    if (steps_are_levels(s) && lockstep(s) && !s->path && !scan->runs_span_steps &&
        scan->step_recvs <= SCHED_PASS_MAX_SLOTS)
        return SCHED_RUN_PASSES;
    return SCHED_RUN_DATAFLOW;
}

lop_status_t sched_flow_dataflow(const sched_t *s, const sched_scan_t *scan,
                                 const sched_flow_ops_t *ops, void *ctx, uint64_t *events)
{
    flow_t f = {.s = s, .ops = ops, .ctx = ctx};
    int by_step = steps_are_levels(s);
    f.step_cap = by_step ? UINT32_MAX : 0;
    uint32_t levels = by_step && s->n_steps > 0 ? s->n_steps : 1;
    /* Lockstep when the average step keeps every rank busy (the disseminations
     * and exchanges: free-running ranks would race ahead and leave P log P
     * messages in flight); else free running while fewer than P messages are
     * in flight (a rank goes on while its data are in the cache, which the
     * trees, with few ranks busy per step, like better).  Measured at P =
     * 2^20: lockstep takes diss from 2.0 to 0.7 s, free running tour from 0.9
     * to 0.2 s. */
    f.budget = lockstep(s) ? 0 : s->p;
    lop_status_t st = flow_alloc(&f, levels, scan->longest_run);
    for (uint32_t r = 0; r < s->p && st == LOP_OK; r++)
        make_runnable(&f, r);
    for (uint32_t level = 0; level < levels && st == LOP_OK && !f.halted; level++) {
        run_level(&f, level);
        st = f.error;
    }
    for (uint32_t r = 0; r < s->p && st == LOP_OK && !f.halted; r++)
        if (f.pc[r] != sched_rank_count(s, r))
            st = sched_flow_stuck(s, f.pc);
    if (st == LOP_OK && !f.halted && f.in_flight > 0)
        st = sched_flow_stuck(s, f.pc);
    *events = f.events;
    flow_free(&f);
    return st;
}
