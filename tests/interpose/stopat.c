/*
 * stopat.c - a PMPI interposer (LD_PRELOAD) that stops rank 1 (SIGSTOP) at
 * its first call of one MPI function, for tests of what the other ranks do
 * when a peer stops at a known point rather than at a random time.
 *
 *   LOP_STOP_AT=MPI_Igather   the function (MPI_Igather, MPI_Iallreduce or
 *                             MPI_Finalize)
 *
 * --pairs calls the first two only at the end of a round, after its
 * measurements: there no wait of the measuring code guards the others.  A
 * rank stopped before MPI_Finalize holds the others inside theirs.
 *
 * Build: mpicc -shared -fPIC -o libstopat.so stopat.c
 * Use:   mpirun -np 2 env LD_PRELOAD=.../libstopat.so LOP_STOP_AT=MPI_Igather prog ...
 */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Stop here if this is rank 1 and 'fn' is the function named. */
static void maybe_stop(const char *fn)
{
    const char *at = getenv("LOP_STOP_AT");
    int rank = -1;
    if (!at || strcmp(at, fn) != 0)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        raise(SIGSTOP);
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    maybe_stop("MPI_Igather");
    return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        request);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    maybe_stop("MPI_Iallreduce");
    return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Finalize(void)
{
    maybe_stop("MPI_Finalize");
    return PMPI_Finalize();
}
