/* deadlock: every rank waits for a message nobody sends. On the chip the
 * machine sees every core halted and ends the run (247); on the host
 * scc-mpiexec sees the ranks only wait and does the same. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int x;

    MPI_Init(&argc, &argv);
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("not reached\n");
    MPI_Finalize();
    return 0;
}
