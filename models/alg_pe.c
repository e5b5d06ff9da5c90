/*
 * Pairwise exchange with recursive doubling (thesis 2.2.2.2, listing 2.6;
 * Gupta et al. 2002, the MPICH barrier; Kini et al. section 3.1): with
 * y = 2^floor(log2 P), rank r >= y first reports to r - y (step 0), the ranks
 * below y exchange with r XOR 2^s in log2 y stages, and finally notify their
 * partner r + y.  Without ranks above y there is no fold step.
 */
#include "barrier.h"

static uint32_t pe_rounds(uint32_t p, uint32_t n)
{
    (void)n;
    uint32_t z = barrier_floor_log(p, 2);
    return barrier_power_of_two(p) ? z : z + 2;
}

static void pe_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    (void)n;
    uint32_t z = barrier_floor_log(p, 2), y = 1u << z, fold = p > y, last = z + fold;
    if (rank >= y) { /* group B: fold in, wait for the notification */
        sched_push(s, SCHED_SEND, (int32_t)(rank - y), 0);
        sched_push(s, SCHED_RECV, (int32_t)(rank - y), last);
        return;
    }
    int partner = (uint64_t)rank + y < p;
    if (partner)
        sched_push(s, SCHED_RECV, (int32_t)(rank + y), 0);
    for (uint32_t st = 0; st < z; st++) {
        sched_push(s, SCHED_SEND, (int32_t)(rank ^ (1u << st)), st + fold);
        sched_push(s, SCHED_RECV, (int32_t)(rank ^ (1u << st)), st + fold);
    }
    if (partner)
        sched_push(s, SCHED_SEND, (int32_t)(rank + y), last);
}

/* The y = 2^floor(log2 P) ranks exchange in log2 y stages (2 ops each); each
 * rank above y folds in and is notified (4 ops with its partner's). */
static uint64_t pe_n_ops(uint32_t p, uint32_t n)
{
    (void)n;
    uint64_t z = barrier_floor_log(p, 2), y = 1ull << z;
    return 2 * z * y + 4 * (p - y);
}

/* i XOR 2^s, and with P != 2^k the fold around it (SCHED_DIGIT, base 2). */
static sched_form_t pe_symmetry(uint32_t p, uint32_t n)
{
    (void)n;
    return barrier_power_of_two(p) ? SCHED_XOR : SCHED_DIGIT;
}

static uint32_t pe_radix(uint32_t n)
{
    (void)n;
    return 2;
}

/* Thesis 2.2.2.2.2: (L + 2o) log2 P for P = 2^k, (L + 2o) floor(log2 P) + 2 (L + 2o)
 * otherwise (worst case); t_r for L + 2o. */
static double pe_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    return pe_rounds(p, n) * logp_tr(&c->logp);
}

/* Derived: every round 1:1, o(1) + L(1), at the stream of the rank with most
 * messages (floor(log2 p), plus one with a fold). */
static double pe_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    double rounds = pe_rounds(p, n), z = barrier_floor_log(p, 2);
    double stream = z + (rounds > z);
    return rounds * (barrier_lop_o(c, stream) + barrier_lop_L(c, stream));
}

const barrier_alg_t barrier_alg_pe = {
    .name = "pe",
    .title = "pairwise exchange (recursive doubling)",
    .cite = "thesis 2.2.2.2 (listing 2.6), table 2.1; Kini et al. 3.1",
    .rounds = pe_rounds,
    .build_rank = pe_build_rank,
    .n_ops = pe_n_ops,
    .symmetry = pe_symmetry,
    .radix = pe_radix,
    .logp_us = pe_logp_us,
    .lop_us = pe_lop_us,
    .logp_note = "exact when P is a power of 2 and g <= o_s+L+o_r; "
                 "the thesis's worst case otherwise",
    .lop_note = "exact when P is a power of 2; the thesis's worst case otherwise",
    .logp_exact = barrier_exact_p_power_of_two,
    .lop_exact = barrier_exact_p_power_of_two,
    .lop_band_lo = 0.95,
    .lop_band_hi = 1.12,
};
