/*
 * transport_verbs.c - lopbench's operations over InfiniBand verbs
 * (transport.h), with RC queue pairs between rank 0 and every other rank
 * (ibconn.h).
 *   send   IBV_WR_SEND of the 8-byte sequence value into a posted receive;
 *   rdmaw  IBV_WR_RDMA_WRITE of it into the target's slot for this rank, the
 *          target polling that slot (OSU report 001, 5.2);
 *   normal one ibv_post_send / ibv_post_recv per request, inline the same
 *          with IBV_SEND_INLINE, list one call for a chained list per QP.
 * Multicast (post_mcast, wait_mcast), when asked for: a group of UD QPs
 * (ibmcast.h), with NAKs as solicited RC sends on these QPs (Kini et al.
 * 5.4); every wait then also serves NAKs.
 * Sends are unsignaled (thesis 4.1.3): the last request to each QP in a post
 * call is signaled, so wait_send can tell when the batch is done, and at
 * least every signal_every-th, so the send queue never fills with requests
 * whose completion nobody reaps.
 *
 * Queue accounting.  Each QP's send queue holds sq_depth = 2K requests and
 * one call puts at most K on it, with a signaled request at least every K:
 * a request leaves the queue when it or a later signaled one on its QP
 * completes, so before a call we reap completions until its requests fit,
 * which always ends (among K or more outstanding requests one is signaled).
 * The send completion queue is smaller than QPs x depth would need; instead
 * signaled requests outstanding over all QPs are kept within its size.  A
 * receive ring of K slots per peer bounds the receive queues the same way.
 * Counts change only for requests the device accepted, so a list post that
 * fails part-way leaves them right.
 *
 * Registered buffer layout (the same on every rank, so offsets match):
 *   [0, 64)                 send value (source of sends and writes)
 *   recv_off + (peer*K+i)*8 receive ring of K slots per peer
 *   rdma_off + r*8          slot written by rank r
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibconn.h"
#include "ibmcast.h"
#include "transport.h"

enum {
    CQ_BATCH = 16,             /* work completions reaped per ibv_poll_cq call */
    SEND_CQ_MAX = 1 << 14,     /* send completion queue entries at most */
    ASYNC_EVERY = 1 << 12,     /* unsuccessful checks between two async event reads */
    RECV_OFF = 64,             /* bytes before the receive ring */
    WR_PEER_BITS = 24,         /* wr_id: peer in the low bits, request number above */
    NAK_CLOCK_EVERY = 64       /* checks of a multicast wait between two NAK timer readings */
};
#define WR_INDEX_MASK ((UINT64_C(1) << (64 - WR_PEER_BITS)) - 1)

typedef struct {
    lop_ib_dev_t dev;
    lop_ib_cfg_t ib;            /* what the device was opened with */
    lop_ib_conn_t *conn;        /* the connections, n_conn of them */
    lop_ib_conn_t **by_rank;    /* [rank] -> its connection, or NULL */
    size_t n_conn;
    size_t k;                   /* most requests one call puts on one QP; receive ring length */
    size_t rdma_off;            /* offset of the rdmaw slots in every rank's buffer */
    size_t cap;                 /* work requests one post call may carry */
    uint32_t max_inline;        /* smallest inline size over our QPs */
    volatile uint64_t *send_value;
    uint64_t *recv_slot;
    uint64_t *rdma_slot;
    struct ibv_send_wr *swr;    /* [cap] send work requests of one call */
    struct ibv_sge *ssge;       /* [cap] their gather entries (the send value) */
    struct ibv_recv_wr *rwr;    /* [cap] receive work requests of one call */
    struct ibv_sge *rsge;       /* [cap] their scatter entries */
    size_t *last;               /* [rank] index of the last request to it in this call */
    uint64_t *sq_posted;        /* [rank] send requests its QP accepted, ever */
    uint64_t *sq_done;          /* [rank] of those, known complete */
    uint64_t *sq_signaled;      /* [rank] number of its last signaled request */
    uint64_t signal_every;      /* signal at least every this many sends per QP (K) */
    size_t signaled_pending;    /* signaled sends not yet reaped, all QPs */
    size_t recv_pending;        /* receives posted, not yet reaped, all QPs */
    lop_recv_ring_t ring;       /* which recv_slot the next receive of a peer uses */
    size_t *arrived;            /* [rank] receive completions reaped, ever */
    int send_flags;             /* ORed into the sends being posted (a NAK is solicited) */
    lop_ib_mcast_t mc;          /* the multicast group, when t->want_mcast (ibmcast.h) */
} verbs_state_t;

