/*
 * polish.c - the Levenberg-Marquardt polish of a fit and its errors
 * (fitwork.h; steps 5 and 6 of fitter.c's method): covariance, standard
 * errors and the weak flags.
 */
#define LOP_FITTER_PART
#include "fitwork.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>

#define LM_MAX_ITER 200
#define ILLCOND_MAX 1e6      /* condition number of the column-scaled Jacobian beyond
                                which a direction counts as undetermined */
#define ILLCOND_PART 0.1     /* a parameter is part of a direction if its component
                                of the (unit) singular vector exceeds this */

/* --------------------------------------------- Levenberg-Marquardt, errors */

/* λ from the free parameters x (all but the gauge, which is pmin). */
static void free_to_lambda(const fit_work_t *w, const gsl_vector *x, double *lambda)
{
    memset(lambda, 0, LOP_MODEL_MAX_PARAMS * sizeof *lambda);
    for (int j = 0, k = 0; j < w->shape->model->n_params; j++)
        lambda[j] = j == w->shape->gauge ? w->pmin : gsl_vector_get(x, (size_t)k++);
}

static void lambda_to_free(const fit_work_t *w, const double *lambda, gsl_vector *x)
{
    for (int j = 0, k = 0; j < w->shape->model->n_params; j++)
        if (j != w->shape->gauge)
            gsl_vector_set(x, (size_t)k++, lambda[j]);
}

static int lm_residuals(const gsl_vector *x, void *params, gsl_vector *f)
{
    const fit_work_t *w = params;
    double lambda[LOP_MODEL_MAX_PARAMS];
    free_to_lambda(w, x, lambda);
    for (size_t i = 0; i < w->n; i++) {
        double r = w->sw[i] * (w->shape->model->eval(lambda, w->p[i]) - w->y[i]);
        if (!isfinite(r))
            return GSL_EDOM;
        gsl_vector_set(f, i, r);
    }
    return GSL_SUCCESS;
}

/* A Levenberg-Marquardt solver of the free λ on a workspace's points. */
typedef struct {
    gsl_multifit_nlinear_fdf fdf;       /* residuals by lm_residuals */
    gsl_multifit_nlinear_workspace *lm; /* trust region, central differences */
    gsl_vector *x;                      /* the free λ */
} lm_t;

static void lm_free(lm_t *l)
{
    if (l->lm)
        gsl_multifit_nlinear_free(l->lm);
    if (l->x)
        gsl_vector_free(l->x);
}

static lop_status_t lm_alloc(fit_work_t *w, lm_t *l)
{
    size_t k = (size_t)fit_n_free(w->shape);
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.fdtype = GSL_MULTIFIT_NLINEAR_CTRDIFF;
    l->fdf = (gsl_multifit_nlinear_fdf){.f = lm_residuals, .n = w->n, .p = k, .params = w};
    l->lm = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, w->n, k);
    l->x = gsl_vector_alloc(k);
    if (l->lm && l->x)
        return LOP_OK;
    lm_free(l);
    return lop_err(LOP_ERR_NOMEM, "out of memory for the LM polish of %zu points", w->n);
}

/* LM iterations from λ as gsl_multifit_nlinear_driver runs them (its tests
 * with xtol = gtol = 1e-12; no progress in the first iteration ends them),
 * but ending at the first iterate outside the constraints: LM knows no
 * bounds, and when the optimum lies on one (a saturation faster than the
 * exponent's bound allows over 10^6 points) its iterates only move farther
 * out (53 of them, a second each, all thrown away).  With ssr_rtol > 0 they
 * also end at the first one that lowers the SSR by less than ssr_rtol of
 * it.  λ: the last feasible iterate. */
