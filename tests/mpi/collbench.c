/* collbench: MPI_Bcast and MPI_Allreduce (doubles, MPI_SUM, root 0) on
 * MPI_COMM_WORLD against libscc's own RCCE_bcast and RCCE_allreduce on
 * RCCE_COMM_WORLD (the same cores, libscc's `auto` choice, which is also
 * what serves the MPI call), for issue 46's section 4 comparison, in one
 * binary and one measurement: after MPI_Barrier and one warm-up call
 * (the first call finds its lines cold: docs/timing.md, "Measuring
 * well"), the mean time per call of ITERS back-to-back calls, the
 * slowest rank's. One CSV line per collective and size (bytes as
 * arguments: 8 4096 1M), times in MPI_Wtime's microseconds (modeled in
 * timing mode), with the algorithm libscc used. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"
#include "scc_coll.h"

static double a[1 << 17], b[1 << 17];

/* The slowest rank's mean microseconds per call of collective c (0 bcast,
 * 1 allreduce) on n doubles, through MPI (mpi) or libscc. */
static double timed(int c, int mpi, int n, int iters)
{
    double t0 = 0, worst;

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = -1; i < iters; i++) {
        if (!i)
            t0 = MPI_Wtime();
        if (c == 0 && mpi)
            MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        else if (c == 0)
            RCCE_bcast((char *)a, (size_t)n * sizeof(double), 0, RCCE_COMM_WORLD);
        else if (mpi)
            MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            RCCE_allreduce((char *)a, (char *)b, n, RCCE_DOUBLE, RCCE_SUM, RCCE_COMM_WORLD);
    }
    double t = (MPI_Wtime() - t0) / iters;
    MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return worst * 1e6;
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("collective,bytes,iterations,mpi_usec,libscc_usec,ratio,libscc_algorithm\n");
    for (int k = 1; k < argc; k++) {
        char *end;
        long bytes = strtol(argv[k], &end, 10);
        if (*end == 'K' || *end == 'k')
            bytes <<= 10;
        else if (*end == 'M' || *end == 'm')
            bytes <<= 20;
        int n = (int)(bytes / (long)sizeof(double)), iters = n <= 512 ? 20 : 5;
        if (n < 1)
            n = 1;
        if (n > 1 << 17)
            n = 1 << 17;
        for (int c = 0; c < 2; c++) {
            double m = timed(c, 1, n, iters), l = timed(c, 0, n, iters);
            if (rank == 0)
                printf("%s,%d,%d,%.2f,%.2f,%.3f,%s\n", c ? "allreduce" : "bcast",
                       n * (int)sizeof(double), iters, m, l, m / l,
                       scc_coll_used(c ? "allreduce" : "bcast"));
        }
    }
    MPI_Finalize();
    return 0;
}
