/* fmt_pairs.c - pairs.csv: columns, metadata, writers and reader (fmt_pairs.h). */
#include "fmt_pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lop_fmt_pairs_file_name(char *name, const char *series)
{
    if (series)
        snprintf(name, LOP_FMT_PAIRS_NAME_LEN, "pairs-%s.csv", series);
    else
        snprintf(name, LOP_FMT_PAIRS_NAME_LEN, "%s", LOP_FMT_PAIRS_NAME);
}

/* ----------------------------------------------------- lopbench --pairs */

static const lop_out_col_t cols[] = {
    {"i", LOP_OUT_INT, 0},          {"j", LOP_OUT_INT, 0},           {"o_us", LOP_OUT_NUM, 0},
    {"L_us", LOP_OUT_NUM, 0},       {"n", LOP_OUT_INT, 0},           {"o_min_us", LOP_OUT_NUM, 0},
    {"o_avg_us", LOP_OUT_NUM, 0},   {"o_median_us", LOP_OUT_NUM, 0}, {"L_min_us", LOP_OUT_NUM, 0},
    {"L_avg_us", LOP_OUT_NUM, 0},   {"L_median_us", LOP_OUT_NUM, 0}, {"rtt_min_us", LOP_OUT_NUM, 0},
    {"rtt_avg_us", LOP_OUT_NUM, 0}, {"rtt_median_us", LOP_OUT_NUM, 0}, {"src_i", LOP_OUT_INT, 0},
    {"src_j", LOP_OUT_INT, 0},
};

lop_status_t lop_fmt_pairs_write_begin(lop_fmt_pairs_writer_t *pw, const char *path,
                                       const lop_fmt_pairs_meta_t *m)
{
    lop_csv_writer_t *w = &pw->w;
    pw->stat = m->stat;
    lop_status_t st = lop_csv_writer_open(w, path);
    if (st != LOP_OK)
        return st;
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "pairs");
    lop_csv_meta(w, "method", "%s", m->method);
    lop_csv_meta(w, "series", "%s", m->series);
    lop_csv_meta(w, "definition", "%s", m->definition);
    if (m->op) {
        lop_csv_meta(w, "op", "%s", m->op);
        lop_csv_meta(w, "post", "%s", m->post);
    }
    lop_csv_meta(w, "stat", "%s (o_us = o_%s_us, L_us = L_%s_us, each written as 0 where "
                 "below 0)", m->stat_name, m->stat_name, m->stat_name);
    lop_csv_meta(w, "clamped", "%d values of o_us and L_us below 0 written as 0", m->clamped);
    lop_csv_meta(w, "p", "%d", m->p);
    lop_csv_meta(w, "sampled", "%s", m->sampled);
    lop_csv_meta(w, "placement", "%s", m->placement);
    lop_run_meta_write(w, m->run);
    st = lop_out_begin(&pw->t, w->file, w->path, 1, cols, COUNT(cols));
    return st ? lop_csv_writer_end(w, st) : LOP_OK;
}

/* o_us, L_us: a value below 0 (noise, or an intercept of the paper's line)
 * written as 0; NaN stays NaN (empty). */
static double floor0(double v)
{
    return v < 0 ? 0 : v;
}

int lop_fmt_pairs_clamps(const lop_fmt_pairs_row_t *r, int stat)
{
    return (r->o[stat] < 0) + (r->L[stat] < 0);
}

lop_status_t lop_fmt_pairs_write_row(lop_fmt_pairs_writer_t *pw, const lop_fmt_pairs_row_t *r)
{
    lop_out_t *t = &pw->t;
    lop_out_int(t, r->i);
    lop_out_int(t, r->j);
    lop_out_num(t, floor0(r->o[pw->stat]));
    lop_out_num(t, floor0(r->L[pw->stat]));
    lop_out_int(t, r->n);
    const double *v[] = {r->o, r->L, r->rtt};
    for (int q = 0; q < 3; q++)
        for (int k = 0; k < LOP_FMT_PAIRS_STATS; k++)
            lop_out_num(t, v[q][k]);
    lop_out_int(t, r->src_i);
    lop_out_int(t, r->src_j);
    return lop_out_row(t);
}

lop_status_t lop_fmt_pairs_write_end(lop_fmt_pairs_writer_t *pw, lop_status_t st)
{
    lop_status_t end = lop_out_end(&pw->t);
    return lop_csv_writer_end(&pw->w, st ? st : end);
}

/* ------------------------------------------------ lopredict --write-costs */

/* The shortest of %.15g and %.17g that reads back as v (0.1, not 0.10000000000000001). */
static const char *exact(double v, char *buf, size_t len)
{
    double back;
    snprintf(buf, len, "%.15g", v);
    if (!lop_parse_double(buf, &back) || back != v)
        snprintf(buf, len, "%.17g", v);
    return buf;
}

lop_status_t lop_fmt_pairs_costs_begin(lop_csv_writer_t *w, const char *path, const char *source,
                                       uint32_t p)
{
    lop_status_t st = lop_csv_writer_open(w, path);
    if (st)
        return st;
    lop_csv_meta(w, "lopredict", "%s", LOP_VERSION);
    lop_csv_meta(w, "source", "%s", source);
    lop_csv_meta(w, "p", "%u", p);
    lop_csv_line(w, "i,j,o_us,L_us");
    return LOP_OK;
}

