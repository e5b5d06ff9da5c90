/*
 * Dedicated barrier network (thesis 3.2): a host writes its state to the
 * barrier hardware and reads back whether all hosts arrived.  Cost only
 * (3.2.2): t_b = o_w + o_p(P) + o_r, the same in LogP and LoP since no
 * message crosses the data network.  Defaults are the measured values of
 * 3.2.2.1: o_w = o_r = 1.2 us, o_p(P) = P 10 ns.
 */
#include "barrier.h"

static double hwnet_us(barrier_cost_t *c, uint32_t p, uint32_t n)
{
    (void)n;
    return c->ow_us + barrier_hw_op_us(c, p) + c->hw_or_us;
}

const barrier_alg_t barrier_alg_hwnet = {
    .name = "hwnet",
    .title = "dedicated barrier network (cost only)",
    .cite = "thesis 3.2.2",
    .flags = BARRIER_COST_ONLY,
    .rounds = barrier_one_round,
    .logp_us = hwnet_us,
    .lop_us = hwnet_us,
    .logp_note = "a formula: no schedule to simulate",
    .lop_note = "a formula: no schedule to simulate",
};