static size_t rdma_off(size_t size, size_t k)
{
    return RECV_OFF + size * k * sizeof(uint64_t);
}

static void state_free(verbs_state_t *s)
{
    free(s->conn);
    free(s->by_rank);
    free(s->swr);
    free(s->ssge);
    free(s->rwr);
    free(s->rsge);
    free(s->last);
    free(s->sq_posted);
    free(s->sq_done);
    free(s->sq_signaled);
    lop_recv_ring_free(&s->ring);
    free(s->arrived);
    free(s);
}

static verbs_state_t *state_alloc(const lop_transport_t *t)
{
    verbs_state_t *s = lop_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t size = (size_t)t->size;
    s->k = t->max_post;
    s->cap = s->k > size ? s->k : size;
    s->rdma_off = rdma_off(size, s->k);
    s->signal_every = s->k;
    s->conn = lop_calloc(size, sizeof *s->conn);
    s->by_rank = lop_calloc(size, sizeof *s->by_rank);
    s->swr = lop_calloc(s->cap, sizeof *s->swr);
    s->ssge = lop_calloc(s->cap, sizeof *s->ssge);
    s->rwr = lop_calloc(s->cap, sizeof *s->rwr);
    s->rsge = lop_calloc(s->cap, sizeof *s->rsge);
    s->last = lop_calloc(size, sizeof *s->last);
    s->sq_posted = lop_calloc(size, sizeof *s->sq_posted);
    s->sq_done = lop_calloc(size, sizeof *s->sq_done);
    s->sq_signaled = lop_calloc(size, sizeof *s->sq_signaled);
    s->arrived = lop_calloc(size, sizeof *s->arrived);
    lop_status_t ring = lop_recv_ring_init(&s->ring, "verbs", size, s->k);
    if (!s->conn || !s->by_rank || !s->swr || !s->ssge || !s->rwr || !s->rsge || !s->last ||
        !s->sq_posted || !s->sq_done || !s->sq_signaled || !s->arrived || ring != LOP_OK) {
        state_free(s);
        return NULL;
    }
    return s;
}

/* The peers to link (lop_transport_linked) into 'peers' if not NULL; how
 * many. */
static size_t linked_peers(const lop_transport_t *t, int *peers)
{
    size_t n = 0;
    for (int r = 0; r < t->size; r++)
        if (lop_transport_linked(t, r)) {
            if (peers)
                peers[n] = r;
            n++;
        }
    return n;
}

/* Device configuration: buffer size, queue depths and completion queue
 * sizes from the number of peers and K (see "Queue accounting" above). */
