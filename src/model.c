/* model.c - LoP model functions, parameter sets, L(p) (model.h). */
#include "model.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "uncert.h"

/* ------------------------------------------------------- model functions */

/* Thesis 2.3.6.1.1: pipeline start-up + processing (without network saturation). */
static double eval_rtt_nosat(const double *l, double p)
{
    return l[0] / (l[1] + p) + l[2];
}

/* Thesis 2.3.6.1.1: pipeline start-up + processing + network saturation. */
static double eval_rtt(const double *l, double p)
{
    return eval_rtt_nosat(l, p) + l[3] * (1.0 - exp(l[4] * (p - l[5])));
}

/* Thesis 2.3.6.1.2: a pipeline start-up function. */
static double eval_ov(const double *l, double p)
{
    return l[0] + l[1] / (l[2] + p);
}

/* LogP's constant latency or overhead (2.1.4.5). */
static double eval_const(const double *l, double p)
{
    (void)p;
    return l[0];
}

/* LogP's view: a constant plus a gap per message (thesis 2.3.3). */
static double eval_linear(const double *l, double p)
{
    return l[0] + l[1] * p;
}

#define L_NAMES {"l1", "l2", "l3", "l4", "l5", "l6"}

const lop_model_t lop_model_rtt = {
    "rtt", 6, "l1/(l2+p) + l3 + l4*(1-exp(l5*(p-l6)))", eval_rtt, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_POLE, LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_RATE,
     LOP_PARAM_GAUGE},
    "thesis 2.3.6.1.1", "l1/(l2+x) + l3 + l4*(1-exp(l5*(x-l6)))"};
const lop_model_t lop_model_rtt_nosat = {
    "rtt-nosat", 3, "l1/(l2+p) + l3", eval_rtt_nosat, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_POLE, LOP_PARAM_LINEAR},
    "thesis 2.3.6.1.1 without the saturation term", "l1/(l2+x) + l3"};
const lop_model_t lop_model_const = {
    "const", 1, "l1", eval_const, L_NAMES, {LOP_PARAM_LINEAR},
    "LogP's constant (thesis 2.1.4.5)", "l1"};
const lop_model_t lop_model_ov = {
    "ov", 3, "l1 + l2/(l3+p)", eval_ov, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_POLE}, "thesis 2.3.6.1.2", "l1 + l2/(l3+x)"};
const lop_model_t lop_model_linear = {
    "linear", 2, "l1 + l2*p", eval_linear, L_NAMES, {LOP_PARAM_LINEAR, LOP_PARAM_LINEAR},
    "LogP's L + g*p (thesis 2.3.3)", "l1 + l2*x"};

const lop_model_t *const lop_models[] = {&lop_model_rtt, &lop_model_rtt_nosat, &lop_model_const,
                                         &lop_model_ov,  &lop_model_linear,    NULL};

const lop_family_t lop_family_rtt = {
    "rtt", 3, {&lop_model_rtt, &lop_model_rtt_nosat, &lop_model_const}};
const lop_family_t lop_family_ov = {"ov", 2, {&lop_model_ov, &lop_model_const}};

const lop_model_t *lop_model_find(const char *name)
{
    for (const lop_model_t *const *m = lop_models; *m; m++)
        if (strcmp((*m)->name, name) == 0)
            return *m;
    return NULL;
}

const lop_family_t *lop_family_for_quantity(const char *quantity)
{
    if (strcmp(quantity, "rtt") == 0)
        return &lop_family_rtt;
    if (strcmp(quantity, "os") == 0 || strcmp(quantity, "or") == 0)
        return &lop_family_ov;
    return NULL;
}

const lop_model_t *lop_model_for_quantity(const char *quantity)
{
    const lop_family_t *f = lop_family_for_quantity(quantity);
    return f ? f->member[0] : NULL;
}

const lop_family_t *lop_family_of(const lop_model_t *model)
{
    if (model == lop_family_rtt.member[0])
        return &lop_family_rtt;
    if (model == lop_family_ov.member[0])
        return &lop_family_ov;
    return NULL;
}

int lop_model_gauge(const lop_model_t *model)
{
    for (int j = 0; j < model->n_params; j++)
        if (model->role[j] == LOP_PARAM_GAUGE)
            return j;
    return -1;
}

int lop_model_n_free(const lop_model_t *model)
{
    return model->n_params - (lop_model_gauge(model) >= 0);
}

double lop_fit_eval(const lop_fit_t *fit, double p)
{
    return fit->model->eval(fit->lambda, p);
}

