/* ibmcast.c - one hardware multicast group over UD queue pairs, with NAKs (ibmcast.h). */
#include "ibmcast.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpisync.h"

enum {
    RX_DEPTH = 64,   /* UD receives kept posted: releases arriving before they are taken */
    TX_DEPTH = 16,   /* UD sends outstanding at most (each signaled) */
    NAK_DEPTH = LOP_IB_MCAST_NAK_DEPTH,
    GRH_BYTES = 40,  /* a UD receive starts with the global route header (Kini 5.3) */
    RX_SLOT = 64,    /* bytes per UD receive: the GRH and a message, rounded up */
    CQ_BATCH = 16,   /* work completions reaped per ibv_poll_cq call */
    JOIN_MS = 10000  /* the join's bound: on RoCE it is local and takes milliseconds */
};
#define WR_TX (UINT64_C(1) << 63) /* wr_id of a UD send; receives carry their slot */
#define UD_QPN 0xffffffu          /* the destination QP number of a multicast */

/* What one multicast carries (Kini 3.3: the barrier id). */
typedef struct {
    uint64_t id;     /* the sender's count of its releases */
    uint32_t sender; /* its rank */
    uint32_t token;  /* this job's: another job that picked the same group is ignored */
} mcast_msg_t;

struct lop_ib_mcast_priv {
    lop_ib_dev_t *dev;
    lop_poll_t *poll;            /* the transport's: how waits pause, their deadline */
    int rank, size;
    uint32_t group, token;       /* group address (host byte order), job token */
    struct sockaddr_in group_sa; /* the group, for librdmacm */
    struct rdma_event_channel *chan;
    struct rdma_cm_id *id;       /* bound to the IPv4 address of our GID */
    int joined;                  /* rdma_join_multicast succeeded: leave at close */
    uint32_t qkey;               /* the group's, from the join */
    struct ibv_ah_attr ah_attr;  /* the group's address, from the join */
    struct ibv_cq *cq;           /* the UD QP's sends and receives, apart from RC (Kini 5.3) */
    struct ibv_qp *qp;           /* our UD QP */
    int attached;                /* ibv_attach_mcast succeeded: detach at close */
    uint32_t max_inline;         /* inline bytes the UD QP grants */
    struct ibv_ah *ah;           /* the group as a destination */
    char *buf;                   /* [RX_DEPTH * RX_SLOT] receives, [TX_DEPTH] messages
                                  * sent, [size * NAK_DEPTH] NAK ids received */
    size_t buf_len;
    struct ibv_mr *mr;
    mcast_msg_t *tx;             /* the messages sent, one slot per outstanding send */
    uint64_t *nak;               /* NAK receive slots, NAK_DEPTH per peer */
    uint64_t tx_posted, tx_done; /* UD sends posted and completed, ever */
    uint64_t last;               /* id of our last multicast */
    uint64_t *seen;              /* [sender] largest id received */
    uint64_t arrived;            /* releases received from others (the drop hook counts them) */
    int none_rank;               /* LOP_TEST_MCAST_NONE: this rank, or -1 */
    int drop_rank;               /* LOP_TEST_MCAST_DROP: this rank, or -1 */
    uint64_t drop_k;             /* ... drops its drop_k-th release */
    struct ibv_qp **nak_qp;      /* [rank] the RC QP to that rank, for NAK receives */
    lop_recv_ring_t naks;        /* which NAK slot the next NAK of a peer lands in */
};

/* ------------------------------------------------------------ the logic */

uint32_t lop_mcast_group_pick(uint32_t random)
{
    uint32_t a = 1 + random % 254, b = 1 + (random >> 8) % 254;
    return UINT32_C(239) << 24 | UINT32_C(255) << 16 | a << 8 | b;
}

lop_status_t lop_mcast_drop_parse(const char *text, int *rank, uint64_t *k)
{
    char *end;
    errno = 0;
    long r = strtol(text, &end, 10);
    if (end != text && *end == ':' && r >= 0 && r <= (1 << 24)) {
        const char *ks = end + 1;
        unsigned long long v = strtoull(ks, &end, 10);
        if (end != ks && *end == '\0' && *ks != '-' && v >= 1 && errno == 0) {
            *rank = (int)r;
            *k = v;
            return LOP_OK;
        }
    }
    return lop_err(LOP_ERR_INVALID, "LOP_TEST_MCAST_DROP: '%s' is not RANK:K (K >= 1)", text);
}

