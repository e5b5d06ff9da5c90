/*
 * fitter.c - global least-squares fits of the LoP model functions (fitter.h).
 *
 * Thesis 2.3.6.1.3 minimises d(λ) = Σ_m (y(m) − t(p_m; λ))² with Nelder-Mead
 * over all λ from hand-tuned start values, and reports local minima that
 * depend on them and hours per fit.  This driver makes the same fit global:
 *
 * 1. Separable least squares (variable projection, Golub & Pereyra 1973).
 *    Which λ are linear, searched or fixed is the model descriptor's
 *    (lop_model_t.role, src/model.c); shape_of() reads nothing else.
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
 * 4. Start points: the profile SSR is scanned on a grid over pole distances
 *    (scaled by pmin, pmax) and exponent changes over the data's p range;
 *    its local minima, best first, are the first half of the starts, random
 *    points from a seeded GSL generator the rest.  Afterwards the simplex is
 *    restarted from the best point until it stops improving.
 * 5. A Levenberg-Marquardt polish (gsl_multifit_nlinear, trust region, central
 *    difference Jacobian) of all free λ, kept only if it lowers the SSR and
 *    keeps the constraints.
 * 6. Covariance and standard errors from the Jacobian J at the optimum:
 *    cov = σ²·(JᵀJ)⁻¹ with σ² = SSR/(n − k), k free parameters, computed from
 *    the SVD of J with unit-norm columns (the same matrix as
 *    gsl_multifit_nlinear_covar's, scaled by σ²; the SVD also gives the
 *    condition number for the weak flags).  A parameter with a component in
 *    an exactly singular direction (or no effect at all) gets NaN and the
 *    covariance is unknown; a nearly singular one gets its honest, huge value
 *    and the ILLCOND flag.
 * 7. Model selection: every member of a nested family fitted as above,
 *    ranked by AICc or BIC (fitter.h gives the formulas and conventions).
 */
#include "fitter.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_rng.h>

const lop_fitter_opts_t lop_fitter_defaults = {1, 16, LOP_WEIGHT_NONE};

/* ------------------------------------------------------------ model shapes */

#define LINEAR_TOL 1e-12     /* relative singular value cut of the linear solve */
#define HUGE_SSR 1e300       /* objective value of a point that cannot be evaluated */
#define NM_MAX_ITER 400      /* Nelder-Mead iterations per run */
#define NM_START_TOL 1e-3    /* a start's run ends when the simplex is this small (in z) */
#define NM_RESTART_TOL 1e-6  /* the restarts' (LM refines further) */
#define NM_START_STEP 0.5    /* initial simplex size at a start point (in z) */
#define NM_RESTART_STEP 0.1  /* initial simplex size of a restart */
#define NM_MAX_RESTARTS 20
#define SCAN_SIDE_1D 60      /* grid points of the start scan in 1-D */
#define SCAN_SIDE_2D 20      /* ... per dimension in 2-D */
#define LM_MAX_ITER 200
#define MAX_SEARCH 2
#define ILLCOND_MAX 1e6      /* condition number of the column-scaled Jacobian beyond
                                which a direction counts as undetermined */
#define ILLCOND_PART 0.1     /* a parameter is part of a direction if its component
                                of the (unit) singular vector exceeds this */

typedef struct {
    int index;              /* which λ (0-based) */
    lop_param_role_t kind;  /* LOP_PARAM_POLE or LOP_PARAM_RATE: how it maps to z */
} search_param_t;

/* How a model splits for separable least squares, from its descriptor. */
typedef struct {
    const lop_model_t *model;
    int n_linear;                      /* λ the model is linear in, given the others */
    int linear[LOP_MODEL_MAX_PARAMS];
    int n_search;                      /* λ searched by Nelder-Mead */
    search_param_t search[MAX_SEARCH];
    int gauge;                         /* λ fixed to pmin (not identifiable), or -1 */
} fit_shape_t;

