/*
 * test_duplex.c - the loop's adapters and acknowledgements (models/predict.h):
 * sends and deliveries through a gap each or one (sched_sim_t.adapter_shared),
 * the exchange calibrated to X(1) by the gap (predict_duplex), with L
 * calibrated so that a ping-pong still costs PRTT(1); whom each rank sends
 * to (sched_send_peers);
 * the acknowledgement of a message never answered on its pair
 * (sched_sim_t.ack_us), priced by the ring R(1) (predict_ack).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "predict.h"
#include "sched.h"
#include "tap.h"

/* p ranks, each sending to the next and receiving from the previous one,
 * 'times' rounds: the ring (p = 3) or the exchange (p = 2). */
static void steps(uint32_t p, uint32_t times, sched_t *out)
{
    sched_t s;
    sched_init(&s, p);
    for (uint32_t r = 0; r < p; r++) {
        sched_push(&s, SCHED_SEND, (int32_t)((r + 1) % p), 0);
        sched_push(&s, SCHED_RECV, (int32_t)((r + p - 1) % p), 0);
        sched_end_rank(&s, r);
    }
    sched_repeat(&s, times, out);
    sched_free(&s);
}

/* Two ranks that each send to the other, then receive, with L = 4,
 * o_s = 7, o_r = 1, g = 8 on the adapters: apart the peer's message is
 * delivered when it arrives, 7 + 4, done at 12; shared the delivery waits
 * g after the rank's own message left at 7: 15, done at 16. */
static void adapter_shared(void)
{
    sched_t s;
    steps(2, 1, &s);
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){.L_us = 4, .os_us = 7, .or_us = 1, .g_us = 8};
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 1};
    sched_sim_result_t apart, shared;
    ok(sched_sim_run(&s, &par, 1, &apart) == LOP_OK, "exchange, adapters apart: runs");
    par.adapter_shared = 1;
    ok(sched_sim_run(&s, &par, 1, &shared) == LOP_OK, "exchange, adapters shared: runs");
    ok(apart.rank_us[0] == 12 && apart.rank_us[1] == 12,
       "apart: o_s + L + o_r = 12, one message's time");
    ok(shared.rank_us[0] == 16 && shared.rank_us[1] == 16,
       "shared: the delivery waits g after the rank's own send: o_s + g + o_r = 16");
    free(apart.rank_us);
    free(shared.rank_us);
    sched_free(&s);
}

/* The set of a loop with PRTT(k) = 16 + 8 k (g = 8) and o_s, o_r, X(1)
 * as given, plus 'more' (rows, or ""), into *set and *lop. */
static void loop_set(const char *os, const char *or, const char *exch, const char *more,
                     lop_paramset_t *set, lop_view_t *lop)
{
    char text[640];
    snprintf(text, sizeof text, "x,t-inline,rtt,min,const,9,1,63,30,,,,,\n"
             "x,t-inline,os,min,const,9,1,63,%s,,,,,\n"
             "x,t-inline,or,min,const,9,1,63,%s,,,,,\n"
             "x,t-inline,prtt,min,linear,9,1,8,16,8,,,,\n"
             "x,t-inline,exch,min,const,1,1,1,%s,,,,,\n%s", os, or, exch, more);
    fixture_lop_load(text, set, lop);
}

/* Two rounds of the ring with L = 4, o_s = 7, o_r = 1, g = 8 on the
 * adapters: a message leaves at 7 and is delivered at 11, done at 12.  Its
 * receiver never answers it, so with ack_us = 10 the acknowledgement leaves
 * when the adapter's gap allows, at 15, and holds it until 25: round 2's
 * message, posted by 19, leaves at 25 and is done at 30 (24 without).  The
 * exchange answers every message: 24 with the acknowledgement or not. */
static void ack_unanswered(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){.L_us = 4, .os_us = 7, .or_us = 1, .g_us = 8};
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 1};
    static const struct {
        uint32_t p;
        double ack_us, done_us;
    } runs[] = {{3, 0, 24}, {3, 10, 30}, {2, 0, 24}, {2, 10, 24}};
    for (size_t i = 0; i < COUNT(runs); i++) {
        sched_t s;
        sched_sim_result_t r;
        steps(runs[i].p, 2, &s);
        par.ack_us = runs[i].ack_us;
        lop_status_t st = sched_sim_run(&s, &par, 1, &r);
        ok(st == LOP_OK && r.max_us == runs[i].done_us && r.rank_us[0] == runs[i].done_us,
           "%s twice, ack %g us: done at %g (%g)", runs[i].p == 3 ? "ring" : "exchange",
           runs[i].ack_us, runs[i].done_us, r.max_us);
        free(r.rank_us);
        sched_free(&s);
    }
}

/* Whom a rank sends to: rgm at P = 5 (n = 2) reports up its tree and
 * releases by one MCAST, which reaches every rank; a leaf sends only to its
 * parent. */