static lop_status_t ib_config(const lop_transport_t *t, const lop_transport_cfg_t *cfg,
                              const verbs_state_t *s, lop_ib_cfg_t *ib)
{
    size_t qps = linked_peers(t, NULL);
    if (s->k > UINT32_MAX / 2)
        return lop_err(LOP_ERR_RANGE, "verbs: %zu requests per post is too many", s->k);
    if (t->size >= 1 << WR_PEER_BITS) /* wr_id names the peer in WR_PEER_BITS */
        return lop_err(LOP_ERR_RANGE, "verbs: at most %d ranks", (1 << WR_PEER_BITS) - 1);
    *ib = (lop_ib_cfg_t){
        .name = cfg->device,
        .port = cfg->port,
        .gid_index = cfg->gid_index,
        .force_grh = cfg->gid_index_set,
        .tclass = cfg->tclass,
        .sl = cfg->sl,
        .buf_len = s->rdma_off + (size_t)t->size * sizeof(uint64_t),
        .qps = qps,
        .sq_depth = (uint32_t)(2 * s->k),
        .rq_depth = (uint32_t)s->k,
    };
    size_t all = qps * ib->sq_depth;
    ib->send_cqe = all < SEND_CQ_MAX ? all : SEND_CQ_MAX;
    ib->recv_cqe = s->cap; /* the most receives the scenarios and executors post at once */
    if (t->want_mcast) { /* room for the NAK receives kept posted on every QP */
        if (ib->rq_depth < LOP_IB_MCAST_NAK_DEPTH)
            ib->rq_depth = LOP_IB_MCAST_NAK_DEPTH;
        ib->recv_cqe += qps * LOP_IB_MCAST_NAK_DEPTH;
    }
    return LOP_OK;
}

static lop_status_t connect_peers(lop_transport_t *t, verbs_state_t *s)
{
    int *peers = lop_calloc((size_t)t->size, sizeof *peers);
    lop_status_t st = lop_mpi_agree(t->comm, peers ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK) {
        free(peers);
        return st;
    }
    s->n_conn = linked_peers(t, peers);
    lop_ib_caps_t caps = {64};
    st = lop_ib_connect(&s->dev, &s->ib, t->comm, peers, s->n_conn, &caps, s->conn);
    free(peers);
    if (st != LOP_OK)
        return st;
    s->max_inline = UINT32_MAX;
    for (size_t i = 0; i < s->n_conn; i++) {
        s->by_rank[s->conn[i].peer] = &s->conn[i];
        if (s->conn[i].max_inline < s->max_inline)
            s->max_inline = s->conn[i].max_inline;
    }
    return LOP_OK;
}

static void describe(lop_transport_t *t, const verbs_state_t *s)
{
    const lop_ib_dev_t *d = &s->dev;
    int eth = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    char route[160] = "";
    if (d->use_grh)
        snprintf(route, sizeof route, ", GID index %d (%s%s, %s), traffic class %d", d->gid_index,
                 lop_ib_gid_type_name(d->gid_type, eth),
                 lop_ib_gid_is_ipv4(&d->gid) ? " IPv4" : "", d->gid_auto ? "auto" : "given",
                 d->tclass);
    snprintf(t->device, sizeof t->device,
             "%s port %u (%s), active MTU %d, max inline %u bytes, SL %d%s", d->name, d->port,
             eth ? "Ethernet/RoCE" : "InfiniBand", lop_ib_mtu_bytes(d->port_attr.active_mtu),
             s->max_inline, d->sl, route);
}

static lop_status_t verbs_setup(lop_transport_t *t, const lop_transport_cfg_t *cfg)
{
    verbs_state_t *s = state_alloc(t);
    lop_status_t st = lop_mpi_agree(t->comm, s ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK)
        goto err_free_state;
    st = lop_mpi_agree(t->comm, ib_config(t, cfg, s, &s->ib));
    if (st == LOP_OK) /* open on this rank, perhaps failed on another */
        st = lop_mpi_agree(t->comm, lop_ib_open(&s->dev, &s->ib));
    if (st == LOP_OK)
        st = connect_peers(t, s);
    if (st != LOP_OK)
        goto err_close_device;
    char *base = s->dev.buf;
    s->send_value = (volatile uint64_t *)base;
    s->recv_slot = (uint64_t *)(base + RECV_OFF);
    s->rdma_slot = (uint64_t *)(base + s->rdma_off);
    describe(t, s);
    if (t->want_mcast) { /* collective; not joining is a fallback, said in the note */
        st = lop_ib_mcast_open(&s->mc, &s->dev, t->comm, s->conn, s->n_conn, &t->poll,
                               cfg->nak_ms / 1e3);
        if (st != LOP_OK)
            goto err_disconnect;
        t->mcast = s->mc.active;
        snprintf(t->mcast_note, sizeof t->mcast_note, "%s", s->mc.note);
    }
    t->priv = s;
    return LOP_OK;

err_disconnect:
    lop_ib_disconnect(s->conn, s->n_conn);
err_close_device:
    lop_ib_close(&s->dev); /* a no-op where lop_ib_open failed or never ran */
err_free_state:
    if (s)
        state_free(s);
    return st;
}

