/* mpisync.c - agreement, polite polling and idle gaps across ranks (mpisync.h). */
#include "mpisync.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "outdir.h"
#include "samples.h"

/* Collective: how many ranks of 'comm' share this rank's node. */
static int node_ranks(MPI_Comm comm)
{
    MPI_Comm node;
    int local;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    return local;
}

/* This kernel's boot id: the same in every namespace of one machine (the
 * nodes of scripts/cluster.sh), different on another machine or boot. */
static void kernel_id(char id[40])
{
    memset(id, 0, 40);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f || !fgets(id, 40, f))
        gethostname(id, 39); /* no procfs: the node is the machine */
    if (f)
        fclose(f);
    id[strcspn(id, "\n")] = '\0';
}

/* Collective: the ranks of 'comm' that run on this rank's kernel.  Split by
 * a hash of the boot id, then by the exact id among the few that share the
 * hash. */
static MPI_Comm machine_comm(MPI_Comm comm)
{
    char id[40];
    kernel_id(id);
    unsigned hash = 5381;
    for (const char *c = id; *c; c++)
        hash = hash * 33u + (unsigned char)*c;
    MPI_Comm same_hash, machine;
    MPI_Comm_split(comm, (int)(hash & 0x7fffffff), 0, &same_hash);
    int n, me, first = 0;
    MPI_Comm_size(same_hash, &n);
    MPI_Comm_rank(same_hash, &me);
    char *all = lop_calloc((size_t)n, 40);
    int ok = all != NULL, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, same_hash);
    if (!all_ok) { /* no memory for the exact ids: the hash alone decides */
        free(all);
        return same_hash;
    }
    MPI_Allgather(id, 40, MPI_CHAR, all, 40, MPI_CHAR, same_hash);
    while (memcmp(all + 40 * first, id, 40) != 0)
        first++;
    free(all);
    MPI_Comm_split(same_hash, first, me, &machine);
    MPI_Comm_free(&same_hash);
    return machine;
}

/* The CPUs a machine's ranks may run on are the union of their affinity
 * masks (sched_getaffinity honours cpusets, cgroup cpusets and taskset, which
 * _SC_NPROCESSORS_ONLN ignores); each rank may have a mask of its own, e.g.
 * one core each when the launcher binds.  Oversubscribed: more ranks than
 * CPUs in that union.  The machine is the kernel, not MPI's node: the nodes
 * of an emulated cluster (network namespaces) share one machine's cores.
 * (A cgroup CPU quota below the mask is not seen.) */
int lop_mpi_oversubscribed(MPI_Comm comm)
{
    MPI_Comm machine = machine_comm(comm);
    int local;
    MPI_Comm_size(machine, &local);
    cpu_set_t mine, all;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN); /* no mask: every CPU */
        for (long c = 0; c < online && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &mine);
    }
    MPI_Allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, machine);
    MPI_Comm_free(&machine);
    int cpus = CPU_COUNT(&all);
    return cpus > 0 && local > cpus;
}

int lop_mpi_single_node(MPI_Comm comm)
{
    int local = node_ranks(comm), all;
    MPI_Comm_size(comm, &all);
    int mine = local == all, every;
    MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_LAND, comm);
    return every;
}

typedef struct {
    const char *name;
    int rank;
} host_rank_t;

