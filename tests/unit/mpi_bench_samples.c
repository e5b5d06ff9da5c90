/* lopbench's series files (bench/samples.c, src/fmt_series.h): a sample set
 * written and read back with the project's CSV reader (rows, statistics,
 * metadata, raw samples).  No MPI_Init needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "fixture.h"
#include "samples.h"
#include "tap.h"

static lop_run_meta_t meta(void)
{
    lop_run_meta_t m = {.transport = "mpi", .transport_choice = "--transport mpi",
                        .device = "test device", .ranks = 3, .reps = 4, .warmup = 1,
                        .max_post = 2, .idle_us = 1000, .oversubscribed = 1,
                        .timer = "tsc 3000.000 MHz overhead 30.0 ticks (10.0 ns)",
                        .timer_calibration_s = 0.00012345678, .date = "2024-01-02T03:04:05+0000",
                        .host = "node1", .have_reference = 1};
    m.reference.min = 1.5;
    m.reference.median = 2.2512345678;
    return m;
}

static double cell(const lop_csv_t *csv, size_t row, const char *col)
{
    size_t c;
    double v = -1;
    if (lop_csv_column(csv, col, &c) == LOP_OK)
        lop_csv_number(csv, row, c, &v);
    return v;
}

static void test_summary(void)
{
    lop_samples_t s;
    ok(lop_samples_init(&s, "send-normal", "rtt", 2, 4) == LOP_OK, "init 2 rows x 4 samples");
    const double row1[] = {4, 1, 3, 2}, row2[] = {10, 10, 10, 10};
    for (size_t r = 0; r < 4; r++) {
        *lop_samples_at(&s, 1, r) = row1[r];
        *lop_samples_at(&s, 2, r) = row2[r];
    }
    lop_run_meta_t m = meta();
    ok(lop_samples_write(&s, &m, fixture_dir, 1) == LOP_OK, "write with --raw: %s",
       lop_errmsg());
    ok(*lop_samples_at(&s, 1, 0) == 4, "writing does not reorder the samples");
    lop_samples_free(&s);

    char path[128];
    snprintf(path, sizeof path, "%s/send-normal-rtt.csv", fixture_dir);
    lop_csv_t *csv = NULL;
    ok(lop_csv_read(path, &csv) == LOP_OK, "summary reads back: %s", lop_errmsg());
    if (!csv)
        return;
    ok(csv->n_rows == 2 && csv->n_columns == 8, "2 rows of 8 columns");
    is_num(cell(csv, 0, "p"), 1, 0, "row 1 is p = 1");
    is_num(cell(csv, 0, "n"), 4, 0, "n = samples per p");
    is_num(cell(csv, 0, "min_us"), 1, 0, "min");
    is_num(cell(csv, 0, "avg_us"), 2.5, 1e-12, "avg");
    is_num(cell(csv, 0, "median_us"), 2.5, 1e-12, "median");
    is_num(cell(csv, 0, "max_us"), 4, 0, "max");
    is_num(cell(csv, 0, "p99_us"), 3.97, 1e-9, "p99 interpolated");
    is_num(cell(csv, 1, "stddev_us"), 0, 0, "constant row: stddev 0");
    static const char *const want[][2] = {
        {"quantity", "rtt"}, {"series", "send-normal"}, {"op", "send"}, {"post", "normal"},
        {"transport", "mpi"}, {"device", "test device"}, {"ranks", "3"}, {"repetitions", "4"},
        {"warmup", "1"}, {"unit", "us"}, {"host", "node1"}, {"oversubscribed", "yes"},
        {"date", "2024-01-02T03:04:05+0000"}, {"lopbench", LOP_VERSION}};
    for (size_t i = 0; i < COUNT(want); i++) {
        const char *v = lop_csv_meta_get(csv, want[i][0]);
        ok(v && strcmp(v, want[i][1]) == 0, "# %s: %s", want[i][0], want[i][1]);
    }
    const char *ref = lop_csv_meta_get(csv, "reference_pingpong_us");
    ok(ref && strncmp(ref, "min=1.5 median=2.2512345678 ", 28) == 0,
       "rtt files carry the reference, exact (not cut to 6 significant digits)");
    const char *cal = lop_csv_meta_get(csv, "timer_calibration_s");
    ok(cal && strcmp(cal, "0.00012345678") == 0,
       "# timer_calibration_s is exact (was %%.4f: 0.0001)");
    ok(lop_csv_meta_get(csv, "timer") && lop_csv_meta_get(csv, "definition"),
       "timer and definition lines");
    lop_csv_free(csv);

    snprintf(path, sizeof path, "%s/send-normal-rtt-raw.csv", fixture_dir);
    csv = NULL;
    ok(lop_csv_read(path, &csv) == LOP_OK && csv->n_rows == 8, "raw file: 8 samples");
    if (csv) {
        ok(cell(csv, 0, "p") == 1 && cell(csv, 0, "rep") == 1 && cell(csv, 0, "us") == 4 &&
               cell(csv, 7, "p") == 2 && cell(csv, 7, "rep") == 4,
           "raw rows p,rep,us in measurement order");
        lop_csv_free(csv);
    }
}

static void test_no_reference_outside_rtt(void)
{
    lop_samples_t s;
    lop_samples_init(&s, "send-list", "os", 1, 1);
    *lop_samples_at(&s, 1, 0) = 0.5;
    lop_run_meta_t m = meta();
    lop_samples_write(&s, &m, fixture_dir, 0);
    lop_samples_free(&s);
    char path[128];
    snprintf(path, sizeof path, "%s/send-list-os.csv", fixture_dir);
    lop_csv_t *csv = NULL;
    ok(lop_csv_read(path, &csv) == LOP_OK && !lop_csv_meta_get(csv, "reference_pingpong_us") &&
           strcmp(lop_csv_meta_get(csv, "quantity"), "os") == 0,
       "an os file: quantity os, no reference line");
    lop_csv_free(csv);
    snprintf(path, sizeof path, "%s/send-list-os-raw.csv", fixture_dir);
    ok(access(path, F_OK) != 0, "no raw file without --raw");
}

static void test_failures(void)
{
    lop_samples_t s;
    ok(lop_samples_init(&s, "send-normal", "latency", 1, 1) == LOP_ERR_INVALID,
       "unknown quantity refused");
    lop_samples_init(&s, "send-normal", "rtt", 1, 2);
    *lop_samples_at(&s, 1, 0) = 1;
    *lop_samples_at(&s, 1, 1) = 0.0 / 0.0;
    lop_run_meta_t m = meta();
    char sub[96];
    snprintf(sub, sizeof sub, "%s/nan", fixture_dir);
    mkdir(sub, 0700);
    ok(lop_samples_write(&s, &m, sub, 0) != LOP_OK, "a NaN sample fails the write: %s",
       lop_errmsg());
    char path[160];
    snprintf(path, sizeof path, "%s/send-normal-rtt.csv", sub);
    ok(access(path, F_OK) != 0, "... and leaves no file behind");
    snprintf(path, sizeof path, "rmdir %s", sub);
    ok(system(path) == 0, "... not even a temporary one");
    lop_samples_free(&s);
}

int main(void)
{
    if (fixture_dir_make("samples") != 0)
        return 1;
    test_summary();
    test_no_reference_outside_rtt();
    test_failures();
    fixture_dir_remove();
    return tap_done();
}
