/*
 * coll.c - the collectives: every call first agrees with the other
 * members (coll_enter: what call, which root, how many bytes), so that a
 * mismatch is an error on every rank rather than a hang, then either
 * lends the call to libscc's tuned collective (coll_scc.c) or runs a
 * general algorithm over point to point on the communicator's
 * collective context, where any datatype and operation work.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

/* dst (rcount of rt) = src (scount of st), through a packed copy */
static void copy_typed(const void *src, int scount, MPI_Datatype st, void *dst, int rcount,
                       MPI_Datatype rt)
{
    size_t n = (size_t)scount * (size_t)st->size;
    char *p = malloc(n ? n : 1);
    if (!p)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for a copy of %zu bytes", n);
    type_pack(src, scount, st, p);
    type_unpack(p, (MPI_Aint)n, dst, rcount, rt);
    free(p);
}

/* --- agreement ---------------------------------------------------------------------- */

enum { AG_KMIN, AG_KMAX, AG_RMIN, AG_RMAX, AG_BMIN, AG_BMAX, AG_MAPS, AG_N };

static void agree(long long *acc, const long long *in)
{
    for (int i = 0; i < AG_N; i += 2) {
        if (i == AG_MAPS) {
            acc[i] &= in[i];
            break;
        }
        acc[i] = in[i] < acc[i] ? in[i] : acc[i];
        acc[i + 1] = in[i + 1] > acc[i + 1] ? in[i + 1] : acc[i + 1];
    }
}

/* A dissemination barrier whose messages carry what each member called:
 * after it every member knows the range of every member's values.
 *
 * A call lent to libscc must find every channel idle, and no member may
 * still take what arrives in a channel as MPI's once another started
 * libscc's algorithm (docs/mpi.md). So each member first delivers its
 * packets (the others take them, in MPI calls or in their agreement's
 * waits); then, over MPB lines (agree.c), it starts no send until the
 * call is over (an answer to a packet that arrives meanwhile waits
 * queued), and its waits take only MPI's packets (marked so in the
 * channel's size word: transport.c). When a member leaves the agreement,
 * every member has entered it, so every packet sent before the call was
 * taken and none is sent until members leave the call: what a channel
 * then carries is libscc's. No barrier of libscc's own is needed after
 * it; over packets (no MPB lines), one still ends it. */
int coll_enter(MPI_Comm c, const char *fn, int kind, int root, long long bytes, int *maps)
{
    /* the communicator is part of the call: collectives on two
     * communicators of the same ranks must not pass for one */
    long long key = (long long)c->ctx << 8 | kind;
    long long acc[AG_N] = { key, key, root, root, bytes, bytes, maps ? *maps : 0 }, in[AG_N];
    int n = c->size, me = c->rank;
    int lines = c->world_like && agree_ready(), lend = maps && *maps && lines;

    if (maps && *maps)
        while (!outbox_empty())
            progress_wait(progress());
    transport_hold(lend);
    if (lines)
        agree_world(acc);
    else for (int k = 1, round = 0; k < n; k <<= 1, round++) {
        MPI_Request r[2];
        collctx_irecv(in, AG_N, MPI_LONG_LONG, (me - k + n) % n, 0x7f000000 + round, c, &r[0]);
        collctx_isend(acc, AG_N, MPI_LONG_LONG, (me + k) % n, 0x7f000000 + round, c, &r[1]);
        collctx_waitall(2, r);
        agree(acc, in);
    }
    transport_hold(0);
    if (acc[AG_MAPS] && !lend) {
        while (!outbox_empty())
            progress_wait(progress());
        /* a member leaving this loop early must not start libscc's call
         * while another still takes whatever arrives as MPI packets */
        scc_quiet();
    }
    if (maps)
        *maps = (int)acc[AG_MAPS];
    if (acc[AG_KMIN] != acc[AG_KMAX])
        return mpi_errf(c, fn, MPI_ERR_OTHER, "the members of the communicator called "
                        "different collectives");
    if (acc[AG_RMIN] != acc[AG_RMAX])
        return mpi_errf(c, fn, MPI_ERR_ROOT, "the members named different roots "
                        "(%lld to %lld)", acc[AG_RMIN], acc[AG_RMAX]);
    if (acc[AG_BMIN] != acc[AG_BMAX])
        return mpi_errf(c, fn, MPI_ERR_COUNT, "the members passed different amounts of "
                        "data (%lld to %lld bytes per member): mismatched counts or types",
                        acc[AG_BMIN], acc[AG_BMAX]);
    return MPI_SUCCESS;
}

