/* topo: Cartesian topologies (MPI_Dims_create, MPI_Cart_create and the
 * calls that name ranks by coordinates, MPI_Cart_sub, a dup keeps the
 * topology) and graphs (MPI_Graph_create and its queries). */
#include <mpi.h>
#include <stdio.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(int argc, char **argv)
{
    int rank, size, st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int d2[2] = { 0, 0 }, d3[3] = { 0, 2, 0 }, d1[1] = { 0 };
    MPI_Dims_create(12, 2, d2);
    CHECK(d2[0] == 4 && d2[1] == 3, "dims(12, 2): %d %d", d2[0], d2[1]);
    MPI_Dims_create(16, 3, d3);
    CHECK(d3[0] == 4 && d3[1] == 2 && d3[2] == 2, "dims(16, 3 with 2): %d %d %d", d3[0], d3[1],
          d3[2]);
    MPI_Dims_create(7, 1, d1);
    CHECK(d1[0] == 7, "dims(7, 1): %d", d1[0]);

    /* a periodic ring of all ranks crossed with nothing: a 2-D grid of
     * size x 1, rows periodic, columns not */
    int dims[2] = { 0, 0 }, periods[2] = { 1, 0 }, coords[2], r, src, dst;
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart, dup, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Topo_test(cart, &st);
    CHECK(st == MPI_CART, "topo_test %d", st);
    MPI_Topo_test(MPI_COMM_WORLD, &st);
    CHECK(st == MPI_UNDEFINED, "world's topo_test %d", st);
    MPI_Cart_coords(cart, rank, 2, coords);
    CHECK(coords[0] == rank / dims[1] && coords[1] == rank % dims[1], "coords of %d: %d %d",
          rank, coords[0], coords[1]);
    MPI_Cart_rank(cart, coords, &r);
    CHECK(r == rank, "rank of my coords: %d", r);
    int wrapped[2] = { coords[0] + dims[0], coords[1] };
    MPI_Cart_rank(cart, wrapped, &r);
    CHECK(r == rank, "rank of wrapped coords: %d", r);
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(src == ((coords[0] - 1 + dims[0]) % dims[0]) * dims[1] + coords[1] &&
          dst == ((coords[0] + 1) % dims[0]) * dims[1] + coords[1], "shift 0: %d %d", src, dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    CHECK(src == (coords[1] ? rank - 1 : MPI_PROC_NULL) &&
          dst == (coords[1] + 1 < dims[1] ? rank + 1 : MPI_PROC_NULL), "shift 1: %d %d", src,
          dst);
    /* ring exchange along the periodic dimension */
    int got = -1;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    MPI_Sendrecv(&rank, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, cart, MPI_STATUS_IGNORE);
    CHECK(got == src, "ring: got %d from %d", got, src);
    MPI_Comm_dup(cart, &dup);
    int dd[2], pp[2], cc[2], nd;
    MPI_Cartdim_get(dup, &nd);
    MPI_Cart_get(dup, 2, dd, pp, cc);
    CHECK(nd == 2 && dd[0] == dims[0] && dd[1] == dims[1] && pp[0] == 1 && pp[1] == 0 &&
          cc[0] == coords[0] && cc[1] == coords[1], "the dup's topology");
    MPI_Cart_sub(cart, (int[]){ 0, 1 }, &row);        /* my row: dims[1] members */
    int rs, rr;
    MPI_Comm_size(row, &rs);
    MPI_Comm_rank(row, &rr);
    MPI_Cartdim_get(row, &nd);
    CHECK(rs == dims[1] && rr == coords[1] && nd == 1, "sub: size %d rank %d dims %d", rs, rr,
          nd);
    MPI_Comm_free(&row);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);

    /* a grid smaller than the world: the rest get MPI_COMM_NULL */
    if (size > 1) {
        int one[1] = { size - 1 }, per[1] = { 0 };
        MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 0, &cart);
        CHECK((cart == MPI_COMM_NULL) == (rank == size - 1), "grid of size - 1");
        if (cart != MPI_COMM_NULL)
            MPI_Comm_free(&cart);
    }

    /* a graph: a star around node 0 */
    int index[64], edges[128], ne = 0;
    for (int i = 0; i < size; i++) {
        if (i == 0)
            for (int k = 1; k < size; k++)
                edges[ne++] = k;
        else
            edges[ne++] = 0;
        index[i] = ne;
    }
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
    int nn, nedges, cnt, nb[64];
    MPI_Topo_test(g, &st);
    MPI_Graphdims_get(g, &nn, &nedges);
    MPI_Graph_neighbors_count(g, rank, &cnt);
    MPI_Graph_neighbors(g, rank, 64, nb);
    CHECK(st == MPI_GRAPH && nn == size && nedges == 2 * (size - 1) &&
          cnt == (rank ? 1 : size - 1) && (size == 1 || nb[0] == (rank ? 0 : 1)),
          "graph: %d %d %d %d", st, nn, nedges, cnt);
    MPI_Comm_free(&g);

    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all)
        printf(" No Errors\n");
    MPI_Finalize();
    return all != 0;
}
