/*
 * errhandler.c - error classes, their strings, and the handlers that
 * decide what an error does: MPI_ERRORS_ARE_FATAL (the default) ends the
 * run with a message naming the rank, the function and the class.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

struct mpi_errhandler_s mpi_errors_fatal_ = { 1, 1, NULL, 1 };
struct mpi_errhandler_s mpi_errors_return_ = { 1, 1, NULL, 0 };

static const char *const strings[] = {
    [MPI_SUCCESS] = "MPI_SUCCESS: no error",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer (or the attached buffer is too small)",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag",
    [MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP] = "MPI_ERR_OP: invalid operation",
    [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid topology",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid dimensions",
    [MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument",
    [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated",
    [MPI_ERR_OTHER] = "MPI_ERR_OTHER: other error",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal error",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in status",
    [MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: out of memory",
    [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid keyval",
};

void mpi_die(int code, const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fprintf(stderr, "MPI rank %d: ", mpi_env.me);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    mpi_env.down = 1;       /* said why already: no "without MPI_Finalize" */
    exit(code);
}

static int raise_err(MPI_Comm comm, const char *fn, int err, const char *detail)
{
    if (err == MPI_SUCCESS)
        return err;
    MPI_Errhandler eh = comm && comm != MPI_COMM_NULL ? comm->eh : MPI_COMM_WORLD->eh;
    if (!eh)
        eh = MPI_ERRORS_ARE_FATAL;
    if (eh->fn) {
        eh->fn(&comm, &err);
        return err;
    }
    if (!eh->fatal)
        return err;
    int cls = err >= 0 && err <= MPI_ERR_LASTCODE ? err : MPI_ERR_UNKNOWN;
    const char *str = strings[cls];
    errclass_lookup(err, &cls, &str);       /* one of the program's own */
    /* the exit status of an MPI run that failed, as MPICH's (and not 0) */
    mpi_die(cls ? cls & 0xff : 1, "%s: %s%s%s (MPI_ERRORS_ARE_FATAL ends the run)", fn,
            str, detail ? ": " : "", detail ? detail : "");
}

int mpi_err(MPI_Comm comm, const char *fn, int err)
{
    return raise_err(comm, fn, err, NULL);
}

int mpi_errf(MPI_Comm comm, const char *fn, int err, const char *fmt, ...)
{
    char detail[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return raise_err(comm, fn, err, detail);
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    const char *str;
    if (errclass_lookup(errorcode, NULL, &str)) {
        snprintf(string, MPI_MAX_ERROR_STRING, "%s", str);
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return mpi_err(NULL, "MPI_Error_string", MPI_ERR_ARG);
    snprintf(string, MPI_MAX_ERROR_STRING, "%s", strings[errorcode]);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (errclass_lookup(errorcode, errorclass, NULL))
        return MPI_SUCCESS;
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return mpi_err(NULL, "MPI_Error_class", MPI_ERR_ARG);
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    int err = comm_check(comm);
    if (!err && !eh)
        err = MPI_ERR_ARG;
    if (err)
        return mpi_err(comm, "MPI_Comm_set_errhandler", err);
    comm->eh = eh;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    int err = comm_check(comm);
    if (err)
        return mpi_err(comm, "MPI_Comm_get_errhandler", err);
    *eh = comm->eh;
    return MPI_SUCCESS;
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *eh)
{
    struct mpi_errhandler_s *h = calloc(1, sizeof *h);
    if (!h)
        return mpi_err(NULL, "MPI_Comm_create_errhandler", MPI_ERR_NO_MEM);
    h->fn = fn;
    h->refs = 1;
    *eh = h;
    return MPI_SUCCESS;
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    mpi_err(comm, "MPI_Comm_call_errhandler", errorcode);
    return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *eh)
{
    /* a communicator may still use it: handlers are small, and kept */
    if (!eh || !*eh)
        return mpi_err(NULL, "MPI_Errhandler_free", MPI_ERR_ARG);
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
