/*
 * envelope.c - how a datatype was made (MPI_Type_get_envelope,
 * MPI_Type_get_contents), its name, and its end: a derived type is held
 * by the types made from it and by the handles get_contents returned,
 * and goes when the last lets go.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

static void *dup_array(const void *p, size_t n)
{
    void *q = n ? malloc(n) : NULL;
    if (n && !q)
        mpi_die(MPI_ERR_NO_MEM, "out of memory recording a datatype");
    if (n)
        memcpy(q, p, n);
    return q;
}

static void forget(MPI_Datatype t)
{
    for (int i = 0; i < t->nd; i++)
        type_release(t->types[i]);
    free(t->ints);
    free(t->addrs);
    free(t->types);
    t->ints = NULL;
    t->addrs = NULL;
    t->types = NULL;
    t->ni = t->na = t->nd = 0;
}

void type_record(MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                 const MPI_Aint *addrs, int nd, const MPI_Datatype *types)
{
    forget(t);      /* MPI_Type_vector records over create_hvector's record */
    t->combiner = combiner;
    t->ni = ni;
    t->na = na;
    t->nd = nd;
    t->ints = dup_array(ints, sizeof *ints * (size_t)ni);
    t->addrs = dup_array(addrs, sizeof *addrs * (size_t)na);
    t->types = dup_array(types, sizeof *types * (size_t)nd);
    for (int i = 0; i < nd; i++)
        if (!types[i]->predefined)
            types[i]->refs++;
}

void type_release(MPI_Datatype t)
{
    if (t->predefined || --t->refs > 0)
        return;
    forget(t);
    free(t->seg);
    free(t->uname);
    free(t);
}

int MPI_Type_get_envelope(MPI_Datatype type, int *ni, int *na, int *nd, int *combiner)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_envelope", MPI_ERR_TYPE);
    *combiner = type->predefined ? MPI_COMBINER_NAMED : type->combiner;
    *ni = type->ni;
    *na = type->na;
    *nd = type->nd;
    return MPI_SUCCESS;
}

int MPI_Type_get_contents(MPI_Datatype type, int maxi, int maxa, int maxd, int ints[],
                          MPI_Aint addrs[], MPI_Datatype types[])
{
    if (!type || type->predefined)
        return mpi_errf(NULL, "MPI_Type_get_contents", MPI_ERR_TYPE, "%s",
                        type ? "a predefined type has no contents" : "MPI_DATATYPE_NULL");
    if (maxi < type->ni || maxa < type->na || maxd < type->nd)
        return mpi_err(NULL, "MPI_Type_get_contents", MPI_ERR_ARG);
    memcpy(ints, type->ints, sizeof *ints * (size_t)type->ni);
    memcpy(addrs, type->addrs, sizeof *addrs * (size_t)type->na);
    for (int i = 0; i < type->nd; i++) {
        types[i] = type->types[i];
        if (!types[i]->predefined)
            types[i]->refs++;       /* the caller frees what it got */
    }
    return MPI_SUCCESS;
}

int MPI_Type_set_name(MPI_Datatype type, const char *name)
{
    if (!type)      /* a predefined type may be renamed too */
        return mpi_err(NULL, "MPI_Type_set_name", MPI_ERR_TYPE);
    free(type->uname);
    type->uname = strdup(name);
    return MPI_SUCCESS;
}

int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_name", MPI_ERR_TYPE);
    const char *n = type->uname ? type->uname : type->predefined ? type->name : "";
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", n);
    return MPI_SUCCESS;
}
