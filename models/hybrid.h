/*
 * hybrid.h - topology-aware hybrid barriers (Meyer and Elster, section VII).
 *
 * A placement (src/place.h) gives every rank its place at each level,
 * outermost first (host, socket, numa, core; or the levels of a synthetic
 * machine, pairs_machine_place).  It makes a tree: a group of tier t is the
 * set of ranks with equal places at levels 0..t-1; its children are the sets
 * that also agree at level t (at the last tier: single ranks); its members
 * are the children's leaders (a leader is its set's lowest rank), and its
 * own leader, member 0, is the lowest rank.  Tiers in which no group has
 * two children are dropped.
 *
 * Per group, one of lop's schedule algorithms (with its n) runs over the
 * group's members, virtual rank v being member v:
 *   - arrival phase (every tier): the causal cone of the algorithm's
 *     schedule towards the leader - the ops that happen before the leader's
 *     first op after which it knows every member arrived, less the sends
 *     whose receive is not among them.  For the trees (cc, comb, tour,
 *     ftour, mcs, bst, rgm) it is their gather; for the exchanges (diss,
 *     ndiss, bfly, pe, nwise) their ops that reach the leader in time.  A
 *     cone holding an MCAST is no arrival phase (rgm's MCAST is its release
 *     and never in it);
 *   - departure phase: the arrival phase reversed and transposed (every
 *     rank's ops in reverse order, sends and receives swapped): knowledge
 *     flows back along the same edges, from the leader to every member;
 *   - at the top tier also the whole schedule, a full barrier with no
 *     departure (the paper's top-level dissemination).
 * The barrier is the arrival phases bottom-up, the top group's barrier, the
 * departures top-down; each phase takes its own steps.  It is an ordinary
 * sched_t ("hybrid"), proved a barrier before it is returned (hybrid_prove:
 * from its parts, at any size; the checker on the whole too where cheap).
 *
 * Choosing: greedy (the paper) takes per group the algorithm whose arrival
 * phase simulates fastest on the group's real per-pair costs (at the top:
 * whose whole barrier, or arrival plus departure, is fastest).  The search
 * then evaluates whole hybrids with one choice per tier for all groups of
 * the tier: every combination with up to HYBRID_EXHAUSTIVE_TIERS tiers
 * (branch and bound: a candidate's local time is a lower bound of any
 * hybrid using it, so combinations that cannot win are skipped), else
 * coordinate descent from greedy until no single-tier change improves.
 * Every flat algorithm over all ranks is a candidate too, so the result is
 * never slower than the best flat algorithm, nor than greedy; one whose
 * schedule is generated is first bounded and not simulated where it cannot
 * be the fastest (hybrid_flat.c).  The parts: hybrid.c (per-level costs
 * too), hybrid_tree.c, hybrid_phase.c, hybrid_search.c, hybrid_flat.c,
 * hybrid_prove.c.
 */
#ifndef LOP_HYBRID_H
#define LOP_HYBRID_H

#include <stdint.h>

#include "barrier.h"
#include "lop.h"
#include "pairs.h"
#include "place.h"
#include "sched.h"
#include "sched_sim.h"

#define HYBRID_MAX_LEVELS LOP_PLACE_MAX_LEVELS /* levels a tree is built on; its tiers:
                                                  one more, down to single ranks */
#define HYBRID_EXHAUSTIVE_TIERS 4  /* up to this many tiers the search is exhaustive */
#define HYBRID_MAX_N 8             /* n = 1..8 of algorithms that take one (as --best) */
#define HYBRID_CHECK_WHOLE 1e8     /* word operations up to which the checker also checks
                                      the composed whole (about 0.1 s), beside the proof */

/* One algorithm at one tier. */
typedef struct {
    const barrier_alg_t *alg; /* NULL: none chosen */
    uint32_t n;               /* its n (the default for algorithms without one) */
    int whole;                /* the whole schedule (top tier only), else arrival + departure */
} hybrid_choice_t;

typedef struct {
    sched_t sched;         /* the barrier found, checked; alg "hybrid"; a flat one in the
                              simulator's form (sched_generate: sched_expand for every
                              rank's ops) */
    double us;             /* its simulated time */
    double greedy_us;      /* the paper's greedy hybrid's time */
    double flat_us;        /* the best flat algorithm's time */
    hybrid_choice_t flat;  /* which one */
    uint32_t flat_skipped; /* flat candidates too large to simulate at P (sched_generate_limit) */
    uint32_t flat_stopped; /* flat candidates whose simulation stopped once past the best
                              so far (sched_sim_t.give_up_us) */
    uint32_t flat_bounded; /* flat candidates not simulated: their lower bound (a generated
                              schedule's slots at their cheapest) is no faster than the best */
    const char *how;       /* where the result came from: "greedy", "search" or "flat" */
    uint32_t n_tiers;      /* tiers of the tree (0 for one rank) */
    char config[256];      /* the result: "node:diss(full) socket:tour core:comb(n=4)" */
    char greedy[256];      /* greedy's choices ("a|b" where groups of a tier differ) */
    int exhaustive;        /* 1: every combination was covered, 0: local search */
    const char *proof;     /* how it is known a barrier: "rule+checker", "rule" (hybrid_prove
                              alone: the checker on the whole would be costly), "checker" (a
                              flat result), "construction" (a flat one too large to check
                              cheaply: the algorithm's, as every flat --simulate row) */
    uint64_t evaluated;    /* whole hybrids simulated by the search */
    uint64_t pruned;       /* combinations skipped by the bound */
    double search_s;       /* wall time of the whole construction */
} hybrid_result_t;

