/*
 * Central counter (thesis 2.2.1.1, listing 2.1): every rank reports to rank 0,
 * which then releases the others one by one.  Step 0 is the gather, step 1
 * the release.
 */
#include "barrier.h"

static uint32_t cc_rounds(uint32_t p, uint32_t n)
{
    (void)n;
    return p > 1 ? 2 : 0;
}

static void cc_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    (void)n;
    if (tree_knomial_gather(s, p, p, rank) == 0) /* a star: one level of fan-in p - 1 */
        return;
    if (rank != 0) {
        sched_push(s, SCHED_RECV, 0, 1);
        return;
    }
    for (uint32_t r = 1; r < p; r++)
        sched_push(s, SCHED_SEND, (int32_t)r, 1);
}

/* Thesis 2.2.5.1: rt = 2(o_s + L + o_r) + (P-2) f_r + (P-2) f_s. */
static double cc_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    if (p < 2)
        return 0;
    const logp_t *m = &c->logp;
    return 2 * logp_t1(m) + (p - 2.0) * (logp_fr(m) + logp_fs(m));
}

/* Thesis 2.3.7.1.1: rt = o(cnt) + (p-1) L((p-1) cnt) + o((p-1) cnt) + (p-1) L((p-1) cnt). */
static double cc_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    if (p < 2)
        return 0;
    double q = p - 1.0;
    return barrier_lop_o(c, 1) + q * barrier_lop_L(c, q) + barrier_lop_o(c, q) +
           q * barrier_lop_L(c, q);
}

/* Rank 0's P - 1 reports (a star: the P-nomial gather); the release after. */
static double cc_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n)
{
    (void)n;
    return tree_knomial_bound(b, p, p);
}

const barrier_alg_t barrier_alg_cc = {
    .name = "cc",
    .title = "central counter",
    .cite = "thesis 2.2.1.1 (listing 2.1), LogP 2.2.5.1, LoP 2.3.7.1.1",
    .rounds = cc_rounds,
    .build_rank = cc_build_rank,
    .n_ops = tree_n_ops,
    .logp_us = cc_logp_us,
    .lop_us = cc_lop_us,
    .flat_bound = cc_flat_bound,
    .logp_note = "exact for every P and g",
    .lop_note = "exact when o((P-1)cnt) <= L((P-1)cnt)",
    .logp_exact = barrier_exact_always,
    .lop_exact = barrier_exact_always, /* within its note's condition */
};
