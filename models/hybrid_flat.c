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

/* Does rank r agree with its peer of move d at level k of a machine for
 * every r (1), for none (0), or is it not told by d alone (-1)?  Where the
 * level's keys (pairs_t.key_d: block r / D, round robin r mod D) tile the P
 * ranks, a SHIFT's peer r + d mod P shares r's key for every r or for none
 * (round robin: iff D divides d; block: none for D <= d <= P - D, where the
 * peer's block is another whatever r's place in its own), as a XOR's r ^ d
 * does for D a power of two (block: iff d < D; round robin: iff D divides
 * d).  The pair relation is symmetric, so a RECV's move serves too. */
static int level_agree(const pairs_t *c, const sched_t *s, uint32_t d, uint32_t k)
{
    uint32_t D = c->key_d[k];
    if (D == 1)
        return c->map != PAIRS_BLOCK; /* block: keys are ranks; round robin: one key */
    if (s->form == SCHED_XOR) {
        if (D & (D - 1))
            return -1;
        return c->map == PAIRS_BLOCK ? d < D : (d & (D - 1)) == 0;
    }
    if (s->p % D)
        return -1;
    if (c->map == PAIRS_RR)
        return d % D == 0;
    return d < D || d > s->p - D ? -1 : 0;
}

static inline double least(double a, double b)
{
    return b < a ? b : a;
}

/* The cheapest o and L of the levels the messages of slot k can be at
 * (pairs_cost: the first level where a pair's keys differ, at most the
 * last); a matrix, or a view, is scanned over every rank instead.  A RECV's
 * o is its o_r where that is the pair's. */
static void slot_least(const sched_t *s, const pairs_t *c, uint32_t k, double *o_us,
                       double *L_us)
{
    sched_op_t op = s->op[k];
    *o_us = *L_us = INFINITY;
    for (uint32_t lv = 0; !c->o_us && !c->rank && lv < c->n_levels; lv++) {
        int agree = level_agree(c, s, (uint32_t)op.peer, lv);
        if (agree == 1 && lv + 1 < c->n_levels)
            continue; /* every pair agrees here: its level is further in */
        *o_us = least(*o_us, c->level_o_us[lv]);
        *L_us = least(*L_us, c->level_L_us[lv]);
        if (agree == 0)
            return; /* every pair differs here: none further in */
    }
    for (uint32_t r = 0; (c->o_us || c->rank) && r < s->p; r++) {
        uint32_t q = (uint32_t)sched_op_at(s, r, k).peer;
        double o, L;
        pairs_cost(c, op.kind == SCHED_SEND ? r : q, op.kind == SCHED_SEND ? q : r, &o, &L);
        *o_us = least(*o_us, o);
        *L_us = least(*L_us, L);
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
