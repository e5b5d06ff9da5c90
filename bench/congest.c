/* congest.c - the congestors of lopbench --congest (congest.h). */
#include "congest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place_gather.h"
#include "watchdog.h"

/* ------------------------------------------------------------ patterns */

/* Petrini et al.: each sender picks a random destination for every message
 * (another congestor). */
static int dest_uniform(int c, int k, gsl_rng *rng)
{
    int d = (int)gsl_rng_uniform_int(rng, (unsigned long)(k - 1));
    return d >= c ? d + 1 : d;
}

/* Petrini et al.: a_{n-1}..a_0 sends to the complement of every bit, c ->
 * K-1-c when K is a power of two; the middle one of an odd K, its own
 * complement, sends to its successor. */
static int dest_complement(int c, int k, gsl_rng *rng)
{
    (void)rng;
    return k - 1 - c != c ? k - 1 - c : (c + 1) % k;
}

/* GPCNeT's incast: every congestor sends to congestor 0, which only receives. */
static int dest_incast(int c, int k, gsl_rng *rng)
{
    (void)k;
    (void)rng;
    return c == 0 ? -1 : 0;
}

const lop_congest_pattern_t lop_congest_patterns[] = {
    {"uniform", "each message to a random other congestor (Petrini et al.)", 2, dest_uniform},
    {"complement", "congestor c to K-1-c, every bit complemented (Petrini et al.)", 2,
     dest_complement},
    {"incast", "every congestor to congestor 0, which only receives (GPCNeT)", 1, dest_incast},
    {NULL, NULL, 0, NULL},
};
_Static_assert(COUNT(lop_congest_patterns) == LOP_CONGEST_PATTERN_COUNT + 1,
               "LOP_CONGEST_PATTERN_COUNT counts lop_congest_patterns[]");

int lop_congest_default_k(int n)
{
    int k = n * 4 / 5;
    return n - k < 2 ? n - 2 : k;
}

/* ------------------------------------------------------------- set-up */

enum { CMD_END, CMD_START };
enum { TAG = 7 };

/* The checks of K that need the job's size; one line naming the option. */
static lop_status_t check_k(const lop_congest_t *g, const lop_bench_opts_t *o)
{
    if (g->size - g->k < 2 || g->k < 1)
        return lop_err(LOP_ERR_INVALID, "option --congest-ranks: %d of %d ranks congesting "
                       "leaves %d timed ranks; a barrier needs 2 (and congesting 1 more)",
                       g->k, g->size, g->size - g->k);
    if (g->k < g->pattern->min_k)
        return lop_err(LOP_ERR_INVALID, "option --congest: %s needs %d congesting ranks, "
                       "--congest-ranks gives %d", g->pattern->name, g->pattern->min_k, g->k);
    for (size_t i = 0; i < o->n_p; i++)
        if (o->p_value[i] > g->size - g->k)
            return lop_err(LOP_ERR_INVALID, "option --p: %ld is more than the %d timed "
                           "ranks (%d of %d congest)", o->p_value[i], g->size - g->k, g->k,
                           g->size);
    return LOP_OK;
}

/* A congestor's buffers and generator. */
static lop_status_t congestor_alloc(lop_congest_t *g, unsigned long seed)
{
    size_t w = (size_t)g->window, b = (size_t)g->bytes;
    g->sbuf = lop_calloc(b, 1);
    g->rbuf = lop_calloc(w * b, 1);
    g->sreq = lop_calloc(w, sizeof *g->sreq);
    g->rreq = lop_calloc(w, sizeof *g->rreq);
    g->sent_to = lop_calloc((size_t)g->k, sizeof *g->sent_to);
    g->due_from = lop_calloc((size_t)g->k, sizeof *g->due_from);
    g->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g->sbuf || !g->rbuf || !g->sreq || !g->rreq || !g->sent_to || !g->due_from || !g->rng)
        return lop_err(LOP_ERR_NOMEM, "out of memory for the congestor's %ld x %ld bytes",
                       g->window, g->bytes);
    gsl_rng_set(g->rng, seed * 1000003ul + (unsigned long)g->c);
    for (long i = 0; i < g->window; i++)
        g->sreq[i] = g->rreq[i] = MPI_REQUEST_NULL;
    return LOP_OK;
}

