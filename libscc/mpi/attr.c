/*
 * attr.c - attributes cached on communicators (attrcache.c holds them):
 * the predefined ones (MPI_TAG_UB, ...) and keyvals of the program's
 * own, with their copy callbacks run by MPI_Comm_dup and delete callbacks
 * by MPI_Comm_free, MPI_Comm_delete_attr, a new value, and MPI_Finalize
 * for MPI_COMM_SELF.
 */
#include "mpiimpl.h"

static int call_copy(const struct cache_keyval *k, void *obj, int keyval, void *value,
                     void **out, int *flag)
{
    MPI_Comm_copy_attr_function *fn = (MPI_Comm_copy_attr_function *)k->copy;
    return fn ? fn(obj, keyval, k->extra, value, out, flag) : MPI_SUCCESS;
}

static int call_del(const struct cache_keyval *k, void *obj, int keyval, void *value)
{
    MPI_Comm_delete_attr_function *fn = (MPI_Comm_delete_attr_function *)k->del;
    return fn ? fn(obj, keyval, value, k->extra) : MPI_SUCCESS;
}

/* keyvals from 16: below, the predefined attributes */
static struct cache_kind comms = { 16, 0, NULL, call_copy, call_del };

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval, void *extra)
{
    int err = cache_keyval_new(&comms, (void (*)(void))copy, (void (*)(void))del, extra,
                               keyval);
    return err ? mpi_err(NULL, "MPI_Comm_create_keyval", err) : MPI_SUCCESS;
}

int MPI_Comm_free_keyval(int *keyval)
{
    int err = cache_keyval_free(&comms, keyval);
    return err ? mpi_err(NULL, "MPI_Comm_free_keyval", err) : MPI_SUCCESS;
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_set_attr", MPI_ERR_COMM);
    int err = cache_set(&comms, comm, &comm->attrs, keyval, value);
    return err ? mpi_err(comm, "MPI_Comm_set_attr", err) : MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    static int tag_ub = MPI_TAG_UB_VALUE, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE,
               global = 1, universe, appnum = 0;
    int *v = NULL;

    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_get_attr", MPI_ERR_COMM);
    universe = mpi_env.np;
    switch (keyval) {
    case MPI_TAG_UB: v = &tag_ub; break;
    case MPI_HOST: v = &host; break;
    case MPI_IO: v = &io; break;
    case MPI_WTIME_IS_GLOBAL: v = &global; break;
    case MPI_UNIVERSE_SIZE: v = &universe; break;
    case MPI_APPNUM: v = &appnum; break;
    case MPI_LASTUSEDCODE: v = errclass_lastused(); break;
    default: {
        int err = cache_get(&comms, &comm->attrs, keyval, value, flag);
        return err ? mpi_err(comm, "MPI_Comm_get_attr", err) : MPI_SUCCESS;
    }
    }
    *(int **)value = v;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_delete_attr", MPI_ERR_COMM);
    int err = cache_remove(&comms, comm, &comm->attrs, keyval);
    if (err == CACHE_NO_ATTR)
        return mpi_errf(comm, "MPI_Comm_delete_attr", MPI_ERR_KEYVAL, "no such attribute");
    return err ? mpi_err(comm, "MPI_Comm_delete_attr", err) : MPI_SUCCESS;
}

/* MPI_Comm_dup: each attribute whose copy callback says so, onto to. */
int attr_copy(MPI_Comm from, MPI_Comm to)
{
    return cache_copy(&comms, from, &from->attrs, &to->attrs);
}

/* MPI_Comm_free, MPI_Finalize: every attribute deleted, last set first. */
int attr_delete_all(MPI_Comm c)
{
    return cache_clear(&comms, c, &c->attrs);
}

int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out,
                          int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    return MPI_SUCCESS;
}
