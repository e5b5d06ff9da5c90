/* view.c - the LoP view of a parameter set: o(p), L(p) of one series, and a
 * measured multicast's (view.h). */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "<op>-list" for a series "<op>-<post>". */
static void list_series(const char *series, char *out, size_t len)
{
    const char *dash = strrchr(series, '-');
    int op_len = dash ? (int)(dash - series) : (int)strlen(series);
    snprintf(out, len, "%.*s-list", op_len, series);
}

lop_status_t lop_view_from_set(const lop_paramset_t *set, const char *series, const char *stat,
                               lop_view_t *view)
{
    char list[80];
    memset(view, 0, sizeof *view);
    if (strcmp(series, LOP_MCAST_SERIES) == 0)
        return lop_err(LOP_ERR_INVALID, "%s: series '%s' is a multicast, priced into rgm's "
                       "release: name the barrier's series (e.g. rdmaw-inline)", set->path, series);
    view->rtt = lop_paramset_find(set, series, "rtt", stat);
    view->os = lop_paramset_find(set, series, "os", stat);
    if (!view->rtt || !view->os)
        return lop_err(LOP_ERR_INVALID, "%s: no %s fit for series '%s' stat '%s'", set->path,
                       view->rtt ? "os" : "rtt", series, stat);
    list_series(series, list, sizeof list);
    view->os_list = lop_paramset_find(set, list, "os", stat);
    view->orecv = lop_paramset_find(set, series, "or", stat);
    view->prtt = lop_paramset_find(set, series, "prtt", stat);
    view->round = lop_paramset_find(set, series, "round", stat);
    view->exch = lop_paramset_find(set, series, "exch", stat);
    /* The ring's period is its mean round whatever the statistic: its rounds
     * follow each other, so their times add up to the run's, but ranks
     * in a pipeline can bunch them, and then a round's median is no period
     * (a ring of three of 10 nodes on 2 cores: median 8 us, mean 118 us). */
    view->ring = lop_paramset_find(set, series, "ring", "avg");
    view->pmin = fmax(view->rtt->pmin, view->os->pmin);
    view->pmax = fmin(view->rtt->pmax, view->os->pmax);
    return LOP_OK;
}

lop_status_t lop_view_mcast_from_set(const lop_paramset_t *set, const char *stat,
                                     lop_view_t *view)
{
    const lop_fit_t **fit[] = {&view->mc_rtt, &view->mc_os, &view->ans_rtt, &view->ans_os};
    const char *series[] = {LOP_MCAST_SERIES, LOP_MCAST_SERIES, LOP_MCAST_ANSWERS,
                            LOP_MCAST_ANSWERS};
    const char *quantity[] = {"rtt", "os", "rtt", "os"};
    for (int i = 0; i < 4; i++)
        *fit[i] = lop_paramset_find(set, series[i], quantity[i], stat);
    if (!view->mc_rtt && !view->mc_os) { /* no multicast: the answers' fits are not needed */
        view->ans_rtt = view->ans_os = NULL;
        return LOP_OK;
    }
    for (int i = 0; i < 4; i++)
        if (!*fit[i])
            return lop_err(LOP_ERR_INVALID, "%s: series '%s' needs the rtt and os fits of '%s' "
                           "and '%s' (stat '%s'; lopbench --ops rdmaw,mcast): no %s fit of '%s'",
                           set->path, LOP_MCAST_SERIES, LOP_MCAST_SERIES, LOP_MCAST_ANSWERS,
                           stat, quantity[i], series[i]);
    for (int i = 0; i < 4; i++) {
        view->pmin = fmax(view->pmin, (*fit[i])->pmin);
        view->pmax = fmin(view->pmax, (*fit[i])->pmax);
    }
    return LOP_OK;
}

double lop_view_o(const lop_view_t *view, double p)
{
    return lop_fit_eval(view->os, p);
}

double lop_view_L(const lop_view_t *view, double p)
{
    return lop_latency(lop_fit_eval(view->rtt, p), lop_fit_eval(view->os, p),
                       lop_fit_eval(view->os, 1));
}

double lop_view_Llist(const lop_view_t *view, double p)
{
    if (!view->os_list)
        return NAN;
    return lop_fit_eval(view->rtt, p) / 2 -
           (p * lop_fit_eval(view->os_list, p) + lop_fit_eval(view->os_list, 1));
}

double lop_view_omcast(const lop_view_t *view, double p)
{
    return view->mc_os ? lop_fit_eval(view->mc_os, p) : NAN;
}

double lop_view_Lmcast(const lop_view_t *view, double p)
{
    if (!view->mc_rtt)
        return NAN;
    double L_answer = lop_latency(lop_fit_eval(view->ans_rtt, p), lop_fit_eval(view->ans_os, p),
                                  lop_fit_eval(view->ans_os, 1));
    return p * lop_fit_eval(view->mc_rtt, p) - lop_view_omcast(view, p) -
           lop_fit_eval(view->ans_os, 1) - p * L_answer;
}

double lop_view_gap(const lop_view_t *view)
{
    const lop_fit_t *f = view->prtt;
    if (!f || !(f->pmax > f->pmin))
        return NAN;
    return (lop_fit_eval(f, f->pmax) - lop_fit_eval(f, f->pmin)) / (f->pmax - f->pmin);
}

/* Why the round fit has no knot that measures the bucket, or NULL. */
static const char *no_knot(const lop_fit_t *f)
{
    if (f->model != &lop_model_bucket)
        return "the round is a line";
    if (!(f->lambda[2] > f->lambda[1]))
        return "no slower peers beyond the knot (l3 <= l2)";
    if (!(f->lambda[3] <= f->pmax - 1))
        return "no measured peer beyond the knot";
    return NULL;
}

int lop_view_knot(const lop_view_t *view)
{
    return view->round && !no_knot(view->round);
}

const char *lop_view_no_burst(const lop_view_t *view)
{
    const lop_fit_t *f = view->round;
    if (!f)
        return "no round fit";
    const char *why = no_knot(f);
    if (!why)
        return NULL;
    if (!(f->pmax >= 2))
        return f->model == &lop_model_bucket ? why : "the round is a line over one peer";
    if (!view->exch)
        return f->model == &lop_model_bucket ? why : "the round is a line, and no exchange X(1)";
    if (!(lop_fit_eval(f, 1) < lop_fit_eval(view->exch, 1)))
        return "no knot in the round, and a round trip after idle T(1) no shorter than the "
               "exchange back to back X(1)";
    return NULL;
}

void lop_view_bucket(const lop_view_t *view, double *g_us, double *burst, double *t1_us)
{
    const lop_fit_t *f = view->round;
    int knot = lop_view_knot(view);
    *g_us = knot ? f->lambda[2] : NAN;
    *burst = knot ? f->lambda[3] : f->pmax;
    *t1_us = lop_fit_eval(f, 1);
}

int lop_view_in_range(const lop_view_t *view, double p)
{
    return p >= view->pmin && p <= view->pmax;
}
