/* fmt_params.c - params.csv: columns, writer and reader (fmt_params.h). */
#include "fmt_params.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uncert.h"

const lop_out_col_t lop_fmt_params_columns[LOP_FMT_PARAMS_COLUMNS + 1] = {
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

enum { HINT_NONE, HINT_MORE_P, HINT_MORE_REPS };
const char *const lop_fmt_params_hints[] = {"none", "more-p", "more-reps", NULL};

/* ---------------------------------------------------------------- writer */

lop_status_t lop_fmt_params_write_begin(lop_out_t *t, lop_csv_writer_t *w, const char *weight)
{
    lop_csv_meta(w, "lopfit", "%s", LOP_VERSION);
    lop_csv_meta(w, "unit", "us");
    if (weight && strcmp(weight, "none") != 0)
        lop_csv_meta(w, "weight", "%s (ssr, rmse, r2 of residuals weighted so; lopfit --weight)",
                     weight);
    return lop_out_begin(t, w->file, w->path, 1, lop_fmt_params_columns, LOP_FMT_PARAMS_COLUMNS);
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

void lop_fmt_params_cells(lop_out_t *t, const lop_fit_t *fit, int hint)
{
    int k = fit->model->n_params;
    const char *text[] = {fit->file, fit->series, fit->quantity, fit->stat, fit->model->name};
    for (size_t i = 0; i < COUNT(text); i++)
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
    lop_out_str(t, lop_fmt_params_hints[hint]);
    selection_cells(t, fit);
}

/* ---------------------------------------------------------------- reader */

/* The columns every row needs, the first of lop_fmt_params_columns: file
 * .. pmax, then l1 .. l6; the others are optional. */
enum { COL_FILE, COL_SERIES, COL_QUANTITY, COL_STAT, COL_MODEL, COL_N, COL_PMIN, COL_PMAX,
       COL_L1, N_REQUIRED = COL_L1 + LOP_MODEL_MAX_PARAMS, COL_SE1 = N_REQUIRED + 3 };

/* Indices of the required columns in a file, looked up once. */
typedef struct {
    size_t at[N_REQUIRED];
} param_columns_t;

static lop_status_t find_columns(const lop_csv_t *csv, param_columns_t *c)
{
    lop_status_t st = LOP_OK;
    for (int i = 0; i < N_REQUIRED && st == LOP_OK; i++)
        st = lop_csv_column(csv, lop_fmt_params_columns[i].name, &c->at[i]);
    return st;
}

/* An optional numeric cell: missing column or empty cell gives NaN. */
static lop_status_t optional_number(const lop_csv_t *csv, size_t row, const char *name,
                                    double *value)
{
    size_t col;
    *value = NAN;
    if (lop_csv_column(csv, name, &col) != LOP_OK || csv->cells[row][col][0] == '\0')
        return LOP_OK;
    return lop_csv_number(csv, row, col, value);
}

/* An optional cell that may be infinite (a criterion of a perfect fit is
 * -inf, a margin inf): missing column or empty cell gives NaN. */
static lop_status_t optional_extended(const lop_csv_t *csv, size_t row, const char *name,
                                      double *value)
{
    size_t col;
    *value = NAN;
    if (lop_csv_column(csv, name, &col) != LOP_OK)
        return LOP_OK;
    const char *s = csv->cells[row][col];
    if (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0) {
        *value = s[0] == '-' ? -INFINITY : INFINITY;
        return LOP_OK;
    }
    return optional_number(csv, row, name, value);
}

/* An optional text cell ("" when the column is missing). */
static const char *optional_text(const lop_csv_t *csv, size_t row, const char *name)
{
    size_t col;
    return lop_csv_column(csv, name, &col) == LOP_OK ? csv->cells[row][col] : "";
}

static lop_status_t copy_text(const lop_csv_t *csv, size_t row, size_t col, char *dst,
                              size_t len)
{
    const char *s = csv->cells[row][col];
    if (s[0] == '\0' || strlen(s) >= len)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s' is empty or too long", csv->path,
                       csv->line[row], csv->columns[col]);
    memcpy(dst, s, strlen(s) + 1);
    return LOP_OK;
}

/* The upper triangle cov11..cov66: all 21 cells or none (has_cov = 0).
 * Rows of parameters the model does not fit (or fixes) must be 0. */
static lop_status_t read_cov(const lop_csv_t *csv, size_t row, lop_fit_t *fit)
{
    int present = 0, cells = LOP_MODEL_MAX_PARAMS * (LOP_MODEL_MAX_PARAMS + 1) / 2;
    char absent[8] = ""; /* the first cell without a number, named in the message */
    memset(fit->cov, 0, sizeof fit->cov);
    fit->has_cov = 0;
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS; i++)
        for (int j = i; j < LOP_MODEL_MAX_PARAMS; j++) {
            char name[8];
            double v;
            snprintf(name, sizeof name, "cov%d%d", i + 1, j + 1);
            lop_status_t st = optional_number(csv, row, name, &v);
            if (st)
                return st;
            present += !isnan(v);
            if (isnan(v) && !absent[0])
                memcpy(absent, name, sizeof name);
            fit->cov[i][j] = fit->cov[j][i] = isnan(v) ? 0.0 : v;
        }
    size_t col;
    if (present == 0)
        return LOP_OK;
    if (present != cells && lop_csv_column(csv, absent, &col) != LOP_OK)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: no column '%s' beside the other covariance "
                       "columns: cov11..cov66, all 21 or none", csv->path, csv->header_line,
                       absent);
    if (present == cells - 1)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s is empty: the 21 covariance cells "
                       "cov11..cov66 are all filled or all empty", csv->path, csv->line[row],
                       absent);
    if (present != cells)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s and %d more of the 21 covariance cells "
                       "cov11..cov66 are empty: all or none", csv->path, csv->line[row], absent,
                       cells - present - 1);
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS; i++)
        for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++) {
            int fitted = i < fit->model->n_params && fit->model->role[i] != LOP_PARAM_GAUGE;
            if (!fitted && fit->cov[i][j] != 0)
                return lop_err(LOP_ERR_PARSE, "%s:%zu: cov%d%d = %g: the %s model does not "
                               "fit l%d, its covariance must be 0", csv->path, csv->line[row],
                               i < j ? i + 1 : j + 1, i < j ? j + 1 : i + 1, fit->cov[i][j],
                               fit->model->name, i + 1);
        }
    fit->has_cov = 1;
    return LOP_OK;
}

