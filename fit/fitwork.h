/*
 * fitwork.h - the parts of the fitter (fitter.h; fitter.c describes the
 * method), private to the files that make it: fitwork.c (model shapes, the
 * workspace of a fit, separable least squares: steps 1-3), search.c (the
 * global Nelder-Mead search: step 4), polish.c (Levenberg-Marquardt and the
 * errors: steps 5 and 6) and fitter.c (the driver, model selection).
 * Everything else includes fitter.h.
 */
#ifndef LOP_FITWORK_H
#define LOP_FITWORK_H

#ifndef LOP_FITTER_PART
#error "fitwork.h is private to the fitter's files (fitter.c, fitwork.c, search.c, polish.c): include fitter.h"
/* --------------------------------------------- Levenberg-Marquardt, errors */

/* λ and its SSR replaced by the LM polish's result where that lowers the SSR;
 * with ssr_rtol > 0 the iterations end once one lowers it by less than
 * ssr_rtol of it. */
lop_status_t fit_polish(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr);
/* LM polish of λ as fit_polish, then the errors of the free parameters into
 * 'fit' (se NaN and covariance 0 for the gauge; a parameter whose se exceeds
 * |λ| is weak). */
lop_status_t fit_polish_and_errors(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr,
                                   lop_fit_t *fit, lop_fitter_stats_t *st);

#endif

#include <stddef.h>

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>

#include "fitter.h"

#define HUGE_SSR 1e300       /* objective value of a point that cannot be evaluated */
#define MAX_SEARCH 2         /* λ searched by Nelder-Mead, at most */

/* ------------------------------------------------------------ model shapes */

typedef struct {
    int index;              /* which λ (0-based) */
    lop_param_role_t kind;  /* LOP_PARAM_POLE, _RATE or _KNOT: how it maps to z */
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
int fit_shape_of(const lop_model_t *model, fit_shape_t *s);
/* λ the fit determines: all but the gauge */
int fit_n_free(const fit_shape_t *s);
/* lop_fitter_feasible (fitter.h) for a model's shape. */
int fit_feasible(const fit_shape_t *s, const double *lambda, double pmin, double pmax);

/* ------------------------------------------------------------ fit workspace */

typedef struct {
    const fit_shape_t *shape;
    const double *p, *y;   /* the data, n points */
    const double *sw;      /* sqrt of each point's weight: residuals are sw·(y − t) */
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

/* A workspace over the n points (p, y) with residuals sw·(y − t) (sw: the
 * square roots of the weights; the arrays stay the caller's), searched within
 * the constraints of the range [pmin, pmax]: the data's own, also for a
 * summary of them (summary.h), so that both search the same λ. */
lop_status_t fit_work_init(fit_work_t *w, const fit_shape_t *s, const double *p, const double *y,
                           const double *sw, size_t n, double pmin, double pmax);
void fit_work_free(fit_work_t *w);
/* SSR of λ, by the model function itself. */
double fit_ssr_of(const fit_work_t *w, const double *lambda);

/* ------------------------------------------------- separable least squares */

/* The search coordinate of a searched λ (fitter.c, step 3). */
double fit_coord_of(const fit_work_t *w, lop_param_role_t kind, double lambda);
/* All λ for search coordinates z: searched ones from z, the gauge at pmin,
 * linear ones solved; returns the SSR. */
double fit_profile_ssr(fit_work_t *w, const double *z, double *lambda);

/* ----------------------------------------------------- global Nelder-Mead */

/* Many starts, then restarts from the best point; the best z and its SSR.
 * The starts' results are ranked on the points of 'judge': w itself, or the
 * finer points w summarises (a coarse summary can rank two minima the other
 * way round: 63 points in 16 did, 1.4 % above the optimum). */
lop_status_t fit_search_global(fit_work_t *w, fit_work_t *judge, const lop_fitter_opts_t *opts,
                               double *z_best, double *ssr_best, lop_fitter_stats_t *st);
/* Fresh simplices from z (updated, *ssr its SSR) while they improve it: the
 * search's restarts, also on finer points than the search ran on. */
lop_status_t fit_search_refine(fit_work_t *w, double *z, double *ssr, lop_fitter_stats_t *st);

/* --------------------------------------------- Levenberg-Marquardt, errors */

/* λ and its SSR replaced by the LM polish's result where that lowers the SSR;
 * with ssr_rtol > 0 the iterations end once one lowers it by less than
 * ssr_rtol of it. */
lop_status_t fit_polish(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr);
/* LM polish of λ as fit_polish, then the errors of the free parameters into
 * 'fit' (se NaN and covariance 0 for the gauge; a parameter whose se exceeds
 * |λ| is weak). */
lop_status_t fit_polish_and_errors(fit_work_t *w, double ssr_rtol, double *lambda, double *ssr,
                                   lop_fit_t *fit, lop_fitter_stats_t *st);

#endif
