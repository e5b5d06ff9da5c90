/*
 * rmawin.h - one-sided writes of a growing value into a peer's memory slot
 * over MPI-3 RMA, the target polling its own memory (the RDMA-write design of
 * the thesis 2.3.5 and of OSU report 001 sections 3.1 and 5.2).
 *
 * Every rank exposes n_slots 64-bit slots, all zero at first.  A writer
 * stores a value into (peer, slot); the owner waits until its slot holds at
 * least the value it expects, so values that only grow make consecutive uses
 * of a slot safe without resetting it.
 *   shared  all ranks on one node: MPI_Win_allocate_shared, the write is an
 *           atomic store straight into the peer's memory;
 *   put     otherwise: MPI_Win_allocate in a lock_all epoch, the write an
 *           MPI_Accumulate with MPI_REPLACE (MPI's atomic put) and
 *           MPI_Win_flush of each target to complete; the owner polls its
 *           slot with MPI_Fetch_and_op(MPI_NO_OP) + MPI_Win_flush, atomic
 *           with those writes and correct in the unified and the separate
 *           memory model alike.
 */
#ifndef LOP_RMAWIN_H
#define LOP_RMAWIN_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "lop.h"
#include "mpisync.h"
#include "transport.h"

typedef struct {
    MPI_Win win;         /* the window, in a lock_all epoch while open */
    MPI_Comm comm;       /* its communicator */
    int rank;            /* this rank in comm (put: whose slots it polls) */
    lop_rma_mode_t mode; /* LOP_RMA_SHARED or LOP_RMA_PUT, never AUTO */
    size_t n_slots;      /* slots per rank */
    uint64_t *local;     /* this rank's slots */
    uint64_t **peer;     /* shared: every rank's slots, addressable here; else NULL */
    uint64_t *origin;    /* put: per peer, the value being put (kept until complete) */
    int *pending;        /* put: the peers written since the last complete */
    size_t n_pending;
    unsigned char *is_pending; /* put: per peer, is it in 'pending'? */
} lop_rmawin_t;

/* Collective over comm.  AUTO picks shared when all ranks share a node;
 * SHARED fails with LOP_ERR_UNSUPPORTED when they do not. */
lop_status_t lop_rmawin_open(lop_rmawin_t *w, MPI_Comm comm, size_t n_slots,
                             lop_rma_mode_t mode);
/* Collective over comm. */
void lop_rmawin_close(lop_rmawin_t *w);

/* Start writing 'value' into slot 'slot' of rank 'peer'.  Until the next
 * lop_rmawin_complete(), further writes to the same peer carry the same value. */
void lop_rmawin_write(lop_rmawin_t *w, int peer, size_t slot, uint64_t value);
/* Complete every write started so far at its target. */
void lop_rmawin_complete(lop_rmawin_t *w);
/* Has this rank's slot reached 'value'?  (One poll, with the progress and
 * memory synchronisation the mode needs.) */
int lop_rmawin_reached(lop_rmawin_t *w, size_t slot, uint64_t value);
/* Poll until this rank's slot holds at least 'value' (slot = the writer's
 * rank); LOP_ERR_TIMEOUT at poll's deadline. */
lop_status_t lop_rmawin_wait(lop_rmawin_t *w, size_t slot, uint64_t value, lop_poll_t *poll);

const char *lop_rmawin_mode_name(lop_rma_mode_t mode);

#endif
