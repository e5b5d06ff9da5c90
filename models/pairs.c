/* pairs.c - per-pair LogP costs: synthetic machines and pairs.csv (pairs.h). */
#include "pairs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fmt_pairs.h"

/* ----------------------------------------------------------- machines */

/* Rank r's place at level k of a machine: ranks with equal places at levels
 * 0..k-1 form one group of level k. */
static uint32_t machine_place(const pairs_t *c, uint32_t r, uint32_t k)
{
    return r / c->stride[k] % c->size[k];
}

uint32_t pairs_level(const pairs_t *c, uint32_t i, uint32_t j)
{
    uint32_t k = 0;
    while (k + 1 < c->n_levels && machine_place(c, i, k) == machine_place(c, j, k))
        k++;
    return k;
}

_Static_assert(PAIRS_MAX_LEVELS <= LOP_PLACE_MAX_LEVELS, "a machine's levels fit a placement");

lop_status_t pairs_machine_place(const pairs_t *c, uint32_t p, lop_place_t *pl)
{
    static const char *const three[] = {"node", "socket", "core"};
    memset(pl, 0, sizeof *pl);
    if (c->o_us || !c->n_levels)
        return lop_err(LOP_ERR_INVALID, "hybrid: a cost matrix has no levels (--placement FILE)");
    if (p > c->p)
        return lop_err(LOP_ERR_INVALID, "hybrid: P = %u, but the machine has %u places", p, c->p);
    lop_status_t st = lop_place_alloc(p, c->n_levels, pl);
    for (uint32_t k = 0; k < c->n_levels && !st; k++) {
        if (c->n_levels == 3)
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "%s", three[k]);
        else
            snprintf(pl->level_name[k], sizeof pl->level_name[k], "level%u", k);
        for (uint32_t r = 0; r < p; r++)
            pl->id[(size_t)r * c->n_levels + k] = machine_place(c, r, k);
    }
    return st;
}

/* A machine: level k joins the pairs of ranks 0..q-1 once q > stride[k]
 * (rank stride[k] is the first placed apart from rank 0 there, under block
 * and round robin alike), so q ends at the stride of the first level, in
 * that order, that costs otherwise than the first one. */
static uint32_t machine_uniform_p(const pairs_t *c, double *o_us, double *L_us)
{
    int first = -1;
    for (uint32_t k = 0; k < c->n_levels; k++)
        if (c->size[k] > 1 && (first < 0 || c->stride[k] < c->stride[first]))
            first = (int)k;
    if (first < 0)
        return c->p; /* one place: no pair */
    *o_us = c->level_o_us[first];
    *L_us = c->level_L_us[first];
    uint32_t q = c->p;
    for (uint32_t k = 0; k < c->n_levels; k++)
        if (c->size[k] > 1 && c->stride[k] < q &&
            (c->level_o_us[k] != *o_us || c->level_L_us[k] != *L_us))
            q = c->stride[k];
    return q;
}

/* Does the pair i -> j cost o, L? */
static int pair_costs(const pairs_t *c, uint32_t i, uint32_t j, double o_us, double L_us)
{
    double o, L;
    pairs_cost(c, i, j, &o, &L);
    return o == o_us && L == L_us;
}

uint32_t pairs_uniform_p(const pairs_t *c, double *o_us, double *L_us)
{
    *o_us = *L_us = NAN;
    if (c->p < 2)
        return c->p;
    if (!c->o_us && !c->rank)
        return machine_uniform_p(c, o_us, L_us);
    pairs_cost(c, 0, 1, o_us, L_us);
    for (uint32_t r = 1; r < c->p; r++) /* ranks 0..r-1 cost alike: add rank r */
        for (uint32_t i = 0; i < r; i++)
            if (!pair_costs(c, i, r, *o_us, *L_us) || !pair_costs(c, r, i, *o_us, *L_us))
                return r;
    return c->p;
}

lop_status_t pairs_subset(const pairs_t *c, const uint32_t *ranks, uint32_t n, pairs_t *view)
{
    if (c->rank)
        return lop_err(LOP_ERR_INVALID, "per-pair costs: a view of a view");
    for (uint32_t i = 0; i < n; i++)
        if (ranks[i] >= c->p)
            return lop_err(LOP_ERR_INVALID, "per-pair costs: rank %u of a view is not one of "
                                            "the %u ranks", ranks[i], c->p);
    *view = *c;
    view->base_p = c->p;
    view->p = n;
    view->rank = ranks;
    return LOP_OK;
}

/* "8x2x4" into sizes, outermost first. */
static lop_status_t parse_spec(pairs_t *c, const char *spec)
{
    const char *at = spec;
    uint64_t total = 1;
    c->n_levels = 0;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(at, &end, 10);
        if (end == at || errno || v < 1 || v > UINT32_MAX || *at == '-' || *at == '+' ||
            c->n_levels == PAIRS_MAX_LEVELS)
            return lop_err(LOP_ERR_INVALID,
                           "option --topology: '%s' is not levels of whole sizes >= 1 like "
                           "8x2x4 (at most %d levels)",
                           spec, PAIRS_MAX_LEVELS);
        c->size[c->n_levels++] = (uint32_t)v;
        total *= v;
        if (total > UINT32_MAX)
            return lop_err(LOP_ERR_INVALID, "option --topology: '%s' has more than %u places",
                           spec, UINT32_MAX);
        if (*end == '\0')
            break;
        if (*end != 'x')
            return lop_err(LOP_ERR_INVALID,
                           "option --topology: '%s': sizes are separated by 'x' (8x2x4)", spec);
        at = end + 1;
    }
    c->p = (uint32_t)total;
    return LOP_OK;
}

