/*
 * place_gather.h - where every rank of a run runs: host, socket, NUMA node and
 * CPU, gathered over MPI so that every rank knows every rank's place, as
 * lop's placement type (src/place.h; the topology levels of Meyer and
 * Elster's hybrid barriers, section VII), and the rows placement.csv
 * records of it.
 *
 *   lop_place_t pl;
 *   lop_place_rows_t file;
 *   lop_place_gather(comm, &pl, &file);        collective; all ranks get all
 *   lop_place_class(&pl, i, j);                how ranks i and j lie apart
 *   lop_place_rows_write(&file, &meta, dir);   DIR/placement.csv (rank 0)
 *   lop_place_rows_free(&file);
 *   lop_place_free(&pl);
 *
 * Levels, outermost first, as placement.csv's columns (fmt_placement.h):
 * host (host name), socket (hwloc package), numa (NUMA node), core (the CPU
 * sched_getcpu() returned: two ranks on one CPU are an oversubscribed core).
 *
 * Sockets and NUMA nodes come from hwloc (logical indexes on the host).  Where
 * hwloc knows no package or NUMA node above a rank's CPU (a container without
 * /sys, say), both are 0 and 'topology' is 0; 'note' says so, and
 * placement.csv carries the note.  The CPU is where the rank ran when asked:
 * a rank the launcher did not bind to one CPU may move later, and 'note'
 * says whether every rank was bound.
 */
#ifndef LOP_PLACE_GATHER_H
#define LOP_PLACE_GATHER_H

#include <mpi.h>

#include "fmt_placement.h"
#include "lop.h"
#include "place.h"
#include "samples.h"

#define LOP_PLACE_HOST_MAX 256 /* bytes of a host name, with its NUL */

/* What placement.csv records of a gathered placement: its rows as written
 * (the places' numbers, which lop_place_t's ids do not keep) and how they
 * were found. */
typedef struct {
    int n;                                /* ranks: rows */
    lop_fmt_placement_row_t *row;         /* [rank] host, socket, numa, core */
    char (*host)[LOP_PLACE_HOST_MAX];     /* [rank] host name (gethostname): row[r].host */
    int topology;                         /* 1: hwloc placed every rank's CPU */
    char note[512];                       /* how sockets, NUMA nodes and CPUs were found */
} lop_place_rows_t;

/* Collective over 'comm': every rank's place into *pl (rank r of comm is
 * rank r), and, unless 'file' is NULL, placement.csv's rows of it.  Fails
 * alike on every rank (e.g. out of memory), leaving nothing allocated. */
lop_status_t lop_place_gather(MPI_Comm comm, lop_place_t *pl, lop_place_rows_t *file);

void lop_place_rows_free(lop_place_rows_t *file);

/* Write DIR/placement.csv (rank,host,socket,numa,core) with the run's
 * metadata; called by one rank. */
lop_status_t lop_place_rows_write(const lop_place_rows_t *file, const lop_run_meta_t *meta,
                                  const char *dir);

#endif
