/* ibconn.c - verbs device and RC connections to a list of peers (ibconn.h). */
#include "ibconn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpisync.h"

enum {
    TAG_ADDR = 2306,    /* connection data exchange */
    RNR_TIMER = 12,     /* 0.64 ms before a receiver-not-ready retry */
    ACK_TIMEOUT = 14,   /* 4.096 us * 2^14 = 67 ms local ACK timeout */
    RETRY_COUNT = 7,    /* transport retries */
    RNR_RETRY = 7,      /* 7 = retry for ever on receiver-not-ready */
    HOP_LIMIT = 64      /* GRH hop limit: enough for a routed fabric */
};

int lop_ib_mtu_bytes(enum ibv_mtu mtu)
{
    return 128 << ((int)mtu - (int)IBV_MTU_256 + 1);
}

/* ------------------------------------------------------------------ device */

static lop_status_t find_device(lop_ib_dev_t *dev, const char *name, struct ibv_device **found)
{
    int n = 0;
    errno = 0;
    dev->list = ibv_get_device_list(&n);
    if (!dev->list || n == 0) {
        const char *why = errno ? strerror(errno) : "none listed";
        if (name)
            return lop_err(LOP_ERR_INVALID, "option --device: no RDMA device '%s' (this host has "
                           "no RDMA devices: %s)", name, why);
        return lop_err(LOP_ERR_UNSUPPORTED, "no RDMA device found (%s)", why);
    }
    char present[256] = "";
    for (int i = 0; i < n; i++) {
        const char *dn = ibv_get_device_name(dev->list[i]);
        if (!name || strcmp(dn, name) == 0) {
            *found = dev->list[i];
            snprintf(dev->name, sizeof dev->name, "%s", dn);
            return LOP_OK;
        }
        snprintf(present + strlen(present), sizeof present - strlen(present), "%s%s",
                 i ? ", " : "", dn);
    }
    return lop_err(LOP_ERR_INVALID, "option --device: no RDMA device '%s' (present: %s)", name,
                   present);
}

/* The port must be up; RoCE (Ethernet link layer) needs a GID to route by. */
static lop_status_t check_port(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    if (cfg->port < 1 || cfg->port > dev->attr.phys_port_cnt)
        return lop_err(LOP_ERR_INVALID, "option --port: %s has ports 1..%d, not %d", dev->name,
                       dev->attr.phys_port_cnt, cfg->port);
    dev->port = (uint8_t)cfg->port;
    if (ibv_query_port(dev->ctx, dev->port, &dev->port_attr))
        return lop_err(LOP_ERR_IO, "%s port %d: ibv_query_port failed: %s", dev->name, cfg->port,
                       strerror(errno));
    if (dev->port_attr.state != IBV_PORT_ACTIVE)
        return lop_err(LOP_ERR_UNSUPPORTED, "%s port %d is not active (%s)", dev->name, cfg->port,
                       ibv_port_state_str(dev->port_attr.state));
    dev->use_grh = cfg->force_grh || dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    dev->gid_index = cfg->gid_index;
    if (!dev->use_grh) {
        if (dev->port_attr.lid == 0)
            return lop_err(LOP_ERR_UNSUPPORTED, "%s port %d has no LID (is a subnet manager "
                           "running?)", dev->name, cfg->port);
        return LOP_OK;
    }
    static const uint8_t zero[16];
    if (cfg->gid_index >= dev->port_attr.gid_tbl_len ||
        ibv_query_gid(dev->ctx, dev->port, cfg->gid_index, &dev->gid) ||
        memcmp(dev->gid.raw, zero, sizeof zero) == 0)
        return lop_err(LOP_ERR_INVALID, "option --gid-index: %s port %d has no GID at index %d "
                       "(table length %d)", dev->name, cfg->port, cfg->gid_index,
                       dev->port_attr.gid_tbl_len);
    return LOP_OK;
}

static lop_status_t check_limits(const lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    int need = cfg->send_cqe > cfg->recv_cqe ? cfg->send_cqe : cfg->recv_cqe;
    if (need > dev->attr.max_cqe)
        return lop_err(LOP_ERR_RANGE, "%s: completion queues hold at most %d entries, %d needed "
                       "(lower --max-post or the number of ranks)", dev->name, dev->attr.max_cqe,
                       need);
    return LOP_OK;
}