/* Index of a parameter name of 'model' ("l3"), or -1. */
static int param_index(const lop_model_t *model, const char *name, size_t len)
{
    for (int j = 0; j < model->n_params; j++)
        if (strlen(model->param[j]) == len && strncmp(model->param[j], name, len) == 0)
            return j;
    return -1;
}

/* The weak column ("l3+l4") and the hint: the file names weak parameters
 * but not why, so the reason is what the row shows (model.h, weak). */
static lop_status_t read_weak(const lop_csv_t *csv, size_t row, lop_fit_t *fit)
{
    const char *weak = optional_text(csv, row, "weak"), *hint = optional_text(csv, row, "hint");
    int structural = (double)fit->n - lop_model_n_free(fit->model) - 2 <= 0, h = 0;
    memset(fit->weak, 0, sizeof fit->weak);
    while (lop_fmt_params_hints[h] && strcmp(hint, lop_fmt_params_hints[h]) != 0)
        h++;
    if (hint[0] && !lop_fmt_params_hints[h])
        return lop_err(LOP_ERR_PARSE, "%s:%zu: hint '%s' is not %s, %s or %s", csv->path,
                       csv->line[row], hint, lop_fmt_params_hints[HINT_NONE],
                       lop_fmt_params_hints[HINT_MORE_P], lop_fmt_params_hints[HINT_MORE_REPS]);
    for (const char *s = weak; *s;) {
        size_t len = strcspn(s, "+");
        int j = param_index(fit->model, s, len);
        if (j < 0)
            return lop_err(LOP_ERR_PARSE, "%s:%zu: weak: '%.*s' is not a parameter of the %s "
                           "model", csv->path, csv->line[row], (int)len, s, fit->model->name);
        fit->weak[j] = isnan(fit->se[j]) ? LOP_FIT_WEAK_SINGULAR
                       : fit->se[j] > fabs(fit->lambda[j]) ? LOP_FIT_WEAK_SE
                                                           : LOP_FIT_WEAK_ILLCOND;
        structural |= fit->weak[j] != LOP_FIT_WEAK_SE;
        s += len + (s[len] == '+');
    }
    for (int j = 0; j < fit->model->n_params && !structural && h == HINT_MORE_P; j++)
        if (fit->weak[j])
            fit->weak[j] |= LOP_FIT_WEAK_ILLCOND; /* the file says a new p resolves it */
    return LOP_OK;
}

