/* sched_sim.c - LogP and LoP event simulation of a schedule (sched_sim.h). */
#include "sched_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "sched_flow.h"
#include "timer.h"

typedef struct {
    double cpu; /* when the CPU is free */
    double tx;  /* LogP: start of the last send; LoP: when the last message left */
    double rx;  /* LogP: start of the last receive; LoP: the last delivery */
} rank_state_t;

/* o(cnt x) and L(cnt x) for one x: the LoP fits are costly (exp), x repeats. */
typedef struct {
    uint32_t x; /* 0: empty */
    double o_us, L_us;
} lop_memo_t;

#define MEMO_SIZE 256

typedef struct {
    double leave, L_us;
} arrival_t;

/* LogP in arrival order: a message of a run of RECVs. */
typedef struct {
    double at_us; /* its arrival */
    double or_us; /* its receive overhead */
    uint32_t k;   /* its place in the run: equal arrivals are taken in program order */
} logp_arrival_t;

typedef struct {
    const sched_t *s;
    const sched_sim_t *par;
    rank_state_t *rank;
    uint32_t *match;    /* LoP batch only: per op, sched_match's (the RECV of a SEND) */
    uint32_t *stream;   /* LoP stream: messages per rank, sent in [2r], received in [2r+1] */
    uint32_t *run;      /* LoP batch: per op, the length of its run of SENDs or RECVs */
    arrival_t *pending; /* LoP: one receive batch */
    logp_arrival_t *arrival; /* LogP in arrival order: one run's messages */
    lop_memo_t memo[MEMO_SIZE];
} sim_t;

/* ------------------------------------------------------------------ LogP */

/* o_s of op 'op' of 'rank': the pair's with per-pair costs (an MCAST: the
 * largest over its receivers, as Meyer and Elster's equation 1), else o_s. */
static double send_overhead(const sim_t *sim, uint32_t rank, uint32_t op)
{
    const sched_op_t *o = &sim->s->op[op];
    double os, L, most = 0;
    if (!sim->par->pairs)
        return sim->par->cost->logp.os_us;
    if (o->kind == SCHED_SEND) {
        pairs_cost(sim->par->pairs, rank, (uint32_t)o->peer, &os, &L);
        return os;
    }
    for (uint32_t q = 0; q < sim->s->p; q++)
        if (q != rank) {
            pairs_cost(sim->par->pairs, rank, q, &os, &L);
            most = fmax(most, os);
        }
    return most;
}

/* L from 'sender' to 'rank' and the receive overhead of that message: the
 * pair's L (with or_per_pair its o as o_r too: LogP has one o) with per-pair
 * costs, else L and o_r. */
static double latency(const sim_t *sim, uint32_t sender, uint32_t rank, double *or_us)
{
    double os, L;
    *or_us = sim->par->cost->logp.or_us;
    if (!sim->par->pairs)
        return sim->par->cost->logp.L_us;
    pairs_cost(sim->par->pairs, sender, rank, &os, &L);
    if (sim->par->or_per_pair)
        *or_us = os;
    return L;
}

/* The message carries the time its send overhead ends; the receiver adds L. */
static double logp_post(void *ctx, uint32_t rank, uint32_t op)
{
    sim_t *sim = ctx;
    const logp_t *m = &sim->par->cost->logp;
    rank_state_t *st = &sim->rank[rank];
    double start = fmax(st->cpu, st->tx + m->g_us);
    st->tx = start;
    st->cpu = start + send_overhead(sim, rank, op);
    return st->cpu;
}