static int host_rank_cmp(const void *a, const void *b)
{
    const host_rank_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Every rank's node, on every rank, for messages that name the peer they
 * waited for (lop_mpi_host_of): a node number per rank and the node names. */
static struct {
    int size, n_hosts;
    int *host;                       /* [rank] -> node number */
    char (*name)[LOP_MPI_HOST_MAX];  /* [node] */
} peer_hosts;

/* Rank 0: number the gathered names' nodes in the order of their lowest
 * rank (sorted by name first: O(P log P) for large runs) into peer_hosts. */
static int hosts_number(const char (*name)[LOP_MPI_HOST_MAX], int size)
{
    host_rank_t *by_name = lop_calloc((size_t)size, sizeof *by_name);
    if (!by_name)
        return 0;
    for (int r = 0; r < size; r++)
        by_name[r] = (host_rank_t){name[r], r};
    qsort(by_name, (size_t)size, sizeof *by_name, host_rank_cmp);
    for (int i = 0, first = 0; i < size; i++) { /* first: the node's lowest rank */
        if (i == 0 || strcmp(by_name[i].name, by_name[i - 1].name) != 0)
            first = by_name[i].rank;
        peer_hosts.host[by_name[i].rank] = -1 - first;
    }
    for (int r = 0; r < size; r++) { /* -1 - first rank -> node number */
        int first = -1 - peer_hosts.host[r];
        if (first == r) {
            memmove(peer_hosts.name[peer_hosts.n_hosts], name[r], LOP_MPI_HOST_MAX);
            peer_hosts.host[r] = peer_hosts.n_hosts++;
        } else {
            peer_hosts.host[r] = peer_hosts.host[first];
        }
    }
    free(by_name);
    return 1;
}

/* "N: name (k ranks), ..." of peer_hosts. */
static char *hosts_list(void)
{
    int size = peer_hosts.size;
    size_t cap = 32 + (size_t)peer_hosts.n_hosts * (LOP_MPI_HOST_MAX + 24), len;
    char *out = lop_calloc(cap, 1);
    int *count = lop_calloc((size_t)peer_hosts.n_hosts, sizeof *count);
    if (out && count) {
        for (int r = 0; r < size; r++)
            count[peer_hosts.host[r]]++;
        len = (size_t)snprintf(out, cap, "%d:", peer_hosts.n_hosts);
        for (int h = 0; h < peer_hosts.n_hosts; h++)
            len += (size_t)snprintf(out + len, cap - len, "%s %s (%d rank%s)", h ? "," : "",
                                    peer_hosts.name[h], count[h], count[h] == 1 ? "" : "s");
    } else {
        free(out);
        out = NULL;
    }
    free(count);
    return out;
}

static void peer_hosts_free(void)
{
    free(peer_hosts.host);
    free(peer_hosts.name);
    peer_hosts.host = NULL;
    peer_hosts.name = NULL;
    peer_hosts.size = peer_hosts.n_hosts = 0;
}

lop_status_t lop_mpi_hosts(MPI_Comm comm, char **hosts)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char mine[LOP_MPI_HOST_MAX] = "";
    gethostname(mine, sizeof mine - 1);
    peer_hosts_free();
    peer_hosts.size = size;
    peer_hosts.host = lop_calloc((size_t)size, sizeof *peer_hosts.host);
    char (*all)[LOP_MPI_HOST_MAX] = rank == 0 ? lop_calloc((size_t)size, sizeof *all) : NULL;
    int ok = peer_hosts.host && (rank != 0 || all), every;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, comm);
    *hosts = NULL;
    if (every) {
        MPI_Gather(mine, LOP_MPI_HOST_MAX, MPI_CHAR, all, LOP_MPI_HOST_MAX, MPI_CHAR, 0, comm);
        peer_hosts.name = all; /* rank 0: at most 'size' nodes, numbered in place */
        ok = rank != 0 || hosts_number((const char (*)[LOP_MPI_HOST_MAX])all, size);
        MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, comm);
    }
    if (every) { /* every rank learns every rank's node */
        MPI_Bcast(&peer_hosts.n_hosts, 1, MPI_INT, 0, comm);
        MPI_Bcast(peer_hosts.host, size, MPI_INT, 0, comm);
        if (rank != 0)
            peer_hosts.name = lop_calloc((size_t)peer_hosts.n_hosts, sizeof *peer_hosts.name);
        ok = peer_hosts.name != NULL;
        MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, comm);
    }
    if (every)
        MPI_Bcast(peer_hosts.name, peer_hosts.n_hosts * LOP_MPI_HOST_MAX, MPI_CHAR, 0, comm);
    if (every && rank == 0)
        *hosts = hosts_list();
    if (!every) {
        if (peer_hosts.name != all)
            free(all);
        peer_hosts_free();
    }
    return !every || (rank == 0 && !*hosts) ? LOP_ERR_NOMEM : LOP_OK;
}

const char *lop_mpi_host_of(int rank)
{
    if (rank < 0 || rank >= peer_hosts.size || !peer_hosts.host)
        return "host unknown";
    return peer_hosts.name[peer_hosts.host[rank]];
}

lop_status_t lop_mpi_agree(MPI_Comm comm, lop_status_t status)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = status == LOP_OK ? size : rank, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size)
        return LOP_OK;
    int code = (int)status;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", lop_errmsg());
    MPI_Bcast(&code, 1, MPI_INT, first, comm);
    MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, comm);
    return lop_err((lop_status_t)code, "%s", msg);
}

