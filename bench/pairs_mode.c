/* pairs_mode.c - lopbench --pairs: o and L of every ordered pair (pairs_mode.h). */
#include "pairs_mode.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fmt_pairs.h"
#include "model.h"
#include "mpisync.h"
#include "out.h"
#include "placement.h"

#define PROG "lopbench"

enum {
    TAG_ISSEND = 2310,
    N_SIZES = 21,   /* issend o: 1, 2, 4 .. 2^20 bytes (the paper's range) */
    MAX_MSGS = 32,  /* issend L: k = 1..32 messages (the paper's) */
    MAX_FILES = 1 + LOP_OP_COUNT * LOP_POST_COUNT,
    N_STAT = LOP_PAIRS_STAT_COUNT,
    MAX_CLASSES = 16, /* lop_placement_class() values */
    SHOW_MAX = 8      /* the summary prints matrices up to this many ranks */
};

/* What each method's o and L are ("# definition:" of its files). */
#define ISSEND_DEFINITION                                                                   \
    "Meyer and Elster IV.A over MPI: o = intercept of the least-squares line of the time of " \
    "one MPI_Issend (+ wait) against its size 1..2^20 bytes; L = slope of the line of the "  \
    "time of k zero-byte MPI_Issend (+ waitall) against k = 1..32; each point a statistic "   \
    "over the repetitions, a line per statistic; the receiver has posted its receives (a "    \
    "barrier of the pair before each sample); diagonal: o = time of P MPI_Issend to "         \
    "MPI_PROC_NULL + waitall, no L"
#define SERIES_DEFINITION                                                                   \
    "lop's series over the transport on a two-rank view of the pair: o = o_s(1) (scenario "  \
    "1, k = 1), rtt = RTT(1) (scenario 2, p = 1), L = RTT(1)/2 - 2 o_s(1) (thesis 2.3.4), "   \
    "per statistic"

/* What one ordered pair measured: per statistic, o and L (and the series'
 * RTT(1); NaN for issend). */
typedef struct {
    double o[N_STAT], L[N_STAT], rtt[N_STAT];
} cost_t;

/* One output file: a method, for series an (op, post). */
typedef struct {
    lop_pairs_method_t method;
    lop_op_t op;
    lop_post_t post;
    char series[32]; /* "issend" or "<op>-<post>" */
    cost_t *cost;    /* rank 0: [i * P + j] */
    int *src;        /* rank 0: [i * P + j] the measured pair it comes from, -1 none */
} pfile_t;

/* A sender's report of a round: its pair (i = -1: none) and a cost per file. */
typedef struct {
    int i, j;
    cost_t c[MAX_FILES];
} report_t;

typedef struct {
    lop_pairs_mode_t *m;
    lop_bench_t *b;
    int P;
    pfile_t file[MAX_FILES];
    int n_file;
    lop_placement_t pl;
    unsigned char *sendbuf, *recvbuf; /* issend payloads, 2^(N_SIZES-1) bytes */
    double *scratch;                  /* reps samples of one point */
    MPI_Request *req;                 /* max(P, MAX_MSGS) requests */
    int n_rounds;
    int rep_i[MAX_CLASSES], rep_j[MAX_CLASSES]; /* --pairs-sample: a pair per class */
    unsigned rep_class[MAX_CLASSES];
    int n_classes;
    char mpi_lib[MPI_MAX_LIBRARY_VERSION_STRING];
} session_t;

/* ------------------------------------------------------------- the plan */

