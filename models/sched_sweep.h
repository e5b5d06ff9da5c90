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
 *
 * SCHED_DIGIT's slots are the main group's exchanges; its fold runs as two
 * slots more: every folded rank's SEND and every main rank's RECVs from its
 * partners before them, the main ranks' SENDs to their partners and every
 * folded rank's RECV after them - each rank's ops in its order, each RECV
 * after the SEND it takes.
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
    uint32_t *off;      /* ... their peers' offsets over a run of ranks */
    uint32_t ranks;     /* the ranks of a slot: P, or SCHED_DIGIT's main group */
} sweep_t;

/* Slots paired, buffers ready; errors those of sched_flow_run. */
lop_status_t sweep_prepare(sweep_t *w, const sched_t *s);
/* A buffer of P values (NULL: out of memory), and one given back. */
double *sweep_buffer(sweep_t *w);
void sweep_release(sweep_t *w, uint32_t send_slot);
void sweep_free(sweep_t *w);

#define SWEEP_INLINE static inline __attribute__((always_inline))

/* Rank r's index of slot k's op: after its fold RECVs (SCHED_DIGIT). */
SWEEP_INLINE uint32_t sweep_index(const sweep_t *w, uint32_t r, uint32_t k)
{
    return w->ranks < w->s->p ? k + sched_fold_partners(w->s, r) : k;
}

/* The ranks of a slot of move d in runs of one offset to their peers:
 * SHIFT's peer r + d below P - d and r + d - P above (no compare per rank);
 * XOR's runs of d ranks with bit d clear (+d) or set (-d); DIGIT's runs of
 * the ranks whose digit stays below R (+d) or wraps (d - R^(t+1)).  Run i is
 * ranks lo..hi-1 with peer r + off (mod 2^32); 0 when there is none. */
SWEEP_INLINE int sweep_segment(const sweep_t *w, uint32_t d, uint32_t *at, uint32_t *lo,
                               uint32_t *hi, uint32_t *off)
{
    const sched_t *s = w->s;
    if (*at >= w->ranks)
        return 0;
    *lo = *at;
    if (s->form == SCHED_DIGIT) {
        uint32_t block = s->radix * sched_digit_span(s, d), pos = *lo % block;
        uint32_t stay = block - d; /* digit t below R - i: (R - i) R^t ranks */
        *hi = *lo - pos + (pos < stay ? stay : block);
        *off = pos < stay ? d : d - block;
    } else if (s->form == SCHED_SHIFT) {
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
    for (uint32_t at = 0, lo, hi, off; sweep_segment(w, (uint32_t)t.peer, &at, &lo, &hi, &off);)
        for (uint32_t r = lo; r < hi; r++) {
            sched_op_t o = t;
            o.peer = (int32_t)(r + off);
            v[r] = ops->post(ctx, r, sweep_index(w, r, k), o);
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
        for (uint32_t at = 0, lo, hi, off; sweep_segment(w, d, &at, &lo, &hi, &off);)
            for (uint32_t r = lo; r < hi; r++) {
                sched_msg_t m = {sweep_index(w, r + off, j), r + off, v[r + off]};
                uint32_t at_k = sweep_index(w, r, k);
                ops->recv_run(ctx, r, at_k, at_k, &m);
            }
    } else { /* ranks lo..hi-1: every slot's segment, so one offset per slot */
        for (uint32_t lo = 0, hi; lo < w->ranks; lo = hi) {
            hi = w->ranks;
            for (uint32_t i = k, at, l, h = hi; i <= last; i++) {
                at = lo;
                sweep_segment(w, (uint32_t)s->op[i].peer, &at, &l, &h, &w->off[i - k]);
                hi = h < hi ? h : hi;
            }
            for (uint32_t r = lo; r < hi; r++) {
                for (uint32_t i = k; i <= last; i++) {
                    uint32_t from = r + w->off[i - k];
                    w->batch[i - k] = (sched_msg_t){sweep_index(w, from, w->match[i]), from,
                                                    w->value[w->match[i]][from]};
                }
                ops->recv_run(ctx, r, sweep_index(w, r, k), sweep_index(w, r, last), w->batch);
            }
        }
    }
    for (uint32_t i = k; i <= last; i++)
        sweep_release(w, w->match[i]);
}

/* SCHED_DIGIT's fold in (out 0: every folded rank's SEND, then each main
 * rank's RECVs from its partners) or out (1: each main rank's SENDs to its
 * partners, then every folded rank's RECV). */
SWEEP_INLINE lop_status_t sweep_fold(sweep_t *w, const sched_flow_ops_t *ops, void *ctx,
                                     int out)
{
    const sched_t *s = w->s;
    const uint32_t main = w->ranks, last = s->n_steps - 1;
    double *v = sweep_buffer(w);
    if (!v)
        return LOP_ERR_NOMEM;
    for (uint32_t r = main; r < s->p && !out; r++)
        v[r] = ops->post(ctx, r, 0, (sched_op_t){(int32_t)(r % main), 0, SCHED_SEND});
    for (uint32_t r = 0; r < main; r++) {
        uint32_t c = sched_fold_partners(s, r), first = s->per_rank + c;
        for (uint32_t j = 0; j < c; j++) {
            uint32_t q = r + (j + 1) * main;
            if (out)
                v[q] = ops->post(ctx, r, first + j, (sched_op_t){(int32_t)q, last, SCHED_SEND});
            else
                w->batch[j] = (sched_msg_t){0, q, v[q]};
        }
        if (c && !out)
            ops->recv_run(ctx, r, 0, c - 1, w->batch);
    }
    for (uint32_t r = main; r < s->p && out; r++) { /* partner r / M of main rank r mod M */
        uint32_t q = r % main;
        sched_msg_t m = {s->per_rank + sched_fold_partners(s, q) + r / main - 1, q, v[r]};
        ops->recv_run(ctx, r, 1, 1, &m);
    }
    w->spare[w->n_spare++] = v;
    return LOP_OK;
}

SWEEP_INLINE lop_status_t
sched_sweep_run(const sched_t *s, const sched_flow_ops_t *ops, void *ctx, uint64_t *events)
{
    sweep_t w;
    uint32_t m = s->per_rank;
    uint64_t folded = 2ull * (s->p - (s->form == SCHED_DIGIT ? s->main : s->p)); /* each way */
    lop_status_t st = sweep_prepare(&w, s);
    int halted = 0;
    if (st == LOP_OK && w.ranks < s->p)
        st = sweep_fold(&w, ops, ctx, 0);
    *events = folded;
    /* slot after slot; with a halted callback asked between them */
    for (uint32_t k = 0, last; k < m && st == LOP_OK && !halted; k = last + 1) {
        last = k;
        if (s->op[k].kind != SCHED_RECV) {
            st = sweep_send(&w, ops, ctx, k);
        } else {
            while (last + 1 < m && s->op[last + 1].kind == SCHED_RECV)
                last++;
            sweep_recv(&w, ops, ctx, k, last);
        }
        *events += (uint64_t)(last - k + 1) * w.ranks;
        halted = ops->halted && ops->halted(ctx);
    }
    if (st == LOP_OK && w.ranks < s->p && !halted) {
        st = sweep_fold(&w, ops, ctx, 1);
        *events += folded;
    }
    *events = st ? 0 : *events;
    sweep_free(&w);
    return st;
}

#endif
