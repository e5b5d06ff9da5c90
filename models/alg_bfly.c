/*
 * Butterfly (thesis 2.2.2.1; Brooks 1986): in stage s rank i exchanges with
 * i XOR 2^s.  For P not a power of two the butterfly runs over P' = 2^ceil(log2 P)
 * virtual ranks and virtual rank v >= P is played by the real rank v - P'/2,
 * which then synchronises twice per stage (thesis: "nearly all processors
 * must synchronize twice").  A rank sends one message to each distinct real
 * partner of its roles, then receives one from each; exchanges between two
 * roles of the same rank need no message.
 */
#include "barrier.h"

static uint32_t bfly_rounds(uint32_t p, uint32_t n)
{
    (void)n;
    return barrier_ceil_log(p, 2);
}

/* The real partners of 'rank' in stage s (at most two, distinct, not rank). */
static int bfly_partners(uint32_t p, uint32_t rank, uint32_t s, uint32_t partner[2])
{
    uint32_t half = 1u << (barrier_ceil_log(p, 2) - 1); /* P'/2 */
    uint32_t role[2] = {rank, rank + half};
    int roles = rank + half >= p && rank < half ? 2 : 1, count = 0;
    for (int i = 0; i < roles; i++) {
        uint32_t w = role[i] ^ (1u << s);
        uint32_t real = w < p ? w : w - half;
        if (real != rank && (count == 0 || partner[0] != real))
            partner[count++] = real;
    }
    return count;
}

static void bfly_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    (void)n;
    uint32_t stages = barrier_ceil_log(p, 2), partner[2];
    for (uint32_t st = 0; st < stages; st++) {
        int count = bfly_partners(p, rank, st, partner);
        for (int i = 0; i < count; i++)
            sched_push(s, SCHED_SEND, (int32_t)partner[i], st);
        for (int i = 0; i < count; i++)
            sched_push(s, SCHED_RECV, (int32_t)partner[i], st);
    }
}

/* How many x in 0..x_end-1 have bit s clear. */
static uint64_t bit_clear_below(uint64_t x_end, uint32_t s)
{
    uint64_t b = 1ull << s, tail = x_end & (2 * b - 1);
    return (x_end >> (s + 1) << s) + (tail < b ? tail : b);
}

/* Two ops per partner of a rank in a stage, counted from bfly_partners:
 * with m = P - P'/2 real ranks in the upper half, the last stage pairs ranks
 * x < m with x + P'/2 (2m partners in all: ranks m..P'/2-1 play both ends);
 * an earlier stage s gives every rank one partner, and a rank r in
 * m..P'/2-1 a second one, (r XOR 2^s) + P'/2, when r XOR 2^s < m - counted
 * as the x < m whose bit s is clear and x + 2^s >= m. */
static uint64_t bfly_n_ops(uint32_t p, uint32_t n)
{
    (void)n;
    uint32_t stages = barrier_ceil_log(p, 2);
    if (stages == 0)
        return 0;
    uint64_t m = p - (1ull << (stages - 1)), partners = 2 * m;
    for (uint32_t s = 0; s + 1 < stages; s++) {
        uint64_t b = 1ull << s;
        partners += p + bit_clear_below(m, s) - bit_clear_below(m > b ? m - b : 0, s);
    }
    return 2 * partners;
}

/* Thesis 2.2.2.1.2: (L + 2o) log2 P for P = 2^k, 2 (L + 2o) ceil(log2 P) otherwise
 * (worst case); t_r for L + 2o. */
static double bfly_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    double stages = barrier_ceil_log(p, 2);
    return (barrier_power_of_two(p) ? 1 : 2) * stages * logp_tr(&c->logp);
}

/* Derived: a stage is o(1) + L(1) at the stream of ceil(log2 p) stages; twice,
 * with a doubled stream, when P is not a power of two. */
static double bfly_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    if (p < 2)
        return 0;
    double twice = barrier_power_of_two(p) ? 1 : 2, stages = barrier_ceil_log(p, 2);
    return twice * stages * (barrier_lop_o(c, twice * stages) + barrier_lop_L(c, twice * stages));
}

const barrier_alg_t barrier_alg_bfly = {
    .name = "bfly",
    .title = "butterfly",
    .cite = "thesis 2.2.2.1, table 2.1; Brooks 1986",
    .rounds = bfly_rounds,
    .build_rank = bfly_build_rank,
    .n_ops = bfly_n_ops,
    .symmetry = barrier_xor_if_power_of_two, /* i XOR 2^s */
    .logp_us = bfly_logp_us,
    .lop_us = bfly_lop_us,
    .logp_note = "exact when P is a power of 2 and g <= o_s+L+o_r; "
                 "the thesis's worst case otherwise",
    .lop_note = "exact when P is a power of 2; the thesis's worst case otherwise",
    .logp_exact = barrier_exact_p_power_of_two,
    .lop_exact = barrier_exact_p_power_of_two,
    .lop_band_lo = 0.99,
    .lop_band_hi = 1.80,
};