lop_status_t lop_congest_open(lop_congest_t *g, MPI_Comm job, const lop_bench_opts_t *o,
                              int oversubscribed)
{
    memset(g, 0, sizeof *g);
    g->pattern = &lop_congest_patterns[o->congest];
    g->job = job;
    MPI_Comm_rank(job, &g->rank);
    MPI_Comm_size(job, &g->size);
    g->k = o->congest_ranks ? (int)o->congest_ranks : lop_congest_default_k(g->size);
    g->bytes = o->congest_size;
    g->window = o->congest_window;
    g->max = o->congest_max;
    g->poll = (lop_poll_t){0, oversubscribed ? LOP_POLL_YIELD_EVERY : 0, o->timeout_s, NULL};
    lop_status_t st = check_k(g, o);
    if (st != LOP_OK)
        return st; /* the same on every rank: sizes and options are */
    g->c = g->rank >= g->size - g->k ? g->rank - (g->size - g->k) : -1;
    MPI_Comm_split(job, g->c >= 0, g->rank, g->c >= 0 ? &g->cong : &g->timed);
    if (g->c >= 0)
        g->timed = MPI_COMM_NULL;
    else
        g->cong = MPI_COMM_NULL;
    st = lop_mpi_agree(job, g->c >= 0 ? congestor_alloc(g, o->seed) : LOP_OK);
    if (st != LOP_OK)
        lop_congest_close(g);
    return st;
}

void lop_congest_close(lop_congest_t *g)
{
    if (g->timed != MPI_COMM_NULL)
        MPI_Comm_free(&g->timed);
    if (g->cong != MPI_COMM_NULL)
        MPI_Comm_free(&g->cong);
    free(g->sbuf);
    free(g->rbuf);
    free(g->sreq);
    free(g->rreq);
    free(g->sent_to);
    free(g->due_from);
    if (g->rng)
        gsl_rng_free(g->rng);
    memset(g, 0, sizeof *g);
    g->timed = g->cong = MPI_COMM_NULL;
}

/* ------------------------------------------------------------ traffic */

/* Post the next send into slot i, if the pattern sends and the bound allows.
 * Synchronous: a send completes once its receiver has matched it, so the
 * window bounds what is queued in the network at W messages a congestor.
 * An eager MPI_Isend completes when copied to the socket, and over TCP the
 * kernel then queued megabytes in front of the barrier's messages (a 2 s
 * token-bucket queue on the lab's 5 Mbit/s links: a congested barrier took
 * seconds and a run of six algorithms did not end in 15 minutes). */
static void send_next(lop_congest_t *g, long i)
{
    if ((long long)g->sent >= g->max) {
        g->capped = 1;
        return;
    }
    int d = g->pattern->dest(g->c, g->k, g->rng);
    if (d < 0)
        return;
    MPI_Issend(g->sbuf, (int)g->bytes, MPI_BYTE, d, TAG, g->cong, &g->sreq[i]);
    g->sent_to[d]++;
    g->sent++;
}

static void recv_post(lop_congest_t *g, long i)
{
    MPI_Irecv(g->rbuf + i * g->bytes, (int)g->bytes, MPI_BYTE, MPI_ANY_SOURCE, TAG, g->cong,
              &g->rreq[i]);
}

/* Completed requests among 'req' (MPI_Testsome's indices into idx); 0 when
 * none is active. */
static int completed(long n, MPI_Request *req, int *idx)
{
    int out = 0;
    MPI_Testsome((int)n, req, &out, idx, MPI_STATUSES_IGNORE);
    return out == MPI_UNDEFINED ? 0 : out;
}

/* One pass: completed sends replaced (when 'more'), completed receives
 * counted and reposted while 'repost' says so.  Returns the sends done so far
 * this phase grows by. */
static int traffic_pass(lop_congest_t *g, int more, long long repost_until, int *idx)
{
    int done = completed(g->window, g->sreq, idx);
    for (int j = 0; j < done && more; j++)
        send_next(g, idx[j]);
    int got = completed(g->window, g->rreq, idx);
    g->recvd += (unsigned long long)got;
    long posted = 0;
    for (long i = 0; i < g->window; i++)
        posted += g->rreq[i] != MPI_REQUEST_NULL;
    for (int j = 0; j < got && (long long)(g->recvd + (unsigned long long)posted) < repost_until;
         j++, posted++)
        recv_post(g, idx[j]);
    lop_watchdog_beat();
    return done;
}

/* From the start command to the stop Ibarrier: W receives and W sends in
 * flight; "warm" once the first window of sends has gone. */
