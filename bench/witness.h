/*
 * witness.h - the independent witness of lopbench --barrier --check: did any
 * rank leave barrier i before every rank had entered it?  Used by no
 * executor, so a broken schedule cannot fool it.  Two witnesses behind one
 * ops table:
 *   one-sided  a counter of entries on rank 0 in an MPI window: CPU atomics
 *              in MPI_Win_allocate_shared memory on one node, MPI RMA
 *              atomics (fetch-and-add, MPI_NO_OP reads) across nodes.
 *              Cheap, but across nodes it needs a one-sided component
 *              (Open MPI over TCP has none unless --mca osc ucx) whose
 *              operations move only while rank 0 calls into MPI.
 *   two-sided  point-to-point on a duplicate of the communicator, which
 *              every MPI has under its defaults.  Each rank keeps zero-byte
 *              receives for "entered barrier j" from every other rank
 *              posted for the next LOP_WITNESS_AHEAD barriers, reposting a
 *              barrier's row once all its entries came, without waiting;
 *              entering barrier i it sends "entered i" to every other rank
 *              with MPI_Issend and waits for those sends (a synchronous send
 *              completes only once the receiver matched it) before it starts
 *              the barrier; leaving barrier i it tests its receives for i.
 *              In a barrier every entry precedes every exit, so each was
 *              matched before this exit; one still open means its sender had
 *              not entered.  The receives posted far ahead keep the witness
 *              from being a barrier itself (with one barrier ahead, entering
 *              i waited for every entry into i-1, and a broken schedule's
 *              early exits were caught 2 times in 400).  A broken barrier
 *              cannot deadlock it: a rank that runs LOP_WITNESS_AHEAD
 *              barriers ahead waits in MPI_Issend until the late rank posts
 *              more.  O(P^2) messages a barrier, for a check mode.
 * --check-witness auto takes one-sided where all ranks share a node (and a
 * shared window can be made), two-sided everywhere else.
 */
#ifndef LOP_WITNESS_H
#define LOP_WITNESS_H

#include <mpi.h>
#include <stdint.h>

#include "lop.h"
#include "mpisync.h"

/* --check-witness's values, in lop_witness_names' order. */
typedef enum {
    LOP_WITNESS_AUTO,
    LOP_WITNESS_ONE_SIDED,
    LOP_WITNESS_TWO_SIDED,
    LOP_WITNESS_KIND_COUNT
} lop_witness_kind_t;
extern const char *const lop_witness_names[LOP_WITNESS_KIND_COUNT + 1];

typedef struct lop_witness lop_witness_t;

typedef struct lop_witness_ops {
    const char *name; /* "one-sided", "two-sided": --check-witness's value */
    const char *how;  /* what it does, for the note of a --check run */
    /* Collective over w->comm (set, with w->poll, w->reps, by lop_witness_open).
     * Fails on every rank alike. */
    lop_status_t (*open)(lop_witness_t *w);
    /* Record this rank's entry into barrier 'iter' (0-based). */
    lop_status_t (*enter)(lop_witness_t *w, long iter);
    /* On leaving barrier 'iter': *early = some rank had not entered it. */
    lop_status_t (*left)(lop_witness_t *w, long iter, int *early);
    /* Collective, once every rank has left the last barrier. */
    lop_status_t (*close)(lop_witness_t *w);
} lop_witness_ops_t;

extern const lop_witness_ops_t lop_witness_one_sided, lop_witness_two_sided;

#define LOP_WITNESS_AHEAD 64 /* two-sided: barriers whose entries are awaited at once */

struct lop_witness {
    const lop_witness_ops_t *ops;
    MPI_Comm comm;      /* the ranks of the barrier */
    int rank, size;
    long reps;          /* barriers it witnesses */
    lop_poll_t poll;    /* how its waits pause and give up */
    int needs_progress; /* ranks waiting outside MPI must drive MPI (poll.progress) */
    /* one-sided */
    MPI_Win win;        /* holds the counter; MPI_WIN_NULL until opened */
    uint64_t *counter;  /* rank 0's (RMA) or its shared address (one node) */
    int shared;         /* counter is addressable here: CPU atomics */
    /* two-sided */
    MPI_Comm dup;       /* comm's duplicate: no executor's message can match */
    MPI_Request *recv;  /* [ahead][size]: barrier i's entries in row i % ahead */
    long ahead;         /* rows: min(reps, LOP_WITNESS_AHEAD) */
    long posted;        /* barriers whose receives were posted (0..posted-1) */
    MPI_Request *send;  /* [size] this rank's entry to each peer */
};

/* Collective over comm: the witness --check-witness 'kind' gives here, the
 * same on every rank.  one-sided where MPI makes no window is refused
 * ("option --check-witness: one-sided: ..."). */
lop_status_t lop_witness_choose(MPI_Comm comm, lop_witness_kind_t kind,
                                const lop_witness_ops_t **out);

/* Collective over comm: open 'ops' for 'reps' barriers. */
lop_status_t lop_witness_open(lop_witness_t *w, const lop_witness_ops_t *ops, MPI_Comm comm,
                              long reps, const lop_poll_t *poll);

#endif
