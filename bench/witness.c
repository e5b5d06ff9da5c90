/* witness.c - --check's witnesses, one-sided and two-sided (witness.h). */
#include "witness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lop_witness_names[LOP_WITNESS_KIND_COUNT + 1] = {"auto", "one-sided",
                                                                   "two-sided", NULL};

/* ------------------------------------------------------------ one-sided */

/* Not RMA atomics on one node too: MPICH applies them in the target's
 * progress engine, and rank 0 polling shared memory in the shm executor
 * never enters MPI, so the others' entries waited for it forever. */
static lop_status_t one_open(lop_witness_t *w)
{
    w->shared = lop_mpi_single_node(w->comm);
    MPI_Aint bytes = w->rank == 0 ? (MPI_Aint)sizeof(uint64_t) : 0;
    uint64_t *mine;
    lop_status_t st = lop_mpi_window(w->comm, bytes, w->shared, &mine, &w->win);
    if (st != LOP_OK)
        return lop_err(st, "option --check-witness: one-sided: %s", lop_errmsg());
    if (w->shared) {
        MPI_Aint len;
        int unit;
        MPI_Win_shared_query(w->win, 0, &len, &unit, &w->counter);
    } else {
        w->counter = mine;
    }
    if (w->rank == 0)
        *w->counter = 0;
    /* Across nodes the counter on rank 0 is reached with MPI RMA, which (Open
     * MPI's osc ucx over TCP) moves only while rank 0 calls into MPI: the
     * verbs executor's waits poll the device instead, and rank 1's entry
     * waited for ever (two Soft-RoCE VMs, 51-verbs-hosts.t). */
    w->needs_progress = !w->shared;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
    MPI_Win_sync(w->win);
    MPI_Barrier(w->comm);
    return LOP_OK;
}

static lop_status_t one_enter(lop_witness_t *w, long iter)
{
    (void)iter;
    uint64_t one = 1, old;
    if (w->shared) {
        __atomic_fetch_add(w->counter, 1, __ATOMIC_SEQ_CST);
        return LOP_OK;
    }
    MPI_Fetch_and_op(&one, &old, MPI_UINT64_T, 0, 0, MPI_SUM, w->win);
    MPI_Win_flush(0, w->win);
    return LOP_OK;
}

/* Every rank must have entered barriers 0..iter: (iter + 1) * P entries. */
static lop_status_t one_left(lop_witness_t *w, long iter, int *early)
{
    uint64_t entered;
    if (w->shared) {
        entered = __atomic_load_n(w->counter, __ATOMIC_SEQ_CST);
    } else {
        MPI_Fetch_and_op(NULL, &entered, MPI_UINT64_T, 0, 0, MPI_NO_OP, w->win);
        MPI_Win_flush(0, w->win);
    }
    *early = entered < (uint64_t)(iter + 1) * (uint64_t)w->size;
    return LOP_OK;
}

static lop_status_t one_close(lop_witness_t *w)
{
    if (w->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(w->win);
        MPI_Win_free(&w->win);
    }
    return LOP_OK;
}

const lop_witness_ops_t lop_witness_one_sided = {
    "one-sided", "a counter of entries on rank 0 in an MPI window (shared memory on one node)",
    one_open, one_enter, one_left, one_close};

/* ------------------------------------------------------------ two-sided */

enum { TAG_ENTERED = 1 };
static char no_data; /* the buffer of the zero-byte messages */

/* The receives of barrier iter's entries from every other rank, in row
 * iter % ahead.  One tag suffices: MPI does not let messages of one sender
 * overtake each other, so the k-th entry from a peer matches the k-th
 * receive posted for it. */
static void two_post(lop_witness_t *w, long iter)
{
    MPI_Request *row = w->recv + (size_t)(iter % w->ahead) * (size_t)w->size;
    for (int peer = 0; peer < w->size; peer++)
        if (peer != w->rank)
            MPI_Irecv(&no_data, 0, MPI_BYTE, peer, TAG_ENTERED, w->dup, &row[peer]);
}

static lop_status_t two_open(lop_witness_t *w)
{
    size_t n = (size_t)w->size;
    w->ahead = w->reps < LOP_WITNESS_AHEAD ? (w->reps > 0 ? w->reps : 1) : LOP_WITNESS_AHEAD;
    w->recv = lop_calloc((size_t)w->ahead * n, sizeof *w->recv);
    w->send = lop_calloc(n, sizeof *w->send);
    lop_status_t st = w->recv && w->send ? LOP_OK : lop_err(LOP_ERR_NOMEM, "out of memory "
                                                             "for --check's witness");
    st = lop_mpi_agree(w->comm, st);
    if (st != LOP_OK) {
        free(w->recv);
        free(w->send);
        return st;
    }
    for (size_t i = 0; i < (size_t)w->ahead * n; i++)
        w->recv[i] = MPI_REQUEST_NULL;
    for (size_t i = 0; i < n; i++)
        w->send[i] = MPI_REQUEST_NULL;
    MPI_Comm_dup(w->comm, &w->dup);
    /* A rank waiting in the verbs or shm executor polls memory: its MPI must
     * still match the peers' synchronous sends, or they wait for ever. */
    w->needs_progress = 1;
    for (w->posted = 0; w->posted < w->reps && w->posted < w->ahead; w->posted++)
        two_post(w, w->posted);
    return LOP_OK;
}