static lop_status_t phase_run(lop_congest_t *g, int *idx)
{
    MPI_Request warm = MPI_REQUEST_NULL, stop = MPI_REQUEST_NULL;
    g->sent = g->recvd = 0;
    g->capped = 0;
    memset(g->sent_to, 0, (size_t)g->k * sizeof *g->sent_to);
    for (long i = 0; i < g->window; i++) {
        recv_post(g, i);
        send_next(g, i);
    }
    long first = (long)g->sent, gone = 0;
    lop_poll_t idle = g->poll;
    idle.timeout_s = 0; /* the timed ranks time for as long as they need */
    lop_wait_t w = {0};
    for (int stopped = 0; !stopped;) {
        gone += traffic_pass(g, 1, LLONG_MAX, idx);
        if (warm == MPI_REQUEST_NULL && stop == MPI_REQUEST_NULL && gone >= first) {
            MPI_Ibarrier(g->job, &warm);
            MPI_Ibarrier(g->job, &stop);
        }
        if (stop != MPI_REQUEST_NULL)
            MPI_Test(&stop, &stopped, MPI_STATUS_IGNORE);
        lop_poll_pause(&idle, &w);
    }
    return lop_mpi_wait_all(1, &warm, &g->poll, "the congestors' warm-up barrier");
}

/* No message in flight: what each congestor sent to each is exchanged, every
 * message due is received, the receives left over are cancelled (any
 * source: they are alike) and the sends completed. */
static lop_status_t phase_drain(lop_congest_t *g, int *idx)
{
    MPI_Request a2a;
    MPI_Ialltoall(g->sent_to, 1, MPI_LONG, g->due_from, 1, MPI_LONG, g->cong, &a2a);
    long long due = LLONG_MAX;
    int exchanged = 0, sends_left = 1;
    lop_poll_t poll = g->poll;
    lop_wait_t w = {0};
    while (!exchanged || (long long)g->recvd < due || sends_left) {
        traffic_pass(g, 0, due, idx);
        if (!exchanged) {
            MPI_Test(&a2a, &exchanged, MPI_STATUS_IGNORE);
            due = exchanged ? 0 : LLONG_MAX;
            for (int i = 0; exchanged && i < g->k; i++)
                due += g->due_from[i];
        }
        sends_left = 0;
        for (long i = 0; i < g->window; i++)
            sends_left += g->sreq[i] != MPI_REQUEST_NULL;
        if ((!exchanged || (long long)g->recvd < due || sends_left) && lop_poll_pause(&poll, &w))
            return lop_poll_timeout(&poll, "the congestors' drain (congestor %d: %llu of %lld "
                                    "messages received, %d sends open)", g->c, g->recvd,
                                    exchanged ? due : -1, sends_left);
    }
    for (long i = 0; i < g->window; i++)
        if (g->rreq[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&g->rreq[i]);
            MPI_Wait(&g->rreq[i], MPI_STATUS_IGNORE);
        }
    return LOP_OK;
}

/* The phase's counts, summed onto job rank 0 (timed ranks give zeros). */
static lop_status_t counts_reduce(lop_congest_t *g)
{
    unsigned long long mine[3] = {g->c >= 0 ? g->sent : 0,
                                  g->c >= 0 ? g->sent * (unsigned long long)g->bytes : 0,
                                  (unsigned long long)(g->c >= 0 && g->capped)},
                       sum[3] = {0};
    MPI_Request req;
    MPI_Ireduce(mine, sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, g->job, &req);
    lop_poll_t poll = g->poll;
    lop_status_t st = lop_mpi_wait_all(1, &req, &poll, "the congestors' counts");
    g->total_msgs = sum[0];
    g->total_bytes = sum[1];
    g->n_capped = (long)sum[2];
    return st;
}

static lop_status_t command(lop_congest_t *g, int *cmd, int deadline)
{
    MPI_Request req;
    MPI_Ibcast(cmd, 1, MPI_INT, 0, g->job, &req);
    lop_poll_t poll = g->poll;
    if (!deadline) { /* idle between phases: give the core away */
        poll.timeout_s = 0;
        poll.yield_every = LOP_POLL_YIELD_EVERY;
    }
    return lop_mpi_wait_all(1, &req, &poll, "the timed ranks' command to the congestors");
}

lop_status_t lop_congest_serve(lop_congest_t *g)
{
    int *idx = lop_calloc((size_t)g->window, sizeof *idx);
    if (!idx)
        lop_mpi_fail_abort("lopbench");
    for (;;) {
        int cmd = CMD_END;
        lop_watchdog_phase("--congest: a congestor waiting for the timed ranks");
        lop_status_t st = command(g, &cmd, 0);
        if (st == LOP_OK && cmd == CMD_END)
            break;
        char phase[96];
        snprintf(phase, sizeof phase, "--congest: congestor %d sending (%s)", g->c,
                 g->pattern->name);
        lop_watchdog_phase(phase);
        st = st ? st : phase_run(g, idx);
        st = st ? st : phase_drain(g, idx);
        st = st ? st : counts_reduce(g);
        if (st != LOP_OK)
            lop_mpi_fail_abort("lopbench");
    }
    free(idx);
    return LOP_OK;
}

