/*
 * model.h - the LoP model functions and parameter sets (thesis 2.3.4, 2.3.6.1).
 *
 * One definition of each model function, shared by lopfit (which fits them)
 * and lopredict (which evaluates them):
 *   rtt     t_rtt(p) = l1/(l2+p) + l3 + l4*(1 - exp(l5*(p-l6)))   (2.3.6.1.1)
 *   ov      t_ov(p)  = l1 + l2/(l3+p)                              (2.3.6.1.2)
 *   linear  t(p)     = l1 + l2*p       (the traditional LogP shape, 2.3.3)
 *
 * A parameter set (params.csv) holds one fitted model per row:
 *   file,series,quantity,stat,model,n,pmin,pmax,l1..l6,ssr,rmse,r2,se1..se6
 * series is "<op>-<post>" (send-normal, rdmaw-inline, send-list, ...),
 * quantity is rtt, os or or, stat is min, avg or median.  Unused lambdas and
 * unknown statistics are empty cells.
 */
#ifndef LOP_MODEL_H
#define LOP_MODEL_H

#include <stddef.h>

#include "lop.h"

#define LOP_MODEL_MAX_PARAMS 6

typedef struct {
    const char *name;  /* "rtt", "ov", "linear" */
    int n_params;      /* how many lambdas it uses */
    const char *formula; /* for reports */
    double (*eval)(const double *lambda, double p);
} lop_model_t;

extern const lop_model_t lop_model_rtt, lop_model_ov, lop_model_linear;

/* Model by name, or NULL. */
const lop_model_t *lop_model_find(const char *name);
/* The model a quantity is fitted with: rtt -> rtt, os/or -> ov; NULL if unknown. */
const lop_model_t *lop_model_for_quantity(const char *quantity);

typedef struct {
    char file[256];     /* data file the fit came from (or a citation) */
    char series[64];    /* "<op>-<post>" */
    char quantity[16];  /* rtt, os, or */
    char stat[16];      /* min, avg, median */
    const lop_model_t *model;
    size_t n;           /* data points fitted */
    double pmin, pmax;  /* p range of the data */
    double lambda[LOP_MODEL_MAX_PARAMS]; /* parameters, l1..l6 */
    double se[LOP_MODEL_MAX_PARAMS];     /* standard errors; NaN if unknown */
    double ssr, rmse, r2; /* goodness of fit; NaN if unknown */
} lop_fit_t;

/* Value of a fit at p. */
double lop_fit_eval(const lop_fit_t *fit, double p);

/* Largest pmax of a fit: lopfit writes a table row per p = 1..pmax. */
#define LOP_MODEL_MAX_P 1000000

/* May 'model' describe 'quantity'?  Its own model (rtt for rtt, ov for os and
 * or) or the linear LogP shape; any model for other quantities. */
int lop_model_fits_quantity(const lop_model_t *model, const char *quantity);

/* Can params.csv hold 'fit' so that every tool reads it back?  Names follow
 * lop_name_ok() (they become file names), the model fits the quantity, the
 * used λ are finite, 1 <= pmin <= pmax <= LOP_MODEL_MAX_P.  Errors begin
 * with 'where' (e.g. "params.csv:7"). */
lop_status_t lop_fit_check(const lop_fit_t *fit, const char *where);

typedef struct {
    char *path;     /* the file read */
    lop_fit_t *fit; /* rows in file order */
    size_t n;
} lop_paramset_t;

/* The params.csv column list, for writers. */
extern const char lop_paramset_header[];

/* Read and check a params.csv (lop_fit_check for every row, no repeated
 * key); errors name file:line. */
lop_status_t lop_paramset_read(const char *path, lop_paramset_t *set);
void lop_paramset_free(lop_paramset_t *set);
/* The fit for (series, quantity, stat), or NULL.  A set holds at most one
 * row of a model other than linear and one linear row (lopfit --compare's
 * LogP line) per (series, quantity, stat); the other model is preferred. */
const lop_fit_t *lop_paramset_find(const lop_paramset_t *set, const char *series,
                                   const char *quantity, const char *stat);

/* The LoP parameters of one series and statistic (thesis 2.3.4, 2.3.7). */
typedef struct {
    const lop_fit_t *rtt;     /* RTT(p) of the series */
    const lop_fit_t *os;      /* o_s(p) of the series */
    const lop_fit_t *os_list; /* o_s(p) when posting a list (<op>-list); may be NULL */
    const lop_fit_t *orecv;   /* o_r(p) of the series; may be NULL */
    double pmin, pmax;        /* p range where every fit above has data */
} lop_lop_t;

/* Look up the fits of 'series' (e.g. "rdmaw-inline") for 'stat'; the rtt and
 * os fits must exist.  Errors name the file and what is missing. */
lop_status_t lop_lop_from_set(const lop_paramset_t *set, const char *series, const char *stat,
                              lop_lop_t *lop);

/* o(p) = o_s(p): CPU time per message when posting p messages back to back. */
double lop_lop_o(const lop_lop_t *lop, double p);
/* L(p) = RTT(p)/2 - (o_s(p) + o_s(1))  (thesis 2.3.4, list 2.9). */
double lop_lop_L(const lop_lop_t *lop, double p);
/* L^list(p) = RTT(p)/2 - (p*o_s^list(p) + o_s^list(1)); NaN without a list fit. */
double lop_lop_Llist(const lop_lop_t *lop, double p);
/* Is p inside the range the fits were made on? */
int lop_lop_in_range(const lop_lop_t *lop, double p);

#endif
