/*
 * model.h - the LoP model functions, their descriptors and a fitted model (thesis
 * 2.3.6.1).  A set of fits, params.csv, is paramset.h; the LoP view of one
 * series (o(p), L(p)) is view.h.
 *
 * One definition of each model function, shared by lopfit (which fits them)
 * and lopredict (which evaluates them):
 *   rtt     t_rtt(p) = l1/(l2+p) + l3 + l4*(1 - exp(l5*(p-l6)))   (2.3.6.1.1)
 *   ov      t_ov(p)  = l1 + l2/(l3+p)                              (2.3.6.1.2)
 *   linear  t(p)     = l1 + l2*p       (the traditional LogP shape, 2.3.3)
 *   bucket  t(p)     = l1 + l2*(min(p,l4)-1) + l3*max(0,p-l4)
 *                      (scenario 2's round, p RTT(p), through a token-bucket
 *                      adapter: a burst of l4 messages, then one per l3)
 * and the simpler members of their nested families (model selection):
 *   rtt-nosat  t(p)  = l1/(l2+p) + l3  (rtt without saturation, l4 = 0)
 *   const      t(p)  = l1              (LogP's constant; rtt with l1 = l4 = 0,
 *                                       ov with l2 = 0)
 * Each model is one const descriptor below: its function, parameter names,
 * the role of each parameter in a fit, and lop_family_t lists the nested
 * families (rtt: rtt ⊃ rtt-nosat ⊃ const; ov: ov ⊃ const; round: bucket ⊃
 * linear, l3 = l2).
 */
#ifndef LOP_MODEL_H
#define LOP_MODEL_H

#include <stddef.h>

#include "csv.h"
#include "lop.h"

#define LOP_MODEL_MAX_PARAMS 6

/* Constraints of the searched parameters, the same for every model: a pole
 * -l of l1/(l+p) stays at least LOP_MODEL_POLE_MIN left of pmin (and at most
 * LOP_MODEL_POLE_MAX*pmax: farther, 1/(l+p) is a constant to working
 * precision); an exponent l*(p - l_gauge) stays within
 * LOP_MODEL_EXP_MIN..LOP_MODEL_EXP_MAX on the data, so e^{...} is a finite,
 * normal double. */
#define LOP_MODEL_POLE_MIN 1e-3
#define LOP_MODEL_POLE_MAX 1e6
#define LOP_MODEL_EXP_MIN (-700.0)
#define LOP_MODEL_EXP_MAX 50.0

/* How a fit determines a parameter (thesis 2.3.6.1.3, fit/fitter.c). */
typedef enum {
    LOP_PARAM_LINEAR, /* the model is linear in it: solved exactly given the others */
    LOP_PARAM_POLE,   /* searched (Nelder-Mead); its pole -l stays left of pmin */
    LOP_PARAM_RATE,   /* searched; an exponent rate, bounded on the data (above) */
    LOP_PARAM_GAUGE,  /* fixed to pmin: not identifiable (the p offset l6 of rtt) */
    LOP_PARAM_KNOT    /* searched; a breakpoint in p, kept within pmin..pmax */
} lop_param_role_t;

typedef struct {
    const char *name;    /* "rtt", "rtt-nosat", "const", "ov", "linear" (params.csv's model) */
    int n_params;        /* how many lambdas it uses, l1..l<n_params> */
    const char *formula; /* for reports */
    double (*eval)(const double *lambda, double p);
    const char *param[LOP_MODEL_MAX_PARAMS];        /* parameter names, "l1".. */
    lop_param_role_t role[LOP_MODEL_MAX_PARAMS];    /* how a fit finds each */
    const char *cite;    /* thesis section or why the model exists */
    const char *gnuplot; /* the function as a gnuplot expression in x and l1..l<n_params>
                            (lopfit --gnuplot-expr; tests/unit/test_gnuplot_expr.c checks
                            it against eval) */
} lop_model_t;

extern const lop_model_t lop_model_rtt, lop_model_rtt_nosat, lop_model_const, lop_model_ov,
    lop_model_linear, lop_model_bucket;

/* Every model, NULL-terminated (for --help and error messages). */
extern const lop_model_t *const lop_models[];

/* Model by name, or NULL. */
const lop_model_t *lop_model_find(const char *name);
/* The model a quantity is fitted with: rtt -> rtt, os/or -> ov; NULL if unknown. */
const lop_model_t *lop_model_for_quantity(const char *quantity);
/* Parameters a fit determines (linear and searched; not the gauge). */
int lop_model_n_free(const lop_model_t *model);
/* Index of the gauge parameter, or -1. */
int lop_model_gauge(const lop_model_t *model);

#define LOP_FAMILY_MAX 3

/* Nested models for model selection, richest first: each member is the one
 * before with some parameters fixed (so its SSR can only be higher). */
typedef struct {
    const char *name;                         /* "rtt", "ov" */
    int n_members;
    const lop_model_t *member[LOP_FAMILY_MAX];
} lop_family_t;

extern const lop_family_t lop_family_rtt, lop_family_ov, lop_family_prtt, lop_family_exch,
    lop_family_ring, lop_family_round;

/* The family a quantity is selected from (rtt -> rtt, os/or -> ov), or the
 * family whose richest member is 'model'; NULL if none. */
const lop_family_t *lop_family_for_quantity(const char *quantity);
const lop_family_t *lop_family_of(const lop_model_t *model);

