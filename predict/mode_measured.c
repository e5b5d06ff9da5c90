/*
 * mode_measured.c - lopredict --measured FILE: every algorithm row of
 * lopbench --barrier's barrier.csv next to the LogP and LoP predictions for
 * the same algorithm, n and P, their errors, and which model is closest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt_barrier.h"
#include "lopredict.h"
#include "measured_meta.h"
#include "out.h"
#include "params.h"
#include "rows.h"
#include "sched_check.h"
#include "work.h"
/* The flag of a hybrid row, which is not predicted here (measured_header). */
#define MEASURED_HYBRID_FLAG "needs-costs"
enum { M_COUNT = PREDICT_KINDS }; /* the predictions compared, predict_kind_t's order */
static const char *const m_label[M_COUNT] = {"LogP closed form", "LoP closed form",
                                             "LogP simulation", "LoP simulation",
                                             "loop (LogP on PRTT, back to back)",
                                             "bucket (the loop, token-bucket adapters)"};

/* A measured row's time in the statistic the predictions are made in (like
 * with like: a fit of minima predicts a minimum, of medians a median). */
static double measured_us(const lopredict_opts_t *o, const lop_fmt_barrier_row_t *row)
{
    return strcmp(o->stat, "min") == 0      ? row->min_us
           : strcmp(o->stat, "median") == 0 ? row->median_us
                                            : row->avg_us;
}

/* MPI_Barrier's time at one p (rows of executor mpi). */
typedef struct {
    double p, us;
    size_t line;
} mpi_time_t;

/* What the join keeps; barrier.csv itself is read by fmt_barrier.h.  A
 * "file:<name>" row's schedule (lopbench --barrier --schedule) is the file
 * <name> beside barrier.csv, read once. */
typedef struct {
    const lop_fmt_barrier_t *f;      /* barrier.csv's rows */
    double abs_err[M_COUNT];         /* sums of |predicted - measured| / measured */
    size_t count[M_COUNT];
    mpi_time_t *mpi;                 /* MPI_Barrier rows, sorted by p */
    size_t n_mpi;
    char file_name[64];              /* the schedule file in 'file_sched', or "" */
    sched_t file_sched;
    const lop_fmt_barrier_row_t *last; /* the row predicted last, and its predictions */
    predict_time_t last_v[M_COUNT];
    int last_have[M_COUNT];
} measured_t;

static int mpi_time_cmp(const void *a, const void *b)
{
    double x = ((const mpi_time_t *)a)->p, y = ((const mpi_time_t *)b)->p;
    return (x > y) - (x < y);
}

/* Index every MPI_Barrier row by p, once (a lookup per row would make the
 * join quadratic).  A repeated p is an error: silently skipping it would
 * change vs_mpi. */
static lop_status_t mpi_index(const lopredict_opts_t *o, measured_t *m)
{
    const lop_fmt_barrier_t *f = m->f;
    m->mpi = lop_calloc(f->n_rows, sizeof *m->mpi);
    if (!m->mpi)
        return LOP_ERR_NOMEM;
    for (size_t r = 0; r < f->n_rows; r++)
        if (strcmp(f->row[r].executor, LOP_FMT_BARRIER_MPI_EXEC) == 0)
            m->mpi[m->n_mpi++] =
                (mpi_time_t){f->row[r].p, measured_us(o, &f->row[r]), f->row[r].line};
    qsort(m->mpi, m->n_mpi, sizeof *m->mpi, mpi_time_cmp);
    lop_status_t st = LOP_OK;
    for (size_t i = 1; i < m->n_mpi && st == LOP_OK; i++)
        if (m->mpi[i].p == m->mpi[i - 1].p)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: a second MPI_Barrier row for p = %.0f "
                         "(line %zu)", f->path, m->mpi[i].line > m->mpi[i - 1].line ?
                         m->mpi[i].line : m->mpi[i - 1].line, m->mpi[i].p,
                         m->mpi[i].line > m->mpi[i - 1].line ? m->mpi[i - 1].line :
                         m->mpi[i].line);
    return st;
}

/* MPI_Barrier's time at p in the same file (0 if absent). */
static double mpi_barrier_us(const measured_t *m, double p)
{
    mpi_time_t key = {p, 0, 0};
    const mpi_time_t *t = m->n_mpi ? bsearch(&key, m->mpi, m->n_mpi, sizeof key,
                                             mpi_time_cmp) : NULL;
    return t ? t->us : 0;
}

/* The predictions of one algorithm, n and P, or of schedule 's' (no
 * closed forms); pred[k] NULL where none. */