static void verbs_cleanup(lop_transport_t *t)
{
    verbs_state_t *s = t->priv;
    lop_ib_mcast_close(&s->mc);
    lop_ib_disconnect(s->conn, s->n_conn);
    lop_ib_close(&s->dev);
    state_free(s);
    t->priv = NULL;
}

static const char *verbs_why_not(const lop_transport_t *t, lop_op_t op, lop_post_t post)
{
    const verbs_state_t *s = t->priv;
    if (lop_op_desc[op].multicast && !t->mcast)
        return t->want_mcast ? t->mcast_note : "the transport was set up without multicast";
    if (lop_op_desc[op].multicast && post != LOP_POST_NORMAL)
        return "not applicable: a multicast post is one call, inline where the device allows";
    if (lop_op_desc[op].uses_recv && t->want_mcast)
        return "not with mcast in one run: the receive queues then carry the multicast's NAKs "
               "(measure it in a run without --ops mcast)";
    if (post == LOP_POST_INLINE && s->max_inline < sizeof(uint64_t))
        return "not applicable: the device grants no inline data";
    return NULL;
}

/* After an unsuccessful check: pause, watch for asynchronous errors, and
 * give up at the deadline ('what' names the wait, 'peer' the rank waited for).
 * With multicast, every wait also answers NAKs (Kini 5.4): a rank that
 * multicasts keeps serving them whatever it waits for. */
static lop_status_t verbs_idle(lop_transport_t *t, lop_wait_t *wait, const char *what, int peer)
{
    verbs_state_t *s = t->priv;
    lop_status_t st = s->mc.active ? lop_ib_mcast_progress(&s->mc) : LOP_OK;
    if (st != LOP_OK)
        return st;
    if (lop_poll_pause(&t->poll, wait))
        return lop_poll_timeout(&t->poll, "%s rank %d on %.64s", what, peer, lop_mpi_host_of(peer));
    return wait->checks % ASYNC_EVERY == 0 ? lop_ib_async_check(&s->dev) : LOP_OK;
}

/* A list post chains a request to the next one when that goes to the same
 * QP; each chain is posted with one call. */
static int chained_to_next(lop_post_t post, const int *peers, size_t n, size_t m)
{
    return post == LOP_POST_LIST && m + 1 < n && peers[m + 1] == peers[m];
}

/* ------------------------------------------------------------------ sends */

/* The first rank with sends outstanding (for a timeout's message). */
static int first_unfinished(const lop_transport_t *t, const verbs_state_t *s)
{
    for (int r = 0; r < t->size; r++)
        if (s->sq_posted[r] != s->sq_done[r])
            return r;
    return -1;
}

/* Reap send completions once: a signaled request's completion completes it
 * and every earlier request on its QP. */
static lop_status_t reap_send(lop_transport_t *t, verbs_state_t *s, lop_wait_t *wait)
{
    struct ibv_wc wc[CQ_BATCH];
    int got = ibv_poll_cq(s->dev.send_cq, CQ_BATCH, wc);
    if (got < 0)
        return lop_err(LOP_ERR_IO, "verbs: polling the send completion queue failed (%d)", got);
    for (int i = 0; i < got; i++) {
        int peer = (int)(wc[i].wr_id & ((1u << WR_PEER_BITS) - 1));
        if (wc[i].status != IBV_WC_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "send to rank %d on %.64s", peer, lop_mpi_host_of(peer));
            return lop_ib_wc_error(&wc[i], what);
        }
        uint64_t index = wc[i].wr_id >> WR_PEER_BITS;
        s->sq_done[peer] = s->sq_posted[peer] - ((s->sq_posted[peer] - index) & WR_INDEX_MASK);
        s->signaled_pending--;
    }
    if (got > 0)
        return LOP_OK;
    return verbs_idle(t, wait, "send completions from", first_unfinished(t, s));
}

