/*
 * transport.h - the handful of network operations lopbench's two scenarios
 * are written against (scenario1.c, scenario2.c), one ops table per backend:
 *   verbs   RC queue pairs over rdma-core's libibverbs   (transport_verbs.c)
 *   mpi     MPI point-to-point and RMA                   (transport_mpi.c)
 *
 * An operation (lop_op_t) is how a message travels: "send" is a two-sided
 * send/receive, "rdmaw" a one-sided write of a sequence value into the
 * target's memory, which the target polls (thesis 2.3.5, OSU report 001
 * section 5.2), "mcast" one hardware multicast to every other rank (Kini et
 * al. 3.3; scenario 2 only, each receiver answering with an RDMA write; the
 * transport then set up with want_mcast).  A post type (lop_post_t) is how the sender hands requests to
 * the transport: one call per request, inline data, or one call for a list.
 *
 * Every message carries the scenario's current sequence value, which only
 * grows, so a waiting rank recognises its message by value >= seq.
 */
#ifndef LOP_TRANSPORT_H
#define LOP_TRANSPORT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "lop.h"
#include "mpisync.h"

typedef enum { LOP_OP_SEND, LOP_OP_RDMAW, LOP_OP_MCAST, LOP_OP_COUNT } lop_op_t;
typedef enum { LOP_POST_NORMAL, LOP_POST_INLINE, LOP_POST_LIST, LOP_POST_COUNT } lop_post_t;

typedef struct {
    const char *name; /* "send", "rdmaw", "mcast": the first half of a series name */
    int uses_recv;    /* the target posts receive requests (else it polls memory) */
    int multicast;    /* one post reaches every other rank (post_mcast): measured by
                       * scenario 2 alone, answered by RDMA writes */
} lop_op_desc_t;

typedef struct {
    const char *name; /* "normal", "inline", "list" */
    int in_rtt;       /* measured by scenario 2 too; the thesis posts lists only
                       * in scenario 1, their RTT being that of normal (2.3.7) */
} lop_post_desc_t;

extern const lop_op_desc_t lop_op_desc[LOP_OP_COUNT];
extern const lop_post_desc_t lop_post_desc[LOP_POST_COUNT];

/* How MPI RMA reaches the target's memory for rdmaw. */
typedef enum {
    LOP_RMA_AUTO,   /* shared when every rank is on one node, else put */
    LOP_RMA_SHARED, /* stores into an MPI_Win_allocate_shared window */
    LOP_RMA_PUT     /* MPI_Accumulate(MPI_REPLACE), an atomic put, + MPI_Win_flush into
                     * an MPI_Win_allocate window */
} lop_rma_mode_t;

/* --gid-index auto: choose from the GID table (ibconn.h lop_ib_gid_choose). */
#define LOP_GID_AUTO (-1)

/* What the user asked of the transport. */
typedef struct {
    const char *device; /* verbs device name, NULL = the first one */
    int port;           /* verbs port number (1-based) */
    int gid_index;      /* GID table index (RoCE, or a routed InfiniBand fabric), or LOP_GID_AUTO */
    int gid_index_set;  /* the user gave --gid-index: use a global route header */
    int tclass;         /* traffic class of the global route header */
    int sl;             /* service level */
    lop_rma_mode_t rma; /* mpi rdmaw: how to reach the target's window */
    double nak_ms;      /* verbs multicast: a rank waiting this long for a release
                         * asks its sender again (a NAK, Kini et al. 4.3) */
} lop_transport_cfg_t;

/* What a transport's multicast did (post_mcast, wait_mcast), per rank. */
typedef struct {
    uint64_t sent;       /* multicasts posted (first transmissions) */
    uint64_t resent;     /* re-multicast because a NAK asked */
    uint64_t taken;      /* multicasts received with a new id */
    uint64_t duplicates; /* received with an id already had, or older: ignored */
    uint64_t dropped;    /* discarded as if lost (LOP_TEST_MCAST_DROP, tests only) */
    uint64_t naks_sent;  /* NAKs sent: waited longer than the NAK timeout */
    uint64_t naks_received; /* NAKs received */
    uint64_t naks_early; /* of those, for a multicast not posted yet: ignored */
} lop_mcast_counts_t;
#define LOP_MCAST_COUNTS_N 8 /* its fields, all uint64_t (for MPI and sums) */
/* to += sign * c, field by field (sign 1 or -1). */
void lop_mcast_counts_add(lop_mcast_counts_t *to, const lop_mcast_counts_t *c, int sign);

typedef struct lop_transport lop_transport_t;

