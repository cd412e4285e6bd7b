/* types: derived datatypes (sizes, extents, typemaps through point to
 * point), Pack/Unpack, Get_elements, and a struct with padding. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

struct rec { char c; double d; int i[2]; };

int main(int argc, char **argv)
{
    int rank, size, n;
    MPI_Aint lb, ext;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* vector: 3 blocks of 2 ints, stride 4 */
    MPI_Datatype vec, idx, blk, st, rs, hv, cont;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_size(vec, &n);
    MPI_Type_get_extent(vec, &lb, &ext);
    CHECK(n == 24 && lb == 0 && ext == (2 * 4 + 2) * 4, "vector: size %d extent %ld", n, (long)ext);

    int bl[3] = { 1, 2, 1 }, dl[3] = { 5, 0, 9 };
    MPI_Type_indexed(3, bl, dl, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    MPI_Type_get_extent(idx, &lb, &ext);
    MPI_Type_get_true_extent(idx, &lb, &ext);
    CHECK(lb == 0 && ext == 40, "indexed true extent %ld %ld", (long)lb, (long)ext);

    int db[2] = { 3, 1 };
    MPI_Type_create_indexed_block(2, 2, db, MPI_SHORT, &blk);
    MPI_Type_commit(&blk);
    MPI_Type_size(blk, &n);
    CHECK(n == 8, "indexed_block size %d", n);

    struct rec r[2];
    int sbl[3] = { 1, 1, 2 };
    MPI_Aint sd[3], base;
    MPI_Datatype stt[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT };
    MPI_Get_address(&r[0], &base);
    MPI_Get_address(&r[0].c, &sd[0]);
    MPI_Get_address(&r[0].d, &sd[1]);
    MPI_Get_address(&r[0].i, &sd[2]);
    for (int i = 0; i < 3; i++)
        sd[i] -= base;
    MPI_Type_create_struct(3, sbl, sd, stt, &st);
    MPI_Type_commit(&st);
    MPI_Type_get_extent(st, &lb, &ext);
    CHECK(ext == (MPI_Aint)sizeof(struct rec), "struct extent %ld, sizeof %zu", (long)ext,
          sizeof(struct rec));
    MPI_Type_size(st, &n);
    CHECK(n == 1 + 8 + 8, "struct size %d", n);

    MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &rs);
    MPI_Type_commit(&rs);
    MPI_Type_get_extent(rs, &lb, &ext);
    CHECK(ext == 12, "resized extent %ld", (long)ext);
    MPI_Type_create_hvector(2, 1, 16, MPI_DOUBLE, &hv);
    MPI_Type_commit(&hv);
    MPI_Type_contiguous(2, vec, &cont);
    MPI_Type_commit(&cont);
    MPI_Type_size(cont, &n);
    CHECK(n == 48, "contiguous of vectors %d", n);

    /* through point to point, rank 0 <-> rank 1 */
    if (size >= 2 && rank < 2) {
        int peer = 1 - rank, a[12], b[12];
        for (int i = 0; i < 12; i++)
            a[i] = 100 * rank + i, b[i] = -1;
        MPI_Sendrecv(a, 1, vec, peer, 0, b, 6, MPI_INT, peer, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        int want[6] = { 0, 1, 4, 5, 8, 9 };
        for (int i = 0; i < 6; i++)
            CHECK(b[i] == 100 * peer + want[i], "vector p2p b[%d] = %d", i, b[i]);
        for (int i = 0; i < 2; i++) {
            r[i].c = (char)('a' + rank + i);
            r[i].d = rank + i + 0.5;
            r[i].i[0] = rank;
            r[i].i[1] = i;
        }
        struct rec got[2];
        memset(got, 0, sizeof got);
        MPI_Status s;
        MPI_Sendrecv(r, 2, st, peer, 1, got, 2, st, peer, 1, MPI_COMM_WORLD, &s);
        for (int i = 0; i < 2; i++)
            CHECK(got[i].c == 'a' + peer + i && got[i].d == peer + i + 0.5 &&
                  got[i].i[0] == peer && got[i].i[1] == i, "struct p2p %d", i);
        MPI_Get_count(&s, st, &n);
        CHECK(n == 2, "count of structs %d", n);
        MPI_Get_elements(&s, st, &n);
        CHECK(n == 8, "elements of structs %d", n);
        /* a partial struct: 1 struct and a char and a double -> count undefined */
        if (rank == 0)
            MPI_Send(r, 1 + 8 + 8 + 1 + 8, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        else {
            MPI_Recv(got, 2, st, 0, 2, MPI_COMM_WORLD, &s);
            MPI_Get_count(&s, st, &n);
            CHECK(n == MPI_UNDEFINED, "partial count %d", n);
            MPI_Get_elements(&s, st, &n);
            CHECK(n == 6, "partial elements %d", n);
        }
    }

    /* Pack/Unpack */
    int a[12], back[12], pos = 0, psize;
    char packed[256];
    for (int i = 0; i < 12; i++)
        a[i] = i, back[i] = -1;
    MPI_Pack_size(1, vec, MPI_COMM_WORLD, &psize);
    CHECK(psize >= 24, "pack size %d", psize);
    MPI_Pack(a, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    MPI_Pack(a, 2, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    CHECK(pos == 32, "position %d", pos);
    pos = 0;
    MPI_Unpack(packed, sizeof packed, &pos, back, 1, vec, MPI_COMM_WORLD);
    CHECK(back[0] == 0 && back[1] == 1 && back[2] == -1 && back[4] == 4 && back[9] == 9,
          "unpack vector");
    int two[2];
    MPI_Unpack(packed, sizeof packed, &pos, two, 2, MPI_INT, MPI_COMM_WORLD);
    CHECK(two[0] == 0 && two[1] == 1, "unpack ints");

    /* a derived type in a collective */
    int bc[12];
    for (int i = 0; i < 12; i++)
        bc[i] = rank == 0 ? i : -1;
    MPI_Bcast(bc, 1, vec, 0, MPI_COMM_WORLD);
    CHECK(bc[0] == 0 && bc[5] == 5 && bc[9] == 9 && (rank == 0 || bc[2] == -1), "bcast vec");

    /* envelopes and contents */
    int ni, na, nd, comb, ints[8];
    MPI_Aint addrs[4];
    MPI_Datatype dts[4];
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_NAMED, "named combiner %d", comb);
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "vector envelope");
    MPI_Type_get_contents(vec, 8, 4, 4, ints, addrs, dts);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && dts[0] == MPI_INT, "vector contents");
    MPI_Type_get_envelope(cont, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(cont, 8, 4, 4, ints, addrs, dts);
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ints[0] == 2 && dts[0] == vec, "contiguous");
    MPI_Type_free(&dts[0]);             /* the handle get_contents gave */
    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(st, 8, 4, 4, ints, addrs, dts);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3 && dts[1] == MPI_DOUBLE &&
          addrs[2] == sd[2], "struct contents");
    MPI_Type_get_envelope(rs, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(rs, 8, 4, 4, ints, addrs, dts);
    CHECK(comb == MPI_COMBINER_RESIZED && addrs[1] == 12, "resized contents");
    char tname[MPI_MAX_OBJECT_NAME];
    MPI_Type_set_name(vec, "every other pair");
    MPI_Type_get_name(vec, tname, &n);
    CHECK(!strcmp(tname, "every other pair"), "name '%s'", tname);
    MPI_Type_get_name(MPI_DOUBLE, tname, &n);
    CHECK(!strcmp(tname, "MPI_DOUBLE"), "name '%s'", tname);

    MPI_Datatype *all[] = { &vec, &idx, &blk, &st, &rs, &hv, &cont };
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        MPI_Type_free(all[i]);
    CHECK(vec == MPI_DATATYPE_NULL, "free");

    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