static void lm_iterate(fit_work_t *w, lm_t *l, double ssr_rtol, double *lambda)
{
    double prev = INFINITY, now, candidate[LOP_MODEL_MAX_PARAMS];
    int info;
    for (int it = 0; it < LM_MAX_ITER; it++) {
        if (gsl_multifit_nlinear_iterate(l->lm) == GSL_ENOPROG && it == 0)
            return;
        free_to_lambda(w, gsl_multifit_nlinear_position(l->lm), candidate);
        if (!fit_feasible(w->shape, candidate, w->pmin, w->pmax))
            return;
        memcpy(lambda, candidate, sizeof candidate);
        gsl_blas_ddot(gsl_multifit_nlinear_residual(l->lm), gsl_multifit_nlinear_residual(l->lm),
                      &now);
        if (gsl_multifit_nlinear_test(1e-12, 1e-12, 1e-14, &info, l->lm) != GSL_CONTINUE ||
            prev - now < ssr_rtol * now)
            return;
        prev = now;
    }
}

/* Replace λ by the LM result started from it if that lowers the SSR (by
 * more than rounding); returns 1 if it did. */
static int lm_polish(fit_work_t *w, lm_t *l, double ssr_rtol, double *lambda, double *ssr)
{
    double candidate[LOP_MODEL_MAX_PARAMS];
    memcpy(candidate, lambda, sizeof candidate);
    lambda_to_free(w, lambda, l->x);
    if (gsl_multifit_nlinear_init(l->x, &l->fdf, l->lm) != GSL_SUCCESS)
        return 0;
    lm_iterate(w, l, ssr_rtol, candidate);
    double candidate_ssr = fit_ssr_of(w, candidate);
    if (!(candidate_ssr < *ssr * (1 - 1e-12)))
        return 0;
    memcpy(lambda, candidate, sizeof candidate);
    *ssr = candidate_ssr;
    return 1;
}

lop_status_t fit_polish(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr)
{
    lm_t l;
    lop_status_t status = lm_alloc(w, &l);
    if (status != LOP_OK)
        return status;
    lm_polish(w, &l, ssr_rtol, lambda, ssr);
    lm_free(&l);
    return LOP_OK;
}

/* Covariance, standard errors and weak flags of the free parameters, free
 * index i <-> λ index idx[i]. */
typedef struct {
    const int *idx;    /* λ index of each free parameter */
    lop_fit_t *fit;    /* receives se, cov, has_cov, weak */
} errors_out_t;

/* Column-scaled SVD of J (n × k, n > k): a = J·D⁻¹ = U·S·Vᵀ, D = diag(norm).
 * Returns 0 if J is not finite or the SVD fails. */
static int scaled_svd(const gsl_matrix *J, gsl_matrix *a, gsl_matrix *v, gsl_vector *s,
                      gsl_vector *work, gsl_vector *norm)
{
    gsl_matrix_memcpy(a, J);
    for (size_t j = 0; j < J->size2; j++) {
        gsl_vector_view col = gsl_matrix_column(a, j);
        double d = gsl_blas_dnrm2(&col.vector);
        gsl_vector_set(norm, j, d);
        if (d > 0)
            gsl_vector_scale(&col.vector, 1.0 / d);
    }
    return isfinite(gsl_matrix_max(a)) && isfinite(gsl_matrix_min(a)) &&
           gsl_linalg_SV_decomp(a, v, s, work) == GSL_SUCCESS;
}

/* cov = σ²·(JᵀJ)⁻¹ = σ²·D⁻¹·V·S⁻²·Vᵀ·D⁻¹ over the singular values above the
 * rank cut, σ² = SSR/(n − k); see 6. above.  Marks the weak parameters. */
static void covariance_from_svd(const gsl_matrix *v, const gsl_vector *s, const gsl_vector *norm,
                                double sigma2, size_t n, const errors_out_t *out)
{
    size_t k = v->size1;
    double s0 = gsl_vector_get(s, 0), tol = s0 * (double)n * DBL_EPSILON;
    lop_fit_t *fit = out->fit;
    fit->has_cov = 1;
    for (size_t j = 0; j < k; j++) {
        unsigned *weak = &fit->weak[out->idx[j]];
        if (!(gsl_vector_get(norm, j) > 0))
            *weak |= LOP_FIT_WEAK_SINGULAR;
        for (size_t l = 0; l < k; l++) {
            double vjl = fabs(gsl_matrix_get(v, j, l)), sl = gsl_vector_get(s, l);
            if (sl <= tol && vjl > 1e-8)
                *weak |= LOP_FIT_WEAK_SINGULAR;
            else if (sl < s0 / ILLCOND_MAX && vjl > ILLCOND_PART)
                *weak |= LOP_FIT_WEAK_ILLCOND;
        }
        if (*weak & LOP_FIT_WEAK_SINGULAR)
            fit->has_cov = 0;
    }
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++) {
            double c = 0;
            for (size_t l = 0; l < k && gsl_vector_get(s, l) > tol; l++)
                c += gsl_matrix_get(v, i, l) * gsl_matrix_get(v, j, l) /
                     (gsl_vector_get(s, l) * gsl_vector_get(s, l));
            c *= sigma2 / (gsl_vector_get(norm, i) * gsl_vector_get(norm, j));
            fit->cov[out->idx[i]][out->idx[j]] = fit->has_cov ? c : 0.0;
            if (i == j && !(fit->weak[out->idx[i]] & LOP_FIT_WEAK_SINGULAR))
                fit->se[out->idx[i]] = sqrt(c);
        }
}

