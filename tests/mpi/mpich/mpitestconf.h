/* MPICH test suite configuration for libscc/mpi (tests/mpi/mpich/run.py): what
 * configure would find here. No one-sided communication (HAVE_MPI_WIN_CREATE). */
#define HAVE_STDARG_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_STRING_H 1
#define HAVE_STDLIB_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define STDC_HEADERS 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#define HAVE_MPI_INTEGER16 1    /* the name exists (MPI_DATATYPE_NULL: optional) */
