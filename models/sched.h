/*
 * sched.h - a barrier as a message schedule: what each rank does, in order.
 *
 * A schedule for P ranks is, per rank, an ordered list of operations:
 *   SEND  peer   post one message to 'peer'; never blocks
 *   RECV  peer   block until the next message from 'peer' has arrived
 *                (messages of one ordered pair are matched FIFO)
 *   MCAST        one message to every other rank (hardware multicast);
 *                each of them consumes it with a RECV from the sender
 * Every op carries the 'step' (round, stage) its message belongs to; the SEND
 * and the RECV of one message carry the same step.  Schedules built by
 * sched_build() also keep two promises that executors may rely on (the
 * checker verifies both, sched_check.h):
 *   - steps never decrease along a rank's ops;
 *   - within one step a rank sends at most one message to a given peer and
 *     receives at most one from a given peer, so (step, peer) names a message
 *     (e.g. a per-step flag slot for one-sided writes).
 *
 * Storage is one array of 8-byte ops plus per-rank offsets, so the 42 million
 * ops of a dissemination barrier for P = 2^20 take 336 MB; for the simulator
 * such a schedule is generated from rank 0's 40 ops (sched_generate).
 *
 *   sched_t s;
 *   if (sched_build(barrier_alg_find("ndiss"), 9, 2, &s) != LOP_OK) ... lop_errmsg()
 *   for (uint32_t r = 0; r < s.p; r++)
 *       for (const sched_op_t *op = sched_rank_ops(&s, r); op < sched_rank_end(&s, r); op++)
 *           ... op->kind, op->peer, op->step
 *   sched_free(&s);
 *
 * No MPI here: the library is linked into lopredict and lopbench alike.
 */
#ifndef LOP_SCHED_H
#define LOP_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"
#include "lop.h"

typedef enum {
    SCHED_SEND = 0,  /* one message to peer; never blocks */
    SCHED_RECV = 1,  /* wait for the next message from peer (FIFO per ordered pair) */
    SCHED_MCAST = 2  /* one message to every other rank; peer is -1 */
} sched_kind_t;

typedef struct {
    int32_t peer;       /* the other rank; -1 for SCHED_MCAST */
    uint32_t step : 30; /* round or stage of the message (same at sender and receiver) */
    uint32_t kind : 2;  /* sched_kind_t */
} sched_op_t;

#define SCHED_MAX_P (1u << 24)    /* largest P a schedule may have */
#define SCHED_MAX_OPS (1u << 27)  /* largest stored schedule (1 GB of ops) */
#define SCHED_MAX_STEPS ((1u << 30) - 1) /* sched_op_t.step's 30 bits */
#define SCHED_MAX_EVENTS UINT32_MAX /* largest generated schedule (ops, all ranks) */

/* How a schedule holds its ops.  Stored: every rank's ops.  Generated
 * (sched_generate, for the simulator): rank 0's ops only, where the
 * algorithm's rule gives every rank r the same ops with its peers moved by
 * r - the dissemination's "send to i + 2^s mod P" (SCHED_SHIFT), the
 * butterfly's "i XOR 2^s" (SCHED_XOR) - so P = 2^24 needs no 6 GB of ops.
 * SCHED_DIGIT is the exchanges' fold (pe, nwise; thesis 2.2.2.2, 2.2.6.2):
 * the main group, ranks below M = R^Z (the largest power of the radix R
 * not above P), exchange along base-R digits - op[k] with peer d = i R^t
 * moves a rank's digit t up by i mod R (XOR for R = 2) - and each rank
 * r >= M folds in to r mod M: it sends to r mod M at step 0 and receives
 * from it at the last step, while main rank r receives from r + M, r + 2M,
 * ... < P at step 0 before op[0] and sends to them at the last step after
 * op[per_rank - 1]. */
typedef enum {
    SCHED_STORED = 0,
    SCHED_SHIFT, /* rank r's op k: op[k] with peer (r + op[k].peer) mod P */
    SCHED_XOR,   /* rank r's op k: op[k] with peer r XOR op[k].peer */
    SCHED_DIGIT  /* main rank r's exchange k: op[k], digit moved; a fold around it */
} sched_form_t;

struct barrier_alg; /* barrier.h */