static int check(const char *fn, MPI_Comm c)
{
    mpi_check_up(fn);
    if (!comm_check(c) && c->remote)
        return mpi_errf(c, fn, MPI_ERR_COMM, "not defined on intercommunicators");
    return comm_check(c) ? mpi_err(c, fn, MPI_ERR_COMM) : MPI_SUCCESS;
}

static int check_root(const char *fn, MPI_Comm c, int root)
{
    int err = check(fn, c);
    if (!err && (root < 0 || root >= c->size))
        err = mpi_errf(c, fn, MPI_ERR_ROOT, "root %d of a communicator of %d", root, c->size);
    return err;
}

#define TRY(x) do { int e_ = (x); if (e_) return e_; } while (0)

/* --- the general algorithms ---------------------------------------------------------- */

static int bcast_p2p(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n, mask = 1;

    while (mask < n) {              /* receive from the parent */
        if (vr & mask) {
            TRY(collctx_recv(buf, count, t, (vr - mask + root) % n, 1, c));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            TRY(collctx_send(buf, count, t, (vr + mask + root) % n, 1, c));
    return MPI_SUCCESS;
}

/* Into acc (count of t, a typed buffer) at root; acc holds this rank's
 * input on entry. */
static int reduce_p2p(char *acc, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    int n = c->size, me = c->rank;
    char *tmp;
    void *block = coll_tmp(count, t, &tmp);
    int err = MPI_SUCCESS;

    if (!op->commute) {             /* in rank order, at the root */
        if (me != root) {
            err = collctx_send(acc, count, t, root, 2, c);
        } else {
            char **x = calloc((size_t)n, sizeof *x);
            void **blocks = calloc((size_t)n, sizeof *blocks);
            for (int i = 0; i < n && !err; i++)
                if (i != me) {
                    blocks[i] = coll_tmp(count, t, &x[i]);
                    err = collctx_recv(x[i], count, t, i, 2, c);
                }
            /* acc = x0 op (x1 op (... op x_{n-1})) */
            char *last = n - 1 == me ? acc : x[n - 1];
            if (!err) {
                copy_typed(last, count, t, tmp, count, t);
                for (int i = n - 2; i >= 0; i--)
                    op_apply(op, i == me ? acc : x[i], tmp, count, t);
                copy_typed(tmp, count, t, acc, count, t);
            }
            for (int i = 0; i < n; i++)
                free(blocks[i]);
            free(blocks);
            free(x);
        }
        free(block);
        return err;
    }
    int vr = (me - root + n) % n;
    for (int mask = 1; mask < n && !err; mask <<= 1) {
        if (vr & mask) {
            err = collctx_send(acc, count, t, (vr - mask + root) % n, 2, c);
            break;
        }
        if (vr + mask < n) {
            err = collctx_recv(tmp, count, t, (vr + mask + root) % n, 2, c);
            if (!err)
                op_apply(op, tmp, acc, count, t);
        }
    }
    free(block);
    return err;
}

/* --- the calls ---------------------------------------------------------------------------- */

int MPI_Barrier(MPI_Comm comm)
{
    if (INTER(comm))
        return ic_barrier(comm);
    TRY(check("MPI_Barrier", comm));
    return coll_enter(comm, "MPI_Barrier", C_BARRIER, 0, 0, NULL);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_bcast(buf, count, type, root, comm);
    const char *fn = "MPI_Bcast";
    TRY(check_root(fn, comm, root));
    TRY(coll_check_type(fn, comm, count, type));
    int maps = scc_coll_ok(comm) && type->contig, err;
    TRY(coll_enter(comm, fn, C_BCAST, root, (long long)count * type->size, &maps));
    if (maps && scc_bcast(buf, (size_t)count * (size_t)type->size, root, comm, &err))
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    err = bcast_p2p(buf, count, type, root, comm);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_reduce(sendbuf, recvbuf, count, type, op, root, comm);
    const char *fn = "MPI_Reduce";
    TRY(check_root(fn, comm, root));
    TRY(coll_check_type(fn, comm, count, type));
    int err = op_check(op, type);
    if (err)
        return mpi_err(comm, fn, err);
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int maps = scc_coll_ok(comm) && scc_reduces(type, op);
    TRY(coll_enter(comm, fn, C_REDUCE, root, (long long)count * type->size, &maps));
    if (maps && scc_reduce(in, recvbuf, count, type, op, root, comm, &err))
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    char *acc;
    void *block = coll_tmp(count, type, &acc);
    copy_typed(in, count, type, acc, count, type);
    err = reduce_p2p(acc, count, type, op, root, comm);
    if (!err && comm->rank == root)
        copy_typed(acc, count, type, recvbuf, count, type);
    free(block);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_allreduce(sendbuf, recvbuf, count, type, op, comm);
    const char *fn = "MPI_Allreduce";
    TRY(check(fn, comm));
    TRY(coll_check_type(fn, comm, count, type));
    int err = op_check(op, type);
    if (err)
        return mpi_err(comm, fn, err);
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    int maps = scc_coll_ok(comm) && scc_reduces(type, op);
    TRY(coll_enter(comm, fn, C_ALLREDUCE, 0, (long long)count * type->size, &maps));
    if (maps && scc_allreduce(in, recvbuf, count, type, op, comm, &err))
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    char *acc;
    void *block = coll_tmp(count, type, &acc);
    copy_typed(in, count, type, acc, count, type);
    err = reduce_p2p(acc, count, type, op, 0, comm);
    if (!err)
        err = bcast_p2p(acc, count, type, 0, comm);
    if (!err)
        copy_typed(acc, count, type, recvbuf, count, type);
    free(block);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

static int gatherv(const char *fn, int kind, const void *sendbuf, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, const int *rcounts, int rcount,
                   const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int n = comm->size, me = comm->rank, err;
    TRY(check_root(fn, comm, root));
    if (sendbuf != MPI_IN_PLACE || me != root)
        TRY(coll_check_type(fn, comm, sendcount, sendtype));
    if (me == root)
        TRY(coll_check_type(fn, comm, rcounts ? 0 : rcount, recvtype));
    long long bytes = kind == C_GATHERV ? 0 : me == root ? (long long)rcount * recvtype->size
                                                         : (long long)sendcount * sendtype->size;
    int maps = kind == C_GATHER && scc_coll_ok(comm) &&
               (me == root ? recvtype->contig && (sendbuf == MPI_IN_PLACE || sendtype->contig)
                           : sendtype->contig);
    TRY(coll_enter(comm, fn, kind, root, bytes, &maps));
    if (maps && scc_gather(sendbuf == MPI_IN_PLACE ? coll_at(recvbuf, (long)me * rcount, recvtype)
                                                   : sendbuf,
                           recvbuf, (size_t)bytes, root, comm, &err))
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    if (me != root) {
        err = collctx_send(sendbuf, sendcount, sendtype, root, 3, comm);
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    }
    MPI_Request *r = malloc(sizeof *r * (size_t)n);
    for (int i = 0; i < n; i++) {
        long off = rcounts ? displs[i] : (long)i * rcount;
        int cnt = rcounts ? rcounts[i] : rcount;
        if (i == me) {
            r[i] = MPI_REQUEST_NULL;
            if (sendbuf != MPI_IN_PLACE)
                copy_typed(sendbuf, sendcount, sendtype, coll_at(recvbuf, off, recvtype), cnt,
                           recvtype);
        } else {
            collctx_irecv(coll_at(recvbuf, off, recvtype), cnt, recvtype, i, 3, comm, &r[i]);
        }
    }
    err = collctx_waitall(n, r);
    free(r);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                         comm);
    return gatherv("MPI_Gather", C_GATHER, sendbuf, sendcount, sendtype, recvbuf, NULL,
                   recvcount, NULL, recvtype, root, comm);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    if (INTER(comm))
        return ic_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          root, comm);
    return gatherv("MPI_Gatherv", C_GATHERV, sendbuf, sendcount, sendtype, recvbuf,
                   recvcounts, 0, displs, recvtype, root, comm);
}

static int scatterv(const char *fn, int kind, const void *sendbuf, const int *scounts,
                    int scount, const int *displs, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int n = comm->size, me = comm->rank, err;
    TRY(check_root(fn, comm, root));
    if (recvbuf != MPI_IN_PLACE || me != root)
        TRY(coll_check_type(fn, comm, recvcount, recvtype));
    if (me == root)
        TRY(coll_check_type(fn, comm, scounts ? 0 : scount, sendtype));
    long long bytes = kind == C_SCATTERV ? 0 : me == root ? (long long)scount * sendtype->size
                                                          : (long long)recvcount * recvtype->size;
    int maps = kind == C_SCATTER && scc_coll_ok(comm) &&
               (me == root ? sendtype->contig && (recvbuf == MPI_IN_PLACE || recvtype->contig)
                           : recvtype->contig);
    TRY(coll_enter(comm, fn, kind, root, bytes, &maps));
    if (maps) {
        /* libscc writes the root's own block too: in place, onto itself */
        void *out = recvbuf == MPI_IN_PLACE ? coll_at(sendbuf, (long)me * scount, sendtype)
                                            : recvbuf;
        if (scc_scatter(sendbuf, out, (size_t)bytes, root, comm, &err))
            return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    }
    if (me != root) {
        err = collctx_recv(recvbuf, recvcount, recvtype, root, 4, comm);
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    }
    MPI_Request *r = malloc(sizeof *r * (size_t)n);
    for (int i = 0; i < n; i++) {
        long off = scounts ? displs[i] : (long)i * scount;
        int cnt = scounts ? scounts[i] : scount;
        if (i == me) {
            r[i] = MPI_REQUEST_NULL;
            if (recvbuf != MPI_IN_PLACE)
                copy_typed(coll_at(sendbuf, off, sendtype), cnt, sendtype, recvbuf, recvcount,
                           recvtype);
        } else {
            collctx_isend(coll_at(sendbuf, off, sendtype), cnt, sendtype, i, 4, comm, &r[i]);
        }
    }
    err = collctx_waitall(n, r);
    free(r);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                          comm);
    return scatterv("MPI_Scatter", C_SCATTER, sendbuf, NULL, sendcount, NULL, sendtype,
                    recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                           recvtype, root, comm);
    return scatterv("MPI_Scatterv", C_SCATTERV, sendbuf, sendcounts, 0, displs, sendtype,
                    recvbuf, recvcount, recvtype, root, comm);
}