static void send_peers(void)
{
    sched_t s;
    uint32_t *first = NULL;
    int32_t *peers = NULL;
    sched_build(barrier_alg_find("rgm"), 5, 2, &s);
    lop_status_t st = sched_send_peers(&s, &first, &peers);
    int root_all = 1, leaves = 0;
    for (uint32_t q = 1; st == LOP_OK && q < 5; q++)
        root_all &= sched_sends_to(first, peers, 0, q);
    for (uint32_t r = 1; st == LOP_OK && r < 5; r++) {
        int n = 0;
        for (uint32_t q = 0; q < 5; q++)
            n += q != r && sched_sends_to(first, peers, r, q);
        leaves += n == 1;
    }
    ok(st == LOP_OK && root_all && leaves == 4 && peers[first[0]] == -1,
       "rgm at P = 5: the root's MCAST reaches every rank (-1 first), each other rank sends "
       "to one");
    free(first);
    free(peers);
    sched_free(&s);
}

/* 'alg' at P in the loop of 'pr'. */
static double loop_of(predict_t *pr, const char *alg, uint32_t p)
{
    sched_t s;
    predict_time_t v;
    sched_build(barrier_alg_find(alg), p, 0, &s);
    lop_status_t st = predict_time(pr, PREDICT_LOOP, NULL, 0, p, &s, &v);
    sched_free(&s);
    return st == LOP_OK ? v.us : NAN;
}

/* The loop of PRTT(k) = 16 + 8 k, o_s = 7, o_r = 1 (L = 4, g = 8, the
 * adapters apart) runs the ring in 12 us a round, o_s + L + o_r, on any
 * number of ranks; with an acknowledgement a the gap makes it 8 + a, so a
 * ring of 3 or of 5 ranks (its fit's p) at R(P) = 20 prices it at 12, and
 * R(3) = 11, below the ring without it, at 0.  diss at P = 4 leaves one
 * message a rank unanswered (from r - 1) and pays for it; at P = 3 every
 * message is answered (r - 1 = r + 2), the same either way. */
static void ack_from_ring(void)
{
    static const char *const ring[][3] = {{"20", "12", "3"}, {"11", "0", "3"}, {"20", "12", "5"}};
    double diss4[3], diss3[3];
    for (size_t i = 0; i < COUNT(ring); i++) {
        char row[96];
        snprintf(row, sizeof row, "x,t-inline,ring,avg,const,1,%s,%s,%s,,,,,\n", ring[i][2],
                 ring[i][2], ring[i][0]);
        lop_paramset_t set;
        lop_view_t lop;
        loop_set("7", "1", "12", row, &set, &lop);
        barrier_cost_t c;
        predict_t pr;
        predict_ack_t k;
        int ran = fixture_predictor(&lop, &c, &pr) && predict_ack(&pr, PREDICT_LOOP, &k) == LOP_OK;
        ok(ran && k.measured_us == atof(ring[i][0]) && k.plain_us == 12 &&
               fabs(k.ack_us - atof(ring[i][1])) < 1e-5 && pr.ack_us[0] == k.ack_us,
           "R(%s) = %s: the ring without acknowledgements 12 us, the acknowledgement %g us",
           ring[i][2], ring[i][0], k.ack_us);
        diss4[i] = loop_of(&pr, "diss", 4);
        diss3[i] = loop_of(&pr, "diss", 3);
        predict_free(&pr);
        lop_paramset_free(&set);
    }
    ok(diss4[0] > diss4[1] && diss3[0] == diss3[1] && diss4[2] == diss4[0],
       "diss in the loop: P = 4 pays for its unanswered message (%g > %g us), P = 3 answers "
       "all (%g = %g us)", diss4[0], diss4[1], diss3[0], diss3[1]);
}

/* A ring whose p is no ring's P (fewer than 3 ranks: the one-row R(1) of
 * three ranks an older lopbench wrote) prices nothing, and says why. */
static void ack_ring_ranks(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    loop_set("7", "1", "12", "x,t-inline,ring,avg,const,1,1,1,20,,,,,\n", &set, &lop);
    barrier_cost_t c;
    predict_t pr;
    predict_ack_t k;
    int ran = fixture_predictor(&lop, &c, &pr) && predict_ack(&pr, PREDICT_LOOP, &k) == LOP_OK;
    ok(ran && k.ack_us == 0 && pr.ack_us[0] == 0 && k.why && strstr(k.why, "ring's P"),
       "a ring at p = 1: no acknowledgement charged (%s)", ran && k.why ? k.why : "none");
    predict_free(&pr);
    lop_paramset_free(&set);
}

/* Fits of a loaded machine: PRTT(k) = 14 - 2 k, so g = -2 and L =
 * PRTT(1)/2 - o_s - o_r = -2.  The ring then runs a round in ack - 2 once
 * the acknowledgement holds the adapter, below ack itself: the root for
 * R(3) = 20 lies above R(3), at 22, which doubling the bracket finds. */
