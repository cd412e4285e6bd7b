/* persist: persistent requests around a ring, started ten times, small,
 * synchronous and large (rendezvous) messages; inactive ones count as
 * null in Waitall and Testany; a persistent buffered send. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

#define BIG 4000

int main(int argc, char **argv)
{
    int rank, size;
    static int out[BIG], in[BIG], s1, r1, s2, r2;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request q[6];
    MPI_Recv_init(&r1, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Recv_init(in, BIG, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Recv_init(&r2, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &q[2]);
    MPI_Send_init(&s1, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &q[3]);
    MPI_Send_init(out, BIG, MPI_INT, right, 2, MPI_COMM_WORLD, &q[4]);
    MPI_Ssend_init(&s2, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &q[5]);
    int flag = 0, idx = 0;
    MPI_Testany(6, q, &idx, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && idx == MPI_UNDEFINED, "testany over inactive requests: %d %d", flag, idx);
    for (int it = 0; it < 10; it++) {
        s1 = rank * 100 + it;
        s2 = -s1;
        for (int i = 0; i < BIG; i++)
            out[i] = rank + it + i;
        MPI_Startall(6, q);
        MPI_Status st[6];
        MPI_Waitall(6, q, st);
        CHECK(r1 == left * 100 + it && r2 == -(left * 100 + it), "iteration %d: %d %d", it, r1,
              r2);
        CHECK(in[BIG - 1] == left + it + BIG - 1 && st[1].MPI_SOURCE == left,
              "iteration %d: big from %d", it, st[1].MPI_SOURCE);
        CHECK(q[0] != MPI_REQUEST_NULL, "a persistent request was freed by Waitall");
    }
    MPI_Status st;
    MPI_Wait(&q[0], &st);       /* inactive: at once, an empty status */
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "inactive wait");
    for (int i = 0; i < 6; i++)
        MPI_Request_free(&q[i]);
    CHECK(q[0] == MPI_REQUEST_NULL, "request_free");

    /* a persistent buffered send, started twice */
    int bsz = 2 * (BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *space = malloc(bsz);
    MPI_Buffer_attach(space, bsz);
    MPI_Request b;
    MPI_Bsend_init(out, BIG, MPI_INT, right, 4, MPI_COMM_WORLD, &b);
    for (int it = 0; it < 2; it++) {
        MPI_Start(&b);
        MPI_Wait(&b, MPI_STATUS_IGNORE);
        MPI_Recv(in, BIG, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(in[0] == left + 9, "bsend_init %d: %d", it, in[0]);
    }
    MPI_Request_free(&b);
    void *p;
    MPI_Buffer_detach(&p, &bsz);
    free(space);

    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
