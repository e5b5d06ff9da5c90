/* sched_sim.c - LogP and LoP event simulation of a schedule (sched_sim.h). */
#include "sched_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "sched_flow.h"
#include "timer.h"
#define LOP_SCHED_FLOW_DRIVER /* the sweep and the passes, inlined with the callbacks */
#include "sched_pass.h"
#include "sched_sweep.h"


/* o(cnt x) and L(cnt x) for one x: the LoP fits are costly (exp), x repeats. */
typedef struct {
    uint32_t x; /* 0: empty */
    double o_us, L_us;
} lop_memo_t;

#define MEMO_SIZE 256
#define SIM_STAGGER (8 * 23) /* doubles between the rank arrays beyond P: 23 cache lines */

typedef struct {
    double leave, L_us;
} arrival_t;

/* LogP in arrival order: a message of a run of RECVs. */
typedef struct {
    double at_us; /* its arrival */
    double or_us; /* its receive overhead */
    uint32_t k;   /* its place in the run: equal arrivals are taken in program order */
    int ack;      /* unanswered: its delivery costs the receiver's sending side ack_us */
} logp_arrival_t;

typedef struct {
    const sched_t *s;
    const sched_sim_t *par;
    /* per rank, an array each (a sweep streams through the two it needs) */
    double *cpu;          /* when the CPU is free */
    double *tx;           /* LogP: start of the last send; with adapter_gap the theoretical
                             time of the next paced message (bucket_pass); LoP: when the
                             last message left */
    double *rx;           /* LogP: start of the last receive; with adapter_gap the
                             theoretical time of the next paced delivery (bucket_pass);
                             LoP: the last delivery */
    const pairs_t *pairs; /* par->pairs (LogP): NULL when every pair costs the same */
    logp_t logp;          /* par->cost->logp, at hand */
    int gap;              /* LogP: can the gap g hold a rank back (else tx, rx unused)? */
    uint32_t *match;    /* LoP batch only: per op, sched_match's (the RECV of a SEND) */
    uint32_t *stream;   /* LoP stream: messages per rank, sent in [2r], received in [2r+1]
                           (one pair for a generated schedule: every rank's are rank 0's) */
    uint32_t *run;      /* LoP batch: per op, the length of its run of SENDs or RECVs */
    arrival_t *pending; /* LoP: one receive batch */
    int mc;             /* LoP: a measured multicast (barrier_lop_mcast): 1, 0, or -1
                           until the first MCAST asks (its range recorded only then) */
    double mc_o, mc_L;  /* ... to the P - 1 others: its post's o, its L */
    logp_arrival_t *arrival; /* LogP in arrival order: one run's messages */
    uint32_t *sends_first; /* with ack_us: whom each rank sends to (sched_send_peers) */
    int32_t *sends_to;
    double give_up;     /* par->give_up_us, or +inf */
    int over;           /* a rank's time passed give_up */
    lop_memo_t memo[MEMO_SIZE];
} sim_t;

/* fmax without the call (glibc's is not inlined at -O2): the larger, the
 * second when they are equal (as maxsd), the number when one is a NaN. */
static inline double max2(double a, double b)
{
    return a > b || b != b ? a : b;
}

/* ------------------------------------------------------------------ LogP */

/* An MCAST's o_s with per-pair costs: the largest over its receivers (Meyer
 * and Elster's equation 1). */
static double mcast_overhead(const sim_t *sim, uint32_t rank)
{
    double os, L, most = 0;
    for (uint32_t q = 0; q < sim->s->p; q++)
        if (q != rank) {
            pairs_cost(sim->pairs, rank, q, &os, &L);
            most = fmax(most, os);
        }
    return most;
}

/* The LogP model below takes two switches, 'gap' (sim_t.gap) and 'pairs'
 * (per-pair costs): the callbacks for any run pass sim_t's, the plain ones
 * (g = 0, one cost for every pair, program order: what the sweep of a large
 * dissemination needs) pass constant 0s, and the compiler leaves those
 * branches out. */
#define HOT static inline __attribute__((always_inline))

/* After a rank's run of receives: has its time passed the give-up time?
 * (A rank's time only grows, and the barrier's is the largest.) */
HOT void note_time(sim_t *sim, uint32_t rank)
{
    if (sim->cpu[rank] > sim->give_up)
        sim->over = 1;
}

static int sim_halted(void *ctx)
{
    return ((const sim_t *)ctx)->over;
}

