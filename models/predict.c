/* predict.c - predicted barrier times with intervals (predict.h). */
#include "predict.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <string.h>

#include "fmt_series.h"

void predict_logp(const lop_view_t *lop, double L, double os, double or, double g, logp_t *out)
{
    out->L_us = !isnan(L) || !lop ? L : lop_view_L(lop, 1);
    out->os_us = !isnan(os) || !lop ? os : lop_view_o(lop, 1);
    out->or_us = !isnan(or) || !lop ? or : lop->orecv ? lop_fit_eval(lop->orecv, 1) : out->os_us;
    out->g_us = isnan(g) ? 0 : g;
}

double predict_loop_rtt(const lop_view_t *lop)
{
    return lop_fit_eval(lop->prtt ? lop->prtt : lop->rtt, 1);
}

void predict_loop_logp(const lop_view_t *lop, const logp_t *given, logp_t *out)
{
    if (!lop) {
        *out = *given;
        return;
    }
    out->os_us = lop_fit_eval(lop->os, lop->os->pmax);
    out->or_us = lop->orecv ? lop_fit_eval(lop->orecv, lop->orecv->pmax) : out->os_us;
    out->L_us = predict_loop_rtt(lop) / 2 - out->os_us - out->or_us;
    double g = lop_view_gap(lop);
    out->g_us = isnan(g) ? 0 : g;
}

void predict_bucket_logp(const lop_view_t *shown, const lop_view_t *lop, const logp_t *given,
                         logp_t *out, double *burst)
{
    predict_loop_logp(lop, given, out);
    *burst = 0;
    if (!shown || lop_view_no_burst(shown))
        return;
    double g, t1;
    lop_view_bucket(lop, &g, burst, &t1);
    if (!isnan(g)) /* a knot's; else the loop's, and the gap from X(1) (predict_duplex) */
        out->g_us = g;
    out->L_us = t1 / 2 - out->os_us - out->or_us;
}

/* The calibration identity with one gap for both ways (models/README.md
 * "The loop"): a rank's send then waits g after its last delivery and a
 * delivery g after its last send, so a message each way in turn costs
 * 2 (L + max{o_s + o_r, g}) a round trip, not 2 (L + o_s + o_r): L is
 * max{0, g - o_s - o_r} lower.  A bucket with a burst passes both at once. */
static void shared_calibration(logp_t *m, double burst)
{
    if (burst <= 1)
        m->L_us -= fmax(m->g_us - m->os_us - m->or_us, 0);
}

int predict_logp_negative(const logp_t *m)
{
    return m->L_us < 0 || m->os_us < 0 || m->or_us < 0 || m->g_us < 0;
}

/* The fits of a lop_view_t, in the order predictors draw them. */
static const lop_fit_t **lop_slot(lop_view_t *lop, int i)
{
    const lop_fit_t **slot[PREDICT_MAX_FITS] = {
        &lop->rtt,    &lop->os,    &lop->os_list, &lop->orecv,   &lop->prtt,
        &lop->round,  &lop->mc_rtt, &lop->mc_os,  &lop->ans_rtt, &lop->ans_os};
    return slot[i];
}

lop_status_t predict_init(predict_t *pr, barrier_cost_t *cost, double L, double os, double or,
                          const sched_sim_t *sim, const lop_uncert_opts_t *uo,
                          size_t sim_draws)
{
    const lop_fit_t *fits[PREDICT_MAX_FITS];
    int any_cov = 0;
    memset(pr, 0, sizeof *pr);
    pr->cost = cost;
    pr->L_us = L;
    pr->os_us = os;
    pr->or_us = or;
    pr->sim = *sim;
    for (int b = 0; b < 2; b++) {
        predict_duplex_t d;
        predict_ack_t k;
        lop_status_t st = predict_duplex(pr, b ? PREDICT_BUCKET : PREDICT_LOOP, &d);
        pr->shared[b] = d.shared;
        pr->gap_us[b] = d.gap_us;
        st = st ? st : predict_ack(pr, b ? PREDICT_BUCKET : PREDICT_LOOP, &k);
        if (st)
            return st;
        pr->ack_us[b] = k.ack_us;
    }
    lop_view_t lop = cost->lop ? *cost->lop : (lop_view_t){0};
    for (int i = 0; i < PREDICT_MAX_FITS; i++) {
        const lop_fit_t *f = *lop_slot(&lop, i);
        if (!f)
            continue;
        any_cov |= f->has_cov;
        pr->slot[pr->n_drawn] = i;
        fits[pr->n_drawn++] = f;
    }
    for (int i = 0; i < pr->n_drawn && any_cov && !pr->uncertain; i++)
        if (!fits[i]->has_cov)
            pr->uncertain = fits[i];
    if (!any_cov || pr->uncertain) { /* a published set: exact; else an error unknown */
        pr->n_drawn = 0;
        return LOP_OK;
    }
    lop_uncert_opts_t so = *uo;
    so.n_draws = sim_draws;
    lop_status_t st = lop_uncert_draw(fits, pr->n_drawn, uo, &pr->closed);
    st = st ? st : lop_uncert_draw(fits, pr->n_drawn, &so, &pr->simd);
    if (st)
        predict_free(pr);
    return st;
}

