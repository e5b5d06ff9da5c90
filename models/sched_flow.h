/*
 * sched_flow.h - which send each receive consumes, and running a schedule in
 * causal order.  The checker (sched_check.h) and the simulator (sched_sim.h)
 * are both callbacks over sched_flow_run().
 *
 * Matching follows the schedule semantics of sched.h: the k-th RECV of rank q
 * from rank s consumes the k-th message s addressed to q, where a message is
 * a SEND to q or an MCAST, in s's program order.
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

typedef struct {
    /* SEND or MCAST op 'op' of 'rank' executes. */
    void (*post)(void *ctx, uint32_t rank, uint32_t op);
    /* RECV ops first..last of 'rank' execute: a maximal run of consecutive
     * RECVs, every message of which has been posted. */
    void (*recv_run)(void *ctx, uint32_t rank, uint32_t first, uint32_t last);
} sched_flow_ops_t;

/* Run every rank to its end.  '*events' counts executed ops.  A deadlock is
 * LOP_ERR_INVALID with the cycle of waiting ranks in the message. */
lop_status_t sched_flow_run(const sched_t *s, const uint32_t *match, const sched_flow_ops_t *ops,
                            void *ctx, uint64_t *events);

#endif
