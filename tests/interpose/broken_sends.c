/*
 * broken_sends.c - an MPI program that breaks the send-buffer rule on
 * purpose, so that tests/44-sendbuf.t can show that libsendbuf.so catches it.
 * Rank 0 changes the buffer of a pending send three ways (MPI_Isend, a
 * started persistent send, an MPI_Put before its flush) and once does it
 * right; libsendbuf.so must report "4 sends checked, 3 changed" on rank 0.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "broken_sends: needs 2 ranks, not %d\n", size);
        MPI_Finalize();
        return 1;
    }
    uint64_t value = 1, got[4] = {0}, *slot;
    MPI_Win win;
    MPI_Win_allocate(sizeof *slot, sizeof *slot, MPI_INFO_NULL, MPI_COMM_WORLD, &slot, &win);
    MPI_Request req[2];
    if (rank == 0) {
        MPI_Isend(&value, 1, MPI_UINT64_T, 1, 0, MPI_COMM_WORLD, &req[0]);
        value = 2; /* wrong: the send is pending */
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Send_init(&value, 1, MPI_UINT64_T, 1, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Start(&req[1]);
        value = 3; /* wrong */
        MPI_Waitall(1, &req[1], MPI_STATUSES_IGNORE);
        MPI_Start(&req[1]);
        MPI_Waitall(1, &req[1], MPI_STATUSES_IGNORE); /* right */
        MPI_Request_free(&req[1]);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_UINT64_T, 1, 0, 1, MPI_UINT64_T, win);
        value = 4; /* wrong: the put is not flushed */
        MPI_Win_unlock(1, win);
    } else {
        for (int i = 0; i < 3; i++)
            MPI_Recv(&got[i], 1, MPI_UINT64_T, 0, i ? 1 : 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
