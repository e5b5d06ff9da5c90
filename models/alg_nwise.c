/*
 * n-wise exchange (thesis 2.2.6.2, listing 2.9): the main group is the first
 * P_m = (n+1)^Z <= P ranks (largest such power); rank j >= P_m reports to
 * j mod P_m (step 0) and waits for its notification at the end.  In main round
 * t every rank exchanges with the n ranks that differ from it in base-(n+1)
 * digit t (the listing's "rank + i (n+1)^t wrapped in the group").
 *
 * Two fixes to the listing, both found by the checker: the listing alternates
 * "send to peer i, wait for peer i", which deadlocks for n >= 2 (0 waits for 1
 * waits for 2 waits for 0), so a round posts its n sends and then waits for the
 * n peers, in the order their messages are sent; and with P_r = P - P_m > P_m
 * the partner j - P_m of the listing lies outside the main group, so main rank
 * i takes up to n partners i + k P_m.
 */
#include "barrier.h"

/* Number of main rounds Z and the main group size P_m = (n+1)^Z. */
static uint32_t main_rounds(uint32_t p, uint32_t n, uint32_t *main_size)
{
    uint32_t z = barrier_floor_log(p, (uint64_t)n + 1);
    *main_size = (uint32_t)barrier_ipow((uint64_t)n + 1, z);
    return z;
}

static uint32_t nwise_rounds(uint32_t p, uint32_t n)
{
    uint32_t pm, z = main_rounds(p, n, &pm);
    return z + (p > pm ? 2 : 0);
}

/* One main round: send along digit t, then receive in arrival order. */
static void nwise_round(sched_t *s, uint32_t n, uint32_t rank, uint64_t span, uint32_t step)
{
    uint64_t radix = (uint64_t)n + 1, digit = rank / span % radix;
    uint64_t base = rank - digit * span;
    for (uint64_t i = 1; i <= n; i++)
        sched_push(s, SCHED_SEND, (int32_t)(base + (digit + i) % radix * span), step);
    for (uint64_t i = n; i >= 1; i--) /* peer digit+n sends to us first */
        sched_push(s, SCHED_RECV, (int32_t)(base + (digit + i) % radix * span), step);
}

static void nwise_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank)
{
    uint32_t pm, z = main_rounds(p, n, &pm), fold = p > pm, last = z + 1;
    if (rank >= pm) {
        sched_push(s, SCHED_SEND, (int32_t)(rank % pm), 0);
        sched_push(s, SCHED_RECV, (int32_t)(rank % pm), last);
        return;
    }
    for (uint64_t j = (uint64_t)rank + pm; j < p; j += pm)
        sched_push(s, SCHED_RECV, (int32_t)j, 0);
    uint64_t span = 1;
    for (uint32_t t = 0; t < z; t++, span *= (uint64_t)n + 1)
        nwise_round(s, n, rank, span, t + fold);
    for (uint64_t j = (uint64_t)rank + pm; j < p; j += pm)
        sched_push(s, SCHED_SEND, (int32_t)j, last);
}

/* P_m main ranks, 2n ops per round; every other rank folds in and is
 * notified (4 ops with its partner's). */
static uint64_t nwise_n_ops(uint32_t p, uint32_t n)
{
    uint32_t pm, z = main_rounds(p, n, &pm);
    return 2ull * n * z * pm + 4ull * (p - pm);
}

/* The main rounds change base-(n+1) digits and the rest folds in
 * (SCHED_DIGIT); n = 1 and P = 2^Z: no fold, and the partner differing in
 * binary digit t is rank XOR 2^t. */
static sched_form_t nwise_symmetry(uint32_t p, uint32_t n)
{
    return n == 1 && barrier_power_of_two(p) ? SCHED_XOR : SCHED_DIGIT;
}

static uint32_t nwise_radix(uint32_t n)
{
    return n + 1;
}

/* Thesis 2.2.6.2: rt = (n+2) max{g, o_s + L + o_r} ceil(log_{n+1} P), the worst
 * case P_m != P; with m links each of the n+2 exchanges costs 1/n of an n-way
 * dissemination round of 2.2.6.1.1. */
static double nwise_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    if (p < 2)
        return 0;
    return (n + 2.0) / n * ndiss_logp_us(c, p, n);
}

/* Derived: main rounds 1:n then n:1, o(1) + n L(n); the fold-in c:1 and the
 * fold-out 1:c with c = ceil(P_r / P_m) partners; all at the stream of a
 * main rank, n Z + c messages. */
static double nwise_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    uint32_t pm, z = main_rounds(p, n, &pm);
    double partners = (p - 1) / pm, stream = (double)n * z + partners; /* ceil(P_r / P_m) */
    if (stream == 0)
        return 0;
    double o = barrier_lop_o(c, stream);
    return z * (o + n * barrier_lop_L(c, stream)) +
           (partners ? 2 * (o + partners * barrier_lop_L(c, stream)) : 0);
}

const barrier_alg_t barrier_alg_nwise = {
    .name = "nwise",
    .title = "n-wise exchange",
    .cite = "thesis 2.2.6.2 (listing 2.9), LogP 2.2.6.2",
    .takes_n = 1,
    .n_meaning = "peers per round",
    .default_n = 2,
    .rounds = nwise_rounds,
    .build_rank = nwise_build_rank,
    .n_ops = nwise_n_ops,
    .symmetry = nwise_symmetry,
    .radix = nwise_radix,
    .logp_us = nwise_logp_us,
    .lop_us = nwise_lop_us,
    .logp_note = "the thesis's worst-case bound; not exact",
    .lop_note = "exact when P is a power of n+1 (no fold); otherwise derived (t_1:n and "
                "t_n:1 per round) and not exact",
    .lop_exact = barrier_exact_p_power_of_n1,
    .lop_band_lo = 0.95,
    .lop_band_hi = 1.12,
};
