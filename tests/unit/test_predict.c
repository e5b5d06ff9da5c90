/*
 * test_predict.c - predicted barrier times and their intervals (models/predict.h).
 *
 * In-memory fits with a covariance (as lopfit's params.csv carries them):
 * every algorithm's closed forms and simulations get an interval that
 * contains the point value; with constant fits the LoP cost of diss is
 * linear in the parameters, so its interval is value ± 1.96 sigma exactly
 * (within the Monte Carlo error); fits without covariance give no interval;
 * explicit LogP parameters give LogP none; draws that are no time are
 * counted, and no time is named as such.
 */
#include <math.h>
#include <string.h>

#include "barrier.h"
#include "predict.h"
#include "sched.h"
#include "tap.h"

/* A constant fit l1 with variance v (n = 0: drawn Gaussian, uncert.h). */
static lop_fit_t const_fit(const char *quantity, double l1, double v)
{
    lop_fit_t f = {.model = &lop_model_const, .lambda = {l1}, .has_cov = v > 0, .pmin = 1,
                   .pmax = 63};
    snprintf(f.quantity, sizeof f.quantity, "%s", quantity);
    snprintf(f.series, sizeof f.series, "t-inline");
    f.cov[0][0] = v;
    return f;
}

/* The thesis's rdmaw-inline min fits (data/mozart-2005/params.csv) with a
 * covariance of relative size 'rel' on the linear parameters. */
static void mozart_fits(lop_fit_t *rtt, lop_fit_t *os, double rel, size_t n)
{
    *rtt = (lop_fit_t){.model = &lop_model_rtt, .n = n, .pmin = 1, .pmax = 63,
                       .lambda = {14.9630, 0.0446, 3.0074, 6.1891, -0.0531, 8.2665}, .has_cov = 1};
    *os = (lop_fit_t){.model = &lop_model_ov, .n = n, .pmin = 1, .pmax = 63,
                      .lambda = {0.5417, 0.5003, -0.4951}, .has_cov = 1};
    for (int i = 0; i < 4; i++)
        rtt->cov[i][i] = pow(rel * rtt->lambda[i], 2);
    rtt->cov[2][3] = rtt->cov[3][2] = -0.9 * sqrt(rtt->cov[2][2] * rtt->cov[3][3]);
    for (int i = 0; i < 2; i++)
        os->cov[i][i] = pow(rel * os->lambda[i], 2);
}

typedef struct {
    lop_view_t lop;
    barrier_cost_t cost;
    predict_t pr;
} world_t;

/* A predictor over rtt and os; L, o: explicit LogP parameters or NaN. */
static int world_init(world_t *w, const lop_fit_t *rtt, const lop_fit_t *os, double L, double o,
                      unsigned long seed)
{
    lop_uncert_opts_t uo = lop_uncert_defaults;
    uo.seed = seed;
    memset(w, 0, sizeof *w);
    w->lop = (lop_view_t){.rtt = rtt, .os = os, .pmin = 1, .pmax = 63};
    barrier_cost_init(&w->cost);
    w->cost.lop = &w->lop;
    predict_logp(&w->lop, L, o, o, NAN, &w->cost.logp);
    sched_sim_t sim = {SCHED_SIM_LOGP, &w->cost, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    return predict_init(&w->pr, &w->cost, L, o, o, &sim, &uo, 100) == LOP_OK;
}

/* Every algorithm's four times at P: lo <= value <= hi, all with an interval. */
static void check_contains(world_t *w, uint32_t p)
{
    int bad = 0, count = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        uint32_t n = (*a)->takes_n ? 2 : (*a)->default_n;
        sched_t s;
        int sched = !((*a)->flags & BARRIER_COST_ONLY);
        if (sched && sched_build(*a, p, n, &s) != LOP_OK) {
            bad++;
            continue;
        }
        for (int k = 0; k < PREDICT_KINDS; k++) {
            predict_time_t v;
            if (predict_kind_sim(k) && !sched)
                continue;
            count++;
            if (predict_time(&w->pr, k, *a, n, p, sched ? &s : NULL, &v) != LOP_OK ||
                !(v.lo_us <= v.us && v.us <= v.hi_us) || v.n_invalid) {
                bad++;
                diag((*a)->name);
            }
        }
        if (sched)
            sched_free(&s);
    }
    ok(bad == 0 && count > 40, "P = %u: lo <= value <= hi for all %d times of every algorithm",
       p, count);
}

