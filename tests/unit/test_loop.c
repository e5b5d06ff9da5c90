/*
 * test_loop.c - the loop model (models/predict.h PREDICT_LOOP): barriers back
 * to back (sched_repeat), a multicast as the executors without one send it
 * (sched_unicast), the gap held on the adapter (sched_sim_t
 * .adapter_gap), and the calibration identity: one message costs RTT(1)/2 of
 * the set it was calibrated on; the bucket (PREDICT_BUCKET): token-bucket
 * adapters (sched_sim_t.adapter_burst) and its parameters from the round
 * fit.  The adapters shared or apart and the acknowledgements:
 * test_duplex.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "predict.h"
#include "sched.h"
#include "sched_check.h"
#include "tap.h"

/* sched_repeat: every rank's ops 'times' times, steps moved on by n_steps,
 * still a barrier; the limits refused by name. */
static void repeat(void)
{
    sched_t s, r;
    sched_build(barrier_alg_find("diss"), 5, 0, &s);
    ok(sched_repeat(&s, 3, &r) == LOP_OK && r.n_ops == 3 * s.n_ops && r.n_steps == 3 * s.n_steps,
       "diss P=5 three times: 3x the ops and the steps");
    int same = 1;
    for (uint32_t rank = 0; rank < s.p; rank++)
        for (uint32_t t = 0; t < 3; t++)
            for (uint32_t k = 0; k < sched_rank_count(&s, rank); k++) {
                sched_op_t a = sched_op_at(&s, rank, k);
                sched_op_t b = sched_op_at(&r, rank, t * sched_rank_count(&s, rank) + k);
                same &= a.kind == b.kind && a.peer == b.peer && b.step == a.step + t * s.n_steps;
            }
    ok(same, "... each round the barrier's ops, its steps moved on by n_steps");
    ok(sched_check(&r) == LOP_OK, "... and a barrier");
    sched_free(&r);
    ok(sched_repeat(&s, 1u << 28, &r) == LOP_ERR_RANGE && r.op == NULL,
       "2^28 times: refused, nothing allocated");
    sched_free(&s);
}

/* sched_unicast: rgm's MCAST as P - 1 SENDs in rank order, still a barrier. */
static void unicast(void)
{
    sched_t s, u;
    sched_build(barrier_alg_find("rgm"), 6, 2, &s);
    uint32_t mcasts = 0, left = 0, sends = 0, in_order = 1;
    for (uint32_t k = 0; k < s.n_ops; k++)
        mcasts += s.op[k].kind == SCHED_MCAST;
    lop_status_t st = sched_unicast(&s, &u);
    ok(mcasts == 1 && st == LOP_OK && u.n_ops == s.n_ops + 4,
       "rgm P=6: one MCAST becomes 5 SENDs (%u ops, %u before)", u.n_ops, s.n_ops);
    for (uint32_t k = 0, last = 0; k < u.n_ops; k++) {
        left += u.op[k].kind == SCHED_MCAST;
        int release = sched_op_rank(&u, k) == 0 && u.op[k].step == u.n_steps - 1;
        if (u.op[k].kind == SCHED_SEND && release) {
            in_order &= (uint32_t)u.op[k].peer > last || sends == 0;
            last = (uint32_t)u.op[k].peer;
            sends++;
        }
    }
    ok(left == 0 && sends == 5 && in_order, "... no MCAST left; rank 0's last step sends to 1..5 "
       "in rank order");
    ok(sched_check(&u) == LOP_OK, "... and a barrier");
    sched_free(&u);
    sched_free(&s);
}

/* Rank 0 sends to 1, 2, 3; then rank 3 receives from 0, 1, 2, which sent
 * at time 0: the gap on the CPU against the gap on the adapter. */
