/* sched_pass.c - a stored schedule in lockstep run in passes: its set-up,
 * and the engine for any callbacks (sched_pass.h says how). */
#define LOP_SCHED_FLOW_DRIVER
#include "sched_pass.h"

#include <stdlib.h>
#include <string.h>

lop_status_t pass_prepare(pass_t *w, const sched_t *s, uint32_t slots)
{
    *w = (pass_t){.s = s, .slots = slots ? slots : 1};
    w->pc = lop_calloc(s->p, sizeof *w->pc);
    w->fill = lop_calloc(s->p, sizeof *w->fill);
    w->used = lop_calloc(s->p, sizeof *w->used);
    w->inbox = lop_calloc((size_t)s->p * w->slots, sizeof *w->inbox);
    w->active = lop_calloc(s->p, sizeof *w->active);
    w->batch = lop_calloc(sched_rank_max(s) + 1, sizeof *w->batch);
    return w->pc && w->fill && w->used && w->inbox && w->active && w->batch ? LOP_OK
                                                                           : LOP_ERR_NOMEM;
}

int pass_level_start(pass_t *w)
{
    const sched_t *s = w->s;
    for (uint32_t r = 0; r < s->p; r++)
        if (w->fill[r] != w->used[r])
            return 0;
    memset(w->fill, 0, s->p * sizeof *w->fill);
    memset(w->used, 0, s->p * sizeof *w->used);
    w->n_active = 0;
    for (uint32_t r = 0; r < s->p; r++) {
        if (r + PASS_AHEAD < s->p) /* as pass_level does */
            __builtin_prefetch(s->op + s->first[r + PASS_AHEAD] + w->pc[r + PASS_AHEAD]);
        if (w->pc[r] < s->first[r + 1] - s->first[r] &&
            s->op[s->first[r] + w->pc[r]].step == w->level)
            w->active[w->n_active++] = r;
    }
    return 1;
}

lop_status_t pass_end(pass_t *w, lop_status_t st, int stuck, int halted, uint64_t *events)
{
    const sched_t *s = w->s;
    for (uint32_t r = 0; r < s->p && st == LOP_OK && !stuck && !halted; r++)
        stuck = w->pc[r] != sched_rank_count(s, r) || w->fill[r] != w->used[r];
    if (st == LOP_OK && stuck) /* ranks left, or a message of the last level left over */
        st = sched_flow_stuck(s, w->pc);
    *events = w->events;
    free(w->pc);
    free(w->fill);
    free(w->used);
    free(w->inbox);
    free(w->active);
    free(w->batch);
    return st;
}

lop_status_t sched_flow_passes(const sched_t *s, uint32_t slots, const sched_flow_ops_t *ops,
                               void *ctx, uint64_t *events)
{
    return sched_pass_run(s, slots, ops, ctx, events);
}
