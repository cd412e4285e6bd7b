/* procnull: MPI_PROC_NULL as source and destination completes at once,
 * with source MPI_PROC_NULL, tag MPI_ANY_TAG and count 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, errs = 0, x = 42;
    MPI_Status st;
    MPI_Request r[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD);
    MPI_Ssend(&x, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD);
    x = 7;
    MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    if (x != 7 || st.MPI_SOURCE != MPI_PROC_NULL || st.MPI_TAG != MPI_ANY_TAG || n != 0)
        errs++, printf("recv: x %d source %d tag %d count %d\n", x, st.MPI_SOURCE, st.MPI_TAG, n);
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (r[0] != MPI_REQUEST_NULL || r[1] != MPI_REQUEST_NULL)
        errs++, printf("requests not freed\n");
    MPI_Sendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, &x, 1, MPI_INT, MPI_PROC_NULL, 1,
                 MPI_COMM_WORLD, &st);
    if (x != 7 || st.MPI_SOURCE != MPI_PROC_NULL)
        errs++, printf("sendrecv: %d %d\n", x, st.MPI_SOURCE);
    int flag = 0;
    MPI_Iprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &st);
    if (!flag || st.MPI_SOURCE != MPI_PROC_NULL)
        errs++, printf("iprobe: %d %d\n", flag, st.MPI_SOURCE);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