static void adapter_gap(void)
{
    sched_t s;
    sched_init(&s, 4);
    for (int32_t q = 1; q < 4; q++)
        sched_push(&s, SCHED_SEND, q, 0);
    sched_end_rank(&s, 0);
    for (uint32_t r = 1; r < 3; r++) {
        sched_push(&s, SCHED_RECV, 0, 0);
        sched_push(&s, SCHED_SEND, 3, 1);
        sched_end_rank(&s, r);
    }
    sched_push(&s, SCHED_RECV, 0, 0);
    for (int32_t q = 1; q < 3; q++)
        sched_push(&s, SCHED_RECV, q, 1);
    sched_end_rank(&s, 3);
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){.L_us = 5, .os_us = 1, .or_us = 1, .g_us = 10};
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 0};
    sched_sim_result_t cpu, nic;
    ok(sched_sim_run(&s, &par, 1, &cpu) == LOP_OK, "CPU gap: runs");
    par.adapter_gap = 1;
    ok(sched_sim_run(&s, &par, 1, &nic) == LOP_OK, "adapter gap: runs");
    is_num(cpu.rank_us[0], 21, 1e-12, "CPU gap: rank 0 posts at 0, 10, 20 and is busy until 21");
    is_num(nic.rank_us[0], 3, 1e-12, "adapter gap: rank 0's CPU is free after 3 o_s");
    /* the messages leave at 1, 11, 21 either way and arrive L later */
    is_num(nic.rank_us[1], 8, 1e-12, "rank 1: its message left at 1, arrived 6, taken by 7, "
           "sent on by 8");
    is_num(nic.rank_us[2], 18, 1e-12, "rank 2: left 11 (g after rank 1's), taken by 17, "
           "sent by 18");
    /* rank 3: 0's message arrives 26; 1's and 2's left 8 and 18, arrive 13 and 23;
     * delivered g apart in program order: 26, 36, 46 */
    is_num(nic.rank_us[3], 47, 1e-12, "rank 3: deliveries g apart (26, 36, 46), done 47");
    free(cpu.rank_us);
    free(nic.rank_us);
    sched_free(&s);
}

/* 's' under LogP with o_s = o_r = 1, L = 'L', g = 10 on the adapters, with
 * bucket B = 'burst' into *bb and with B = 1 into *b1 (per-rank times). */
static int run_bursts(const sched_t *s, double L, double burst, sched_sim_result_t *bb,
                      sched_sim_result_t *b1)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){.L_us = L, .os_us = 1, .or_us = 1, .g_us = 10};
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 1,
                       .adapter_burst = burst};
    lop_status_t st = sched_sim_run(s, &par, 1, bb);
    par.adapter_burst = 1;
    return st == LOP_OK && sched_sim_run(s, &par, 1, b1) == LOP_OK;
}

/* Rank 0 sends to 1..5 (1:n), then ranks 1..5 send to rank 0 (n:1), with
 * o_s = o_r = 1, L = 5, g = 10 on the adapters: B = 3 lets the first three
 * of each pass at once (generic cell rate algorithm), then one per g. */
