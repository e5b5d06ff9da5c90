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

#include "lopredict.h"
#include "out.h"
#include "params.h"
#include "rows.h"
#include "sched_check.h"
#include "work.h"
/* barrier.csv names the series each executor's messages correspond to (its
 * `series` column, written by lopbench's executor descriptors).  Files
 * written before that column existed are read with the series those old
 * lopbench versions used, a fixed fact about old files, with a warning. */
static const char *legacy_series(const char *executor)
{
    static const char *const map[][2] = {
        {"p2p", "send-normal"}, {"shm", "rdmaw-normal"}, {"verbs", "rdmaw-inline"}};
    for (size_t i = 0; i < COUNT(map); i++)
        if (strcmp(map[i][0], executor) == 0)
            return map[i][1];
    return NULL;
}

enum { M_LOGP = PREDICT_LOGP, M_LOP = PREDICT_LOP, M_SIM_LOGP = PREDICT_SIM_LOGP,
       M_SIM_LOP = PREDICT_SIM_LOP, M_COUNT = PREDICT_KINDS }; /* the predictions compared */
static const char *const m_label[M_COUNT] = {"LogP closed form", "LoP closed form",
                                             "LogP simulation", "LoP simulation"};

/* MPI_Barrier's time at one p (rows of executor mpi). */
typedef struct {
    double p, us;
    size_t line;
} mpi_time_t;

/* "file:<name>" rows (lopbench --barrier --schedule): the schedule file
 * <name> beside barrier.csv, read once. */
#define FILE_ALG_PREFIX "file:"

typedef struct {
    size_t exec, alg, n, p, avg;     /* columns of barrier.csv */
    size_t series;                   /* its series column; SIZE_MAX in old files */
    double abs_err[M_COUNT];         /* sums of |predicted - measured| / measured */
    size_t count[M_COUNT];
    mpi_time_t *mpi;                 /* MPI_Barrier rows, sorted by p */
    size_t n_mpi;
    char file_name[64];              /* the schedule file in 'file_sched', or "" */
    sched_t file_sched;
} measured_t;

static int mpi_time_cmp(const void *a, const void *b)
{
    double x = ((const mpi_time_t *)a)->p, y = ((const mpi_time_t *)b)->p;
    return (x > y) - (x < y);
}

/* Index every MPI_Barrier row by p, once (a lookup per row would make the
 * join quadratic).  An unreadable or repeated p is an error: silently
 * skipping it would change vs_mpi. */
static lop_status_t mpi_index(const lop_csv_t *csv, measured_t *m)
{
    m->mpi = lop_calloc(csv->n_rows, sizeof *m->mpi);
    if (!m->mpi)
        return LOP_ERR_NOMEM;
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        mpi_time_t *t = &m->mpi[m->n_mpi];
        if (strcmp(csv->cells[r][m->exec], "mpi") != 0)
            continue;
        st = lop_csv_number(csv, r, m->p, &t->p);
        st = st ? st : lop_csv_number(csv, r, m->avg, &t->us);
        if (st == LOP_OK && (t->p < 1 || t->p != floor(t->p) || !(t->us > 0)))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: MPI_Barrier row needs a whole p >= 1 and "
                         "avg_us > 0", csv->path, csv->line[r]);
        t->line = csv->line[r];
        m->n_mpi += st == LOP_OK;
    }
    if (st == LOP_OK)
        qsort(m->mpi, m->n_mpi, sizeof *m->mpi, mpi_time_cmp);
    for (size_t i = 1; i < m->n_mpi && st == LOP_OK; i++)
        if (m->mpi[i].p == m->mpi[i - 1].p)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: a second MPI_Barrier row for p = %.0f "
                         "(line %zu)", csv->path, m->mpi[i].line > m->mpi[i - 1].line ?
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

/* The four predictions of one algorithm, n and P, or of schedule 's' (no
 * closed forms); pred[k] NULL where none. */
static lop_status_t predict_all(const lopredict_opts_t *o, lopredict_run_t *run,
                                const barrier_alg_t *a, uint32_t n, long p, const sched_t *s,
                                predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT && !st; k++) {
        int sim = k == M_SIM_LOGP || k == M_SIM_LOP;
        pred[k] = NULL;
        if (sim || a)
            st = work_time_predict(o, run, k, a, n, p, sim ? s : NULL, &v[k], &pred[k]);
    }
    return st;
}