/* Every member's block to every member: the general allgather(v) and
 * alltoall(v, w). Block i of member j goes from j's sblock(i) to i's
 * rblock(j). */
static int exchange(MPI_Comm c, int ns, const void *sbuf, const int *scnt, const long *soff,
                    MPI_Datatype const *stypes, void *rbuf, const int *rcnt, const long *roff,
                    MPI_Datatype const *rtypes, int byte_displs)
{
    int n = c->size, me = c->rank;
    MPI_Request *r = malloc(sizeof *r * 2 * (size_t)n);

    for (int i = 0; i < n; i++) {
        char *dst = byte_displs ? (char *)rbuf + roff[i] : coll_at(rbuf, roff[i], rtypes[i]);
        if (i == me)
            r[i] = MPI_REQUEST_NULL;
        else
            collctx_irecv(dst, rcnt[i], rtypes[i], i, 5, c, &r[i]);
    }
    for (int k = 0; k < n; k++) {
        int i = (me + k) % n;       /* spread the senders over the receivers */
        int si = ns == 1 ? 0 : i;
        const char *src = byte_displs ? (const char *)sbuf + soff[si]
                                      : coll_at(sbuf, soff[si], stypes[si]);
        if (i == me) {
            r[n + i] = MPI_REQUEST_NULL;
            char *dst = byte_displs ? (char *)rbuf + roff[i] : coll_at(rbuf, roff[i], rtypes[i]);
            copy_typed(src, scnt[si], stypes[si], dst, rcnt[i], rtypes[i]);
        } else {
            collctx_isend(src, scnt[si], stypes[si], i, 5, c, &r[n + i]);
        }
    }
    int err = collctx_waitall(2 * n, r);
    free(r);
    return err;
}

