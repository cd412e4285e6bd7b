/*
 * intercomm.c - intercommunicators: two disjoint groups, point to point
 * between them (a rank names a member of the remote group), made by
 * MPI_Intercomm_create, merged into one intracommunicator by
 * MPI_Intercomm_merge; and MPI_Comm_create_group, collective over the
 * group alone. Both groups' members must agree on the context id: each
 * group ANDs its members' free ids, the two leaders swap the results,
 * and each leader tells its group. Collectives on an intercommunicator
 * are not implemented (coll.c refuses them).
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

#define TAG_BRIDGE 0x7ffffff0   /* leaders' traffic on an intercomm's own context */

/* The leaders' exchange: over pc with its tag (Intercomm_create), or
 * over an intercommunicator's collective context (merge, dup). */
static int swap(MPI_Comm pc, int peer, int tag, int ctx, const void *out, int nout,
                void *in, int nin)
{
    MPI_Request r[2];
    int err;

    req_irecv(in, nin, MPI_INT, peer, tag, pc, ctx, &r[0]);
    req_isend(out, nout, MPI_INT, peer, tag, pc, ctx, SEND_STD, &r[1]);
    err = req_wait(&r[1], MPI_STATUS_IGNORE);
    int e2 = req_wait(&r[0], MPI_STATUS_IGNORE);
    return err ? err : e2;
}

/* Free context ids of both groups into mask; with members, the remote
 * group's world ranks too. lc: the local group's intracommunicator. */
static int bridge(MPI_Comm lc, int lleader, MPI_Comm pc, int rleader, int tag, int ctx,
                  unsigned int *mask, MPI_Group *remote)
{
    unsigned int theirs[CTX_WORDS + 1];
    int err, rsize = 0;

    ctx_mask(mask);
    if ((err = MPI_Allreduce(MPI_IN_PLACE, mask, CTX_WORDS, MPI_UNSIGNED, MPI_BAND, lc)))
        return err;
    int *members = NULL;
    if (lc->rank == lleader) {
        unsigned int mine[CTX_WORDS + 1];
        memcpy(mine, mask, sizeof(unsigned int) * CTX_WORDS);
        mine[CTX_WORDS] = (unsigned int)lc->size;
        if ((err = swap(pc, rleader, tag, ctx, mine, CTX_WORDS + 1, theirs, CTX_WORDS + 1)))
            return err;
        for (int i = 0; i < CTX_WORDS; i++)
            mask[i] &= theirs[i];
        rsize = (int)theirs[CTX_WORDS];
        if (remote) {
            members = malloc(sizeof(int) * (size_t)(rsize ? rsize : 1));
            if ((err = swap(pc, rleader, tag, ctx, lc->group->ue, lc->size, members, rsize)))
                return err;
        }
    }
    if ((err = MPI_Bcast(mask, CTX_WORDS, MPI_UNSIGNED, lleader, lc)))
        return err;
    if (!remote)
        return MPI_SUCCESS;
    if ((err = MPI_Bcast(&rsize, 1, MPI_INT, lleader, lc)))
        return err;
    if (!members)
        members = malloc(sizeof(int) * (size_t)(rsize ? rsize : 1));
    if ((err = MPI_Bcast(members, rsize, MPI_INT, lleader, lc)))
        return err;
    MPI_Group g = group_new(rsize);
    memcpy(g->ue, members, sizeof(int) * (size_t)rsize);
    free(members);
    *remote = g;
    return MPI_SUCCESS;
}

static MPI_Comm inter_new(MPI_Group local, MPI_Group remote, int ctx, MPI_Comm lcomm)
{
    local->refs++;
    MPI_Comm c = comm_new(local, ctx);
    c->remote = remote;
    c->local = lcomm;
    c->world_like = 0;
    return c;
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm *newintercomm)
{
    const char *fn = "MPI_Intercomm_create";
    unsigned int mask[CTX_WORDS];
    MPI_Group remote = NULL;
    int err = comm_check(local_comm);

    if (err || local_comm->remote)
        return mpi_err(local_comm, fn, MPI_ERR_COMM);
    if (local_leader < 0 || local_leader >= local_comm->size)
        return mpi_errf(local_comm, fn, MPI_ERR_RANK, "local leader %d", local_leader);
    if (local_comm->rank == local_leader && (comm_check(peer_comm) || remote_leader < 0 ||
                                             remote_leader >= comm_peers(peer_comm)))
        return mpi_errf(local_comm, fn, MPI_ERR_RANK, "remote leader %d", remote_leader);
    err = bridge(local_comm, local_leader, peer_comm, remote_leader, tag,
                 local_comm->rank == local_leader ? peer_comm->ctx : 0, mask, &remote);
    if (err)
        return mpi_err(local_comm, fn, err);
    for (int i = 0; i < remote->size; i++)
        if (group_rank_of(local_comm->group, remote->ue[i]) != MPI_UNDEFINED)
            return mpi_errf(local_comm, fn, MPI_ERR_COMM, "the groups overlap");
    /* two ids free in both groups: the intercomm's, and its local side's */
    int ctx = ctx_take(mask);
    mask[ctx / 64] &= ~(1u << (ctx / 2 % 32));
    int lctx = ctx_take(mask);
    if (ctx < 0 || lctx < 0)
        return mpi_err(local_comm, fn, MPI_ERR_INTERN);
    local_comm->group->refs++;
    MPI_Comm lcomm = comm_new(local_comm->group, lctx);
    *newintercomm = inter_new(local_comm->group, remote, ctx, lcomm);
    return MPI_SUCCESS;
}

