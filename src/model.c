/* model.c - the LoP model functions and their descriptors (model.h). */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

/* Thesis 2.3.6.1.1: pipeline start-up + processing (without network saturation). */
static double eval_rtt_nosat(const double *l, double p)
{
    return l[0] / (l[1] + p) + l[2];
}

/* Thesis 2.3.6.1.1: pipeline start-up + processing + network saturation. */
static double eval_rtt(const double *l, double p)
{
    return eval_rtt_nosat(l, p) + l[3] * (1.0 - exp(l[4] * (p - l[5])));
}

/* Thesis 2.3.6.1.2: a pipeline start-up function. */
static double eval_ov(const double *l, double p)
{
    return l[0] + l[1] / (l[2] + p);
}

/* LogP's constant latency or overhead (2.1.4.5). */
static double eval_const(const double *l, double p)
{
    (void)p;
    return l[0];
}

/* LogP's view: a constant plus a gap per message (thesis 2.3.3). */
static double eval_linear(const double *l, double p)
{
    return l[0] + l[1] * p;
}

/* The round of scenario 2 through an adapter that passes a burst of
 * messages at once and then one per gap (a token bucket, thesis 2.3.2's NIC
 * slower than the CPU): T(p) = p RTT(p) grows by l2 a peer up to the knot
 * l4 (the burst B) and by l3 (the gap g) a peer beyond it. */
static double eval_bucket(const double *l, double p)
{
    return l[0] + l[1] * ((p < l[3] ? p : l[3]) - 1) + l[2] * (p > l[3] ? p - l[3] : 0);
}

#define L_NAMES {"l1", "l2", "l3", "l4", "l5", "l6"}

const lop_model_t lop_model_rtt = {
    "rtt", 6, "l1/(l2+p) + l3 + l4*(1-exp(l5*(p-l6)))", eval_rtt, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_POLE, LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_RATE,
     LOP_PARAM_GAUGE},
    "thesis 2.3.6.1.1", "l1/(l2+x) + l3 + l4*(1-exp(l5*(x-l6)))"};
const lop_model_t lop_model_rtt_nosat = {
    "rtt-nosat", 3, "l1/(l2+p) + l3", eval_rtt_nosat, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_POLE, LOP_PARAM_LINEAR},
    "thesis 2.3.6.1.1 without the saturation term", "l1/(l2+x) + l3"};
const lop_model_t lop_model_const = {
    "const", 1, "l1", eval_const, L_NAMES, {LOP_PARAM_LINEAR},
    "LogP's constant (thesis 2.1.4.5)", "l1"};
const lop_model_t lop_model_ov = {
    "ov", 3, "l1 + l2/(l3+p)", eval_ov, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_POLE}, "thesis 2.3.6.1.2", "l1 + l2/(l3+x)"};
const lop_model_t lop_model_linear = {
    "linear", 2, "l1 + l2*p", eval_linear, L_NAMES, {LOP_PARAM_LINEAR, LOP_PARAM_LINEAR},
    "LogP's L + g*p (thesis 2.3.3)", "l1 + l2*x"};
const lop_model_t lop_model_bucket = {
    "bucket", 4, "l1 + l2*(min(p,l4)-1) + l3*max(0,p-l4)", eval_bucket, L_NAMES,
    {LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_LINEAR, LOP_PARAM_KNOT},
    "a token-bucket adapter: a burst of l4 messages, then one per l3 (thesis 2.3.2)",
    "l1 + l2*((x<l4 ? x : l4)-1) + l3*(x>l4 ? x-l4 : 0)"};

const lop_model_t *const lop_models[] = {&lop_model_rtt, &lop_model_rtt_nosat, &lop_model_const,
                                         &lop_model_ov,  &lop_model_linear,    &lop_model_bucket,
                                         NULL};

/* A family from its members, richest first: n_members counted from the list
 * (more than LOP_FAMILY_MAX is a compile error: excess initializers). */