/* The hybrid barrier for ranks 0..p-1 of 'pl' on the per-pair costs of
 * sim->pairs (required, LogP; sim->cost gives o_r and g).  'algs' are the
 * candidate algorithms, NULL-terminated (cost-only ones are skipped); NULL:
 * every algorithm of barrier_algs. */
lop_status_t hybrid_build(const lop_place_t *pl, uint32_t p, const sched_sim_t *sim,
                          const barrier_alg_t *const *algs, hybrid_result_t *res);
void hybrid_result_free(hybrid_result_t *res);

/* Per-pair costs of the first p ranks of a placement from costs per level:
 * a pair costs L_us[k], o_us[k] of the outermost level k where the two
 * ranks' places differ (k = n_levels: the same place at every level, e.g.
 * two ranks on one core; n values must cover levels 0..n_levels).  A
 * matrix (pairs_read's form), p x p. */
lop_status_t hybrid_place_costs(const lop_place_t *pl, uint32_t p, const double *L_us,
                                const double *o_us, pairs_t *c);

/* lopbench --alg hybrid: costs per level of placement.csv (host, socket,
 * numa, core, one core) when no pairs.csv is given - the paper's ratios:
 * about 4x from a core's neighbours to the other socket (its figure 9),
 * about 4x again to another node (3.0, 0.8, 0.2 us). */
#define HYBRID_DEFAULT_L_US {3.0, 0.8, 0.8, 0.2, 0.2}
#define HYBRID_DEFAULT_O_US {0.5, 0.3, 0.3, 0.1, 0.1}

/* The hybrid for ranks 0..p-1 as lopbench builds it: levels from a
 * placement (the run's own, or placement.csv's), costs from pairs.csv
 * (NULL: HYBRID_DEFAULT_*), o_r = g = 0 (the paper's O has no receive
 * part); checked.  Errors name the file. */
lop_status_t hybrid_from_place(const char *pairs_path, const lop_place_t *pl, uint32_t p,
                               hybrid_result_t *res);

/* ---- the pieces, for tests and tools ---- */

/* The arrival phase of 's' towards rank 0 (above) into *out.
 * LOP_ERR_INVALID when rank 0 never learns of every rank or the cone holds
 * an MCAST. */
lop_status_t hybrid_arrival(const sched_t *s, sched_t *out);

typedef struct hybrid_tree hybrid_tree_t; /* the tiers and groups of ranks 0..p-1 */

lop_status_t hybrid_tree_new(const lop_place_t *pl, uint32_t p, hybrid_tree_t **tree);
void hybrid_tree_free(hybrid_tree_t *tree);
uint32_t hybrid_tree_tiers(const hybrid_tree_t *tree);
uint32_t hybrid_tree_p(const hybrid_tree_t *tree); /* its ranks: 0..p-1 */
uint32_t hybrid_tree_groups(const hybrid_tree_t *tree, uint32_t tier);
/* Members of group g of tier t (real ranks, leader first) and their count. */
const uint32_t *hybrid_tree_members(const hybrid_tree_t *tree, uint32_t tier, uint32_t g,
                                    uint32_t *count);
/* The barrier with choice[k] for group k counted over the tiers in order
 * (tier 0's group first); whole is honoured at tier 0 only.  Not checked. */
lop_status_t hybrid_compose(const hybrid_tree_t *tree, const hybrid_choice_t *choice,
                            sched_t *out);

/* One group's local schedule, on virtual ranks 0..k-1 (its members in
 * order): an arrival phase, whose reversal is the departure, or at tier 0
 * with 'whole' a barrier of the group. */
typedef struct {
    const sched_t *local;
    int whole;
} hybrid_piece_t;

/* The barrier of the pieces, one per group counted over the tiers in order
 * (hybrid_compose builds its pieces from choices).  Not checked. */
lop_status_t hybrid_compose_pieces(const hybrid_tree_t *tree, const hybrid_piece_t *piece,
                                   sched_t *out);
/* An arrival phase's departure: every rank's ops reversed, sends and
 * receives swapped, steps mirrored. */
lop_status_t hybrid_departure(const sched_t *arrival, sched_t *out);

/* The proof (hybrid_prove.c) that hybrid_compose_pieces(tree, piece) is a
 * barrier, without composing or checking it whole: the groups' members
 * partition the ranks tier by tier (union-find up the tiers ends with one
 * set of all P ranks), every arrival is a gather to its group's member 0,
 * every departure a broadcast from it, a whole top a barrier (the checker on
 * each distinct local schedule, of at most a group's ranks).  The
 * composition adds the rest: phases run in one order on every rank (a
 * rank's arrivals inside out, the top, its departures outside in), a phase's
 * messages stay in its group, and two ranks share at most one group, so no
 * message crosses phases; then each leader knows its subtree after its
 * arrival, the top everyone, and the departures spread that down.  The
 * same verdicts as sched_check on the composed schedule: tested against it
 * for every P up to 4096 (16x4x64 block), 1024 (round robin) and 512 (three
 * more machines and placements), broken pieces too
 * (tests/unit/test_hybrid_prove.c).  LOP_ERR_INVALID saying which part fails. */
lop_status_t hybrid_prove(const hybrid_tree_t *tree, const hybrid_piece_t *piece);

#endif
