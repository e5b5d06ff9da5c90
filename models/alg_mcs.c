/*
 * MCS tree (thesis 2.2.1.5, listing 2.4; Mellor-Crummey and Scott 1991): the
 * ranks form an n-ary heap (children of r are r n + 1 .. r n + n); each rank
 * waits for its children, then reports to its parent; rank 0 releases
 * everyone with a binomial broadcast.  A message from depth d is step D - d
 * (D = depth of the tree), so the leaves at the bottom report in step 0.
 */
#include "barrier.h"

/* Depth of rank r in the n-ary heap. */
static uint32_t heap_depth(uint64_t r, uint32_t n)
{
    if (n == 1)
        return (uint32_t)r;
    uint32_t depth = 0;
    for (uint64_t first = 0, width = 1; r >= first + width; first += width, width *= n)
        depth++;
    return depth;
}

static uint32_t mcs_rounds(uint32_t p, uint32_t n)
{
    return heap_depth(p - 1, n) + barrier_ceil_log(p, 2);
}

static void mcs_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    uint32_t depth = heap_depth(p - 1, n), d = heap_depth(rank, n);
    uint64_t child = (uint64_t)rank * n + 1;
    for (uint64_t c = child; c < child + n && c < p; c++)
        sched_push(s, SCHED_RECV, (int32_t)c, depth - d - 1);
    if (rank != 0)
        sched_push(s, SCHED_SEND, (int32_t)((rank - 1) / n), depth - d);
    tree_binomial_bcast(s, p, rank, depth);
}

/* Table 2.1: (L + (n+1) o) ceil(log_n P) + t_bc.  In the notation of 2.2.5 a
 * level costs o_s + L + o_r + (n-1) f_r, and a heap has D levels, not
 * ceil(log_n P) (which is undefined for n = 1). */
static double mcs_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    double levels = heap_depth(p - 1, n);
    return tree_gather_logp(c, levels, n) + tree_bcast_logp(c, p);
}

/* Derived like 2.3.7.1.2: each level is an n:1 gather, t_n:1 = o(1) + n L(n),
 * evaluated at the stream of D levels. */
static double mcs_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    double levels = heap_depth(p - 1, n);
    return tree_gather_lop(c, levels, n) + tree_bcast_lop(c, p);
}

/* The rule held to is the binary heap (n = 1) at P = 2^k: complete, and the
 * broadcast too. */
static int mcs_logp_exact(uint32_t p, uint32_t n)
{
    return n == 1 && barrier_power_of_two(p);
}

const barrier_alg_t barrier_alg_mcs = {
    .name = "mcs",
    .title = "MCS tree",
    .cite = "thesis 2.2.1.5 (listing 2.4), table 2.1; Mellor-Crummey and Scott 1991",
    .takes_n = 1,
    .n_meaning = "children per node",
    .default_n = 4,
    .rounds = mcs_rounds,
    .build_rank = mcs_build_rank,
    .n_ops = tree_n_ops,
    .logp_us = mcs_logp_us,
    .lop_us = mcs_lop_us,
    .flat_bound = tree_bcast_flat_bound, /* rank 0 starts the broadcast at 0 or later */
    .logp_note = "exact when the heap is complete and P is a power of 2 (e.g. n = 1) "
                 "and g <= o_s+L+o_r",
    .lop_note = "derived in the thesis's style (n:1 per level at the stream of D levels); "
                "not exact",
    .logp_exact = mcs_logp_exact,
    .lop_band_lo = 0.79,
    .lop_band_hi = 2.67,
};