lop_status_t lop_mpi_window(MPI_Comm comm, MPI_Aint bytes, int shared, void *base, MPI_Win *win)
{
    const char *call = shared ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int unit = sizeof(uint64_t); /* displacements count 64-bit slots */
    int rc = shared ? MPI_Win_allocate_shared(bytes, unit, MPI_INFO_NULL, comm, base, win)
                    : MPI_Win_allocate(bytes, unit, MPI_INFO_NULL, comm, base, win);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    lop_status_t st = LOP_OK;
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
            snprintf(msg, sizeof msg, "error %d", rc);
        st = lop_err(LOP_ERR_UNSUPPORTED, "%s failed: %s (Open MPI between nodes over TCP needs "
                     "--mca osc ucx for one-sided MPI)", call, msg);
    }
    st = lop_mpi_agree(comm, st);
    if (st != LOP_OK)
        *win = MPI_WIN_NULL;
    return st;
}

void lop_mpi_fail_abort(const char *prog)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "%s: rank %d: %s\n", prog, rank, lop_errmsg());
    lop_cleanup_now(); /* MPI_Abort ends this process without exit handlers */
    MPI_Abort(MPI_COMM_WORLD, LOP_EXIT_FAILED);
}

lop_status_t lop_poll_timeout(const lop_poll_t *poll, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return lop_err(LOP_ERR_TIMEOUT, "timed out after %g s waiting for %s (is a peer stopped or "
                   "dead? --timeout sets the limit)", poll->timeout_s, what);
}

lop_status_t lop_mpi_wait_all(int n, MPI_Request *req, lop_poll_t *poll, const char *what)
{
    lop_wait_t wait = {0};
    int done = 0;
    MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    while (!done) {
        if (lop_poll_pause(poll, &wait))
            return lop_poll_timeout(poll, "%s", what);
        MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    }
    return LOP_OK;
}

/* The rank of MPI_COMM_WORLD (lop_mpi_hosts' numbering) that is 'rank' of 'comm'. */
static int world_rank(MPI_Comm comm, int rank)
{
    MPI_Group group, world;
    int out = MPI_UNDEFINED;
    MPI_Comm_group(comm, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(group, 1, &rank, world, &out);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    return out;
}

void lop_mpi_progress(MPI_Comm comm)
{
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

lop_status_t lop_mpi_wait_peer(int n, MPI_Request *req, lop_poll_t *poll, MPI_Comm comm,
                               int peer, const char *what)
{
    lop_status_t st = lop_mpi_wait_all(n, req, poll, what);
    if (st != LOP_ERR_TIMEOUT)
        return st;
    int world = world_rank(comm, peer); /* looked up only now: waits in loops stay cheap */
    return lop_poll_timeout(poll, "%s with rank %d on %.64s", what, world, lop_mpi_host_of(world));
}

lop_status_t lop_mpi_barrier(MPI_Comm comm, lop_poll_t *poll)
{
    MPI_Request req;
    int size, me;
    MPI_Comm_size(comm, &size); /* all of them, or a pair of them (scenario 1, --pairs) */
    MPI_Comm_rank(comm, &me);
    MPI_Ibarrier(comm, &req);
    if (size == 2)
        return lop_mpi_wait_peer(1, &req, poll, comm, 1 - me, "a barrier");
    lop_status_t st = lop_mpi_wait_all(1, &req, poll, "a barrier");
    return st != LOP_ERR_TIMEOUT ? st : lop_poll_timeout(poll, "a barrier of %d ranks", size);
}

void lop_mpi_idle(const lop_timer_t *timer, double us, int oversubscribed)
{
    if (us <= 0)
        return;
    if (!oversubscribed) {
        lop_timer_spin_us(timer, us);
        return;
    }
    struct timespec ts = {(time_t)(us / 1e6), (long)((us - (double)(time_t)(us / 1e6) * 1e6) * 1e3)};
    nanosleep(&ts, NULL);
}

lop_status_t lop_outdir_agree(MPI_Comm comm, const char *dir, const char *const *names)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    lop_status_t st = rank == 0 ? lop_outdir_prepare(dir) : LOP_OK;
    for (size_t i = 0; rank == 0 && st == LOP_OK && names && names[i]; i++)
        st = lop_outdir_target_check(dir, names[i]);
    return lop_mpi_agree(comm, st);
}
