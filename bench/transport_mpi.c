/*
 * transport_mpi.c - lopbench's operations over MPI (transport.h).
 *   send   normal: MPI_Isend / MPI_Irecv, one call per request;
 *          list:   persistent requests (MPI_Send_init / MPI_Recv_init, made at
 *                  setup) started by one MPI_Startall;
 *   rdmaw  normal: a one-sided write of the sequence value into the target's
 *                  window slot, the target polling its memory (rmawin.h);
 *   inline has no MPI counterpart, nor has a list of RMA writes.
 * Receives and persistent requests are kept per peer in rings of K (the most
 * a scenario ever has outstanding to one peer).  Every send has a buffer of its
 * own (send_value beside send_req, persist_value beside send_persist): MPI
 * forbids changing a send's buffer before it completes, and the barrier walker
 * posts sends with different counts before completing any of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmawin.h"
#include "transport.h"

enum { TAG_DATA = 2305 };

typedef struct {
    size_t k;                   /* ring length per peer (t->max_post) */
    size_t send_cap;            /* requests one post call may carry (send_req, scratch) */
    uint64_t *send_value;       /* [i] what send_req[i] carries, unchanged until it completes */
    uint64_t *persist_value;    /* [peer * k + i] the buffer of send_persist[peer * k + i] */
    uint64_t *recv_slot;        /* [peer * k + i] receive buffers */
    MPI_Request *recv_req;      /* [peer * k + i] the receive posted into that slot */
    MPI_Request *recv_persist;  /* [peer * k + i] persistent receives, for list posts */
    MPI_Request *send_persist;  /* [peer * k + i] persistent sends, for list posts */
    MPI_Request *send_req;      /* sends posted since the last wait_send */
    MPI_Request *scratch;       /* the requests one MPI_Startall starts */
    size_t n_send;              /* entries in send_req */
    int rma_pending;            /* rdmaw writes started since the last wait_send */
    lop_recv_ring_t ring;       /* which recv_slot the next receive of a peer uses */
    size_t *send_next;          /* per peer: persistent send ring position */
    lop_rmawin_t rma;           /* rdmaw slots: slot r is written by rank r */
    char rma_why[512];          /* why rdmaw cannot run (no window), or "" */
} mpi_state_t;

static void state_free(mpi_state_t *s)
{
    free(s->recv_slot);
    free(s->recv_req);
    free(s->recv_persist);
    free(s->send_persist);
    free(s->persist_value);
    free(s->send_req);
    free(s->send_value);
    free(s->scratch);
    lop_recv_ring_free(&s->ring);
    free(s->send_next);
    free(s);
}

static mpi_state_t *state_alloc(size_t size, size_t k)
{
    mpi_state_t *s = lop_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->k = k;
    s->send_cap = k > size ? k : size;
    s->recv_slot = lop_calloc(size * k, sizeof *s->recv_slot);
    s->recv_req = lop_calloc(size * k, sizeof *s->recv_req);
    s->recv_persist = lop_calloc(size * k, sizeof *s->recv_persist);
    s->send_persist = lop_calloc(size * k, sizeof *s->send_persist);
    s->persist_value = lop_calloc(size * k, sizeof *s->persist_value);
    s->send_req = lop_calloc(s->send_cap, sizeof *s->send_req);
    s->send_value = lop_calloc(s->send_cap, sizeof *s->send_value);
    s->scratch = lop_calloc(s->send_cap, sizeof *s->scratch);
    s->send_next = lop_calloc(size, sizeof *s->send_next);
    lop_status_t ring = lop_recv_ring_init(&s->ring, "mpi", size, k);
    if (!s->recv_slot || !s->recv_req || !s->recv_persist || !s->send_persist ||
        !s->persist_value || !s->send_req || !s->send_value || !s->scratch || !s->send_next ||
        ring != LOP_OK) {
        state_free(s);
        return NULL;
    }
    return s;
}

