/*
 * coll_inter.c - collectives on intercommunicators, with MPI-2's
 * semantics: data go from one group to the other. In a rooted call the
 * root passes MPI_ROOT, the rest of its group MPI_PROC_NULL, and the
 * other group the root's rank in the root's group. General algorithms
 * over point to point on the intercommunicator's collective context,
 * and collectives on each group's own intracommunicator (c->local):
 *
 *   Barrier        local barrier, the leaders swap, local barrier
 *   Bcast          the root to the remote leader, then its local bcast
 *   Gather(v)      every remote member to the root; Scatter(v) the other way
 *   Allgather(v)   every member to every remote member
 *   Alltoall(v, w) block j to remote member j
 *   Reduce         local reduce to the leader (in rank order, so any
 *                  operation), the leader to the root
 *   Allreduce      local reduce, the leaders swap, local bcast
 *   Reduce_scatter(_block)  local reduce of the whole vector, the leaders
 *                  swap, local scatterv
 *
 * Scan and Exscan are not defined on intercommunicators (coll.c refuses).
 * coll.c's calls hand an intercommunicator here first.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

enum { T_BAR = 0x7e000000, T_BCAST, T_GATHER, T_SCATTER, T_ALLGATHER, T_ALLTOALL,
       T_REDUCE, T_ALLREDUCE, T_REDSCAT };

#define TRY(x) do { int e_ = (x); if (e_) return e_; } while (0)

/* The leader's swap with the remote leader. */
static int swap_(const void *out, void *in, int count, MPI_Datatype t, int tag, MPI_Comm c)
{
    MPI_Request r[2];
    collctx_irecv(in, count, t, 0, tag, c, &r[0]);
    collctx_isend(out, count, t, 0, tag, c, &r[1]);
    return collctx_waitall(2, r);
}

static int check_root(const char *fn, MPI_Comm c, int root)
{
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->remote->size))
        return MPI_SUCCESS;
    return mpi_errf(c, fn, MPI_ERR_ROOT, "root %d of an intercommunicator whose remote "
                    "group has %d members (or MPI_ROOT, MPI_PROC_NULL)", root, c->remote->size);
}

static int done(MPI_Comm c, const char *fn, int err)
{
    return err ? mpi_err(c, fn, err) : MPI_SUCCESS;
}

int ic_barrier(MPI_Comm c)
{
    int err = MPI_Barrier(c->local);
    if (!err && c->rank == 0)
        err = swap_(NULL, NULL, 0, MPI_BYTE, T_BAR, c);
    if (!err)
        err = MPI_Barrier(c->local);
    return done(c, "MPI_Barrier", err);
}

int ic_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    const char *fn = "MPI_Bcast";
    TRY(check_root(fn, c, root));
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    TRY(coll_check_type(fn, c, count, t));
    if (root == MPI_ROOT)
        return done(c, fn, collctx_send(buf, count, t, 0, T_BCAST, c));
    int err = c->rank == 0 ? collctx_recv(buf, count, t, root, T_BCAST, c) : MPI_SUCCESS;
    if (!err)
        err = MPI_Bcast(buf, count, t, 0, c->local);
    return done(c, fn, err);
}

/* Gather(v) (gather) or Scatter(v): the root's side with every remote member */
static int rooted(const char *fn, int gather, const void *sbuf, int scount, MPI_Datatype st,
                  void *rbuf, const int *rcounts, int rcount, const int *displs,
                  MPI_Datatype rt, int root, MPI_Comm c)
{
    TRY(check_root(fn, c, root));
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root != MPI_ROOT) {
        if (gather) {
            TRY(coll_check_type(fn, c, scount, st));
            return done(c, fn, collctx_send(sbuf, scount, st, root, T_GATHER, c));
        }
        TRY(coll_check_type(fn, c, rcount, rt));
        return done(c, fn, collctx_recv(rbuf, rcount, rt, root, T_SCATTER, c));
    }
    /* the root: its buffer is rbuf for a gather, sbuf (as rbuf here) for a scatter */
    MPI_Datatype t = gather ? rt : st;
    void *buf = gather ? rbuf : (void *)sbuf;
    int n = c->remote->size;
    TRY(coll_check_type(fn, c, rcounts ? 0 : rcount, t));
    MPI_Request *r = malloc(sizeof *r * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        long off = rcounts ? displs[i] : (long)i * rcount;
        int cnt = rcounts ? rcounts[i] : rcount;
        if (gather)
            collctx_irecv(coll_at(buf, off, t), cnt, t, i, T_GATHER, c, &r[i]);
        else
            collctx_isend(coll_at(buf, off, t), cnt, t, i, T_SCATTER, c, &r[i]);
    }
    int err = collctx_waitall(n, r);
    free(r);
    return done(c, fn, err);
}

int ic_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm c)
{
    return rooted("MPI_Gather", 1, sendbuf, sendcount, sendtype, recvbuf, NULL, recvcount,
                  NULL, recvtype, root, c);
}

