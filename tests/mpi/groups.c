/* groups: the group calls, communicators made from groups, compare, dup,
 * split_type (the cores of a tile), names, attributes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(int argc, char **argv)
{
    int rank, size, n, res;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world, evens, odds, u, x, d, rev;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ev[24], nev = 0, nod = 0, r[48];
    for (int i = 0; i < size; i++)
        if (i % 2)
            nod++;
        else
            ev[nev++] = i;
    MPI_Group_incl(world, nev, ev, &evens);
    MPI_Group_excl(world, nev, ev, &odds);
    MPI_Group_size(odds, &n);
    CHECK(n == nod, "odds size %d", n);
    MPI_Group_rank(evens, &n);
    CHECK(n == (rank % 2 ? MPI_UNDEFINED : rank / 2), "evens rank %d", n);
    MPI_Group_union(odds, evens, &u);
    MPI_Group_compare(u, world, &res);
    CHECK(res == (size > 2 ? MPI_SIMILAR : size == 2 ? MPI_SIMILAR : MPI_IDENT), "union %d", res);
    MPI_Group_intersection(u, evens, &x);
    MPI_Group_compare(x, evens, &res);
    CHECK(res == MPI_IDENT, "intersection %d", res);
    MPI_Group_difference(world, odds, &d);
    MPI_Group_compare(d, evens, &res);
    CHECK(res == MPI_IDENT, "difference %d", res);
    int range[1][3] = { { size - 1, 0, -1 } };
    MPI_Group_range_incl(world, 1, range, &rev);
    for (int i = 0; i < size; i++)
        r[i] = i;
    int t[48];
    MPI_Group_translate_ranks(world, size, r, rev, t);
    for (int i = 0; i < size; i++)
        CHECK(t[i] == size - 1 - i, "translate %d -> %d", i, t[i]);
    MPI_Group_translate_ranks(world, size, r, evens, t);
    for (int i = 0; i < size; i++)
        CHECK(t[i] == (i % 2 ? MPI_UNDEFINED : i / 2), "translate to evens %d -> %d", i, t[i]);

    /* communicators */
    MPI_Comm ce, cr, dup;
    MPI_Comm_create(MPI_COMM_WORLD, evens, &ce);
    CHECK((rank % 2) == (ce == MPI_COMM_NULL), "create: %d", rank);
    if (ce != MPI_COMM_NULL) {
        int s = 0, one = 1;
        MPI_Allreduce(&one, &s, 1, MPI_INT, MPI_SUM, ce);
        CHECK(s == nev, "evens allreduce %d", s);
        MPI_Comm_free(&ce);
    }
    MPI_Comm_create(MPI_COMM_WORLD, rev, &cr);
    MPI_Comm_rank(cr, &n);
    CHECK(n == size - 1 - rank, "reversed rank %d", n);
    int got = -1;   /* p2p in the reversed communicator: from my left there */
    MPI_Sendrecv(&rank, 1, MPI_INT, (n + 1) % size, 0, &got, 1, MPI_INT, (n + size - 1) % size,
                 0, cr, MPI_STATUS_IGNORE);
    CHECK(got == (rank + 1) % size, "reversed ring %d", got);
    int bsum = rank;
    MPI_Bcast(&bsum, 1, MPI_INT, 0, cr);
    CHECK(bsum == size - 1, "bcast from reversed root %d", bsum);
    MPI_Comm_compare(cr, MPI_COMM_WORLD, &res);
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare reversed %d", res);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_CONGRUENT, "compare dup %d", res);
    MPI_Comm_compare(dup, dup, &res);
    CHECK(res == MPI_IDENT, "compare self %d", res);
    /* traffic on the dup does not match the world's */
    if (size >= 2 && rank < 2) {
        int a = rank, b = -1, c = -1;
        MPI_Request q[2];
        MPI_Irecv(&b, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(&c, 1, MPI_INT, 1 - rank, 0, dup, &q[1]);
        MPI_Send(&a, 1, MPI_INT, 1 - rank, 0, dup);
        a += 10;
        MPI_Send(&a, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        CHECK(b == 1 - rank + 10 && c == 1 - rank, "contexts: %d %d", b, c);
    }
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Comm_set_name(dup, "dup of world");
    MPI_Comm_get_name(dup, name, &n);
    CHECK(!strcmp(name, "dup of world") && n == 12, "name '%s'", name);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cr);

    MPI_Comm tile;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &tile);
    MPI_Comm_size(tile, &n);
    CHECK(n == (rank / 2 * 2 + 1 < size ? 2 : 1), "tile size %d", n);
    MPI_Comm_free(&tile);

    int *ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    CHECK(flag && *ub >= 32767, "tag ub");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ub, &flag);
    CHECK(flag && *ub == 1, "wtime is global");
    MPI_Info info;
    char val[16];
    MPI_Info_create(&info);
    MPI_Info_set(info, "color", "red");
    MPI_Info_set(info, "shape", "round");
    MPI_Info_set(info, "color", "blue");
    MPI_Info_get_nkeys(info, &n);
    MPI_Info_get(info, "color", sizeof val - 1, val, &flag);
    CHECK(n == 2 && flag && !strcmp(val, "blue"), "info: %d keys, color %s", n, val);
    MPI_Info_delete(info, "color");
    MPI_Info_get(info, "color", sizeof val - 1, val, &flag);
    CHECK(!flag, "info: deleted key found");
    MPI_Info_free(&info);
    CHECK(info == MPI_INFO_NULL, "info free");
    int v, sv;
    MPI_Get_version(&v, &sv);
    CHECK(v == 3 && sv == 1, "version %d.%d", v, sv);

    MPI_Group *gs[] = { &world, &evens, &odds, &u, &x, &d, &rev };
    for (unsigned i = 0; i < sizeof gs / sizeof gs[0]; i++)
        MPI_Group_free(gs[i]);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
