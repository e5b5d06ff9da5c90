/*
 * fitter.c - global least-squares fits of the LoP model functions (fitter.h).
 *
 * Thesis 2.3.6.1.3 minimises d(λ) = Σ_m (y(m) − t(p_m; λ))² with Nelder-Mead
 * over all λ from hand-tuned start values, and reports local minima that
 * depend on them and hours per fit.  This driver makes the same fit global:
 *
 * 1. Separable least squares (variable projection, Golub & Pereyra 1973).
 *    Which λ are linear, searched or fixed is the model descriptor's
 *    (lop_model_t.role, src/model.c); fit_shape_of() reads nothing else.
 *    Each model is linear in some λ once the others are fixed: t_rtt in
 *    λ1, λ3, λ4 given λ2, λ5, λ6 (2.3.6.1.1), t_ov in λ1, λ2 given λ3
 *    (2.3.6.1.2), the LogP line in both of its λ (2.3.3).  Nelder-Mead
 *    (gsl_multimin_fminimizer_nmsimplex2) searches only the other λ; at each
 *    of its points the linear λ are the exact least-squares solution (GSL
 *    truncated SVD), with basis columns computed by the model function itself
 *    with one linear λ set to 1 and the others to 0, so no formula is written
 *    twice.  That is a 2-dimensional search for rtt, 1 for ov, none for the line.
 * 2. λ6 is fixed to pmin: λ3 + λ4·(1 − e^{λ5(p−λ6)}) equals
 *    λ3' + λ4'·(1 − e^{λ5(p−λ6')}) with λ4' = λ4·e^{λ5(λ6'−λ6)} and
 *    λ3' = λ3 + λ4 − λ4' for every λ6', so λ6 cannot be estimated.
 * 3. Constraints as bounded coordinates z of the search:
 *    (POLE_MIN etc. are model.h's LOP_MODEL_POLE_MIN etc.)
 *      pole  λ = −pmin + POLE_MIN + POLE_MAX·pmax/(1 + e^−z): the pole of λ1/(λ2+p)
 *            stays left of pmin, log-scaled search up to a far cap
 *      rate  λ5 = R·tanh(x/R), x = sinh(z)/(pmax−pmin), with λ6 = pmin: the
 *            exponent λ5·(p−λ6) changes by about z over the data for small z,
 *            log-scaled beyond, and stays within EXP_MIN..EXP_MAX on the data
 *            (R = EXP_MAX/(pmax−pmin) for λ5 > 0, −EXP_MIN/(pmax−pmin) below),
 *            so e^{...} never overflows.
 *      knot  λ = pmin + (pmax−pmin)/(1 + e^−z): the breakpoint of the bucket
 *            (scenario 2's round) stays within the data's p range.
 * 4. Start points: the profile SSR is scanned on a grid over pole distances
 *    (scaled by pmin, pmax), exponent changes over the data's p range and
 *    knots across it;
 *    its local minima, best first, are the first half of the starts, random
 *    points from a seeded GSL generator the rest.  Afterwards the simplex is
 *    restarted from the best point until it stops improving.
 *    A long series (more than opts.search_points = 512 points) is searched
 *    on a summary of 512 points that keeps the curve's shape (summary.h:
 *    runs of neighbours in p as their weighted means, the first points as
 *    they are), the starts ranked on the points the refinement uses; the
 *    best point is refined by fresh simplices on all points, or beyond
 *    32·512 points on a summary of that many, where LM (5.) then runs
 *    first, so that LM on all points starts next to their optimum.
 * 5. A Levenberg-Marquardt polish (gsl_multifit_nlinear, trust region, central
 *    difference Jacobian) of all free λ, kept only if it lowers the SSR; its
 *    iterations end as gsl_multifit_nlinear_driver's do or at the first
 *    iterate outside the constraints (the last one inside is the result),
 *    and for a long series once one lowers the SSR by less than 1e-12 of it.
 * 6. Covariance and standard errors from the Jacobian J at the optimum:
 *    cov = σ²·(JᵀJ)⁻¹ with σ² = SSR/(n − k), k free parameters, computed from
 *    the SVD of J with unit-norm columns (the same matrix as
 *    gsl_multifit_nlinear_covar's, scaled by σ²; the SVD also gives the
 *    condition number for the weak flags).  A parameter with a component in
 *    an exactly singular direction (or no effect at all) gets NaN and the
 *    covariance is unknown; a nearly singular one gets its honest, huge value
 *    and the ILLCOND flag.  The knot is an ordinary parameter here: the
 *    model's derivative in it, (λ2 − λ3) at every p beyond it, is a step
 *    in p, but between two data points (where a fitted knot lies unless
 *    the data put it exactly on one) the fit is smooth in it.
 * 7. Model selection: every member of a nested family fitted as above,
 *    ranked by AICc or BIC (fitter.h gives the formulas and conventions).
 *
 * Steps 1-3 are in fitwork.c, step 4 in search.c, steps 5 and 6 in
 * polish.c (fitwork.h joins them), step 7 in select.c (select.h); the
 * driver and the long series here.
 */
