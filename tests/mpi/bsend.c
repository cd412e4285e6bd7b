/* bsend: buffered sends complete without a matching receive, within the
 * attached buffer; one beyond its free space fails with MPI_ERR_BUFFER
 * (MPI_ERRORS_RETURN; with argument "fatal" the default handler ends the
 * run). Detach waits until the buffered messages left. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MSG 1000        /* ints */

int main(int argc, char **argv)
{
    int rank, errs = 0, fatal = argc > 1 && !strcmp(argv[1], "fatal");
    static int data[MSG], got[MSG];
    static char space[2 * (MSG * sizeof(int) + MPI_BSEND_OVERHEAD)];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!fatal)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Buffer_attach(space, sizeof space);
        for (int i = 0; i < 2; i++) {
            data[0] = i;
            if (MPI_Bsend(data, MSG, MPI_INT, 0, i, MPI_COMM_WORLD) != MPI_SUCCESS)
                errs++, printf("bsend %d within the buffer failed\n", i);
        }
        /* the buffer is full until rank 0 takes them: this one must fail */
        int err = MPI_Bsend(data, MSG, MPI_INT, 0, 2, MPI_COMM_WORLD), cls;
        MPI_Error_class(err, &cls);
        if (cls != MPI_ERR_BUFFER)
            errs++, printf("bsend beyond the buffer: class %d\n", cls);
        MPI_Barrier(MPI_COMM_WORLD);
        void *p;
        int n;
        MPI_Buffer_detach(&p, &n);
        if (p != space || n != (int)sizeof space)
            errs++, printf("detach gave %p %d\n", p, n);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; rank == 0 && i < 2; i++) {
            MPI_Recv(got, MSG, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (got[0] != i)
                errs++, printf("message %d: %d\n", i, got[0]);
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
