/* uncert.c - Monte Carlo uncertainty of functions of fitted parameters (uncert.h). */
#include "uncert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "stats.h"

#define NEG_EIGEN_TOL 1e-9 /* an eigenvalue below −tol·largest is not rounding */

const lop_uncert_opts_t lop_uncert_defaults = {1, 4000, 0.95};

struct lop_uncert {
    int n_fits;
    size_t n_draws;
    double level;
    lop_fit_t fit[LOP_UNCERT_MAX_FITS];   /* the fitted sets; lambda replaced per draw */
    double fitted[LOP_UNCERT_MAX_FITS][LOP_MODEL_MAX_PARAMS]; /* the fitted λ */
    double *lambda; /* n_draws × n_fits × LOP_MODEL_MAX_PARAMS drawn λ */
    double *values; /* n_draws: f of each draw, scratch of lop_uncert_interval */
};

/* Free parameters of a fit with covariance (model.h roles): their λ index. */
static int free_params(const lop_fit_t *fit, int *idx)
{
    int k = 0;
    for (int j = 0; j < fit->model->n_params; j++)
        if (fit->model->role[j] != LOP_PARAM_GAUGE)
            idx[k++] = j;
    return k;
}

/* A lower-triangular L with L·Lᵀ = the semi-definite cov (eigen-
 * decomposition and QR, uncert.h), in place of cov's content. */
static lop_status_t semidefinite_factor(gsl_matrix *cov, const char *what)
{
    size_t k = cov->size1;
    gsl_matrix *v = gsl_matrix_alloc(k, k), *a = gsl_matrix_alloc(k, k);
    gsl_vector *eval = gsl_vector_alloc(k), *tau = gsl_vector_alloc(k);
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc(k);
    lop_status_t st = LOP_OK;
    if (!v || !a || !eval || !tau || !ws) {
        st = lop_err(LOP_ERR_NOMEM, "out of memory for a covariance factor");
        goto out;
    }
    gsl_matrix_memcpy(a, cov);
    if (gsl_eigen_symmv(a, eval, v, ws) != GSL_SUCCESS ||
        gsl_vector_min(eval) < -NEG_EIGEN_TOL * fmax(gsl_vector_max(eval), 0)) {
        st = lop_err(LOP_ERR_RANGE, "%s: covariance is not positive semi-definite", what);
        goto out;
    }
    /* a = (V·Λ^{1/2})ᵀ: row i is sqrt(λ_i) times eigenvector i */
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(a, i, j,
                           sqrt(fmax(gsl_vector_get(eval, i), 0)) * gsl_matrix_get(v, j, i));
    if (gsl_linalg_QR_decomp(a, tau) != GSL_SUCCESS) {
        st = lop_err(LOP_ERR_RANGE, "%s: QR of the covariance factor failed", what);
        goto out;
    }
    for (size_t i = 0; i < k; i++) /* L = Rᵀ */
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(cov, i, j, j <= i ? gsl_matrix_get(a, j, i) : 0.0);
out:
    gsl_matrix_free(v);
    gsl_matrix_free(a);
    gsl_vector_free(eval);
    gsl_vector_free(tau);
    if (ws)
        gsl_eigen_symmv_free(ws);
    return st;
}

/* Draw the free λ of fit f for every draw (the others stay as fitted). */
static lop_status_t draw_fit(lop_uncert_t *u, int f, gsl_rng *rng)
{
    const lop_fit_t *fit = &u->fit[f];
    int idx[LOP_MODEL_MAX_PARAMS], k = free_params(fit, idx);
    gsl_matrix *l = gsl_matrix_alloc((size_t)k, (size_t)k);
    gsl_vector *mu = gsl_vector_alloc((size_t)k), *x = gsl_vector_alloc((size_t)k);
    lop_status_t st = l && mu && x ? LOP_OK : lop_err(LOP_ERR_NOMEM, "out of memory for draws");
    for (int i = 0; i < k && st == LOP_OK; i++) {
        for (int j = 0; j < k; j++)
            gsl_matrix_set(l, (size_t)i, (size_t)j, fit->cov[idx[i]][idx[j]]);
    }
    if (st == LOP_OK && gsl_linalg_cholesky_decomp1(l) != GSL_SUCCESS) {
        for (int i = 0; i < k; i++) /* decomp1 overwrote it: start again */
            for (int j = 0; j < k; j++)
                gsl_matrix_set(l, (size_t)i, (size_t)j, fit->cov[idx[i]][idx[j]]);
        st = semidefinite_factor(l, fit->series[0] ? fit->series : fit->model->name);
    }
    gsl_vector_set_zero(mu);
    double nu = (double)fit->n - k; /* degrees of freedom of σ̂² */
    for (size_t d = 0; d < u->n_draws && st == LOP_OK; d++) {
        double *lambda = u->lambda + (d * (size_t)u->n_fits + (size_t)f) * LOP_MODEL_MAX_PARAMS;
        gsl_ran_multivariate_gaussian(rng, mu, l, x);
        /* multivariate t: the Gaussian step scaled by sqrt(ν/χ²_ν), uncert.h */
        double w = nu >= 1 ? sqrt(nu / gsl_ran_chisq(rng, nu)) : 1.0;
        for (int i = 0; i < k; i++)
            lambda[idx[i]] = fit->lambda[idx[i]] + w * gsl_vector_get(x, (size_t)i);
    }
    gsl_matrix_free(l);
    gsl_vector_free(mu);
    gsl_vector_free(x);
    return st;
}

