/* nofinalize: rank 1 returns from main without MPI_Finalize (status 0):
 * that is reported and fails the run. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        return 0;
    MPI_Finalize();
    return 0;
}
