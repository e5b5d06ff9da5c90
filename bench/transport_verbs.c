/*
 * transport_verbs.c - lopbench's operations over InfiniBand verbs
 * (transport.h), with RC queue pairs between rank 0 and every other rank
 * (ibconn.h).
 *   send   IBV_WR_SEND of the 8-byte sequence value into a posted receive;
 *   rdmaw  IBV_WR_RDMA_WRITE of it into the target's slot for this rank, the
 *          target polling that slot (OSU report 001, 5.2);
 *   normal one ibv_post_send / ibv_post_recv per request, inline the same
 *          with IBV_SEND_INLINE, list one call for a chained list per QP.
 * Sends are unsignaled (thesis 4.1.3): the last request to each QP in a post
 * call is signaled, so wait_send can tell when the batch is done, and at
 * least every signal_every-th, so the send queue never fills with requests
 * whose completion nobody reaps.
 *
 * Registered buffer layout (the same on every rank, so offsets match):
 *   [0, 64)                 send value (source of sends and writes)
 *   recv_off + (peer*K+i)*8 receive ring of K slots per peer
 *   rdma_off + r*8          slot written by rank r
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibconn.h"
#include "transport.h"

enum { CQ_BATCH = 16 }; /* work completions reaped per ibv_poll_cq call */

typedef struct {
    lop_ib_dev_t dev;
    lop_ib_conn_t *conn;        /* the connections, n_conn of them */
    lop_ib_conn_t **by_rank;    /* [rank] -> its connection, or NULL */
    size_t n_conn;
    size_t k;                   /* receive ring length per peer */
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
    unsigned *unsignaled;       /* [rank] unsignaled sends since the last signaled one */
    unsigned signal_every;      /* signal at least every this many sends per QP */
    size_t signaled_pending;    /* signaled sends not yet reaped */
    lop_recv_ring_t ring;       /* which recv_slot the next receive of a peer uses */
    size_t *arrived;            /* [rank] receive completions reaped, ever */
} verbs_state_t;

enum { RECV_OFF = 64 }; /* bytes before the receive ring */

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
    free(s->unsignaled);
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
    s->conn = lop_calloc(size, sizeof *s->conn);
    s->by_rank = lop_calloc(size, sizeof *s->by_rank);
    s->swr = lop_calloc(s->cap, sizeof *s->swr);
    s->ssge = lop_calloc(s->cap, sizeof *s->ssge);
    s->rwr = lop_calloc(s->cap, sizeof *s->rwr);
    s->rsge = lop_calloc(s->cap, sizeof *s->rsge);
    s->last = lop_calloc(size, sizeof *s->last);
    s->unsignaled = lop_calloc(size, sizeof *s->unsignaled);
    s->arrived = lop_calloc(size, sizeof *s->arrived);
    lop_status_t ring = lop_recv_ring_init(&s->ring, "verbs", size, s->k);
    if (!s->conn || !s->by_rank || !s->swr || !s->ssge || !s->rwr || !s->rsge || !s->last ||
        !s->unsignaled || !s->arrived || ring != LOP_OK) {
        state_free(s);
        return NULL;
    }
    return s;
}

/* The peers to link: the star of both scenarios (rank 0 to every rank, every
 * rank to rank 0), or every other rank when all pairs are linked. */
static size_t linked_peers(const lop_transport_t *t, int *peers)
{
    if (t->all_pairs) {
        size_t n = 0;
        for (int r = 0; r < t->size; r++)
            if (r != t->rank)
                peers[n++] = r;
        return n;
    }
    if (t->rank != 0) {
        peers[0] = 0;
        return 1;
    }
    for (int r = 1; r < t->size; r++)
        peers[r - 1] = r;
    return (size_t)t->size - 1;
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
    lop_ib_caps_t caps = {(uint32_t)s->cap + 1, (uint32_t)s->k + 1, 64};
    st = lop_ib_connect(&s->dev, t->comm, peers, s->n_conn, &caps, s->conn);
    free(peers);
    if (st != LOP_OK)
        return st;
    s->max_inline = UINT32_MAX;
    for (size_t i = 0; i < s->n_conn; i++) {
        s->by_rank[s->conn[i].peer] = &s->conn[i];
        if (s->conn[i].max_inline < s->max_inline)
            s->max_inline = s->conn[i].max_inline;
    }
    s->signal_every = (caps.max_send_wr + 1) / 2;
    return LOP_OK;
}