int lop_model_fits_quantity(const lop_model_t *model, const char *quantity)
{
    const lop_family_t *f = lop_family_for_quantity(quantity);
    if (model == &lop_model_linear || !f)
        return 1;
    for (int i = 0; i < f->n_members; i++)
        if (f->member[i] == model)
            return 1;
    return 0;
}

const char *lop_model_names(const lop_family_t *family, const char *last_sep, char *buf,
                            size_t len)
{
    const lop_model_t *list[LOP_FAMILY_MAX + 8];
    size_t n = 0, used = 0;
    if (family) {
        for (int i = 0; i < family->n_members; i++)
            list[n++] = family->member[i];
        list[n++] = &lop_model_linear;
    } else {
        for (const lop_model_t *const *m = lop_models; *m && n < sizeof list / sizeof *list; m++)
            list[n++] = *m;
    }
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : i + 1 == n ? last_sep : ", ", list[i]->name);
    return buf;
}

/* The index of the first pole parameter of 'model' whose pole -l is not left
 * of pmin (lop_model_poles_outside), or -1. */
static int pole_not_outside(const lop_model_t *model, const double *lambda, double pmin)
{
    for (int j = 0; j < model->n_params; j++)
        if (model->role[j] == LOP_PARAM_POLE &&
            !(lambda[j] + pmin >= LOP_MODEL_POLE_MIN * (1 - 1e-9)))
            return j;
    return -1;
}

lop_status_t lop_fit_check(const lop_fit_t *fit, const char *where)
{
    const char *names[][2] = {
        {"series", fit->series}, {"quantity", fit->quantity}, {"stat", fit->stat}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!lop_name_ok(names[i][1]))
            return lop_err(LOP_ERR_PARSE, "%s: %s '%s' %s", where, names[i][0], names[i][1],
                           lop_name_rule);
    char models[128];
    if (!lop_model_fits_quantity(fit->model, fit->quantity))
        return lop_err(LOP_ERR_PARSE, "%s: quantity '%s' takes model %s, not %s", where,
                       fit->quantity,
                       lop_model_names(lop_family_for_quantity(fit->quantity), " or ", models,
                                       sizeof models),
                       fit->model->name);
    for (int i = 0; i < fit->model->n_params; i++)
        if (!isfinite(fit->lambda[i]))
            return lop_err(LOP_ERR_RANGE, "%s: series '%s' %s %s: l%d = %g is not finite",
                           where, fit->series, fit->quantity, fit->stat, i + 1,
                           fit->lambda[i]);
    if (!(fit->pmin >= 1 && fit->pmin <= fit->pmax && fit->pmax <= LOP_MODEL_MAX_P))
        return lop_err(LOP_ERR_RANGE,
                       "%s: pmin = %.17g, pmax = %.17g: need 1 <= pmin <= pmax <= %d", where,
                       fit->pmin, fit->pmax, LOP_MODEL_MAX_P);
    /* the curve is infinite at a pole: every time from it would be wrong */
    int pole = pole_not_outside(fit->model, fit->lambda, fit->pmin);
    if (pole >= 0)
        return lop_err(LOP_ERR_RANGE, "%s: series '%s' %s %s: the %s model has a pole at p = %g "
                       "(l%d = %g), not left of its range %g..%g", where, fit->series,
                       fit->quantity, fit->stat, fit->model->name, -fit->lambda[pole], pole + 1,
                       fit->lambda[pole], fit->pmin, fit->pmax);
    return LOP_OK;
}

int lop_model_poles_outside(const lop_model_t *model, const double *lambda, double pmin)
{
    return pole_not_outside(model, lambda, pmin) < 0;
}

/* ---------------------------------------------------------- parameter sets */

const char lop_paramset_header[] =
    "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,"
    "se1,se2,se3,se4,se5,se6,"
    "cov11,cov12,cov13,cov14,cov15,cov16,cov22,cov23,cov24,cov25,cov26,cov33,cov34,cov35,"
    "cov36,cov44,cov45,cov46,cov55,cov56,cov66,weak,hint,criterion,k,aicc,bic,margin";

/* Column indices of a params.csv, looked up once. */
typedef struct {
    size_t file, series, quantity, stat, model, n, pmin, pmax;
    size_t lambda[LOP_MODEL_MAX_PARAMS];
} param_columns_t;

