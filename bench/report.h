/*
 * report.h - what lopbench prints on stdout for --barrier and --pairs, from
 * the results their modes return (barrier_mode.h, pairs_mode.h): the
 * library measures, the command line reports (UCX perftest's rule).  Part of
 * the tool (linked with bench/main.c), not of the bench library.
 */
#ifndef LOP_REPORT_H
#define LOP_REPORT_H

#include "barrier_mode.h"
#include "pairs_mode.h"

/* Rank 0 after lop_barrier_mode_run returned 'st': the table of times and
 * "wrote DIR/barrier.csv", or --check's verdict per run.  Returns LOP_ERR_IO
 * ("error writing standard output: ...") when stdout refused them. */
lop_status_t report_barrier_print(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                  lop_status_t st);

/* Rank 0 after a successful lop_pairs_mode_run: each file's o and L
 * matrices, for people. */
void report_pairs_print(const lop_pairs_mode_t *m, const lop_pairs_report_t *r);

#endif
