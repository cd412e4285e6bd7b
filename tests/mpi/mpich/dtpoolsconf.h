/* dtpools' configuration (MPICH's datatype pools, test/mpi/dtpools), what
 * its configure would find here; run.py puts it where dtpools looks for
 * it (../dtpoolsconf.h from an include directory of its own). */
#ifndef DTPOOLSCONF_H_INCLUDED
#define DTPOOLSCONF_H_INCLUDED
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MEMSET 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRDUP 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define STDC_HEADERS 1
#endif
