/*
 * comminfo.c - info hints on communicators: MPI_Comm_set_info,
 * MPI_Comm_get_info, MPI_Comm_dup_with_info. The library takes no hints
 * on communicators, so every key is ignored and the hints in use are
 * none (an empty info object), as the standard allows.
 */
#include "mpiimpl.h"

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    (void)info;
    return comm_check(comm) ? mpi_err(comm, "MPI_Comm_set_info", MPI_ERR_COMM) : MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    if (comm_check(comm))
        return mpi_err(comm, "MPI_Comm_get_info", MPI_ERR_COMM);
    return MPI_Info_create(info_used);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    (void)info;
    return MPI_Comm_dup(comm, newcomm);
}