int lop_mcast_take(uint64_t *seen, uint64_t id)
{
    if (id <= *seen)
        return 0;
    *seen = id;
    return 1;
}

int lop_mcast_nak_due(double now_s, double timeout_s, double *next_s)
{
    if (*next_s == 0) {
        *next_s = now_s + timeout_s;
        return 0;
    }
    if (now_s < *next_s)
        return 0;
    *next_s = now_s + timeout_s;
    return 1;
}

int lop_mcast_nak_valid(uint64_t id, uint64_t last)
{
    return id >= 1 && id <= last;
}

/* --------------------------------------------------------------- set-up */

/* The device can multicast, and lop knows how to join its groups: RoCE,
 * routed by an IPv4-mapped GID (the address rdma_cm binds to). */
static lop_status_t check_device(const lop_ib_mcast_priv_t *p)
{
    const lop_ib_dev_t *d = p->dev;
    int pretend = p->rank == p->none_rank;
    if (d->attr.max_mcast_grp <= 0 || pretend)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s reports max_mcast_grp 0%s", p->rank,
                       d->name, pretend ? " (LOP_TEST_MCAST_NONE)" : "");
    if (d->port_attr.link_layer != IBV_LINK_LAYER_ETHERNET)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s is InfiniBand: lop joins groups on "
                       "RoCE only", p->rank, d->name);
    if (!lop_ib_gid_is_ipv4(&d->gid))
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s routes by GID index %d, not an "
                       "IPv4-mapped one (rdma_cm joins from an IPv4 address)", p->rank, d->name,
                       d->gid_index);
    return LOP_OK;
}

/* The next event on the channel, waited for at most JOIN_MS. */
static lop_status_t next_event(lop_ib_mcast_priv_t *p, struct rdma_cm_event **ev)
{
    struct pollfd pfd = {.fd = p->chan->fd, .events = POLLIN};
    double deadline = lop_timer_clock_s() + JOIN_MS / 1e3;
    for (;;) {
        if (rdma_get_cm_event(p->chan, ev) == 0)
            return LOP_OK;
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: rdma_get_cm_event failed: %s",
                           p->rank, strerror(errno));
        double left = deadline - lop_timer_clock_s();
        if (left <= 0)
            return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: no answer to the join of %s within "
                           "%d ms", p->rank, p->dev->name, JOIN_MS);
        poll(&pfd, 1, (int)(left * 1e3) + 1);
    }
}

/* An rdma_cm_id on the address of our GID, on our device and port. */
static lop_status_t bind_id(lop_ib_mcast_priv_t *p)
{
    const lop_ib_dev_t *d = p->dev;
    const char *what = "rdma_create_event_channel (is the rdma_ucm module loaded?)";
    if (!(p->chan = rdma_create_event_channel()))
        goto err_report;
    int flags = fcntl(p->chan->fd, F_GETFL);
    what = "fcntl O_NONBLOCK on the event channel";
    if (flags < 0 || fcntl(p->chan->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        goto err_report;
    what = "rdma_create_id";
    if (rdma_create_id(p->chan, &p->id, NULL, RDMA_PS_UDP))
        goto err_report;
    struct sockaddr_in me = {.sin_family = AF_INET};
    memcpy(&me.sin_addr, d->gid.raw + 12, 4); /* ::ffff:a.b.c.d */
    what = "rdma_bind_addr to our GID's IPv4 address";
    if (rdma_bind_addr(p->id, (struct sockaddr *)&me))
        goto err_report;
    if (!p->id->verbs || strcmp(ibv_get_device_name(p->id->verbs->device), d->name) != 0 ||
        p->id->port_num != d->port)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: rdma_cm bound our GID's address to %s "
                       "port %u, not %s port %u", p->rank,
                       p->id->verbs ? ibv_get_device_name(p->id->verbs->device) : "no device",
                       p->id->port_num, d->name, d->port);
    return LOP_OK;
err_report:
    return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s: %s failed: %s", p->rank, d->name, what,
                   strerror(errno));
}

