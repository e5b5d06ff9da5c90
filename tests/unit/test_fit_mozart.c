/*
 * test_fit_mozart.c - the shipped thesis parameters (data/mozart-2005/params.csv)
 * reproduce the thesis's L(p) (2.3.7).
 *
 * Everything is checked through the pipeline: the shipped CSV read by
 * lop_fmt_params_read, looked up by lop_view_from_set, evaluated by
 * lop_fit_eval, lop_view_L and lop_view_Llist.  Against it, from the thesis:
 * the fitted functions as printed in 2.3.6.2 and 2.3.6.3 (written out here
 * by hand, independently of src/model.c), L(p) = RTT(p)/2 − (o_s(p) + o_s(1))
 * and L^list(p) (2.3.4) composed from them, and the simplified L(p) printed
 * in 2.3.7.  Those are rounded to two decimals, so the pipeline's L(p) must
 * match them within a per-case tolerance: the largest deviation measured
 * over p = 1..pmax plus ~10 % (see data/mozart-2005/README.md).
 * Run from the top directory (make check does).
 */
#include <math.h>
#include <stdio.h>

#include "fmt_params.h"
#include "view.h"
#include "tap.h"

#define PARAMS "data/mozart-2005/params.csv"

/* 2.3.6.2: Send/Receive */
static double rtt_send_n_min(double p)
{
    return 9.1637 + 22.4558 / (-0.0140 + p) + 0.0174 * (1 - exp(-0.0625 * (p - 101.3065)));
}
static double rtt_send_i_min(double p)
{
    return 9.0502 + 23.3204 / (0.1081 + p) + 0.0895 * (1 - exp(-0.0636 * (p - 74.6471)));
}
static double rtt_send_n_avg(double p)
{
    return 35.7292 + 191.6019 / (-0.0232 + p) + 63.578 * (1 - exp(0.0034 * (p + 43.7788)));
}
static double rtt_send_i_avg(double p)
{
    return 8.4888 + 424.1248 / (2.4364 + p) - 0.4132 * (1 - exp(-1.6407 * (p - 1.1077)));
}
static double os_send_n(double p) { return 0.5150 + 0.8443 / (-0.1160 + p); }
static double os_send_i(double p) { return 0.5483 + 0.8830 / (-0.1316 + p); }
static double os_send_l(double p) { return 0.1443 + 1.1528 / (-0.1657 + p); }
static double or_send_n(double p) { return 0.5042 + 0.0871 / (-0.9037 + p); }

/* 2.3.6.3: RDMA write */
static double rtt_rdmaw_n_min(double p)
{
    return 4.4642 + 16.7937 / (0.0058 + p) + 4.4751 * (1 - exp(-0.0642 * (p - 12.9209)));
}
static double rtt_rdmaw_i_min(double p)
{
    return 3.0074 + 14.9630 / (0.0446 + p) + 6.1891 * (1 - exp(-0.0531 * (p - 8.2665)));
}
static double rtt_rdmaw_n_avg(double p)
{
    return 13.1499 + 26.2100 / (0.0596 + p) + 0.0317 * (1 - exp(-0.0841 * (p - 75.1048)));
}
static double rtt_rdmaw_i_avg(double p)
{
    return 11.4724 + 14.0689 / (0.0117 + p) + 4.3843 * (1 - exp(-0.0186 * (p - 29.1184)));
}
static double os_rdmaw_n(double p) { return 0.5557 + 0.2103 / (-0.7728 + p); }
static double os_rdmaw_i(double p) { return 0.5417 + 0.5003 / (-0.4951 + p); }
static double os_rdmaw_l(double p) { return 0.1803 + 0.5726 / (-0.5746 + p); }

/* 2.3.7, as printed (rounded); the first with the sign of 0.13p corrected:
 * (p − 0.01)(p − 0.12) = p² − 0.13p + 0.0012. */
static double L_send_n_min(double p)
{
    return 2.59 + (-1.34 + 10.39 * p) / (-0.13 * p + p * p) +
           0.01 * (1 - exp(-0.06 * (p - 101.31)));
}
static double L_send_i_min(double p)
{
    return 2.42 + (-1.61 + 10.78 * p) / (-0.01 - 0.02 * p + p * p) +
           0.04 * (1 - exp(-0.06 * (p - 74.65)));
}
static double L_send_n_avg(double p)
{
    return 15.87 + (-11.51 + 94.96 * p) / (-0.14 * p + p * p) +
           31.79 * (1 - exp(0.003 * (p + 43.78)));
}
static double L_send_i_avg(double p)
{
    return 2.13 + (-29.72 + 211.18 * p) / (-0.32 + 2.31 * p + p * p) -
           0.21 * (1 - exp(-1.641 * (p - 1.11)));
}
static double L_rdmaw_n_min(double p)
{
    return 0.20 + (-6.46 + 8.18 * p) / (-0.01 - 0.76 * p + p * p) +
           2.24 * (1 - exp(-0.064 * (p - 12.92)));
}
static double L_rdmaw_i_min(double p)
{
    return -0.56 + (-3.69 + 6.98 * p) / (-0.02 - 0.45 * p + p * p) +
           3.09 * (1 - exp(-0.053 * (p - 8.27)));
}
static double L_rdmaw_n_avg(double p)
{
    return 4.54 + (-10.1 + 12.9 * p) / (-0.05 - 0.71 * p + p * p) +
           0.02 * (1 - exp(-0.08 * (p - 75.10)));
}
static double L_rdmaw_i_avg(double p)
{
    return 3.68 + (-3.45 + 6.53 * p) / (-0.01 - 0.48 * p + p * p) +
           2.19 * (1 - exp(-0.02 * (p - 29.12)));
}

