/* The simulator: simulated time equals the closed form wherever the form is
 * exact for the schedule (models/README.md lists where), per-rank times of the
 * central counter as in thesis 2.2.5.1, and the LoP cases of 2.3.7. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "sched_sim.h"
#include "tap.h"

static int power_of(uint64_t p, uint64_t k)
{
    while (p % k == 0)
        p /= k;
    return p == 1;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    return b ? gcd(b, a % b) : a;
}

/* Does the LogP closed form of 'alg' claim exactness here (given g <= t1)? */
static int logp_exact(const char *alg, uint32_t p, uint32_t n)
{
    uint32_t k = n < 2 ? 2 : n;
    if (!strcmp(alg, "cc") || !strcmp(alg, "diss"))
        return 1;
    if (!strcmp(alg, "ndiss")) { /* unless the last round drops offsets */
        uint32_t r = barrier_ceil_log(p, n + 1);
        return p == 1 || n < p / gcd(barrier_ipow(n + 1, r - 1), p);
    }
    if (!strcmp(alg, "comb") || !strcmp(alg, "ftour"))
        return power_of(p, k) && power_of(p, 2);
    if (!strcmp(alg, "tour") || !strcmp(alg, "bst") || !strcmp(alg, "bfly") || !strcmp(alg, "pe"))
        return power_of(p, 2);
    if (!strcmp(alg, "mcs"))
        return n == 1 && power_of(p, 2);
    if (!strcmp(alg, "rgm"))
        return power_of(p, n + 1);
    return 0;
}

/* Where a LoP closed form is not exact it is the thesis's style of
 * estimate (models/README.md): the band of closed form / simulation it
 * stays in, over n = 1..6 and the P = 2..BAND_PMAX where it is not exact,
 * for the test's LoP set at cnt = 3.  Measured (min..max of the ratio):
 * comb, ftour 0.954..2.28; tour 0.954..1.055; mcs 0.826..2.59; bst
 * 0.940..1.45; rgm 0.936..2.59; nwise 0.985..1.081; pe 0.985..1.081; bfly
 * 1.000..1.672; ndiss 1.000..4.58 (n > P−1 partners counted at small P).
 * The ratios above 1.1 are all at P < n + 2 or, for bst and bfly, where P
 * is not a power of 2.  The bands below are those with a margin of ~3 %. */
#define BAND_PMAX 64
typedef struct {
    const char *alg;
    double lo, hi; /* closed / simulated */
} lop_band_t;
static const lop_band_t lop_bands[] = {
    {"comb", 0.92, 2.35}, {"ftour", 0.92, 2.35}, {"tour", 0.92, 1.09}, {"mcs", 0.80, 2.67},
    {"bst", 0.91, 1.50},  {"rgm", 0.91, 2.67},   {"nwise", 0.95, 1.12}, {"pe", 0.95, 1.12},
    {"bfly", 0.99, 1.73}, {"ndiss", 0.99, 4.72},
};

static const lop_band_t *lop_band(const char *alg)
{
    for (size_t i = 0; i < sizeof lop_bands / sizeof *lop_bands; i++)
        if (!strcmp(lop_bands[i].alg, alg))
            return &lop_bands[i];
    return NULL;
}

/* Simulate alg for P = 1..200, n = 1..6 under 'model'; count where the
 * closed form claims exactness and matches, and where it is below the sim
 * (never, for LogP with g <= o_s + L + o_r: the forms are upper bounds).
 * Under LoP, where the form is not exact, its ratio to the simulation must
 * stay in the algorithm's band (above). */
