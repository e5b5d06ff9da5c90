/*
 * Combining tree (thesis 2.2.1.2, listing 2.2; Yew, Tzeng and Lawrie 1987):
 * groups of n ranks report to their first member, the first members form the
 * groups of the next level, and rank 0 finally releases everyone with a
 * binomial broadcast (t_bc, 2.2.1).  The groups are the n-nomial tree of
 * tree_knomial_gather().  A group of one combines nothing (log_1 P is
 * undefined), so n = 1 runs as n = 2.  The tournament and the f-way
 * tournament produce the same message pattern and reuse these functions.
 */
#include "barrier.h"

static uint32_t group_size(uint32_t n)
{
    return n < 2 ? 2 : n;
}

uint32_t comb_rounds(uint32_t p, uint32_t n)
{
    return barrier_ceil_log(p, group_size(n)) + barrier_ceil_log(p, 2);
}

void comb_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    uint32_t levels = tree_knomial_gather(s, p, group_size(n), rank);
    tree_binomial_bcast(s, p, rank, levels);
}

/* Thesis 2.2.5.2: rt = (o_s + L + f_r (n-2) + o_r) ceil(log_n P) + t_bc. */
double comb_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    uint32_t k = group_size(n);
    double levels = barrier_ceil_log(p, k);
    return tree_gather_logp(c, levels, k - 1.0) + tree_bcast_logp(c, p);
}

/* Thesis 2.3.7.1.2: rt = R (o(cnt R) + (n-1) L((n-1) cnt R)) + t_bc, R = ceil(log_n p). */
double comb_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    uint32_t k = group_size(n);
    double levels = barrier_ceil_log(p, k);
    return tree_gather_lop(c, levels, k - 1.0) + tree_bcast_lop(c, p);
}

double comb_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n)
{
    return tree_bcast_bound(b, p, tree_knomial_bound(b, p, group_size(n)));
}

int comb_logp_exact(uint32_t p, uint32_t n)
{
    return barrier_power_of(p, group_size(n)) && barrier_power_of_two(p);
}

const barrier_alg_t barrier_alg_comb = {
    .name = "comb",
    .title = "combining tree",
    .cite = "thesis 2.2.1.2 (listing 2.2), LogP 2.2.5.2, LoP 2.3.7.1.2",
    .n_meaning = "group size (1 runs as 2)",
    .logp_note = "exact when P is a power of n and of 2 (n = 2, 4, 16..) and g <= o_s+L+o_r",
    BARRIER_COMB_TREE,
};
