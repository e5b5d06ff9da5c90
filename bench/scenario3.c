/*
 * scenario3.c - the gap: PRTT(k), k messages back to back and one reply
 * (netgauge's PRTT(n, 0, s); Kielmann's PLogP), ranks 0 and 1, k = 1..K.
 *   rank 0:    post the reply's receive; t1; post k sends to rank 1; wait
 *              for the reply; t2            PRTT(k) = t2 - t1
 *   rank 1:    wait for the k messages; reply; post the next round's
 *              receives (over verbs before the reply: a message must
 *              find its receive posted)
 * The rounds follow each other with no barrier between them, as a loop of
 * barriers runs (at k = 1 it is one: two ranks' central counter), and each
 * k runs its own rounds, warm-up and repetitions, so that a round follows
 * one like it (interleaved, PRTT(1) followed a round of K messages and
 * over TCP differed from the barrier's loop by up to 13 % (Open MPI) and
 * 29 % (MPICH): bench/README.md); only a run's first round waits for a
 * barrier, once rank 1's receives are posted.  A barrier in
 * every round would put its own messages, and on TCP their
 * acknowledgements, just before the timed round trip, which a loop of
 * barriers does not have (bench/README.md).
 * PRTT(k) = PRTT(1) + (k - 1) g: the slope is LogP's gap g, what a message
 * costs the adapter when it follows another, which one round trip after
 * idle does not show (a NIC slower than the CPU, thesis 2.3.2).  lopfit fits
 * it with LogP's line.  The repetitions follow each other without the idle
 * gap: a barrier loop is back to back, and the gap is what such a loop pays.
 * One-sided operations measure k = 1 only, the round trip back to back: a
 * target polling one memory slot cannot count k writes of the same value.
 *
 * Then the exchange X(1), rounds back to back, one row:
 *   ranks 0 and 1: t1; send one message to the other; post the receive
 *              of the round after next; complete the send; wait for the
 *              other's message; t2          X(1) = t2 - t1 (rank 0's)
 * Both send at once, as a round of bfly, pe or diss at P = 2 does, in the
 * order the barrier executors take.  Under LogP an exchange costs what one
 * message does, PRTT(1)/2; where the host handles sends and receives one
 * at a time it costs more, and the loop model takes that case from X(1)
 * (models/README.md "The loop").  The receives are posted two rounds
 * ahead: over verbs a send completes only once the other side has a
 * receive posted for it, and that side may still be finishing the round
 * before.
 *
 * Then, with three ranks or more, the ring R(P), the same round on all P
 * ranks, each sending to the next, (r + 1) mod P, and receiving from the
 * previous one: no message is answered on its pair, as in a round of diss.
 * A transport that acknowledges a message (TCP) then sends the
 * acknowledgement on its own, a frame the exchange's reply carries, and a
 * chain of such messages around all the ranks may leave links idle that a
 * chain of three does not (the slow-NIC lab: README "How right are the
 * predictions?"): what that costs, the loop model takes from R(P)
 * (models/README.md "The loop").
 */
#include "scenario.h"

typedef struct {
    lop_op_t op;
    lop_post_t post;
    lop_samples_t *prtt, *exch, *ring;
    MPI_Comm sync;     /* the ranks that exchange: the pair, or all of them (the ring) */
    const int *to;     /* where each round's message goes: [1] */
    const int *from;   /* where the next ones come from: [2] (receives posted ahead) */
    lop_samples_t *out; /* rank 0's: exch or ring */
    size_t k;          /* PRTT's messages a round in this run of rounds */
} s3_ctx_t;

/* A round of PRTT(k), k = c->k: each k's rounds run on their own, back to
 * back, so that every round follows one like it, as in a loop of barriers. */
static lop_status_t s3_round(lop_bench_t *b, void *ctx, size_t row, long rep, uint64_t seq)
{
    const s3_ctx_t *c = ctx;
    lop_transport_t *t = b->tp;
    int root = b->rank == 0, two_sided = lop_op_desc[c->op].uses_recv;
    size_t k = c->k;
    int first = rep == -b->warmup, last = rep == b->reps - 1;
    (void)row;
    lop_status_t st = LOP_OK;
    if (two_sided && (root || first))
        st = t->ops->post_recv(t, b->to_other, root ? 1 : k, LOP_POST_NORMAL);
    if (first)
        st = st ? st : lop_mpi_barrier(b->pair, &t->poll);
    if (st)
        return st;
    if (root) {
        uint64_t t1 = lop_timer_now(b->timer);
        st = t->ops->post_send(t, c->op, b->to_other, k, c->post, seq);
        st = st ? st : t->ops->wait_recv(t, c->op, b->to_other[0], seq);
        uint64_t t2 = lop_timer_now(b->timer);
        lop_bench_record(c->prtt, k, rep, lop_timer_us(b->timer, t2 - t1));
        return st ? st : t->ops->wait_send(t);
    }
    /* The next round's receives: after the reply, off the round trip, as
     * the barrier walker posts its receive after its send; before it where
     * the transport needs them up before the root's next messages. */
    int early = t->ops->recv_before_send;
    for (size_t j = 0; j < k && st == LOP_OK; j++)
        st = t->ops->wait_recv(t, c->op, b->to_other[0], seq);
    if (st == LOP_OK && two_sided && !last && early)
        st = t->ops->post_recv(t, b->to_other, k, LOP_POST_NORMAL);
    st = st ? st : t->ops->post_send(t, c->op, b->to_other, 1, c->post, seq);
    if (st == LOP_OK && two_sided && !last && !early)
        st = t->ops->post_recv(t, b->to_other, k, LOP_POST_NORMAL);
    return st ? st : t->ops->wait_send(t);
}

