/*
 * select.h - model selection: lop_fitter_select fits every member of a
 * nested family (model.h) to the same points and ranks them by an
 * information criterion.  For least
 * squares with independent Gaussian errors of one unknown variance,
 *   AIC  = n·ln(SSR/n) + 2k
 *   AICc = AIC + 2k(k+1)/(n−k−1)      (small-sample correction)
 *   BIC  = n·ln(SSR/n) + k·ln n
 * where k counts the free parameters (linear + searched, not the gauge)
 * PLUS ONE for the noise variance σ².  A member with n − k − 1 <= 0 (AICc)
 * or n − k < 1 (BIC) is not eligible; with fewer points than the model's
 * parameters it is not even fitted.  Lower is better; Δ = score − the
 * chosen one's.  The lowest score is chosen, except that a fit whose
 * parameters the data cannot determine (ill-conditioned or singular) gives
 * way to a simpler member within Δ < 2 of it (no real preference) whose fit
 * is determined: its intervals would be the draws of parameters no one
 * measured (an ov fit of 8 near-flat points had λ ≈ 10^13 ± 10^14, and
 * the predictions drawn from it reached 10^8 us).  Its margin is then
 * negative.
 */
#ifndef LOP_SELECT_H
#define LOP_SELECT_H

#include <stddef.h>

#include "fitter.h"
#include "model.h"

typedef enum { LOP_CRIT_AICC, LOP_CRIT_BIC } lop_criterion_t;

typedef struct {
    lop_fit_t fit;     /* the member's fit (valid if fitted) */
    int fitted;        /* 0 if too few points for the model or its fit failed */
    int k;             /* free parameters + 1 (σ²) */
    int eligible;      /* fitted and the criterion is defined for it */
    double aicc, bic;  /* NaN where undefined */
    double delta;      /* criterion − the chosen's (0 for it); NaN if not eligible */
} lop_candidate_t;

typedef struct {
    const lop_family_t *family;
    lop_criterion_t criterion;
    int n_cand;                            /* = family->n_members, richest first */
    lop_candidate_t cand[LOP_FAMILY_MAX];
    int best;                              /* index of the chosen member */
    double margin;                         /* Δ of the runner-up (INFINITY if none;
                                              < 0: it scored lower, ill-posed) */
} lop_selection_t;

/* Fit every member of 'family' to the points (p, y) and choose by
 * 'criterion'.  The caller names sel->cand[i].fit's file etc. afterwards.
 * Fails with LOP_ERR_INVALID if no member is eligible (too few points: *sel
 * is filled then, with best = −1 and the members that could be fitted, so
 * the caller can fall back to one) or the points are bad, LOP_ERR_NOMEM. */
lop_status_t lop_fitter_select(const lop_family_t *family, lop_criterion_t criterion,
                               const double *p, const double *y, size_t n,
                               const lop_fitter_opts_t *opts, lop_selection_t *sel);

/* k (free parameters + 1), AICc and BIC of a fit (NaN where undefined), as
 * lop_fitter_select scores its candidates: also for a model given by hand. */
void lop_fitter_score(const lop_fit_t *fit, int *k, double *aicc, double *bic);

#endif
