/* fmt_barrier.c - barrier.csv: columns, metadata, writer and reader (fmt_barrier.h). */
#include "fmt_barrier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_histogram.h>

static const lop_out_col_t cols[] = {
    {"executor", LOP_OUT_STR, 0}, {"series", LOP_OUT_STR, 0},
    {"alg", LOP_OUT_STR, 0},      {"n", LOP_OUT_INT, 0},
    {"p", LOP_OUT_INT, 0},        {"reps", LOP_OUT_INT, 0},   {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},   {"median_us", LOP_OUT_NUM, 0}, {"p90_us", LOP_OUT_NUM, 0},
    {"p99_us", LOP_OUT_NUM, 0},   {"p999_us", LOP_OUT_NUM, 0},   {"max_us", LOP_OUT_NUM, 0},
    {"condition", LOP_OUT_STR, 0}, {"impact_avg", LOP_OUT_NUM, 0},
    {"impact_p99", LOP_OUT_NUM, 0},
};

static const lop_out_col_t hist_cols[] = {
    {"executor", LOP_OUT_STR, 0}, {"series", LOP_OUT_STR, 0}, {"alg", LOP_OUT_STR, 0},
    {"n", LOP_OUT_INT, 0},        {"p", LOP_OUT_INT, 0},      {"condition", LOP_OUT_STR, 0},
    {"lo_us", LOP_OUT_NUM, 0},    {"hi_us", LOP_OUT_NUM, 0},  {"count", LOP_OUT_INT, 0},
};

/* ---------------------------------------------------------------- writer */

/* The metadata both files share; 'definition' their own. */
static lop_status_t meta_begin(lop_csv_writer_t *w, const char *path, const char *definition,
                               const char *executors, const lop_run_meta_t *run,
                               const lop_fmt_barrier_congest_t *congest)
{
    lop_status_t st = lop_csv_writer_open(w, path);
    if (st != LOP_OK)
        return st;
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "barrier");
    lop_csv_meta(w, "definition", "avg_us = max over ranks of each rank's mean over reps "
                 "consecutive barriers (thesis 4.3.2); min/median/p90/p99/p999/max over the "
                 "per-iteration times of that slowest-mean rank");
    if (definition)
        lop_csv_meta(w, "bins", "%s", definition);
    lop_csv_meta(w, "executors", "%s", executors);
    lop_csv_meta(w, "ranks", "%d", run->ranks);
    lop_csv_meta(w, "oversubscribed", "%s", run->oversubscribed ? "yes" : "no");
    lop_csv_meta(w, "repetitions", "%ld", run->reps);
    lop_csv_meta(w, "warmup", "%ld", run->warmup);
    lop_csv_meta(w, "timer", "%s", run->timer);
    lop_csv_meta(w, "date", "%s", run->date);
    lop_run_meta_hosts_write(w, run);
    const char *const keys[] = {"congest", "congest_cores", "congest_traffic", "condition"};
    const char *const vals[] = {congest ? congest->congest : NULL, congest ? congest->cores : NULL,
                                congest ? congest->traffic : NULL,
                                congest ? congest->condition : NULL};
    for (size_t i = 0; i < COUNT(keys); i++)
        if (vals[i])
            lop_csv_meta(w, keys[i], "%s", vals[i]);
    lop_csv_meta(w, "unit", "us");
    return LOP_OK;
}

lop_status_t lop_fmt_barrier_write_begin(lop_fmt_barrier_writer_t *bw, const char *path,
                                         const char *executors, const lop_run_meta_t *run,
                                         const lop_fmt_barrier_congest_t *congest)
{
    lop_csv_writer_t *w = &bw->w;
    lop_status_t st = meta_begin(w, path, NULL, executors, run, congest);
    if (st != LOP_OK)
        return st;
    st = lop_out_begin(&bw->t, w->file, w->path, 1, cols, COUNT(cols));
    return st ? lop_csv_writer_end(w, st) : LOP_OK;
}

