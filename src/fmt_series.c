/* fmt_series.c - series files: name, columns, metadata, writers and reader
 * (fmt_series.h). */
#include "fmt_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model.h"

enum { RTT, OS, OR, OC, PRTT, EXCH, RING };
const char *const lop_fmt_series_quantities[LOP_FMT_SERIES_QUANTITIES + 1] = {
    "rtt", "os", "or", "oc", "prtt", "exch", "ring", NULL};
const char *const lop_fmt_series_stats[LOP_FMT_SERIES_STATS + 1] = {"min", "avg", "median", NULL};

/* RTT(p) = T(p)/p (the rtt definition below): the round is p times it. */
static double round_of_rtt(double p, double rtt)
{
    return p * rtt;
}

const lop_fmt_series_derived_t lop_fmt_series_derived[LOP_FMT_SERIES_DERIVED] = {
    {"round", "rtt", round_of_rtt}};

const lop_fmt_series_derived_t *lop_fmt_series_derived_find(const char *quantity)
{
    for (size_t i = 0; i < COUNT(lop_fmt_series_derived); i++)
        if (strcmp(quantity, lop_fmt_series_derived[i].quantity) == 0)
            return &lop_fmt_series_derived[i];
    return NULL;
}

/* What each quantity is, for the "# definition:" and "# p:" lines: of a
 * series whose op is 'op', or (op NULL) of any other. */
static const struct {
    int quantity; /* index into lop_fmt_series_quantities */
    const char *op;
    const char *p_means;
    const char *definition;
} definitions[] = {
    {RTT, "mcast", "ranks answering (the multicast reaches ranks 1..N-1)",
     "RTT(p) = (t4 - t1)/p: rank 0 posts one hardware multicast to ranks 1..N-1, ranks 1..p "
     "answer it with an RDMA write and rank 0 waits for the p answers (Kini et al. 3.3); "
     "p * RTT(p) = o_mc + L_mc(p) + the answers' t_p:1 (models/README.md)"},
    {OS, "mcast", "ranks answering (the multicast reaches ranks 1..N-1)",
     "o_mc = t2 - t1: rank 0's CPU time to post the one multicast of the round of RTT(p)"},
    {RTT, NULL, "peers addressed at once",
     "RTT(p) = (t4 - t1)/p: rank 0 sends one message to each of ranks 1..p and waits for "
     "all p replies (thesis 2.3.4, listing 2.12); the round's total time is p * RTT(p)"},
    {OS, NULL, "requests posted back to back",
     "o_s(p) = (t2 - t1)/p: rank 0's CPU time per request to post p send requests to rank 1 "
     "(thesis 2.3.4, listing 2.11)"},
    {OR, NULL, "requests posted back to back",
     "o_r(p) = (t1 - t0)/p: rank 1's CPU time per request to post p receive requests "
     "(thesis 2.3.4, listing 2.11)"},
    {PRTT, NULL, "messages sent back to back",
     "PRTT(k) = t2 - t1: rank 0 sends k messages back to back to rank 1, which replies once it "
     "has all k (netgauge's PRTT(k, 0, s), no idle gap), each k's rounds in a run of their "
     "own; PRTT(k) = PRTT(1) + (k - 1) g, LogP's gap g the slope"},
    {EXCH, NULL, "1 (one message each way at once)",
     "X(1) = t2 - t1: ranks 0 and 1 each send one message to the other and wait for the "
     "other's, rounds back to back (no idle gap); an exchange, as a round of bfly, pe or diss "
     "at P = 2 runs it"},
    {RING, NULL, "ranks in the ring (all the run's, P; one message each a round)",
     "R(P) = t2 - t1: each of the P ranks sends one message to the next, (r + 1) mod P, and "
     "waits for the previous one's, rounds back to back (no idle gap); no message is answered "
     "on its pair, as in a round of diss, so a transport acknowledges each apart"},
    {OC, NULL, "requests posted back to back",
     "(t3 - t2)/p: rank 0's time per request from the return of the p-th send post until "
     "all p send completions are polled (listing 2.11)"},
};

