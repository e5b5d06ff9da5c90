/* placement.c - every rank's host, socket, NUMA node and CPU (placement.h). */
#include "placement.h"

#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "fmt_placement.h"
#include "mpisync.h"

/* What one rank sends: its place, fixed size so one MPI_Allgather moves all. */
typedef struct {
    char host[LOP_PLACEMENT_HOST_MAX];
    int socket, numa, core;
    int topology; /* hwloc placed this rank's CPU */
    int bound;    /* its affinity mask holds one CPU */
} place_t;

/* The package and NUMA node above CPU 'cpu' (OS index), by hwloc; 0 when hwloc
 * cannot tell (no topology, or a CPU outside it). */
static int hwloc_place(int cpu, int *socket, int *numa)
{
    hwloc_topology_t topo;
    *socket = *numa = 0;
    if (cpu < 0 || hwloc_topology_init(&topo) != 0)
        return 0;
    int found = 0;
    if (hwloc_topology_load(topo) == 0) {
        hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
        hwloc_obj_t pkg = pu ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, pu) : NULL;
        hwloc_obj_t node = NULL;
        /* NUMA nodes hang beside the CPU tree in hwloc 2: the one whose CPU set
         * holds this CPU. */
        while (pu && (node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)))
            if (node->cpuset && hwloc_bitmap_isset(node->cpuset, (unsigned)cpu))
                break;
        if (pkg && node) {
            *socket = (int)pkg->logical_index;
            *numa = (int)node->logical_index;
            found = 1;
        }
    }
    hwloc_topology_destroy(topo);
    return found;
}

static void place_mine(place_t *me)
{
    memset(me, 0, sizeof *me);
    if (gethostname(me->host, sizeof me->host - 1) != 0)
        snprintf(me->host, sizeof me->host, "unknown");
    me->core = sched_getcpu();
    me->topology = hwloc_place(me->core, &me->socket, &me->numa);
    cpu_set_t mask;
    me->bound = sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) == 1;
}

static void describe(lop_placement_t *pl, int missing)
{
    int n = snprintf(pl->note, sizeof pl->note, "%s",
                     pl->topology ? "socket and NUMA node from hwloc"
                                  : "no hwloc topology for some CPUs: their socket and NUMA node "
                                    "are 0");
    if (!pl->topology)
        n += snprintf(pl->note + n, sizeof pl->note - (size_t)n, " (%d of %d ranks)", missing,
                      pl->n);
    snprintf(pl->note + n, sizeof pl->note - (size_t)n, "; core = sched_getcpu() at start%s",
             pl->bound ? ", every rank bound to one CPU"
                       : ", ranks not bound to one CPU (they may move)");
}

lop_status_t lop_placement_gather(MPI_Comm comm, lop_placement_t *pl)
{
    memset(pl, 0, sizeof *pl);
    MPI_Comm_size(comm, &pl->n);
    size_t n = (size_t)pl->n;
    place_t me, *all = lop_calloc(n, sizeof *all);
    pl->host = lop_calloc(n, sizeof *pl->host);
    pl->socket = lop_calloc(n, sizeof *pl->socket);
    pl->numa = lop_calloc(n, sizeof *pl->numa);
    pl->core = lop_calloc(n, sizeof *pl->core);
    int ok = all && pl->host && pl->socket && pl->numa && pl->core;
    lop_status_t st = lop_mpi_agree(comm, ok ? LOP_OK : LOP_ERR_NOMEM);
    if (st != LOP_OK) {
        free(all);
        lop_placement_free(pl);
        return st;
    }
    place_mine(&me);
    MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, comm);
    int missing = 0;
    pl->topology = pl->bound = 1;
    for (size_t r = 0; r < n; r++) {
        memcpy(pl->host[r], all[r].host, sizeof pl->host[r]);
        pl->host[r][LOP_PLACEMENT_HOST_MAX - 1] = '\0';
        pl->socket[r] = all[r].socket;
        pl->numa[r] = all[r].numa;
        pl->core[r] = all[r].core;
        missing += !all[r].topology;
        pl->bound &= all[r].bound;
    }
    pl->topology = missing == 0;
    describe(pl, missing);
    free(all);
    return LOP_OK;
}

void lop_placement_free(lop_placement_t *pl)
{
    free(pl->host);
    free(pl->socket);
    free(pl->numa);
    free(pl->core);
    pl->host = NULL;
    pl->socket = pl->numa = pl->core = NULL;
}

/* Do ranks a and b share their place at levels 0..level? */
static int same_place(const lop_placement_t *pl, int level, int a, int b)
{
    return strcmp(pl->host[a], pl->host[b]) == 0 &&
           (level < 1 || pl->socket[a] == pl->socket[b]) &&
           (level < 2 || pl->core[a] == pl->core[b]);
}

lop_status_t lop_placement_groups(const lop_placement_t *pl, int level, int *group,
                                  int *n_groups)
{
    if (level < 0 || level >= LOP_PLACEMENT_LEVELS)
        return lop_err(LOP_ERR_INVALID, "placement: no level %d (0 hosts, 1 sockets, 2 cores)",
                       level);
    /* Quadratic in the worst case (every rank its own group): 512 ranks take
     * some 10^5 comparisons, once per run. */
    *n_groups = 0;
    for (int r = 0; r < pl->n; r++) {
        int first = 0;
        while (first < r && !same_place(pl, level, first, r))
            first++;
        group[r] = first < r ? group[first] : (*n_groups)++;
    }
    return LOP_OK;
}

unsigned lop_placement_class(const lop_placement_t *pl, int i, int j)
{
    if (strcmp(pl->host[i], pl->host[j]) != 0)
        return 1;
    return (pl->socket[i] != pl->socket[j]) << 1 | (pl->numa[i] != pl->numa[j]) << 2 |
           (pl->core[i] != pl->core[j]) << 3;
}

lop_status_t lop_placement_write(const lop_placement_t *pl, const lop_run_meta_t *meta,
                                 const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/" LOP_FMT_PLACEMENT_NAME, dir);
    lop_fmt_placement_row_t *row = lop_calloc(pl->n ? pl->n : 1, sizeof *row);
    if (!row)
        return LOP_ERR_NOMEM;
    for (int r = 0; r < pl->n; r++)
        row[r] = (lop_fmt_placement_row_t){pl->host[r], pl->socket[r], pl->numa[r], pl->core[r]};
    lop_fmt_placement_meta_t m = {pl->n, pl->topology, pl->note, meta->oversubscribed,
                                  meta->date};
    lop_csv_writer_t w;
    lop_status_t st = lop_fmt_placement_write_begin(&w, path, &m, row);
    if (st == LOP_OK) {
        lop_run_meta_hosts_write(&w, meta);
        st = lop_fmt_placement_write_rows(&w, row, pl->n);
    }
    free(row);
    return st;
}
