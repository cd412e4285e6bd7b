/* collbench: MPI_Bcast and MPI_Allreduce (doubles, MPI_SUM, root 0) on
 * MPI_COMM_WORLD against libscc's own RCCE_bcast and RCCE_allreduce on
 * RCCE_COMM_WORLD (the same cores, libscc's `auto` choice, which is also
 * what serves the MPI call), for issue 46's section 4 comparison, in one
 * binary and one measurement. One CSV line per collective and size
 * (bytes as arguments: 8 4096 1M), times in MPI_Wtime's microseconds
 * (modeled in timing mode: the clock is global):
 *   mpi_us, libscc_us: the latency of one call as libscc's own benchmark
 *     measures it (apps/coll/collbench.c, 001's method): every call after
 *     a barrier, from the root's call to the moment the last member
 *     returns; the median of ITERS calls after one warm-up call (the
 *     first finds its lines cold: docs/timing.md, "Measuring well");
 *     ratio is mpi_us / libscc_us;
 *   mpi_b2b_us, libscc_b2b_us: ITERS calls back to back after a barrier
 *     and a warm-up call, the mean per call, the slowest rank's (a call
 *     may start while the last one still ends elsewhere: MPI's agreement
 *     makes every call wait for every member);
 * and the algorithm libscc used. The first line is MPI_Barrier against
 * RCCE_barrier: what an agreement costs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"
#include "scc_coll.h"

#define MAXITERS 20

static double a[1 << 17], b[1 << 17];
static double t0s[MAXITERS], t1s[MAXITERS], ends[MAXITERS];

/* Collective c (0 bcast, 1 allreduce, 2 barrier) on n doubles, through
 * MPI or libscc. */
static void call(int c, int mpi, int n)
{
    if (c == 2 && mpi)
        MPI_Barrier(MPI_COMM_WORLD);
    else if (c == 2)
        RCCE_barrier(&RCCE_COMM_WORLD);
    else if (c == 0 && mpi)
        MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else if (c == 0)
        RCCE_bcast((char *)a, (size_t)n * sizeof(double), 0, RCCE_COMM_WORLD);
    else if (mpi)
        MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else
        RCCE_allreduce((char *)a, (char *)b, n, RCCE_DOUBLE, RCCE_SUM, RCCE_COMM_WORLD);
}

static int cmp(const void *x, const void *y)
{
    double d = *(const double *)x - *(const double *)y;
    return d < 0 ? -1 : d > 0;
}

/* The median latency of a call (rank 0's result). */
static double latency(int c, int mpi, int n, int iters)
{
    for (int i = -1; i < iters; i++) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        double t0 = MPI_Wtime();
        call(c, mpi, n);
        double t1 = MPI_Wtime();
        if (i >= 0) {
            t0s[i] = t0;
            t1s[i] = t1;
        }
    }
    MPI_Reduce(t1s, ends, iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++)
        ends[i] -= t0s[i];              /* rank 0 is the root */
    qsort(ends, (size_t)iters, sizeof *ends, cmp);
    return (iters % 2 ? ends[iters / 2] : (ends[iters / 2 - 1] + ends[iters / 2]) / 2) * 1e6;
}

/* The slowest rank's mean time per call of calls back to back. */
static double back_to_back(int c, int mpi, int n, int iters)
{
    double t0 = 0, worst;

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = -1; i < iters; i++) {
        if (!i)
            t0 = MPI_Wtime();
        call(c, mpi, n);
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
        printf("collective,bytes,iterations,mpi_us,libscc_us,ratio,mpi_b2b_us,libscc_b2b_us,"
               "libscc_algorithm\n");
    for (int k = 0; k < argc; k++) {
        /* first the barrier (no data: what an agreement costs) */
        char *end = "";
        long bytes = k ? strtol(argv[k], &end, 10) : 0;
        if (*end == 'K' || *end == 'k')
            bytes <<= 10;
        else if (*end == 'M' || *end == 'm')
            bytes <<= 20;
        int n = (int)(bytes / (long)sizeof(double)), iters = n <= 512 ? MAXITERS : 5;
        if (n < 1)
            n = 1;
        if (n > 1 << 17)
            n = 1 << 17;
        static const char *name[] = { "bcast", "allreduce", "barrier" };
        for (int c = k ? 0 : 2; c < (k ? 2 : 3); c++) {
            double m = latency(c, 1, n, iters), l = latency(c, 0, n, iters);
            double mb = back_to_back(c, 1, n, iters), lb = back_to_back(c, 0, n, iters);
            if (rank == 0)
                printf("%s,%d,%d,%.2f,%.2f,%.3f,%.2f,%.2f,%s\n", name[c],
                       c == 2 ? 0 : n * (int)sizeof(double), iters, m, l, m / l, mb, lb,
                       scc_coll_used(name[c]));
        }
    }
    MPI_Finalize();
    return 0;
}
