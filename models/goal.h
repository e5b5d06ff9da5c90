/*
 * goal.h - a schedule in the GOAL text format of LogGOPSim (Hoefler,
 * Schneider, Lumsdaine, 2010), so the same barrier runs in both simulators.
 *
 *   num_ranks 4
 *   rank 0 {
 *   l1: send 8b to 1 tag 0
 *   l2: recv 8b from 3 tag 0
 *   l2 requires l1
 *   }
 *
 * One block per rank, one label per op in program order, the tag is the
 * op's step (sched.h promises that (step, peer) names a message, so tags
 * match exactly the messages lop's FIFO rule matches).  lop's rule is
 * in-order execution on one CPU: every op requires the previous op of its
 * rank, sends included - a send after a send waits for the first one's
 * overhead in lop too (the CPU is busy), and a receive after a send is not
 * posted early.  An MCAST has no GOAL counterpart: it is written as P - 1
 * sends in rank order (LogGOPSim then charges P - 1 send overheads where
 * lop charges one).
 */
#ifndef LOP_GOAL_H
#define LOP_GOAL_H

#include <stdio.h>

#include "lop.h"
#include "sched.h"

/* Write 's' as GOAL to 'out'. */
void sched_goal_write(const sched_t *s, FILE *out);

#endif