/* rdma_join_multicast, and the group's address and qkey from its event. */
static lop_status_t join(lop_ib_mcast_priv_t *p)
{
    p->group_sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(p->group)};
    if (rdma_join_multicast(p->id, (struct sockaddr *)&p->group_sa, NULL))
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s: rdma_join_multicast failed: %s",
                       p->rank, p->dev->name, strerror(errno));
    p->joined = 1;
    struct rdma_cm_event *ev;
    lop_status_t st = next_event(p, &ev);
    if (st != LOP_OK)
        return st;
    enum rdma_cm_event_type type = ev->event;
    int status = ev->status;
    if (type == RDMA_CM_EVENT_MULTICAST_JOIN) {
        p->ah_attr = ev->param.ud.ah_attr;
        p->qkey = ev->param.ud.qkey;
    }
    rdma_ack_cm_event(ev); /* rdma_destroy_id waits for every event to be acked */
    if (type != RDMA_CM_EVENT_MULTICAST_JOIN)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s: the join ended in %s (status %d)",
                       p->rank, p->dev->name, rdma_event_str(type), status);
    /* Send from lop's own GID (the rdma_cm may prefer another of the same address). */
    p->ah_attr.grh.sgid_index = (uint8_t)p->dev->gid_index;
    p->ah_attr.port_num = p->dev->port;
    return LOP_OK;
}

/* Registered memory: receive ring, send slots, NAK slots. */
static lop_status_t buffers(lop_ib_mcast_priv_t *p)
{
    size_t rx = RX_DEPTH * RX_SLOT, tx = TX_DEPTH * sizeof(mcast_msg_t);
    p->buf_len = rx + tx + (size_t)p->size * NAK_DEPTH * sizeof(uint64_t);
    p->buf = lop_calloc(1, p->buf_len);
    p->seen = lop_calloc((size_t)p->size, sizeof *p->seen);
    p->nak_qp = lop_calloc((size_t)p->size, sizeof *p->nak_qp);
    lop_status_t st = lop_recv_ring_init(&p->naks, "verbs NAKs", (size_t)p->size, NAK_DEPTH);
    if (!p->buf || !p->seen || !p->nak_qp || st != LOP_OK)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: out of memory for the multicast group",
                       p->rank);
    p->tx = (mcast_msg_t *)(p->buf + rx);
    p->nak = (uint64_t *)(p->buf + rx + tx);
    p->mr = ibv_reg_mr(p->dev->pd, p->buf, p->buf_len, IBV_ACCESS_LOCAL_WRITE);
    if (!p->mr)
        return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s: ibv_reg_mr for the multicast "
                       "buffers failed: %s", p->rank, p->dev->name, strerror(errno));
    return LOP_OK;
}

static lop_status_t rx_post(lop_ib_mcast_priv_t *p, uint64_t slot)
{
    struct ibv_sge sge = {(uint64_t)(uintptr_t)(p->buf + slot * RX_SLOT), RX_SLOT, p->mr->lkey};
    struct ibv_recv_wr wr = {.wr_id = slot, .sg_list = &sge, .num_sge = 1}, *bad;
    int err = ibv_post_recv(p->qp, &wr, &bad);
    return err ? lop_err(LOP_ERR_IO, "verbs: ibv_post_recv on the multicast QP failed: %s",
                         strerror(err)) : LOP_OK;
}

