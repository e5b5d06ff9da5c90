/* mpisync.c - agreement, polite polling and idle gaps across ranks (mpisync.h). */
#include "mpisync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "csv.h"
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

int lop_mpi_oversubscribed(MPI_Comm comm)
{
    int local = node_ranks(comm);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
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

void lop_mpi_fail_abort(const char *prog)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "%s: rank %d: %s\n", prog, rank, lop_errmsg());
    lop_cleanup_now(); /* MPI_Abort ends this process without exit handlers */
    MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
}

void lop_mpi_wait_all(int n, MPI_Request *req, lop_poll_t *poll)
{
    int done = 0;
    MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    while (!done) {
        lop_poll_pause(poll);
        MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
    }
}

void lop_mpi_barrier(MPI_Comm comm, lop_poll_t *poll)
{
    MPI_Request req;
    MPI_Ibarrier(comm, &req);
    lop_mpi_wait_all(1, &req, poll);
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

lop_status_t lop_outdir_agree(MPI_Comm comm, const char *dir)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return lop_mpi_agree(comm, rank == 0 ? lop_outdir_prepare(dir) : LOP_OK);
}
