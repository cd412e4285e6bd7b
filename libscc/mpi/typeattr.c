/*
 * typeattr.c - attributes cached on datatypes (MPI_Type_create_keyval,
 * ..._free_keyval, ..._set_attr, ..._get_attr, ..._delete_attr), as
 * attr.c's on communicators: copy callbacks run on MPI_Type_dup, delete
 * callbacks on MPI_Type_free, a new value and MPI_Type_delete_attr.
 * Their keyvals are numbered apart from the communicators' so that one
 * of the other kind is an error (MPI_ERR_KEYVAL).
 */
#include <stdlib.h>

#include "mpiimpl.h"

#define FIRST_TYPE_KEYVAL 0x10000

struct keyval {
    MPI_Type_copy_attr_function *copy;
    MPI_Type_delete_attr_function *del;
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
    int i = keyval - FIRST_TYPE_KEYVAL;
    return i >= 0 && i < nkeyvals ? &keyvals[i] : NULL;
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval, void *extra)
{
    struct keyval *k = realloc(keyvals, sizeof *k * (size_t)(nkeyvals + 1));
    if (!k)
        return mpi_err(NULL, "MPI_Type_create_keyval", MPI_ERR_NO_MEM);
    keyvals = k;
    keyvals[nkeyvals] = (struct keyval){ copy, del, extra, 0, 0 };
    *keyval = FIRST_TYPE_KEYVAL + nkeyvals++;
    return MPI_SUCCESS;
}

int MPI_Type_free_keyval(int *keyval)
{
    struct keyval *k = keyval ? kv(*keyval) : NULL;
    /* freed again while attributes still hold it: nothing more (as MPICH) */
    if (!k || (k->freed && !k->nattrs))
        return mpi_err(NULL, "MPI_Type_free_keyval", MPI_ERR_KEYVAL);
    k->freed = 1;       /* types may still hold its attributes */
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static struct attr **find(MPI_Datatype t, int keyval)
{
    struct attr **pp = (struct attr **)&t->attrs;
    while (*pp && (*pp)->keyval != keyval)
        pp = &(*pp)->next;
    return pp;
}

static int drop(MPI_Datatype t, struct attr **pp)
{
    struct attr *a = *pp;
    struct keyval *k = kv(a->keyval);
    int err = k->del ? k->del(t, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    if (err)
        return err;
    *pp = a->next;
    free(a);
    k->nattrs--;
    return MPI_SUCCESS;
}

int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *value)
{
    const char *fn = "MPI_Type_set_attr";
    if (!type)
        return mpi_err(NULL, fn, MPI_ERR_TYPE);
    struct keyval *k = kv(keyval);
    if (!k || k->freed)
        return mpi_err(NULL, fn, MPI_ERR_KEYVAL);
    struct attr **pp = find(type, keyval);
    if (*pp) {
        int err = drop(type, pp);
        if (err)
            return mpi_err(NULL, fn, err);
    }
    struct attr *a = malloc(sizeof *a);
    if (!a)
        return mpi_err(NULL, fn, MPI_ERR_NO_MEM);
    *a = (struct attr){ NULL, keyval, value };
    *find(type, keyval) = a;
    k->nattrs++;
    return MPI_SUCCESS;
}

int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_attr", MPI_ERR_TYPE);
    if (!kv(keyval))
        return mpi_err(NULL, "MPI_Type_get_attr", MPI_ERR_KEYVAL);
    struct attr *a = *find(type, keyval);
    *flag = a != NULL;
    if (a)
        *(void **)value = a->value;
    return MPI_SUCCESS;
}

int MPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    const char *fn = "MPI_Type_delete_attr";
    if (!type)
        return mpi_err(NULL, fn, MPI_ERR_TYPE);
    if (!kv(keyval))
        return mpi_err(NULL, fn, MPI_ERR_KEYVAL);
    struct attr **pp = find(type, keyval);
    if (!*pp)
        return mpi_errf(NULL, fn, MPI_ERR_KEYVAL, "no such attribute");
    int err = drop(type, pp);
    return err ? mpi_err(NULL, fn, err) : MPI_SUCCESS;
}

/* MPI_Type_dup: the attributes whose copy callbacks say so, onto to. */
int typeattr_copy(MPI_Datatype from, MPI_Datatype to)
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

/* MPI_Type_free: every attribute deleted, last set first. */
int typeattr_delete_all(MPI_Datatype t)
{
    while (t->attrs) {
        struct attr **pp = (struct attr **)&t->attrs;
        while ((*pp)->next)
            pp = &(*pp)->next;
        int err = drop(t, pp);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

int MPI_TYPE_NULL_COPY_FN(MPI_Datatype type, int keyval, void *extra, void *in, void *out,
                          int *flag)
{
    (void)type, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype type, int keyval, void *extra, void *in, void *out,
                    int *flag)
{
    (void)type, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)keyval, (void)value, (void)extra;
    return MPI_SUCCESS;
}
