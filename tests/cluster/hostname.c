/* hostname.c - each rank prints the name of its node after MPI_Init: an MPI
 * job across the virtual cluster's nodes (70-cluster.t).  An MPI program,
 * not hostname(1): hydra 4.0's proxies sometimes assert ("assert (!closed)
 * failed", the job failing) when a program that never speaks PMI exits
 * while they are still starting, 3 runs of 30 on a loaded machine here and
 * none of 30 with this program. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    printf("%s\n", host);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
