/* colls: the v and w forms, MPI_IN_PLACE, a non-commutative user
 * operation (reduce and scan keep rank order), reduce_scatter, every
 * predefined operation class, on the world and on a subset. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

/* 2x2 integer matrices multiplied: associative, not commutative */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    int *a = in, *b = inout;
    (void)t;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int c[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };
        memcpy(b, c, sizeof c);
    }
}

static void run(MPI_Comm comm, const char *what)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);

    /* gatherv / scatterv / allgatherv: rank i has i+1 ints */
    int mine[48], all[48 * 49 / 2 + 48], cnt[48], dsp[48], tot = 0;
    for (int i = 0; i < size; i++) {
        cnt[i] = i + 1;
        dsp[i] = tot + i;       /* a gap of one between blocks */
        tot += i + 1;
    }
    for (int i = 0; i <= rank; i++)
        mine[i] = rank * 100 + i;
    for (int i = 0; i < tot + size; i++)
        all[i] = -1;
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, cnt, dsp, MPI_INT, size - 1, comm);
    for (int i = 0; rank == size - 1 && i < size; i++)
        for (int k = 0; k <= i; k++)
            CHECK(all[dsp[i] + k] == i * 100 + k, "%s gatherv %d.%d", what, i, k);
    int back[48];
    MPI_Scatterv(all, cnt, dsp, MPI_INT, back, rank + 1, MPI_INT, size - 1, comm);
    for (int k = 0; rank == size - 1 && k <= rank; k++)
        CHECK(back[k] == rank * 100 + k, "%s scatterv %d", what, k);
    for (int i = 0; i < tot + size; i++)
        all[i] = -1;
    MPI_Allgatherv(mine, rank + 1, MPI_INT, all, cnt, dsp, MPI_INT, comm);
    for (int i = 0; i < size; i++)
        for (int k = 0; k <= i; k++)
            CHECK(all[dsp[i] + k] == i * 100 + k, "%s allgatherv %d.%d", what, i, k);

    /* in place */
    int g[48];
    for (int i = 0; i < size; i++)
        g[i] = i == rank ? rank * 7 : -1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1, MPI_INT, comm);
    for (int i = 0; i < size; i++)
        CHECK(g[i] == i * 7, "%s allgather in place %d: %d", what, i, g[i]);
    int v = rank + 1;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_PROD, comm);
    int f = 1;
    for (int i = 1; i <= size; i++)
        f *= i;
    CHECK(v == f, "%s prod %d", what, v);
    double dv[3] = { rank, -rank, 1.0 };
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : dv, dv, 3, MPI_DOUBLE, MPI_MIN, 0, comm);
    CHECK(rank || (dv[0] == 0 && dv[1] == -(size - 1) && dv[2] == 1), "%s min", what);

    /* alltoallv: rank r sends j+1 copies of r to rank j */
    int sc[48], sd[48], rc[48], rd[48], sbuf[48 * 49], rbuf[48 * 49], so = 0, ro = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = j + 1, sd[j] = so, so += j + 1;
        rc[j] = rank + 1, rd[j] = ro, ro += rank + 1;
        for (int k = 0; k <= j; k++)
            sbuf[sd[j] + k] = rank;
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm);
    for (int j = 0; j < size; j++)
        for (int k = 0; k <= rank; k++)
            CHECK(rbuf[rd[j] + k] == j, "%s alltoallv %d.%d", what, j, k);
    /* alltoallw with byte displacements and mixed types */
    MPI_Datatype st[48], rt[48];
    int sbd[48], rbd[48], one[48];
    double dsb[48], drb[48];
    for (int j = 0; j < size; j++) {
        st[j] = rt[j] = MPI_DOUBLE;
        sbd[j] = rbd[j] = j * (int)sizeof(double);
        one[j] = 1;
        dsb[j] = rank * 100 + j;      /* exact: i386 compares in extended precision */
    }
    MPI_Alltoallw(dsb, one, sbd, st, drb, one, rbd, rt, comm);
    for (int j = 0; j < size; j++)
        CHECK(drb[j] == j * 100 + rank, "%s alltoallw %d", what, j);

    /* reduce_scatter_block and reduce_scatter */
    int rs_in[48 * 2], rs_out[2];
    for (int i = 0; i < 2 * size; i++)
        rs_in[i] = i;
    MPI_Reduce_scatter_block(rs_in, rs_out, 2, MPI_INT, MPI_SUM, comm);
    CHECK(rs_out[0] == 2 * rank * size && rs_out[1] == (2 * rank + 1) * size,
          "%s reduce_scatter_block %d %d", what, rs_out[0], rs_out[1]);
    int rcnt[48], totc = 0;
    for (int i = 0; i < size; i++)
        rcnt[i] = i % 2 + 1, totc += rcnt[i];
    int rsv_in[96], rsv_out[2], off = 0;
    for (int i = 0; i < totc; i++)
        rsv_in[i] = 1;
    MPI_Reduce_scatter(rsv_in, rsv_out, rcnt, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < rank; i++)
        off += rcnt[i];
    for (int k = 0; k < rcnt[rank]; k++)
        CHECK(rsv_out[k] == size, "%s reduce_scatter %d", what, rsv_out[k]);

    /* logical and bitwise */
    int b = 1 << (rank % 31), bor, land, lxor;
    MPI_Allreduce(&b, &bor, 1, MPI_INT, MPI_BOR, comm);
    int exp = 0;
    for (int i = 0; i < size; i++)
        exp |= 1 << (i % 31);
    CHECK(bor == exp, "%s bor %x", what, bor);
    int t = rank != 0;
    MPI_Allreduce(&t, &land, 1, MPI_INT, MPI_LAND, comm);
    CHECK(land == (size == 1 ? 0 : 0), "%s land %d", what, land);
    MPI_Allreduce(&t, &lxor, 1, MPI_INT, MPI_LXOR, comm);
    CHECK(lxor == (size - 1) % 2, "%s lxor %d", what, lxor);
    struct { int v, k; } mn = { rank % 2 ? -rank : rank, rank }, res;
    MPI_Allreduce(&mn, &res, 1, MPI_2INT, MPI_MINLOC, comm);
    int lo = 0, lok = 0;
    for (int i = 0; i < size; i++)
        if ((i % 2 ? -i : i) < lo)
            lo = i % 2 ? -i : i, lok = i;
    CHECK(res.v == lo && res.k == lok, "%s minloc %d %d (want %d %d)", what, res.v, res.k, lo, lok);
    (void)off;
}

