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
 */
#ifndef LOP_FITTER_H
#define LOP_FITTER_H

#include <stddef.h>

#include "model.h"

typedef struct {
    unsigned long seed; /* seed of the GSL generator that draws start points */
    int n_starts;       /* Nelder-Mead starts: a data-driven grid first, then random ones */
} lop_fitter_opts_t;

/* seed 1, 16 starts */
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

/* Is the pole of λ1/(λ2+p) (rtt) or λ2/(λ3+p) (ov) left of 'pmin', and does
 * the exponent of the rtt model stay within the overflow guard on
 * [pmin, pmax]?  The constraints every fit result satisfies. */
int lop_fitter_feasible(const lop_model_t *model, const double *lambda, double pmin,
                        double pmax);

#endif
