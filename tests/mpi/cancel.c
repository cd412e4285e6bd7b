/* cancel: a receive cancelled before any message matched it completes as
 * cancelled and takes nothing: the message sent afterwards goes to the
 * next receive. A receive already matched cannot be cancelled. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, errs = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int a = -1, b = -1, flag = 0;
        MPI_Request r;
        MPI_Status st;
        MPI_Irecv(&a, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        if (!flag || r != MPI_REQUEST_NULL)
            errs++, printf("pending receive not cancelled\n");
        MPI_Barrier(MPI_COMM_WORLD);    /* now rank 1 sends */
        MPI_Recv(&b, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (a != -1 || b != 99)
            errs++, printf("a %d b %d: the cancelled receive took the message\n", a, b);
        /* matched: the cancel has no effect */
        MPI_Irecv(&a, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);    /* rank 1's Ssend was matched */
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        if (flag || a != 100)
            errs++, printf("matched receive: cancelled %d, a %d\n", flag, a);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            int v = 99;
            MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            int v = 100;        /* synchronous: matched before the barrier */
            MPI_Ssend(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
