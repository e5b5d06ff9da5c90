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

/* ------------------------------------------- coordinates of the draws
 *
 * Draws are made in coordinates u where the models are close to linear
 * (uncert.h): a rate λr and the linear λa that scales its term become
 * (λa·λr, λr), the term's slope at λ6 and its rate; a pole λq and its λa
 * become (λa/(λq + pmin), ln(λq + pmin)), the term at pmin and the log of
 * the pole's distance left of pmin.  The other λ stay as they are, the
 * bucket's knot among them: the fit's covariance is already in it (the
 * model is piecewise linear in the knot between data points). */

#define MAX_PAIRS 2

typedef struct {
    int n;
    int a[MAX_PAIRS], q[MAX_PAIRS];       /* the linear λ that scales the term of λq */
    lop_param_role_t kind[MAX_PAIRS];     /* LOP_PARAM_POLE or LOP_PARAM_RATE */
} draw_map_t;

/* The linear λ whose basis column (the model with it 1 and the other
 * linear λ 0) changes with λq: the one that scales λq's term; -1 if none. */
static int term_scale(const lop_fit_t *fit, int q)
{
    const lop_model_t *m = fit->model;
    double probe[] = {fit->pmin, 0.5 * (fit->pmin + fit->pmax), fit->pmax};
    for (int a = 0; a < m->n_params; a++) {
        if (m->role[a] != LOP_PARAM_LINEAR)
            continue;
        double unit[LOP_MODEL_MAX_PARAMS], moved[LOP_MODEL_MAX_PARAMS];
        memcpy(unit, fit->lambda, sizeof unit);
        for (int j = 0; j < m->n_params; j++)
            if (m->role[j] == LOP_PARAM_LINEAR)
                unit[j] = j == a;
        memcpy(moved, unit, sizeof moved);
        moved[q] = 1.1 * unit[q] + 0.1;
        for (size_t i = 0; i < COUNT(probe); i++)
            if (m->eval(unit, probe[i]) != m->eval(moved, probe[i]))
                return a;
    }
    return -1;
}

/* The pairs of a fit that are drawn in other coordinates: those whose
 * change of coordinates is defined at the fitted λ (a pole left of pmin, a
 * rate that is not 0). */
static draw_map_t draw_map(const lop_fit_t *fit)
{
    draw_map_t map = {0};
    for (int q = 0; q < fit->model->n_params && map.n < MAX_PAIRS; q++) {
        lop_param_role_t kind = fit->model->role[q];
        int a = kind == LOP_PARAM_POLE || kind == LOP_PARAM_RATE ? term_scale(fit, q) : -1;
        if (a < 0 || (kind == LOP_PARAM_POLE && !(fit->lambda[q] + fit->pmin > 0)) ||
            (kind == LOP_PARAM_RATE && fit->lambda[q] == 0))
            continue;
        map.a[map.n] = a;
        map.q[map.n] = q;
        map.kind[map.n++] = kind;
    }
    return map;
}

/* u of λ, and with 'jac' the Jacobian ∂u/∂λ (LOP_MODEL_MAX_PARAMS square). */
static void to_draw(const lop_fit_t *fit, const draw_map_t *map, const double *lambda, double *u,
                    double jac[][LOP_MODEL_MAX_PARAMS])
{
    memcpy(u, lambda, LOP_MODEL_MAX_PARAMS * sizeof *u);
    for (int i = 0; jac && i < LOP_MODEL_MAX_PARAMS; i++)
        for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++)
            jac[i][j] = i == j;
    for (int k = 0; k < map->n; k++) {
        int a = map->a[k], q = map->q[k];
        double la = lambda[a], lq = lambda[q], d = lq + fit->pmin;
        if (map->kind[k] == LOP_PARAM_RATE) {
            u[a] = la * lq;
            if (jac) {
                jac[a][a] = lq;
                jac[a][q] = la;
            }
        } else {
            u[a] = la / d;
            u[q] = log(d);
            if (jac) {
                jac[a][a] = 1 / d;
                jac[a][q] = -la / (d * d);
                jac[q][q] = 1 / d;
            }
        }
    }
}

