/* Statistics on arrays whose answers are known by hand. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "out.h"
#include "stats.h"
#include "tap.h"

/* v as the CSV cell lopbench writes, read back. */
static double round_trip(double v)
{
    char buf[LOP_OUT_NUM_LEN];
    return strtod(lop_out_format_csv(buf, v), NULL);
}

/* min <= median <= p99 <= max and min <= avg <= max, exactly, in the
 * written cells: the invariant lopbench's files document. */
static int summary_ordered(const lop_stats_t *s)
{
    double min = round_trip(s->min), avg = round_trip(s->mean), med = round_trip(s->median),
           p90 = round_trip(s->p90), p99 = round_trip(s->p99), p999 = round_trip(s->p999),
           max = round_trip(s->max);
    return min <= med && med <= p90 && p90 <= p99 && p99 <= p999 && p999 <= max && min <= avg &&
           avg <= max;
}

/* Property: samples as lopbench makes them, whole timer ticks times a factor
 * that is not representable (1/2596.122 us a tick, divided by k messages),
 * with many ties; tiny samples (n = 1, 2, 3) and constant ones among them.
 * GSL's interpolation alone broke the order in some of these (p99 one ulp
 * above max, one ulp below the median). */
static void check_ordered_summaries(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double x[200];
    int bad = 0, cases = 0;
    for (int c = 0; c < 200000; c++) {
        size_t n = c % 4 == 0 ? 1 + gsl_rng_uniform_int(r, 3) : 1 + gsl_rng_uniform_int(r, 200);
        unsigned long spread = c % 7 == 0 ? 1 : 1 + gsl_rng_uniform_int(r, 6); /* 1: constant */
        unsigned long base = 20 + gsl_rng_uniform_int(r, 5000);
        double k = (double)(1 + gsl_rng_uniform_int(r, 64));
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(base + gsl_rng_uniform_int(r, spread)) / 2596.122 / k;
        lop_stats_t s;
        if (lop_stats_compute(x, n, &s) != LOP_OK || !summary_ordered(&s)) {
            if (!bad)
                printf("# first case out of order (%d): min %.17g avg %.17g median %.17g "
                       "p99 %.17g max %.17g\n", c, s.min, s.mean, s.median, s.p99, s.max);
            bad++;
        }
        cases++;
    }
    ok(bad == 0, "min <= median <= p90 <= p99 <= p999 <= max, min <= avg <= max in the written cells of %d "
       "tied, tiny and constant samples (%d out of order)", cases, bad);
    gsl_rng_free(r);
}

int main(void)
{
    lop_stats_t s;
    double a[] = {5, 1, 4, 2, 3};
    ok(lop_stats_compute(a, 5, &s) == LOP_OK, "five samples");
    is_num(s.min, 1, 0, "min");
    is_num(s.max, 5, 0, "max");
    is_num(s.mean, 3, 1e-12, "mean");
    is_num(s.median, 3, 0, "median of odd count");
    is_num(s.stddev, sqrt(2.5), 1e-12, "sample standard deviation (n-1)");
    /* quantile 0.99 of 1..5: index 0.99*4 = 3.96 -> 4 + 0.96*(5-4) */
    is_num(s.p99, 4.96, 1e-12, "p99 interpolates between order statistics");
    /* 0.9 * 4 = 3.6 -> 4 + 0.6; 0.999 * 4 = 3.996 -> 4 + 0.996 */
    is_num(s.p90, 4.6, 1e-12, "p90 likewise");
    is_num(s.p999, 4.996, 1e-12, "p999 likewise");
    ok(a[0] == 1 && a[4] == 5, "samples are sorted in place");

    double b[] = {10, 20, 30, 40};
    lop_stats_compute(b, 4, &s);
    is_num(s.median, 25, 1e-12, "median of even count is the midpoint");

    double c[101];
    for (int i = 0; i <= 100; i++)
        c[i] = 100 - i;
    lop_stats_compute(c, 101, &s);
    is_num(s.p99, 99, 1e-12, "p99 of 0..100 is 99");
    is_num(s.p90, 90, 1e-12, "p90 of 0..100 is 90");
    /* index 0.999 * 100 = 99.9 -> 99 + 0.9 * (100 - 99) */
    is_num(s.p999, 99.9, 1e-12, "p999 of 0..100 interpolates: 99.9");

    double one[] = {7.5};
    lop_stats_compute(one, 1, &s);
    ok(s.n == 1 && s.stddev == 0 && s.median == 7.5 && s.p90 == 7.5 && s.p99 == 7.5 &&
           s.p999 == 7.5, "single sample");

    ok(lop_stats_compute(one, 0, &s) == LOP_ERR_INVALID, "empty sample is an error");
    double bad[] = {1, NAN, 2};
    ok(lop_stats_compute(bad, 3, &s) == LOP_ERR_INVALID, "NaN sample is an error: %s",
       lop_errmsg());
    double inf[] = {1, INFINITY};
    ok(lop_stats_compute(inf, 2, &s) == LOP_ERR_INVALID, "infinite sample is an error");
    check_ordered_summaries();
    double q[] = {0.1, 0.1, 0.1};
    ok(lop_stats_quantile_sorted(q, 3, 0.99) == 0.1, "a quantile of tied values is that value");
    return tap_done();
}
