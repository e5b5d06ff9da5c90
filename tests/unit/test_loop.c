/*
 * test_loop.c - the loop model (models/predict.h PREDICT_LOOP): barriers back
 * to back (sched_repeat), a multicast as the executors without one send it
 * (sched_unicast), the gap held on the adapter (sched_sim_t
 * .adapter_gap), and the calibration identity: one message costs RTT(1)/2 of
 * the set it was calibrated on; the bucket (PREDICT_BUCKET): token-bucket
 * adapters (sched_sim_t.adapter_burst) and its parameters from the round fit;
 * adapters shared by sends and deliveries (sched_sim_t.adapter_shared) where
 * the exchange X(1) says so (predict_duplex); the acknowledgement of a
 * message never answered on its pair (sched_sim_t.ack_us), priced by the
 * ring R(1) (predict_ack).
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

/* A predictor over the fits of 'lop', LogP from them ('c' outlives it). */
static int predictor(lop_view_t *lop, barrier_cost_t *c, predict_t *pr)
{
    barrier_cost_init(c);
    c->lop = lop;
    predict_logp(lop, NAN, NAN, NAN, NAN, &c->logp);
    sched_sim_t par = {.model = SCHED_SIM_LOGP, .cost = c};
    lop_uncert_opts_t uo = lop_uncert_defaults;
    return predict_init(pr, c, NAN, NAN, NAN, &par, &uo, 40) == LOP_OK;
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
    ok(predictor(lop, c, pr), "a predictor (%s)", name);
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
    ok(predictor(&lop, &c, &pr) && cc_time(&pr, PREDICT_BUCKET, 6, &v), "... the bucket of cc");
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

/* Two ranks that each send to the other, then receive, with L = 4,
 * o_s = 7, o_r = 1, g = 8 on the adapters: apart the peer's message is
 * delivered when it arrives, 7 + 4, done at 12; shared the delivery waits
 * g after the rank's own message left at 7: 15, done at 16. */
static void adapter_shared(void)
{
    sched_t s;
    sched_init(&s, 2);
    for (uint32_t r = 0; r < 2; r++) {
        sched_push(&s, SCHED_SEND, (int32_t)(1 - r), 0);
        sched_push(&s, SCHED_RECV, (int32_t)(1 - r), 0);
        sched_end_rank(&s, r);
    }
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
 * adapters apart) runs the ring in 12 us a round, o_s + L + o_r; with an
 * acknowledgement a the gap makes it 8 + a, so R(1) = 20 prices it at 12,
 * and R(1) = 11, below the ring without it, at 0.  diss at P = 4 leaves
 * one message a rank unanswered (from r - 1) and pays for it; at P = 3
 * every message is answered (r - 1 = r + 2), the same either way. */
static void ack_from_ring(void)
{
    static const char *const ring[][2] = {{"20", "12"}, {"11", "0"}};
    double diss4[2], diss3[2];
    for (size_t i = 0; i < COUNT(ring); i++) {
        char row[96];
        snprintf(row, sizeof row, "x,t-inline,ring,avg,const,1,1,1,%s,,,,,\n", ring[i][0]);
        lop_paramset_t set;
        lop_view_t lop;
        loop_set("7", "1", "12", row, &set, &lop);
        barrier_cost_t c;
        predict_t pr;
        predict_ack_t k;
        int ran = predictor(&lop, &c, &pr) && predict_ack(&pr, PREDICT_LOOP, &k) == LOP_OK;
        ok(ran && k.measured_us == atof(ring[i][0]) && k.plain_us == 12 &&
               fabs(k.ack_us - atof(ring[i][1])) < 1e-5 && pr.ack_us[0] == k.ack_us,
           "R(1) = %s: the ring without acknowledgements 12 us, the acknowledgement %g us",
           ring[i][0], k.ack_us);
        diss4[i] = loop_of(&pr, "diss", 4);
        diss3[i] = loop_of(&pr, "diss", 3);
        predict_free(&pr);
        lop_paramset_free(&set);
    }
    ok(diss4[0] > diss4[1] && diss3[0] == diss3[1],
       "diss in the loop: P = 4 pays for its unanswered message (%g > %g us), P = 3 answers "
       "all (%g = %g us)", diss4[0], diss4[1], diss3[0], diss3[1]);
}

/* Fits of a loaded machine: PRTT(k) = 14 - 2 k, so g = -2 and L =
 * PRTT(1)/2 - o_s - o_r = -2.  The ring then runs a round in ack - 2 once
 * the acknowledgement holds the adapter, below ack itself: the root for
 * R(1) = 20 lies above R(1), at 22, which doubling the bracket finds. */
static void ack_beyond_ring(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    fixture_lop_load("x,t-inline,rtt,min,const,9,1,63,30,,,,,\n"
                     "x,t-inline,os,min,const,9,1,63,7,,,,,\n"
                     "x,t-inline,or,min,const,9,1,63,1,,,,,\n"
                     "x,t-inline,prtt,min,linear,9,1,8,14,-2,,,,\n"
                     "x,t-inline,ring,avg,const,1,1,1,20,,,,,\n",
                     &set, &lop);
    barrier_cost_t c;
    predict_t pr;
    predict_ack_t k;
    int ran = predictor(&lop, &c, &pr) && predict_ack(&pr, PREDICT_LOOP, &k) == LOP_OK;
    ok(ran && !k.why && fabs(k.ack_us - 22) < 1e-5,
       "g = L = -2: the acknowledgement for R(1) = 20 found above it, %g us (%s)", k.ack_us,
       ran && k.why ? k.why : "found");
    predict_free(&pr);
    lop_paramset_free(&set);
}

/* PRTT(k) = 16 + 8 k, o_s = 7, o_r = 1: the loop's L = 12 - 8 = 4, g = 8.
 * An exchange loop costs max{o_s + L + o_r, g} = 12 apart and
 * max{L, g} + max{o_s + o_r, g} = 16 shared; X(1) picks one.  With
 * o_s = 1, o_r = 0.5 (L = 10.5 above them) shared would cost 16 (its L
 * calibrated down by g - o_s - o_r = 6.5 to 4: predict.c), but a
 * wire, not the host, paces the messages: apart whatever X(1) says. */
static void duplex_choice(void)
{
    static const char *const exch[][4] = {{"15.5", "7", "16", "shared"},
                                          {"12.5", "7", "16", "apart"},
                                          {"18", "1", "16", "apart, o_s + o_r < L"}};
    for (size_t i = 0; i < COUNT(exch); i++) {
        lop_paramset_t set;
        lop_view_t lop;
        loop_set(exch[i][1], i < 2 ? "1" : "0.5", exch[i][0], "", &set, &lop);
        barrier_cost_t c;
        predict_t pr;
        predict_duplex_t d;
        int shared = i == 0;
        ok(predictor(&lop, &c, &pr) && predict_duplex(&pr, PREDICT_LOOP, &d) == LOP_OK,
           "X(1) = %s: the loop's choice", exch[i][0]);
        ok(d.apart_us == 12 && d.shared_us == atof(exch[i][2]) && d.shared == shared &&
               pr.shared[0] == shared && d.host_bound == (i < 2) && d.closer == (i != 1),
           "... exchange apart %g, shared %g us: %s", d.apart_us, d.shared_us, exch[i][3]);
        sched_t s;
        predict_time_t v;
        sched_build(barrier_alg_find("pe"), 2, 0, &s);
        lop_status_t st = predict_time(&pr, PREDICT_LOOP, NULL, 0, 2, &s, &v);
        ok(st == LOP_OK && v.us == (shared ? 16 : 12), "... pe at P = 2 in the loop: %g us",
           v.us);
        sched_free(&s);
        predict_free(&pr);
        lop_paramset_free(&set);
    }
}

/* The calibration identity with the adapters shared: PRTT(k) = 16 + 8 k,
 * o_s = 5, o_r = 1, so g = 8 is above o_s + o_r = 6 and a message each way
 * in turn waits for the gap: its L is 12 - 8 = 4, not 6, and cc at P = 2
 * still costs PRTT(1) = 24 (28 with L = 6).  X(1) = 15.5 takes shared:
 * the exchange costs max{L, g} + max{o_s + o_r, g} = 16 shared, 12 apart. */
static void shared_identity(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    loop_set("5", "1", "15.5", "", &set, &lop);
    barrier_cost_t c;
    predict_t pr;
    predict_duplex_t d;
    int ran = predictor(&lop, &c, &pr) && predict_duplex(&pr, PREDICT_LOOP, &d) == LOP_OK;
    ok(ran && d.shared && pr.shared[0] && d.apart_us == 12 && d.shared_us == 16,
       "o_s + o_r = 6 < g = 8: X(1) = 15.5 takes shared (apart %g, shared %g us)", d.apart_us,
       d.shared_us);
    double cc = loop_of(&pr, "cc", 2);
    ok(cc == 24, "... and cc at P = 2 costs PRTT(1) = 24 with them (%g us)", cc);
    predict_free(&pr);
    lop_paramset_free(&set);
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
    adapter_shared();
    duplex_choice();
    shared_identity();
    send_peers();
    ack_unanswered();
    ack_from_ring();
    ack_beyond_ring();
    return tap_done();
}