/* UD QP RESET -> INIT (the group's qkey) -> RTR -> RTS. */
static int qp_ready(lop_ib_mcast_priv_t *p)
{
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .pkey_index = 0,
                            .port_num = p->dev->port, .qkey = p->qkey};
    int err = ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                          IBV_QP_QKEY);
    a = (struct ibv_qp_attr){.qp_state = IBV_QPS_RTR};
    err = err ? err : ibv_modify_qp(p->qp, &a, IBV_QP_STATE);
    a = (struct ibv_qp_attr){.qp_state = IBV_QPS_RTS, .sq_psn = 0};
    return err ? err : ibv_modify_qp(p->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

/* Our UD QP on lop's protection domain, attached to the group, receives posted. */
static lop_status_t ud_open(lop_ib_mcast_priv_t *p)
{
    const lop_ib_dev_t *d = p->dev;
    const char *what = "ibv_create_cq";
    if (!(p->cq = ibv_create_cq(d->ctx, RX_DEPTH + TX_DEPTH, NULL, NULL, 0)))
        goto err_report;
    struct ibv_qp_init_attr init = {
        .send_cq = p->cq, .recv_cq = p->cq, .qp_type = IBV_QPT_UD,
        .cap = {TX_DEPTH, RX_DEPTH, 1, 1, sizeof(mcast_msg_t)},
    };
    what = "ibv_create_qp (UD)";
    if (!(p->qp = ibv_create_qp(d->pd, &init))) {
        init.cap.max_inline_data = 0; /* a device without inline data */
        if (!(p->qp = ibv_create_qp(d->pd, &init)))
            goto err_report;
    }
    p->max_inline = init.cap.max_inline_data;
    what = "modifying the UD QP to RTS";
    if ((errno = qp_ready(p)))
        goto err_report;
    what = "ibv_attach_mcast";
    if ((errno = ibv_attach_mcast(p->qp, &p->ah_attr.grh.dgid, p->ah_attr.dlid)))
        goto err_report;
    p->attached = 1;
    what = "ibv_create_ah for the group";
    if (!(p->ah = ibv_create_ah(d->pd, &p->ah_attr)))
        goto err_report;
    lop_status_t st = LOP_OK;
    for (uint64_t slot = 0; slot < RX_DEPTH && st == LOP_OK; slot++)
        st = rx_post(p, slot);
    return st ? lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s", p->rank, lop_errmsg()) : LOP_OK;
err_report:
    return lop_err(LOP_ERR_UNSUPPORTED, "rank %d: %s: %s failed: %s", p->rank, d->name, what,
                   strerror(errno));
}

/* One NAK receive on the RC QP to 'peer'. */
static lop_status_t nak_post(lop_ib_mcast_priv_t *p, int peer)
{
    size_t slot;
    lop_status_t st = lop_recv_ring_post(&p->naks, peer, &slot);
    if (st != LOP_OK)
        return st;
    struct ibv_sge sge = {(uint64_t)(uintptr_t)&p->nak[slot], sizeof(uint64_t), p->mr->lkey};
    struct ibv_recv_wr wr = {.wr_id = (uint64_t)peer, .sg_list = &sge, .num_sge = 1}, *bad;
    int err = ibv_post_recv(p->nak_qp[peer], &wr, &bad);
    if (err)
        p->naks.posted[peer]--;
    return err ? lop_err(LOP_ERR_IO, "verbs: ibv_post_recv for NAKs from rank %d failed: %s",
                         peer, strerror(err)) : LOP_OK;
}

static lop_status_t naks_open(lop_ib_mcast_priv_t *p, const lop_ib_conn_t *conn, size_t n)
{
    lop_status_t st = LOP_OK;
    for (size_t i = 0; i < n; i++)
        p->nak_qp[conn[i].peer] = conn[i].qp;
    for (size_t i = 0; i < n && st == LOP_OK; i++)
        for (int k = 0; k < NAK_DEPTH && st == LOP_OK; k++)
            st = nak_post(p, conn[i].peer);
    return st;
}

/* The test hooks' values; LOP_OK without them.  Ranks -1 where unset. */
static lop_status_t hooks_read(int *none_rank, int *drop_rank, uint64_t *drop_k)
{
    const char *none = getenv("LOP_TEST_MCAST_NONE"), *drop = getenv("LOP_TEST_MCAST_DROP");
    *none_rank = *drop_rank = -1;
    if (drop && *drop && lop_mcast_drop_parse(drop, drop_rank, drop_k) != LOP_OK)
        return LOP_ERR_INVALID;
    if (!none || !*none)
        return LOP_OK;
    char *end;
    long r = strtol(none, &end, 10);
    if (end == none || *end != '\0' || r < 0 || r > (1 << 24))
        return lop_err(LOP_ERR_INVALID, "LOP_TEST_MCAST_NONE: '%s' is not a rank", none);
    *none_rank = (int)r;
    return LOP_OK;
}

lop_status_t lop_mcast_hooks_check(void)
{
    int none, drop;
    uint64_t k;
    return hooks_read(&none, &drop, &k);
}

static lop_status_t open_local(lop_ib_mcast_priv_t *p)
{
    lop_status_t st = check_device(p);
    st = st ? st : buffers(p);
    st = st ? st : bind_id(p);
    st = st ? st : join(p);
    return st ? st : ud_open(p);
}

/* Collective: rank 0's group address and job token, on every rank. */
static void pick_group(MPI_Comm comm, int rank, uint32_t *group, uint32_t *token)
{
    uint32_t v[2] = {0, 0};
    if (rank == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint32_t seed = (uint32_t)getpid() * 2654435761u ^ (uint32_t)ts.tv_nsec ^
                        (uint32_t)ts.tv_sec;
        v[0] = lop_mcast_group_pick(seed);
        v[1] = (seed * 2246822519u) | 1; /* never 0 */
    }
    MPI_Bcast(v, 2, MPI_UINT32_T, 0, comm);
    *group = v[0];
    *token = v[1];
}

static void describe(lop_ib_mcast_t *mc)
{
    const lop_ib_mcast_priv_t *p = mc->priv;
    snprintf(mc->note, sizeof mc->note, "hardware multicast to %u.%u.%u.%u (UD, joined with "
             "rdma_cm; a NAK after %g ms)", p->group >> 24, p->group >> 16 & 255,
             p->group >> 8 & 255, p->group & 255, mc->nak_timeout_s * 1e3);
}

lop_status_t lop_ib_mcast_open(lop_ib_mcast_t *mc, lop_ib_dev_t *dev, MPI_Comm comm,
                               const lop_ib_conn_t *conn, size_t n, lop_poll_t *poll,
                               double nak_timeout_s)
{
    memset(mc, 0, sizeof *mc);
    mc->nak_timeout_s = nak_timeout_s;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    uint32_t group, token;
    pick_group(comm, rank, &group, &token);
    lop_ib_mcast_priv_t *p = mc->priv = lop_calloc(1, sizeof *p);
    lop_status_t st = LOP_OK;
    if (p) {
        *p = (lop_ib_mcast_priv_t){.dev = dev, .poll = poll, .rank = rank, .size = size,
                                   .group = group, .token = token};
        hooks_read(&p->none_rank, &p->drop_rank, &p->drop_k); /* checked before the run */
        st = open_local(p);
    } else {
        st = lop_err(LOP_ERR_UNSUPPORTED, "rank %d: out of memory for the multicast group", rank);
    }
    /* every rank has its receives posted before any rank may multicast */
    st = lop_mpi_agree(comm, st);
    if (st != LOP_OK) {
        lop_ib_mcast_close(mc);
        snprintf(mc->note, sizeof mc->note, "no multicast: %s", lop_errmsg());
        return LOP_OK;
    }
    /* NAK receives only now: a fallback leaves the RC QPs as they were.
     * Their queues were sized for them, so a failure here stops the run. */
    st = lop_mpi_agree(comm, naks_open(p, conn, n));
    if (st != LOP_OK) {
        lop_ib_mcast_close(mc);
        return st;
    }
    mc->active = 1;
    describe(mc);
    return LOP_OK;
}

/* Undoes open in reverse, as far as it went. */
void lop_ib_mcast_close(lop_ib_mcast_t *mc)
{
    lop_ib_mcast_priv_t *p = mc->priv;
    mc->active = 0;
    if (!p)
        return;
    if (p->ah)
        ibv_destroy_ah(p->ah);
    if (p->attached)
        ibv_detach_mcast(p->qp, &p->ah_attr.grh.dgid, p->ah_attr.dlid);
    if (p->qp)
        ibv_destroy_qp(p->qp);
    if (p->cq)
        ibv_destroy_cq(p->cq);
    if (p->mr)
        ibv_dereg_mr(p->mr);
    if (p->joined)
        rdma_leave_multicast(p->id, (struct sockaddr *)&p->group_sa);
    if (p->id)
        rdma_destroy_id(p->id);
    if (p->chan)
        rdma_destroy_event_channel(p->chan);
    lop_recv_ring_free(&p->naks);
    free(p->nak_qp);
    free(p->seen);
    free(p->buf);
    free(p);
    mc->priv = NULL;
}

/* -------------------------------------------------------------- traffic */

uint64_t lop_ib_mcast_seen(const lop_ib_mcast_t *mc, int sender)
{
    return mc->priv->seen[sender];
}

/* A release arrived in receive slot 'slot': take it, unless it is not for
 * us (another job, our own looped back) or the drop hook discards it. */
static void rx_take(lop_ib_mcast_t *mc, const struct ibv_wc *wc)
{
    lop_ib_mcast_priv_t *p = mc->priv;
    mcast_msg_t m;
    if (wc->byte_len < GRH_BYTES + sizeof m)
        return;
    memcpy(&m, p->buf + wc->wr_id * RX_SLOT + GRH_BYTES, sizeof m);
    if (m.token != p->token || m.sender >= (uint32_t)p->size || (int)m.sender == p->rank)
        return;
    if (++p->arrived == p->drop_k && p->rank == p->drop_rank) {
        mc->counts.dropped++;
        return;
    }
    if (lop_mcast_take(&p->seen[m.sender], m.id))
        mc->counts.taken++;
    else
        mc->counts.duplicates++;
}

/* Reap the UD completion queue once: releases in, our sends done. */
static lop_status_t ud_reap(lop_ib_mcast_t *mc)
{
    lop_ib_mcast_priv_t *p = mc->priv;
    struct ibv_wc wc[CQ_BATCH];
    int got = ibv_poll_cq(p->cq, CQ_BATCH, wc);
    if (got < 0)
        return lop_err(LOP_ERR_IO, "verbs: polling the multicast completion queue failed (%d)",
                       got);
    lop_status_t st = LOP_OK;
    for (int i = 0; i < got && st == LOP_OK; i++) {
        int tx = (wc[i].wr_id & WR_TX) != 0;
        if (wc[i].status != IBV_WC_SUCCESS)
            return lop_ib_wc_error(&wc[i], tx ? "multicast send" : "multicast receive");
        if (tx) {
            p->tx_done++;
            continue;
        }
        rx_take(mc, &wc[i]);
        st = rx_post(p, wc[i].wr_id);
    }
    return st;
}

/* One UD send of release 'id' to the group, once a send slot is free. */
static lop_status_t ud_send(lop_ib_mcast_t *mc, uint64_t id)
{
    lop_ib_mcast_priv_t *p = mc->priv;
    lop_wait_t wait = {0};
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && p->tx_posted - p->tx_done >= TX_DEPTH) {
        st = ud_reap(mc);
        if (st == LOP_OK && p->tx_posted - p->tx_done >= TX_DEPTH && lop_poll_pause(p->poll, &wait))
            st = lop_poll_timeout(p->poll, "multicast send completions on %s", p->dev->name);
    }
    if (st != LOP_OK)
        return st;
    mcast_msg_t *m = &p->tx[p->tx_posted % TX_DEPTH];
    *m = (mcast_msg_t){id, (uint32_t)p->rank, p->token};
    struct ibv_sge sge = {(uint64_t)(uintptr_t)m, sizeof *m, p->mr->lkey};
    struct ibv_send_wr wr = {
        .wr_id = WR_TX | p->tx_posted, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
        .send_flags = IBV_SEND_SIGNALED | (p->max_inline >= sizeof *m ? IBV_SEND_INLINE : 0),
        .wr.ud = {.ah = p->ah, .remote_qpn = UD_QPN, .remote_qkey = p->qkey},
    }, *bad;
    int err = ibv_post_send(p->qp, &wr, &bad);
    if (err)
        return lop_err(LOP_ERR_IO, "verbs: ibv_post_send to the multicast group failed: %s",
                       strerror(err));
    p->tx_posted++;
    return LOP_OK;
}