/* The cells every row of both files starts with: executor, series, alg, n, p. */
static void row_key(lop_out_t *t, const lop_fmt_barrier_row_t *r)
{
    lop_out_str(t, r->executor);
    lop_out_str(t, r->series ? r->series : "");
    lop_out_str(t, r->alg);
    if (r->n) /* empty when the algorithm takes none, as in lopredict's CSVs */
        lop_out_int(t, r->n);
    else
        lop_out_empty(t);
    lop_out_int(t, r->p);
}

lop_status_t lop_fmt_barrier_write_row(lop_fmt_barrier_writer_t *bw,
                                       const lop_fmt_barrier_row_t *r)
{
    lop_out_t *t = &bw->t;
    row_key(t, r);
    lop_out_int(t, r->reps);
    const double v[] = {r->min_us, r->avg_us, r->median_us, r->p90_us,
                        r->p99_us, r->p999_us, r->max_us};
    for (size_t i = 0; i < COUNT(v); i++)
        lop_out_num(t, v[i]);
    lop_out_str(t, r->condition ? r->condition : LOP_FMT_BARRIER_ISOLATED);
    lop_out_num(t, r->impact_avg > 0 ? r->impact_avg : NAN);
    lop_out_num(t, r->impact_p99 > 0 ? r->impact_p99 : NAN);
    return lop_out_row(t);
}

lop_status_t lop_fmt_barrier_write_end(lop_fmt_barrier_writer_t *bw, lop_status_t st)
{
    lop_status_t end = lop_out_end(&bw->t);
    return lop_csv_writer_end(&bw->w, st ? st : end);
}

/* ------------------------------------------------------------- histogram */

lop_status_t lop_fmt_barrier_hist_begin(lop_fmt_barrier_hist_writer_t *hw, const char *path,
                                        const char *executors, const lop_run_meta_t *run,
                                        const lop_fmt_barrier_congest_t *congest)
{
    lop_csv_writer_t *w = &hw->w;
    lop_status_t st = meta_begin(w, path, "10 per decade, edges 10^(k/10) us; counts of the "
                                 "slowest-mean rank's per-iteration times (the rank of avg_us)",
                                 executors, run, congest);
    if (st != LOP_OK)
        return st;
    st = lop_out_begin(&hw->t, w->file, w->path, 1, hist_cols, COUNT(hist_cols));
    return st ? lop_csv_writer_end(w, st) : LOP_OK;
}

/* The edge 10^(k/10) us of the fixed grid. */
static double grid_edge(int k)
{
    return pow(10.0, (double)k / LOP_FMT_BARRIER_HIST_PER_DECADE);
}

/* The bin k of the grid holding x > 0: edge(k) <= x < edge(k + 1), the
 * logarithm's rounding corrected against the edges themselves. */
static int grid_bin(double x)
{
    int k = (int)floor(log10(x) * LOP_FMT_BARRIER_HIST_PER_DECADE);
    while (grid_edge(k) > x)
        k--;
    while (grid_edge(k + 1) <= x)
        k++;
    return k;
}

lop_status_t lop_fmt_barrier_hist_write(lop_fmt_barrier_hist_writer_t *hw,
                                        const lop_fmt_barrier_row_t *r, const double *us,
                                        size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, us[i]);
        hi = fmax(hi, us[i]);
    }
    if (n == 0 || !(lo > 0) || !isfinite(hi))
        return lop_err(LOP_ERR_INVALID, "%s: %s on %u ranks: per-iteration times must be "
                       "finite and > 0 to be binned on a log scale", hw->w.path, r->alg, r->p);
    int k0 = grid_bin(lo), bins = grid_bin(hi) - k0 + 1;
    gsl_histogram *h = gsl_histogram_alloc((size_t)bins);
    double *edge = lop_calloc((size_t)bins + 1, sizeof *edge);
    lop_status_t st = h && edge ? LOP_OK : LOP_ERR_NOMEM;
    for (int b = 0; b <= bins && st == LOP_OK; b++)
        edge[b] = grid_edge(k0 + b);
    if (st == LOP_OK)
        gsl_histogram_set_ranges(h, edge, (size_t)bins + 1);
    for (size_t i = 0; i < n && st == LOP_OK; i++)
        if (gsl_histogram_increment(h, us[i]) != 0) /* grid_bin put it inside */
            st = lop_err(LOP_ERR_INVALID, "%s: %g us fell outside its bins", hw->w.path, us[i]);
    for (size_t b = 0; b < (size_t)bins && st == LOP_OK; b++) {
        row_key(&hw->t, r);
        lop_out_str(&hw->t, r->condition ? r->condition : LOP_FMT_BARRIER_ISOLATED);
        lop_out_num(&hw->t, edge[b]);
        lop_out_num(&hw->t, edge[b + 1]);
        lop_out_int(&hw->t, (long long)gsl_histogram_get(h, b));
        st = lop_out_row(&hw->t);
    }
    free(edge);
    if (h)
        gsl_histogram_free(h);
    return st;
}

