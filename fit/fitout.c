/* fitout.c - params.csv, L(p) tables and synthetic data (fitout.h). */
#include "fitout.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fitdata.h"
#include "fitter.h"
#include "uncert.h"

/* ------------------------------------------------------------------ batch */

lop_status_t lop_fitout_batch_open(lop_fitout_batch_t *b, const char *dir, const char *name,
                                   lop_csv_writer_t **w)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return lop_err(LOP_ERR_INVALID, "%s/%s: path too long", dir, name);
    lop_csv_writer_t **grown = lop_realloc_array(b->writer, b->n + 1, sizeof *grown);
    if (!grown)
        return LOP_ERR_NOMEM;
    b->writer = grown;
    lop_csv_writer_t *writer = lop_calloc(1, sizeof *writer);
    if (!writer)
        return LOP_ERR_NOMEM;
    lop_status_t st = lop_csv_writer_open(writer, path);
    if (st) {
        free(writer);
        return st;
    }
    b->writer[b->n++] = writer;
    *w = writer;
    return LOP_OK;
}

static void batch_release(lop_fitout_batch_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->writer[i]);
    free(b->writer);
    memset(b, 0, sizeof *b);
}

lop_status_t lop_fitout_batch_end(lop_fitout_batch_t *b, lop_status_t status)
{
    for (size_t i = 0; i < b->n; i++)
        status = lop_csv_writer_end(b->writer[i], status);
    batch_release(b);
    return status;
}

/* ---------------------------------------------------------------- cells */

const lop_out_col_t lop_fitout_columns[LOP_FITOUT_COLUMNS + 1] = {
    {"file", LOP_OUT_STR, 0},  {"series", LOP_OUT_STR, 0}, {"quantity", LOP_OUT_STR, 0},
    {"stat", LOP_OUT_STR, 0},  {"model", LOP_OUT_STR, 0},  {"n", LOP_OUT_INT, 0},
    {"pmin", LOP_OUT_NUM, 0},  {"pmax", LOP_OUT_NUM, 0},   {"l1", LOP_OUT_NUM, 0},
    {"l2", LOP_OUT_NUM, 0},    {"l3", LOP_OUT_NUM, 0},     {"l4", LOP_OUT_NUM, 0},
    {"l5", LOP_OUT_NUM, 0},    {"l6", LOP_OUT_NUM, 0},     {"ssr", LOP_OUT_NUM, 0},
    {"rmse", LOP_OUT_NUM, 0},  {"r2", LOP_OUT_NUM, 0},     {"se1", LOP_OUT_NUM, 0},
    {"se2", LOP_OUT_NUM, 0},   {"se3", LOP_OUT_NUM, 0},    {"se4", LOP_OUT_NUM, 0},
    {"se5", LOP_OUT_NUM, 0},   {"se6", LOP_OUT_NUM, 0},    {"cov11", LOP_OUT_NUM, 0},
    {"cov12", LOP_OUT_NUM, 0}, {"cov13", LOP_OUT_NUM, 0},  {"cov14", LOP_OUT_NUM, 0},
    {"cov15", LOP_OUT_NUM, 0}, {"cov16", LOP_OUT_NUM, 0},  {"cov22", LOP_OUT_NUM, 0},
    {"cov23", LOP_OUT_NUM, 0}, {"cov24", LOP_OUT_NUM, 0},  {"cov25", LOP_OUT_NUM, 0},
    {"cov26", LOP_OUT_NUM, 0}, {"cov33", LOP_OUT_NUM, 0},  {"cov34", LOP_OUT_NUM, 0},
    {"cov35", LOP_OUT_NUM, 0}, {"cov36", LOP_OUT_NUM, 0},  {"cov44", LOP_OUT_NUM, 0},
    {"cov45", LOP_OUT_NUM, 0}, {"cov46", LOP_OUT_NUM, 0},  {"cov55", LOP_OUT_NUM, 0},
    {"cov56", LOP_OUT_NUM, 0}, {"cov66", LOP_OUT_NUM, 0},  {"weak", LOP_OUT_STR, 0},
    {"hint", LOP_OUT_STR, 0},  {"criterion", LOP_OUT_STR, 0}, {"k", LOP_OUT_INT, 0},
    {"aicc", LOP_OUT_NUM, 0},  {"bic", LOP_OUT_NUM, 0},    {"margin", LOP_OUT_NUM, 0},
    {"fit_ms", LOP_OUT_NUM, 3},
};

