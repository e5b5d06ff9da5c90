/*
 * fmt_barrier.h - barrier.csv, lopbench --barrier's measurements, which
 * lopredict --measured joins with its predictions: the one place its columns
 * and metadata keys are spelled, its writer and its reader (README "Data
 * formats", bench/README.md).
 *
 *   # lopbench, quantity: barrier, definition, executors, ranks,
 *   # oversubscribed, repetitions, warmup, timer, date, host, hosts,
 *   # [congest, congest_cores, congest_traffic, condition,] unit
 *   executor,series,alg,n,p,reps,min_us,avg_us,median_us,p90_us,p99_us,p999_us,max_us,
 *   condition,impact_avg,impact_p99
 *
 * One row per executor, schedule and P.  MPI_Barrier's rows have executor
 * "mpi", alg "MPI_Barrier" and no series; a --schedule FILE's rows have alg
 * "file:<name>", the file's base name.  n is empty for an algorithm that
 * takes none.  Files written before the series column existed are read with
 * the series those lopbench versions used for each executor.
 *
 * With --congest (bench/congest.h) the same columns go to
 * barrier-congested.csv too: condition "isolated" in barrier.csv,
 * "congested:<pattern>" there, whose impact_avg and impact_p99 are the
 * congested avg_us and p99_us over the isolated row's (GPCNeT's Congestion
 * Impact Factor); empty in isolated rows.  barrier-hist.csv holds the
 * per-iteration times of both as log-spaced histograms (lop_fmt_barrier_hist_*).
 */
#ifndef LOP_FMT_BARRIER_H
#define LOP_FMT_BARRIER_H

#include <stdint.h>

#include "csv.h"
#include "fmt_run.h"
#include "lop.h"
#include "out.h"

#define LOP_FMT_BARRIER_NAME "barrier.csv"
#define LOP_FMT_BARRIER_CONGESTED_NAME "barrier-congested.csv"
#define LOP_FMT_BARRIER_HIST_NAME "barrier-hist.csv"
#define LOP_FMT_BARRIER_ISOLATED "isolated"       /* condition of barrier.csv's rows */
#define LOP_FMT_BARRIER_CONGESTED "congested:"   /* ... and the prefix of the congested */
#define LOP_FMT_BARRIER_MPI_EXEC "mpi"         /* MPI_Barrier's executor */
#define LOP_FMT_BARRIER_MPI_ALG "MPI_Barrier"  /* ... and its alg cell */
#define LOP_FMT_BARRIER_FILE_PREFIX "file:"    /* alg of a schedule file's rows */
/* A buffer for any alg cell lopbench writes: "file:" and a name of the name
 * rule (csv.h) whole, so lopredict --measured finds the file it names. */
#define LOP_FMT_BARRIER_ALG_SIZE (sizeof LOP_FMT_BARRIER_FILE_PREFIX - 1 + LOP_NAME_SIZE)
/* The one executor whose MCASTs may travel as hardware multicast; every
 * other one sends an MCAST as P - 1 messages (bench/README.md, "Multicast"). */
#define LOP_FMT_BARRIER_MCAST_EXEC "verbs"
#define LOP_FMT_BARRIER_MAX_N 1000000          /* largest n, as --n takes it */

/* One row.  The reader fills executor, series, alg, n, n_empty, p, avg_us,
 * line, condition ("isolated" where the file has no such column), and
 * min_us, median_us, p90_us, p99_us, p999_us, max_us, impact_avg, impact_p99
 * where the file has them (NaN where not, or where the cell is empty); reps
 * is not read.  The writer writes condition NULL as "isolated" and an impact
 * that is not > 0 as an empty cell. */
typedef struct {
    const char *executor; /* "p2p", "verbs", ... or "mpi" */
    const char *series;   /* the series its messages correspond to; NULL for "mpi" */
    const char *alg;      /* algorithm, "file:<name>" or "MPI_Barrier" */
    uint32_t n;           /* 0: the algorithm takes none (an empty cell) */
    int n_empty;          /* reader: the n cell was empty */
    uint32_t p;           /* ranks */
    long reps;            /* barriers timed per rank */
    double min_us, avg_us, median_us, p99_us, max_us;
    size_t line;          /* reader: the row's line in the file */
    const char *condition; /* "isolated" or "congested:<pattern>" */
    double p90_us, p999_us;
    double impact_avg, impact_p99; /* congested / isolated; empty (NaN) when isolated */
} lop_fmt_barrier_row_t;

/* --congest's metadata lines, the same in all three files (NULL members
 * and a NULL pointer: not written); condition is per file. */
