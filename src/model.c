/* model.c - LoP model functions, parameter sets, L(p) (model.h). */
#include "model.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* ------------------------------------------------------- model functions */

/* Thesis 2.3.6.1.1: pipeline start-up + processing + network saturation. */
static double eval_rtt(const double *l, double p)
{
    return l[0] / (l[1] + p) + l[2] + l[3] * (1.0 - exp(l[4] * (p - l[5])));
}

/* Thesis 2.3.6.1.2: a pipeline start-up function. */
static double eval_ov(const double *l, double p)
{
    return l[0] + l[1] / (l[2] + p);
}

/* LogP's view: a constant plus a gap per message (thesis 2.3.3). */
static double eval_linear(const double *l, double p)
{
    return l[0] + l[1] * p;
}

const lop_model_t lop_model_rtt = {"rtt", 6, "l1/(l2+p) + l3 + l4*(1-exp(l5*(p-l6)))", eval_rtt};
const lop_model_t lop_model_ov = {"ov", 3, "l1 + l2/(l3+p)", eval_ov};
const lop_model_t lop_model_linear = {"linear", 2, "l1 + l2*p", eval_linear};

static const lop_model_t *const all_models[] = {&lop_model_rtt, &lop_model_ov, &lop_model_linear};

const lop_model_t *lop_model_find(const char *name)
{
    for (size_t i = 0; i < sizeof all_models / sizeof *all_models; i++)
        if (strcmp(all_models[i]->name, name) == 0)
            return all_models[i];
    return NULL;
}

const lop_model_t *lop_model_for_quantity(const char *quantity)
{
    if (strcmp(quantity, "rtt") == 0)
        return &lop_model_rtt;
    if (strcmp(quantity, "os") == 0 || strcmp(quantity, "or") == 0)
        return &lop_model_ov;
    return NULL;
}

double lop_fit_eval(const lop_fit_t *fit, double p)
{
    return fit->model->eval(fit->lambda, p);
}

/* ---------------------------------------------------------- parameter sets */

const char lop_paramset_header[] =
    "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,"
    "se1,se2,se3,se4,se5,se6";

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

static lop_status_t read_fit(const lop_csv_t *csv, size_t row, const param_columns_t *c,
                             lop_fit_t *fit)
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
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        st = read_fit(csv, r, &cols, &set->fit[r]);
    set->n = csv->n_rows;
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
    for (size_t i = 0; i < set->n; i++) {
        const lop_fit_t *f = &set->fit[i];
        if (!strcmp(f->series, series) && !strcmp(f->quantity, quantity) &&
            !strcmp(f->stat, stat))
            return f;
    }
    return NULL;
}

/* ------------------------------------------------------------------- L(p) */

/* "<op>-list" for a series "<op>-<post>". */
static void list_series(const char *series, char *out, size_t len)
{
    const char *dash = strrchr(series, '-');
    int op_len = dash ? (int)(dash - series) : (int)strlen(series);
    snprintf(out, len, "%.*s-list", op_len, series);
}

lop_status_t lop_lop_from_set(const lop_paramset_t *set, const char *series, const char *stat,
                              lop_lop_t *lop)
{
    char list[80];
    memset(lop, 0, sizeof *lop);
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
    return lop_fit_eval(lop->rtt, p) / 2 - (lop_fit_eval(lop->os, p) + lop_fit_eval(lop->os, 1));
}

double lop_lop_Llist(const lop_lop_t *lop, double p)
{
    if (!lop->os_list)
        return NAN;
    return lop_fit_eval(lop->rtt, p) / 2 -
           (p * lop_fit_eval(lop->os_list, p) + lop_fit_eval(lop->os_list, 1));
}

int lop_lop_in_range(const lop_lop_t *lop, double p)
{
    return p >= lop->pmin && p <= lop->pmax;
}
