/*
 * predict.h - one predicted barrier time, whether it is a time at all, and
 * its 95 % interval from the uncertainty of the fitted parameters (a
 * prediction without its error says more than the fit knows).
 *
 * A time is a closed form (barrier_alg_t.logp_us, lop_us) or a simulation
 * of a schedule (sched_sim.h) under LogP or LoP.  When the LoP fits of the
 * series (rtt, os, os_list, or) carry a covariance, their parameters are
 * drawn once per predictor (src/uncert.h; one set of draws for the closed
 * forms, a smaller one for the simulations, which cost a whole simulation
 * per draw) and every time is recomputed on the same draws, so the
 * intervals of one run are consistent with each other.  LoP varies through
 * o(p) and L(p); LogP through its parameters L = L(1), o_s = o_s(1),
 * o_r = o_r(1), unless they were given explicitly (then LogP has no
 * interval: it does not depend on the fits).
 *
 * A time that is negative, infinite or NaN is no time (predict_invalid): a
 * fit extrapolated far outside its data can give any of them.  The caller
 * prints the word, never the number.  Draws whose time is no time are left
 * out of the interval and counted (predict_time_t.n_invalid): the interval
 * is then over the valid draws only, and the caller must say so.
 */
#ifndef LOP_PREDICT_H
#define LOP_PREDICT_H

#include <stddef.h>
#include <stdint.h>

#include "barrier.h"
#include "lop.h"
#include "sched.h"
#include "sched_sim.h"
#include "uncert.h"

typedef enum {
    PREDICT_LOGP,     /* LogP closed form */
    PREDICT_LOP,      /* LoP closed form */
    PREDICT_SIM_LOGP, /* LogP simulation of the schedule */
    PREDICT_SIM_LOP,  /* LoP simulation of the schedule */
    PREDICT_LOOP,     /* the loop: LogP calibrated on RTT(1), the gap on the adapter,
                         barriers back to back (models/README.md "The loop") */
    PREDICT_BUCKET,   /* the loop through token-bucket adapters where the round fit
                         shows them (models/README.md "The bucket"), else the loop */
    PREDICT_KINDS
} predict_kind_t;

/* Is 'kind' a simulation of a schedule (else a closed form)? */
static inline int predict_kind_sim(int kind)
{
    return kind == PREDICT_SIM_LOGP || kind == PREDICT_SIM_LOP || kind == PREDICT_LOOP ||
           kind == PREDICT_BUCKET;
}

/* The loop's period is (T(2R) - T(R)) / R for R barriers back to back: the
 * first round's start-up cancels. */
#define PREDICT_LOOP_ROUNDS 8

/* Draws of the simulated times by default: lopredict --simulate over all
 * algorithms and P = 2..64 stays within seconds (models/README.md gives the
 * Monte Carlo error: 0.19 sigma per quantile at 200 draws). */
#define PREDICT_SIM_DRAWS 200

/* Fewest --draws: a 95 % interval's ends are the 2.5 % and 97.5 % quantiles,
 * and below 40 draws the 2.5 % tail holds less than one draw, so the ends are
 * the extreme draws and the interval can exclude the estimate. */
#define PREDICT_SIM_DRAWS_MIN 40

/* The fits of a lop_view_t that can be drawn: rtt, os, os_list, orecv, prtt,
 * round and the multicast's mc_rtt, mc_os, ans_rtt, ans_os. */
#define PREDICT_MAX_FITS 10

