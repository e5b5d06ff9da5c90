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
 * d).  A DIGIT move i R^t keeps a rank in its aligned block of R^(t+1)
 * ranks: block keys agree where D is a multiple of the block and differ
 * where R^t is one of D or the peer is D or more away (min(i, R - i) R^t),
 * round robin ones agree where D divides R^t.  A fold pair r, r + j M
 * (d = 0: the fold) agrees in round robin and differs in block keys where
 * D divides M.  The pair relation is symmetric, so a RECV's move serves
 * too. */
static int level_agree(const pairs_t *c, const sched_t *s, uint32_t d, uint32_t k)
{
    uint32_t D = c->key_d[k];
    if (D == 1)
        return c->map != PAIRS_BLOCK; /* block: keys are ranks; round robin: one key */
    if (s->form == SCHED_DIGIT) {
        uint32_t span = d ? sched_digit_span(s, d) : s->main, block = d ? s->radix * span : 0;
        uint64_t near = d ? (uint64_t)(d < block - d ? d : block - d) : s->main; /* |peer - r| */
        if (span % D == 0)
            return c->map == PAIRS_RR;
        if (c->map == PAIRS_BLOCK && near >= D)
            return 0; /* D or more apart: never one block */
        return c->map == PAIRS_BLOCK && block && D % block == 0 ? 1 : -1;
    }
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

/* The cheapest o and L of the levels a set of pairs can be at (pairs_cost:
 * the first level where a pair's keys differ, at most the last), told by
 * agree(lv): its pairs agree at level lv all (1), none (0) or some (-1). */
static void levels_least(const pairs_t *c, const int *agree, double *o_us, double *L_us)
{
    *o_us = *L_us = INFINITY;
    for (uint32_t lv = 0; lv < c->n_levels; lv++) {
        if (agree[lv] == 1 && lv + 1 < c->n_levels)
            continue; /* every pair agrees here: its level is further in */
        *o_us = least(*o_us, c->level_o_us[lv]);
        *L_us = least(*L_us, c->level_L_us[lv]);
        if (agree[lv] == 0)
            return; /* every pair differs here: none further in */
    }
}

/* Rank r's peer in slot k (k = per_rank: a fold, from r >= M). */
static uint32_t slot_peer(const sched_t *s, uint32_t r, uint32_t k)
{
    if (k == s->per_rank)
        return r % s->main;
    if (s->form == SCHED_DIGIT)
        return sched_digit_peer(s, r, (uint32_t)s->op[k].peer);
    return (uint32_t)sched_op_at(s, r, k).peer;
}

/* The cheapest o and L of the messages of slot k: of the levels they can
 * be at, or, in a matrix or a view, scanned over every rank.  A RECV's o is
 * its o_r where that is the pair's.  Slot per_rank: the fold's pairs,
 * whichever way. */
static void slot_least(const sched_t *s, const pairs_t *c, uint32_t k, double *o_us,
                       double *L_us)
{
    int fold = k == s->per_rank, agree[PAIRS_MAX_LEVELS];
    sched_op_t op = fold ? (sched_op_t){0, 0, SCHED_SEND} : s->op[k];
    if (!c->o_us && !c->rank) { /* a machine: its levels */
        for (uint32_t lv = 0; lv < c->n_levels; lv++)
            agree[lv] = level_agree(c, s, (uint32_t)op.peer, lv);
        levels_least(c, agree, o_us, L_us);
        return;
    }
    *o_us = *L_us = INFINITY;
    uint32_t lo = fold ? s->main : 0, hi = s->form == SCHED_DIGIT && !fold ? s->main : s->p;
    for (uint32_t r = lo; r < hi; r++) {
        uint32_t q = slot_peer(s, r, k);
        double o, L;
        for (int way = 0; way <= fold; way++) {
            int out = op.kind == SCHED_SEND && !way;
            pairs_cost(c, out ? r : q, out ? q : r, &o, &L);
            *o_us = least(*o_us, o);
            *L_us = least(*L_us, L);
        }
    }
}

/* The SEND slot a RECV slot k takes (sched_sweep.h: the i-th RECV of a move
 * takes the i-th SEND of the move that undoes it), or k when none before it. */
static uint32_t slot_match(const sched_t *s, uint32_t k)
{
    uint32_t c = (uint32_t)s->op[k].peer, i = 0;
    uint32_t undo = s->form == SCHED_XOR || c == 0 ? c : s->p - c;
    if (s->form == SCHED_DIGIT)
        undo = s->radix * sched_digit_span(s, c) - c;
    for (uint32_t j = 0; j < k; j++)
        i += s->op[j].kind == SCHED_RECV && (uint32_t)s->op[j].peer == c;
    for (uint32_t j = 0; j < k; j++)
        if (s->op[j].kind == SCHED_SEND && (uint32_t)s->op[j].peer == undo && i-- == 0)
            return j;
    return k;
}

/* The receive overhead of a message whose cheapest o is o. */
static double bound_or(const sched_sim_t *sim, double o)
{
    return sim->or_per_pair ? o : sim->cost->logp.or_us;
}

/* SCHED_DIGIT's fold in: when every main rank has c >= 1 partners, none
 * starts its exchanges before c receives of messages sent at time 0. */
static double fold_in_least(const sched_sim_t *sim, const sched_t *s)
{
    uint32_t c = s->form == SCHED_DIGIT && s->main < s->p ? (s->p - s->main) / s->main : 0;
    double o, L, t;
    if (c == 0)
        return 0;
    slot_least(s, sim->pairs, s->per_rank, &o, &L);
    t = o + L;
    for (uint32_t i = 0; i < c; i++)
        t += bound_or(sim, o);
    return t;
}

/* Every main rank's exchanges are rank 0's moved, so with each slot's
 * cheapest o and L (and no gap) every rank runs the one program below at
 * the same times, and LogP in program order is max-plus: no message costs
 * less than its slot's cheapest, so no rank finishes earlier than this (in
 * floating point too: the same sums in the same order, of numbers no
 * larger, round no larger).  A fold adds what it must before (every main
 * rank's partners' messages, where each has one) and after (a partner's
 * notification: it leaves once the exchanges are done). */
double hybrid_flat_bound(const sched_sim_t *sim, const sched_t *s)
{
    double *done = s->form && sim->recv_order == SCHED_RECV_PROGRAM && sim->pairs
                       ? lop_calloc(s->per_rank + 1, sizeof *done) : NULL;
    double t = done ? fold_in_least(sim, s) : 0;
    int bounded = done != NULL;
    for (uint32_t k = 0; bounded && k < s->per_rank; k++) {
        double o, L;
        uint32_t j = slot_match(s, k);
        if (s->op[k].kind == SCHED_MCAST || (s->op[k].kind == SCHED_RECV && j == k)) {
            t = 0; /* no bound */
            bounded = 0;
            break;
        }
        slot_least(s, sim->pairs, k, &o, &L);
        if (s->op[k].kind == SCHED_SEND) {
            t = done[k] = t + o; /* the message leaves when its send overhead ends */
            continue;
        }
        double arrival = done[j] + L;
        t = (t > arrival ? t : arrival) + bound_or(sim, o);
    }
    if (bounded && s->form == SCHED_DIGIT && s->main < s->p) {
        double o, L;
        slot_least(s, sim->pairs, s->per_rank, &o, &L);
        t = t + o + L + bound_or(sim, o);
    }
    free(done);
    return t;
}

/* ------------------------------------------ bounds of stored schedules */

/* The costs a bound may assume on sim's machine (barrier_least_t first). */
typedef struct {
    barrier_least_t b;
    const sched_sim_t *sim;
    uint32_t p;
} least_t;

/* Do a rank r, a multiple of k^(t+1), and r + i k^t agree at level lv of a
 * machine for every such r (1), for none (0), or is it not told (-1)?
 * Block keys r / D: aligned blocks of k^(t+1) ranks lie in one key where D
 * is a multiple of them; where D divides k^(t+1), r starts a key, which
 * r + i k^t shares iff i k^t < D; ranks D or more apart never share one.
 * Round robin keys r mod D: the same iff D divides i k^t; else, where D
 * divides k^(t+1), never. */
static int aligned_agree(const pairs_t *c, uint64_t k, uint32_t t, uint64_t i, uint32_t lv)
{
    uint64_t D = c->key_d[lv], span = barrier_ipow(k, t), block = span * k;
    if (D == 1)
        return c->map != PAIRS_BLOCK;
    if (c->map == PAIRS_BLOCK) /* and D or more apart: never one block */
        return D % block == 0 ? 1 : block % D == 0 || i * span >= D ? i * span < D : -1;
    return i * span % D == 0 ? 1 : block % D == 0 ? 0 : -1;
}

/* barrier_least_t.aligned on a machine: the cheapest level such pairs can
 * be at (as slot_least); a matrix, or a view, scanned over every pair. */
static void least_aligned(const barrier_least_t *b, uint64_t k, uint32_t t, uint64_t i,
                          double *o_us, double *L_us)
{
    const least_t *l = (const least_t *)b;
    const pairs_t *c = l->sim->pairs;
    int agree[PAIRS_MAX_LEVELS];
    if (!c->o_us && !c->rank) { /* a machine: its levels */
        for (uint32_t lv = 0; lv < c->n_levels; lv++)
            agree[lv] = aligned_agree(c, k, t, i, lv);
        levels_least(c, agree, o_us, L_us);
        return;
    }
    *o_us = *L_us = INFINITY;
    uint64_t span = barrier_ipow(k, t), block = span * k;
    for (uint64_t r = 0; r + i * span < l->p; r += block)
        for (int way = 0; way < 2; way++) {
            uint32_t a = (uint32_t)r, z = (uint32_t)(r + i * span);
            double o, L;
            pairs_cost(c, way ? z : a, way ? a : z, &o, &L);
            *o_us = least(*o_us, o);
            *L_us = least(*L_us, L);
        }
}

static double least_recv_o(const barrier_least_t *b, double o_us)
{
    return bound_or(((const least_t *)b)->sim, o_us);
}

double hybrid_alg_bound(const sched_sim_t *sim, const barrier_alg_t *alg, uint32_t p, uint32_t n)
{
    least_t l = {{least_aligned, least_recv_o}, sim, p};
    if (!alg->flat_bound || sim->recv_order != SCHED_RECV_PROGRAM || !sim->pairs)
        return 0;
    return alg->flat_bound(&l.b, p, barrier_alg_n(alg, n));
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

/* Does a lower bound show that candidate c cannot beat the best so far?
 * (Counted: it is then neither built nor simulated.) */
static int flat_beaten(hybrid_result_t *res, uint32_t best_index, double bound,
                       const flat_cand_t *c)
{
    int beaten = bound > res->flat_us || (bound == res->flat_us && c->index > best_index);
    res->flat_bounded += beaten;
    return beaten;
}

/* Candidate c over all p ranks: simulated, unless its bound says it cannot
 * beat the best so far, and given up once a rank passes that best (so it
 * cannot beat it either: a barrier's time is its slowest rank's).  The
 * winner's schedule is kept in *best when stored (rebuilding it was half
 * a second at P = 2^20). */
static lop_status_t flat_try(const sched_sim_t *sim, const flat_cand_t *c, uint32_t p,
                             hybrid_result_t *res, uint32_t *best_index, sched_t *best)
{
    sched_t s = {0};
    double us, bound = hybrid_alg_bound(sim, c->alg, p, c->n);
    int gave_up;
    lop_status_t st = flat_beaten(res, *best_index, bound, c) ? LOP_OK
                                                               : sched_generate(c->alg, p, c->n, &s);
    if (st || s.p == 0)
        return st; /* refused, or bounded out before it was built */
    if (flat_beaten(res, *best_index, hybrid_flat_bound(sim, &s), c)) {
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
        *best = s;
        s = (sched_t){0};
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
