/*
 * mpisync.h - what every MPI rank of lopbench needs to stay in step with the
 * others: agreeing on a failure, waiting without starving a rank that shares
 * our core, and the cool-down gap between repetitions.
 *
 * A failure detected on one rank must stop every rank (no hang), and only one
 * line should be printed: lop_mpi_agree() shares the first failing rank's
 * status and message with all ranks, so rank 0 can print it for everyone.
 */
#ifndef LOP_MPISYNC_H
#define LOP_MPISYNC_H

#include <mpi.h>
#include <sched.h>

#include "lop.h"
#include "timer.h"
#include "watchdog.h"

/* Busy-polling state.  When ranks outnumber cores a poll loop that never
 * gives up its core can keep the rank it waits for from running, so loops
 * call lop_poll_pause() once per unsuccessful check.  No wait is endless:
 * each one gives up after timeout_s (lopbench --timeout), so a stopped or
 * dead peer ends the job with a message instead of hanging it. */
typedef struct {
    unsigned count;       /* unsuccessful checks since the last yield */
    unsigned yield_every; /* yield after this many checks; 0 = never (a core per rank) */
    double timeout_s;     /* a wait gives up after this long; 0 = never */
    const MPI_Comm *progress; /* non-NULL: drive MPI's progress on it now and then
                               * (lop_mpi_progress), for one-sided MPI aimed at
                               * this rank while it waits outside MPI */
} lop_poll_t;

/* One wait in progress: declare it zeroed before the loop (lop_wait_t w = {0}). */
typedef struct {
    unsigned checks;      /* unsuccessful checks so far */
    double deadline_s;    /* lop_timer_clock_s() at which the wait gives up */
} lop_wait_t;

/* Checks between two sched_yield() calls when oversubscribed. */
#define LOP_POLL_YIELD_EVERY 16
/* Checks between two readings of the clock: reading it costs some 20 ns,
 * a check of a completion queue or a memory word a few. */
#define LOP_POLL_CLOCK_EVERY 1024u

/* Let MPI progress on comm (MPI_Iprobe): over a network, one-sided
 * operations aimed at this rank (Open MPI's osc ucx over TCP) are applied
 * only while it calls into MPI. */
void lop_mpi_progress(MPI_Comm comm);

/* Called after each unsuccessful check of a wait; nonzero once the wait has
 * lasted poll->timeout_s, counted from its LOP_POLL_CLOCK_EVERY-th miss (some
 * microseconds in, where the clock is first read).  A wait without a deadline
 * is one that may rightly last long (a rank sitting out while others
 * measure): it keeps the watchdog quiet. */
static inline int lop_poll_pause(lop_poll_t *poll, lop_wait_t *wait)
{
    if (poll->yield_every && ++poll->count >= poll->yield_every) {
        poll->count = 0;
        sched_yield();
    }
    unsigned check = wait->checks++;
    if (poll->timeout_s <= 0)
        lop_watchdog_beat();
    if (check % LOP_POLL_CLOCK_EVERY != 0)
        return 0;
    if (poll->progress)
        lop_mpi_progress(*poll->progress);
    /* No clock at the first miss: most waits of a barrier miss once or a
     * few times, and a reading there made an exchange some 5 % slower. */
    if (poll->timeout_s <= 0 || check == 0)
        return 0;
    double now = lop_timer_clock_s();
    if (check == LOP_POLL_CLOCK_EVERY)
        wait->deadline_s = now + poll->timeout_s;
    return now > wait->deadline_s;
}

/* The error of a wait that gave up: LOP_ERR_TIMEOUT, "timed out after S s
 * waiting for <what>". */
lop_status_t lop_poll_timeout(const lop_poll_t *poll, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Is this machine (kernel: the emulated nodes of one host are one machine)
 * running more ranks of 'comm' than it has online CPUs? */
int lop_mpi_oversubscribed(MPI_Comm comm);

/* Do all ranks of 'comm' share one node (so shared memory reaches them all)? */
int lop_mpi_single_node(MPI_Comm comm);

/* Bytes of a host name gathered by lop_mpi_hosts, with its NUL. */
#define LOP_MPI_HOST_MAX 256

/* Collective: on rank 0, '*hosts' is a new string naming the nodes of the
 * run, "2: node0 (2 ranks), node1 (2 ranks)" (hosts in the order of their
 * lowest rank); NULL elsewhere.  Every rank also learns every rank's node,
 * for lop_mpi_host_of.  LOP_ERR_NOMEM if it could not be made. */
lop_status_t lop_mpi_hosts(MPI_Comm comm, char **hosts);

/* The node of 'rank' of the last lop_mpi_hosts communicator ("node1"), for
 * messages naming the peer a wait waited for; "host unknown" before it. */
const char *lop_mpi_host_of(int rank);

/* Collective: LOP_OK on every rank if 'status' is LOP_OK on every rank;
 * otherwise the status and lop_errmsg() of the lowest failing rank, on every
 * rank. */
lop_status_t lop_mpi_agree(MPI_Comm comm, lop_status_t status);

/* Collective over comm: MPI_Win_allocate (MPI_Win_allocate_shared when
 * 'shared') of 'bytes' at *base, displacements in 64-bit slots, agreed by
 * every rank.  MPI's failure is
 * returned, never fatal: LOP_ERR_UNSUPPORTED "MPI_Win_allocate failed: ...",
 * *win MPI_WIN_NULL (Open MPI between nodes with TCP alone has no one-sided
 * component).  A window made by some ranks only is left unused: freeing it
 * would wait for the others. */
lop_status_t lop_mpi_window(MPI_Comm comm, MPI_Aint bytes, int shared, void *base, MPI_Win *win);

/* A failure in the middle of a measurement, where other ranks may be waiting
 * for this one: "prog: rank R: <lop_errmsg()>" on stderr, then MPI_Abort of
 * the whole job. */
void lop_mpi_fail_abort(const char *prog);

/* Collective: rank 0 creates the output directory 'dir' (mkdir -p, and a
 * check that files can be made in it) and checks that each file of 'names'
 * (NULL-terminated, or NULL) may be replaced (csv.h: a regular file or
 * none), before the work; every rank learns whether it could.  The files
 * are written at the end of the run, all or none (csv.h). */
lop_status_t lop_outdir_agree(MPI_Comm comm, const char *dir, const char *const *names);

/* MPI_Waitall that polls with lop_poll_pause() between MPI_Testall calls;
 * LOP_ERR_TIMEOUT naming 'what' (e.g. "the send to rank 3") at the deadline. */
lop_status_t lop_mpi_wait_all(int n, MPI_Request *req, lop_poll_t *poll, const char *what);

/* lop_mpi_wait_all for requests that wait on 'peer' of 'comm': its timeout
 * names the peer, "<what> with rank R on <node>" (R in MPI_COMM_WORLD). */
lop_status_t lop_mpi_wait_peer(int n, MPI_Request *req, lop_poll_t *poll, MPI_Comm comm,
                               int peer, const char *what);

/* MPI_Barrier that polls with lop_poll_pause() (MPI_Ibarrier + MPI_Test). */
lop_status_t lop_mpi_barrier(MPI_Comm comm, lop_poll_t *poll);

/* The idle gap between repetitions (thesis listings 2.11, 2.12: wait_us(1000)).
 * Spins on the timer, or sleeps when oversubscribed so that the CPU goes to
 * ranks that still have work. */
void lop_mpi_idle(const lop_timer_t *timer, double us, int oversubscribed);

#endif