void predict_free(predict_t *pr)
{
    lop_uncert_free(pr->closed);
    lop_uncert_free(pr->simd);
    pr->closed = pr->simd = NULL;
    pr->n_drawn = 0;
}

/* Are the LogP parameters taken from the fits (some not given)? */
static int logp_from_fits(const predict_t *pr)
{
    return pr->cost->lop && (isnan(pr->L_us) || isnan(pr->os_us) || isnan(pr->or_us));
}

/* Does 'kind' take its gap from the exchange X(1) (predict_duplex)?  That
 * is one point whose error is unknown: no interval can carry it. */
static int gap_from_exchange(const predict_t *pr, predict_kind_t kind)
{
    return (kind == PREDICT_LOOP || kind == PREDICT_BUCKET) &&
           pr->gap_us[kind == PREDICT_BUCKET] > 0;
}

int predict_has_interval(const predict_t *pr, predict_kind_t kind)
{
    if (!pr->closed || gap_from_exchange(pr, kind))
        return 0;
    if (kind == PREDICT_SIM_LOGP && pr->sim.pairs) /* per-pair costs replace the fits' */
        return 0;
    return kind == PREDICT_LOP || kind == PREDICT_SIM_LOP || kind == PREDICT_LOOP ||
           kind == PREDICT_BUCKET || logp_from_fits(pr);
}

const char *predict_invalid(double us)
{
    return isnan(us) ? "undefined" : isinf(us) ? "infinite" : us < 0 ? "negative" : NULL;
}

int predict_overlap(const predict_time_t *a, const predict_time_t *b)
{
    if (isnan(a->lo_us) || isnan(a->hi_us) || isnan(b->lo_us) || isnan(b->hi_us))
        return 0;
    return a->lo_us <= b->hi_us && b->lo_us <= a->hi_us;
}

/* The loop's (the bucket's) LogP parameters with the fits of 'c': a burst
 * the point fit shows, priced with this draw's fits; the gap from X(1)
 * where above the series' own (predict_duplex); L calibrated where
 * 'shared'. */
static void loop_logp(const predict_t *pr, const barrier_cost_t *c, predict_kind_t kind,
                      int shared, logp_t *m, double *burst)
{
    int b = kind == PREDICT_BUCKET;
    predict_bucket_logp(b ? pr->cost->lop : NULL, c->lop, &c->logp, m, burst);
    if (pr->gap_us[b] > 0 && pr->gap_us[b] > m->g_us)
        m->g_us = pr->gap_us[b];
    if (shared)
        shared_calibration(m, *burst);
}

/* The loop (models/README.md "The loop"): loop[0] and loop[1], R and 2R
 * barriers back to back, simulated under LogP with the loop's parameters and
 * the gap on the adapter; the time of a barrier of a long loop is the period
 * (T(2R) - T(R)) / R, which lopbench's per-barrier times of a loop
 * (thesis 4.3.2) add up to.  The bucket (PREDICT_BUCKET, "The bucket") runs
 * the same loop with its own parameters and token-bucket adapters.  Each
 * adapter is one gap for sends and deliveries where 'shared', and a
 * message not answered on its pair costs its receiver's adapter ack_us. */
