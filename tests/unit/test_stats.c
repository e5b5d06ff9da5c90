/* Statistics on arrays whose answers are known by hand. */
#include <math.h>

#include "stats.h"
#include "tap.h"

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
    ok(a[0] == 1 && a[4] == 5, "samples are sorted in place");

    double b[] = {10, 20, 30, 40};
    lop_stats_compute(b, 4, &s);
    is_num(s.median, 25, 1e-12, "median of even count is the midpoint");

    double c[101];
    for (int i = 0; i <= 100; i++)
        c[i] = 100 - i;
    lop_stats_compute(c, 101, &s);
    is_num(s.p99, 99, 1e-12, "p99 of 0..100 is 99");

    double one[] = {7.5};
    lop_stats_compute(one, 1, &s);
    ok(s.n == 1 && s.stddev == 0 && s.median == 7.5 && s.p99 == 7.5, "single sample");

    ok(lop_stats_compute(one, 0, &s) == LOP_ERR_INVALID, "empty sample is an error");
    double bad[] = {1, NAN, 2};
    ok(lop_stats_compute(bad, 3, &s) == LOP_ERR_INVALID, "NaN sample is an error: %s",
       lop_errmsg());
    double inf[] = {1, INFINITY};
    ok(lop_stats_compute(inf, 2, &s) == LOP_ERR_INVALID, "infinite sample is an error");
    return tap_done();
}
