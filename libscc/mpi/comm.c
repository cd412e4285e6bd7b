/*
 * comm.c - communicators: a group and a context id that every member
 * agreed on, so that traffic of different communicators never matches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"
#include "RCCE.h"

struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;

/* Context ids in use by this process: a bit per id; a communicator's p2p
 * context is 2*id, its collectives' 2*id + 1. */
static unsigned int ctx_used[CTX_WORDS];

void comm_init(void)
{
    MPI_Group w = group_new(mpi_env.np), s = group_new(1);

    for (int i = 0; i < mpi_env.np; i++)
        w->ue[i] = i;
    w->rank = mpi_env.me;
    w->predefined = 1;
    s->ue[0] = mpi_env.me;
    s->rank = 0;
    s->predefined = 1;
    mpi_comm_world_ = (struct mpi_comm_s){ .ctx = 0, .size = mpi_env.np, .rank = mpi_env.me,
        .group = w, .eh = MPI_ERRORS_ARE_FATAL, .predefined = 1, .world_like = 1,
        .name = "MPI_COMM_WORLD" };
    mpi_comm_self_ = (struct mpi_comm_s){ .ctx = 2, .size = 1, .rank = 0, .group = s,
        .eh = MPI_ERRORS_ARE_FATAL, .predefined = 1, .world_like = mpi_env.np == 1,
        .name = "MPI_COMM_SELF" };
    ctx_used[0] = 3;
}

int comm_check(MPI_Comm c)
{
    return c && !c->freed ? MPI_SUCCESS : MPI_ERR_COMM;
}

int comm_ue(MPI_Comm c, int rank)
{
    return (c->remote ? c->remote : c->group)->ue[rank];
}

int comm_peers(MPI_Comm c)
{
    return (c->remote ? c->remote : c->group)->size;
}

void ctx_mask(unsigned int *free_mask)
{
    for (int i = 0; i < CTX_WORDS; i++)
        free_mask[i] = ~ctx_used[i];
}

int ctx_take(const unsigned int *free_all)
{
    for (int i = 0; i < CTX_WORDS; i++)
        if (free_all[i]) {
            int b = __builtin_ctz(free_all[i]);
            ctx_used[i] |= 1u << b;
            return 2 * (32 * i + b);
        }
    return -1;
}

MPI_Comm comm_new(MPI_Group g, int ctx)
{
    MPI_Comm c = calloc(1, sizeof *c);
    if (!c)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a communicator");
    c->ctx = ctx;
    c->group = g;
    c->size = g->size;
    c->rank = g->rank;
    c->eh = MPI_ERRORS_ARE_FATAL;
    c->world_like = g->size == mpi_env.np;
    for (int i = 0; i < g->size; i++)
        if (g->ue[i] != i)
            c->world_like = 0;
    return c;
}

/* The lowest id free in every member of parent. */
int ctx_alloc(MPI_Comm parent, int *ctx)
{
    unsigned int free_all[CTX_WORDS];

    ctx_mask(free_all);
    int err = MPI_Allreduce(MPI_IN_PLACE, free_all, CTX_WORDS, MPI_UNSIGNED, MPI_BAND, parent);
    if (err)
        return err;
    *ctx = ctx_take(free_all);
    return *ctx < 0 ? MPI_ERR_INTERN : MPI_SUCCESS;
}

void ctx_free(int ctx)
{
    int id = ctx / 2;
    ctx_used[id / 32] &= ~(1u << (id % 32));
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_size", MPI_ERR_COMM);
    *size = comm->size;
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_rank", MPI_ERR_COMM);
    *rank = comm->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int ctx, err = comm_check(comm);
    if (!err && comm->remote) {
        extern int inter_dup(MPI_Comm c, MPI_Comm *newcomm);
        err = inter_dup(comm, newcomm);
        if (!err)
            err = attr_copy(comm, *newcomm);
        return err ? mpi_err(comm, "MPI_Comm_dup", err) : MPI_SUCCESS;
    }
    if (!err)
        err = ctx_alloc(comm, &ctx);
    if (err)
        return mpi_err(comm, "MPI_Comm_dup", err);
    comm->group->refs++;
    *newcomm = comm_new(comm->group, ctx);
    (*newcomm)->eh = comm->eh;
    topo_copy(comm, *newcomm);
    if ((err = attr_copy(comm, *newcomm))) {
        /* a copy callback failed: no new communicator (as MPICH) */
        ctx_free(ctx);
        (*newcomm)->freed = 1;
        *newcomm = MPI_COMM_NULL;
        return mpi_err(comm, "MPI_Comm_dup", err);
    }
    return MPI_SUCCESS;
}