static void describe(lop_transport_t *t, const verbs_state_t *s)
{
    const lop_ib_dev_t *d = &s->dev;
    snprintf(t->device, sizeof t->device,
             "%s port %u (%s), active MTU %d, max inline %u bytes%s", d->name, d->port,
             d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet/RoCE" : "InfiniBand",
             lop_ib_mtu_bytes(d->port_attr.active_mtu), s->max_inline,
             d->use_grh ? ", GRH" : "");
}

static lop_status_t verbs_setup(lop_transport_t *t, const lop_transport_cfg_t *cfg)
{
    verbs_state_t *s = state_alloc(t);
    lop_status_t st = lop_mpi_agree(t->comm, s ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK)
        goto err_free_state;
    size_t n_peers = t->rank == 0 || t->all_pairs ? (size_t)t->size - 1 : 1;
    lop_ib_cfg_t ib = {
        .name = cfg->device,
        .port = cfg->port,
        .gid_index = cfg->gid_index,
        .force_grh = cfg->gid_index_set,
        .buf_len = s->rdma_off + (size_t)t->size * sizeof(uint64_t),
        .send_cqe = (int)(n_peers * (s->cap + 1)),
        .recv_cqe = (int)(n_peers * (s->k + 1)),
    };
    st = lop_mpi_agree(t->comm, lop_ib_open(&s->dev, &ib));
    if (st != LOP_OK)
        goto err_close_device; /* open on this rank, failed on another */
    st = connect_peers(t, s);
    if (st != LOP_OK)
        goto err_close_device;
    char *base = s->dev.buf;
    s->send_value = (volatile uint64_t *)base;
    s->recv_slot = (uint64_t *)(base + RECV_OFF);
    s->rdma_slot = (uint64_t *)(base + s->rdma_off);
    describe(t, s);
    t->priv = s;
    return LOP_OK;

err_close_device:
    lop_ib_close(&s->dev); /* a no-op where lop_ib_open failed */
err_free_state:
    if (s)
        state_free(s);
    return st;
}

static void verbs_cleanup(lop_transport_t *t)
{
    verbs_state_t *s = t->priv;
    lop_ib_disconnect(s->conn, s->n_conn);
    lop_ib_close(&s->dev);
    state_free(s);
    t->priv = NULL;
}

static const char *verbs_why_not(const lop_transport_t *t, lop_op_t op, lop_post_t post)
{
    const verbs_state_t *s = t->priv;
    (void)op;
    if (post == LOP_POST_INLINE && s->max_inline < sizeof(uint64_t))
        return "not applicable: the device sends no inline data";
    return NULL;
}

/* A list post chains a request to the next one when that goes to the same
 * QP; each chain is posted with one call. */
static int chained_to_next(lop_post_t post, const int *peers, size_t n, size_t m)
{
    return post == LOP_POST_LIST && m + 1 < n && peers[m + 1] == peers[m];
}

/* ------------------------------------------------------------------ sends */

/* Fill swr[m] for a request to 'peer'; link it to the next one when the call
 * posts a list and the next request goes to the same QP. */
static void send_wr_fill(verbs_state_t *s, lop_op_t op, lop_post_t post, const int *peers,
                         size_t n, size_t m, int rank)
{
    int peer = peers[m];
    struct ibv_send_wr *wr = &s->swr[m];
    int chained = chained_to_next(post, peers, n, m);
    int signaled = s->last[peer] == m || ++s->unsignaled[peer] >= s->signal_every;
    s->ssge[m] = (struct ibv_sge){(uint64_t)(uintptr_t)s->send_value, sizeof(uint64_t),
                                  s->dev.mr->lkey};
    *wr = (struct ibv_send_wr){
        .wr_id = (uint64_t)peer,
        .next = chained ? &s->swr[m + 1] : NULL,
        .sg_list = &s->ssge[m],
        .num_sge = 1,
        .opcode = op == LOP_OP_RDMAW ? IBV_WR_RDMA_WRITE : IBV_WR_SEND,
        .send_flags = (post == LOP_POST_INLINE ? IBV_SEND_INLINE : 0) |
                      (signaled ? IBV_SEND_SIGNALED : 0),
    };
    if (op == LOP_OP_RDMAW) {
        const lop_ib_conn_t *c = s->by_rank[peer];
        wr->wr.rdma.remote_addr = c->remote.addr + s->rdma_off + (uint64_t)rank * sizeof(uint64_t);
        wr->wr.rdma.rkey = c->remote.rkey;
    }
    if (signaled) {
        s->unsignaled[peer] = 0;
        s->signaled_pending++;
    }
}

