/*
 * typeattr.c - attributes cached on datatypes (MPI_Type_create_keyval,
 * ..._free_keyval, ..._set_attr, ..._get_attr, ..._delete_attr), held by
 * attrcache.c as attr.c's on communicators: copy callbacks run on
 * MPI_Type_dup, delete callbacks on MPI_Type_free, a new value and
 * MPI_Type_delete_attr.
 */
#include "mpiimpl.h"

static int call_copy(const struct cache_keyval *k, void *obj, int keyval, void *value,
                     void **out, int *flag)
{
    MPI_Type_copy_attr_function *fn = (MPI_Type_copy_attr_function *)k->copy;
    return fn ? fn(obj, keyval, k->extra, value, out, flag) : MPI_SUCCESS;
}

static int call_del(const struct cache_keyval *k, void *obj, int keyval, void *value)
{
    MPI_Type_delete_attr_function *fn = (MPI_Type_delete_attr_function *)k->del;
    return fn ? fn(obj, keyval, value, k->extra) : MPI_SUCCESS;
}

/* keyvals from 0x10000: apart from the communicators' */
static struct cache_kind types = { 0x10000, 0, NULL, call_copy, call_del };

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval, void *extra)
{
    int err = cache_keyval_new(&types, (void (*)(void))copy, (void (*)(void))del, extra,
                               keyval);
    return err ? mpi_err(NULL, "MPI_Type_create_keyval", err) : MPI_SUCCESS;
}

int MPI_Type_free_keyval(int *keyval)
{
    int err = cache_keyval_free(&types, keyval);
    return err ? mpi_err(NULL, "MPI_Type_free_keyval", err) : MPI_SUCCESS;
}

int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *value)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_set_attr", MPI_ERR_TYPE);
    int err = cache_set(&types, type, &type->attrs, keyval, value);
    return err ? mpi_err(NULL, "MPI_Type_set_attr", err) : MPI_SUCCESS;
}

int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_attr", MPI_ERR_TYPE);
    int err = cache_get(&types, &type->attrs, keyval, value, flag);
    return err ? mpi_err(NULL, "MPI_Type_get_attr", err) : MPI_SUCCESS;
}

int MPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_delete_attr", MPI_ERR_TYPE);
    int err = cache_remove(&types, type, &type->attrs, keyval);
    if (err == CACHE_NO_ATTR)
        return mpi_errf(NULL, "MPI_Type_delete_attr", MPI_ERR_KEYVAL, "no such attribute");
    return err ? mpi_err(NULL, "MPI_Type_delete_attr", err) : MPI_SUCCESS;
}

/* MPI_Type_dup: the attributes whose copy callbacks say so, onto to. */
int typeattr_copy(MPI_Datatype from, MPI_Datatype to)
{
    return cache_copy(&types, from, &from->attrs, &to->attrs);
}

/* MPI_Type_free: every attribute deleted, last set first. */
int typeattr_delete_all(MPI_Datatype t)
{
    return cache_clear(&types, t, &t->attrs);
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
