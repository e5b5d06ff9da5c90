/*
 * sched_flow.h - which send each receive consumes, and running a schedule in
 * causal order.  The checker (sched_check.h) and the simulator (sched_sim.h)
 * are both callbacks over sched_flow_run().
 *
 * Matching follows the schedule semantics of sched.h: the k-th RECV of rank q
 * from rank s consumes the k-th message s addressed to q, where a message is
 * a SEND to q or an MCAST, in s's program order.
 *
 * The files: sched_match.c (matching, the scan), sched_flow.c (the dataflow
 * engine, the choice of way, the diagnosis of a stuck run), sched_pass.c and
 * sched_sweep.c (the other two engines), sched_run.c (sched_flow_run, above
 * them all: the engines call down to sched_flow.c, never up to it).
 *
 * sched_flow_run() executes the ranks as a dataflow machine: a rank runs until
 * a RECV whose message has not been posted yet, and resumes when the sender
 * posts it.  An op is executed only after every op it depends on (the
 * previous op of its rank; for a RECV the matching SEND), so callbacks see a
 * causal order - the order a discrete-event simulator processes events in,
 * when no resource is shared between ranks.
 */
#ifndef LOP_SCHED_FLOW_H
#define LOP_SCHED_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "lop.h"
#include "sched.h"

#define SCHED_UNMATCHED UINT32_MAX

/* Fill match[n_ops]: for a RECV the index of the SEND or MCAST it consumes,
 * for a SEND the index of the RECV consuming it, for an MCAST the number of
 * receivers (P - 1).  Errors: a peer out of range or equal to the rank, a
 * RECV without message, a message nobody receives. */
lop_status_t sched_match(const sched_t *s, uint32_t *match);

/* Sort 64-bit keys ascending (insertion sort for the usual short lists). */
void sched_keys_sort(uint64_t *key, size_t n);

/* A message in flight, as the receiver gets it. */
typedef struct {
    uint32_t send; /* the SEND or MCAST that posted it: its index in its rank's ops */
    uint32_t from; /* the rank that posted it */
    double value;  /* what post() returned for it (a time, a slot number) */
} sched_msg_t;

typedef struct {
    /* SEND or MCAST 'op', op k of 'rank' (its peer resolved), executes; the
     * value its message carries (an MCAST carries one value to every receiver). */
    double (*post)(void *ctx, uint32_t rank, uint32_t k, sched_op_t op);
    /* RECV ops first..last of 'rank' (indices in its ops) execute: a maximal
     * run of consecutive RECVs, every message of which has been posted;
     * msg[i] is the message RECV first + i consumes. */
    void (*recv_run)(void *ctx, uint32_t rank, uint32_t first, uint32_t last,
                     const sched_msg_t *msg);
    /* NULL, or: has the caller seen enough?  The run then stops early (the
     * engines ask between ranks, levels or slots) and returns
     * LOP_OK with ranks left unrun: what the callbacks saw is all there is. */
    int (*halted)(void *ctx);
} sched_flow_ops_t;

/* Peers in 0..P-1, never the rank itself, -1 exactly for MCAST (sched_match
 * checks this too; sched_flow_run needs it before it runs). */
lop_status_t sched_validate_peers(const sched_t *s);

/* What the engine needs to know of a stored schedule before it runs it. */
typedef struct {
    uint32_t longest_run; /* the most consecutive RECVs of a rank: one recv_run's messages */
    int runs_span_steps;  /* do consecutive RECVs of a rank ever differ in step? */
    uint32_t step_recvs;  /* the most RECVs of a rank in one step (steps in order) */
} sched_scan_t;

/* sched_validate_peers, and the scan. */
lop_status_t sched_scan(const sched_t *s, sched_scan_t *scan);

/* Run every rank to its end, matching messages as they are posted.
 *
 * A stored schedule runs as a dataflow machine: per receiver a list of the
 * messages in flight to it, in posting order (a RECV from s takes the first
 * one from s).  Ranks wait for their level - a level is a step of the
 * schedule - when P messages are in flight (or always, for schedules whose
 * steps keep every rank busy), so about one step's messages are in flight
 * (P for a dissemination round) instead of P log P; memory is O(P +
 * messages in flight), no per-op array.
 *
 * A generated schedule (sched.h: every rank's ops are rank 0's, moved) runs
 * slot by slot: op k of every rank, rank after rank, then op k + 1.  Its
 * RECV in slot k takes the message of a SEND slot before k (one slot
 * matched on rank 0's ops for all ranks: a later one would be a cycle of
 * waits around the ranks), so that order is causal; memory is P values per
 * message slot in flight (one, for the dissemination), nothing per op.
 *
 * Any causal order gives the same times, so the order is free to favour
 * speed.  '*events' counts executed ops.  Errors: a bad peer; a RECV that
 * never gets its message or a message nobody receives (diagnosed by
 * sched_match, same words); a deadlock is LOP_ERR_INVALID with the cycle of
 * waiting ranks in the message. */
lop_status_t sched_flow_run(const sched_t *s, const sched_flow_ops_t *ops, void *ctx,
                            uint64_t *events);
/* Why a stored schedule stopped with ranks left waiting at their ops pc[r]
 * or messages left over: a RECV without message or a message without RECV
 * (sched_match's words; a per-op array, on this error path only), else the
 * cycle of waiting ranks. */
lop_status_t sched_flow_stuck(const sched_t *s, const uint32_t *pc);
/* How sched_flow_run runs a schedule (its drivers may run the inline
 * engines of sched_pass.h and sched_sweep.h themselves). */
typedef enum {
    SCHED_RUN_DATAFLOW, /* ranks run until they block, woken by messages */
    SCHED_RUN_PASSES,   /* a stored schedule in lockstep: level by level, in passes */
    SCHED_RUN_SWEEP     /* a generated one: slot by slot */
} sched_run_t;

#define SCHED_PASS_MAX_SLOTS 16 /* RECVs of a rank in a step the passes take */

/* The way for 's', from its scan (unread for a generated schedule). */
sched_run_t sched_flow_way(const sched_t *s, const sched_scan_t *scan);
/* The three ways for any callbacks ('scan': sched_scan's of s; 'slots': its
 * step_recvs). */
lop_status_t sched_flow_dataflow(const sched_t *s, const sched_scan_t *scan,
                                 const sched_flow_ops_t *ops, void *ctx, uint64_t *events);
lop_status_t sched_flow_passes(const sched_t *s, uint32_t slots, const sched_flow_ops_t *ops,
                               void *ctx, uint64_t *events);
lop_status_t sched_flow_sweep(const sched_t *s, const sched_flow_ops_t *ops, void *ctx,
                              uint64_t *events);

#endif
