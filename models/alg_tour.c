/*
 * Tournament (thesis 2.2.1.3, listing 2.3; Hensgen, Finkel and Manber 1988):
 * in round j the rank with bit j set (the loser) reports to the rank with that
 * bit cleared (the winner known in advance); rank 0, the champion, releases
 * everyone with a binomial broadcast.  This is the combining tree with groups
 * of two (alg_comb.c).  The listing's "peer > p" and "rank > peer wins" are
 * typos: the lower rank wins, so rank 0 is the champion its phase 3 assumes.
 */
#include "barrier.h"

const barrier_alg_t barrier_alg_tour = {
    .name = "tour",
    .title = "tournament",
    .cite = "thesis 2.2.1.3 (listing 2.3), LogP 2.2.5.3, LoP 2.3.7.1.3",
    .default_n = 2,
    .rounds = comb_rounds,
    .build_rank = comb_build_rank,
    .n_ops = tree_n_ops,
    .logp_us = comb_logp_us, /* 2.2.5.3: max{f_r, t1} ceil(log2 P) + t_bc, the same for g <= t1 */
    .lop_us = comb_lop_us,   /* 2.3.7.1.3 is 2.3.7.1.2 with n = 2 */
    .flat_bound = comb_flat_bound,
    .logp_note = "exact when P is a power of 2 and g <= o_s+L+o_r",
    .lop_note = "thesis form: every round evaluated at the root's stream; not exact",
    .logp_exact = barrier_exact_p_power_of_two,
    .lop_band_lo = 0.92,
    .lop_band_hi = 1.09,
};
