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
 * Each is a descriptor (pairs_method.h: pairs_issend.c, pairs_series.c).
 *
 * Pairs are measured concurrently in rounds of disjoint pairs: a round-robin
 * tournament (the circle method: P - 1 rounds of P/2 pairs, an odd P giving
 * one rank a bye per round), each pair measuring both directions, one after
 * the other.  --pairs-sample measures instead one pair per placement class
 * (place.h lop_place_class: same or other host, socket, NUMA node, CPU)
 * and fills the pairs of its class from it (columns src_i, src_j).
 *
 * Files, all or none, written by rank 0 after the last round: pairs.csv
 * (issend; P x P rows: the diagonal holds O_ii with L empty),
 * pairs-<op>-<post>.csv (series; P x (P - 1) rows) and placement.csv.
 * Columns and metadata: src/fmt_pairs.h.  Nothing is printed on stdout: the
 * run returns each file's matrices and the tool reports them (report.h).
 */
#ifndef LOP_PAIRS_MODE_H
#define LOP_PAIRS_MODE_H

#include "bench_opts.h"
#include "fmt_pairs.h"
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

#define LOP_PAIRS_MAX_FILES (1 + LOP_OP_COUNT * LOP_POST_COUNT)

/* One file's costs at the chosen statistic (--pairs-stat), for the report. */
typedef struct {
    char name[LOP_FMT_PAIRS_NAME_LEN]; /* "pairs.csv" or "pairs-<op>-<post>.csv" */
    char series[LOP_NAME_SIZE]; /* "issend" or "<op>-<post>" */
    double *o_us, *L_us;  /* [i * P + j], i sending to j; NaN where none */
} lop_pairs_costs_t;

/* What the run returns for the command line to report (rank 0; the library
 * prints nothing on stdout). */
typedef struct {
    int P;
    int n_file;
    lop_pairs_costs_t file[LOP_PAIRS_MAX_FILES];
} lop_pairs_report_t;

/* Collective over m->bench->comm.  Errors found before measuring are agreed
 * on and returned on every rank; a failure in the middle of a measurement
 * aborts the job.  Free *out with lop_pairs_report_free() whatever the
 * result. */
lop_status_t lop_pairs_mode_run(lop_pairs_mode_t *m, lop_pairs_report_t *out);
void lop_pairs_report_free(lop_pairs_report_t *r);

#endif