int ic_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               MPI_Comm c)
{
    return rooted("MPI_Gatherv", 1, sendbuf, sendcount, sendtype, recvbuf, recvcounts, 0,
                  displs, recvtype, root, c);
}

int ic_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm c)
{
    /* at the root the counts and type that matter are the send side's */
    if (root == MPI_ROOT)
        return rooted("MPI_Scatter", 0, sendbuf, 0, sendtype, NULL, NULL, sendcount, NULL,
                      NULL, root, c);
    return rooted("MPI_Scatter", 0, NULL, 0, NULL, recvbuf, NULL, recvcount, NULL, recvtype,
                  root, c);
}

int ic_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm c)
{
    if (root == MPI_ROOT)
        return rooted("MPI_Scatterv", 0, sendbuf, 0, sendtype, NULL, sendcounts, 0, displs,
                      NULL, root, c);
    return rooted("MPI_Scatterv", 0, NULL, 0, NULL, recvbuf, NULL, recvcount, NULL, recvtype,
                  root, c);
}

/* Every member sends sblock(j) to remote member j and receives rblock(j)
 * from it: the allgather(v) and alltoall(v, w) of intercommunicators.
 * Offsets in instances of the block's type, or in bytes (w). */
static int pairs(const char *fn, MPI_Comm c, const void *sbuf, const int *scnt,
                 const long *soff, const MPI_Datatype *st, int ns, void *rbuf,
                 const int *rcnt, const long *roff, const MPI_Datatype *rt, int bytes, int tag)
{
    int n = c->remote->size;
    for (int j = 0; j < n; j++) {
        int sj = ns == 1 ? 0 : j;
        TRY(coll_check_type(fn, c, scnt[sj], st[sj]));
        TRY(coll_check_type(fn, c, rcnt[j], rt[j]));
    }
    MPI_Request *r = malloc(sizeof *r * 2 * (size_t)(n > 0 ? n : 1));
    for (int j = 0; j < n; j++)
        collctx_irecv(bytes ? (char *)rbuf + roff[j] : coll_at(rbuf, roff[j], rt[j]), rcnt[j],
                      rt[j], j, tag, c, &r[j]);
    for (int k = 0; k < n; k++) {
        int j = (c->rank + k) % n, sj = ns == 1 ? 0 : j;   /* spread the senders */
        collctx_isend(bytes ? (const char *)sbuf + soff[sj] : coll_at(sbuf, soff[sj], st[sj]),
                      scnt[sj], st[sj], j, tag, c, &r[n + k]);
    }
    int err = collctx_waitall(2 * n, r);
    free(r);
    return done(c, fn, err);
}

struct vec { int *cnt; long *off; MPI_Datatype *t; };

static struct vec vec_(int n, const int *cnts, int cnt, const int *displs,
                       const MPI_Datatype *types, MPI_Datatype t)
{
    struct vec v = { malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)),
                     malloc(sizeof(long) * (size_t)(n > 0 ? n : 1)),
                     malloc(sizeof(MPI_Datatype) * (size_t)(n > 0 ? n : 1)) };
    for (int i = 0; i < n; i++) {
        v.cnt[i] = cnts ? cnts[i] : cnt;
        v.off[i] = displs ? displs[i] : (long)i * cnt;
        v.t[i] = types ? types[i] : t;
    }
    return v;
}

static int vec_done(struct vec a, struct vec b, int err)
{
    free(a.cnt), free(a.off), free(a.t);
    free(b.cnt), free(b.off), free(b.t);
    return err;
}

static int inplace(MPI_Comm c, const char *fn, const void *sendbuf)
{
    return sendbuf == MPI_IN_PLACE
        ? mpi_errf(c, fn, MPI_ERR_ARG, "MPI_IN_PLACE on an intercommunicator") : MPI_SUCCESS;
}

int ic_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm c)
{
    TRY(inplace(c, "MPI_Allgather", sendbuf));
    int n = c->remote->size;
    struct vec s = vec_(1, NULL, sendcount, (int[]){ 0 }, NULL, sendtype);
    struct vec r = vec_(n, NULL, recvcount, NULL, NULL, recvtype);
    return vec_done(s, r, pairs("MPI_Allgather", c, sendbuf, s.cnt, s.off, s.t, 1, recvbuf,
                                r.cnt, r.off, r.t, 0, T_ALLGATHER));
}

int ic_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                  MPI_Comm c)
{
    TRY(inplace(c, "MPI_Allgatherv", sendbuf));
    int n = c->remote->size;
    struct vec s = vec_(1, NULL, sendcount, (int[]){ 0 }, NULL, sendtype);
    struct vec r = vec_(n, recvcounts, 0, displs, NULL, recvtype);
    return vec_done(s, r, pairs("MPI_Allgatherv", c, sendbuf, s.cnt, s.off, s.t, 1, recvbuf,
                                r.cnt, r.off, r.t, 0, T_ALLGATHER));
}

