/* sched_flow.c - message matching and causal execution of a schedule (sched_flow.h). */
#include "sched_flow.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- sorting */

/* Ops of one rank sorted by (peer, program order) as 64-bit keys. */
static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void sched_keys_sort(uint64_t *key, size_t n)
{
    if (n > 32) {
        qsort(key, n, sizeof *key, key_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) { /* short lists are the rule: insertion sort */
        uint64_t k = key[i];
        size_t j = i;
        for (; j > 0 && key[j - 1] > k; j--)
            key[j] = key[j - 1];
        key[j] = k;
    }
}

static uint64_t key_of(int32_t peer, uint32_t op)
{
    return (uint64_t)(uint32_t)peer << 32 | op;
}

/* -------------------------------------------------------------- matching */

typedef struct {
    const sched_t *s;
    uint32_t *match;
    uint32_t *by_peer;  /* per rank, its SEND ops sorted by (peer, order), in the rank's op range */
    uint32_t *n_sends;  /* SEND ops per rank */
    uint8_t *has_mcast; /* does the rank multicast? */
    uint64_t *scratch;  /* keys of one rank */
} matcher_t;

/* Validate the peers; '*longest' (if given) gets the longest run of
 * consecutive RECVs, the most messages one recv_run() call hands over. */
static lop_status_t scan_ops(const sched_t *s, uint32_t *longest)
{
    uint32_t run = 0, most = 0;
    for (uint32_t r = 0; r < s->p; r++, run = 0)
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++) {
            const sched_op_t *o = &s->op[i];
            if (o->kind == SCHED_MCAST ? o->peer != -1
                                       : o->peer < 0 || (uint32_t)o->peer >= s->p)
                return sched_op_error(s, i, " names no rank");
            if (o->peer == (int32_t)r)
                return sched_op_error(s, i, " addresses the rank itself");
            run = o->kind == SCHED_RECV ? run + 1 : 0;
            most = run > most ? run : most;
        }
    if (longest)
        *longest = most;
    return LOP_OK;
}

lop_status_t sched_validate_peers(const sched_t *s)
{
    return scan_ops(s, NULL);
}

/* Sort each rank's SENDs by destination; initialise match[]. */
static void index_sends(matcher_t *m)
{
    const sched_t *s = m->s;
    for (uint32_t r = 0; r < s->p; r++) {
        uint32_t n = 0;
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++) {
            m->match[i] = s->op[i].kind == SCHED_MCAST ? 0 : SCHED_UNMATCHED;
            if (s->op[i].kind == SCHED_SEND)
                m->scratch[n++] = key_of(s->op[i].peer, i);
            m->has_mcast[r] |= s->op[i].kind == SCHED_MCAST;
        }
        sched_keys_sort(m->scratch, n);
        for (uint32_t k = 0; k < n; k++)
            m->by_peer[s->first[r] + k] = (uint32_t)m->scratch[k];
        m->n_sends[r] = n;
    }
}

/* The position of sender's first SEND to q in its by_peer list. */
static uint32_t first_send_to(const matcher_t *m, uint32_t sender, uint32_t q)
{
    const uint32_t *list = m->by_peer + m->s->first[sender];
    uint32_t lo = 0, hi = m->n_sends[sender];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)m->s->op[list[mid]].peer < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The next message from 'sender' to q after op 'after' (or from the start if
 * 'after' is UINT32_MAX), for a sender that multicasts: a linear walk. */
static uint32_t next_message_walk(const sched_t *s, uint32_t sender, uint32_t q, uint32_t after)
{
    uint32_t i = after == SCHED_UNMATCHED ? s->first[sender] : after + 1;
    for (; i < s->first[sender + 1]; i++)
        if (s->op[i].kind == SCHED_MCAST ||
            (s->op[i].kind == SCHED_SEND && s->op[i].peer == (int32_t)q))
            return i;
    return SCHED_UNMATCHED;
}

/* Pair the RECVs of q from 'sender' (keys[0..n), program order) with its messages. */
static lop_status_t pair_group(matcher_t *m, uint32_t q, uint32_t sender, const uint64_t *keys,
                               uint32_t n)
{
    const sched_t *s = m->s;
    uint32_t pos = first_send_to(m, sender, q), msg = SCHED_UNMATCHED;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t recv = (uint32_t)keys[k];
        if (m->has_mcast[sender])
            msg = next_message_walk(s, sender, q, msg);
        else if (pos + k < m->n_sends[sender] &&
                 s->op[m->by_peer[s->first[sender] + pos + k]].peer == (int32_t)q)
            msg = m->by_peer[s->first[sender] + pos + k];
        else
            msg = SCHED_UNMATCHED;
        if (msg == SCHED_UNMATCHED)
            return sched_op_error(s, recv, " waits for a message the peer never sends");
        m->match[recv] = msg;
        if (s->op[msg].kind == SCHED_MCAST)
            m->match[msg]++;
        else
            m->match[msg] = recv;
    }
    return LOP_OK;
}