static lop_status_t loop_time(const predict_t *pr, const barrier_cost_t *c, predict_kind_t kind,
                              const sched_t *loop, int shared, double ack_us, double *us,
                              sched_sim_result_t *res)
{
    barrier_cost_t lc = *c;
    sched_sim_t par = pr->sim;
    loop_logp(pr, c, kind, shared, &lc.logp, &par.adapter_burst);
    par.model = SCHED_SIM_LOGP;
    par.adapter_gap = 1;
    par.adapter_shared = shared;
    par.ack_us = ack_us;
    par.cost = &lc;
    sched_sim_result_t once;
    lop_status_t st = sched_sim_run(&loop[0], &par, 0, &once);
    st = st ? st : sched_sim_run(&loop[1], &par, 0, res);
    *us = st ? NAN : (res->max_us - once.max_us) / PREDICT_LOOP_ROUNDS;
    return st;
}

/* The loop's two schedules: R and 2R times 's' back to back. */
static lop_status_t loop_pair(const sched_t *s, sched_t loop[2])
{
    lop_status_t st = sched_repeat(s, PREDICT_LOOP_ROUNDS, &loop[0]);
    if (st == LOP_OK && (st = sched_repeat(s, 2 * PREDICT_LOOP_ROUNDS, &loop[1])) != LOP_OK)
        sched_free(&loop[0]);
    return st;
}

/* p ranks that each send to the next, then receive from the previous one:
 * scenario 3's exchange (p = 2) or ring (p = 3), as the loop's two
 * schedules. */
static lop_status_t step_loop(uint32_t p, sched_t loop[2])
{
    sched_t x;
    lop_status_t st = sched_init(&x, p);
    if (st)
        return st;
    for (uint32_t r = 0; r < p; r++) {
        sched_push(&x, SCHED_SEND, (int32_t)((r + 1) % p), 0);
        sched_push(&x, SCHED_RECV, (int32_t)((r + p - 1) % p), 0);
        sched_end_rank(&x, r);
    }
    st = x.error ? x.error : loop_pair(&x, loop);
    sched_free(&x);
    return st;
}

/* 'pr' with the series' own costs, not per-pair ones (--costs). */
static predict_t own_costs(const predict_t *pr)
{
    predict_t uniform = *pr;
    uniform.sim.pairs = NULL;
    uniform.sim.or_per_pair = 0;
    return uniform;
}

/* A loop's period less a measured one, as a function of one cost (a
 * gsl_function): the ring's at an acknowledgement, with the adapters
 * chosen, or the exchange's at a gap, with shared adapters. */
typedef struct {
    predict_t pr;       /* a copy: a gap tried is set in it */
    predict_kind_t kind;
    const sched_t *loop;
    double measured_us;
    int of_gap;         /* the cost is the gap, else the acknowledgement */
    int shared;         /* the adapters pass sends and deliveries through one gap */
    lop_status_t st;
} excess_ctx_t;

static double loop_excess(double cost_us, void *ctx)
{
    excess_ctx_t *e = ctx;
    int b = e->kind == PREDICT_BUCKET;
    double us;
    sched_sim_result_t res;
    if (e->of_gap)
        e->pr.gap_us[b] = cost_us;
    lop_status_t st = loop_time(&e->pr, e->pr.cost, e->kind, e->loop, e->shared,
                                e->of_gap ? 0 : cost_us, &us, &res);
    e->st = e->st ? e->st : st;
    return st ? GSL_NAN : us - e->measured_us;
}

/* The root of loop_excess between 0 and hi, where the signs differ
 * (Brent's method: the period grows with the cost); a GSL status. */
static int excess_root(excess_ctx_t *e, double hi, double *cost_us)
{
    gsl_function f = {loop_excess, e};
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return GSL_ENOMEM;
    int status = gsl_root_fsolver_set(s, &f, 0, hi);
    for (int i = 0; status == GSL_SUCCESS && i < 100; i++) {
        status = gsl_root_fsolver_iterate(s);
        double lo = gsl_root_fsolver_x_lower(s), up = gsl_root_fsolver_x_upper(s);
        if (status == GSL_SUCCESS && gsl_root_test_interval(lo, up, 1e-6, 1e-9) == GSL_SUCCESS)
            break;
    }
    *cost_us = gsl_root_fsolver_root(s);
    gsl_root_fsolver_free(s);
    return status;
}

