/* ibconn.c - verbs device and RC connections to a list of peers (ibconn.h). */
#include "ibconn.h"

#include <errno.h>
#include <fcntl.h>
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

int lop_ib_gid_is_ipv4(const union ibv_gid *gid)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(gid->raw, prefix, sizeof prefix) == 0;
}

const char *lop_ib_gid_type_name(int gid_type, int ethernet)
{
    if (gid_type == IBV_GID_TYPE_ROCE_V2)
        return "RoCE v2";
    return ethernet || gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" : "IB";
}

/* Preference of a GID entry for --gid-index auto; higher is better. */
static int gid_rank(const struct ibv_gid_entry *e)
{
    if (e->gid_type == IBV_GID_TYPE_ROCE_V2)
        return lop_ib_gid_is_ipv4(&e->gid) ? 3 : 2;
    return 1;
}

int lop_ib_gid_choose(const struct ibv_gid_entry *e, size_t n, uint32_t port)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        if (e[i].port_num != port)
            continue;
        if (best < 0 || gid_rank(&e[i]) > gid_rank(&e[best]) ||
            (gid_rank(&e[i]) == gid_rank(&e[best]) && e[i].gid_index < e[best].gid_index))
            best = (int)i;
    }
    return best;
}

/* --gid-index auto: read the port's valid GIDs and take the best. */
static lop_status_t gid_auto(lop_ib_dev_t *dev)
{
    size_t max = (size_t)dev->port_attr.gid_tbl_len * dev->attr.phys_port_cnt;
    struct ibv_gid_entry *e = lop_calloc(max ? max : 1, sizeof *e);
    if (!e)
        return LOP_ERR_NOMEM;
    ssize_t n = ibv_query_gid_table(dev->ctx, e, max, 0);
    int best = n > 0 ? lop_ib_gid_choose(e, (size_t)n, dev->port) : -1;
    lop_status_t st = LOP_OK;
    if (n < 0)
        st = lop_err(LOP_ERR_IO, "%s port %u: ibv_query_gid_table failed: %s", dev->name,
                     dev->port, strerror((int)-n));
    else if (best < 0)
        st = lop_err(LOP_ERR_UNSUPPORTED, "%s port %u has no valid GID to route by (is an IP "
                     "address or link-local address configured on its netdev?)", dev->name,
                     dev->port);
    else {
        dev->gid_index = (int)e[best].gid_index;
        dev->gid_type = (int)e[best].gid_type;
        dev->gid = e[best].gid;
        dev->gid_auto = 1;
    }
    free(e);
    return st;
}

/* --gid-index I: that entry must exist. */
static lop_status_t gid_given(lop_ib_dev_t *dev, int index)
{
    struct ibv_gid_entry e;
    int err = index < dev->port_attr.gid_tbl_len
                  ? ibv_query_gid_ex(dev->ctx, dev->port, (uint32_t)index, &e, 0) : ENOENT;
    if (err)
        return lop_err(LOP_ERR_INVALID, "option --gid-index: %s port %u has no valid GID at "
                       "index %d (table length %d)", dev->name, dev->port, index,
                       dev->port_attr.gid_tbl_len);
    dev->gid_index = index;
    dev->gid_type = (int)e.gid_type;
    dev->gid = e.gid;
    return LOP_OK;
}

/* The port must be up; RoCE (Ethernet link layer) needs a GID to route by. */
static lop_status_t check_port(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    if (cfg->port < 1 || cfg->port > dev->attr.phys_port_cnt)
        return lop_err(LOP_ERR_INVALID, "option --port: %s has ports 1..%d, not %d", dev->name,
                       dev->attr.phys_port_cnt, cfg->port);
    dev->port = (uint8_t)cfg->port;
    int err = ibv_query_port(dev->ctx, dev->port, &dev->port_attr);
    if (err)
        return lop_err(LOP_ERR_IO, "%s port %d: ibv_query_port failed: %s", dev->name, cfg->port,
                       strerror(err));
    if (dev->port_attr.state != IBV_PORT_ACTIVE)
        return lop_err(LOP_ERR_UNSUPPORTED, "%s port %d is not active (%s)", dev->name, cfg->port,
                       ibv_port_state_str(dev->port_attr.state));
    int given = cfg->gid_index >= 0;
    dev->use_grh = (cfg->force_grh && given) ||
                   dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    dev->tclass = cfg->tclass;
    dev->sl = cfg->sl;
    if (!dev->use_grh) {
        if (dev->port_attr.lid == 0)
            return lop_err(LOP_ERR_UNSUPPORTED, "%s port %d has no LID (is a subnet manager "
                           "running?)", dev->name, cfg->port);
        return LOP_OK;
    }
    return given ? gid_given(dev, cfg->gid_index) : gid_auto(dev);
}