/* o_s of op 'o' of 'rank': the pair's with per-pair costs, else o_s. */
HOT double send_overhead(const sim_t *sim, uint32_t rank, sched_op_t o, int pairs)
{
    double os, L;
    if (!pairs)
        return sim->logp.os_us;
    if (o.kind == SCHED_SEND) {
        pairs_cost(sim->pairs, rank, (uint32_t)o.peer, &os, &L);
        return os;
    }
    return mcast_overhead(sim, rank);
}

/* L from 'sender' to 'rank' and the receive overhead of that message: the
 * pair's L (with or_per_pair its o as o_r too: LogP has one o) with per-pair
 * costs, else L and o_r. */
HOT double latency(const sim_t *sim, uint32_t sender, uint32_t rank, double *or_us, int pairs)
{
    double os, L;
    *or_us = sim->logp.or_us;
    if (!pairs)
        return sim->logp.L_us;
    pairs_cost(sim->pairs, sender, rank, &os, &L);
    if (sim->par->or_per_pair)
        *or_us = os;
    return L;
}

/* When a message that reaches an adapter at 'at' passes it, the adapter a
 * token bucket of B = adapter_burst messages refilled one per g (the generic
 * cell rate algorithm, ITU-T I.371): *next is the theoretical time of the
 * next message when paced, when the bucket is full again; a message may
 * pass up to (B - 1) g before it, so after idle B pass at once and then one
 * per g.  B <= 1 is one message per g, max{at, previous leave + g}.  What
 * passes takes 'cost' of the bucket: g for a message (bucket_pass), ack_us
 * for an acknowledgement. */
HOT double bucket_take(const sim_t *sim, double *next, double at, double cost)
{
    double g = sim->logp.g_us, burst = sim->par->adapter_burst;
    double leave = max2(at, *next - (burst > 1 ? (burst - 1) * g : 0));
    *next = max2(leave, *next) + cost;
    return leave;
}

HOT double bucket_pass(const sim_t *sim, double *next, double at)
{
    return bucket_take(sim, next, at, sim->logp.g_us);
}

/* Is a message 'from' never answered at 'rank' (asked with ack_us only)?
 * Then its acknowledgement travels alone (sched_sim_t.ack_us). */
HOT int unanswered(const sim_t *sim, uint32_t rank, uint32_t from, int gap)
{
    return gap && sim->sends_to && !sched_sends_to(sim->sends_first, sim->sends_to, rank, from);
}

/* A send starts at max{CPU free, previous send start + g}; the message
 * carries the time its send overhead ends, the receiver adds L.  With the
 * gap on the adapter the CPU posts and goes on, and the message leaves at
 * max{post's end, previous message's leave + g}, or with a burst when the
 * adapter's bucket lets it (bucket_pass). */
HOT double logp_send(sim_t *sim, uint32_t rank, sched_op_t o, int gap, int pairs)
{
    double start = sim->cpu[rank];
    if (gap && sim->par->adapter_gap) {
        double end = sim->cpu[rank] = start + send_overhead(sim, rank, o, pairs);
        return bucket_pass(sim, &sim->tx[rank], end);
    }
    if (gap) {
        start = max2(start, sim->tx[rank] + sim->logp.g_us);
        sim->tx[rank] = start;
    }
    return sim->cpu[rank] = start + send_overhead(sim, rank, o, pairs);
}

/* A receive starts at max{CPU free, arrival, previous receive start + g}.
 * With the gap on the adapter, the adapter delivers at max{arrival, previous
 * delivery + g} (or with a burst, bucket_pass), whatever the CPU does, and
 * the receive starts at max{CPU free, delivery}; a shared adapter counts
 * its sends as previous deliveries (one bucket, tx). */
HOT void logp_charge(sim_t *sim, uint32_t rank, const logp_arrival_t *a, int gap)
{
    double start = max2(sim->cpu[rank], a->at_us);
    if (gap && sim->par->adapter_gap) {
        double *next = sim->par->adapter_shared ? &sim->tx[rank] : &sim->rx[rank];
        double delivered = bucket_pass(sim, next, a->at_us);
        if (a->ack) /* its acknowledgement leaves through the sending side */
            bucket_take(sim, &sim->tx[rank], delivered, sim->par->ack_us);
        start = max2(sim->cpu[rank], delivered);
    } else if (gap) {
        start = max2(start, sim->rx[rank] + sim->logp.g_us);
        sim->rx[rank] = start;
    }
    sim->cpu[rank] = start + a->or_us;
}

