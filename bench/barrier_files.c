/* barrier_files.c - barrier.csv, barrier-congested.csv, barrier-hist.csv (barrier_files.h). */
#include "barrier_files.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt_barrier.h"

const char *const lop_barrier_files[] = {LOP_FMT_BARRIER_NAME, LOP_FMT_BARRIER_CONGESTED_NAME,
                                         LOP_FMT_BARRIER_HIST_NAME, NULL};

/* Row i as the file format has it; 'series' its buffer.  A congested row's
 * impact factors are over its isolated twin's (GPCNeT's Congestion Impact
 * Factor, for the mean and the p99). */
static lop_fmt_barrier_row_t row_out(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                     const lop_barrier_row_t *x, char *series, size_t len)
{
    const lop_barrier_result_t *res = &x->res;
    lop_fmt_barrier_row_t out = {
        x->exec->name, lop_barrier_exec_series(x->exec, x->post, series, len), x->alg, x->n, 0,
        x->p, m->opts->reps, res->iter.min, res->avg_us, res->iter.median, res->iter.p99,
        res->iter.max, 0, x->condition, res->iter.p90, res->iter.p999, NAN, NAN};
    lop_barrier_impact(r, x, &out.impact_avg, &out.impact_p99);
    return out;
}

/* barrier.csv (isolated == 1) or barrier-congested.csv (0). */
static lop_status_t write_rows(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                               const char *executors, const char *stage, int isolated,
                               const lop_fmt_barrier_congest_t *meta)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", stage,
             isolated ? LOP_FMT_BARRIER_NAME : LOP_FMT_BARRIER_CONGESTED_NAME);
    lop_fmt_barrier_writer_t bw;
    lop_status_t st = lop_fmt_barrier_write_begin(&bw, path, executors, m->meta, meta);
    if (st != LOP_OK)
        return st;
    for (size_t i = 0; i < r->n_row && st == LOP_OK; i++) {
        const lop_barrier_row_t *x = &r->row[i];
        char series[LOP_NAME_SIZE];
        if ((strcmp(x->condition, LOP_FMT_BARRIER_ISOLATED) == 0) != isolated)
            continue;
        lop_fmt_barrier_row_t out = row_out(m, r, x, series, sizeof series);
        st = lop_fmt_barrier_write_row(&bw, &out);
    }
    return lop_fmt_barrier_write_end(&bw, st);
}

static lop_status_t write_hist(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                               const char *executors, const char *stage,
                               const lop_fmt_barrier_congest_t *meta)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/" LOP_FMT_BARRIER_HIST_NAME, stage);
    lop_fmt_barrier_hist_writer_t hw;
    lop_status_t st = lop_fmt_barrier_hist_begin(&hw, path, executors, m->meta, meta);
    if (st != LOP_OK)
        return st;
    for (size_t i = 0; i < r->n_row && st == LOP_OK; i++) {
        char series[LOP_NAME_SIZE];
        lop_fmt_barrier_row_t out = row_out(m, r, &r->row[i], series, sizeof series);
        st = lop_fmt_barrier_hist_write(&hw, &out, r->row[i].res.iter_us, r->row[i].res.iter.n);
    }
    return lop_fmt_barrier_hist_end(&hw, st);
}

lop_status_t lop_barrier_files_write(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                     const char *executors, const char *stage)
{
    int congest = r->congest[0] != '\0';
    lop_fmt_barrier_congest_t meta = {r->congest, r->cores, r->traffic, LOP_FMT_BARRIER_ISOLATED};
    lop_status_t st = write_rows(m, r, executors, stage, 1, congest ? &meta : NULL);
    if (st == LOP_OK && congest) {
        meta.condition = NULL;
        for (size_t i = 0; i < r->n_row; i++)
            if (strcmp(r->row[i].condition, LOP_FMT_BARRIER_ISOLATED) != 0)
                meta.condition = r->row[i].condition;
        st = write_rows(m, r, executors, stage, 0, &meta);
    }
    if (st == LOP_OK) {
        meta.condition = NULL; /* both conditions: the rows say which */
        st = write_hist(m, r, executors, stage, congest ? &meta : NULL);
    }
    return st;
}