typedef struct {
    barrier_cost_t *cost;          /* point parameters: cost->logp and cost->lop's fits */
    double L_us, os_us, or_us;     /* LogP parameters given explicitly; NaN: from the set */
    sched_sim_t sim;               /* how schedules are simulated (cost replaced per draw) */
    lop_uncert_t *closed;          /* draws for closed forms; NULL: no intervals */
    lop_uncert_t *simd;            /* draws for simulations; NULL: no intervals */
    int slot[PREDICT_MAX_FITS];    /* which fit of the lop_view_t each drawn fit is */
    int n_drawn;                   /* fits drawn (0: no covariance anywhere) */
    const lop_fit_t *uncertain;    /* a fit without covariance in a set where others have
                                      one (e.g. a constant fitted to one point): its error is
                                      unknown, not zero, so no interval is computed */
    int shared[2];                 /* the loop's [0] and the bucket's [1] adapters pass
                                      sends and deliveries through one gap
                                      (predict_duplex: the point set's choice) */
    double ack_us[2];              /* the loop's [0] and the bucket's [1] acknowledgement
                                      of a message not answered on its pair
                                      (predict_ack: the point set's) */
    double gap_us[2];              /* the loop's [0] and the bucket's [1] gap from X(1)
                                      where above the series' own (predict_duplex);
                                      0: the series' own */
} predict_t;

/* Which adapter the loop or the bucket takes, and at what gap
 * (models/README.md "The loop"): where the series has an exchange X(1)
 * (lopbench --scenario 3), the exchange loop of two ranks is simulated with
 * each rank's sends and deliveries through a gap each (apart: LogP, an
 * exchange costs one message, PRTT(1)/2) and through one gap (shared: a
 * host that handles them one at a time).  Where X(1) is longer than the
 * apart exchange and no token bucket shows (a burst of one), the gap is
 * the one that makes the exchange take X(1): shared where the host's
 * overheads are at least the latency (o_s + o_r >= L: a host stack, not a
 * wire, paces the messages) and even the shared exchange is shorter, else
 * apart.  Elsewhere the closer of the two at the series' own gap, shared
 * only where the host is bound so. */
typedef struct {
    double measured_us;        /* X(1); NaN: no exch fit (then the rest NaN, apart) */
    double apart_us, shared_us; /* the exchange's period, each way (the one taken: with gap_us) */
    int closer;                /* shared is closer to X(1) than apart */
    int host_bound;            /* o_s + o_r >= L of the loop's (the bucket's) parameters */
    int shared;                /* the choice (closer and host_bound, unless a gap was taken) */
    double gap_us;             /* the gap X(1) implies, where above the series' own, or 0 */
    const char *why;           /* NULL, or why no such gap was found (then 0) */
} predict_duplex_t;

lop_status_t predict_duplex(const predict_t *pr, predict_kind_t kind, predict_duplex_t *out);

/* What the loop or the bucket charges a message its receiver never answers
 * (sched_sim_t.ack_us; models/README.md "The loop"): where the series has a
 * ring R(P) (lopbench --scenario 3 on three ranks or more: its fit's p is
 * the ring's P), the ring loop of P ranks is simulated with the adapters
 * predict_duplex chose, and ack_us is what makes its period R(P): 0 where
 * the period is R(P) or more without it. */
typedef struct {
    double measured_us; /* R(P); NaN: no ring fit (then plain_us NaN, ack_us 0) */
    double plain_us;    /* the ring's period without acknowledgements */
    double ack_us;      /* the acknowledgement's cost */
    const char *why;    /* NULL, or why none was found (then ack_us 0) */
} predict_ack_t;

lop_status_t predict_ack(const predict_t *pr, predict_kind_t kind, predict_ack_t *out);

typedef struct {
    double us;             /* the time at the fitted parameters (maybe no time) */
    double lo_us, hi_us;   /* interval over the valid draws; NaN when none */
    size_t n_draws;        /* draws the interval was computed from; 0: no interval */
    size_t n_invalid;      /* draws whose time was no time */
    int extrapolated;      /* o(p), L(p) (LogP: at p = 1) evaluated outside the fitted range */
    int no_interval;       /* an interval was wanted but pr->uncertain prevents it, or
                              the loop's or the bucket's gap from X(1) */
    int off_interval;      /* the draws' interval left out the time: none (uncert.h) */
    int negative_logp;     /* a LogP time computed from a LogP parameter below 0 (one
                              from a set: L(1) < 0), a number but not a barrier time */
    sched_sim_result_t sim; /* the point simulation's counts and times (simulations) */
} predict_time_t;

