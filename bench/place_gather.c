/* place_gather.c - every rank's host, socket, NUMA node and CPU (place_gather.h). */
#include "place_gather.h"

#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "mpisync.h"

/* What one rank sends: its place, fixed size so one MPI_Allgather moves all. */
typedef struct {
    char host[LOP_PLACE_HOST_MAX];
    int socket, numa, core;
    int topology; /* hwloc placed this rank's CPU */
    int bound;    /* its affinity mask holds one CPU */
} place_msg_t;

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

static void place_mine(place_msg_t *me)
{
    memset(me, 0, sizeof *me);
    if (gethostname(me->host, sizeof me->host - 1) != 0)
        snprintf(me->host, sizeof me->host, "unknown");
    me->core = sched_getcpu();
    me->topology = hwloc_place(me->core, &me->socket, &me->numa);
    cpu_set_t mask;
    me->bound = sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) == 1;
}

static void describe(lop_place_rows_t *f, int missing, int bound)
{
    int n = snprintf(f->note, sizeof f->note, "%s",
                     f->topology ? "socket and NUMA node from hwloc"
                                 : "no hwloc topology for some CPUs: their socket and NUMA node "
                                   "are 0");
    if (!f->topology)
        n += snprintf(f->note + n, sizeof f->note - (size_t)n, " (%d of %d ranks)", missing,
                      f->n);
    snprintf(f->note + n, sizeof f->note - (size_t)n, "; core = sched_getcpu() at start%s",
             bound ? ", every rank bound to one CPU"
                   : ", ranks not bound to one CPU (they may move)");
}

/* The rows of every rank's message, and the note on them. */
static void rows_fill(lop_place_rows_t *f, const place_msg_t *all)
{
    int missing = 0, bound = 1;
    for (int r = 0; r < f->n; r++) {
        memcpy(f->host[r], all[r].host, sizeof f->host[r]);
        f->host[r][LOP_PLACE_HOST_MAX - 1] = '\0';
        f->row[r] = (lop_fmt_placement_row_t){f->host[r], all[r].socket, all[r].numa,
                                              all[r].core};
        missing += !all[r].topology;
        bound &= all[r].bound;
    }
    f->topology = missing == 0;
    describe(f, missing, bound);
}

/* Collective: every rank's row of placement.csv, on every rank. */
static lop_status_t rows_gather(MPI_Comm comm, lop_place_rows_t *f)
{
    memset(f, 0, sizeof *f);
    MPI_Comm_size(comm, &f->n);
    size_t n = (size_t)f->n;
    place_msg_t me, *all = lop_calloc(n, sizeof *all);
    f->host = lop_calloc(n, sizeof *f->host);
    f->row = lop_calloc(n, sizeof *f->row);
    lop_status_t st = lop_mpi_agree(comm, all && f->host && f->row ? LOP_OK : LOP_ERR_NOMEM);
    if (st == LOP_OK) {
        place_mine(&me);
        MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, comm);
        rows_fill(f, all);
    }
    free(all);
    return st;
}

/* The places of the rows: their cells as text, at placement.csv's levels
 * (as lop_place_read makes them of the file). */
static lop_status_t places_of(const lop_place_rows_t *f, lop_place_t *pl)
{
    enum { LEVELS = LOP_FMT_PLACEMENT_LEVELS };
    size_t n = (size_t)f->n;
    char (*num)[LEVELS - 1][16] = lop_calloc(n, sizeof *num); /* socket, numa, core */
    const char **label = lop_calloc(n * LEVELS, sizeof *label);
    lop_status_t st = num && label ? LOP_OK : LOP_ERR_NOMEM;
    for (size_t r = 0; r < n && st == LOP_OK; r++) {
        snprintf(num[r][0], sizeof num[r][0], "%d", f->row[r].socket);
        snprintf(num[r][1], sizeof num[r][1], "%d", f->row[r].numa);
        snprintf(num[r][2], sizeof num[r][2], "%d", f->row[r].core);
        label[r * LEVELS] = f->row[r].host;
        for (int k = 1; k < LEVELS; k++)
            label[r * LEVELS + k] = num[r][k - 1];
    }
    st = st ? st : lop_place_labels((uint32_t)n, LEVELS, label, lop_fmt_placement_level, pl);
    free(label);
    free(num);
    return st;
}

lop_status_t lop_place_gather(MPI_Comm comm, lop_place_t *pl, lop_place_rows_t *file)
{
    lop_place_rows_t rows; /* when the caller wants the places alone */
    lop_place_rows_t *f = file ? file : &rows;
    memset(pl, 0, sizeof *pl);
    lop_status_t st = rows_gather(comm, f);
    st = st ? st : lop_mpi_agree(comm, places_of(f, pl));
    if (st || !file)
        lop_place_rows_free(f);
    if (st)
        lop_place_free(pl);
    return st;
}

void lop_place_rows_free(lop_place_rows_t *file)
{
    free(file->host);
    free(file->row);
    file->host = NULL;
    file->row = NULL;
}

lop_status_t lop_place_rows_write(const lop_place_rows_t *file, const lop_run_meta_t *meta,
                                  const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/" LOP_FMT_PLACEMENT_NAME, dir);
    lop_fmt_placement_meta_t m = {file->n, file->topology, file->note, meta->oversubscribed,
                                  meta->date};
    lop_csv_writer_t w;
    lop_status_t st = lop_fmt_placement_write_begin(&w, path, &m, file->row);
    if (st == LOP_OK) {
        lop_run_meta_hosts_write(&w, meta);
        st = lop_fmt_placement_write_rows(&w, file->row, file->n);
    }
    return st;
}