void lop_fmt_pairs_costs_row(lop_csv_writer_t *w, uint32_t i, uint32_t j, double o_us,
                             double L_us)
{
    char ob[32], Lb[32];
    lop_csv_line(w, "%u,%u,%s,%s", i, j, exact(o_us, ob, sizeof ob), exact(L_us, Lb, sizeof Lb));
}

size_t lop_fmt_pairs_costs_row_len(uint32_t i, uint32_t j, double o_us, double L_us)
{
    char ob[32], Lb[32];
    return (size_t)snprintf(NULL, 0, "%u,%u,%s,%s\n", i, j, exact(o_us, ob, sizeof ob),
                            exact(L_us, Lb, sizeof Lb));
}

/* ---------------------------------------------------------------- reader */

typedef struct {
    size_t i, j, o, L; /* columns */
} cols_t;

/* P: the metadata, else 1 + the largest index. */
static lop_status_t pairs_count(const lop_csv_t *csv, const cols_t *col, uint32_t *p)
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
static lop_status_t pairs_row(const lop_csv_t *csv, size_t r, const cols_t *col,
                              lop_fmt_pairs_t *f, uint8_t *seen)
{
    double i, j, o, L;
    lop_status_t st = lop_csv_number(csv, r, col->i, &i);
    st = st ? st : lop_csv_number(csv, r, col->j, &j);
    if (st)
        return st;
    if (i < 0 || j < 0 || i >= f->p || j >= f->p || i != floor(i) || j != floor(j))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: i, j must be ranks 0..%u", csv->path, csv->line[r],
                       f->p - 1);
    if (i == j) /* O_ii, with no L (lopbench --pairs): not read */
        return LOP_OK;
    st = lop_csv_number(csv, r, col->o, &o);
    st = st ? st : lop_csv_number(csv, r, col->L, &L);
    if (st)
        return st;
    if (o < 0 || L < 0)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: o_us and L_us must be >= 0", csv->path,
                       csv->line[r]);
    size_t at = (size_t)i * f->p + (size_t)j;
    if (seen[at])
        return lop_err(LOP_ERR_PARSE, "%s:%zu: a second row for i = %.0f, j = %.0f", csv->path,
                       csv->line[r], i, j);
    seen[at] = 1;
    f->o_us[at] = o;
    f->L_us[at] = L;
    return LOP_OK;
}

/* Every ordered pair i != j given. */
static lop_status_t pairs_complete(const lop_csv_t *csv, const lop_fmt_pairs_t *f,
                                   const uint8_t *seen)
{
    for (uint32_t i = 0; i < f->p; i++)
        for (uint32_t j = 0; j < f->p; j++)
            if (i != j && !seen[(size_t)i * f->p + j])
                return lop_err(LOP_ERR_PARSE,
                               "%s:%zu: no row for i = %u, j = %u (every ordered pair of the "
                               "P = %u ranks needs one)",
                               csv->path, csv->header_line, i, j, f->p);
    return LOP_OK;
}

#define PAIRS_NAME_MISSING_MAX_P 4096 /* 16 M cells: cheap enough to find the pair */

/* The columns and P; rows missing for a large P are said before P x P
 * cells are allocated (a small one names the first missing pair). */
static lop_status_t pairs_header(const lop_csv_t *csv, cols_t *col, uint32_t *p)
{
    lop_status_t st = lop_csv_column(csv, "i", &col->i);
    st = st ? st : lop_csv_column(csv, "j", &col->j);
    st = st ? st : lop_csv_column(csv, "o_us", &col->o);
    st = st ? st : lop_csv_column(csv, "L_us", &col->L);
    st = st ? st : pairs_count(csv, col, p);
    double pairs = (double)*p * (*p - 1.0);
    if (st == LOP_OK && (double)csv->n_rows < pairs && *p > PAIRS_NAME_MISSING_MAX_P)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: %zu rows, but every ordered pair of the P = %u "
                     "ranks needs one (%.0f)", csv->path, csv->header_line, csv->n_rows, *p,
                     pairs);
    return st;
}

lop_status_t lop_fmt_pairs_read(const char *path, lop_fmt_pairs_t *f)
{
    lop_csv_t *csv;
    cols_t col;
    uint8_t *seen = NULL;
    memset(f, 0, sizeof *f);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    st = pairs_header(csv, &col, &f->p);
    if (st == LOP_OK) {
        size_t n = (size_t)f->p * f->p;
        f->o_us = lop_calloc(n, sizeof *f->o_us);
        f->L_us = lop_calloc(n, sizeof *f->L_us);
        seen = lop_calloc(n, 1);
        st = f->o_us && f->L_us && seen ? LOP_OK : LOP_ERR_NOMEM;
    }
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        st = pairs_row(csv, r, &col, f, seen);
    st = st ? st : pairs_complete(csv, f, seen);
    free(seen);
    lop_csv_free(csv);
    if (st)
        lop_fmt_pairs_free(f);
    return st;
}

void lop_fmt_pairs_free(lop_fmt_pairs_t *f)
{
    free(f->o_us);
    free(f->L_us);
    memset(f, 0, sizeof *f);
}