static void sweep(barrier_cost_t *c, sched_sim_model_t model, const char *label,
                  int (*exact)(const char *, uint32_t, uint32_t))
{
    uint32_t below = 0, total = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++) {
        if ((*a)->flags & BARRIER_COST_ONLY)
            continue;
        for (uint32_t n = 1; n <= ((*a)->takes_n ? 6 : 1); n++) {
            uint32_t claimed = 0, matched = 0, first_bad = 0, banded = 0;
            double rmin = INFINITY, rmax = -INFINITY;
            for (uint32_t p = 1; p <= 200; p++) {
                sched_t s;
                sched_sim_t par = {model, c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM};
                sched_sim_result_t r = {0};
                sched_build(*a, p, n, &s);
                sched_sim_run(&s, &par, 0, &r);
                double closed = model == SCHED_SIM_LOGP ? (*a)->logp_us(c, p, barrier_alg_n(*a, n))
                                                        : (*a)->lop_us(c, p, barrier_alg_n(*a, n));
                total++;
                below += closed < r.max_us - 1e-9 * fmax(1, closed);
                if (exact((*a)->name, p, n)) {
                    claimed++;
                    if (fabs(closed - r.max_us) <= 1e-9 * fmax(1, closed))
                        matched++;
                    else if (!first_bad)
                        first_bad = p;
                } else if (model == SCHED_SIM_LOP && p >= 2 && p <= BAND_PMAX) {
                    banded++;
                    rmin = fmin(rmin, closed / r.max_us);
                    rmax = fmax(rmax, closed / r.max_us);
                }
                sched_free(&s);
            }
            if (claimed)
                ok(matched == claimed,
                   "%s %s n=%u: simulation = closed form at all %u exact P %s%u", label,
                   (*a)->name, n, claimed, first_bad ? "; first miss P=" : "", first_bad);
            const lop_band_t *band = lop_band((*a)->name);
            if (banded)
                ok(band && rmin >= band->lo && rmax <= band->hi,
                   "%s %s n=%u: closed/simulated in [%.2f, %.2f] at the %u other P = 2..%d "
                   "(%.3f..%.3f)",
                   label, (*a)->name, n, band ? band->lo : NAN, band ? band->hi : NAN, banded,
                   BAND_PMAX, rmin, rmax);
        }
    }
    if (model == SCHED_SIM_LOGP)
        ok(below == 0, "%s: no closed form below the simulation (%u of %u cases)", label, below,
           total);
}

static void logp_sweeps(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){5, 1, 1.5, 0.3}; /* o_s != o_r, a gap below o */
    sweep(&c, SCHED_SIM_LOGP, "LogP L=5 os=1 or=1.5 g=0.3", logp_exact);
    c.logp = (logp_t){2, 0.5, 0.5, 2}; /* g > o: f_s = f_r = g, still g <= t1 */
    sweep(&c, SCHED_SIM_LOGP, "LogP L=2 o=0.5 g=2", logp_exact);
}

/* Per-rank times of the central counter, thesis 2.2.5.1. */
static void cc_ranks(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){5, 1, 1.5, 1.25};
    const logp_t *m = &c.logp;
    double fr = logp_fr(m), fs = logp_fs(m), t1 = logp_t1(m);
    uint32_t p = 7;
    sched_t s;
    sched_sim_t par = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM};
    sched_sim_result_t r;
    sched_build(barrier_alg_find("cc"), p, 0, &s);
    ok(sched_sim_run(&s, &par, 1, &r) == LOP_OK && r.events == s.n_ops, "cc P=7: events = ops");
    is_num(r.rank_us[0], 2 * m->os_us + m->or_us + m->L_us + (p - 2) * (fr + fs), 1e-12,
           "rt_node0 = 2 o_s + o_r + L + (P-2) f_r + (P-2) f_s");
    for (uint32_t x = 1; x < p; x++)
        is_num(r.rank_us[x], 2 * t1 + (p - 2) * fr + (x - 1) * fs, 1e-12,
               "rt_node%u = 2 (o_s + L + o_r) + (P-2) f_r + (x-1) f_s", x);
    free(r.rank_us);
    sched_free(&s);
}

static int lop_exact(const char *alg, uint32_t p, uint32_t n)
{
    if (!strcmp(alg, "ndiss") || !strcmp(alg, "diss"))
        return logp_exact(alg, p, n);
    if (!strcmp(alg, "cc")) /* o((P-1) cnt) <= L((P-1) cnt) for this set */
        return 1;
    if (!strcmp(alg, "bfly") || !strcmp(alg, "pe"))
        return power_of(p, 2);
    return 0;
}

/* A set whose o(p) is small and whose L(p) falls with p (pipelining):
 * RTT(p) = 12/(1+p) + 9, o(p) = 0.4 + 0.6/p. */
