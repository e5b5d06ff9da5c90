/*
 * Topology-aware hybrid barrier (Meyer and Elster, section VII): one
 * algorithm per tier of the ranks' placement, chosen on per-pair costs
 * (hybrid.h builds it).  Its descriptor names it for --alg and says it has
 * no closed form; it is not in barrier_algs (no build_rank: its schedule
 * depends on the costs), but barrier_alg_find knows it.
 */
#include <math.h>

#include "barrier.h"

static uint32_t hybrid_rounds(uint32_t p, uint32_t n)
{
    (void)p;
    (void)n;
    return 0; /* known once built: the schedule's n_steps */
}

static double no_closed_form(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)c;
    (void)p;
    (void)n;
    return NAN;
}

const barrier_alg_t barrier_alg_hybrid = {
    .name = "hybrid",
    .title = "topology-aware hybrid barrier",
    .cite = "Meyer and Elster, Optimized Barriers for Heterogeneous Systems Using MPI, "
            "section VII; per-tier search: models/README.md",
    .flags = BARRIER_HYBRID,
    .rounds = hybrid_rounds,
    .logp_us = no_closed_form,
    .lop_us = no_closed_form,
    .logp_note = "no closed form: simulated on per-pair costs",
    .lop_note = "no closed form: simulated on per-pair costs",
};