/* The shape of 'model' from its parameter roles; 0 if the fitter cannot
 * search that many parameters. */
static int shape_of(const lop_model_t *model, fit_shape_t *s)
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
            if (s->n_search == MAX_SEARCH)
                return 0;
            s->search[s->n_search++] = (search_param_t){j, model->role[j]};
            break;
        }
    }
    return s->n_linear > 0;
}

static int n_free(const fit_shape_t *s)
{
    return s->model->n_params - (s->gauge >= 0);
}

int lop_fitter_feasible(const lop_model_t *model, const double *lambda, double pmin, double pmax)
{
    fit_shape_t s;
    if (!shape_of(model, &s))
        return 0;
    for (int j = 0; j < model->n_params; j++)
        if (!isfinite(lambda[j]))
            return 0;
    if (!lop_model_poles_outside(model, lambda, pmin))
        return 0;
    for (int k = 0; k < s.n_search; k++) {
        double l = lambda[s.search[k].index];
        double offset = s.gauge >= 0 ? lambda[s.gauge] : 0.0;
        double e1 = l * (pmin - offset), e2 = l * (pmax - offset);
        if (s.search[k].kind == LOP_PARAM_RATE &&
            !(fmax(e1, e2) <= LOP_MODEL_EXP_MAX * (1 + 1e-9) &&
              fmin(e1, e2) >= LOP_MODEL_EXP_MIN * (1 + 1e-9)))
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ fit workspace */

typedef struct {
    const fit_shape_t *shape;
    const double *p, *y;   /* the data, n points */
    double *sw;            /* sqrt of each point's weight: residuals are sw·(y − t) */
    size_t n;
    double pmin, pmax;
    double rate_max;       /* λ5 <= rate_max = EXP_MAX/(pmax−pmin) */
    double rate_min;       /* λ5 >= −rate_min = EXP_MIN/(pmax−pmin) */
    double pole_max;       /* POLE_MAX·pmax */
    gsl_matrix *basis;     /* n × n_linear: column j = model with λ_linear[j] = 1 */
    gsl_vector *yv;        /* y as a GSL vector */
    gsl_vector *coef;      /* linear λ of the last solve */
    gsl_vector *resid;     /* its residuals y − basis·coef */
    gsl_matrix *coef_cov;  /* their covariance (unused, GSL wants it) */
    gsl_multifit_linear_workspace *lin;
    gsl_vector *step;      /* Nelder-Mead initial step sizes */
    long n_evals;
} fit_work_t;

static void work_free(fit_work_t *w)
{
    free(w->sw);
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

static lop_status_t work_init(fit_work_t *w, const fit_shape_t *s, const double *p,
                              const double *y, size_t n, lop_weight_t weight)
{
    memset(w, 0, sizeof *w);
    w->shape = s;
    w->p = p;
    w->y = y;
    w->n = n;
    w->pmin = w->pmax = p[0];
    for (size_t i = 1; i < n; i++) {
        w->pmin = fmin(w->pmin, p[i]);
        w->pmax = fmax(w->pmax, p[i]);
    }
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
    w->sw = malloc(n * sizeof *w->sw);
    if (!w->basis || !w->yv || !w->coef || !w->resid || !w->coef_cov || !w->lin ||
        (s->n_search && !w->step) || !w->sw) {
        work_free(w);
        return lop_err(LOP_ERR_NOMEM, "out of memory for a fit of %zu points", n);
    }
    for (size_t i = 0; i < n; i++) { /* relative: σ_i ∝ y_i, weight 1/y_i² */
        w->sw[i] = weight == LOP_WEIGHT_REL ? 1.0 / y[i] : 1.0;
        gsl_vector_set(w->yv, i, w->sw[i] * y[i]);
    }
    return LOP_OK;
}

/* SSR of λ, by the model function itself. */
static double ssr_of(const fit_work_t *w, const double *lambda)
{
    double ssr = 0;
    for (size_t i = 0; i < w->n; i++) {
        double r = w->sw[i] * (w->y[i] - w->shape->model->eval(lambda, w->p[i]));
        ssr += r * r;
    }
    return ssr;
}

/* ------------------------------------------------- separable least squares */

static double coord_to_lambda(const fit_work_t *w, lop_param_role_t kind, double z)
{
    if (kind == LOP_PARAM_POLE)
        return -w->pmin + LOP_MODEL_POLE_MIN + w->pole_max / (1 + exp(-fmax(z, -700.0)));
    double x = sinh(fmax(fmin(z, 700.0), -700.0)) / (w->pmax - w->pmin);
    double r = x > 0 ? w->rate_max : w->rate_min;
    return r * tanh(x / r);
}

static double lambda_to_coord(const fit_work_t *w, lop_param_role_t kind, double lambda)
{
    if (kind == LOP_PARAM_POLE) {
        double d = lambda + w->pmin - LOP_MODEL_POLE_MIN;
        return log(d / (w->pole_max - d));
    }
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
static double profile_ssr(fit_work_t *w, const double *z, double *lambda)
{
    const fit_shape_t *s = w->shape;
    memset(lambda, 0, LOP_MODEL_MAX_PARAMS * sizeof *lambda);
    if (s->gauge >= 0)
        lambda[s->gauge] = w->pmin;
    for (int k = 0; k < s->n_search; k++)
        lambda[s->search[k].index] = coord_to_lambda(w, s->search[k].kind, z[k]);
    return solve_linear(w, lambda);
}

/* ----------------------------------------------------- global Nelder-Mead */

static double nm_objective(const gsl_vector *z, void *params)
{
    double z_copy[MAX_SEARCH], lambda[LOP_MODEL_MAX_PARAMS];
    for (size_t k = 0; k < z->size; k++)
        z_copy[k] = gsl_vector_get(z, k);
    return profile_ssr(params, z_copy, lambda);
}

/* One Nelder-Mead run from z (updated in place); returns its best SSR. */
static double nm_run(fit_work_t *w, gsl_multimin_fminimizer *nm, double *z, double step,
                     double tol)
{
    size_t dim = (size_t)w->shape->n_search;
    gsl_vector_view x = gsl_vector_view_array(z, dim);
    gsl_multimin_function f = {nm_objective, dim, w};
    gsl_vector_set_all(w->step, step);
    if (gsl_multimin_fminimizer_set(nm, &f, &x.vector, w->step) != GSL_SUCCESS)
        return HUGE_SSR;
    for (int it = 0; it < NM_MAX_ITER; it++) {
        if (gsl_multimin_fminimizer_iterate(nm) != GSL_SUCCESS ||
            gsl_multimin_test_size(gsl_multimin_fminimizer_size(nm), tol) == GSL_SUCCESS)
            break;
    }
    for (size_t k = 0; k < dim; k++)
        z[k] = gsl_vector_get(gsl_multimin_fminimizer_x(nm), k);
    return gsl_multimin_fminimizer_minimum(nm);
}

/* The scanned range of a searched λ in search coordinates: pole distances
 * 0.003·pmin .. 1e4·pmax left of pmin, exponent changes −200 .. 40 over the
 * data. */
static void scan_range(const fit_work_t *w, lop_param_role_t kind, double *lo, double *hi)
{
    double span = w->pmax - w->pmin;
    if (kind == LOP_PARAM_POLE) {
        *lo = lambda_to_coord(w, kind, w->pmin * (3e-3 - 1));
        *hi = lambda_to_coord(w, kind, 1e4 * w->pmax - w->pmin);
    } else {
        *lo = lambda_to_coord(w, kind, -200 / span);
        *hi = lambda_to_coord(w, kind, 40 / span);
    }
}

/* Search coordinates of grid cell 'cell' (g points per dimension). */
static void scan_coords(const fit_work_t *w, int cell, int g, double *z)
{
    for (int d = 0; d < w->shape->n_search; d++, cell /= g) {
        double lo, hi;
        scan_range(w, w->shape->search[d].kind, &lo, &hi);
        z[d] = lo + (hi - lo) * (cell % g) / (g - 1);
    }
}

/* Is the cell no higher than its neighbours and lower than one of them? */
static int scan_is_minimum(const double *ssr, int cell, int g, int dim)
{
    int i = cell % g, j = cell / g, lower = 0;
    for (int dj = dim > 1 ? -1 : 0; dj <= (dim > 1 ? 1 : 0); dj++)
        for (int di = -1; di <= 1; di++) {
            if ((!di && !dj) || i + di < 0 || i + di >= g || j + dj < 0 || j + dj >= g)
                continue;
            double other = ssr[(j + dj) * g + i + di];
            if (other < ssr[cell])
                return 0;
            lower |= ssr[cell] < other;
        }
    return lower;
}

typedef struct {
    double ssr; /* profile SSR of a grid cell */
    int cell;
} scan_min_t;

static int cmp_scan_min(const void *a, const void *b)
{
    const scan_min_t *x = a, *y = b;
    if (x->ssr != y->ssr)
        return x->ssr < y->ssr ? -1 : 1;
    return x->cell - y->cell;
}

/* Data-driven start points: the profile SSR on a grid over the scanned
 * ranges, its local minima best first, at most 'max' of them into
 * starts[k·MAX_SEARCH ...]; their number in '*n'. */
static lop_status_t scan_starts(fit_work_t *w, int max, double *starts, int *n)
{
    int dim = w->shape->n_search;
    int g = dim == 1 ? SCAN_SIDE_1D : SCAN_SIDE_2D, cells = dim == 1 ? g : g * g;
    double *ssr = lop_calloc((size_t)cells, sizeof *ssr), z[MAX_SEARCH];
    double lambda[LOP_MODEL_MAX_PARAMS];
    scan_min_t *mins = lop_calloc((size_t)cells, sizeof *mins);
    int n_mins = 0;
    *n = 0;
    if (!ssr || !mins) {
        free(ssr);
        free(mins);
        return LOP_ERR_NOMEM;
    }
    for (int cell = 0; cell < cells; cell++) {
        scan_coords(w, cell, g, z);
        ssr[cell] = profile_ssr(w, z, lambda);
    }
    for (int cell = 0; cell < cells; cell++)
        if (scan_is_minimum(ssr, cell, g, dim))
            mins[n_mins++] = (scan_min_t){ssr[cell], cell};
    qsort(mins, (size_t)n_mins, sizeof *mins, cmp_scan_min);
    for (*n = 0; *n < n_mins && *n < max; ++*n)
        scan_coords(w, mins[*n].cell, g, starts + *n * MAX_SEARCH);
    free(ssr);
    free(mins);
    return LOP_OK;
}

/* A random start: pole distance pmin·10^[-2.5,2) left of pmin, rate
 * ±10^[-1.5,1.3)/(pmax−pmin). */
static void random_start(const fit_work_t *w, gsl_rng *rng, double *z)
{
    for (int d = 0; d < w->shape->n_search; d++) {
        lop_param_role_t kind = w->shape->search[d].kind;
        double lambda;
        if (kind == LOP_PARAM_POLE) {
            lambda = w->pmin * (pow(10.0, gsl_rng_uniform(rng) * 4.5 - 2.5) - 1.0);
        } else {
            lambda = pow(10.0, gsl_rng_uniform(rng) * 2.8 - 1.5) / (w->pmax - w->pmin);
            if (gsl_rng_uniform(rng) < 0.5)
                lambda = -lambda;
        }
        z[d] = lambda_to_coord(w, kind, lambda);
    }
}

/* Fresh simplices at the best point while they still improve it. */
static void restart_from_best(fit_work_t *w, gsl_multimin_fminimizer *nm, double *z_best,
                              double *ssr_best, lop_fitter_stats_t *st)
{
    size_t dim = (size_t)w->shape->n_search;
    double z[MAX_SEARCH];
    for (int r = 0; r < NM_MAX_RESTARTS; r++, st->n_restarts++) {
        memcpy(z, z_best, dim * sizeof *z);
        double ssr = nm_run(w, nm, z, NM_RESTART_STEP, NM_RESTART_TOL);
        if (!(ssr < *ssr_best))
            break;
        int improved = ssr < *ssr_best * (1 - 1e-12);
        *ssr_best = ssr;
        memcpy(z_best, z, dim * sizeof *z);
        if (!improved)
            break;
    }
}

/* Many starts, then restarts from the best point; the best z and its SSR. */
static lop_status_t search_global(fit_work_t *w, const lop_fitter_opts_t *opts, double *z_best,
                                  double *ssr_best, lop_fitter_stats_t *st)
{
    size_t dim = (size_t)w->shape->n_search;
    gsl_multimin_fminimizer *nm =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, dim);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!nm || !rng) {
        if (nm)
            gsl_multimin_fminimizer_free(nm);
        if (rng)
            gsl_rng_free(rng);
        return lop_err(LOP_ERR_NOMEM, "out of memory for the simplex search");
    }
    gsl_rng_set(rng, opts->seed);
    double z[MAX_SEARCH], *scanned = lop_calloc((size_t)opts->n_starts, sizeof z);
    int n_scanned = 0;
    lop_status_t status = scanned ? LOP_OK : LOP_ERR_NOMEM;
    if (status == LOP_OK)
        status = scan_starts(w, (opts->n_starts + 1) / 2, scanned, &n_scanned);
    *ssr_best = HUGE_SSR;
    for (int k = 0; k < opts->n_starts && status == LOP_OK; k++, st->n_starts++) {
        if (k < n_scanned)
            memcpy(z, scanned + k * MAX_SEARCH, sizeof z);
        else
            random_start(w, rng, z);
        double ssr = nm_run(w, nm, z, NM_START_STEP, NM_START_TOL);
        if (ssr < *ssr_best) {
            *ssr_best = ssr;
            memcpy(z_best, z, dim * sizeof *z);
        }
    }
    if (status == LOP_OK)
        restart_from_best(w, nm, z_best, ssr_best, st);
    gsl_multimin_fminimizer_free(nm);
    gsl_rng_free(rng);
    free(scanned);
    return status;
}

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

/* Replace λ by the LM optimum started from it if that lowers the SSR (by
 * more than rounding) and is feasible; returns 1 if it did. */
static int lm_polish(fit_work_t *w, gsl_multifit_nlinear_workspace *lm,
                     gsl_multifit_nlinear_fdf *fdf, gsl_vector *x, double *lambda, double *ssr)
{
    int info;
    double candidate[LOP_MODEL_MAX_PARAMS];
    lambda_to_free(w, lambda, x);
    if (gsl_multifit_nlinear_init(x, fdf, lm) != GSL_SUCCESS)
        return 0;
    gsl_multifit_nlinear_driver(LM_MAX_ITER, 1e-12, 1e-12, 1e-14, NULL, NULL, &info, lm);
    free_to_lambda(w, gsl_multifit_nlinear_position(lm), candidate);
    double candidate_ssr = ssr_of(w, candidate);
    if (!(candidate_ssr < *ssr * (1 - 1e-12)) ||
        !lop_fitter_feasible(w->shape->model, candidate, w->pmin, w->pmax))
        return 0;
    memcpy(lambda, candidate, sizeof candidate);
    *ssr = candidate_ssr;
    return 1;
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
static lop_status_t polish_and_errors(fit_work_t *w, double *lambda, double *ssr, lop_fit_t *fit,
                                      lop_fitter_stats_t *st)
{
    size_t k = (size_t)n_free(w->shape);
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.fdtype = GSL_MULTIFIT_NLINEAR_CTRDIFF;
    gsl_multifit_nlinear_fdf fdf = {.f = lm_residuals, .n = w->n, .p = k, .params = w};
    gsl_multifit_nlinear_workspace *lm =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, w->n, k);
    gsl_vector *x = gsl_vector_alloc(k);
    int idx[LOP_MODEL_MAX_PARAMS];
    lop_status_t status = LOP_OK;
    for (int j = 0, i = 0; j < w->shape->model->n_params; j++)
        if (j != w->shape->gauge)
            idx[i++] = j;
    for (int j = 0; j < LOP_MODEL_MAX_PARAMS; j++)
        fit->se[j] = NAN;
    memset(fit->cov, 0, sizeof fit->cov);
    memset(fit->weak, 0, sizeof fit->weak);
    fit->has_cov = 0;
    if (!lm || !x) {
        status = lop_err(LOP_ERR_NOMEM, "out of memory for the LM polish");
        goto out;
    }
    st->polished = lm_polish(w, lm, &fdf, x, lambda, ssr);
    lambda_to_free(w, lambda, x);
    errors_out_t eo = {idx, fit};
    if (gsl_multifit_nlinear_init(x, &fdf, lm) != GSL_SUCCESS) {
        for (size_t i = 0; i < k; i++)
            fit->weak[idx[i]] |= LOP_FIT_WEAK_SINGULAR;
        goto out;
    }
    status = covariance(gsl_multifit_nlinear_jac(lm), *ssr, &eo);
    for (size_t i = 0; i < k; i++)
        if (fit->se[idx[i]] > fabs(lambda[idx[i]]))
            fit->weak[idx[i]] |= LOP_FIT_WEAK_SE;
out:
    if (lm)
        gsl_multifit_nlinear_free(lm);
    if (x)
        gsl_vector_free(x);
    return status;
}

/* ------------------------------------------------------------------ driver */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static lop_status_t check_points(const lop_model_t *model, const double *p, const double *y,
                                 size_t n)
{
    if (n < (size_t)model->n_params)
        return lop_err(LOP_ERR_INVALID, "%zu points for the %d-parameter %s model", n,
                       model->n_params, model->name);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i]) || !isfinite(y[i]) || p[i] < 1)
            return lop_err(LOP_ERR_INVALID, "point %zu: need finite p >= 1 and finite y", i + 1);
    double *sorted = lop_calloc(n, sizeof *sorted);
    if (!sorted)
        return LOP_ERR_NOMEM;
    memcpy(sorted, p, n * sizeof *p);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    lop_status_t st = LOP_OK;
    for (size_t i = 1; i < n && st == LOP_OK; i++)
        if (sorted[i] == sorted[i - 1])
            st = lop_err(LOP_ERR_INVALID, "p = %g occurs twice", sorted[i]);
    free(sorted);
    return st;
}

