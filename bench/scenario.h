/*
 * scenario.h - the LoP benchmark's measurements (thesis 2.3.5), written once
 * over the transport operations of transport.h:
 *   scenario 1 (listing 2.11)  o_s(k), o_r(k) and the completion time of k
 *                              requests posted back to back, ranks 0 and 1;
 *   scenario 2 (listing 2.12)  RTT(p): rank 0 and p peers, one message each
 *                              way, for p = 1..N-1; with "mcast" one
 *                              hardware multicast out, p RDMA writes back;
 *   scenario 3 (the gap)       PRTT(k): k messages back to back from rank 0
 *                              to rank 1 and one reply, k = 1..K, no idle
 *                              gap (netgauge's PRTT(n, 0, s): LogP's g);
 *   reference                  a plain MPI_Send/MPI_Recv ping-pong between
 *                              ranks 0 and 1 in the rhythm of scenario 2 at
 *                              p = 1, to show that the scenario code adds
 *                              nothing to RTT(1).
 * All are collective over b->comm; samples land on rank 0.  Each repetition
 * starts with the idle gap; the first b->warmup repetitions are discarded.
 */
#ifndef LOP_SCENARIO_H
#define LOP_SCENARIO_H

#include <mpi.h>
#include <stdint.h>

#include "fmt_series.h"
#include "progress.h"
#include "samples.h"
#include "timer.h"
#include "transport.h"

typedef struct {
    lop_transport_t *tp;     /* set up on every rank */
    const lop_timer_t *timer; /* this rank's cycle timer */
    MPI_Comm comm;           /* the transport's communicator */
    MPI_Comm pair;           /* ranks 0 and 1 of comm; MPI_COMM_NULL on the others */
    int rank, size;          /* in comm */
    long reps, warmup;       /* measured and discarded repetitions */
    double idle_us;          /* idle gap before each repetition (or round) */
    int idle_each_round;     /* the gap after each round's barrier instead
                                (lop_bench_cool), rounds apart (lop_bench_release) */
    int oversubscribed;      /* sleep rather than spin when idle */
    size_t max_post;         /* K */
    lop_progress_t *progress; /* rank 0's; NULL elsewhere */
    uint64_t seq;            /* last sequence value used; the same on every rank */
    int *to_other;           /* [K] the other end of the pair: 1 on rank 0, 0 on rank 1 */
    int *star;               /* rank 0: 1..N-1; others: {0} */
    /* The scenarios address peers only through to_other and star (ranks of the
     * transport's communicator), so a view with comm = pair = a two-rank
     * communicator, rank 0 or 1 in it, size 2, max_post 1 and both arrays
     * holding the other rank measures any pair of ranks (pairs_mode.c). */
} lop_bench_t;

/* Fills os and oc (and orecv, when non-NULL, for ops with receives) on rank 0. */
lop_status_t lop_scenario1_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *os,
                               lop_samples_t *oc, lop_samples_t *orecv);
/* Fills rtt (rows p = 1..N-1) on rank 0, and for a multicast op (lop_op_desc
 * .multicast) os, the CPU time of its one post, when non-NULL. */
lop_status_t lop_scenario2_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *rtt,
                               lop_samples_t *os);
/* Fills prtt on rank 0: rows k = 1..lop_scenario3_rows (K for two-sided
 * ops, 1 for one-sided ones); then exch, the exchange X(1) (one row); then,
 * with LOP_FMT_SERIES_RING_MIN_RANKS ranks or more (the transport linking
 * each with the next: lop_transport_t.link_ring), ring, the ring R(P) of
 * all P ranks (one row, its p_first P). */
size_t lop_scenario3_rows(const lop_bench_t *b, lop_op_t op);
lop_status_t lop_scenario3_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *prtt,
                               lop_samples_t *exch, lop_samples_t *ring);
/* Fills rtt (one row) on rank 0. */
lop_status_t lop_reference_run(lop_bench_t *b, lop_samples_t *rtt);

/* ---- the repetition loop the three share (scenario.c) ---- */

/* One round: row p of repetition rep (negative while warming up), every
 * message carrying 'seq'. */
typedef lop_status_t (*lop_round_fn)(lop_bench_t *b, void *ctx, size_t p, long rep,
                                     uint64_t seq);

/* Collective over b->comm.  Ranks for which 'takes_part' is false sit the
 * loop out, polling as a barrier's waiting ranks do; the rest run, per
 * repetition, the idle gap and then round(p) for p = 1..n_p.  Sequence values
 * advance by the same amount on every rank. */
lop_status_t lop_bench_repeat(lop_bench_t *b, int takes_part, size_t n_p, lop_round_fn round,
                              void *ctx);

/* Wait for 'req', napping between tests so that ranks that share our core
 * run, and keeping the watchdog quiet (--pairs' ends of rounds, where ranks
 * done measuring wait for the slowest pair).  Without a deadline (timeout_s
 * 0); with one, LOP_ERR_TIMEOUT "timed out after S s waiting for <what>"
 * once timeout_s have passed. */
lop_status_t lop_bench_nap_wait(MPI_Request *req, double timeout_s, const char *what);

/* Scenario 2's rhythm, and the reference's: each round's messages alone on
 * the wire.  After the round's barrier every rank idles (b->idle_us), so the
 * adapters cool down from the barrier's own messages, which on a NIC slower
 * than the CPU still drain when the barrier returns (thesis 2.3.2, 2.3.5);
 * at its end every rank waits for rank 0's release, polling, so that no
 * rank's next barrier sends while rank 0 still times this round.  Loops of such rounds
 * run through lop_bench_repeat_apart: every rank takes part, and the gap
 * comes in each round (idle_each_round) instead of each repetition. */
void lop_bench_cool(const lop_bench_t *b);
lop_status_t lop_bench_release(lop_bench_t *b);
/* Between a round's barrier and its idle gap: one empty MPI message from
 * rank 0 to each of peers 1..p (star) and one back, untimed, each peer
 * answering once it has received ('req': 2p requests, used on rank 0).
 * Over TCP a socket whose last message went one way (a barrier's, a
 * release's) acknowledges the next with a frame of its own ahead of the
 * reply, a frame more inside the timed round on a slow link; after a
 * two-way exchange the reply carries the acknowledgement (bench/README.md,
 * scenario 2). */
lop_status_t lop_bench_both_ways(lop_bench_t *b, size_t p, MPI_Request *req);
lop_status_t lop_bench_repeat_apart(lop_bench_t *b, size_t n_p, lop_round_fn round, void *ctx);

/* Work units of one repetition with n_p rows, for the progress estimate:
 * the idle gap plus a guess of a few microseconds per round, in us. */
double lop_bench_rep_units(const lop_bench_t *b, size_t n_p);

/* Store a measured sample (warm-up rounds and NULL sets are not stored). */
static inline void lop_bench_record(lop_samples_t *s, size_t p, long rep, double us)
{
    if (s && rep >= 0)
        *lop_samples_at(s, p, (size_t)rep) = us;
}

#endif