static void ack_beyond_ring(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    fixture_lop_load("x,t-inline,rtt,min,const,9,1,63,30,,,,,\n"
                     "x,t-inline,os,min,const,9,1,63,7,,,,,\n"
                     "x,t-inline,or,min,const,9,1,63,1,,,,,\n"
                     "x,t-inline,prtt,min,linear,9,1,8,14,-2,,,,\n"
                     "x,t-inline,ring,avg,const,1,3,3,20,,,,,\n",
                     &set, &lop);
    barrier_cost_t c;
    predict_t pr;
    predict_ack_t k;
    int ran = fixture_predictor(&lop, &c, &pr) && predict_ack(&pr, PREDICT_LOOP, &k) == LOP_OK;
    ok(ran && !k.why && fabs(k.ack_us - 22) < 1e-5,
       "g = L = -2: the acknowledgement for R(3) = 20 found above it, %g us (%s)", k.ack_us,
       ran && k.why ? k.why : "found");
    predict_free(&pr);
    lop_paramset_free(&set);
}

/* The loop's exchange calibrated to X(1) (predict_duplex).  With PRTT(k) =
 * 16 + 8 k, o_s = 7, o_r = 1 the loop's L is 12 - 8 = 4 and g = 8: an
 * exchange loop costs max{o_s + L + o_r, g} = 12 apart and max{L, g} +
 * max{o_s + o_r, g} = 16 shared.  X(1) between them, or above them where a
 * wire, not the host, paces the messages (o_s = 1, o_r = 0.5: L = 10.5),
 * is the gap of apart adapters: a rank sends once an X(1).  Above shared on
 * a host-bound series it is shared with the gap that makes 2 g = X(1)
 * (L calibrated to 12 - g, so that cc at P = 2 still costs PRTT(1) = 24),
 * the only way a series that measured no gap (one-sided: PRTT(1) = 24
 * alone; its exchange 12 either way) prices it.  Below apart nothing
 * changes. */
static void duplex_choice(void)
{
    static const char nogap[] = "const,1,1,1,24,,,,,", gap8[] = "linear,9,1,8,16,8,,,,";
    static const struct {
        const char *os, *or, *prtt, *exch;
        int shared;
        double gap_us, pe_us;
        const char *what;
    } runs[] = {
        {"7", "1", gap8, "15.5", 0, 15.5, 15.5, "g = 8, X(1) between apart and shared: apart, g = X(1)"},
        {"7", "1", gap8, "12.5", 0, 12.5, 12.5, "g = 8, X(1) just above apart: apart, g = X(1)"},
        {"1", "0.5", gap8, "18", 0, 18, 18, "o_s + o_r < L, X(1) above shared: apart, g = X(1)"},
        {"1", "0.5", nogap, "20", 0, 20, 20, "o_s + o_r < L, no gap measured: apart, g = X(1)"},
        {"7", "1", nogap, "20", 1, 10, 20, "host bound, no gap measured: shared, g = 10"},
        {"7", "1", gap8, "20", 1, 10, 20, "host bound, g = 8, X(1) above shared: shared, g = 10"},
        {"7", "1", nogap, "11", 0, 0, 12, "X(1) below the exchange: no gap"},
        {"7", "1", gap8, "11.5", 0, 0, 12, "g = 8, X(1) below apart: g kept"},
    };
    for (size_t i = 0; i < COUNT(runs); i++) {
        char text[640];
        snprintf(text, sizeof text, "x,t-inline,rtt,min,const,9,1,63,30,,,,,\n"
                 "x,t-inline,os,min,const,9,1,63,%s,,,,,\n"
                 "x,t-inline,or,min,const,9,1,63,%s,,,,,\n"
                 "x,t-inline,prtt,min,%s\n"
                 "x,t-inline,exch,min,const,1,1,1,%s,,,,,\n", runs[i].os, runs[i].or, runs[i].prtt,
                 runs[i].exch);
        lop_paramset_t set;
        lop_view_t lop;
        fixture_lop_load(text, &set, &lop);
        barrier_cost_t c;
        predict_t pr;
        predict_duplex_t d;
        int ran = fixture_predictor(&lop, &c, &pr) && predict_duplex(&pr, PREDICT_LOOP, &d) == LOP_OK;
        double period = runs[i].shared ? d.shared_us : d.apart_us;
        ok(ran && fabs(d.gap_us - runs[i].gap_us) < 1e-5 && pr.gap_us[0] == d.gap_us &&
               d.shared == runs[i].shared && pr.shared[0] == d.shared &&
               fabs(period - runs[i].pe_us) < 1e-5 && !d.why,
           "%s (gap %g, apart %g, shared %g us)", runs[i].what, d.gap_us, d.apart_us,
           d.shared_us);
        double pe = loop_of(&pr, "pe", 2), cc = loop_of(&pr, "cc", 2);
        ok(fabs(pe - runs[i].pe_us) < 1e-5 && fabs(cc - 24) < 1e-5,
           "... pe at P = 2 costs %g (%g us), cc PRTT(1) = 24 (%g us)", runs[i].pe_us, pe, cc);
        predict_free(&pr);
        lop_paramset_free(&set);
    }
}

int main(void)
{
    adapter_shared();
    duplex_choice();
    send_peers();
    ack_unanswered();
    ack_from_ring();
    ack_ring_ranks();
    ack_beyond_ring();
    return tap_done();
}