static void check_every_algorithm(void)
{
    lop_fit_t rtt, os;
    world_t w;
    mozart_fits(&rtt, &os, 0.02, 63);
    ok(world_init(&w, &rtt, &os, NAN, NAN, 1), "predictor over fits with covariance");
    ok(predict_has_interval(&w.pr, PREDICT_LOGP) && predict_has_interval(&w.pr, PREDICT_SIM_LOP),
       "LogP from the fits and LoP both get intervals");
    for (uint32_t p = 4; p <= 64; p *= 4)
        check_contains(&w, p);
    /* the loop's gap from the exchange X(1), one point whose error is
     * unknown (predict_duplex): no interval for the loop, the bucket keeps its */
    w.pr.gap_us[0] = 5;
    sched_t s;
    predict_time_t loop, bucket;
    sched_build(barrier_alg_find("diss"), 8, 0, &s);
    ok(!predict_has_interval(&w.pr, PREDICT_LOOP) && predict_has_interval(&w.pr, PREDICT_BUCKET) &&
           predict_time(&w.pr, PREDICT_LOOP, barrier_alg_find("diss"), 0, 8, &s, &loop) == LOP_OK &&
           predict_time(&w.pr, PREDICT_BUCKET, barrier_alg_find("diss"), 0, 8, &s, &bucket) ==
               LOP_OK &&
           loop.no_interval && isnan(loop.lo_us) && loop.us > 0 && !bucket.no_interval &&
           bucket.lo_us <= bucket.us,
       "the loop's gap from X(1): the loop no-interval, the bucket its interval");
    sched_free(&s);
    predict_free(&w.pr);
}

/* diss under LoP with constant fits: rounds (o + L) = rounds (r/2 - o_s),
 * linear in the parameters: its interval is known exactly. */
static void check_linear(void)
{
    lop_fit_t rtt = const_fit("rtt", 20, 4), os = const_fit("os", 1, 0.01);
    world_t w;
    predict_time_t v, again;
    const barrier_alg_t *diss = barrier_alg_find("diss");
    ok(world_init(&w, &rtt, &os, NAN, NAN, 1), "constant fits drawn");
    ok(predict_time(&w.pr, PREDICT_LOP, diss, 1, 64, NULL, &v) == LOP_OK, "diss LoP at 64");
    double sigma = 6 * sqrt(4.0 / 4 + 0.01);
    is_num(v.us, 6 * (10 - 1), 1e-12, "value 6 (20/2 - 1) = 54");
    is_num(v.lo_us, 54 - 1.96 * sigma, 0.15 * sigma, "lo = 54 - 1.96 sigma (sigma %.3f)", sigma);
    is_num(v.hi_us, 54 + 1.96 * sigma, 0.15 * sigma, "hi = 54 + 1.96 sigma");
    ok(v.n_draws == 4000 && v.n_invalid == 0, "4000 draws for a closed form, all valid");
    predict_time(&w.pr, PREDICT_LOP, diss, 1, 64, NULL, &again);
    ok(again.lo_us == v.lo_us && again.hi_us == v.hi_us, "the same draws give the same interval");
    sched_t s;
    ok(sched_build(diss, 64, 1, &s) == LOP_OK, "diss schedule");
    ok(predict_time(&w.pr, PREDICT_SIM_LOP, diss, 1, 64, &s, &v) == LOP_OK && v.n_draws == 100,
       "simulation: the smaller number of draws (100)");
    ok(v.lo_us <= v.us && v.us <= v.hi_us, "simulated diss: %g in [%g, %g]", v.us, v.lo_us,
       v.hi_us);
    sched_free(&s);
    predict_free(&w.pr);

    ok(world_init(&w, &rtt, &os, NAN, NAN, 2), "another seed");
    predict_time(&w.pr, PREDICT_LOP, diss, 1, 64, NULL, &again);
    ok(again.lo_us != v.lo_us || again.hi_us != v.hi_us, "... other draws");
    predict_free(&w.pr);
}

/* A simulation's known value (the hybrid search's) gives what simulating
 * it again gives: the value, the same interval from the same draws, the
 * flags; a closed form's kind is refused. */
static void check_known(void)
{
    lop_fit_t rtt = const_fit("rtt", 20, 4), os = const_fit("os", 1, 0.01);
    world_t w;
    predict_time_t v, known;
    const barrier_alg_t *diss = barrier_alg_find("diss");
    sched_t s;
    ok(world_init(&w, &rtt, &os, NAN, NAN, 3) && sched_build(diss, 64, 1, &s) == LOP_OK,
       "known: diss at 64");
    for (predict_kind_t k = PREDICT_SIM_LOGP; k <= PREDICT_SIM_LOP; k++) {
        predict_t again;
        lop_uncert_opts_t uo = lop_uncert_defaults;
        uo.seed = 3;
        predict_time(&w.pr, k, diss, 1, 64, &s, &v);
        ok(predict_init(&again, &w.cost, NAN, NAN, NAN, &w.pr.sim, &uo, 100) == LOP_OK &&
               predict_time_known(&again, k, 64, &s, v.us, &known) == LOP_OK,
           "known: kind %d taken", (int)k);
        ok(known.us == v.us && known.lo_us == v.lo_us && known.hi_us == v.hi_us &&
               known.extrapolated == v.extrapolated && known.n_draws == v.n_draws,
           "known: kind %d: %g [%g, %g], as simulated", (int)k, known.us, known.lo_us,
           known.hi_us);
        predict_free(&again);
    }
    ok(predict_time_known(&w.pr, PREDICT_LOP, 64, &s, 1, &known) == LOP_ERR_INVALID,
       "known: a closed form's kind refused");
    sched_free(&s);
    predict_free(&w.pr);
}

