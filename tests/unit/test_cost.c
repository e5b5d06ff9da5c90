/* Closed forms against values computed by hand, and the integer logarithms. */
#include <math.h>
#include <string.h>

#include "barrier.h"
#include "fixture.h"
#include "tap.h"

static double logp_of(barrier_cost_t *c, const char *alg, uint32_t p, uint32_t n)
{
    const barrier_alg_t *a = barrier_alg_find(alg);
    return a->logp_us(c, p, barrier_alg_n(a, n));
}

static double lop_of(barrier_cost_t *c, const char *alg, uint32_t p, uint32_t n)
{
    const barrier_alg_t *a = barrier_alg_find(alg);
    return a->lop_us(c, p, barrier_alg_n(a, n));
}

static void integer_logs(void)
{
    ok(barrier_ceil_log(9, 3) == 2, "ceil(log_3 9) = 2 (floating point says 3)");
    ok(barrier_ceil_log(10, 3) == 3, "ceil(log_3 10) = 3");
    ok(barrier_ceil_log(243, 3) == 5 && barrier_ceil_log(244, 3) == 6,
       "ceil(log_3 243) = 5, 244 -> 6");
    ok(barrier_ceil_log(1, 2) == 0 && barrier_ceil_log(2, 2) == 1, "ceil(log_2 1) = 0, of 2 = 1");
    ok(barrier_floor_log(8, 2) == 3 && barrier_floor_log(7, 2) == 2, "floor(log_2 8) = 3, 7 -> 2");
    ok(barrier_floor_log(1, 5) == 0 && barrier_floor_log(125, 5) == 3,
       "floor(log_5 1) = 0, 125 -> 3");
    ok(barrier_ipow(3, 4) == 81 && barrier_ipow(2, 70) == UINT64_MAX, "3^4 = 81, 2^70 saturates");
}

/* L = 5, o_s = o_r = 1, g = 0: t1 = 7, f_s = f_r = 1; t_bc(2^k) = 7 k. */
static void logp_values(void)
{
    barrier_cost_t c;
    barrier_cost_init(&c);
    c.logp = (logp_t){5, 1, 1, 0};
    is_num(logp_of(&c, "cc", 4, 0), 2 * 7 + 2 * (1 + 1), 1e-12, "cc P=4: 2 t1 + 2 (f_r + f_s)");
    is_num(logp_of(&c, "cc", 1, 0), 0, 0, "one rank costs nothing");
    is_num(logp_of(&c, "diss", 64, 0), 6 * 7, 1e-12, "diss P=64: 6 t_r");
    is_num(logp_of(&c, "diss", 9, 0), 4 * 7, 1e-12, "diss P=9: 4 t_r");
    is_num(logp_of(&c, "ndiss", 9, 2), 2 * 7 * 2, 1e-12, "ndiss n=2 P=9: n t_r ceil(log_3 9)");
    is_num(logp_of(&c, "comb", 16, 4), 2 * (7 + 2) + 7 * 4, 1e-12,
           "comb n=4 P=16: 2 levels + t_bc");
    is_num(logp_of(&c, "comb", 16, 1), logp_of(&c, "comb", 16, 2), 0, "comb n=1 runs as n=2");
    is_num(logp_of(&c, "tour", 8, 0), 3 * 7 + 3 * 7, 1e-12, "tour P=8: 3 t_r + t_bc");
    is_num(logp_of(&c, "ftour", 9, 3), 2 * (7 + 1) + 7 * 4, 1e-12, "ftour f=3 P=9");
    is_num(logp_of(&c, "mcs", 7, 2), 2 * (7 + 1) + 3 * 7, 1e-12, "mcs n=2 P=7: depth 2 + t_bc");
    is_num(logp_of(&c, "mcs", 5, 1), 4 * 7 + 3 * 7, 1e-12, "mcs n=1 P=5: a chain of 4");
    is_num(logp_of(&c, "bst", 8, 0), 3 * 7 + 3 * 7, 1e-12, "bst P=8: (L + 2o) log2 P + t_bc");
    is_num(logp_of(&c, "bst", 6, 0), 3 * 8 + 3 * 7, 1e-12, "bst P=6: (L + 3o) ceil(log2 P) + t_bc");
    is_num(logp_of(&c, "bfly", 8, 0), 21, 1e-12, "bfly P=8");
    is_num(logp_of(&c, "bfly", 6, 0), 2 * 3 * 7, 1e-12,
           "bfly P=6: worst case 2 (L + 2o) ceil(log2 P)");
    is_num(logp_of(&c, "pe", 6, 0), (2 + 2) * 7, 1e-12, "pe P=6: (floor(log2 P) + 2) (L + 2o)");
    is_num(logp_of(&c, "nwise", 9, 2), 4 * 7 * 2, 1e-12, "nwise n=2 P=9: (n+2) t_r ceil(log_3 P)");
    is_num(logp_of(&c, "rgm", 16, 3), 2 * (7 + 2) + 7, 1e-12, "rgm n=3 P=16: 2 levels + multicast");
    is_num(logp_of(&c, "hwswitch", 8, 0), 1 + 10 + 0.08 + 1, 1e-12,
           "hwswitch P=8: o_s + 2L + o_p + o_r");
    is_num(logp_of(&c, "hwnet", 4, 0), 2.44, 1e-12, "hwnet P=4: 2.44 us (thesis 3.2.2.1)");
    c.links = 2;
    is_num(logp_of(&c, "ndiss", 9, 2), (2 * 2 + 5) * 2, 1e-12,
           "ndiss n=2 m=2: (n o_s + L + n o_r) R");
    is_num(logp_of(&c, "ndiss", 9, 3), (3 * 2 + 5 * 2) * 2, 1e-12,
           "ndiss n=3 m=2: ceil(n/m) = 2 waves");
    c.links = 1;
    c.logp.g_us = 2;
    is_num(logp_of(&c, "cc", 4, 0), 2 * 7 + 2 * (2 + 2), 1e-12, "cc P=4, g=2: f_r = f_s = g");
    c.logp.g_us = 20;
    is_num(logp_of(&c, "diss", 4, 0), 2 * 20, 1e-12, "diss P=4, g=20: t_r = g");
}

