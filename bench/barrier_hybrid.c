/* barrier_hybrid.c - the hybrid barrier's placement and schedule for lopbench (barrier_hybrid.h). */
#include "barrier_hybrid.h"

#include <stdio.h>
#include <stdlib.h>

#include "placement.h"

/* placement.h's levels as text labels: host, socket, numa, core. */
static lop_status_t gathered(MPI_Comm comm, hybrid_place_t *pl)
{
    static const char *const name[] = {"host", "socket", "numa", "core"};
    lop_placement_t lp;
    lop_status_t st = lop_placement_gather(comm, &lp);
    if (st)
        return st;
    char (*num)[3][16] = lop_calloc((size_t)lp.n, sizeof *num);
    const char **label = lop_calloc((size_t)lp.n * 4, sizeof *label);
    st = num && label ? LOP_OK : LOP_ERR_NOMEM;
    for (int r = 0; r < lp.n && st == LOP_OK; r++) {
        snprintf(num[r][0], sizeof num[r][0], "%d", lp.socket[r]);
        snprintf(num[r][1], sizeof num[r][1], "%d", lp.numa[r]);
        snprintf(num[r][2], sizeof num[r][2], "%d", lp.core[r]);
        label[(size_t)r * 4] = lp.host[r];
        for (int k = 0; k < 3; k++)
            label[(size_t)r * 4 + 1 + k] = num[r][k];
    }
    st = st ? st : hybrid_place_labels((uint32_t)lp.n, 4, label, name, pl);
    free(label);
    free(num);
    lop_placement_free(&lp);
    return st;
}

lop_status_t lop_barrier_hybrid_place(const lop_bench_opts_t *o, MPI_Comm comm,
                                      hybrid_place_t *pl)
{
    return o->placement ? hybrid_place_read(o->placement, pl) : gathered(comm, pl);
}

lop_status_t lop_barrier_hybrid_sched(const lop_bench_opts_t *o, const hybrid_place_t *pl,
                                      uint32_t p, sched_t *sched)
{
    hybrid_result_t res;
    lop_status_t st = hybrid_from_place(o->pairs_file, pl, p, &res);
    *sched = res.sched; /* empty on failure: sched_free is safe either way */
    return st;
}