static const char lop_rows[] = "x,t-inline,rtt,min,rtt,9,1,64,12,1,9,0,0,0\n"
                               "x,t-inline,os,min,ov,9,1,64,0.4,0.6,0,,,\n";
static lop_paramset_t set;
static lop_lop_t lop;

static void lop_sweeps(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.lop = &lop;
    c.cnt = 3;
    sweep(&c, SCHED_SIM_LOP, "LoP cnt=3", lop_exact);
}

/* Batch arguments: the central counter is 1:n and n:1 either way; the
 * dissemination is 1:1 batches, so R (o(cnt) + L(cnt)). */
static void lop_batch(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.lop = &lop;
    c.cnt = 2;
    sched_sim_t par = {SCHED_SIM_LOP, &c, SCHED_LOP_BATCH, NULL, SCHED_RECV_PROGRAM};
    sched_sim_result_t r;
    sched_t s;
    sched_build(barrier_alg_find("cc"), 13, 0, &s);
    sched_sim_run(&s, &par, 0, &r);
    is_num(r.max_us, barrier_alg_find("cc")->lop_us(&c, 13, 0), 1e-9, "batch: cc P=13 = 2.3.7.1.1");
    sched_free(&s);
    sched_build(barrier_alg_find("diss"), 13, 0, &s);
    sched_sim_run(&s, &par, 0, &r);
    is_num(r.max_us, 4 * (lop_lop_o(&lop, 2) + lop_lop_L(&lop, 2)), 1e-9,
           "batch: diss P=13 = R (o(cnt) + L(cnt))");
    sched_free(&s);
}

static void deadlock(void)
{
    sched_t s;
    barrier_cost_t c;
    barrier_cost_init(&c);
    sched_init(&s, 2);
    sched_push(&s, SCHED_RECV, 1, 0);
    sched_push(&s, SCHED_SEND, 1, 0);
    sched_end_rank(&s, 0);
    sched_push(&s, SCHED_RECV, 0, 0);
    sched_push(&s, SCHED_SEND, 0, 0);
    sched_end_rank(&s, 1);
    sched_sim_t par = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM};
    sched_sim_result_t r;
    ok(sched_sim_run(&s, &par, 0, &r) != LOP_OK && strstr(lop_errmsg(), "deadlock"),
       "a deadlock is an error, not a time: %s", lop_errmsg());
    sched_free(&s);
}

/* cc whose root takes the reports in reverse order (a long scan of its
 * inbox; the engine then indexes it by sender): all reports arrive together,
 * so the time is cc's, and it must not take O(P^2). */
static void reverse_fan_in(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){5, 1, 1.5, 0.25};
    sched_sim_t par = {SCHED_SIM_LOGP, &c, SCHED_LOP_STREAM, NULL, SCHED_RECV_PROGRAM};
    sched_sim_result_t fwd, rev;
    for (uint32_t p = 8; p <= 4096; p *= 8) {
        sched_t s;
        sched_init(&s, p);
        for (uint32_t r = p - 1; r >= 1; r--)
            sched_push(&s, SCHED_RECV, (int32_t)r, 0);
        for (uint32_t r = 1; r < p; r++)
            sched_push(&s, SCHED_SEND, (int32_t)r, 1);
        sched_end_rank(&s, 0);
        for (uint32_t r = 1; r < p; r++) {
            sched_push(&s, SCHED_SEND, 0, 0);
            sched_push(&s, SCHED_RECV, 0, 1);
            sched_end_rank(&s, r);
        }
        sched_t cc;
        sched_build(barrier_alg_find("cc"), p, 0, &cc);
        int run = sched_sim_run(&s, &par, 0, &rev) == LOP_OK &&
                  sched_sim_run(&cc, &par, 0, &fwd) == LOP_OK;
        ok(run && rev.max_us == fwd.max_us,
           "P = %u: reports taken in reverse order cost what cc's cost (%g us)", p, rev.max_us);
        sched_free(&s);
        sched_free(&cc);
    }
}

int main(void)
{
    logp_sweeps();
    cc_ranks();
    fixture_lop_load(lop_rows, &set, &lop);
    lop_sweeps();
    lop_batch();
    lop_paramset_free(&set);
    deadlock();
    reverse_fan_in();
    return tap_done();
}