/* LogP parameters: the given ones (not NaN), else those of 'lop' at p = 1
 * (thesis 2.3.7: t_1:1), o_r = o_s(1) without an o_r fit; g as given (NaN: 0). */
void predict_logp(const lop_view_t *lop, double L, double os, double or, double g, logp_t *out);

/* The round trip the loop is calibrated on: PRTT(1), one message each way
 * back to back as a loop of barriers runs them (lopbench --scenario 3), or
 * where the set has no prtt fit RTT(1) of scenario 2, after an idle gap. */
double predict_loop_rtt(const lop_view_t *lop);

/* The loop's LogP parameters from 'lop' (models/README.md "The loop"): o_s
 * and o_r of a post among posts back to back (the fits at their largest p;
 * o_r = o_s without an o_r fit), L such that one message costs half the
 * round trip of predict_loop_rtt (o_s + L + o_r = PRTT(1)/2, in the set's
 * statistic), g the slope of PRTT(k) (0 without a prtt fit).  Without a
 * set, 'given' as it is. */
void predict_loop_logp(const lop_view_t *lop, const logp_t *given, logp_t *out);

/* The bucket's LogP parameters and burst (models/README.md "The bucket").
 * Where the series of 'shown' (the point set) shows a token bucket
 * (lop_view_no_burst NULL): o_s, o_r as the loop's, g and *burst from the
 * round fit of 'lop' (a draw of it, or the same; lop_view_bucket: without a
 * knot g is the loop's, and predict_duplex the gap X(1) implies), L such
 * that a round trip after idle costs T(1) (o_s + L + o_r = T(1)/2).  Elsewhere the loop's
 * parameters (predict_loop_logp of lop and 'given') and *burst = 0: the
 * bucket is then the loop. */
void predict_bucket_logp(const lop_view_t *shown, const lop_view_t *lop, const logp_t *given,
                         logp_t *out, double *burst);

/* Is a LogP parameter of 'm' below 0 (e.g. L = l1 + ... at p = 1 of a set)? */
int predict_logp_negative(const logp_t *m);

/* A predictor over 'cost' (whose lop may be NULL: LogP only, no intervals).
 * 'uo' gives seed and level of both draws and the closed forms' count;
 * 'sim_draws' the simulations'.  Errors: lop_uncert_draw's. */
lop_status_t predict_init(predict_t *pr, barrier_cost_t *cost, double L, double os, double or,
                          const sched_sim_t *sim, const lop_uncert_opts_t *uo,
                          size_t sim_draws);
void predict_free(predict_t *pr);

/* Does 'kind' get an interval (the fits it depends on have a covariance)? */
int predict_has_interval(const predict_t *pr, predict_kind_t kind);

/* The time of algorithm 'a' (closed forms) or of schedule 's' (simulations)
 * at p ranks, and its interval.  The point evaluation records the p range of
 * o() and L() in pr->cost as before.  Errors: the simulator's. */
lop_status_t predict_time(predict_t *pr, predict_kind_t kind, const barrier_alg_t *a, uint32_t n,
                          uint32_t p, const sched_t *s, predict_time_t *out);

/* predict_time of simulation 'kind' of 's' whose point value 'us' is known:
 * 's' simulated under pr->sim's parameters (with pr->cost) by the caller,
 * as the hybrid search does; out->sim stays empty.  An interval is still
 * drawn where predict_has_interval says so. */
lop_status_t predict_time_known(predict_t *pr, predict_kind_t kind, uint32_t p, const sched_t *s,
                                double us, predict_time_t *out);

/* NULL if 'us' is a time (finite, >= 0), else why not: "negative",
 * "infinite" or "undefined" (NaN). */
const char *predict_invalid(double us);

/* Do the intervals [a_lo, a_hi] and [b_lo, b_hi] overlap?  0 if either is unknown. */
int predict_overlap(const predict_time_t *a, const predict_time_t *b);

#endif
