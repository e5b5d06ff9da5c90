/* rmawin.c - slot writes over MPI RMA windows (rmawin.h). */
#include "rmawin.h"

#include <stdlib.h>
#include <string.h>

const char *lop_rmawin_mode_name(lop_rma_mode_t mode)
{
    switch (mode) {
    case LOP_RMA_SHARED:
        return "shared";
    case LOP_RMA_PUT:
        return "put";
    default:
        return "auto";
    }
}

/* The per-rank arrays a mode needs (local, may fail). */
static lop_status_t alloc_arrays(lop_rmawin_t *w, int size)
{
    if (w->mode == LOP_RMA_SHARED)
        w->peer = lop_calloc((size_t)size, sizeof *w->peer);
    else {
        w->origin = lop_calloc((size_t)size, sizeof *w->origin);
        w->pending = lop_calloc((size_t)size, sizeof *w->pending);
        w->is_pending = lop_calloc((size_t)size, sizeof *w->is_pending);
    }
    return w->peer || (w->origin && w->pending && w->is_pending) ? LOP_OK : LOP_ERR_NOMEM;
}

static void free_arrays(lop_rmawin_t *w)
{
    free(w->peer);
    free(w->origin);
    free(w->pending);
    free(w->is_pending);
}

/* Collective window creation (lop_mpi_window: never fatal). */
static lop_status_t create_window(lop_rmawin_t *w, int size)
{
    MPI_Aint bytes = (MPI_Aint)(w->n_slots * sizeof(uint64_t));
    lop_status_t st = lop_mpi_window(w->comm, bytes, w->mode == LOP_RMA_SHARED, &w->local, &w->win);
    for (int r = 0; st == LOP_OK && w->mode == LOP_RMA_SHARED && r < size; r++) {
        MPI_Aint len;
        int unit;
        MPI_Win_shared_query(w->win, r, &len, &unit, &w->peer[r]);
    }
    return st;
}

lop_status_t lop_rmawin_open(lop_rmawin_t *w, MPI_Comm comm, size_t n_slots,
                             lop_rma_mode_t mode)
{
    int size;
    MPI_Comm_size(comm, &size);
    memset(w, 0, sizeof *w);
    w->comm = comm;
    MPI_Comm_rank(comm, &w->rank);
    w->n_slots = n_slots;
    int one_node = lop_mpi_single_node(comm);
    w->mode = mode == LOP_RMA_AUTO ? (one_node ? LOP_RMA_SHARED : LOP_RMA_PUT) : mode;
    lop_status_t st;
    if (w->mode == LOP_RMA_SHARED && !one_node)
        st = lop_err(LOP_ERR_UNSUPPORTED, "option --rma shared: the ranks are not all on one node");
    else
        st = alloc_arrays(w, size);
    /* Agree before the collective window creation, or a failed rank would
     * leave the others waiting in it. */
    st = lop_mpi_agree(comm, st);
    if (st != LOP_OK) {
        free_arrays(w);
        memset(w, 0, sizeof *w);
        return st;
    }
    st = create_window(w, size);
    if (st != LOP_OK) {
        free_arrays(w);
        memset(w, 0, sizeof *w);
        return st;
    }
    memset(w->local, 0, n_slots * sizeof(uint64_t));
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win);
    MPI_Win_sync(w->win);
    MPI_Barrier(comm); /* every slot is zero before anyone writes */
    return LOP_OK;
}

void lop_rmawin_close(lop_rmawin_t *w)
{
    if (!w->local)
        return;
    MPI_Win_unlock_all(w->win);
    MPI_Win_free(&w->win);
    free_arrays(w);
    memset(w, 0, sizeof *w);
}

void lop_rmawin_write(lop_rmawin_t *w, int peer, size_t slot, uint64_t value)
{
    if (w->mode == LOP_RMA_SHARED) {
        __atomic_store_n(&w->peer[peer][slot], value, __ATOMIC_RELEASE);
        return;
    }
    w->origin[peer] = value;
    if (!w->is_pending[peer]) {
        w->is_pending[peer] = 1;
        w->pending[w->n_pending++] = peer;
    }
    /* An accumulate, not MPI_Put: only accumulates are atomic with the
     * owner's MPI_Fetch_and_op reads of the slot (MPI-3.1 11.7.1). */
    MPI_Accumulate(&w->origin[peer], 1, MPI_UINT64_T, peer, (MPI_Aint)slot, 1, MPI_UINT64_T,
                   MPI_REPLACE, w->win);
}

void lop_rmawin_complete(lop_rmawin_t *w)
{
    if (w->mode == LOP_RMA_SHARED) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    /* Only the targets written to: MPI_Win_flush_all may wait for every rank
     * of the window to make progress (MPICH does), idle ones included. */
    for (size_t i = 0; i < w->n_pending; i++) {
        MPI_Win_flush(w->pending[i], w->win);
        w->is_pending[w->pending[i]] = 0;
    }
    w->n_pending = 0;
}

int lop_rmawin_reached(lop_rmawin_t *w, size_t slot, uint64_t value)
{
    if (w->mode == LOP_RMA_SHARED)
        return __atomic_load_n(&w->local[slot], __ATOMIC_ACQUIRE) >= value;
    /* Read the slot through the window, not with a load: a load after
     * MPI_Win_sync need not see a completed remote write (MPICH 4.0 with 3
     * ranks never did), while an atomic read through MPI sees it in either
     * memory model, and drives MPI's progress for writes that the library
     * applies at the target. */
    uint64_t now;
    MPI_Fetch_and_op(NULL, &now, MPI_UINT64_T, w->rank, (MPI_Aint)slot, MPI_NO_OP, w->win);
    MPI_Win_flush(w->rank, w->win);
    if (now >= value)
        return 1;
    /* Progress outside the read as well: Open MPI's osc ucx serves a remote
     * accumulate (over TCP, as messages this rank must progress) only when
     * its window's accumulate lock is free, and our own read holds that
     * lock whenever it progresses: across two nodes the writer never got
     * it and the run timed out ("waiting for write 61"). */
    lop_mpi_progress(w->comm);
    return 0;
}

lop_status_t lop_rmawin_wait(lop_rmawin_t *w, size_t slot, uint64_t value, lop_poll_t *poll)
{
    lop_wait_t wait = {0};
    while (!lop_rmawin_reached(w, slot, value))
        if (lop_poll_pause(poll, &wait))
            return lop_poll_timeout(poll, "write %llu from rank %zu on %.64s into our window",
                                    (unsigned long long)value, slot, lop_mpi_host_of((int)slot));
    return LOP_OK;
}
