/*
 * test_uncert.c - the Monte Carlo uncertainty engine (src/uncert.h).
 *
 * A linear function of Gaussian parameters has an exactly known
 * distribution: its interval must be value ± 1.96σ within the engine's
 * own error (0.04σ per quantile at M = 4000; the tolerance is 0.15σ).
 * A semi-definite covariance (rank 1) is drawn only along its range.
 * Coverage: truths inside the 95 % intervals of fits to noisy data, over
 * COVER_TRIALS seeds.  Plus determinism, non-finite draws, exact fits.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fitter.h"
#include "tap.h"
#include "uncert.h"

#define COVER_TRIALS 400
#define COVER_N 20

/* l1 + l2·p of the first fit at p = *(double *)ctx */
static double line_at(const lop_fit_t *const *fits, void *ctx)
{
    return lop_fit_eval(fits[0], *(double *)ctx);
}

/* 1/(l1 − 2): not finite when l1 <= 2 (reported as NaN) */
static double pole(const lop_fit_t *const *fits, void *ctx)
{
    (void)ctx;
    double d = fits[0]->lambda[0] - 2.0;
    return d > 0 ? 1.0 / d : NAN;
}

/* the first fit's l1 minus the second's: two independent fits */
static double difference(const lop_fit_t *const *fits, void *ctx)
{
    (void)ctx;
    return fits[0]->lambda[0] - fits[1]->lambda[0];
}

/* l1 where it is a time (> 0), else no value, as predictions leave out
 * draws of a negative time */
static double positive(const lop_fit_t *const *fits, void *ctx)
{
    (void)ctx;
    return fits[0]->lambda[0] > 0 ? fits[0]->lambda[0] : NAN;
}

static lop_fit_t line_fit(double l1, double l2, double v11, double v12, double v22)
{
    lop_fit_t f = {.model = &lop_model_linear, .lambda = {l1, l2}, .has_cov = 1};
    f.cov[0][0] = v11;
    f.cov[0][1] = f.cov[1][0] = v12;
    f.cov[1][1] = v22;
    return f;
}

static int interval(const lop_fit_t *const *fits, int n, lop_uncert_fn_t *fn, void *ctx,
                    const lop_uncert_opts_t *o, lop_interval_t *iv)
{
    lop_uncert_t *u;
    if (lop_uncert_draw(fits, n, o, &u) != LOP_OK)
        return 0;
    lop_status_t st = lop_uncert_interval(u, fn, ctx, iv);
    lop_uncert_free(u);
    return st == LOP_OK;
}

static void check_gaussian(void)
{
    lop_fit_t f = line_fit(2.0, 0.5, 0.04, 0.01, 0.0049);
    const lop_fit_t *fits[] = {&f};
    double p = 10, sigma = sqrt(0.04 + 2 * p * 0.01 + p * p * 0.0049);
    lop_interval_t iv, again;
    ok(interval(fits, 1, line_at, &p, &lop_uncert_defaults, &iv), "linear f: drawn");
    is_num(iv.value, 7.0, 1e-12, "f at the fitted parameters");
    is_num(iv.lo, 7.0 - 1.96 * sigma, 0.15 * sigma, "lower = f - 1.96 sigma (sigma %.3f)", sigma);
    is_num(iv.hi, 7.0 + 1.96 * sigma, 0.15 * sigma, "upper = f + 1.96 sigma");
    ok(iv.n_draws == 4000 && iv.n_nonfinite == 0 && iv.n_exact == 0, "4000 draws, all finite");
    interval(fits, 1, line_at, &p, &lop_uncert_defaults, &again);
    ok(again.lo == iv.lo && again.hi == iv.hi, "same seed: the same interval, bit for bit");
    lop_uncert_opts_t o = lop_uncert_defaults;
    o.seed = 2;
    interval(fits, 1, line_at, &p, &o, &again);
    ok(again.lo != iv.lo, "another seed: other draws");
}

static void check_semidefinite(void)
{
    /* cov = v·vᵀ with v = (0.2, 0.05): rank 1; l1 − 4·l2 has variance 0 */
    lop_fit_t f = line_fit(2.0, 0.5, 0.04, 0.01, 0.0025);
    const lop_fit_t *fits[] = {&f};
    double p = -4, sigma1 = 0.2, p0 = 0;
    lop_interval_t iv;
    ok(interval(fits, 1, line_at, &p, &lop_uncert_defaults, &iv),
       "rank-1 covariance: drawn (Cholesky fails, eigen + QR factor)");
    ok(fabs(iv.hi - iv.lo) < 1e-9, "l1 - 4 l2, the null direction, does not vary (width %.1e)",
       iv.hi - iv.lo);
    interval(fits, 1, line_at, &p0, &lop_uncert_defaults, &iv);
    is_num(iv.hi - iv.lo, 2 * 1.96 * sigma1, 0.3 * sigma1, "l1 varies with sigma 0.2");
    f.cov[1][1] = -0.01;
    lop_uncert_t *u;
    ok(lop_uncert_draw(fits, 1, &lop_uncert_defaults, &u) == LOP_ERR_RANGE,
       "an indefinite covariance is an error: %s", lop_errmsg());
}

