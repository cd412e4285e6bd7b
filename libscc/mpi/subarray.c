/*
 * subarray.c - datatype constructors made of the others:
 * MPI_Type_create_hindexed_block (blocks of one length at byte
 * displacements) and MPI_Type_create_subarray (a block of an n-dim
 * array, C or Fortran order: vectors of vectors at the block's start,
 * resized to the whole array's extent). Each records its own
 * constructor and arguments (MPI_Type_get_contents). And
 * MPI_Type_match_size, which finds a predefined type by class and size.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displs[],
                                   MPI_Datatype old, MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_hindexed_block";
    if (count < 0 || blocklength < 0)
        return mpi_errf(NULL, fn, MPI_ERR_COUNT, "count %d, block length %d", count,
                        blocklength);
    int *bl = malloc(sizeof(int) * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++)
        bl[i] = blocklength;
    int err = MPI_Type_create_hindexed(count, bl, displs, old, newtype);
    free(bl);
    if (!err)
        type_record(*newtype, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){ count, blocklength },
                    count, displs, 1, &old);
    return err;
}

int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype old,
                             MPI_Datatype *newtype)
{
    const char *fn = "MPI_Type_create_subarray";
    if (ndims <= 0)
        return mpi_errf(NULL, fn, MPI_ERR_ARG, "%d dimensions", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mpi_errf(NULL, fn, MPI_ERR_ARG, "order %d", order);
    if (!old)
        return mpi_err(NULL, fn, MPI_ERR_TYPE);
    for (int i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i])
            return mpi_errf(NULL, fn, MPI_ERR_ARG, "dimension %d: size %d, subsize %d, start "
                            "%d", i, sizes[i], subsizes[i], starts[i]);
    /* dimension k from the fastest varying (0) to the slowest */
    int *sz = malloc(sizeof(int) * (size_t)ndims), *sub = malloc(sizeof(int) * (size_t)ndims),
        *st = malloc(sizeof(int) * (size_t)ndims);
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        sz[k] = sizes[i];
        sub[k] = subsizes[i];
        st[k] = starts[i];
    }
    MPI_Aint ext = type_extent(old), stride = ext, disp = 0;
    MPI_Datatype t = old, u;
    int err = MPI_Type_contiguous(sub[0], old, &t);
    disp = st[0] * ext;
    for (int k = 1; k < ndims && !err; k++) {
        stride *= sz[k - 1];
        err = MPI_Type_create_hvector(sub[k], 1, stride, t, &u);
        disp += st[k] * stride;
        MPI_Type_free(&t);
        t = u;
    }
    MPI_Aint total = stride * sz[ndims - 1];
    if (!err) {     /* the block at its place in the whole array */
        int one = 1;
        err = MPI_Type_create_hindexed(1, &one, &disp, t, &u);
        MPI_Type_free(&t);
        t = u;
    }
    if (!err) {
        err = MPI_Type_create_resized(t, 0, total, newtype);
        MPI_Type_free(&t);
    }
    if (!err) {
        int *ints = malloc(sizeof(int) * (size_t)(3 * ndims + 2));
        ints[0] = ndims;
        memcpy(ints + 1, sizes, sizeof(int) * (size_t)ndims);
        memcpy(ints + 1 + ndims, subsizes, sizeof(int) * (size_t)ndims);
        memcpy(ints + 1 + 2 * ndims, starts, sizeof(int) * (size_t)ndims);
        ints[1 + 3 * ndims] = order;
        type_record(*newtype, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &old);
        free(ints);
    }
    free(sz);
    free(sub);
    free(st);
    return err;
}

/* A predefined type of a class and size (MPI_Type_match_size): C's
 * types stand for Fortran's, which this library lacks. */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct { int cls; MPI_Datatype t; } table[] = {
        { MPI_TYPECLASS_REAL, MPI_FLOAT }, { MPI_TYPECLASS_REAL, MPI_DOUBLE },
        { MPI_TYPECLASS_REAL, MPI_LONG_DOUBLE },
        { MPI_TYPECLASS_INTEGER, MPI_SIGNED_CHAR }, { MPI_TYPECLASS_INTEGER, MPI_SHORT },
        { MPI_TYPECLASS_INTEGER, MPI_INT }, { MPI_TYPECLASS_INTEGER, MPI_LONG_LONG },
        { MPI_TYPECLASS_COMPLEX, MPI_C_FLOAT_COMPLEX },
        { MPI_TYPECLASS_COMPLEX, MPI_C_DOUBLE_COMPLEX },
        { MPI_TYPECLASS_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].cls == typeclass && table[i].t->size == size) {
            *datatype = table[i].t;
            return MPI_SUCCESS;
        }
    return mpi_errf(NULL, "MPI_Type_match_size", MPI_ERR_ARG, "no type of class %d and "
                    "size %d", typeclass, size);
}