/* cfg's size against the device's limits, before anything is created. */
static lop_status_t check_limits(const lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    const struct ibv_device_attr *a = &dev->attr;
    uint32_t depth = cfg->sq_depth > cfg->rq_depth ? cfg->sq_depth : cfg->rq_depth;
    size_t cqe = cfg->send_cqe > cfg->recv_cqe ? cfg->send_cqe : cfg->recv_cqe;
    const char *limit = NULL;
    uint64_t have = 0, need = 0;
    if (cfg->qps > (uint64_t)a->max_qp)
        limit = "max_qp", have = (uint64_t)a->max_qp, need = cfg->qps;
    else if (depth > (uint64_t)a->max_qp_wr)
        limit = "max_qp_wr", have = (uint64_t)a->max_qp_wr, need = depth;
    else if (cqe > (uint64_t)a->max_cqe)
        limit = "max_cqe", have = (uint64_t)a->max_cqe, need = cqe;
    else if (cfg->buf_len > a->max_mr_size)
        limit = "max_mr_size", have = a->max_mr_size, need = cfg->buf_len;
    if (limit)
        return lop_err(LOP_ERR_RANGE, "%s: device limit %s is %llu, %llu needed (lower "
                       "--max-post or the number of ranks)", dev->name, limit,
                       (unsigned long long)have, (unsigned long long)need);
    return LOP_OK;
}