lop_status_t lop_ib_mcast_post(lop_ib_mcast_t *mc, uint64_t id)
{
    lop_status_t st = ud_send(mc, id);
    if (st == LOP_OK) {
        mc->priv->last = id;
        mc->counts.sent++;
    }
    return st;
}

/* NAKs that arrived on the RC QPs (Kini 5.4): re-multicast the release each
 * asks for if we sent it, else ignore it (the asker waits on, and asks again). */
static lop_status_t serve_naks(lop_ib_mcast_t *mc)
{
    lop_ib_mcast_priv_t *p = mc->priv;
    struct ibv_wc wc[CQ_BATCH];
    int got = ibv_poll_cq(p->dev->recv_cq, CQ_BATCH, wc);
    if (got < 0)
        return lop_err(LOP_ERR_IO, "verbs: polling the receive completion queue failed (%d)",
                       got);
    lop_status_t st = LOP_OK;
    for (int i = 0; i < got && st == LOP_OK; i++) {
        int peer = (int)wc[i].wr_id;
        if (wc[i].status != IBV_WC_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "NAK receive from rank %d on %.64s", peer,
                     lop_mpi_host_of(peer));
            return lop_ib_wc_error(&wc[i], what);
        }
        size_t slot;
        st = lop_recv_ring_take(&p->naks, peer, &slot);
        uint64_t id = st == LOP_OK ? p->nak[slot] : 0;
        st = st ? st : nak_post(p, peer);
        if (st != LOP_OK)
            break;
        mc->counts.naks_received++;
        if (!lop_mcast_nak_valid(id, p->last))
            mc->counts.naks_early++;
        else if ((st = ud_send(mc, id)) == LOP_OK)
            mc->counts.resent++;
    }
    return st;
}

lop_status_t lop_ib_mcast_progress(lop_ib_mcast_t *mc)
{
    lop_status_t st = ud_reap(mc);
    return st ? st : serve_naks(mc);
}