/* Persistent requests between the ranks linked (lop_transport_linked: the
 * star both scenarios use, scenario 3's ring, or all pairs);
 * MPI_REQUEST_NULL elsewhere. */
static void persist_init(lop_transport_t *t, mpi_state_t *s)
{
    for (int peer = 0; peer < t->size; peer++) {
        int linked = lop_transport_linked(t, peer);
        for (size_t i = 0; i < s->k; i++) {
            size_t slot = (size_t)peer * s->k + i;
            s->recv_persist[slot] = s->send_persist[slot] = MPI_REQUEST_NULL;
            s->recv_req[slot] = MPI_REQUEST_NULL;
            if (!linked)
                continue;
            MPI_Send_init(&s->persist_value[slot], 1, MPI_UINT64_T, peer, TAG_DATA, t->comm,
                          &s->send_persist[slot]);
            MPI_Recv_init(&s->recv_slot[slot], 1, MPI_UINT64_T, peer, TAG_DATA, t->comm,
                          &s->recv_persist[slot]);
        }
    }
}

static void persist_free(lop_transport_t *t, mpi_state_t *s)
{
    for (size_t slot = 0; slot < (size_t)t->size * s->k; slot++) {
        if (s->send_persist[slot] != MPI_REQUEST_NULL)
            MPI_Request_free(&s->send_persist[slot]);
        if (s->recv_persist[slot] != MPI_REQUEST_NULL)
            MPI_Request_free(&s->recv_persist[slot]);
    }
}

static void describe(lop_transport_t *t, const mpi_state_t *s)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, ",\n")] = '\0';
    snprintf(t->device, sizeof t->device, "%.96s; rdmaw %s", lib,
             s->rma_why[0]                  ? "not available (no RMA window)"
             : s->rma.mode == LOP_RMA_SHARED ? "through stores into MPI_Win_allocate_shared memory"
                                             : "through MPI_Accumulate(MPI_REPLACE) + MPI_Win_flush "
                                               "(MPI_Win_allocate)");
}

static lop_status_t mpi_setup(lop_transport_t *t, const lop_transport_cfg_t *cfg)
{
    mpi_state_t *s = state_alloc((size_t)t->size, t->max_post);
    lop_status_t st = lop_mpi_agree(t->comm, s ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK)
        goto err_free_state;
    st = lop_rmawin_open(&s->rma, t->comm, (size_t)t->size, cfg->rma);
    if (st == LOP_ERR_UNSUPPORTED && cfg->rma != LOP_RMA_SHARED) { /* agreed: rdmaw series skip */
        snprintf(s->rma_why, sizeof s->rma_why, "no one-sided MPI here: %s", lop_errmsg());
        st = LOP_OK;
    }
    if (st != LOP_OK)
        goto err_free_state;
    persist_init(t, s);
    describe(t, s);
    t->priv = s;
    return LOP_OK;

err_free_state:
    if (s)
        state_free(s);
    return st;
}

static void mpi_cleanup(lop_transport_t *t)
{
    mpi_state_t *s = t->priv;
    persist_free(t, s);
    lop_rmawin_close(&s->rma);
    state_free(s);
    t->priv = NULL;
}

static const char *mpi_why_not(const lop_transport_t *t, lop_op_t op, lop_post_t post)
{
    const mpi_state_t *s = t ? t->priv : NULL; /* NULL: what MPI can do at all */
    if (lop_op_desc[op].multicast)
        return "not applicable: MPI has no hardware multicast (--transport verbs)";
    if (post == LOP_POST_INLINE)
        return "not applicable: MPI has no inline post";
    if (op == LOP_OP_RDMAW && post == LOP_POST_LIST)
        return "not applicable: MPI RMA has no list post";
    return op == LOP_OP_RDMAW && s && s->rma_why[0] ? s->rma_why : NULL;
}

