/*
 * barrier_mode.h - lopbench --barrier: every selected algorithm, executor and
 * number of ranks, measured (or, with --check, verified) and written to
 * DIR/barrier.csv.  See barrier_exec.h for how one barrier is executed and timed.
 */
#ifndef LOP_BARRIER_MODE_H
#define LOP_BARRIER_MODE_H

#include <mpi.h>

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

/* Collective over m->comm.  Returns LOP_OK, or an error that every rank
 * agrees on (printed by the caller) before anything was measured; --check
 * failures are LOP_ERR_RANGE after the report.  Aborts the job on a failure
 * in the middle of a measurement. */
lop_status_t lop_barrier_mode_run(const lop_barrier_mode_t *m);

#endif
