/*
 * scenario1.c - LoP benchmark scenario 1 (thesis 2.3.4-2.3.5, listing 2.11):
 * the CPU time to post k = 1..K requests back to back.
 *   rank 1: t0; post k receives; t1          o_r(k) = (t1 - t0)/k
 *   both:   barrier (the receives are posted before anything is sent)
 *   rank 0: t1; post k sends to rank 1; t2;   o_s(k) = (t2 - t1)/k
 *           wait for their completions; t3    oc(k)  = (t3 - t2)/k
 *   rank 1: wait for the k messages
 * Receives are posted as a list when sends are, else one call each (inline
 * is a send-side option: an inline series records no o_r).
 */
#include "scenario.h"

enum { TAG_GATHER = 2307 };

/* Doubles per MPI message when o_r travels to rank 0: MPI counts are ints, and
 * K * R samples can exceed INT_MAX within the allowed options (K = 1024,
 * R = 10^7 make 1.024e10). */
#define GATHER_CHUNK ((size_t)1 << 26)

typedef struct {
    lop_op_t op;
    lop_post_t post;
    lop_samples_t *os, *oc, *orecv; /* orecv NULL: not recorded */
} s1_ctx_t;

static lop_status_t receiver_round(lop_bench_t *b, const s1_ctx_t *c, size_t k, long rep,
                                   uint64_t seq)
{
    lop_transport_t *t = b->tp;
    lop_status_t st = LOP_OK;
    if (lop_op_desc[c->op].uses_recv) {
        lop_post_t post = c->post == LOP_POST_LIST ? LOP_POST_LIST : LOP_POST_NORMAL;
        uint64_t t0 = lop_timer_now(b->timer);
        st = t->ops->post_recv(t, b->to_other, k, post);
        uint64_t t1 = lop_timer_now(b->timer);
        lop_bench_record(c->orecv, k, rep, lop_timer_us(b->timer, t1 - t0) / (double)k);
    }
    if (st == LOP_OK)
        st = lop_mpi_barrier(b->pair, &t->poll);
    for (size_t j = 0; j < k && st == LOP_OK; j++)
        st = t->ops->wait_recv(t, c->op, b->to_other[0], seq);
    return st;
}

static lop_status_t sender_round(lop_bench_t *b, const s1_ctx_t *c, size_t k, long rep,
                                 uint64_t seq)
{
    lop_transport_t *t = b->tp;
    lop_status_t st = lop_mpi_barrier(b->pair, &t->poll);
    if (st != LOP_OK)
        return st;
    uint64_t t1 = lop_timer_now(b->timer);
    st = t->ops->post_send(t, c->op, b->to_other, k, c->post, seq);
    uint64_t t2 = lop_timer_now(b->timer);
    if (st == LOP_OK)
        st = t->ops->wait_send(t);
    uint64_t t3 = lop_timer_now(b->timer);
    lop_bench_record(c->os, k, rep, lop_timer_us(b->timer, t2 - t1) / (double)k);
    lop_bench_record(c->oc, k, rep, lop_timer_us(b->timer, t3 - t2) / (double)k);
    return st;
}

static lop_status_t s1_round(lop_bench_t *b, void *ctx, size_t k, long rep, uint64_t seq)
{
    return b->rank == 0 ? sender_round(b, ctx, k, rep, seq) : receiver_round(b, ctx, k, rep, seq);
}

lop_status_t lop_scenario1_run(lop_bench_t *b, lop_op_t op, lop_post_t post, lop_samples_t *os,
                               lop_samples_t *oc, lop_samples_t *orecv)
{
    s1_ctx_t c = {op, post, os, oc, lop_op_desc[op].uses_recv ? orecv : NULL};
    lop_status_t st = lop_bench_repeat(b, b->rank <= 1, b->max_post, s1_round, &c);
    if (st != LOP_OK || !c.orecv)
        return st;
    /* o_r was measured on rank 1; the files are written by rank 0. */
    size_t total = c.orecv->n_p * c.orecv->reps;
    for (size_t at = 0; at < total && b->rank <= 1; at += GATHER_CHUNK) {
        int count = (int)(total - at < GATHER_CHUNK ? total - at : GATHER_CHUNK);
        if (b->rank == 1)
            MPI_Send(c.orecv->us + at, count, MPI_DOUBLE, 0, TAG_GATHER, b->pair);
        else
            MPI_Recv(c.orecv->us + at, count, MPI_DOUBLE, 1, TAG_GATHER, b->pair,
                     MPI_STATUS_IGNORE);
    }
    return LOP_OK;
}