/* The cost where the loop takes the measured time, once 'excess' (at 0)
 * is below 0: the period is at least the cost once the adapter's bucket is
 * drained, so doubling from the measured time brackets it, unless g is
 * below 0 by as much (a fit of a loaded machine's PRTT).  Where no bracket
 * or no root is found, the cost is 0 and *why says so ('none' for no
 * bracket). */
#define EXCESS_DOUBLINGS 16
static void excess_find(excess_ctx_t *e, double excess, const char *none, double *cost_us,
                        const char **why)
{
    double hi = e->measured_us / 2, at_hi = excess;
    for (int i = 0; e->st == LOP_OK && !(at_hi >= 0) && i <= EXCESS_DOUBLINGS; i++) {
        hi *= 2;
        at_hi = loop_excess(hi, e);
    }
    if (e->st)
        return;
    if (!(at_hi >= 0)) {
        *why = none;
        return;
    }
    gsl_error_handler_t *handler = gsl_set_error_handler_off();
    int status = excess_root(e, hi, cost_us);
    gsl_set_error_handler(handler);
    if (status != GSL_SUCCESS && e->st == LOP_OK) {
        *cost_us = 0;
        *why = gsl_strerror(status);
    }
}

/* A series whose exchange is shorter than X(1) with the adapters 'shared'
 * says: a rank cannot send again that soon.  The gap that makes the
 * exchange take X(1) is what the host or the adapter pays per message
 * pair (a one-sided series, PRTT(k) at k = 1 alone, has no gap of its
 * own; a TCP stack pays a system call each way; models/README.md "The
 * loop"). */
static void duplex_gap(const predict_t *uniform, predict_kind_t kind, const sched_t *loop,
                       int shared, predict_duplex_t *out, lop_status_t *st)
{
    excess_ctx_t e = {*uniform, kind, loop, out->measured_us, 1, shared, LOP_OK};
    double *period = shared ? &out->shared_us : &out->apart_us;
    excess_find(&e, *period - out->measured_us,
                "no gap up to 2^16 X(1) makes the exchange take X(1)", &out->gap_us, &out->why);
    if (e.st == LOP_OK && out->gap_us > 0) {
        *period = loop_excess(out->gap_us, &e) + out->measured_us;
        out->shared = shared;
    }
    *st = e.st;
}

lop_status_t predict_duplex(const predict_t *pr, predict_kind_t kind, predict_duplex_t *out)
{
    const lop_view_t *lop = pr->cost->lop;
    *out = (predict_duplex_t){NAN, NAN, NAN, 0, 0, 0, 0, NULL};
    if (!lop || !lop->exch || (kind != PREDICT_LOOP && kind != PREDICT_BUCKET))
        return LOP_OK;
    out->measured_us = lop_fit_eval(lop->exch, 1);
    logp_t m;
    double burst;
    predict_bucket_logp(kind == PREDICT_BUCKET ? lop : NULL, lop, &pr->cost->logp, &m, &burst);
    out->host_bound = m.os_us + m.or_us >= m.L_us;
    predict_t uniform = own_costs(pr); /* X(1) was measured with them */
    uniform.gap_us[kind == PREDICT_BUCKET] = 0; /* the series' own, whatever was found before */
    sched_t loop[2];
    sched_sim_result_t res;
    lop_status_t st = step_loop(2, loop);
    if (st)
        return st;
    st = loop_time(&uniform, pr->cost, kind, loop, 0, 0, &out->apart_us, &res);
    st = st ? st : loop_time(&uniform, pr->cost, kind, loop, 1, 0, &out->shared_us, &res);
    out->closer = st == LOP_OK &&
                  fabs(out->shared_us - out->measured_us) < fabs(out->apart_us - out->measured_us);
    out->shared = out->closer && out->host_bound;
    /* Without a bucket's knot the exchange is calibrated to X(1): shared
     * where even that is shorter and the host paces the messages, else apart. */
    int knot = kind == PREDICT_BUCKET && burst > 1 && lop_view_knot(lop);
    if (st == LOP_OK && !knot && out->measured_us > out->apart_us)
        duplex_gap(&uniform, kind, loop, out->host_bound && out->measured_us > out->shared_us,
                   out, &st);
    sched_free(&loop[0]);
    sched_free(&loop[1]);
    return st;
}

