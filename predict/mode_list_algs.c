/*
 * mode_list_algs.c - lopredict --list-algs [--csv]: one row per algorithm of
 * barrier_algs (barrier.h), each column what its descriptor says, so tests
 * and scripts derive their counts from it.  A column is one row of 'cols'.
 */
#include <stdio.h>

#include "lopredict.h"
#include "out.h"

typedef struct {
    lop_out_col_t col;
    void (*cell)(lop_out_t *t, const barrier_alg_t *a);
} alg_col_t;

static void cell_name(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->name);
}

static void cell_takes_n(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->takes_n ? "yes" : "no");
}

static void cell_default_n(lop_out_t *t, const barrier_alg_t *a)
{
    if (a->takes_n)
        lop_out_int(t, a->default_n);
    else
        lop_out_empty(t);
}

static void cell_n_meaning(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->takes_n ? a->n_meaning : "");
}

/* A schedule (checked, simulated, run by lopbench), or a cost formula only. */
static void cell_schedule(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->flags & BARRIER_COST_ONLY ? "no" : "yes");
}

static void cell_title(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->title);
}

static void cell_cite(lop_out_t *t, const barrier_alg_t *a)
{
    lop_out_str(t, a->cite);
}

static const alg_col_t cols[] = {
    {{"alg", LOP_OUT_STR, 0}, cell_name},
    {{"takes_n", LOP_OUT_STR, 0}, cell_takes_n},
    {{"default_n", LOP_OUT_INT, 0}, cell_default_n},
    {{"n_meaning", LOP_OUT_STR, 0}, cell_n_meaning},
    {{"schedule", LOP_OUT_STR, 0}, cell_schedule},
    {{"title", LOP_OUT_STR, 0}, cell_title},
    {{"cite", LOP_OUT_STR, 0}, cell_cite},
};

lop_status_t mode_list_algs_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    lop_out_col_t head[COUNT(cols)];
    lop_out_t t;
    (void)r, (void)failed; /* nothing is set up or verified */
    for (size_t c = 0; c < COUNT(cols); c++)
        head[c] = cols[c].col;
    printf("# lopredict: %s\n", LOP_VERSION);
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", o->csv, head, COUNT(head));
    if (st)
        return st;
    for (const barrier_alg_t *const *a = barrier_algs; *a && !st; a++) {
        for (size_t c = 0; c < COUNT(cols); c++)
            cols[c].cell(&t, *a);
        st = lop_out_row(&t);
    }
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}
