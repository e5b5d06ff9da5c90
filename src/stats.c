/* stats.c - summary statistics through GSL (stats.h). */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

double lop_stats_quantile_sorted(const double *sorted, size_t n, double f)
{
    size_t i = (size_t)floor((double)(n - 1) * f), j = i + 1 < n ? i + 1 : i;
    double q = gsl_stats_quantile_from_sorted_data(sorted, 1, n, f);
    return fmin(fmax(q, sorted[i]), sorted[j]);
}

lop_status_t lop_stats_compute(double *samples, size_t n, lop_stats_t *out)
{
    if (n == 0)
        return lop_err(LOP_ERR_INVALID, "statistics of an empty sample");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(samples[i]))
            return lop_err(LOP_ERR_INVALID, "sample %zu is not finite", i);
    gsl_sort(samples, 1, n);
    out->n = n;
    out->min = samples[0];
    out->max = samples[n - 1];
    /* The mean of values in [min, max] lies there; the running mean's rounding
     * need not, by an ulp, when values tie or are adjacent. */
    out->mean = fmin(fmax(gsl_stats_mean(samples, 1, n), out->min), out->max);
    out->median = lop_stats_quantile_sorted(samples, n, 0.5);
    out->p90 = lop_stats_quantile_sorted(samples, n, 0.90);
    out->p99 = lop_stats_quantile_sorted(samples, n, 0.99);
    out->p999 = lop_stats_quantile_sorted(samples, n, 0.999);
    out->stddev = n > 1 ? gsl_stats_sd_m(samples, 1, n, out->mean) : 0.0;
    return LOP_OK;
}
