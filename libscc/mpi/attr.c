/*
 * attr.c - attributes cached on communicators: the predefined ones
 * (MPI_TAG_UB, ...) and keyvals of the program's own, with their copy
 * callbacks run by MPI_Comm_dup and delete callbacks by MPI_Comm_free,
 * MPI_Comm_delete_attr, a new value, and MPI_Finalize for MPI_COMM_SELF.
 */
#include <stdlib.h>

#include "mpiimpl.h"

#define FIRST_KEYVAL 16         /* below: the predefined attributes */

struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int freed;
    int nattrs;         /* attributes that hold it */
};

struct attr {
    struct attr *next;
    int keyval;
    void *value;
};

static struct keyval *keyvals;
static int nkeyvals;

static struct keyval *kv(int keyval)
{
    int i = keyval - FIRST_KEYVAL;
    return i >= 0 && i < nkeyvals ? &keyvals[i] : NULL;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval, void *extra)
{
    struct keyval *k = realloc(keyvals, sizeof *k * (size_t)(nkeyvals + 1));
    if (!k)
        return mpi_err(NULL, "MPI_Comm_create_keyval", MPI_ERR_NO_MEM);
    keyvals = k;
    keyvals[nkeyvals] = (struct keyval){ copy, del, extra, 0, 0 };
    *keyval = FIRST_KEYVAL + nkeyvals++;
    return MPI_SUCCESS;
}

/* Marked only: communicators may still hold its attributes, whose
 * callbacks still run (the standard's reference counting). */
int MPI_Comm_free_keyval(int *keyval)
{
    struct keyval *k = kv(*keyval);
    /* freed again while attributes still hold it: nothing more (as MPICH) */
    if (!k || (k->freed && !k->nattrs))
        return mpi_err(NULL, "MPI_Comm_free_keyval", MPI_ERR_KEYVAL);
    k->freed = 1;
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static struct attr **find(MPI_Comm c, int keyval)
{
    struct attr **pp = (struct attr **)&c->attrs;
    while (*pp && (*pp)->keyval != keyval)
        pp = &(*pp)->next;
    return pp;
}

/* Run the delete callback and unlink: MPI_SUCCESS or its error. */
static int drop(MPI_Comm c, struct attr **pp)
{
    struct attr *a = *pp;
    struct keyval *k = kv(a->keyval);
    int err = k->del ? k->del(c, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    if (err)
        return err;
    *pp = a->next;
    free(a);
    k->nattrs--;
    return MPI_SUCCESS;
}

int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_set_attr", MPI_ERR_COMM);
    struct keyval *k = kv(keyval);
    if (!k || k->freed)
        return mpi_err(comm, "MPI_Comm_set_attr", MPI_ERR_KEYVAL);
    struct attr **pp = find(comm, keyval);
    if (*pp) {
        int err = drop(comm, pp);
        if (err)
            return mpi_err(comm, "MPI_Comm_set_attr", err);
    }
    struct attr *a = malloc(sizeof *a);
    if (!a)
        return mpi_err(comm, "MPI_Comm_set_attr", MPI_ERR_NO_MEM);
    *a = (struct attr){ NULL, keyval, value };
    *find(comm, keyval) = a;        /* at the end: kept in the order set */
    k->nattrs++;
    return MPI_SUCCESS;
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
        if (!kv(keyval))
            return mpi_err(comm, "MPI_Comm_get_attr", MPI_ERR_KEYVAL);
        struct attr *a = *find(comm, keyval);
        *flag = a != NULL;
        if (a)
            *(void **)value = a->value;
        return MPI_SUCCESS;
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
    if (!kv(keyval))
        return mpi_err(comm, "MPI_Comm_delete_attr", MPI_ERR_KEYVAL);
    struct attr **pp = find(comm, keyval);
    if (!*pp)
        return mpi_errf(comm, "MPI_Comm_delete_attr", MPI_ERR_KEYVAL, "no such attribute");
    int err = drop(comm, pp);
    return err ? mpi_err(comm, "MPI_Comm_delete_attr", err) : MPI_SUCCESS;
}

/* MPI_Comm_dup: each attribute whose copy callback says so, onto to. */
int attr_copy(MPI_Comm from, MPI_Comm to)
{
    for (struct attr *a = from->attrs; a; a = a->next) {
        struct keyval *k = kv(a->keyval);
        void *out = NULL;
        int flag = 0;
        if (!k->copy)
            continue;
        int err = k->copy(from, a->keyval, k->extra, a->value, &out, &flag);
        if (err)
            return err;
        if (flag) {
            struct attr *b = malloc(sizeof *b);
            if (!b)
                return MPI_ERR_NO_MEM;
            *b = (struct attr){ NULL, a->keyval, out };
            *find(to, a->keyval) = b;
            k->nattrs++;
        }
    }
    return MPI_SUCCESS;
}

/* MPI_Comm_free, MPI_Finalize: every attribute deleted, last set first. */
int attr_delete_all(MPI_Comm c)
{
    while (c->attrs) {
        struct attr **pp = (struct attr **)&c->attrs;
        while ((*pp)->next)
            pp = &(*pp)->next;
        int err = drop(c, pp);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
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