/* se, covariance and weak flags of the free parameters from the Jacobian J
 * (n × k) at the optimum.  With n <= k (no residual degree of freedom) or a
 * Jacobian that cannot be decomposed, everything is unknown. */
static lop_status_t covariance(const gsl_matrix *J, double ssr, const errors_out_t *out)
{
    size_t n = J->size1, k = J->size2;
    for (size_t j = 0; j < k; j++)
        out->fit->weak[out->idx[j]] |= LOP_FIT_WEAK_SINGULAR;
    if (n <= k)
        return LOP_OK;
    gsl_matrix *a = gsl_matrix_alloc(n, k), *v = gsl_matrix_alloc(k, k);
    gsl_vector *s = gsl_vector_alloc(k), *work = gsl_vector_alloc(k), *norm = gsl_vector_alloc(k);
    lop_status_t st = LOP_OK;
    if (!a || !v || !s || !work || !norm) {
        st = lop_err(LOP_ERR_NOMEM, "out of memory for the covariance");
        goto out;
    }
    if (!scaled_svd(J, a, v, s, work, norm))
        goto out;
    for (size_t j = 0; j < k; j++)
        out->fit->weak[out->idx[j]] = 0;
    covariance_from_svd(v, s, norm, ssr / (double)(n - k), n, out);
out:
    gsl_matrix_free(a);
    gsl_matrix_free(v);
    gsl_vector_free(s);
    gsl_vector_free(work);
    gsl_vector_free(norm);
    return st;
}

/* LM polish of λ, then the errors of the free parameters into 'fit' (se NaN
 * and covariance 0 for the gauge; a parameter whose se exceeds |λ| is weak). */
lop_status_t fit_polish_and_errors(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr,
                                   lop_fit_t *fit, lop_fitter_stats_t *st)
{
    size_t k = (size_t)fit_n_free(w->shape);
    int idx[LOP_MODEL_MAX_PARAMS];
    lm_t l;
    for (int j = 0, i = 0; j < w->shape->model->n_params; j++)
        if (j != w->shape->gauge)
            idx[i++] = j;
    for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++)
        fit->se[j] = NAN;
    memset(fit->cov, 0, sizeof fit->cov);
    memset(fit->weak, 0, sizeof fit->weak);
    fit->has_cov = 0;
    lop_status_t status = lm_alloc(w, &l);
    if (status != LOP_OK)
        return status;
    st->polished = lm_polish(w, &l, ssr_rtol, lambda, ssr);
    lambda_to_free(w, lambda, l.x);
    errors_out_t eo = {idx, fit};
    if (gsl_multifit_nlinear_init(l.x, &l.fdf, l.lm) != GSL_SUCCESS) {
        for (size_t i = 0; i < k; i++)
            fit->weak[idx[i]] |= LOP_FIT_WEAK_SINGULAR;
        lm_free(&l);
        return LOP_OK;
    }
    status = covariance(gsl_multifit_nlinear_jac(l.lm), *ssr, &eo);
    for (size_t i = 0; i < k; i++)
        if (fit->se[idx[i]] > fabs(lambda[idx[i]]))
            fit->weak[idx[i]] |= LOP_FIT_WEAK_SE;
    lm_free(&l);
    return status;
}