static void check_special(void)
{
    lop_fit_t f = line_fit(2.0, 0.5, 0.04, 0.0, 0.01), g = line_fit(1.0, 0.0, 0.09, 0, 0.01);
    lop_fit_t exact = f;
    exact.has_cov = 0;
    const lop_fit_t *one[] = {&f}, *two[] = {&f, &g}, *ex[] = {&exact};
    lop_interval_t iv;
    interval(one, 1, pole, NULL, &lop_uncert_defaults, &iv);
    ok(fabs((double)iv.n_nonfinite / 4000 - 0.5) < 0.05,
       "f not finite on half the draws: %zu of 4000 counted", iv.n_nonfinite);
    interval(two, 2, difference, NULL, &lop_uncert_defaults, &iv);
    is_num(iv.hi - iv.lo, 2 * 1.96 * sqrt(0.04 + 0.09), 0.15 * sqrt(0.13),
           "two independent fits: variances add");
    double p = 3;
    interval(ex, 1, line_at, &p, &lop_uncert_defaults, &iv);
    ok(iv.n_exact == 1 && iv.lo == iv.value && iv.hi == iv.value,
       "a fit without covariance is exact: lo = hi = value");
    lop_uncert_t *u;
    lop_uncert_opts_t bad = lop_uncert_defaults;
    bad.level = 1.0;
    ok(lop_uncert_draw(one, 1, &bad, &u) == LOP_ERR_INVALID && lop_uncert_draw(one, 0, &lop_uncert_defaults, &u) == LOP_ERR_INVALID,
       "level 1 or no fits: invalid");
}

/* -------------------------------------------------- the draws' coordinates */

/* the first fit at p = *(double *)ctx, and its delta-method sd there */
static double curve_at(const lop_fit_t *const *fits, void *ctx)
{
    return lop_fit_eval(fits[0], *(double *)ctx);
}

static double delta_sd(lop_fit_t f, double p)
{
    double g[LOP_MODEL_MAX_PARAMS] = {0}, v = 0;
    for (int j = 0; j < f.model->n_params; j++) {
        double keep = f.lambda[j], h = 1e-6 * fmax(fabs(keep), 1e-3);
        f.lambda[j] = keep + h;
        double up = lop_fit_eval(&f, p);
        f.lambda[j] = keep - h;
        g[j] = (up - lop_fit_eval(&f, p)) / (2 * h);
        f.lambda[j] = keep;
    }
    for (int i = 0; i < f.model->n_params; i++)
        for (int j = 0; j < f.model->n_params; j++)
            v += g[i] * f.cov[i][j] * g[j];
    return sqrt(v);
}

/* the pole's distance left of pmin of an ov fit */
static double pole_distance(const lop_fit_t *const *fits, void *ctx)
{
    (void)ctx;
    return fits[0]->lambda[2] + fits[0]->pmin;
}

/* Where the linearisation holds (a small covariance) the draws in the
 * pole's and the rate's coordinates give the delta method's interval: the
 * covariance is carried over exactly.  A pole 0.1 left of pmin with an sd
 * of 0.1 is never drawn inside the data (in λ it was, in 16 % of draws). */
/* An interval contains its estimate or is none: l1 = 1 with a standard
 * error of 1e10 (a covariance far beyond the estimate's scale) leaves half
 * the draws negative and the other half's quantiles around 1e10, not 1. */
static void check_off_value(void)
{
    lop_fit_t wide = line_fit(1.0, 0.0, 1e20, 0.0, 0.01);
    lop_fit_t narrow = line_fit(1.0, 0.0, 0.01, 0.0, 0.01);
    const lop_fit_t *w[] = {&wide}, *n[] = {&narrow};
    lop_interval_t iv = {0};
    int done = interval(w, 1, positive, NULL, &lop_uncert_defaults, &iv);
    ok(done && iv.value == 1 && iv.n_nonfinite > 1000 && iv.off_value && isnan(iv.lo) &&
           isnan(iv.hi),
       "the finite draws' quantiles leave out the estimate: no interval, said (%zu of 4000 "
       "not finite)", iv.n_nonfinite);
    ok(interval(n, 1, positive, NULL, &lop_uncert_defaults, &iv) && !iv.off_value &&
           iv.lo <= iv.value && iv.value <= iv.hi,
       "a narrow covariance: the interval contains the estimate");
}

