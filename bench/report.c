/* report.c - lopbench's stdout for the scenarios, --barrier and --pairs (report.h). */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt_barrier.h"
#include "out.h"

/* ---------------------------------------------------------------- barrier */

/* MPI_Barrier's average at p under the same condition (0: not measured). */
static double mpi_barrier_us(const lop_barrier_report_t *r, const lop_barrier_row_t *row)
{
    for (size_t i = 0; i < r->n_row; i++)
        if (r->row[i].p == row->p && !r->row[i].exec->transport &&
            strcmp(r->row[i].condition, row->condition) == 0)
            return r->row[i].res.avg_us;
    return 0;
}

static const lop_out_col_t times_cols[] = {
    {"exec", LOP_OUT_STR, 0},      {"alg", LOP_OUT_STR, 0},       {"n", LOP_OUT_INT, 0},
    {"p", LOP_OUT_INT, 0},         {"avg_us", LOP_OUT_NUM, 3},    {"min_us", LOP_OUT_NUM, 3},
    {"median_us", LOP_OUT_NUM, 3}, {"p99_us", LOP_OUT_NUM, 3},
    {"avg / MPI_Barrier", LOP_OUT_NUM, 2},
    /* --congest only: */
    {"condition", LOP_OUT_STR, 0}, {"impact_avg", LOP_OUT_NUM, 2}, {"impact_p99", LOP_OUT_NUM, 2},
};
enum { CONGEST_COLS = 3 };

/* --congest: the condition and the impact factors (over the isolated twin). */
static void congest_cells(lop_out_t *t, const lop_barrier_report_t *r,
                          const lop_barrier_row_t *row)
{
    double avg, p99;
    lop_barrier_impact(r, row, &avg, &p99);
    lop_out_str(t, row->condition);
    lop_out_num(t, avg);
    lop_out_num(t, p99);
}

static lop_status_t times_print(const lop_barrier_mode_t *m, const lop_barrier_report_t *r)
{
    lop_out_t t;
    printf("lopbench %s --barrier: %d ranks%s, %ld barriers each (after %ld warm-up), timer %s\n",
           LOP_VERSION, m->size, m->oversubscribed ? " (oversubscribed: times include "
           "sharing a core)" : "", m->opts->reps, m->opts->warmup, m->meta->timer);
    int congest = r->congest[0] != '\0';
    if (congest)
        printf("background traffic: %s\n  cores: %s\n  traffic: %s\n", r->congest, r->cores,
               r->traffic);
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", 0, times_cols,
                                    COUNT(times_cols) - (congest ? 0 : CONGEST_COLS));
    for (size_t i = 0; i < r->n_row && st == LOP_OK; i++) {
        const lop_barrier_row_t *row = &r->row[i];
        double base = mpi_barrier_us(r, row);
        lop_out_str(&t, row->exec->name);
        lop_out_str(&t, row->alg);
        if (row->n) /* empty when the algorithm takes none, as in lopredict's tables */
            lop_out_int(&t, row->n);
        else
            lop_out_empty(&t);
        lop_out_int(&t, row->p);
        lop_out_num(&t, row->res.avg_us);
        lop_out_num(&t, row->res.iter.min);
        lop_out_num(&t, row->res.iter.median);
        lop_out_num(&t, row->res.iter.p99);
        lop_out_num(&t, base > 0 ? row->res.avg_us / base : NAN);
        if (congest)
            congest_cells(&t, r, row);
        st = lop_out_row(&t);
    }
    return st ? st : lop_out_end(&t);
}

/* --check: one verdict per run. */
static void checks_print(const lop_barrier_report_t *r)
{
    for (size_t i = 0; i < r->n_row; i++) {
        const lop_barrier_row_t *row = &r->row[i];
        char n[16] = "-";
        if (row->n)
            snprintf(n, sizeof n, "%u", row->n);
        char mcast[400] = "";
        if (row->res.mcast) {
            memcpy(mcast, "; ", 3);
            lop_barrier_mcast_counts_str(&row->res.mcast_counts, mcast + 2, sizeof mcast - 2);
        }
        printf("check %-6s %-12s n=%-3s p=%-5u %s (%ld exits, %ld early%s)\n", row->exec->name,
               row->alg, n, row->p, row->res.violations ? "FAILED" : "ok", row->res.checked,
               row->res.violations, mcast);
    }
}

