/* intercoll: collectives on an intercommunicator (MPI-2's semantics:
 * data cross from one group to the other; a rooted call's root passes
 * MPI_ROOT, its group MPI_PROC_NULL, the other group the root's rank),
 * between the first third of the world (group A) and the rest (B), of
 * different sizes; and MPI_Comm_split and MPI_Comm_create of it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

/* not commutative: a pair (first, last) of the ranks reduced, in order */
static void span(void *in, void *inout, int *len, MPI_Datatype *t)
{
    int *a = in, *b = inout;
    (void)t;
    for (int i = 0; i < *len; i++) {      /* a comes just before b: (a's first, b's last) */
        int *x = a + 2 * i, *y = b + 2 * i;
        y[0] = x[0] >= 0 && y[0] >= 0 && x[1] + 1 == y[0] ? x[0] : -1000;
    }
}

int main(int argc, char **argv)
{
    int wrank, wsize;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        printf(" No Errors\n");
        MPI_Finalize();
        return 0;
    }
    int na = wsize / 3 ? wsize / 3 : 1, inA = wrank < na;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? na : 0, 7, &ic);
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    CHECK(size == (inA ? na : wsize - na) && rsize == wsize - size, "sizes %d %d", size, rsize);
    /* the world rank of remote rank r, and of local rank r */
    int rbase = inA ? na : 0;

    MPI_Barrier(ic);

    /* Bcast from each side's rank 1 (or 0) */
    for (int side = 0; side < 2; side++) {
        int rootside = side == 0, root = size > 1 && rsize > 1 ? 1 : 0;
        int v = -1, rootrank = rootside ? root : 0;
        if (inA == rootside) {
            int r = rank == rootrank ? MPI_ROOT : MPI_PROC_NULL;
            if (r == MPI_ROOT)
                v = 4242 + side;
            MPI_Bcast(&v, 1, MPI_INT, r, ic);
            CHECK(v == (rank == rootrank ? 4242 + side : -1), "bcast: root side got %d", v);
        } else {
            MPI_Bcast(&v, 1, MPI_INT, rootrank, ic);
            CHECK(v == 4242 + side, "bcast side %d: got %d", side, v);
        }
    }

    /* Gather to A's rank 0, then Scatter back from it; Gatherv to B's 0 */
    int *buf = malloc(sizeof(int) * 2 * (size_t)(wsize + 1));
    if (inA) {
        for (int i = 0; i < 2 * rsize; i++)
            buf[i] = -1;
        MPI_Gather(NULL, 0, MPI_INT, buf, 2, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
        if (rank == 0)
            for (int i = 0; i < rsize; i++)
                CHECK(buf[2 * i] == rbase + i && buf[2 * i + 1] == i, "gather: block %d: %d %d",
                      i, buf[2 * i], buf[2 * i + 1]);
        for (int i = 0; i < rsize; i++)
            buf[i] = 100 + i;
        MPI_Scatter(buf, 1, MPI_INT, NULL, 0, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
    } else {
        int mine[2] = { wrank, rank }, got = -1;
        MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_INT, 0, ic);
        MPI_Scatter(NULL, 0, MPI_INT, &got, 1, MPI_INT, 0, ic);
        CHECK(got == 100 + rank, "scatter: got %d", got);
    }
    {
        int *cnt = malloc(sizeof(int) * (size_t)wsize), *dsp = malloc(sizeof(int) * (size_t)wsize);
        for (int i = 0; i < wsize; i++) {
            cnt[i] = i % 2 + 1;
            dsp[i] = 3 * i;
        }
        if (!inA) {
            for (int i = 0; i < 3 * rsize; i++)
                buf[i] = -1;
            MPI_Gatherv(NULL, 0, MPI_INT, buf, cnt, dsp, MPI_INT,
                        rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
            if (rank == 0)
                for (int i = 0; i < rsize; i++)
                    for (int k = 0; k < 3; k++)
                        CHECK(buf[3 * i + k] == (k < cnt[i] ? 10 * i + k : -1),
                              "gatherv: %d.%d: %d", i, k, buf[3 * i + k]);
        } else {
            int mine[2] = { 10 * rank, 10 * rank + 1 };
            MPI_Gatherv(mine, rank % 2 + 1, MPI_INT, NULL, NULL, NULL, MPI_INT, 0, ic);
        }
        free(cnt);
        free(dsp);
    }

    /* Allgather: each gets the other group's world ranks */
    for (int i = 0; i < rsize; i++)
        buf[i] = -1;
    MPI_Allgather(&wrank, 1, MPI_INT, buf, 1, MPI_INT, ic);
    for (int i = 0; i < rsize; i++)
        CHECK(buf[i] == rbase + i, "allgather %d: %d", i, buf[i]);

    /* Alltoall: block j to remote j says (my world rank, j) */
    {
        int *out = malloc(sizeof(int) * 2 * (size_t)rsize);
        for (int j = 0; j < rsize; j++) {
            out[2 * j] = wrank;
            out[2 * j + 1] = j;
        }
        MPI_Alltoall(out, 2, MPI_INT, buf, 2, MPI_INT, ic);
        for (int j = 0; j < rsize; j++)
            CHECK(buf[2 * j] == rbase + j && buf[2 * j + 1] == rank, "alltoall %d: %d %d", j,
                  buf[2 * j], buf[2 * j + 1]);
        free(out);
    }

    /* Reduce to B's rank 0 with an operation that is not commutative:
     * A's members in rank order; Allreduce both ways */
    {
        MPI_Op op;
        MPI_Op_create(span, 0, &op);
        int pair[2] = { wrank, wrank }, res[2] = { -5, -5 };
        if (inA) {
            MPI_Reduce(pair, NULL, 1, MPI_2INT, op, 0, ic);
        } else {
            MPI_Reduce(NULL, res, 1, MPI_2INT, op, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
            if (rank == 0)
                CHECK(res[0] == 0 && res[1] == na - 1, "noncommutative reduce: %d %d", res[0],
                      res[1]);
        }
        MPI_Op_free(&op);
        int sum = -1;
        MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic);
        int want = 0;
        for (int i = 0; i < rsize; i++)
            want += rbase + i;
        CHECK(sum == want, "allreduce: %d, not %d", sum, want);
    }

    /* Reduce_scatter_block: each side's vector of size * 1 sums the
     * other side's; the totals agree when the sides have one count each */
    {
        int total = size * rsize;      /* equal on both sides */
        int *in = malloc(sizeof(int) * (size_t)total), got[64];
        int per = total / size;
        for (int i = 0; i < total; i++)
            in[i] = wrank + i;
        MPI_Reduce_scatter_block(in, got, per, MPI_INT, MPI_SUM, ic);
        for (int k = 0; k < per; k++) {
            int want = 0, i = rank * per + k;
            for (int r = 0; r < rsize; r++)
                want += rbase + r + i;
            CHECK(got[k] == want, "reduce_scatter_block %d: %d, not %d", k, got[k], want);
        }
        free(in);
    }

    /* Split by parity of the local rank, keys reversed: an intercomm whose
     * local rank 0 is the highest of its parity */
    {
        MPI_Comm sc;
        MPI_Comm_split(ic, rank % 2, -rank, &sc);
        int lodd = size / 2, rodd = rsize / 2;       /* members of parity 1 */
        if ((rank % 2 ? rodd : (rsize + 1) / 2) == 0 || (rank % 2 && lodd == 0)) {
            CHECK(sc == MPI_COMM_NULL, "split: no remote members of my color, yet a comm");
        } else {
            int flag, sr, ss, srs;
            MPI_Comm_test_inter(sc, &flag);
            MPI_Comm_rank(sc, &sr);
            MPI_Comm_size(sc, &ss);
            MPI_Comm_remote_size(sc, &srs);
            int mine = rank % 2 ? lodd : (size + 1) / 2;
            CHECK(flag && ss == mine && sr == mine - 1 - rank / 2 &&
                  srs == (rank % 2 ? rodd : (rsize + 1) / 2), "split: inter %d rank %d "
                  "size %d remote %d", flag, sr, ss, srs);
            int s = -1;
            MPI_Allreduce(&wrank, &s, 1, MPI_INT, MPI_MAX, sc);
            int want = -1;
            for (int i = 0; i < rsize; i++)
                if (i % 2 == rank % 2 && rbase + i > want)
                    want = rbase + i;
            CHECK(s == want, "split comm allreduce: %d, not %d", s, want);
            MPI_Comm_free(&sc);
        }
    }

    /* Create without each group's rank 0 */
    {
        MPI_Group g, g1;
        MPI_Comm cc;
        MPI_Comm_group(ic, &g);
        MPI_Group_excl(g, 1, (int[]){ 0 }, &g1);
        MPI_Comm_create(ic, g1, &cc);
        if (rank == 0 || size < 2 || rsize < 2) {
            CHECK(cc == MPI_COMM_NULL, "create: a comm without remote members or me");
        } else {
            int cr, crs;
            MPI_Comm_rank(cc, &cr);
            MPI_Comm_remote_size(cc, &crs);
            CHECK(cr == rank - 1 && crs == rsize - 1, "create: rank %d remote %d", cr, crs);
            MPI_Barrier(cc);
            MPI_Comm_free(&cc);
        }
        MPI_Group_free(&g);
        MPI_Group_free(&g1);
    }

    free(buf);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && !all)
        printf(" No Errors\n");
    MPI_Finalize();
    return all != 0;
}
