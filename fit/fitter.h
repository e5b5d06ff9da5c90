/*
 * fitter.h - global least-squares fits of the LoP model functions
 * (thesis 2.3.6.1.3), independent of any file format or command line.
 *
 *   lop_fit_t fit;
 *   lop_fitter_run(&lop_model_rtt, p, y, n, &lop_fitter_defaults, &fit, NULL);
 *
 * minimises SSR(λ) = Σ_i (y_i − t(p_i; λ))² over the model's parameters with
 * GSL's Nelder-Mead simplex from many start points, restarts the simplex from
 * the best point until it stops improving, and polishes the result with
 * Levenberg-Marquardt, which also gives the standard errors.  The same input
 * and seed give bit-identical results.  fitter.c describes the method.
 *
 * λ6 of the rtt model is not identifiable (λ3, λ4, λ6 trade off exactly:
 * only λ3+λ4 and λ4·e^{−λ5·λ6} shape the curve), so the fitter fixes
 * λ6 = pmin, i.e. the saturation term is zero at the first data point, and
 * reports its standard error as unknown (NaN).
 *
 * The fit keeps the full covariance of the free parameters,
 * cov = σ²·(JᵀJ)⁻¹ with J the Jacobian at the optimum and σ² = SSR/(n − f)
 * (f free parameters), when it is known (fit->has_cov), and flags in
 * fit->weak the parameters the data cannot determine (model.h).
 */
#ifndef LOP_FITTER_H
#define LOP_FITTER_H

#include <stddef.h>

#include "model.h"

/* How the points are weighted in the least squares. */
typedef enum {
    LOP_WEIGHT_NONE, /* Σ (y − t)²: errors of one variance */
    LOP_WEIGHT_REL   /* Σ ((y − t)/y)²: errors proportional to y (relative noise); y > 0.
                        ssr, rmse are then of relative residuals, r2 weighted alike,
                        and the covariance σ²·(JᵀWJ)⁻¹ with σ² = weighted SSR/(n − f) */
} lop_weight_t;

/* A series of more points than this is searched on a summary of this many
 * (fit/summary.h: at most pmax/pmin = 10^6, 18 of its bins per e-fold of p
 * resolve every bend the constrained model can make), then polished by
 * Levenberg-Marquardt on all of its points. */
#define LOP_FITTER_SEARCH_POINTS 512

typedef struct {
    unsigned long seed; /* seed of the GSL generator that draws start points */
    int n_starts;       /* Nelder-Mead starts: a data-driven grid first, then random ones */
    lop_weight_t weight;
    size_t search_points; /* more points than this: the global search runs on a summary
                             of this many; 0: on all points, however many (slow past
                             10^4 points; tests compare the two) */
} lop_fitter_opts_t;

/* seed 1, 16 starts, unweighted, search on LOP_FITTER_SEARCH_POINTS */
extern const lop_fitter_opts_t lop_fitter_defaults;

/* What the search did, for reports. */
typedef struct {
    int n_starts;   /* simplex runs from distinct start points */
    int n_restarts; /* extra runs restarted from the best point */
    long n_evals;   /* SSR evaluations by Nelder-Mead */
    int polished;   /* 1 if the Levenberg-Marquardt polish lowered the SSR and was kept */
} lop_fitter_stats_t;

/* Fit 'model' to the n points (p[i], y[i]); p finite, >= 1 and distinct,
 * y finite, n >= model->n_params.  On success fills fit->model, n, pmin,
 * pmax, lambda, se (NaN where unknown), ssr, rmse = sqrt(ssr/n) and
 * r2 = 1 − ssr/Σ(y−ȳ)² (NaN for constant y); the caller names file,
 * series, quantity and stat.  'stats' may be NULL.  Fails with
 * LOP_ERR_INVALID on bad points and LOP_ERR_NOMEM. */
lop_status_t lop_fitter_run(const lop_model_t *model, const double *p, const double *y, size_t n,
                            const lop_fitter_opts_t *opts, lop_fit_t *fit,
                            lop_fitter_stats_t *stats);

/* Is the pole of λ1/(λ2+p) (rtt) or λ2/(λ3+p) (ov) left of 'pmin', does
 * the exponent of the rtt model stay within the overflow guard on
 * [pmin, pmax], and the bucket's knot within [pmin, pmax]?  The
 * constraints every fit result satisfies. */
int lop_fitter_feasible(const lop_model_t *model, const double *lambda, double pmin,
                        double pmax);

/* What more data would determine a fit's weak parameters (lop_fit_t.weak). */
typedef enum {
    LOP_HINT_NONE,  /* no parameter is weak */
    LOP_HINT_MORE_P, /* more distinct p: the model has n − k − 1 <= 0 (k as in select.h, n
                        distinct p), or a weak parameter lies in a singular or
                        ill-conditioned direction, which only new p values resolve */
    LOP_HINT_MORE_REPS /* more repetitions per p: the parameters are identified
                          (well-conditioned, enough p) but their standard errors
                          exceed their values, i.e. noise dominates; se falls as
                          1/sqrt(repetitions) */
} lop_hint_t;

lop_hint_t lop_fitter_hint(const lop_fit_t *fit);
/* "none", "more p values", "more repetitions" */
const char *lop_fitter_hint_name(lop_hint_t hint);

#endif
