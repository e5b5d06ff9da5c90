/*
 * test_mcast_model.c - a measured hardware multicast in the LoP model
 * (src/view.h lop_view_Lmcast, models/barrier.h
 * barrier_lop_mcast): L_mc(p) from lopbench's multicast round trip, rgm's
 * release charged with it in the closed form and the simulation alike, its
 * fits drawn for the intervals, and a set with a multicast series but
 * without its answers' refused by name.
 *
 * Constant fits throughout: RTT 20 and o_s 1 for the barrier's series
 * (L = 20/2 - 2 = 8), the answers' series rdmaw-normal the same, the
 * multicast's RTT_mcast 30 and o_s 0.5.  Then
 *   L_mc(p) = p 30 - 0.5 - 1 - p 8 = 22 p - 1.5,
 * and rgm at P = 2, n = 1 is a gather (o + L = 9) and the release
 * (0.5 + L_mc(1) = 21): 30 us.
 */
#include <math.h>
#include <string.h>

#include "barrier.h"
#include "predict.h"
#include "sched.h"
#include "sched_sim.h"
#include "tap.h"

static lop_fit_t const_fit(const char *series, const char *quantity, double l1, double v)
{
    lop_fit_t f = {.model = &lop_model_const, .lambda = {l1}, .has_cov = v > 0, .pmin = 1,
                   .pmax = 63};
    snprintf(f.series, sizeof f.series, "%s", series);
    snprintf(f.quantity, sizeof f.quantity, "%s", quantity);
    snprintf(f.stat, sizeof f.stat, "min");
    f.cov[0][0] = v;
    return f;
}

enum { RTT, OS, MC_RTT, MC_OS, ANS_RTT, ANS_OS, N_FITS };

/* The set's rows; 'v' the variance of every constant. */
static void fits_make(lop_fit_t *fit, double v)
{
    fit[RTT] = const_fit("rdmaw-inline", "rtt", 20, v);
    fit[OS] = const_fit("rdmaw-inline", "os", 1, v / 100);
    fit[MC_RTT] = const_fit(LOP_MCAST_SERIES, "rtt", 30, v);
    fit[MC_OS] = const_fit(LOP_MCAST_SERIES, "os", 0.5, v / 100);
    fit[ANS_RTT] = const_fit(LOP_MCAST_ANSWERS, "rtt", 20, v);
    fit[ANS_OS] = const_fit(LOP_MCAST_ANSWERS, "os", 1, v / 100);
}

static void check_latency(void)
{
    lop_fit_t fit[N_FITS];
    fits_make(fit, 0);
    lop_paramset_t set = {"params.csv", fit, N_FITS};
    lop_view_t lop;
    ok(lop_view_from_set(&set, "rdmaw-inline", "min", &lop) == LOP_OK &&
       lop_view_mcast_from_set(&set, "min", &lop) == LOP_OK && lop.mc_rtt == &fit[MC_RTT] &&
       lop.mc_os == &fit[MC_OS] && lop.ans_rtt == &fit[ANS_RTT] && lop.ans_os == &fit[ANS_OS],
       "the multicast series and its answers' are found beside the barrier's");
    is_num(lop_view_omcast(&lop, 7), 0.5, 0, "o_mc(7) = o_s of the multicast post");
    is_num(lop_view_Lmcast(&lop, 1), 20.5, 1e-12, "L_mc(1) = 30 - 0.5 - 1 - 8");
    is_num(lop_view_Lmcast(&lop, 7), 152.5, 1e-12, "L_mc(7) = 7 30 - 0.5 - 1 - 7 8");

    ok(lop_view_from_set(&set, LOP_MCAST_SERIES, "min", &lop) == LOP_ERR_INVALID &&
       strstr(lop_errmsg(), "'mcast-normal' is a multicast"),
       "the multicast series is not a barrier's series: %s", lop_errmsg());
    set.n = MC_RTT; /* no multicast: nothing else is needed */
    ok(lop_view_from_set(&set, "rdmaw-inline", "min", &lop) == LOP_OK &&
       lop_view_mcast_from_set(&set, "min", &lop) == LOP_OK && !lop.mc_rtt &&
       !lop.ans_rtt && isnan(lop_view_Lmcast(&lop, 1)) && isnan(lop_view_omcast(&lop, 1)),
       "a set without a multicast series: none, and no multicast cost");
    set.n = ANS_RTT; /* the multicast without its answers */
    ok(lop_view_mcast_from_set(&set, "min", &lop) == LOP_ERR_INVALID &&
       strstr(lop_errmsg(), "params.csv: series 'mcast-normal' needs") &&
       strstr(lop_errmsg(), "no rtt fit of 'rdmaw-normal'"),
       "the multicast without its answers' fits is refused: %s", lop_errmsg());
}