#define LOP_FITTER_PART
#include "fitwork.h"
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

const lop_fitter_opts_t lop_fitter_defaults = {1, 16, LOP_WEIGHT_NONE, LOP_FITTER_SEARCH_POINTS};

#define POLISH_BINS 32       /* a long series is refined on a summary of 32 times the
                                search's points before LM runs on all of them */
#define LONG_SSR_RTOL 1e-12  /* ... and LM ends there when an iteration lowers the SSR by
                                less than this fraction of it */

/* ------------------------------------------------------------- the points */

/* The points as the fit uses them. */
typedef struct {
    size_t *order;     /* indices sorted by p */
    double *sw;        /* sqrt of each point's weight: 1, or 1/y (relative) */
    double pmin, pmax; /* the range of p */
} points_t;

typedef struct {
    double p;
    size_t i;
} p_index_t;

static int cmp_p_index(const void *a, const void *b)
{
    double x = ((const p_index_t *)a)->p, y = ((const p_index_t *)b)->p;
    return (x > y) - (x < y);
}

static void points_free(points_t *pt)
{
    free(pt->order);
    free(pt->sw);
}

/* The order of the points by p, their range, and no p twice. */
static lop_status_t sort_points(const double *p, size_t n, points_t *pt)
{
    p_index_t *sorted = lop_calloc(n, sizeof *sorted);
    if (!sorted)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        sorted[i] = (p_index_t){p[i], i};
    qsort(sorted, n, sizeof *sorted, cmp_p_index);
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < n; i++) {
        pt->order[i] = sorted[i].i;
        if (i > 0 && sorted[i].p == sorted[i - 1].p && st == LOP_OK)
            st = lop_err(LOP_ERR_INVALID, "p = %g occurs twice", sorted[i].p);
    }
    pt->pmin = sorted[0].p;
    pt->pmax = sorted[n - 1].p;
    free(sorted);
    return st;
}

/* Check the points, and give their order and weights; 'pt' is the caller's
 * to free, also on failure. */
static lop_status_t check_points(const lop_model_t *model, const double *p, const double *y,
                                 size_t n, lop_weight_t weight, points_t *pt)
{
    memset(pt, 0, sizeof *pt);
    if (n < (size_t)model->n_params)
        return lop_err(LOP_ERR_INVALID, "%zu points for the %d-parameter %s model", n,
                       model->n_params, model->name);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i]) || !isfinite(y[i]) || p[i] < 1)
            return lop_err(LOP_ERR_INVALID, "point %zu: need finite p >= 1 and finite y", i + 1);
    pt->order = lop_calloc(n, sizeof *pt->order);
    pt->sw = lop_calloc(n, sizeof *pt->sw);
    if (!pt->order || !pt->sw)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) { /* relative: σ_i ∝ y_i, weight 1/y_i² */
        if (weight == LOP_WEIGHT_REL && !(y[i] > 0))
            return lop_err(LOP_ERR_INVALID, "point %zu: y = %g, relative weights 1/y^2 need "
                           "y > 0 (lopfit --weight none fits it)", i + 1, y[i]);
        pt->sw[i] = weight == LOP_WEIGHT_REL ? 1.0 / y[i] : 1.0;
    }
    return sort_points(p, n, pt);
}