struct ck { int color, key, rank; };

static int by_key(const void *a, const void *b)
{
    const struct ck *x = a, *y = b;
    return x->key != y->key ? (x->key < y->key ? -1 : 1) : x->rank - y->rank;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int ctx, err = comm_check(comm);
    if (err)
        return mpi_err(comm, "MPI_Comm_split", err);
    if (color < 0 && color != MPI_UNDEFINED)
        return mpi_errf(comm, "MPI_Comm_split", MPI_ERR_ARG, "color %d", color);
    if (comm->remote) {
        err = inter_split(comm, color, key, newcomm);
        return err ? mpi_err(comm, "MPI_Comm_split", err) : MPI_SUCCESS;
    }
    int mine[2] = { color, key };
    int *all = malloc(2 * sizeof(int) * (size_t)comm->size);
    struct ck *m = malloc(sizeof *m * (size_t)comm->size);
    if ((err = MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm)) ||
        (err = ctx_alloc(comm, &ctx))) {
        free(all);
        free(m);
        return mpi_err(comm, "MPI_Comm_split", err);
    }
    int n = 0;
    for (int r = 0; r < comm->size; r++)
        if (color != MPI_UNDEFINED && all[2 * r] == color)
            m[n++] = (struct ck){ color, all[2 * r + 1], r };
    free(all);
    if (color == MPI_UNDEFINED) {
        ctx_free(ctx);
        free(m);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    qsort(m, (size_t)n, sizeof *m, by_key);
    MPI_Group g = group_new(n);
    for (int i = 0; i < n; i++)
        g->ue[i] = comm_ue(comm, m[i].rank);
    g->rank = group_rank_of(g, mpi_env.me);
    free(m);
    *newcomm = comm_new(g, ctx);
    (*newcomm)->eh = comm->eh;
    return MPI_SUCCESS;
}

/* MPI_COMM_TYPE_SHARED: the cores of one tile, which share its MPB. */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    (void)info;
    if (split_type == MPI_UNDEFINED)
        return MPI_Comm_split(comm, MPI_UNDEFINED, key, newcomm);
    if (split_type != MPI_COMM_TYPE_SHARED)
        return mpi_errf(comm, "MPI_Comm_split_type", MPI_ERR_ARG, "split type %d", split_type);
    return MPI_Comm_split(comm, RCCE_ue_core(mpi_env.me) / 2, key, newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int ctx, err = comm_check(comm);
    if (!err && !group)
        err = MPI_ERR_GROUP;
    if (!err && comm->remote) {     /* group: a part of the local group */
        int in = group->rank != MPI_UNDEFINED;
        err = inter_split(comm, in ? 0 : MPI_UNDEFINED, in ? group->rank : 0, newcomm);
        return err ? mpi_err(comm, "MPI_Comm_create", err) : MPI_SUCCESS;
    }
    if (!err)
        err = ctx_alloc(comm, &ctx);
    if (err)
        return mpi_err(comm, "MPI_Comm_create", err);
    if (group->rank == MPI_UNDEFINED) {
        ctx_free(ctx);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    group->refs++;
    *newcomm = comm_new(group, ctx);
    (*newcomm)->eh = comm->eh;
    return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (!comm || comm_check(*comm) || (*comm)->predefined)
        return mpi_err(comm ? *comm : NULL, "MPI_Comm_free", MPI_ERR_COMM);
    MPI_Comm c = *comm;
    int err = attr_delete_all(c);
    if (err)
        return mpi_err(c, "MPI_Comm_free", err);
    ctx_free(c->ctx);
    topo_free(c);
    group_release(c->group);
    if (c->remote) {
        group_release(c->remote);
        MPI_Comm_free(&c->local);
    }
    /* pending requests may still name it: the object stays, marked freed */
    c->freed = 1;
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
    if (comm_check(a) || comm_check(b))
        return mpi_err(a, "MPI_Comm_compare", MPI_ERR_COMM);
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    MPI_Group_compare(a->group, b->group, result);
    if (*result == MPI_IDENT)
        *result = MPI_CONGRUENT;
    return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_group", MPI_ERR_COMM);
    MPI_Group g = group_new(comm->size);
    memcpy(g->ue, comm->group->ue, sizeof(int) * (size_t)comm->size);
    g->rank = comm->rank;
    *group = g;
    return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_test_inter", MPI_ERR_COMM);
    *flag = comm->remote != NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_set_name", MPI_ERR_COMM);
    snprintf(comm->name, sizeof comm->name, "%s", name);
    return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_get_name", MPI_ERR_COMM);
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", comm->name);
    return MPI_SUCCESS;
}
