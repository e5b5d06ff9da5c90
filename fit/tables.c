/* tables.c - lop-<series>-<stat>.csv: the LoP view's o(p), L(p), L^list(p)
 * of every series and statistic with 95 % intervals, p = 1..pmax (fitout.h). */
#include "fitout.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "uncert.h"
#include "view.h"

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
static void table_range(const lop_view_t *lop, double *lo, double *hi)
{
    const lop_fit_t *used[] = {lop->rtt, lop->os, lop->os_list, lop->orecv};
    *lo = -INFINITY;
    *hi = INFINITY;
    for (size_t i = 0; i < COUNT(used); i++) {
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
    const lop_view_t *lop;
    const lop_fit_t *fit[4]; /* rtt, os, os_list, orecv as drawn */
    int index[4];            /* where each is in fit[] (-1: absent) */
    int n;
    lop_uncert_t *u;         /* NULL when no fit has a covariance */
    int col;                 /* lop_uncert_fn_t's arguments */
    double p;
} table_draws_t;

/* Column 'col' of a LoP view at p (thesis 2.3.4, list 2.9). */
static double column_value(const lop_view_t *lop, int col, double p)
{
    switch (col) {
    case COL_RTT: return lop_fit_eval(lop->rtt, p);
    case COL_OS: return lop_view_o(lop, p);
    case COL_OR: return eval_or_nan(lop->orecv, p);
    case COL_L: return lop_view_L(lop, p);
    default: return lop_view_Llist(lop, p);
    }
}

/* The column with the drawn fits in place of the fitted ones. */
static double drawn_column(const lop_fit_t *const *fits, void *ctx)
{
    const table_draws_t *d = ctx;
    lop_view_t lop = *d->lop;
    const lop_fit_t **slot[4] = {&lop.rtt, &lop.os, &lop.os_list, &lop.orecv};
    for (int i = 0; i < 4; i++)
        if (d->index[i] >= 0)
            *slot[i] = fits[d->index[i]];
    return column_value(&lop, d->col, d->p);
}

static lop_status_t draws_begin(table_draws_t *d, const lop_view_t *lop)
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

/* One value and its interval cells (empty without one, and with *off set
 * where the draws' interval left the value out: uncert.h). */
static lop_status_t value_cells(lop_out_t *t, table_draws_t *d, int col, int p, double v,
                                int *nonfinite, int *off)
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
    *off = iv.off_value;
    lop_out_num(t, iv.lo);
    lop_out_num(t, iv.hi);
    return LOP_OK;
}

/* The row of p, or an error for a non-finite value. */
static lop_status_t table_row(lop_out_t *t, const lop_paramset_t *set, table_draws_t *d, int p,
                              int outside, table_notes_t *notes)
{
    const lop_view_t *lop = d->lop;
    int nonfinite = 0;
    char flags[512] = ""; /* "rtt_us=negative;L_us=negative": lopredict's wording */
    lop_out_int(t, p);
    for (int col = 0; col < N_COLS; col++) {
        double v = column_value(lop, col, p);
        int optional = col == COL_OR ? lop->orecv == NULL : col == COL_LLIST ? lop->os_list == NULL
                                                                             : 0;
        if (!optional && !isfinite(v))
            return lop_err(LOP_ERR_RANGE, "%s: series '%s' stat '%s': %s at p = %d is not "
                           "finite", set->path, lop->rtt->series, lop->rtt->stat,
                           table_cols[1 + 3 * col].name, p);
        int off = 0;
        lop_status_t st = value_cells(t, d, col, p, v, &nonfinite, &off);
        if (st)
            return st;
        if (col == COL_L && v < 0)
            p_set_add(&notes->neg, p);
        if (col == COL_LLIST && v < 0)
            p_set_add(&notes->neg_list, p);
        if (v < 0) /* a time below zero is never a cell without a mark */
            snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s=negative",
                     flags[0] ? ";" : "", table_cols[1 + 3 * col].name);
        if (off) /* nor an interval left empty */
            snprintf(flags + strlen(flags), sizeof flags - strlen(flags),
                     "%s%s=interval-excludes-estimate", flags[0] ? ";" : "",
                     table_cols[1 + 3 * col].name);
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
                                const lop_view_t *lop, lop_fitout_warn_t *warn, void *ctx,
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
    st = lop_out_begin(&t, w->file, w->path, 1, table_cols, COUNT(table_cols));
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
static int table_draws(const lop_view_t *lop)
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
        lop_view_t lop;
        if (starts_table(set, i) &&
            lop_view_from_set(set, set->fit[i].series, set->fit[i].stat, &lop) == LOP_OK) {
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
        lop_view_t lop;
        lop_status_t st = lop_view_from_set(set, set->fit[i].series, set->fit[i].stat, &lop);
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