/* --------------------------------------------------- long series (summary.h) */

/* The summary of the points of 'from' (in the order 'order', NULL: sorted)
 * in at most 'bins' points, and a workspace over it in the same search
 * coordinates; both freed by summary_free. */
static lop_status_t summary_work(const fit_work_t *from, const size_t *order, size_t bins,
                                 lop_summary_t *sum, fit_work_t *w)
{
    lop_status_t st = lop_summary_make(from->p, from->y, from->sw, order, from->n, bins, sum);
    if (st == LOP_OK)
        st = fit_work_init(w, from->shape, sum->p, sum->y, sum->sw, sum->n, from->pmin,
                           from->pmax);
    if (st != LOP_OK)
        lop_summary_free(sum);
    return st;
}

static void summary_free(lop_summary_t *sum, fit_work_t *w, lop_fitter_stats_t *st)
{
    st->n_evals += w->n_evals;
    fit_work_free(w);
    lop_summary_free(sum);
}

/* The search's best z refined on the points 'fine' (a finer summary of all
 * points 'w', or w itself) by fresh simplices, bounded as the search's
 * restarts are; then, on a summary, LM: λ is the better on all points of
 * LM's result and of the linear λ solved on all points at the simplex's z
 * (that one when the optimum lies on a bound, where LM stops at once). */
static lop_status_t refine(fit_work_t *fine, fit_work_t *w, double *z, double *lambda,
                           lop_fitter_stats_t *st)
{
    double at_z[LOP_MODEL_MAX_PARAMS], ssr = fit_profile_ssr(fine, z, lambda);
    lop_status_t status = fit_search_refine(fine, z, &ssr, st);
    if (status != LOP_OK)
        return status;
    fit_profile_ssr(w, z, at_z);
    if (fine != w) {
        ssr = fit_profile_ssr(fine, z, lambda);
        status = fit_polish(fine, LONG_SSR_RTOL, lambda, &ssr);
    }
    if (fine == w || fit_ssr_of(w, at_z) <= fit_ssr_of(w, lambda))
        memcpy(lambda, at_z, sizeof at_z);
    return status;
}

/* λ of a long series (more points than opts->search_points) to start the LM
 * polish on all points from: the global search on a summary of
 * search_points points, refined on all points, or with more than
 * POLISH_BINS·search_points points on a summary of that many, so that LM on
 * all points starts next to their optimum (from the search's best point it
 * took 59 iterations of a second on 10^6 points, most of them for the 8th
 * digit of the SSR). */
static lop_status_t search_long(fit_work_t *w, const points_t *pt, const lop_fitter_opts_t *opts,
                                double *lambda, lop_fitter_stats_t *st)
{
    lop_summary_t fine_sum = {0}, coarse_sum;
    fit_work_t fine_work, coarse, *fine = w; /* a finer summary, or all points */
    double z[MAX_SEARCH] = {0}, ssr;
    lop_status_t status = LOP_OK;
    if (w->n > POLISH_BINS * opts->search_points) {
        status = summary_work(w, pt->order, POLISH_BINS * opts->search_points, &fine_sum,
                              &fine_work);
        fine = &fine_work;
    }
    if (status == LOP_OK)
        status = summary_work(fine, fine == w ? pt->order : NULL, opts->search_points,
                              &coarse_sum, &coarse);
    if (status == LOP_OK) {
        status = fit_search_global(&coarse, fine, opts, z, &ssr, st);
        summary_free(&coarse_sum, &coarse, st);
    }
    if (status == LOP_OK)
        status = refine(fine, w, z, lambda, st);
    if (fine != w && fine_sum.p)
        summary_free(&fine_sum, &fine_work, st);
    return status;
}

/* ------------------------------------------------------------------ driver */