static void plan_files(session_t *s)
{
    const lop_bench_opts_t *o = s->m->opts;
    lop_transport_t *t = s->b->tp;
    if (o->methods >> LOP_PAIRS_ISSEND & 1)
        s->file[s->n_file++] = (pfile_t){.method = LOP_PAIRS_ISSEND, .series = "issend"};
    for (int op = 0; op < LOP_OP_COUNT && (o->methods >> LOP_PAIRS_SERIES & 1); op++)
        for (int post = 0; post < LOP_POST_COUNT; post++) {
            if (!(o->ops >> op & 1) || !(o->posts >> post & 1) || !lop_post_desc[post].in_rtt)
                continue;
            const char *why = t->ops->why_not(t, (lop_op_t)op, (lop_post_t)post);
            int skip = why != NULL;
            MPI_Bcast(&skip, 1, MPI_INT, 0, s->b->comm); /* rank 0's view decides */
            pfile_t *f = &s->file[s->n_file];
            *f = (pfile_t){.method = LOP_PAIRS_SERIES, .op = (lop_op_t)op, .post = (lop_post_t)post};
            snprintf(f->series, sizeof f->series, "%s-%s", lop_op_desc[op].name,
                     lop_post_desc[post].name);
            if (skip)
                lop_bench_note(o, s->b->rank, "skipping %s: %s", f->series,
                               why ? why : "not measurable on rank 0");
            else
                s->n_file++;
        }
}

/* --pairs-sample: the first pair (i < j, row by row) of every class. */
static void plan_classes(session_t *s)
{
    for (int i = 0; i < s->P; i++)
        for (int j = i + 1; j < s->P; j++) {
            unsigned c = lop_placement_class(&s->pl, i, j);
            int k = 0;
            while (k < s->n_classes && s->rep_class[k] != c)
                k++;
            if (k < s->n_classes)
                continue;
            s->rep_class[k] = c;
            s->rep_i[k] = i;
            s->rep_j[k] = j;
            s->n_classes++;
        }
}

/* The rank 'me' meets in round r, or -1 (a bye, or not in the round's pair).
 * Circle method over n = P rounded up to even players: in round r the
 * players x and (2r - x) mod (n - 1) meet, and r meets player n - 1; with P
 * odd, player n - 1 = P is nobody, so its partner rests. */
static int partner(const session_t *s, int r, int me)
{
    if (s->m->opts->pairs_sample)
        return me == s->rep_i[r] ? s->rep_j[r] : me == s->rep_j[r] ? s->rep_i[r] : -1;
    int n = s->P + (s->P & 1);
    int other = me == n - 1 ? r : me == r ? n - 1 : ((2 * r - me) % (n - 1) + (n - 1)) % (n - 1);
    return other < s->P ? other : -1;
}

static lop_status_t session_alloc(session_t *s)
{
    size_t P = (size_t)s->P, n_req = P > MAX_MSGS ? P : MAX_MSGS;
    s->sendbuf = lop_calloc((size_t)1 << (N_SIZES - 1), 1);
    s->recvbuf = lop_calloc((size_t)1 << (N_SIZES - 1), 1);
    s->scratch = lop_calloc((size_t)s->m->opts->reps, sizeof *s->scratch);
    s->req = lop_calloc(n_req, sizeof *s->req);
    int ok = s->sendbuf && s->recvbuf && s->scratch && s->req;
    for (int f = 0; f < s->n_file && ok && s->b->rank == 0; f++) {
        s->file[f].cost = lop_calloc(P * P, sizeof *s->file[f].cost);
        s->file[f].src = lop_calloc(P * P, sizeof *s->file[f].src);
        ok = s->file[f].cost && s->file[f].src;
        for (size_t k = 0; k < P * P && ok; k++)
            s->file[f].src[k] = -1;
    }
    return ok ? LOP_OK : LOP_ERR_NOMEM;
}

static void session_free(session_t *s)
{
    free(s->sendbuf);
    free(s->recvbuf);
    free(s->scratch);
    free(s->req);
    for (int f = 0; f < s->n_file; f++) {
        free(s->file[f].cost);
        free(s->file[f].src);
    }
    lop_placement_free(&s->pl);
}

/* ----------------------------------------------------- issend (the paper) */

