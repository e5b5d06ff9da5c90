/*
 * Barrier logic in the switch (thesis 3.1.1): every host sends one barrier
 * packet to the switch, which answers all of them once every port has
 * arrived.  Cost only (3.1.1.3): t_b = o_s + 2 L + o_p(P) + o_r, with
 * o_p(P) = const + per_p P + per_log2p ceil(log2 P) from the options.
 */
#include "barrier.h"

static double hwswitch_logp_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    const logp_t *m = &c->logp;
    return m->os_us + 2 * m->L_us + barrier_hw_op_us(c, p) + m->or_us;
}

/* The same with the LoP send overhead and latency of single messages,
 * o(cnt) + 2 L(cnt) + o_p(P); LoP charges no receive overhead (2.3.4). */
static double hwswitch_lop_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    return barrier_lop_o(c, 1) + 2 * barrier_lop_L(c, 1) + barrier_hw_op_us(c, p);
}

const barrier_alg_t barrier_alg_hwswitch = {
    .name = "hwswitch",
    .title = "switch barrier logic (cost only)",
    .cite = "thesis 3.1.1.3",
    .flags = BARRIER_COST_ONLY,
    .rounds = barrier_one_round,
    .logp_us = hwswitch_logp_us,
    .lop_us = hwswitch_lop_us,
    .logp_note = "a formula: no schedule to simulate",
    .lop_note = "a formula: no schedule to simulate",
};