/* Receives posted ahead in the exchange and the ring: two, where the
 * receive ring (K slots) and the rounds allow.  A round posts the receive
 * of the round 'ahead' later before it waits for its own, so ahead + 1 are
 * outstanding then: K = 2 posts one ahead, K = 1 none (the receive is then
 * posted just before it is waited for, which a verbs peer's message can
 * beat: it is retried after the receiver-not-ready delay, a slower round). */
static long s3_ahead(const lop_bench_t *b)
{
    long ahead = (long)b->max_post - 1 < 2 ? (long)b->max_post - 1 : 2;
    return b->warmup + b->reps < ahead ? b->warmup + b->reps : ahead;
}

/* A round of the exchange or the ring in the order lopbench's barrier
 * executors take a step of one (bench/barrier_exec.c): the send posted, a
 * receive posted, the send completed, then the receive waited for. */
static lop_status_t s3_step(lop_bench_t *b, void *ctx, size_t k, long rep, uint64_t seq)
{
    const s3_ctx_t *c = ctx;
    lop_transport_t *t = b->tp;
    int two_sided = lop_op_desc[c->op].uses_recv;
    long ahead = s3_ahead(b);
    lop_status_t st = LOP_OK;
    (void)k;
    if (rep == -b->warmup) {
        st = two_sided && ahead > 0 ? t->ops->post_recv(t, c->from, (size_t)ahead, LOP_POST_NORMAL)
                                    : LOP_OK;
        st = st ? st : lop_mpi_barrier(c->sync, &t->poll);
        if (st)
            return st;
    }
    uint64_t t1 = lop_timer_now(b->timer);
    st = t->ops->post_send(t, c->op, c->to, 1, c->post, seq);
    if (st == LOP_OK && two_sided && rep < b->reps - ahead) /* the last rounds' are posted */
        st = t->ops->post_recv(t, c->from, 1, LOP_POST_NORMAL);
    st = st ? st : t->ops->wait_send(t);
    st = st ? st : t->ops->wait_recv(t, c->op, c->from[0], seq);
    uint64_t t2 = lop_timer_now(b->timer);
    if (st == LOP_OK && b->rank == 0)
        lop_bench_record(c->out, 1, rep, lop_timer_us(b->timer, t2 - t1));
    return st;
}

/* The ring on all ranks, started together on the benchmark's communicator. */
static lop_status_t s3_ring(lop_bench_t *b, s3_ctx_t *c)
{
    int n = b->size, prev = (b->rank + n - 1) % n;
    int to[1] = {(b->rank + 1) % n}, from[2] = {prev, prev};
    c->sync = b->comm;
    c->to = to;
    c->from = from;
    c->out = c->ring;
    return lop_bench_repeat(b, 1, 1, s3_step, c);
}

size_t lop_scenario3_rows(const lop_bench_t *b, lop_op_t op)
{
    return lop_op_desc[op].uses_recv ? b->max_post : 1;
}

lop_status_t lop_scenario3_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *prtt,
                               lop_samples_t *exch, lop_samples_t *ring)
{
    s3_ctx_t c = {op, post, prtt, exch, ring, b->pair, b->to_other, b->to_other, exch, 0};
    lop_bench_t hot = *b;
    hot.idle_us = 0;
    int mine = b->rank <= 1;
    lop_status_t st = LOP_OK;
    for (c.k = 1; c.k <= lop_scenario3_rows(b, op) && st == LOP_OK; c.k++)
        st = lop_bench_repeat(&hot, mine, 1, s3_round, &c);
    st = st ? st : lop_bench_repeat(&hot, mine, 1, s3_step, &c);
    if (st == LOP_OK && b->size >= LOP_FMT_SERIES_RING_MIN_RANKS)
        st = s3_ring(&hot, &c);
    b->seq = hot.seq;
    return st;
}