static lop_status_t predict_all(const lopredict_opts_t *o, lopredict_run_t *run,
                                const barrier_alg_t *a, uint32_t n, long p, const sched_t *s,
                                predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT && !st; k++) {
        int sim = predict_kind_sim(k);
        pred[k] = NULL;
        if (sim || a)
            st = work_time_predict(o, run, k, a, n, p, sim ? s : NULL, &v[k], &pred[k]);
    }
    return st;
}

/* Does 's' hold an MCAST? */
static int has_mcast(const sched_t *s)
{
    for (uint32_t r = 0; r < s->p; r++)
        for (uint32_t k = 0; k < sched_rank_count(s, r); k++)
            if (sched_op_at(s, r, k).kind == SCHED_MCAST)
                return 1;
    return 0;
}

/* The schedule as 'executor' runs it: without hardware multicast an MCAST
 * is P - 1 messages, and the simulations are to price those (like with
 * like; the closed forms keep the algorithm's one multicast). */
static lop_status_t as_executed(const char *executor, sched_t *s)
{
    sched_t u;
    if (strcmp(executor, LOP_FMT_BARRIER_MCAST_EXEC) == 0 || !has_mcast(s))
        return LOP_OK;
    lop_status_t st = sched_unicast(s, &u);
    sched_free(s);
    *s = u;
    return st;
}

/* The predictions of an algorithm row (its schedule built here, as
 * 'executor' runs it). */
static lop_status_t predict_alg(const lopredict_opts_t *o, lopredict_run_t *run,
                                const char *executor, const barrier_alg_t *a, uint32_t n,
                                long p, predict_time_t *v, const predict_time_t **pred)
{
    if (a->flags & BARRIER_HYBRID) { /* needs per-pair costs: not predicted here */
        for (int k = 0; k < M_COUNT; k++)
            pred[k] = NULL;
        return LOP_OK;
    }
    sched_t s;
    int sched = !(a->flags & BARRIER_COST_ONLY);
    lop_status_t st = sched ? work_sched_build(o, run, a, n, p, 1, &s) : LOP_OK;
    st = st || !sched ? st : as_executed(executor, &s);
    if (st)
        return st;
    st = predict_all(o, run, a, n, p, sched ? &s : NULL, v, pred);
    if (sched)
        sched_free(&s);
    return st;
}

/* The schedule file of a "file:<name>" row, beside barrier.csv and checked;
 * NULL with a warning when there is none (the row is then not predicted). */
static const sched_t *file_schedule(const lop_fmt_barrier_row_t *row, measured_t *m,
                                    const char *name, lop_status_t *st)
{
    if (strcmp(m->file_name, name) == 0)
        return &m->file_sched;
    sched_free(&m->file_sched);
    m->file_name[0] = '\0';
    const char *slash = strrchr(m->f->path, '/');
    char path[4200];
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - m->f->path + 1) : 0, m->f->path,
             name);
    if (!lop_name_ok(name) || access(path, R_OK) != 0)
        return NULL; /* predict_file warns */
    *st = mode_schedule_file_read(path, &m->file_sched);
    *st = *st ? *st : sched_check(&m->file_sched);
    if (*st) {
        char why[1024];
        snprintf(why, sizeof why, "%s", lop_errmsg());
        *st = lop_err(*st, "%s:%zu: %s", m->f->path, row->line, why); /* why: "FILE:LINE: ..." */
        return NULL;
    }
    snprintf(m->file_name, sizeof m->file_name, "%s", name);
    return &m->file_sched;
}

/* The schedule of a "file:<name>" row at P, read and checked; NULL with
 * *st LOP_OK when there is no such file. */
static const sched_t *file_row_schedule(const lop_fmt_barrier_row_t *row, measured_t *m,
                                        lop_status_t *st)
{
    const char *name = row->alg + strlen(LOP_FMT_BARRIER_FILE_PREFIX);
    const sched_t *s = file_schedule(row, m, name, st);
    if (s && s->p != row->p) {
        *st = lop_err(LOP_ERR_PARSE, "%s:%zu: p = %u, but schedule '%s' is for %u ranks",
                      m->f->path, row->line, row->p, name, s->p);
        return NULL;
    }
    return s;
}

/* A "file:<name>" row: simulations from the schedule file, no closed form. */
static lop_status_t predict_file(const lopredict_opts_t *o, lopredict_run_t *run,
                                 const lop_fmt_barrier_row_t *row, measured_t *m,
                                 predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT; k++)
        pred[k] = NULL;
    const sched_t *s = file_row_schedule(row, m, &st);
    if (!s && st == LOP_OK)
        fprintf(stderr, "%s: warning: %s:%zu: no schedule file '%s' beside it: row not "
                "predicted\n", LOPREDICT_PROG, m->f->path, row->line,
                row->alg + strlen(LOP_FMT_BARRIER_FILE_PREFIX));
    return s ? predict_all(o, run, NULL, 0, row->p, s, v, pred) : st;
}