/* In-place exchanges send from a copy of the receive buffer. */
static void *snapshot(const void *buf, MPI_Aint bytes_span)
{
    void *p = malloc((size_t)(bytes_span > 0 ? bytes_span : 1));
    if (!p)
        mpi_die(MPI_ERR_NO_MEM, "out of memory for an in-place collective");
    memcpy(p, buf, (size_t)(bytes_span > 0 ? bytes_span : 0));
    return p;
}

static MPI_Aint span_of(const int *cnt, const long *off, MPI_Datatype const *t, int n,
                        int byte_displs)
{
    MPI_Aint hi = 0;
    for (int i = 0; i < n; i++) {
        if (!cnt[i])
            continue;
        MPI_Aint base = byte_displs ? off[i] : off[i] * type_extent(t[i]);
        MPI_Aint e = base + (cnt[i] - 1) * type_extent(t[i]) + t[i]->true_ub;
        if (e > hi)
            hi = e;
    }
    return hi;
}

static int allgatherv(const char *fn, int kind, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, const int *rcounts, int rcount,
                      const int *displs, MPI_Datatype recvtype, MPI_Comm comm)
{
    TRY(check(fn, comm));
    int n = comm->size, me = comm->rank, err;
    if (sendbuf != MPI_IN_PLACE)
        TRY(coll_check_type(fn, comm, sendcount, sendtype));
    TRY(coll_check_type(fn, comm, rcounts ? 0 : rcount, recvtype));
    long long bytes = kind == C_ALLGATHERV ? 0 : (long long)rcount * recvtype->size;
    int maps = kind == C_ALLGATHER && scc_coll_ok(comm) && recvtype->contig &&
               (sendbuf == MPI_IN_PLACE || sendtype->contig);
    TRY(coll_enter(comm, fn, kind, 0, bytes, &maps));
    if (maps) {
        const void *in = sendbuf == MPI_IN_PLACE ? coll_at(recvbuf, (long)me * rcount, recvtype)
                                                 : sendbuf;
        void *copy = sendbuf == MPI_IN_PLACE ? snapshot(in, (MPI_Aint)bytes) : NULL;
        int done = scc_allgather(copy ? copy : in, recvbuf, (size_t)bytes, comm, &err);
        free(copy);
        if (done)
            return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    }
    int *rc = malloc(sizeof *rc * (size_t)n), sc = sendcount;
    long *ro = malloc(sizeof *ro * (size_t)n), so = 0;
    MPI_Datatype *rt = malloc(sizeof *rt * (size_t)n), st = sendtype;
    for (int i = 0; i < n; i++) {
        rc[i] = rcounts ? rcounts[i] : rcount;
        ro[i] = rcounts ? displs[i] : (long)i * rcount;
        rt[i] = recvtype;
    }
    const void *sb = sendbuf;
    if (sendbuf == MPI_IN_PLACE) {
        sb = recvbuf;
        sc = rc[me];
        so = ro[me];
        st = recvtype;
    }
    /* the own block in place needs no copy: skip it by sending it to itself */
    err = exchange(comm, 1, sb, &sc, &so, &st, recvbuf, rc, ro, rt, 0);
    free(rc);
    free(ro);
    free(rt);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return allgatherv("MPI_Allgather", C_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                      NULL, recvcount, NULL, recvtype, comm);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    if (INTER(comm))
        return ic_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, comm);
    return allgatherv("MPI_Allgatherv", C_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf,
                      recvcounts, 0, displs, recvtype, comm);
}

