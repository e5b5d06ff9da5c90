/*
 * pairs.h - heterogeneous LogP costs: a send overhead o_ij and a latency L_ij
 * for every ordered pair of ranks (Meyer and Elster, section IV: their P x P
 * matrices O and L).
 *
 * Two forms, one lookup (pairs_cost):
 *   - a matrix read from pairs.csv (long form i,j,o_us,L_us; src/fmt_pairs.h),
 *     e.g. measured by lopbench --pairs;
 *   - a synthetic machine: levels (nodes x sockets x cores, outermost first),
 *     a cost per level, and a rank placement.  The cost of a pair is that of
 *     the outermost level where the two ranks' places differ; no P x P matrix
 *     is built, the level follows from the two ranks.  The placement is
 *     arithmetic (size, stride, key_d below), not stored per rank, so the
 *     simulator's inner loop runs at millions of ranks without memory; where
 *     the places themselves are wanted (the hybrid barrier's tree),
 *     pairs_machine_place lays them out as lop's one placement type
 *     (src/place.h).
 * The receive overhead is the o of the message's pair (LogP has one o;
 * sched_sim_t.or_per_pair) or one number for every message (cost->logp:
 * the paper's O has no receive overhead, so its model is o_r = 0).  O_ii
 * (the paper's cost of an empty send) has no use in a schedule: no op
 * addresses its own rank.
 */
#ifndef LOP_PAIRS_H
#define LOP_PAIRS_H

#include <stdint.h>

#include "cli.h"
#include "csv.h"
#include "lop.h"
#include "place.h"

#define PAIRS_MAX_LEVELS 8

typedef enum {
    PAIRS_BLOCK, /* rank r on core r: consecutive ranks fill a socket, then a node */
    PAIRS_RR     /* round robin: rank r on node r mod N, then socket, then core */
} pairs_map_t;

typedef struct pairs {
    uint32_t p;         /* ranks described (0..p-1) */
    double *o_us;       /* matrix form: o_us[i * p + j], i sending to j; NULL for a machine */
    double *L_us;       /* the same for L */
    uint32_t n_levels;  /* machine form: levels, outermost first */
    uint32_t size[PAIRS_MAX_LEVELS];       /* places per level (8x2x4: 8, 2, 4) */
    uint32_t stride[PAIRS_MAX_LEVELS];     /* rank r's place at level k: r / stride[k] % size[k] */
    double level_o_us[PAIRS_MAX_LEVELS];   /* o of a pair that differs first at level k */
    double level_L_us[PAIRS_MAX_LEVELS];   /* L of such a pair */
    pairs_map_t map;    /* placement */
    /* Ranks i, j agree at levels 0..k iff their keys at k are equal: block,
     * r / stride[k]; round robin, r mod (size[0] ... size[k]).  key_d[k] is
     * that divisor or modulus, key_m[k] its magic number (2^64 / d + 1:
     * Lemire, Kaser and Kurz 2019, "Faster remainder by direct
     * computation"), so a pair's level takes a multiplication a level, not
     * two divisions. */
    uint32_t key_d[PAIRS_MAX_LEVELS];
    uint64_t key_m[PAIRS_MAX_LEVELS];
    const uint32_t *rank; /* a view (pairs_subset): rank i of the view is rank[i]; NULL: none */
    uint32_t base_p;    /* a view: the P of the costs it views (the matrix's row length) */
} pairs_t;

/* Rank r's key at level k (pairs_t.key_d). */
static inline uint32_t pairs_key(const pairs_t *c, uint32_t r, uint32_t k)
{
    if (c->key_d[k] == 1)
        return c->map == PAIRS_BLOCK ? r : 0;
    if (c->map == PAIRS_BLOCK) /* r / d */
        return (uint32_t)(((unsigned __int128)c->key_m[k] * r) >> 64);
    uint64_t low = c->key_m[k] * r; /* r mod d */
    return (uint32_t)(((unsigned __int128)low * c->key_d[k]) >> 64);
}

/* o_s and L of a message from rank i to rank j (both < c->p, i != j). */
static inline void pairs_cost(const pairs_t *c, uint32_t i, uint32_t j, double *o_us,
                              double *L_us)
{
    uint32_t row = c->p;
    if (c->rank) {
        i = c->rank[i];
        j = c->rank[j];
        row = c->base_p;
    }
    if (c->o_us) {
        *o_us = c->o_us[(uint64_t)i * row + j];
        *L_us = c->L_us[(uint64_t)i * row + j];
        return;
    }
    uint32_t k = 0;
    while (k + 1 < c->n_levels && pairs_key(c, i, k) == pairs_key(c, j, k))
        k++; /* pairs_level(), inline: this is the simulator's inner loop */
    *o_us = c->level_o_us[k];
    *L_us = c->level_L_us[k];
}