static const lop_out_col_t summary_cols[] = {
    {"p", LOP_OUT_INT, 0},         {"n", LOP_OUT_INT, 0},      {"min_us", LOP_OUT_NUM, 0},
    {"avg_us", LOP_OUT_NUM, 0},    {"median_us", LOP_OUT_NUM, 0}, {"p99_us", LOP_OUT_NUM, 0},
    {"max_us", LOP_OUT_NUM, 0},    {"stddev_us", LOP_OUT_NUM, 0},
};
static const lop_out_col_t raw_cols[] = {
    {"p", LOP_OUT_INT, 0}, {"rep", LOP_OUT_INT, 0}, {"us", LOP_OUT_NUM, 0}};

void lop_fmt_series_file_name(char *name, const char *series, const char *quantity, int raw)
{
    snprintf(name, LOP_FMT_SERIES_NAME_LEN, "%s-%s%s.csv", series, quantity, raw ? "-raw" : "");
}

/* The definition of quantity 'name' of a series "<op>-<post>", or -1. */
static int definition_index(const char *series, const char *name)
{
    size_t op_len = strcspn(series, "-");
    for (size_t i = 0; i < COUNT(definitions); i++)
        if (strcmp(lop_fmt_series_quantities[definitions[i].quantity], name) == 0 &&
            (!definitions[i].op || (strlen(definitions[i].op) == op_len &&
                                    strncmp(definitions[i].op, series, op_len) == 0)))
            return (int)i;
    return -1;
}

int lop_fmt_series_measured(const char *series, const char *quantity)
{
    return definition_index(series, quantity) >= 0;
}

/* ---------------------------------------------------------------- writers */

void lop_fmt_series_bench_meta(lop_csv_writer_t *w, const char *series, const char *quantity,
                               const lop_run_meta_t *run)
{
    int d = definition_index(series, quantity);
    size_t op_len = strcspn(series, "-");
    lop_csv_meta(w, "lopbench", "%s", LOP_VERSION);
    lop_csv_meta(w, "quantity", "%s", quantity);
    lop_csv_meta(w, "series", "%s", series);
    lop_csv_meta(w, "post", "%s", series[op_len] ? series + op_len + 1 : "");
    lop_csv_meta(w, "op", "%.*s", (int)op_len, series);
    lop_csv_meta(w, "definition", "%s", definitions[d].definition);
    lop_csv_meta(w, "p", "%s", definitions[d].p_means);
    lop_run_meta_write(w, run);
    char min[LOP_OUT_NUM_LEN], median[LOP_OUT_NUM_LEN], avg[LOP_OUT_NUM_LEN];
    if (run->have_reference && definitions[d].quantity == RTT) /* exact, like the cells */
        lop_csv_meta(w, "reference_pingpong_us", "min=%s median=%s avg=%s (plain "
                     "MPI_Send/MPI_Recv between ranks 0 and 1, same repetitions)",
                     lop_out_format_csv(min, run->reference.min),
                     lop_out_format_csv(median, run->reference.median),
                     lop_out_format_csv(avg, run->reference.mean));
}

void lop_fmt_series_synth_meta(lop_csv_writer_t *w, const char *series, const char *quantity)
{
    lop_csv_meta(w, "quantity", "%s", quantity);
    lop_csv_meta(w, "series", "%s", series);
    lop_csv_meta(w, "unit", "us");
}

lop_status_t lop_fmt_series_header(lop_out_t *t, lop_csv_writer_t *w, int raw)
{
    return raw ? lop_out_begin(t, w->file, w->path, 1, raw_cols, COUNT(raw_cols))
               : lop_out_begin(t, w->file, w->path, 1, summary_cols,
                               COUNT(summary_cols));
}

