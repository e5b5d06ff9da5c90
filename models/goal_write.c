/* goal_write.c - schedules as LogGOPSim GOAL text: the writer (goal.h; the
 * reader is goal.c). */
#include "goal.h"

#define GOAL_BYTES 8 /* a barrier message: one 8-byte flag */

/* One labelled op; 'label' counts the rank's GOAL ops from 1. */
static void goal_op(FILE *out, const char *what, const char *dir, uint32_t peer, uint32_t step,
                    uint32_t label)
{
    fprintf(out, "l%u: %s %ub %s %u tag %u\n", label, what, GOAL_BYTES, dir, peer, step);
    if (label > 1)
        fprintf(out, "l%u requires l%u\n", label, label - 1);
}

static void goal_rank(const sched_t *s, uint32_t r, FILE *out)
{
    uint32_t label = 0;
    fprintf(out, "\nrank %u {\n", r);
    for (const sched_op_t *op = sched_rank_ops(s, r); op < sched_rank_end(s, r); op++) {
        if (op->kind == SCHED_RECV) {
            goal_op(out, "recv", "from", (uint32_t)op->peer, op->step, ++label);
            continue;
        }
        if (op->kind == SCHED_SEND) {
            goal_op(out, "send", "to", (uint32_t)op->peer, op->step, ++label);
            continue;
        }
        fputs(GOAL_MCAST_MARK "\n", out);
        for (uint32_t q = 0; q < s->p; q++)
            if (q != r)
                goal_op(out, "send", "to", q, op->step, ++label);
    }
    fputs("}\n", out);
}

void sched_goal_write(const sched_t *s, FILE *out)
{
    fprintf(out, "num_ranks %u\n", s->p);
    for (uint32_t r = 0; r < s->p; r++)
        goal_rank(s, r, out);
}
