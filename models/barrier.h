/*
 * barrier.h - barrier algorithms as const descriptors, and their costs.
 *
 * Each algorithm lives in one file models/alg_<name>.c that defines a
 * barrier_alg_t: how each rank's schedule is generated (sched.h), how many
 * rounds it takes, and its closed-form cost in LogP (thesis 2.1.4.4, 2.2)
 * and LoP (thesis 2.3.7).  models/algs.c lists them; adding an algorithm is
 * one file and one row.  The checker and the simulator are drivers over the
 * schedules; lopredict and lopbench look algorithms up by name.
 *
 * Notation of thesis 2.1.4.5 used by the LogP forms:
 *   t1 = o_s + L + o_r (one message), f_s = max{o_s, g}, f_r = max{o_r, g},
 *   t_r = t_s = max{g, o_s + L + o_r}.
 * LoP forms (2.3.7.1) use o(x) and L(x) of a parameter set evaluated at
 * x = cnt * (messages of the stream); see models/README.md.
 */
#ifndef LOP_BARRIER_H
#define LOP_BARRIER_H

#include <stdint.h>
#include <stdio.h>

#include "lop.h"
#include "view.h"
#include "sched.h"

/* The LogP parameters (thesis 2.1.4.4), all in microseconds. */
typedef struct {
    double L_us;  /* network latency */
    double os_us; /* send overhead */
    double or_us; /* receive overhead */
    double g_us;  /* gap between consecutive messages of one processor */
} logp_t;

/* Everything a closed form may need.  The LoP part records the range of p at
 * which o(p) and L(p) were evaluated, for the extrapolation warning. */
typedef struct {
    logp_t logp;
    unsigned links;         /* m of thesis 2.2.6: independent links (1 = one) */
    const lop_view_t *lop;   /* LoP parameters; NULL when not needed */
    double cnt;             /* barriers run back to back (thesis 2.3.7.1) */
    double lop_pmin;        /* smallest p o()/L() was evaluated at (starts +inf) */
    double lop_pmax;        /* largest p o()/L() was evaluated at (starts -inf) */
    /* hardware barriers (thesis 3.1.1.3, 3.2.2): o_p(P) = const + per_p*P + per_log2p*log2 P */
    double op_const_us;     /* o_p(P) constant part */
    double op_per_p_us;     /* o_p(P) slope per host (thesis 3.2.2.1: 0.01 us) */
    double op_per_log2p_us; /* o_p(P) slope per log2 P (switch logic, 3.1.1.3) */
    double ow_us;           /* hwnet: CPU overhead to write the port (3.2.2.1: 1.2 us) */
    double hw_or_us;        /* hwnet: CPU overhead to read the port (3.2.2.1: 1.2 us) */
} barrier_cost_t;

/* Default cost parameters (thesis values for the hardware part, links = 1,
 * cnt = 1, no LoP set); the caller fills logp and lop. */
void barrier_cost_init(barrier_cost_t *c);

/* The cheapest costs a lower bound of a simulated time may assume
 * (hybrid_flat.c gives them from a machine's per-pair costs): o and L of
 * any message between a rank r that is a multiple of k^(t+1) and r + i k^t
 * below P (a k-nomial tree's leader and its member i at level t; a binomial
 * tree's parent and child: k = 2, i = 1), and the receive overhead of a
 * message whose cheapest o is o. */
typedef struct barrier_least {
    void (*aligned)(const struct barrier_least *b, uint64_t k, uint32_t t, uint64_t i,
                    double *o_us, double *L_us);
    double (*recv_o)(const struct barrier_least *b, double o_us);
} barrier_least_t;

enum {
    BARRIER_COST_ONLY = 1, /* no schedule: a hardware barrier with a cost formula only */
    BARRIER_HYBRID = 2     /* schedule built from per-pair costs (hybrid.h); not in barrier_algs */
};

