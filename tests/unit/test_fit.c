/*
 * test_fit.c - the fitter (fit/fitter.h) on synthetic data from known
 * parameters: every model × generating parameter set × noise level.
 *
 * For each case: the fit's SSR is not above the SSR of the generating
 * parameters (the fitter is the minimiser), the result keeps the
 * constraints, the fitted curve matches the generating one within the noise,
 * identifiable parameters are recovered (exactly without noise, within five
 * standard errors with noise), and a second run with the same seed gives
 * bit-identical results.  Then the LogP line against its closed form,
 * bad points, a non-identifiable case, and the global search on few noisy
 * points against a search with eight times the starts.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fitter.h"
#include "tap.h"

#define MAX_POINTS 64

typedef struct {
    const char *name;
    const lop_model_t *model;
    double lambda[LOP_MODEL_MAX_PARAMS];
    int pmax;       /* points at p = 1..pmax */
    int check_all;  /* 1: every λ identifiable (besides the rtt gauge λ6) */
} truth_t;

/* Thesis 2.3.6.2/2.3.6.3 published fits plus shapes with a clear
 * saturation, where λ3..λ5 are identifiable. */
static const truth_t truths[] = {
    {"rtt send-n min", &lop_model_rtt, {22.4558, -0.0140, 9.1637, 0.0174, -0.0625, 101.3065}, 63, 1},
    {"rtt send-n avg", &lop_model_rtt, {191.6019, -0.0232, 35.7292, 63.578, 0.0034, -43.7788}, 63, 0},
    {"rtt send-i avg", &lop_model_rtt, {424.1248, 2.4364, 8.4888, -0.4132, -1.6407, 1.1077}, 63, 0},
    {"rtt rdmaw-n min", &lop_model_rtt, {16.7937, 0.0058, 4.4642, 4.4751, -0.0642, 12.9209}, 63, 1},
    {"rtt rdmaw-i avg", &lop_model_rtt, {14.0689, 0.0117, 11.4724, 4.3843, -0.0186, 29.1184}, 50, 0},
    {"rtt rising", &lop_model_rtt, {10.0, 0.5, 5.0, -2.0, 0.08, 1.0}, 32, 1},
    {"ov send-n", &lop_model_ov, {0.5150, 0.8443, -0.1160}, 63, 1},
    {"ov rr send-n", &lop_model_ov, {0.5042, 0.0871, -0.9037}, 16, 1},
    {"ov rdmaw-l", &lop_model_ov, {0.1803, 0.5726, -0.5746}, 16, 1},
    {"linear", &lop_model_linear, {2.0, 0.5}, 20, 1},
    /* scenario 2's round on the lab's token bucket (fit/README.md): a burst
     * of 4 at 40 us a peer, then the 150 us gap; and a knot between points */
    {"bucket lab", &lop_model_bucket, {150.0, 40.0, 150.0, 4.0}, 7, 1},
    {"bucket knot 4.6", &lop_model_bucket, {100.0, 20.0, 120.0, 4.6}, 10, 1},
};

static const double noise_levels[] = {0.0, 0.01}; /* relative Gaussian noise */

/* λ with the rtt gauge λ6 moved to 'pmin' (same curve, see fitter.h). */
static void to_gauge(const truth_t *t, double pmin, double *lambda)
{
    memcpy(lambda, t->lambda, sizeof t->lambda);
    if (t->model != &lop_model_rtt)
        return;
    double l4 = t->lambda[3] * exp(t->lambda[4] * (pmin - t->lambda[5]));
    lambda[2] = t->lambda[2] + t->lambda[3] - l4;
    lambda[3] = l4;
    lambda[5] = pmin;
}

static size_t make_points(const truth_t *t, double noise, unsigned long seed, double *p,
                          double *y, double *truth_y)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    size_t n = (size_t)t->pmax;
    for (size_t i = 0; i < n; i++) {
        p[i] = (double)(i + 1);
        truth_y[i] = t->model->eval(t->lambda, p[i]);
        y[i] = truth_y[i] * (1 + noise * gsl_ran_gaussian(rng, 1.0));
    }
    gsl_rng_free(rng);
    return n;
}