/* Earlier arrival first; equal ones in program order (with per-pair o_r
 * and g > 0 their order can change the time, so the sort is made stable). */
static int arrival_time_cmp(const void *a, const void *b)
{
    const logp_arrival_t *x = a, *y = b;
    if (x->at_us != y->at_us)
        return (x->at_us > y->at_us) - (x->at_us < y->at_us);
    return (x->k > y->k) - (x->k < y->k);
}

/* Arrival order: the run's messages by arrival time (out of line: the
 * sweep inlines the program order). */
static __attribute__((noinline)) void logp_recv_arrival(sim_t *sim, uint32_t rank, uint32_t n,
                                                        const sched_msg_t *msg)
{
    for (uint32_t k = 0; k < n; k++) {
        logp_arrival_t *a = &sim->arrival[k];
        a->k = k;
        a->at_us = msg[k].value + latency(sim, msg[k].from, rank, &a->or_us, sim->pairs != NULL);
        a->ack = unanswered(sim, rank, msg[k].from, sim->gap);
    }
    qsort(sim->arrival, n, sizeof *sim->arrival, arrival_time_cmp);
    for (uint32_t k = 0; k < n; k++)
        logp_charge(sim, rank, &sim->arrival[k], sim->gap);
    note_time(sim, rank);
}

/* Program order: each RECV when the rank reaches it ('halting': and the
 * give-up time watched, which the sweep of a generated schedule never asks:
 * 8 % of a plain dissemination's instructions). */
HOT void logp_receive(sim_t *sim, uint32_t rank, uint32_t n, const sched_msg_t *msg, int gap,
                      int pairs, int halting)
{
    for (uint32_t k = 0; k < n; k++) {
        logp_arrival_t a = {0, 0, k, unanswered(sim, rank, msg[k].from, gap)};
        a.at_us = msg[k].value + latency(sim, msg[k].from, rank, &a.or_us, pairs);
        logp_charge(sim, rank, &a, gap);
    }
    if (halting)
        note_time(sim, rank);
}

/* The callbacks: any run ... */
HOT double logp_post(void *ctx, uint32_t rank, uint32_t k, sched_op_t o)
{
    sim_t *sim = ctx;
    (void)k;
    return logp_send(sim, rank, o, sim->gap, sim->pairs != NULL);
}

HOT void logp_recv_run(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                       const sched_msg_t *msg)
{
    sim_t *sim = ctx;
    if (sim->par->recv_order != SCHED_RECV_PROGRAM)
        logp_recv_arrival(sim, rank, last - first + 1, msg);
    else
        logp_receive(sim, rank, last - first + 1, msg, sim->gap, sim->pairs != NULL, 1);
}

/* ... and the plain case (sim_t.gap 0, no per-pair costs, program order). */
HOT double logp_post_plain(void *ctx, uint32_t rank, uint32_t k, sched_op_t o)
{
    (void)k;
    return logp_send(ctx, rank, o, 0, 0);
}

HOT void logp_recv_plain(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                         const sched_msg_t *msg)
{
    logp_receive(ctx, rank, last - first + 1, msg, 0, 0, 1);
}

HOT void logp_recv_sweep(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                         const sched_msg_t *msg)
{
    logp_receive(ctx, rank, last - first + 1, msg, 0, 0, 0);
}

static const sched_flow_ops_t logp_plain_ops = {logp_post_plain, logp_recv_plain, sim_halted};
static const sched_flow_ops_t logp_sweep_ops = {logp_post_plain, logp_recv_sweep, NULL};
static const sched_flow_ops_t logp_ops = {logp_post, logp_recv_run, sim_halted};

/* ------------------------------------------------------------------- LoP */

static const lop_memo_t *lop_at(sim_t *sim, uint32_t x)
{
    lop_memo_t *e = &sim->memo[x % MEMO_SIZE];
    if (e->x != x) {
        e->x = x;
        e->o_us = barrier_lop_o(sim->par->cost, x);
        e->L_us = barrier_lop_L(sim->par->cost, x);
    }
    return e;
}