lop_status_t predict_ack(const predict_t *pr, predict_kind_t kind, predict_ack_t *out)
{
    const lop_view_t *lop = pr->cost->lop;
    *out = (predict_ack_t){NAN, NAN, 0, NULL};
    if (!lop || !lop->ring || (kind != PREDICT_LOOP && kind != PREDICT_BUCKET))
        return LOP_OK;
    double ranks = lop->ring->pmin; /* the ring's P (fmt_series.h) */
    if (!(ranks >= LOP_FMT_SERIES_RING_MIN_RANKS && ranks <= SCHED_MAX_P &&
          ranks == floor(ranks))) {
        out->why = "the ring's P is not a whole number of ranks from 3 to 2^24";
        return LOP_OK;
    }
    out->measured_us = lop_fit_eval(lop->ring, ranks);
    sched_t loop[2];
    lop_status_t st = step_loop((uint32_t)ranks, loop);
    if (st)
        return st;
    excess_ctx_t r = {own_costs(pr), kind, loop, out->measured_us, 0,
                      pr->shared[kind == PREDICT_BUCKET], LOP_OK}; /* R(P)'s costs */
    double excess = loop_excess(0, &r);
    out->plain_us = excess + out->measured_us;
    if (r.st == LOP_OK && excess < 0)
        excess_find(&r, excess, "no acknowledgement up to 2^16 R(P) makes the ring take R(P)",
                    &out->ack_us, &out->why);
    sched_free(&loop[0]);
    sched_free(&loop[1]);
    return r.st;
}

/* One time with the parameters of 'c' ('loop': the loop's two schedules). */
static lop_status_t evaluate(const predict_t *pr, barrier_cost_t *c, predict_kind_t kind,
                             const barrier_alg_t *a, uint32_t n, uint32_t p, const sched_t *s,
                             const sched_t *loop, double *us, sched_sim_result_t *res)
{
    if (kind == PREDICT_LOOP || kind == PREDICT_BUCKET)
        return loop_time(pr, c, kind, loop, pr->shared[kind == PREDICT_BUCKET],
                         pr->ack_us[kind == PREDICT_BUCKET], us, res);
    if (kind == PREDICT_LOGP || kind == PREDICT_LOP) {
        *us = kind == PREDICT_LOGP ? a->logp_us(c, p, n) : a->lop_us(c, p, n);
        return LOP_OK;
    }
    sched_sim_t par = pr->sim;
    par.model = kind == PREDICT_SIM_LOGP ? SCHED_SIM_LOGP : SCHED_SIM_LOP;
    par.cost = c;
    lop_status_t st = sched_sim_run(s, &par, 0, res);
    *us = st ? NAN : res->max_us;
    return st;
}

/* What one draw needs besides the drawn fits. */
typedef struct {
    const predict_t *pr;
    predict_kind_t kind;
    const barrier_alg_t *a;
    uint32_t n, p;
    const sched_t *s;
    const sched_t *loop; /* PREDICT_LOOP, PREDICT_BUCKET: the loop's two schedules */
    lop_status_t st;     /* the first failure of a simulation */
} draw_ctx_t;

/* The time with the drawn fits (NaN if it is no time): lop_uncert_fn_t. */
static double drawn_time(const lop_fit_t *const *fits, void *ctx)
{
    draw_ctx_t *d = ctx;
    const predict_t *pr = d->pr;
    lop_view_t lop = *pr->cost->lop;
    barrier_cost_t c = *pr->cost;
    sched_sim_result_t res;
    double us;
    for (int i = 0; i < pr->n_drawn; i++)
        *lop_slot(&lop, pr->slot[i]) = fits[i];
    c.lop = &lop;
    predict_logp(&lop, pr->L_us, pr->os_us, pr->or_us, pr->cost->logp.g_us, &c.logp);
    lop_status_t st = evaluate(pr, &c, d->kind, d->a, d->n, d->p, d->s, d->loop, &us, &res);
    if (st && !d->st)
        d->st = st;
    return predict_invalid(us) ? NAN : us;
}

/* Was the point evaluation of 'kind' outside the fitted p range?  The range
 * of this evaluation alone is in c->lop_pmin..lop_pmax. */
