/* barrier.csv (src/fmt_barrier.h): writer -> reader round trip, old files
 * without the series column, and each bad row refused naming file:line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "fmt_barrier.h"
#include "tap.h"

static lop_run_meta_t run_meta(void)
{
    lop_run_meta_t m = {.ranks = 4, .reps = 100, .warmup = 10, .oversubscribed = 1};
    snprintf(m.timer, sizeof m.timer, "test timer");
    snprintf(m.date, sizeof m.date, "2026-01-01T00:00:00+0000");
    snprintf(m.host, sizeof m.host, "here");
    return m;
}

static const lop_fmt_barrier_row_t rows[] = {
    {"p2p", "send-normal", "diss", 0, 0, 4, 100, 1.5, 2.25, 2, 3, 4, 0, NULL, 2.5, 3.5, 0, 0},
    {"verbs", "rdmaw-inline", "ndiss", 3, 0, 4, 100, 1, 0.1 + 0.2, 1, 1, 1, 0, "isolated", 1, 1,
     0, 0},
    {"p2p", "send-normal", "file:cyc.csv", 0, 0, 2, 100, 1, 1e-300, 1, 1, 1, 0,
     "congested:uniform", 1, 1, 1.25, 3},
    {"mpi", NULL, "MPI_Barrier", 0, 0, 4, 100, 1, 7, 1, 1, 1, 0, "congested:incast", 1, 1, 2, 0},
};
enum { N_ROWS = COUNT(rows) };

static void round_trip(void)
{
    lop_run_meta_t m = run_meta();
    lop_fmt_barrier_writer_t bw;
    const char *path = fixture_path("barrier.csv");
    lop_status_t st = lop_fmt_barrier_write_begin(&bw, path, "p2p: MPI", &m, NULL);
    for (size_t i = 0; i < N_ROWS && st == LOP_OK; i++)
        st = lop_fmt_barrier_write_row(&bw, &rows[i]);
    ok(lop_fmt_barrier_write_end(&bw, st) == LOP_OK, "barrier.csv written");

    lop_csv_t *csv;
    ok(lop_csv_read(path, &csv) == LOP_OK && csv->n_columns == 16 &&
           strcmp(csv->columns[0], "executor") == 0 && strcmp(csv->columns[12], "max_us") == 0 &&
           strcmp(csv->columns[9], "p90_us") == 0 && strcmp(csv->columns[11], "p999_us") == 0 &&
           strcmp(csv->columns[15], "impact_p99") == 0,
       "16 columns, executor .. max_us, condition, impact_avg, impact_p99");
    ok(csv && strcmp(csv->cells[0][13], "isolated") == 0 && strcmp(csv->cells[0][14], "") == 0 &&
           strcmp(csv->cells[2][13], "congested:uniform") == 0 &&
           strcmp(csv->cells[3][15], "") == 0,
       "condition NULL written isolated; an impact not > 0 an empty cell");
    const char *q = csv ? lop_csv_meta_get(csv, "quantity") : NULL;
    const char *o = csv ? lop_csv_meta_get(csv, "oversubscribed") : NULL;
    ok(q && strcmp(q, "barrier") == 0 && o && strcmp(o, "yes") == 0 &&
           strcmp(csv->meta[csv->n_meta - 1].key, "unit") == 0,
       "metadata: quantity barrier, oversubscribed yes, unit last");
    ok(csv && strcmp(csv->cells[0][3], "") == 0 && strcmp(csv->cells[1][3], "3") == 0 &&
           strcmp(csv->cells[3][1], "") == 0,
       "n empty where the algorithm takes none; MPI_Barrier has no series");
    lop_csv_free(csv);

    lop_fmt_barrier_t f;
    ok(lop_fmt_barrier_read(path, 1u << 24, &f) == LOP_OK && f.n_rows == N_ROWS && f.has_series,
       "read back: every row, with a series column");
    int same = 1;
    for (size_t i = 0; i < f.n_rows; i++) {
        const lop_fmt_barrier_row_t *a = &rows[i], *b = &f.row[i];
        same &= strcmp(a->executor, b->executor) == 0 && strcmp(a->alg, b->alg) == 0 &&
                a->n == b->n && a->p == b->p && a->avg_us == b->avg_us && b->line == 15 + i;
        same &= a->series ? strcmp(a->series, b->series) == 0 : b->series == NULL;
    }
    ok(same, "every row's executor, series, alg, n, p, avg_us (bit for bit) and line");
    ok(f.row[0].p90_us == 2.5 && f.row[0].p999_us == 3.5 && isnan(f.row[0].impact_avg) &&
           strcmp(f.row[0].condition, "isolated") == 0 && f.row[2].impact_avg == 1.25 &&
           f.row[2].impact_p99 == 3 && strcmp(f.row[2].condition, "congested:uniform") == 0 &&
           f.row[3].impact_avg == 2 && isnan(f.row[3].impact_p99),
       "p90, p999, condition and the impacts read back (empty impacts NaN)");
    ok(f.row[0].n_empty && !f.row[1].n_empty, "an empty n cell is told from a number");
    lop_fmt_barrier_free(&f);
}

static void old_file(void)
{
    lop_fmt_barrier_t f;
    fixture_file_write("old.csv", "executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us\n"
                                  "shm,diss,,4,10,1,2,1,1,2\nverbs,diss,,4,10,1,2,1,1,2\n");
    ok(lop_fmt_barrier_read(fixture_path("old.csv"), 64, &f) == LOP_OK && !f.has_series &&
           strcmp(f.row[0].series, "rdmaw-normal") == 0 &&
           strcmp(f.row[1].series, "rdmaw-inline") == 0,
       "a file without the series column: the executor's old series");
    ok(strcmp(f.row[0].condition, "isolated") == 0 && isnan(f.row[0].p90_us) &&
           isnan(f.row[0].impact_avg) && f.row[0].p99_us == 1,
       "... and without condition, p90, p999, impacts: isolated, NaN where absent");
    lop_fmt_barrier_free(&f);
}

/* 'row' after the header and a good row is refused, on line 4, with a
 * message containing 'want'. */
