/*
 * ibmcast.h - hardware multicast for the verbs transport: every rank's
 * unreliable-datagram (UD) queue pair attached to one multicast group, one
 * post reaching them all, and Kini et al.'s reliability scheme for it
 * (../shared/seeds/001: section 3.3 RDMA gather + multicast, 4.3 and 5.4
 * NAKs, 5.2 barrier ids, 5.3 a separate completion queue for UD).
 *
 * Set-up (collective, lop_ib_mcast_open):
 *   - rank 0 picks a group 239.255.a.b (lop_mcast_group_pick) and a token
 *     that tells this job's packets from another's on the same group;
 *   - every rank joins it with librdmacm (an rdma_cm_id bound to the IPv4
 *     address of the GID lop routes by, rdma_join_multicast, the JOIN event
 *     awaited with a bound): on RoCE that joins the IP group too, without
 *     which the kernel drops the group's packets; on InfiniBand it would be
 *     the subnet administrator's join (lop sets it up for RoCE only);
 *   - every rank makes its own UD QP on lop's protection domain, attaches it
 *     to the group (ibv_attach_mcast) and keeps RX_DEPTH receives posted on
 *     it: a multicast to a rank without a posted receive is lost;
 *   - every rank keeps NAK_DEPTH receives posted on each RC QP of the
 *     transport, for the NAKs of ranks waiting for its multicasts.
 * Any failure on any rank (a device with max_mcast_grp 0, no rdma_ucm,
 * a join refused or late) leaves every rank without multicast, 'active' 0
 * and 'note' saying why, before any NAK receive is posted: the caller falls
 * back to point-to-point releases.
 *
 * A multicast carries (id, sender rank, token).  Ids of one sender only
 * grow, so a receiver keeps per sender the largest id seen: a copy of an id
 * already had (a retransmission, a late packet of an older barrier) is
 * recognised and ignored, and a wait for id k is satisfied by any id >= k
 * (Kini 5.2: the barrier id compared with >=).
 *
 * NAKs (Kini 4.3, 5.4): a rank that waited longer than the NAK timeout for
 * id k from a sender sends that sender an RC send of k with the solicited
 * flag (the transport's send path, bench/transport_verbs.c); the sender,
 * which polls its RC receive completion queue in every wait
 * (lop_ib_mcast_progress), re-multicasts release k if it has sent it and
 * ignores the NAK (counted early) if not.  Kini's root is woken by the
 * solicited event; lop's polls, the flag is set as the paper sets it.
 *
 * Test hooks (for tests only, bench/README.md): LOP_TEST_MCAST_DROP=RANK:K
 * makes RANK discard the K-th release it receives as if it were lost;
 * LOP_TEST_MCAST_NONE=RANK makes RANK's device pretend max_mcast_grp 0.
 */
#ifndef LOP_IBMCAST_H
#define LOP_IBMCAST_H

#include <infiniband/verbs.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "ibconn.h"
#include "lop.h"
#include "transport.h"

/* ---- the logic, apart from any device (unit-tested) ---- */

/* A group address, host byte order, from 32 random bits: 239.255.a.b with
 * a, b in 1..254 (IPv4 organisation-local scope, RFC 2365; never .0 or .255,
 * nor 239.255.255.250 or .253, which SSDP and SLP use). */
uint32_t lop_mcast_group_pick(uint32_t random);

/* LOP_TEST_MCAST_DROP's value "RANK:K" (K >= 1); errors name the variable. */
lop_status_t lop_mcast_drop_parse(const char *text, int *rank, uint64_t *k);

/* A release 'id' arrived from a sender whose largest id so far is *seen:
 * 1 and *seen = id if it is new, 0 for a duplicate or an older release. */
int lop_mcast_take(uint64_t *seen, uint64_t id);

/* A waiting rank's NAK timer: call with the clock while it waits, *next_s
 * zeroed at the start of the wait.  The first call arms it; 1 when a NAK is
 * due, after which the next one is due a timeout later. */
int lop_mcast_nak_due(double now_s, double timeout_s, double *next_s);

/* May a NAK for 'id' be answered by a sender whose last multicast is 'last'?
 * (0: the release was never sent: the NAK came early and is ignored.) */
int lop_mcast_nak_valid(uint64_t id, uint64_t last);

/* The test hooks' values are well-formed (or unset); checked before a run. */
lop_status_t lop_mcast_hooks_check(void);

/* ---- the group ---- */

#define LOP_IB_MCAST_NAK_DEPTH 4 /* NAK receives kept posted on each RC QP */

typedef struct lop_ib_mcast_priv lop_ib_mcast_priv_t;

typedef struct {
    int active;              /* joined on every rank: post and wait work */
    char note[320];          /* how a multicast travels here, or why it does not */
    double nak_timeout_s;    /* a waiting rank sends a NAK after this long */
    lop_mcast_counts_t counts; /* this rank's, since the group was opened */
    lop_ib_mcast_priv_t *priv;
} lop_ib_mcast_t;

/* Collective over comm (whose ranks conn's peers are): join, or agree on
 * every rank that multicast is not used ('active' 0, 'note' says why: the
 * caller falls back).  conn[0..n) are the transport's RC connections: NAKs
 * travel on them, and their receive completions go to dev->recv_cq, which
 * then carries nothing else.  'poll' (kept) bounds the waits for send
 * completions.  Returns LOP_OK: every failure is a fallback. */
lop_status_t lop_ib_mcast_open(lop_ib_mcast_t *mc, lop_ib_dev_t *dev, MPI_Comm comm,
                               const lop_ib_conn_t *conn, size_t n, lop_poll_t *poll,
                               double nak_timeout_s);
/* Local; leaves the group.  Safe on a group that never opened. */
void lop_ib_mcast_close(lop_ib_mcast_t *mc);

/* Multicast release 'id' (ids of one sender grow by one per release). */
lop_status_t lop_ib_mcast_post(lop_ib_mcast_t *mc, uint64_t id);
/* Once, without blocking: take the releases that arrived, answer the NAKs
 * that arrived. */
lop_status_t lop_ib_mcast_progress(lop_ib_mcast_t *mc);
/* The largest id received from 'sender' so far. */
uint64_t lop_ib_mcast_seen(const lop_ib_mcast_t *mc, int sender);

#endif
