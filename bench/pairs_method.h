/*
 * pairs_method.h - the methods of lopbench --pairs (pairs_mode.h), one
 * descriptor each, as the barrier algorithms are: what its files say it
 * measures, how it measures one direction of a pair, and the diagonal O_ii
 * where it has one.
 *
 *   pairs_issend.c  the paper's MPI_Issend method (Meyer and Elster IV.A)
 *   pairs_series.c  lop's own series over the transport (scenarios 1 and 2)
 */
#ifndef LOP_PAIRS_METHOD_H
#define LOP_PAIRS_METHOD_H

#include <mpi.h>

#include "bench_opts.h"
#include "scenario.h"

enum {
    LOP_PAIRS_N_SIZES = 21,  /* issend o: 1, 2, 4 .. 2^20 bytes (the paper's range) */
    LOP_PAIRS_MAX_MSGS = 32  /* issend L: k = 1..32 messages (the paper's) */
};

/* What one ordered pair measured: per statistic (lop_pairs_stat_t), o and L
 * (and a series' RTT(1); NaN for issend). */
typedef struct {
    double o[LOP_PAIRS_STAT_COUNT], L[LOP_PAIRS_STAT_COUNT], rtt[LOP_PAIRS_STAT_COUNT];
} lop_pairs_cost_t;

/* What a method measures with. */
typedef struct {
    lop_bench_t *b;                   /* every rank, its transport and timer */
    const lop_bench_opts_t *opts;     /* --reps, --warmup */
    int P;                            /* ranks */
    unsigned char *sendbuf, *recvbuf; /* payloads, 2^(LOP_PAIRS_N_SIZES-1) bytes */
    double *scratch;                  /* --reps samples of one point */
    MPI_Request *req;                 /* max(P, LOP_PAIRS_MAX_MSGS) requests */
} lop_pairs_ctx_t;

/* One file's series: for a series method its (op, post) and name. */
typedef struct {
    lop_op_t op;
    lop_post_t post;
    const char *series;
} lop_pairs_series_t;

typedef struct {
    const char *definition; /* "# definition:" of its files */
    const char *mpi_only;   /* one file, pairs.csv, over MPI whatever --transport, and
                             * its transport_choice; NULL: a file per --ops x --post */
    /* The direction sender -> peer over the two-rank communicator 'pair'
     * (both ranks call it); the sender's costs into *c. */
    lop_status_t (*measure)(lop_pairs_ctx_t *x, MPI_Comm pair, int sender, int peer,
                            const lop_pairs_series_t *series, lop_pairs_cost_t *c);
    /* O_ii, every rank at once (its own into *c); NULL: none. */
    lop_status_t (*diagonal)(lop_pairs_ctx_t *x, lop_pairs_cost_t *c);
} lop_pairs_method_desc_t;

extern const lop_pairs_method_desc_t lop_pairs_issend, lop_pairs_series;

#endif