/* The predictions of an algorithm row (its schedule built here). */
static lop_status_t predict_alg(const lopredict_opts_t *o, lopredict_run_t *run,
                                const barrier_alg_t *a, uint32_t n, long p, predict_time_t *v,
                                const predict_time_t **pred)
{
    if (a->flags & BARRIER_HYBRID) { /* needs per-pair costs: not predicted here */
        for (int k = 0; k < M_COUNT; k++)
            pred[k] = NULL;
        return LOP_OK;
    }
    sched_t s;
    int sched = !(a->flags & BARRIER_COST_ONLY);
    lop_status_t st = sched ? work_sched_build(o, run, a, n, p, 1, &s) : LOP_OK;
    if (st)
        return st;
    st = predict_all(o, run, a, n, p, sched ? &s : NULL, v, pred);
    if (sched)
        sched_free(&s);
    return st;
}

/* The schedule file of a "file:<name>" row, beside barrier.csv and checked;
 * NULL with a warning when there is none (the row is then not predicted). */
static const sched_t *file_schedule(const lop_csv_t *csv, size_t r, measured_t *m,
                                    const char *name, lop_status_t *st)
{
    if (strcmp(m->file_name, name) == 0)
        return &m->file_sched;
    sched_free(&m->file_sched);
    m->file_name[0] = '\0';
    const char *slash = strrchr(csv->path, '/');
    char path[4200];
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - csv->path + 1) : 0, csv->path,
             name);
    if (!lop_name_ok(name) || access(path, R_OK) != 0)
        return NULL; /* predict_file warns */
    *st = mode_schedule_file_read(path, &m->file_sched);
    *st = *st ? *st : sched_check(&m->file_sched);
    if (*st) {
        char why[1024];
        snprintf(why, sizeof why, "%s", lop_errmsg());
        *st = lop_err(*st, "%s:%zu: %s", csv->path, csv->line[r], why); /* why: "FILE:LINE: ..." */
        return NULL;
    }
    snprintf(m->file_name, sizeof m->file_name, "%s", name);
    return &m->file_sched;
}

/* The schedule of a "file:<name>" row at P, read and checked; NULL with
 * *st LOP_OK when there is no such file. */
static const sched_t *file_row_schedule(const lop_csv_t *csv, size_t r, measured_t *m, long p,
                                        lop_status_t *st)
{
    const char *name = csv->cells[r][m->alg] + strlen(FILE_ALG_PREFIX);
    const sched_t *s = file_schedule(csv, r, m, name, st);
    if (s && (long)s->p != p) {
        *st = lop_err(LOP_ERR_PARSE, "%s:%zu: p = %ld, but schedule '%s' is for %u ranks",
                      csv->path, csv->line[r], p, name, s->p);
        return NULL;
    }
    return s;
}

/* A "file:<name>" row: simulations from the schedule file, no closed form. */
static lop_status_t predict_file(const lopredict_opts_t *o, lopredict_run_t *run,
                                 const lop_csv_t *csv, size_t r, measured_t *m, long p,
                                 predict_time_t *v, const predict_time_t **pred)
{
    lop_status_t st = LOP_OK;
    for (int k = 0; k < M_COUNT; k++)
        pred[k] = NULL;
    const sched_t *s = file_row_schedule(csv, r, m, p, &st);
    if (!s && st == LOP_OK)
        fprintf(stderr, "%s: warning: %s:%zu: no schedule file '%s' beside it: row not "
                "predicted\n", LOPREDICT_PROG, csv->path, csv->line[r],
                csv->cells[r][m->alg] + strlen(FILE_ALG_PREFIX));
    return s ? predict_all(o, run, NULL, 0, p, s, v, pred) : st;
}

/* An algorithm row of barrier.csv: its n, P and measured time; '*a' is NULL
 * for a "file:<name>" row. */