static uint32_t umax(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* Messages 'rank' sends (recv = 0) or receives (recv = 1) in the barrier. */
static inline uint32_t stream_of(const sim_t *sim, uint32_t rank, int recv)
{
    return sim->stream[sim->s->form ? (uint32_t)recv : 2 * rank + (uint32_t)recv];
}

/* LoP's argument of the posting side of op k of 'rank': its stream or its batch. */
static uint32_t x_post(const sim_t *sim, uint32_t rank, uint32_t k)
{
    if (sim->par->lop_arg == SCHED_LOP_STREAM)
        return stream_of(sim, rank, 0);
    return sim->run[sim->s->first[rank] + k];
}

/* The same for a message: op 'send' of 'sender' taken by op 'recv' of q. */
static uint32_t x_message(const sim_t *sim, uint32_t sender, uint32_t send, uint32_t q,
                          uint32_t recv)
{
    if (sim->par->lop_arg == SCHED_LOP_STREAM)
        return umax(stream_of(sim, sender, 0), stream_of(sim, q, 1));
    return umax(sim->run[sim->s->first[sender] + send], sim->run[sim->s->first[q] + recv]);
}

/* Is rgm's release priced by a measured multicast?  Asked at an MCAST only,
 * so a schedule without one does not record its argument P - 1. */
static int lop_mcast_measured(sim_t *sim)
{
    if (sim->mc < 0)
        sim->mc = barrier_lop_mcast(sim->par->cost, sim->s->p - 1.0, &sim->mc_o, &sim->mc_L);
    return sim->mc;
}

HOT double lop_post(void *ctx, uint32_t rank, uint32_t k, sched_op_t o)
{
    sim_t *sim = ctx;
    if (o.kind == SCHED_MCAST && lop_mcast_measured(sim)) { /* one post, leaves for all */
        sim->cpu[rank] += sim->mc_o;
        return max2(sim->cpu[rank], sim->tx[rank]) + sim->mc_L;
    }
    const lop_memo_t *mine = lop_at(sim, x_post(sim, rank, k));
    sim->cpu[rank] += mine->o_us;
    double start = max2(sim->cpu[rank], sim->tx[rank]);
    if (o.kind == SCHED_MCAST) { /* per-receiver L is added on delivery */
        sim->tx[rank] = start + mine->L_us;
        return start;
    }
    uint32_t q = (uint32_t)o.peer, recv = 0;
    if (sim->match) { /* batch: the consuming RECV's index in q's ops */
        uint32_t g = sim->match[sim->s->first[rank] + k];
        recv = g - sim->s->first[q];
    }
    return sim->tx[rank] = start + lop_at(sim, x_message(sim, rank, k, q, recv))->L_us;
}

static int arrival_cmp(const void *a, const void *b)
{
    double x = ((const arrival_t *)a)->leave, y = ((const arrival_t *)b)->leave;
    return (x > y) - (x < y);
}

HOT void lop_recv_run(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                         const sched_msg_t *msg)
{
    sim_t *sim = ctx;
    uint32_t n = 0;
    for (uint32_t i = first; i <= last; i++, n++) {
        const sched_msg_t *g = &msg[i - first];
        double L = lop_at(sim, x_message(sim, g->from, g->send, rank, i))->L_us;
        int mcast = sched_op_at(sim->s, g->from, g->send).kind == SCHED_MCAST;
        sim->pending[n] = mcast && sim->mc > 0 ? (arrival_t){g->value, 0}
                                           : (arrival_t){g->value + (mcast ? L : 0), L};
    }
    if (n > 1)
        qsort(sim->pending, n, sizeof *sim->pending, arrival_cmp);
    for (uint32_t k = 0; k < n; k++)
        sim->rx[rank] = max2(sim->pending[k].leave, sim->rx[rank] + sim->pending[k].L_us);
    sim->cpu[rank] = max2(sim->cpu[rank], sim->rx[rank]);
    note_time(sim, rank);
}

static const sched_flow_ops_t lop_ops = {lop_post, lop_recv_run, sim_halted};

/* Messages sent (SEND, MCAST) and received per rank (a generated
 * schedule: rank 0's, every rank's). */
static void count_streams(const sched_t *s, uint32_t *stream)
{
    for (uint32_t r = 0; r < (s->form ? 1 : s->p); r++)
        for (uint32_t k = 0; k < sched_rank_count(s, r); k++)
            stream[2 * r + (sched_op_at(s, r, k).kind == SCHED_RECV)]++;
}

/* Length of each op's run of consecutive SENDs or RECVs (an MCAST is alone). */
static void measure_runs(const sched_t *s, uint32_t *run)
{
    for (uint32_t r = 0; r < s->p; r++)
        for (uint32_t i = s->first[r], j; i < s->first[r + 1]; i = j) {
            for (j = i + 1; j < s->first[r + 1] && s->op[i].kind != SCHED_MCAST &&
                            s->op[j].kind == s->op[i].kind;
                 j++)
                ;
            for (uint32_t k = i; k < j; k++)
                run[k] = j - i;
        }
}

/* ---------------------------------------------------------------- driver */


/* Does LogP need a rank's last send and receive starts?  Not with g = 0
 * and overheads >= 0 (per-pair ones are, pairs.h): a send or receive ends
 * no earlier than it starts, so the CPU is never free before either start
 * plus g, and max{CPU free, start + g} is the CPU's time, bit for bit; a
 * dissemination then streams one array per rank instead of three.  LoP
 * keeps them (its HCA's times), as does g > 0 or an overhead below 0 or NaN
 * (a set's fit can give one). */
static int logp_gap(const sim_t *sim)
{
    const logp_t *m = &sim->logp;
    return sim->par->model != SCHED_SIM_LOGP || m->g_us != 0 || !(m->or_us >= 0) ||
           (!sim->pairs && !(m->os_us >= 0));
}

/* Are unanswered messages acknowledged apart (a stored schedule's sends
 * listed per rank)? */
static int sim_acks(const sched_sim_t *par)
{
    return par->model == SCHED_SIM_LOGP && par->adapter_gap && par->ack_us > 0;
}

static lop_status_t sim_setup(sim_t *sim, const sched_t *s)
{
    /* One block, the arrays apart by P plus an odd number of cache lines:
     * arrays at equal offsets modulo 4 KB make the CPU take a store to one
     * for a load from the other (4K aliasing), which doubled the sweep's time. */
    size_t stride = (size_t)s->p + SIM_STAGGER;
    sim->gap = logp_gap(sim);
    sim->cpu = lop_calloc((sim->gap ? 3 : 1) * stride, sizeof *sim->cpu); /* 0: all start */
    if (!sim->cpu)
        return LOP_ERR_NOMEM;
    sim->tx = sim->cpu + stride;
    sim->rx = sim->tx + stride;
    for (uint32_t r = 0; r < s->p && sim->gap; r++)
        sim->tx[r] = sim->rx[r] = -INFINITY;
    lop_status_t st =
        sim_acks(sim->par) ? sched_send_peers(s, &sim->sends_first, &sim->sends_to) : LOP_OK;
    if (st)
        return st;
    if (sim->par->model == SCHED_SIM_LOGP && sim->par->recv_order == SCHED_RECV_ARRIVAL) {
        sim->arrival = lop_calloc(sched_rank_max(s) + 1, sizeof *sim->arrival);
        return sim->arrival ? LOP_OK : LOP_ERR_NOMEM;
    }
    if (sim->par->model == SCHED_SIM_LOGP)
        return LOP_OK;
    if (!sim->par->cost->lop)
        return lop_err(LOP_ERR_INVALID, "LoP simulation without a LoP parameter set");
    sim->mc = -1; /* lop_mcast_measured */
    sim->pending = lop_calloc(sched_rank_max(s), sizeof *sim->pending);
    if (sim->par->lop_arg == SCHED_LOP_STREAM) {
        sim->stream = lop_calloc(2 * (size_t)(s->form ? 1 : s->p), sizeof *sim->stream);
    } else { /* a post needs its receiver's run: the static match, exact */
        sim->run = lop_calloc(s->n_ops, sizeof *sim->run);
        sim->match = lop_calloc(s->n_ops, sizeof *sim->match);
    }
    if (!sim->pending || !(sim->stream || (sim->run && sim->match)))
        return LOP_ERR_NOMEM;
    if (sim->stream) {
        count_streams(s, sim->stream);
        return LOP_OK;
    }
    measure_runs(s, sim->run);
    return sched_match(s, sim->match);
}

static void sim_result(const sim_t *sim, int want_ranks, sched_sim_result_t *res)
{
    const sched_t *s = sim->s;
    res->max_us = 0;
    for (uint32_t r = 0; r < s->p; r++)
        res->max_us = fmax(res->max_us, sim->cpu[r]);
    if (!want_ranks)
        return;
    res->rank_us = lop_calloc(s->p, sizeof *res->rank_us);
    for (uint32_t r = 0; r < s->p && res->rank_us; r++)
        res->rank_us[r] = sim->cpu[r];
}

/* Per-pair costs must describe every rank of the schedule. */
static lop_status_t check_pairs(const sched_t *s, const sched_sim_t *par)
{
    if (par->pairs && par->model != SCHED_SIM_LOGP)
        return lop_err(LOP_ERR_INVALID, "per-pair costs are LogP parameters: no LoP simulation");
    if (par->pairs && par->pairs->p < s->p)
        return lop_err(LOP_ERR_INVALID, "per-pair costs for %u ranks, the schedule has P = %u",
                       par->pairs->p, s->p);
    return LOP_OK;
}

/* Which callbacks: the plain LogP ones, any LogP, or LoP's. */
static const sched_flow_ops_t *sim_ops(const sim_t *sim)
{
    if (sim->par->model == SCHED_SIM_LOP)
        return &lop_ops;
    if (!sim->gap && !sim->pairs && sim->par->recv_order == SCHED_RECV_PROGRAM)
        return &logp_plain_ops;
    return &logp_ops;
}

/* One instance of each inline engine per set of callbacks, which are then
 * inlined into its loops. */
static lop_status_t sim_sweep(sim_t *sim, uint64_t *events)
{
    const sched_flow_ops_t *ops = sim_ops(sim);
    if (ops == &logp_plain_ops)
        return sched_sweep_run(sim->s, &logp_sweep_ops, sim, events);
    if (ops == &logp_ops)
        return sched_sweep_run(sim->s, &logp_ops, sim, events);
    return sched_sweep_run(sim->s, &lop_ops, sim, events);
}

static lop_status_t sim_passes(sim_t *sim, uint32_t slots, uint64_t *events)
{
    const sched_flow_ops_t *ops = sim_ops(sim);
    if (ops == &logp_plain_ops)
        return sched_pass_run(sim->s, slots, &logp_plain_ops, sim, events);
    if (ops == &logp_ops)
        return sched_pass_run(sim->s, slots, &logp_ops, sim, events);
    return sched_pass_run(sim->s, slots, &lop_ops, sim, events);
}

/* The schedule through the flow engine, the way sched_flow_way says. */
static lop_status_t sim_flow(sim_t *sim, uint64_t *events)
{
    const sched_t *s = sim->s;
    sched_scan_t scan;
    if (s->form != SCHED_STORED)
        return sim_sweep(sim, events);
    lop_status_t st = sched_scan(s, &scan);
    if (st == LOP_OK && sched_flow_way(s, &scan) == SCHED_RUN_PASSES)
        return sim_passes(sim, scan.step_recvs, events);
    return st ? st : sched_flow_dataflow(s, &scan, sim_ops(sim), sim, events);
}

lop_status_t sched_sim_run(const sched_t *s, const sched_sim_t *par, int want_ranks,
                           sched_sim_result_t *res)
{
    sim_t sim = {.s = s, .par = par, .pairs = par->pairs, .logp = par->cost->logp,
                 .give_up = par->give_up_us > 0 ? par->give_up_us : INFINITY};
    sched_t stored = {0};
    memset(res, 0, sizeof *res);
    double t0 = lop_timer_clock_s();
    lop_status_t st = check_pairs(s, par);
    if (st == LOP_OK && s->form &&
        ((par->model == SCHED_SIM_LOP && (par->lop_arg == SCHED_LOP_BATCH || !sched_uniform(s))) ||
         sim_acks(par))) {
        /* the batch argument needs the static match, a fold's stream each rank's
         * count, the acknowledgements every rank's sends */
        st = sched_expand(s, &stored);
        s = sim.s = &stored;
    }
    st = st ? st : sim_setup(&sim, s);
    double t1 = lop_timer_clock_s();
    st = st ? st : sim_flow(&sim, &res->events);
    res->match_s = t1 - t0;
    res->run_s = lop_timer_clock_s() - t1;
    res->gave_up = sim.over;
    if (st == LOP_OK)
        sim_result(&sim, want_ranks, res);
    if (want_ranks && st == LOP_OK && !res->rank_us)
        st = LOP_ERR_NOMEM;
    sched_free(&stored);
    free(sim.cpu); /* tx and rx too */
    free(sim.match);
    free(sim.stream);
    free(sim.run);
    free(sim.pending);
    free(sim.arrival);
    free(sim.sends_first);
    free(sim.sends_to);
    return st;
}