lop_status_t lop_fmt_series_row(lop_out_t *t, const lop_fmt_series_row_t *r)
{
    lop_out_int(t, r->p);
    if (r->n)
        lop_out_int(t, r->n);
    else
        lop_out_empty(t);
    const double v[] = {r->min, r->avg, r->median, r->p99, r->max, r->stddev};
    for (size_t i = 0; i < COUNT(v); i++)
        lop_out_num(t, v[i]);
    return lop_out_row(t);
}

lop_status_t lop_fmt_series_sample(lop_out_t *t, long p, long rep, double us)
{
    lop_out_int(t, p);
    lop_out_int(t, rep);
    lop_out_num(t, us);
    return lop_out_row(t);
}

/* ----------------------------------------------------------------- reader */

lop_status_t lop_fmt_series_read(const char *path, lop_fmt_series_t *f)
{
    memset(f, 0, sizeof *f);
    lop_status_t st = lop_csv_read(path, &f->csv);
    if (st)
        return st;
    size_t rep;
    if (lop_csv_column(f->csv, raw_cols[1].name, &rep) == LOP_OK) {
        lop_fmt_series_free(f);
        return lop_err(LOP_ERR_UNSUPPORTED, "%s: raw samples (lopbench --raw), skipped", path);
    }
    f->quantity = lop_csv_meta_get(f->csv, "quantity");
    if (f->quantity && f->quantity[0] == '\0')
        f->quantity = NULL;
    return LOP_OK;
}

/* "dir/send-normal-rtt.csv" with quantity rtt -> "send-normal": the file
 * name rule backwards. */
static void series_from_path(const char *path, const char *quantity, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base), q = strlen(quantity);
    if (n > 4 && strcmp(base + n - 4, ".csv") == 0)
        n -= 4;
    if (n > q + 1 && base[n - q - 1] == '-' && strncmp(base + n - q, quantity, q) == 0)
        n -= q + 1;
    snprintf(out, len, "%.*s", (int)n, base);
}

/* 's' into 'dst' of 'len' bytes: it must fit and, since it names output
 * files (lop-<series>-<stat>.csv, <series>-<quantity>.csv), follow the name
 * rule. */
static lop_status_t name_copy(const lop_csv_t *csv, const char *what, const char *s, char *dst,
                              size_t len)
{
    if (strlen(s) >= len || strchr(s, ','))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s '%s' is too long or contains a comma",
                       csv->path, csv->header_line, what, s);
    memcpy(dst, s, strlen(s) + 1);
    return LOP_OK;
}

static lop_status_t name_check(const lop_csv_t *csv, const char *what, const char *name)
{
    if (!lop_name_ok(name))
        return lop_err(LOP_ERR_PARSE, "%s:%zu: %s '%s' %s", csv->path, csv->header_line, what,
                       name, lop_name_rule);
    return LOP_OK;
}

lop_status_t lop_fmt_series_names(const lop_fmt_series_t *f, const char *quantity,
                                  char *quantity_out, size_t size, char series[LOP_NAME_SIZE])
{
    const char *given = lop_csv_meta_get(f->csv, "series");
    char from_path[256];
    if (!given || given[0] == '\0') {
        series_from_path(f->csv->path, quantity, from_path, sizeof from_path);
        given = from_path;
    }
    lop_status_t st = name_copy(f->csv, "quantity", quantity, quantity_out, size);
    st = st ? st : name_copy(f->csv, "series", given, series, LOP_NAME_SIZE);
    st = st ? st : name_check(f->csv, "series", series);
    return st ? st : name_check(f->csv, "quantity", quantity_out);
}

