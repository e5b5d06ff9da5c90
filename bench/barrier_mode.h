/*
 * barrier_mode.h - lopbench --barrier: every selected algorithm, executor and
 * number of ranks, measured (or, with --check, verified) and written to
 * DIR/barrier.csv and DIR/barrier-hist.csv; with --congest (congest.h) every
 * run twice, isolated and under background traffic, and also
 * DIR/barrier-congested.csv.  See barrier_exec.h for how one barrier is
 * executed and timed.
 */
#ifndef LOP_BARRIER_MODE_H
#define LOP_BARRIER_MODE_H

#include <mpi.h>

#include "barrier_exec.h"
#include "bench_opts.h"
#include "lop.h"
#include "samples.h"
#include "timer.h"

typedef struct {
    const lop_bench_opts_t *opts;
    const lop_timer_t *timer;
    MPI_Comm comm;               /* every rank of the job */
    int rank, size;
    int oversubscribed;          /* more local ranks than CPUs (on any node) */
    const char *outdir;          /* where barrier.csv goes, created once the run is
                                  * known to be possible (not used by --check) */
    const lop_run_meta_t *meta;  /* timer, date, host, ranks for the metadata */
} lop_barrier_mode_t;

/* One run of an executor on a schedule at one P (a row of barrier.csv). */
typedef struct {
    const lop_barrier_exec_t *exec;
    lop_post_t post;          /* how its messages were posted */
    char alg[LOP_FMT_BARRIER_ALG_SIZE]; /* algorithm, "file:<name>" or "MPI_Barrier" */
    uint32_t n, p;            /* n 0: the algorithm takes none */
    char condition[48];       /* "isolated" or "congested:<pattern>" (--congest) */
    lop_barrier_result_t res;
} lop_barrier_row_t;

/* What the run returns for the command line to report (the library prints
 * nothing on stdout). */
typedef struct {
    int measured;             /* every size ran (rows are complete) */
    lop_barrier_row_t *row;   /* rank 0: every run, in order (--congest: the isolated
                               * ones, then the congested ones) */
    size_t n_row;
    const char *witness;      /* --check: the witness that ran ("two-sided") */
    char congest[256];        /* --congest, rank 0: '# congest:', else "" */
    char cores[512];          /* ... '# congest_cores:' */
    char traffic[256];        /* ... '# congest_traffic:' */
} lop_barrier_report_t;

/* The impact factors of a congested 'row' (GPCNeT's congestion impact): its
 * mean and p99 over those of the isolated row measured like it (same
 * executor, alg, n, p); NAN for an isolated row or one without that twin.
 * The one computation for barrier*.csv and the summary. */
void lop_barrier_impact(const lop_barrier_report_t *r, const lop_barrier_row_t *row,
                        double *avg, double *p99);

/* Collective over m->comm.  Returns LOP_OK, or an error that every rank
 * agrees on (printed by the caller): before anything was measured, or after
 * (barrier.csv not written; --check: LOP_ERR_NO when a rank left a barrier
 * early).  Aborts the job on a failure in the middle of a measurement.
 * Free *out with lop_barrier_report_free() whatever the result. */
lop_status_t lop_barrier_mode_run(const lop_barrier_mode_t *m, lop_barrier_report_t *out);
void lop_barrier_report_free(lop_barrier_report_t *r);

/* LOP_TEST_SCHEDULE_UNCHECKED, --barrier's test hook: unset, empty or 1 (1:
 * a --schedule file the checker refuses runs anyway, with a warning). */
lop_status_t lop_barrier_hooks_check(void);

/* "12 multicast, 1 resent, ..." for the summary and barrier.csv. */
void lop_barrier_mcast_counts_str(const lop_mcast_counts_t *c, char *buf, size_t len);

#endif