typedef struct barrier_alg {
    const char *name;      /* --alg name */
    const char *title;     /* "n-way dissemination" */
    const char *cite;      /* sources of the algorithm and its formulas */
    int takes_n;           /* does --n apply? */
    const char *n_meaning; /* what n is ("group size"), NULL if !takes_n */
    uint32_t default_n;    /* n used when none is given (and always when !takes_n) */
    unsigned flags;        /* BARRIER_COST_ONLY */
    /* Number of rounds (steps of the schedule) for p ranks. */
    uint32_t (*rounds)(uint32_t p, uint32_t n);
    /* Append the ops of 'rank' to s (sched_push); NULL when cost-only. */
    void (*build_rank)(sched_t *s, uint32_t p, uint32_t n, uint32_t rank);
    /* The schedule's number of ops for p ranks, from the rule without
     * building it, so limits are said before any work; NULL when cost-only.
     * Non-decreasing in p, so a search finds the largest p that fits; ndiss
     * alone dips where its last round drops offsets (n = 2: P = 17 has 204
     * ops, P = 18 180), and there the p named fits and p + 1 does not. */
    uint64_t (*n_ops)(uint32_t p, uint32_t n);
    /* SCHED_SHIFT, SCHED_XOR or SCHED_DIGIT where every rank's ops are rank
     * 0's with the peers moved by the rank (sched.h; DIGIT: with a fold),
     * so the simulator generates them from rank 0's (sched_generate);
     * SCHED_STORED or NULL: none. */
    sched_form_t (*symmetry)(uint32_t p, uint32_t n);
    /* SCHED_DIGIT's radix R at n (the exchanges change base-R digits). */
    uint32_t (*radix)(uint32_t n);
    /* A lower bound of the schedule's simulated LogP time at p, n (program
     * order, g >= 0) on the costs b allows, without building it: summed as
     * the simulator sums, of numbers no larger (models/README.md); NULL:
     * none.  test_hybrid_flat holds each below the simulation. */
    double (*flat_bound)(const barrier_least_t *b, uint32_t p, uint32_t n);
    /* Closed forms in microseconds. */
    double (*logp_us)(barrier_cost_t *c, uint32_t p, uint32_t n);
    double (*lop_us)(barrier_cost_t *c, uint32_t p, uint32_t n);
    const char *logp_note; /* when the LogP form is exact for the schedule, and why not otherwise */
    const char *lop_note;  /* the same for the LoP form */
    /* The notes as rules: is the closed form exact for the schedule at (p, n),
     * the simulation equal to it (n as barrier_alg_n gives it; P = 1, no
     * message, is always exact); NULL: at no P > 1.  LogP: given g <= o_s+L+o_r.
     * LoP: for o() and L() that fall with their argument (cc: while
     * o((P-1)cnt) <= L((P-1)cnt)); under constant o and L the LoP form is
     * exact also wherever the LogP form is.  tests/unit/test_sim.c holds
     * every algorithm to them at P = 1..200, n = 1..6. */
    int (*logp_exact)(uint32_t p, uint32_t n);
    int (*lop_exact)(uint32_t p, uint32_t n);
    /* Where lop_exact does not hold: the range of LoP form / simulation under
     * o() and L() that fall with their argument (test_sim.c's pipelining
     * set, measured at P = 2..200, n = 1..6, with a margin of ~3 %); 0, 0
     * where the form is exact at every P. */
    double lop_band_lo, lop_band_hi;
} barrier_alg_t;

/* All algorithms with a schedule or a cost formula, NULL-terminated, in
 * --alg all order. */
extern const barrier_alg_t *const barrier_algs[];
/* --alg hybrid (alg_hybrid.c): name, title and citation; no closed forms
 * (NAN), no build_rank (hybrid_build, hybrid.h, makes its schedule from
 * per-pair costs).  Not in barrier_algs. */
extern const barrier_alg_t barrier_alg_hybrid;
/* By name, barrier_algs' or "hybrid"; NULL for an unknown one.  The one way
 * from a name to an algorithm. */
