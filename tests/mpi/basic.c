/* basic: point to point around a ring, ANY_SOURCE, and every collective
 * on MPI_COMM_WORLD and on a split; " No Errors" from rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs;

#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(int argc, char **argv)
{
    int rank, size, provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_FUNNELED, "provided %d", provided);

    /* a ring, both blocking and not */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(got == left, "ring: got %d from %d", got, left);

    /* a large message (rendezvous), non-contiguous on the receiving side */
    static double big[20000], back[40000];
    for (int i = 0; i < 20000; i++)
        big[i] = rank * 1e5 + i;
    MPI_Datatype every2;
    MPI_Type_vector(20000, 1, 2, MPI_DOUBLE, &every2);
    MPI_Type_commit(&every2);
    MPI_Request rq[2];
    MPI_Irecv(back, 1, every2, left, 8, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(big, 20000, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 20000; i++)
        if (back[2 * i] != left * 1e5 + i) {
            CHECK(0, "big[%d] = %g", i, back[2 * i]);
            break;
        }
    MPI_Type_free(&every2);

    /* everyone to rank 0, ANY_SOURCE */
    if (rank == 0) {
        unsigned long long seen = 0;
        for (int i = 1; i < size; i++) {
            MPI_Status st;
            int v, n;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(v == st.MPI_SOURCE && st.MPI_TAG == 100 + v && n == 1, "any: %d %d", v, n);
            seen |= 1ull << v;
        }
        CHECK(seen == ((1ull << size) - 2), "any: seen %llx", seen);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
    }

    /* collectives */
    int v = rank + 1, sum = 0, mx;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size + 1) / 2, "allreduce %d", sum);
    MPI_Reduce(&v, &mx, 1, MPI_INT, MPI_MAX, size - 1, MPI_COMM_WORLD);
    CHECK(rank != size - 1 || mx == size, "reduce %d", mx);
    char msg[64] = "";
    if (rank == 1 % size)
        strcpy(msg, "hello from the root");
    MPI_Bcast(msg, sizeof msg, MPI_CHAR, 1 % size, MPI_COMM_WORLD);
    CHECK(!strcmp(msg, "hello from the root"), "bcast '%s'", msg);
    int all[48], mine2[2] = { rank, -rank }, two[96];
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i, "allgather[%d] = %d", i, all[i]);
    MPI_Gather(mine2, 2, MPI_INT, two, 2, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; rank == 0 && i < size; i++)
        CHECK(two[2 * i] == i && two[2 * i + 1] == -i, "gather %d", i);
    int sc = -1;
    MPI_Scatter(all, 1, MPI_INT, &sc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(sc == rank, "scatter %d", sc);
    int to[48], from[48];
    for (int i = 0; i < size; i++)
        to[i] = rank * 100 + i;
    MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECK(from[i] == i * 100 + rank, "alltoall[%d] = %d", i, from[i]);
    int scan, exscan = -7;
    MPI_Scan(&v, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(scan == (rank + 1) * (rank + 2) / 2, "scan %d", scan);
    MPI_Exscan(&v, &exscan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rank == 0 || exscan == rank * (rank + 1) / 2, "exscan %d", exscan);
    struct { double v; int k; } in = { (double)(rank % 3), rank }, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(out.v == (size > 2 ? 2 : size - 1) && out.k == (size > 2 ? 2 : size - 1),
          "maxloc %g %d", out.v, out.k);

    /* a split: even and odd ranks */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    int hr, hs, hsum;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    CHECK(hs == (size + 1 - rank % 2) / 2, "split size %d", hs);
    MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, half);
    int expect = 0;
    for (int i = rank % 2; i < size; i += 2)
        expect += i;
    CHECK(hsum == expect, "split allreduce %d", hsum);
    MPI_Comm_free(&half);

    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && errs == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
