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

/* Busy-polling state.  When ranks outnumber cores a poll loop that never
 * gives up its core can keep the rank it waits for from running, so loops
 * call lop_poll_pause() once per unsuccessful check. */
typedef struct {
    unsigned count;       /* unsuccessful checks since the last yield */
    unsigned yield_every; /* yield after this many checks; 0 = never (a core per rank) */
} lop_poll_t;

/* Checks between two sched_yield() calls when oversubscribed. */
#define LOP_POLL_YIELD_EVERY 16

static inline void lop_poll_pause(lop_poll_t *poll)
{
    if (poll->yield_every && ++poll->count >= poll->yield_every) {
        poll->count = 0;
        sched_yield();
    }
}

/* Is this node running more ranks of 'comm' than it has online CPUs? */
int lop_mpi_oversubscribed(MPI_Comm comm);

/* Do all ranks of 'comm' share one node (so shared memory reaches them all)? */
int lop_mpi_single_node(MPI_Comm comm);

/* Collective: LOP_OK on every rank if 'status' is LOP_OK on every rank;
 * otherwise the status and lop_errmsg() of the lowest failing rank, on every
 * rank. */
lop_status_t lop_mpi_agree(MPI_Comm comm, lop_status_t status);

/* A failure in the middle of a measurement, where other ranks may be waiting
 * for this one: "prog: rank R: <lop_errmsg()>" on stderr, then MPI_Abort of
 * the whole job. */
void lop_mpi_fail_abort(const char *prog);

/* Collective: rank 0 creates the output directory 'dir' (mkdir -p, and a
 * check that files can be made in it); every rank learns whether it could.
 * The files are written at the end of the run, all or none (csv.h). */
lop_status_t lop_outdir_agree(MPI_Comm comm, const char *dir);

/* MPI_Waitall that polls with lop_poll_pause() between MPI_Testall calls. */
void lop_mpi_wait_all(int n, MPI_Request *req, lop_poll_t *poll);

/* MPI_Barrier that polls with lop_poll_pause() (MPI_Ibarrier + MPI_Test). */
void lop_mpi_barrier(MPI_Comm comm, lop_poll_t *poll);

/* The idle gap between repetitions (thesis listings 2.11, 2.12: wait_us(1000)).
 * Spins on the timer, or sleeps when oversubscribed so that the CPU goes to
 * ranks that still have work. */
void lop_mpi_idle(const lop_timer_t *timer, double us, int oversubscribed);

#endif
