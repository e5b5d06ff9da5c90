/* sched_run.c - sched_flow_run (sched_flow.h): the way a schedule runs,
 * chosen from its form and scan, and the engine for it.  Above the three
 * engines (sched_flow.c, sched_pass.c, sched_sweep.c), which call down to
 * sched_flow.c's diagnosis and never back up here. */
#include "sched_flow.h"

lop_status_t sched_flow_run(const sched_t *s, const sched_flow_ops_t *ops, void *ctx,
                            uint64_t *events)
{
    sched_scan_t scan;
    if (s->form != SCHED_STORED)
        return sched_flow_sweep(s, ops, ctx, events);
    lop_status_t st = sched_scan(s, &scan);
    if (st)
        return st;
    if (sched_flow_way(s, &scan) == SCHED_RUN_PASSES)
        return sched_flow_passes(s, scan.step_recvs, ops, ctx, events);
    return sched_flow_dataflow(s, &scan, ops, ctx, events);
}
