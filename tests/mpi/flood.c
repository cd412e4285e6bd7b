/* flood: rank 1 sends rank 0 more small messages than any rank may hold
 * unmatched while rank 0 is in a barrier it cannot leave until rank 1
 * got there: rank 0 must stop with a clear error, not lose messages nor
 * hang. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 1)
        for (int i = 0; i < 20000; i++)
            MPI_Send(&i, 0, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: the messages fit\n", rank);
    MPI_Finalize();
    return 0;
}
