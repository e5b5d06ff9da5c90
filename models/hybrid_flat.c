/* hybrid_flat.c - the hybrid's flat candidates: every algorithm over all
 * ranks simulated, unless a lower bound shows it cannot win (hybrid.h). */
#include "hybrid_tree.h"

#include <math.h>
#include <stdlib.h>

lop_status_t hybrid_sim_us(const sched_sim_t *sim, const sched_t *s, const pairs_t *pairs,
                           double *us)
{
    sched_sim_t par = *sim;
    sched_sim_result_t res;
    par.pairs = pairs;
    lop_status_t st = s->n_ops ? sched_sim_run(s, &par, 0, &res) : LOP_OK;
    *us = st || !s->n_ops ? 0 : res.max_us;
    return st;
}

/* The cheapest o and L over every rank r of the messages of slot k of a
 * generated schedule: r's to r + d (a SEND), or from r + d to r (a RECV;
 * its o is the receive's o_r where that is the pair's). */
static void slot_least(const sched_t *s, const pairs_t *c, uint32_t k, double *o_us,
                       double *L_us)
{
    sched_op_t op = s->op[k];
    *o_us = *L_us = INFINITY;
    for (uint32_t r = 0; r < s->p; r++) {
        uint32_t q = (uint32_t)sched_op_at(s, r, k).peer;
        double o, L;
        if (op.kind == SCHED_SEND)
            pairs_cost(c, r, q, &o, &L);
        else
            pairs_cost(c, q, r, &o, &L);
        *o_us = fmin(*o_us, o);
        *L_us = fmin(*L_us, L);
    }
}

/* The SEND slot a RECV slot k takes (sched_sweep.h: the i-th RECV of a move
 * takes the i-th SEND of the move that undoes it), or k when none before it. */
static uint32_t slot_match(const sched_t *s, uint32_t k)
{
    uint32_t c = (uint32_t)s->op[k].peer, i = 0;
    uint32_t undo = s->form == SCHED_XOR || c == 0 ? c : s->p - c;
    for (uint32_t j = 0; j < k; j++)
        i += s->op[j].kind == SCHED_RECV && (uint32_t)s->op[j].peer == c;
    for (uint32_t j = 0; j < k; j++)
        if (s->op[j].kind == SCHED_SEND && (uint32_t)s->op[j].peer == undo && i-- == 0)
            return j;
    return k;
}

/* Every rank's ops are rank 0's moved, so with each slot's cheapest o and L
 * (and no gap) every rank runs the one program below at the same times, and
 * LogP in program order is max-plus: no message costs less than its slot's
 * cheapest, so no rank finishes earlier than this (in floating point too:
 * the same sums in the same order, of numbers no larger, round no larger). */
double hybrid_flat_bound(const sched_sim_t *sim, const sched_t *s)
{
    double *done = s->form && sim->recv_order == SCHED_RECV_PROGRAM && sim->pairs
                       ? lop_calloc(s->per_rank + 1, sizeof *done) : NULL;
    double t = 0;
    for (uint32_t k = 0; done && k < s->per_rank; k++) {
        double o, L;
        uint32_t j = slot_match(s, k);
        if (s->op[k].kind == SCHED_MCAST || (s->op[k].kind == SCHED_RECV && j == k)) {
            t = 0; /* no bound */
            break;
        }
        slot_least(s, sim->pairs, k, &o, &L);
        if (s->op[k].kind == SCHED_SEND) {
            t = done[k] = t + o; /* the message leaves when its send overhead ends */
            continue;
        }
        double arrival = done[j] + L;
        t = (t > arrival ? t : arrival) + (sim->or_per_pair ? o : sim->cost->logp.or_us);
    }
    free(done);
    return t;
}

/* Has an earlier candidate the same rule and n (ftour n = comb n, tour =
 * comb n = 2: one function builds them), so the same schedule? */
static int flat_repeats(const barrier_alg_t *const *algs, const barrier_alg_t *const *a,
                        uint32_t n)
{
    for (const barrier_alg_t *const *b = algs; b <= a; b++)
        for (uint32_t m = 1; m <= ((*b)->takes_n ? HYBRID_MAX_N : 1) && (b < a || m < n); m++)
            if ((*b)->build_rank == (*a)->build_rank &&
                barrier_alg_n(*b, m) == barrier_alg_n(*a, n))
                return 1;
    return 0;
}

/* Algorithm a with n over all p ranks: simulated, unless too large or its
 * bound says it cannot be faster than the best so far (which the first of
 * equal times stays, as without the bound). */
static lop_status_t flat_try(const sched_sim_t *sim, const barrier_alg_t *a, uint32_t n,
                             uint32_t p, hybrid_result_t *res)
{
    sched_t s;
    double us;
    if (sched_generate_limit(a, p, n, NULL) != LOP_OK) {
        res->flat_skipped++; /* too large to simulate at this P */
        return LOP_OK;
    }
    lop_status_t st = sched_generate(a, p, n, &s);
    if (st)
        return st;
    if (hybrid_flat_bound(sim, &s) >= res->flat_us) {
        res->flat_bounded++;
        sched_free(&s);
        return LOP_OK;
    }
    st = hybrid_sim_us(sim, &s, sim->pairs, &us);
    if (st == LOP_OK && us < res->flat_us) {
        res->flat_us = us;
        res->flat = (hybrid_choice_t){a, n, 1};
    }
    sched_free(&s);
    return st;
}

lop_status_t hybrid_flat_best(const sched_sim_t *sim, const barrier_alg_t *const *algs,
                              uint32_t p, hybrid_result_t *res)
{
    lop_status_t st = LOP_OK;
    res->flat_us = INFINITY;
    for (const barrier_alg_t *const *a = algs; *a && st == LOP_OK; a++)
        for (uint32_t n = 1; !((*a)->flags & BARRIER_COST_ONLY) && st == LOP_OK &&
                             n <= ((*a)->takes_n ? HYBRID_MAX_N : 1); n++)
            if (!flat_repeats(algs, a, n))
                st = flat_try(sim, *a, barrier_alg_n(*a, n), p, res);
    return st;
}
