/*
 * fmt_series.h - series files, one quantity of one series measured over p,
 * which lopbench and lopfit --synth write and lopfit fits: the one place
 * their file name, columns, metadata keys and quantities are spelled, their
 * writers and their reader (README "Data formats", bench/README.md).
 *
 *   <series>-<quantity>.csv       one row per p, n = samples
 *     lopbench: # lopbench, quantity, series, post, op, definition, p, the
 *       run's lines (fmt_run.h), reference_pingpong_us (rtt files only)
 *     lopfit --synth: # quantity, series, unit, source (n and the last three
 *       statistics empty)
 *     p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us
 *   <series>-<quantity>-raw.csv   lopbench --raw: every sample
 *     p,rep,us
 *
 * The reader (lopfit) takes "# quantity:", "# series:" (else the file's
 * name less "-<quantity>.csv"), p and the <stat>_us columns of the
 * statistics asked for; a raw file is skipped, not read.
 */
#ifndef LOP_FMT_SERIES_H
#define LOP_FMT_SERIES_H

#include <stddef.h>

#include "csv.h"
#include "fmt_run.h"
#include "lop.h"
#include "out.h"

/* The quantities a series is measured in, one file each (README "Data
 * formats"): "rtt", "os", "or", "oc", "prtt", "exch", "ring", then NULL. */
#define LOP_FMT_SERIES_QUANTITIES 7
/* The fewest ranks quantity ring's round takes: every rank of the run sends
 * to the next, r + 1 mod P, and the file's row p is P. */
#define LOP_FMT_SERIES_RING_MIN_RANKS 3
extern const char *const lop_fmt_series_quantities[LOP_FMT_SERIES_QUANTITIES + 1];
/* Quantities derived from a series file's, one row each: lopfit fits them
 * from every file of quantity 'from' and writes their fits to params.csv,
 * but no series file has them.  "round" = p·rtt: the time T(p) of scenario
 * 2's whole round (each sample of RTT(p) is T/p, so the min, avg and median
 * of p·RTT(p) are T(p)'s), which a token bucket shapes (model bucket). */
typedef struct {
    const char *quantity;                /* "round" */
    const char *from;                    /* the file's quantity: "rtt" */
    double (*value)(double p, double y); /* its value at p from the file's y there */
} lop_fmt_series_derived_t;
#define LOP_FMT_SERIES_DERIVED 1
extern const lop_fmt_series_derived_t lop_fmt_series_derived[LOP_FMT_SERIES_DERIVED];
/* The derived quantity named 'quantity', or NULL. */
const lop_fmt_series_derived_t *lop_fmt_series_derived_find(const char *quantity);

/* The statistics lopfit fits, the first of a row's: "min", "avg",
 * "median", then NULL; the column of each is "<stat>_us". */
extern const char *const lop_fmt_series_stats[];
#define LOP_FMT_SERIES_STATS 3

/* "<series>-<quantity>.csv", or "<series>-<quantity>-raw.csv" when 'raw',
 * into 'name' of LOP_FMT_SERIES_NAME_LEN: the one place the name is made. */
#define LOP_FMT_SERIES_NAME_LEN (2 * LOP_NAME_SIZE + 8)
void lop_fmt_series_file_name(char *name, const char *series, const char *quantity, int raw);

/* Does lopbench measure 'quantity' for 'series' ("<op>-<post>")?  It has a
 * definition for the file's metadata then. */
int lop_fmt_series_measured(const char *series, const char *quantity);

/* ---- writers: on an open writer (csv.h), metadata, then the header, then rows */

/* lopbench's metadata of a series' quantity (lop_fmt_series_measured). */
void lop_fmt_series_bench_meta(lop_csv_writer_t *w, const char *series, const char *quantity,
                               const lop_run_meta_t *run);
/* lopfit --synth's: quantity, series and unit; the caller adds its source. */
void lop_fmt_series_synth_meta(lop_csv_writer_t *w, const char *series, const char *quantity);
/* The header row: the summary's columns, or the raw samples'. */
lop_status_t lop_fmt_series_header(lop_out_t *t, lop_csv_writer_t *w, int raw);

/* One summary row. */
typedef struct {
    long p;
    long n;              /* samples behind the row; 0: none (an empty cell) */
    double min, avg, median, p99, max, stddev; /* us; NaN: an empty cell */
} lop_fmt_series_row_t;

lop_status_t lop_fmt_series_row(lop_out_t *t, const lop_fmt_series_row_t *r);
/* One raw row: sample 'rep' (from 1) of p. */
lop_status_t lop_fmt_series_sample(lop_out_t *t, long p, long rep, double us);

/* ---- reader: errors "file:line: reason" */

typedef struct {
    lop_csv_t *csv;
    const char *quantity; /* "# quantity:"; NULL where absent or empty */
} lop_fmt_series_t;

/* Read 'path'.  A raw file is LOP_ERR_UNSUPPORTED "PATH: raw samples
 * (lopbench --raw), skipped": not lopfit's input, but found by the same glob. */
lop_status_t lop_fmt_series_read(const char *path, lop_fmt_series_t *f);
/* The file's quantity (the caller's: "# quantity:" or a stand-in) into
 * 'quantity' of 'size' bytes and its series ("# series:", else the file's
 * name less "-<quantity>.csv") into 'series': each must fit and follow the
 * name rule (csv.h), since both name lopfit's files. */
lop_status_t lop_fmt_series_names(const lop_fmt_series_t *f, const char *quantity,
                                  char *quantity_out, size_t size, char series[LOP_NAME_SIZE]);

/* The p column and the column of each statistic named in 'stats' (a comma
 * list of lop_fmt_series_stats; the others' columns are not looked up). */
typedef struct {
    size_t p;
    size_t us[LOP_FMT_SERIES_STATS];
} lop_fmt_series_cols_t;

lop_status_t lop_fmt_series_columns(const lop_fmt_series_t *f, const char *stats,
                                    lop_fmt_series_cols_t *c);
/* Column 'col' as p of every row: whole numbers >= 1, none repeated. */
lop_status_t lop_fmt_series_p(const lop_fmt_series_t *f, size_t col, double *p);
/* Column 'col' as times of every row, each lop_fmt_series_time_ok. */
lop_status_t lop_fmt_series_times(const lop_fmt_series_t *f, size_t col, double *us);
/* A time a series file may hold: 0, or in 1e-100..1e100 us; what is wrong
 * with another, for messages ("time 1e+200 us is outside ..."). */
int lop_fmt_series_time_ok(double us);
extern const char lop_fmt_series_time_why[];
void lop_fmt_series_free(lop_fmt_series_t *f);

#endif