const barrier_alg_t *barrier_alg_find(const char *name);
/* --OPT's item 'name' (an algorithm or "hybrid") appended to 'list' (*n of
 * at most 'max'): an unknown name and one too many are errors naming the
 * option (lop_cli_items refuses a name twice). */
lop_status_t barrier_alg_list_add(const char *opt, const char *name, const barrier_alg_t **list,
                                  size_t *n, size_t max);
/* The n an algorithm is run with: 'n' if it takes one, else its default. */
uint32_t barrier_alg_n(const barrier_alg_t *alg, uint32_t n);
/* lopredict --list-algs [--csv]: one row per algorithm of barrier_algs, its
 * descriptor's fields (columns in predict/README.md); the texts (title, n's
 * meaning, the notes) last, in CSV quoted as RFC 4180 says where they hold a
 * comma. */
lop_status_t barrier_algs_print(FILE *out, int csv);

/* ---- integer helpers (no floating-point logs: they get P = 9, n = 2 wrong) ---- */

/* k^e, saturated at UINT64_MAX. */
uint64_t barrier_ipow(uint64_t k, uint32_t e);
/* ceil(log_k p): the smallest r with k^r >= p (k >= 2, p >= 1). */
uint32_t barrier_ceil_log(uint64_t p, uint64_t k);
/* floor(log_k p): the largest r with k^r <= p (k >= 2, p >= 1). */
uint32_t barrier_floor_log(uint64_t p, uint64_t k);
/* Is p a power of two (p >= 1)? */
int barrier_power_of_two(uint32_t p);
/* Is p a power of k (k^0 = 1 included; p >= 1, k >= 2)? */
int barrier_power_of(uint64_t p, uint64_t k);

/* ---- exactness rules shared by several descriptors (logp_exact, lop_exact) ---- */

int barrier_exact_always(uint32_t p, uint32_t n);         /* every P */
int barrier_exact_p_power_of_two(uint32_t p, uint32_t n); /* P = 2^k */
int barrier_exact_p_power_of_n1(uint32_t p, uint32_t n);  /* P = (n+1)^k */

/* ---- LogP building blocks (thesis 2.1.4.5) ---- */

double logp_t1(const logp_t *m); /* o_s + L + o_r */
double logp_fs(const logp_t *m); /* max{o_s, g} */
double logp_fr(const logp_t *m); /* max{o_r, g} */
double logp_tr(const logp_t *m); /* max{g, o_s + L + o_r} (= t_s) */

/* ---- LoP building blocks (thesis 2.3.7) ---- */

/* o(cnt * msgs) and L(cnt * msgs) of c->lop, recording the range used. */
double barrier_lop_o(barrier_cost_t *c, double msgs);
double barrier_lop_L(barrier_cost_t *c, double msgs);
/* A hardware multicast to 'receivers' ranks measured as a series
 * (src/view.h lop_view_Lmcast): 1 and its post's o and its L, recording the
 * range used; 0 where the set has none (then a multicast is one post whose L
 * is taken per receiver).  Not times cnt: one multicast per barrier, as
 * lopbench measures it. */
int barrier_lop_mcast(barrier_cost_t *c, double receivers, double *o_us, double *L_us);

/* ---- hardware barriers (thesis 3.1.1.3, 3.2.2) ---- */

/* o_p(P) = op_const + op_per_p P + op_per_log2p ceil(log2 P). */
double barrier_hw_op_us(const barrier_cost_t *c, uint32_t p);
/* rounds() of a cost-only barrier: one. */
uint32_t barrier_one_round(uint32_t p, uint32_t n);

/* ---- shared pieces of the tree algorithms (tree.c) ---- */

/* Gather over the k-nomial tree rooted at 0 (k >= 2): at level j a rank whose
 * k-ary digit j is non-zero (and all lower ones zero) sends to the rank with
 * that digit cleared, which receives its k-1 members; level j is step j.
 * Returns the number of levels, ceil(log_k p). */