const char *lop_fitout_hint_token(lop_hint_t hint)
{
    static const char *const tokens[] = {"none", "more-p", "more-reps"};
    return tokens[hint];
}

/* The weak parameters' names joined by '+' ("l3+l4"), "" when none. */
static void weak_names(const lop_fit_t *fit, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < fit->model->n_params; j++)
        if (fit->weak[j] && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
                                     fit->model->param[j]);
}

/* The covariance's upper triangle, exact; all empty without one. */
static void cov_cells(lop_out_t *t, const lop_fit_t *fit)
{
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS; i++)
        for (int j = i; j < LOP_MODEL_MAX_PARAMS; j++)
            lop_out_num(t, fit->has_cov ? fit->cov[i][j] : NAN);
}

/* criterion, k, aicc, bic, margin: empty when the choice is not known. */
static void selection_cells(lop_out_t *t, const lop_fit_t *fit)
{
    int known = fit->criterion[0] != '\0';
    lop_out_str(t, fit->criterion);
    if (known && fit->k > 0)
        lop_out_int(t, fit->k);
    else
        lop_out_empty(t);
    lop_out_num(t, known ? fit->aicc : NAN);
    lop_out_num(t, known ? fit->bic : NAN);
    lop_out_num(t, known ? fit->margin : NAN);
}

void lop_fitout_row(lop_out_t *t, const lop_fit_t *fit)
{
    int k = fit->model->n_params;
    const char *text[] = {fit->file, fit->series, fit->quantity, fit->stat, fit->model->name};
    for (size_t i = 0; i < sizeof text / sizeof *text; i++)
        lop_out_str(t, text[i]);
    lop_out_int(t, (long long)fit->n);
    lop_out_num(t, fit->pmin);
    lop_out_num(t, fit->pmax);
    for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++) /* λ exact, so tables can be remade */
        lop_out_num(t, j < k ? fit->lambda[j] : NAN);
    lop_out_num(t, fit->ssr);
    lop_out_num(t, fit->rmse);
    lop_out_num(t, fit->r2);
    for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++)
        lop_out_num(t, j < k ? fit->se[j] : NAN);
    cov_cells(t, fit);
    char weak[8 * LOP_MODEL_MAX_PARAMS];
    weak_names(fit, weak, sizeof weak);
    lop_out_str(t, weak);
    lop_out_str(t, lop_fitout_hint_token(lop_fitter_hint(fit)));
    selection_cells(t, fit);
}

lop_status_t lop_fitout_params(lop_fitout_batch_t *b, const char *dir, const lop_fit_t *fits,
                               size_t n, const char *weight)
{
    lop_csv_writer_t *w;
    lop_out_t t;
    lop_status_t st = lop_fitout_batch_open(b, dir, "params.csv", &w);
    if (st)
        return st;
    lop_csv_meta(w, "lopfit", "%s", LOP_VERSION);
    lop_csv_meta(w, "unit", "us");
    if (weight && strcmp(weight, "none") != 0)
        lop_csv_meta(w, "weight", "%s (ssr, rmse, r2 of residuals weighted so; lopfit --weight)",
                     weight);
    st = lop_out_begin(&t, w->file, w->path, 1, lop_fitout_columns, LOP_FITOUT_COLUMNS);
    if (st)
        return st;
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        lop_fitout_row(&t, &fits[i]);
        st = lop_out_row(&t);
    }
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* ---------------------------------------------------------------- tables */

/* p values that met a condition: how many, first and last. */
typedef struct {
    size_t count;
    int first, last;
} p_set_t;

static void p_set_add(p_set_t *s, int p)
{
    if (s->count++ == 0)
        s->first = p;
    s->last = p;
}

