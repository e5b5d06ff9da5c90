/* scenario.c - the repetition loop of every measurement (scenario.h). */
#include "scenario.h"

#include <time.h>

enum {
    NAP_US = 5000,       /* how often lop_bench_nap_wait checks */
    ROUND_GUESS_US = 5,  /* a round's cost, for the first progress estimate */
    TAG_BOTH_WAYS = 2311 /* lop_bench_both_ways */
};

double lop_bench_rep_units(const lop_bench_t *b, size_t n_p)
{
    return b->idle_us * (b->idle_each_round ? (double)n_p : 1) + (double)n_p * ROUND_GUESS_US;
}

lop_status_t lop_bench_nap_wait(MPI_Request *req, double timeout_s, const char *what)
{
    int done = 0;
    const struct timespec nap = {0, NAP_US * 1000L};
    double deadline = lop_timer_clock_s() + timeout_s;
    for (MPI_Test(req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(req, &done, MPI_STATUS_IGNORE)) {
        nanosleep(&nap, NULL);
        lop_watchdog_beat(); /* this wait's own deadline, if any, decides */
        if (timeout_s > 0 && lop_timer_clock_s() > deadline) {
            const lop_poll_t poll = {.timeout_s = timeout_s};
            return lop_poll_timeout(&poll, "%s", what);
        }
    }
    return LOP_OK;
}

void lop_bench_cool(const lop_bench_t *b)
{
    lop_mpi_idle(b->timer, b->idle_us, b->oversubscribed);
}

lop_status_t lop_bench_both_ways(lop_bench_t *b, size_t p, MPI_Request *req)
{
    lop_poll_t *poll = &b->tp->poll;
    MPI_Comm comm = b->tp->comm; /* where star's ranks are (--pairs: a view of a pair) */
    const char *what = "the exchange before the round";
    if (b->rank != 0) {
        MPI_Request one;
        MPI_Irecv(NULL, 0, MPI_CHAR, b->star[0], TAG_BOTH_WAYS, comm, &one);
        lop_status_t st = lop_mpi_wait_peer(1, &one, poll, comm, b->star[0], what);
        if (st == LOP_OK)
            MPI_Isend(NULL, 0, MPI_CHAR, b->star[0], TAG_BOTH_WAYS, comm, &one);
        return st ? st : lop_mpi_wait_peer(1, &one, poll, comm, b->star[0], what);
    }
    for (size_t j = 0; j < p; j++) {
        MPI_Irecv(NULL, 0, MPI_CHAR, b->star[j], TAG_BOTH_WAYS, comm, &req[2 * j]);
        MPI_Isend(NULL, 0, MPI_CHAR, b->star[j], TAG_BOTH_WAYS, comm, &req[2 * j + 1]);
    }
    lop_status_t st = LOP_OK;
    for (size_t j = 0; j < p && st == LOP_OK; j++) /* in turn, to name the one that fails */
        st = lop_mpi_wait_peer(2, &req[2 * j], poll, comm, b->star[j], what);
    return st;
}

lop_status_t lop_bench_release(lop_bench_t *b)
{
    char token = 0;
    MPI_Request req;
    MPI_Ibcast(&token, 1, MPI_CHAR, 0, b->comm, &req);
    return lop_mpi_wait_peer(1, &req, &b->tp->poll, b->comm, 0, "the end of the round");
}

/* A rank with nothing to measure waits for the others in a barrier it polls
 * as the waiting ranks of a barrier loop do (yielding its core every few
 * checks when oversubscribed), so that the ranks measuring share the cores
 * as they do in such a loop (bench/README.md, "Waiting ranks poll").  It has no
 * deadline: a whole scenario may pass meanwhile, and the ranks measuring
 * have deadlines of their own (a timeout there aborts the job). */
static void sit_out(const lop_bench_t *b)
{
    MPI_Request req;
    lop_poll_t poll = b->tp->poll;
    poll.timeout_s = 0; /* no deadline, the watchdog kept quiet (lop_poll_pause) */
    MPI_Ibarrier(b->comm, &req);
    lop_mpi_wait_all(1, &req, &poll, "the ranks measuring");
}

lop_status_t lop_bench_repeat(lop_bench_t *b, int takes_part, size_t n_p, lop_round_fn round,
                              void *ctx)
{
    uint64_t seq = b->seq;
    lop_status_t st = LOP_OK;
    if (!takes_part) {
        sit_out(b);
    } else {
        for (long rep = -b->warmup; rep < b->reps && st == LOP_OK; rep++) {
            if (!b->idle_each_round)
                lop_mpi_idle(b->timer, b->idle_us, b->oversubscribed);
            for (size_t p = 1; p <= n_p && st == LOP_OK; p++)
                st = round(b, ctx, p, rep, ++seq);
            lop_watchdog_beat();
            if (st != LOP_OK)
                st = lop_err(st, "%s (repetition %ld of %ld)", lop_errmsg(),
                             rep + b->warmup + 1, b->warmup + b->reps);
            lop_progress_step(b->progress, lop_bench_rep_units(b, n_p));
        }
        if (st == LOP_OK) /* meets the sitting-out ranks */
            st = lop_mpi_barrier(b->comm, &b->tp->poll);
    }
    b->seq += (uint64_t)(b->warmup + b->reps) * n_p;
    return st;
}

lop_status_t lop_bench_repeat_apart(lop_bench_t *b, size_t n_p, lop_round_fn round, void *ctx)
{
    lop_bench_t apart = *b;
    apart.idle_each_round = 1;
    lop_status_t st = lop_bench_repeat(&apart, 1, n_p, round, ctx);
    b->seq = apart.seq;
    return st;
}