typedef double fn_t(double);

typedef struct {
    const char *series, *stat;
    fn_t *rtt, *os, *os_list, *orecv, *rounded;
    int pmax;
    double rounded_tol_us; /* printed 2.3.7 form vs the pipeline's L(p), p = 1..pmax */
} case_t;

static const case_t cases[] = {
    {"send-normal", "min", rtt_send_n_min, os_send_n, os_send_l, or_send_n, L_send_n_min, 63, 0.5},
    {"send-inline", "min", rtt_send_i_min, os_send_i, os_send_l, NULL, L_send_i_min, 63, 1.6},
    {"send-normal", "avg", rtt_send_n_avg, os_send_n, os_send_l, or_send_n, L_send_n_avg, 63, 2},
    {"send-inline", "avg", rtt_send_i_avg, os_send_i, os_send_l, NULL, L_send_i_avg, 63, 0.03},
    {"rdmaw-normal", "min", rtt_rdmaw_n_min, os_rdmaw_n, os_rdmaw_l, NULL, L_rdmaw_n_min, 63, 0.08},
    {"rdmaw-inline", "min", rtt_rdmaw_i_min, os_rdmaw_i, os_rdmaw_l, NULL, L_rdmaw_i_min, 63, 0.06},
    {"rdmaw-normal", "avg", rtt_rdmaw_n_avg, os_rdmaw_n, os_rdmaw_l, NULL, L_rdmaw_n_avg, 50, 0.85},
    {"rdmaw-inline", "avg", rtt_rdmaw_i_avg, os_rdmaw_i, os_rdmaw_l, NULL, L_rdmaw_i_avg, 50, 0.13},
};

/* The measured deviations of the printed forms from the pipeline, us:
 * send-n min 0.449 (p = 1), send-i min 1.473 (p = 1), send-n avg 1.901
 * (p = 63, e^{0.003...} printed for e^{0.0034...}), send-i avg 0.025,
 * rdmaw-n min 0.069, rdmaw-i min 0.052, rdmaw-n avg 0.788 (p = 1),
 * rdmaw-i avg 0.114.  The large ones come from the rounded pole offsets in
 * the denominators, which matter most at p = 1. */

static void check_case(const lop_paramset_t *set, const case_t *c)
{
    lop_view_t lop;
    if (!ok(lop_view_from_set(set, c->series, c->stat, &lop) == LOP_OK, "%s %s: in the set",
            c->series, c->stat))
        return;
    ok(lop.pmin == 1 && lop.pmax == c->pmax && lop.os_list && (lop.orecv != NULL) == (c->orecv != NULL),
       "%s %s: p range 1..%d, list and receive fits found", c->series, c->stat, c->pmax);
    double dev_L = 0, dev_list = 0, dev_or = 0, dev_rtt = 0, dev_rounded = 0;
    for (int p = 1; p <= c->pmax; p++) {
        double L = c->rtt(p) / 2 - (c->os(p) + c->os(1));
        double Llist = c->rtt(p) / 2 - (p * c->os_list(p) + c->os_list(1));
        dev_L = fmax(dev_L, fabs(lop_view_L(&lop, p) - L));
        dev_rtt = fmax(dev_rtt, fabs(lop_fit_eval(lop.rtt, p) - c->rtt(p)) +
                                    fabs(lop_fit_eval(lop.os, p) - c->os(p)));
        dev_list = fmax(dev_list, fabs(lop_view_Llist(&lop, p) - Llist));
        if (c->orecv)
            dev_or = fmax(dev_or, fabs(lop_fit_eval(lop.orecv, p) - c->orecv(p)));
        dev_rounded = fmax(dev_rounded, fabs(c->rounded(p) - lop_view_L(&lop, p)));
    }
    is_num(dev_rtt, 0, 1e-12, "%s %s: RTT(p), o_s(p) of the CSV = 2.3.6's printed functions",
           c->series, c->stat);
    is_num(dev_L, 0, 1e-9, "%s %s: L(p) = the thesis's composition, p = 1..%d", c->series,
           c->stat, c->pmax);
    is_num(dev_list, 0, 1e-9, "%s %s: L^list(p) likewise", c->series, c->stat);
    is_num(dev_or, 0, 1e-12, "%s %s: o_r(p) likewise", c->series, c->stat);
    ok(dev_rounded <= c->rounded_tol_us,
       "%s %s: lop_view_L = 2.3.7's printed L(p) within %.2f us, p = 1..%d (max %.3f)", c->series,
       c->stat, c->rounded_tol_us, c->pmax, dev_rounded);
}

int main(void)
{
    lop_paramset_t set;
    if (!ok(lop_fmt_params_read(PARAMS, &set) == LOP_OK, "read %s: %s", PARAMS, lop_errmsg()))
        return tap_done();
    ok(set.n == 24, "24 fits: 8 RTT, 8 overheads under min and avg");
    for (size_t i = 0; i < COUNT(cases); i++)
        check_case(&set, &cases[i]);
    /* why the sign of 2.3.7's first simplified form is corrected above */
    lop_view_t lop;
    double printed = 2.59 + (-1.34 + 10.39) / (0.13 + 1) + 0.01 * (1 - exp(-0.06 * (1 - 101.31)));
    int found = lop_view_from_set(&set, "send-normal", "min", &lop) == LOP_OK;
    double off = found ? fabs(printed - lop_view_L(&lop, 1)) : NAN;
    ok(found && off > 2 * cases[0].rounded_tol_us,
       "2.3.7 as printed ('+0.13p') is off the pipeline's L(1) by %.2f us, over twice the "
       "rounding: a typo",
       off);
    lop_paramset_free(&set);
    return tap_done();
}
