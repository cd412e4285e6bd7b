/* order: non-overtaking. Every rank but 0 sends 40 messages of mixed sizes
 * (eager and rendezvous) to rank 0, which takes them all with
 * MPI_ANY_SOURCE and MPI_ANY_TAG only after a barrier (so they wait as
 * unexpected messages) and checks each sender's sequence. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 40
#define BIG 5000        /* ints: above one MPB payload, a rendezvous */

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    static int buf[BIG];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank) {
        MPI_Request r[N];
        static int data[N][BIG];
        for (int i = 0; i < N; i++) {
            data[i][0] = i;
            MPI_Isend(data[i], i % 5 == 4 ? BIG : 1 + i % 3, MPI_INT, 0, i % 3, MPI_COMM_WORLD,
                      &r[i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
    } else {
        int next[48] = { 0 };
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < N * (size - 1); k++) {
            MPI_Status st;
            int n;
            MPI_Recv(buf, BIG, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            int s = st.MPI_SOURCE, want = next[s]++;
            if (buf[0] != want || st.MPI_TAG != want % 3 ||
                n != (want % 5 == 4 ? BIG : 1 + want % 3)) {
                printf("from %d: message %d (tag %d, %d ints), expected %d\n", s, buf[0],
                       st.MPI_TAG, n, want);
                errs++;
            }
        }
    }
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