/* The algorithm of a row of barrier.csv (read and checked by fmt_barrier.h)
 * and its n; '*a' is NULL for a "file:<name>" row. */
static lop_status_t measured_alg(const measured_t *m, const lop_fmt_barrier_row_t *row,
                                 const barrier_alg_t **a, uint32_t *n)
{
    const char *name = row->alg, *prefix = LOP_FMT_BARRIER_FILE_PREFIX;
    int from_file = strncmp(name, prefix, strlen(prefix)) == 0;
    *a = barrier_alg_find(name);
    *n = 0;
    if (!*a && !from_file)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown algorithm '%s'", m->f->path, row->line,
                       name);
    if (*a && (*a)->takes_n && row->n == 0) /* never the default in its place */
        return lop_err(LOP_ERR_PARSE, "%s:%zu: n %s: %s takes an n >= 1", m->f->path, row->line,
                       row->n_empty ? "is empty" : "= 0", name);
    *n = *a ? barrier_alg_n(*a, row->n) : 0;
    return LOP_OK;
}

/* inside_X: is the measurement within the prediction's interval? */
static void inside_out(lop_out_t *t, const predict_time_t *v, double us)
{
    if (!v || isnan(v->lo_us) || isnan(v->hi_us))
        lop_out_empty(t);
    else
        lop_out_str(t, us >= v->lo_us && us <= v->hi_us ? "yes" : "no");
}

/* Does 'b' ask for the predictions of 'a': the same executor, algorithm,
 * n, P and series?  (barrier-congested.csv repeats a row per condition.) */
static int measured_same(const lop_fmt_barrier_row_t *a, const lop_fmt_barrier_row_t *b)
{
    return a->p == b->p && a->n == b->n && a->n_empty == b->n_empty &&
           strcmp(a->executor, b->executor) == 0 && strcmp(a->alg, b->alg) == 0 &&
           strcmp(a->series, b->series) == 0;
}

/* The predictions of a row, those of the row before when it asks for the
 * same: a schedule built and simulated once, not once per row. */
static lop_status_t measured_predict(const lopredict_opts_t *o, lopredict_run_t *run,
                                     const lop_fmt_barrier_row_t *row, const barrier_alg_t *a,
                                     uint32_t n, measured_t *m, predict_time_t *v,
                                     const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    if (m->last && measured_same(m->last, row)) {
        for (int k = 0; k < M_COUNT; k++) {
            v[k] = m->last_v[k];
            pred[k] = m->last_have[k] ? &v[k] : NULL;
        }
        return LOP_OK;
    }
    m->last = NULL;
    if (!o->series_named)
        st = params_series_use(o, run, row->series);
    st = st  ? st
         : a ? predict_alg(o, run, row->executor, a, n, row->p, v, pred)
             : predict_file(o, run, row, m, v, pred);
    if (st)
        return st;
    m->last = row;
    for (int k = 0; k < M_COUNT; k++) {
        m->last_v[k] = v[k];
        m->last_have[k] = pred[k] != NULL;
    }
    return LOP_OK;
}

static lop_status_t measured_row(const lopredict_opts_t *o, lopredict_run_t *run,
                                 const lop_fmt_barrier_row_t *row, measured_t *m, lop_out_t *t)
{
    static const char *const col[M_COUNT] = {"logp_us", "lop_us", "sim_logp_us", "sim_lop_us",
                                             "loop_us", "bucket_us"};
    const barrier_alg_t *a;
    const predict_time_t *pred[M_COUNT];
    predict_time_t v[M_COUNT];
    rows_flags_t f = {0};
    uint32_t n = 0, p = row->p;
    double us = measured_us(o, row);
    lop_status_t st = measured_alg(m, row, &a, &n);
    if (st == LOP_OK && a && (a->flags & BARRIER_HYBRID)) /* why its predictions are empty */
        rows_flag_add(&f, NULL, MEASURED_HYBRID_FLAG);
    if (st == LOP_OK)
        st = measured_predict(o, run, row, a, n, m, v, pred);
    if (st)
        return st;
    lop_out_str(t, row->executor);
    lop_out_str(t, a ? a->name : row->alg);
    if (a)
        rows_n_out(t, a, n);
    else
        lop_out_empty(t);
    lop_out_int(t, p);
    lop_out_str(t, run->series);
    lop_out_num(t, us);
    double err[M_COUNT];
    for (int k = 0; k < M_COUNT; k++) {
        int time = pred[k] && !predict_invalid(pred[k]->us);
        err[k] = time ? (pred[k]->us - us) / us : NAN;
        rows_time_out(t, &f, col[k], pred[k]);
        m->abs_err[k] += isnan(err[k]) ? 0 : fabs(err[k]);
        m->count[k] += !isnan(err[k]);
    }
    for (int k = 0; k < M_COUNT; k++)
        lop_out_num(t, err[k]);
    for (int k = 0; k < M_COUNT; k++)
        inside_out(t, pred[k], us);
    double base = mpi_barrier_us(m, (double)p);
    lop_out_num(t, base > 0 ? us / base : NAN);
    lop_out_str(t, f.text);
    lop_out_str(t, row->condition); /* barrier.csv's isolated, barrier-congested.csv's rows */
    return lop_out_row(t);
}

