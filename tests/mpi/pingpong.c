/* pingpong: MPI_Send/MPI_Recv round trips between ranks 0 and 1 (the
 * others wait), for issue 46's section 4 comparison with RCCE's and
 * iRCCE's ping-pong (apps/pingpong.c), then the same with RCCE_send/
 * RCCE_recv in the same binary: two CSV lines per size (api mpi, rcce),
 * times in MPI_Wtime's microseconds (modeled in timing mode). Sizes in
 * bytes as arguments (default 32 and 65536); the word "any" first makes
 * rank 0 receive with MPI_ANY_SOURCE, which then also looks at every
 * other rank's channel (the cost of matching among quiet senders). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

int main(int argc, char **argv)
{
    int rank;
    static char buf[1 << 20];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int any = argc > 1 && !strcmp(argv[1], "any");
    if (any)
        argv++, argc--;
    int nsizes = argc > 1 ? argc - 1 : 2;
    if (rank == 0)
        printf("api,bytes,iterations,usec_per_roundtrip,MB_per_s\n");
    for (int s = 0; s < nsizes; s++) {
        int n = argc > 1 ? atoi(argv[1 + s]) : (s ? 65536 : 32);
        int iters = n <= 4096 ? 1000 : 128;
        if (n > (int)sizeof buf)
            n = sizeof buf;
        for (int rcce = 0; rcce < 2; rcce++)
            for (int warm = 1; warm >= 0; warm--) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < (warm ? 1 : iters); i++) {
                    if (rcce && rank < 2) {
                        if (rank == 0)
                            RCCE_send(buf, (size_t)n, 1);
                        RCCE_recv(buf, (size_t)n, !rank);
                        if (rank == 1)
                            RCCE_send(buf, (size_t)n, 0);
                    } else if (rank == 0) {
                        MPI_Send(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                        MPI_Recv(buf, n, MPI_BYTE, any ? MPI_ANY_SOURCE : 1, 0,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else if (rank == 1) {
                        MPI_Recv(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                    }
                }
                double us = (MPI_Wtime() - t0) * 1e6 / (warm ? 1 : iters);
                if (!warm && rank == 0)
                    printf("%s,%d,%d,%.2f,%.2f\n", rcce ? "rcce" : any ? "mpi-any" : "mpi", n,
                           iters, us, 2.0 * n / us);
            }
    }
    MPI_Finalize();
    return 0;
}
