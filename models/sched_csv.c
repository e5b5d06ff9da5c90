/* sched_csv.c - a schedule as CSV, written and read (sched_csv.h). */
#include "sched_csv.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"

void sched_csv_write(const sched_t *s, FILE *out)
{
    if (s->alg[0])
        fprintf(out, "# alg: %s\n", s->alg);
    if (s->n)
        fprintf(out, "# n: %u\n", s->n);
    fprintf(out, "# p: %u\nrank,step,op,peer\n", s->p);
    for (uint32_t r = 0; r < s->p; r++)
        for (const sched_op_t *o = sched_rank_ops(s, r); o < sched_rank_end(s, r); o++)
            fprintf(out, "%u,%u,%s,%d\n", r, (unsigned)o->step, sched_kind_name(o->kind),
                    o->peer);
}

/* One parsed row. */
typedef struct {
    uint32_t rank, step;
    int32_t peer;
    sched_kind_t kind;
    uint32_t line; /* in the file */
} csv_op_t;

typedef struct {
    size_t rank, step, op, peer;
} csv_cols_t;

static lop_status_t csv_parse_row(const lop_csv_t *csv, const csv_cols_t *c, size_t row,
                                  csv_op_t *op)
{
    long rank, step, peer;
    const char *kind = csv->cells[row][c->op];
    lop_status_t st = LOP_OK;
    st = st ? st : lop_csv_integer(csv, row, c->rank, 0, SCHED_MAX_P - 1, &rank);
    st = st ? st : lop_csv_integer(csv, row, c->step, 0, (1u << 30) - 1, &step);
    st = st ? st : lop_csv_integer(csv, row, c->peer, -1, SCHED_MAX_P - 1, &peer);
    if (st)
        return st;
    int k = SCHED_SEND;
    while (k <= SCHED_MCAST && strcmp(kind, sched_kind_name((sched_kind_t)k)) != 0)
        k++;
    if (k > SCHED_MCAST)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: op '%s' is not %s, %s or %s", csv->path,
                       csv->line[row], kind, sched_kind_name(SCHED_SEND),
                       sched_kind_name(SCHED_RECV), sched_kind_name(SCHED_MCAST));
    if ((k == SCHED_MCAST) != (peer == -1))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: peer -1 is for mcast and mcast only", csv->path,
                       csv->line[row]);
    *op = (csv_op_t){(uint32_t)rank, (uint32_t)step, (int32_t)peer, (sched_kind_t)k,
                     (uint32_t)csv->line[row]};
    return LOP_OK;
}

/* P from "# p:", else one more than the largest rank or peer. */
static lop_status_t csv_ranks(const lop_csv_t *csv, const csv_op_t *ops, uint32_t *p)
{
    const char *meta = lop_csv_meta_get(csv, "p");
    uint32_t need = 1;
    for (size_t i = 0; i < csv->n_rows; i++) {
        uint32_t top = ops[i].peer < 0 || ops[i].rank > (uint32_t)ops[i].peer
                           ? ops[i].rank : (uint32_t)ops[i].peer;
        need = top + 1 > need ? top + 1 : need;
    }
    if (!meta) {
        *p = need;
        return LOP_OK;
    }
    double v;
    if (!lop_parse_double(meta, &v) || v < 1 || v > SCHED_MAX_P || v != (double)(long)v)
        return lop_err(LOP_ERR_PARSE, "%s: metadata p: '%s' is not in 1..%u", csv->path, meta,
                       SCHED_MAX_P);
    for (size_t i = 0; i < csv->n_rows && (uint32_t)v < need; i++) /* the first row past p */
        if (ops[i].rank >= (uint32_t)v || (ops[i].peer >= 0 && (uint32_t)ops[i].peer >= (uint32_t)v))
            return lop_err(LOP_ERR_PARSE, "%s:%zu: a row names rank %u but p is %.0f", csv->path,
                           csv->line[i], ops[i].rank >= (uint32_t)v ? ops[i].rank
                                                                    : (uint32_t)ops[i].peer, v);
    *p = (uint32_t)v;
    return LOP_OK;
}

/* Bucket the rows by rank, keeping each rank's rows in file order. */
static lop_status_t csv_fill(sched_t *s, const lop_csv_t *csv, const csv_op_t *ops, size_t n)
{
    if (n > SCHED_MAX_OPS)
        return lop_err(LOP_ERR_RANGE, "%s:%zu: the schedule has more than %u operations",
                       csv->path, csv->line[SCHED_MAX_OPS], SCHED_MAX_OPS);
    s->op = lop_calloc(n, sizeof *s->op);
    s->line = lop_calloc(n, sizeof *s->line);
    s->path = lop_strdup(csv->path);
    uint32_t *next = lop_calloc((size_t)s->p + 1, sizeof *next);
    if (!s->op || !s->line || !s->path || !next) {
        free(next);
        return LOP_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        s->first[ops[i].rank + 1]++;
    for (uint32_t r = 0; r < s->p; r++) {
        s->first[r + 1] += s->first[r];
        next[r] = s->first[r];
    }
    for (size_t i = 0; i < n; i++) {
        s->line[next[ops[i].rank]] = ops[i].line;
        s->op[next[ops[i].rank]++] = (sched_op_t){ops[i].peer, ops[i].step, ops[i].kind};
        if (ops[i].step + 1 > s->n_steps)
            s->n_steps = ops[i].step + 1;
    }
    s->n_ops = s->cap = (uint32_t)n;
    free(next);
    return LOP_OK;
}

static lop_status_t csv_columns(const lop_csv_t *csv, csv_cols_t *c)
{
    lop_status_t st = lop_csv_column(csv, "rank", &c->rank);
    st = st ? st : lop_csv_column(csv, "step", &c->step);
    st = st ? st : lop_csv_column(csv, "op", &c->op);
    return st ? st : lop_csv_column(csv, "peer", &c->peer);
}

lop_status_t sched_csv_read(const char *path, sched_t *s)
{
    lop_csv_t *csv;
    csv_cols_t cols;
    csv_op_t *ops = NULL;
    uint32_t p = 0;
    memset(s, 0, sizeof *s);
    lop_status_t st = lop_csv_read(path, &csv);
    if (st)
        return st;
    st = csv_columns(csv, &cols);
    if (st == LOP_OK) {
        ops = lop_calloc(csv->n_rows, sizeof *ops);
        st = ops ? LOP_OK : LOP_ERR_NOMEM;
    }
    for (size_t i = 0; i < csv->n_rows && st == LOP_OK; i++)
        st = csv_parse_row(csv, &cols, i, &ops[i]);
    st = st ? st : csv_ranks(csv, ops, &p);
    st = st ? st : sched_init(s, p);
    st = st ? st : csv_fill(s, csv, ops, csv->n_rows);
    /* its "# alg:", else the file's name, for messages */
    const char *alg = lop_csv_meta_get(csv, "alg"), *slash = strrchr(path, '/');
    snprintf(s->alg, sizeof s->alg, "%s", alg ? alg : slash ? slash + 1 : path);
    free(ops);
    lop_csv_free(csv);
    if (st)
        sched_free(s);
    return st;
}
