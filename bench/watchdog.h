/*
 * watchdog.h - the backstop behind every wait lopbench cannot poll.
 *
 * Poll loops give up at their own deadline (mpisync.h lop_poll_pause) and
 * name what they waited for.  Some waits are blocking MPI calls that cannot
 * be polled without changing what is measured (MPI_Barrier as the baseline,
 * the plain MPI_Send/MPI_Recv reference ping-pong) or that sit inside the
 * library (MPI_Win_flush to a stopped target, collectives in set-up).  A
 * thread that makes no MPI calls watches a heartbeat the measuring code
 * bumps at every unit of progress (a repetition, a barrier, a phase); when it
 * has not moved for the timeout, the watchdog prints one line naming the
 * rank and the phase and ends the process, and the launcher ends the job.
 */
#ifndef LOP_WATCHDOG_H
#define LOP_WATCHDOG_H

/* The heartbeat: bumped without a lock or a fence (a lost or late bump only
 * delays the verdict by one watchdog period). */
extern volatile unsigned long lop_watchdog_beats;

static inline void lop_watchdog_beat(void)
{
    lop_watchdog_beats++;
}

/* Start watching, before MPI_Init ('rank' the launcher's): 'prog' and
 * 'rank' for the message; no thread when timeout_s is 0.  The verdict comes
 * one to two watchdog periods (a quarter of timeout_s, at most 2.5 s) after
 * timeout_s without a beat, so a poll loop's own deadline (timeout_s, with a
 * better message) fires first where there is one.  Until the first
 * lop_watchdog_phase, in MPI_Init, the limit is at least
 * LOP_WATCHDOG_INIT_S: a large job's start-up may be slow, but a peer
 * stopped in it must not hold the others for ever. */
#define LOP_WATCHDOG_INIT_S 60.0
void lop_watchdog_start(const char *prog, int rank, double timeout_s);

/* Name what the process is doing now (copied; for the message). */
void lop_watchdog_phase(const char *what);
/* The run is over with exit status 'code' (0: its output written): a bark
 * now says so and exits with 'code', after --timeout but at most 10 s, as
 * nothing is left to lose.  MPI_Finalize that never returns: MPICH 4.0 over
 * UCX 1.13's TCP transport across nodes (openucx/ucx#8738: a rank closing
 * its endpoints waits for peers that sit in the final PMI barrier). */
void lop_watchdog_finalize(int code);

#endif