static lop_status_t measured_fields(const lop_csv_t *csv, size_t r, const measured_t *m,
                                    const barrier_alg_t **a, uint32_t *n, long *p, double *us)
{
    const char *name = csv->cells[r][m->alg], *n_text = csv->cells[r][m->n];
    long nl = 0;
    int from_file = strncmp(name, FILE_ALG_PREFIX, strlen(FILE_ALG_PREFIX)) == 0;
    *a = strcmp(name, "hybrid") == 0 ? &barrier_alg_hybrid : barrier_alg_find(name);
    if (!*a && !from_file)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown algorithm '%s'", csv->path, csv->line[r],
                       name);
    /* ranges checked before converting: n as --n takes it, p as a schedule can be */
    lop_status_t st = n_text[0] ? lop_csv_integer(csv, r, m->n, 0, 1000000, &nl) : LOP_OK;
    st = st ? st : lop_csv_integer(csv, r, m->p, 1, SCHED_MAX_P, p);
    st = st ? st : lop_csv_number(csv, r, m->avg, us);
    if (st == LOP_OK && *us <= 0)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: avg_us must be > 0", csv->path, csv->line[r]);
    if (st == LOP_OK && *a && (*a)->takes_n && nl == 0) /* never the default in its place */
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: n %s: %s takes an n >= 1", csv->path, csv->line[r],
                     n_text[0] ? "= 0" : "is empty", name);
    *n = *a ? barrier_alg_n(*a, (uint32_t)nl) : 0;
    return st;
}

/* The series of a row of barrier.csv: its series cell, or in an old file
 * without the column the series old lopbench versions used; NULL with an
 * error when there is none. */
static const char *row_series(const lop_csv_t *csv, size_t r, const measured_t *m)
{
    const char *exec = csv->cells[r][m->exec];
    const char *series = m->series != SIZE_MAX ? csv->cells[r][m->series] : legacy_series(exec);
    if (series && *series)
        return series;
    if (m->series != SIZE_MAX)
        lop_err(LOP_ERR_PARSE, "%s:%zu: executor '%s' has no series", csv->path, csv->line[r],
                exec);
    else
        lop_err(LOP_ERR_PARSE, "%s:%zu: unknown executor '%s' (p2p, shm, verbs or mpi) in a "
                "file without a series column", csv->path, csv->line[r], exec);
    return NULL;
}

/* inside_X: is the measurement within the prediction's interval? */
static void inside_out(lop_out_t *t, const predict_time_t *v, double us)
{
    if (!v || isnan(v->lo_us) || isnan(v->hi_us))
        lop_out_empty(t);
    else
        lop_out_str(t, us >= v->lo_us && us <= v->hi_us ? "yes" : "no");
}

static lop_status_t measured_row(const lopredict_opts_t *o, lopredict_run_t *run,
                                 const lop_csv_t *csv, size_t r, measured_t *m, lop_out_t *t)
{
    static const char *const col[M_COUNT] = {"logp_us", "lop_us", "sim_logp_us", "sim_lop_us"};
    const char *exec = csv->cells[r][m->exec], *series = row_series(csv, r, m);
    const barrier_alg_t *a;
    const predict_time_t *pred[M_COUNT];
    predict_time_t v[M_COUNT];
    rows_flags_t f = {0};
    uint32_t n = 0;
    long p = 0;
    double us;
    lop_status_t st = series ? measured_fields(csv, r, m, &a, &n, &p, &us) : LOP_ERR_PARSE;
    if (st == LOP_OK && !o->series_named)
        st = params_series_use(o, run, series);
    st = st  ? st
         : a ? predict_alg(o, run, a, n, p, v, pred)
             : predict_file(o, run, csv, r, m, p, v, pred);
    if (st)
        return st;
    lop_out_str(t, exec);
    lop_out_str(t, a ? a->name : csv->cells[r][m->alg]);
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
    ROWS_TIME_COLS("logp"),                 ROWS_TIME_COLS("lop"),
    ROWS_TIME_COLS("sim_logp"),             ROWS_TIME_COLS("sim_lop"),
    {"err_logp", LOP_OUT_PCT, 0},      {"err_lop", LOP_OUT_PCT, 0},
    {"err_sim_logp", LOP_OUT_PCT, 0},  {"err_sim_lop", LOP_OUT_PCT, 0},
    {"inside_logp", LOP_OUT_STR, 0},   {"inside_lop", LOP_OUT_STR, 0},
    {"inside_sim_logp", LOP_OUT_STR, 0}, {"inside_sim_lop", LOP_OUT_STR, 0},
    {"vs_mpi", LOP_OUT_NUM, 3},        ROWS_FLAGS_COL,
};

/* Free what run_measured holds. */
static void measured_free(measured_t *m, lop_csv_t *csv)
{
    sched_free(&m->file_sched);
    free(m->mpi);
    lop_csv_free(csv);
}

/* Every row read and its series found before the first is printed: a bad
 * one leaves stdout empty. */
