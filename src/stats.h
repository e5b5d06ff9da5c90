/*
 * stats.h - summary statistics of a sample, computed with GSL.
 */
#ifndef LOP_STATS_H
#define LOP_STATS_H

#include <stddef.h>

#include "lop.h"

typedef struct {
    size_t n;      /* number of samples */
    double min;    /* smallest sample */
    double mean;   /* arithmetic mean */
    double median; /* 50% quantile */
    double p99;    /* 99% quantile, linearly interpolated between order statistics */
    double max;    /* largest sample */
    double stddev; /* sample standard deviation (n-1 denominator); 0 when n == 1 */
} lop_stats_t;

/* Summarise 'n' samples.  Sorts 'samples' in place.  Fails on n == 0 or on a
 * non-finite sample. */
lop_status_t lop_stats_compute(double *samples, size_t n, lop_stats_t *out);

#endif
