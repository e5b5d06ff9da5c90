/* pingpong.c - a plain MPI ping-pong of one byte between ranks 0 and 1:
 * rank 0 prints the least round trip of N (argv[1], default 20000) in µs.
 * The least, not a mean: it is the one statistic that a busy machine cannot
 * inflate, so it tells shared memory from TCP on any load (70-cluster.t,
 * 71-cluster-levels.t: the harness's nodes are separate). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n = argc > 1 ? atoi(argv[1]) : 20000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char byte = 0;
    double least = 1e30;
    for (int i = 0; i < n && rank < 2; i++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(&byte, 1, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&byte, 1, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&byte, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&byte, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
        double dt = MPI_Wtime() - t0;
        least = dt < least ? dt : least;
    }
    if (rank == 0) /* before MPI_Finalize, which may not return (README) */
        printf("%.3f\n", least * 1e6), fflush(stdout);
    MPI_Finalize();
    return 0;
}
