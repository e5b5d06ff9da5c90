/* params.c - lopredict's parameter set, LogP parameters and predictor (params.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt_params.h"
#include "params.h"

/* The shipped set: $LOP_DATA_DIR/mozart-2005/params.csv, else beside the
 * executable (bin/../data, or bin/../share/lop when installed), else ./data. */
static const char *params_default_path(char *buf, size_t len)
{
    static const char *const beside[] = {"../data", "../share/lop"};
    const char *env = getenv("LOP_DATA_DIR");
    char exe[PATH_MAX];
    if (env && *env) {
        snprintf(buf, len, "%s/mozart-2005/params.csv", env);
        return buf;
    }
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? memrchr(exe, '/', (size_t)k) : NULL;
    for (size_t i = 0; slash && i < COUNT(beside); i++) {
        *slash = '\0';
        snprintf(buf, len, "%s/%s/mozart-2005/params.csv", exe, beside[i]);
        char *real = realpath(buf, NULL);
        if (real && strlen(real) < len)
            strcpy(buf, real);
        free(real);
        if (access(buf, R_OK) == 0)
            return buf;
    }
    snprintf(buf, len, "data/mozart-2005/params.csv");
    return buf;
}

/* Per-pair costs give every LogP parameter (params_logp_setup). */
lop_status_t params_set_load(const lopredict_opts_t *o, lopredict_run_t *r)
{
    int per_pair = o->pairs_opts.costs || o->pairs_opts.topology;
    int logp_defaults = !per_pair && (isnan(o->L) || isnan(o->os) || isnan(o->or));
    if (!(o->models & MODEL_LOP) && !logp_defaults && !o->params)
        return LOP_OK;
    r->params = o->params ? o->params : params_default_path(r->params_buf, sizeof r->params_buf);
    lop_status_t st = lop_fmt_params_read(r->params, &r->set);
    if (st)
        return st;
    r->have_set = 1;
    if (o->measured && !o->series_named)
        return LOP_OK; /* the series follows each row's executor */
    st = lop_view_from_set(&r->set, r->series, o->stat, &r->lop);
    st = st ? st : lop_view_mcast_from_set(&r->set, o->stat, &r->lop);
    r->cost.lop = st ? NULL : &r->lop;
    return st;
}

/* The options, else the set at p = 1 (thesis 2.3.7: t_1:1).  With per-pair
 * costs: L and o of the leading ranks that all cost the same (the closed
 * forms' machine, pairs_uniform_p), o_r that o unless --or gives it (LogP
 * has one o), never a parameter set's. */
void params_logp_setup(const lopredict_opts_t *o, lopredict_run_t *r)
{
    double pair_o, pair_L;
    if (!r->have_pairs) {
        /* without a set (--measured: set per row) the given values, NaN where none */
        predict_logp(r->cost.lop, o->L, o->os, o->or, o->g, &r->cost.logp);
        return;
    }
    r->uniform_p = pairs_uniform_p(&r->pairs, &pair_o, &pair_L);
    predict_logp(NULL, pair_L, pair_o, isnan(o->or) ? pair_o : o->or, o->g, &r->cost.logp);
}

/* On the per-pair costs when given, each receive then charged its own
 * pair's o unless --or gave o_r. */
sched_sim_t params_sim_get(const lopredict_opts_t *o, lopredict_run_t *r, int model)
{
    sched_sim_t par = {model == MODEL_LOGP ? SCHED_SIM_LOGP : SCHED_SIM_LOP, &r->cost,
                       o->lop_arg, r->have_pairs ? &r->pairs : NULL, o->recv_order,
                       r->have_pairs && isnan(o->or)};
    return par;
}

/* Draws of the fits of the series, if they have a covariance. */
lop_status_t params_pred_setup(const lopredict_opts_t *o, lopredict_run_t *r)
{
    sched_sim_t sim = params_sim_get(o, r, MODEL_LOGP);
    if (r->have_pred && strcmp(r->pred_series, r->series) == 0)
        return LOP_OK;
    if (r->have_pred)
        predict_free(&r->pred);
    r->have_pred = 0;
    lop_status_t st = predict_init(&r->pred, &r->cost, o->L, o->os, o->or, &sim, &o->uncert,
                                   o->sim_draws);
    r->have_pred = st == LOP_OK;
    snprintf(r->pred_series, sizeof r->pred_series, "%s", r->cost.lop ? r->series : "");
    return st;
}

/* LogP from the set at p = 1, and draws of the series' fits. */
lop_status_t params_series_use(const lopredict_opts_t *o, lopredict_run_t *r,
                               const char *series)
{
    if (strlen(series) >= sizeof r->series_buf)
        return lop_err(LOP_ERR_PARSE, "series '%.20s...' is longer than %zu characters", series,
                       sizeof r->series_buf - 1);
    snprintf(r->series_buf, sizeof r->series_buf, "%s", series);
    r->series = r->series_buf;
    /* no set read (--model logp with --L, --os, --or): the series is a label */
    lop_status_t st = r->have_set ? lop_view_from_set(&r->set, series, o->stat, &r->lop) : LOP_OK;
    st = st || !r->have_set ? st : lop_view_mcast_from_set(&r->set, o->stat, &r->lop);
    r->cost.lop = st || !r->have_set ? NULL : &r->lop;
    if (st == LOP_OK)
        params_logp_setup(o, r);
    return st ? st : params_pred_setup(o, r);
}

void params_extrapolation_warn(const lopredict_opts_t *o, const lopredict_run_t *r)
{
    const barrier_cost_t *c = &r->cost;
    if (!c->lop || c->lop_pmin > c->lop_pmax)
        return;
    if (c->lop_pmin < c->lop->pmin || c->lop_pmax > c->lop->pmax)
        fprintf(stderr,
                "%s: warning: LoP evaluates o(p), L(p) at p = %g..%g, outside the range "
                "%g..%g fitted for %s %s: extrapolated\n",
                LOPREDICT_PROG, c->lop_pmin, c->lop_pmax, c->lop->pmin, c->lop->pmax, r->series,
                o->stat);
}