static void bucket_fan(void)
{
    sched_t s;
    sched_init(&s, 6);
    for (int32_t q = 1; q < 6; q++)
        sched_push(&s, SCHED_SEND, q, 0);
    for (int32_t q = 1; q < 6; q++)
        sched_push(&s, SCHED_RECV, q, 1);
    sched_end_rank(&s, 0);
    for (uint32_t r = 1; r < 6; r++) {
        sched_push(&s, SCHED_RECV, 0, 0);
        sched_push(&s, SCHED_SEND, 0, 1);
        sched_end_rank(&s, r);
    }
    sched_sim_result_t b3, b1;
    ok(run_bursts(&s, 5, 3, &b3, &b1), "B = 3 and B = 1: run");
    /* posts end 1..5: B = 3 leaves at 1, 2, 3, then 11, 21 (paced from the
     * first: 1 + 10, 1 + 20); B = 1 at 1, 11, 21, 31, 41; each taken L + o_r
     * later and sent back by o_s */
    const double want3[] = {8, 9, 10, 18, 28}, want1[] = {8, 18, 28, 38, 48};
    int same3 = 1, same1 = 1;
    for (int q = 1; q < 6; q++) {
        same3 &= b3.rank_us[q] == want3[q - 1];
        same1 &= b1.rank_us[q] == want1[q - 1];
    }
    ok(same3, "1:n with B = 3: the first 3 leave at their posts (1, 2, 3), then one per g "
       "(11, 21): ranks done at 8 9 10 18 28");
    ok(same1, "1:n with B = 1: one per g (1, 11, 21, 31, 41): ranks done at 8 18 28 38 48");
    /* n:1: the replies leave when posted and arrive at 13, 14, 15, 23, 33
     * (B = 3); rank 0's adapter delivers the first three at once, then
     * paced from 13: 23, 33; taken by 14, 15, 16, 24, 34 */
    is_num(b3.rank_us[0], 34, 1e-12, "n:1 with B = 3: deliveries 13 14 15 23 33, rank 0 done 34");
    /* B = 1: arrivals 13, 23, 33, 43, 53 are already g apart */
    is_num(b1.rank_us[0], 54, 1e-12, "n:1 with B = 1: rank 0 done 54");
    free(b3.rank_us);
    free(b1.rank_us);
    sched_free(&s);
}

/* Rank 0 sends 3 messages to rank 1, takes its reply after a long L, and
 * sends 2 more: with B = 2 the bucket refills while the reply travels, and
 * the last two pass at once again. */
static void bucket_refill(void)
{
    sched_t s;
    sched_init(&s, 2);
    for (int k = 0; k < 3; k++)
        sched_push(&s, SCHED_SEND, 1, 0);
    sched_push(&s, SCHED_RECV, 1, 1);
    for (int k = 0; k < 2; k++)
        sched_push(&s, SCHED_SEND, 1, 2);
    sched_end_rank(&s, 0);
    for (int k = 0; k < 3; k++)
        sched_push(&s, SCHED_RECV, 0, 0);
    sched_push(&s, SCHED_SEND, 0, 1);
    for (int k = 0; k < 2; k++)
        sched_push(&s, SCHED_RECV, 0, 2);
    sched_end_rank(&s, 1);
    sched_sim_result_t b2, b1;
    ok(run_bursts(&s, 50, 2, &b2, &b1), "refill, B = 2 and B = 1: run");
    /* B = 2: leave 1, 2, 11; rank 1 takes them by 52, 53, 62, replies at 63,
     * rank 0 takes it at 114 and posts by 115, 116: both leave at once */
    ok(b2.rank_us[0] == 116 && b2.rank_us[1] == 167,
       "B = 2: after idle the bucket is full again, the last two leave at 115, 116 "
       "(ranks done %g, %g; want 116, 167)", b2.rank_us[0], b2.rank_us[1]);
    /* B = 1: leave 1, 11, 21; reply at 73, taken 124; leave 125, 135 */
    ok(b1.rank_us[0] == 126 && b1.rank_us[1] == 186,
       "B = 1: the last two g apart (ranks done %g, %g; want 126, 186)", b1.rank_us[0],
       b1.rank_us[1]);
    free(b2.rank_us);
    free(b1.rank_us);
    sched_free(&s);
}

/* B <= 1 is the adapter gap without a bucket, bit for bit: every rank of
 * diss, rgm (as P - 1 sends) and tour at P = 13 with B = 1 and 0.5 against
 * B = 0. */
