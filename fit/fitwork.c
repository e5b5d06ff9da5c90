/*
 * fitwork.c - model shapes, the workspace of a fit and separable least
 * squares (fitwork.h; steps 1-3 of fitter.c's method).
 */
#define LOP_FITTER_PART
#include "fitwork.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>

#define LINEAR_TOL 1e-12     /* relative singular value cut of the linear solve */

/* ------------------------------------------------------------ model shapes */

/* The shape of 'model' from its parameter roles; 0 if the fitter cannot
 * search that many parameters. */
int fit_shape_of(const lop_model_t *model, fit_shape_t *s)
{
    memset(s, 0, sizeof *s);
    s->model = model;
    s->gauge = -1;
    for (int j = 0; j < model->n_params; j++) {
        switch (model->role[j]) {
        case LOP_PARAM_LINEAR:
            s->linear[s->n_linear++] = j;
            break;
        case LOP_PARAM_GAUGE:
            s->gauge = j;
            break;
        case LOP_PARAM_POLE:
        case LOP_PARAM_RATE:
        case LOP_PARAM_KNOT:
            if (s->n_search == MAX_SEARCH)
                return 0;
            s->search[s->n_search++] = (search_param_t){j, model->role[j]};
            break;
        }
    }
    return s->n_linear > 0;
}

int fit_n_free(const fit_shape_t *s)
{
    return s->model->n_params - (s->gauge >= 0);
}

