/*
 * mode_predict.c - lopredict's default mode: per algorithm, n and P the
 * closed forms of LogP and LoP, with --simulate the simulated times, with
 * --loop the loop's and the bucket's, each with its interval, streamed row
 * by row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lopredict.h"
#include "measured_meta.h"
#include "rows.h"
#include "work.h"

/* Columns: alg,n,p,rounds, logp_us and lop_us, then with --simulate sim_us
 * for one model or sim_logp_us,sim_lop_us for both, with --loop loop_us and
 * bucket_us, each time with its interval (X_lo_us,X_hi_us), then flags
 * (README.md "Data formats"). */
static const lop_out_col_t head_cols[] = {
    {"alg", LOP_OUT_STR, 0},    {"n", LOP_OUT_INT, 0},  {"p", LOP_OUT_INT, 0},
    {"rounds", LOP_OUT_INT, 0}, ROWS_TIME_COLS("logp"), ROWS_TIME_COLS("lop"),
};
static const lop_out_col_t sim2_cols[] = {ROWS_TIME_COLS("sim_logp"), ROWS_TIME_COLS("sim_lop")};
static const lop_out_col_t sim1_cols[] = {ROWS_TIME_COLS("sim")};
static const lop_out_col_t loop_cols[] = {ROWS_TIME_COLS("loop"), ROWS_TIME_COLS("bucket")};
static const lop_out_col_t flags_col[] = {ROWS_FLAGS_COL};

/* This run's columns (the table refers to them until it ends). */
static lop_out_col_t predict_cols[COUNT(head_cols) + COUNT(sim2_cols) + COUNT(loop_cols) + 1];

static size_t cols_add(size_t n, const lop_out_col_t *cols, size_t count)
{
    memcpy(predict_cols + n, cols, count * sizeof *cols);
    return n + count;
}

/* The columns of --simulate with both models, with one, or without it, and
 * of --loop; with --loop and a set, its '# bucket:', '# duplex:' and '# ack:'
 * lines first, as --measured says them. */
static lop_status_t predict_begin(const lopredict_opts_t *o, const lopredict_run_t *r,
                                  lop_out_t *t)
{
    size_t n = cols_add(0, head_cols, COUNT(head_cols));
    if (o->simulate && o->models != (MODEL_LOGP | MODEL_LOP))
        n = cols_add(n, sim1_cols, COUNT(sim1_cols));
    else if (o->simulate)
        n = cols_add(n, sim2_cols, COUNT(sim2_cols));
    if (o->loop)
        n = cols_add(n, loop_cols, COUNT(loop_cols));
    n = cols_add(n, flags_col, COUNT(flags_col));
    if (o->loop && r->have_set) {
        measured_bucket_print(o, r);
        measured_duplex_print(o, r);
        measured_ack_print(o, r);
    }
    return rows_table_begin(t, o, r, predict_cols, n);
}

/* The simulated cells of one row from schedule s (NULL: empty cells, a
 * cost-only algorithm has no schedule). */
static lop_status_t sim_cells(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                              rows_flags_t *f, const barrier_alg_t *a, uint32_t n, long p,
                              const sched_t *s)
{
    static const char *const col[2] = {"sim_logp_us", "sim_lop_us"};
    const int one = o->models != (MODEL_LOGP | MODEL_LOP);
    const predict_time_t *out;
    predict_time_t v;
    lop_status_t st = LOP_OK;
    for (int k = PREDICT_SIM_LOGP; k <= PREDICT_SIM_LOP && !st; k++) {
        if (one && !(o->models & work_kind_model(k)))
            continue;
        st = work_time_predict(o, r, k, a, n, p, s, &v, &out);
        rows_time_out(t, f, one ? "sim_us" : col[k - PREDICT_SIM_LOGP], out);
    }
    return st;
}

/* The loop's and the bucket's cells from schedule s (NULL: empty cells):
 * models of their own, whatever --model selects. */
static lop_status_t loop_cells(lopredict_run_t *r, lop_out_t *t, rows_flags_t *f,
                               const barrier_alg_t *a, uint32_t n, long p, const sched_t *s)
{
    static const predict_kind_t kind[2] = {PREDICT_LOOP, PREDICT_BUCKET};
    static const char *const col[2] = {"loop_us", "bucket_us"};
    lop_status_t st = LOP_OK;
    for (int k = 0; k < 2 && !st; k++) {
        predict_time_t v;
        if (s)
            st = work_predict_time(r, kind[k], a, n, p, s, &v);
        rows_time_out(t, f, col[k], s && !st ? &v : NULL);
    }
    return st;
}