#define FAMILY(name, ...)                                                                  \
    {name, (int)(sizeof(const lop_model_t *[]){__VA_ARGS__} / sizeof(const lop_model_t *)), \
     {__VA_ARGS__}}
const lop_family_t lop_family_rtt = FAMILY("rtt", &lop_model_rtt, &lop_model_rtt_nosat,
                                           &lop_model_const);
const lop_family_t lop_family_ov = FAMILY("ov", &lop_model_ov, &lop_model_const);
/* PRTT(k) of lopbench's scenario 3: LogP's line, its slope the gap g. */
const lop_family_t lop_family_prtt = FAMILY("prtt", &lop_model_linear, &lop_model_const);
/* X(1) of scenario 3, an exchange: one point, a constant. */
const lop_family_t lop_family_exch = FAMILY("exch", &lop_model_const);
/* R(P) of scenario 3, the ring of all P ranks: one point (p = P), a constant. */
const lop_family_t lop_family_ring = FAMILY("ring", &lop_model_const);
/* p RTT(p), the time of scenario 2's round: a burst, then a gap a peer; or
 * LogP's line (a gap from the first peer). */
const lop_family_t lop_family_round = FAMILY("round", &lop_model_bucket, &lop_model_linear);

const lop_model_t *lop_model_find(const char *name)
{
    for (const lop_model_t *const *m = lop_models; *m; m++)
        if (strcmp((*m)->name, name) == 0)
            return *m;
    return NULL;
}

/* Which family each quantity is selected from (lopbench's quantities; oc
 * has none).  Every family is some quantity's, so this lists them all. */
static const struct {
    const char *quantity;
    const lop_family_t *family;
} quantity_families[] = {
    {"rtt", &lop_family_rtt}, {"os", &lop_family_ov}, {"or", &lop_family_ov},
    {"prtt", &lop_family_prtt}, {"exch", &lop_family_exch}, {"ring", &lop_family_ring},
    {"round", &lop_family_round}};
enum { N_QUANTITY_FAMILIES = COUNT(quantity_families) };

const lop_family_t *lop_family_for_quantity(const char *quantity)
{
    for (int i = 0; i < N_QUANTITY_FAMILIES; i++)
        if (strcmp(quantity, quantity_families[i].quantity) == 0)
            return quantity_families[i].family;
    return NULL;
}

const lop_model_t *lop_model_for_quantity(const char *quantity)
{
    const lop_family_t *f = lop_family_for_quantity(quantity);
    return f ? f->member[0] : NULL;
}

const lop_family_t *lop_family_of(const lop_model_t *model)
{
    for (int i = 0; i < N_QUANTITY_FAMILIES; i++)
        if (model == quantity_families[i].family->member[0])
            return quantity_families[i].family;
    return NULL;
}

int lop_model_gauge(const lop_model_t *model)
{
    for (int j = 0; j < model->n_params; j++)
        if (model->role[j] == LOP_PARAM_GAUGE)
            return j;
    return -1;
}

int lop_model_n_free(const lop_model_t *model)
{
    return model->n_params - (lop_model_gauge(model) >= 0);
}

double lop_fit_eval(const lop_fit_t *fit, double p)
{
    return fit->model->eval(fit->lambda, p);
}

int lop_model_fits_quantity(const lop_model_t *model, const char *quantity)
{
    const lop_family_t *f = lop_family_for_quantity(quantity);
    if (model == &lop_model_linear || !f)
        return 1;
    for (int i = 0; i < f->n_members; i++)
        if (f->member[i] == model)
            return 1;
    return 0;
}

/* The i-th model lop_model_names lists: 'family's members, then linear
 * unless it is one of them (prtt, round), or every model when 'family' is
 * NULL; NULL past the last. */
static const lop_model_t *listed_model(const lop_family_t *family, int i)
{
    if (!family)
        return lop_models[i];
    if (i < family->n_members)
        return family->member[i];
    for (int m = 0; m < family->n_members; m++)
        if (family->member[m] == &lop_model_linear)
            return NULL;
    return i == family->n_members ? &lop_model_linear : NULL;
}

