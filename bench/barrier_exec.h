/*
 * barrier_exec.h - running barrier schedules for real (lopbench --barrier).
 *
 * The schedules are lopredict's own (models/sched.h): one walker executes a
 * rank's ops over the transport operations of transport.h, so every executor
 * runs the very message pattern that was checked, simulated and costed.
 *   p2p    mpi transport, "send": MPI_Isend of one 8-byte value, MPI_Irecv +
 *          wait at the receive (MPI_Recv semantics);
 *   shm    mpi transport, "rdmaw": a one-sided write into the peer's slot,
 *          the peer polling its own memory (MPI_Win_allocate_shared on one
 *          node, an atomic MPI put + flush otherwise) - the design of thesis 4.1.3 and
 *          OSU report 001 section 5;
 *   verbs  verbs transport, "rdmaw" with inline posts over RC queue pairs
 *          (thesis 4.1.3);
 *   mpi    MPI_Barrier itself, the baseline.
 * A message from rank a to rank b carries the number of messages a has sent
 * to b so far; b waits for its slot (or the next message) to reach the count
 * it expects.  Counts only grow, so consecutive barriers never interfere and
 * a peer that signals twice in one barrier is told apart (OSU 001 section 5.2
 * uses the barrier number the same way).
 * An MCAST (rgm's release, Kini et al. 3.3) is one hardware multicast where
 * the transport has one (t->mcast: verbs with a joined group), carrying the
 * sender's count of its multicasts (Kini's barrier id); a RECV whose message
 * is an MCAST then waits for that multicast (wait_mcast, which recovers a
 * lost one with NAKs).  Elsewhere an MCAST is P - 1 ordinary messages.
 *
 * Timing follows the thesis's microbenchmark (4.3.2): align with a barrier,
 * time R consecutive barriers with the cycle timer, take each rank's mean
 * and the maximum over ranks; the per-iteration durations of that same
 * slowest-mean rank give min, median, p99 and max.  Not a per-iteration
 * maximum over ranks: barriers pipeline, so ranks' iteration boundaries drift
 * apart and such a maximum would not be comparable with the average (one
 * rank's series keeps min <= avg <= max).
 */
#ifndef LOP_BARRIER_EXEC_H
#define LOP_BARRIER_EXEC_H

#include <mpi.h>
#include <stdint.h>

#include "fmt_barrier.h"
#include "lop.h"
#include "sched.h"
#include "stats.h"
#include "timer.h"
#include "transport.h"
#include "witness.h"

/* The executors are barrier.csv's (src/fmt_barrier.h lop_barrier_execs, in
 * the order they run): each row's transport and series say how it runs. */

/* How an executor's messages travel and are posted: the two halves of its
 * series (SEND and NORMAL for MPI_Barrier, which walks no schedule). */
void lop_barrier_exec_how(const lop_barrier_exec_t *x, lop_op_t *op, lop_post_t *post);

/* The lop series ("<op>-<post>", as scenario 1 and 2 name theirs) whose
 * costs the executor's messages have when posted with 'post' (its own
 * post, or normal where the device lacks it): barrier.csv's series column,
 * which lopredict --measured predicts with.  "" for MPI_Barrier, which
 * walks no schedule. */
const char *lop_barrier_exec_series(const lop_barrier_exec_t *x, lop_post_t post, char *buf,
                                    size_t len);

/* What one measurement needs; the same on every rank of 'comm'. */
typedef struct {
    const lop_timer_t *timer;
    MPI_Comm comm;          /* the ranks that take part (size = schedule's P) */
    lop_transport_t *tp;    /* opened over comm; NULL for the mpi executor */
    const lop_barrier_exec_t *exec;
    lop_post_t post;        /* exec->post, or normal where the device lacks it */
    const sched_t *sched;   /* NULL for the mpi executor */
    uint64_t *counts;       /* [3 * size] messages sent to and received from each
                             * peer, then multicasts (this rank's own entry: sent;
                             * a peer's: received from it): zero when the
                             * transport opens, then kept by the caller for as
                             * long as it is open, because one-sided slots and
                             * multicast ids keep the counts they were sent */
    long reps, warmup;
    lop_poll_t poll;        /* how waits pause (yield when oversubscribed) */
    double check_delay_us;  /* > 0: --check mode with random delays up to this */
    unsigned long seed;     /* of the --check delays */
    const lop_witness_ops_t *witness; /* --check's witness (lop_witness_choose) */
} lop_barrier_run_t;

typedef struct {
    lop_stats_t iter;       /* per-iteration times of the slowest-mean rank, us (rank 0) */
    double *iter_us;        /* rank 0: those times, sorted (iter.n of them), for
                             * barrier-hist.csv; NULL elsewhere and with --check.
                             * The caller frees it (lop_barrier_report_free) */
    double avg_us;          /* max over ranks of the per-rank mean (thesis 4.3.2) */
    long violations;        /* --check: times a rank left before all had entered */
    long checked;           /* --check: barrier exits verified */
    int mcast;              /* MCASTs went by hardware multicast (t->mcast) */
    lop_mcast_counts_t mcast_counts; /* what the multicast did, summed over ranks (rank 0) */
} lop_barrier_result_t;

/* Collective over run->comm.  Results are complete on rank 0. */
lop_status_t lop_barrier_measure(const lop_barrier_run_t *run, lop_barrier_result_t *res);

/* Receive requests the walker may have outstanding from one peer: the most
 * messages one rank receives from one peer within one barrier (at least 1). */
lop_status_t lop_barrier_max_recv_per_peer(const sched_t *s, size_t *most);

#endif