typedef struct {
    uint32_t p;         /* number of ranks */
    uint32_t n;         /* the algorithm's parameter n it was built with (0: none) */
    uint32_t n_steps;   /* 1 + the largest step (0 when there is no op) */
    uint32_t n_ops;     /* total operations (of all ranks, generated ones too) */
    uint32_t cap;       /* allocated entries of 'op' (builder) */
    uint32_t *first;    /* rank r owns op[first[r]] .. op[first[r+1]-1]; p + 1 entries
                           (NULL when generated) */
    sched_op_t *op;     /* all ops, rank after rank, each rank's in execution order
                           (generated: rank 0's, 'per_rank' of them) */
    sched_form_t form;  /* stored or generated */
    uint32_t per_rank;  /* generated: ops of every rank (SCHED_DIGIT: main ranks' exchanges) */
    uint32_t radix;     /* SCHED_DIGIT: R */
    uint32_t main;      /* SCHED_DIGIT: M, the main group's size */
    char alg[LOP_NAME_SIZE]; /* algorithm name (read from a file without one: the file's name) */
    char *path;         /* read from a file (sched_csv.h, goal.h): its name, else NULL */
    uint32_t *line;     /* ... and line[i], the line op i came from */
    lop_status_t error; /* builder: first failure of sched_push (NOMEM or RANGE) */
} sched_t;

/* Build the schedule of 'alg' for 'p' ranks with parameter 'n' (ignored
 * unless the algorithm takes one).  Errors: those of sched_limit, no memory. */
lop_status_t sched_build(const struct barrier_alg *alg, uint32_t p, uint32_t n, sched_t *s);
void sched_free(sched_t *s);
/* What sched_build would refuse for these arguments (p or n out of range, a
 * cost-only algorithm, more than SCHED_MAX_OPS operations), from the
 * algorithm's op count (barrier_alg_t.n_ops) without building anything, so a
 * tool refuses before its first line and before any work.  A schedule too
 * large is LOP_ERR_RANGE naming the largest P the algorithm does with this n.
 * '*n_ops' (unless NULL) is the schedule's op count. */
lop_status_t sched_limit(const struct barrier_alg *alg, uint32_t p, uint32_t n, uint64_t *n_ops);
/* The schedule for the simulator: generated from rank 0's ops where the
 * algorithm's rule is symmetric at p, n (barrier_alg_t.symmetry: no MCAST,
 * at most SCHED_MAX_EVENTS ops), else sched_build's.  Ranks 1, P/2 and
 * P - 1 are built and compared with what the symmetry gives them. */
lop_status_t sched_generate(const struct barrier_alg *alg, uint32_t p, uint32_t n, sched_t *s);
/* What sched_generate would refuse (sched_limit's refusals; a generated
 * schedule has at most SCHED_MAX_EVENTS ops instead of SCHED_MAX_OPS). */
lop_status_t sched_generate_limit(const struct barrier_alg *alg, uint32_t p, uint32_t n,
                                  uint64_t *n_ops);
/* The form sched_generate gives alg at p, n. */
sched_form_t sched_alg_form(const struct barrier_alg *alg, uint32_t p, uint32_t n);
/* A generated schedule as a stored one (every rank's ops); a stored one copied. */
lop_status_t sched_expand(const sched_t *s, sched_t *out);
/* 'times' barriers back to back, stored: every rank's ops 'times' times, the
 * steps of round t moved on by t * s->n_steps (a barrier id per round), as a
 * benchmark loop runs them (thesis 4.3.2).  LOP_ERR_RANGE past the limits. */
lop_status_t sched_repeat(const sched_t *s, uint32_t times, sched_t *out);
/* 's' with every MCAST sent as P - 1 SENDs to the other ranks in rank order
 * (same step), as lopbench's executors without hardware multicast send it. */
lop_status_t sched_unicast(const sched_t *s, sched_t *out);
/* *s stored in place: a generated one replaced by its expansion (unchanged
 * on failure), a stored one left as it is. */
lop_status_t sched_store(sched_t *s);
/* The largest P in 1..below-1 whose need(n_ops(P, n), P) is at most 'limit'
 * (need NULL: the op count itself), 0 if none; both must be non-decreasing
 * in P (barrier_alg_t.n_ops is; so is the checker's work). */
uint32_t sched_largest_p(uint64_t (*n_ops)(uint32_t p, uint32_t n), uint32_t n,
                         double (*need)(double n_ops, uint32_t p), uint32_t below, double limit);
/* Whom each rank of a stored schedule sends to: rank r's peers are
 * (*peers)[(*first)[r] .. (*first)[r + 1] - 1], sorted, -1 (first) for an
 * MCAST, which reaches every rank; free() both. */
lop_status_t sched_send_peers(const sched_t *s, uint32_t **first, int32_t **peers);
/* Does 'rank' send anything to 'to', by sched_send_peers' lists? */
int sched_sends_to(const uint32_t *first, const int32_t *peers, uint32_t rank, uint32_t to);