/* Protection domain, completion queues and the registered buffer. */
static lop_status_t open_resources(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg)
{
    const char *what = "ibv_alloc_pd";
    if (!(dev->pd = ibv_alloc_pd(dev->ctx)))
        goto err_report;
    what = "ibv_create_cq";
    /* check_limits() bounded both by max_cqe, an int */
    dev->send_cq = ibv_create_cq(dev->ctx, (int)cfg->send_cqe, NULL, NULL, 0);
    dev->recv_cq = dev->send_cq ? ibv_create_cq(dev->ctx, (int)cfg->recv_cqe, NULL, NULL, 0)
                                : NULL;
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
    int err = ibv_query_device(dev->ctx, &dev->attr);
    if (err) {
        st = lop_err(LOP_ERR_IO, "%s: ibv_query_device failed: %s", dev->name, strerror(err));
        goto err_close;
    }
    /* Asynchronous events are read while waiting (lop_ib_async_check). */
    int flags = fcntl(dev->ctx->async_fd, F_GETFL);
    if (flags < 0 || fcntl(dev->ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        st = lop_err(LOP_ERR_IO, "%s: cannot make the async event channel non-blocking: %s",
                     dev->name, strerror(errno));
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
 * A device that grants less inline data than asked refuses the QP: ask for
 * less, down to nothing, and keep what it grants. */
static lop_status_t qp_create(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg,
                              const lop_ib_caps_t *caps, lop_ib_conn_t *c)
{
    struct ibv_qp_init_attr init;
    for (uint32_t inl = caps->max_inline;; inl = inl > 8 ? inl / 2 : 0) {
        init = (struct ibv_qp_init_attr){
            .send_cq = dev->send_cq,
            .recv_cq = dev->recv_cq,
            .cap = {cfg->sq_depth, cfg->rq_depth, 1, 1, inl},
            .qp_type = IBV_QPT_RC,
            .sq_sig_all = 0, /* completions only for IBV_SEND_SIGNALED requests */
        };
        c->qp = ibv_create_qp(dev->pd, &init);
        if (c->qp || inl == 0)
            break;
    }
    if (!c->qp)
        return lop_err(LOP_ERR_IO, "%s: ibv_create_qp for rank %d failed: %s", dev->name, c->peer,
                       strerror(errno));
    c->sq_depth = cfg->sq_depth; /* the grant may be more; the CQ is sized for this */
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
        .gid_type = (uint8_t)dev->gid_type,
        .use_grh = (uint8_t)dev->use_grh,
    };
    memcpy(c->local.gid, dev->gid.raw, sizeof c->local.gid);
    return LOP_OK;
}

lop_status_t lop_ib_conn_check(const lop_ib_dev_t *dev, const lop_ib_conn_t *c)
{
    int eth = dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    if (c->remote.use_grh != c->local.use_grh)
        return lop_err(LOP_ERR_INVALID, "%s: rank %d %s a global route header and we %s: give "
                       "every rank the same --gid-index", dev->name, c->peer,
                       c->remote.use_grh ? "uses" : "does not use",
                       c->local.use_grh ? "do" : "do not");
    if (c->local.use_grh && c->remote.gid_type != c->local.gid_type)
        return lop_err(LOP_ERR_INVALID, "%s: rank %d routes by a %s GID, we by %s (GID index "
                       "%d): choose GID indexes of one type (--gid-index)", dev->name, c->peer,
                       lop_ib_gid_type_name(c->remote.gid_type, eth),
                       lop_ib_gid_type_name(c->local.gid_type, eth), dev->gid_index);
    /* RoCE v2 carries the GIDs as IP addresses: an IPv4-mapped one and an
     * IPv6 one cannot address each other (nothing routes between them). */
    union ibv_gid remote;
    memcpy(remote.raw, c->remote.gid, sizeof remote.raw);
    int v4_local = lop_ib_gid_is_ipv4(&dev->gid), v4_remote = lop_ib_gid_is_ipv4(&remote);
    if (c->local.use_grh && v4_remote != v4_local)
        return lop_err(LOP_ERR_INVALID, "%s: rank %d routes by an %s GID, we by an %s one (GID "
                       "index %d): choose GID indexes of one kind (--gid-index)", dev->name,
                       c->peer, v4_remote ? "IPv4-mapped" : "IPv6",
                       v4_local ? "IPv4-mapped" : "IPv6", dev->gid_index);
    return LOP_OK;
}

/* INIT -> RTR (address the peer's QP) -> RTS (our send side). */
static lop_status_t qp_connect(lop_ib_dev_t *dev, lop_ib_conn_t *c)
{
    const lop_ib_addr_t *r = &c->remote;
    lop_status_t st = lop_ib_conn_check(dev, c);
    if (st != LOP_OK)
        return st;
    struct ibv_qp_attr attr = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = (enum ibv_mtu)(r->mtu < c->local.mtu ? r->mtu : c->local.mtu),
        .dest_qp_num = r->qpn,
        .rq_psn = r->psn,
        .max_dest_rd_atomic = 1,
        .min_rnr_timer = RNR_TIMER,
        .ah_attr = {.dlid = r->lid, .sl = (uint8_t)dev->sl, .src_path_bits = 0,
                    .port_num = dev->port, .is_global = (uint8_t)dev->use_grh},
    };
    if (dev->use_grh) {
        memcpy(attr.ah_attr.grh.dgid.raw, r->gid, sizeof r->gid);
        attr.ah_attr.grh.sgid_index = (uint8_t)dev->gid_index;
        attr.ah_attr.grh.hop_limit = HOP_LIMIT;
        attr.ah_attr.grh.traffic_class = (uint8_t)dev->tclass;
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

lop_status_t lop_ib_connect(lop_ib_dev_t *dev, const lop_ib_cfg_t *cfg, MPI_Comm comm,
                            const int *peers, size_t n, const lop_ib_caps_t *caps,
                            lop_ib_conn_t *conn)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    srand48(((long)getpid() << 16) ^ rank);
    memset(conn, 0, n * sizeof *conn);
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < n && st == LOP_OK; i++) {
        conn[i].peer = peers[i];
        st = qp_create(dev, cfg, caps, &conn[i]);
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

/* ------------------------------------------------------------- errors */

lop_status_t lop_ib_wc_error(const struct ibv_wc *wc, const char *what)
{
    return lop_err(LOP_ERR_IO, "verbs: %s: %s (status %d, vendor error 0x%x)", what,
                   ibv_wc_status_str(wc->status), (int)wc->status, (unsigned)wc->vendor_err);
}

/* Events after which no message will arrive: the job cannot go on. */
static int event_is_fatal(enum ibv_event_type type)
{
    switch (type) {
    case IBV_EVENT_CQ_ERR:
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_DEVICE_FATAL:
    case IBV_EVENT_PORT_ERR:
        return 1;
    default:
        return 0;
    }
}

lop_status_t lop_ib_async_check(lop_ib_dev_t *dev)
{
    struct ibv_async_event ev;
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && ibv_get_async_event(dev->ctx, &ev) == 0) {
        if (event_is_fatal(ev.event_type))
            st = lop_err(LOP_ERR_IO, "verbs: %s: asynchronous event: %s", dev->name,
                         ibv_event_type_str(ev.event_type));
        ibv_ack_async_event(&ev);
    }
    return st;
}
