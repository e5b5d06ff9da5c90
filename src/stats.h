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
    double p90;    /* 90% quantile, interpolated as every quantile here */
    double p99;    /* 99% quantile, linearly interpolated between order statistics */
    double p999;   /* 99.9% quantile (a tail, Petrini et al.'s barrier distributions) */
    double max;    /* largest sample */
    double stddev; /* sample standard deviation (n-1 denominator); 0 when n == 1 */
} lop_stats_t;

/* The f-quantile (0 <= f <= 1) of n >= 1 sorted values, as GSL interpolates
 * it: (1 − δ)·x_i + δ·x_{i+1}.  Rounding can put that an ulp outside
 * [x_i, x_{i+1}] when the two are equal or adjacent: lopbench's samples are
 * whole timer ticks, so ties are common, and a p99 came out above the max
 * (0.042563482704402515 > 0.04256348270440252) and below the median.  The
 * result is kept between its two neighbouring order statistics, so quantiles
 * are ordered as the order statistics are (min <= median <= p90 <= p99 <= p999 <= max).
 * Every quantile lop computes goes through here. */
double lop_stats_quantile_sorted(const double *sorted, size_t n, double f);

/* Summarise 'n' samples.  Sorts 'samples' in place.  Fails on n == 0 or on a
 * non-finite sample. */
lop_status_t lop_stats_compute(double *samples, size_t n, lop_stats_t *out);

#endif