static int extrapolated(const predict_t *pr, predict_kind_t kind)
{
    const barrier_cost_t *c = pr->cost;
    if (!c->lop)
        return 0;
    if (kind == PREDICT_BUCKET && !lop_view_no_burst(c->lop)) /* T(1) of the round fit */
        return c->lop->round->pmin > 1 || !lop_view_in_range(c->lop, 1);
    if (kind == PREDICT_LOGP || kind == PREDICT_LOOP || kind == PREDICT_BUCKET ||
        (kind == PREDICT_SIM_LOGP && !pr->sim.pairs))
        return logp_from_fits(pr) && !lop_view_in_range(c->lop, 1);
    return c->lop_pmin <= c->lop_pmax &&
           (!lop_view_in_range(c->lop, c->lop_pmin) || !lop_view_in_range(c->lop, c->lop_pmax));
}

/* Is a LogP parameter of kind's below 0? */
static int negative_logp(const predict_t *pr, predict_kind_t kind)
{
    const barrier_cost_t *c = pr->cost;
    logp_t m;
    double burst;
    if (kind == PREDICT_BUCKET || kind == PREDICT_LOOP) {
        loop_logp(pr, c, kind, pr->shared[kind == PREDICT_BUCKET], &m, &burst);
        return predict_logp_negative(&m);
    }
    return (kind == PREDICT_LOGP || (kind == PREDICT_SIM_LOGP && !pr->sim.pairs)) &&
           predict_logp_negative(&c->logp);
}

/* predict_time, with the point value 'known' instead of evaluated if not NULL. */
static lop_status_t time_of(predict_t *pr, predict_kind_t kind, const barrier_alg_t *a,
                            uint32_t n, uint32_t p, const sched_t *s, const double *known,
                            const sched_t *loop, predict_time_t *out)
{
    barrier_cost_t *c = pr->cost;
    double pmin = c->lop_pmin, pmax = c->lop_pmax; /* the run's range so far */
    memset(out, 0, sizeof *out);
    out->lo_us = out->hi_us = NAN;
    c->lop_pmin = INFINITY;
    c->lop_pmax = -INFINITY;
    lop_status_t st = LOP_OK;
    if (known)
        out->us = *known;
    else
        st = evaluate(pr, c, kind, a, n, p, s, loop, &out->us, &out->sim);
    out->extrapolated = extrapolated(pr, kind);
    /* per-pair costs (--costs) replace the LogP parameters of a simulation */
    out->negative_logp = negative_logp(pr, kind);
    c->lop_pmin = fmin(c->lop_pmin, pmin);
    c->lop_pmax = fmax(c->lop_pmax, pmax);
    out->no_interval = pr->uncertain != NULL || (pr->closed && gap_from_exchange(pr, kind));
    if (st || !predict_has_interval(pr, kind))
        return st;
    draw_ctx_t d = {pr, kind, a, n, p, s, loop, LOP_OK};
    lop_interval_t iv;
    st = lop_uncert_interval(predict_kind_sim(kind) ? pr->simd : pr->closed, drawn_time, &d, &iv);
    st = st ? st : d.st;
    if (st)
        return st;
    out->lo_us = iv.lo;
    out->hi_us = iv.hi;
    out->n_draws = iv.n_draws;
    out->n_invalid = iv.n_nonfinite;
    out->off_interval = iv.off_value;
    return LOP_OK;
}

lop_status_t predict_time(predict_t *pr, predict_kind_t kind, const barrier_alg_t *a, uint32_t n,
                          uint32_t p, const sched_t *s, predict_time_t *out)
{
    if (predict_kind_sim(kind) && !s)
        return lop_err(LOP_ERR_INVALID, "predict_time: a simulation needs a schedule");
    if (kind != PREDICT_LOOP && kind != PREDICT_BUCKET)
        return time_of(pr, kind, a, n, p, s, NULL, NULL, out);
    sched_t loop[2];
    lop_status_t st = loop_pair(s, loop);
    if (st)
        return st;
    st = time_of(pr, kind, a, n, p, s, NULL, loop, out);
    sched_free(&loop[0]);
    sched_free(&loop[1]);
    return st;
}

lop_status_t predict_time_known(predict_t *pr, predict_kind_t kind, uint32_t p, const sched_t *s,
                                double us, predict_time_t *out)
{
    if (kind != PREDICT_SIM_LOGP && kind != PREDICT_SIM_LOP)
        return lop_err(LOP_ERR_INVALID, "predict_time_known: a simulation's kind");
    return time_of(pr, kind, NULL, 0, p, s, &us, NULL, out);
}