/* The cells of one row that take its schedule, --simulate's and --loop's
 * (empty for a cost-only algorithm, which has none). */
static lop_status_t sched_cells(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                                rows_flags_t *f, const barrier_alg_t *a, uint32_t n, long p)
{
    sched_t s;
    int has = !(a->flags & BARRIER_COST_ONLY);
    lop_status_t st = has ? work_sched_build(o, r, a, n, p, 1, &s) : LOP_OK;
    if (st)
        return st;
    st = o->simulate ? sim_cells(o, r, t, f, a, n, p, has ? &s : NULL) : LOP_OK;
    st = st ? st : o->loop ? loop_cells(r, t, f, a, n, p, has ? &s : NULL) : LOP_OK;
    if (has)
        sched_free(&s); /* a failed simulation too */
    return st;
}

/* A hybrid row: no closed forms; rounds and times of the schedule built. */
static lop_status_t predict_hybrid_row(const lopredict_opts_t *o, lopredict_run_t *r,
                                       lop_out_t *t, long p)
{
    rows_flags_t f = {0};
    sched_t s;
    lop_status_t st = work_sched_build(o, r, &barrier_alg_hybrid, 0, p, 1, &s);
    if (st)
        return st;
    lop_out_str(t, barrier_alg_hybrid.name);
    lop_out_empty(t);
    lop_out_int(t, p);
    lop_out_int(t, s.n_steps);
    rows_time_out(t, &f, "logp_us", NULL);
    rows_time_out(t, &f, "lop_us", NULL);
    st = o->simulate ? sim_cells(o, r, t, &f, &barrier_alg_hybrid, 0, p, &s) : LOP_OK;
    st = st ? st : o->loop ? loop_cells(r, t, &f, &barrier_alg_hybrid, 0, p, &s) : LOP_OK;
    sched_free(&s);
    lop_out_str(t, f.text);
    return st ? st : lop_out_row(t);
}

/* The LogP closed form's cells.  Its forms assume one o and one L, so with
 * per-pair costs it is computed only where ranks 0..P-1 all cost the same,
 * else left empty and flagged: never another machine's number. */
static lop_status_t logp_cells(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                               rows_flags_t *f, const barrier_alg_t *a, uint32_t n, long p)
{
    const predict_time_t *out = NULL;
    predict_time_t v;
    lop_status_t st = LOP_OK;
    if (r->have_pairs && p > (long)r->uniform_p)
        rows_flag_add(f, "logp_us", "unequal-costs");
    else
        st = work_time_predict(o, r, PREDICT_LOGP, a, n, p, NULL, &v, &out);
    rows_time_out(t, f, "logp_us", out);
    return st;
}

static lop_status_t predict_row(const lopredict_opts_t *o, lopredict_run_t *r, lop_out_t *t,
                                const barrier_alg_t *a, uint32_t n, long p)
{
    if (a->flags & BARRIER_HYBRID)
        return predict_hybrid_row(o, r, t, p);
    rows_flags_t f = {0};
    const predict_time_t *out;
    predict_time_t v;
    lop_out_str(t, a->name);
    rows_n_out(t, a, n);
    lop_out_int(t, p);
    lop_out_int(t, a->rounds((uint32_t)p, n));
    lop_status_t st = logp_cells(o, r, t, &f, a, n, p);
    st = st ? st : work_time_predict(o, r, PREDICT_LOP, a, n, p, NULL, &v, &out);
    rows_time_out(t, &f, "lop_us", st ? NULL : out);
    st = st ? st : o->simulate || o->loop ? sched_cells(o, r, t, &f, a, n, p) : LOP_OK;
    lop_out_str(t, f.text);
    return st ? st : lop_out_row(t);
}

lop_status_t mode_predict_run(const lopredict_opts_t *o, lopredict_run_t *r, int *failed)
{
    const barrier_alg_t *algs[MAX_ALGS];
    size_t n_algs = work_algs_select(o, 0, algs);
    lop_out_t t;
    (void)failed; /* predictions have no verdict */
    lop_status_t st = predict_begin(o, r, &t);
    if (st)
        return st;
    for (size_t a = 0; a < n_algs && !st; a++)
        for (size_t k = 0; k < work_n_count(o, algs[a]) && !st; k++)
            for (size_t i = 0; i < r->n_p && !st; i++)
                st = predict_row(o, r, &t, algs[a], work_n_value(o, algs[a], k), r->p[i]);
    lop_status_t end = lop_out_end(&t);
    return st ? st : end;
}