/* How the model was chosen: criterion, k, aicc, bic, margin (all optional). */
static lop_status_t read_selection(const lop_csv_t *csv, size_t row, lop_fit_t *fit)
{
    const char *crit = optional_text(csv, row, "criterion");
    double k;
    fit->k = 0;
    fit->aicc = fit->bic = fit->margin = NAN;
    fit->criterion[0] = '\0';
    if (crit[0] && strcmp(crit, "aicc") && strcmp(crit, "bic") && strcmp(crit, "forced"))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: criterion '%s' is not aicc, bic or forced",
                       csv->path, csv->line[row], crit);
    snprintf(fit->criterion, sizeof fit->criterion, "%s", crit);
    lop_status_t st = optional_number(csv, row, "k", &k);
    if (st == LOP_OK && !isnan(k) && !(k >= 1 && k <= LOP_MODEL_MAX_PARAMS + 1 && k == floor(k)))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: k = %g is not a whole number in 1..%d", csv->path,
                     csv->line[row], k, LOP_MODEL_MAX_PARAMS + 1);
    fit->k = st || isnan(k) ? 0 : (int)k;
    st = st ? st : optional_extended(csv, row, "aicc", &fit->aicc);
    st = st ? st : optional_extended(csv, row, "bic", &fit->bic);
    st = st ? st : optional_extended(csv, row, "margin", &fit->margin);
    return st;
}

/* Can lop_uncert_draw factor the covariance (symmetric positive
 * semi-definite)?  One draw tries exactly what predictions will do. */
static lop_status_t check_cov(const lop_fit_t *fit, const char *where)
{
    lop_uncert_opts_t one = lop_uncert_defaults;
    lop_uncert_t *u;
    const lop_fit_t *fits[] = {fit};
    one.n_draws = 1;
    if (!fit->has_cov)
        return LOP_OK;
    lop_status_t st = lop_uncert_draw(fits, 1, &one, &u);
    if (st == LOP_ERR_NOMEM)
        return st;
    if (st)
        return lop_err(LOP_ERR_PARSE, "%s: %s", where, lop_errmsg());
    lop_uncert_free(u);
    return LOP_OK;
}

/* One row; lop_fit_check before the covariance, whose checks assume a model
 * that fits the quantity (an `ov` rtt row is a wrong model, not a wrong
 * covariance). */