/* λ of u (a rate drawn as exactly 0 gives an infinite λa: a draw that is
 * not finite, with probability 0). */
static void from_draw(const lop_fit_t *fit, const draw_map_t *map, const double *u,
                      double *lambda)
{
    memcpy(lambda, u, LOP_MODEL_MAX_PARAMS * sizeof *lambda);
    for (int k = 0; k < map->n; k++) {
        int a = map->a[k], q = map->q[k];
        if (map->kind[k] == LOP_PARAM_RATE) {
            lambda[a] = u[a] / u[q];
        } else {
            double d = exp(u[q]);
            lambda[q] = d - fit->pmin;
            lambda[a] = u[a] * d;
        }
    }
}

/* The covariance of u over the free parameters, J·cov·Jᵀ, into l (k × k). */
static void draw_covariance(const lop_fit_t *fit, const double jac[][LOP_MODEL_MAX_PARAMS],
                            const int *idx, int k, gsl_matrix *l)
{
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            double c = 0;
            for (int s = 0; s < k; s++)
                for (int t = 0; t < k; t++)
                    c += jac[idx[i]][idx[s]] * fit->cov[idx[s]][idx[t]] * jac[idx[j]][idx[t]];
            gsl_matrix_set(l, (size_t)i, (size_t)j, c);
        }
}

/* Draw the free λ of fit f for every draw (the others stay as fitted). */
static lop_status_t draw_fit(lop_uncert_t *u, int f, gsl_rng *rng)
{
    const lop_fit_t *fit = &u->fit[f];
    int idx[LOP_MODEL_MAX_PARAMS], k = free_params(fit, idx);
    double jac[LOP_MODEL_MAX_PARAMS][LOP_MODEL_MAX_PARAMS], u0[LOP_MODEL_MAX_PARAMS];
    draw_map_t map = draw_map(fit);
    gsl_matrix *l = gsl_matrix_alloc((size_t)k, (size_t)k);
    gsl_vector *mu = gsl_vector_alloc((size_t)k), *x = gsl_vector_alloc((size_t)k);
    lop_status_t st = l && mu && x ? LOP_OK : lop_err(LOP_ERR_NOMEM, "out of memory for draws");
    to_draw(fit, &map, fit->lambda, u0, jac);
    if (st == LOP_OK)
        draw_covariance(fit, jac, idx, k, l);
    if (st == LOP_OK && gsl_linalg_cholesky_decomp1(l) != GSL_SUCCESS) {
        draw_covariance(fit, jac, idx, k, l); /* decomp1 overwrote it: start again */
        st = semidefinite_factor(l, fit->series[0] ? fit->series : fit->model->name);
    }
    gsl_vector_set_zero(mu);
    double nu = (double)fit->n - k; /* degrees of freedom of σ̂² */
    for (size_t d = 0; d < u->n_draws && st == LOP_OK; d++) {
        double *lambda = u->lambda + (d * (size_t)u->n_fits + (size_t)f) * LOP_MODEL_MAX_PARAMS;
        double ud[LOP_MODEL_MAX_PARAMS];
        memcpy(ud, u0, sizeof ud);
        gsl_ran_multivariate_gaussian(rng, mu, l, x);
        /* multivariate t: the Gaussian step scaled by sqrt(ν/χ²_ν), uncert.h */
        double w = nu >= 1 ? sqrt(nu / gsl_ran_chisq(rng, nu)) : 1.0;
        for (int i = 0; i < k; i++)
            ud[idx[i]] = u0[idx[i]] + w * gsl_vector_get(x, (size_t)i);
        from_draw(fit, &map, ud, lambda);
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
    if (n_finite > 0 && isfinite(iv.value) && !(iv.lo <= iv.value && iv.value <= iv.hi)) {
        iv.off_value = 1;
        iv.lo = iv.hi = NAN;
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