lop_status_t report_barrier_print(const lop_barrier_mode_t *m, const lop_barrier_report_t *r,
                                  lop_status_t st)
{
    lop_status_t printed = LOP_OK;
    if (!r->measured)
        return LOP_OK;
    if (m->opts->check) {
        checks_print(r);
        if (st == LOP_OK)
            printf("--check: all %zu runs ok (%s witness)\n", r->n_row, r->witness);
    } else {
        printed = times_print(m, r); /* the measurements, even if barrier.csv failed */
        if (st == LOP_OK && r->congest[0])
            printf("wrote %s/" LOP_FMT_BARRIER_NAME ", " LOP_FMT_BARRIER_CONGESTED_NAME ", "
                   LOP_FMT_BARRIER_HIST_NAME "\n", m->outdir);
        else if (st == LOP_OK)
            printf("wrote %s/" LOP_FMT_BARRIER_NAME ", " LOP_FMT_BARRIER_HIST_NAME "\n",
                   m->outdir);
    }
    if (fflush(stdout) != 0 && printed == LOP_OK) /* now, while errno says why */
        printed = lop_err(LOP_ERR_IO, "error writing standard output: %s", strerror(errno));
    return printed;
}

/* -------------------------------------------------------------- scenarios */

static const lop_out_col_t summary_cols[] = {
    {"series", LOP_OUT_STR, 0},        {"qty", LOP_OUT_STR, 0},
    {"median_us(1)", LOP_OUT_NUM, 3},  {"min_us(1)", LOP_OUT_NUM, 3},
    {"p", LOP_OUT_INT, 0},             {"median_us(p)", LOP_OUT_NUM, 3},
    {"min_us(p)", LOP_OUT_NUM, 3},
};

lop_status_t report_scenarios_print(const lop_run_meta_t *meta, const report_series_t *rows,
                                    int n, const lop_stats_t *send_rtt, const char *outdir)
{
    lop_out_t t;
    printf("lopbench %s: %s transport, %d ranks%s, %ld repetitions, timer %s\n", LOP_VERSION,
           meta->transport, meta->ranks, meta->oversubscribed ? " (oversubscribed)" : "",
           meta->reps, meta->timer);
    printf("  device: %s\n", meta->device);
    if (meta->congest)
        printf("  background traffic: %s\n  cores: %s\n  traffic: %s\n", meta->congest,
               meta->congest_cores, meta->congest_traffic);
    printf("times in us per message, rounded (the files hold every digit):\n");
    lop_status_t st = lop_out_begin(&t, stdout, "standard output", 0, summary_cols,
                                    COUNT(summary_cols));
    for (int i = 0; i < n && st == LOP_OK; i++) {
        const report_series_t *row = &rows[i];
        int more = row->n_p > 1;
        lop_out_str(&t, row->series);
        lop_out_str(&t, row->quantity);
        lop_out_num(&t, row->first.median);
        lop_out_num(&t, row->first.min);
        lop_out_int(&t, (long long)row->n_p);
        lop_out_num(&t, more ? row->last.median : NAN);
        lop_out_num(&t, more ? row->last.min : NAN);
        st = lop_out_row(&t);
    }
    st = st ? st : lop_out_end(&t);
    if (send_rtt && meta->have_reference)
        printf("RTT(1) of send-normal vs a plain MPI_Send/MPI_Recv ping-pong: median %.4g vs "
               "%.4g us, min %.4g vs %.4g us\n", send_rtt->median, meta->reference.median,
               send_rtt->min, meta->reference.min);
    printf("files in %s/\n", outdir);
    return st;
}

/* ------------------------------------------------------------------ pairs */

enum { SHOW_MAX = 8 }; /* matrices are printed up to this many ranks */

/* The matrix of one quantity (o or L, the chosen statistic). */
static void matrix_print(const char *what, const char *stat, const double *v, int P)
{
    printf("  %s_us (%s; row i sends to column j):\n      ", what, stat);
    for (int j = 0; j < P; j++)
        printf(" %8d", j);
    printf("\n");
    for (int i = 0; i < P; i++) {
        printf("  %3d ", i);
        for (int j = 0; j < P; j++) {
            double x = v[(size_t)i * (size_t)P + (size_t)j];
            if (isnan(x))
                printf(" %8s", "-");
            else
                printf(" %8.3f", x);
        }
        printf("\n");
    }
}

void report_pairs_print(const lop_pairs_mode_t *m, const lop_pairs_report_t *r)
{
    const lop_run_meta_t *meta = m->meta;
    const char *stat = lop_pairs_stats[m->opts->pairs_stat];
    printf("lopbench %s --pairs: %s transport, %d ranks%s, %ld repetitions, %s\n", LOP_VERSION,
           meta->transport, meta->ranks, meta->oversubscribed ? " (oversubscribed)" : "",
           meta->reps, m->opts->pairs_sample ? "sampled: one pair per placement class"
                                             : "every ordered pair");
    printf("times in us, rounded (the files hold every digit; values below 0 are noise "
           "or a line's intercept, written as 0 in o_us and L_us):\n");
    for (int f = 0; f < r->n_file; f++) {
        printf("%s (%s):\n", r->file[f].name, r->file[f].series);
        if (r->P > SHOW_MAX) {
            printf("  (%d ranks: see the file)\n", r->P);
            continue;
        }
        matrix_print("o", stat, r->file[f].o_us, r->P);
        matrix_print("L", stat, r->file[f].L_us, r->P);
    }
    printf("files in %s/\n", m->outdir);
}