/* Fill swr[m], the request numbered 'index' on peers[m]'s QP; chain it to the
 * next one when the call posts a list and the next goes to the same QP.
 * '*signaled_at' is the number of the QP's last signaled request so far. */
static void send_wr_fill(verbs_state_t *s, lop_op_t op, lop_post_t post, const int *peers,
                         size_t n, size_t m, int rank, uint64_t index, uint64_t *signaled_at)
{
    int peer = peers[m];
    struct ibv_send_wr *wr = &s->swr[m];
    int chained = chained_to_next(post, peers, n, m);
    int signaled = s->last[peer] == m || index - *signaled_at >= s->signal_every;
    if (signaled)
        *signaled_at = index;
    s->ssge[m] = (struct ibv_sge){(uint64_t)(uintptr_t)s->send_value, sizeof(uint64_t),
                                  s->dev.mr->lkey};
    *wr = (struct ibv_send_wr){
        .wr_id = index << WR_PEER_BITS | (uint64_t)peer,
        .next = chained ? &s->swr[m + 1] : NULL,
        .sg_list = &s->ssge[m],
        .num_sge = 1,
        .opcode = op == LOP_OP_RDMAW ? IBV_WR_RDMA_WRITE : IBV_WR_SEND,
        .send_flags = (post == LOP_POST_INLINE ? IBV_SEND_INLINE : 0) |
                      (signaled ? IBV_SEND_SIGNALED : 0) | (unsigned)s->send_flags,
    };
    if (op == LOP_OP_RDMAW) {
        const lop_ib_conn_t *c = s->by_rank[peer];
        wr->wr.rdma.remote_addr = c->remote.addr + s->rdma_off + (uint64_t)rank * sizeof(uint64_t);
        wr->wr.rdma.rkey = c->remote.rkey;
    }
}

/* Reap until a chain of 'len' requests (at most 2 signaled) fits both the
 * peer's send queue and the send completion queue. */
static lop_status_t make_room(lop_transport_t *t, verbs_state_t *s, int peer, size_t len)
{
    lop_wait_t wait = {0};
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && (s->sq_posted[peer] - s->sq_done[peer] + len >
                                s->by_rank[peer]->sq_depth ||
                            s->signaled_pending + 2 > s->ib.send_cqe))
        st = reap_send(t, s, &wait);
    return st;
}

/* Credit the requests swr[head..end) that the device accepted (up to 'bad'). */
static void account_posted(verbs_state_t *s, size_t head, size_t end,
                           const struct ibv_send_wr *bad)
{
    for (size_t m = head; m < end && &s->swr[m] != bad; m++) {
        int peer = (int)(s->swr[m].wr_id & ((1u << WR_PEER_BITS) - 1));
        s->sq_posted[peer]++;
        if (s->swr[m].send_flags & IBV_SEND_SIGNALED) {
            s->sq_signaled[peer] = s->sq_posted[peer];
            s->signaled_pending++;
        }
    }
}

