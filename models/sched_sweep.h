/*
 * sched_sweep.h - private to the flow engine's drivers: a generated
 * schedule run slot by slot (sched_flow.h), as an inline function so that
 * a driver whose callbacks are known constants (sched_sim.c's LogP and LoP)
 * gets them inlined into the loops - 2^24 ranks times 48 slots is 8e8
 * callbacks, and a call's prologue alone was a fifth of the time.
 * sched_flow_sweep (sched_sweep.c) is the same for any callbacks.
 *
 * Every rank's ops are rank 0's with the peers moved by the rank (sched.h:
 * SCHED_SHIFT, SCHED_XOR), so messages pair up on rank 0's ops once for all
 * ranks: the k-th RECV of rank r from q takes the k-th message q sends to r
 * (sched.h's FIFO rule), and q's op sending to r has the move that undoes
 * the RECV's (SHIFT: -c mod P for a RECV from r + c; XOR: the same c).  A
 * RECV in slot k taking a SEND of a slot after k would wait in a cycle
 * around the ranks (each rank's later op waits for the same RECV of the
 * next), so every RECV takes an earlier slot, and running slot after slot,
 * every rank in a slot, is a causal order: the same times as any other
 * (sched_sim.h).  A SEND slot keeps its P message values until the RECV slot
 * taking them has run: one slot for the disseminations, whose memory is
 * then P values and nothing per op.
 */
#ifndef LOP_SCHED_SWEEP_H
#define LOP_SCHED_SWEEP_H

#if !defined(LOP_SCHED_FLOW_DRIVER)
#error "sched_sweep.h is private to the flow engine's drivers (sched_sweep.c, sched_sim.c)"
#endif

#include "sched_flow.h"

typedef struct {
    const sched_t *s;
    uint32_t *match; /* per slot: a RECV's SEND slot; a SEND's RECV slot */
    double **value;  /* per SEND slot: the P values while they are in flight */
    double **spare;  /* buffers of P values no slot holds */
    uint32_t n_spare;
    sched_msg_t *batch; /* one rank's run of RECVs */
} sweep_t;

/* Slots paired, buffers ready; errors those of sched_flow_run. */
lop_status_t sweep_prepare(sweep_t *w, const sched_t *s);
/* A buffer of P values (NULL: out of memory), and one given back. */
double *sweep_buffer(sweep_t *w);
void sweep_release(sweep_t *w, uint32_t send_slot);
void sweep_free(sweep_t *w);

#define SWEEP_INLINE static inline __attribute__((always_inline))

/* Rank r's peer in a slot of move d (sched_op_at's, without the load). */
SWEEP_INLINE uint32_t sweep_peer(const sched_t *s, uint32_t r, uint32_t d)
{
    if (s->form == SCHED_XOR)
        return r ^ d;
    return r + d >= s->p ? r + d - s->p : r + d;
}

/* The ranks of a slot of move d in runs of one offset to their peers:
 * SHIFT's peer r + d below P - d and r + d - P above (no compare per rank);
 * XOR's runs of d ranks with bit d clear (+d) or set (-d).  Run i is ranks
 * lo..hi-1 with peer r + off (mod 2^32); 0 when there is none. */
SWEEP_INLINE int sweep_segment(const sched_t *s, uint32_t d, uint32_t *at, uint32_t *lo,
                               uint32_t *hi, uint32_t *off)
{
    if (*at >= s->p)
        return 0;
    *lo = *at;
    if (s->form == SCHED_SHIFT) {
        *hi = *lo < s->p - d ? s->p - d : s->p;
        *off = *lo < s->p - d ? d : d - s->p;
    } else if ((d & (d - 1)) == 0) { /* XOR by a power of two (P is one too) */
        *hi = (*lo | (d - 1)) + 1;
        *off = (*lo & d) ? 0u - d : d;
    } else { /* any other XOR: rank by rank */
        *hi = *lo + 1;
        *off = (*lo ^ d) - *lo;
    }
    *at = *hi;
    return 1;
}

/* SEND slot k: every rank posts; the values wait for the RECV slot. */
SWEEP_INLINE lop_status_t sweep_send(sweep_t *w, const sched_flow_ops_t *ops, void *ctx,
                                     uint32_t k)
{
    const sched_t *s = w->s;
    const sched_op_t t = s->op[k];
    double *v = sweep_buffer(w);
    if (!v)
        return LOP_ERR_NOMEM;
    for (uint32_t at = 0, lo, hi, off; sweep_segment(s, (uint32_t)t.peer, &at, &lo, &hi, &off);)
        for (uint32_t r = lo; r < hi; r++) {
            sched_op_t o = t;
            o.peer = (int32_t)(r + off);
            v[r] = ops->post(ctx, r, k, o);
        }
    w->value[k] = v;
    return LOP_OK;
}

/* RECV slots k..last (a run): every rank takes its messages. */
SWEEP_INLINE void sweep_recv(sweep_t *w, const sched_flow_ops_t *ops, void *ctx, uint32_t k,
                             uint32_t last)
{
    const sched_t *s = w->s;
    if (k == last) { /* the rule in the exchanges: one RECV between sends */
        const uint32_t d = (uint32_t)s->op[k].peer, j = w->match[k];
        const double *v = w->value[j];
        for (uint32_t at = 0, lo, hi, off; sweep_segment(s, d, &at, &lo, &hi, &off);)
            for (uint32_t r = lo; r < hi; r++) {
                sched_msg_t m = {j, r + off, v[r + off]};
                ops->recv_run(ctx, r, k, k, &m);
            }
    } else {
        for (uint32_t r = 0; r < s->p; r++) {
            for (uint32_t i = k; i <= last; i++) {
                uint32_t from = sweep_peer(s, r, (uint32_t)s->op[i].peer);
                w->batch[i - k] = (sched_msg_t){w->match[i], from, w->value[w->match[i]][from]};
            }
            ops->recv_run(ctx, r, k, last, w->batch);
        }
    }
    for (uint32_t i = k; i <= last; i++)
        sweep_release(w, w->match[i]);
}

SWEEP_INLINE lop_status_t
sched_sweep_run(const sched_t *s, const sched_flow_ops_t *ops, void *ctx, uint64_t *events)
{
    sweep_t w;
    uint32_t m = s->per_rank;
    lop_status_t st = sweep_prepare(&w, s);
    for (uint32_t k = 0, last; k < m && st == LOP_OK; k = last + 1) {
        last = k;
        if (s->op[k].kind != SCHED_RECV) {
            st = sweep_send(&w, ops, ctx, k);
            continue;
        }
        while (last + 1 < m && s->op[last + 1].kind == SCHED_RECV)
            last++;
        sweep_recv(&w, ops, ctx, k, last);
    }
    *events = st ? 0 : (uint64_t)m * s->p;
    sweep_free(&w);
    return st;
}

#endif