/* Match every RECV of rank q. */
static lop_status_t match_rank(matcher_t *m, uint32_t q)
{
    const sched_t *s = m->s;
    uint32_t n = 0;
    for (uint32_t i = s->first[q]; i < s->first[q + 1]; i++)
        if (s->op[i].kind == SCHED_RECV)
            m->scratch[n++] = key_of(s->op[i].peer, i);
    sched_keys_sort(m->scratch, n);
    lop_status_t st = LOP_OK;
    for (uint32_t a = 0, b; a < n && st == LOP_OK; a = b) {
        uint32_t sender = (uint32_t)(m->scratch[a] >> 32);
        for (b = a; b < n && m->scratch[b] >> 32 == sender; b++)
            ;
        st = pair_group(m, q, sender, m->scratch + a, b - a);
    }
    return st;
}

/* Every SEND consumed, every MCAST consumed by all other ranks. */
static lop_status_t all_received(const sched_t *s, const uint32_t *match)
{
    for (uint32_t i = 0; i < s->n_ops; i++) {
        if (s->op[i].kind == SCHED_SEND && match[i] == SCHED_UNMATCHED)
            return sched_op_error(s, i, " is never received");
        if (s->op[i].kind == SCHED_MCAST && match[i] != s->p - 1)
            return sched_op_error(s, i, " is not received by every other rank exactly once");
    }
    return LOP_OK;
}

lop_status_t sched_match(const sched_t *s, uint32_t *match)
{
    lop_status_t st = sched_validate_peers(s);
    if (st)
        return st;
    matcher_t m = {s, match, lop_calloc(s->n_ops, sizeof(uint32_t)),
                   lop_calloc(s->p, sizeof(uint32_t)), lop_calloc(s->p, 1),
                   lop_calloc(sched_rank_max(s), sizeof(uint64_t))};
    st = m.by_peer && m.n_sends && m.has_mcast && m.scratch ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK)
        index_sends(&m);
    for (uint32_t q = 0; q < s->p && st == LOP_OK; q++)
        st = match_rank(&m, q);
    st = st ? st : all_received(s, match);
    free(m.by_peer);
    free(m.n_sends);
    free(m.has_mcast);
    free(m.scratch);
    return st;
}

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
    uint32_t *pc;        /* next op of each rank (global index) */
    uint8_t *blocked;    /* is the rank waiting at pc for a message? */
    uint32_t *queue;     /* ring of ranks runnable in this level, each at most once */
    uint32_t head, count;
    uint32_t level;      /* the level being run */
    int by_step;         /* levels are steps (else everything is level 0) */
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
    uint64_t events;
} flow_t;

