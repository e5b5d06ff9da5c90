/*
 * report.h - what lopbench prints on stdout for the scenarios, --barrier and --pairs, from
 * the results their modes return (barrier_mode.h, pairs_mode.h): the
 * library measures, the command line reports (UCX perftest's rule).  Part of
 * the tool (linked with bench/main.c), not of the bench library.
 */
#ifndef LOP_REPORT_H
#define LOP_REPORT_H

#include "barrier_mode.h"
#include "fmt_run.h"
#include "pairs_mode.h"

/* One series of the scenarios in the summary on stdout. */
typedef struct {
    char series[LOP_NAME_SIZE]; /* as in its file */
    const char *quantity;       /* static string */
    size_t n_p;                 /* largest p */
    lop_stats_t first, last;    /* at p = 1 (NaN where no row has p = 1: the ring's)
                                   and p = n_p */
} report_series_t;

/* Rank 0 after the scenarios: the run (and its background traffic), per
 * series the times at p = 1 and at the largest p, send-normal's RTT(1)
 * ('send_rtt', or NULL) against the reference ping-pong, where the files
 * are. */
lop_status_t report_scenarios_print(const lop_run_meta_t *meta, const report_series_t *rows,
                                    int n, const lop_stats_t *send_rtt, const char *outdir);

/* Rank 0 after lop_barrier_mode_run returned 'st': the table of times and
 * "wrote DIR/barrier.csv", or --check's verdict per run.  Returns LOP_ERR_IO
 * ("error writing standard output: ...") when stdout refused them. */
lop_status_t report_barrier_print(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                  lop_status_t st);

/* Rank 0 after a successful lop_pairs_mode_run: each file's o and L
 * matrices, for people. */
void report_pairs_print(const lop_pairs_mode_t *m, const lop_pairs_report_t *r);

#endif
