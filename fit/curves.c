/* curves.c - curve-<series>-<quantity>-<stat>.csv: each fit densely over its
 * p range with its 95 % interval, for plots (fitout.h). */
#include "fitout.h"

#include <math.h>
#include <stdio.h>

#include "uncert.h"

#define CURVE_POINTS 256

static const lop_out_col_t curve_cols[] = {
    {"p", LOP_OUT_NUM, 0}, {"fit_us", LOP_OUT_NUM, 0}, {"lo_us", LOP_OUT_NUM, 0},
    {"hi_us", LOP_OUT_NUM, 0}, {"extrapolated", LOP_OUT_INT, 0},
};

static double curve_value(const lop_fit_t *const *fits, void *ctx)
{
    return lop_fit_eval(fits[0], *(const double *)ctx);
}

/* curve-<series>-<quantity>-<stat>.csv: the fit at CURVE_POINTS p evenly
 * over its [pmin, pmax], for plots that draw it densely with its band. */
static lop_status_t write_curve(lop_fitout_batch_t *b, const char *dir, const lop_fit_t *f)
{
    char name[256];
    lop_csv_writer_t *w;
    lop_out_t t;
    lop_uncert_t *u = NULL;
    snprintf(name, sizeof name, "curve-%s-%s-%s.csv", f->series, f->quantity, f->stat);
    lop_status_t st = lop_fitout_batch_open(b, dir, name, &w);
    if (st)
        return st;
    const char *keys[][2] = {{"series", f->series}, {"quantity", f->quantity},
                             {"stat", f->stat}, {"model", f->model->name}, {"unit", "us"}};
    for (size_t i = 0; i < COUNT(keys); i++)
        lop_csv_meta(w, keys[i][0], "%s", keys[i][1]);
    st = lop_out_begin(&t, w->file, w->path, 1, curve_cols, COUNT(curve_cols));
    if (st)
        return st;
    if (f->has_cov)
        st = lop_uncert_draw(&f, 1, &lop_uncert_defaults, &u);
    for (int i = 0; i < CURVE_POINTS && st == LOP_OK; i++) {
        double p = f->pmin + (f->pmax - f->pmin) * i / (CURVE_POINTS - 1), v = lop_fit_eval(f, p);
        lop_interval_t iv = {.lo = NAN, .hi = NAN};
        if (!isfinite(v))
            st = lop_err(LOP_ERR_RANGE, "series '%s' %s %s: the fit at p = %g is not finite",
                         f->series, f->quantity, f->stat, p);
        if (st == LOP_OK && u)
            st = lop_uncert_interval(u, curve_value, &p, &iv);
        lop_out_num(&t, p);
        lop_out_num(&t, v);
        lop_out_num(&t, iv.lo);
        lop_out_num(&t, iv.hi);
        lop_out_int(&t, p < f->pmin || p > f->pmax);
        st = st ? st : lop_out_row(&t);
    }
    lop_uncert_free(u);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

lop_status_t lop_fitout_curves(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set)
{
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < set->n && st == LOP_OK; i++)
        if (set->fit[i].model != &lop_model_linear)
            st = write_curve(b, dir, &set->fit[i]);
    return st;
}
