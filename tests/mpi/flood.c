/* flood: rank 1 sends rank 0 more small messages than any rank may hold
 * unmatched, then one with another tag, which rank 0 waits for: to match
 * it rank 0 must take all the others first (a channel keeps its order),
 * as unexpected messages. Rank 0 must stop with a clear error, not lose
 * messages nor hang. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, last = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (int i = 0; i < 20000; i++)
            MPI_Send(&i, 0, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&last, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&last, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d: the messages fit\n", rank);
    }
    MPI_Finalize();
    return 0;
}