/* The p range every fit a table uses has data for. */
static void table_range(const lop_lop_t *lop, double *lo, double *hi)
{
    const lop_fit_t *used[] = {lop->rtt, lop->os, lop->os_list, lop->orecv};
    *lo = -INFINITY;
    *hi = INFINITY;
    for (size_t i = 0; i < sizeof used / sizeof *used; i++) {
        if (!used[i])
            continue;
        *lo = fmax(*lo, used[i]->pmin);
        *hi = fmin(*hi, used[i]->pmax);
    }
}

static double eval_or_nan(const lop_fit_t *fit, double p)
{
    return fit ? lop_fit_eval(fit, p) : NAN;
}

static const lop_out_col_t table_cols[] = {
    {"p", LOP_OUT_INT, 0},          {"rtt_us", LOP_OUT_NUM, 0},     {"rtt_lo_us", LOP_OUT_NUM, 0},
    {"rtt_hi_us", LOP_OUT_NUM, 0},  {"os_us", LOP_OUT_NUM, 0},      {"os_lo_us", LOP_OUT_NUM, 0},
    {"os_hi_us", LOP_OUT_NUM, 0},   {"or_us", LOP_OUT_NUM, 0},      {"or_lo_us", LOP_OUT_NUM, 0},
    {"or_hi_us", LOP_OUT_NUM, 0},   {"L_us", LOP_OUT_NUM, 0},       {"L_lo_us", LOP_OUT_NUM, 0},
    {"L_hi_us", LOP_OUT_NUM, 0},    {"Llist_us", LOP_OUT_NUM, 0},   {"Llist_lo_us", LOP_OUT_NUM, 0},
    {"Llist_hi_us", LOP_OUT_NUM, 0}, {"extrapolated", LOP_OUT_INT, 0},
    {"notes", LOP_OUT_STR, 0},
};

/* The table's quantities, in column order. */
enum { COL_RTT, COL_OS, COL_OR, COL_L, COL_LLIST, N_COLS };

/* Every fit of a table is drawn by one lop_uncert_t (src/uncert.h), in the
 * order rtt, os, os_list, orecv (the absent ones left out), so the
 * intervals of all columns and rows come from the same draws. */
typedef struct {
    const lop_lop_t *lop;
    const lop_fit_t *fit[4]; /* rtt, os, os_list, orecv as drawn */
    int index[4];            /* where each is in fit[] (-1: absent) */
    int n;
    lop_uncert_t *u;         /* NULL when no fit has a covariance */
    int col;                 /* lop_uncert_fn_t's arguments */
    double p;
} table_draws_t;

/* Column 'col' of a LoP view at p (thesis 2.3.4, list 2.9). */
static double column_value(const lop_lop_t *lop, int col, double p)
{
    switch (col) {
    case COL_RTT: return lop_fit_eval(lop->rtt, p);
    case COL_OS: return lop_lop_o(lop, p);
    case COL_OR: return eval_or_nan(lop->orecv, p);
    case COL_L: return lop_lop_L(lop, p);
    default: return lop_lop_Llist(lop, p);
    }
}

/* The column with the drawn fits in place of the fitted ones. */
static double drawn_column(const lop_fit_t *const *fits, void *ctx)
{
    const table_draws_t *d = ctx;
    lop_lop_t lop = *d->lop;
    const lop_fit_t **slot[4] = {&lop.rtt, &lop.os, &lop.os_list, &lop.orecv};
    for (int i = 0; i < 4; i++)
        if (d->index[i] >= 0)
            *slot[i] = fits[d->index[i]];
    return column_value(&lop, d->col, d->p);
}

static lop_status_t draws_begin(table_draws_t *d, const lop_lop_t *lop)
{
    const lop_fit_t *used[4] = {lop->rtt, lop->os, lop->os_list, lop->orecv};
    int any_cov = 0;
    memset(d, 0, sizeof *d);
    d->lop = lop;
    for (int i = 0; i < 4; i++) {
        d->index[i] = used[i] ? d->n : -1;
        if (used[i]) {
            d->fit[d->n++] = used[i];
            any_cov |= used[i]->has_cov;
        }
    }
    return any_cov ? lop_uncert_draw(d->fit, d->n, &lop_uncert_defaults, &d->u) : LOP_OK;
}