int inter_dup(MPI_Comm c, MPI_Comm *newcomm)
{
    unsigned int mask[CTX_WORDS];
    MPI_Comm lcomm;
    int err = bridge(c->local, 0, c, 0, TAG_BRIDGE, c->ctx + 1, mask, NULL);
    if (!err)
        err = MPI_Comm_dup(c->local, &lcomm);
    if (err)
        return err;
    int ctx = ctx_take(mask);
    c->remote->refs++;
    *newcomm = inter_new(c->group, c->remote, ctx, lcomm);
    (*newcomm)->eh = c->eh;
    return MPI_SUCCESS;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *fn = "MPI_Intercomm_merge";
    unsigned int mask[CTX_WORDS];
    int hl = high != 0, hr = 0, err;

    if (comm_check(intercomm) || !intercomm->remote)
        return mpi_err(intercomm, fn, MPI_ERR_COMM);
    MPI_Comm c = intercomm;
    if (c->rank == 0 && (err = swap(c, 0, TAG_BRIDGE + 1, c->ctx + 1, &hl, 1, &hr, 1)))
        return mpi_err(c, fn, err);
    if ((err = MPI_Bcast(&hr, 1, MPI_INT, 0, c->local)) ||
        (err = bridge(c->local, 0, c, 0, TAG_BRIDGE, c->ctx + 1, mask, NULL)))
        return mpi_err(c, fn, err);
    /* the low group first; on a tie, the group whose leader has the
     * lower world rank: both sides decide alike */
    int first = hl != hr ? !hl : c->group->ue[0] < c->remote->ue[0];
    MPI_Group a = first ? c->group : c->remote, b = first ? c->remote : c->group;
    MPI_Group g = group_new(a->size + b->size);
    memcpy(g->ue, a->ue, sizeof(int) * (size_t)a->size);
    memcpy(g->ue + a->size, b->ue, sizeof(int) * (size_t)b->size);
    g->rank = group_rank_of(g, mpi_env.me);
    *newintracomm = comm_new(g, ctx_take(mask));
    (*newintracomm)->eh = c->eh;
    return MPI_SUCCESS;
}

