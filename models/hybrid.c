/* hybrid.c - topology-aware hybrid barriers (hybrid.h): the build, per-pair
 * costs per level and the hybrid from files.  The parts: its descriptor
 * alg_hybrid.c, hybrid_tree.c (tiers and groups), hybrid_phase.c (arrival, departure,
 * composition), hybrid_search.c (candidates and search), hybrid_prove.c. */
#include "hybrid_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timer.h"

/* ------------------------------------------------------------- the build */

lop_status_t hybrid_build(const lop_place_t *pl, uint32_t p, const sched_sim_t *sim,
                          const barrier_alg_t *const *algs, hybrid_result_t *res)
{
    double t0 = lop_timer_clock_s();
    hybrid_tree_t *tree = NULL;
    memset(res, 0, sizeof *res);
    if (!sim->pairs || sim->model != SCHED_SIM_LOGP)
        return lop_err(LOP_ERR_INVALID, "hybrid: needs per-pair LogP costs");
    if (sim->pairs->p < p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the per-pair costs describe %u "
                       "ranks", p, sim->pairs->p);
    lop_status_t st = hybrid_tree_new(pl, p, &tree);
    if (st)
        return st;
    st = hybrid_search(tree, sim, algs, p, res);
    hybrid_tree_free(tree);
    if (st)
        hybrid_result_free(res);
    res->search_s = lop_timer_clock_s() - t0;
    return st;
}

void hybrid_result_free(hybrid_result_t *res)
{
    sched_free(&res->sched);
}

/* ------------------------------------------------------------ from files */

lop_status_t hybrid_place_costs(const lop_place_t *pl, uint32_t p, const double *L_us,
                                const double *o_us, pairs_t *c)
{
    memset(c, 0, sizeof *c);
    if (p > pl->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the placement has %u ranks", p,
                       pl->p);
    c->p = p;
    c->o_us = lop_calloc((size_t)p * p, sizeof *c->o_us);
    c->L_us = lop_calloc((size_t)p * p, sizeof *c->L_us);
    if (!c->o_us || !c->L_us) {
        pairs_free(c);
        return LOP_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t j = 0; j < p; j++) {
            uint32_t k = lop_place_level(pl, i, j);
            c->o_us[(size_t)i * p + j] = o_us[k];
            c->L_us[(size_t)i * p + j] = L_us[k];
        }
    return LOP_OK;
}

lop_status_t hybrid_from_place(const char *pairs_path, const lop_place_t *pl, uint32_t p,
                               hybrid_result_t *res)
{
    static const double L[] = HYBRID_DEFAULT_L_US, o[] = HYBRID_DEFAULT_O_US;
    pairs_t c;
    barrier_cost_t cost;
    barrier_cost_init(&cost); /* logp all 0: o_r = g = 0 */
    memset(res, 0, sizeof *res);
    lop_status_t st;
    if (pairs_path)
        st = pairs_read(pairs_path, &c);
    else if (pl->n_levels + 1 > COUNT(L))
        st = lop_err(LOP_ERR_INVALID, "hybrid: more levels than default costs");
    else
        st = hybrid_place_costs(pl, p < pl->p ? p : pl->p, L, o, &c);
    if (st == LOP_OK) {
        sched_sim_t sim = {SCHED_SIM_LOGP, &cost, SCHED_LOP_STREAM, &c, SCHED_RECV_PROGRAM,
                           0}; /* o_r = 0, not the pair's o: the paper's O has none */
        st = hybrid_build(pl, p, &sim, NULL, res);
        pairs_free(&c);
    }
    st = st ? st : sched_store(&res->sched); /* executors need every rank's ops */
    if (st)
        hybrid_result_free(res);
    return st;
}