/* "diss", "ndiss with n = 2": an algorithm and its n, for messages. */
void sched_alg_label(const struct barrier_alg *alg, uint32_t n, char *buf, size_t len);

static inline const sched_op_t *sched_rank_ops(const sched_t *s, uint32_t rank)
{
    return s->op + s->first[rank];
}
static inline const sched_op_t *sched_rank_end(const sched_t *s, uint32_t rank)
{
    return s->op + s->first[rank + 1];
}
/* SCHED_DIGIT: main rank r's fold partners r + M, r + 2M, ... below P. */
static inline uint32_t sched_fold_partners(const sched_t *s, uint32_t rank)
{
    return (s->p - 1 - rank) / s->main;
}
static inline uint32_t sched_rank_count(const sched_t *s, uint32_t rank)
{
    if (s->form == SCHED_DIGIT)
        return rank >= s->main ? 2 : s->per_rank + 2 * sched_fold_partners(s, rank);
    return s->form ? s->per_rank : s->first[rank + 1] - s->first[rank];
}
/* Does every rank have rank 0's ops, moved (a generated form without a fold)? */
static inline int sched_uniform(const sched_t *s)
{
    return s->form && (s->form != SCHED_DIGIT || s->main == s->p);
}
/* The place value R^t of SCHED_DIGIT's move d = i R^t. */
static inline uint32_t sched_digit_span(const sched_t *s, uint32_t d)
{
    uint32_t span = 1;
    while (d / span >= s->radix)
        span *= s->radix;
    return span;
}
/* Rank r's peer by digit move d (SCHED_DIGIT): digit t of r up by i mod R. */
uint32_t sched_digit_peer(const sched_t *s, uint32_t rank, uint32_t d);
/* Op k of 'rank' of a SCHED_DIGIT schedule. */
sched_op_t sched_digit_op(const sched_t *s, uint32_t rank, uint32_t k);
/* Op k of 'rank', stored or generated (the only access a generated
 * schedule has: sched_rank_ops and sched_rank_end need a stored one). */
static inline sched_op_t sched_op_at(const sched_t *s, uint32_t rank, uint32_t k)
{
    if (s->form == SCHED_STORED)
        return s->op[s->first[rank] + k];
    if (s->form == SCHED_DIGIT)
        return sched_digit_op(s, rank, k);
    sched_op_t o = s->op[k];
    uint32_t d = (uint32_t)o.peer, q = s->form == SCHED_XOR ? rank ^ d : rank + d;
    o.peer = (int32_t)(q >= s->p && s->form == SCHED_SHIFT ? q - s->p : q);
    return o;
}

/* Do the two hold the same ops: P, every rank's ops in order (kind, peer,
 * step)?  Names, files and n are not compared. */
int sched_equal(const sched_t *a, const sched_t *b);

/* The largest number of ops of one rank. */
uint32_t sched_rank_max(const sched_t *s);

/* "send", "recv", "mcast" */
const char *sched_kind_name(sched_kind_t kind);
/* "rank 3 op 2 (recv from 5, step 1)" for messages; 'op' is a global index. */
void sched_op_describe(const sched_t *s, uint32_t op, char *buf, size_t len);
/* "FILE:LINE: " of op 'op' for a schedule read from a file, else "". */
const char *sched_op_file_line(const sched_t *s, uint32_t op, char *buf, size_t len);
/* lop_err(LOP_ERR_INVALID) "[FILE:LINE: ]schedule <alg>: <op described><rest>":
 * the printf-formatted rest continues the sentence (": reason", " names no rank"). */
lop_status_t sched_op_error(const sched_t *s, uint32_t op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The rank owning global op index 'op' (binary search). */
uint32_t sched_op_rank(const sched_t *s, uint32_t op);

/* ---- for generators (barrier algorithm files) ---- */

/* An empty schedule for p ranks; ranks are then filled in order 0..p-1. */
lop_status_t sched_init(sched_t *s, uint32_t p);
/* Append an op to the rank being built; failures are kept in s->error.
 * Inline while there is room (sched_build allocates the counted ops). */
void sched_push_grow(sched_t *s, sched_kind_t kind, int32_t peer, uint32_t step);
static inline void sched_push(sched_t *s, sched_kind_t kind, int32_t peer, uint32_t step)
{
    if (s->n_ops >= s->cap || s->error) {
        sched_push_grow(s, kind, peer, step);
        return;
    }
    s->op[s->n_ops++] = (sched_op_t){peer, step, kind};
    s->n_steps = step + 1 > s->n_steps ? step + 1 : s->n_steps;
}
/* Close the rank being built (the next pushes belong to rank + 1). */
void sched_end_rank(sched_t *s, uint32_t rank);

#endif