static void bucket_none(void)
{
    const char *algs[] = {"diss", "rgm", "tour"};
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){.L_us = 3.3, .os_us = 0.7, .or_us = 1.1, .g_us = 2.9};
    int same = 1;
    for (int i = 0; i < 3; i++) {
        sched_t s, u;
        sched_build(barrier_alg_find(algs[i]), 13, 2, &s);
        sched_unicast(&s, &u);
        sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 1};
        sched_sim_result_t r0, r;
        same &= sched_sim_run(&u, &par, 1, &r0) == LOP_OK;
        for (int k = 0; k < 2 && same; k++) {
            par.adapter_burst = k ? 0.5 : 1;
            same &= sched_sim_run(&u, &par, 1, &r) == LOP_OK &&
                    memcmp(r.rank_us, r0.rank_us, 13 * sizeof *r.rank_us) == 0;
            free(r.rank_us);
        }
        free(r0.rank_us);
        sched_free(&u);
        sched_free(&s);
    }
    ok(same, "B = 1 and B = 0.5 give B = 0's times bit for bit (diss, rgm, tour at P = 13)");
}

/* 'kind' (the loop or the bucket) of cc at P into *v. */
static int cc_time(predict_t *pr, predict_kind_t kind, uint32_t p, predict_time_t *v)
{
    sched_t s;
    sched_build(barrier_alg_find("cc"), p, 0, &s);
    lop_status_t st = predict_time(pr, kind, NULL, 0, p, &s, v);
    sched_free(&s);
    return st == LOP_OK;
}

/* A predictor on 'lop' (c and pr the caller's: pr points to c); 'kind' of
 * cc at P = 2, a report and a release a barrier, must cost 'rtt'; *v6 gets
 * cc at P = 6. */
static void cc_two_six(lop_view_t *lop, barrier_cost_t *c, predict_t *pr, predict_kind_t kind,
                       double rtt, const char *name, predict_time_t *v6)
{
    predict_time_t v;
    ok(fixture_predictor(lop, c, pr), "a predictor (%s)", name);
    ok(cc_time(pr, kind, 2, &v), "%s of cc at P = 2", name);
    is_num(v.us, rtt, 1e-9, "... a report and a release a barrier: %g us, the round trip", rtt);
    ok(cc_time(pr, kind, 6, v6), "%s of cc at P = 6", name);
}

/* RTT(1) = 20 after idle, PRTT(k) = 30 + 4 k back to back, o_s = 1,
 * o_r = 0.5: the loop takes PRTT(1) = 34, L = 15.5, g = 4; without the
 * prtt fit RTT(1), L = 8.5, g = 0. */
static const char rows[] = "x,t-inline,rtt,min,const,9,1,63,20,,,,,\n"
                           "x,t-inline,os,min,const,9,1,63,1,,,,,\n"
                           "x,t-inline,or,min,const,9,1,63,0.5,,,,,\n"
                           "x,t-inline,prtt,min,linear,9,1,8,30,4,,,,\n";

static void calibration(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    fixture_lop_load(rows, &set, &lop);
    logp_t m, given = {0};
    predict_loop_logp(&lop, &given, &m);
    is_num(m.os_us + m.L_us + m.or_us, 17, 1e-12,
           "calibration identity: o_s + L + o_r = PRTT(1)/2, the round trip back to back");
    is_num(m.g_us, 4, 1e-12, "g = the slope of PRTT(k)");
    lop_view_t idle = lop;
    idle.prtt = NULL;
    predict_loop_logp(&idle, &given, &m);
    ok(m.os_us + m.L_us + m.or_us == 10 && m.g_us == 0,
       "without PRTT: RTT(1)/2 after idle, and no gap");
    barrier_cost_t c;
    predict_t pr;
    predict_time_t v;
    cc_two_six(&lop, &c, &pr, PREDICT_LOOP, 34, "the loop (PRTT(1))", &v);
    /* rank 0 takes 5 reports and posts 5 releases per round; its adapter
     * passes one message per g = 4 each way, its CPU 5 (o_s + o_r) = 7.5:
     * the period is bounded by neither alone but never below them */
    ok(v.us >= 5 * 1.5 && v.us >= 5 * 4, "... no faster than rank 0's CPU or adapter (%g us)",
       v.us);
    predict_free(&pr);
    lop_paramset_free(&set);
}

/* The bucket's parameters from the round fit: T(1) = 40 (l1 of model
 * bucket), g = l3 = 6, B = l4 = 3; o_s = 1, o_r = 0.5 as the loop's. */