/* Which model describes the machine: mean |relative error| of each. */
static lop_status_t measured_summary(lop_out_t *t, const measured_t *m)
{
    int best = -1;
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT; k++) {
        if (!m->count[k])
            continue;
        double mean = m->abs_err[k] / (double)m->count[k];
        st = st ? st : lop_out_comment(t, "mean |error| of the %s: %.1f%% over %zu rows",
                                       m_label[k], 100 * mean, m->count[k]);
        if (best < 0 || mean < m->abs_err[best] / (double)m->count[best])
            best = k;
    }
    if (best >= 0 && st == LOP_OK)
        st = lop_out_comment(t, "closest to the measurements: the %s", m_label[best]);
    return st;
}

/* --measured FILE: every algorithm row of lopbench --barrier's output next
 * to the LogP and LoP predictions for the same algorithm, n and P. */
static const lop_out_col_t measured_cols[] = {
    {"executor", LOP_OUT_STR, 0},      {"alg", LOP_OUT_STR, 0},
    {"n", LOP_OUT_INT, 0},             {"p", LOP_OUT_INT, 0},
    {"series", LOP_OUT_STR, 0},        {"measured_us", LOP_OUT_NUM, 0},
    ROWS_TIME_COLS("logp"),            ROWS_TIME_COLS("lop"),
    ROWS_TIME_COLS("sim_logp"),        ROWS_TIME_COLS("sim_lop"),
    ROWS_TIME_COLS("loop"),            ROWS_TIME_COLS("bucket"),
    {"err_logp", LOP_OUT_PCT, 0},      {"err_lop", LOP_OUT_PCT, 0},
    {"err_sim_logp", LOP_OUT_PCT, 0},  {"err_sim_lop", LOP_OUT_PCT, 0},
    {"err_loop", LOP_OUT_PCT, 0},      {"err_bucket", LOP_OUT_PCT, 0},
    {"inside_logp", LOP_OUT_STR, 0},   {"inside_lop", LOP_OUT_STR, 0},
    {"inside_sim_logp", LOP_OUT_STR, 0}, {"inside_sim_lop", LOP_OUT_STR, 0},
    {"inside_loop", LOP_OUT_STR, 0},   {"inside_bucket", LOP_OUT_STR, 0},
    {"vs_mpi", LOP_OUT_NUM, 3},        ROWS_FLAGS_COL,
    {"condition", LOP_OUT_STR, 0},
};

/* Free what mode_measured_run holds. */
static void measured_free(measured_t *m, lop_fmt_barrier_t *f)
{
    sched_free(&m->file_sched);
    free(m->mpi);
    lop_fmt_barrier_free(f);
}

/* Every row's algorithm, schedule and series found before the first is
 * printed: a bad one leaves stdout empty. */
static lop_status_t measured_precheck(const lopredict_opts_t *o, const lopredict_run_t *run,
                                      measured_t *m, int *hybrid_rows)
{
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < m->f->n_rows && st == LOP_OK; r++) {
        const lop_fmt_barrier_row_t *row = &m->f->row[r];
        const barrier_alg_t *a = NULL;
        uint32_t n;
        lop_view_t lop;
        if (strcmp(row->executor, LOP_FMT_BARRIER_MPI_EXEC) == 0)
            continue;
        st = measured_alg(m, row, &a, &n);
        if (st == LOP_OK && !a) /* a schedule file: refused here, before the first line */
            (void)file_row_schedule(row, m, &st);
        if (st == LOP_OK && a && a->build_rank && sched_limit(a, row->p, n, NULL))
            st = lop_err(LOP_ERR_RANGE, "%s:%zu: %s", m->f->path, row->line, lop_errmsg());
        *hybrid_rows |= st == LOP_OK && a && (a->flags & BARRIER_HYBRID);
        if (st == LOP_OK && !o->series_named && run->have_set &&
            lop_view_from_set(&run->set, row->series, o->stat, &lop) != LOP_OK)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: %s", m->f->path, row->line, lop_errmsg());
    }
    if (st == LOP_OK && !m->f->has_series && !o->series_named) {
        fprintf(stderr, "%s: warning: %s has no series column (written before lopbench "
                "recorded it): ", LOPREDICT_PROG, m->f->path);
        const char *sep = "";
        for (const lop_barrier_exec_t *x = lop_barrier_execs; x->name; x++)
            if (x->series) {
                fprintf(stderr, "%s%s%s with %s", sep, x->name, *sep ? "" : " is compared",
                        x->series);
                sep = ", ";
            }
        fprintf(stderr, "\n");
    }
    return st;
}