static void order_check(MPI_Comm comm, const char *what)
{
    /* non-commutative reduce and scan: 2x2 matrix products in rank order */
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Op op;
    MPI_Op_create(matmul, 0, &op);
    int m[4] = { 1 + rank, 1, 1, 0 }, red[4], sc[4];
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Reduce(m, red, 1, mat, op, 0, comm);
    MPI_Scan(m, sc, 1, mat, op, comm);
    int w[4] = { 1, 0, 0, 1 };
    for (int i = 0; i <= (rank == 0 ? size - 1 : rank); i++) {
        int mi[4] = { 1 + i, 1, 1, 0 }, one = 1;
        matmul(w, mi, &one, NULL);      /* mi = w * mi */
        memcpy(w, mi, sizeof w);
        if (i == rank)
            CHECK(!memcmp(sc, w, sizeof w), "%s scan at %d: %d %d %d %d", what, rank, sc[0],
                  sc[1], sc[2], sc[3]);
    }
    if (rank == 0)
        CHECK(!memcmp(red, w, sizeof w), "%s ordered reduce: %d %d %d %d vs %d %d %d %d", what,
              red[0], red[1], red[2], red[3], w[0], w[1], w[2], w[3]);
    MPI_Type_free(&mat);
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    run(MPI_COMM_WORLD, "world");
    order_check(MPI_COMM_WORLD, "world");
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3 == 1, rank, &sub);
    run(sub, "subset");
    order_check(sub, "subset");
    MPI_Comm_free(&sub);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