static int alltoallw(const char *fn, int kind, const void *sendbuf, const int *scnt,
                     const long *soff, MPI_Datatype const *st, void *recvbuf, const int *rcnt,
                     const long *roff, MPI_Datatype const *rt, int byte_displs, MPI_Comm comm,
                     long long bytes, int maps)
{
    int n = comm->size, err;
    for (int i = 0; i < n; i++) {
        if (sendbuf != MPI_IN_PLACE)
            TRY(coll_check_type(fn, comm, scnt[i], st[i]));
        TRY(coll_check_type(fn, comm, rcnt[i], rt[i]));
    }
    TRY(coll_enter(comm, fn, kind, 0, bytes, &maps));
    void *copy = NULL;
    if (sendbuf == MPI_IN_PLACE) {
        copy = snapshot(recvbuf, span_of(rcnt, roff, rt, n, byte_displs));
        sendbuf = copy;
        scnt = rcnt;
        soff = roff;
        st = rt;
    }
    if (maps && scc_alltoall(sendbuf, recvbuf, (size_t)bytes, comm, &err)) {
        free(copy);
        return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
    }
    err = exchange(comm, n, sendbuf, scnt, soff, st, recvbuf, rcnt, roff, rt, byte_displs);
    free(copy);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

/* Arrays of n for the v and w forms from the plain form's scalars. */
struct vec { int *cnt; long *off; MPI_Datatype *t; };

static struct vec vec_new(int n, const int *cnts, int cnt, const int *displs,
                          const MPI_Datatype *types, MPI_Datatype t)
{
    struct vec v = { malloc(sizeof(int) * (size_t)n), malloc(sizeof(long) * (size_t)n),
                     malloc(sizeof(MPI_Datatype) * (size_t)n) };
    for (int i = 0; i < n; i++) {
        v.cnt[i] = cnts ? cnts[i] : cnt;
        v.off[i] = displs ? displs[i] : (long)i * cnt;
        v.t[i] = types ? types[i] : t;
    }
    return v;
}

static void vec_free(struct vec v)
{
    free(v.cnt);
    free(v.off);
    free(v.t);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    TRY(check("MPI_Alltoall", comm));
    int n = comm->size;
    struct vec s = vec_new(n, NULL, sendcount, NULL, NULL, sendtype);
    struct vec r = vec_new(n, NULL, recvcount, NULL, NULL, recvtype);
    int maps = scc_coll_ok(comm) && recvtype && recvtype->contig &&
               (sendbuf == MPI_IN_PLACE || (sendtype && sendtype->contig));
    int err = alltoallw("MPI_Alltoall", C_ALLTOALL, sendbuf, s.cnt, s.off, s.t, recvbuf,
                        r.cnt, r.off, r.t, 0, comm,
                        recvtype ? (long long)recvcount * recvtype->size : 0, maps);
    vec_free(s);
    vec_free(r);
    return err;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm);
    TRY(check("MPI_Alltoallv", comm));
    int n = comm->size, inplace = sendbuf == MPI_IN_PLACE;
    struct vec s = vec_new(n, inplace ? recvcounts : sendcounts, 0,
                           inplace ? rdispls : sdispls, NULL, sendtype);
    struct vec r = vec_new(n, recvcounts, 0, rdispls, NULL, recvtype);
    int err = alltoallw("MPI_Alltoallv", C_ALLTOALLV, sendbuf, s.cnt, s.off, s.t, recvbuf,
                        r.cnt, r.off, r.t, 0, comm, 0, 0);
    vec_free(s);
    vec_free(r);
    return err;
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    if (INTER(comm))
        return ic_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                            rdispls, recvtypes, comm);
    TRY(check("MPI_Alltoallw", comm));
    int n = comm->size, inplace = sendbuf == MPI_IN_PLACE;
    struct vec s = vec_new(n, inplace ? recvcounts : sendcounts, 0,
                           inplace ? rdispls : sdispls, inplace ? recvtypes : sendtypes, NULL);
    struct vec r = vec_new(n, recvcounts, 0, rdispls, recvtypes, NULL);
    int err = alltoallw("MPI_Alltoallw", C_ALLTOALLW, sendbuf, s.cnt, s.off, s.t, recvbuf,
                        r.cnt, r.off, r.t, 1, comm, 0, 0);
    vec_free(s);
    vec_free(r);
    return err;
}