/* The outermost level where ranks i and j are placed apart (machine form;
 * the innermost level for i == j). */
uint32_t pairs_level(const pairs_t *c, uint32_t i, uint32_t j);

/* The places of ranks 0..p-1 of a machine (p <= c->p) as a placement: rank
 * r's place at level k is its node for k = 0, its socket in the node for
 * k = 1, ... (r / stride[k] % size[k]); levels "node", "socket", "core" for
 * three levels, else "level0", "level1", ...  The one way a machine's places
 * leave pairs_t. */
lop_status_t pairs_machine_place(const pairs_t *c, uint32_t p, lop_place_t *pl);

/* How many leading ranks cost alike: the largest q <= c->p such that every
 * ordered pair of ranks 0..q-1 costs what the pair 0 -> 1 costs (its o and
 * L into *o_us, *L_us; NaN when c->p < 2).  LogP's closed forms (thesis
 * 2.2.5) assume one o and one L, so they describe a schedule on ranks
 * 0..P-1 of these costs exactly when P <= q, and beyond it would mix two
 * machines' costs into one number.  A machine's q follows from its levels,
 * without visiting pairs; a matrix is scanned until the first pair that
 * differs. */
uint32_t pairs_uniform_p(const pairs_t *c, double *o_us, double *L_us);

/* A view of 'c' on n of its ranks: rank i of the view is ranks[i] of 'c'
 * (e.g. a group of the hybrid barrier, simulated with a schedule for n
 * ranks on the group's real costs).  Shares c's storage and 'ranks'; free
 * neither while the view is used, and do not pairs_free() the view. */
lop_status_t pairs_subset(const pairs_t *c, const uint32_t *ranks, uint32_t n, pairs_t *view);

/* A synthetic machine: 'spec' "8x2x4", per-level L and o (outermost first,
 * as many as levels), placement.  Errors name the options (--topology,
 * --level-L, --level-o). */
lop_status_t pairs_machine(pairs_t *c, const char *spec, const double *L_us, size_t n_L,
                           const double *o_us, size_t n_o, pairs_map_t map);

/* Read pairs.csv (the format and its checks: src/fmt_pairs.h) into the
 * matrix form.  Errors "file:line: reason". */
lop_status_t pairs_read(const char *path, pairs_t *c);

/* Write the costs of ranks 0..p-1 (p <= c->p) as pairs.csv (fmt_pairs.h's
 * lopredict form), atomically;
 * 'source' goes into the metadata. */
lop_status_t pairs_write(const pairs_t *c, uint32_t p, const char *path, const char *source);
/* The same file written into the temporary file of 'w' and left there: the
 * caller renames it into place with lop_csv_writer_end() once its run has
 * succeeded (or removes it), so a refused or failed run leaves no file. */
lop_status_t pairs_write_begin(const pairs_t *c, uint32_t p, const char *path,
                               const char *source, lop_csv_writer_t *w);

/* The bytes of pairs_write's file, about: the rows' indices exactly, their
 * costs as long on average as rank 0's (a machine's levels repeat alike for
 * every rank).  p * (p - 1) rows: 4.3e9 at p = 65536, some 110 GB. */
uint64_t pairs_write_size(const pairs_t *c, uint32_t p);

void pairs_free(pairs_t *c);

/* ---- the command line's view (lopredict --costs, --topology, ...) ---- */

typedef struct {
    const char *costs;                  /* --costs FILE, or NULL */
    const char *topology;               /* --topology SPEC, or NULL */
    lop_cli_reals_t level_L_us;         /* --level-L values (count 0: not given) */
    lop_cli_reals_t level_o_us;         /* --level-o values (count 0: not given) */
    pairs_map_t map;                    /* --map */
    int map_given;                      /* was --map given? */
} pairs_opts_t;

/* The costs the options ask for into *c (*have = 1), or none (*have = 0).
 * Errors name the option: --costs with --topology, level or map options
 * without --topology, --topology without both level lists. */
lop_status_t pairs_from_opts(const pairs_opts_t *po, pairs_t *c, int *have);

#endif