int fit_feasible(const fit_shape_t *s, const double *lambda, double pmin, double pmax)
{
    const lop_model_t *model = s->model;
    for (int j = 0; j < model->n_params; j++)
        if (!isfinite(lambda[j]))
            return 0;
    if (!lop_model_poles_outside(model, lambda, pmin))
        return 0;
    for (int k = 0; k < s->n_search; k++) {
        double l = lambda[s->search[k].index];
        double offset = s->gauge >= 0 ? lambda[s->gauge] : 0.0;
        double e1 = l * (pmin - offset), e2 = l * (pmax - offset);
        if (s->search[k].kind == LOP_PARAM_RATE &&
            !(fmax(e1, e2) <= LOP_MODEL_EXP_MAX * (1 + 1e-9) &&
              fmin(e1, e2) >= LOP_MODEL_EXP_MIN * (1 + 1e-9)))
            return 0;
        if (s->search[k].kind == LOP_PARAM_KNOT && !(l >= pmin && l <= pmax))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ fit workspace */


void fit_work_free(fit_work_t *w)
{
    gsl_matrix_free(w->basis);
    gsl_vector_free(w->yv);
    gsl_vector_free(w->coef);
    gsl_vector_free(w->resid);
    gsl_matrix_free(w->coef_cov);
    if (w->lin)
        gsl_multifit_linear_free(w->lin);
    if (w->step)
        gsl_vector_free(w->step);
}

lop_status_t fit_work_init(fit_work_t *w, const fit_shape_t *s, const double *p, const double *y,
                           const double *sw, size_t n, double pmin, double pmax)
{
    memset(w, 0, sizeof *w);
    w->shape = s;
    w->p = p;
    w->y = y;
    w->sw = sw;
    w->n = n;
    w->pmin = pmin;
    w->pmax = pmax;
    w->rate_max = LOP_MODEL_EXP_MAX / (w->pmax - w->pmin);
    w->rate_min = -LOP_MODEL_EXP_MIN / (w->pmax - w->pmin);
    w->pole_max = LOP_MODEL_POLE_MAX * w->pmax;
    w->basis = gsl_matrix_alloc(n, (size_t)s->n_linear);
    w->yv = gsl_vector_alloc(n);
    w->coef = gsl_vector_alloc((size_t)s->n_linear);
    w->resid = gsl_vector_alloc(n);
    w->coef_cov = gsl_matrix_alloc((size_t)s->n_linear, (size_t)s->n_linear);
    w->lin = gsl_multifit_linear_alloc(n, (size_t)s->n_linear);
    w->step = s->n_search ? gsl_vector_alloc((size_t)s->n_search) : NULL;
    if (!w->basis || !w->yv || !w->coef || !w->resid || !w->coef_cov || !w->lin ||
        (s->n_search && !w->step)) {
        fit_work_free(w);
        return lop_err(LOP_ERR_NOMEM, "out of memory for a fit of %zu points", n);
    }
    for (size_t i = 0; i < n; i++)
        gsl_vector_set(w->yv, i, sw[i] * y[i]);
    return LOP_OK;
}

/* SSR of λ, by the model function itself. */
double fit_ssr_of(const fit_work_t *w, const double *lambda)
{
    double ssr = 0;
    for (size_t i = 0; i < w->n; i++) {
        double r = w->sw[i] * (w->y[i] - w->shape->model->eval(lambda, w->p[i]));
        ssr += r * r;
    }
    return ssr;
}

/* ------------------------------------------------- separable least squares */

/* The knot's coordinate is the logistic map of pmin..pmax: any z is a
 * breakpoint within the data, and the ends are approached, never passed. */
static double coord_to_lambda(const fit_work_t *w, lop_param_role_t kind, double z)
{
    if (kind == LOP_PARAM_POLE)
        return -w->pmin + LOP_MODEL_POLE_MIN + w->pole_max / (1 + exp(-fmax(z, -700.0)));
    if (kind == LOP_PARAM_KNOT)
        return w->pmin + (w->pmax - w->pmin) / (1 + exp(-fmax(z, -700.0)));
    double x = sinh(fmax(fmin(z, 700.0), -700.0)) / (w->pmax - w->pmin);
    double r = x > 0 ? w->rate_max : w->rate_min;
    return r * tanh(x / r);
}

double fit_coord_of(const fit_work_t *w, lop_param_role_t kind, double lambda)
{
    if (kind == LOP_PARAM_POLE) {
        double d = lambda + w->pmin - LOP_MODEL_POLE_MIN;
        return log(d / (w->pole_max - d));
    }
    if (kind == LOP_PARAM_KNOT)
        return log((lambda - w->pmin) / (w->pmax - lambda));
    double r = lambda > 0 ? w->rate_max : w->rate_min;
    return asinh(r * atanh(lambda / r) * (w->pmax - w->pmin));
}

/* Set the linear λ of 'lambda' to their least-squares values for the other
 * λ in it; returns the SSR (HUGE_SSR if the basis is not finite). */
static double solve_linear(fit_work_t *w, double *lambda)
{
    const fit_shape_t *s = w->shape;
    double unit[LOP_MODEL_MAX_PARAMS];
    w->n_evals++;
    for (int j = 0; j < s->n_linear; j++) {
        memcpy(unit, lambda, sizeof unit);
        for (int k = 0; k < s->n_linear; k++)
            unit[s->linear[k]] = k == j;
        for (size_t i = 0; i < w->n; i++) {
            double b = w->sw[i] * s->model->eval(unit, w->p[i]);
            if (!isfinite(b))
                return HUGE_SSR;
            gsl_matrix_set(w->basis, i, (size_t)j, b);
        }
    }
    double chisq, ssr;
    size_t rank;
    if (gsl_multifit_linear_tsvd(w->basis, w->yv, LINEAR_TOL, w->coef, w->coef_cov, &chisq,
                                 &rank, w->lin) != GSL_SUCCESS)
        return HUGE_SSR;
    for (int j = 0; j < s->n_linear; j++)
        lambda[s->linear[j]] = gsl_vector_get(w->coef, (size_t)j);
    /* GSL's chisq ignores the truncation: take the residual of the solution */
    gsl_vector_memcpy(w->resid, w->yv);
    gsl_blas_dgemv(CblasNoTrans, -1.0, w->basis, w->coef, 1.0, w->resid);
    gsl_blas_ddot(w->resid, w->resid, &ssr);
    return isfinite(ssr) ? ssr : HUGE_SSR;
}

/* All λ for search coordinates z: searched ones from z, the gauge at pmin,
 * linear ones solved; returns the SSR. */
double fit_profile_ssr(fit_work_t *w, const double *z, double *lambda)
{
    const fit_shape_t *s = w->shape;
    memset(lambda, 0, LOP_MODEL_MAX_PARAMS * sizeof *lambda);
    if (s->gauge >= 0)
        lambda[s->gauge] = w->pmin;
    for (int k = 0; k < s->n_search; k++)
        lambda[s->search[k].index] = coord_to_lambda(w, s->search[k].kind, z[k]);
    return solve_linear(w, lambda);
}
