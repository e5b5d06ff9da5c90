/* sched_match.c - which send each receive consumes (sched_flow.h): the
 * static match, and the scan of a schedule's peers and receive runs. */
#include "sched_flow.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- sorting */

/* Ops of one rank sorted by (peer, program order) as 64-bit keys. */
static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void sched_keys_sort(uint64_t *key, size_t n)
{
    if (n > 32) {
        qsort(key, n, sizeof *key, key_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) { /* short lists are the rule: insertion sort */
        uint64_t k = key[i];
        size_t j = i;
        for (; j > 0 && key[j - 1] > k; j--)
            key[j] = key[j - 1];
        key[j] = k;
    }
}

static uint64_t key_of(int32_t peer, uint32_t op)
{
    return (uint64_t)(uint32_t)peer << 32 | op;
}

/* -------------------------------------------------------------- matching */

typedef struct {
    const sched_t *s;
    uint32_t *match;
    uint32_t *by_peer;  /* per rank, its SEND ops sorted by (peer, order), in the rank's op range */
    uint32_t *n_sends;  /* SEND ops per rank */
    uint8_t *has_mcast; /* does the rank multicast? */
    uint64_t *scratch;  /* keys of one rank */
} matcher_t;

lop_status_t sched_scan(const sched_t *s, sched_scan_t *scan)
{
    sched_scan_t sc = {0, 0, 0};
    for (uint32_t r = 0; r < s->p; r++) {
        uint32_t run = 0, in_step = 0, step = UINT32_MAX;
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++) {
            sched_op_t o = s->op[i];
            int recv = o.kind == SCHED_RECV, same = o.step == step;
            if (o.kind == SCHED_MCAST ? o.peer != -1 : (uint32_t)o.peer >= s->p)
                return sched_op_error(s, i, " names no rank");
            if (o.peer == (int32_t)r)
                return sched_op_error(s, i, " addresses the rank itself");
            sc.runs_span_steps |= run && recv && !same;
            run = recv ? run + 1 : 0;
            in_step = (same ? in_step : 0) + recv;
            step = o.step;
            sc.longest_run = run > sc.longest_run ? run : sc.longest_run;
            sc.step_recvs = in_step > sc.step_recvs ? in_step : sc.step_recvs;
        }
    }
    if (scan)
        *scan = sc;
    return LOP_OK;
}

lop_status_t sched_validate_peers(const sched_t *s)
{
    return sched_scan(s, NULL);
}

/* Sort each rank's SENDs by destination; initialise match[]. */
static void index_sends(matcher_t *m)
{
    const sched_t *s = m->s;
    for (uint32_t r = 0; r < s->p; r++) {
        uint32_t n = 0;
        for (uint32_t i = s->first[r]; i < s->first[r + 1]; i++) {
            m->match[i] = s->op[i].kind == SCHED_MCAST ? 0 : SCHED_UNMATCHED;
            if (s->op[i].kind == SCHED_SEND)
                m->scratch[n++] = key_of(s->op[i].peer, i);
            m->has_mcast[r] |= s->op[i].kind == SCHED_MCAST;
        }
        sched_keys_sort(m->scratch, n);
        for (uint32_t k = 0; k < n; k++)
            m->by_peer[s->first[r] + k] = (uint32_t)m->scratch[k];
        m->n_sends[r] = n;
    }
}

/* The position of sender's first SEND to q in its by_peer list. */
static uint32_t first_send_to(const matcher_t *m, uint32_t sender, uint32_t q)
{
    const uint32_t *list = m->by_peer + m->s->first[sender];
    uint32_t lo = 0, hi = m->n_sends[sender];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)m->s->op[list[mid]].peer < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The next message from 'sender' to q after op 'after' (or from the start if
 * 'after' is UINT32_MAX), for a sender that multicasts: a linear walk. */
static uint32_t next_message_walk(const sched_t *s, uint32_t sender, uint32_t q, uint32_t after)
{
    uint32_t i = after == SCHED_UNMATCHED ? s->first[sender] : after + 1;
    for (; i < s->first[sender + 1]; i++)
        if (s->op[i].kind == SCHED_MCAST ||
            (s->op[i].kind == SCHED_SEND && s->op[i].peer == (int32_t)q))
            return i;
    return SCHED_UNMATCHED;
}

/* Pair the RECVs of q from 'sender' (keys[0..n), program order) with its messages. */
static lop_status_t pair_group(matcher_t *m, uint32_t q, uint32_t sender, const uint64_t *keys,
                               uint32_t n)
{
    const sched_t *s = m->s;
    uint32_t pos = first_send_to(m, sender, q), msg = SCHED_UNMATCHED;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t recv = (uint32_t)keys[k];
        if (m->has_mcast[sender])
            msg = next_message_walk(s, sender, q, msg);
        else if (pos + k < m->n_sends[sender] &&
                 s->op[m->by_peer[s->first[sender] + pos + k]].peer == (int32_t)q)
            msg = m->by_peer[s->first[sender] + pos + k];
        else
            msg = SCHED_UNMATCHED;
        if (msg == SCHED_UNMATCHED)
            return sched_op_error(s, recv, " waits for a message the peer never sends");
        m->match[recv] = msg;
        if (s->op[msg].kind == SCHED_MCAST)
            m->match[msg]++;
        else
            m->match[msg] = recv;
    }
    return LOP_OK;
}

/* Match every RECV of rank q. */
static lop_status_t match_rank(matcher_t *m, uint32_t q)
{
    const sched_t *s = m->s;
    uint32_t n = 0;
    for (uint32_t i = s->first[q]; i < s->first[q + 1]; i++)
        if (s->op[i].kind == SCHED_RECV)
            m->scratch[n++] = key_of(s->op[i].peer, i);
    sched_keys_sort(m->scratch, n);
    lop_status_t st = LOP_OK;
    for (uint32_t a = 0, b; a < n && st == LOP_OK; a = b) {
        uint32_t sender = (uint32_t)(m->scratch[a] >> 32);
        for (b = a; b < n && m->scratch[b] >> 32 == sender; b++)
            ;
        st = pair_group(m, q, sender, m->scratch + a, b - a);
    }
    return st;
}

/* Every SEND consumed, every MCAST consumed by all other ranks. */
static lop_status_t all_received(const sched_t *s, const uint32_t *match)
{
    for (uint32_t i = 0; i < s->n_ops; i++) {
        if (s->op[i].kind == SCHED_SEND && match[i] == SCHED_UNMATCHED)
            return sched_op_error(s, i, " is never received");
        if (s->op[i].kind == SCHED_MCAST && match[i] != s->p - 1)
            return sched_op_error(s, i, " is not received by every other rank exactly once");
    }
    return LOP_OK;
}

lop_status_t sched_match(const sched_t *s, uint32_t *match)
{
    lop_status_t st = sched_validate_peers(s);
    if (st)
        return st;
    matcher_t m = {s, match, lop_calloc(s->n_ops, sizeof(uint32_t)),
                   lop_calloc(s->p, sizeof(uint32_t)), lop_calloc(s->p, 1),
                   lop_calloc(sched_rank_max(s), sizeof(uint64_t))};
    st = m.by_peer && m.n_sends && m.has_mcast && m.scratch ? LOP_OK : LOP_ERR_NOMEM;
    if (st == LOP_OK)
        index_sends(&m);
    for (uint32_t q = 0; q < s->p && st == LOP_OK; q++)
        st = match_rank(&m, q);
    st = st ? st : all_received(s, match);
    free(m.by_peer);
    free(m.n_sends);
    free(m.has_mcast);
    free(m.scratch);
    return st;
}

