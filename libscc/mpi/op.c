/*
 * op.c - reduction operations: the predefined ones on every basic type
 * they are defined for (and derived types made of those, segment by
 * segment), MAXLOC/MINLOC on the pair types, and the user's.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "mpiimpl.h"

enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR,
       O_MAXLOC, O_MINLOC, O_REPLACE, O_NO_OP, O_N };

_Alignas(64) unsigned char mpi_ops_[O_N * MPI_OBJ_STRIDE_];
_Static_assert(sizeof(struct mpi_op_s) <= MPI_OBJ_STRIDE_, "MPI_OBJ_STRIDE_ too small");

__attribute__((constructor)) static void ops_init(void)
{
    for (int i = 0; i < O_N; i++)
        *MPI_OP_(i) = (struct mpi_op_s){ 1, 1, i, NULL };
}

/* inout[i] = in[i] op inout[i], n elements of C type T */
#define LOOP(T, EXPR) do { \
    const T *a = in; T *b = inout; \
    for (long i = 0; i < n; i++) b[i] = (EXPR); \
} while (0)

#define ARITH(T) \
    switch (op) { \
    case O_MAX: LOOP(T, a[i] > b[i] ? a[i] : b[i]); return 1; \
    case O_MIN: LOOP(T, a[i] < b[i] ? a[i] : b[i]); return 1; \
    case O_SUM: LOOP(T, a[i] + b[i]); return 1; \
    case O_PROD: LOOP(T, a[i] * b[i]); return 1; \
    }

#define LOGIC(T) \
    switch (op) { \
    case O_LAND: LOOP(T, a[i] && b[i]); return 1; \
    case O_LOR: LOOP(T, a[i] || b[i]); return 1; \
    case O_LXOR: LOOP(T, !a[i] != !b[i]); return 1; \
    }

#define BITS(T) \
    switch (op) { \
    case O_BAND: LOOP(T, a[i] & b[i]); return 1; \
    case O_BOR: LOOP(T, a[i] | b[i]); return 1; \
    case O_BXOR: LOOP(T, a[i] ^ b[i]); return 1; \
    }

#define INTEGER(T) ARITH(T) LOGIC(T) BITS(T) return 0;

#define COMPLEX(T) \
    switch (op) { \
    case O_SUM: LOOP(T, a[i] + b[i]); return 1; \
    case O_PROD: LOOP(T, a[i] * b[i]); return 1; \
    } \
    return 0;

/* 1 if op is defined on basic type b (and applied when n >= 0). */
static int basic_op(int op, int b, const void *in, void *inout, long n)
{
    if (op == O_REPLACE) {
        memcpy(inout, in, (size_t)n * (size_t)basic_size(b));
        return 1;
    }
    if (op == O_NO_OP)
        return 1;
    switch (b) {
    case B_CHAR: INTEGER(char)
    case B_SCHAR: case B_I8: INTEGER(signed char)
    case B_UCHAR: case B_U8: INTEGER(unsigned char)
    case B_BYTE: BITS(unsigned char) return 0;
    case B_SHORT: case B_I16: INTEGER(short)
    case B_USHORT: case B_U16: INTEGER(unsigned short)
    case B_INT: case B_I32: INTEGER(int)
    case B_UINT: case B_U32: INTEGER(unsigned int)
    case B_LONG: INTEGER(long)
    case B_ULONG: INTEGER(unsigned long)
    case B_LLONG: case B_I64: case B_COUNT: case B_OFFSET: INTEGER(long long)
    case B_ULLONG: case B_U64: INTEGER(unsigned long long)
    case B_AINT: INTEGER(MPI_Aint)
    case B_WCHAR: INTEGER(wchar_t)
    case B_BOOL: LOGIC(bool) return 0;
    /* the logical operations on floating types too, as MPICH has them */
    case B_FLOAT: ARITH(float) LOGIC(float) return 0;
    case B_DOUBLE: ARITH(double) LOGIC(double) return 0;
    case B_LDOUBLE: ARITH(long double) LOGIC(long double) return 0;
    case B_CFLOAT: COMPLEX(float _Complex)
    case B_CDOUBLE: COMPLEX(double _Complex)
    case B_CLDOUBLE: COMPLEX(long double _Complex)
    }
    return 0;
}

/* MAXLOC/MINLOC: the larger (smaller) value, the smaller index on a tie. */
#define LOC(T) do { \
    typedef struct { T v; int k; } pair_t; \
    const pair_t *a = in; pair_t *b = inout; \
    for (long i = 0; i < n; i++) { \
        int take = max ? a[i].v > b[i].v : a[i].v < b[i].v; \
        /* field by field: a buffer may end at the last pair's int */ \
        if (take || (a[i].v == b[i].v && a[i].k < b[i].k)) { \
            b[i].v = a[i].v; \
            b[i].k = a[i].k; \
        } \
    } \
    return 1; \
} while (0)

static int loc_op(int max, int b, const void *in, void *inout, long n)
{
    switch (b) {
    case B_FLOAT_INT: LOC(float);
    case B_DOUBLE_INT: LOC(double);
    case B_LONG_INT: LOC(long);
    case B_2INT: LOC(int);
    case B_SHORT_INT: LOC(short);
    case B_LDOUBLE_INT: LOC(long double);
    }
    return 0;
}

int op_check(MPI_Op op, MPI_Datatype t)
{
    if (!op)
        return MPI_ERR_OP;
    if (!t)
        return MPI_ERR_TYPE;
    if (!op->predefined)
        return MPI_SUCCESS;
    if (op->index == O_MAXLOC || op->index == O_MINLOC)
        return t->predefined && loc_op(0, t->basic, NULL, NULL, 0) ? MPI_SUCCESS : MPI_ERR_OP;
    for (int s = 0; s < t->nseg; s++)
        if (!basic_op(op->index, t->seg[s].basic, NULL, NULL, 0))
            return MPI_ERR_OP;
    return MPI_SUCCESS;
}

void op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype t)
{
    if (!op->predefined) {
        MPI_Datatype tt = t;
        int n = count;
        op->fn((void *)in, inout, &n, &tt);
        return;
    }
    if (op->index == O_MAXLOC || op->index == O_MINLOC) {
        loc_op(op->index == O_MAXLOC, t->basic, in, inout, count);
        return;
    }
    MPI_Aint ext = type_extent(t);
    for (int k = 0; k < count; k++)
        for (int s = 0; s < t->nseg; s++) {
            const struct seg *g = &t->seg[s];
            basic_op(op->index, g->basic, (const char *)in + k * ext + g->off,
                     (char *)inout + k * ext + g->off, g->len / basic_size(g->basic));
        }
}

int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    struct mpi_op_s *o = calloc(1, sizeof *o);
    if (!o || !fn)
        return mpi_err(NULL, "MPI_Op_create", o ? MPI_ERR_ARG : MPI_ERR_NO_MEM);
    o->commute = commute != 0;
    o->fn = fn;
    *op = o;
    return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op *op)
{
    if (!op || !*op || (*op)->predefined)
        return mpi_err(NULL, "MPI_Op_free", MPI_ERR_OP);
    free(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
    if (!op)
        return mpi_err(NULL, "MPI_Op_commutative", MPI_ERR_OP);
    *commute = op->commute;
    return MPI_SUCCESS;
}

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type,
                     MPI_Op op)
{
    int err = op_check(op, type);
    if (err)
        return mpi_err(NULL, "MPI_Reduce_local", err);
    op_apply(op, inbuf, inoutbuf, count, type);
    return MPI_SUCCESS;
}
