/*
 * mpiimpl.h - the MPI library's private state (docs/mpi.md).
 *
 * MPI world ranks are libscc's UEs (RCCE ranks, in increasing core
 * order). Every message travels as a packet through libscc's MPB channel
 * (src/chan.c), which MPI owns outside the collectives it lends to
 * libscc (coll_scc.c).
 */
#ifndef SCC_MPIIMPL_H
#define SCC_MPIIMPL_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

/* --- datatypes (datatype.c, pack.c) ------------------------------------------ */

enum basic {    /* what a reduction works on */
    B_NONE, B_CHAR, B_SCHAR, B_UCHAR, B_BYTE, B_SHORT, B_USHORT, B_INT, B_UINT, B_LONG,
    B_ULONG, B_LLONG, B_ULLONG, B_FLOAT, B_DOUBLE, B_LDOUBLE, B_WCHAR, B_BOOL,
    B_I8, B_I16, B_I32, B_I64, B_U8, B_U16, B_U32, B_U64, B_AINT, B_COUNT, B_OFFSET,
    B_PACKED,
    /* pairs (value, int) for MAXLOC/MINLOC */
    B_FLOAT_INT, B_DOUBLE_INT, B_LONG_INT, B_2INT, B_SHORT_INT, B_LDOUBLE_INT,
    /* complex: C's float/double/long double _Complex (and Fortran's COMPLEX,
     * DOUBLE COMPLEX); MPI_LB, MPI_UB's markers have no data */
    B_CFLOAT, B_CDOUBLE, B_CLDOUBLE,
};

struct seg {            /* a run of bytes of one basic type */
    MPI_Aint off;
    MPI_Aint len;
    short basic;        /* enum basic (pairs split into their parts) */
};

struct mpi_type_s {
    int predefined, committed, refs;
    int basic;          /* for predefined types: enum basic */
    MPI_Aint size, lb, ub, true_lb, true_ub;
    int nseg;
    struct seg *seg;    /* one instance's bytes in order */
    MPI_Aint nelem;     /* basic elements in one instance */
    int contig;         /* one segment at 0 of length size == extent */
    const char *name;
    /* how it was made (envelope.c): MPI_COMBINER_*, the arguments */
    int combiner, ni, na, nd;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
    char *uname;        /* MPI_Type_set_name's */
    /* MPI-1's markers: MPI_LB (marker 1), MPI_UB (2); has_lb/has_ub: lb/ub
     * was set by a marker or MPI_Type_create_resized, and sticks */
    int marker, has_lb, has_ub;
    void *attrs;        /* typeattr.c's list */
};

MPI_Aint type_extent(MPI_Datatype t);
int  type_check(MPI_Datatype t);        /* MPI_SUCCESS or MPI_ERR_TYPE */
/* count instances at buf, packed to out (bytes) / unpacked from in. */
void type_pack(const void *buf, int count, MPI_Datatype t, void *out);
void type_unpack(const void *in, MPI_Aint bytes, void *buf, int count, MPI_Datatype t);
/* Elements of basic types in `bytes` of a stream of t. */
MPI_Aint type_elements(MPI_Datatype t, MPI_Aint bytes);
int  basic_size(int basic);
/* envelope.c: a new type's constructor and arguments (it holds the
 * derived types among them until freed); the end of a derived type. */
void type_record(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                 const MPI_Aint *addrs, int nd, const MPI_Datatype *types);
void type_release(MPI_Datatype t);
/* typeattr.c: MPI_Type_dup's copy callbacks, MPI_Type_free's deletes */
int  typeattr_copy(MPI_Datatype from, MPI_Datatype to);
int  typeattr_delete_all(MPI_Datatype t);

/* --- attribute caches (attrcache.c) ------------------------------------------ */

/* A keyval. Its callbacks keep the types of their kind (cast back by the
 * kind's copy and del below). */
struct cache_keyval {
    void (*copy)(void), (*del)(void);
    void *extra;
    int freed, nattrs;          /* nattrs: the attributes that hold it */
};

/* A kind of object with attributes: its keyvals are numbered from first,
 * apart from other kinds' (one of another kind is MPI_ERR_KEYVAL). copy
 * and del call k's callbacks on obj, with their own types. */