lop_status_t lop_fmt_series_columns(const lop_fmt_series_t *f, const char *stats,
                                    lop_fmt_series_cols_t *c)
{
    lop_status_t st = lop_csv_column(f->csv, summary_cols[0].name, &c->p);
    for (int s = 0; lop_fmt_series_stats[s] && st == LOP_OK; s++) {
        char name[32];
        snprintf(name, sizeof name, "%s_us", lop_fmt_series_stats[s]);
        if (lop_cli_list_has(stats, lop_fmt_series_stats[s]))
            st = lop_csv_column(f->csv, name, &c->us[s]);
    }
    return st;
}

/* Rows ordered by p, then by row. */
static const double *sort_p;

static int p_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, k = *(const size_t *)b;
    int c = (sort_p[i] > sort_p[k]) - (sort_p[i] < sort_p[k]);
    return c ? c : (i > k) - (i < k);
}

/* A repeated p: sort the row indices by p (n log n: a file may have 10^6
 * rows) and compare neighbours; names the later line of the first pair. */
static lop_status_t check_p_unique(const lop_csv_t *csv, const double *p)
{
    size_t *order = lop_calloc(csv->n_rows, sizeof *order);
    if (!order)
        return LOP_ERR_NOMEM;
    for (size_t r = 0; r < csv->n_rows; r++)
        order[r] = r;
    sort_p = p;
    qsort(order, csv->n_rows, sizeof *order, p_cmp);
    size_t later = csv->n_rows, earlier = 0;
    for (size_t i = 1; i < csv->n_rows; i++)
        if (p[order[i]] == p[order[i - 1]] && order[i] < later) {
            later = order[i];
            earlier = order[i - 1];
        }
    free(order);
    if (later == csv->n_rows)
        return LOP_OK;
    return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %g repeats line %zu", csv->path,
                   csv->line[later], p[later], csv->line[earlier]);
}

lop_status_t lop_fmt_series_p(const lop_fmt_series_t *f, size_t col, double *p)
{
    const lop_csv_t *csv = f->csv;
    for (size_t r = 0; r < csv->n_rows; r++) {
        lop_status_t st = lop_csv_number(csv, r, col, &p[r]);
        if (st)
            return st;
        if (!(p[r] >= 1)) /* p counts peers or requests */
            return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %g is not >= 1", csv->path,
                           csv->line[r], p[r]);
        if (p[r] != floor(p[r]))
            return lop_err(LOP_ERR_PARSE, "%s:%zu: p = %.17g is not a whole number", csv->path,
                           csv->line[r], p[r]);
    }
    return check_p_unique(csv, p);
}

/* Refused rather than rescaled (model.h, LOP_MODEL_TIME_MAX_US: 1e-300 us
 * was fitted with "SSR 0" 17 % off): a file holding them is broken, not a
 * case to fit. */
const char lop_fmt_series_time_why[] = "outside 1e-100..1e100 (a fit's sums of squares would "
                                       "under- or overflow)";

int lop_fmt_series_time_ok(double us)
{
    return us == 0 || (us >= LOP_MODEL_TIME_MIN_US && us <= LOP_MODEL_TIME_MAX_US);
}

lop_status_t lop_fmt_series_times(const lop_fmt_series_t *f, size_t col, double *us)
{
    const lop_csv_t *csv = f->csv;
    lop_status_t st = LOP_OK;
    for (size_t r = 0; r < csv->n_rows && st == LOP_OK; r++) {
        st = lop_csv_number(csv, r, col, &us[r]);
        if (st == LOP_OK && us[r] < 0) /* a time: a negative one is a broken file */
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': time %g is negative", csv->path,
                         csv->line[r], csv->columns[col], us[r]);
        if (st == LOP_OK && !lop_fmt_series_time_ok(us[r]))
            st = lop_err(LOP_ERR_PARSE, "%s:%zu: column '%s': time %g us is %s", csv->path,
                         csv->line[r], csv->columns[col], us[r], lop_fmt_series_time_why);
    }
    return st;
}

void lop_fmt_series_free(lop_fmt_series_t *f)
{
    lop_csv_free(f->csv);
    memset(f, 0, sizeof *f);
}