typedef struct {
    const char *congest;   /* "uniform, 3 of 5 ranks congest (ranks 2-4), ..." */
    const char *cores;     /* "separate" or "shared (...)" */
    const char *traffic;   /* "<m> messages, <b> bytes sent ...; stopped by ..." */
    const char *condition; /* this file's condition */
} lop_fmt_barrier_congest_t;

/* Writer: rows streamed into an atomic CSV writer (csv.h). */
typedef struct {
    lop_csv_writer_t w;
    lop_out_t t;
} lop_fmt_barrier_writer_t;

/* Open 'path' and write the metadata: 'executors' says what each executor
 * ran on (and how multicasts travelled), 'congest' the background traffic
 * (NULL: none), 'run' the rest. */
lop_status_t lop_fmt_barrier_write_begin(lop_fmt_barrier_writer_t *bw, const char *path,
                                         const char *executors, const lop_run_meta_t *run,
                                         const lop_fmt_barrier_congest_t *congest);
lop_status_t lop_fmt_barrier_write_row(lop_fmt_barrier_writer_t *bw,
                                       const lop_fmt_barrier_row_t *r);
/* Finish: the file is renamed into place when 'st' and every write were
 * LOP_OK, else removed.  Returns the first failure. */
lop_status_t lop_fmt_barrier_write_end(lop_fmt_barrier_writer_t *bw, lop_status_t st);

/* barrier-hist.csv: executor,series,alg,n,p,condition,lo_us,hi_us,count.
 * Per row of barrier.csv / barrier-congested.csv, the per-iteration times
 * of the slowest-mean rank counted in log-spaced bins on a fixed grid, 10
 * per decade (edges 10^(k/10) us, so histograms of different runs line
 * up), from the bin of the smallest time to the bin of the largest, empty
 * bins inside written as 0: a group's counts sum to reps.  The same
 * metadata as barrier.csv, and '# bins:'. */
typedef lop_fmt_barrier_writer_t lop_fmt_barrier_hist_writer_t;
#define LOP_FMT_BARRIER_HIST_PER_DECADE 10

lop_status_t lop_fmt_barrier_hist_begin(lop_fmt_barrier_hist_writer_t *hw, const char *path,
                                        const char *executors, const lop_run_meta_t *run,
                                        const lop_fmt_barrier_congest_t *congest);
/* The histogram of row r's n times in us (each > 0; any order). */
lop_status_t lop_fmt_barrier_hist_write(lop_fmt_barrier_hist_writer_t *hw,
                                        const lop_fmt_barrier_row_t *r, const double *us,
                                        size_t n);
lop_status_t lop_fmt_barrier_hist_end(lop_fmt_barrier_hist_writer_t *hw, lop_status_t st);

typedef struct {
    const char *path;
    lop_fmt_barrier_row_t *row;
    size_t n_rows;
    int has_series;  /* 0: an old file, series taken from the executor */
    lop_csv_t *csv;  /* the cells the rows' strings point into */
} lop_fmt_barrier_t;

/* barrier.csv's executors, the one table of them (lopbench runs them,
 * bench/barrier_exec.h, in this order): the transport lopbench walks a
 * schedule over (bench/transport.h; NULL: MPI_Barrier itself, no
 * schedule) and the series "<op>-<post>" of its messages at its own post
 * type, which lopredict --measured predicts with (lopbench writes
 * "<op>-normal" where the device lacks that post).  A file written before
 * the series column is read with these series.  NULL-terminated by name;
 * LOP_BARRIER_EXEC_COUNT rows before that (fmt_barrier.c asserts it), so
 * that lists of executors are sized from the table. */
typedef struct {
    const char *name;      /* the executor column, --executor's name */
    const char *transport; /* NULL: MPI_Barrier */
    const char *series;    /* NULL for MPI_Barrier, which sends no message of lop's */
} lop_barrier_exec_t;

#define LOP_BARRIER_EXEC_COUNT 4
extern const lop_barrier_exec_t lop_barrier_execs[];

/* Read and check every row: executor, alg, n, p and avg_us columns (series
 * optional); p a whole number 1..max_p, avg_us > 0, n empty or 0..MAX_N,
 * a series for every row but MPI_Barrier's, the other times > 0, condition
 * "isolated" or "congested:<pattern>", impacts empty or > 0.  Reads
 * barrier-congested.csv alike.  Errors "file:line: reason". */
lop_status_t lop_fmt_barrier_read(const char *path, uint32_t max_p, lop_fmt_barrier_t *f);
void lop_fmt_barrier_free(lop_fmt_barrier_t *f);

#endif
