/*
 * paramset.h - a parameter set: the params.csv lopfit writes and every tool
 * reads (README "Data formats"), one fitted model (model.h) per row.
 *
 * A parameter set (params.csv) holds one fitted model per row:
 *   file,series,quantity,stat,model,n,pmin,pmax,l1..l6,ssr,rmse,r2,se1..se6,
 *   cov11,cov12,..,cov16,cov22,..,cov66,weak,hint,criterion,k,aicc,bic,margin
 * series is "<op>-<post>" (send-normal, rdmaw-inline, send-list, ...),
 * quantity is rtt, os or or, stat is min, avg or median.  Unused lambdas and
 * unknown statistics are empty cells (rtt-nosat uses l1..l3, const l1).
 * cov<i><j> (i <= j) is the upper triangle of lop_fit_t.cov, all 21 cells
 * empty without a covariance (has_cov = 0); weak names the weak parameters
 * joined by '+' ("l3+l4"), hint is what more data would fix them (none,
 * more-p, more-reps: lop_fitter_hint), criterion how the model was chosen
 * (aicc, bic, forced), k, aicc, bic its criteria and margin the runner-up's
 * difference (inf: the only eligible one; empty when forced).  Every
 * appended column is optional for the reader: the thesis's published set
 * has none of them (has_cov = 0, nothing weak, criterion unknown).
 */
#ifndef LOP_PARAMSET_H
#define LOP_PARAMSET_H

#include <stddef.h>

#include "lop.h"
#include "model.h"

typedef struct {
    char *path;     /* the file read */
    lop_fit_t *fit; /* rows in file order */
    size_t n;
} lop_paramset_t;

/* The params.csv column list, for writers. */
extern const char lop_paramset_header[];

/* Read and check a params.csv (lop_fit_check for every row, no repeated
 * key); errors name file:line.  A covariance (has_cov) needs all 21 cells,
 * finite, 0 in the rows of parameters the model does not fit, and positive
 * semi-definite as lop_uncert_draw needs it. */
lop_status_t lop_paramset_read(const char *path, lop_paramset_t *set);
void lop_paramset_free(lop_paramset_t *set);
/* The fit for (series, quantity, stat), or NULL.  A set holds at most one
 * row of a model other than linear and one linear row (lopfit --compare's
 * LogP line) per (series, quantity, stat); the other model is preferred. */
const lop_fit_t *lop_paramset_find(const lop_paramset_t *set, const char *series,
                                   const char *quantity, const char *stat);

#endif
