/*
 * placement.h - where every rank of a run runs: host, socket, NUMA node and
 * CPU, gathered over MPI so that every rank knows every rank's place (the
 * topology levels of Meyer and Elster's hybrid barriers, section VII).
 *
 *   lop_placement_t pl;
 *   lop_placement_gather(comm, &pl);            collective; all ranks get all
 *   int group[P], n;
 *   lop_placement_groups(&pl, 0, group, &n);    hosts: group[r] in 0..n-1
 *   lop_placement_groups(&pl, 1, group, &n);    sockets (of a host)
 *   lop_placement_groups(&pl, 2, group, &n);    cores (of a socket)
 *   lop_placement_write(&pl, &meta, dir);       DIR/placement.csv (rank 0)
 *   lop_placement_free(&pl);
 *
 * Levels, outermost first: ranks are in one group of level 0 when they run on
 * the same host (host name), of level 1 when they also share a socket (hwloc
 * package), of level 2 when they also share a CPU (sched_getcpu(): two ranks
 * on one CPU are an oversubscribed core).  Groups are numbered 0, 1, ... in
 * the order of their lowest rank, so group[0] is 0 at every level, and a
 * group of level k lies within one group of level k - 1.
 *
 * Sockets and NUMA nodes come from hwloc (logical indexes on the host).  Where
 * hwloc knows no package or NUMA node above a rank's CPU (a container without
 * /sys, say), both are 0 and 'topology' is 0; 'note' says so, and
 * placement.csv carries the note.  The CPU is where the rank ran when asked:
 * a rank the launcher did not bind to one CPU may move later, and 'note'
 * says whether every rank was bound.
 */
#ifndef LOP_PLACEMENT_H
#define LOP_PLACEMENT_H

#include <mpi.h>

#include "lop.h"
#include "samples.h"

#define LOP_PLACEMENT_LEVELS 3     /* hosts, sockets, cores */
#define LOP_PLACEMENT_HOST_MAX 256 /* bytes of a host name, with its NUL */

typedef struct {
    int n;                                /* ranks */
    char (*host)[LOP_PLACEMENT_HOST_MAX]; /* [rank] host name (gethostname) */
    int *socket;                          /* [rank] package on its host; 0 if unknown */
    int *numa;                            /* [rank] NUMA node on its host; 0 if unknown */
    int *core;                            /* [rank] CPU it ran on (sched_getcpu) */
    int topology;                         /* 1: hwloc placed every rank's CPU */
    int bound;                            /* 1: every rank may run on one CPU only */
    char note[512];                       /* how sockets, NUMA nodes and CPUs were found */
} lop_placement_t;

/* Collective over 'comm': every rank's place, on every rank (rank r of comm
 * is entry r).  Fails alike on every rank (e.g. out of memory), leaving
 * nothing allocated. */
lop_status_t lop_placement_gather(MPI_Comm comm, lop_placement_t *pl);

void lop_placement_free(lop_placement_t *pl);

/* The groups of level 'level' (0 hosts, 1 sockets, 2 cores): group[r] for
 * every rank r (an array of pl->n ints), and their number in *n_groups. */
lop_status_t lop_placement_groups(const lop_placement_t *pl, int level, int *group,
                                  int *n_groups);

/* The ordered pair's relation as one small class number: bit 0 other host,
 * else bit 1 other socket, bit 2 other NUMA node, bit 3 other CPU (0: the
 * same CPU).  Pairs of one class are alike to the hardware (lopbench --pairs
 * sampled measures one pair per class). */
unsigned lop_placement_class(const lop_placement_t *pl, int i, int j);

/* Write DIR/placement.csv (rank,host,socket,numa,core) with the run's
 * metadata; called by one rank. */
lop_status_t lop_placement_write(const lop_placement_t *pl, const lop_run_meta_t *meta,
                                 const char *dir);

#endif
