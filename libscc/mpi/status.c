/*
 * status.c - statuses the program fills in itself (for generalized
 * requests and layered libraries: MPI_Status_set_elements(_x),
 * MPI_Status_set_cancelled) and counts of elements beyond an int
 * (MPI_Get_elements_x). A status holds the bytes received as a long
 * long, so counts up to 2^63 survive on the chip's 32-bit MPI_Aint too.
 */
#include "mpiimpl.h"

static long long elements(MPI_Datatype t, long long bytes)
{
    if (!t->size || !t->nelem)
        return 0;
    long long whole = bytes / t->size;
    return whole * t->nelem + type_elements(t, (MPI_Aint)(bytes - whole * t->size));
}

int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    if (!type)
        return mpi_err(NULL, "MPI_Get_elements_x", MPI_ERR_TYPE);
    *count = elements(type, status->mpi_bytes);
    return MPI_SUCCESS;
}

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
    if (!type)
        return mpi_err(NULL, "MPI_Status_set_elements_x", MPI_ERR_TYPE);
    if (count < 0)
        return mpi_errf(NULL, "MPI_Status_set_elements_x", MPI_ERR_COUNT, "count %lld",
                        (long long)count);
    long long bytes = 0, rest = count;
    if (type->nelem) {
        bytes = rest / type->nelem * type->size;
        rest %= type->nelem;
        for (int s = 0; s < type->nseg && rest > 0; s++) {     /* part of one more */
            long long bs = basic_size(type->seg[s].basic), n = type->seg[s].len / bs;
            long long take = n < rest ? n : rest;
            bytes += take * bs;
            rest -= take;
        }
    }
    status->mpi_bytes = bytes;
    return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
    return MPI_Status_set_elements_x(status, type, count);
}

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    status->mpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}