/* Does every fit column 'col' uses have a covariance?  Else no interval: a
 * fit taken as exact would make it too narrow. */
static int column_has_interval(const table_draws_t *d, int col)
{
    static const int uses[N_COLS][2] = {{0, 0}, {1, 1}, {3, 3}, {0, 1}, {0, 2}};
    if (!d->u)
        return 0;
    for (int i = 0; i < 2; i++) {
        int k = d->index[uses[col][i]];
        if (k < 0 || !d->fit[k]->has_cov)
            return 0;
    }
    return 1;
}

/* What a table's rows showed, for its warning lines. */
typedef struct {
    p_set_t outside, neg, neg_list, nonfinite;
} table_notes_t;

/* One value and its interval cells (empty without one). */
static lop_status_t value_cells(lop_out_t *t, table_draws_t *d, int col, int p, double v,
                                int *nonfinite)
{
    lop_interval_t iv = {.lo = NAN, .hi = NAN};
    lop_out_num(t, isfinite(v) ? v : NAN);
    if (isfinite(v) && column_has_interval(d, col)) {
        d->col = col;
        d->p = p;
        lop_status_t st = lop_uncert_interval(d->u, drawn_column, d, &iv);
        if (st)
            return st;
        *nonfinite |= iv.n_nonfinite > 0;
    }
    lop_out_num(t, iv.lo);
    lop_out_num(t, iv.hi);
    return LOP_OK;
}

/* The row of p, or an error for a non-finite value. */
static lop_status_t table_row(lop_out_t *t, const lop_paramset_t *set, table_draws_t *d, int p,
                              int outside, table_notes_t *notes)
{
    const lop_lop_t *lop = d->lop;
    int nonfinite = 0;
    char flags[128] = ""; /* "rtt_us=negative;L_us=negative": lopredict's wording */
    lop_out_int(t, p);
    for (int col = 0; col < N_COLS; col++) {
        double v = column_value(lop, col, p);
        int optional = col == COL_OR ? lop->orecv == NULL : col == COL_LLIST ? lop->os_list == NULL
                                                                             : 0;
        if (!optional && !isfinite(v))
            return lop_err(LOP_ERR_RANGE, "%s: series '%s' stat '%s': %s at p = %d is not "
                           "finite", set->path, lop->rtt->series, lop->rtt->stat,
                           table_cols[1 + 3 * col].name, p);
        lop_status_t st = value_cells(t, d, col, p, v, &nonfinite);
        if (st)
            return st;
        if (col == COL_L && v < 0)
            p_set_add(&notes->neg, p);
        if (col == COL_LLIST && v < 0)
            p_set_add(&notes->neg_list, p);
        if (v < 0) /* a time below zero is never a cell without a mark */
            snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s=negative",
                     flags[0] ? ";" : "", table_cols[1 + 3 * col].name);
    }
    lop_out_int(t, outside);
    lop_out_str(t, flags);
    if (outside)
        p_set_add(&notes->outside, p);
    if (nonfinite)
        p_set_add(&notes->nonfinite, p);
    return lop_out_row(t);
}

