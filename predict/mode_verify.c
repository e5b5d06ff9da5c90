/*
 * mode_verify.c - lopredict --verify: every selected schedule checked to be
 * a barrier, and its closed forms next to its simulation (exact or approx).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lopredict.h"
#include "rows.h"
#include "work.h"

typedef struct {
    int failed;              /* a schedule that is not a barrier */
    int approx[MAX_ALGS][2]; /* per selected algorithm and model: a closed form differed */
    char failures[2048];     /* why, one line each */
} verdict_t;

static const lop_out_col_t verify_cols[] = {
    {"alg", LOP_OUT_STR, 0},       {"n", LOP_OUT_INT, 0},      {"p", LOP_OUT_INT, 0},
    {"model", LOP_OUT_STR, 0},     {"rounds", LOP_OUT_INT, 0}, {"closed_us", LOP_OUT_NUM, 0},
    {"sim_us", LOP_OUT_NUM, 0},    {"diff_us", LOP_OUT_NUM, 0}, {"form", LOP_OUT_STR, 0},
    {"barrier", LOP_OUT_STR, 0},
};

/* Closed form of one model. */
static double closed_us(const lopredict_opts_t *o, lopredict_run_t *r, const barrier_alg_t *a,
                        int model, uint32_t n, long p)
{
    if (!(o->models & model))
        return NAN;
    return model == MODEL_LOGP ? a->logp_us(&r->cost, (uint32_t)p, n)
                               : a->lop_us(&r->cost, (uint32_t)p, n);
}

static lop_status_t verify_model(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                                 const sched_t *s, const barrier_alg_t *a, int model, int valid,
                                 int *approx)
{
    double closed = closed_us(o, r, a, model, s->n ? s->n : a->default_n, s->p), sim = NAN;
    if (valid && work_sched_simulate(o, r, s, model, &sim) != LOP_OK)
        sim = NAN;
    double diff = sim - closed;
    int exact = fabs(diff) <= 1e-9 * fmax(1, fabs(closed));
    *approx |= valid && !exact;
    lop_out_str(t, a->name);
    rows_n_out(t, a, s->n);
    lop_out_int(t, s->p);
    lop_out_str(t, rows_model_name(model));
    lop_out_int(t, s->n_steps);
    lop_out_num(t, closed);
    lop_out_num(t, sim);
    lop_out_num(t, diff);
    lop_out_str(t, !valid ? "" : exact ? "exact" : "approx");
    lop_out_str(t, valid ? "yes" : "NO");
    return lop_out_row(t);
}

static lop_status_t verify_one(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                               size_t ai, const barrier_alg_t *a, uint32_t n, long p,
                               verdict_t *v)
{
    sched_t s; /* its check's size was refused up front (work_p_list_check) */
    lop_status_t st = work_sched_build(o, r, a, n, p, 0, &s);
    if (st)
        return st;
    st = work_sched_check(o, &s);
    if (st != LOP_OK && st != LOP_ERR_INVALID) { /* trouble, not a verdict */
        sched_free(&s);
        return st;
    }
    int valid = st == LOP_OK;
    if (!valid) {
        size_t len = strlen(v->failures);
        snprintf(v->failures + len, sizeof v->failures - len, "%s\n", lop_errmsg());
        v->failed = 1;
    }
    st = LOP_OK;
    for (int model = MODEL_LOGP; model <= MODEL_LOP && !st; model <<= 1)
        if (o->models & model)
            st = verify_model(o, r, t, &s, a, model, valid, &v->approx[ai][model - 1]);
    sched_free(&s);
    return st;
}

/* After the table: why forms were approximate, and which schedules failed. */
static lop_status_t verify_notes(lop_out_t *t, const verdict_t *v,
                                 const barrier_alg_t *const *algs, size_t n_algs)
{
    lop_status_t st = LOP_OK;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (int m = 0; m < 2 && !st; m++)
            if (v->approx[a][m])
                st = lop_out_comment(t, "approx: %s %s: %s", algs[a]->name, m ? "LoP" : "LogP",
                                     m ? algs[a]->lop_note : algs[a]->logp_note);
    for (const char *line = v->failures; *line && !st; line += strcspn(line, "\n") + 1)
        st = lop_out_comment(t, "%.*s", (int)strcspn(line, "\n"), line);
    return st;
}

lop_status_t mode_verify_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = work_algs_select(o, 1, algs);
    verdict_t *v = lop_calloc(1, sizeof *v);
    lop_out_t t;
    if (!v)
        return LOP_ERR_NOMEM;
    lop_status_t st = rows_table_begin(&t, o, r, verify_cols, COUNT(verify_cols));
    if (st) {
        free(v);
        return st;
    }
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < work_n_count(o, algs[a]) && !st; k++)
            for (size_t i = 0; i < r->n_p && !st; i++)
                st = verify_one(o, r, &t, a, algs[a], work_n_value(o, algs[a], k), r->p[i], v);
    if (st == LOP_OK)
        st = verify_notes(&t, v, algs, n_algs);
    lop_status_t end = lop_out_end(&t);
    *failed = v->failed;
    free(v);
    return st ? st : end;
}