static void refused(const char *label, const char *header, const char *row, const char *want)
{
    char text[512];
    lop_fmt_barrier_t f;
    const char *good = strstr(header, "condition")
                           ? "p2p,send-normal,diss,,4,10,1,2,1,1,1,1,2,isolated,,"
                       : strstr(header, "series") ? "p2p,send-normal,diss,,4,10,1,2,1,1,2"
                                                : "p2p,diss,,4,10,1,2,1,1,2";
    snprintf(text, sizeof text, "# lopbench: test\n%s\n%s\n%s\n", header, good, row);
    fixture_file_write("bad.csv", text);
    lop_status_t st = lop_fmt_barrier_read(fixture_path("bad.csv"), 64, &f);
    ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), "bad.csv:4: ") && strstr(lop_errmsg(), want) &&
           f.row == NULL && f.n_rows == 0,
       "%s: %s", label, lop_errmsg());
}

static void bad_rows(void)
{
    const char *h = "executor,series,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us";
    refused("avg_us 0", h, "p2p,send-normal,diss,,4,10,1,0,1,1,2", "avg_us must be > 0");
    refused("p beyond max_p", h, "p2p,send-normal,diss,,65,10,1,2,1,1,2",
            "column 'p': '65' is not a whole number in 1..64");
    refused("n beyond the largest", h, "p2p,send-normal,ndiss,1000001,4,10,1,2,1,1,2",
            "column 'n': '1000001' is not a whole number in 0..1000000");
    refused("no series", h, "p2p,,diss,,4,10,1,2,1,1,2", "executor 'p2p' has no series");
    refused("MPI_Barrier p 1.5", h, "mpi,,MPI_Barrier,,1.5,10,1,2,1,1,2",
            "MPI_Barrier row needs a whole p in 1..64 and avg_us > 0");
    refused("MPI_Barrier time not a number", h, "mpi,,MPI_Barrier,,2,10,1,x,1,1,2",
            "column 'avg_us': 'x' is not a number");
    /* the name a schedule file's rows carry: once "schedule '' is for 0 ranks" */
    refused("file: without a name", h, "p2p,send-normal,file:,,4,10,1,2,1,1,2",
            "alg 'file:': the schedule file's name after 'file:' must be");
    refused("file: with a path", h, "p2p,send-normal,file:../x.csv,,4,10,1,2,1,1,2",
            "alg 'file:../x.csv': the schedule file's name after 'file:' must be");
    const char *nh = "executor,series,alg,n,p,reps,min_us,avg_us,median_us,p90_us,p99_us,"
                     "p999_us,max_us,condition,impact_avg,impact_p99";
    refused("condition unknown", nh, "p2p,send-normal,diss,,4,10,1,2,1,1,1,1,2,loaded,,",
            "condition 'loaded' is neither isolated nor congested:<pattern>");
    refused("condition without a pattern", nh,
            "p2p,send-normal,diss,,4,10,1,2,1,1,1,1,2,congested:,,", "condition 'congested:'");
    refused("impact 0", nh, "p2p,send-normal,diss,,4,10,1,2,1,1,1,1,2,congested:uniform,0,",
            "impact_avg must be > 0");
    refused("p99 not a number", nh, "p2p,send-normal,diss,,4,10,1,2,1,1,x,1,2,isolated,,",
            "column 'p99_us': 'x' is not a number");
    const char *old = "executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us";
    refused("old file, unknown executor", old, "tcp,diss,,4,10,1,2,1,1,2",
            "unknown executor 'tcp' (p2p, shm, verbs or mpi) in a file without a series column");
    lop_fmt_barrier_t f;
    fixture_file_write("nocol.csv", "executor,alg,n,p\np2p,diss,,4\n");
    ok(lop_fmt_barrier_read(fixture_path("nocol.csv"), 64, &f) == LOP_ERR_PARSE &&
           strstr(lop_errmsg(), "nocol.csv:1: no column 'avg_us'"),
       "a missing column named: %s", lop_errmsg());
}