/* min, avg, median of the samples in s->scratch (reordered). */
static lop_status_t point_stats(session_t *s, double *stat)
{
    lop_stats_t t;
    lop_status_t st = lop_stats_compute(s->scratch, (size_t)s->m->opts->reps, &t);
    stat[LOP_PAIRS_MIN] = t.min;
    stat[LOP_PAIRS_AVG] = t.mean;
    stat[LOP_PAIRS_MEDIAN] = t.median;
    return st;
}

/* One sample: the receiver posts 'count' receives of 'bytes', both meet in
 * the pair's barrier (so the receiver is ready, as in the paper's equation
 * 2), the sender times 'count' MPI_Issend and their completion. */
static lop_status_t issend_sample(session_t *s, MPI_Comm pair, int sender, int receiver,
                                  int count, int bytes, double *us)
{
    lop_bench_t *b = s->b;
    lop_poll_t *poll = &b->tp->poll;
    char what[160];
    int me_sends = b->rank == sender;
    for (int k = 0; k < count && !me_sends; k++)
        MPI_Irecv(s->recvbuf, bytes, MPI_BYTE, sender, TAG_ISSEND, b->comm, &s->req[k]);
    lop_status_t st = lop_mpi_barrier(pair, poll);
    if (st != LOP_OK)
        return st;
    if (!me_sends) {
        snprintf(what, sizeof what, "%d MPI_Issend of %d bytes from rank %d on %.64s", count,
                 bytes, sender, lop_mpi_host_of(sender));
        return lop_mpi_wait_all(count, s->req, poll, what);
    }
    snprintf(what, sizeof what, "%d MPI_Issend of %d bytes to rank %d on %.64s to complete",
             count, bytes, receiver, lop_mpi_host_of(receiver));
    uint64_t t0 = lop_timer_now(b->timer);
    for (int k = 0; k < count; k++)
        MPI_Issend(s->sendbuf, bytes, MPI_BYTE, receiver, TAG_ISSEND, b->comm, &s->req[k]);
    st = lop_mpi_wait_all(count, s->req, poll, what);
    *us = lop_timer_us(b->timer, lop_timer_now(b->timer) - t0);
    return st;
}

/* A sample point: warm-up, then --reps samples; their statistics on the
 * sender ('sender' is the rank that times, 'peer' the other one). */
static lop_status_t issend_point(session_t *s, MPI_Comm pair, int sender, int peer, int count,
                                 int bytes, double *stat)
{
    const lop_bench_opts_t *o = s->m->opts;
    int me_sends = s->b->rank == sender;
    lop_status_t st = LOP_OK;
    for (long rep = -o->warmup; rep < o->reps && st == LOP_OK; rep++) {
        double us = 0;
        st = issend_sample(s, pair, sender, peer, count, bytes, &us);
        if (rep >= 0)
            s->scratch[rep] = us;
        lop_watchdog_beat();
    }
    return st == LOP_OK && me_sends ? point_stats(s, stat) : st;
}

/* The least-squares line through (x[k], y[k][stat]) for each statistic. */
static void fit_lines(const double *x, double (*y)[N_STAT], int n, double *intercept,
                      double *slope)
{
    for (int st = 0; st < N_STAT; st++) {
        double yy[MAX_MSGS > N_SIZES ? MAX_MSGS : N_SIZES], cov00, cov01, cov11, ssq;
        for (int k = 0; k < n; k++)
            yy[k] = y[k][st];
        if (gsl_fit_linear(x, 1, yy, 1, (size_t)n, &intercept[st], &slope[st], &cov00, &cov01,
                           &cov11, &ssq) != GSL_SUCCESS)
            intercept[st] = slope[st] = NAN;
    }
}

