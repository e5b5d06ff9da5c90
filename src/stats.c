/* stats.c - summary statistics through GSL (stats.h). */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

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
    out->mean = gsl_stats_mean(samples, 1, n);
    out->median = gsl_stats_median_from_sorted_data(samples, 1, n);
    out->p99 = gsl_stats_quantile_from_sorted_data(samples, 1, n, 0.99);
    out->stddev = n > 1 ? gsl_stats_sd_m(samples, 1, n, out->mean) : 0.0;
    return LOP_OK;
}
