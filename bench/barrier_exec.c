/* barrier_exec.c - executing barrier schedules and timing them (barrier_exec.h). */
#include "barrier_exec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "mpisync.h"
#include "sched_flow.h"

void lop_barrier_exec_how(const lop_barrier_exec_t *x, lop_op_t *op, lop_post_t *post)
{
    *op = LOP_OP_SEND;
    *post = LOP_POST_NORMAL;
    for (int o = 0; x->series && o < LOP_OP_COUNT; o++) {
        size_t len = strlen(lop_op_desc[o].name);
        if (strncmp(x->series, lop_op_desc[o].name, len) != 0 || x->series[len] != '-')
            continue;
        for (int p = 0; p < LOP_POST_COUNT; p++)
            if (strcmp(x->series + len + 1, lop_post_desc[p].name) == 0) {
                *op = (lop_op_t)o;
                *post = (lop_post_t)p;
            }
    }
}

const char *lop_barrier_exec_series(const lop_barrier_exec_t *x, lop_post_t post, char *buf,
                                    size_t len)
{
    lop_op_t op;
    lop_post_t own;
    lop_barrier_exec_how(x, &op, &own);
    if (!x->transport)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "%s-%s", lop_op_desc[op].name, lop_post_desc[post].name);
    return buf;
}

lop_status_t lop_barrier_max_recv_per_peer(const sched_t *s, size_t *most_out)
{
    uint32_t *count = lop_calloc(s->p, sizeof *count);
    size_t most = 1;
    if (!count)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < s->p; r++) {
        for (const sched_op_t *op = sched_rank_ops(s, r); op < sched_rank_end(s, r); op++)
            if (op->kind == SCHED_RECV && ++count[op->peer] > most)
                most = count[op->peer];
        for (const sched_op_t *op = sched_rank_ops(s, r); op < sched_rank_end(s, r); op++)
            count[op->peer < 0 ? 0 : op->peer] = 0;
    }
    free(count);
    *most_out = most;
    return LOP_OK;
}

/* ------------------------------------------------------------ the walker */

/* One rank executing its part of a schedule, barrier after barrier. */
typedef struct {
    const lop_barrier_run_t *run;
    lop_op_t op;        /* how the executor's messages travel */
    int rank, size;
    uint64_t *sent;     /* [peer] messages sent to peer over the transport's life */
    uint64_t *recvd;    /* [peer] messages received from peer, likewise */
    uint32_t *batch_of; /* [peer] the send batch that last wrote to peer */
    uint32_t batch;     /* sends posted since the last completion form batch 'batch' */
    int pending;        /* the current batch holds a send */
    uint64_t *mc;       /* [rank] multicasts this rank posted; [peer] taken from peer */
    uint8_t *mc_recv;   /* [i]: this rank's op i is a RECV of an MCAST; NULL unless
                         * MCASTs go by hardware multicast */
    int *senders;       /* the ranks that multicast in this schedule ... */
    size_t n_senders;   /* ... (0 unless by hardware multicast) */
} walker_t;

/* With hardware multicast, which of this rank's RECVs take an MCAST (the
 * k-th RECV from s takes the k-th message s addressed to it, sched_flow.h)
 * and which ranks multicast. */
static lop_status_t walker_mcast_init(walker_t *w)
{
    const sched_t *s = w->run->sched;
    if (!s || !w->run->tp || !w->run->tp->mcast)
        return LOP_OK;
    w->senders = lop_calloc((size_t)w->size, sizeof *w->senders);
    if (!w->senders)
        return LOP_ERR_NOMEM;
    for (uint32_t r = 0; r < s->p; r++)
        for (const sched_op_t *op = sched_rank_ops(s, r); op < sched_rank_end(s, r); op++)
            if (op->kind == SCHED_MCAST) {
                w->senders[w->n_senders++] = (int)r;
                break;
            }
    if (w->n_senders == 0)
        return LOP_OK;
    uint32_t first = s->first[w->rank], n = sched_rank_count(s, (uint32_t)w->rank);
    uint32_t *match = lop_calloc(s->n_ops, sizeof *match);
    w->mc_recv = lop_calloc(n ? n : 1, 1);
    lop_status_t st = match && w->mc_recv ? sched_match(s, match) : LOP_ERR_NOMEM;
    for (uint32_t i = 0; i < n && st == LOP_OK; i++)
        w->mc_recv[i] = s->op[first + i].kind == SCHED_RECV &&
                        s->op[match[first + i]].kind == SCHED_MCAST;
    free(match);
    return st;
}