static lop_status_t read_fit(const lop_csv_t *csv, size_t row, const param_columns_t *c,
                             const char *where, lop_fit_t *fit)
{
    long n;
    lop_status_t st = LOP_OK;
    st = st ? st : copy_text(csv, row, c->at[COL_FILE], fit->file, sizeof fit->file);
    st = st ? st : copy_text(csv, row, c->at[COL_SERIES], fit->series, sizeof fit->series);
    st = st ? st : copy_text(csv, row, c->at[COL_QUANTITY], fit->quantity, sizeof fit->quantity);
    st = st ? st : copy_text(csv, row, c->at[COL_STAT], fit->stat, sizeof fit->stat);
    if (st)
        return st;
    fit->model = lop_model_find(csv->cells[row][c->at[COL_MODEL]]);
    if (!fit->model)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown model '%s'", csv->path, csv->line[row],
                       csv->cells[row][c->at[COL_MODEL]]);
    st = st ? st : lop_csv_number(csv, row, c->at[COL_PMIN], &fit->pmin);
    st = st ? st : lop_csv_number(csv, row, c->at[COL_PMAX], &fit->pmax);
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS && st == LOP_OK; i++) {
        fit->lambda[i] = 0.0;
        if (i < fit->model->n_params)
            st = lop_csv_number(csv, row, c->at[COL_L1 + i], &fit->lambda[i]);
        if (st == LOP_OK)
            st = optional_number(csv, row, lop_fmt_params_columns[COL_SE1 + i].name,
                                 &fit->se[i]);
    }
    st = st ? st : optional_number(csv, row, "ssr", &fit->ssr);
    st = st ? st : optional_number(csv, row, "rmse", &fit->rmse);
    st = st ? st : optional_number(csv, row, "r2", &fit->r2);
    if (st == LOP_OK && (fit->pmin < 1 || fit->pmax < fit->pmin))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: need n >= 0 and 1 <= pmin <= pmax", csv->path,
                     csv->line[row]);
    st = st ? st : lop_csv_integer(csv, row, c->at[COL_N], 0, LONG_MAX, &n);
    fit->n = st ? 0 : (size_t)n;
    st = st ? st : lop_fit_check(fit, where);
    st = st ? st : read_cov(csv, row, fit);
    st = st ? st : read_weak(csv, row, fit);
    return st ? st : read_selection(csv, row, fit);
}

/* Rows ordered by (series, quantity, stat, linear or not), then file order. */
static const lop_paramset_t *sort_set;

static int key_cmp(const void *a, const void *b)
{
    const lop_fit_t *x = &sort_set->fit[*(const size_t *)a];
    const lop_fit_t *y = &sort_set->fit[*(const size_t *)b];
    int c = strcmp(x->series, y->series);
    c = c ? c : strcmp(x->quantity, y->quantity);
    c = c ? c : strcmp(x->stat, y->stat);
    c = c ? c : (x->model == &lop_model_linear) - (y->model == &lop_model_linear);
    return c ? c : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* A second row for one key would make lookups depend on file order: sort
 * row indices by key (n log n, a set may be big) and compare neighbours. */
static lop_status_t check_unique(const lop_paramset_t *set, const size_t *line)
{
    size_t *order = lop_calloc(set->n, sizeof *order);
    if (!order)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < set->n; i++)
        order[i] = i;
    sort_set = set;
    qsort(order, set->n, sizeof *order, key_cmp);
    lop_status_t st = LOP_OK;
    for (size_t i = 1; i < set->n && st == LOP_OK; i++) {
        const lop_fit_t *a = &set->fit[order[i - 1]], *b = &set->fit[order[i]];
        if (!strcmp(a->series, b->series) && !strcmp(a->quantity, b->quantity) &&
            !strcmp(a->stat, b->stat) &&
            (a->model == &lop_model_linear) == (b->model == &lop_model_linear))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: series '%s' quantity '%s' stat '%s' has a %s "
                         "fit already (line %zu)", set->path, line[order[i]], b->series,
                         b->quantity, b->stat, b->model == &lop_model_linear ? "linear" :
                         "non-linear", line[order[i - 1]]);
    }
    free(order);
    return st;
}

lop_status_t lop_fmt_params_read(const char *path, lop_paramset_t *set)
{
    lop_csv_t *csv;
    param_columns_t cols;
    memset(set, 0, sizeof *set);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    st = find_columns(csv, &cols);
    if (st == LOP_OK && csv->n_rows == 0)
        st = lop_err(LOP_ERR_PARSE, "%s: no parameter rows", path);
    if (st == LOP_OK) {
        set->fit = lop_calloc(csv->n_rows, sizeof *set->fit);
        set->path = lop_strdup(path);
        st = set->fit && set->path ? LOP_OK : LOP_ERR_NOMEM;
    }
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        char where[4200];
        snprintf(where, sizeof where, "%s:%zu", path, csv->line[r]);
        st = read_fit(csv, r, &cols, where, &set->fit[r]);
        st = st ? st : check_cov(&set->fit[r], where);
    }
    set->n = csv->n_rows;
    st = st ? st : check_unique(set, csv->line);
    lop_csv_free(csv);
    if (st)
        lop_paramset_free(set);
    return st;
}