static void check_coordinates(void)
{
    lop_fit_t rtt = {.model = &lop_model_rtt, .n = 40, .pmin = 1, .pmax = 40, .has_cov = 1,
                     .lambda = {15.0, 0.05, 3.0, 6.2, -0.053, 1.0}};
    lop_fit_t ov = {.model = &lop_model_ov, .n = 40, .pmin = 1, .pmax = 40, .has_cov = 1,
                    .lambda = {0.5, 0.5, -0.5}};
    const double sd_rtt[] = {0.02, 0.002, 0.01, 0.01, 0.0002}, sd_ov[] = {0.002, 0.002, 0.002};
    for (int i = 0; i < 5; i++)
        rtt.cov[i][i] = sd_rtt[i] * sd_rtt[i];
    rtt.cov[2][3] = rtt.cov[3][2] = -0.9 * sd_rtt[2] * sd_rtt[3]; /* l3, l4 trade off */
    for (int i = 0; i < 3; i++)
        ov.cov[i][i] = sd_ov[i] * sd_ov[i];
    ov.cov[1][2] = ov.cov[2][1] = 0.5 * sd_ov[1] * sd_ov[2];
    const lop_fit_t *one_rtt[] = {&rtt}, *one_ov[] = {&ov};
    double at[] = {1, 4, 30};
    for (int k = 0; k < 3; k++) {
        lop_interval_t iv;
        double sd = delta_sd(rtt, at[k]);
        interval(one_rtt, 1, curve_at, &at[k], &lop_uncert_defaults, &iv);
        is_num(iv.hi - iv.lo, 2 * 2.03 * sd, 0.2 * sd, "rtt at p = %g: the delta method's "
               "width (t, 35 degrees of freedom; sd %.4f)", at[k], sd);
        sd = delta_sd(ov, at[k]);
        interval(one_ov, 1, curve_at, &at[k], &lop_uncert_defaults, &iv);
        is_num(iv.hi - iv.lo, 2 * 2.03 * sd, 0.2 * sd, "ov at p = %g: the delta method's width "
               "(t, 37 degrees of freedom; sd %.4f)", at[k], sd);
    }
    lop_fit_t near = ov;
    near.lambda[2] = -0.9;
    near.cov[2][2] = 0.01;
    near.cov[1][2] = near.cov[2][1] = 0;
    const lop_fit_t *one_near[] = {&near};
    lop_interval_t iv;
    interval(one_near, 1, pole_distance, NULL, &lop_uncert_defaults, &iv);
    ok(iv.lo > 0 && iv.n_nonfinite == 0 && iv.lo < 0.1 && iv.hi > 0.1,
       "a pole 0.1 +- 0.1 left of pmin: drawn left of pmin (distance %.3g..%.3g)", iv.lo, iv.hi);
}

/* the bucket's knot l4 */
static double knot(const lop_fit_t *const *fits, void *ctx)
{
    (void)ctx;
    return fits[0]->lambda[3];
}

/* The bucket's knot is drawn as it is (no coordinates of its own): its
 * interval is the fitted knot +- t·se, symmetric, with t of n − 4 = 8
 * degrees of freedom (2.306), and the round before the knot has the delta
 * method's width. */
static void check_knot(void)
{
    lop_fit_t b = {.model = &lop_model_bucket, .n = 12, .pmin = 1, .pmax = 12, .has_cov = 1,
                   .lambda = {150, 40, 150, 4.2}};
    const double sd[] = {1.0, 0.5, 0.8, 0.1};
    for (int i = 0; i < 4; i++)
        b.cov[i][i] = sd[i] * sd[i];
    b.cov[0][1] = b.cov[1][0] = -0.5 * sd[0] * sd[1];
    const lop_fit_t *one[] = {&b};
    lop_interval_t iv;
    ok(interval(one, 1, knot, NULL, &lop_uncert_defaults, &iv), "bucket: the knot's interval");
    is_num(iv.hi - iv.lo, 2 * 2.306 * sd[3], 0.1 * sd[3], "bucket: knot 4.2 +- 0.1, width of "
           "t(8) (%.4f..%.4f)", iv.lo, iv.hi);
    is_num(iv.hi + iv.lo, 2 * 4.2, 0.1 * sd[3], "bucket: ... symmetric about the fitted knot");
    double at = 2, width = 2 * 2.306 * delta_sd(b, at);
    interval(one, 1, curve_at, &at, &lop_uncert_defaults, &iv);
    is_num(iv.hi - iv.lo, width, 0.1 * width, "bucket at p = 2: the delta method's width");
}