/* Protection domain, completion queues and the registered buffer. */
static lop_status_t open_resources(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    const char *what = "ibv_alloc_pd";
    if (!(dev->pd = ibv_alloc_pd(dev->ctx)))
        goto err_report;
    what = "ibv_create_cq";
    dev->send_cq = ibv_create_cq(dev->ctx, cfg->send_cqe, NULL, NULL, 0);
    dev->recv_cq = dev->send_cq ? ibv_create_cq(dev->ctx, cfg->recv_cqe, NULL, NULL, 0) : NULL;
    if (!dev->recv_cq)
        goto err_report;
    what = "posix_memalign";
    long page = sysconf(_SC_PAGESIZE);
    dev->buf_len = cfg->buf_len;
    if ((errno = posix_memalign(&dev->buf, (size_t)(page > 0 ? page : 4096), cfg->buf_len)))
        goto err_report;
    memset(dev->buf, 0, cfg->buf_len);
    what = "ibv_reg_mr";
    dev->mr = ibv_reg_mr(dev->pd, dev->buf, cfg->buf_len,
                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!dev->mr)
        goto err_report;
    return LOP_OK;
err_report:
    return lop_err(LOP_ERR_IO, "%s: %s failed: %s", dev->name, what, strerror(errno));
}

lop_status_t lop_ib_open(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    struct ibv_device *found = NULL;
    memset(dev, 0, sizeof *dev);
    lop_status_t st = find_device(dev, cfg->name, &found);
    if (st != LOP_OK)
        goto err_close;
    dev->ctx = ibv_open_device(found);
    if (!dev->ctx) {
        st = lop_err(LOP_ERR_IO, "%s: ibv_open_device failed: %s", dev->name, strerror(errno));
        goto err_close;
    }
    if (ibv_query_device(dev->ctx, &dev->attr)) {
        st = lop_err(LOP_ERR_IO, "%s: ibv_query_device failed: %s", dev->name, strerror(errno));
        goto err_close;
    }
    st = check_port(dev, cfg);
    if (st == LOP_OK)
        st = check_limits(dev, cfg);
    if (st == LOP_OK)
        st = open_resources(dev, cfg);
    if (st == LOP_OK)
        return LOP_OK;
err_close:
    lop_ib_close(dev);
    return st;
}

/* Undoes lop_ib_open in reverse; safe on a partly opened device. */
void lop_ib_close(lop_ib_dev_t *dev)
{
    if (dev->mr)
        ibv_dereg_mr(dev->mr);
    free(dev->buf);
    if (dev->recv_cq)
        ibv_destroy_cq(dev->recv_cq);
    if (dev->send_cq)
        ibv_destroy_cq(dev->send_cq);
    if (dev->pd)
        ibv_dealloc_pd(dev->pd);
    if (dev->ctx)
        ibv_close_device(dev->ctx);
    if (dev->list)
        ibv_free_device_list(dev->list);
    memset(dev, 0, sizeof *dev);
}

/* ------------------------------------------------------------ connections */

/* A new RC QP in INIT state, allowing the peer to RDMA-write our buffer.
 * Devices without inline support refuse max_inline_data > 0: retry without. */
static lop_status_t qp_create(lop_ib_dev_t *dev, const lop_ib_caps_t *caps, lop_ib_conn_t *c)
{
    struct ibv_qp_init_attr init = {
        .send_cq = dev->send_cq,
        .recv_cq = dev->recv_cq,
        .cap = {caps->max_send_wr, caps->max_recv_wr, 1, 1, caps->max_inline},
        .qp_type = IBV_QPT_RC,
        .sq_sig_all = 0, /* completions only for IBV_SEND_SIGNALED requests */
    };
    c->qp = ibv_create_qp(dev->pd, &init);
    if (!c->qp && caps->max_inline) {
        init.cap.max_inline_data = 0;
        c->qp = ibv_create_qp(dev->pd, &init);
    }
    if (!c->qp)
        return lop_err(LOP_ERR_IO, "%s: ibv_create_qp for rank %d failed: %s", dev->name, c->peer,
                       strerror(errno));
    c->max_inline = init.cap.max_inline_data; /* what the provider actually granted */
    struct ibv_qp_attr attr = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = dev->port,
        .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
    };
    int err = ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                             IBV_QP_ACCESS_FLAGS);
    if (err)
        return lop_err(LOP_ERR_IO, "%s: QP for rank %d: RESET -> INIT failed: %s", dev->name,
                       c->peer, strerror(err));
    c->local = (lop_ib_addr_t){
        .addr = (uint64_t)(uintptr_t)dev->buf,
        .qpn = c->qp->qp_num,
        .psn = (uint32_t)lrand48() & 0xffffff,
        .rkey = dev->mr->rkey,
        .lid = dev->port_attr.lid,
        .mtu = (uint8_t)dev->port_attr.active_mtu,
    };
    memcpy(c->local.gid, dev->gid.raw, sizeof c->local.gid);
    return LOP_OK;
}

