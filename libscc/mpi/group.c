/*
 * group.c - process groups: ordered sets of world ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

struct mpi_group_s mpi_group_empty_ = { 1, 0, MPI_UNDEFINED, NULL, 1 };

MPI_Group group_new(int size)
{
    MPI_Group g = calloc(1, sizeof *g);
    if (!g || !(g->ue = malloc((size_t)(size ? size : 1) * sizeof(int))))
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a group of %d", size);
    g->refs = 1;
    g->size = size;
    g->rank = MPI_UNDEFINED;
    return g;
}

/* A new group's rank; an empty one is MPI_GROUP_EMPTY, as programs expect. */
static MPI_Group finish(MPI_Group g)
{
    if (g->size == 0) {
        group_release(g);
        return MPI_GROUP_EMPTY;
    }
    g->rank = group_rank_of(g, mpi_env.me);
    return g;
}

int group_rank_of(MPI_Group g, int ue)
{
    for (int i = 0; i < g->size; i++)
        if (g->ue[i] == ue)
            return i;
    return MPI_UNDEFINED;
}

void group_release(MPI_Group g)
{
    if (g && !g->predefined && --g->refs == 0) {
        free(g->ue);
        free(g);
    }
}

static int bad(MPI_Group g)
{
    return !g;
}

int MPI_Group_size(MPI_Group group, int *size)
{
    if (bad(group))
        return mpi_err(NULL, "MPI_Group_size", MPI_ERR_GROUP);
    *size = group->size;
    return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int *rank)
{
    if (bad(group))
        return mpi_err(NULL, "MPI_Group_rank", MPI_ERR_GROUP);
    *rank = group->rank;
    return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    if (bad(group))
        return mpi_err(NULL, "MPI_Group_incl", MPI_ERR_GROUP);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= group->size)
            return mpi_errf(NULL, "MPI_Group_incl", MPI_ERR_RANK, "rank %d", ranks[i]);
    MPI_Group g = group_new(n);
    for (int i = 0; i < n; i++)
        g->ue[i] = group->ue[ranks[i]];
    *newgroup = finish(g);
    return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    if (bad(group))
        return mpi_err(NULL, "MPI_Group_excl", MPI_ERR_GROUP);
    char *out = calloc((size_t)group->size + 1, 1);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->size) {
            free(out);
            return mpi_errf(NULL, "MPI_Group_excl", MPI_ERR_RANK, "rank %d", ranks[i]);
        }
        out[ranks[i]] = 1;
    }
    MPI_Group g = group_new(group->size);
    g->size = 0;
    for (int i = 0; i < group->size; i++)
        if (!out[i])
            g->ue[g->size++] = group->ue[i];
    free(out);
    *newgroup = finish(g);
    return MPI_SUCCESS;
}

/* The ranks a list of (first, last, stride) triplets names, in order. */
static int expand(MPI_Group group, int n, int ranges[][3], int **out)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (!ranges[i][2])
            return -1;
        int k = (ranges[i][1] - ranges[i][0]) / ranges[i][2];
        total += k >= 0 ? k + 1 : 0;
    }
    int *r = malloc((size_t)(total ? total : 1) * sizeof *r), m = 0;
    for (int i = 0; i < n; i++)
        for (int x = ranges[i][0];
             ranges[i][2] > 0 ? x <= ranges[i][1] : x >= ranges[i][1]; x += ranges[i][2]) {
            if (x < 0 || x >= group->size) {
                free(r);
                return -1;
            }
            r[m++] = x;
        }
    *out = r;
    return m;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int *r, m = bad(group) ? -1 : expand(group, n, ranges, &r);
    if (m < 0)
        return mpi_err(NULL, "MPI_Group_range_incl", bad(group) ? MPI_ERR_GROUP : MPI_ERR_RANK);
    int err = MPI_Group_incl(group, m, r, newgroup);
    free(r);
    return err;
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int *r, m = bad(group) ? -1 : expand(group, n, ranges, &r);
    if (m < 0)
        return mpi_err(NULL, "MPI_Group_range_excl", bad(group) ? MPI_ERR_GROUP : MPI_ERR_RANK);
    int err = MPI_Group_excl(group, m, r, newgroup);
    free(r);
    return err;
}

int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b,
                              int ranks_b[])
{
    if (bad(a) || bad(b))
        return mpi_err(NULL, "MPI_Group_translate_ranks", MPI_ERR_GROUP);
    for (int i = 0; i < n; i++) {
        if (ranks_a[i] == MPI_PROC_NULL) {
            ranks_b[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks_a[i] < 0 || ranks_a[i] >= a->size)
            return mpi_errf(NULL, "MPI_Group_translate_ranks", MPI_ERR_RANK, "rank %d",
                            ranks_a[i]);
        ranks_b[i] = group_rank_of(b, a->ue[ranks_a[i]]);
    }
    return MPI_SUCCESS;
}

/* a's members in a's order (with or without those in b), then b's not in a */
static MPI_Group combine(MPI_Group a, MPI_Group b, int keep_in_b, int keep_out_b, int add_b)
{
    MPI_Group g = group_new(a->size + b->size);
    g->size = 0;
    for (int i = 0; i < a->size; i++) {
        int in_b = group_rank_of(b, a->ue[i]) != MPI_UNDEFINED;
        if ((in_b && keep_in_b) || (!in_b && keep_out_b))
            g->ue[g->size++] = a->ue[i];
    }
    for (int i = 0; add_b && i < b->size; i++)
        if (group_rank_of(a, b->ue[i]) == MPI_UNDEFINED)
            g->ue[g->size++] = b->ue[i];
    return finish(g);
}

int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    if (bad(a) || bad(b))
        return mpi_err(NULL, "MPI_Group_union", MPI_ERR_GROUP);
    *newgroup = combine(a, b, 1, 1, 1);
    return MPI_SUCCESS;
}

int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    if (bad(a) || bad(b))
        return mpi_err(NULL, "MPI_Group_intersection", MPI_ERR_GROUP);
    *newgroup = combine(a, b, 1, 0, 0);
    return MPI_SUCCESS;
}

int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    if (bad(a) || bad(b))
        return mpi_err(NULL, "MPI_Group_difference", MPI_ERR_GROUP);
    *newgroup = combine(a, b, 0, 1, 0);
    return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result)
{
    if (bad(a) || bad(b))
        return mpi_err(NULL, "MPI_Group_compare", MPI_ERR_GROUP);
    if (a->size != b->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int same_order = 1;
    for (int i = 0; i < a->size; i++) {
        if (a->ue[i] != b->ue[i])
            same_order = 0;
        if (group_rank_of(b, a->ue[i]) == MPI_UNDEFINED) {
            *result = MPI_UNEQUAL;
            return MPI_SUCCESS;
        }
    }
    *result = same_order ? MPI_IDENT : MPI_SIMILAR;
    return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group *group)
{
    if (!group || bad(*group))
        return mpi_err(NULL, "MPI_Group_free", MPI_ERR_GROUP);
    group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