static lop_status_t mpi_post_recv(lop_transport_t *t, const int *peers, size_t n,
                                  lop_post_t post)
{
    mpi_state_t *s = t->priv;
    if (n > s->send_cap)
        return lop_err(LOP_ERR_RANGE, "mpi: %zu receives in one post, at most %zu", n,
                       s->send_cap);
    for (size_t i = 0; i < n; i++) {
        int peer = peers[i];
        size_t slot;
        lop_status_t st = lop_recv_ring_post(&s->ring, peer, &slot);
        if (st != LOP_OK)
            return st;
        if (post == LOP_POST_LIST)
            s->scratch[i] = s->recv_req[slot] = s->recv_persist[slot];
        else
            MPI_Irecv(&s->recv_slot[slot], 1, MPI_UINT64_T, peer, TAG_DATA, t->comm,
                      &s->recv_req[slot]);
    }
    if (post == LOP_POST_LIST)
        MPI_Startall((int)n, s->scratch);
    return LOP_OK;
}

static lop_status_t mpi_post_send(lop_transport_t *t, lop_op_t op, const int *peers, size_t n,
                                  lop_post_t post, uint64_t seq)
{
    mpi_state_t *s = t->priv;
    if (op == LOP_OP_RDMAW) {
        for (size_t i = 0; i < n; i++)
            lop_rmawin_write(&s->rma, peers[i], (size_t)t->rank, seq);
        s->rma_pending = 1;
        return LOP_OK;
    }
    if (s->n_send + n > s->send_cap)
        return lop_err(LOP_ERR_RANGE, "mpi: more than %zu sends outstanding", s->send_cap);
    MPI_Request *req = s->send_req + s->n_send;
    uint64_t *value = s->send_value + s->n_send;
    for (size_t i = 0; i < n; i++) {
        int peer = peers[i];
        if (post == LOP_POST_LIST) {
            /* The ring slot's previous start was completed by a wait_send. */
            size_t slot = (size_t)peer * s->k + s->send_next[peer]++ % s->k;
            s->persist_value[slot] = seq;
            req[i] = s->send_persist[slot];
        } else {
            value[i] = seq;
            MPI_Isend(&value[i], 1, MPI_UINT64_T, peer, TAG_DATA, t->comm, &req[i]);
        }
    }
    if (post == LOP_POST_LIST)
        MPI_Startall((int)n, req);
    s->n_send += n;
    return LOP_OK;
}

static lop_status_t mpi_wait_send(lop_transport_t *t)
{
    mpi_state_t *s = t->priv;
    lop_status_t st = LOP_OK;
    if (s->n_send > 0)
        st = lop_mpi_wait_all((int)s->n_send, s->send_req, &t->poll, "sends to complete");
    s->n_send = 0;
    if (s->rma_pending)
        lop_rmawin_complete(&s->rma);
    s->rma_pending = 0;
    return st;
}

static lop_status_t mpi_wait_recv(lop_transport_t *t, lop_op_t op, int peer, uint64_t seq)
{
    mpi_state_t *s = t->priv;
    if (op == LOP_OP_RDMAW)
        return lop_rmawin_wait(&s->rma, (size_t)peer, seq, &t->poll);
    size_t slot;
    lop_status_t st = lop_recv_ring_take(&s->ring, peer, &slot);
    if (st != LOP_OK)
        return st;
    /* Named only if it gives up: no formatting inside the timed round trip. */
    st = lop_mpi_wait_all(1, &s->recv_req[slot], &t->poll, "a message");
    if (st == LOP_ERR_TIMEOUT)
        return lop_poll_timeout(&t->poll, "message %llu from rank %d on %.64s",
                                (unsigned long long)seq, peer, lop_mpi_host_of(peer));
    if (st != LOP_OK)
        return st;
    return lop_recv_ring_check(&s->ring, peer, s->recv_slot[slot], seq);
}

const lop_transport_ops_t lop_transport_mpi = {
    .name = "mpi",
    .setup = mpi_setup,
    .cleanup = mpi_cleanup,
    .why_not = mpi_why_not,
    .post_recv = mpi_post_recv,
    .post_send = mpi_post_send,
    .wait_send = mpi_wait_send,
    .wait_recv = mpi_wait_recv,
};
