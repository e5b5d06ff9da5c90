/*
 * RDMA gather + multicast (Kini et al. 2003, section 3.3): the ranks report
 * along a tree of fan-in n, ceil(log_{n+1} P) levels (the (n+1)-nomial tree of
 * tree_knomial_gather), and rank 0 releases all of them with one hardware
 * multicast in the last step.
 */
#include "barrier.h"

static uint32_t rgm_rounds(uint32_t p, uint32_t n)
{
    return p > 1 ? barrier_ceil_log(p, (uint64_t)n + 1) + 1 : 0;
}

static void rgm_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    uint32_t levels = tree_knomial_gather(s, p, n + 1, rank);
    if (p > 1)
        sched_push(s, rank ? SCHED_RECV : SCHED_MCAST, rank ? 0 : -1, levels);
}

/* The gather's report per rank but 0 (a send and a receive), one MCAST and
 * its P - 1 receives. */
static uint64_t rgm_n_ops(uint32_t p, uint32_t n)
{
    (void)n;
    return p > 1 ? 3 * ((uint64_t)p - 1) + 1 : 0;
}

/* Derived in the style of 2.2.5.2: a level gathers n messages,
 * o_s + L + o_r + (n-1) f_r; the multicast is one message, o_s + L + o_r. */
static double rgm_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    double levels = barrier_ceil_log(p, (uint64_t)n + 1);
    return tree_gather_logp(c, levels, n) + logp_t1(&c->logp);
}

/* Derived like 2.3.7.1.2: levels n:1, o(cnt R) + n L(n cnt R); the multicast
 * one message, o(cnt) + L(cnt), or where the parameter set holds a measured
 * multicast (src/view.h lop_view_Lmcast) its post and latency to the P - 1
 * others. */
static double rgm_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    double levels = barrier_ceil_log(p, (uint64_t)n + 1), o, L;
    double gather = tree_gather_lop(c, levels, n);
    if (barrier_lop_mcast(c, p - 1, &o, &L))
        return gather + o + L;
    return gather + barrier_lop_o(c, 1) + barrier_lop_L(c, 1);
}

/* The gather's bound, then the multicast: its post costs rank 0 the most o
 * of its receivers (mcast_overhead in sched_sim.c), at least that of rank
 * 2^(R-1), R = ceil(log2 P), whose release then arrives after its L. */
static double rgm_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n)
{
    double o, L, t = tree_knomial_bound(b, p, (uint64_t)n + 1);
    if (p < 2)
        return t;
    b->aligned(b, 2, barrier_ceil_log(p, 2) - 1, 1, &o, &L);
    return t + o + L + b->recv_o(b, o);
}

const barrier_alg_t barrier_alg_rgm = {
    .name = "rgm",
    .title = "RDMA gather + multicast",
    .cite = "Kini et al. 2003 section 3.3; costs derived as thesis 2.2.5.2 and 2.3.7.1.2",
    .takes_n = 1,
    .n_meaning = "fan-in per level",
    .default_n = 3,
    .rounds = rgm_rounds,
    .build_rank = rgm_build_rank,
    .n_ops = rgm_n_ops,
    .logp_us = rgm_logp_us,
    .lop_us = rgm_lop_us,
    .flat_bound = rgm_flat_bound,
    .logp_note = "exact when P is a power of n+1 and g <= o_s+L+o_r",
    .lop_note = "derived in the thesis's style; not exact",
    .logp_exact = barrier_exact_p_power_of_n1,
    .lop_band_lo = 0.90,
    .lop_band_hi = 2.67,
};