static uint32_t level_of(const flow_t *f, uint32_t op)
{
    return f->by_step ? f->s->op[op].step : 0;
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

/* Should a rank wait at op i for a later level?  Only when 'budget'
 * messages are in flight already (sched_flow_run chooses it). */
static int must_wait(const flow_t *f, uint32_t i)
{
    return f->in_flight >= f->budget && level_of(f, i) > f->level;
}

static void park(flow_t *f, uint32_t rank)
{
    uint32_t level = level_of(f, f->pc[rank]);
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

/* Append a message of op 'op' carrying 'value' to q's inbox (or the index);
 * wake q if it waits for it. */
static void deliver(flow_t *f, uint32_t rank, uint32_t op, double value, uint32_t q)
{
    uint32_t n = node_new(f);
    if (n == NONE)
        return;
    f->pool[n] = (sched_msg_t){op, rank, value};
    f->link[n] = NONE;
    if (f->indexed[q])
        pair_push(f, rank, q, n);
    else if (f->inbox[q] == NONE)
        f->inbox[q] = n;
    else
        f->link[f->inbox_end[q]] = n;
    if (!f->indexed[q])
        f->inbox_end[q] = n;
    if (f->blocked[q] && f->s->op[f->pc[q]].peer == (int32_t)rank)
        make_runnable(f, q);
}

static void post(flow_t *f, uint32_t rank, uint32_t op)
{
    const sched_t *s = f->s;
    double value = f->ops->post(f->ctx, rank, op);
    if (s->op[op].kind == SCHED_SEND) {
        deliver(f, rank, op, value, (uint32_t)s->op[op].peer);
        return;
    }
    for (uint32_t q = 0; q < s->p; q++)
        if (q != rank)
            deliver(f, rank, op, value, q);
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

/* The RECV run of 'rank' ending at op 'last' is complete: hand it over. */
static void recv_run(flow_t *f, uint32_t rank, uint32_t last)
{
    uint32_t k = 0, n;
    for (n = f->taken[rank]; n != NONE; n = f->link[n])
        k++;
    uint32_t first = last + 1 - k, i = k;
    for (n = f->taken[rank]; n != NONE;) { /* newest first: fill from the end */
        uint32_t next = f->link[n];
        f->batch[--i] = f->pool[n];
        f->link[n] = f->free_list;
        f->free_list = n;
        f->in_flight--;
        n = next;
    }
    f->taken[rank] = NONE;
    f->ops->recv_run(f->ctx, rank, first, last, f->batch);
}

/* Execute the RECV at i if its message is there; 0 if the rank must wait. */
static int try_recv(flow_t *f, uint32_t rank, uint32_t i, uint32_t end)
{
    const sched_t *s = f->s;
    uint32_t n = take(f, rank, (uint32_t)s->op[i].peer);
    if (n == NONE) {
        f->blocked[rank] = 1;
        return 0;
    }
    f->link[n] = f->taken[rank];
    f->taken[rank] = n;
    if (i + 1 == end || s->op[i + 1].kind != SCHED_RECV)
        recv_run(f, rank, i);
    return 1;
}

/* Run 'rank' until it blocks, ends or reaches a later level. */
static void run_rank(flow_t *f, uint32_t rank)
{
    const sched_t *s = f->s;
    uint32_t end = s->first[rank + 1];
    while (f->pc[rank] < end && f->error == LOP_OK) {
        uint32_t i = f->pc[rank];
        if (must_wait(f, i)) {
            park(f, rank);
            return;
        }
        if (s->op[i].kind == SCHED_RECV) {
            if (!try_recv(f, rank, i, end))
                return;
            f->pc[rank]++;
        } else {
            f->pc[rank]++; /* before waking anyone: a receiver may look at it */
            post(f, rank, i);
        }
        f->events++;
    }
}

/* Describe the cycle of waits that starts at a blocked rank. */
static lop_status_t deadlock(const flow_t *f)
{
    const sched_t *s = f->s;
    uint32_t r = 0;
    while (f->pc[r] == s->first[r + 1])
        r++;
    for (uint32_t steps = 0; steps < s->p; steps++) /* walk into the cycle */
        r = (uint32_t)s->op[f->pc[r]].peer;
    char msg[512] = "", where[128], file[4200];
    uint32_t start = r;
    sched_op_file_line(s, f->pc[r], file, sizeof file);
    for (int shown = 0; shown < 6; shown++) {
        sched_op_describe(s, f->pc[r], where, sizeof where);
        size_t len = strlen(msg);
        snprintf(msg + len, sizeof msg - len, "%s%s", shown ? "; " : "", where);
        r = (uint32_t)s->op[f->pc[r]].peer;
        if (r == start)
            break;
    }
    return lop_err(LOP_ERR_INVALID, "%sschedule %s: deadlock: %s%s", file, s->alg, msg,
                   r == start ? "" : "; ...");
}

/* Ranks left waiting or messages left over: a RECV without message or a
 * message without RECV is what sched_match reports (one per-op array, on this
 * error path only); otherwise the ranks wait for each other. */
static lop_status_t diagnose(const flow_t *f)
{
    uint32_t *match = lop_calloc(f->s->n_ops, sizeof *match);
    if (!match)
        return LOP_ERR_NOMEM;
    lop_status_t st = sched_match(f->s, match);
    free(match);
    return st ? st : deadlock(f);
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

/* Run the ranks parked for level 'level' and whoever they wake. */
static void run_level(flow_t *f, uint32_t level)
{
    f->level = level;
    for (uint32_t r = f->park[level]; r != NONE; r = f->park_next[r])
        enqueue(f, r);
    f->park[level] = NONE;
    while (f->count > 0 && f->error == LOP_OK) {
        uint32_t rank = f->queue[f->head];
        f->head = f->head + 1 == f->s->p ? 0 : f->head + 1;
        f->count--;
        run_rank(f, rank);
    }
}

lop_status_t sched_flow_run(const sched_t *s, const sched_flow_ops_t *ops, void *ctx,
                            uint64_t *events)
{
    flow_t f = {.s = s, .ops = ops, .ctx = ctx};
    /* Steps as levels unless a file names absurd steps (the park array is per step). */
    f.by_step = s->n_steps <= (uint64_t)s->n_ops + 1;
    uint32_t levels = f.by_step && s->n_steps > 0 ? s->n_steps : 1;
    /* Lockstep when the average step keeps every rank busy (the disseminations
     * and exchanges: free-running ranks would race ahead and leave P log P
     * messages in flight); else free running while fewer than P messages are
     * in flight (a rank goes on while its data are in the cache, which the
     * trees, with few ranks busy per step, like better).  Measured at P = 2^20
     * (models/README.md): lockstep takes diss from 2.0 to 0.7 s, free running
     * tour from 0.9 to 0.2 s. */
    f.budget = (uint64_t)s->n_ops >= (uint64_t)levels * s->p ? 0 : s->p;
    uint32_t longest_run = 0;
    lop_status_t st = scan_ops(s, &longest_run);
    st = st ? st : flow_alloc(&f, levels, longest_run);
    for (uint32_t r = 0; r < s->p && st == LOP_OK; r++) {
        f.pc[r] = s->first[r];
        make_runnable(&f, r);
    }
    for (uint32_t level = 0; level < levels && st == LOP_OK; level++) {
        run_level(&f, level);
        st = f.error;
    }
    for (uint32_t r = 0; r < s->p && st == LOP_OK; r++)
        if (f.pc[r] != s->first[r + 1])
            st = diagnose(&f);
    if (st == LOP_OK && f.in_flight > 0)
        st = diagnose(&f);
    *events = f.events;
    flow_free(&f);
    return st;
}