lop_status_t lop_congest_start(lop_congest_t *g)
{
    int cmd = CMD_START;
    lop_status_t st = command(g, &cmd, 1);
    MPI_Request warm;
    if (st == LOP_OK)
        MPI_Ibarrier(g->job, &warm);
    lop_poll_t poll = g->poll;
    return st ? st : lop_mpi_wait_all(1, &warm, &poll, "the congestors' first window");
}

lop_status_t lop_congest_stop(lop_congest_t *g)
{
    MPI_Request stop;
    MPI_Ibarrier(g->job, &stop);
    lop_poll_t poll = g->poll;
    lop_status_t st = lop_mpi_wait_all(1, &stop, &poll, "the congestors' stop barrier");
    return st ? st : counts_reduce(g);
}

lop_status_t lop_congest_end(lop_congest_t *g)
{
    int cmd = CMD_END;
    return command(g, &cmd, 1);
}

lop_status_t lop_congest_split_run(MPI_Comm job, const lop_bench_opts_t *o, int oversubscribed,
                                   char *cores, size_t len,
                                   lop_status_t (*timed)(void *ctx, lop_congest_t *g),
                                   void *ctx)
{
    lop_congest_t g;
    lop_status_t st = lop_congest_open(&g, job, o, oversubscribed);
    if (st != LOP_OK)
        return st;
    st = lop_congest_cores(&g, cores, len);
    if (st == LOP_OK && g.c >= 0) {
        st = lop_congest_serve(&g);
    } else if (st == LOP_OK) {
        st = timed(ctx, &g);
        lop_status_t end = lop_congest_end(&g);
        st = st ? st : end;
    }
    st = lop_mpi_agree(job, st);
    lop_congest_close(&g);
    return st;
}

/* ------------------------------------------------------------ metadata */

/* Where the launcher put the congestors: Petrini's layout shares a node
 * (and its NIC) with the timed ranks, GPCNeT's keeps them apart; a shared
 * core would time the CPU's sharing rather than the network's.  Where a
 * machine has more ranks than CPUs (the nodes of an emulated cluster share
 * one kernel's cores) no rank keeps a CPU of its own, whatever CPU each
 * was on when the placement was taken. */
lop_status_t lop_congest_cores(const lop_congest_t *g, char *buf, size_t len)
{
    lop_place_t pl;
    lop_place_rows_t rows;
    lop_status_t st = lop_place_gather(g->job, &pl, &rows);
    if (st != LOP_OK)
        return st;
    int timed = g->size - g->k, shared = 0, first_t = 0, first_c = 0;
    for (int t = 0; t < timed && g->rank == 0; t++)
        for (int c = timed; c < g->size; c++) {
            const lop_fmt_placement_row_t *a = &rows.row[t], *b = &rows.row[c];
            if (a->core == b->core && strcmp(a->host, b->host) == 0 && !shared++) {
                first_t = t;
                first_c = c;
            }
        }
    if (!shared && g->poll.yield_every)
        snprintf(buf, len, "shared (more ranks than CPUs on a machine: timed ranks and "
                 "congestors take turns on its cores)");
    else if (shared)
        snprintf(buf, len, "shared (%d pairs of a timed rank and a congestor on one host:cpu, "
                 "e.g. timed rank %d and congestor rank %d on %s:%d)", shared, first_t,
                 first_c, rows.row[first_t].host, rows.row[first_t].core);
    else
        snprintf(buf, len, "separate");
    lop_place_rows_free(&rows);
    lop_place_free(&pl);
    return LOP_OK;
}

void lop_congest_warn(const lop_congest_t *g)
{
    if (g->rank == 0 && g->n_capped)
        fprintf(stderr, "lopbench: warning: %ld congestors reached --congest-max %ld: the "
                "traffic did not cover the whole congested phase\n", g->n_capped, g->max);
}

void lop_congest_describe(const lop_congest_t *g, char *buf, size_t len)
{
    snprintf(buf, len, "%s, %d of %d ranks congest (ranks %d-%d), %ld bytes, window %ld, "
             "at most %ld messages each", g->pattern->name, g->k, g->size, g->size - g->k,
             g->size - 1, g->bytes, g->window, g->max);
}

void lop_congest_traffic(const lop_congest_t *g, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%llu messages, %llu bytes sent by the congestors in the "
                     "congested phase; ", g->total_msgs, g->total_bytes);
    if (n < 0 || (size_t)n >= len)
        return;
    if (g->n_capped)
        snprintf(buf + n, len - (size_t)n, "%ld congestors reached --congest-max", g->n_capped);
    else
        snprintf(buf + n, len - (size_t)n, "stopped by the timed ranks");
}
