/*
 * mode_best.c - lopredict --best: per P and model the algorithm and n with
 * the lowest predicted time, and the runners-up within its interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lopredict.h"
#include "rows.h"
#include "work.h"

/* us is the winner's time; tie lists the runners-up whose interval overlaps
 * the winner's ("tie within uncertainty"), cheapest first, as alg or alg:n. */
static const lop_out_col_t best_cols[] = {
    {"p", LOP_OUT_INT, 0},     {"model", LOP_OUT_STR, 0}, {"alg", LOP_OUT_STR, 0},
    {"n", LOP_OUT_INT, 0},     {"us", LOP_OUT_NUM, 0},    {"lo_us", LOP_OUT_NUM, 0},
    {"hi_us", LOP_OUT_NUM, 0}, {"tie", LOP_OUT_STR, 0},   ROWS_FLAGS_COL,
};

/* What --best ranks: the closed form, or with per-pair costs the simulated
 * time (undefined for a cost-only barrier, which has no schedule). */
static lop_status_t best_time(const lopredict_opts_t *o, lopredict_run_t *r,
                              const barrier_alg_t *a, int model, uint32_t n, long p,
                              predict_time_t *v)
{
    int logp = model == MODEL_LOGP;
    if (!r->have_pairs)
        return predict_time(&r->pred, logp ? PREDICT_LOGP : PREDICT_LOP, a, n, (uint32_t)p, NULL,
                            v);
    *v = (predict_time_t){.us = NAN, .lo_us = NAN, .hi_us = NAN};
    if (a->flags & BARRIER_COST_ONLY)
        return LOP_OK;
    sched_t s;
    lop_status_t st = work_sched_build(o, r, a, n, p, 1, &s);
    if (st)
        return st;
    st = work_predict_time(r, logp ? PREDICT_SIM_LOGP : PREDICT_SIM_LOP, a, n, p, &s, v);
    sched_free(&s);
    return st;
}

/* One candidate of --best: an algorithm, its n and its predicted time. */
typedef struct {
    const barrier_alg_t *alg;
    uint32_t n;
    size_t order; /* in --alg and n order: equal times keep it */
    predict_time_t v;
} cand_t;

/* Valid times first, cheapest first; equal ones (and invalid ones) in order. */
static int cand_cmp(const void *a, const void *b)
{
    const cand_t *x = a, *y = b;
    int bx = predict_invalid(x->v.us) != NULL, by = predict_invalid(y->v.us) != NULL;
    if (bx != by)
        return bx - by;
    if (!bx && x->v.us != y->v.us)
        return (x->v.us > y->v.us) - (x->v.us < y->v.us);
    return (x->order > y->order) - (x->order < y->order);
}

/* Every candidate's time at P under 'model', sorted by cand_cmp. */
static lop_status_t best_candidates(const lopredict_opts_t *o, lopredict_run_t *r,
                                    const barrier_alg_t *const *algs, size_t n_algs, int model,
                                    long p, cand_t *c, size_t *n_c)
{
    lop_status_t st = LOP_OK;
    *n_c = 0;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < work_best_n_count(o, algs[a]) && !st; k++) {
            cand_t *x = &c[*n_c];
            x->order = (*n_c)++;
            x->alg = algs[a];
            x->n = work_best_n_value(o, algs[a], k);
            st = best_time(o, r, x->alg, model, x->n, p, &x->v);
        }
    qsort(c, *n_c, sizeof *c, cand_cmp);
    return st;
}

/* Why no candidate has a time: "3 infinite, 2 negative" ('none' when no candidate). */
static void best_why_none(const cand_t *c, size_t n_c, char *buf, size_t len)
{
    static const char *const word[] = {"negative", "infinite", "undefined"};
    buf[0] = '\0';
    for (size_t w = 0; w < COUNT(word); w++) {
        size_t k = 0, used = strlen(buf);
        for (size_t i = 0; i < n_c; i++)
            k += strcmp(predict_invalid(c[i].v.us), word[w]) == 0;
        if (k)
            snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "", k, word[w]);
    }
}