static void check_case(const truth_t *t, double noise)
{
    double p[MAX_POINTS], y[MAX_POINTS], ty[MAX_POINTS], want[LOP_MODEL_MAX_PARAMS];
    size_t n = make_points(t, noise, 42, p, y, ty);
    lop_fit_t fit, again;
    lop_fitter_stats_t st;
    const char *nm = t->name;
    if (!ok(lop_fitter_run(t->model, p, y, n, &lop_fitter_defaults, &fit, &st) == LOP_OK,
            "%s noise %g: fit runs", nm, noise))
        return;
    double ssr_truth = 0, dev2 = 0, scale = 0;
    for (size_t i = 0; i < n; i++) {
        ssr_truth += (y[i] - ty[i]) * (y[i] - ty[i]);
        dev2 += pow(lop_fit_eval(&fit, p[i]) - ty[i], 2);
        scale += ty[i] * ty[i];
    }
    ok(fit.ssr <= ssr_truth * (1 + 1e-9) + 1e-20 * scale, "%s noise %g: SSR %.6g <= truth's %.6g",
       nm, noise, fit.ssr, ssr_truth);
    ok(lop_fitter_feasible(t->model, fit.lambda, fit.pmin, fit.pmax), "%s noise %g: feasible",
       nm, noise);
    ok(sqrt(dev2) <= (noise > 0 ? sqrt(ssr_truth) : 1e-9 * sqrt(scale)),
       "%s noise %g: curve within the noise (rms dev %.3g)", nm, noise, sqrt(dev2 / n));
    ok(fit.n == n && fit.pmin == 1 && fit.pmax == t->pmax && fit.model == t->model,
       "%s noise %g: n and p range", nm, noise);
    to_gauge(t, fit.pmin, want);
    for (int j = 0; j < t->model->n_params && t->check_all; j++) {
        if (t->model == &lop_model_rtt && j == 5)
            continue;
        double tol = noise > 0 ? 5 * fit.se[j] : 1e-6 * fmax(fabs(want[j]), 1);
        is_num(fit.lambda[j], want[j], tol, "%s noise %g: l%d recovered", nm, noise, j + 1);
    }
    if (t->model == &lop_model_rtt)
        ok(isnan(fit.se[5]) && fit.lambda[5] == fit.pmin, "%s: l6 is the gauge pmin, se n/a", nm);
    lop_fitter_run(t->model, p, y, n, &lop_fitter_defaults, &again, NULL);
    ok(memcmp(fit.lambda, again.lambda, sizeof fit.lambda) == 0 && fit.ssr == again.ssr,
       "%s noise %g: same seed, identical result", nm, noise);
}

/* LogP line against the closed-form least-squares line. */
static void check_linear_closed_form(void)
{
    const double p[] = {1, 2, 3, 5, 8}, y[] = {2.1, 2.4, 3.2, 3.9, 5.6};
    double sp = 0, sy = 0, spp = 0, spy = 0, n = 5;
    for (int i = 0; i < 5; i++) {
        sp += p[i];
        sy += y[i];
        spp += p[i] * p[i];
        spy += p[i] * y[i];
    }
    double b = (n * spy - sp * sy) / (n * spp - sp * sp), a = (sy - b * sp) / n;
    lop_fit_t fit;
    ok(lop_fitter_run(&lop_model_linear, p, y, 5, &lop_fitter_defaults, &fit, NULL) == LOP_OK,
       "linear closed form: fit runs");
    is_num(fit.lambda[0], a, 1e-10, "linear closed form: intercept");
    is_num(fit.lambda[1], b, 1e-10, "linear closed form: slope");
    ok(isfinite(fit.se[0]) && fit.se[0] > 0 && isfinite(fit.r2) && fit.r2 < 1,
       "linear closed form: finite se and R^2");
}

