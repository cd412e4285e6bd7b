/*
 * errclass.c - error classes and codes of the program's own
 * (MPI_Add_error_class/code/string): numbered after MPI_ERR_LASTCODE,
 * each with its class and string, which MPI_Error_class, MPI_Error_string
 * and the fatal handler's message use (errhandler.c asks here), and
 * MPI_LASTUSEDCODE (attr.c) names the last.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

struct dyn { int cls; char *str; };
static struct dyn *dyn;
static int ndyn;
static int lastused = MPI_ERR_LASTCODE;

int *errclass_lastused(void)
{
    return &lastused;
}

static struct dyn *find(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < ndyn ? &dyn[i] : NULL;
}

/* 1 and the class and string of a code added here, else 0. */
int errclass_lookup(int code, int *cls, const char **str)
{
    struct dyn *d = find(code);
    if (!d)
        return 0;
    if (cls)
        *cls = d->cls;
    if (str)
        *str = d->str ? d->str : "";
    return 1;
}

static int add(int cls, int *out)
{
    struct dyn *d = realloc(dyn, sizeof *d * (size_t)(ndyn + 1));
    if (!d)
        return MPI_ERR_NO_MEM;
    dyn = d;
    int code = MPI_ERR_LASTCODE + 1 + ndyn;
    dyn[ndyn++] = (struct dyn){ cls < 0 ? code : cls, NULL };
    lastused = code;
    *out = code;
    return MPI_SUCCESS;
}

int MPI_Add_error_class(int *errorclass)
{
    mpi_check_up("MPI_Add_error_class");
    int err = errorclass ? add(-1, errorclass) : MPI_ERR_ARG;
    return err ? mpi_err(NULL, "MPI_Add_error_class", err) : MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
    mpi_check_up("MPI_Add_error_code");
    struct dyn *d = find(errorclass);
    int valid = (errorclass >= 0 && errorclass <= MPI_ERR_LASTCODE) ||
                (d && d->cls == errorclass);
    if (!valid || !errorcode)
        return mpi_errf(NULL, "MPI_Add_error_code", MPI_ERR_ARG, "%d is not an error class",
                        errorclass);
    int err = add(errorclass, errorcode);
    return err ? mpi_err(NULL, "MPI_Add_error_code", err) : MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char *string)
{
    mpi_check_up("MPI_Add_error_string");
    struct dyn *d = find(errorcode);
    if (!d || !string)
        return mpi_errf(NULL, "MPI_Add_error_string", MPI_ERR_ARG,
                        "%d is not an error code added by MPI_Add_error_class/code", errorcode);
    size_t n = strlen(string);
    if (n >= MPI_MAX_ERROR_STRING)
        return mpi_errf(NULL, "MPI_Add_error_string", MPI_ERR_ARG, "a string of %zu bytes",
                        n);
    char *s = malloc(n + 1);
    if (!s)
        return mpi_err(NULL, "MPI_Add_error_string", MPI_ERR_NO_MEM);
    memcpy(s, string, n + 1);
    free(d->str);
    d->str = s;
    return MPI_SUCCESS;
}