static lop_status_t verbs_post_send(lop_transport_t *t, lop_op_t op, const int *peers, size_t n,
                                    lop_post_t post, uint64_t seq)
{
    verbs_state_t *s = t->priv;
    if (n > s->cap)
        return lop_err(LOP_ERR_RANGE, "verbs: %zu requests in one post, at most %zu", n, s->cap);
    for (size_t m = 0; m < n; m++) {
        if (!s->by_rank[peers[m]])
            return lop_err(LOP_ERR_INVALID, "verbs: no connection to rank %d", peers[m]);
        s->last[peers[m]] = m;
    }
    *s->send_value = seq;
    for (size_t head = 0; head < n;) {
        size_t end = head + 1;
        while (chained_to_next(post, peers, n, end - 1))
            end++;
        int peer = peers[head];
        lop_status_t st = make_room(t, s, peer, end - head);
        if (st != LOP_OK)
            return st;
        uint64_t signaled_at = s->sq_signaled[peer];
        for (size_t m = head; m < end; m++)
            send_wr_fill(s, op, post, peers, n, m, t->rank, s->sq_posted[peer] + 1 + (m - head),
                         &signaled_at);
        struct ibv_send_wr *bad = NULL;
        int err = ibv_post_send(s->by_rank[peer]->qp, &s->swr[head], &bad);
        account_posted(s, head, end, err ? bad : NULL);
        if (err)
            return lop_err(LOP_ERR_IO, "verbs: ibv_post_send to rank %d failed: %s", peer,
                           strerror(err));
        head = end;
    }
    return LOP_OK;
}

static lop_status_t verbs_wait_send(lop_transport_t *t)
{
    verbs_state_t *s = t->priv;
    lop_wait_t wait = {0};
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && s->signaled_pending > 0)
        st = reap_send(t, s, &wait);
    return st;
}

/* --------------------------------------------------------------- receives */

static lop_status_t verbs_post_recv(lop_transport_t *t, const int *peers, size_t n,
                                    lop_post_t post)
{
    verbs_state_t *s = t->priv;
    if (s->mc.active) /* a message would land in a NAK receive */
        return lop_err(LOP_ERR_INVALID, "verbs: no two-sided receives beside multicast NAKs");
    if (s->recv_pending + n > s->ib.recv_cqe)
        return lop_err(LOP_ERR_RANGE, "verbs: more than %zu receives outstanding",
                       s->ib.recv_cqe);
    for (size_t m = 0, head = 0; m < n; m++) {
        int peer = peers[m];
        if (!s->by_rank[peer])
            return lop_err(LOP_ERR_INVALID, "verbs: no connection to rank %d", peer);
        size_t slot;
        lop_status_t st = lop_recv_ring_post(&s->ring, peer, &slot);
        if (st != LOP_OK)
            return st;
        int chained = chained_to_next(post, peers, n, m);
        s->rsge[m] = (struct ibv_sge){(uint64_t)(uintptr_t)&s->recv_slot[slot], sizeof(uint64_t),
                                      s->dev.mr->lkey};
        s->rwr[m] = (struct ibv_recv_wr){(uint64_t)peer, chained ? &s->rwr[m + 1] : NULL,
                                         &s->rsge[m], 1};
        if (chained)
            continue;
        struct ibv_recv_wr *bad = NULL;
        int err = ibv_post_recv(s->by_rank[peer]->qp, &s->rwr[head], &bad);
        size_t chain = m + 1 - head, accepted = chain;
        if (err) /* the ring counted the whole chain: give back the refused slots */
            accepted = bad ? (size_t)(bad - &s->rwr[head]) : 0;
        s->ring.posted[peer] -= chain - accepted;
        s->recv_pending += accepted;
        head = m + 1;
        if (err)
            return lop_err(LOP_ERR_IO, "verbs: ibv_post_recv for rank %d failed: %s", peer,
                           strerror(err));
    }
    return LOP_OK;
}

/* Reap receive completions once, crediting each to the peer it came from. */
static lop_status_t reap_recv(lop_transport_t *t, verbs_state_t *s, lop_wait_t *wait, int peer)
{
    struct ibv_wc wc[CQ_BATCH];
    int got = ibv_poll_cq(s->dev.recv_cq, CQ_BATCH, wc);
    if (got < 0)
        return lop_err(LOP_ERR_IO, "verbs: polling the receive completion queue failed (%d)",
                       got);
    for (int i = 0; i < got; i++) {
        s->recv_pending--;
        if (wc[i].status != IBV_WC_SUCCESS) {
            char what[128];
            snprintf(what, sizeof what, "receive from rank %d on %.64s", (int)wc[i].wr_id,
                     lop_mpi_host_of((int)wc[i].wr_id));
            return lop_ib_wc_error(&wc[i], what);
        }
        s->arrived[wc[i].wr_id]++;
    }
    return got > 0 ? LOP_OK : verbs_idle(t, wait, "a message from", peer);
}