/* Block: level k's place is r / (sizes of the levels inside k).  Round
 * robin: r / (sizes of the levels outside k), so consecutive ranks land on
 * different nodes first. */
static void set_strides(pairs_t *c)
{
    for (uint32_t k = 0; k < c->n_levels; k++) {
        uint32_t stride = 1;
        if (c->map == PAIRS_BLOCK)
            for (uint32_t m = k + 1; m < c->n_levels; m++)
                stride *= c->size[m];
        else
            for (uint32_t m = 0; m < k; m++)
                stride *= c->size[m];
        c->stride[k] = stride;
    }
    for (uint32_t k = 0, inner = 1; k < c->n_levels; k++) { /* pairs_key */
        inner *= c->size[k];
        c->key_d[k] = c->map == PAIRS_BLOCK ? c->stride[k] : inner;
        c->key_m[k] = c->key_d[k] > 1 ? UINT64_MAX / c->key_d[k] + 1 : 0;
    }
}

static lop_status_t level_costs(const char *opt, const double *v, size_t n, uint32_t levels,
                                double *out)
{
    if (n != levels)
        return lop_err(LOP_ERR_INVALID, "option --%s: %zu values for %u levels of --topology",
                       opt, n, levels);
    for (uint32_t k = 0; k < levels; k++) {
        if (!isfinite(v[k]) || v[k] < 0)
            return lop_err(LOP_ERR_INVALID, "option --%s: %g is not a time >= 0", opt, v[k]);
        out[k] = v[k];
    }
    return LOP_OK;
}

lop_status_t pairs_machine(pairs_t *c, const char *spec, const double *L_us, size_t n_L,
                           const double *o_us, size_t n_o, pairs_map_t map)
{
    memset(c, 0, sizeof *c);
    c->map = map;
    lop_status_t st = parse_spec(c, spec);
    st = st ? st : level_costs("level-L", L_us, n_L, c->n_levels, c->level_L_us);
    st = st ? st : level_costs("level-o", o_us, n_o, c->n_levels, c->level_o_us);
    if (st == LOP_OK)
        set_strides(c);
    return st;
}

/* ------------------------------------------------------------- pairs.csv */

lop_status_t pairs_read(const char *path, pairs_t *c)
{
    lop_fmt_pairs_t f;
    memset(c, 0, sizeof *c);
    lop_status_t st = lop_fmt_pairs_read(path, &f);
    if (st)
        return st;
    c->p = f.p; /* the matrices move into c */
    c->o_us = f.o_us;
    c->L_us = f.L_us;
    return LOP_OK;
}

lop_status_t pairs_write_begin(const pairs_t *c, uint32_t p, const char *path,
                               const char *source, lop_csv_writer_t *w)
{
    lop_status_t st = lop_fmt_pairs_costs_begin(w, path, source, p);
    if (st)
        return st;
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t j = 0; j < p; j++) {
            double o, L;
            if (i == j)
                continue;
            pairs_cost(c, i, j, &o, &L);
            lop_fmt_pairs_costs_row(w, i, j, o, L);
        }
    return LOP_OK;
}

lop_status_t pairs_write(const pairs_t *c, uint32_t p, const char *path, const char *source)
{
    lop_csv_writer_t w;
    lop_status_t st = pairs_write_begin(c, p, path, source, &w);
    return st ? st : lop_csv_writer_end(&w, LOP_OK);
}

uint64_t pairs_write_size(const pairs_t *c, uint32_t p)
{
    uint64_t digits = 0, costs = 0;
    if (p < 2)
        return 0;
    for (uint32_t i = 0; i < p; i++)
        digits += (uint64_t)snprintf(NULL, 0, "%u", i);
    for (uint32_t j = 1; j < p; j++) { /* rank 0's row, without its indices */
        double o, L;
        pairs_cost(c, 0, j, &o, &L);
        costs += lop_fmt_pairs_costs_row_len(0, j, o, L) - 1 -
                 (uint64_t)snprintf(NULL, 0, "%u", j);
    }
    /* every index is written 2 (p - 1) times, the costs of p (p - 1) rows */
    return 2 * (uint64_t)(p - 1) * digits + costs * p;
}

void pairs_free(pairs_t *c)
{
    free(c->o_us);
    free(c->L_us);
    c->o_us = c->L_us = NULL;
}

/* ---------------------------------------------------------- options */

lop_status_t pairs_from_opts(const pairs_opts_t *po, pairs_t *c, int *have)
{
    *have = 0;
    memset(c, 0, sizeof *c);
    if (po->costs && po->topology)
        return lop_err(LOP_ERR_INVALID, "option --costs: not with --topology (one cost source)");
    size_t n_L = po->level_L_us.count, n_o = po->level_o_us.count;
    if (!po->topology && (n_L || n_o || po->map_given))
        return lop_err(LOP_ERR_INVALID, "option --%s: only with --topology",
                       n_L ? "level-L" : n_o ? "level-o" : "map");
    if (po->topology && (!n_L || !n_o))
        return lop_err(LOP_ERR_INVALID, "option --topology: needs --level-L and --level-o");
    lop_status_t st = LOP_OK;
    if (po->costs)
        st = pairs_read(po->costs, c);
    else if (po->topology)
        st = pairs_machine(c, po->topology, po->level_L_us.values, n_L, po->level_o_us.values,
                           n_o, po->map);
    else
        return LOP_OK;
    *have = st == LOP_OK;
    return st;
}
