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
    .n_meaning = "players per game f (1 runs as 2)",
    .logp_note = "exact when P is a power of f and of 2 and g <= o_s+L+o_r",
    BARRIER_COMB_TREE,
};
