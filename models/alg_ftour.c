/*
 * f-way tournament (thesis 2.2.1.4; Grunwald and Vajracharya 1994): games of f
 * players whose winner is known in advance; the f-1 losers report to it.  The
 * message pattern and the cost (L + f o) ceil(log_f P) + t_bc of table 2.1
 * are those of the combining tree with group size f (alg_comb.c).
 */
#include "barrier.h"

const barrier_alg_t barrier_alg_ftour = {
    .name = "ftour",
    .title = "f-way tournament",
    .cite = "thesis 2.2.1.4, table 2.1 (exact forms as 2.2.5.2 and 2.3.7.1.2)",
    .takes_n = 1,
    .n_meaning = "players per game f (1 runs as 2)",
    .default_n = 4,
    .rounds = comb_rounds,
    .build_rank = comb_build_rank,
    .n_ops = tree_n_ops,
    .logp_us = comb_logp_us,
    .lop_us = comb_lop_us,
    .flat_bound = comb_flat_bound,
    .logp_note = "exact when P is a power of f and of 2 and g <= o_s+L+o_r",
    .lop_note = "thesis form: every level evaluated at the root's stream; not exact",
    .logp_exact = comb_logp_exact,
    .lop_band_lo = 0.92,
    .lop_band_hi = 2.35,
};