/* Repost the rows whose barrier every peer has entered, without waiting,
 * never past barrier iter + ahead - 1 (row iter % ahead is still tested on
 * leaving iter). */
static void two_advance(lop_witness_t *w, long iter)
{
    while (w->posted < w->reps && w->posted < iter + w->ahead) {
        int all;
        MPI_Request *row = w->recv + (size_t)(w->posted % w->ahead) * (size_t)w->size;
        MPI_Testall(w->size, row, &all, MPI_STATUSES_IGNORE);
        if (!all)
            return;
        two_post(w, w->posted++);
    }
}

static lop_status_t two_enter(lop_witness_t *w, long iter)
{
    char what[96];
    two_advance(w, iter); /* before this rank's sends: a peer ahead may wait for them */
    for (int peer = 0; peer < w->size; peer++)
        if (peer != w->rank)
            MPI_Issend(&no_data, 0, MPI_BYTE, peer, TAG_ENTERED, w->dup, &w->send[peer]);
    snprintf(what, sizeof what, "every rank to take this rank's entry into barrier %ld "
             "(--check's witness)", iter);
    return lop_mpi_wait_all(w->size, w->send, &w->poll, what);
}

static lop_status_t two_left(lop_witness_t *w, long iter, int *early)
{
    int all;
    MPI_Request *row = w->recv + (size_t)(iter % w->ahead) * (size_t)w->size;
    MPI_Testall(w->size, row, &all, MPI_STATUSES_IGNORE); /* none freed unless all done */
    *early = !all;
    return LOP_OK;
}

/* Every rank has entered every barrier: the rest are posted as rows free
 * up, every receive completes, none is left behind. */
static lop_status_t two_close(lop_witness_t *w)
{
    lop_status_t st = LOP_OK;
    while (st == LOP_OK && w->posted < w->reps) {
        MPI_Request *row = w->recv + (size_t)(w->posted % w->ahead) * (size_t)w->size;
        st = lop_mpi_wait_all(w->size, row, &w->poll, "the last entries (--check's witness)");
        if (st == LOP_OK)
            two_post(w, w->posted++);
    }
    if (st == LOP_OK)
        st = lop_mpi_wait_all((int)w->ahead * w->size, w->recv, &w->poll,
                              "the last entries (--check's witness)");
    if (w->dup != MPI_COMM_NULL)
        MPI_Comm_free(&w->dup);
    free(w->recv);
    free(w->send);
    w->recv = w->send = NULL;
    return st;
}

const lop_witness_ops_t lop_witness_two_sided = {
    "two-sided", "zero-byte MPI_Issend of each entry to every rank, tested on leaving",
    two_open, two_enter, two_left, two_close};

/* ---------------------------------------------------------------- choice */

lop_status_t lop_witness_choose(MPI_Comm comm, lop_witness_kind_t kind,
                                const lop_witness_ops_t **out)
{
    int one_node = lop_mpi_single_node(comm);
    *out = &lop_witness_two_sided;
    if (kind == LOP_WITNESS_TWO_SIDED || (kind == LOP_WITNESS_AUTO && !one_node))
        return LOP_OK;
    MPI_Win win;
    uint64_t *base;
    lop_status_t st = lop_mpi_window(comm, sizeof(uint64_t), one_node, &base, &win);
    if (st == LOP_OK) {
        MPI_Win_free(&win);
        *out = &lop_witness_one_sided;
        return LOP_OK;
    }
    if (kind == LOP_WITNESS_AUTO)
        return LOP_OK;
    return lop_err(st, "option --check-witness: one-sided: %s", lop_errmsg());
}

lop_status_t lop_witness_open(lop_witness_t *w, const lop_witness_ops_t *ops, MPI_Comm comm,
                              long reps, const lop_poll_t *poll)
{
    memset(w, 0, sizeof *w);
    w->ops = ops;
    w->comm = comm;
    w->reps = reps;
    w->poll = *poll;
    w->win = MPI_WIN_NULL;
    w->dup = MPI_COMM_NULL;
    MPI_Comm_rank(comm, &w->rank);
    MPI_Comm_size(comm, &w->size);
    return ops->open(w);
}