/* O_ij (intercept over sizes) and L_ij (slope over message counts). */
static lop_status_t issend_measure(session_t *s, MPI_Comm pair, int sender, int peer, cost_t *c)
{
    double x[MAX_MSGS], y[MAX_MSGS][N_STAT], unused[N_STAT];
    lop_status_t st = LOP_OK;
    for (int k = 0; k < N_SIZES && st == LOP_OK; k++) {
        x[k] = (double)(1 << k);
        st = issend_point(s, pair, sender, peer, 1, 1 << k, y[k]);
    }
    if (st == LOP_OK && s->b->rank == sender)
        fit_lines(x, y, N_SIZES, c->o, unused);
    for (int k = 0; k < MAX_MSGS && st == LOP_OK; k++) {
        x[k] = k + 1;
        st = issend_point(s, pair, sender, peer, k + 1, 0, y[k]);
    }
    if (st == LOP_OK && s->b->rank == sender)
        fit_lines(x, y, MAX_MSGS, unused, c->L);
    for (int k = 0; k < N_STAT; k++)
        c->rtt[k] = NAN;
    return st;
}

/* O_ii on every rank at once: P requests that transmit nothing. */
static lop_status_t issend_diagonal(session_t *s, cost_t *c)
{
    const lop_bench_opts_t *o = s->m->opts;
    for (long rep = -o->warmup; rep < o->reps; rep++) {
        uint64_t t0 = lop_timer_now(s->b->timer);
        for (int k = 0; k < s->P; k++)
            MPI_Issend(s->sendbuf, 0, MPI_BYTE, MPI_PROC_NULL, TAG_ISSEND, s->b->comm, &s->req[k]);
        MPI_Waitall(s->P, s->req, MPI_STATUSES_IGNORE); /* nothing to wait for */
        double us = lop_timer_us(s->b->timer, lop_timer_now(s->b->timer) - t0);
        if (rep >= 0)
            s->scratch[rep] = us;
    }
    lop_status_t st = point_stats(s, c->o);
    for (int k = 0; k < N_STAT; k++)
        c->L[k] = c->rtt[k] = NAN;
    return st;
}

/* ------------------------------------------------------- lop's series */

/* Scenarios 1 (k = 1) and 2 (p = 1) on a two-rank view of the pair. */
static lop_status_t series_measure(session_t *s, MPI_Comm pair, int sender, int peer,
                                   const pfile_t *f, cost_t *c)
{
    lop_bench_t *b = s->b;
    int me_sends = b->rank == sender, other = me_sends ? peer : sender;
    lop_bench_t v = *b;
    v.comm = v.pair = pair;
    v.rank = me_sends ? 0 : 1;
    v.size = 2;
    v.max_post = 1;
    v.to_other = v.star = &other;
    v.progress = NULL;
    lop_samples_t os = {0}, oc = {0}, rtt = {0};
    size_t reps = (size_t)s->m->opts->reps;
    lop_status_t st = LOP_OK;
    if (me_sends) {
        st = lop_samples_init(&os, f->series, "os", 1, reps);
        st = st ? st : lop_samples_init(&oc, f->series, "oc", 1, reps);
        st = st ? st : lop_samples_init(&rtt, f->series, "rtt", 1, reps);
    }
    st = st ? st : lop_scenario1_run(&v, f->op, f->post, me_sends ? &os : NULL,
                                     me_sends ? &oc : NULL, NULL);
    st = st ? st : lop_scenario2_run(&v, f->op, f->post, me_sends ? &rtt : NULL);
    b->seq = v.seq;
    lop_stats_t so, sr;
    if (st == LOP_OK && me_sends) {
        st = lop_samples_stats(&os, 1, &so);
        st = st ? st : lop_samples_stats(&rtt, 1, &sr);
    }
    if (st == LOP_OK && me_sends) {
        const double o[N_STAT] = {so.min, so.mean, so.median},
                     r[N_STAT] = {sr.min, sr.mean, sr.median};
        for (int k = 0; k < N_STAT; k++) {
            c->o[k] = o[k];
            c->rtt[k] = r[k];
            c->L[k] = lop_latency(r[k], o[k], o[k]);
        }
    }
    lop_samples_free(&os);
    lop_samples_free(&oc);
    lop_samples_free(&rtt);
    return st;
}

