/*
 * scenario2.c - LoP benchmark scenario 2 (thesis 2.3.4-2.3.5, listing 2.12):
 * rank 0 and p peers (ranks 1..p), one message each way, p = 1..N-1.
 *   rank 0, peers 1..p: post the receives for this round (send/recv only)
 *   all:    barrier; rank 0 and peers 1..p: one message each way
 *           (lop_bench_both_ways);
 *           idle gap (lop_bench_cool)
 *   rank 0: t1; post one request to each of ranks 1..p; wait for their
 *           completions; wait for the p replies; t4   RTT(p) = (t4 - t1)/p
 *   peer:   wait for rank 0's message; reply; wait for the completion
 *   all:    wait for rank 0's release (lop_bench_release)
 * Ranks above p take part in the barrier only, as in the listing.  The idle
 * gap follows the barrier, each round, and the release keeps the next
 * round's barrier off the wire until rank 0 has timed this one: RTT(p) is
 * the round trip after idle the thesis's L(p) takes it for (2.3.4, 2.3.5),
 * which on a NIC slower than the CPU the barrier's own messages would
 * otherwise still be queued in front of.  The exchange before the idle gap
 * keeps TCP's acknowledgements out of the timed round (scenario.h): on the
 * 5 Mbit/s lab one such frame in every round of 4 peers and more had put
 * some 20 us on the round's slope beyond the burst.
 *
 * "mcast" (Kini et al. 3.3; rgm's release): rank 0 posts one hardware multicast to
 * the group of every other rank instead of p requests, and times the post
 * (os: o_s of a multicast post); peers 1..p answer it with an RDMA write,
 * so RTT(p) = (t4 - t1)/p as for the other ops.  The group holds ranks
 * 1..N-1 at every p: ranks above p take the multicast too (their receive
 * queues would fill otherwise) and do not answer.
 */
#include "scenario.h"

#include <stdlib.h>

typedef struct {
    lop_op_t op;
    lop_post_t post;
    lop_samples_t *rtt;
    lop_samples_t *os;  /* multicast: the post's CPU time; NULL otherwise */
    lop_op_t answer;    /* how peers answer: op, or an RDMA write to a multicast */
    MPI_Request *req;   /* rank 0: 2 (N - 1) for lop_bench_both_ways */
} s2_ctx_t;

/* Rank 0's requests out: p posts, or one multicast whose post's end is *t2
 * (recorded after the round: nothing but the clock inside the timed region). */
static lop_status_t root_post(lop_bench_t *b, const s2_ctx_t *c, size_t p, uint64_t seq,
                              uint64_t *t2)
{
    lop_transport_t *t = b->tp;
    if (!lop_op_desc[c->op].multicast) {
        lop_status_t st = t->ops->post_send(t, c->op, b->star, p, c->post, seq);
        return st ? st : t->ops->wait_send(t);
    }
    lop_status_t st = t->ops->post_mcast(t, seq);
    *t2 = lop_timer_now(b->timer);
    return st;
}

static lop_status_t root_round(lop_bench_t *b, const s2_ctx_t *c, size_t p, long rep,
                               uint64_t seq)
{
    lop_transport_t *t = b->tp;
    uint64_t t1 = lop_timer_now(b->timer), t2 = t1;
    lop_status_t st = root_post(b, c, p, seq, &t2);
    for (size_t j = 0; j < p && st == LOP_OK; j++)
        st = t->ops->wait_recv(t, c->answer, b->star[j], seq);
    uint64_t t4 = lop_timer_now(b->timer);
    lop_bench_record(c->rtt, p, rep, lop_timer_us(b->timer, t4 - t1) / (double)p);
    lop_bench_record(c->os, p, rep, lop_timer_us(b->timer, t2 - t1));
    return st;
}

static lop_status_t peer_round(lop_bench_t *b, const s2_ctx_t *c, uint64_t seq)
{
    lop_transport_t *t = b->tp;
    lop_status_t st = lop_op_desc[c->op].multicast ? t->ops->wait_mcast(t, b->star[0], seq)
                                                   : t->ops->wait_recv(t, c->op, b->star[0], seq);
    if (st == LOP_OK)
        st = t->ops->post_send(t, c->answer, b->star, 1, c->post, seq);
    if (st == LOP_OK)
        st = t->ops->wait_send(t);
    return st;
}

static lop_status_t s2_round(lop_bench_t *b, void *ctx, size_t p, long rep, uint64_t seq)
{
    const s2_ctx_t *c = ctx;
    lop_transport_t *t = b->tp;
    int in_round = b->rank == 0 || (size_t)b->rank <= p;
    lop_status_t st = LOP_OK;
    if (in_round && lop_op_desc[c->op].uses_recv)
        st = t->ops->post_recv(t, b->star, b->rank == 0 ? p : 1, LOP_POST_NORMAL);
    if (st == LOP_OK)
        st = lop_mpi_barrier(b->comm, &t->poll);
    if (st == LOP_OK && in_round)
        st = lop_bench_both_ways(b, p, c->req);
    if (st != LOP_OK)
        return st;
    lop_bench_cool(b);
    if (!in_round && lop_op_desc[c->op].multicast)
        st = t->ops->wait_mcast(t, 0, seq); /* taken, not answered */
    else if (in_round)
        st = b->rank == 0 ? root_round(b, c, p, rep, seq) : peer_round(b, c, seq);
    return st ? st : lop_bench_release(b);
}

lop_status_t lop_scenario2_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *rtt,
                               lop_samples_t *os)
{
    s2_ctx_t c = {op, post, rtt, os, lop_op_desc[op].multicast ? LOP_OP_RDMAW : op, NULL};
    if (b->rank == 0 && !(c.req = lop_calloc(2 * (size_t)(b->size - 1), sizeof *c.req)))
        return LOP_ERR_NOMEM;
    lop_status_t st = lop_bench_repeat_apart(b, (size_t)b->size - 1, s2_round, &c);
    free(c.req);
    return st;
}
