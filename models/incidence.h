/*
 * incidence.h - a schedule as Meyer and Elster's incidence matrices (section
 * V): stage a is the boolean P x P matrix S_a with S_a[i][j] = 1 when rank i
 * signals rank j in step a (an MCAST signals every other rank).
 *
 * Their validity test: K_0 = I, K_a = K_(a-1) + K_(a-1) S_a (boolean), a
 * barrier iff the last K has no zero.  It lets knowledge travel one hop per
 * stage, so it is sufficient but stricter than lop's checker
 * (sched_check.h), which follows it message by message: a rank that
 * receives and forwards within one step passes on more than the matrices
 * say.  For lop's algorithms (default n, P = 2..32) the two agree
 * (tests/unit/test_pairs.c).
 *
 * Their cost (section VI) is a critical path over the matrices weighted by
 * the pair costs.  Here in LogP terms: in stage a each rank i, from its time
 * T_i, sends to its targets j in ascending order, o_ij each; the message
 * arrives L_ij after its overhead ends; a rank then takes its messages in
 * ascending sender order, o_r each, each no earlier than its arrival.  With
 * g = 0 this is exactly lop's LogP simulation of the same schedule whenever
 * in each step every rank posts its sends, in ascending order, before its
 * receives, which it takes in ascending order (diss, cc, tour, bst, pe; with
 * o_r = 0 the receive order does not matter).  The paper's equation 1 (max
 * O + sum L for a set of signals) charges the latency once per message as a
 * pipeline instead: a different model, not lop's LogP.
 *
 * Dense matrices: for tests and small P (P^2 bytes per stage).
 */
#ifndef LOP_INCIDENCE_H
#define LOP_INCIDENCE_H

#include <stdint.h>

#include "lop.h"
#include "pairs.h"
#include "sched.h"

typedef struct {
    uint32_t p;       /* ranks */
    uint32_t stages;  /* the schedule's steps */
    uint8_t *s;       /* s[(a * p + i) * p + j]: does i signal j in stage a? */
} incidence_t;

/* The matrices of 's' (P <= 4096). */
lop_status_t incidence_from_sched(const sched_t *s, incidence_t *m);
void incidence_free(incidence_t *m);

static inline int incidence_at(const incidence_t *m, uint32_t a, uint32_t i, uint32_t j)
{
    return m->s[((uint64_t)a * m->p + i) * m->p + j];
}

/* The closure K after all stages: 1 if every entry is non-zero. */
int incidence_is_barrier(const incidence_t *m);

/* The critical path in us (above) with per-pair o and L and one o_r. */
double incidence_critical_path(const incidence_t *m, const pairs_t *c, double or_us);

#endif