static lop_status_t measured_precheck(const lopredict_opts_t *o, const lopredict_run_t *run,
                                      const lop_csv_t *csv, measured_t *m, int *hybrid_rows)
{
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        const barrier_alg_t *a = NULL;
        uint32_t n;
        long p;
        double us;
        lop_lop_t lop;
        if (strcmp(csv->cells[r][m->exec], "mpi") == 0)
            continue;
        const char *series = row_series(csv, r, m);
        st = series ? measured_fields(csv, r, m, &a, &n, &p, &us) : LOP_ERR_PARSE;
        if (st == LOP_OK && !a) /* a schedule file: refused here, before the first line */
            (void)file_row_schedule(csv, r, m, p, &st);
        if (st == LOP_OK && a && a->build_rank && sched_limit(a, (uint32_t)p, n, NULL))
            st = lop_err(LOP_ERR_RANGE, "%s:%zu: %s", csv->path, csv->line[r], lop_errmsg());
        *hybrid_rows |= st == LOP_OK && a && (a->flags & BARRIER_HYBRID);
        if (st == LOP_OK && !o->series_named && run->have_set &&
            lop_lop_from_set(&run->set, series, o->stat, &lop) != LOP_OK)
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: %s", csv->path, csv->line[r], lop_errmsg());
    }
    if (st == LOP_OK && m->series == SIZE_MAX && !o->series_named)
        fprintf(stderr, "%s: warning: %s has no series column (written before lopbench "
                "recorded it): p2p is compared with send-normal, shm with rdmaw-normal, verbs "
                "with rdmaw-inline\n", LOPREDICT_PROG, csv->path);
    return st;
}

/* barrier.csv (lopbench --barrier) read, and its columns found: the one
 * place this mode reads the file. */
static lop_status_t measured_read(const char *path, lop_csv_t **csv, measured_t *m)
{
    lop_status_t st = lop_csv_read(path, csv);
    if (st) {
        *csv = NULL; /* nothing to free */
        return st;
    }
    st = lop_csv_column(*csv, "executor", &m->exec);
    st = st ? st : lop_csv_column(*csv, "alg", &m->alg);
    st = st ? st : lop_csv_column(*csv, "n", &m->n);
    st = st ? st : lop_csv_column(*csv, "p", &m->p);
    st = st ? st : lop_csv_column(*csv, "avg_us", &m->avg);
    if (st == LOP_OK && lop_csv_column(*csv, "series", &m->series) != LOP_OK)
        m->series = SIZE_MAX; /* an old file (lop_err's message is not used) */
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
    printf("# cnt: %s\n", lop_out_format_csv(cnt, run->cost.cnt));
    rows_machine_print(stdout, o, run);
    rows_interval_print(stdout, o, run);
    printf("# err_* = (predicted - measured) / measured; inside_* = measured within the "
           "interval; vs_mpi = measured / MPI_Barrier at the same p\n");
    if (hybrid_rows)
        printf("# hybrid rows: not predicted (they need per-pair costs: lopredict --alg hybrid "
               "--simulate --model logp --costs FILE --placement FILE)\n");
}

/* Every algorithm row of lopbench --barrier's output next to the LogP and
 * LoP predictions for the same algorithm, n and P. */
lop_status_t mode_measured_run(const lopredict_opts_t *o, lopredict_run_t *run, int *failed)
{
    measured_t m = {0};
    lop_out_t t;
    lop_csv_t *csv;
    int hybrid_rows = 0;
    (void)failed; /* a measurement has no verdict */
    lop_status_t st = measured_read(o->measured, &csv, &m);
    if (!csv)
        return st;
    st = st ? st : mpi_index(csv, &m);
    st = st ? st : measured_precheck(o, run, csv, &m, &hybrid_rows);
    if (st == LOP_OK) {
        measured_header(o, run, hybrid_rows);
        st = lop_out_begin(&t, stdout, "standard output", o->csv, measured_cols,
                           COUNT(measured_cols));
    }
    if (st) {
        measured_free(&m, csv);
        return st;
    }
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++)
        if (strcmp(csv->cells[r][m.exec], "mpi") != 0)
            st = measured_row(o, run, csv, r, &m, &t);
    if (st == LOP_OK)
        st = measured_summary(&t, &m);
    lop_status_t end = lop_out_end(&t);
    measured_free(&m, csv);
    return st ? st : end;
}