typedef struct {
    const char *name; /* "verbs", "mpi" */
    /* Runs on an RDMA device, so --device, --port, --gid-index, --tclass and
     * --sl apply; a transport without one refuses them (bench_opts.c). */
    int takes_device;
    /* A message that finds no receive posted is not kept for a later one
     * (verbs RC: receiver not ready, retried 0.64 ms later), so receives go
     * up before a peer can send; MPI keeps it, and a receive may follow. */
    int recv_before_send;
    /* Collective over t->comm.  Fills t->priv and t->device; fails the same way
     * on every rank (LOP_ERR_UNSUPPORTED when the backend cannot run here) and
     * then leaves nothing allocated. */
    lop_status_t (*setup)(lop_transport_t *t, const lop_transport_cfg_t *cfg);
    /* Local; undoes setup. */
    void (*cleanup)(lop_transport_t *t);
    /* NULL if (op, post) can be measured, else a short reason why not (valid
     * while the transport is open). */
    const char *(*why_not)(const lop_transport_t *t, lop_op_t op, lop_post_t post);
    /* Post n receive requests, the i-th for a message from peers[i]. */
    lop_status_t (*post_recv)(lop_transport_t *t, const int *peers, size_t n, lop_post_t post);
    /* Post n requests carrying 'seq', the i-th to peers[i]. */
    lop_status_t (*post_send)(lop_transport_t *t, lop_op_t op, const int *peers, size_t n,
                              lop_post_t post, uint64_t seq);
    /* Wait until every request posted by post_send has completed locally. */
    lop_status_t (*wait_send)(lop_transport_t *t);
    /* Wait for the next message of 'op' from 'peer' carrying 'seq' (a posted
     * receive completing, or the peer's memory slot reaching seq). */
    lop_status_t (*wait_recv)(lop_transport_t *t, lop_op_t op, int peer, uint64_t seq);
    /* Optional, NULL where the backend has no multicast, and usable only when
     * setup set t->mcast (it was asked for with t->want_mcast and works):
     * post one message carrying 'id' to every other rank at once, and wait
     * for a multicast from 'sender' carrying 'id' or more (ids of a sender
     * only grow; a lost one is recovered inside, Kini et al. 4.3). */
    lop_status_t (*post_mcast)(lop_transport_t *t, uint64_t id);
    lop_status_t (*wait_mcast)(lop_transport_t *t, int sender, uint64_t id);
    /* What the multicast did since setup, on this rank. */
    void (*mcast_counts)(const lop_transport_t *t, lop_mcast_counts_t *counts);
} lop_transport_ops_t;

struct lop_transport {
    const lop_transport_ops_t *ops; /* the backend */
    MPI_Comm comm;   /* the benchmark's communicator (rank 0 is the root) */
    int rank, size;  /* in comm */
    size_t max_post; /* most requests one post call addresses to one peer (K) */
    int all_pairs;   /* link every pair of ranks (barrier executors), not only the
                      * star of rank 0 and the others (scenarios 1 and 2) */
    int link_ring;   /* also link each rank with the next, r + 1 mod size (scenario
                      * 3's ring; lop_transport_linked) */
    lop_poll_t poll; /* how wait loops pause */
    int want_mcast;  /* set up post_mcast/wait_mcast (barrier schedules with an MCAST);
                      * the RC QPs then carry no two-sided messages but NAKs */
    int mcast;       /* setup: post_mcast/wait_mcast work (same on every rank) */
    char mcast_note[320]; /* setup, when asked: how a multicast travels, or why not */
    char device[256]; /* what was measured, for "# device:" */
    void *priv;      /* the backend's state */
};

extern const lop_transport_ops_t lop_transport_mpi, lop_transport_verbs;

/* ---- for backends: per peer, a ring of K receive slots.  Receives from one
 * peer complete in the order they were posted, so the oldest posted slot is
 * the one the next message lands in. */
typedef struct {
    const char *who;  /* backend name, for messages */
    size_t k;         /* slots per peer */
    size_t *posted;   /* [rank] receives posted, ever */
    size_t *consumed; /* [rank] receives waited for, ever */
} lop_recv_ring_t;

lop_status_t lop_recv_ring_init(lop_recv_ring_t *ring, const char *who, size_t size, size_t k);
void lop_recv_ring_free(lop_recv_ring_t *ring);
/* The slot (peer * k + i) the next receive from 'peer' is posted into. */
lop_status_t lop_recv_ring_post(lop_recv_ring_t *ring, int peer, size_t *slot);
/* The slot of the oldest receive from 'peer' not yet waited for. */
lop_status_t lop_recv_ring_take(lop_recv_ring_t *ring, int peer, size_t *slot);
/* A received value must be the round's sequence value. */
lop_status_t lop_recv_ring_check(const lop_recv_ring_t *ring, int peer, uint64_t got,
                                 uint64_t want);

/* Does this rank link 'peer' (another rank): all pairs, the star of rank 0,
 * and with link_ring each rank with the next and the previous?  The same
 * answer on both ends of a pair. */
int lop_transport_linked(const lop_transport_t *t, int peer);

/* Find a transport by name ("verbs", "mpi"); NULL if unknown. */
const lop_transport_ops_t *lop_transport_find(const char *name);
/* How many transports there are (transport.c asserts it of its table), so
 * that lists of them are sized from the table, not by a guess. */
#define LOP_TRANSPORT_COUNT 2
/* The name of the i-th transport in the order "auto" tries them; NULL past
 * the last (--transport's choices and help). */
const char *lop_transport_name(size_t i);

/* Collective: set up the transport named 'name', or for "auto" each in the
 * table's order (lop_transport_name) until one is usable.  'why' receives a
 * note on the choice ("auto: verbs not usable: ...").  An explicit --device
 * (cfg->device) makes verbs required. */
lop_status_t lop_transport_open(lop_transport_t *t, const char *name,
                                const lop_transport_cfg_t *cfg, char *why, size_t why_len);
void lop_transport_close(lop_transport_t *t);

#endif
