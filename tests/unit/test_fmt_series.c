/* Series files (src/fmt_series.h): written as lopbench and lopfit --synth
 * write them, byte for byte, read back as lopfit reads them, and refused
 * naming file:line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "fmt_series.h"
#include "tap.h"

static lop_run_meta_t run_meta(void)
{
    lop_run_meta_t m = {.transport = "mpi", .transport_choice = "--transport mpi",
                        .device = "test device", .ranks = 3, .reps = 4, .warmup = 1,
                        .max_post = 2, .idle_us = 1000, .timer_calibration_s = 0.5,
                        .have_reference = 1};
    snprintf(m.timer, sizeof m.timer, "test timer");
    snprintf(m.date, sizeof m.date, "2026-01-01T00:00:00+0000");
    snprintf(m.host, sizeof m.host, "node1");
    m.reference.min = 1.5;
    m.reference.median = 2;
    m.reference.mean = 2.25;
    return m;
}

static const char bench_text[] =
    "# lopbench: " LOP_VERSION "\n# quantity: rtt\n# series: send-normal\n# post: normal\n"
    "# op: send\n# definition: RTT(p) = (t4 - t1)/p: rank 0 sends one message to each of ranks "
    "1..p and waits for all p replies (thesis 2.3.4, listing 2.12); the round's total time is "
    "p * RTT(p)\n# p: peers addressed at once\n# transport: mpi\n"
    "# transport_choice: --transport mpi\n# device: test device\n# ranks: 3\n"
    "# oversubscribed: no\n# repetitions: 4\n# warmup: 1\n# idle_us: 1000\n# max_post: 2\n"
    "# timer: test timer\n# timer_calibration_s: 0.5\n# date: 2026-01-01T00:00:00+0000\n"
    "# host: node1\n# hosts: unknown (not gathered)\n# unit: us\n"
    "# reference_pingpong_us: min=1.5 median=2 avg=2.25 (plain MPI_Send/MPI_Recv between ranks "
    "0 and 1, same repetitions)\n"
    "p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us\n"
    "1,4,1,2.5,2.5,3.97,4,1.25\n2,4,10,10,10,10,10,0\n";

static void written_as_lopbench(void)
{
    const lop_fmt_series_row_t rows[] = {{1, 4, 1, 2.5, 2.5, 3.97, 4, 1.25},
                                         {2, 4, 10, 10, 10, 10, 10, 0}};
    lop_run_meta_t m = run_meta();
    char name[LOP_FMT_SERIES_NAME_LEN], path[512];
    lop_fmt_series_file_name(name, "send-normal", "rtt", 0);
    ok(strcmp(name, "send-normal-rtt.csv") == 0, "file name <series>-<quantity>.csv: %s", name);
    snprintf(path, sizeof path, "%s", fixture_path(name));
    lop_csv_writer_t w;
    lop_out_t t;
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st == LOP_OK) {
        lop_fmt_series_bench_meta(&w, "send-normal", "rtt", &m);
        st = lop_fmt_series_header(&t, &w, 0);
        for (size_t i = 0; i < 2 && st == LOP_OK; i++)
            st = lop_fmt_series_row(&t, &rows[i]);
        lop_status_t end = lop_out_end(&t);
        st = lop_csv_writer_end(&w, st ? st : end);
    }
    char *text = fixture_file_text(path);
    ok(st == LOP_OK && strcmp(text, bench_text) == 0, "written as lopbench writes it:\n%s", text);
    free(text);
}

/* In a Slurm job, '# slurm:' follows '# hosts:' (README "Data formats");
 * outside one, no line at all; a variable Slurm left unset says so. */
static void slurm_line(void)
{
    lop_run_meta_t m = run_meta();
    unsetenv("SLURM_JOB_ID");
    lop_run_meta_slurm(&m);
    ok(m.slurm[0] == '\0', "no SLURM_JOB_ID: no slurm metadata");
    setenv("SLURM_JOB_ID", "42", 1);
    setenv("SLURM_JOB_NODELIST", "node[0-1]", 1);
    unsetenv("SLURM_JOB_PARTITION");
    lop_run_meta_slurm(&m);
    const char *path = fixture_path("slurm-rtt.csv");
    lop_csv_writer_t w;
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st == LOP_OK) {
        lop_run_meta_hosts_write(&w, &m);
        st = lop_csv_writer_end(&w, st);
    }
    char *text = fixture_file_text(path);
    ok(st == LOP_OK && text && strcmp(text, "# host: node1\n# hosts: unknown (not gathered)\n"
                                            "# slurm: job 42, nodes node[0-1], partition unknown\n") == 0,
       "SLURM_JOB_ID set: '# slurm:' after '# hosts:':\n%s", text ? text : "");
    free(text);
    unsetenv("SLURM_JOB_ID");
    unsetenv("SLURM_JOB_NODELIST");
}

static void read_back(void)
{
    lop_fmt_series_t f;
    char quantity[16], series[LOP_NAME_SIZE];
    lop_fmt_series_cols_t c;
    double p[2], us[2];
    lop_status_t st = lop_fmt_series_read(fixture_path("send-normal-rtt.csv"), &f);
    ok(st == LOP_OK && f.quantity && strcmp(f.quantity, "rtt") == 0, "read: quantity rtt");
    st = st ? st : lop_fmt_series_names(&f, f.quantity, quantity, sizeof quantity, series);
    ok(st == LOP_OK && strcmp(series, "send-normal") == 0 && strcmp(quantity, "rtt") == 0,
       "names: series send-normal, quantity rtt %s", st ? lop_errmsg() : "");
    st = st ? st : lop_fmt_series_columns(&f, "min,median", &c);
    st = st ? st : lop_fmt_series_p(&f, c.p, p);
    ok(st == LOP_OK && p[0] == 1 && p[1] == 2, "p column read");
    st = st ? st : lop_fmt_series_times(&f, c.us[2], us);
    ok(st == LOP_OK && us[0] == 2.5 && us[1] == 10, "median_us read back");
    lop_fmt_series_free(&f);
}