int ic_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, MPI_Comm c)
{
    TRY(inplace(c, "MPI_Alltoall", sendbuf));
    int n = c->remote->size;
    struct vec s = vec_(n, NULL, sendcount, NULL, NULL, sendtype);
    struct vec r = vec_(n, NULL, recvcount, NULL, NULL, recvtype);
    return vec_done(s, r, pairs("MPI_Alltoall", c, sendbuf, s.cnt, s.off, s.t, n, recvbuf,
                                r.cnt, r.off, r.t, 0, T_ALLTOALL));
}

int ic_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm c)
{
    TRY(inplace(c, "MPI_Alltoallv", sendbuf));
    int n = c->remote->size;
    struct vec s = vec_(n, sendcounts, 0, sdispls, NULL, sendtype);
    struct vec r = vec_(n, recvcounts, 0, rdispls, NULL, recvtype);
    return vec_done(s, r, pairs("MPI_Alltoallv", c, sendbuf, s.cnt, s.off, s.t, n, recvbuf,
                                r.cnt, r.off, r.t, 0, T_ALLTOALL));
}

int ic_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                 const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm c)
{
    TRY(inplace(c, "MPI_Alltoallw", sendbuf));
    int n = c->remote->size;
    struct vec s = vec_(n, sendcounts, 0, sdispls, sendtypes, NULL);
    struct vec r = vec_(n, recvcounts, 0, rdispls, recvtypes, NULL);
    return vec_done(s, r, pairs("MPI_Alltoallw", c, sendbuf, s.cnt, s.off, s.t, n, recvbuf,
                                r.cnt, r.off, r.t, 1, T_ALLTOALL));
}

static int op_ok(MPI_Comm c, const char *fn, int count, MPI_Datatype t, MPI_Op op)
{
    TRY(coll_check_type(fn, c, count, t));
    int err = op_check(op, t);
    return err ? mpi_err(c, fn, err) : MPI_SUCCESS;
}

/* This group's reduction of count instances into a temporary at the
 * leader (*acc, its block in *block). */
static int local_reduce(const void *sendbuf, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                        char **acc, void **block)
{
    *block = coll_tmp(count, t, acc);
    return MPI_Reduce(sendbuf, *acc, count, t, op, 0, c->local);
}

int ic_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
              int root, MPI_Comm c)
{
    const char *fn = "MPI_Reduce";
    TRY(check_root(fn, c, root));
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    TRY(op_ok(c, fn, count, t, op));
    if (root == MPI_ROOT)
        return done(c, fn, collctx_recv(recvbuf, count, t, 0, T_REDUCE, c));
    TRY(inplace(c, fn, sendbuf));
    char *acc;
    void *block;
    int err = local_reduce(sendbuf, count, t, op, c, &acc, &block);
    if (!err && c->rank == 0)
        err = collctx_send(acc, count, t, root, T_REDUCE, c);
    free(block);
    return done(c, fn, err);
}

int ic_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
                 MPI_Comm c)
{
    const char *fn = "MPI_Allreduce";
    TRY(op_ok(c, fn, count, t, op));
    TRY(inplace(c, fn, sendbuf));
    char *acc;
    void *block;
    int err = local_reduce(sendbuf, count, t, op, c, &acc, &block);
    if (!err && c->rank == 0)
        err = swap_(acc, recvbuf, count, t, T_ALLREDUCE, c);
    if (!err)
        err = MPI_Bcast(recvbuf, count, t, 0, c->local);
    free(block);
    return done(c, fn, err);
}

static int redscat(const char *fn, const void *sendbuf, void *recvbuf, const int *rcounts,
                   int rcount, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    int n = c->size, total = 0;
    TRY(inplace(c, fn, sendbuf));
    int *cnt = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        cnt[i] = rcounts ? rcounts[i] : rcount;
        displs[i] = total;
        total += cnt[i];
    }
    int err = op_ok(c, fn, total, t, op);
    char *acc = NULL, *theirs = NULL;
    void *block = NULL, *block2 = NULL;
    if (!err)
        err = local_reduce(sendbuf, total, t, op, c, &acc, &block);
    if (!err && c->rank == 0) {
        block2 = coll_tmp(total, t, &theirs);
        err = swap_(acc, theirs, total, t, T_REDSCAT, c);
    }
    if (!err)
        err = MPI_Scatterv(theirs, cnt, displs, t, recvbuf, cnt[c->rank], t, 0, c->local);
    free(block);
    free(block2);
    free(cnt);
    free(displs);
    return done(c, fn, err);
}

int ic_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                      MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return redscat("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, 0, t, op, c);
}

int ic_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                            MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return redscat("MPI_Reduce_scatter_block", sendbuf, recvbuf, NULL, recvcount, t, op, c);
}