struct cache_kind {
    int first, n;
    struct cache_keyval *keyvals;
    int (*copy)(const struct cache_keyval *k, void *obj, int keyval, void *value, void **out,
                int *flag);
    int (*del)(const struct cache_keyval *k, void *obj, int keyval, void *value);
};

/* MPI_SUCCESS or an error class; an object's attributes are the list at
 * *list. cache_remove: CACHE_NO_ATTR if obj has no attribute of keyval. */
#define CACHE_NO_ATTR (-1)
int  cache_keyval_new(struct cache_kind *kind, void (*copy)(void), void (*del)(void),
                      void *extra, int *keyval);
int  cache_keyval_free(struct cache_kind *kind, int *keyval);
int  cache_known(const struct cache_kind *kind, int keyval);
int  cache_set(struct cache_kind *kind, void *obj, void **list, int keyval, void *value);
int  cache_get(const struct cache_kind *kind, void **list, int keyval, void *value, int *flag);
int  cache_remove(struct cache_kind *kind, void *obj, void **list, int keyval);
int  cache_copy(struct cache_kind *kind, void *from, void **from_list, void **to_list);
int  cache_clear(struct cache_kind *kind, void *obj, void **list);

/* --- groups and communicators (group.c, comm.c) ------------------------------- */

struct mpi_group_s {
    int refs, size, rank;       /* rank: this process's, or MPI_UNDEFINED */
    int *ue;                    /* group rank -> world rank */
    int predefined;
};

struct mpi_comm_s {
    int ctx;                    /* p2p context; collectives use ctx + 1 */
    int size, rank;
    MPI_Group group;
    MPI_Errhandler eh;
    int predefined, freed;
    int world_like;             /* the group is the world's, in order */
    /* an intercommunicator (intercomm.c): ranks in point to point name
     * the remote group's members; local is the local group's own */
    MPI_Group remote;
    MPI_Comm local;
    void *attrs;                /* attr.c's list */
    void *topo;                 /* topo.c's description, or NULL */
    char name[MPI_MAX_OBJECT_NAME];
};

struct mpi_errhandler_s {
    int predefined, refs;
    MPI_Comm_errhandler_function *fn;   /* NULL: fatal or return */
    int fatal;
};

struct mpi_op_s {
    int predefined, commute, index;     /* index: 0.. for predefined */
    MPI_User_function *fn;
};

int  comm_check(MPI_Comm c);            /* MPI_SUCCESS or MPI_ERR_COMM */
int  comm_ue(MPI_Comm c, int rank);     /* world rank of a peer (remote if inter) */
int  comm_peers(MPI_Comm c);            /* how many peers p2p may name */
int  ctx_take(const unsigned int *free_mask);   /* the lowest free, marked used */
void ctx_free(int ctx);
void ctx_mask(unsigned int *free_mask);         /* this process's free ids */
#define CTX_WORDS 64
MPI_Comm comm_new(MPI_Group g, int ctx);
MPI_Group group_new(int size);
int  group_rank_of(MPI_Group g, int ue);  /* MPI_UNDEFINED if absent */
void group_release(MPI_Group g);
int  ctx_alloc(MPI_Comm parent, int *ctx);  /* collective over parent */
int  attr_copy(MPI_Comm from, MPI_Comm to);  /* attr.c: MPI_Comm_dup's callbacks */
int  attr_delete_all(MPI_Comm c);
void topo_copy(MPI_Comm from, MPI_Comm to);    /* topo.c: MPI_Comm_dup's */
void topo_free(MPI_Comm c);

/* --- errors (errhandler.c) ------------------------------------------------------ */

/* Raise err in function fn on comm (MPI_COMM_WORLD if NULL): the handler
 * decides; returns err if it returns. */
int  mpi_err(MPI_Comm comm, const char *fn, int err);
/* The same with a detail for the fatal message. */
__attribute__((format(printf, 4, 5)))
int  mpi_errf(MPI_Comm comm, const char *fn, int err, const char *fmt, ...);
__attribute__((noreturn, format(printf, 2, 3)))
void mpi_die(int code, const char *fmt, ...);
/* errclass.c: codes the program added: 1 and their class and string */
int  errclass_lookup(int code, int *cls, const char **str);
int *errclass_lastused(void);           /* MPI_LASTUSEDCODE's value */

