/*
 * barrier_hybrid.h - lopbench --barrier --alg hybrid: the levels of the ranks
 * (--placement FILE, else the run's own placement, place_gather.h) and the
 * hybrid barrier built from them on every rank alike (models/hybrid.h).
 */
#ifndef LOP_BARRIER_HYBRID_H
#define LOP_BARRIER_HYBRID_H

#include <mpi.h>

#include "bench_opts.h"
#include "hybrid.h"

/* Collective over 'comm' when --placement is not given: the placement the
 * hybrid is built on, into *pl (from the file, or gathered).  Fails alike on
 * every rank for a gathered placement; a file's errors name it. */
lop_status_t lop_barrier_hybrid_place(const lop_bench_opts_t *o, MPI_Comm comm,
                                      lop_place_t *pl);

/* The hybrid for ranks 0..p-1 of 'pl', with --pairs-file's costs or the
 * default per-level ones; *sched is empty on failure. */
lop_status_t lop_barrier_hybrid_sched(const lop_bench_opts_t *o, const lop_place_t *pl,
                                      uint32_t p, sched_t *sched);

#endif