/* Why a fitted parameter is not determined by the data (lop_fit_t.weak). */
#define LOP_FIT_WEAK_SE 1u        /* its standard error exceeds |value| */
#define LOP_FIT_WEAK_SINGULAR 2u  /* the Jacobian is singular in a direction it is part
                                     of (or no residual degree of freedom): se unknown */
#define LOP_FIT_WEAK_ILLCOND 4u   /* it is part of a direction the data determine
                                     1e6 times less well than the best one */

typedef struct {
    char file[256];     /* data file the fit came from (or a citation) */
    char series[LOP_NAME_SIZE]; /* "<op>-<post>" */
    char quantity[16];  /* rtt, os, or */
    char stat[16];      /* min, avg, median */
    const lop_model_t *model;
    size_t n;           /* data points fitted */
    double pmin, pmax;  /* p range of the data */
    double lambda[LOP_MODEL_MAX_PARAMS]; /* parameters, l1..l6 */
    double se[LOP_MODEL_MAX_PARAMS];     /* standard errors; NaN if unknown */
    double ssr, rmse, r2; /* goodness of fit; NaN if unknown */
    int has_cov;          /* 1 if cov is known (a fit with n > free parameters and a
                             nonsingular Jacobian); 0 for published parameter sets */
    double cov[LOP_MODEL_MAX_PARAMS][LOP_MODEL_MAX_PARAMS]; /* parameter covariance,
                             us^2 scaled as the lambdas; rows/columns of fixed ones 0 */
    unsigned weak[LOP_MODEL_MAX_PARAMS]; /* LOP_FIT_WEAK_* bits: the data cannot
                             determine this parameter (fit/fitter.h).  Read from
                             params.csv, which names weak parameters but not why:
                             SE when se > |value|, SINGULAR when se is unknown,
                             ILLCOND otherwise and when the row's hint is more-p */
    /* How the model was chosen (params.csv's selection columns, fit/fitter.h):
     * criterion "" when unknown (then k = 0 and the rest NaN). */
    char criterion[8];    /* "aicc", "bic" (selected) or "forced" (--model) */
    int k;                /* free parameters + 1 (the noise variance) */
    double aicc, bic;     /* the model's criteria; NaN where undefined */
    double margin;        /* criterion difference to the runner-up; INFINITY when
                             only one model was eligible; NaN when forced */
} lop_fit_t;

/* Value of a fit at p. */
double lop_fit_eval(const lop_fit_t *fit, double p);

/* Largest pmax of a fit: lopfit writes a table row per p = 1..pmax. */
#define LOP_MODEL_MAX_P 1000000

/* The times lop fits and predicts from: 0, or 1e-100..1e100 us in size.  The
 * fitter's sums of squares underflow below ~1e-154 and overflow above
 * ~1e154, and no timer measures such times (lopbench's resolves ~1e-3 us). */
#define LOP_MODEL_TIME_MIN_US 1e-100
#define LOP_MODEL_TIME_MAX_US 1e100

/* May 'model' describe 'quantity'?  A member of its family (rtt, rtt-nosat,
 * const for rtt; ov, const for os and or) or the linear LogP shape; any
 * model for other quantities. */
int lop_model_fits_quantity(const lop_model_t *model, const char *quantity);

/* The names of 'family's members and linear (every model of lop_models[] if
 * 'family' is NULL), joined by ", " and 'last_sep' before the last one
 * ("rtt, rtt-nosat, const or linear"), into buf.  For help texts and error
 * messages: no hand-written model lists.  A list longer than len - 1 is
 * LOP_ERR_RANGE, never cut short: size buf LOP_MODEL_NAMES_LEN, which holds
 * every model's name (test_fit_select checks it against the table). */
#define LOP_MODEL_NAMES_LEN 128
lop_status_t lop_model_names(const lop_family_t *family, const char *last_sep, char *buf,
                             size_t len);

/* Can params.csv hold 'fit' so that every tool reads it back?  Names follow
 * lop_name_ok() (they become file names), the model fits the quantity, the
 * used λ are finite, 1 <= pmin <= pmax <= LOP_MODEL_MAX_P, no pole in the
 * range, and the fit at pmin and pmax is at most LOP_MODEL_TIME_MAX_US in
 * size (a time lopfit could have fitted).  Errors begin with 'where' (e.g.
 * "params.csv:7"). */
lop_status_t lop_fit_check(const lop_fit_t *fit, const char *where);

/* 1 if every pole -l of 'model' (its LOP_PARAM_POLE lambdas) lies at least
 * LOP_MODEL_POLE_MIN left of pmin, i.e. outside the range [pmin, pmax] the
 * set is used on; 0 if one is inside (the curve is infinite there).  The
 * fitter's constraint and the readers' check are this one function. */
int lop_model_poles_outside(const lop_model_t *model, const double *lambda, double pmin);

/* The thesis's latency from a round trip per message and the send overheads
 * (2.3.4, list 2.9): L = RTT/2 - (o_s(p) + o_s(1)); one message (p = 1) gives
 * L(1) = RTT(1)/2 - 2 o_s(1).  Fitted curves (lop_view_L, view.h) and measured pairs
 * (lopbench --pairs) both use it. */
static inline double lop_latency(double rtt, double os_p, double os_1)
{
    return rtt / 2 - (os_p + os_1);
}

#endif