lop_status_t lop_fmt_barrier_hist_end(lop_fmt_barrier_hist_writer_t *hw, lop_status_t st)
{
    return lop_fmt_barrier_write_end(hw, st);
}

/* ---------------------------------------------------------------- reader */

/* The statistics besides avg_us, read where the file has them (a file of
 * hand or of an old lopbench may not): lopredict compares like with like. */
static const char *const other_stats[] = {"min_us", "median_us", "p90_us", "p99_us", "p999_us",
                                          "max_us", "impact_avg", "impact_p99"};
enum { FIRST_IMPACT = 6 }; /* other_stats from here: empty in an isolated row */
enum { N_OTHER_STATS = COUNT(other_stats) };

typedef struct {
    size_t exec, alg, n, p, avg; /* columns */
    size_t series;               /* SIZE_MAX in a file written before it existed */
    size_t condition;            /* SIZE_MAX likewise: every row isolated */
    size_t other[N_OTHER_STATS]; /* other_stats' columns, SIZE_MAX where absent */
} cols_t;

static double *other_stat(lop_fmt_barrier_row_t *row, int i)
{
    double *const at[N_OTHER_STATS] = {&row->min_us,  &row->median_us, &row->p90_us,
                                       &row->p99_us,  &row->p999_us,   &row->max_us,
                                       &row->impact_avg, &row->impact_p99};
    return at[i];
}

/* Row r's condition: its cell, "isolated" or "congested:<pattern>". */
static lop_status_t condition_read(const lop_csv_t *csv, size_t r, const cols_t *c,
                                   lop_fmt_barrier_row_t *row)
{
    const char *cond = c->condition == SIZE_MAX ? LOP_FMT_BARRIER_ISOLATED
                                                : csv->cells[r][c->condition];
    const char *pre = LOP_FMT_BARRIER_CONGESTED;
    row->condition = cond;
    if (strcmp(cond, LOP_FMT_BARRIER_ISOLATED) == 0 ||
        (strncmp(cond, pre, strlen(pre)) == 0 && cond[strlen(pre)]))
        return LOP_OK;
    return lop_err(LOP_ERR_PARSE, "%s:%zu: condition '%s' is neither %s nor %s<pattern>",
                   csv->path, csv->line[r], cond, LOP_FMT_BARRIER_ISOLATED, pre);
}

/* The other statistics of row r: numbers > 0 where the column exists (the
 * impact factors may be empty). */
static lop_status_t other_stats_read(const lop_csv_t *csv, size_t r, const cols_t *c,
                                     lop_fmt_barrier_row_t *row)
{
    lop_status_t st = condition_read(csv, r, c, row);
    for (int i = 0; i < N_OTHER_STATS && st == LOP_OK; i++) {
        double *v = other_stat(row, i);
        if (c->other[i] == SIZE_MAX || (i >= FIRST_IMPACT && !csv->cells[r][c->other[i]][0]))
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
    if (st == LOP_OK && lop_csv_column(csv, "condition", &c->condition) != LOP_OK)
        c->condition = SIZE_MAX;
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
        for (int i = 0; i < N_OTHER_STATS; i++)
            *other_stat(row, i) = NAN;
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
