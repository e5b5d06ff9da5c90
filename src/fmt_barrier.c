/* fmt_barrier.c - barrier.csv: columns, metadata, writer and reader (fmt_barrier.h). */
#include "fmt_barrier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const lop_out_col_t cols[] = {
    {"executor", LOP_OUT_STR, 0}, {"series", LOP_OUT_STR, 0},
    {"alg", LOP_OUT_STR, 0},      {"n", LOP_OUT_INT, 0},
    {"p", LOP_OUT_INT, 0},        {"reps", LOP_OUT_INT, 0},   {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},   {"median_us", LOP_OUT_NUM, 0}, {"p99_us", LOP_OUT_NUM, 0},
    {"max_us", LOP_OUT_NUM, 0},
};

/* ---------------------------------------------------------------- writer */

lop_status_t lop_fmt_barrier_write_begin(lop_fmt_barrier_writer_t *bw, const char *path,
                                         const char *executors, const lop_run_meta_t *run)
{
    lop_csv_writer_t *w = &bw->w;
    lop_status_t st = lop_csv_writer_open(w, path);
    if (st != LOP_OK)
        return st;
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "barrier");
    lop_csv_meta(w, "definition", "avg_us = max over ranks of each rank's mean over reps "
                 "consecutive barriers (thesis 4.3.2); min/median/p99/max over the per-iteration "
                 "times of that slowest-mean rank");
    lop_csv_meta(w, "executors", "%s", executors);
    lop_csv_meta(w, "ranks", "%d", run->ranks);
    lop_csv_meta(w, "oversubscribed", "%s", run->oversubscribed ? "yes" : "no");
    lop_csv_meta(w, "repetitions", "%ld", run->reps);
    lop_csv_meta(w, "warmup", "%ld", run->warmup);
    lop_csv_meta(w, "timer", "%s", run->timer);
    lop_csv_meta(w, "date", "%s", run->date);
    lop_run_meta_hosts_write(w, run);
    lop_csv_meta(w, "unit", "us");
    st = lop_out_begin(&bw->t, w->file, w->path, 1, cols, COUNT(cols));
    return st ? lop_csv_writer_end(w, st) : LOP_OK;
}

lop_status_t lop_fmt_barrier_write_row(lop_fmt_barrier_writer_t *bw,
                                       const lop_fmt_barrier_row_t *r)
{
    lop_out_t *t = &bw->t;
    lop_out_str(t, r->executor);
    lop_out_str(t, r->series ? r->series : "");
    lop_out_str(t, r->alg);
    if (r->n) /* empty when the algorithm takes none, as in lopredict's CSVs */
        lop_out_int(t, r->n);
    else
        lop_out_empty(t);
    lop_out_int(t, r->p);
    lop_out_int(t, r->reps);
    const double v[] = {r->min_us, r->avg_us, r->median_us, r->p99_us, r->max_us};
    for (size_t i = 0; i < COUNT(v); i++)
        lop_out_num(t, v[i]);
    return lop_out_row(t);
}

lop_status_t lop_fmt_barrier_write_end(lop_fmt_barrier_writer_t *bw, lop_status_t st)
{
    lop_status_t end = lop_out_end(&bw->t);
    return lop_csv_writer_end(&bw->w, st ? st : end);
}

/* ---------------------------------------------------------------- reader */

/* The statistics besides avg_us, read where the file has them (a file of
 * hand or of an old lopbench may not): lopredict compares like with like. */
static const char *const other_stats[] = {"min_us", "median_us", "p99_us", "max_us"};
enum { N_OTHER_STATS = COUNT(other_stats) };

typedef struct {
    size_t exec, alg, n, p, avg; /* columns */
    size_t series;               /* SIZE_MAX in a file written before it existed */
    size_t other[N_OTHER_STATS]; /* other_stats' columns, SIZE_MAX where absent */
} cols_t;

