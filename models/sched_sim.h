/*
 * sched_sim.h - discrete-event simulation of a schedule under LogP or LoP.
 *
 * Every op is an event processed once the events it depends on are (the
 * rank's previous op; for a RECV the SEND it consumes), via sched_flow_run.
 * No resource is shared between ranks (the thesis's switch has full
 * bisection and forwards without blocking, 2.1.4.5), so this causal order
 * gives the same times as a global time-ordered event queue, at O(1) per
 * event.  Per rank: its CPU, its sending and its receiving side.
 *
 * LogP (thesis 2.1.4.4 with the assumptions of 2.1.4.5):
 *   a send starts at max{CPU free, previous send start + g}, occupies the CPU
 *   for o_s, and arrives at start + o_s + L (a multicast at every rank);
 *   a receive starts at max{CPU free, arrival, previous receive start + g}
 *   and occupies the CPU for o_r.  With adapter_gap the gap holds back the
 *   messages on the adapter instead of the CPU (sched_sim_t), with
 *   adapter_burst through a token bucket (the generic cell rate algorithm:
 *   a message may pass up to (B - 1) g before its paced time).  This gives 1:n in o_s + (n-1) f_s, the
 *   receiver's enqueueing f_r of 2.2.5.1, and t_r = max{g, o_s + L + o_r}.
 *   With per-pair costs (sched_sim_t.pairs, pairs.h) o_s and L are those of
 *   the message's sender and receiver (Meyer and Elster's O and L; an MCAST
 *   charges the largest o over its receivers), and with or_per_pair so is
 *   o_r (each receiver its own pair's o).  SCHED_RECV_ARRIVAL takes the
 *   messages of a run of consecutive RECVs in arrival order (as LogGOPSim),
 *   SCHED_RECV_PROGRAM (the default) in program order.
 *
 * LoP (thesis 2.3.3, 2.3.7; o(p) and L(p) of a parameter set):
 *   posting a message costs the CPU o(x_s); the HCA starts right after the
 *   first post and sends one message per L(x): message k of a batch leaves at
 *   max{its post, the previous message's leave} + L(x); the receiving side
 *   accepts one message per L(x) in arrival order (consecutive RECVs of a
 *   rank are one receive batch); no receive overhead (2.3.4: receives are
 *   posted in advance, RDMA is polled).  So 1:n costs o(n) + n L(n), n:1
 *   o(1) + n L(n) and 1:1 o(1) + L(1), as in 2.3.7.
 *   The argument x is cnt times (SCHED_LOP_STREAM, the default) the length of
 *   the stream of the barrier - the sender's messages for o, the larger of
 *   the sender's messages and the receiver's messages for L - as the thesis's
 *   forms of 2.3.7.1 do (o(n cnt R), L(n cnt R)); or (SCHED_LOP_BATCH) the
 *   size of the batch the message belongs to (the sender's run of SENDs, the
 *   larger of that and the receiver's run of RECVs).  A multicast is one
 *   post; its L is taken per receiver.
 */
#ifndef LOP_SCHED_SIM_H
#define LOP_SCHED_SIM_H

#include <stdint.h>

#include "barrier.h"
#include "lop.h"
#include "sched.h"

typedef enum {
    SCHED_SIM_LOGP,
    SCHED_SIM_LOP
} sched_sim_model_t;

typedef enum {
    SCHED_LOP_STREAM, /* x = cnt * messages of the barrier (thesis 2.3.7.1) */
    SCHED_LOP_BATCH   /* x = cnt * messages of the batch */
} sched_lop_arg_t;

/* When a LogP receive's overhead is charged (models/README.md). */
typedef enum {
    SCHED_RECV_PROGRAM, /* when the rank reaches the RECV (thesis; the default) */
    SCHED_RECV_ARRIVAL  /* within a run of RECVs, in arrival order (as LogGOPSim) */
} sched_recv_order_t;

struct pairs; /* pairs.h */

typedef struct {
    sched_sim_model_t model;
    barrier_cost_t *cost;          /* LogP parameters; LoP set, cnt and the range record */
    sched_lop_arg_t lop_arg;       /* LoP only */
    const struct pairs *pairs;     /* LogP only: per-pair o_s and L (NULL: cost->logp's) */
    sched_recv_order_t recv_order; /* LogP only */
    int or_per_pair;               /* LogP with pairs: a receive costs its message's o_ij
                                      (LogP's one o) instead of cost->logp.or_us */
    int adapter_gap;               /* LogP: g is the adapter's, not the CPU's: a send
                                      occupies the CPU for o_s and leaves at max{its
                                      post's end, the previous leave + g}; a message is
                                      delivered at max{arrival, the previous delivery
                                      + g} (a NIC slower than the CPU, thesis 2.3.2) */
    double adapter_burst;          /* with adapter_gap: messages an adapter passes at
                                      once after idle (a token bucket of this many
                                      messages refilled one per g; <= 1: none) */
    int adapter_shared;            /* with adapter_gap: sends and deliveries of a rank
                                      pass one gap (one bucket), not one each: a host
                                      that handles them one at a time */
    double ack_us;                 /* with adapter_gap, > 0: a message whose receiver
                                      sends nothing back to its sender in the schedule
                                      costs the receiver's sending side ack_us when
                                      delivered: the transport's acknowledgement, which
                                      no message of its own carries (TCP's pure ACK) */
    double give_up_us;             /* > 0: the run may stop once a rank's time passes
                                      this (sched_sim_result_t.gave_up; the plain sweep
                                      of a generated schedule never does) */
} sched_sim_t;

typedef struct {
    double max_us;    /* the barrier's time: when the last rank completes its last op */
    double *rank_us;  /* per-rank completion times if asked for (free()), else NULL */
    uint64_t events;  /* ops executed */
    double match_s;   /* wall time of the set-up (LoP batch: matching messages) */
    double run_s;     /* wall time of the event simulation proper, matching on the fly */
    int gave_up;      /* stopped past give_up_us: max_us is a rank's time above it, so
                         the barrier's is too, and nothing more is known */
} sched_sim_result_t;

/* Simulate 's'; 'want_ranks' asks for res->rank_us.  Errors of sched_match
 * and deadlocks are reported; the barrier property itself is sched_check's. */
lop_status_t sched_sim_run(const sched_t *s, const sched_sim_t *par, int want_ranks,
                           sched_sim_result_t *res);

#endif