uint32_t tree_knomial_gather(sched_t *s, uint32_t p, uint32_t k, uint32_t rank);
/* Binomial broadcast from rank 0 (largest subtree first) in steps
 * step0 .. step0 + ceil(log2 p) - 1: the release of thesis 2.2.1. */
void tree_binomial_bcast(sched_t *s, uint32_t p, uint32_t rank, uint32_t step0);
/* 'levels' levels of a gather in which 'fan' reports reach their parent
 * together: LogP levels (o_s + L + o_r + (fan-1) f_r) (the level of 2.2.5.2)
 * and LoP levels (o(levels) + fan L(fan levels)) (t_fan:1 of 2.3.7 at the
 * stream of all levels, as 2.3.7.1.2). */
double tree_gather_logp(barrier_cost_t *c, double levels, double fan);
double tree_gather_lop(barrier_cost_t *c, double levels, double fan);
/* Ops of a gather tree and the binomial broadcast: every rank but 0 sends
 * one report and receives one release, 4 (p - 1) (cc, comb, mcs, bst, ...). */
uint64_t tree_n_ops(uint32_t p, uint32_t n);
/* t_bc(P) in LogP: the binomial broadcast over p ranks (2.2.5.2, see README). */
double tree_bcast_logp(barrier_cost_t *c, uint32_t p);
/* t_bc in LoP (thesis 2.3.7.1.2). */
double tree_bcast_lop(barrier_cost_t *c, uint32_t p);
/* Lower bounds on b's costs: when rank 0 of tree_knomial_gather over p
 * ranks has taken its last report; when the last rank of
 * tree_binomial_bcast over p ranks has its release, rank 0 starting at
 * 'start'. */
double tree_knomial_bound(const barrier_least_t *b, uint32_t p, uint64_t k);
double tree_bcast_bound(const barrier_least_t *b, uint32_t p, double start);
/* The flat_bound of a tree whose gather ends at rank 0 no sooner than 0
 * (bst, mcs): the broadcast's bound from 0. */
double tree_bcast_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n);

/* ---- algorithms whose functions other descriptors reuse ---- */

/* Combining tree with group size max(n, 2) (alg_comb.c); tour and ftour. */
uint32_t comb_rounds(uint32_t p, uint32_t n);
void comb_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank);
double comb_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n);
double comb_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n);
/* P a power of the group size and of 2: every group full, the broadcast too. */
int comb_logp_exact(uint32_t p, uint32_t n);
/* The gather's bound, then the broadcast's from it (tree.c). */
double comb_flat_bound(const barrier_least_t *b, uint32_t p, uint32_t n);
/* What ftour's descriptor shares with comb's, the same tree (thesis
 * 2.2.1.4): the functions above, n, the LoP note and its band; each adds
 * its name, title, citation, n's meaning and LogP note. */
#define BARRIER_COMB_TREE                                                                       \
    .takes_n = 1, .default_n = 4, .rounds = comb_rounds, .build_rank = comb_build_rank,        \
    .n_ops = tree_n_ops, .logp_us = comb_logp_us, .lop_us = comb_lop_us,                       \
    .flat_bound = comb_flat_bound, .logp_exact = comb_logp_exact,                              \
    .lop_note = "thesis form: every level evaluated at the root's stream; not exact",          \
    .lop_band_lo = 0.92, .lop_band_hi = 2.35
/* n-way dissemination (alg_ndiss.c); diss is n = 1. */
uint32_t ndiss_rounds(uint32_t p, uint32_t n);
void ndiss_build_rank(sched_t *s, uint32_t p, uint32_t n, uint32_t rank);
uint64_t ndiss_n_ops(uint32_t p, uint32_t n);
sched_form_t ndiss_symmetry(uint32_t p, uint32_t n);
/* SCHED_XOR for P a power of two (bfly, pe: partners i XOR 2^s), else none. */
sched_form_t barrier_xor_if_power_of_two(uint32_t p, uint32_t n);
double ndiss_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n);
double ndiss_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n);
/* Unless the last round drops offsets (always for n = 1). */
int ndiss_exact(uint32_t p, uint32_t n);

#endif
