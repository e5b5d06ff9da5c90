/*
 * samples.h - lopbench's measurements: per series and quantity, R samples for
 * each p, written as one series file (and optionally a raw one) with the
 * run's metadata (src/fmt_series.h: names, columns, metadata).
 */
#ifndef LOP_SAMPLES_H
#define LOP_SAMPLES_H

#include <stddef.h>

#include "csv.h"
#include "fmt_run.h"
#include "lop.h"
#include "stats.h"

typedef struct {
    char series[LOP_NAME_SIZE]; /* "<op>-<post>", e.g. "send-normal" */
    const char *quantity; /* one of lop_fmt_series_quantities that lopbench measures */
    size_t n_p;           /* rows 1..n_p */
    size_t p_first;       /* the p of row 1 (row i has p_first + i - 1): 1, or the
                             ranks of scenario 3's ring */
    size_t reps;          /* samples per p */
    double *us;           /* us[(p - 1) * reps + rep], microseconds */
} lop_samples_t;

lop_status_t lop_samples_init(lop_samples_t *s, const char *series, const char *quantity,
                              size_t n_p, size_t reps);
void lop_samples_free(lop_samples_t *s);

/* Where sample 'rep' (0-based) of row p (1-based) goes; rows are numbered
 * from 1 whatever their p_first. */
static inline double *lop_samples_at(lop_samples_t *s, size_t p, size_t rep)
{
    return &s->us[(p - 1) * s->reps + rep];
}

/* Statistics of row p (does not reorder the samples). */
lop_status_t lop_samples_stats(const lop_samples_t *s, size_t p, lop_stats_t *out);

/* Write DIR/<series>-<quantity>.csv (and -raw.csv when 'raw'), atomically. */
lop_status_t lop_samples_write(const lop_samples_t *s, const lop_run_meta_t *meta,
                               const char *dir, int raw);

#endif