static void walker_free(walker_t *w)
{
    free(w->batch_of);
    free(w->mc_recv);
    free(w->senders);
}

static lop_status_t walker_init(walker_t *w, const lop_barrier_run_t *run)
{
    lop_post_t own;
    memset(w, 0, sizeof *w);
    w->run = run;
    lop_barrier_exec_how(run->exec, &w->op, &own);
    MPI_Comm_rank(run->comm, &w->rank);
    MPI_Comm_size(run->comm, &w->size);
    w->sent = run->counts;
    w->recvd = run->counts + w->size;
    w->mc = run->counts + 2 * w->size;
    w->batch_of = lop_calloc((size_t)w->size, sizeof *w->batch_of);
    w->batch = 1;
    return w->batch_of ? walker_mcast_init(w) : LOP_ERR_NOMEM; /* the caller frees */
}

/* Complete the sends of the current batch.  Needed before blocking (an MPI_Put
 * is only sure to reach its target once flushed) and before writing to a peer
 * twice (its slot's source value must not change while a write is in flight). */
static lop_status_t walker_complete(walker_t *w)
{
    if (!w->pending)
        return LOP_OK;
    w->pending = 0;
    w->batch++;
    return w->run->tp->ops->wait_send(w->run->tp);
}

static lop_status_t walker_send(walker_t *w, int peer)
{
    lop_transport_t *tp = w->run->tp;
    if (w->batch_of[peer] == w->batch) {
        lop_status_t st = walker_complete(w);
        if (st != LOP_OK)
            return st;
    }
    w->batch_of[peer] = w->batch;
    w->pending = 1;
    return tp->ops->post_send(tp, w->op, &peer, 1, w->run->post,
                              ++w->sent[peer]);
}

/* One multicast carrying this rank's count of them (Kini's barrier id), or
 * where the transport has none, P - 1 messages. */
static lop_status_t walker_mcast(walker_t *w)
{
    lop_transport_t *tp = w->run->tp;
    if (w->mc_recv)
        return tp->ops->post_mcast(tp, ++w->mc[w->rank]);
    lop_status_t st = LOP_OK;
    for (int peer = 0; peer < w->size && st == LOP_OK; peer++)
        if (peer != w->rank)
            st = walker_send(w, peer);
    return st;
}

/* The receive is posted when the schedule reaches it, and then the sends
 * still in flight are completed before it is waited for, as MPI's own
 * barriers post MPI_Irecv before their MPI_Waitall: a receive posted only
 * after the sends completed made an exchange 5-10 % slower than theirs.  A
 * multicast from 'peer' ('mcast') is waited for by its id. */
static lop_status_t walker_recv(walker_t *w, int peer, int mcast)
{
    lop_transport_t *tp = w->run->tp;
    lop_op_t op = w->op;
    lop_status_t st = LOP_OK;
    if (!mcast && lop_op_desc[op].uses_recv)
        st = tp->ops->post_recv(tp, &peer, 1, LOP_POST_NORMAL);
    st = st ? st : walker_complete(w);
    if (st == LOP_OK && mcast)
        return tp->ops->wait_mcast(tp, peer, ++w->mc[peer]);
    return st ? st : tp->ops->wait_recv(tp, op, peer, ++w->recvd[peer]);
}

/* Say where in the schedule a failure (a timeout, say) happened. */
static lop_status_t walker_where(const walker_t *w, lop_status_t st, const sched_op_t *op)
{
    const sched_op_t *first = sched_rank_ops(w->run->sched, (uint32_t)w->rank);
    return lop_err(st, "%s; at op %td of rank %d's schedule (%s %d, step %u)", lop_errmsg(),
                   op - first, w->rank, sched_kind_name((sched_kind_t)op->kind), op->peer,
                   (unsigned)op->step);
}

/* One barrier: this rank's ops in order, then its last sends completed. */
static lop_status_t walker_barrier(walker_t *w)
{
    const sched_t *s = w->run->sched;
    if (!s) {
        MPI_Barrier(w->run->comm);
        return LOP_OK;
    }
    const sched_op_t *first = sched_rank_ops(s, (uint32_t)w->rank);
    const sched_op_t *end = sched_rank_end(s, (uint32_t)w->rank);
    lop_status_t st = LOP_OK;
    for (const sched_op_t *op = first; op < end; op++) {
        switch ((sched_kind_t)op->kind) {
        case SCHED_SEND:
            st = walker_send(w, op->peer);
            break;
        case SCHED_RECV:
            st = walker_recv(w, op->peer, w->mc_recv && w->mc_recv[op - first]);
            break;
        case SCHED_MCAST:
            st = walker_mcast(w);
            break;
        }
        if (st != LOP_OK)
            return walker_where(w, st, op);
    }
    return walker_complete(w);
}