/* A parameter set with constant o(p) = 1 and RTT(p) = 20, so L(p) = 10 - 2 = 8. */
static void lop_values(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    barrier_cost_t c;
    barrier_cost_init(&c);
    fixture_lop_load("x,t-inline,rtt,min,rtt,9,1,64,0,1,20,0,0,0\n"
                     "x,t-inline,os,min,ov,9,1,64,1,0,1,,,\n",
                     &set, &lop);
    c.lop = &lop;
    is_num(lop_of(&c, "cc", 4, 0), 1 + 3 * 8 + 1 + 3 * 8, 1e-12,
           "cc P=4: o + (p-1) L + o + (p-1) L");
    is_num(lop_of(&c, "diss", 8, 0), 3 * (1 + 8), 1e-12, "diss P=8: R (o + L)");
    is_num(lop_of(&c, "ndiss", 9, 2), 2 * (2 * 1 + 2 * 8), 1e-12, "ndiss n=2 P=9: R (n o + n L)");
    is_num(lop_of(&c, "comb", 16, 4), 2 * (1 + 3 * 8) + 4 * 1 + 4 * 8, 1e-12,
           "comb n=4 P=16: R (o + (n-1) L) + t_bc");
    is_num(lop_of(&c, "tour", 8, 0), 3 * (1 + 8) + 3 * (1 + 8), 1e-12, "tour P=8");
    is_num(lop_of(&c, "hwswitch", 8, 0), 1 + 16 + 0.08, 1e-12, "hwswitch: o + 2 L + o_p");
    c.lop_pmin = INFINITY;
    c.lop_pmax = -INFINITY;
    lop_of(&c, "cc", 4, 0);
    ok(c.lop_pmin == 1 && c.lop_pmax == 3, "the p range evaluated is recorded (cc P=4: 1..3)");
    c.cnt = 5000;
    lop_of(&c, "ndiss", 64, 2);
    is_num(c.lop_pmax, 2 * 5000 * 4, 0, "cnt scales the argument: n cnt R = 40000");
    lop_paramset_free(&set);
}

/* The thesis's RDMA-write inline minimum (2.3.6.3) evaluated here by hand:
 * RTT(p) = 3.0074 + 14.9630/(0.0446+p) + 6.1891 (1 - exp(-0.0531 (p-8.2665))),
 * o(p) = 0.5417 + 0.5003/(-0.4951+p), L(p) = RTT(p)/2 - o(p) - o(1). */
static double rtt_mozart(double p)
{
    return 3.0074 + 14.9630 / (0.0446 + p) + 6.1891 * (1 - exp(-0.0531 * (p - 8.2665)));
}
static double o_mozart(double p)
{
    return 0.5417 + 0.5003 / (-0.4951 + p);
}
static double L_mozart(double p)
{
    return rtt_mozart(p) / 2 - o_mozart(p) - o_mozart(1);
}

static void lop_mozart(void)
{
    lop_paramset_t set;
    lop_view_t lop;
    barrier_cost_t c;
    barrier_cost_init(&c);
    fixture_lop_load(
        "t,t-inline,rtt,min,rtt,63,1,63,14.9630,0.0446,3.0074,6.1891,-0.0531,8.2665\n"
        "t,t-inline,os,min,ov,63,1,63,0.5417,0.5003,-0.4951,,,\n",
        &set, &lop);
    c.lop = &lop;
    c.cnt = 2;
    /* thesis 2.3.7.1.1 with p = 3, cnt = 2 */
    double want = o_mozart(2) + 2 * L_mozart(4) + o_mozart(4) + 2 * L_mozart(4);
    is_num(lop_of(&c, "cc", 3, 0), want, 1e-9, "cc P=3 cnt=2 on the thesis's rdmaw-inline fit");
    /* thesis 2.3.7.1.4 with n = 2, p = 64: R = 4, argument n cnt R = 16 */
    want = 4 * (2 * o_mozart(16) + 2 * L_mozart(16));
    is_num(lop_of(&c, "ndiss", 64, 2), want, 1e-9, "ndiss n=2 P=64 cnt=2");
    lop_paramset_free(&set);
}

int main(void)
{
    integer_logs();
    logp_values();
    lop_values();
    lop_mozart();
    return tap_done();
}
