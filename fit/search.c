/*
 * search.c - the global Nelder-Mead search over the searched λ (fitwork.h;
 * step 4 of fitter.c's method): start points from a scan of the profile SSR
 * and a seeded generator, then restarts from the best point.
 */
#define LOP_FITTER_PART
#include "fitwork.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_multimin.h>
#include <gsl/gsl_rng.h>

#define NM_MAX_ITER 400      /* Nelder-Mead iterations per run */
#define NM_START_TOL 1e-3    /* a start's run ends when the simplex is this small (in z) */
#define NM_RESTART_TOL 1e-6  /* the restarts' (LM refines further) */
#define NM_START_STEP 0.5    /* initial simplex size at a start point (in z) */
#define NM_RESTART_STEP 0.1  /* initial simplex size of a restart */
#define NM_MAX_RESTARTS 20
#define SCAN_SIDE_1D 60      /* grid points of the start scan in 1-D */
#define SCAN_SIDE_2D 20      /* ... per dimension in 2-D */
#define KNOT_EDGE 0.01       /* the knot scan's margin from pmin and pmax, of the range */

static double nm_objective(const gsl_vector *z, void *params)
{
    double z_copy[MAX_SEARCH], lambda[LOP_MODEL_MAX_PARAMS];
    for (size_t k = 0; k < z->size; k++)
        z_copy[k] = gsl_vector_get(z, k);
    return fit_profile_ssr(params, z_copy, lambda);
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
 * data, knots within KNOT_EDGE of the range's ends (a knot at an end is the
 * line the family's simpler member fits; the search can still reach it). */
static void scan_range(const fit_work_t *w, lop_param_role_t kind, double *lo, double *hi)
{
    double span = w->pmax - w->pmin;
    if (kind == LOP_PARAM_POLE) {
        *lo = fit_coord_of(w, kind, w->pmin * (3e-3 - 1));
        *hi = fit_coord_of(w, kind, 1e4 * w->pmax - w->pmin);
    } else if (kind == LOP_PARAM_KNOT) {
        *lo = fit_coord_of(w, kind, w->pmin + KNOT_EDGE * span);
        *hi = fit_coord_of(w, kind, w->pmax - KNOT_EDGE * span);
    } else {
        *lo = fit_coord_of(w, kind, -200 / span);
        *hi = fit_coord_of(w, kind, 40 / span);
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
        ssr[cell] = fit_profile_ssr(w, z, lambda);
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
 * ±10^[-1.5,1.3)/(pmax−pmin), knot uniform in the scanned range of p. */
static void random_start(const fit_work_t *w, gsl_rng *rng, double *z)
{
    for (int d = 0; d < w->shape->n_search; d++) {
        lop_param_role_t kind = w->shape->search[d].kind;
        double lambda;
        if (kind == LOP_PARAM_POLE) {
            lambda = w->pmin * (pow(10.0, gsl_rng_uniform(rng) * 4.5 - 2.5) - 1.0);
        } else if (kind == LOP_PARAM_KNOT) {
            double edge = KNOT_EDGE * (w->pmax - w->pmin);
            lambda = w->pmin + edge + gsl_rng_uniform(rng) * (w->pmax - w->pmin - 2 * edge);
        } else {
            lambda = pow(10.0, gsl_rng_uniform(rng) * 2.8 - 1.5) / (w->pmax - w->pmin);
            if (gsl_rng_uniform(rng) < 0.5)
                lambda = -lambda;
        }
        z[d] = fit_coord_of(w, kind, lambda);
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

lop_status_t fit_search_global(fit_work_t *w, fit_work_t *judge, const lop_fitter_opts_t *opts,
                               double *z_best, double *ssr_best, lop_fitter_stats_t *st)
{
    double lambda[LOP_MODEL_MAX_PARAMS];
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
        if (judge != w)
            ssr = fit_profile_ssr(judge, z, lambda);
        if (ssr < *ssr_best) {
            *ssr_best = ssr;
            memcpy(z_best, z, dim * sizeof *z);
        }
    }
    if (status == LOP_OK && judge != w)
        *ssr_best = fit_profile_ssr(w, z_best, lambda);
    if (status == LOP_OK)
        restart_from_best(w, nm, z_best, ssr_best, st);
    gsl_multimin_fminimizer_free(nm);
    gsl_rng_free(rng);
    free(scanned);
    return status;
}

lop_status_t fit_search_refine(fit_work_t *w, double *z, double *ssr, lop_fitter_stats_t *st)
{
    gsl_multimin_fminimizer *nm = gsl_multimin_fminimizer_alloc(
        gsl_multimin_fminimizer_nmsimplex2, (size_t)w->shape->n_search);
    if (!nm)
        return lop_err(LOP_ERR_NOMEM, "out of memory for the simplex search");
    restart_from_best(w, nm, z, ssr, st);
    gsl_multimin_fminimizer_free(nm);
    return LOP_OK;
}
