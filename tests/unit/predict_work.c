/*
 * predict_work.c - lopredict's library (liblopredict: every predict/ file
 * but main.c) without its command line: which algorithms and n a run selects
 * (work.h), when the hybrid is wanted, the flags cell (rows.h) and what
 * per-pair costs imply for the models (costs.h).
 */
#include <string.h>

#include "costs.h"
#include "rows.h"
#include "tap.h"
#include "work.h"

static size_t table_count(int schedules)
{
    size_t n = 0;
    for (const barrier_alg_t *const *a = barrier_algs; *a; a++)
        n += !schedules || !((*a)->flags & BARRIER_COST_ONLY);
    return n;
}

static void algs_select(void)
{
    const barrier_alg_t *out[MAX_ALGS];
    lopredict_opts_t o = {.alg_all = 1};
    ok(work_algs_select(&o, 0, out) == table_count(0) && out[0] == barrier_algs[0],
       "--alg all: every algorithm of the table, in its order");
    ok(work_algs_select(&o, 1, out) == table_count(1) && table_count(1) < table_count(0),
       "--alg all with schedules only: the cost-only ones left out");
    o.alg[o.n_alg++] = barrier_alg_find("hybrid");
    size_t n = work_algs_select(&o, 1, out);
    ok(n == table_count(1) + 1 && out[n - 1] == &barrier_alg_hybrid,
       "--alg all,hybrid: the table, then the hybrid");
    lopredict_opts_t named = {.n_alg = 2,
                              .alg = {barrier_alg_find("hwnet"), barrier_alg_find("diss")}};
    ok(work_algs_select(&named, 1, out) == 1 && strcmp(out[0]->name, "diss") == 0 &&
           work_algs_select(&named, 0, out) == 2,
       "--alg hwnet,diss: both, or diss alone where schedules are needed");
}

static void n_values(void)
{
    static const long ns[] = {2, 3};
    lopredict_opts_t o = {.n = {.values = (long *)ns, .count = COUNT(ns)}};
    const barrier_alg_t *ndiss = barrier_alg_find("ndiss"), *cc = barrier_alg_find("cc");
    ok(work_n_count(&o, ndiss) == 2 && work_n_value(&o, ndiss, 1) == 3,
       "--n 2,3: both for an algorithm that takes n");
    ok(work_n_count(&o, cc) == 1 && work_n_value(&o, cc, 0) == cc->default_n,
       "--n 2,3: cc, which takes none, runs once at its default");
    lopredict_opts_t none = {0};
    ok(work_best_n_count(&none, ndiss) == 8 && work_best_n_value(&none, ndiss, 7) == 8,
       "--best without --n: n = 1..8");
    ok(work_n_count(&none, ndiss) == 1 && work_n_value(&none, ndiss, 0) == ndiss->default_n,
       "without --n: the default n");
}

static void hybrid_wanted(void)
{
    lopredict_opts_t o = {.n_alg = 1, .alg = {barrier_alg_find("diss")}};
    ok(!work_hybrid_wanted(&o), "--alg diss: no hybrid");
    o.alg[o.n_alg++] = barrier_alg_find("hybrid");
    ok(work_hybrid_wanted(&o), "--alg diss,hybrid: the hybrid");
    lopredict_opts_t report = {.mode = MODE_HYBRID_REPORT};
    ok(work_hybrid_wanted(&report), "--hybrid-report: the hybrid");
}

static void flags(void)
{
    rows_flags_t f = {0};
    rows_flag_add(&f, NULL, "extrapolated");
    rows_flag_add(&f, "lop_us", "no-interval");
    ok(strcmp(f.text, "extrapolated;lop_us=no-interval") == 0,
       "flags: the row's token, then a column's, joined by ';' (%s)", f.text);
    ok(strcmp(rows_model_name(MODEL_LOGP), "logp") == 0 &&
           strcmp(rows_model_name(MODEL_LOP), "lop") == 0,
       "model names: logp, lop");
}

static void costs_models(void)
{
    lopredict_opts_t o = {.models = MODEL_LOGP | MODEL_LOP};
    o.pairs_opts.topology = "2x2";
    ok(costs_model_imply(&o) == LOP_OK && o.models == MODEL_LOGP,
       "--topology: LogP implied, LoP dropped");
    o.models = MODEL_LOP;
    o.model_given = 1;
    ok(costs_model_imply(&o) == LOP_ERR_INVALID && strstr(lop_errmsg(), "LoP is not defined"),
       "--topology --model lop: refused (%s)", lop_errmsg());
    lopredict_opts_t plain = {.models = MODEL_LOP};
    ok(costs_model_imply(&plain) == LOP_OK && plain.models == MODEL_LOP,
       "without per-pair costs: the models as asked");
}

int main(void)
{
    algs_select();
    n_values();
    hybrid_wanted();
    flags();
    costs_models();
    return tap_done();
}
