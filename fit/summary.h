/*
 * summary.h - a few hundred (or thousand) weighted points that keep the
 * shape of a long series, for the fitter's global search (fitter.c, step 4).
 *
 * The global search evaluates the profile SSR thousands of times, each at a
 * cost linear in the points; 10^5 RTT points took 22.8 s that way.  The
 * search only has to find the right basin: it runs on a summary, and
 * Levenberg-Marquardt then refines all parameters on every point.
 *
 * The points, sorted by p, are cut into at most 'bins' runs of neighbours;
 * a run becomes one point at its weighted means of p and y with the run's
 * total weight W (a run of one point is that point).  Where the curve t is
 * flat across a run, Σ w_i (y_i − t(p_i))² = W·(ȳ − t(p̄))² + a constant,
 * so the summary's SSR landscape is the data's up to terms in t's slope
 * within a run, small where the runs are narrow, i.e. where t bends.  Runs
 * are cut where
 *
 *   s(p) = ½·ln(p/pmin)/ln(pmax/pmin) + ½·(p − pmin)/(pmax − pmin)
 *
 * crosses a multiple of 1/bins.  The models bend only near pmin: the pole
 * term λ1/(λ2+p) within a few pole distances of it, the saturation
 * λ4·(1 − e^{λ5(p−pmin)}) over 1/|λ5| from it, or, rising, over at least
 * (pmax − pmin)/50 before pmax (the exponent's bound, fitter.c step 3).
 * The logarithmic half gives every e-fold of p the same share of the bins
 * (bins/(2·ln(pmax/pmin)): 18 of 512 at pmax/pmin = 10^6), so the first
 * points stay points of their own and every scale 1/|λ5| is resolved; the
 * linear half gives every stretch of (pmax − pmin)/(bins/2) a bin, finer
 * than a rising saturation can bend.  Series of at most 'bins' points are
 * copied as they are.
 */
#ifndef LOP_SUMMARY_H
#define LOP_SUMMARY_H

#include <stddef.h>

#include "lop.h"

typedef struct {
    size_t n;   /* summary points, in increasing p */
    double *p;  /* weighted mean p of each run */
    double *y;  /* weighted mean y */
    double *sw; /* square root of the run's total weight */
} lop_summary_t;

/* Summarise the n points (p[i], y[i]) of weights sw[i]² > 0 (the fitter's
 * residuals are sw·(y − t)), visited in the order 'order' (indices sorted
 * by increasing, distinct p; NULL: the points are in that order), into at
 * most 'bins' >= 1 points.  Fails only with LOP_ERR_NOMEM. */
lop_status_t lop_summary_make(const double *p, const double *y, const double *sw,
                              const size_t *order, size_t n, size_t bins, lop_summary_t *s);
void lop_summary_free(lop_summary_t *s);

#endif
