/*
 * fmt_params.h - params.csv, a parameter set, one fitted model (model.h)
 * per row, which lopfit -o writes and every tool reads: the one place its
 * columns, metadata keys and tokens are spelled, its writer and its reader
 * (README "Data formats", fit/README.md).
 *
 *   # lopfit, unit, [weight]
 *   file,series,quantity,stat,model,n,pmin,pmax,l1..l6,ssr,rmse,r2,se1..se6,
 *   cov11,cov12,..,cov16,cov22,..,cov66,weak,hint,criterion,k,aicc,bic,margin
 *
 * series is "<op>-<post>" (send-normal, rdmaw-inline, send-list, ...),
 * quantity rtt, os, or, prtt, exch, ring or round, stat min, avg or median.
 * Unused lambdas and unknown statistics are empty cells (rtt-nosat uses
 * l1..l3, const l1), and every number is exact, so the reader gives the
 * same bits back.
 * cov<i><j> (i <= j) is the upper triangle of lop_fit_t.cov, all 21 cells
 * empty without a covariance (has_cov = 0); weak names the weak parameters
 * joined by '+' ("l3+l4"), hint is what more data would fix them
 * (lop_fmt_params_hints), criterion how the model was chosen (aicc, bic,
 * forced), k, aicc, bic its criteria and margin the runner-up's difference
 * (inf: the only eligible one; empty when forced).  Every column after l6 is
 * optional for the reader: the thesis's published set has none of them
 * (has_cov = 0, nothing weak, criterion unknown).
 */
#ifndef LOP_FMT_PARAMS_H
#define LOP_FMT_PARAMS_H

#include "csv.h"
#include "lop.h"
#include "model.h"
#include "out.h"
#include "paramset.h"

#define LOP_FMT_PARAMS_NAME "params.csv"

/* The params.csv columns, then "fit_ms": lopfit --csv prints params.csv's
 * rows with each fit's time after them.  LOP_FMT_PARAMS_COLUMNS of them
 * without it. */
#define LOP_FMT_PARAMS_COLUMNS 51
extern const lop_out_col_t lop_fmt_params_columns[LOP_FMT_PARAMS_COLUMNS + 1];

/* The hint cell, in the order of lop_hint_t (fit/fitter.h): "none",
 * "more-p", "more-reps", then NULL. */
extern const char *const lop_fmt_params_hints[];

/* On an open writer (csv.h): the metadata ('weight' NULL or "none": the
 * fits are unweighted, no '# weight:' line) and the header. */
lop_status_t lop_fmt_params_write_begin(lop_out_t *t, lop_csv_writer_t *w, const char *weight);
/* A fit's params.csv cells into the current row of 't', not ended (lopfit
 * --csv adds a cell); 'hint' indexes lop_fmt_params_hints. */
void lop_fmt_params_cells(lop_out_t *t, const lop_fit_t *fit, int hint);

/* Read and check a params.csv (lop_fit_check for every row, no repeated
 * key); errors name file:line.  A covariance (has_cov) needs all 21 cells,
 * finite, 0 in the rows of parameters the model does not fit, and positive
 * semi-definite as lop_uncert_draw needs it. */
lop_status_t lop_fmt_params_read(const char *path, lop_paramset_t *set);

#endif