/* The row when no candidate has a valid time: say so rather than print a
 * made-up winner. */
static lop_status_t best_none_row(lop_out_t *t, const cand_t *c, size_t n_c, int model, long p)
{
    rows_flags_t f = {0};
    char why[128];
    best_why_none(c, n_c, why, sizeof why);
    fprintf(stderr, "%s: --best: no candidate has a valid %s time at P = %ld (%s)\n",
            LOPREDICT_PROG, rows_model_name(model), p, why);
    lop_out_empty(t);
    lop_out_empty(t);
    rows_time_out(t, &f, "us", &(predict_time_t){.us = NAN, .lo_us = NAN, .hi_us = NAN,
                                                  .extrapolated = n_c && c[0].v.extrapolated});
    lop_out_empty(t);
    lop_out_str(t, f.text);
    return lop_out_row(t);
}

/* The winner (or, when no candidate has a valid time, a row saying so and
 * *none set) and the runners-up within its interval. */
static lop_status_t best_row(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                             const barrier_alg_t *const *algs, size_t n_algs, cand_t *c,
                             int model, long p, int *none)
{
    size_t n_c;
    char tie[1024] = "";
    rows_flags_t f = {0};
    lop_status_t st = best_candidates(o, r, algs, n_algs, model, p, c, &n_c);
    if (st)
        return st;
    int valid = n_c > 0 && !predict_invalid(c[0].v.us);
    for (size_t i = 1; valid && i < n_c && !predict_invalid(c[i].v.us); i++) {
        size_t len = strlen(tie);
        if (predict_overlap(&c[0].v, &c[i].v))
            snprintf(tie + len, sizeof tie - len, "%s%s%s%.0u", len ? ";" : "", c[i].alg->name,
                     c[i].alg->takes_n ? ":" : "", c[i].alg->takes_n ? c[i].n : 0);
    }
    lop_out_int(t, p);
    lop_out_str(t, rows_model_name(model));
    if (!valid) {
        *none = 1;
        return best_none_row(t, c, n_c, model, p);
    }
    lop_out_str(t, c[0].alg->name);
    rows_n_out(t, c[0].alg, c[0].n);
    rows_time_out(t, &f, "us", &c[0].v);
    lop_out_str(t, tie);
    lop_out_str(t, f.text);
    return lop_out_row(t);
}

/* Every row of the table, and the notes around them. */
static lop_status_t best_rows(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                              const barrier_alg_t *const *algs, size_t n_algs, cand_t *c,
                              int *none)
{
    lop_status_t st = LOP_OK;
    if (r->have_pairs)
        st = lop_out_comment(t, "us: simulated LogP times on the per-pair costs");
    for (size_t i = 0; i < r->n_p && !st; i++)
        for (int model = MODEL_LOGP; model <= MODEL_LOP && !st; model <<= 1)
            if (o->models & model)
                st = best_row(o, r, t, algs, n_algs, c, model, r->p[i], none);
    if (st == LOP_OK && r->pred.closed)
        st = lop_out_comment(t, "tie: runners-up whose %.0f %% interval overlaps the "
                             "winner's (tie within uncertainty)", 100 * o->uncert.level);
    return st;
}

/* Exit status 1 (*none) when at some P and model no candidate had a valid
 * time (every one negative, infinite or undefined): the row says so. */
lop_status_t mode_best_run(const lopredict_opts_t *o, lopredict_run_t *r, int *none)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = work_algs_select(o, o->alg_all, algs), n_cand = 0;
    for (size_t a = 0; a < n_algs; a++)
        n_cand += work_best_n_count(o, algs[a]);
    cand_t *c = lop_calloc(n_cand ? n_cand : 1, sizeof *c);
    lop_out_t t;
    if (!c)
        return LOP_ERR_NOMEM;
    lop_status_t st = rows_table_begin(&t, o, r, best_cols, COUNT(best_cols));
    if (st == LOP_OK) {
        st = best_rows(o, r, &t, algs, n_algs, c, none);
        lop_status_t end = lop_out_end(&t);
        st = st ? st : end;
    }
    free(c);
    return st;
}