static double *other_stat(lop_fmt_barrier_row_t *row, int i)
{
    double *const at[N_OTHER_STATS] = {&row->min_us, &row->median_us, &row->p99_us, &row->max_us};
    return at[i];
}

/* The other statistics of row r: numbers > 0 where the column exists. */
static lop_status_t other_stats_read(const lop_csv_t *csv, size_t r, const cols_t *c,
                                     lop_fmt_barrier_row_t *row)
{
    lop_status_t st = LOP_OK;
    for (int i = 0; i < N_OTHER_STATS && st == LOP_OK; i++) {
        double *v = other_stat(row, i);
        if (c->other[i] == SIZE_MAX)
            continue;
        st = lop_csv_number(csv, r, c->other[i], v);
        if (st == LOP_OK && !(*v > 0))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: %s must be > 0", csv->path, csv->line[r],
                         other_stats[i]);
    }
    return st;
}

const lop_barrier_exec_t lop_barrier_execs[] = {
    {"p2p", "mpi", "send-normal"},
    {"shm", "mpi", "rdmaw-normal"},
    {"verbs", "verbs", "rdmaw-inline"},
    {LOP_FMT_BARRIER_MPI_EXEC, NULL, NULL},
    {NULL, NULL, NULL},
};
_Static_assert(COUNT(lop_barrier_execs) == LOP_BARRIER_EXEC_COUNT + 1,
               "LOP_BARRIER_EXEC_COUNT counts lop_barrier_execs[] (its NULL row aside)");

/* The series of an executor's messages at its own post; NULL for an
 * unknown executor and for MPI_Barrier's. */
static const char *exec_series(const char *executor)
{
    for (const lop_barrier_exec_t *x = lop_barrier_execs; x->name; x++)
        if (strcmp(x->name, executor) == 0)
            return x->series;
    return NULL;
}

/* An MPI_Barrier row: a whole p, avg_us > 0 and the other times. */
static lop_status_t mpi_row(const lop_csv_t *csv, size_t r, const cols_t *c, uint32_t max_p,
                            lop_fmt_barrier_row_t *row)
{
    double p;
    lop_status_t st = lop_csv_number(csv, r, c->p, &p);
    st = st ? st : lop_csv_number(csv, r, c->avg, &row->avg_us);
    st = st ? st : other_stats_read(csv, r, c, row);
    if (st == LOP_OK && (p < 1 || p > max_p || p != floor(p) || !(row->avg_us > 0)))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: MPI_Barrier row needs a whole p in 1..%u and "
                     "avg_us > 0", csv->path, csv->line[r], max_p);
    row->p = st ? 0 : (uint32_t)p;
    return st;
}

/* The series of a row: its cell, or in an old file the executor's. */
static lop_status_t row_series(const lop_csv_t *csv, size_t r, const cols_t *c,
                               lop_fmt_barrier_row_t *row)
{
    const char *exec = row->executor;
    row->series = c->series != SIZE_MAX ? csv->cells[r][c->series] : exec_series(exec);
    if (row->series && *row->series)
        return LOP_OK;
    if (c->series != SIZE_MAX)
        return lop_err(LOP_ERR_PARSE, "%s:%zu: executor '%s' has no series", csv->path,
                       csv->line[r], exec);
    char known[64] = "";
    size_t n = 0;
    for (const lop_barrier_exec_t *x = lop_barrier_execs; x->name && n < sizeof known; x++)
        if (x->series)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s, ", x->name);
    known[strlen(known) - 2] = '\0'; /* "p2p, shm, verbs" */
    return lop_err(LOP_ERR_PARSE, "%s:%zu: unknown executor '%s' (%s or %s) in a file without a "
                   "series column", csv->path, csv->line[r], exec, known,
                   LOP_FMT_BARRIER_MPI_EXEC);
}

