/*
 * Dissemination (thesis 2.2.2.3, listing 2.7; Hensgen, Finkel and Manber 1988;
 * Kini et al. 3.2): in round s rank i sends to (i + 2^s) mod P and waits for
 * (i - 2^s) mod P, ceil(log2 P) rounds.  It is the 1-way dissemination of
 * alg_ndiss.c ("the 1-way Dissemination barrier behaves exactly like the
 * normal Dissemination Barrier", 2.3.7.1.4), whose functions it runs with n = 1.
 */
#include "barrier.h"

const barrier_alg_t barrier_alg_diss = {
    .name = "diss",
    .title = "dissemination",
    .cite = "thesis 2.2.2.3 (listing 2.7), LogP 2.2.5.4, LoP 2.3.7.1.4 with n = 1",
    .default_n = 1,
    .rounds = ndiss_rounds,
    .build_rank = ndiss_build_rank,
    .n_ops = ndiss_n_ops,
    .symmetry = ndiss_symmetry,
    .logp_us = ndiss_logp_us, /* 2.2.5.4: max{f_r, f_s, o_s + L + o_r} ceil(log2 P) */
    .lop_us = ndiss_lop_us,
    .logp_note = "exact for every P when g <= o_s+L+o_r",
    .lop_note = "exact for every P",
    .logp_exact = ndiss_exact, /* n = 1 drops no offset: every P */
    .lop_exact = ndiss_exact,
};
