/* algs.c - the table of barrier algorithms and the helpers their formulas share. */
#include <math.h>
#include <string.h>

#include "barrier.h"
#include "out.h"

extern const barrier_alg_t barrier_alg_cc, barrier_alg_comb, barrier_alg_tour, barrier_alg_ftour,
    barrier_alg_mcs, barrier_alg_bst, barrier_alg_bfly, barrier_alg_pe, barrier_alg_diss,
    barrier_alg_ndiss, barrier_alg_nwise, barrier_alg_rgm, barrier_alg_hwswitch,
    barrier_alg_hwnet;

const barrier_alg_t *const barrier_algs[] = {
    &barrier_alg_cc,    &barrier_alg_comb,  &barrier_alg_tour,     &barrier_alg_ftour,
    &barrier_alg_mcs,   &barrier_alg_bst,   &barrier_alg_bfly,     &barrier_alg_pe,
    &barrier_alg_diss,  &barrier_alg_ndiss, &barrier_alg_nwise,    &barrier_alg_rgm,
    &barrier_alg_hwswitch, &barrier_alg_hwnet, NULL,
};

const barrier_alg_t *barrier_alg_find(const char *name)
{
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        if (strcmp((*a)->name, name) == 0)
            return *a;
    return strcmp(barrier_alg_hybrid.name, name) == 0 ? &barrier_alg_hybrid : NULL;
}

lop_status_t barrier_alg_list_add(const char *opt, const char *name, const barrier_alg_t **list,
                                  size_t *n, size_t max)
{
    const barrier_alg_t *a = barrier_alg_find(name);
    if (!a)
        return lop_err(LOP_ERR_INVALID, "option --%s: unknown algorithm '%s' (see lopredict "
                       "--help)", opt, name);
    if (*n == max)
        return lop_err(LOP_ERR_INVALID, "option --%s: more than %zu algorithms", opt, max);
    list[(*n)++] = a;
    return LOP_OK;
}

uint32_t barrier_alg_n(const barrier_alg_t *alg, uint32_t n)
{
    return alg->takes_n && n >= 1 ? n : alg->default_n;
}

/* The machine-read columns first, the texts last: a text with a comma moves
 * no column before it for a reader that splits at every comma. */
static lop_status_t algs_print_row(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->name);
    lop_out_str(t, a->takes_n ? "yes" : "no");
    if (a->takes_n)
        lop_out_int(t, a->default_n);
    else
        lop_out_empty(t);
    lop_out_str(t, a->flags & BARRIER_COST_ONLY ? "no" : "yes");
    lop_out_num(t, a->lop_band_hi > 0 ? a->lop_band_lo : NAN);
    lop_out_num(t, a->lop_band_hi > 0 ? a->lop_band_hi : NAN);
    const char *text[] = {a->title, a->takes_n ? a->n_meaning : "", a->logp_note, a->lop_note};
    for (size_t i = 0; i < COUNT(text); i++)
        lop_out_str(t, text[i]); /* quoted in CSV where it holds a comma */
    return lop_out_row(t);
}

lop_status_t barrier_algs_print(FILE *out, int csv)
{
    static const lop_out_col_t cols[] = {
        {"alg", LOP_OUT_STR, 0},         {"takes_n", LOP_OUT_STR, 0},
        {"default_n", LOP_OUT_INT, 0},   {"schedule", LOP_OUT_STR, 0},
        {"lop_band_lo", LOP_OUT_NUM, 2}, {"lop_band_hi", LOP_OUT_NUM, 2},
        {"title", LOP_OUT_STR, 0},       {"n_meaning", LOP_OUT_STR, 0},
        {"logp_exact", LOP_OUT_STR, 0},  {"lop_exact", LOP_OUT_STR, 0},
    };
    lop_out_t t;
    lop_status_t st = lop_out_begin(&t, out, "standard output", csv, cols,
                                    COUNT(cols));
    if (st)
        return st;
    for (const barrier_alg_t *const *a = barrier_algs; *a && st == LOP_OK; a++)
        st = algs_print_row(&t, *a);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}