static const char round_rows[] = "x,t-inline,rtt,min,const,9,1,63,20,,,,,\n"
                                 "x,t-inline,os,min,const,9,1,63,1,,,,,\n"
                                 "x,t-inline,or,min,const,9,1,63,0.5,,,,,\n"
                                 "x,t-inline,prtt,min,linear,9,1,8,30,4,,,,\n"
                                 "x,t-inline,round,min,bucket,9,1,16,40,2,6,3,,\n";

/* The period of cc at P = 6 looped under 'm' with bucket B, simulated here. */
static double cc_period(const logp_t *m, double burst)
{
    sched_t s, loop[2];
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = *m;
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = &c, .adapter_gap = 1,
                       .adapter_burst = burst};
    sched_sim_result_t r[2] = {{0}};
    sched_build(barrier_alg_find("cc"), 6, 0, &s);
    for (int k = 0; k < 2; k++) {
        sched_repeat(&s, (k + 1) * PREDICT_LOOP_ROUNDS, &loop[k]);
        sched_sim_run(&loop[k], &par, 0, &r[k]);
        sched_free(&loop[k]);
    }
    sched_free(&s);
    return (r[1].max_us - r[0].max_us) / PREDICT_LOOP_ROUNDS;
}

static void bucket_predict(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    fixture_lop_load(round_rows, &set, &lop);
    logp_t m, loop;
    const logp_t given = {0};
    double burst = 0;
    ok(lop_view_no_burst(&lop) == NULL, "l3 > l2 and a peer beyond the knot: a bucket shown");
    predict_bucket_logp(&lop, &lop, &given, &m, &burst);
    ok(m.os_us == 1 && m.or_us == 0.5 && m.L_us == 18.5 && m.g_us == 6 && burst == 3,
       "bucket: o_s, o_r the loop's, L = T(1)/2 - o_s - o_r = 18.5, g = l3, B = l4");
    barrier_cost_t c;
    predict_t pr;
    predict_time_t v;
    cc_two_six(&lop, &c, &pr, PREDICT_BUCKET, 40, "the bucket (T(1))", &v);
    double b3 = cc_period(&m, 3), b1 = cc_period(&m, 1);
    ok(v.us == b3 && b3 != b1, "... the loop of cc with those parameters and B = 3 (%g us; "
       "B = 1: %g us)", b3, b1);
    predict_free(&pr);
    lop.round = NULL;
    predict_bucket_logp(&lop, &lop, &given, &m, &burst);
    predict_loop_logp(&lop, &given, &loop);
    ok(!memcmp(&m, &loop, sizeof m) && burst == 0 && lop_view_no_burst(&lop),
       "without a round fit: the loop's parameters, no burst (%s)", lop_view_no_burst(&lop));
    ok(fixture_predictor(&lop, &c, &pr) && cc_time(&pr, PREDICT_BUCKET, 6, &v), "... the bucket of cc");
    predict_time_t w;
    ok(cc_time(&pr, PREDICT_LOOP, 6, &w) && v.us == w.us, "... is the loop's (%g us)", w.us);
    predict_free(&pr);
    lop_paramset_free(&set);
}

/* Round fits that show no token bucket: the bucket is the loop. */
static void bucket_not_shown(void)
{
    static const char *const rounds[][2] = {
        {"x,t-inline,round,min,linear,9,1,16,30,5,,,,\n", "the round is a line"},
        {"x,t-inline,round,min,bucket,9,1,16,40,6,2,3,,\n", "l3 <= l2"},
        {"x,t-inline,round,min,bucket,9,1,16,40,2,6,15.5,,\n", "no measured peer beyond"}};
    for (size_t i = 0; i < COUNT(rounds); i++) {
        char text[512];
        snprintf(text, sizeof text, "x,t-inline,rtt,min,const,9,1,63,20,,,,,\n"
                 "x,t-inline,os,min,const,9,1,63,1,,,,,\n%s", rounds[i][0]);
        lop_paramset_t set;
        lop_view_t lop;
        fixture_lop_load(text, &set, &lop);
        const logp_t given = {0};
        logp_t m, loop;
        double burst = -1;
        predict_bucket_logp(&lop, &lop, &given, &m, &burst);
        predict_loop_logp(&lop, &given, &loop);
        const char *why = lop_view_no_burst(&lop);
        ok(why && strstr(why, rounds[i][1]) && !memcmp(&m, &loop, sizeof m) && burst == 0,
           "%s: the loop's parameters (%s)", rounds[i][1], why ? why : "shown");
        lop_paramset_free(&set);
    }
}

