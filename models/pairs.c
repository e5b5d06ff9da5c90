/* pairs.c - per-pair LogP costs: synthetic machines and pairs.csv (pairs.h). */
#include "pairs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"

/* ----------------------------------------------------------- machines */

uint32_t pairs_level(const pairs_t *c, uint32_t i, uint32_t j)
{
    uint32_t k = 0;
    while (k + 1 < c->n_levels && pairs_place(c, i, k) == pairs_place(c, j, k))
        k++;
    return k;
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

static lop_status_t level_costs(const char *opt, const double *v, uint32_t n, uint32_t levels,
                                double *out)
{
    if (n != levels)
        return lop_err(LOP_ERR_INVALID, "option --%s: %u values for %u levels of --topology",
                       opt, n, levels);
    for (uint32_t k = 0; k < n; k++) {
        if (!isfinite(v[k]) || v[k] < 0)
            return lop_err(LOP_ERR_INVALID, "option --%s: %g is not a time >= 0", opt, v[k]);
        out[k] = v[k];
    }
    return LOP_OK;
}

lop_status_t pairs_machine(pairs_t *c, const char *spec, const double *L_us, uint32_t n_L,
                           const double *o_us, uint32_t n_o, pairs_map_t map)
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

typedef struct {
    size_t i, j, o, L; /* columns */
} pair_cols_t;

/* P: the metadata, else 1 + the largest index. */
static lop_status_t pairs_count(const lop_csv_t *csv, const pair_cols_t *col, uint32_t *p)
{
    const char *meta = lop_csv_meta_get(csv, "p");
    double v, most = -1;
    if (meta) {
        if (!lop_parse_double(meta, &v) || v < 1 || v != floor(v) || v > 65536)
            return lop_err(LOP_ERR_PARSE, "%s: '# p: %s' is not a whole number 1..65536",
                           csv->path, meta);
        *p = (uint32_t)v;
        return LOP_OK;
    }
    for (size_t r = 0; r < csv->n_rows; r++) {
        double i, j;
        lop_status_t st = lop_csv_number(csv, r, col->i, &i);
        st = st ? st : lop_csv_number(csv, r, col->j, &j);
        if (st)
            return st;
        most = fmax(most, fmax(i, j));
    }
    if (most < 0 || most >= 65536)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: no pairs of ranks 0..65535", csv->path,
                       csv->header_line);
    *p = (uint32_t)most + 1;
    return LOP_OK;
}

/* One row into the matrices; 'seen' marks the pairs given. */
static lop_status_t pairs_row(const lop_csv_t *csv, size_t r, const pair_cols_t *col, pairs_t *c,
                              uint8_t *seen)
{
    double i, j, o, L;
    lop_status_t st = lop_csv_number(csv, r, col->i, &i);
    st = st ? st : lop_csv_number(csv, r, col->j, &j);
    if (st)
        return st;
    if (i < 0 || j < 0 || i >= c->p || j >= c->p || i != floor(i) || j != floor(j))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: i, j must be ranks 0..%u", csv->path, csv->line[r],
                       c->p - 1);
    if (i == j) /* O_ii, with no L (lopbench --pairs): not read */
        return LOP_OK;
    st = lop_csv_number(csv, r, col->o, &o);
    st = st ? st : lop_csv_number(csv, r, col->L, &L);
    if (st)
        return st;
    if (o < 0 || L < 0)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: o_us and L_us must be >= 0", csv->path,
                       csv->line[r]);
    size_t at = (size_t)i * c->p + (size_t)j;
    if (seen[at])
        return lop_err(LOP_ERR_PARSE, "%s:%zu: a second row for i = %.0f, j = %.0f", csv->path,
                       csv->line[r], i, j);
    seen[at] = 1;
    c->o_us[at] = o;
    c->L_us[at] = L;
    return LOP_OK;
}

/* Every ordered pair i != j given. */
static lop_status_t pairs_complete(const lop_csv_t *csv, const pairs_t *c, const uint8_t *seen)
{
    for (uint32_t i = 0; i < c->p; i++)
        for (uint32_t j = 0; j < c->p; j++)
            if (i != j && !seen[(size_t)i * c->p + j])
                return lop_err(LOP_ERR_PARSE,
                               "%s:%zu: no row for i = %u, j = %u (every ordered pair of the "
                               "P = %u ranks needs one)",
                               csv->path, csv->header_line, i, j, c->p);
    return LOP_OK;
}

#define PAIRS_NAME_MISSING_MAX_P 4096 /* 16 M cells: cheap enough to find the pair */