/* The saturation of an rtt fit to 15 points (the thesis's rdmaw-inline RTT,
 * 2 % noise, seed 3) barely shows: l4 and l5 trade off along a hyperbola
 * (l4 = 397 +- 25700, l5 = -0.0007 +- 0.048).  Drawn in λ, 95 % of the
 * curves ran off it: RTT(4)'s interval was -25799..0.38 us around a fitted
 * 5.21.  Drawn as slope and rate, RTT(4)'s interval holds the fit and is
 * as wide as the delta method's, within a factor of 2. */
static void check_ridge(void)
{
    const double truth[] = {14.9630, 0.0446, 3.0074, 6.1891, -0.0531, 8.2665};
    double p[15], y[15], at = 4;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 3);
    for (int i = 0; i < 15; i++) {
        p[i] = i + 1;
        y[i] = lop_model_rtt.eval(truth, p[i]) * (1 + 0.02 * gsl_ran_gaussian(rng, 1.0));
    }
    gsl_rng_free(rng);
    lop_fitter_opts_t rel = lop_fitter_defaults;
    rel.weight = LOP_WEIGHT_REL;
    lop_fit_t fit = {0};
    lop_interval_t iv;
    if (!ok(lop_fitter_run(&lop_model_rtt, p, y, 15, &rel, &fit, NULL) == LOP_OK && fit.has_cov,
            "rtt fit to 15 points with a covariance"))
        return;
    const lop_fit_t *fits[] = {&fit};
    double sd = delta_sd(fit, at);
    interval(fits, 1, curve_at, &at, &lop_uncert_defaults, &iv);
    ok(iv.lo < iv.value && iv.value < iv.hi && iv.hi - iv.lo < 2 * 2 * 2.23 * sd &&
           iv.hi - iv.lo > 0.5 * 2 * 2.23 * sd,
       "RTT(4) = %.3f in %.3f..%.3f, the delta method's +-%.3f", iv.value, iv.lo, iv.hi,
       2.23 * sd);
}

/* Fit the LogP line to COVER_N noisy points of a known line; is the truth
 * at p = 1 and p = 64 (extrapolated) inside the 95 % interval? */
static void check_coverage(void)
{
    double p[COVER_N], y[COVER_N], truth[2] = {3.0, 0.2}, at[2] = {1, 64};
    int inside[2] = {0, 0}, trials = 0;
    lop_uncert_opts_t o = lop_uncert_defaults;
    o.n_draws = 1000;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int t = 0; t < COVER_TRIALS; t++) {
        gsl_rng_set(rng, (unsigned long)t + 1);
        for (int i = 0; i < COVER_N; i++) {
            p[i] = i + 1;
            y[i] = truth[0] + truth[1] * p[i] + gsl_ran_gaussian(rng, 0.5);
        }
        lop_fit_t fit = {0};
        if (lop_fitter_run(&lop_model_linear, p, y, COVER_N, &lop_fitter_defaults, &fit, NULL))
            continue;
        const lop_fit_t *fits[] = {&fit};
        o.seed = (unsigned long)t + 1;
        for (int k = 0; k < 2; k++) {
            lop_interval_t iv;
            double want = truth[0] + truth[1] * at[k];
            interval(fits, 1, line_at, &at[k], &o, &iv);
            inside[k] += iv.lo <= want && want <= iv.hi;
        }
        trials++;
    }
    gsl_rng_free(rng);
    /* the t draws make it 95 % for a linear model (a Gaussian ±1.96σ̂ would
     * cover 93.4 % with 18 degrees of freedom); the binomial sd over 400
     * trials is 1.1 %, the bounds are about ±2.5 sd */
    for (int k = 0; k < 2; k++)
        ok(trials == COVER_TRIALS && inside[k] >= 0.92 * trials && inside[k] <= 0.98 * trials,
           "coverage at p = %g: %d of %d truths inside (expect 95 %%)", at[k], inside[k],
           trials);
}

int main(void)
{
    check_gaussian();
    check_semidefinite();
    check_special();
    check_off_value();
    check_coverage();
    check_coordinates();
    check_ridge();
    check_knot();
    return tap_done();
}