/* barrier-hist.csv: bins on the fixed grid 10^(k/10) us, empty ones inside
 * the range written, counts summing to the times given; a time on an edge
 * falls in the bin it opens. */
static void histogram(void)
{
    lop_run_meta_t m = run_meta();
    lop_fmt_barrier_hist_writer_t hw;
    const char *path = fixture_path("barrier-hist.csv");
    const double us[] = {1, 1.1, 1.3, 3.5, 0.999, 10}; /* bins k = 0, 0, 1, 5, -1, 10 */
    lop_status_t st = lop_fmt_barrier_hist_begin(&hw, path, "p2p: MPI", &m, NULL);
    st = st ? st : lop_fmt_barrier_hist_write(&hw, &rows[0], us, COUNT(us));
    ok(lop_fmt_barrier_hist_end(&hw, st) == LOP_OK, "barrier-hist.csv written");
    lop_csv_t *csv = NULL;
    long sum = 0, zeros = 0;
    int edges = 1;
    ok(lop_csv_read(path, &csv) == LOP_OK && csv->n_rows == 12 && csv->n_columns == 9 &&
           strcmp(csv->columns[6], "lo_us") == 0 && strcmp(csv->columns[8], "count") == 0,
       "12 bins from 10^(-1/10) to 10^(11/10) us, 9 columns");
    for (size_t r = 0; csv && r < csv->n_rows; r++) {
        long c = strtol(csv->cells[r][8], NULL, 10);
        sum += c;
        zeros += c == 0;
        edges &= fabs(strtod(csv->cells[r][6], NULL) - pow(10, ((double)r - 1) / 10)) < 1e-12;
    }
    ok(sum == COUNT(us) && zeros == 7 && edges, "counts sum to the times (%ld), 7 empty bins "
       "inside the range, edges 10^(k/10)", sum);
    ok(csv && strcmp(csv->cells[1][8], "2") == 0 && strcmp(csv->cells[11][8], "1") == 0 &&
           strcmp(csv->cells[0][5], "isolated") == 0,
       "1 and 1.1 in [1, 1.26), 10 in [10, 12.6); the condition cell");
    ok(csv && lop_csv_meta_get(csv, "bins") != NULL, "'# bins:' says the grid");
    lop_csv_free(csv);
    const double zero[] = {1, 0};
    st = lop_fmt_barrier_hist_begin(&hw, path, "p2p: MPI", &m, NULL);
    st = st ? st : lop_fmt_barrier_hist_write(&hw, &rows[0], zero, 2);
    ok(lop_fmt_barrier_hist_end(&hw, st) == LOP_ERR_INVALID && strstr(lop_errmsg(), "> 0"),
       "a time of 0 has no log bin: %s", lop_errmsg());
}

int main(void)
{
    if (fixture_dir_make("fmt-barrier") != 0)
        return 1;
    round_trip();
    histogram();
    old_file();
    bad_rows();
    fixture_dir_remove();
    return tap_done();
}