/* A round without a knot over 3 peers, T(p) = 35 + 5 p: where a
 * round trip after idle is shorter than the exchange back to back (T(1) =
 * 40 < X(1) = 60), the adapters pace messages back to back and passed the
 * 3 peers at once: a bucket of B = 3, L from T(1), g the gap X(1) implies
 * (the duplex calibration, not a knot's l3); elsewhere the loop. */
static void bucket_line(void)
{
    static const struct {
        const char *round, *exch, *why;
    } cases[] = {
        {"linear,9,1,3,35,5", "60", NULL},
        {"linear,9,1,3,35,5", "40", "no shorter than the exchange"},
        {"linear,9,1,1,35,5", "60", "a line over one peer"},
    };
    static const char loop_rows[] = "x,t-inline,rtt,min,const,9,1,63,20,,,,,\n"
                                    "x,t-inline,os,min,const,9,1,63,1,,,,,\n"
                                    "x,t-inline,or,min,const,9,1,63,0.5,,,,,\n"
                                    "x,t-inline,prtt,min,linear,9,1,8,30,4,,,,\n";
    for (size_t i = 0; i < COUNT(cases); i++) {
        char text[640];
        snprintf(text, sizeof text, "%sx,t-inline,exch,min,const,1,1,1,%s,,,,,\n"
                 "x,t-inline,round,min,%s,,,,\n", loop_rows, cases[i].exch, cases[i].round);
        lop_paramset_t set;
        lop_view_t lop;
        fixture_lop_load(text, &set, &lop);
        const logp_t given = {0};
        logp_t m, loop;
        double burst = -1, g, b, t1;
        predict_bucket_logp(&lop, &lop, &given, &m, &burst);
        predict_loop_logp(&lop, &given, &loop);
        const char *why = lop_view_no_burst(&lop);
        if (!cases[i].why) {
            lop_view_bucket(&lop, &g, &b, &t1);
            ok(!why && !lop_view_knot(&lop) && isnan(g) && b == 3 && t1 == 40 &&
                   m.L_us == 18.5 && m.g_us == loop.g_us && burst == 3,
               "T(1) < X(1), no knot: B = 3 peers, L = T(1)/2 - o_s - o_r = 18.5, the loop's g");
            barrier_cost_t c;
            predict_t pr;
            predict_duplex_t d;
            int ran = fixture_predictor(&lop, &c, &pr) &&
                      predict_duplex(&pr, PREDICT_BUCKET, &d) == LOP_OK;
            ok(ran && d.gap_us > 0 && fabs(d.apart_us - 60) < 1e-5,
               "... and the gap that makes the exchange take X(1) = 60 (%g us, apart %g us)",
               d.gap_us, d.apart_us);
            predict_free(&pr);
        } else {
            ok(why && strstr(why, cases[i].why) && !memcmp(&m, &loop, sizeof m) && burst == 0,
               "%s: the loop's parameters (%s)", cases[i].why, why ? why : "shown");
        }
        lop_paramset_free(&set);
    }
}

int main(void)
{
    repeat();
    unicast();
    adapter_gap();
    bucket_fan();
    bucket_refill();
    bucket_none();
    calibration();
    bucket_predict();
    bucket_not_shown();
    bucket_line();
    return tap_done();
}