/* ------------------------------------------------------------- rounds */

/* Both directions of the pair {me, other}, the lower rank sending first;
 * this rank's direction (me -> other) lands in *mine. */
static lop_status_t pair_measure(session_t *s, MPI_Comm pair, int other, report_t *mine)
{
    int me = s->b->rank, lo = me < other ? me : other, hi = me < other ? other : me;
    lop_status_t st = LOP_OK;
    for (int dir = 0; dir < 2 && st == LOP_OK; dir++) {
        int sender = dir ? hi : lo, peer = dir ? lo : hi;
        for (int f = 0; f < s->n_file && st == LOP_OK; f++)
            st = s->file[f].method == LOP_PAIRS_ISSEND
                     ? issend_measure(s, pair, sender, peer, &mine->c[f])
                     : series_measure(s, pair, sender, peer, &s->file[f], &mine->c[f]);
    }
    mine->i = me;
    mine->j = other;
    return st;
}

/* Rank 0 keeps what the senders of a round measured. */
static void round_store(session_t *s, const report_t *all)
{
    for (int r = 0; r < s->P; r++) {
        if (all[r].i < 0)
            continue;
        size_t at = (size_t)all[r].i * (size_t)s->P + (size_t)all[r].j;
        for (int f = 0; f < s->n_file; f++) {
            s->file[f].cost[at] = all[r].c[f];
            s->file[f].src[at] = (int)at;
        }
    }
}

/* The end of a round: every rank agrees on the next sequence value (the
 * largest any pair reached) and rank 0 collects the reports.  A rank that
 * sat the round out waits for the slowest pair with no deadline of its own
 * (the measuring ranks have theirs), napping.  A rank that measured for
 * 'measured_s' waits at most --timeout plus ten times that: the pairs
 * measure alike, and a peer stopped after its last sample would otherwise
 * hold every rank here for ever. */
static lop_status_t round_end(session_t *s, report_t *mine, report_t *all, double measured_s,
                              const char *name)
{
    lop_bench_t *b = s->b;
    uint64_t seq = b->seq, most = 0;
    MPI_Request req[2];
    char what[96];
    double limit_s = b->tp->poll.timeout_s; /* 0: --timeout 0, no deadline anywhere */
    double timeout_s = measured_s < 0 || limit_s <= 0 ? 0 : ceil(limit_s + 10 * measured_s);
    snprintf(what, sizeof what, "the other ranks at the end of %s", name);
    MPI_Iallreduce(&seq, &most, 1, MPI_UINT64_T, MPI_MAX, b->comm, &req[0]);
    MPI_Igather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, 0, b->comm,
                &req[1]);
    lop_status_t st = lop_bench_nap_wait(&req[0], timeout_s, what);
    st = st ? st : lop_bench_nap_wait(&req[1], timeout_s, what);
    b->seq = most;
    if (st == LOP_OK && b->rank == 0)
        round_store(s, all);
    return st;
}

