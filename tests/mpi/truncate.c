/* truncate: a receive shorter than its message. With MPI_ERRORS_RETURN
 * the call returns MPI_ERR_TRUNCATE (also in the status, eager and
 * rendezvous alike) and the message is consumed; with argument "fatal"
 * the default handler ends the run naming rank, function and class. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, errs = 0, fatal = argc > 1 && !strcmp(argv[1], "fatal");
    static int big[3000], small[5];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!fatal)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        for (int i = 0; i < 3000; i++)
            big[i] = i;
        MPI_Send(big, 10, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(big, 3000, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Send(big, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    } else if (rank == 0) {
        for (int tag = 1; tag <= 2; tag++) {
            MPI_Status st;
            int cls, n, err = MPI_Recv(small, 5, MPI_INT, 1, tag, MPI_COMM_WORLD, &st);
            MPI_Error_class(err, &cls);
            MPI_Get_count(&st, MPI_INT, &n);
            if (cls != MPI_ERR_TRUNCATE || st.MPI_ERROR != MPI_ERR_TRUNCATE || n != 5 ||
                small[4] != 4) {
                printf("tag %d: class %d, status %d, count %d\n", tag, cls, st.MPI_ERROR, n);
                errs++;
            }
        }
        /* the channel is in step: the next message is the next one */
        int one = -1;
        MPI_Recv(&one, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (one != 0)
            errs++, printf("after the truncations: %d\n", one);
        char s[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(MPI_ERR_TRUNCATE, s, &len);
        if (!strstr(s, "truncated"))
            errs++, printf("error string '%s'\n", s);
    }
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