/* Everything but the errors, which polish_and_errors filled in. */
static void fill_fit(const fit_work_t *w, const double *lambda, double ssr, lop_fit_t *fit)
{
    double mean = 0, sum_w = 0, sst = 0; /* weighted as the SSR is */
    for (size_t i = 0; i < w->n; i++) {
        mean += w->sw[i] * w->sw[i] * w->y[i];
        sum_w += w->sw[i] * w->sw[i];
    }
    mean /= sum_w;
    for (size_t i = 0; i < w->n; i++)
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
    lop_fit_t result;
    double z[MAX_SEARCH] = {0}, lambda[LOP_MODEL_MAX_PARAMS], ssr;
    if (!shape_of(model, &shape))
        return lop_err(LOP_ERR_UNSUPPORTED, "no fitter for model '%s'", model->name);
    lop_status_t status = check_points(model, p, y, n);
    for (size_t i = 0; i < n && status == LOP_OK && opts->weight == LOP_WEIGHT_REL; i++)
        if (!(y[i] > 0))
            status = lop_err(LOP_ERR_INVALID, "point %zu: y = %g, relative weights 1/y^2 need "
                             "y > 0", i + 1, y[i]);
    if (status == LOP_OK)
        status = work_init(&w, &shape, p, y, n, opts->weight);
    if (status != LOP_OK)
        return status;
    result = *fit; /* keeps the caller's file, series, quantity, stat */
    gsl_error_handler_t *handler = gsl_set_error_handler_off();
    if (shape.n_search > 0)
        status = search_global(&w, opts, z, &ssr, &st);
    if (status == LOP_OK) {
        profile_ssr(&w, z, lambda);
        ssr = ssr_of(&w, lambda);
        status = polish_and_errors(&w, lambda, &ssr, &result, &st);
    }
    gsl_set_error_handler(handler);
    st.n_evals = w.n_evals;
    if (status == LOP_OK) {
        fill_fit(&w, lambda, ssr, &result);
        *fit = result;
    }
    if (status == LOP_OK && stats)
        *stats = st;
    work_free(&w);
    return status;
}

