/*
 * Binomial spanning tree (thesis 2.2.1.6, listing 2.5; Tzeng and Kongmunvattana
 * 1997): the parent of r is r with its highest set bit cleared, the children
 * are r + 2^i for 2^i > r.  A rank waits for its children, smallest subtree
 * (largest i) first, then reports to its parent; rank 0 releases everyone with
 * a binomial broadcast.  The message of child r + 2^i is step ceil(log2 P)-1-i.
 */
#include "barrier.h"

static uint32_t bst_rounds(uint32_t p, uint32_t n)
{
    (void)n;
    return 2 * barrier_ceil_log(p, 2);
}

static void bst_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    (void)n;
    uint32_t rounds = barrier_ceil_log(p, 2);
    uint32_t low = rank ? barrier_floor_log(rank, 2) + 1 : 0; /* children: i >= low */
    for (uint32_t i = rounds; i-- > low;)
        if ((uint64_t)rank + (1ull << i) < p)
            sched_push(s, SCHED_RECV, (int32_t)(rank + (1u << i)), rounds - 1 - i);
    if (rank != 0)
        sched_push(s, SCHED_SEND, (int32_t)(rank - (1u << (low - 1))), rounds - low);
    tree_binomial_bcast(s, p, rank, rounds);
}

/* Thesis 2.2.1.6.2: (L + 2o) log2 P + t_bc for P = 2^k, (L + 3o) ceil(log2 P) + t_bc
 * otherwise (receiver enqueueing); here t_r and t_r + f_r. */
static double bst_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    double rounds = barrier_ceil_log(p, 2);
    double round = logp_tr(&c->logp) + (barrier_power_of_two(p) ? 0 : logp_fr(&c->logp));
    return rounds * round + tree_bcast_logp(c, p);
}

/* Derived: a round is 1:1, o(1) + L(1), for P = 2^k and 2:1, o(1) + 2 L(2), with
 * enqueueing otherwise, at the stream of ceil(log2 p) rounds. */
static double bst_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    if (p < 2)
        return 0;
    double rounds = barrier_ceil_log(p, 2), fan = barrier_power_of_two(p) ? 1 : 2;
    return tree_gather_lop(c, rounds, fan) + tree_bcast_lop(c, p);
}

const barrier_alg_t barrier_alg_bst = {
    .name = "bst",
    .title = "binomial spanning tree",
    .cite = "thesis 2.2.1.6 (listing 2.5), table 2.1; Tzeng and Kongmunvattana 1997",
    .rounds = bst_rounds,
    .build_rank = bst_build_rank,
    .n_ops = tree_n_ops,
    .logp_us = bst_logp_us,
    .lop_us = bst_lop_us,
    .flat_bound = tree_bcast_flat_bound, /* rank 0 starts the broadcast at 0 or later */
    .logp_note = "exact when P is a power of 2 and g <= o_s+L+o_r",
    .lop_note = "derived in the thesis's style; not exact",
    .logp_exact = barrier_exact_p_power_of_two,
    .lop_band_lo = 0.91,
    .lop_band_hi = 1.50,
};