static void warn_line(lop_fitout_warn_t *warn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void warn_line(lop_fitout_warn_t *warn, void *ctx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    warn(ctx, msg);
}

/* One warning line per kind, per table. */
static void table_warnings(const char *name, const table_notes_t *n, long pmax, double lo,
                           double hi, lop_fitout_warn_t *warn, void *ctx)
{
    if (n->outside.count)
        warn_line(warn, ctx, "%s: p = %d..%d (%zu rows) outside the fitted range %g..%g, "
                  "extrapolated", name, n->outside.first, n->outside.last, n->outside.count, lo,
                  hi);
    if (n->neg.count)
        warn_line(warn, ctx, "%s: L(p) < 0 at %zu of %ld rows (p = %d..%d)", name, n->neg.count,
                  pmax, n->neg.first, n->neg.last);
    if (n->neg_list.count)
        warn_line(warn, ctx, "%s: L^list(p) < 0 at %zu of %ld rows (p = %d..%d)", name,
                  n->neg_list.count, pmax, n->neg_list.first, n->neg_list.last);
    if (n->nonfinite.count)
        warn_line(warn, ctx, "%s: some drawn parameters give no finite value at %zu rows "
                  "(p = %d..%d): those intervals are over the finite draws only", name,
                  n->nonfinite.count, n->nonfinite.first, n->nonfinite.last);
}

static lop_status_t write_table(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                                const lop_lop_t *lop, lop_fitout_warn_t *warn, void *ctx,
                                lop_progress_t *progress)
{
    char name[256];
    lop_csv_writer_t *w;
    double lo, hi;
    table_notes_t notes = {0};
    table_draws_t draws;
    snprintf(name, sizeof name, "lop-%s-%s.csv", lop->rtt->series, lop->rtt->stat);
    long pmax;
    if (!lop_double_to_long(floor(lop->pmax), 1, INT_MAX, &pmax)) /* before any cast */
        return lop_err(LOP_ERR_RANGE, "%s: series '%s' stat '%s': pmax %g is not in 1..%d",
                       set->path, lop->rtt->series, lop->rtt->stat, lop->pmax, INT_MAX);
    lop_status_t st = lop_fitout_batch_open(b, dir, name, &w);
    if (st)
        return st;
    table_range(lop, &lo, &hi);
    lop_csv_meta(w, "series", "%s", lop->rtt->series);
    lop_csv_meta(w, "stat", "%s", lop->rtt->stat);
    lop_csv_meta(w, "params", "%s", set->path);
    lop_csv_meta(w, "fitted_p", "%g..%g", lo, hi);
    lop_csv_meta(w, "interval", "%g %% Monte Carlo, %zu draws of the fits' covariance, seed %lu "
                 "(src/uncert.h); empty without a covariance", 100 * lop_uncert_defaults.level,
                 lop_uncert_defaults.n_draws, lop_uncert_defaults.seed);
    lop_csv_meta(w, "unit", "us");
    lop_out_t t;
    st = lop_out_begin(&t, w->file, w->path, 1, table_cols, sizeof table_cols / sizeof *table_cols);
    if (st)
        return st;
    st = draws_begin(&draws, lop);
    lop_progress_task(progress, name);
    for (int p = 1; p <= pmax && st == LOP_OK; p++) {
        st = table_row(&t, set, &draws, p, p < lo || p > hi, &notes);
        lop_progress_step(progress, 1);
    }
    lop_uncert_free(draws.u);
    lop_status_t end = lop_out_end(&t);
    st = st ? st : end;
    if (st)
        return st;
    table_warnings(name, &notes, pmax, lo, hi, warn, ctx);
    return LOP_OK;
}

/* ---------------------------------------------------------------- curves */

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
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        lop_csv_meta(w, keys[i][0], "%s", keys[i][1]);
    st = lop_out_begin(&t, w->file, w->path, 1, curve_cols, sizeof curve_cols / sizeof *curve_cols);
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

/* From this many rows with intervals on, the cost is said before the work
 * (minutes at about 2 ms a row, fit/README.md). */
#define BIG_TABLES_ROWS 100000

/* Does fit i start a table (the first rtt fit of its series and stat, with
 * an os fit beside it)? */
static int starts_table(const lop_paramset_t *set, size_t i)
{
    const lop_fit_t *f = &set->fit[i];
    return strcmp(f->quantity, "rtt") == 0 && strcmp(f->series, LOP_MCAST_SERIES) != 0 &&
           lop_paramset_find(set, f->series, "rtt", f->stat) == f &&
           lop_paramset_find(set, f->series, "os", f->stat) != NULL;
}

/* Does any fit of the table draw intervals (the slow part)? */
static int table_draws(const lop_lop_t *lop)
{
    const lop_fit_t *used[4] = {lop->rtt, lop->os, lop->os_list, lop->orecv};
    for (int i = 0; i < 4; i++)
        if (used[i] && used[i]->has_cov)
            return 1;
    return 0;
}

/* Rows of every table (p = 1..pmax each) and how many draw intervals, for
 * the cost said up front and the progress line. */
static double tables_rows(const lop_paramset_t *set, int *n_tables, double *rows_drawn)
{
    double rows = 0;
    *n_tables = 0;
    *rows_drawn = 0;
    for (size_t i = 0; i < set->n; i++) {
        lop_lop_t lop;
        if (starts_table(set, i) &&
            lop_lop_from_set(set, set->fit[i].series, set->fit[i].stat, &lop) == LOP_OK) {
            double n = lop.pmax > 1 ? floor(lop.pmax) : 1;
            rows += n;
            *rows_drawn += table_draws(&lop) ? n : 0;
            ++*n_tables;
        }
    }
    return rows;
}

lop_status_t lop_fitout_tables(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                               lop_fitout_warn_t *warn, void *ctx, lop_progress_t *progress,
                               size_t *n_tables)
{
    int n_planned;
    double drawn, rows = tables_rows(set, &n_planned, &drawn);
    if (drawn >= BIG_TABLES_ROWS)
        warn_line(warn, ctx, "%d tables, %.0f rows in all, %.0f of them with intervals of %zu "
                  "draws (some 2 ms of CPU a row): this takes a while", n_planned, rows, drawn,
                  lop_uncert_defaults.n_draws);
    lop_progress_plan(progress, rows, n_planned);
    *n_tables = 0;
    for (size_t i = 0; i < set->n; i++) {
        if (!starts_table(set, i))
            continue;
        lop_lop_t lop;
        lop_status_t st = lop_lop_from_set(set, set->fit[i].series, set->fit[i].stat, &lop);
        st = st ? st : write_table(b, dir, set, &lop, warn, ctx, progress);
        if (st) {
            lop_progress_done(progress);
            return st;
        }
        ++*n_tables;
    }
    lop_progress_done(progress);
    return LOP_OK;
}

/* -------------------------------------------------------------- synthesis */

/* Is 'f' the first row of its series and quantity? */
static int first_of_series(const lop_paramset_t *set, const lop_fit_t *f)
{
    for (const lop_fit_t *g = set->fit; g < f; g++)
        if (!strcmp(g->series, f->series) && !strcmp(g->quantity, f->quantity))
            return 0;
    return 1;
}

static const lop_out_col_t synth_cols[] = {
    {"p", LOP_OUT_INT, 0},         {"n", LOP_OUT_INT, 0},         {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},    {"median_us", LOP_OUT_NUM, 0}, {"p99_us", LOP_OUT_NUM, 0},
    {"max_us", LOP_OUT_NUM, 0},    {"stddev_us", LOP_OUT_NUM, 0},
};

/* The noise factor 1 + R·N(0,1), truncated to > 0: a time with noise stays a
 * time lopfit reads back (it refuses negative ones).  Redrawn, not clipped,
 * so small R (never near a crossing) keeps the same stream; for R <= 1 at
 * most 16 % of the draws are redrawn. */
static double noise_factor(double noise, gsl_rng *rng)
{
    double f;
    do
        f = 1 + noise * gsl_ran_gaussian(rng, 1.0);
    while (!(f > 0));
    return f;
}

/* The additive noise S·N(0,1) of a value v > 0, redrawn until v stays
 * positive; none (and no draw) when S is 0. */
static double noise_added(double v, double s, gsl_rng *rng)
{
    double e = 0;
    if (s > 0)
        do
            e = gsl_ran_gaussian(rng, s);
        while (!(v + e > 0));
    return v + e;
}

/* One stat cell: the fit's value with noise, empty without a fit. */
static lop_status_t synth_cell(lop_out_t *t, const lop_fit_t *fit, int p,
                               const lop_synth_noise_t *noise, gsl_rng *rng)
{
    if (!fit) {
        lop_out_empty(t);
        return LOP_OK;
    }
    double v = lop_fit_eval(fit, p) * noise_factor(noise->rel, rng);
    if (!isfinite(v))
        return lop_err(LOP_ERR_RANGE, "series '%s' %s %s: value at p = %d is not finite",
                       fit->series, fit->quantity, fit->stat, p);
    if (v < 0)
        return lop_err(LOP_ERR_RANGE, "series '%s' %s %s: the time at p = %d is negative (%g)",
                       fit->series, fit->quantity, fit->stat, p, v);
    lop_out_num(t, noise_added(v, noise->us, rng));
    return LOP_OK;
}

static lop_status_t synth_file(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                               const lop_fit_t *f, const lop_synth_noise_t *noise,
                               unsigned long seed, gsl_rng *rng)
{
    const lop_fit_t *by_stat[8] = {NULL};
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; lop_fitdata_stats[s]; s++) {
        by_stat[s] = lop_paramset_find(set, f->series, f->quantity, lop_fitdata_stats[s]);
        if (by_stat[s]) {
            lo = fmin(lo, by_stat[s]->pmin);
            hi = fmax(hi, by_stat[s]->pmax);
        }
    }
    char name[256];
    lop_csv_writer_t *w;
    lop_out_t t;
    snprintf(name, sizeof name, "%s-%s.csv", f->series, f->quantity);
    lop_status_t st = lop_fitout_batch_open(b, dir, name, &w);
    if (st)
        return st;
    lop_csv_meta(w, "quantity", "%s", f->quantity);
    lop_csv_meta(w, "series", "%s", f->series);
    lop_csv_meta(w, "unit", "us");
    char rel_s[LOP_OUT_NUM_LEN], us_s[LOP_OUT_NUM_LEN];
    lop_out_format_csv(rel_s, noise->rel);
    if (noise->us > 0)
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, additive noise %s us, "
                     "seed %lu)", set->path, rel_s, lop_out_format_csv(us_s, noise->us), seed);
    else
        lop_csv_meta(w, "source", "lopfit --synth %s (relative noise %s, seed %lu)", set->path,
                     rel_s, seed);
    st = lop_out_begin(&t, w->file, w->path, 1, synth_cols, sizeof synth_cols / sizeof *synth_cols);
    if (st)
        return st;
    for (int p = (int)ceil(lo); p <= (int)floor(hi) && st == LOP_OK; p++) {
        lop_out_int(&t, p);
        lop_out_empty(&t); /* n: no samples behind a synthetic row */
        for (int s = 0; lop_fitdata_stats[s] && st == LOP_OK; s++)
            st = synth_cell(&t, by_stat[s], p, noise, rng);
        st = st ? st : lop_out_row(&t); /* p99, max, stddev stay empty */
    }
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