/* Everything but the errors, which fit_polish_and_errors filled in. */
static void fill_fit(const fit_work_t *w, const double *lambda, double ssr, lop_fit_t *fit)
{
    double mean = 0, sum_w = 0, sst = 0; /* weighted as the SSR is */
    for (size_t i = 0; i < w->n; i++) {
        mean += w->sw[i] * w->sw[i] * w->y[i];
        sum_w += w->sw[i] * w->sw[i];
    }
    mean /= sum_w;
    /* Constant data have no variance to explain (R^2 undefined): summed, the
     * weighted mean is off by rounding and would make one, and R^2 of an
     * exact fit of ten equal points came out 0.925. */
    int constant = 1;
    for (size_t i = 1; i < w->n; i++)
        constant &= w->y[i] == w->y[0];
    for (size_t i = 0; i < w->n && !constant; i++)
        sst += w->sw[i] * w->sw[i] * (w->y[i] - mean) * (w->y[i] - mean);
    fit->model = w->shape->model;
    fit->n = w->n;
    fit->pmin = w->pmin;
    fit->pmax = w->pmax;
    memcpy(fit->lambda, lambda, sizeof fit->lambda);
    fit->ssr = ssr;
    fit->rmse = sqrt(ssr / (double)w->n);
    fit->r2 = sst > 0 ? 1 - ssr / sst : NAN;
}

lop_status_t lop_fitter_run(const lop_model_t *model, const double *p, const double *y, size_t n,
                            const lop_fitter_opts_t *opts, lop_fit_t *fit,
                            lop_fitter_stats_t *stats)
{
    fit_shape_t shape;
    lop_fitter_stats_t st = {0};
    fit_work_t w;
    points_t pt;
    lop_fit_t result;
    double z[MAX_SEARCH] = {0}, lambda[LOP_MODEL_MAX_PARAMS], ssr;
    if (!fit_shape_of(model, &shape))
        return lop_err(LOP_ERR_UNSUPPORTED, "no fitter for model '%s'", model->name);
    lop_status_t status = check_points(model, p, y, n, opts->weight, &pt);
    if (status == LOP_OK)
        status = fit_work_init(&w, &shape, p, y, pt.sw, n, pt.pmin, pt.pmax);
    if (status != LOP_OK) {
        points_free(&pt);
        return status;
    }
    result = *fit; /* keeps the caller's file, series, quantity, stat */
    gsl_error_handler_t *handler = gsl_set_error_handler_off();
    int is_long = shape.n_search > 0 && opts->search_points > 0 && n > opts->search_points;
    if (is_long) {
        status = search_long(&w, &pt, opts, lambda, &st);
    } else {
        if (shape.n_search > 0)
            status = fit_search_global(&w, &w, opts, z, &ssr, &st);
        fit_profile_ssr(&w, z, lambda);
    }
    if (status == LOP_OK) {
        ssr = fit_ssr_of(&w, lambda);
        status = fit_polish_and_errors(&w, is_long ? LONG_SSR_RTOL : 0, lambda, &ssr, &result,
                                       &st);
    }
    gsl_set_error_handler(handler);
    st.n_evals += w.n_evals;
    if (status == LOP_OK) {
        fill_fit(&w, lambda, ssr, &result);
        *fit = result;
    }
    if (status == LOP_OK && stats)
        *stats = st;
    fit_work_free(&w);
    points_free(&pt);
    return status;
}

int lop_fitter_feasible(const lop_model_t *model, const double *lambda, double pmin, double pmax)
{
    fit_shape_t s;
    return fit_shape_of(model, &s) && fit_feasible(&s, lambda, pmin, pmax);
}

/* ------------------------------------- what more data would fix weak flags */

lop_hint_t lop_fitter_hint(const lop_fit_t *fit)
{
    int k = lop_model_n_free(fit->model) + 1, any = 0, structural = (double)fit->n - k - 1 <= 0;
    for (int j = 0; j < fit->model->n_params; j++) {
        any |= fit->weak[j] != 0;
        structural |= (fit->weak[j] & (LOP_FIT_WEAK_SINGULAR | LOP_FIT_WEAK_ILLCOND)) != 0;
    }
    if (!any)
        return LOP_HINT_NONE;
    return structural ? LOP_HINT_MORE_P : LOP_HINT_MORE_REPS;
}

const char *lop_fitter_hint_name(lop_hint_t hint)
{
    static const char *const names[] = {"none", "more p values", "more repetitions"};
    return names[hint];
}