/* The comments above the table. */
static void measured_header(const lopredict_opts_t *o, const lopredict_run_t *run,
                            int hybrid_rows)
{
    char cnt[LOP_OUT_NUM_LEN];
    printf("# lopredict: %s\n", LOP_VERSION);
    lop_meta_print(stdout, "measured", o->measured);
    if (run->have_set) { /* else LogP from --L, --os, --or alone */
        lop_meta_print(stdout, "params", run->params);
        printf("# stat: %s\n", o->stat);
    }
    printf("# measured_stat: %s (measured_us is barrier.csv's %s_us: the statistic the "
           "predictions are made in)\n", o->stat, o->stat);
    printf("# cnt: %s\n", lop_out_format_csv(cnt, run->cost.cnt));
    rows_machine_print(stdout, o, run);
    printf("# loop: LogP with o_s, o_r of each row's series at the largest p fitted (a post "
           "among posts back to back) and L = PRTT(1)/2 - o_s - o_r (one message costs half "
           "the round trip back to back; RTT(1) where the set has no PRTT), g the slope of its "
           "PRTT(k) (lopbench --scenario 3; else 0), the gap on the adapter (apart or shared: "
           "'# duplex:'); a barrier's time "
           "is the period of a loop, (T(2R) - T(R))/R for R = %d (models/README.md \"The "
           "loop\"); without a set, --L and --o as given\n", PREDICT_LOOP_ROUNDS);
    measured_bucket_print(o, run);
    measured_duplex_print(o, run);
    measured_ack_print(o, run);
    measured_overheads_print(o, run);
    rows_interval_print(stdout, o, run);
    printf("# err_* = (predicted - measured) / measured; inside_* = measured within the "
           "interval; vs_mpi = measured / MPI_Barrier at the same p\n");
    printf("# mcast: the simulations of rows of executors other than %s send an MCAST as P - 1 "
           "messages, as those executors do; the closed forms price one multicast\n",
           LOP_FMT_BARRIER_MCAST_EXEC);
    if (hybrid_rows)
        printf("# hybrid rows: not predicted, flagged " MEASURED_HYBRID_FLAG " (they need "
               "per-pair costs: lopredict --alg hybrid --simulate --model logp --costs FILE "
               "--placement FILE)\n");
}

/* Every algorithm row of lopbench --barrier's output (barrier.csv, read by
 * fmt_barrier.h) next to the LogP and LoP predictions for the same
 * algorithm, n and P. */
lop_status_t mode_measured_run(const lopredict_opts_t *o, lopredict_run_t *run, int *failed)
{
    lop_fmt_barrier_t f;
    measured_t m = {.f = &f};
    lop_out_t t;
    int hybrid_rows = 0;
    (void)failed; /* a measurement has no verdict */
    lop_status_t st = lop_fmt_barrier_read(o->measured, SCHED_MAX_P, &f);
    if (st)
        return st;
    st = mpi_index(o, &m);
    st = st ? st : measured_precheck(o, run, &m, &hybrid_rows);
    if (st == LOP_OK) {
        measured_header(o, run, hybrid_rows);
        st = lop_out_begin(&t, stdout, "standard output", o->csv, measured_cols,
                           COUNT(measured_cols));
    }
    if (st) {
        measured_free(&m, &f);
        return st;
    }
    for (size_t r = 0; r < f.n_rows && st == LOP_OK; r++)
        if (strcmp(f.row[r].executor, LOP_FMT_BARRIER_MPI_EXEC) != 0)
            st = measured_row(o, run, &f.row[r], &m, &t);
    if (st == LOP_OK)
        st = measured_summary(&t, &m);
    lop_status_t end = lop_out_end(&t);
    measured_free(&m, &f);
    return st ? st : end;
}
