/* pairs_issend.c - lopbench --pairs: the paper's MPI_Issend method (Meyer
 * and Elster IV.A; pairs_method.h, pairs_mode.h). */
#include "pairs_method.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>

#include "mpisync.h"
#include "stats.h"

enum { TAG_ISSEND = 2310, N_STAT = LOP_PAIRS_STAT_COUNT };

/* min, avg, median of the samples in x->scratch (reordered). */
static lop_status_t point_stats(lop_pairs_ctx_t *x, double *stat)
{
    lop_stats_t t;
    lop_status_t st = lop_stats_compute(x->scratch, (size_t)x->opts->reps, &t);
    stat[LOP_PAIRS_MIN] = t.min;
    stat[LOP_PAIRS_AVG] = t.mean;
    stat[LOP_PAIRS_MEDIAN] = t.median;
    return st;
}

/* One sample: the receiver posts 'count' receives of 'bytes', both meet in
 * the pair's barrier (so the receiver is ready, as in the paper's equation
 * 2), the sender times 'count' MPI_Issend and their completion. */
static lop_status_t issend_sample(lop_pairs_ctx_t *x, MPI_Comm pair, int sender, int receiver,
                                  int count, int bytes, double *us)
{
    lop_bench_t *b = x->b;
    lop_poll_t *poll = &b->tp->poll;
    char what[160];
    int me_sends = b->rank == sender;
    for (int k = 0; k < count && !me_sends; k++)
        MPI_Irecv(x->recvbuf, bytes, MPI_BYTE, sender, TAG_ISSEND, b->comm, &x->req[k]);
    lop_status_t st = lop_mpi_barrier(pair, poll);
    if (st != LOP_OK)
        return st;
    if (!me_sends) {
        snprintf(what, sizeof what, "%d MPI_Issend of %d bytes from rank %d on %.64s", count,
                 bytes, sender, lop_mpi_host_of(sender));
        return lop_mpi_wait_all(count, x->req, poll, what);
    }
    snprintf(what, sizeof what, "%d MPI_Issend of %d bytes to rank %d on %.64s to complete",
             count, bytes, receiver, lop_mpi_host_of(receiver));
    uint64_t t0 = lop_timer_now(b->timer);
    for (int k = 0; k < count; k++)
        MPI_Issend(x->sendbuf, bytes, MPI_BYTE, receiver, TAG_ISSEND, b->comm, &x->req[k]);
    st = lop_mpi_wait_all(count, x->req, poll, what);
    *us = lop_timer_us(b->timer, lop_timer_now(b->timer) - t0);
    return st;
}

/* A sample point: warm-up, then --reps samples; their statistics on the
 * sender ('sender' is the rank that times, 'peer' the other one). */
static lop_status_t issend_point(lop_pairs_ctx_t *x, MPI_Comm pair, int sender, int peer, int count,
                                 int bytes, double *stat)
{
    const lop_bench_opts_t *o = x->opts;
    int me_sends = x->b->rank == sender;
    lop_status_t st = LOP_OK;
    for (long rep = -o->warmup; rep < o->reps && st == LOP_OK; rep++) {
        double us = 0;
        st = issend_sample(x, pair, sender, peer, count, bytes, &us);
        if (rep >= 0)
            x->scratch[rep] = us;
        lop_watchdog_beat();
    }
    return st == LOP_OK && me_sends ? point_stats(x, stat) : st;
}

/* The least-squares line through (x[k], y[k][stat]) for each statistic. */
static void fit_lines(const double *x, double (*y)[N_STAT], int n, double *intercept,
                      double *slope)
{
    for (int st = 0; st < N_STAT; st++) {
        double yy[LOP_PAIRS_MAX_MSGS > LOP_PAIRS_N_SIZES ? LOP_PAIRS_MAX_MSGS : LOP_PAIRS_N_SIZES], cov00, cov01, cov11, ssq;
        for (int k = 0; k < n; k++)
            yy[k] = y[k][st];
        if (gsl_fit_linear(x, 1, yy, 1, (size_t)n, &intercept[st], &slope[st], &cov00, &cov01,
                           &cov11, &ssq) != GSL_SUCCESS)
            intercept[st] = slope[st] = NAN;
    }
}

/* O_ij (intercept over sizes) and L_ij (slope over message counts). */
static lop_status_t issend_measure(lop_pairs_ctx_t *x, MPI_Comm pair, int sender, int peer,
                                   const lop_pairs_series_t *series, lop_pairs_cost_t *c)
{
    (void)series; /* one file, over MPI */
    double at[LOP_PAIRS_MAX_MSGS], y[LOP_PAIRS_MAX_MSGS][N_STAT], unused[N_STAT];
    lop_status_t st = LOP_OK;
    for (int k = 0; k < LOP_PAIRS_N_SIZES && st == LOP_OK; k++) {
        at[k] = (double)(1 << k);
        st = issend_point(x, pair, sender, peer, 1, 1 << k, y[k]);
    }
    if (st == LOP_OK && x->b->rank == sender)
        fit_lines(at, y, LOP_PAIRS_N_SIZES, c->o, unused);
    for (int k = 0; k < LOP_PAIRS_MAX_MSGS && st == LOP_OK; k++) {
        at[k] = k + 1;
        st = issend_point(x, pair, sender, peer, k + 1, 0, y[k]);
    }
    if (st == LOP_OK && x->b->rank == sender)
        fit_lines(at, y, LOP_PAIRS_MAX_MSGS, unused, c->L);
    for (int k = 0; k < N_STAT; k++)
        c->rtt[k] = NAN;
    return st;
}

/* O_ii on every rank at once: P requests that transmit nothing. */
static lop_status_t issend_diagonal(lop_pairs_ctx_t *x, lop_pairs_cost_t *c)
{
    const lop_bench_opts_t *o = x->opts;
    for (long rep = -o->warmup; rep < o->reps; rep++) {
        uint64_t t0 = lop_timer_now(x->b->timer);
        for (int k = 0; k < x->P; k++)
            MPI_Issend(x->sendbuf, 0, MPI_BYTE, MPI_PROC_NULL, TAG_ISSEND, x->b->comm, &x->req[k]);
        MPI_Waitall(x->P, x->req, MPI_STATUSES_IGNORE); /* nothing to wait for */
        double us = lop_timer_us(x->b->timer, lop_timer_now(x->b->timer) - t0);
        if (rep >= 0)
            x->scratch[rep] = us;
    }
    lop_status_t st = point_stats(x, c->o);
    for (int k = 0; k < N_STAT; k++)
        c->L[k] = c->rtt[k] = NAN;
    return st;
}

const lop_pairs_method_desc_t lop_pairs_issend = {
    "Meyer and Elster IV.A over MPI: o = intercept of the least-squares line of the time of "
    "one MPI_Issend (+ wait) against its size 1..2^20 bytes; L = slope of the line of the "
    "time of k zero-byte MPI_Issend (+ waitall) against k = 1..32; each point a statistic "
    "over the repetitions, a line per statistic; the receiver has posted its receives (a "
    "barrier of the pair before each sample); diagonal: o = time of P MPI_Issend to "
    "MPI_PROC_NULL + waitall, no L",
    "the issend method always uses MPI (--transport applies to the series files)",
    issend_measure,
    issend_diagonal,
};