/* Every stat of 'set' must be a column lopbench writes (else its rows would
 * go nowhere and the file's p range would be empty). */
static lop_status_t check_synth_stats(const lop_paramset_t *set)
{
    char names[64] = "";
    for (int s = 0; lop_fitdata_stats[s]; s++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", s ? ", " : "",
                 lop_fitdata_stats[s]);
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        int known = 0;
        for (int s = 0; lop_fitdata_stats[s]; s++)
            known |= strcmp(f->stat, lop_fitdata_stats[s]) == 0;
        if (!known)
            return lop_err(LOP_ERR_INVALID, "%s: series '%s' %s: stat '%s' is not a column of "
                           "lopbench's files (%s), cannot synthesise it", set->path, f->series,
                           f->quantity, f->stat, names);
    }
    return LOP_OK;
}

lop_status_t lop_fitout_synth(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                              const lop_synth_noise_t *noise, unsigned long seed)
{
    lop_status_t checked = check_synth_stats(set);
    if (checked)
        return checked;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return lop_err(LOP_ERR_NOMEM, "out of memory for a random generator");
    gsl_rng_set(rng, seed);
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < set->n && st == LOP_OK; i++)
        if (first_of_series(set, &set->fit[i]))
            st = synth_file(b, dir, set, &set->fit[i], noise, seed, rng);
    gsl_rng_free(rng);
    return st;
}