/* Collective over group's members alone: they AND their free ids at
 * the group's rank 0 over comm's point-to-point context with tag. */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    const char *fn = "MPI_Comm_create_group";
    unsigned int mask[CTX_WORDS], in[CTX_WORDS];
    int err = comm_check(comm);

    if (err || comm->remote)
        return mpi_err(comm, fn, MPI_ERR_COMM);
    if (!group || group->rank == MPI_UNDEFINED)
        return mpi_errf(comm, fn, MPI_ERR_GROUP, "the caller is not in the group");
    int *crank = malloc(sizeof(int) * (size_t)group->size);
    for (int i = 0; i < group->size; i++)
        if ((crank[i] = group_rank_of(comm->group, group->ue[i])) == MPI_UNDEFINED) {
            free(crank);
            return mpi_errf(comm, fn, MPI_ERR_GROUP, "the group is not within the communicator");
        }
    ctx_mask(mask);
    if (group->rank == 0) {
        for (int i = 1; i < group->size && !err; i++) {
            MPI_Request r;
            req_irecv(in, CTX_WORDS, MPI_UNSIGNED, crank[i], tag, comm, comm->ctx, &r);
            if (!(err = req_wait(&r, MPI_STATUS_IGNORE)))
                for (int k = 0; k < CTX_WORDS; k++)
                    mask[k] &= in[k];
        }
        for (int i = 1; i < group->size && !err; i++) {
            MPI_Request r;
            req_isend(mask, CTX_WORDS, MPI_UNSIGNED, crank[i], tag, comm, comm->ctx, SEND_STD,
                      &r);
            err = req_wait(&r, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Request r;
        req_isend(mask, CTX_WORDS, MPI_UNSIGNED, crank[0], tag, comm, comm->ctx, SEND_STD, &r);
        if (!(err = req_wait(&r, MPI_STATUS_IGNORE))) {
            req_irecv(mask, CTX_WORDS, MPI_UNSIGNED, crank[0], tag, comm, comm->ctx, &r);
            err = req_wait(&r, MPI_STATUS_IGNORE);
        }
    }
    free(crank);
    if (err)
        return mpi_err(comm, fn, err);
    group->refs++;
    *newcomm = comm_new(group, ctx_take(mask));
    (*newcomm)->eh = comm->eh;
    return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    if (comm_check(comm) || !comm->remote)
        return mpi_errf(comm, "MPI_Comm_remote_size", MPI_ERR_COMM, "not an intercommunicator");
    *size = comm->remote->size;
    return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    if (comm_check(comm) || !comm->remote)
        return mpi_errf(comm, "MPI_Comm_remote_group", MPI_ERR_COMM,
                        "not an intercommunicator");
    MPI_Group g = group_new(comm->remote->size);
    memcpy(g->ue, comm->remote->ue, sizeof(int) * (size_t)g->size);
    g->rank = MPI_UNDEFINED;
    *group = g;
    return MPI_SUCCESS;
}

/* Members of g (local or remote) whose (color, key) pair in ck is color,
 * ordered by key, then rank: a new group of world ranks. */
static MPI_Group by_color(MPI_Group g, const int *ck, int color)
{
    int n = 0;
    int *r = malloc(sizeof(int) * (size_t)(g->size ? g->size : 1));
    for (int i = 0; i < g->size; i++)
        if (ck[2 * i] == color) {
            int k = n++;        /* insertion: stable on equal keys, so by rank */
            while (k > 0 && ck[2 * r[k - 1] + 1] > ck[2 * i + 1]) {
                r[k] = r[k - 1];
                k--;
            }
            r[k] = i;
        }
    MPI_Group out = group_new(n);
    for (int i = 0; i < n; i++)
        out->ue[i] = g->ue[r[i]];
    free(r);
    out->rank = group_rank_of(out, mpi_env.me);
    return out;
}

/* MPI_Comm_split (and MPI_Comm_create, as a split by the group's ranks)
 * of an intercommunicator: the members of one color in each group form a
 * new intercommunicator, MPI_COMM_NULL where the other group has none of
 * that color. Every member learns both groups' colors and keys (an
 * allgather on each side), and takes the same two context ids, free in
 * both groups: the new communicators of different colors share them,
 * having no member in common. */
int inter_split(MPI_Comm c, int color, int key, MPI_Comm *newcomm)
{
    int mine[2] = { color, key }, err;
    int *lck = malloc(sizeof(int) * 2 * (size_t)c->size);
    int *rck = malloc(sizeof(int) * 2 * (size_t)c->remote->size);
    unsigned int mask[CTX_WORDS];

    if ((err = MPI_Allgather(mine, 2, MPI_INT, lck, 2, MPI_INT, c->local)) ||
        (err = MPI_Allgather(mine, 2, MPI_INT, rck, 2, MPI_INT, c)) ||
        (err = bridge(c->local, 0, c, 0, TAG_BRIDGE, c->ctx + 1, mask, NULL))) {
        free(lck);
        free(rck);
        return err;
    }
    int ctx = ctx_take(mask);
    mask[ctx / 64] &= ~(1u << (ctx / 2 % 32));
    int lctx = ctx_take(mask);
    if (ctx < 0 || lctx < 0) {
        free(lck);
        free(rck);
        return MPI_ERR_INTERN;
    }
    MPI_Group lg = NULL, rg = NULL;
    if (color != MPI_UNDEFINED) {
        lg = by_color(c->group, lck, color);
        rg = by_color(c->remote, rck, color);
    }
    free(lck);
    free(rck);
    if (!rg || rg->size == 0) {
        ctx_free(ctx);
        ctx_free(lctx);
        if (lg)
            group_release(lg);
        if (rg)
            group_release(rg);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    lg->refs++;
    MPI_Comm lcomm = comm_new(lg, lctx);
    *newcomm = inter_new(lg, rg, ctx, lcomm);
    group_release(lg);          /* inter_new took its own reference */
    (*newcomm)->eh = c->eh;
    return MPI_SUCCESS;
}
