/* transport.c - the transport table and the "auto" choice (transport.h). */
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_series.h"

const lop_op_desc_t lop_op_desc[LOP_OP_COUNT] = {
    [LOP_OP_SEND] = {"send", 1},
    [LOP_OP_RDMAW] = {"rdmaw", 0},
    [LOP_OP_MCAST] = {"mcast", 0, 1},
};

const lop_post_desc_t lop_post_desc[LOP_POST_COUNT] = {
    [LOP_POST_NORMAL] = {"normal", 1},
    [LOP_POST_INLINE] = {"inline", 1},
    [LOP_POST_LIST] = {"list", 0},
};

_Static_assert(sizeof(lop_mcast_counts_t) == LOP_MCAST_COUNTS_N * sizeof(uint64_t),
               "lop_mcast_counts_t is LOP_MCAST_COUNTS_N uint64_t fields");

void lop_mcast_counts_add(lop_mcast_counts_t *to, const lop_mcast_counts_t *c, int sign)
{
    uint64_t a[LOP_MCAST_COUNTS_N], b[LOP_MCAST_COUNTS_N];
    memcpy(a, to, sizeof a);
    memcpy(b, c, sizeof b);
    for (int i = 0; i < LOP_MCAST_COUNTS_N; i++)
        a[i] = sign < 0 ? a[i] - b[i] : a[i] + b[i];
    memcpy(to, a, sizeof a);
}

/* Best first: "auto" tries them in this order. */
static const lop_transport_ops_t *const transports[] = {&lop_transport_verbs, &lop_transport_mpi};
enum { N_TRANSPORTS = COUNT(transports) };
_Static_assert(N_TRANSPORTS == LOP_TRANSPORT_COUNT, "LOP_TRANSPORT_COUNT counts transports[]");

const lop_transport_ops_t *lop_transport_find(const char *name)
{
    for (int i = 0; i < N_TRANSPORTS; i++)
        if (strcmp(transports[i]->name, name) == 0)
            return transports[i];
    return NULL;
}

const char *lop_transport_name(size_t i)
{
    return i < N_TRANSPORTS ? transports[i]->name : NULL;
}

static lop_status_t open_one(lop_transport_t *t, const lop_transport_ops_t *ops,
                             const lop_transport_cfg_t *cfg)
{
    t->ops = ops;
    t->priv = NULL;
    t->mcast = 0;
    t->mcast_note[0] = '\0';
    snprintf(t->device, sizeof t->device, "%s", ops->name);
    lop_status_t st = ops->setup(t, cfg);
    if (st != LOP_OK)
        t->ops = NULL;
    return st;
}

lop_status_t lop_transport_open(lop_transport_t *t, const char *name,
                                const lop_transport_cfg_t *cfg, char *why, size_t why_len)
{
    snprintf(why, why_len, "--transport %s", name);
    if (strcmp(name, "auto") != 0) {
        const lop_transport_ops_t *ops = lop_transport_find(name);
        if (!ops)
            return lop_err(LOP_ERR_INVALID, "option --transport: unknown transport '%s'", name);
        return open_one(t, ops, cfg);
    }
    lop_status_t st = LOP_ERR_UNSUPPORTED;
    char skipped[512] = "";
    for (int i = 0; i < N_TRANSPORTS && st == LOP_ERR_UNSUPPORTED; i++) {
        st = open_one(t, transports[i], cfg);
        if (st == LOP_ERR_UNSUPPORTED && cfg->device)
            return st; /* the user named a device: measuring something else is wrong */
        if (st == LOP_ERR_UNSUPPORTED)
            snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped),
                     "; %s not usable: %s", transports[i]->name, lop_errmsg());
    }
    if (st == LOP_OK)
        snprintf(why, why_len, "auto%s", skipped);
    return st;
}

void lop_transport_close(lop_transport_t *t)
{
    if (t->ops)
        t->ops->cleanup(t);
    t->ops = NULL;
}

lop_status_t lop_recv_ring_init(lop_recv_ring_t *ring, const char *who, size_t size, size_t k)
{
    *ring = (lop_recv_ring_t){who, k, lop_calloc(size, sizeof(size_t)),
                              lop_calloc(size, sizeof(size_t))};
    if (ring->posted && ring->consumed)
        return LOP_OK;
    lop_recv_ring_free(ring);
    return LOP_ERR_NOMEM;
}

void lop_recv_ring_free(lop_recv_ring_t *ring)
{
    free(ring->posted);
    free(ring->consumed);
    ring->posted = ring->consumed = NULL;
}

lop_status_t lop_recv_ring_post(lop_recv_ring_t *ring, int peer, size_t *slot)
{
    if (ring->posted[peer] - ring->consumed[peer] >= ring->k)
        return lop_err(LOP_ERR_RANGE, "%s: more than %zu receives outstanding from rank %d",
                       ring->who, ring->k, peer);
    *slot = (size_t)peer * ring->k + ring->posted[peer]++ % ring->k;
    return LOP_OK;
}

lop_status_t lop_recv_ring_take(lop_recv_ring_t *ring, int peer, size_t *slot)
{
    if (ring->consumed[peer] == ring->posted[peer])
        return lop_err(LOP_ERR_RANGE, "%s: no receive posted for rank %d", ring->who, peer);
    *slot = (size_t)peer * ring->k + ring->consumed[peer]++ % ring->k;
    return LOP_OK;
}

lop_status_t lop_recv_ring_check(const lop_recv_ring_t *ring, int peer, uint64_t got,
                                 uint64_t want)
{
    if (got == want)
        return LOP_OK;
    return lop_err(LOP_ERR_IO, "%s: message from rank %d carries %llu, expected %llu", ring->who,
                   peer, (unsigned long long)got, (unsigned long long)want);
}

int lop_transport_linked(const lop_transport_t *t, int peer)
{
    int ring = t->link_ring &&
               (peer == (t->rank + 1) % t->size || t->rank == (peer + 1) % t->size);
    return peer != t->rank && (t->all_pairs || t->rank == 0 || peer == 0 || ring);
}
