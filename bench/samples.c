/* samples.c - sample storage and lopbench's series files (samples.h). */
#include "samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "fmt_series.h"

lop_status_t lop_samples_init(lop_samples_t *s, const char *series, const char *quantity,
                              size_t n_p, size_t reps)
{
    memset(s, 0, sizeof *s);
    if (!lop_fmt_series_measured(series, quantity))
        return lop_err(LOP_ERR_INVALID, "unknown quantity '%s'", quantity);
    snprintf(s->series, sizeof s->series, "%s", series);
    s->quantity = quantity;
    s->n_p = n_p;
    s->p_first = 1;
    s->reps = reps;
    s->us = lop_calloc(n_p * reps, sizeof *s->us);
    return s->us ? LOP_OK : LOP_ERR_NOMEM;
}

void lop_samples_free(lop_samples_t *s)
{
    free(s->us);
    s->us = NULL;
}

lop_status_t lop_samples_stats(const lop_samples_t *s, size_t p, lop_stats_t *out)
{
    double *copy = lop_calloc(s->reps, sizeof *copy);
    if (!copy)
        return LOP_ERR_NOMEM;
    memcpy(copy, &s->us[(p - 1) * s->reps], s->reps * sizeof *copy);
    lop_status_t st = lop_stats_compute(copy, s->reps, out);
    free(copy);
    if (st != LOP_OK)
        return lop_err(st, "%s-%s p=%zu: %s", s->series, s->quantity, p, lop_errmsg());
    return LOP_OK;
}

/* The p written for row 'row' (1-based): rows start at p_first. */
static long row_p(const lop_samples_t *s, size_t row)
{
    return (long)(s->p_first + row - 1);
}

/* Summary row p: the statistics of its samples. */
static lop_status_t summary_row(lop_out_t *o, const lop_samples_t *s, size_t p)
{
    lop_stats_t t;
    lop_status_t st = lop_samples_stats(s, p, &t);
    if (st)
        return st;
    const lop_fmt_series_row_t row = {row_p(s, p), (long)t.n, t.min, t.mean, t.median, t.p99,
                                      t.max, t.stddev};
    return lop_fmt_series_row(o, &row);
}

/* Raw rows of p: every sample in measurement order. */
static lop_status_t raw_rows(lop_out_t *o, const lop_samples_t *s, size_t p)
{
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < s->reps && st == LOP_OK; r++)
        st = lop_fmt_series_sample(o, row_p(s, p), (long)r + 1, s->us[(p - 1) * s->reps + r]);
    return st;
}

static lop_status_t write_file(const lop_samples_t *s, const lop_run_meta_t *meta, int raw,
                               const char *dir)
{
    char path[4096], name[LOP_FMT_SERIES_NAME_LEN];
    lop_fmt_series_file_name(name, s->series, s->quantity, raw);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lop_csv_writer_t w;
    lop_out_t o;
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st != LOP_OK)
        return st;
    lop_fmt_series_bench_meta(&w, s->series, s->quantity, meta);
    st = lop_fmt_series_header(&o, &w, raw);
    if (st)
        return lop_csv_writer_end(&w, st);
    for (size_t p = 1; p <= s->n_p && st == LOP_OK; p++)
        st = raw ? raw_rows(&o, s, p) : summary_row(&o, s, p);
    lop_status_t end = lop_out_end(&o);
    return lop_csv_writer_end(&w, st ? st : end);
}

lop_status_t lop_samples_write(const lop_samples_t *s, const lop_run_meta_t *meta,
                               const char *dir, int raw)
{
    lop_status_t st = write_file(s, meta, 0, dir);
    if (st == LOP_OK && raw)
        st = write_file(s, meta, 1, dir);
    return st;
}