/* Kini's root answers NAKs from a completion event handler (5.4); lop's
 * multicasting ranks answer them only while they wait in the walker.  So
 * before the ranks leave it (for MPI), each tells every multicasting rank,
 * by an ordinary counted message, that it has all its releases, and those
 * wait for every rank's word, answering NAKs meanwhile: no rank is left
 * waiting for a release that nobody would resend. */
static lop_status_t walker_settle(walker_t *w)
{
    lop_status_t st = LOP_OK;
    int sender = 0;
    for (size_t i = 0; i < w->n_senders && st == LOP_OK; i++) {
        if (w->senders[i] == w->rank)
            sender = 1;
        else
            st = walker_send(w, w->senders[i]);
    }
    for (int peer = 0; sender && peer < w->size && st == LOP_OK; peer++)
        if (peer != w->rank)
            st = walker_recv(w, peer, 0);
    return st ? st : walker_complete(w);
}

/* ------------------------------------------------------------ measuring */

static lop_status_t run_timed(walker_t *w, uint64_t *end_ticks)
{
    const lop_barrier_run_t *run = w->run;
    lop_poll_t poll = run->poll;
    lop_status_t st = LOP_OK;
    for (long i = 0; i < run->warmup && !st; i++) {
        st = walker_barrier(w);
        lop_watchdog_beat();
    }
    if (st == LOP_OK)
        st = walker_settle(w);
    if (st == LOP_OK)
        st = lop_mpi_barrier(run->comm, &poll);
    end_ticks[0] = lop_timer_now(run->timer);
    for (long i = 0; i < run->reps && !st; i++) {
        st = walker_barrier(w);
        end_ticks[i + 1] = lop_timer_now(run->timer);
        lop_watchdog_beat();
    }
    return st ? st : walker_settle(w);
}

/* The random arrival delay before an entry.  A witness whose messages need
 * this rank's MPI to move (the two-sided one: a peer's MPI_Issend completes
 * only once this rank's MPI matched it) is driven meanwhile: without it each
 * entry waited for every rank to finish its delay, the witness itself was a
 * barrier, and a schedule that lets a rank leave early passed. */
static void check_delay(const lop_barrier_run_t *run, double us, int progress)
{
    int oversubscribed = run->poll.yield_every != 0;
    if (!progress) {
        lop_mpi_idle(run->timer, us, oversubscribed);
        return;
    }
    uint64_t start = lop_timer_now(run->timer);
    while (lop_timer_us(run->timer, lop_timer_now(run->timer) - start) < us) {
        lop_mpi_progress(run->comm);
        if (oversubscribed)
            sched_yield();
    }
}

/* A random arrival delay before each entry makes ranks reach the barrier in
 * ever different orders; the witness (witness.h) says whether any left early. */
static lop_status_t run_checked(walker_t *w, lop_barrier_result_t *res)
{
    const lop_barrier_run_t *run = w->run;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    lop_status_t st = rng ? LOP_OK
                          : lop_err(LOP_ERR_NOMEM, "out of memory for the --check generator");
    lop_witness_t c;
    st = lop_mpi_agree(run->comm, st);
    st = st ? st : lop_witness_open(&c, run->witness, run->comm, run->reps, &run->poll);
    if (st != LOP_OK) {
        if (rng)
            gsl_rng_free(rng);
        return st;
    }
    gsl_rng_set(rng, run->seed * 1000003ul + (unsigned long)w->rank);
    if (c.needs_progress && run->tp)
        run->tp->poll.progress = &run->comm;
    long early = 0;
    for (long i = 0; i < run->reps && !st; i++) {
        int left_early = 0;
        check_delay(run, gsl_rng_uniform(rng) * run->check_delay_us, c.needs_progress);
        st = c.ops->enter(&c, i);
        st = st ? st : walker_barrier(w);
        st = st ? st : c.ops->left(&c, i, &left_early);
        early += left_early;
        lop_watchdog_beat();
    }
    gsl_rng_free(rng);
    if (st == LOP_OK) /* still driving MPI: a rank's last witness entry may be pending */
        st = walker_settle(w);
    if (run->tp)
        run->tp->poll.progress = NULL;
    lop_poll_t poll = run->poll;
    if (st == LOP_OK)
        st = lop_mpi_barrier(run->comm, &poll);
    st = st ? st : c.ops->close(&c);
    if (st != LOP_OK)
        return st; /* the caller aborts the job: no collective call may follow */
    MPI_Reduce(&early, &res->violations, 1, MPI_LONG, MPI_SUM, 0, run->comm);
    res->checked = run->reps * w->size;
    return st;
}

