/*
 * pairs_mode.h - lopbench --pairs: the send overhead o_ij and the latency
 * L_ij of a small message for every ordered pair of ranks (i sending to j),
 * Meyer and Elster's P x P matrices O and L (section IV), in two ways:
 *
 *   issend  the paper's method (IV.A), zero-length MPI_Issend over MPI:
 *           O_ij = intercept of the least-squares line of the time of one
 *                  MPI_Issend + wait against its size, 1, 2, 4 .. 2^20 bytes;
 *           L_ij = slope of the line of the time of k zero-byte MPI_Issend
 *                  posted at once + waitall against k = 1..32;
 *           O_ii = the time of posting P requests that transmit nothing
 *                  (MPI_Issend to MPI_PROC_NULL) and completing them;
 *           every sample point is a statistic (min, avg = the paper's mean,
 *           median) over the repetitions, and each statistic gets its line.
 *   series  lop's own series over the transport (--ops, --post): scenario 1
 *           at k = 1 gives o = o_s(1), scenario 2 at p = 1 gives RTT(1), and
 *           L = RTT(1)/2 - 2 o_s(1) (model.h lop_latency; thesis 2.3.4), both
 *           run unchanged on a two-rank view of the pair (scenario.h).
 *
 * Pairs are measured concurrently in rounds of disjoint pairs: a round-robin
 * tournament (the circle method: P - 1 rounds of P/2 pairs, an odd P giving
 * one rank a bye per round), each pair measuring both directions, one after
 * the other.  --pairs-sample measures instead one pair per placement class
 * (placement.h lop_placement_class: same or other host, socket, NUMA node,
 * CPU) and fills the pairs of its class from it (columns src_i, src_j).
 *
 * Files, all or none, written by rank 0 after the last round: pairs.csv
 * (issend; P x P rows: the diagonal holds O_ii with L empty),
 * pairs-<op>-<post>.csv (series; P x (P - 1) rows) and placement.csv.
 * Columns (bench/README.md): i,j,o_us,L_us,n,o_min_us,o_avg_us,o_median_us,
 * L_min_us,L_avg_us,L_median_us,rtt_min_us,rtt_avg_us,rtt_median_us,src_i,src_j.
 */
#ifndef LOP_PAIRS_MODE_H
#define LOP_PAIRS_MODE_H

#include "bench_opts.h"
#include "lop.h"
#include "samples.h"
#include "scenario.h"

typedef struct {
    const lop_bench_opts_t *opts;
    lop_bench_t *bench;    /* every rank of the job, with the transport set up
                            * for all pairs (all_pairs) */
    lop_run_meta_t *meta;  /* what every file says about the run */
    const char *outdir;    /* where the files go (created here, once the plan is
                            * known to measure something) */
} lop_pairs_mode_t;

/* Collective over m->bench->comm.  Errors found before measuring are agreed
 * on and returned on every rank; a failure in the middle of a measurement
 * aborts the job. */
lop_status_t lop_pairs_mode_run(lop_pairs_mode_t *m);

#endif