/* --------------------------------------------------------- model selection */

void lop_fitter_score(const lop_fit_t *fit, int *k_out, double *aicc, double *bic)
{
    int k = lop_model_n_free(fit->model) + 1;
    double n = (double)fit->n, fit_term = n * log(fit->ssr / n);
    *aicc = n - k - 1 > 0 ? fit_term + 2 * k + 2.0 * k * (k + 1) / (n - k - 1) : NAN;
    *bic = n - k >= 1 ? fit_term + k * log(n) : NAN;
    *k_out = k;
}

/* Choose the candidate with the lowest score; Δ of every eligible one.  A tie
 * (equal scores, also two exact fits at −inf) goes to the simplest: fewer
 * parameters, since the data give no reason for more. */
static void rank_candidates(lop_selection_t *sel)
{
    double best = INFINITY;
    sel->best = -1;
    for (int i = 0; i < sel->n_cand; i++) {
        lop_candidate_t *c = &sel->cand[i];
        double score = sel->criterion == LOP_CRIT_AICC ? c->aicc : c->bic;
        c->eligible = c->fitted && !isnan(score);
        if (c->eligible && (sel->best < 0 || score < best ||
                            (score == best && c->k < sel->cand[sel->best].k))) {
            best = score;
            sel->best = i;
        }
    }
    sel->margin = INFINITY;
    for (int i = 0; i < sel->n_cand; i++) {
        lop_candidate_t *c = &sel->cand[i];
        double score = sel->criterion == LOP_CRIT_AICC ? c->aicc : c->bic;
        /* a perfect fit scores −inf: two of them tie */
        c->delta = !c->eligible ? NAN : score == best ? 0.0 : score - best;
        if (c->eligible && i != sel->best)
            sel->margin = fmin(sel->margin, c->delta);
    }
}

lop_status_t lop_fitter_select(const lop_family_t *family, lop_criterion_t criterion,
                               const double *p, const double *y, size_t n,
                               const lop_fitter_opts_t *opts, lop_selection_t *sel)
{
    lop_selection_t s = {.family = family, .criterion = criterion,
                         .n_cand = family->n_members};
    for (int i = 0; i < s.n_cand; i++) {
        lop_candidate_t *c = &s.cand[i];
        const lop_model_t *m = family->member[i];
        c->k = lop_model_n_free(m) + 1;
        c->aicc = c->bic = c->delta = NAN;
        if (n < (size_t)m->n_params)
            continue;
        lop_status_t st = lop_fitter_run(m, p, y, n, opts, &c->fit, NULL);
        if (st != LOP_OK)
            return st;
        c->fitted = 1;
        lop_fitter_score(&c->fit, &c->k, &c->aicc, &c->bic);
    }
    rank_candidates(&s);
    *sel = s; /* also without an eligible member: the caller may fall back */
    if (s.best < 0)
        return lop_err(LOP_ERR_INVALID, "%zu points: too few for any %s model under %s", n,
                       family->name, criterion == LOP_CRIT_AICC ? "AICc" : "BIC");
    return LOP_OK;
}

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