/* A receive starts at max{CPU free, arrival, previous receive start + g}. */
static void logp_charge(rank_state_t *st, double g_us, const logp_arrival_t *a)
{
    double start = fmax(fmax(st->cpu, a->at_us), st->rx + g_us);
    st->rx = start;
    st->cpu = start + a->or_us;
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

/* Program order: each RECV when the rank reaches it.  Arrival order: the
 * run's messages by arrival time. */
static void logp_recv_run(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                          const sched_msg_t *msg)
{
    sim_t *sim = ctx;
    const double g_us = sim->par->cost->logp.g_us;
    rank_state_t *st = &sim->rank[rank];
    uint32_t n = last - first + 1;
    if (sim->par->recv_order == SCHED_RECV_PROGRAM) {
        for (uint32_t k = 0; k < n; k++) {
            logp_arrival_t a = {0, 0, k};
            a.at_us = msg[k].value + latency(sim, msg[k].from, rank, &a.or_us);
            logp_charge(st, g_us, &a);
        }
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        logp_arrival_t *a = &sim->arrival[k];
        a->k = k;
        a->at_us = msg[k].value + latency(sim, msg[k].from, rank, &a->or_us);
    }
    qsort(sim->arrival, n, sizeof *sim->arrival, arrival_time_cmp);
    for (uint32_t k = 0; k < n; k++)
        logp_charge(st, g_us, &sim->arrival[k]);
}

static const sched_flow_ops_t logp_ops = {logp_post, logp_recv_run};

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

/* Stream or batch length of the posting side of op 'send' of 'rank'. */
static uint32_t x_post(const sim_t *sim, uint32_t rank, uint32_t send)
{
    return sim->par->lop_arg == SCHED_LOP_STREAM ? sim->stream[2 * rank] : sim->run[send];
}

/* The same for the message 'send' (of 'sender') consumed by RECV op 'recv' of q. */
static uint32_t x_message(const sim_t *sim, uint32_t sender, uint32_t send, uint32_t q,
                          uint32_t recv)
{
    if (sim->par->lop_arg == SCHED_LOP_STREAM)
        return umax(sim->stream[2 * sender], sim->stream[2 * q + 1]);
    return umax(sim->run[send], sim->run[recv]);
}

static double lop_post(void *ctx, uint32_t rank, uint32_t op)
{
    sim_t *sim = ctx;
    rank_state_t *st = &sim->rank[rank];
    const sched_op_t *o = &sim->s->op[op];
    const lop_memo_t *mine = lop_at(sim, x_post(sim, rank, op));
    st->cpu += mine->o_us;
    double start = fmax(st->cpu, st->tx);
    if (o->kind == SCHED_MCAST) { /* per-receiver L is added on delivery */
        st->tx = start + mine->L_us;
        return start;
    }
    uint32_t q = (uint32_t)o->peer, recv = sim->match ? sim->match[op] : 0;
    st->tx = start + lop_at(sim, x_message(sim, rank, op, q, recv))->L_us;
    return st->tx;
}

static int arrival_cmp(const void *a, const void *b)
{
    double x = ((const arrival_t *)a)->leave, y = ((const arrival_t *)b)->leave;
    return (x > y) - (x < y);
}

static void lop_recv_run(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                         const sched_msg_t *msg)
{
    sim_t *sim = ctx;
    rank_state_t *st = &sim->rank[rank];
    uint32_t n = 0;
    for (uint32_t i = first; i <= last; i++, n++) {
        const sched_msg_t *g = &msg[i - first];
        double L = lop_at(sim, x_message(sim, g->from, g->send, rank, i))->L_us;
        int mcast = sim->s->op[g->send].kind == SCHED_MCAST;
        sim->pending[n] = (arrival_t){g->value + (mcast ? L : 0), L};
    }
    if (n > 1)
        qsort(sim->pending, n, sizeof *sim->pending, arrival_cmp);
    for (uint32_t k = 0; k < n; k++)
        st->rx = fmax(sim->pending[k].leave, st->rx + sim->pending[k].L_us);
    st->cpu = fmax(st->cpu, st->rx);
}

static const sched_flow_ops_t lop_ops = {lop_post, lop_recv_run};

/* Messages sent (SEND, MCAST) and received per rank. */
static void count_streams(const sched_t *s, uint32_t *stream)
{
    for (uint32_t r = 0; r < s->p; r++)
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++)
            stream[2 * r + (s->op[i].kind == SCHED_RECV)]++;
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


static lop_status_t sim_setup(sim_t *sim, const sched_t *s)
{
    sim->rank = lop_calloc(s->p, sizeof *sim->rank);
    if (!sim->rank)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < s->p; r++)
        sim->rank[r] = (rank_state_t){0, -INFINITY, -INFINITY};
    if (sim->par->model == SCHED_SIM_LOGP && sim->par->recv_order == SCHED_RECV_ARRIVAL) {
        sim->arrival = lop_calloc(sched_rank_max(s) + 1, sizeof *sim->arrival);
        return sim->arrival ? LOP_OK : LOP_ERR_NOMEM;
    }
    if (sim->par->model == SCHED_SIM_LOGP)
        return LOP_OK;
    if (!sim->par->cost->lop)
        return lop_err(LOP_ERR_INVALID, "LoP simulation without a LoP parameter set");
    sim->pending = lop_calloc(sched_rank_max(s), sizeof *sim->pending);
    if (sim->par->lop_arg == SCHED_LOP_STREAM) {
        sim->stream = lop_calloc(2 * (size_t)s->p, sizeof *sim->stream);
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
        res->max_us = fmax(res->max_us, sim->rank[r].cpu);
    if (!want_ranks)
        return;
    res->rank_us = lop_calloc(s->p, sizeof *res->rank_us);
    for (uint32_t r = 0; r < s->p && res->rank_us; r++)
        res->rank_us[r] = sim->rank[r].cpu;
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

lop_status_t sched_sim_run(const sched_t *s, const sched_sim_t *par, int want_ranks,
                           sched_sim_result_t *res)
{
    sim_t sim = {.s = s, .par = par};
    memset(res, 0, sizeof *res);
    double t0 = lop_timer_clock_s();
    lop_status_t st = check_pairs(s, par);
    st = st ? st : sim_setup(&sim, s);
    double t1 = lop_timer_clock_s();
    const sched_flow_ops_t *ops = par->model == SCHED_SIM_LOGP ? &logp_ops : &lop_ops;
    st = st ? st : sched_flow_run(s, ops, &sim, &res->events);
    res->match_s = t1 - t0;
    res->run_s = lop_timer_clock_s() - t1;
    if (st == LOP_OK)
        sim_result(&sim, want_ranks, res);
    if (want_ranks && st == LOP_OK && !res->rank_us)
        st = LOP_ERR_NOMEM;
    free(sim.rank);
    free(sim.match);
    free(sim.stream);
    free(sim.run);
    free(sim.pending);
    free(sim.arrival);
    return st;
}