/* rgm's closed form and simulation under LoP, with and without the
 * multicast series. */
static void check_rgm(void)
{
    lop_fit_t fit[N_FITS];
    fits_make(fit, 0);
    lop_paramset_t set = {"params.csv", fit, N_FITS};
    lop_view_t with, without;
    lop_view_from_set(&set, "rdmaw-inline", "min", &with);
    lop_view_mcast_from_set(&set, "min", &with);
    set.n = MC_RTT;
    lop_view_from_set(&set, "rdmaw-inline", "min", &without);
    const barrier_alg_t *rgm = barrier_alg_find("rgm");
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.lop = &with;
    is_num(rgm->lop_us(&c, 2, 1), 30, 1e-12, "rgm P = 2: gather 9 + release 0.5 + 20.5");
    ok(c.lop_pmax == 1, "the multicast's argument is recorded (P - 1 = 1)");
    double mc8 = rgm->lop_us(&c, 8, 1);
    c.lop = &without;
    double p2p8 = rgm->lop_us(&c, 8, 1);
    is_num(mc8 - p2p8, (0.5 + 22 * 7 - 1.5) - (1 + 8), 1e-9,
           "P = 8: the release o_mc + L_mc(7) replaces o(1) + L(1)");
    for (uint32_t p = 2; p <= 9; p += 7) {
        sched_t s;
        sched_sim_result_t res;
        c.lop = &with;
        sched_sim_t sim = {SCHED_SIM_LOP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
        ok(sched_build(rgm, p, 1, &s) == LOP_OK && sched_sim_run(&s, &sim, 0, &res) == LOP_OK,
           "rgm P = %u simulated with the multicast series", p);
        if (p == 2)
            is_num(res.max_us, 30, 1e-12, "... the closed form's 30 us");
        else
            ok(res.max_us > 0.5 + 22 * 8 - 1.5, "P = 9: at least the release to 8 (%g us)",
               res.max_us);
        sched_free(&s);
    }
    /* a schedule without an MCAST never evaluates the multicast at P - 1 */
    sched_t s;
    sched_sim_result_t res;
    barrier_cost_init(&c);
    c.lop = &with;
    sched_sim_t sim = {SCHED_SIM_LOP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    ok(sched_build(barrier_alg_find("diss"), 200, 1, &s) == LOP_OK &&
       sched_sim_run(&s, &sim, 0, &res) == LOP_OK && c.lop_pmax == 8,
       "diss P = 200 with the multicast series: the range used is its own (1..%g), not 199",
       c.lop_pmax);
    sched_free(&s);
}

/* Every fit with a covariance is drawn, the multicast's four too. */
static void check_draws(void)
{
    lop_fit_t fit[N_FITS];
    fits_make(fit, 0.04);
    lop_paramset_t set = {"params.csv", fit, N_FITS};
    lop_view_t lop;
    lop_view_from_set(&set, "rdmaw-inline", "min", &lop);
    lop_view_mcast_from_set(&set, "min", &lop);
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.lop = &lop;
    predict_t pr;
    sched_sim_t sim = {SCHED_SIM_LOP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM, 0};
    ok(predict_init(&pr, &c, NAN, NAN, NAN, &sim, &lop_uncert_defaults, 100) == LOP_OK &&
       pr.n_drawn == 6, "six fits drawn (the barrier's two, the multicast's, its answers')");
    predict_time_t v;
    lop_status_t st = predict_time(&pr, PREDICT_LOP, barrier_alg_find("rgm"), 1, 2, NULL, &v);
    ok(st == LOP_OK && v.us == 30 && v.lo_us < 30 && v.hi_us > 30,
       "rgm P = 2: 30 us in [%g, %g]", v.lo_us, v.hi_us);
    /* 30 = rtt/2 - o_s + RTT_mcast + o_a - rtt_a/2 (the multicast's o_s
     * cancels): variance 0.04 (1/4 + 1/100 + 1 + 1/100 + 1/4) = 0.0608 */
    double width = 2 * 1.96 * sqrt(0.0608);
    is_num(v.hi_us - v.lo_us, width, 0.1 * width, "... an interval as wide as the variances give");
    predict_free(&pr);
}

int main(void)
{
    check_latency();
    check_rgm();
    check_draws();
    return tap_done();
}