static void round_run(session_t *s, int r, report_t *all)
{
    lop_bench_t *b = s->b;
    int other = partner(s, r, b->rank);
    report_t mine = {.i = -1, .j = -1};
    MPI_Comm pair;
    char name[64];
    snprintf(name, sizeof name, "pairs round %d of %d", r + 1, s->n_rounds);
    lop_progress_task(b->progress, name);
    lop_watchdog_phase(name);
    MPI_Comm_split(b->comm, other >= 0 ? (b->rank < other ? b->rank : other) : MPI_UNDEFINED,
                   b->rank, &pair);
    double start_s = lop_timer_clock_s(), measured_s = -1; /* -1: sat the round out */
    if (other >= 0) {
        if (pair_measure(s, pair, other, &mine) != LOP_OK)
            lop_mpi_fail_abort(PROG);
        MPI_Comm_free(&pair);
        measured_s = lop_timer_clock_s() - start_s;
    }
    if (round_end(s, &mine, all, measured_s, name) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    lop_progress_step(b->progress, 1);
}

/* The diagonal of the issend file, every rank at once. */
static void diagonal_run(session_t *s, report_t *all)
{
    report_t mine = {.i = s->b->rank, .j = s->b->rank};
    if (s->file[0].method != LOP_PAIRS_ISSEND)
        return;
    const char *name = "pairs: O_ii of every rank";
    lop_progress_task(s->b->progress, name);
    lop_watchdog_phase(name);
    double start_s = lop_timer_clock_s();
    if (issend_diagonal(s, &mine.c[0]) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    for (int f = 1; f < s->n_file; f++) /* the series have no diagonal */
        mine.c[f] = (cost_t){{NAN, NAN, NAN}, {NAN, NAN, NAN}, {NAN, NAN, NAN}};
    if (round_end(s, &mine, all, lop_timer_clock_s() - start_s, name) != LOP_OK)
        lop_mpi_fail_abort(PROG);
    lop_progress_step(s->b->progress, 1);
    for (int f = 1; f < s->n_file && s->b->rank == 0; f++)
        for (int i = 0; i < s->P; i++)
            s->file[f].src[(size_t)i * (size_t)s->P + (size_t)i] = -1;
}

/* --pairs-sample: every pair of a class takes its measured pair's costs (the
 * pair's forward direction for i < j, its backward one for i > j). */
static void fill_classes(session_t *s)
{
    size_t P = (size_t)s->P;
    for (int i = 0; i < s->P; i++)
        for (int j = 0; j < s->P; j++) {
            if (i == j)
                continue;
            unsigned c = lop_placement_class(&s->pl, i, j);
            int k = 0;
            while (s->rep_class[k] != c)
                k++;
            size_t from = i < j ? (size_t)s->rep_i[k] * P + (size_t)s->rep_j[k]
                                : (size_t)s->rep_j[k] * P + (size_t)s->rep_i[k];
            for (int f = 0; f < s->n_file; f++) {
                s->file[f].cost[(size_t)i * P + (size_t)j] = s->file[f].cost[from];
                s->file[f].src[(size_t)i * P + (size_t)j] = (int)from;
            }
        }
}

/* -------------------------------------------------------------- files */

_Static_assert(N_STAT == LOP_FMT_PAIRS_STATS, "a pairs.csv row holds every statistic");

/* The row of the pair i -> j in file f. */
static lop_fmt_pairs_row_t pair_row(const session_t *s, const pfile_t *f, int i, int j)
{
    size_t at = (size_t)i * (size_t)s->P + (size_t)j;
    const cost_t *c = &f->cost[at];
    lop_fmt_pairs_row_t r = {.i = (uint32_t)i, .j = (uint32_t)j, .n = s->m->opts->reps,
                             .src_i = (uint32_t)(f->src[at] / s->P),
                             .src_j = (uint32_t)(f->src[at] % s->P)};
    memcpy(r.o, c->o, sizeof r.o);
    memcpy(r.L, c->L, sizeof r.L);
    memcpy(r.rtt, c->rtt, sizeof r.rtt);
    return r;
}

static int file_clamped(const session_t *s, const pfile_t *f)
{
    int n = 0;
    for (int i = 0; i < s->P; i++)
        for (int j = 0; j < s->P; j++)
            if (f->src[(size_t)i * (size_t)s->P + (size_t)j] >= 0) {
                lop_fmt_pairs_row_t r = pair_row(s, f, i, j);
                n += lop_fmt_pairs_clamps(&r, s->m->opts->pairs_stat);
            }
    return n;
}

/* The file's metadata; 'sampled' holds its text, 'run' the run's lines. */
static lop_fmt_pairs_meta_t file_meta(const session_t *s, const pfile_t *f, char *sampled,
                                      size_t len, lop_run_meta_t *run)
{
    const lop_bench_opts_t *o = s->m->opts;
    int issend = f->method == LOP_PAIRS_ISSEND;
    *run = *s->m->meta;
    if (issend) {
        run->transport = "mpi";
        run->transport_choice = "the issend method always uses MPI (--transport applies to "
                                "the series files)";
        run->device = s->mpi_lib;
    }
    if (o->pairs_sample) {
        size_t n = (size_t)snprintf(sampled, len, "yes: one pair per placement class "
                                    "(placement.h), both directions, fills its class (src_i, "
                                    "src_j); measured pairs: ");
        for (int k = 0; k < s->n_classes && n < len; k++)
            n += (size_t)snprintf(sampled + n, len - n, "%s%d-%d (class %u)", k ? ", " : "",
                                  s->rep_i[k], s->rep_j[k], s->rep_class[k]);
    } else {
        snprintf(sampled, len, "no: every ordered pair measured, %d rounds of disjoint pairs "
                 "(circle method)", s->n_rounds);
    }
    return (lop_fmt_pairs_meta_t){
        lop_pairs_methods[f->method], f->series, issend ? ISSEND_DEFINITION : SERIES_DEFINITION,
        issend ? NULL : lop_op_desc[f->op].name, issend ? NULL : lop_post_desc[f->post].name,
        o->pairs_stat, lop_pairs_stats[o->pairs_stat], file_clamped(s, f), s->P, sampled,
        s->pl.note, run};
}

/* pairs.csv for issend (the paper's matrices), pairs-<op>-<post>.csv for a series. */
static void file_name(const pfile_t *f, char *name, size_t len)
{
    if (f->method == LOP_PAIRS_ISSEND)
        snprintf(name, len, LOP_FMT_PAIRS_NAME);
    else
        snprintf(name, len, "pairs-%s.csv", f->series);
}

static lop_status_t file_write(const session_t *s, const pfile_t *f, const char *dir)
{
    char path[4200], name[64], sampled[1400];
    file_name(f, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    lop_run_meta_t run;
    lop_fmt_pairs_meta_t meta = file_meta(s, f, sampled, sizeof sampled, &run);
    lop_fmt_pairs_writer_t pw;
    lop_status_t st = lop_fmt_pairs_write_begin(&pw, path, &meta);
    if (st != LOP_OK)
        return st;
    for (int i = 0; i < s->P && st == LOP_OK; i++)
        for (int j = 0; j < s->P && st == LOP_OK; j++)
            if (f->src[(size_t)i * (size_t)s->P + (size_t)j] >= 0) {
                lop_fmt_pairs_row_t r = pair_row(s, f, i, j);
                st = lop_fmt_pairs_write_row(&pw, &r);
            }
    return lop_fmt_pairs_write_end(&pw, st);
}

/* The output directory made and every file files_write writes checked,
 * before the rounds (collective). */
static lop_status_t outdir_agree(const session_t *s)
{
    char name[MAX_FILES][64];
    const char *names[MAX_FILES + 2];
    int n = 0;
    for (int f = 0; f < s->n_file; f++) {
        file_name(&s->file[f], name[f], sizeof name[f]);
        names[n++] = name[f];
    }
    names[n++] = "placement.csv";
    names[n] = NULL;
    return lop_outdir_agree(s->b->comm, s->m->outdir, names);
}

/* Rank 0: every file, all or none (csv.h). */
static lop_status_t files_write(const session_t *s)
{
    lop_outdir_t out = {0};
    lop_status_t st = lop_outdir_begin(&out, s->m->outdir);
    for (int f = 0; f < s->n_file && st == LOP_OK; f++)
        st = file_write(s, &s->file[f], out.stage);
    st = st ? st : lop_placement_write(&s->pl, s->m->meta, out.stage);
    return lop_outdir_end(&out, st);
}

/* ------------------------------------------------------------ summary */

/* The matrix of one quantity (o or L, the chosen statistic), for people. */
static void matrix_print(const session_t *s, const pfile_t *f, int L)
{
    int stat = s->m->opts->pairs_stat;
    printf("  %s_us (%s; row i sends to column j):\n      ", L ? "L" : "o",
           lop_pairs_stats[stat]);
    for (int j = 0; j < s->P; j++)
        printf(" %8d", j);
    printf("\n");
    for (int i = 0; i < s->P; i++) {
        printf("  %3d ", i);
        for (int j = 0; j < s->P; j++) {
            size_t at = (size_t)i * (size_t)s->P + (size_t)j;
            double v = L ? f->cost[at].L[stat] : f->cost[at].o[stat];
            if (f->src[at] < 0 || isnan(v))
                printf(" %8s", "-");
            else
                printf(" %8.3f", v);
        }
        printf("\n");
    }
}

static void summary_print(const session_t *s)
{
    const lop_run_meta_t *m = s->m->meta;
    printf("lopbench %s --pairs: %s transport, %d ranks%s, %ld repetitions, %s\n", LOP_VERSION,
           m->transport, m->ranks, m->oversubscribed ? " (oversubscribed)" : "", m->reps,
           s->m->opts->pairs_sample ? "sampled: one pair per placement class"
                                    : "every ordered pair");
    printf("times in us, rounded (the files hold every digit; values below 0 are noise "
           "or a line's intercept, written as 0 in o_us and L_us):\n");
    for (int f = 0; f < s->n_file; f++) {
        char name[64];
        file_name(&s->file[f], name, sizeof name);
        printf("%s (%s):\n", name, s->file[f].series);
        if (s->P > SHOW_MAX) {
            printf("  (%d ranks: see the file)\n", s->P);
            continue;
        }
        matrix_print(s, &s->file[f], 0);
        matrix_print(s, &s->file[f], 1);
    }
    printf("files in %s/\n", s->m->outdir);
}

/* -------------------------------------------------------------- the run */

lop_status_t lop_pairs_mode_run(lop_pairs_mode_t *m)
{
    session_t s = {.m = m, .b = m->bench, .P = m->bench->size};
    lop_bench_t *b = s.b;
    lop_watchdog_phase("pairs: placement and plan");
    int len;
    MPI_Get_library_version(s.mpi_lib, &len);
    s.mpi_lib[strcspn(s.mpi_lib, ",\n")] = '\0';
    lop_status_t st = lop_placement_gather(b->comm, &s.pl);
    if (st != LOP_OK)
        return st;
    plan_files(&s);
    if (m->opts->pairs_sample)
        plan_classes(&s);
    s.n_rounds = m->opts->pairs_sample ? s.n_classes : s.P + (s.P & 1) - 1;
    st = lop_mpi_agree(b->comm, session_alloc(&s));
    report_t *all = b->rank == 0 ? lop_calloc((size_t)s.P, sizeof *all) : NULL;
    st = st ? st : lop_mpi_agree(b->comm, b->rank == 0 && !all ? LOP_ERR_NOMEM : LOP_OK);
    if (st == LOP_OK && s.n_file == 0)
        st = lop_err(LOP_ERR_INVALID, "option --method: nothing to measure (no series of "
                     "--ops/--post works on the %s transport)", b->tp->ops->name);
    st = st ? st : outdir_agree(&s);
    if (st == LOP_OK) {
        int tasks = s.n_rounds + (s.file[0].method == LOP_PAIRS_ISSEND);
        lop_progress_init(b->progress, PROG, tasks, tasks);
        diagonal_run(&s, all);
        for (int r = 0; r < s.n_rounds; r++)
            round_run(&s, r, all);
        lop_progress_done(b->progress);
        if (b->rank == 0 && m->opts->pairs_sample)
            fill_classes(&s);
        st = lop_mpi_agree(b->comm, b->rank == 0 ? files_write(&s) : LOP_OK);
        if (st == LOP_OK && b->rank == 0)
            summary_print(&s);
    }
    free(all);
    session_free(&s);
    return st;
}