static lop_status_t verbs_wait_recv(lop_transport_t *t, lop_op_t op, int peer, uint64_t seq)
{
    verbs_state_t *s = t->priv;
    lop_wait_t wait = {0};
    lop_status_t st = LOP_OK;
    if (op == LOP_OP_RDMAW) {
        while (st == LOP_OK && __atomic_load_n(&s->rdma_slot[peer], __ATOMIC_ACQUIRE) < seq)
            st = verbs_idle(t, &wait, "an RDMA write from", peer);
        return st;
    }
    size_t slot;
    st = lop_recv_ring_take(&s->ring, peer, &slot);
    while (st == LOP_OK && s->arrived[peer] < s->ring.consumed[peer])
        st = reap_recv(t, s, &wait, peer);
    return st == LOP_OK ? lop_recv_ring_check(&s->ring, peer, s->recv_slot[slot], seq) : st;
}

/* -------------------------------------------------------------- multicast */

static lop_status_t verbs_post_mcast(lop_transport_t *t, uint64_t id)
{
    verbs_state_t *s = t->priv;
    return lop_ib_mcast_post(&s->mc, id);
}

/* A NAK (Kini 5.4): an RC send of the id waited for, solicited, to its sender. */
static lop_status_t send_nak(lop_transport_t *t, verbs_state_t *s, int sender, uint64_t id)
{
    lop_post_t post = s->max_inline >= sizeof(uint64_t) ? LOP_POST_INLINE : LOP_POST_NORMAL;
    s->send_flags = IBV_SEND_SOLICITED;
    lop_status_t st = verbs_post_send(t, LOP_OP_SEND, &sender, 1, post, id);
    s->send_flags = 0;
    /* a normal post reads the id from send_value later: done before it changes */
    st = st ? st : verbs_wait_send(t);
    s->mc.counts.naks_sent += st == LOP_OK;
    return st;
}

/* Wait for release 'id' (or a later one) from 'sender'; after each NAK
 * timeout without it, ask the sender again. */
static lop_status_t verbs_wait_mcast(lop_transport_t *t, int sender, uint64_t id)
{
    verbs_state_t *s = t->priv;
    lop_wait_t wait = {0};
    double next_nak = 0;
    for (;;) {
        lop_status_t st = lop_ib_mcast_progress(&s->mc);
        if (st != LOP_OK || lop_ib_mcast_seen(&s->mc, sender) >= id)
            return st;
        if (wait.checks % NAK_CLOCK_EVERY == 0 &&
            lop_mcast_nak_due(lop_timer_clock_s(), s->mc.nak_timeout_s, &next_nak))
            st = send_nak(t, s, sender, id);
        st = st ? st : verbs_idle(t, &wait, "the multicast release from", sender);
        if (st != LOP_OK)
            return st;
    }
}

static void verbs_mcast_counts(const lop_transport_t *t, lop_mcast_counts_t *counts)
{
    const verbs_state_t *s = t->priv;
    *counts = s->mc.counts;
}

const lop_transport_ops_t lop_transport_verbs = {
    .name = "verbs",
    .takes_device = 1,
    .recv_before_send = 1,
    .setup = verbs_setup,
    .cleanup = verbs_cleanup,
    .why_not = verbs_why_not,
    .post_recv = verbs_post_recv,
    .post_send = verbs_post_send,
    .wait_send = verbs_wait_send,
    .wait_recv = verbs_wait_recv,
    .post_mcast = verbs_post_mcast,
    .wait_mcast = verbs_wait_mcast,
    .mcast_counts = verbs_mcast_counts,
};
