/* select.c - model selection: every member of a nested family fitted and
 * ranked by AICc or BIC (select.h; step 7 of fitter.c's method). */
#include "select.h"

#include <math.h>

void lop_fitter_score(const lop_fit_t *fit, int *k_out, double *aicc, double *bic)
{
    int k = lop_model_n_free(fit->model) + 1;
    double n = (double)fit->n, fit_term = n * log(fit->ssr / n);
    *aicc = n - k - 1 > 0 ? fit_term + 2 * k + 2.0 * k * (k + 1) / (n - k - 1) : NAN;
    *bic = n - k >= 1 ? fit_term + k * log(n) : NAN;
    *k_out = k;
}

static double score_of(const lop_selection_t *sel, const lop_candidate_t *c)
{
    return sel->criterion == LOP_CRIT_AICC ? c->aicc : c->bic;
}

/* Does the fit have a parameter the data cannot determine by their shape
 * (ill-conditioned, singular: more p values would), not only by their
 * noise? */
static int ill_posed(const lop_fit_t *f)
{
    return lop_fitter_hint(f) == LOP_HINT_MORE_P;
}

/* The best-scoring simpler eligible member within 2 of 'best' whose fit is
 * not ill-posed, where best's is (select.h); else best. */
static int determined_choice(const lop_selection_t *sel, int best)
{
    const lop_candidate_t *b = &sel->cand[best];
    int pick = best;
    if (!ill_posed(&b->fit))
        return best;
    for (int i = 0; i < sel->n_cand; i++) {
        const lop_candidate_t *c = &sel->cand[i];
        if (c->eligible && c->k < b->k && score_of(sel, c) - score_of(sel, b) < 2 &&
            !ill_posed(&c->fit) &&
            (pick == best || score_of(sel, c) < score_of(sel, &sel->cand[pick])))
            pick = i;
    }
    return pick;
}

/* Choose the candidate with the lowest score; Δ of every eligible one.  A tie
 * (equal scores, also two exact fits at −inf) goes to the simplest: fewer
 * parameters, since the data give no reason for more; so does an ill-posed
 * fit without a real preference (determined_choice). */
static void rank_candidates(lop_selection_t *sel)
{
    double best = INFINITY;
    sel->best = -1;
    for (int i = 0; i < sel->n_cand; i++) {
        lop_candidate_t *c = &sel->cand[i];
        double score = score_of(sel, c);
        c->eligible = c->fitted && !isnan(score);
        if (c->eligible && (sel->best < 0 || score < best ||
                            (score == best && c->k < sel->cand[sel->best].k))) {
            best = score;
            sel->best = i;
        }
    }
    if (sel->best >= 0) {
        sel->best = determined_choice(sel, sel->best);
        best = score_of(sel, &sel->cand[sel->best]);
    }
    sel->margin = INFINITY;
    for (int i = 0; i < sel->n_cand; i++) {
        lop_candidate_t *c = &sel->cand[i];
        double score = score_of(sel, c);
        /* a perfect fit scores −inf: two of them tie */
        c->delta = !c->eligible ? NAN : score == best ? 0.0 : score - best;
        if (c->eligible && i != sel->best)
            sel->margin = fmin(sel->margin, c->delta);
    }
}

lop_status_t lop_fitter_select(const lop_family_t *family, lop_criterion_t criterion,
                               const double *p, const double *y, size_t n,
                               const lop_fitter_opts_t *opts, lop_selection_t *sel)
{
    lop_selection_t s = {.family = family, .criterion = criterion,
                         .n_cand = family->n_members};
    for (int i = 0; i < s.n_cand; i++) {
        lop_candidate_t *c = &s.cand[i];
        const lop_model_t *m = family->member[i];
        c->k = lop_model_n_free(m) + 1;
        c->aicc = c->bic = c->delta = NAN;
        if (n < (size_t)m->n_params)
            continue;
        lop_status_t st = lop_fitter_run(m, p, y, n, opts, &c->fit, NULL);
        if (st != LOP_OK)
            return st;
        c->fitted = 1;
        lop_fitter_score(&c->fit, &c->k, &c->aicc, &c->bic);
    }
    rank_candidates(&s);
    *sel = s; /* also without an eligible member: the caller may fall back */
    if (s.best < 0)
        return lop_err(LOP_ERR_INVALID, "%zu points: too few for any %s model under %s", n,
                       family->name, criterion == LOP_CRIT_AICC ? "AICc" : "BIC");
    return LOP_OK;
}
