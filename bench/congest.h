/*
 * congest.h - background traffic for lopbench --barrier --congest.
 *
 * Petrini et al. (Quadrics, section on barriers under load) time 10,000
 * consecutive barriers while other processors send unicast traffic, uniform
 * (a random destination per message) or complement (node a_{n-1}..a_0 sends
 * to the node with every bit complemented); GPCNeT (Cray's
 * network_load_test) splits a job into congestor ranks and measured ranks
 * and reports the Congestion Impact Factor, congested over isolated, for the
 * mean and the p99, with an incast (many to one) congestor.  Here the last K
 * ranks of the job congest and the first size - K are the timed ranks.
 *
 * The protocol, every step a collective over the job's communicator so that
 * no message is in flight once a phase is over:
 *   timed ranks                       congestors (lop_congest_serve)
 *   lop_congest_start: Ibcast START   wait for a command (idle: yielding)
 *                       wait "warm"   post receives and a window of sends;
 *                                     once the first window is sent, "warm"
 *   ... time the barriers ...         keep W sends and W receives in flight
 *   lop_congest_stop:   Ibarrier      test the stop Ibarrier in the loop
 *                                     (GPCNeT tests an MPI_Iallreduce);
 *                                     drain: Ialltoall of the per-destination
 *                                     counts, receive what is due, cancel
 *                                     the receives left over, wait the sends
 *                       Ireduce       the phase's counts to job rank 0
 *   lop_congest_end:    Ibcast END    return
 * Every wait gives up after --timeout, naming what it waited for, except a
 * congestor's wait for the next command (the timed ranks may rightly be
 * busy for long, as run_size's ranks left out of a size wait).
 */
#ifndef LOP_CONGEST_H
#define LOP_CONGEST_H

#include <mpi.h>

#include <gsl/gsl_rng.h>

#include "bench_opts.h"
#include "lop.h"
#include "mpisync.h"

/* A pattern: where congestor c of K sends its next message (-1: it only
 * receives).  A table, one row a pattern (--congest's choices). */
typedef struct {
    const char *name;
    const char *desc; /* one line, for bench/README.md and --help */
    int min_k;        /* fewest congestors it makes traffic with */
    int (*dest)(int c, int k, gsl_rng *rng);
} lop_congest_pattern_t;

extern const lop_congest_pattern_t lop_congest_patterns[]; /* NULL name ends it */
#define LOP_CONGEST_PATTERN_COUNT 3

/* The default of --congest-ranks (0): GPCNeT's 80 % of n ranks, leaving at
 * least 2 timed ranks. */
int lop_congest_default_k(int n);

typedef struct {
    const lop_congest_pattern_t *pattern;
    MPI_Comm job;             /* every rank */
    MPI_Comm timed;           /* the first size - K ranks; MPI_COMM_NULL on congestors */
    MPI_Comm cong;            /* the last K; MPI_COMM_NULL on timed ranks */
    int rank, size, k;        /* in job; k congestors */
    int c;                    /* index among the congestors; -1 on a timed rank */
    long bytes, window, max;  /* --congest-size, --congest-window, --congest-max */
    lop_poll_t poll;          /* --timeout, yielding when oversubscribed */
    gsl_rng *rng;             /* uniform's destinations */
    char *sbuf, *rbuf;        /* one message to send; window to receive into */
    MPI_Request *sreq, *rreq; /* [window] each */
    long *sent_to, *due_from; /* [k] this phase's messages to and from each congestor */
    unsigned long long sent, recvd; /* this phase */
    int capped;               /* this congestor reached --congest-max */
    /* job rank 0, after lop_congest_stop: the congested phase's totals */
    unsigned long long total_msgs, total_bytes;
    long n_capped;            /* congestors that reached --congest-max */
} lop_congest_t;

/* Collective over 'job': checks K against the job's size and the pattern
 * (one line naming the option), splits the job.  'oversubscribed': the
 * congestors yield their core now and then.  Fails alike on every rank;
 * nothing to close then. */
lop_status_t lop_congest_open(lop_congest_t *g, MPI_Comm job, const lop_bench_opts_t *o,
                              int oversubscribed);
void lop_congest_close(lop_congest_t *g);

/* The whole of a congested run, collective over 'job': open (K checked),
 * the layout into 'cores' (job rank 0), then the congestors serve while the
 * timed ranks run 'timed(ctx, g)' over g->timed, starting and stopping the
 * traffic themselves, and end it; the status agreed over the job. */
lop_status_t lop_congest_split_run(MPI_Comm job, const lop_bench_opts_t *o, int oversubscribed,
                                   char *cores, size_t len,
                                   lop_status_t (*timed)(void *ctx, lop_congest_t *g),
                                   void *ctx);

/* Congestors: serve phases until the timed ranks end the run.  Aborts the
 * job on a failure in a phase (a timed rank may be waiting). */
lop_status_t lop_congest_serve(lop_congest_t *g);

/* Timed ranks, collective over the job with the congestors. */
lop_status_t lop_congest_start(lop_congest_t *g);
lop_status_t lop_congest_stop(lop_congest_t *g);
lop_status_t lop_congest_end(lop_congest_t *g);

/* Collective over g->job: "separate" when no congestor ran on the host and
 * CPU (sched_getcpu) of a timed rank, else "shared (timed rank 0 and
 * congestor rank 3 on host:cpu h:1, ...)" (barrier.csv's
 * '# congest_cores:', on job rank 0). */
lop_status_t lop_congest_cores(const lop_congest_t *g, char *buf, size_t len);

/* Job rank 0 after lop_congest_stop: a warning on stderr when congestors
 * reached --congest-max (the traffic did not cover the whole phase). */
void lop_congest_warn(const lop_congest_t *g);

/* "uniform, 3 of 5 ranks congest (ranks 2-4), 4096 bytes, window 8, at most
 * 100000000 messages each" (barrier.csv's '# congest:'). */
void lop_congest_describe(const lop_congest_t *g, char *buf, size_t len);
/* "<m> messages, <b> bytes sent by the congestors in the congested phase;
 * stopped by the timed ranks" or "...; <k> congestors reached --congest-max"
 * (job rank 0, after lop_congest_stop). */
void lop_congest_traffic(const lop_congest_t *g, char *buf, size_t len);

#endif
