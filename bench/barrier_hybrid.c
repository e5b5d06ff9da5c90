/* barrier_hybrid.c - the hybrid barrier's placement and schedule for lopbench (barrier_hybrid.h). */
#include "barrier_hybrid.h"

#include "place_gather.h"

lop_status_t lop_barrier_hybrid_place(const lop_bench_opts_t *o, MPI_Comm comm,
                                      lop_place_t *pl)
{
    return o->placement ? lop_place_read(o->placement, SCHED_MAX_P, pl)
                        : lop_place_gather(comm, pl, NULL);
}

lop_status_t lop_barrier_hybrid_sched(const lop_bench_opts_t *o, const lop_place_t *pl,
                                      uint32_t p, sched_t *sched)
{
    hybrid_result_t res;
    lop_status_t st = hybrid_from_place(o->pairs_file, pl, p, &res);
    *sched = res.sched; /* empty on failure: sched_free is safe either way */
    return st;
}
