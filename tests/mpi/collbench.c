/* collbench: MPI_Bcast and MPI_Allreduce (doubles, MPI_SUM) on
 * MPI_COMM_WORLD, mean time per call over the ranks' slowest, for issue
 * 46's section 4 comparison with libscc's own (apps/coll_bench.c). One
 * CSV line per collective and size; sizes in bytes as arguments. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank;
    static double a[1 << 17], b[1 << 17];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("collective,bytes,iterations,usec\n");
    for (int k = 1; k < argc; k++) {
        int n = atoi(argv[k]) / (int)sizeof(double), iters = n <= 512 ? 20 : 5;
        if (n < 1)
            n = 1;
        if (n > 1 << 17)
            n = 1 << 17;
        for (int c = 0; c < 2; c++) {
            double worst;
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; i++) {
                if (c == 0)
                    MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                else
                    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            }
            double t = (MPI_Wtime() - t0) / iters;
            MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0)
                printf("%s,%d,%d,%.2f\n", c ? "allreduce" : "bcast", n * (int)sizeof(double),
                       iters, worst * 1e6);
        }
    }
    MPI_Finalize();
    return 0;
}
