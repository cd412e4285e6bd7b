/* abort: rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7) while the others wait
 * for a message that never comes: the run ends at once with status 7. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 7);
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: not reached\n", rank);
    MPI_Finalize();
    return 0;
}
