/*
 * deprecated.c - MPI-1's names that MPI-2 replaced (deprecated, and
 * removed from the C bindings by MPI-3, but still in MPI programs and in
 * MPICH's tests): each calls its successor.
 *
 *   MPI_Keyval_create/free, MPI_Attr_put/get/delete   MPI_Comm_*_keyval/attr
 *   MPI_Errhandler_create/set/get                      MPI_Comm_*_errhandler
 *   MPI_Type_extent/lb/ub, MPI_Type_hvector/hindexed/struct, MPI_Address
 *
 * MPI_LB and MPI_UB, the markers MPI_Type_struct takes, are datatypes
 * (datatype.c).
 */
#include "mpiimpl.h"

int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                      void *extra_state)
{
    return MPI_Comm_create_keyval(copy, del, keyval, extra_state);
}

int MPI_Keyval_free(int *keyval)
{
    return MPI_Comm_free_keyval(keyval);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    return MPI_Comm_set_attr(comm, keyval, value);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return MPI_Comm_get_attr(comm, keyval, value, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return MPI_Comm_delete_attr(comm, keyval);
}

int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh)
{
    return MPI_Comm_create_errhandler(fn, eh);
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh)
{
    return MPI_Comm_set_errhandler(comm, eh);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    return MPI_Comm_get_errhandler(comm, eh);
}

int MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent)
{
    MPI_Aint lb;
    return MPI_Type_get_extent(type, &lb, extent);
}

int MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb)
{
    MPI_Aint extent;
    return MPI_Type_get_extent(type, lb, &extent);
}

int MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub)
{
    MPI_Aint lb, extent;
    int err = MPI_Type_get_extent(type, &lb, &extent);
    if (!err)
        *ub = lb + extent;
    return err;
}

int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    return MPI_Type_create_hvector(count, blocklength, stride, old, newtype);
}

int MPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displs[], MPI_Datatype old,
                      MPI_Datatype *newtype)
{
    return MPI_Type_create_hindexed(count, blocklengths, displs, old, newtype);
}

int MPI_Type_struct(int count, int blocklengths[], MPI_Aint displs[], MPI_Datatype types[],
                    MPI_Datatype *newtype)
{
    return MPI_Type_create_struct(count, blocklengths, displs, types, newtype);
}

int MPI_Address(void *location, MPI_Aint *address)
{
    return MPI_Get_address(location, address);
}