static void check_bad_points(void)
{
    double p[6] = {1, 2, 3, 4, 5, 6}, y[6] = {1, 2, 3, 4, 5, 6};
    lop_fit_t fit;
    ok(lop_fitter_run(&lop_model_rtt, p, y, 5, &lop_fitter_defaults, &fit, NULL) ==
               LOP_ERR_INVALID && strstr(lop_errmsg(), "5 points for the 6-parameter rtt"),
       "too few points: %s", lop_errmsg());
    p[3] = 3;
    ok(lop_fitter_run(&lop_model_ov, p, y, 6, &lop_fitter_defaults, &fit, NULL) ==
               LOP_ERR_INVALID && strstr(lop_errmsg(), "p = 3 occurs twice"),
       "duplicate p: %s", lop_errmsg());
    p[3] = 0;
    ok(lop_fitter_run(&lop_model_ov, p, y, 6, &lop_fitter_defaults, &fit, NULL) ==
           LOP_ERR_INVALID, "p < 1: %s", lop_errmsg());
    p[3] = 4;
    y[2] = NAN;
    ok(lop_fitter_run(&lop_model_ov, p, y, 6, &lop_fitter_defaults, &fit, NULL) ==
           LOP_ERR_INVALID, "NaN y: %s", lop_errmsg());
    y[2] = 3;
    ok(lop_fitter_run(&lop_model_linear, p, y, 2, &lop_fitter_defaults, &fit, NULL) == LOP_OK &&
           isnan(fit.se[0]) && isnan(fit.se[1]) && fit.ssr < 1e-20,
       "as many points as parameters: exact, se unknown");
}

/* A straight line fitted with the rtt model: the pipeline and saturation
 * terms can only imitate it in a limit, so λ trade off; the standard errors
 * must say so instead of looking precise. */
static void check_not_identifiable(void)
{
    const truth_t line = {"line", &lop_model_linear, {5.0, 0.1}, 40, 0};
    for (unsigned long seed = 1; seed <= 3; seed++) {
        double p[MAX_POINTS], y[MAX_POINTS], ty[MAX_POINTS];
        size_t n = make_points(&line, 0.01, seed, p, y, ty);
        lop_fit_t fit;
        ok(lop_fitter_run(&lop_model_rtt, p, y, n, &lop_fitter_defaults, &fit, NULL) == LOP_OK,
           "line as rtt, seed %lu: fit runs", seed);
        int vague = 0;
        for (int j = 0; j < 5; j++)
            vague += isnan(fit.se[j]) || fit.se[j] > 0.5 * fabs(fit.lambda[j]);
        ok(vague > 0, "line as rtt, seed %lu: some of l1..l5 have se n/a or > |l|/2", seed);
    }
}

/* Few, noisy points make the SSR landscape multimodal: the default search
 * must find what a search with 8 times the starts finds. */
static void check_global(void)
{
    lop_fitter_opts_t many = lop_fitter_defaults;
    many.seed = 99;
    many.n_starts = 8 * lop_fitter_defaults.n_starts;
    for (size_t t = 0; t < 5; t++) {
        truth_t few = truths[t];
        few.pmax = 9;
        for (unsigned long seed = 1; seed <= 2; seed++) {
            double p[MAX_POINTS], y[MAX_POINTS], ty[MAX_POINTS];
            size_t n = make_points(&few, 0.2, seed, p, y, ty);
            lop_fit_t fit, best;
            lop_fitter_run(few.model, p, y, n, &lop_fitter_defaults, &fit, NULL);
            lop_fitter_run(few.model, p, y, n, &many, &best, NULL);
            ok(fit.ssr <= best.ssr * (1 + 1e-4), "%s, 9 points, 20%% noise, seed %lu: SSR %.6g, "
               "%d starts %.6g", few.name, seed, fit.ssr, many.n_starts, best.ssr);
        }
    }
}

int main(void)
{
    for (size_t t = 0; t < COUNT(truths); t++)
        for (size_t k = 0; k < COUNT(noise_levels); k++)
            check_case(&truths[t], noise_levels[k]);
    check_linear_closed_form();
    check_bad_points();
    check_not_identifiable();
    check_global();
    return tap_done();
}
