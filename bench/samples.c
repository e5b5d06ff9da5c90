/* samples.c - sample storage and lopbench's CSV files (samples.h). */
#include "samples.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "out.h"

/* What each quantity is, for the "# definition:" and "# p:" lines: of a
 * series whose op is 'op', or (op NULL) of any other. */
static const struct {
    const char *name;
    const char *op;
    const char *p_means;
    const char *definition;
} quantities[] = {
    {"rtt", "mcast", "ranks answering (the multicast reaches ranks 1..N-1)",
     "RTT(p) = (t4 - t1)/p: rank 0 posts one hardware multicast to ranks 1..N-1, ranks 1..p "
     "answer it with an RDMA write and rank 0 waits for the p answers (Kini et al. 3.3); "
     "p * RTT(p) = o_mc + L_mc(p) + the answers' t_p:1 (models/README.md)"},
    {"os", "mcast", "ranks answering (the multicast reaches ranks 1..N-1)",
     "o_mc = t2 - t1: rank 0's CPU time to post the one multicast of the round of RTT(p)"},
    {"rtt", NULL, "peers addressed at once",
     "RTT(p) = (t4 - t1)/p: rank 0 sends one message to each of ranks 1..p and waits for "
     "all p replies (thesis 2.3.4, listing 2.12); the round's total time is p * RTT(p)"},
    {"os", NULL, "requests posted back to back",
     "o_s(p) = (t2 - t1)/p: rank 0's CPU time per request to post p send requests to rank 1 "
     "(thesis 2.3.4, listing 2.11)"},
    {"or", NULL, "requests posted back to back",
     "o_r(p) = (t1 - t0)/p: rank 1's CPU time per request to post p receive requests "
     "(thesis 2.3.4, listing 2.11)"},
    {"prtt", NULL, "messages sent back to back",
     "PRTT(k) = t2 - t1: rank 0 sends k messages back to back to rank 1, which replies once it "
     "has all k (netgauge's PRTT(k, 0, s), no idle gap); PRTT(k) = PRTT(1) + (k - 1) g, "
     "LogP's gap g the slope"},
    {"oc", NULL, "requests posted back to back",
     "(t3 - t2)/p: rank 0's time per request from the return of the p-th send post until "
     "all p send completions are polled (listing 2.11)"},
};

/* The row of quantity 'name' of a series "<op>-<post>". */
static int quantity_index(const char *name, const char *series)
{
    size_t op_len = strcspn(series, "-");
    for (size_t i = 0; i < sizeof quantities / sizeof quantities[0]; i++)
        if (strcmp(quantities[i].name, name) == 0 &&
            (!quantities[i].op || (strlen(quantities[i].op) == op_len &&
                                   strncmp(quantities[i].op, series, op_len) == 0)))
            return (int)i;
    return -1;
}

lop_status_t lop_samples_init(lop_samples_t *s, const char *series, const char *quantity,
                              size_t n_p, size_t reps)
{
    memset(s, 0, sizeof *s);
    if (quantity_index(quantity, series) < 0)
        return lop_err(LOP_ERR_INVALID, "unknown quantity '%s'", quantity);
    snprintf(s->series, sizeof s->series, "%s", series);
    s->quantity = quantity;
    s->n_p = n_p;
    s->reps = reps;
    s->us = lop_calloc(n_p * reps, sizeof *s->us);
    return s->us ? LOP_OK : LOP_ERR_NOMEM;
}

void lop_samples_free(lop_samples_t *s)
{
    free(s->us);
    s->us = NULL;
}

lop_status_t lop_samples_stats(const lop_samples_t *s, size_t p, lop_stats_t *out)
{
    double *copy = lop_calloc(s->reps, sizeof *copy);
    if (!copy)
        return LOP_ERR_NOMEM;
    memcpy(copy, &s->us[(p - 1) * s->reps], s->reps * sizeof *copy);
    lop_status_t st = lop_stats_compute(copy, s->reps, out);
    free(copy);
    if (st != LOP_OK)
        return lop_err(st, "%s-%s p=%zu: %s", s->series, s->quantity, p, lop_errmsg());
    return LOP_OK;
}

static void write_meta(lop_csv_writer_t *w, const lop_samples_t *s, const lop_run_meta_t *m)
{
    int q = quantity_index(s->quantity, s->series);
    char op[LOP_NAME_SIZE];
    snprintf(op, sizeof op, "%s", s->series);
    char *dash = strchr(op, '-');
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "%s", s->quantity);
    lop_csv_meta(w, "series", "%s", s->series);
    lop_csv_meta(w, "post", "%s", dash ? dash + 1 : "");
    if (dash)
        *dash = '\0';
    lop_csv_meta(w, "op", "%s", op);
    lop_csv_meta(w, "definition", "%s", quantities[q].definition);
    lop_csv_meta(w, "p", "%s", quantities[q].p_means);
    lop_run_meta_write(w, m);
    char min[LOP_OUT_NUM_LEN], median[LOP_OUT_NUM_LEN], avg[LOP_OUT_NUM_LEN];
    if (m->have_reference && strcmp(s->quantity, "rtt") == 0) /* exact, like the cells */
        lop_csv_meta(w, "reference_pingpong_us", "min=%s median=%s avg=%s (plain "
                     "MPI_Send/MPI_Recv between ranks 0 and 1, same repetitions)",
                     lop_out_format_csv(min, m->reference.min),
                     lop_out_format_csv(median, m->reference.median),
                     lop_out_format_csv(avg, m->reference.mean));
}

