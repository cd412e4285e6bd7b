/* slow: a run that progresses while its ranks use next to no CPU. Rank 0
 * sleeps before each of its messages to rank 1, as a rank would on a host
 * whose CPUs other work takes; the run is slow, not deadlocked, and
 * scc-mpiexec must let it finish (tests/test_mpi.py). On the chip, with no
 * sleep to call, rank 0 waits on MPI_Wtime instead. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef SCC_HOST
#include <time.h>
#endif

static void nap(double s)
{
#ifdef SCC_HOST
    struct timespec ts = { 0, (long)(s * 1e9) };
    nanosleep(&ts, NULL);
#else
    double end = MPI_Wtime() + s;
    while (MPI_Wtime() < end)
        ;
#endif
}

int main(int argc, char **argv)
{
    int rank, n = argc > 1 ? atoi(argv[1]) : 8, x, errs = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n; i++) {
        if (rank == 0) {
            nap(0.4);
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            errs += x != i;
        }
    }
    MPI_Finalize();
    if (rank == 1 && !errs)
        printf(" No Errors\n");
    return errs != 0;
}