static lop_status_t verbs_post_send(lop_transport_t *t, lop_op_t op, const int *peers, size_t n,
                                    lop_post_t post, uint64_t seq)
{
    verbs_state_t *s = t->priv;
    if (n > s->cap)
        return lop_err(LOP_ERR_RANGE, "verbs: %zu requests in one post, at most %zu", n, s->cap);
    *s->send_value = seq;
    for (size_t m = 0; m < n; m++) {
        if (!s->by_rank[peers[m]])
            return lop_err(LOP_ERR_INVALID, "verbs: no connection to rank %d", peers[m]);
        s->last[peers[m]] = m;
    }
    for (size_t m = 0, head = 0; m < n; m++) {
        send_wr_fill(s, op, post, peers, n, m, t->rank);
        if (s->swr[m].next)
            continue; /* posted with the head of its list */
        struct ibv_send_wr *bad;
        int err = ibv_post_send(s->by_rank[peers[m]]->qp, &s->swr[head], &bad);
        head = m + 1;
        if (err)
            return lop_err(LOP_ERR_IO, "verbs: ibv_post_send to rank %d failed: %s", peers[m],
                           strerror(err));
    }
    return LOP_OK;
}

static lop_status_t verbs_wait_send(lop_transport_t *t)
{
    verbs_state_t *s = t->priv;
    struct ibv_wc wc[CQ_BATCH];
    while (s->signaled_pending > 0) {
        int got = ibv_poll_cq(s->dev.send_cq, CQ_BATCH, wc);
        if (got < 0)
            return lop_err(LOP_ERR_IO, "verbs: polling the send completion queue failed");
        for (int i = 0; i < got; i++)
            if (wc[i].status != IBV_WC_SUCCESS)
                return lop_err(LOP_ERR_IO, "verbs: request to rank %d failed: %s",
                               (int)wc[i].wr_id, ibv_wc_status_str(wc[i].status));
        s->signaled_pending -= (size_t)got;
        if (got == 0)
            lop_poll_pause(&t->poll);
    }
    return LOP_OK;
}

/* --------------------------------------------------------------- receives */

static lop_status_t verbs_post_recv(lop_transport_t *t, const int *peers, size_t n,
                                    lop_post_t post)
{
    verbs_state_t *s = t->priv;
    if (n > s->cap)
        return lop_err(LOP_ERR_RANGE, "verbs: %zu receives in one post, at most %zu", n, s->cap);
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
        struct ibv_recv_wr *bad;
        int err = ibv_post_recv(s->by_rank[peer]->qp, &s->rwr[head], &bad);
        head = m + 1;
        if (err)
            return lop_err(LOP_ERR_IO, "verbs: ibv_post_recv for rank %d failed: %s", peer,
                           strerror(err));
    }
    return LOP_OK;
}

/* Reap receive completions, crediting each to the peer it came from. */
static lop_status_t reap_recv(lop_transport_t *t, verbs_state_t *s)
{
    struct ibv_wc wc[CQ_BATCH];
    int got = ibv_poll_cq(s->dev.recv_cq, CQ_BATCH, wc);
    if (got < 0)
        return lop_err(LOP_ERR_IO, "verbs: polling the receive completion queue failed");
    for (int i = 0; i < got; i++) {
        if (wc[i].status != IBV_WC_SUCCESS)
            return lop_err(LOP_ERR_IO, "verbs: receive from rank %d failed: %s",
                           (int)wc[i].wr_id, ibv_wc_status_str(wc[i].status));
        s->arrived[wc[i].wr_id]++;
    }
    if (got == 0)
        lop_poll_pause(&t->poll);
    return LOP_OK;
}

static lop_status_t verbs_wait_recv(lop_transport_t *t, lop_op_t op, int peer, uint64_t seq)
{
    verbs_state_t *s = t->priv;
    if (op == LOP_OP_RDMAW) {
        while (__atomic_load_n(&s->rdma_slot[peer], __ATOMIC_ACQUIRE) < seq)
            lop_poll_pause(&t->poll);
        return LOP_OK;
    }
    size_t slot;
    lop_status_t st = lop_recv_ring_take(&s->ring, peer, &slot);
    while (st == LOP_OK && s->arrived[peer] < s->ring.consumed[peer])
        st = reap_recv(t, s);
    return st == LOP_OK ? lop_recv_ring_check(&s->ring, peer, s->recv_slot[slot], seq) : st;
}

const lop_transport_ops_t lop_transport_verbs = {
    .name = "verbs",
    .setup = verbs_setup,
    .cleanup = verbs_cleanup,
    .why_not = verbs_why_not,
    .post_recv = verbs_post_recv,
    .post_send = verbs_post_send,
    .wait_send = verbs_wait_send,
    .wait_recv = verbs_wait_recv,
};
