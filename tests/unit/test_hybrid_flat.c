/* The hybrid's flat candidates (models/hybrid_flat.c): the lower bound of a
 * generated schedule, and an algorithm's own (barrier_alg_t.flat_bound: the
 * trees), is never above its simulated time (two machines, one with costs
 * that do not fall inwards, 256 places each, both placements, o_r per pair
 * or one, g = 0 and g > 0, levels or a matrix, every algorithm, n = 1..4,
 * P = 2..80 and 128, 256), each is reached, and the bounded choice of the best flat algorithm
 * is the one simulating every candidate gives, bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "hybrid_tree.h"
#include "pairs.h"
#include "sched_sim.h"
#include "tap.h"

static barrier_cost_t cost;
static uint32_t own_reached; /* the algorithms' own bounds equal to the simulation, all machines */

typedef struct {
    uint32_t applied, above, tight; /* generated schedules' */
    uint32_t own, own_above, own_tight; /* the algorithms' own */
} bound_count_t;

static void bound_one(const sched_sim_t *sim, const barrier_alg_t *a, uint32_t p, uint32_t n,
                      bound_count_t *k)
{
    sched_t s;
    sched_sim_result_t r;
    if (sched_generate(a, p, barrier_alg_n(a, n), &s) != LOP_OK)
        return;
    double bound = hybrid_flat_bound(sim, &s), own = hybrid_alg_bound(sim, a, p, n);
    if ((s.form || a->flat_bound) && sched_sim_run(&s, sim, 0, &r) == LOP_OK) {
        k->applied += s.form != SCHED_STORED;
        k->above += s.form && bound > r.max_us;
        k->tight += s.form && bound == r.max_us;
        k->own += a->flat_bound != NULL;
        k->own_above += a->flat_bound && own > r.max_us;
        k->own_tight += a->flat_bound && own == r.max_us;
        if (own > r.max_us)
            printf("#   %s n = %u P = %u: own bound %.17g above %.17g\n", a->name, n, p, own,
                   r.max_us);
    }
    sched_free(&s);
}

/* The machine's costs as a matrix (as --costs gives them): the bounds then
 * scan every pair instead of telling the levels from the moves. */
static void as_matrix(pairs_t *m)
{
    pairs_t x = {.p = m->p};
    x.o_us = calloc((size_t)m->p * m->p, sizeof *x.o_us);
    x.L_us = calloc((size_t)m->p * m->p, sizeof *x.L_us);
    for (uint32_t i = 0; i < m->p; i++)
        for (uint32_t j = 0; j < m->p; j++)
            pairs_cost(m, i, j, &x.o_us[(size_t)i * m->p + j], &x.L_us[(size_t)i * m->p + j]);
    pairs_free(m);
    *m = x;
}

static void bounds_below(const char *spec, const double *L, const double *o, pairs_map_t map,
                         int or_per_pair, double g, int matrix)
{
    pairs_t m;
    bound_count_t k = {0};
    pairs_machine(&m, spec, L, 3, o, 3, map);
    if (matrix)
        as_matrix(&m);
    cost.logp = (logp_t){1, 0.5, 0.25, g};
    sched_sim_t sim = {SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, &m, SCHED_RECV_PROGRAM,
                       or_per_pair};
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        for (uint32_t p = 2; p <= m.p; p += p < 80 ? 1 : p) {
            for (uint32_t n = 1; n <= ((*a)->takes_n ? 4 : 1); n++)
                if (!((*a)->flags & BARRIER_COST_ONLY))
                    bound_one(&sim, *a, p, n, &k);
        }
    ok(k.applied > 300 && k.above == 0 && k.tight > 0,
       "%s %s%s, o_r %s, g = %g: the bound of %u generated schedules never above the "
       "simulated time (%u above), reached by %u", spec, map == PAIRS_RR ? "rr" : "block",
       matrix ? " as a matrix" : "", or_per_pair ? "per pair" : "0.25", g, k.applied, k.above,
       k.tight);
    ok(k.own > 300 && k.own_above == 0,
       "... and the algorithms' own bounds of %u trees never above (%u above), reached by %u",
       k.own, k.own_above, k.own_tight);
    own_reached += k.own_tight;
    pairs_free(&m);
}

/* The first fastest of every candidate, each simulated. */
static double flat_direct(const sched_sim_t *sim, uint32_t p, const barrier_alg_t **alg,
                          uint32_t *n_best)
{
    double best = INFINITY;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        for (uint32_t n = 1; !((*a)->flags & BARRIER_COST_ONLY) &&
                             n <= ((*a)->takes_n ? HYBRID_MAX_N : 1); n++) {
            sched_t s;
            double us;
            if (sched_generate(*a, p, barrier_alg_n(*a, n), &s) != LOP_OK)
                continue;
            if (hybrid_sim_us(sim, &s, sim->pairs, &us) == LOP_OK && us < best)
                best = us, *alg = *a, *n_best = barrier_alg_n(*a, n);
            sched_free(&s);
        }
    return best;
}

static void choice_same(pairs_map_t map)
{
    double L[3] = {3.0, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    pairs_t m;
    uint32_t same = 0, bounded = 0, stopped = 0, tried = 0;
    pairs_machine(&m, "8x2x4", L, 3, o, 3, map);
    cost.logp = (logp_t){1, 0.5, 0, 0};
    sched_sim_t sim = {SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, &m, SCHED_RECV_PROGRAM, 1};
    for (uint32_t p = 2; p <= 64; p++, tried++) {
        hybrid_result_t res;
        const barrier_alg_t *alg = NULL;
        uint32_t n = 0;
        memset(&res, 0, sizeof res);
        double us = flat_direct(&sim, p, &alg, &n);
        sched_t kept;
        if (hybrid_flat_best(&sim, barrier_algs, p, &res, &kept) == LOP_OK)
            same += res.flat_us == us && res.flat.alg == alg && res.flat.n == n;
        bounded += res.flat_bounded;
        stopped += res.flat_stopped;
        sched_free(&kept);
    }
    ok(same == tried && bounded > 0 && stopped > 0,
       "8x2x4 %s: the bounded best flat is every candidate's best at P = 2..64 (%u of %u), "
       "%u candidates bounded out, %u given up", map == PAIRS_RR ? "rr" : "block", same, tried,
       bounded, stopped);
    pairs_free(&m);
}

int main(void)
{
    barrier_cost_init(&cost);
    double L[3] = {3.0, 0.8, 0.2}, o[3] = {0.5, 0.3, 0.1};
    double L2[3] = {0.5, 2.0, 0.1}, o2[3] = {0.2, 0.6, 0.05}; /* not falling inwards */
    for (int map = 0; map <= 1; map++) {
        bounds_below("8x2x16", L, o, (pairs_map_t)map, 1, 0, 0);
        bounds_below("4x4x16", L2, o2, (pairs_map_t)map, 0, 0, 0);
        bounds_below("4x4x16", L2, o2, (pairs_map_t)map, 1, 0.7, 0);
        bounds_below("8x2x16", L, o, (pairs_map_t)map, 1, 0, 1);
    }
    ok(own_reached > 500, "the algorithms' own bounds are reached: %u times", own_reached);
    choice_same(PAIRS_BLOCK);
    choice_same(PAIRS_RR);
    return tap_done();
}
