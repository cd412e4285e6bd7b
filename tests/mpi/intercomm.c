/* intercomm: even and odd ranks as the two groups of an
 * intercommunicator: point to point across it, remote size and group,
 * dup, merge (low group first), MPI_Scan refused (intercollectives:
 * intercoll.c); and
 * MPI_Comm_create_group over the first ranks alone. */
#include <mpi.h>
#include <stdio.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(int argc, char **argv)
{
    int rank, size, flag, n;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2) {
        MPI_Comm half, inter, dup, merged;
        int color = rank % 2, lsize, rsize, lrank;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Comm_size(half, &lsize);
        MPI_Comm_rank(half, &lrank);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : 1, 99, &inter);
        MPI_Comm_test_inter(inter, &flag);
        MPI_Comm_remote_size(inter, &rsize);
        CHECK(flag && rsize == (color ? (size + 1) / 2 : size / 2), "remote size %d", rsize);
        MPI_Group rg;
        MPI_Comm_remote_group(inter, &rg);
        MPI_Group_size(rg, &n);
        CHECK(n == rsize, "remote group size %d", n);
        MPI_Group_free(&rg);
        for (int round = 0; round < 2; round++) {
            MPI_Comm c = inter;
            if (round) {
                MPI_Comm_dup(inter, &dup);
                c = dup;
            }
            if (lrank < rsize) {        /* partner: the remote rank of my local rank */
                int got = -1;
                MPI_Status st;
                MPI_Sendrecv(&rank, 1, MPI_INT, lrank, 5, &got, 1, MPI_INT, lrank, 5, c, &st);
                CHECK(got == 2 * lrank + !color && st.MPI_SOURCE == lrank,
                      "round %d: got %d from %d", round, got, st.MPI_SOURCE);
            }
        }
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        int one = 1, out, err = MPI_Scan(&one, &out, 1, MPI_INT, MPI_SUM, inter), cls;
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_COMM, "MPI_Scan (not defined) on an intercomm: class %d", cls);
        MPI_Intercomm_merge(inter, color, &merged);     /* evens low: first */
        MPI_Comm_rank(merged, &n);
        CHECK(n == (color ? (size + 1) / 2 + rank / 2 : rank / 2), "merged rank %d", n);
        int sum = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
        CHECK(sum == size * (size - 1) / 2, "merged allreduce %d", sum);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    /* create_group: the first min(3, size) ranks alone */
    MPI_Group world, first;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int k = size < 3 ? size : 3, r[3] = { 0, 1, 2 };
    MPI_Group_incl(world, k, r, &first);
    if (rank < k) {
        MPI_Comm fc;
        MPI_Comm_create_group(MPI_COMM_WORLD, first, 7, &fc);
        int s = 0;
        MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, fc);
        CHECK(s == k * (k - 1) / 2, "create_group allreduce %d", s);
        MPI_Comm_free(&fc);
    }
    MPI_Group_free(&first);
    MPI_Group_free(&world);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
