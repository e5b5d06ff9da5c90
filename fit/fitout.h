/*
 * fitout.h - the files lopfit writes (formats in fit/README.md):
 *
 *   DIR/params.csv                every fit (src/fmt_params.h)
 *   DIR/lop-<series>-<stat>.csv   p, rtt/os/or/L/Llist _us with _lo_us, _hi_us (95 %
 *                                 interval), extrapolated; p = 1..pmax
 *   DIR/curve-<series>-<quantity>-<stat>.csv  each fit at 256 p with its interval
 *   DIR/<series>-<quantity>.csv   (--synth) lopbench-format data made from a parameter set
 *
 * One file a format: fitout.c params.csv (and the batch), tables.c the
 * lop-*.csv tables, curves.c the curve-*.csv files, synth.c --synth's data.
 * Everything goes through one batch: each file is written to a temporary
 * file beside its target, and only lop_fitout_batch_end(), called after
 * every file was computed and written, renames them into place.  An error
 * before that leaves the directory as it was.
 */
#ifndef LOP_FITOUT_H
#define LOP_FITOUT_H

#include <stddef.h>

#include "csv.h"
#include "out.h"
#include "fitter.h"
#include "paramset.h"
#include "progress.h"

typedef struct {
    lop_csv_writer_t **writer; /* open temporary files, in opening order */
    size_t n;
} lop_fitout_batch_t;

/* Open DIR/name in the batch; '*w' stays valid until the batch ends. */
lop_status_t lop_fitout_batch_open(lop_fitout_batch_t *b, const char *dir, const char *name,
                                   lop_csv_writer_t **w);
/* End the batch and release it: when 'status' is LOP_OK, rename every file
 * into place (after a failed rename the rest are removed), otherwise remove
 * every temporary file, leaving the targets as they were.  Returns the
 * outcome. */
lop_status_t lop_fitout_batch_end(lop_fitout_batch_t *b, lop_status_t status);

/* DIR/params.csv with 'fits' in order (lop_paramset_find takes the first
 * row of a series, quantity and stat); 'weight' (NULL or "none": unweighted
 * fits) is said in a '# weight:' line. */
lop_status_t lop_fitout_params(lop_fitout_batch_t *b, const char *dir, const lop_fit_t *fits,
                               size_t n, const char *weight);

/* Receives one warning line (no newline, no program name). */
typedef void lop_fitout_warn_t(void *ctx, const char *msg);

/* DIR/lop-<series>-<stat>.csv for every series and stat of 'set' with an
 * rtt and an os fit (thesis 2.3.4: L(p) = RTT(p)/2 − (o_s(p) + o_s(1)),
 * L^list(p) with the <op>-list os fit).  Each value has its 95 % interval
 * from one lop_uncert_t per table (the rtt, os, os_list and or fits drawn
 * together), empty unless every fit the column uses has a covariance;
 * 'extrapolated' is 1 outside the range every fit used has data for.  Warns
 * once per table when p leaves the fitted range, when L(p) or L^list(p) is
 * negative, and when draws gave no finite value; fails if a value is not
 * finite.  From 10^5 rows in all the cost is said through 'warn' before
 * the work; 'progress' (NULL: none) follows the tables row by row.
 * '*n_tables' counts the tables. */
lop_status_t lop_fitout_tables(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                               lop_fitout_warn_t *warn, void *ctx, lop_progress_t *progress,
                               size_t *n_tables);

/* DIR/curve-<series>-<quantity>-<stat>.csv for every row of 'set' but the
 * LogP lines: metadata series, quantity, stat, model, unit, then
 * p,fit_us,lo_us,hi_us,extrapolated at 256 p evenly over [pmin, pmax]; lo/hi
 * the 95 % interval (src/uncert.h), empty without a covariance. */
lop_status_t lop_fitout_curves(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set);

/* The noise of lopfit --synth's values: fit(p)·(1 + rel·N(0,1)) + us·N(0,1),
 * each part redrawn until it keeps the time positive. */
typedef struct {
    double rel; /* relative: its standard deviation as a fraction of the value (--noise) */
    double us;  /* additive: its standard deviation in us (--noise-us) */
} lop_synth_noise_t;

/* DIR/<series>-<quantity>.csv for every series and quantity of 'set', in
 * lopbench's format, rows p = pmin..pmax (over its stats): the column of
 * each stat with a fit is the fit's value with 'noise' from a GSL generator
 * seeded with 'seed' (no additive draw when noise->us is 0, so a relative
 * noise alone gives the values it always gave); the other columns are
 * empty. */
lop_status_t lop_fitout_synth(lop_fitout_batch_t *b, const char *dir, const lop_paramset_t *set,
                              const lop_synth_noise_t *noise, unsigned long seed);

#endif