/* --- environment (env.c) -------------------------------------------------------- */

struct mpi_env {
    int up, down, np, me;
    int thread;
    double tick;
};
extern struct mpi_env mpi_env;
int  mpi_check_up(const char *fn);      /* MPI_SUCCESS or dies: before Init/after Finalize */

/* --- point to point (transport.c, p2p.c, request.c, bsend.c) --------------------- */

enum { REQ_SEND = 1, REQ_RECV };
enum { SEND_STD, SEND_SYNC, SEND_BUF, SEND_READY };

struct mpi_request_s {
    int kind, id, done, freed, cancelled, err;
    MPI_Comm comm;              /* retained for the error handler */
    int ctx;
    /* receive */
    void *buf;
    int count, src, tag;
    MPI_Datatype type;
    MPI_Status st;
    /* send */
    int mode, dest_ue;
    char *data;                 /* packed payload (owned) or the user's */
    size_t bytes;
    int own_data, bsend_bytes;
    struct mpi_request_s *next; /* posted receives */
    /* persistent requests (persist.c): the arguments, and whether started */
    int persistent, active, ptag, pcount, ppeer;
    const void *pbuf;
    MPI_Datatype ptype;
};

int  req_isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
               int ctx, int mode, MPI_Request *out);
int  req_irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c, int ctx,
               MPI_Request *out);
/* Wait for one request, fill status, free it unless persistent-less... */
int  req_wait(MPI_Request *r, MPI_Status *st);
int  req_test(MPI_Request *r, int *flag, MPI_Status *st);
extern MPI_Status req_failed;           /* the status of the last receive that failed */
void req_release(MPI_Request r);
MPI_Request req_by_id(int id);
MPI_Request req_new(int kind, MPI_Comm c, int ctx);
/* A send or receive request (new, or persistent and restarted) begins. */
int  send_begin(MPI_Request s, const void *buf, int count, MPI_Datatype t, int dest, int tag);
void recv_begin(MPI_Request r);
int  req_inert(MPI_Request r);          /* null, or persistent and not started */
int  req_cancel_recv(MPI_Request r);    /* 1 if it was still unmatched */
/* Look for a matching unexpected message: 1 and its status, or 0. */
int  p2p_probe(int ctx, int src, int tag, MPI_Comm c, MPI_Status *st);

void transport_init(void);
int  progress(void);                    /* nonzero if anything moved */
void progress_wait(int moved);          /* idle politely after a fruitless pass */
void progress_focus(int ue);            /* a wait depends on ue only (-1: none) */
/* Queue raw data (a rendezvous's) to a world rank. */
void send_raw(int ue, const void *data, size_t len, MPI_Request notify, void *owned);
/* A short standard send at once, with no request: 1 if it went (MPI_Send). */
int  send_now(int ue, int ctx, int tag, int src_rank, const void *buf, size_t n);
int  outbox_empty(void);
void transport_hold(int on);            /* 1: start no send until 0 (coll_enter) */
int  transport_busy(void);              /* work under way that passes of progress move */
int  transport_poll(int ue);            /* req_wait's look at ue's line: 1, 0 or -1 */
/* A receive from one rank at once, with no request: 1 if done (MPI_Recv). */
int  recv_now(void *buf, size_t cap, int ue, int ctx, int src, int tag, MPI_Status *st);
void recv_posted(MPI_Request r);        /* match or queue a receive */
void send_cancel(MPI_Request s);

int  bsend_reserve(size_t bytes);       /* 0, or MPI_ERR_BUFFER */
void bsend_release(size_t bytes);

/* --- collectives (coll.c, coll_scc.c, op.c) ---------------------------------------- */

/* What the general collective algorithms share (collbase.c): point to
 * point on c's collective context, temporary buffers, argument checks. */
void collctx_isend(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                   MPI_Request *r);
void collctx_irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c,
                   MPI_Request *r);