static lop_status_t find_columns(const lop_csv_t *csv, param_columns_t *c)
{
    static const char *const lambda_names[] = {"l1", "l2", "l3", "l4", "l5", "l6"};
    lop_status_t st = LOP_OK;
    st = st ? st : lop_csv_column(csv, "file", &c->file);
    st = st ? st : lop_csv_column(csv, "series", &c->series);
    st = st ? st : lop_csv_column(csv, "quantity", &c->quantity);
    st = st ? st : lop_csv_column(csv, "stat", &c->stat);
    st = st ? st : lop_csv_column(csv, "model", &c->model);
    st = st ? st : lop_csv_column(csv, "n", &c->n);
    st = st ? st : lop_csv_column(csv, "pmin", &c->pmin);
    st = st ? st : lop_csv_column(csv, "pmax", &c->pmax);
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS && st == LOP_OK; i++)
        st = lop_csv_column(csv, lambda_names[i], &c->lambda[i]);
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
    int present = 0;
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
            fit->cov[i][j] = fit->cov[j][i] = isnan(v) ? 0.0 : v;
        }
    if (present == 0)
        return LOP_OK;
    if (present != LOP_MODEL_MAX_PARAMS * (LOP_MODEL_MAX_PARAMS + 1) / 2)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %d of the 21 covariance cells cov11..cov66 are "
                       "empty: all or none", csv->path, csv->line[row],
                       LOP_MODEL_MAX_PARAMS * (LOP_MODEL_MAX_PARAMS + 1) / 2 - present);
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
    int structural = (double)fit->n - lop_model_n_free(fit->model) - 2 <= 0;
    memset(fit->weak, 0, sizeof fit->weak);
    if (hint[0] && strcmp(hint, "none") && strcmp(hint, "more-p") && strcmp(hint, "more-reps"))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: hint '%s' is not none, more-p or more-reps",
                       csv->path, csv->line[row], hint);
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
    for (int j = 0; j < fit->model->n_params && !structural && !strcmp(hint, "more-p"); j++)
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
    static const char *const se_names[] = {"se1", "se2", "se3", "se4", "se5", "se6"};
    long n;
    lop_status_t st = LOP_OK;
    st = st ? st : copy_text(csv, row, c->file, fit->file, sizeof fit->file);
    st = st ? st : copy_text(csv, row, c->series, fit->series, sizeof fit->series);
    st = st ? st : copy_text(csv, row, c->quantity, fit->quantity, sizeof fit->quantity);
    st = st ? st : copy_text(csv, row, c->stat, fit->stat, sizeof fit->stat);
    if (st)
        return st;
    fit->model = lop_model_find(csv->cells[row][c->model]);
    if (!fit->model)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown model '%s'", csv->path, csv->line[row],
                       csv->cells[row][c->model]);
    st = st ? st : lop_csv_number(csv, row, c->pmin, &fit->pmin);
    st = st ? st : lop_csv_number(csv, row, c->pmax, &fit->pmax);
    for (int i = 0; i < LOP_MODEL_MAX_PARAMS && st == LOP_OK; i++) {
        fit->lambda[i] = 0.0;
        if (i < fit->model->n_params)
            st = lop_csv_number(csv, row, c->lambda[i], &fit->lambda[i]);
        if (st == LOP_OK)
            st = optional_number(csv, row, se_names[i], &fit->se[i]);
    }
    st = st ? st : optional_number(csv, row, "ssr", &fit->ssr);
    st = st ? st : optional_number(csv, row, "rmse", &fit->rmse);
    st = st ? st : optional_number(csv, row, "r2", &fit->r2);
    if (st == LOP_OK && (fit->pmin < 1 || fit->pmax < fit->pmin))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: need n >= 0 and 1 <= pmin <= pmax", csv->path,
                     csv->line[row]);
    st = st ? st : lop_csv_integer(csv, row, c->n, 0, LONG_MAX, &n);
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

lop_status_t lop_paramset_read(const char *path, lop_paramset_t *set)
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

void lop_paramset_free(lop_paramset_t *set)
{
    free(set->path);
    free(set->fit);
    memset(set, 0, sizeof *set);
}

const lop_fit_t *lop_paramset_find(const lop_paramset_t *set, const char *series,
                                   const char *quantity, const char *stat)
{
    const lop_fit_t *line = NULL;
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        if (strcmp(f->series, series) || strcmp(f->quantity, quantity) || strcmp(f->stat, stat))
            continue;
        if (f->model != &lop_model_linear)
            return f;
        line = line ? line : f;
    }
    return line;
}

/* ------------------------------------------------------------------- L(p) */

