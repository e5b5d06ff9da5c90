/* fitout.c - the batch every lopfit file is written in, and params.csv
 * (fitout.h). */
#include "fitout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitter.h"

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