void barrier_cost_init(barrier_cost_t *c)
{
    memset(c, 0, sizeof *c);
    c->links = 1;
    c->cnt = 1;
    c->lop_pmin = INFINITY;
    c->lop_pmax = -INFINITY;
    c->op_per_p_us = 0.01; /* thesis 3.2.2.1: o_p(P) = P * 10 ns */
    c->ow_us = 1.2;        /* thesis 3.2.2.1 */
    c->hw_or_us = 1.2;     /* thesis 3.2.2.1 */
}

/* ----------------------------------------------------- hardware barriers */

uint32_t barrier_one_round(uint32_t p, uint32_t n)
{
    (void)p;
    (void)n;
    return 1;
}

double barrier_hw_op_us(const barrier_cost_t *c, uint32_t p)
{
    return c->op_const_us + c->op_per_p_us * p + c->op_per_log2p_us * barrier_ceil_log(p, 2);
}

/* ------------------------------------------------------ integer helpers */

uint64_t barrier_ipow(uint64_t k, uint32_t e)
{
    uint64_t r = 1;
    while (e--) {
        if (k && r > UINT64_MAX / k)
            return UINT64_MAX;
        r *= k;
    }
    return r;
}

/* (The bound is divided once: the builders ask per rank.) */
uint32_t barrier_ceil_log(uint64_t p, uint64_t k)
{
    uint32_t r = 0;
    const uint64_t most = UINT64_MAX / k;
    for (uint64_t span = 1; span < p; span = span > most ? UINT64_MAX : span * k)
        r++;
    return r;
}

uint32_t barrier_floor_log(uint64_t p, uint64_t k)
{
    uint32_t r = 0;
    const uint64_t most = UINT64_MAX / k;
    for (uint64_t span = k; span <= p; span = span > most ? UINT64_MAX : span * k)
        r++;
    return r;
}

int barrier_power_of_two(uint32_t p)
{
    return (p & (p - 1)) == 0;
}

int barrier_power_of(uint64_t p, uint64_t k)
{
    while (p % k == 0)
        p /= k;
    return p == 1;
}

/* ------------------------------------------------------ exactness rules */

int barrier_exact_always(uint32_t p, uint32_t n)
{
    (void)p;
    (void)n;
    return 1;
}

int barrier_exact_p_power_of_two(uint32_t p, uint32_t n)
{
    (void)n;
    return barrier_power_of_two(p);
}

int barrier_exact_p_power_of_n1(uint32_t p, uint32_t n)
{
    return barrier_power_of(p, (uint64_t)n + 1);
}

sched_form_t barrier_xor_if_power_of_two(uint32_t p, uint32_t n)
{
    (void)n;
    return barrier_power_of_two(p) ? SCHED_XOR : SCHED_STORED;
}

/* ---------------------------------------- LogP constructs (thesis 2.1.4.5) */

double logp_t1(const logp_t *m)
{
    return m->os_us + m->L_us + m->or_us;
}

double logp_fs(const logp_t *m)
{
    return fmax(m->os_us, m->g_us);
}

double logp_fr(const logp_t *m)
{
    return fmax(m->or_us, m->g_us);
}

double logp_tr(const logp_t *m)
{
    return fmax(m->g_us, logp_t1(m));
}

/* ---------------------------------------------- LoP (thesis 2.3.7) */

static double lop_arg(barrier_cost_t *c, double msgs)
{
    double x = c->cnt * msgs;
    c->lop_pmin = fmin(c->lop_pmin, x);
    c->lop_pmax = fmax(c->lop_pmax, x);
    return x;
}

double barrier_lop_o(barrier_cost_t *c, double msgs)
{
    return lop_view_o(c->lop, lop_arg(c, msgs));
}

double barrier_lop_L(barrier_cost_t *c, double msgs)
{
    return lop_view_L(c->lop, lop_arg(c, msgs));
}

int barrier_lop_mcast(barrier_cost_t *c, double receivers, double *o_us, double *L_us)
{
    if (!c->lop->mc_rtt)
        return 0;
    c->lop_pmin = fmin(c->lop_pmin, receivers);
    c->lop_pmax = fmax(c->lop_pmax, receivers);
    *o_us = lop_view_omcast(c->lop, receivers);
    *L_us = lop_view_Lmcast(c->lop, receivers);
    return 1;
}