/* Without "# series:" the series is the file name less "-<quantity>.csv". */
static void series_from_name(void)
{
    fixture_file_write("rdmaw-inline-os.csv", "# quantity: os\np,min_us\n1,0.5\n");
    lop_fmt_series_t f;
    char quantity[16], series[LOP_NAME_SIZE];
    lop_status_t st = lop_fmt_series_read(fixture_path("rdmaw-inline-os.csv"), &f);
    st = st ? st : lop_fmt_series_names(&f, f.quantity, quantity, sizeof quantity, series);
    ok(st == LOP_OK && strcmp(series, "rdmaw-inline") == 0, "series from the file name: %s",
       st ? lop_errmsg() : series);
    lop_fmt_series_free(&f);
}

static void raw_and_synth(void)
{
    lop_csv_writer_t w;
    lop_out_t t;
    char name[LOP_FMT_SERIES_NAME_LEN], path[512];
    lop_fmt_series_file_name(name, "t-inline", "os", 1);
    snprintf(path, sizeof path, "%s", fixture_path(name));
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st == LOP_OK) {
        lop_fmt_series_synth_meta(&w, "t-inline", "os");
        st = lop_fmt_series_header(&t, &w, 1);
        st = st ? st : lop_fmt_series_sample(&t, 1, 1, 0.25);
        lop_status_t end = lop_out_end(&t);
        st = lop_csv_writer_end(&w, st ? st : end);
    }
    char *text = fixture_file_text(path);
    ok(st == LOP_OK && strcmp(name, "t-inline-os-raw.csv") == 0 &&
           strcmp(text, "# quantity: os\n# series: t-inline\n# unit: us\np,rep,us\n1,1,0.25\n") == 0,
       "a raw file, t-inline-os-raw.csv:\n%s", text);
    free(text);
    lop_fmt_series_t f;
    ok(lop_fmt_series_read(path, &f) == LOP_ERR_UNSUPPORTED && strstr(lop_errmsg(), "raw samples"),
       "is skipped by the reader: %s", lop_errmsg());
    ok(lop_fmt_series_measured("send-normal", "oc") && lop_fmt_series_measured("mcast-normal", "os") &&
           !lop_fmt_series_measured("send-normal", "latency"),
       "lopbench measures oc and mcast's os, not 'latency'");
}

/* One bad line each, refused naming file:line. */
static void refused(void)
{
    static const struct {
        const char *name, *text, *want;
    } bad[] = {
        {"twice.csv", "p,avg_us\n1,1\n2,1\n2,1\n", "twice.csv:4: p = 2 repeats line 3"},
        {"neg.csv", "p,avg_us\n1,1\n2,-1\n", "neg.csv:3: column 'avg_us': time -1 is negative"},
        {"half.csv", "p,avg_us\n1,1\n1.5,1\n", "half.csv:3: p = 1.5 is not a whole number"},
    };
    for (size_t i = 0; i < COUNT(bad); i++) {
        fixture_file_write(bad[i].name, bad[i].text);
        lop_fmt_series_t f;
        lop_fmt_series_cols_t c;
        double p[3], us[3];
        lop_status_t st = lop_fmt_series_read(fixture_path(bad[i].name), &f);
        st = st ? st : lop_fmt_series_columns(&f, "avg", &c);
        st = st ? st : lop_fmt_series_p(&f, c.p, p);
        st = st ? st : lop_fmt_series_times(&f, c.us[1], us);
        ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), bad[i].want), "refused: %s", lop_errmsg());
        lop_fmt_series_free(&f);
    }
    fixture_file_write("a,b-os.csv", "# quantity: os\np,avg_us\n1,1\n");
    lop_fmt_series_t f;
    char quantity[16], series[LOP_NAME_SIZE];
    lop_status_t st = lop_fmt_series_read(fixture_path("a,b-os.csv"), &f);
    st = st ? st : lop_fmt_series_names(&f, f.quantity, quantity, sizeof quantity, series);
    ok(st == LOP_ERR_PARSE && strstr(lop_errmsg(), "a,b-os.csv:2: series 'a,b' is too long or "
                                     "contains a comma"), "a series that cannot name files: %s",
       lop_errmsg());
    lop_fmt_series_free(&f);
}

/* The round of scenario 2 is derived from the rtt file, p times its value:
 * no series file of its own, so neither a series quantity nor measured. */
static void derived(void)
{
    const lop_fmt_series_derived_t *d = lop_fmt_series_derived_find("round");
    ok(d && strcmp(d->from, "rtt") == 0 && d->value(4, 67.5) == 270,
       "round: from rtt, p * RTT(p) (4 * 67.5 = 270)");
    int in_series = 0;
    for (int q = 0; lop_fmt_series_quantities[q]; q++)
        in_series |= strcmp(lop_fmt_series_quantities[q], "round") == 0;
    ok(!in_series && !lop_fmt_series_measured("send-normal", "round") &&
           !lop_fmt_series_derived_find("rtt"),
       "round is no series file's quantity, rtt no derived one");
}

int main(void)
{
    fixture_dir_make("fmt-series");
    written_as_lopbench();
    slurm_line();
    read_back();
    series_from_name();
    raw_and_synth();
    refused();
    derived();
    fixture_dir_remove();
    return tap_done();
}
