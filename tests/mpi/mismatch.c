/* mismatch: a collective called with different counts (rank 0 passes
 * more). Every rank must get an error, and none hang: with
 * MPI_ERRORS_RETURN each prints its error class; with argument "fatal"
 * the default handler ends the run. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, fatal = argc > 1 && !strcmp(argv[1], "fatal");
    double buf[16] = { 0 };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!fatal)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int err = MPI_Bcast(buf, rank == 0 ? 16 : 8, MPI_DOUBLE, 0, MPI_COMM_WORLD), cls;
    MPI_Error_class(err, &cls);
    printf("rank %d: bcast error class %d\n", rank, cls);
    err = MPI_Allreduce(MPI_IN_PLACE, buf, rank == 1 ? 3 : 4, MPI_DOUBLE, MPI_SUM,
                        MPI_COMM_WORLD);
    MPI_Error_class(err, &cls);
    printf("rank %d: allreduce error class %d\n", rank, cls);
    MPI_Finalize();
    return 0;
}
