/*
 * uncert.h - uncertainty of anything computed from fitted parameters, by
 * Monte Carlo draws from their distribution; no I/O.
 *
 *   const lop_fit_t *fits[] = {lop.rtt, lop.os};
 *   lop_uncert_t *u;
 *   lop_uncert_draw(fits, 2, &lop_uncert_defaults, &u);
 *   lop_interval_t iv;
 *   lop_uncert_interval(u, my_L_of_64, NULL, &iv);   // iv.lo, iv.hi: 95 %
 *   lop_uncert_free(u);
 *
 * Each fit with a known covariance (lop_fit_t.has_cov) is taken as
 * λ ~ λ̂ + t_ν(0, cov) over its free parameters: a multivariate Student t
 * with ν = n − f degrees of freedom (f free parameters), drawn as a
 * Gaussian step (cov = L·Lᵀ) times sqrt(ν/χ²_ν), because cov contains the
 * estimate σ̂² = SSR/ν, not the true noise variance.  For a model linear in
 * λ that is the exact distribution of λ̂ around the truth (a ±1.96σ̂
 * Gaussian interval covers only 93.4 % with ν = 18, 80 % with ν = 2; a
 * fit with ν < 1, i.e. n unknown, is drawn Gaussian).  The
 * fits are independent of each other (different series or quantities are
 * separate measurements); a fit
 * without covariance (a published parameter set) is taken as exact.  M
 * parameter vectors are drawn once (gsl_ran_multivariate_gaussian, GSL
 * Mersenne Twister seeded with opts.seed: the same seed gives the same
 * draws) and every function is evaluated on the same draws, so intervals of
 * different quantities are consistent with each other (common random
 * numbers: the difference of two predictions can be judged from the draws).
 *
 * Why Monte Carlo and not the delta method: the delta method linearises
 * f(λ) ≈ f(λ̂) + ∇f·(λ − λ̂) and gives var f = ∇fᵀ·cov·∇f, a symmetric
 * interval.  It is exact for f linear in λ (L(p) in the linear λ, given the
 * searched ones) but wrong where it matters here: a barrier cost is
 * L(n·cnt·rounds), far outside the fitted p range, through e^{λ5·p} and a
 * pole 1/(λ2+p); there the distribution is skewed, can put mass on a pole
 * (f not finite) and the linearisation can miss it entirely.  Monte Carlo
 * needs only f, shows skew, and counts the draws where f is not finite.
 * Its own error: the 2.5 % quantile of M draws of a Gaussian has a
 * standard error of sqrt(0.025·0.975/M)/φ(1.96) σ, i.e. 0.04σ for
 * M = 4000 (the default) and 0.13σ for M = 400.
 *
 * Where the draws are made: the covariance is of λ, but some models are far
 * from linear in their λ over the λ's uncertainty, and a draw along a
 * straight line in λ is then a curve the data exclude.  The saturation
 * λ4·(1 − e^{λ5(p−λ6)}) of a fit in which it barely shows is a straight
 * line of slope −λ4·λ5: λ4 and λ5 trade off along a hyperbola (from 15
 * points: λ4 = 397 ± 25700, λ5 = −0.0007 ± 0.048), 95 % of the draws left
 * it and RTT(4)'s interval was −25799..0.38 us around a fitted 5.21 (diss
 * at P = 16 covered its truth in 88 of 100 such sets).  So each pair of
 * a searched λ and the linear λ that scales its term (read off the model
 * function: the linear λ whose basis column changes with it) is drawn in
 * coordinates where the model is close to linear, the covariance carried
 * there by the Jacobian of the change (for the linearised fit the same
 * distribution): a rate λr with its λa as (λa·λr, λr), the term's slope
 * at λ6 and its rate; a pole λq with its λa as (λa/(λq + pmin),
 * ln(λq + pmin)), the term at pmin and the log of the pole's distance left
 * of pmin, which stays positive (a pole drawn into the data made the
 * predictions near it any number at all).  Coverage of that barrier cost
 * then: 97 of 100 (fit/README.md).  Models linear in λ are drawn as before.
 *
 * The covariance may be only positive semi-definite (a parameter that is a
 * nearly exact combination of others).  The factor L with cov = L·Lᵀ that
 * gsl_ran_multivariate_gaussian needs is then taken from the eigen-
 * decomposition cov = V·Λ·Vᵀ with negative rounding-level eigenvalues set to
 * 0: A = V·Λ^{1/2}, and the QR decomposition Aᵀ = Q·R gives the
 * lower-triangular L = Rᵀ (L·Lᵀ = Rᵀ·Qᵀ·Q·R = A·Aᵀ = cov).  Draws then vary
 * only in the directions the data determine.  A positive-definite
 * covariance uses its Cholesky factor (gsl_linalg_cholesky_decomp1).
 */
#ifndef LOP_UNCERT_H
#define LOP_UNCERT_H

#include <stddef.h>

#include "lop.h"
#include "model.h"

#define LOP_UNCERT_MAX_FITS 8

typedef struct {
    unsigned long seed; /* of the GSL generator */
    size_t n_draws;     /* M */
    double level;       /* central probability of the interval, e.g. 0.95 */
} lop_uncert_opts_t;

/* seed 1, 4000 draws, 95 % */
extern const lop_uncert_opts_t lop_uncert_defaults;

/* M drawn parameter vectors of up to LOP_UNCERT_MAX_FITS fits. */
typedef struct lop_uncert lop_uncert_t;

/* f of the fits (in the order given to lop_uncert_draw) with drawn λ. */
typedef double lop_uncert_fn_t(const lop_fit_t *const *fits, void *ctx);

typedef struct {
    double value;       /* f at the fitted λ */
    double lo, hi;      /* (1−level)/2 and (1+level)/2 quantiles of the finite draws;
                           NaN if no draw is finite */
    size_t n_draws;     /* M */
    size_t n_nonfinite; /* draws where f was NaN or ±inf: an interval that leaves them
                           out is not a 'level' interval; the caller must say so */
    int n_exact;        /* fits taken as exact (no covariance): lo..hi omits their error */
    int off_value;      /* the finite draws' quantiles did not contain a finite value: lo,
                           hi are NaN (an interval is around its estimate or none); the
                           caller must say so */
} lop_interval_t;

/* Draw opts->n_draws parameter vectors for the n_fits fits.  Fails with
 * LOP_ERR_INVALID for n_fits outside 1..LOP_UNCERT_MAX_FITS, 0 draws or a
 * level outside (0, 1), with LOP_ERR_RANGE for a covariance that is not
 * symmetric positive semi-definite (an eigenvalue below −1e-9 of the
 * largest), LOP_ERR_NOMEM. */
lop_status_t lop_uncert_draw(const lop_fit_t *const *fits, int n_fits,
                             const lop_uncert_opts_t *opts, lop_uncert_t **u);

/* f at the fitted λ and its interval over the draws.  Where f at the fitted
 * λ is finite and outside the draws' lo..hi, there is no interval (lo, hi
 * NaN, off_value set): draws that do not surround their own estimate say
 * nothing about its error.  That is where the draws are rounding (a
 * covariance so large that a sum of terms cancels to 0 in every draw: a
 * barrier of 15.8 us "in 0..0") or most of them are no value and the rest
 * far off (of 8.6 us, "in 7.9e152..6.2e154" from a variance of 1e308). */
lop_status_t lop_uncert_interval(lop_uncert_t *u, lop_uncert_fn_t *f, void *ctx,
                                 lop_interval_t *out);

void lop_uncert_free(lop_uncert_t *u);

#endif
