/*
 * pack.c - moving typed data to and from a packed byte stream, and the
 * MPI calls that expose it.
 */
#include <string.h>

#include "mpiimpl.h"

void type_pack(const void *buf, int count, MPI_Datatype t, void *out)
{
    const char *b = buf;
    char *o = out;

    if (t->contig) {
        memcpy(o, b, (size_t)count * (size_t)t->size);
        return;
    }
    for (int i = 0; i < count; i++, b += type_extent(t))
        for (int s = 0; s < t->nseg; s++) {
            memcpy(o, b + t->seg[s].off, (size_t)t->seg[s].len);
            o += t->seg[s].len;
        }
}

/* As many whole or partial segments as `bytes` holds. */
void type_unpack(const void *in, MPI_Aint bytes, void *buf, int count, MPI_Datatype t)
{
    const char *i = in;
    char *b = buf;

    if (t->contig) {
        MPI_Aint all = (MPI_Aint)count * t->size;
        memcpy(b, i, (size_t)(bytes < all ? bytes : all));
        return;
    }
    for (int k = 0; k < count && bytes > 0; k++, b += type_extent(t))
        for (int s = 0; s < t->nseg && bytes > 0; s++) {
            MPI_Aint n = t->seg[s].len < bytes ? t->seg[s].len : bytes;
            memcpy(b + t->seg[s].off, i, (size_t)n);
            i += n;
            bytes -= n;
        }
}

MPI_Aint type_elements(MPI_Datatype t, MPI_Aint bytes)
{
    if (!t->size)
        return 0;
    MPI_Aint whole = bytes / t->size, n = whole * t->nelem;
    bytes -= whole * t->size;
    for (int s = 0; s < t->nseg && bytes > 0; s++) {
        MPI_Aint bs = basic_size(t->seg[s].basic);
        MPI_Aint take = t->seg[s].len < bytes ? t->seg[s].len : bytes;
        n += take / bs;
        bytes -= take;
    }
    return n;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
             int *position, MPI_Comm comm)
{
    int err = mpi_check_up("MPI_Pack");
    if (!err)
        err = type_check(type);
    if (!err && incount < 0)
        err = MPI_ERR_COUNT;
    if (!err && *position + incount * type->size > outsize)
        err = MPI_ERR_TRUNCATE;
    if (err)
        return mpi_err(comm, "MPI_Pack", err);
    type_pack(inbuf, incount, type, (char *)outbuf + *position);
    *position += (int)(incount * type->size);
    return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype type, MPI_Comm comm)
{
    int err = mpi_check_up("MPI_Unpack");
    if (!err)
        err = type_check(type);
    if (!err && outcount < 0)
        err = MPI_ERR_COUNT;
    if (!err && *position + outcount * type->size > insize)
        err = MPI_ERR_TRUNCATE;
    if (err)
        return mpi_err(comm, "MPI_Unpack", err);
    type_unpack((const char *)inbuf + *position, outcount * type->size, outbuf, outcount,
                type);
    *position += (int)(outcount * type->size);
    return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
    int err = type_check(type);
    if (!err && incount < 0)
        err = MPI_ERR_COUNT;
    if (err)
        return mpi_err(comm, "MPI_Pack_size", err);
    *size = (int)(incount * type->size);
    return MPI_SUCCESS;
}