/* Reduce everything to rank 0, then scatter the pieces. */
static int reduce_scatter(const char *fn, int kind, const void *sendbuf, void *recvbuf,
                          const int *rcounts, int rcount, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    TRY(check(fn, comm));
    int n = comm->size, me = comm->rank, total = 0, err;
    int *cnt = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        cnt[i] = rcounts ? rcounts[i] : rcount;
        displs[i] = total;
        total += cnt[i];
    }
    if ((err = coll_check_type(fn, comm, total, type)) || (err = op_check(op, type))) {
        free(cnt);
        free(displs);
        return mpi_err(comm, fn, err);
    }
    TRY(coll_enter(comm, fn, kind, 0, (long long)total * type->size, NULL));
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *acc;
    void *block = coll_tmp(total, type, &acc);
    copy_typed(in, total, type, acc, total, type);
    err = reduce_p2p(acc, total, type, op, 0, comm);
    if (!err && me == 0) {
        copy_typed(acc, cnt[0], type, recvbuf, cnt[0], type);
        MPI_Request *r = malloc(sizeof *r * (size_t)n);
        r[0] = MPI_REQUEST_NULL;
        for (int i = 1; i < n; i++)
            collctx_isend(coll_at(acc, displs[i], type), cnt[i], type, i, 6, comm, &r[i]);
        err = collctx_waitall(n, r);
        free(r);
    } else if (!err) {
        err = collctx_recv(recvbuf, cnt[me], type, 0, 6, comm);
    }
    free(block);
    free(cnt);
    free(displs);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
    return reduce_scatter("MPI_Reduce_scatter", C_REDUCE_SCATTER, sendbuf, recvbuf,
                          recvcounts, 0, type, op, comm);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (INTER(comm))
        return ic_reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
    return reduce_scatter("MPI_Reduce_scatter_block", C_REDUCE_SCATTER_BLOCK, sendbuf,
                          recvbuf, NULL, recvcount, type, op, comm);
}