static lop_status_t check_opts(int n_fits, const lop_uncert_opts_t *opts)
{
    if (n_fits < 1 || n_fits > LOP_UNCERT_MAX_FITS)
        return lop_err(LOP_ERR_INVALID, "uncertainty of %d fits (1..%d)", n_fits,
                       LOP_UNCERT_MAX_FITS);
    if (opts->n_draws == 0 || !(opts->level > 0 && opts->level < 1))
        return lop_err(LOP_ERR_INVALID, "need draws > 0 and 0 < level < 1");
    return LOP_OK;
}

lop_status_t lop_uncert_draw(const lop_fit_t *const *fits, int n_fits,
                             const lop_uncert_opts_t *opts, lop_uncert_t **out)
{
    lop_status_t st = check_opts(n_fits, opts);
    lop_uncert_t *u = st ? NULL : lop_calloc(1, sizeof *u);
    gsl_rng *rng = u ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
    if (!st && u) {
        u->n_fits = n_fits;
        u->n_draws = opts->n_draws;
        u->level = opts->level;
        u->lambda = lop_calloc(opts->n_draws * (size_t)n_fits, LOP_MODEL_MAX_PARAMS * sizeof(double));
        u->values = lop_calloc(opts->n_draws, sizeof(double));
    }
    if (!st && (!u || !rng || !u->lambda || !u->values))
        st = lop_err(LOP_ERR_NOMEM, "out of memory for %zu draws", opts->n_draws);
    gsl_error_handler_t *handler = gsl_set_error_handler_off();
    if (!st)
        gsl_rng_set(rng, opts->seed);
    for (int f = 0; f < n_fits && !st; f++) {
        u->fit[f] = *fits[f];
        memcpy(u->fitted[f], fits[f]->lambda, sizeof u->fitted[f]);
        for (size_t d = 0; d < u->n_draws; d++) /* exact fits and fixed λ: as fitted */
            memcpy(u->lambda + (d * (size_t)n_fits + (size_t)f) * LOP_MODEL_MAX_PARAMS,
                   fits[f]->lambda, sizeof u->fitted[f]);
        if (fits[f]->has_cov)
            st = draw_fit(u, f, rng);
    }
    gsl_set_error_handler(handler);
    if (rng)
        gsl_rng_free(rng);
    if (st)
        lop_uncert_free(u);
    else
        *out = u;
    return st;
}

/* f with the fits' λ set to 'lambda' (n_fits × LOP_MODEL_MAX_PARAMS). */
static double eval_at(lop_uncert_t *u, const double *lambda, lop_uncert_fn_t *f, void *ctx)
{
    const lop_fit_t *fits[LOP_UNCERT_MAX_FITS] = {0};
    for (int i = 0; i < u->n_fits; i++) {
        memcpy(u->fit[i].lambda, lambda + (size_t)i * LOP_MODEL_MAX_PARAMS,
               sizeof u->fit[i].lambda);
        fits[i] = &u->fit[i];
    }
    return f(fits, ctx);
}

lop_status_t lop_uncert_interval(lop_uncert_t *u, lop_uncert_fn_t *f, void *ctx,
                                 lop_interval_t *out)
{
    lop_interval_t iv = {.n_draws = u->n_draws, .lo = NAN, .hi = NAN};
    size_t n_finite = 0;
    for (int i = 0; i < u->n_fits; i++)
        iv.n_exact += !u->fit[i].has_cov;
    for (size_t d = 0; d < u->n_draws; d++) {
        double v = eval_at(u, u->lambda + d * (size_t)u->n_fits * LOP_MODEL_MAX_PARAMS, f, ctx);
        if (isfinite(v))
            u->values[n_finite++] = v;
    }
    iv.n_nonfinite = u->n_draws - n_finite;
    iv.value = eval_at(u, &u->fitted[0][0], f, ctx);
    if (n_finite > 0) {
        gsl_sort(u->values, 1, n_finite);
        iv.lo = lop_stats_quantile_sorted(u->values, n_finite, (1 - u->level) / 2);
        iv.hi = lop_stats_quantile_sorted(u->values, n_finite, (1 + u->level) / 2);
    }
    *out = iv;
    return LOP_OK;
}

void lop_uncert_free(lop_uncert_t *u)
{
    if (!u)
        return;
    free(u->lambda);
    free(u->values);
    free(u);
}
