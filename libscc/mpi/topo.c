/*
 * topo.c - process topologies: Cartesian (MPI_Cart_create and the calls
 * that name ranks by coordinates, MPI_Dims_create) and graphs
 * (MPI_Graph_create and its queries). The topology is a description
 * kept with the communicator (comm->topo), copied by MPI_Comm_dup and
 * freed with it; ranks are never reordered (the chip's mesh distance
 * between cores matters little next to the MPB's costs).
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

struct topo {
    int kind;                   /* MPI_CART or MPI_GRAPH */
    int ndims, *dims, *periods; /* Cartesian */
    int nnodes, *index, *edges; /* graph: index[nnodes], edges[index[nnodes-1]] */
};

static int *copy_ints(const int *p, int n)
{
    int *q = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!q)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a topology");
    if (n > 0)
        memcpy(q, p, sizeof(int) * (size_t)n);
    return q;
}

void topo_free(MPI_Comm c)
{
    struct topo *t = c->topo;
    if (!t)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t);
    c->topo = NULL;
}

void topo_copy(MPI_Comm from, MPI_Comm to)
{
    struct topo *t = from->topo, *u;
    if (!t)
        return;
    u = calloc(1, sizeof *u);
    if (!u)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a topology");
    *u = *t;
    u->dims = copy_ints(t->dims, t->ndims);
    u->periods = copy_ints(t->periods, t->ndims);
    u->index = copy_ints(t->index, t->nnodes);
    u->edges = copy_ints(t->edges, t->nnodes ? t->index[t->nnodes - 1] : 0);
    to->topo = u;
}

static struct topo *cart(MPI_Comm c, const char *fn, int *err)
{
    *err = comm_check(c) ? mpi_err(c, fn, MPI_ERR_COMM) : MPI_SUCCESS;
    if (*err)
        return NULL;
    struct topo *t = c->topo;
    if (!t || t->kind != MPI_CART) {
        *err = mpi_errf(c, fn, MPI_ERR_TOPOLOGY, "not a Cartesian communicator");
        return NULL;
    }
    return t;
}

static struct topo *graph(MPI_Comm c, const char *fn, int *err)
{
    *err = comm_check(c) ? mpi_err(c, fn, MPI_ERR_COMM) : MPI_SUCCESS;
    if (*err)
        return NULL;
    struct topo *t = c->topo;
    if (!t || t->kind != MPI_GRAPH) {
        *err = mpi_errf(c, fn, MPI_ERR_TOPOLOGY, "not a graph communicator");
        return NULL;
    }
    return t;
}

/* The first n ranks of old, in order, as a new communicator (NULL for the rest). */
static int first_ranks(MPI_Comm old, int n, MPI_Comm *out)
{
    return MPI_Comm_split(old, old->rank < n ? 0 : MPI_UNDEFINED, old->rank, out);
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart)
{
    const char *fn = "MPI_Cart_create";
    (void)reorder;
    if (comm_check(comm_old) || comm_old->remote)
        return mpi_err(comm_old, fn, MPI_ERR_COMM);
    if (ndims < 0)
        return mpi_errf(comm_old, fn, MPI_ERR_DIMS, "%d dimensions", ndims);
    long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return mpi_errf(comm_old, fn, MPI_ERR_DIMS, "dimension %d of size %d", i, dims[i]);
        n *= dims[i];
    }
    if (n > comm_old->size)
        return mpi_errf(comm_old, fn, MPI_ERR_DIMS, "a grid of %ld in a communicator of %d",
                        n, comm_old->size);
    int err = first_ranks(comm_old, (int)n, comm_cart);
    if (err || *comm_cart == MPI_COMM_NULL)
        return err;
    struct topo *t = calloc(1, sizeof *t);
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = copy_ints(dims, ndims);
    t->periods = malloc(sizeof(int) * (size_t)(ndims ? ndims : 1));
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    (*comm_cart)->topo = t;
    return MPI_SUCCESS;
}

