/*
 * sched_pass.h - private to the flow engine's drivers: a stored schedule in
 * lockstep run level by level, in passes over the ranks (sched_flow.h), as
 * inline functions so that a driver whose callbacks are known constants
 * (sched_sim.c) gets them inlined; sched_flow_passes (sched_pass.c) is the
 * same for any callbacks.
 *
 * The exchanges (nwise; pe and bfly where P is not a power of two) keep
 * every rank busy in every step, and sched.h promises that a message and the
 * RECV taking it carry the same step, and that a rank gets at most one
 * message from a peer in a step.  So a level's messages are all posted in
 * that level, each rank gets at most as many as it has RECVs there (at most
 * sched_scan_t.step_recvs; SCHED_PASS_MAX_SLOTS), and a RECV from q finds q's message among its
 * rank's few slots.  The first pass posts every rank's sends up to its first
 * RECV; the next ones run every rank with ops left in the level as far as
 * its messages allow (a run of RECVs only once all its messages are there:
 * the callback takes runs whole) until the level is done.  No list, no node,
 * no wake-up: the dataflow engine spent most of nwise's time on them (P =
 * 2^22, 93 million ops: 15.6 s of CPU).  Causal, so the same times as any
 * other order (sched_sim.h).  sched_flow_way picks it for built schedules
 * only (a file may break the promises) whose runs of RECVs stay in a step.
 */
#ifndef LOP_SCHED_PASS_H
#define LOP_SCHED_PASS_H

#if !defined(LOP_SCHED_FLOW_DRIVER)
#error "sched_pass.h is private to the flow engine's drivers (sched_pass.c, sched_sim.c)"
#endif

#include "sched_flow.h"

typedef struct {
    const sched_t *s;
    uint32_t level;
    uint32_t slots;     /* message slots per rank: the most RECVs of a rank in a step */
    uint32_t *pc;       /* per rank: its next op */
    uint32_t *fill;     /* per rank: messages posted to it in the level */
    uint32_t *used;     /* per rank: ... taken */
    sched_msg_t *inbox; /* per rank 'slots' of them */
    uint32_t *active;   /* ranks with ops left in the level */
    uint32_t n_active;
    sched_msg_t *batch; /* one RECV run's messages */
    int orphan;         /* more messages for a rank than its slots: a promise broken */
    uint64_t events;
} pass_t;

lop_status_t pass_prepare(pass_t *w, const sched_t *s, uint32_t slots);
/* Level w->level: slots emptied (0 when the last level left a message
 * over: a promise broken), the ranks with ops in it listed. */
int pass_level_start(pass_t *w);
/* After the passes: the error, if ranks were left or messages over (with
 * 'halted', sched_flow_ops_t.halted, ranks left are no error). */
lop_status_t pass_end(pass_t *w, lop_status_t st, int stuck, int halted, uint64_t *events);

#define PASS_INLINE static inline __attribute__((always_inline))

PASS_INLINE void pass_deliver(pass_t *w, uint32_t from, uint32_t k, double value, uint32_t q)
{
    if (w->fill[q] == w->slots) {
        w->orphan = 1;
        return;
    }
    w->inbox[(size_t)q * w->slots + w->fill[q]++] = (sched_msg_t){k, from, value};
}

PASS_INLINE void pass_post(pass_t *w, const sched_flow_ops_t *ops, void *ctx, uint32_t r,
                           uint32_t k, sched_op_t o)
{
    double value = ops->post(ctx, r, k, o);
    if (o.kind == SCHED_SEND) {
        pass_deliver(w, r, k, value, (uint32_t)o.peer);
        return;
    }
    for (uint32_t q = 0; q < w->s->p; q++)
        if (q != r)
            pass_deliver(w, r, k, value, q);
}

/* The RECVs k..last of rank r if every message is there; 0 if one is not. */
PASS_INLINE int pass_recv_run(pass_t *w, const sched_flow_ops_t *ops, void *ctx, uint32_t r,
                              const sched_op_t *op, uint32_t k, uint32_t last)
{
    const sched_msg_t *in = w->inbox + (size_t)r * w->slots;
    uint32_t fill = w->fill[r];
    if (fill - w->used[r] < last + 1 - k)
        return 0;
    for (uint32_t i = k; i <= last; i++) {
        uint32_t j = 0, from = (uint32_t)op[i].peer;
        while (j < fill && in[j].from != from)
            j++;
        if (j == fill)
            return 0; /* nothing taken yet: a message from one peer per step */
        w->batch[i - k] = in[j];
    }
    w->used[r] += last + 1 - k;
    ops->recv_run(ctx, r, k, last, w->batch);
    return 1;
}

/* Rank r as far as it goes in the level ('posting': up to its first RECV,
 * untried); 1 when its ops of the level are done. */
PASS_INLINE int pass_rank(pass_t *w, const sched_flow_ops_t *ops, void *ctx, uint32_t r,
                          int posting)
{
    const sched_op_t *op = w->s->op + w->s->first[r];
    const uint32_t end = w->s->first[r + 1] - w->s->first[r], level = w->level, k0 = w->pc[r];
    uint32_t k = k0;
    for (sched_op_t o; k < end && (o = op[k]).step == level;) {
        if (o.kind != SCHED_RECV) {
            pass_post(w, ops, ctx, r, k++, o);
            continue;
        }
        if (posting)
            break;
        uint32_t last = k;
        while (last + 1 < end && op[last + 1].kind == SCHED_RECV)
            last++; /* within the level: sched_flow_way checked the runs */
        if (!pass_recv_run(w, ops, ctx, r, op, k, last))
            break;
        k = last + 1;
    }
    w->events += k - k0;
    w->pc[r] = k;
    return k == end || op[k].step != level;
}

#define PASS_AHEAD 16 /* ranks ahead whose next op is fetched while one runs */

/* The passes of one level; 0 when a pass moved no rank.  Each rank's ops
 * lie a rank's worth apart, a stride the hardware does not foresee: its
 * next op is prefetched PASS_AHEAD ranks ahead (at P = 2^22 the miss on it
 * was half of nwise's time). */
PASS_INLINE int pass_level(pass_t *w, const sched_flow_ops_t *ops, void *ctx)
{
    for (int pass = 0; w->n_active > 0 && !w->orphan; pass++) {
        uint32_t still = 0;
        uint64_t before = w->events;
        for (uint32_t i = 0; i < w->n_active; i++) {
            if (i + PASS_AHEAD < w->n_active) {
                uint32_t a = w->active[i + PASS_AHEAD];
                __builtin_prefetch(w->s->op + w->s->first[a] + w->pc[a]);
            }
            if (!pass_rank(w, ops, ctx, w->active[i], pass == 0))
                w->active[still++] = w->active[i];
        }
        w->n_active = still;
        if (w->events == before && pass > 0)
            return 0;
    }
    return !w->orphan;
}

PASS_INLINE lop_status_t sched_pass_run(const sched_t *s, uint32_t slots,
                                        const sched_flow_ops_t *ops, void *ctx,
                                        uint64_t *events)
{
    pass_t w;
    lop_status_t st = pass_prepare(&w, s, slots);
    int stuck = 0, halted = 0;
    for (w.level = 0; w.level < s->n_steps && st == LOP_OK && !stuck && !halted; w.level++) {
        stuck = !pass_level_start(&w) || !pass_level(&w, ops, ctx);
        halted = ops->halted && ops->halted(ctx);
    }
    return pass_end(&w, st, stuck, halted && !stuck, events);
}

#endif