lop_status_t pairs_read(const char *path, pairs_t *c)
{
    lop_csv_t *csv;
    pair_cols_t col;
    uint8_t *seen = NULL;
    memset(c, 0, sizeof *c);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    st = lop_csv_column(csv, "i", &col.i);
    st = st ? st : lop_csv_column(csv, "j", &col.j);
    st = st ? st : lop_csv_column(csv, "o_us", &col.o);
    st = st ? st : lop_csv_column(csv, "L_us", &col.L);
    st = st ? st : pairs_count(csv, &col, &c->p);
    /* rows missing for a large P: said before P x P cells are allocated (a
     * small one names the first missing pair below) */
    double pairs = (double)c->p * (c->p - 1.0);
    if (st == LOP_OK && (double)csv->n_rows < pairs && c->p > PAIRS_NAME_MISSING_MAX_P)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu rows, but every ordered pair of the P = %u "
                     "ranks needs one (%.0f)", path, csv->header_line, csv->n_rows, c->p, pairs);
    if (st == LOP_OK) {
        size_t n = (size_t)c->p * c->p;
        c->o_us = lop_calloc(n, sizeof *c->o_us);
        c->L_us = lop_calloc(n, sizeof *c->L_us);
        seen = lop_calloc(n, 1);
        st = c->o_us && c->L_us && seen ? LOP_OK : LOP_ERR_NOMEM;
    }
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        st = pairs_row(csv, r, &col, c, seen);
    st = st ? st : pairs_complete(csv, c, seen);
    free(seen);
    lop_csv_free(csv);
    if (st)
        pairs_free(c);
    return st;
}

/* The shortest of %.15g and %.17g that reads back as v (0.1, not 0.10000000000000001). */
static const char *exact(double v, char *buf, size_t len)
{
    double back;
    snprintf(buf, len, "%.15g", v);
    if (!lop_parse_double(buf, &back) || back != v)
        snprintf(buf, len, "%.17g", v);
    return buf;
}

lop_status_t pairs_write_begin(const pairs_t *c, uint32_t p, const char *path,
                               const char *source, lop_csv_writer_t *w)
{
    lop_status_t st = lop_csv_writer_open(w, path);
    if (st)
        return st;
    lop_csv_meta(w, "lopredict", "%s", LOP_VERSION);
    lop_csv_meta(w, "source", "%s", source);
    lop_csv_meta(w, "p", "%u", p);
    lop_csv_line(w, "i,j,o_us,L_us");
    for (uint32_t i = 0; i < p; i++)
        for (uint32_t j = 0; j < p; j++) {
            double o, L;
            char ob[32], Lb[32];
            if (i == j)
                continue;
            pairs_cost(c, i, j, &o, &L);
            lop_csv_line(w, "%u,%u,%s,%s", i, j, exact(o, ob, sizeof ob), exact(L, Lb, sizeof Lb));
        }
    return LOP_OK;
}

lop_status_t pairs_write(const pairs_t *c, uint32_t p, const char *path, const char *source)
{
    lop_csv_writer_t w;
    lop_status_t st = pairs_write_begin(c, p, path, source, &w);
    return st ? st : lop_csv_writer_end(&w, LOP_OK);
}

void pairs_free(pairs_t *c)
{
    free(c->o_us);
    free(c->L_us);
    c->o_us = c->L_us = NULL;
}

/* ---------------------------------------------------------- options */

typedef struct {
    const char *opt;
    double *v;
    uint32_t *n;
} levels_t;

static lop_status_t level_item(void *ctx, char *item)
{
    levels_t *l = ctx;
    if (*l->n == PAIRS_MAX_LEVELS)
        return lop_err(LOP_ERR_INVALID, "option --%s: more than %d levels", l->opt,
                       PAIRS_MAX_LEVELS);
    if (!lop_parse_double(item, &l->v[*l->n]) || l->v[*l->n] < 0)
        return lop_err(LOP_ERR_INVALID, "option --%s: '%s' is not a time >= 0 in us", l->opt,
                       item);
    (*l->n)++;
    return LOP_OK;
}

lop_status_t pairs_parse_levels(const char *opt, const char *arg, double *v, uint32_t *n)
{
    levels_t l = {opt, v, n};
    *n = 0;
    return lop_cli_values(opt, arg, level_item, &l); /* "3,,1" is refused, as in every list */
}

lop_status_t pairs_from_opts(const pairs_opts_t *po, pairs_t *c, int *have)
{
    *have = 0;
    memset(c, 0, sizeof *c);
    if (po->costs && po->topology)
        return lop_err(LOP_ERR_INVALID, "option --costs: not with --topology (one cost source)");
    if (!po->topology && (po->n_L || po->n_o || po->map_given))
        return lop_err(LOP_ERR_INVALID, "option --%s: only with --topology",
                       po->n_L ? "level-L" : po->n_o ? "level-o" : "map");
    if (po->topology && (!po->n_L || !po->n_o))
        return lop_err(LOP_ERR_INVALID, "option --topology: needs --level-L and --level-o");
    lop_status_t st = LOP_OK;
    if (po->costs)
        st = pairs_read(po->costs, c);
    else if (po->topology)
        st = pairs_machine(c, po->topology, po->level_L_us, po->n_L, po->level_o_us, po->n_o,
                           po->map);
    else
        return LOP_OK;
    *have = st == LOP_OK;
    return st;
}