int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    const char *fn = "MPI_Dims_create";
    if (nnodes <= 0 || ndims < 0)
        return mpi_errf(NULL, fn, MPI_ERR_ARG, "%d nodes in %d dimensions", nnodes, ndims);
    int rest = nnodes, nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return mpi_errf(NULL, fn, MPI_ERR_DIMS, "dimension %d given as %d", i, dims[i]);
        if (dims[i] > 0) {
            if (rest % dims[i])
                return mpi_errf(NULL, fn, MPI_ERR_DIMS, "%d nodes do not fill the dimensions "
                                "given", nnodes);
            rest /= dims[i];
        } else {
            nfree++;
        }
    }
    if (!nfree)
        return rest == 1 ? MPI_SUCCESS
                         : mpi_errf(NULL, fn, MPI_ERR_DIMS, "%d nodes do not fill the "
                                    "dimensions given", nnodes);
    /* prime factors, largest first, each to the free dimension that is
     * smallest so far: as balanced as the factors allow */
    int *f = malloc(sizeof(int) * 32), nf = 0, *d = malloc(sizeof(int) * (size_t)nfree);
    for (int p = 2; rest > 1; p++) {
        if ((long)p * p > rest)
            p = rest;
        while (rest % p == 0) {
            f[nf++] = p;
            rest /= p;
        }
    }
    for (int i = 0; i < nfree; i++)
        d[i] = 1;
    for (int k = nf - 1; k >= 0; k--) {
        int m = 0;
        for (int i = 1; i < nfree; i++)
            if (d[i] < d[m])
                m = i;
        d[m] *= f[k];
    }
    for (int i = 0; i < nfree; i++)     /* non-increasing */
        for (int j = i + 1; j < nfree; j++)
            if (d[j] > d[i]) {
                int x = d[i];
                d[i] = d[j];
                d[j] = x;
            }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = d[k++];
    free(f);
    free(d);
    return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Topo_test", MPI_ERR_COMM);
    *status = comm->topo ? ((struct topo *)comm->topo)->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    int err;
    struct topo *t = cart(comm, "MPI_Cartdim_get", &err);
    if (t)
        *ndims = t->ndims;
    return err;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    int err;
    struct topo *t = cart(comm, "MPI_Cart_get", &err);
    if (!t)
        return err;
    int n = maxdims < t->ndims ? maxdims : t->ndims;
    for (int i = 0; i < n; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    return MPI_Cart_coords(comm, comm->rank, maxdims, coords);
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    int err;
    struct topo *t = cart(comm, "MPI_Cart_coords", &err);
    if (!t)
        return err;
    if (rank < 0 || rank >= comm->size)
        return mpi_errf(comm, "MPI_Cart_coords", MPI_ERR_RANK, "rank %d", rank);
    for (int i = t->ndims - 1; i >= 0; i--) {      /* row-major: the last varies fastest */
        if (i < maxdims)
            coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
    return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    int err;
    struct topo *t = cart(comm, "MPI_Cart_rank", &err);
    if (!t)
        return err;
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int x = coords[i], d = t->dims[i];
        if (t->periods[i])
            x = ((x % d) + d) % d;
        else if (x < 0 || x >= d)
            return mpi_errf(comm, "MPI_Cart_rank", MPI_ERR_ARG, "coordinate %d of dimension "
                            "%d (of %d, not periodic)", coords[i], i, d);
        r = r * d + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                   int *rank_dest)
{
    int err;
    struct topo *t = cart(comm, "MPI_Cart_shift", &err);
    if (!t)
        return err;
    if (direction < 0 || direction >= t->ndims)
        return mpi_errf(comm, "MPI_Cart_shift", MPI_ERR_ARG, "direction %d", direction);
    int *c = malloc(sizeof(int) * (size_t)t->ndims);
    MPI_Cart_coords(comm, comm->rank, t->ndims, c);
    int me = c[direction], d = t->dims[direction];
    int out[2] = { me - disp, me + disp };
    for (int k = 0; k < 2; k++) {
        int x = out[k], *r = k ? rank_dest : rank_source;
        if (t->periods[direction])
            x = ((x % d) + d) % d;
        if (x < 0 || x >= d) {
            *r = MPI_PROC_NULL;
            continue;
        }
        c[direction] = x;
        MPI_Cart_rank(comm, c, r);
    }
    free(c);
    return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int err;
    struct topo *t = cart(comm, "MPI_Cart_sub", &err);
    if (!t)
        return err;
    int *c = malloc(sizeof(int) * (size_t)(t->ndims ? t->ndims : 1)), color = 0, key = 0, n = 0;
    MPI_Cart_coords(comm, comm->rank, t->ndims, c);
    for (int i = 0; i < t->ndims; i++) {
        if (remain_dims[i]) {
            key = key * t->dims[i] + c[i];
            n++;
        } else {
            color = color * t->dims[i] + c[i];
        }
    }
    free(c);
    if ((err = MPI_Comm_split(comm, color, key, newcomm)))
        return err;
    struct topo *u = calloc(1, sizeof *u);
    u->kind = MPI_CART;
    u->ndims = n;
    u->dims = malloc(sizeof(int) * (size_t)(n ? n : 1));
    u->periods = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0, k = 0; i < t->ndims; i++)
        if (remain_dims[i]) {
            u->dims[k] = t->dims[i];
            u->periods[k++] = t->periods[i];
        }
    (*newcomm)->topo = u;
    return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                 int *newrank)
{
    (void)periods;
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Cart_map", MPI_ERR_COMM);
    long n = 1;
    for (int i = 0; i < ndims; i++)
        n *= dims[i];
    if (n > comm->size)
        return mpi_errf(comm, "MPI_Cart_map", MPI_ERR_DIMS, "a grid of %ld in %d", n,
                        comm->size);
    *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph)
{
    const char *fn = "MPI_Graph_create";
    (void)reorder;
    if (comm_check(comm_old) || comm_old->remote)
        return mpi_err(comm_old, fn, MPI_ERR_COMM);
    if (nnodes < 0 || nnodes > comm_old->size)
        return mpi_errf(comm_old, fn, MPI_ERR_ARG, "%d nodes in a communicator of %d", nnodes,
                        comm_old->size);
    int nedges = nnodes ? index[nnodes - 1] : 0;
    for (int i = 0; i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return mpi_errf(comm_old, fn, MPI_ERR_ARG, "edge to %d", edges[i]);
    int err = first_ranks(comm_old, nnodes, comm_graph);
    if (err || *comm_graph == MPI_COMM_NULL)
        return err;
    struct topo *t = calloc(1, sizeof *t);
    t->kind = MPI_GRAPH;
    t->nnodes = nnodes;
    t->index = copy_ints(index, nnodes);
    t->edges = copy_ints(edges, nedges);
    (*comm_graph)->topo = t;
    return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    int err;
    struct topo *t = graph(comm, "MPI_Graphdims_get", &err);
    if (!t)
        return err;
    *nnodes = t->nnodes;
    *nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    int err;
    struct topo *t = graph(comm, "MPI_Graph_get", &err);
    if (!t)
        return err;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    int ne = t->nnodes ? t->index[t->nnodes - 1] : 0;
    for (int i = 0; i < ne && i < maxedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    int err;
    struct topo *t = graph(comm, "MPI_Graph_neighbors_count", &err);
    if (!t)
        return err;
    if (rank < 0 || rank >= t->nnodes)
        return mpi_errf(comm, "MPI_Graph_neighbors_count", MPI_ERR_RANK, "rank %d", rank);
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    int err;
    struct topo *t = graph(comm, "MPI_Graph_neighbors", &err);
    if (!t)
        return err;
    if (rank < 0 || rank >= t->nnodes)
        return mpi_errf(comm, "MPI_Graph_neighbors", MPI_ERR_RANK, "rank %d", rank);
    int first = rank ? t->index[rank - 1] : 0;
    for (int i = first, k = 0; i < t->index[rank] && k < maxneighbors; i++)
        neighbors[k++] = t->edges[i];
    return MPI_SUCCESS;
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                  int *newrank)
{
    (void)index, (void)edges;
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Graph_map", MPI_ERR_COMM);
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