lop_status_t lop_model_names(const lop_family_t *family, const char *last_sep, char *buf,
                             size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; listed_model(family, i) && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : listed_model(family, i + 1) ? ", " : last_sep,
                                 listed_model(family, i)->name);
    if (used >= len) /* the tables outgrew the caller's buffer: no list cut short */
        return lop_err(LOP_ERR_RANGE, "internal: the model names need more than %zu bytes",
                       len - 1);
    return LOP_OK;
}

/* The index of the first pole parameter of 'model' whose pole -l is not left
 * of pmin (lop_model_poles_outside), or -1. */
static int pole_not_outside(const lop_model_t *model, const double *lambda, double pmin)
{
    for (int j = 0; j < model->n_params; j++)
        if (model->role[j] == LOP_PARAM_POLE &&
            !(lambda[j] + pmin >= LOP_MODEL_POLE_MIN * (1 - 1e-9)))
            return j;
    return -1;
}

lop_status_t lop_fit_check(const lop_fit_t *fit, const char *where)
{
    const char *names[][2] = {
        {"series", fit->series}, {"quantity", fit->quantity}, {"stat", fit->stat}};
    for (size_t i = 0; i < COUNT(names); i++)
        if (!lop_name_ok(names[i][1]))
            return lop_err(LOP_ERR_PARSE, "%s: %s '%s' %s", where, names[i][0], names[i][1],
                           lop_name_rule);
    if (!lop_model_fits_quantity(fit->model, fit->quantity)) {
        char models[LOP_MODEL_NAMES_LEN];
        lop_status_t st = lop_model_names(lop_family_for_quantity(fit->quantity), " or ",
                                          models, sizeof models);
        return st ? st : lop_err(LOP_ERR_PARSE, "%s: quantity '%s' takes model %s, not %s",
                                 where, fit->quantity, models, fit->model->name);
    }
    for (int i = 0; i < fit->model->n_params; i++)
        if (!isfinite(fit->lambda[i]))
            return lop_err(LOP_ERR_RANGE, "%s: series '%s' %s %s: l%d = %g is not finite",
                           where, fit->series, fit->quantity, fit->stat, i + 1,
                           fit->lambda[i]);
    if (!(fit->pmin >= 1 && fit->pmin <= fit->pmax && fit->pmax <= LOP_MODEL_MAX_P))
        return lop_err(LOP_ERR_RANGE,
                       "%s: pmin = %.17g, pmax = %.17g: need 1 <= pmin <= pmax <= %d", where,
                       fit->pmin, fit->pmax, LOP_MODEL_MAX_P);
    /* the curve is infinite at a pole: every time from it would be wrong */
    int pole = pole_not_outside(fit->model, fit->lambda, fit->pmin);
    if (pole >= 0)
        return lop_err(LOP_ERR_RANGE, "%s: series '%s' %s %s: the %s model has a pole at p = %g "
                       "(l%d = %g), not left of its range %g..%g", where, fit->series,
                       fit->quantity, fit->stat, fit->model->name, -fit->lambda[pole], pole + 1,
                       fit->lambda[pole], fit->pmin, fit->pmax);
    /* No data lopfit fits give such a curve, and predictions from it are
     * rounding: l1 = 1e200 makes diss 9.5e199 us and every draw of it 0. */
    double at[] = {fit->pmin, fit->pmax};
    for (size_t i = 0; i < COUNT(at); i++)
        if (!(fabs(lop_fit_eval(fit, at[i])) <= LOP_MODEL_TIME_MAX_US))
            return lop_err(LOP_ERR_RANGE, "%s: series '%s' %s %s: the fit at p = %g is %g us, "
                           "larger than any time lopfit fits (%g us)", where, fit->series,
                           fit->quantity, fit->stat, at[i], lop_fit_eval(fit, at[i]),
                           LOP_MODEL_TIME_MAX_US);
    return LOP_OK;
}

int lop_model_poles_outside(const lop_model_t *model, const double *lambda, double pmin)
{
    return pole_not_outside(model, lambda, pmin) < 0;
}