/* The thesis's average (4.3.2): each rank's mean over the consecutive
 * barriers, maximum over ranks.  The distribution comes from that same
 * slowest rank's iterations, so min <= avg <= max holds (ranks' iteration
 * boundaries drift apart when barriers pipeline, so a per-iteration maximum
 * over ranks would not be comparable with the average). */
static lop_status_t summarise(const lop_barrier_run_t *run, const uint64_t *end_ticks, int rank,
                              lop_barrier_result_t *res)
{
    long r = run->reps;
    double *dur = lop_calloc((size_t)r, sizeof *dur);
    lop_status_t st = lop_mpi_agree(run->comm, dur ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK) {
        free(dur);
        return st;
    }
    for (long i = 0; i < r; i++)
        dur[i] = lop_timer_us(run->timer, end_ticks[i + 1] - end_ticks[i]);
    struct { double mean; int rank; } mine = {
        lop_timer_us(run->timer, end_ticks[r] - end_ticks[0]) / (double)r, rank}, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, run->comm);
    res->avg_us = slowest.mean;
    if (rank == slowest.rank)
        st = lop_stats_compute(dur, (size_t)r, &res->iter);
    /* lop_stats_t is plain doubles after its count: ship them to rank 0,
     * and the sorted times themselves for the histogram. */
    enum { N_DOUBLES = (sizeof(lop_stats_t) - offsetof(lop_stats_t, min)) / sizeof(double) };
    if (slowest.rank != 0 && rank == slowest.rank) {
        MPI_Send(&res->iter.min, N_DOUBLES, MPI_DOUBLE, 0, 0, run->comm);
        MPI_Send(dur, (int)r, MPI_DOUBLE, 0, 1, run->comm);
    }
    if (slowest.rank != 0 && rank == 0) {
        MPI_Recv(&res->iter.min, N_DOUBLES, MPI_DOUBLE, slowest.rank, 0, run->comm,
                 MPI_STATUS_IGNORE);
        MPI_Recv(dur, (int)r, MPI_DOUBLE, slowest.rank, 1, run->comm, MPI_STATUS_IGNORE);
    }
    res->iter.n = (size_t)r;
    if (rank == 0)
        res->iter_us = dur; /* the caller's now */
    else
        free(dur);
    return lop_mpi_agree(run->comm, st);
}

/* What the multicast did during this run, summed over ranks onto rank 0. */
static void mcast_counts_sum(const lop_barrier_run_t *run, const lop_mcast_counts_t *before,
                             lop_barrier_result_t *res)
{
    lop_mcast_counts_t mine;
    run->tp->ops->mcast_counts(run->tp, &mine);
    lop_mcast_counts_add(&mine, before, -1);
    MPI_Reduce(&mine, &res->mcast_counts, LOP_MCAST_COUNTS_N, MPI_UINT64_T, MPI_SUM, 0,
               run->comm);
    res->mcast = 1;
}

lop_status_t lop_barrier_measure(const lop_barrier_run_t *run, lop_barrier_result_t *res)
{
    walker_t w;
    memset(res, 0, sizeof *res);
    lop_status_t st = lop_mpi_agree(run->comm, walker_init(&w, run));
    lop_mcast_counts_t before = {0};
    if (st == LOP_OK && w.n_senders) /* the same on every rank, as the schedule and t->mcast */
        run->tp->ops->mcast_counts(run->tp, &before);
    if (st == LOP_OK && run->check_delay_us > 0) {
        st = run_checked(&w, res);
    } else if (st == LOP_OK) {
        uint64_t *end_ticks = lop_calloc((size_t)run->reps + 1, sizeof *end_ticks);
        st = lop_mpi_agree(run->comm, end_ticks ? LOP_OK : LOP_ERR_NOMEM);
        st = st ? st : run_timed(&w, end_ticks);
        st = st ? st : summarise(run, end_ticks, w.rank, res);
        free(end_ticks);
    }
    if (st == LOP_OK && w.n_senders)
        mcast_counts_sum(run, &before, res);
    walker_free(&w);
    return st;
}
