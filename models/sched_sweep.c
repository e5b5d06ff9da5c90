/* sched_sweep.c - a generated schedule run slot by slot: its set-up, and
 * the engine for any callbacks (sched_sweep.h says how). */
#define LOP_SCHED_FLOW_DRIVER
#include "sched_sweep.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* The move of the SEND that a RECV from move c pairs with (DIGIT: digit t
 * up by R - i undoes up by i). */
static uint32_t undo_move(const sched_t *s, uint32_t c)
{
    if (s->form == SCHED_DIGIT)
        return s->radix * sched_digit_span(s, c) - c;
    return s->form == SCHED_SHIFT ? (s->p - c) % s->p : c;
}

/* A DIGIT move: i R^t with 0 < i < R and R^(t+1) <= M (a digit of the main group). */
static int digit_move(const sched_t *s, uint32_t c)
{
    uint32_t span = sched_digit_span(s, c);
    return c % span == 0 && (uint64_t)s->radix * span <= s->main;
}

/* "schedule diss: rank 0 op 3 (recv from 5, step 1)" and the rest. */
static lop_status_t slot_error(const sched_t *s, uint32_t k, const char *what)
{
    if (s->form == SCHED_DIGIT) /* "schedule nwise: exchange 3 (recv, digit move 2 in base 3)" */
        return lop_err(LOP_ERR_INVALID, "schedule %s: exchange %u (%s, digit move %d in base %u)%s",
                       s->alg, k, sched_kind_name(s->op[k].kind), s->op[k].peer, s->radix, what);
    sched_op_t o = sched_op_at(s, 0, k);
    return lop_err(LOP_ERR_INVALID, "schedule %s: rank 0 op %u (%s %s %d, step %u)%s", s->alg,
                   k, o.kind == SCHED_RECV ? "recv" : "send", o.kind == SCHED_RECV ? "from" : "to",
                   o.peer, (unsigned)o.step, what);
}

/* Moves in 1..P-1, and for XOR only peers below P (P a power of two), for
 * DIGIT only digits of the main group. */
static lop_status_t check_moves(const sched_t *s)
{
    for (uint32_t k = 0; k < s->per_rank; k++) {
        uint32_t c = (uint32_t)s->op[k].peer;
        if (s->op[k].kind == SCHED_MCAST || c == 0 || c >= s->p ||
            (s->form == SCHED_XOR && (s->p & (s->p - 1))) ||
            (s->form == SCHED_DIGIT && !digit_move(s, c)))
            return slot_error(s, k, c == 0                  ? " addresses the rank itself"
                                    : s->form == SCHED_DIGIT ? " changes no digit of the main group"
                                                             : " names no rank");
    }
    return LOP_OK;
}

/* Pair every RECV slot with its SEND slot, in order per move (FIFO). */
static lop_status_t pair_slots(sweep_t *w)
{
    const sched_t *s = w->s;
    for (uint32_t k = 0; k < s->per_rank; k++)
        w->match[k] = NONE;
    for (uint32_t k = 0; k < s->per_rank; k++) {
        if (s->op[k].kind != SCHED_RECV)
            continue;
        uint32_t want = undo_move(s, (uint32_t)s->op[k].peer), j = 0;
        while (j < s->per_rank && (s->op[j].kind != SCHED_SEND || w->match[j] != NONE ||
                                   (uint32_t)s->op[j].peer != want))
            j++;
        if (j == s->per_rank)
            return slot_error(s, k, " waits for a message the peer never sends");
        if (j > k)
            return slot_error(s, k, ": deadlock: every rank waits here for a later op of its "
                                    "peer");
        w->match[k] = j;
        w->match[j] = k;
    }
    for (uint32_t k = 0; k < s->per_rank; k++)
        if (s->op[k].kind == SCHED_SEND && w->match[k] == NONE)
            return slot_error(s, k, " is never received");
    return LOP_OK;
}

double *sweep_buffer(sweep_t *w)
{
    return w->n_spare ? w->spare[--w->n_spare] : lop_calloc(w->s->p, sizeof(double));
}

void sweep_release(sweep_t *w, uint32_t send_slot)
{
    if (w->value[send_slot])
        w->spare[w->n_spare++] = w->value[send_slot];
    w->value[send_slot] = NULL;
}

void sweep_free(sweep_t *w)
{
    for (uint32_t k = 0; w->value && k < w->s->per_rank; k++)
        free(w->value[k]);
    for (uint32_t i = 0; i < w->n_spare; i++)
        free(w->spare[i]);
    free(w->value);
    free(w->spare);
    free(w->match);
    free(w->batch);
    free(w->off);
}

lop_status_t sweep_prepare(sweep_t *w, const sched_t *s)
{
    uint32_t m = s->per_rank, ranks = s->form == SCHED_DIGIT ? s->main : s->p;
    uint32_t batch = ranks < s->p && sched_fold_partners(s, 0) > m ? sched_fold_partners(s, 0) : m;
    *w = (sweep_t){s, lop_calloc(m + 1, sizeof *w->match), lop_calloc(m + 1, sizeof *w->value),
                   lop_calloc(m + 1, sizeof *w->spare), 0, lop_calloc(batch + 1, sizeof *w->batch),
                   lop_calloc(m + 1, sizeof *w->off), ranks};
    lop_status_t st =
        w->match && w->value && w->spare && w->batch && w->off ? LOP_OK : LOP_ERR_NOMEM;
    st = st ? st : check_moves(s);
    return st ? st : pair_slots(w);
}

lop_status_t sched_flow_sweep(const sched_t *s, const sched_flow_ops_t *ops, void *ctx,
                              uint64_t *events)
{
    return sched_sweep_run(s, ops, ctx, events);
}