int  collctx_send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm c);
int  collctx_recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm c);
int  collctx_waitall(int n, MPI_Request *r);
void *coll_tmp(int count, MPI_Datatype t, char **base);
int  coll_check_type(const char *fn, MPI_Comm c, int count, MPI_Datatype t);
static inline char *coll_at(const void *buf, long k, MPI_Datatype t)
{
    return (char *)buf + k * type_extent(t);
}
void op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype t);
int  op_check(MPI_Op op, MPI_Datatype t);
/* Every member's call agrees (kind, root, bytes per member): MPI_SUCCESS,
 * or an error raised on every rank (coll.c). Also the barrier. */
int  coll_enter(MPI_Comm c, const char *fn, int kind, int root, long long bytes, int *maps);
enum { C_BARRIER = 1, C_BCAST, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLGATHER,
       C_ALLGATHERV, C_ALLTOALL, C_ALLTOALLV, C_ALLTOALLW, C_REDUCE, C_ALLREDUCE,
       C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN, C_EXSCAN, C_FINALIZE, C_CTX };
/* libscc's collective for this call, if it maps: 1 done (err set), 0 not. */
int  scc_bcast(void *buf, size_t bytes, int root, MPI_Comm c, int *err);
int  scc_allreduce(const void *in, void *out, int count, MPI_Datatype t, MPI_Op op,
                   MPI_Comm c, int *err);
int  scc_reduce(const void *in, void *out, int count, MPI_Datatype t, MPI_Op op, int root,
                MPI_Comm c, int *err);
int  scc_allgather(const void *in, void *out, size_t bytes, MPI_Comm c, int *err);
int  scc_alltoall(const void *in, void *out, size_t bytes, MPI_Comm c, int *err);
int  scc_gather(const void *in, void *out, size_t bytes, int root, MPI_Comm c, int *err);
int  scc_scatter(const void *in, void *out, size_t bytes, int root, MPI_Comm c, int *err);
/* Whether libscc can serve a reduction of t with op (RCCE's types and ops). */
int  scc_reduces(MPI_Datatype t, MPI_Op op);
void agree_init(void);                  /* agree.c: MPB lines, at MPI_Init */
int  agree_ready(void);
void agree_world(long long *acc);       /* the agreement on a world-like comm */
void scc_quiet(void);                   /* libscc's barrier on every rank */
/* Whether collectives on c may be lent to libscc at all. */
int  scc_coll_ok(MPI_Comm c);

/* coll_inter.c: the collectives on intercommunicators, which coll.c's
 * calls hand over first */
#define INTER(c) ((c) && !(c)->freed && (c)->remote)
int  ic_barrier(MPI_Comm c);
int  ic_bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c);
int  ic_gather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
               MPI_Datatype rt, int root, MPI_Comm c);
int  ic_gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                const int *displs, MPI_Datatype rt, int root, MPI_Comm c);
int  ic_scatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm c);
int  ic_scatterv(const void *sbuf, const int *scounts, const int *displs, MPI_Datatype st,
                 void *rbuf, int rcount, MPI_Datatype rt, int root, MPI_Comm c);
int  ic_allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                  MPI_Datatype rt, MPI_Comm c);
int  ic_allgatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   const int *rcounts, const int *displs, MPI_Datatype rt, MPI_Comm c);
int  ic_alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
                 MPI_Datatype rt, MPI_Comm c);
int  ic_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype st,
                  void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                  MPI_Comm c);
int  ic_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                  const MPI_Datatype *st, void *rbuf, const int *rcounts, const int *rdispls,
                  const MPI_Datatype *rt, MPI_Comm c);
int  ic_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm c);
int  ic_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype t, MPI_Op op,
                  MPI_Comm c);
int  ic_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, MPI_Datatype t,
                       MPI_Op op, MPI_Comm c);
int  ic_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype t,
                             MPI_Op op, MPI_Comm c);
/* intercomm.c: MPI_Comm_split and MPI_Comm_create of an intercommunicator */
int  inter_split(MPI_Comm c, int color, int key, MPI_Comm *newcomm);

#endif