/* A chain in rank order, so that any operation sees its operands in order. */
static int scan(const char *fn, int kind, const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    TRY(check(fn, comm));
    TRY(coll_check_type(fn, comm, count, type));
    int err = op_check(op, type), me = comm->rank;
    if (err)
        return mpi_err(comm, fn, err);
    TRY(coll_enter(comm, fn, kind, 0, (long long)count * type->size, NULL));
    const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *acc, *prev;
    void *b1 = coll_tmp(count, type, &acc), *b2 = coll_tmp(count, type, &prev);
    copy_typed(in, count, type, acc, count, type);
    if (me > 0) {
        err = collctx_recv(prev, count, type, me - 1, 7, comm);
        if (!err)
            op_apply(op, prev, acc, count, type);       /* acc = prev op mine */
    }
    if (!err && me + 1 < comm->size)
        err = collctx_send(acc, count, type, me + 1, 7, comm);
    if (!err && kind == C_SCAN)
        copy_typed(acc, count, type, recvbuf, count, type);
    if (!err && kind == C_EXSCAN && me > 0)
        copy_typed(prev, count, type, recvbuf, count, type);
    free(b1);
    free(b2);
    return err ? mpi_err(comm, fn, err) : MPI_SUCCESS;
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm)
{
    return scan("MPI_Scan", C_SCAN, sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm)
{
    return scan("MPI_Exscan", C_EXSCAN, sendbuf, recvbuf, count, type, op, comm);
}
