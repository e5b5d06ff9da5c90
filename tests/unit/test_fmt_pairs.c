/* pairs.csv (src/fmt_pairs.h): both writers -> the reader, the clamping of
 * o_us and L_us, and each bad row refused naming file:line. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "fmt_pairs.h"
#include "tap.h"

enum { P = 3 };

/* Pair i -> j of the lopbench form: o = i + j / 10 (at the min statistic),
 * L = -1 for 0 -> 1 (clamped to 0 in L_us); the diagonal has no L. */
static lop_fmt_pairs_row_t bench_row(uint32_t i, uint32_t j)
{
    double o = i + j / 10.0, L = i == 0 && j == 1 ? -1 : i == j ? NAN : 2 + i;
    lop_fmt_pairs_row_t r = {i, j, 100, {o, o + 1, o + 2}, {L, L, L}, {NAN, NAN, NAN}, i, j};
    return r;
}

static void bench_form(void)
{
    lop_run_meta_t run = {.transport = "mpi", .transport_choice = "test", .device = "none",
                          .ranks = P, .reps = 100};
    lop_fmt_pairs_meta_t m = {"issend", "issend", "a test", NULL, NULL, 0, "min", 0, P,
                              "no: test", "one host", &run};
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            lop_fmt_pairs_row_t r = bench_row(i, j);
            m.clamped += lop_fmt_pairs_clamps(&r, 0);
        }
    ok(m.clamped == 1, "one value below 0 to clamp (L of 0 -> 1)");
    lop_fmt_pairs_writer_t pw;
    const char *path = fixture_path("pairs.csv");
    lop_status_t st = lop_fmt_pairs_write_begin(&pw, path, &m);
    for (uint32_t i = 0; i < P && st == LOP_OK; i++)
        for (uint32_t j = 0; j < P && st == LOP_OK; j++) {
            lop_fmt_pairs_row_t r = bench_row(i, j);
            st = lop_fmt_pairs_write_row(&pw, &r);
        }
    ok(lop_fmt_pairs_write_end(&pw, st) == LOP_OK, "lopbench's pairs.csv written (diagonal too)");

    lop_csv_t *csv;
    ok(lop_csv_read(path, &csv) == LOP_OK && csv->n_columns == 16 && csv->n_rows == P * P &&
           strcmp(csv->columns[15], "src_j") == 0 && strcmp(csv->cells[1][3], "0") == 0 &&
           strcmp(csv->cells[1][8], "-1") == 0 && strcmp(csv->cells[0][3], "") == 0,
       "16 columns; L_us of 0 -> 1 written as 0, L_min_us keeps -1; the diagonal's L empty");
    const char *clamped = csv ? lop_csv_meta_get(csv, "clamped") : NULL;
    ok(clamped && strncmp(clamped, "1 values", 8) == 0 && !lop_csv_meta_get(csv, "op"),
       "# clamped: 1; no op line for issend");
    lop_csv_free(csv);

    lop_fmt_pairs_t f;
    ok(lop_fmt_pairs_read(path, &f) == LOP_OK && f.p == P, "read back: P = 3");
    int same = 1;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = 0; j < P; j++) {
            lop_fmt_pairs_row_t r = bench_row(i, j);
            double L = i == j ? 0 : r.L[0] < 0 ? 0 : r.L[0];
            same &= f.o_us[i * P + j] == (i == j ? 0 : r.o[0]) && f.L_us[i * P + j] == L;
        }
    ok(same, "o_us and L_us of every pair, bit for bit (the diagonal not read)");
    lop_fmt_pairs_free(&f);
}

static void costs_form(void)
{
    lop_csv_writer_t w;
    const char *path = fixture_path("costs.csv");
    ok(lop_fmt_pairs_costs_begin(&w, path, "test", 2) == LOP_OK, "lopredict's form opened");
    lop_fmt_pairs_costs_row(&w, 0, 1, 0.1, 1.0 / 3);
    lop_fmt_pairs_costs_row(&w, 1, 0, 5e-324, 1e300);
    ok(lop_csv_writer_end(&w, LOP_OK) == LOP_OK, "... and ended");
    lop_fmt_pairs_t f;
    ok(lop_fmt_pairs_read(path, &f) == LOP_OK && f.p == 2 && f.o_us[1] == 0.1 &&
           f.L_us[1] == 1.0 / 3 && f.o_us[2] == 5e-324 && f.L_us[2] == 1e300,
       "read back exactly (0.1, 1/3, the smallest subnormal, 1e300)");
    lop_fmt_pairs_free(&f);
}

/* 'text' is refused with a message containing 'want'. */
static void refused(const char *label, const char *text, const char *want)
{
    lop_fmt_pairs_t f;
    fixture_file_write("bad.csv", text);
    lop_status_t st = lop_fmt_pairs_read(fixture_path("bad.csv"), &f);
    ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), want) && f.o_us == NULL,
       "%s: %s", label, lop_errmsg());
}

static void bad_rows(void)
{
    refused("a negative o", "i,j,o_us,L_us\n0,1,1,1\n1,0,-1,1\n", "bad.csv:3: o_us and L_us "
            "must be >= 0");
    refused("a repeated pair", "# p: 2\ni,j,o_us,L_us\n0,1,1,1\n1,0,1,1\n0,1,2,2\n",
            "bad.csv:5: a second row for i = 0, j = 1");
    refused("a rank beyond P", "# p: 2\ni,j,o_us,L_us\n0,1,1,1\n2,0,1,1\n",
            "bad.csv:4: i, j must be ranks 0..1");
    refused("a missing pair", "# p: 3\ni,j,o_us,L_us\n0,1,1,1\n1,0,1,1\n",
            "bad.csv:2: no row for i = 0, j = 2");
    refused("a bad # p", "# p: 0\ni,j,o_us,L_us\n0,1,1,1\n", "bad.csv: '# p: 0' is not a whole "
            "number 1..65536");
    refused("no L column", "i,j,o_us\n0,1,1\n", "bad.csv:1: no column 'L_us'");
}

/* The file names lopbench --pairs writes, a series of the name rule's
 * longest whole. */
static void file_names(void)
{
    char name[LOP_FMT_PAIRS_NAME_LEN], series[LOP_NAME_SIZE];
    lop_fmt_pairs_file_name(name, NULL);
    ok(strcmp(name, "pairs.csv") == 0, "the MPI_Issend method's: pairs.csv");
    lop_fmt_pairs_file_name(name, "send-normal");
    ok(strcmp(name, "pairs-send-normal.csv") == 0, "a series': pairs-send-normal.csv");
    memset(series, 'x', LOP_NAME_MAX);
    series[LOP_NAME_MAX] = '\0';
    lop_fmt_pairs_file_name(name, series);
    ok(strlen(name) == LOP_NAME_MAX + strlen("pairs-.csv") && strcmp(name + strlen(name) - 4,
       ".csv") == 0, "a series of %d characters: its name whole", LOP_NAME_MAX);
}

int main(void)
{
    if (fixture_dir_make("fmt-pairs") != 0)
        return 1;
    bench_form();
    costs_form();
    bad_rows();
    file_names();
    fixture_dir_remove();
    return tap_done();
}
