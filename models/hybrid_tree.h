/*
 * hybrid_tree.h - private to the hybrid barrier's files (hybrid*.c): the
 * tree's layout, shared by the tree (hybrid_tree.c), the phases and their
 * composition (hybrid_phase.c) and the search (hybrid_search.c).
 */
#ifndef LOP_HYBRID_TREE_H
#define LOP_HYBRID_TREE_H

#include "hybrid.h"

typedef struct {
    uint32_t n_groups;
    uint32_t *start;  /* group g: member[start[g] .. start[g+1]-1]; n_groups + 1 entries */
    uint32_t *member; /* real ranks, ascending in a group (the leader first) */
    char name[16];    /* the level whose places tell the members apart */
} tier_t;

struct hybrid_tree {
    uint32_t p;
    uint32_t n_tiers;
    tier_t tier[HYBRID_MAX_LEVELS + 1];
};

/* The local schedule of 'c' for a group of k of the p_all ranks: the whole
 * schedule (an MCAST refused where the group is not every rank) or its
 * arrival phase; LOP_ERR_INVALID where it has none. */
lop_status_t hybrid_local_build(const hybrid_choice_t *c, uint32_t k, uint32_t p_all,
                                sched_t *out);
/* An arrival phase's departure, after the arrival itself when 'both' (a
 * whole local barrier: the top's arrival + departure). */
lop_status_t hybrid_local_phases(const sched_t *arrival, int both, sched_t *out);
/* Simulated time of 's' under 'sim' on 'pairs' (a group's view or all ranks). */
lop_status_t hybrid_sim_us(const sched_sim_t *sim, const sched_t *s, const pairs_t *pairs,
                           double *us);
/* A lower bound of the simulated time of a generated schedule (SCHED_SHIFT,
 * SCHED_XOR, SCHED_DIGIT with its fold) on sim->pairs: each slot's messages
 * at their cheapest; 0 where it does not apply (a stored schedule, receives
 * in arrival order). */
double hybrid_flat_bound(const sched_sim_t *sim, const sched_t *s);
/* The algorithm's own lower bound (barrier_alg_t.flat_bound) of its
 * simulated time at p, n on sim->pairs, before anything is built; 0 where
 * it has none or it does not apply (receives in arrival order). */
double hybrid_alg_bound(const sched_sim_t *sim, const barrier_alg_t *alg, uint32_t p, uint32_t n);
/* The fastest flat algorithm of 'algs' over ranks 0..p-1 into res->flat,
 * res->flat_us (hybrid_flat.c; the first in algs' order of equal times);
 * res->flat_skipped, _bounded, _stopped.  Its schedule into *best, as
 * sched_generate made it (best->p 0 when there is none). */
lop_status_t hybrid_flat_best(const sched_sim_t *sim, const barrier_alg_t *const *algs,
                              uint32_t p, hybrid_result_t *res, sched_t *best);
/* The search of hybrid_build on a tree of ranks 0..p-1 (hybrid_search.c):
 * greedy, the best flat algorithm and the per-tier search; the winner into
 * *res, proved a barrier. */
lop_status_t hybrid_search(const hybrid_tree_t *tree, const sched_sim_t *sim,
                           const barrier_alg_t *const *algs, uint32_t p, hybrid_result_t *res);

#endif
