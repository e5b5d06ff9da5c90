/*
 * sched_check.h - proof that a schedule is a barrier.
 *
 * Meyer and Elster (section V) encode a barrier as boolean incidence
 * matrices S_a and test K_a = K_(a-1) + K_(a-1) S_a: the pattern is a barrier
 * iff every rank ends up knowing that every rank has arrived.  The check
 * here executes the schedule symbolically with the same closure, message by
 * message instead of step by step: a rank's knowledge is a bitset over the
 * ranks (initially itself), a message carries a copy of its sender's
 * knowledge when it is posted, a RECV ORs it in.  It fails when
 *   - a peer is out of range, a RECV has no message or a message no RECV
 *     (sched_match), or the ranks deadlock (sched_flow_run);
 *   - after its last op a rank does not know of every rank;
 *   - the promises of sched.h are broken (a RECV in another step than its
 *     message, steps decreasing along a rank, two messages between the same
 *     ranks in one step).
 * Cost: ceil(P/64) words per rank per message, processed 64 * W ranks at a
 * time; sched_check_work() estimates it so a caller can refuse huge P.
 */
#ifndef LOP_SCHED_CHECK_H
#define LOP_SCHED_CHECK_H

#include <stdint.h>

#include "lop.h"
#include "sched.h"

/* Word operations the check of 's' takes: (ops + P) x ceil(P/64). */
double sched_check_work(const sched_t *s);
/* The same from a schedule's size alone. */
double sched_check_work_of(double n_ops, uint32_t p);

#define SCHED_CHECK_MAX_WORK 8.0e9 /* about ten seconds here */

struct barrier_alg; /* barrier.h */

/* Would the check of alg's schedule for p ranks with n be refused (more than
 * SCHED_CHECK_MAX_WORK), from its op count, before anything is built?
 * LOP_ERR_RANGE "P = .. is too large to check <alg> (..): the largest P it
 * checks is ..", else what sched_limit says. */
lop_status_t sched_check_limit(const struct barrier_alg *alg, uint32_t p, uint32_t n);

/* LOP_OK if 's' is a barrier; otherwise LOP_ERR_INVALID and lop_errmsg() says
 * why, naming a rank and an op.  LOP_ERR_RANGE when the work exceeds
 * SCHED_CHECK_MAX_WORK. */
lop_status_t sched_check(const sched_t *s);

/* What a schedule must spread (sched_check_what): every rank's arrival to
 * every rank (a barrier), every rank's to rank 0 (a gather: the arrival
 * phase of a hybrid's group), or rank 0's to every rank (a broadcast: its
 * departure).  The other tests of sched_check apply to all three. */
typedef enum { SCHED_KNOW_ALL, SCHED_KNOW_GATHER, SCHED_KNOW_BROADCAST } sched_know_t;
lop_status_t sched_check_what(const sched_t *s, sched_know_t what);

#endif
