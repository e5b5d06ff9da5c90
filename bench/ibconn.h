/*
 * ibconn.h - an InfiniBand (or RoCE) device opened with rdma-core's
 * libibverbs, and reliable-connection queue pairs from this rank to any list
 * of peers, with the connection data exchanged over MPI (thesis 1.3.5 lists
 * the same steps for VAPI).
 *
 * Sequence (teardown undoes it in reverse):
 *   lop_ib_open      device, port (and GID for RoCE), protection domain,
 *                    send and receive completion queues, one registered
 *                    buffer that peers may write (RDMA write);
 *   lop_ib_connect   per peer an RC QP taken RESET -> INIT, addresses
 *                    (LID/GID, QPN, PSN, rkey, buffer address) swapped with
 *                    that peer, then INIT -> RTR -> RTS;
 *   lop_ib_disconnect, lop_ib_close.
 * cfg is the one lop_ib_open was given (queue depths).
 * lop_ib_connect works for any symmetric peer lists (a star for lopbench,
 * all-to-all for the barrier executors).  Ranks are assumed to share one
 * byte order and struct layout (a homogeneous cluster).
 */
#ifndef LOP_IBCONN_H
#define LOP_IBCONN_H

#include <infiniband/verbs.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "lop.h"

typedef struct {
    const char *name; /* device name, NULL = the first device */
    int port;         /* 1-based port number */
    int gid_index;    /* GID table index for the global route header; < 0 = choose
                       * (lop_ib_gid_choose) */
    int force_grh;    /* use a GRH on InfiniBand too (RoCE always does) */
    int tclass;       /* GRH traffic class */
    int sl;           /* service level */
    size_t buf_len;   /* bytes of the registered buffer */
    size_t qps;       /* queue pairs that will be connected */
    uint32_t sq_depth; /* send requests each QP may have outstanding */
    uint32_t rq_depth; /* receive requests each QP may have outstanding */
    size_t send_cqe;  /* send completion queue entries */
    size_t recv_cqe;  /* receive completion queue entries */
} lop_ib_cfg_t;

typedef struct {
    struct ibv_device **list;     /* every device, from ibv_get_device_list() */
    struct ibv_context *ctx;      /* the opened device */
    struct ibv_device_attr attr;  /* its limits */
    struct ibv_port_attr port_attr; /* the port's state, LID, MTU, link layer */
    struct ibv_pd *pd;            /* protection domain of everything below */
    struct ibv_cq *send_cq, *recv_cq; /* shared by every QP */
    void *buf;                    /* page-aligned, zeroed, registered as mr */
    size_t buf_len;               /* its size in bytes */
    struct ibv_mr *mr;            /* local write + remote write */
    union ibv_gid gid;            /* our GID when use_grh */
    uint8_t port;                 /* port in use (1-based) */
    int gid_index;                /* our GID's index, for the GRH */
    int gid_type;                 /* its enum ibv_gid_type (IB = RoCE v1 on Ethernet) */
    int gid_auto;                 /* the index was chosen, not given */
    int use_grh;                  /* address peers by GID (RoCE, or asked for) */
    int tclass, sl;               /* GRH traffic class, service level */
    char name[64];                /* device name, for messages */
} lop_ib_dev_t;

/* What a peer needs to reach one of our QPs and to write into our buffer. */
typedef struct {
    uint64_t addr;  /* our registered buffer's address */
    uint32_t qpn;   /* our QP number for this peer */
    uint32_t psn;   /* our first packet sequence number */
    uint32_t rkey;  /* the buffer's remote key */
    uint16_t lid;   /* port LID (InfiniBand) */
    uint8_t mtu;    /* enum ibv_mtu of our port */
    uint8_t gid_type; /* enum ibv_gid_type of our GID: both ends must agree */
    uint8_t gid[16]; /* port GID (RoCE / GRH) */
    uint8_t use_grh; /* we address by GID: both ends must agree */
    uint8_t pad[7];  /* explicit, so the struct has no hidden padding */
} lop_ib_addr_t;

typedef struct {
    int peer;            /* the peer's rank */
    struct ibv_qp *qp;   /* RC QP connected to the peer's QP for us */
    uint32_t max_inline; /* bytes one work request may carry inline (granted) */
    uint32_t sq_depth;   /* send requests it may have outstanding (granted) */
    lop_ib_addr_t local, remote; /* our end and the peer's, as swapped */
} lop_ib_conn_t;

typedef struct {
    uint32_t max_inline;  /* inline bytes wanted; a smaller grant is accepted */
} lop_ib_caps_t;

/* Local.  LOP_ERR_UNSUPPORTED when there is no usable device (none, port
 * down, no LID); LOP_ERR_INVALID when the named device, port or GID index
 * does not exist; LOP_ERR_RANGE naming the device limit (max_qp, max_qp_wr,
 * max_cqe, max_mr_size) that cfg exceeds, checked before anything is
 * created.  On failure nothing is left open. */
lop_status_t lop_ib_open(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg);
void lop_ib_close(lop_ib_dev_t *dev);

/* Collective over comm: every rank passes its own peers (rank numbers in
 * comm); if a lists b then b lists a.  conn[i] connects to peers[i].  Fails
 * the same way on every rank, leaving no QP behind. */
lop_status_t lop_ib_connect(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg, MPI_Comm comm,
                            const int *peers, size_t n, const lop_ib_caps_t *caps,
                            lop_ib_conn_t *conn);
void lop_ib_disconnect(lop_ib_conn_t *conn, size_t n);

/* Both ends of c must address each other the same way (c->local and
 * c->remote as swapped): both with a global route header or neither, GIDs
 * of one type (RoCE v1/v2) and one kind (IPv4-mapped or IPv6).
 * LOP_ERR_INVALID naming the peer and both ends otherwise. */
lop_status_t lop_ib_conn_check(const lop_ib_dev_t *dev, const lop_ib_conn_t *c);

/* Bytes of an enum ibv_mtu value. */
int lop_ib_mtu_bytes(enum ibv_mtu mtu);

/* --gid-index auto: of the GID entries of 'port' in e[0..n), the best one to
 * route by - RoCE v2 with an IPv4-mapped address (what IP routers and most
 * RoCE fabrics are set up for), then any RoCE v2, then RoCE v1 / IB - with
 * the lowest index among equals.  Its position in e, or -1 if none. */
int lop_ib_gid_choose(const struct ibv_gid_entry *e, size_t n, uint32_t port);
/* "RoCE v2", "RoCE v1" or "IB" (ibv_gid_type_ IB on an Ethernet port is RoCE v1). */
const char *lop_ib_gid_type_name(int gid_type, int ethernet);
/* Is the GID an IPv4 address mapped into IPv6 (::ffff:a.b.c.d)? */
int lop_ib_gid_is_ipv4(const union ibv_gid *gid);

/* A failed work completion: "verbs: <what>: <status string> (status S,
 * vendor error 0xV)".  Returns LOP_ERR_IO. */
lop_status_t lop_ib_wc_error(const struct ibv_wc *wc, const char *what);
/* Read the device's pending asynchronous events without blocking; a fatal
 * one (QP or CQ error, port down, device fatal) is returned as LOP_ERR_IO
 * naming the event. */
lop_status_t lop_ib_async_check(lop_ib_dev_t *dev);

#endif
