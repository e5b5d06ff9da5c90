/* hybrid_flat.c - the hybrid's flat candidates: every algorithm over all
 * ranks simulated, unless a lower bound shows it cannot win (hybrid.h). */
#include "hybrid_tree.h"

#include <math.h>
#include <stdlib.h>

/* s simulated on 'pairs'; with give_up > 0 it may stop once past it (*gave_up). */
static lop_status_t sim_until(const sched_sim_t *sim, const sched_t *s, const pairs_t *pairs,
                              double give_up, double *us, int *gave_up)
{
    sched_sim_t par = *sim;
    sched_sim_result_t res = {0};
    par.pairs = pairs;
    par.give_up_us = give_up;
    lop_status_t st = s->n_ops ? sched_sim_run(s, &par, 0, &res) : LOP_OK;
    *us = st || !s->n_ops ? 0 : res.max_us;
    *gave_up = st == LOP_OK && res.gave_up;
    return st;
}

lop_status_t hybrid_sim_us(const sched_sim_t *sim, const sched_t *s, const pairs_t *pairs,
                           double *us)
{
    int gave_up;
    return sim_until(sim, s, pairs, 0, us, &gave_up);
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

/* One flat candidate: its place in the canonical order (algs by n), which
 * decides between equal times, and its op count, which orders the search. */
typedef struct {
    const barrier_alg_t *alg;
    uint32_t n, index;
    uint64_t ops;
} flat_cand_t;

/* Is 'us' of candidate c better than the best so far (the first of equal
 * times in canonical order wins, whatever order they are tried in)? */
static int flat_better(const hybrid_result_t *res, uint32_t best_index, double us,
                       const flat_cand_t *c)
{
    return us < res->flat_us || (us == res->flat_us && c->index < best_index);
}

/* Candidate c over all p ranks: simulated, unless its bound says it cannot
 * beat the best so far, and given up once a rank passes that best (so it
 * cannot beat it either: a barrier's time is its slowest rank's).  The
 * winner's schedule is kept in *best when stored (rebuilding it was half
 * a second at P = 2^20). */
static lop_status_t flat_try(const sched_sim_t *sim, const flat_cand_t *c, uint32_t p,
                             hybrid_result_t *res, uint32_t *best_index, sched_t *best)
{
    sched_t s;
    double us, bound;
    int gave_up;
    lop_status_t st = sched_generate(c->alg, p, c->n, &s);
    if (st)
        return st;
    bound = hybrid_flat_bound(sim, &s);
    if (bound > res->flat_us || (bound == res->flat_us && c->index > *best_index)) {
        res->flat_bounded++;
        sched_free(&s);
        return LOP_OK;
    }
    st = sim_until(sim, &s, sim->pairs, isfinite(res->flat_us) ? res->flat_us : 0, &us, &gave_up);
    res->flat_stopped += gave_up;
    if (st == LOP_OK && !gave_up && flat_better(res, *best_index, us, c)) {
        res->flat_us = us;
        res->flat = (hybrid_choice_t){c->alg, c->n, 1};
        *best_index = c->index;
        sched_free(best);
        if (s.form == SCHED_STORED)
            *best = s, s = (sched_t){0};
    }
    sched_free(&s);
    return st;
}

static int flat_cand_cmp(const void *x, const void *y)
{
    const flat_cand_t *a = x, *b = y;
    return a->ops != b->ops ? (a->ops > b->ops) - (a->ops < b->ops)
                            : (a->index > b->index) - (a->index < b->index);
}

/* Every algorithm with every n, less repeats and those too large to
 * simulate at p (counted), into c[] (*n of them), fewest ops first: the
 * cheap ones set a best that the costly ones are then given up at. */
static lop_status_t flat_cands(const barrier_alg_t *const *algs, uint32_t p,
                               hybrid_result_t *res, flat_cand_t **c, uint32_t *n_cands)
{
    uint32_t most = 0, index = 0;
    for (const barrier_alg_t *const *a = algs; *a; a++)
        most += HYBRID_MAX_N;
    *n_cands = 0;
    *c = lop_calloc(most ? most : 1, sizeof **c);
    if (!*c)
        return LOP_ERR_NOMEM;
    for (const barrier_alg_t *const *a = algs; *a; a++)
        for (uint32_t n = 1; !((*a)->flags & BARRIER_COST_ONLY) &&
                             n <= ((*a)->takes_n ? HYBRID_MAX_N : 1); n++, index++) {
            flat_cand_t k = {*a, barrier_alg_n(*a, n), index, 0};
            if (flat_repeats(algs, a, n))
                continue;
            if (sched_generate_limit(*a, p, k.n, &k.ops) != LOP_OK)
                res->flat_skipped++; /* too large to simulate at this P */
            else
                (*c)[(*n_cands)++] = k;
        }
    qsort(*c, *n_cands, sizeof **c, flat_cand_cmp);
    return LOP_OK;
}

lop_status_t hybrid_flat_best(const sched_sim_t *sim, const barrier_alg_t *const *algs,
                              uint32_t p, hybrid_result_t *res, sched_t *best)
{
    flat_cand_t *c;
    uint32_t n_cands, best_index = UINT32_MAX;
    res->flat_us = INFINITY;
    *best = (sched_t){0};
    lop_status_t st = flat_cands(algs, p, res, &c, &n_cands);
    for (uint32_t i = 0; i < n_cands && st == LOP_OK; i++)
        st = flat_try(sim, &c[i], p, res, &best_index, best);
    free(c);
    if (st)
        sched_free(best);
    return st;
}