static void check_no_covariance(void)
{
    lop_fit_t rtt = const_fit("rtt", 20, 0), os = const_fit("os", 1, 0);
    world_t w;
    predict_time_t v;
    ok(world_init(&w, &rtt, &os, NAN, NAN, 1), "fits without covariance");
    ok(!w.pr.closed && !predict_has_interval(&w.pr, PREDICT_LOP), "no draws, no intervals");
    predict_time(&w.pr, PREDICT_LOP, barrier_alg_find("diss"), 1, 8, NULL, &v);
    ok(v.us == 27 && isnan(v.lo_us) && isnan(v.hi_us) && v.n_draws == 0,
       "the value as before, empty interval");
    predict_free(&w.pr);

    lop_fit_t crtt = const_fit("rtt", 20, 4), cos_ = const_fit("os", 1, 0.01);
    ok(world_init(&w, &crtt, &cos_, 5, 1, 1), "explicit --L and --o");
    ok(!predict_has_interval(&w.pr, PREDICT_LOGP) && !predict_has_interval(&w.pr, PREDICT_SIM_LOGP) &&
       predict_has_interval(&w.pr, PREDICT_LOP), "LogP has no interval, LoP has");
    predict_free(&w.pr);
    /* one fit without covariance among fits with: its error is unknown, not zero */
    lop_fit_t exact_os = const_fit("os", 1, 0);
    ok(world_init(&w, &crtt, &exact_os, NAN, NAN, 1), "rtt with covariance, os without");
    predict_time(&w.pr, PREDICT_LOP, barrier_alg_find("diss"), 1, 8, NULL, &v);
    ok(w.pr.uncertain == &exact_os && !predict_has_interval(&w.pr, PREDICT_LOP) && v.no_interval &&
       isnan(v.lo_us) && isnan(v.hi_us) && v.us > 0,
       "... no interval, the fit is named and the time says no-interval");
    predict_free(&w.pr);
}

/* o + L = r/2 - o_s around 0.05: some draws give a negative diss cost. */
static void check_invalid_draws(void)
{
    lop_fit_t rtt = const_fit("rtt", 2.1, 0.01), os = const_fit("os", 1, 1e-12);
    world_t w;
    predict_time_t v;
    ok(world_init(&w, &rtt, &os, NAN, NAN, 1), "a fit near a negative L");
    predict_time(&w.pr, PREDICT_LOP, barrier_alg_find("diss"), 1, 8, NULL, &v);
    ok(v.n_invalid > 0 && v.n_invalid < v.n_draws && v.lo_us >= 0,
       "draws with a negative time are left out and counted (%zu of %zu)", v.n_invalid,
       v.n_draws);
    predict_free(&w.pr);
    ok(strcmp(predict_invalid(-1), "negative") == 0 && strcmp(predict_invalid(INFINITY), "infinite") == 0 &&
       strcmp(predict_invalid(-INFINITY), "infinite") == 0 && strcmp(predict_invalid(NAN), "undefined") == 0 &&
       !predict_invalid(0) && !predict_invalid(1e300), "no time is named: negative, infinite, undefined");
    predict_time_t a = {.lo_us = 1, .hi_us = 2}, b = {.lo_us = 2, .hi_us = 3}, c = {.lo_us = 2.5,
                                                                                   .hi_us = 3};
    predict_time_t none = {.lo_us = NAN, .hi_us = NAN};
    ok(predict_overlap(&a, &b) && !predict_overlap(&a, &c) && !predict_overlap(&a, &none),
       "overlap of intervals (touching counts, unknown never)");
}

/* Width grows with the covariance: 4x the variance, about 2x the width. */
static void check_width(void)
{
    lop_fit_t rtt, os, rtt4, os4;
    world_t w;
    predict_time_t v1, v2;
    const barrier_alg_t *nd = barrier_alg_find("ndiss");
    mozart_fits(&rtt, &os, 0.01, 0);
    mozart_fits(&rtt4, &os4, 0.02, 0);
    world_init(&w, &rtt, &os, NAN, NAN, 1);
    predict_time(&w.pr, PREDICT_LOP, nd, 2, 64, NULL, &v1);
    predict_free(&w.pr);
    world_init(&w, &rtt4, &os4, NAN, NAN, 1);
    predict_time(&w.pr, PREDICT_LOP, nd, 2, 64, NULL, &v2);
    predict_free(&w.pr);
    double r = (v2.hi_us - v2.lo_us) / (v1.hi_us - v1.lo_us);
    ok(r > 1.7 && r < 2.3, "twice the standard errors: %.3f times the width", r);
}

int main(void)
{
    check_every_algorithm();
    check_linear();
    check_known();
    check_no_covariance();
    check_invalid_draws();
    check_width();
    return tap_done();
}