/* INIT -> RTR (address the peer's QP) -> RTS (our send side). */
static lop_status_t qp_connect(lop_ib_dev_t *dev, lop_ib_conn_t *c)
{
    const lop_ib_addr_t *r = &c->remote;
    struct ibv_qp_attr attr = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = (enum ibv_mtu)(r->mtu < c->local.mtu ? r->mtu : c->local.mtu),
        .dest_qp_num = r->qpn,
        .rq_psn = r->psn,
        .max_dest_rd_atomic = 1,
        .min_rnr_timer = RNR_TIMER,
        .ah_attr = {.dlid = r->lid, .sl = 0, .src_path_bits = 0, .port_num = dev->port,
                    .is_global = (uint8_t)dev->use_grh},
    };
    if (dev->use_grh) {
        memcpy(attr.ah_attr.grh.dgid.raw, r->gid, sizeof r->gid);
        attr.ah_attr.grh.sgid_index = (uint8_t)dev->gid_index;
        attr.ah_attr.grh.hop_limit = HOP_LIMIT;
    }
    int err = ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                                             IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                             IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (err)
        return lop_err(LOP_ERR_IO, "%s: QP for rank %d: INIT -> RTR failed: %s", dev->name,
                       c->peer, strerror(err));
    attr = (struct ibv_qp_attr){
        .qp_state = IBV_QPS_RTS,
        .timeout = ACK_TIMEOUT,
        .retry_cnt = RETRY_COUNT,
        .rnr_retry = RNR_RETRY,
        .sq_psn = c->local.psn,
        .max_rd_atomic = 1,
    };
    err = ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                         IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                                         IBV_QP_MAX_QP_RD_ATOMIC);
    if (err)
        return lop_err(LOP_ERR_IO, "%s: QP for rank %d: RTR -> RTS failed: %s", dev->name,
                       c->peer, strerror(err));
    return LOP_OK;
}

/* Swap lop_ib_addr_t with every peer; nonblocking, so any symmetric peer
 * lists work without ordering the pairs. */
static lop_status_t exchange(MPI_Comm comm, lop_ib_conn_t *conn, size_t n)
{
    MPI_Request *req = lop_calloc(2 * n, sizeof *req);
    if (!req)
        return LOP_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        MPI_Irecv(&conn[i].remote, sizeof conn[i].remote, MPI_BYTE, conn[i].peer, TAG_ADDR, comm,
                  &req[2 * i]);
        MPI_Isend(&conn[i].local, sizeof conn[i].local, MPI_BYTE, conn[i].peer, TAG_ADDR, comm,
                  &req[2 * i + 1]);
    }
    MPI_Waitall((int)(2 * n), req, MPI_STATUSES_IGNORE);
    free(req);
    return LOP_OK;
}

lop_status_t lop_ib_connect(lop_ib_dev_t *dev, MPI_Comm comm, const int *peers, size_t n,
                            const lop_ib_caps_t *caps, lop_ib_conn_t *conn)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    srand48(((long)getpid() << 16) ^ rank);
    memset(conn, 0, n * sizeof *conn);
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        conn[i].peer = peers[i];
        st = qp_create(dev, caps, &conn[i]);
    }
    /* Every rank must reach the exchange, or its peers would wait for it. */
    st = lop_mpi_agree(comm, st);
    if (st == LOP_OK)
        st = lop_mpi_agree(comm, exchange(comm, conn, n));
    for (size_t i = 0; i < n && st == LOP_OK; i++)
        st = qp_connect(dev, &conn[i]);
    st = lop_mpi_agree(comm, st);
    if (st != LOP_OK)
        lop_ib_disconnect(conn, n);
    return st;
}

void lop_ib_disconnect(lop_ib_conn_t *conn, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (conn[i].qp)
            ibv_destroy_qp(conn[i].qp);
        conn[i].qp = NULL;
    }
}
