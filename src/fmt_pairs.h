/*
 * fmt_pairs.h - pairs.csv, per-pair costs o_ij and L_ij: the one place its
 * columns and metadata keys are spelled, its two writers and its reader
 * (README "Data formats", bench/README.md).  Two writers, one form:
 *
 *   lopbench --pairs (pairs.csv, pairs-<op>-<post>.csv): every statistic,
 *     # lopbench, quantity: pairs, method, series, definition, [op, post,]
 *     # stat, clamped, p, sampled, placement, the run's lines (fmt_run.h)
 *     i,j,o_us,L_us,n,o_min_us,o_avg_us,o_median_us,L_min_us,L_avg_us,
 *     L_median_us,rtt_min_us,rtt_avg_us,rtt_median_us,src_i,src_j
 *   lopredict --write-costs: the costs alone,
 *     # lopredict, source, p
 *     i,j,o_us,L_us
 *
 * The reader (lopredict --costs) takes i, j, o_us and L_us and ignores the
 * other columns: every ordered pair i != j of the P ranks exactly once (P:
 * "# p:", else 1 + the largest index), o_us and L_us finite and >= 0; rows
 * i = j (lopbench's O_ii, L empty) are allowed and not read.
 */
#ifndef LOP_FMT_PAIRS_H
#define LOP_FMT_PAIRS_H

#include <stdint.h>

#include "csv.h"
#include "fmt_run.h"
#include "lop.h"
#include "out.h"

#define LOP_FMT_PAIRS_NAME "pairs.csv"
/* "pairs.csv" for 'series' NULL (the MPI_Issend method's matrices), else
 * "pairs-<series>.csv" (one of lop's series), into 'name' of
 * LOP_FMT_PAIRS_NAME_LEN: the one place the names are made. */
#define LOP_FMT_PAIRS_NAME_LEN (LOP_NAME_SIZE + 16)
void lop_fmt_pairs_file_name(char *name, const char *series);
#define LOP_FMT_PAIRS_STATS 3 /* min, avg, median: o[], L[], rtt[] of a row */

/* One row as lopbench --pairs writes it. */
typedef struct {
    uint32_t i, j;                  /* i sends to j */
    long n;                         /* repetitions */
    double o[LOP_FMT_PAIRS_STATS];  /* per statistic; NaN: empty */
    double L[LOP_FMT_PAIRS_STATS];
    double rtt[LOP_FMT_PAIRS_STATS];
    uint32_t src_i, src_j;          /* the measured pair the row comes from */
} lop_fmt_pairs_row_t;

/* lopbench --pairs' metadata of one file. */
typedef struct {
    const char *method;     /* "issend" or "series" */
    const char *series;     /* "issend" or "<op>-<post>" */
    const char *definition; /* what the method measures */
    const char *op, *post;  /* a series' op and post; NULL for issend */
    int stat;               /* o_us, L_us: index into o[], L[] ... */
    const char *stat_name;  /* ... named */
    int clamped;            /* values of o_us and L_us below 0 (lop_fmt_pairs_clamps) */
    int p;                  /* ranks */
    const char *sampled;    /* "yes: ..." or "no: ..." */
    const char *placement;  /* how the ranks were placed */
    const lop_run_meta_t *run;
} lop_fmt_pairs_meta_t;

typedef struct {
    lop_csv_writer_t w;
    lop_out_t t;
    int stat;
} lop_fmt_pairs_writer_t;

/* lopbench --pairs' file: open 'path' and write the metadata, then the rows,
 * then end (renamed into place when 'st' and every write were LOP_OK). */
lop_status_t lop_fmt_pairs_write_begin(lop_fmt_pairs_writer_t *pw, const char *path,
                                       const lop_fmt_pairs_meta_t *meta);
lop_status_t lop_fmt_pairs_write_row(lop_fmt_pairs_writer_t *pw, const lop_fmt_pairs_row_t *r);
lop_status_t lop_fmt_pairs_write_end(lop_fmt_pairs_writer_t *pw, lop_status_t st);
/* How many of the row's o_us and L_us (statistic 'stat') are below 0 and so
 * written as 0, which the reader requires (the statistic columns keep the
 * value computed). */
int lop_fmt_pairs_clamps(const lop_fmt_pairs_row_t *r, int stat);

/* lopredict --write-costs' file: open 'path' and write the metadata and the
 * header, then a row per ordered pair; the caller ends it with
 * lop_csv_writer_end().  Numbers are written exactly (they read back). */
lop_status_t lop_fmt_pairs_costs_begin(lop_csv_writer_t *w, const char *path, const char *source,
                                       uint32_t p);
void lop_fmt_pairs_costs_row(lop_csv_writer_t *w, uint32_t i, uint32_t j, double o_us,
                             double L_us);
/* The bytes lop_fmt_pairs_costs_row writes for that row, its newline included. */
size_t lop_fmt_pairs_costs_row_len(uint32_t i, uint32_t j, double o_us, double L_us);

/* What the reader returns: P and the P x P matrices, row-major, i sending
 * to j (the diagonal 0). */
typedef struct {
    uint32_t p;
    double *o_us, *L_us;
} lop_fmt_pairs_t;

/* Errors "file:line: reason". */
lop_status_t lop_fmt_pairs_read(const char *path, lop_fmt_pairs_t *f);
void lop_fmt_pairs_free(lop_fmt_pairs_t *f);

#endif