static const lop_out_col_t summary_cols[] = {
    {"p", LOP_OUT_INT, 0},         {"n", LOP_OUT_INT, 0},      {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},    {"median_us", LOP_OUT_NUM, 0}, {"p99_us", LOP_OUT_NUM, 0},
    {"max_us", LOP_OUT_NUM, 0},    {"stddev_us", LOP_OUT_NUM, 0},
};
static const lop_out_col_t raw_cols[] = {
    {"p", LOP_OUT_INT, 0}, {"rep", LOP_OUT_INT, 0}, {"us", LOP_OUT_NUM, 0}};

/* Summary row p: the statistics of its samples. */
static lop_status_t summary_row(lop_out_t *o, const lop_samples_t *s, size_t p)
{
    lop_stats_t t;
    lop_status_t st = lop_samples_stats(s, p, &t);
    if (st)
        return st;
    lop_out_int(o, (long long)p);
    lop_out_int(o, (long long)t.n);
    const double v[] = {t.min, t.mean, t.median, t.p99, t.max, t.stddev};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        lop_out_num(o, v[i]);
    return lop_out_row(o);
}

/* Raw rows of p: every sample in measurement order. */
static lop_status_t raw_rows(lop_out_t *o, const lop_samples_t *s, size_t p)
{
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < s->reps && st == LOP_OK; r++) {
        lop_out_int(o, (long long)p);
        lop_out_int(o, (long long)r + 1);
        lop_out_num(o, s->us[(p - 1) * s->reps + r]);
        st = lop_out_row(o);
    }
    return st;
}

void lop_samples_file_name(char *name, const char *series, const char *quantity, int raw)
{
    snprintf(name, LOP_SAMPLES_NAME_LEN, "%s-%s%s.csv", series, quantity, raw ? "-raw" : "");
}

static lop_status_t write_file(const lop_samples_t *s, const lop_run_meta_t *meta, int raw,
                               const char *dir)
{
    char path[4096], name[LOP_SAMPLES_NAME_LEN];
    lop_samples_file_name(name, s->series, s->quantity, raw);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lop_csv_writer_t w;
    lop_out_t o;
    lop_status_t st = lop_csv_writer_open(&w, path);
    if (st != LOP_OK)
        return st;
    write_meta(&w, s, meta);
    st = raw ? lop_out_begin(&o, w.file, w.path, 1, raw_cols, 3)
             : lop_out_begin(&o, w.file, w.path, 1, summary_cols, 8);
    if (st)
        return lop_csv_writer_end(&w, st);
    for (size_t p = 1; p <= s->n_p && st == LOP_OK; p++)
        st = raw ? raw_rows(&o, s, p) : summary_row(&o, s, p);
    lop_status_t end = lop_out_end(&o);
    return lop_csv_writer_end(&w, st ? st : end);
}

lop_status_t lop_samples_write(const lop_samples_t *s, const lop_run_meta_t *meta,
                               const char *dir, int raw)
{
    lop_status_t st = write_file(s, meta, 0, dir);
    if (st == LOP_OK && raw)
        st = write_file(s, meta, 1, dir);
    return st;
}

/* Can files be made in the existing directory 'path'?  A probe file where
 * it exists (root passes access(); a read-only mount or a full quota does
 * not pass a real file). */
static lop_status_t dir_writable(const char *path)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.lopbench-probe.XXXXXX", path);
    int fd = mkstemp(probe);
    if (fd < 0)
        return lop_err(LOP_ERR_IO, "option --output: cannot write in '%s': %s", path,
                       strerror(errno));
    close(fd);
    unlink(probe);
    return LOP_OK;
}

lop_status_t lop_outdir_prepare(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return lop_err(LOP_ERR_INVALID, "option --output: directory name too long");
    /* The deepest part of 'dir' that exists: the directory is made only when
     * the files are written (lop_outdir_begin), so a run stopped before,
     * even by SIGKILL, leaves no directory behind. */
    for (;;) {
        struct stat sb;
        if (stat(path[0] ? path : ".", &sb) == 0) {
            if (!S_ISDIR(sb.st_mode))
                return lop_err(LOP_ERR_IO, "option --output: cannot create directory '%s': "
                               "'%s' is not a directory", dir, path);
            return dir_writable(path[0] ? path : ".");
        }
        if (errno != ENOENT)
            return lop_err(LOP_ERR_IO, "option --output: cannot create directory '%s': %s: %s",
                           dir, path, strerror(errno));
        char *slash = strrchr(path, '/');
        while (slash && slash > path && slash[-1] == '/')
            slash--;
        if (!slash)
            path[0] = '\0';
        else
            slash[slash == path] = '\0'; /* "/x" leaves "/" */
    }
}