/* Any other row: its series, n, p and times; ranges checked before converting. */
static lop_status_t exec_row(const lop_csv_t *csv, size_t r, const cols_t *c, uint32_t max_p,
                             lop_fmt_barrier_row_t *row)
{
    long n = 0, p = 0;
    const char *prefix = LOP_FMT_BARRIER_FILE_PREFIX;
    row->n_empty = csv->cells[r][c->n][0] == '\0';
    lop_status_t st = row_series(csv, r, c, row);
    /* the file's base name, as lopbench --schedule writes it (the name rule):
     * the file beside barrier.csv that --measured reads */
    if (st == LOP_OK && strncmp(row->alg, prefix, strlen(prefix)) == 0 &&
        !lop_name_ok(row->alg + strlen(prefix)))
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: alg '%s': the schedule file's name after '%s' %s",
                     csv->path, csv->line[r], row->alg, prefix, lop_name_rule);
    st = st ? st : row->n_empty ? LOP_OK
                               : lop_csv_integer(csv, r, c->n, 0, LOP_FMT_BARRIER_MAX_N, &n);
    st = st ? st : lop_csv_integer(csv, r, c->p, 1, (long)max_p, &p);
    st = st ? st : lop_csv_number(csv, r, c->avg, &row->avg_us);
    if (st == LOP_OK && row->avg_us <= 0)
        st = lop_err(LOP_ERR_PARSE, "%s:%zu: avg_us must be > 0", csv->path, csv->line[r]);
    st = st ? st : other_stats_read(csv, r, c, row);
    row->n = (uint32_t)n;
    row->p = (uint32_t)p;
    return st;
}

static lop_status_t columns_find(const lop_csv_t *csv, cols_t *c)
{
    lop_status_t st = lop_csv_column(csv, "executor", &c->exec);
    st = st ? st : lop_csv_column(csv, "alg", &c->alg);
    st = st ? st : lop_csv_column(csv, "n", &c->n);
    st = st ? st : lop_csv_column(csv, "p", &c->p);
    st = st ? st : lop_csv_column(csv, "avg_us", &c->avg);
    if (st == LOP_OK && lop_csv_column(csv, "series", &c->series) != LOP_OK)
        c->series = SIZE_MAX; /* an old file (lop_err's message is not used) */
    for (int i = 0; i < N_OTHER_STATS && st == LOP_OK; i++)
        if (lop_csv_column(csv, other_stats[i], &c->other[i]) != LOP_OK)
            c->other[i] = SIZE_MAX;
    return st;
}

lop_status_t lop_fmt_barrier_read(const char *path, uint32_t max_p, lop_fmt_barrier_t *f)
{
    cols_t c;
    memset(f, 0, sizeof *f);
    lop_status_t st = lop_csv_read(path, &f->csv);
    if (st)
        return st;
    f->path = f->csv->path;
    st = columns_find(f->csv, &c);
    f->has_series = c.series != SIZE_MAX;
    if (st == LOP_OK && !(f->row = lop_calloc(f->csv->n_rows, sizeof *f->row)))
        st = LOP_ERR_NOMEM;
    for (size_t r = 0; r < f->csv->n_rows && st == LOP_OK; r++) {
        lop_fmt_barrier_row_t *row = &f->row[r];
        row->executor = f->csv->cells[r][c.exec];
        row->alg = f->csv->cells[r][c.alg];
        row->line = f->csv->line[r];
        row->min_us = row->median_us = row->p99_us = row->max_us = NAN;
        st = strcmp(row->executor, LOP_FMT_BARRIER_MPI_EXEC) == 0
                 ? mpi_row(f->csv, r, &c, max_p, row)
                 : exec_row(f->csv, r, &c, max_p, row);
        f->n_rows += st == LOP_OK;
    }
    if (st)
        lop_fmt_barrier_free(f);
    return st;
}

void lop_fmt_barrier_free(lop_fmt_barrier_t *f)
{
    free(f->row);
    lop_csv_free(f->csv);
    memset(f, 0, sizeof *f);
}