/* "<op>-list" for a series "<op>-<post>". */
static void list_series(const char *series, char *out, size_t len)
{
    const char *dash = strrchr(series, '-');
    int op_len = dash ? (int)(dash - series) : (int)strlen(series);
    snprintf(out, len, "%.*s-list", op_len, series);
}

lop_status_t lop_lop_mcast_from_set(const lop_paramset_t *set, const char *stat, lop_lop_t *lop)
{
    const lop_fit_t **fit[] = {&lop->mc_rtt, &lop->mc_os, &lop->ans_rtt, &lop->ans_os};
    const char *series[] = {LOP_MCAST_SERIES, LOP_MCAST_SERIES, LOP_MCAST_ANSWERS,
                            LOP_MCAST_ANSWERS};
    const char *quantity[] = {"rtt", "os", "rtt", "os"};
    for (int i = 0; i < 4; i++)
        *fit[i] = lop_paramset_find(set, series[i], quantity[i], stat);
    if (!lop->mc_rtt && !lop->mc_os) { /* no multicast: the answers' fits are not needed */
        lop->ans_rtt = lop->ans_os = NULL;
        return LOP_OK;
    }
    for (int i = 0; i < 4; i++)
        if (!*fit[i])
            return lop_err(LOP_ERR_INVALID, "%s: series '%s' needs the rtt and os fits of '%s' "
                           "and '%s' (stat '%s'; lopbench --ops rdmaw,mcast): no %s fit of '%s'",
                           set->path, LOP_MCAST_SERIES, LOP_MCAST_SERIES, LOP_MCAST_ANSWERS,
                           stat, quantity[i], series[i]);
    for (int i = 0; i < 4; i++) {
        lop->pmin = fmax(lop->pmin, (*fit[i])->pmin);
        lop->pmax = fmin(lop->pmax, (*fit[i])->pmax);
    }
    return LOP_OK;
}

lop_status_t lop_lop_from_set(const lop_paramset_t *set, const char *series, const char *stat,
                              lop_lop_t *lop)
{
    char list[80];
    memset(lop, 0, sizeof *lop);
    if (strcmp(series, LOP_MCAST_SERIES) == 0)
        return lop_err(LOP_ERR_INVALID, "%s: series '%s' is a multicast, priced into rgm's "
                       "release: name the barrier's series (e.g. rdmaw-inline)", set->path, series);
    lop->rtt = lop_paramset_find(set, series, "rtt", stat);
    lop->os = lop_paramset_find(set, series, "os", stat);
    if (!lop->rtt || !lop->os)
        return lop_err(LOP_ERR_INVALID, "%s: no %s fit for series '%s' stat '%s'", set->path,
                       lop->rtt ? "os" : "rtt", series, stat);
    list_series(series, list, sizeof list);
    lop->os_list = lop_paramset_find(set, list, "os", stat);
    lop->orecv = lop_paramset_find(set, series, "or", stat);
    lop->pmin = fmax(lop->rtt->pmin, lop->os->pmin);
    lop->pmax = fmin(lop->rtt->pmax, lop->os->pmax);
    return LOP_OK;
}

double lop_lop_o(const lop_lop_t *lop, double p)
{
    return lop_fit_eval(lop->os, p);
}

double lop_lop_L(const lop_lop_t *lop, double p)
{
    return lop_latency(lop_fit_eval(lop->rtt, p), lop_fit_eval(lop->os, p),
                       lop_fit_eval(lop->os, 1));
}

double lop_lop_Llist(const lop_lop_t *lop, double p)
{
    if (!lop->os_list)
        return NAN;
    return lop_fit_eval(lop->rtt, p) / 2 -
           (p * lop_fit_eval(lop->os_list, p) + lop_fit_eval(lop->os_list, 1));
}

double lop_lop_omcast(const lop_lop_t *lop, double p)
{
    return lop->mc_os ? lop_fit_eval(lop->mc_os, p) : NAN;
}

double lop_lop_Lmcast(const lop_lop_t *lop, double p)
{
    if (!lop->mc_rtt)
        return NAN;
    double L_answer = lop_latency(lop_fit_eval(lop->ans_rtt, p), lop_fit_eval(lop->ans_os, p),
                                  lop_fit_eval(lop->ans_os, 1));
    return p * lop_fit_eval(lop->mc_rtt, p) - lop_lop_omcast(lop, p) -
           lop_fit_eval(lop->ans_os, 1) - p * L_answer;
}

int lop_lop_in_range(const lop_lop_t *lop, double p)
{
    return p >= lop->pmin && p <= lop->pmax;
}
