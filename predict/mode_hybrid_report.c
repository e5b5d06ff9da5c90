/*
 * mode_hybrid_report.c - lopredict --hybrid-report: per P what the hybrid
 * search found against greedy and the best flat algorithm (the same numbers
 * --timing notes).
 */
#include <math.h>
#include <stdio.h>

#include "lopredict.h"
#include "rows.h"
#include "work.h"

static const lop_out_col_t report_cols[] = {
    {"p", LOP_OUT_INT, 0},          {"tiers", LOP_OUT_INT, 0},       {"flat_alg", LOP_OUT_STR, 0},
    {"flat_n", LOP_OUT_INT, 0},     {"flat_us", LOP_OUT_NUM, 0},     {"greedy_us", LOP_OUT_NUM, 0},
    {"hybrid_us", LOP_OUT_NUM, 0},  {"gain_us", LOP_OUT_NUM, 0},     {"from", LOP_OUT_STR, 0},
    {"search", LOP_OUT_STR, 0},     {"simulated", LOP_OUT_INT, 0},   {"bounded", LOP_OUT_INT, 0},
    {"hybrid", LOP_OUT_STR, 0},     {"greedy", LOP_OUT_STR, 0},      {"proof", LOP_OUT_STR, 0},
};

static lop_status_t report_row(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                               long p)
{
    hybrid_result_t res;
    lop_status_t st = work_hybrid_search(o, r, p, &res);
    if (st)
        return st;
    lop_out_int(t, p);
    lop_out_int(t, res.n_tiers);
    lop_out_str(t, res.flat.alg ? res.flat.alg->name : "");
    if (res.flat.alg)
        rows_n_out(t, res.flat.alg, res.flat.n);
    else
        lop_out_empty(t);
    lop_out_num(t, res.flat.alg ? res.flat_us : NAN);
    lop_out_num(t, res.greedy_us);
    lop_out_num(t, res.us);
    lop_out_num(t, res.greedy_us - res.us);
    lop_out_str(t, res.how);
    lop_out_str(t, res.exhaustive ? "exhaustive" : "descent");
    lop_out_int(t, (long)res.evaluated);
    lop_out_int(t, (long)res.pruned);
    lop_out_str(t, res.config); /* "nwise(n=3,full)": a comma */
    lop_out_str(t, res.greedy);
    lop_out_str(t, res.proof);
    hybrid_result_free(&res);
    return lop_out_row(t);
}

lop_status_t mode_hybrid_report_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    lop_out_t t;
    (void)failed; /* hybrids are proved barriers when built */
    lop_status_t st = rows_table_begin(&t, o, r, report_cols, COUNT(report_cols));
    if (st == LOP_OK)
        st = lop_out_comment(&t, "simulated LogP times on per-pair costs; gain_us = greedy_us - "
                                 "hybrid_us; from: where the hybrid came from");
    for (size_t i = 0; i < r->n_p && !st; i++)
        st = report_row(o, r, &t, r->p[i]);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}
