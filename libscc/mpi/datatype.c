/*
 * datatype.c - predefined and derived datatypes.
 *
 * A type is its typemap flattened into segments (runs of bytes of one
 * basic type, in order), so that packing is one loop whatever the
 * constructor, and a receive can count the basic elements it got.
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <stdbool.h>

#include "mpiimpl.h"

#define PAIR(T1, T2) struct { T1 a; T2 b; }

static const struct { int basic, size, align; const char *name; } base[] = {
    { B_CHAR, 1, 1, "MPI_CHAR" }, { B_SCHAR, 1, 1, "MPI_SIGNED_CHAR" },
    { B_UCHAR, 1, 1, "MPI_UNSIGNED_CHAR" }, { B_BYTE, 1, 1, "MPI_BYTE" },
    { B_SHORT, sizeof(short), _Alignof(short), "MPI_SHORT" },
    { B_USHORT, sizeof(short), _Alignof(short), "MPI_UNSIGNED_SHORT" },
    { B_INT, sizeof(int), _Alignof(int), "MPI_INT" },
    { B_UINT, sizeof(int), _Alignof(int), "MPI_UNSIGNED" },
    { B_LONG, sizeof(long), _Alignof(long), "MPI_LONG" },
    { B_ULONG, sizeof(long), _Alignof(long), "MPI_UNSIGNED_LONG" },
    { B_LLONG, sizeof(long long), _Alignof(long long), "MPI_LONG_LONG_INT" },
    { B_ULLONG, sizeof(long long), _Alignof(long long), "MPI_UNSIGNED_LONG_LONG" },
    { B_FLOAT, sizeof(float), _Alignof(float), "MPI_FLOAT" },
    { B_DOUBLE, sizeof(double), _Alignof(double), "MPI_DOUBLE" },
    { B_LDOUBLE, sizeof(long double), _Alignof(long double), "MPI_LONG_DOUBLE" },
    { B_WCHAR, sizeof(wchar_t), _Alignof(wchar_t), "MPI_WCHAR" },
    { B_BOOL, sizeof(bool), _Alignof(bool), "MPI_C_BOOL" },
    { B_I8, 1, 1, "MPI_INT8_T" }, { B_I16, 2, 2, "MPI_INT16_T" },
    { B_I32, 4, 4, "MPI_INT32_T" }, { B_I64, 8, _Alignof(int64_t), "MPI_INT64_T" },
    { B_U8, 1, 1, "MPI_UINT8_T" }, { B_U16, 2, 2, "MPI_UINT16_T" },
    { B_U32, 4, 4, "MPI_UINT32_T" }, { B_U64, 8, _Alignof(uint64_t), "MPI_UINT64_T" },
    { B_AINT, sizeof(MPI_Aint), _Alignof(MPI_Aint), "MPI_AINT" },
    { B_COUNT, sizeof(MPI_Count), _Alignof(MPI_Count), "MPI_COUNT" },
    { B_OFFSET, sizeof(MPI_Offset), _Alignof(MPI_Offset), "MPI_OFFSET" },
    { B_PACKED, 1, 1, "MPI_PACKED" },
};
#define NBASE ((int)(sizeof base / sizeof base[0]))

/* pairs: value type, its offset 0; int at offsetof(b) */
static const struct { int basic, vbasic, boff, size; const char *name; } pairs[] = {
    { B_FLOAT_INT, B_FLOAT, offsetof(PAIR(float, int), b), sizeof(PAIR(float, int)),
      "MPI_FLOAT_INT" },
    { B_DOUBLE_INT, B_DOUBLE, offsetof(PAIR(double, int), b), sizeof(PAIR(double, int)),
      "MPI_DOUBLE_INT" },
    { B_LONG_INT, B_LONG, offsetof(PAIR(long, int), b), sizeof(PAIR(long, int)),
      "MPI_LONG_INT" },
    { B_2INT, B_INT, offsetof(PAIR(int, int), b), sizeof(PAIR(int, int)), "MPI_2INT" },
    { B_SHORT_INT, B_SHORT, offsetof(PAIR(short, int), b), sizeof(PAIR(short, int)),
      "MPI_SHORT_INT" },
    { B_LDOUBLE_INT, B_LDOUBLE, offsetof(PAIR(long double, int), b),
      sizeof(PAIR(long double, int)), "MPI_LONG_DOUBLE_INT" },
};
#define NPAIRS ((int)(sizeof pairs / sizeof pairs[0]))

/* after the pairs (mpi.h's numbers): complex types, then MPI_LB and MPI_UB */
static const struct { int basic, size, align; const char *name; } more[] = {
    { B_CFLOAT, sizeof(float _Complex), _Alignof(float), "MPI_C_FLOAT_COMPLEX" },
    { B_CDOUBLE, sizeof(double _Complex), _Alignof(double), "MPI_C_DOUBLE_COMPLEX" },
    { B_CLDOUBLE, sizeof(long double _Complex), _Alignof(long double),
      "MPI_C_LONG_DOUBLE_COMPLEX" },
    { B_CFLOAT, sizeof(float _Complex), _Alignof(float), "MPI_COMPLEX" },
    { B_CDOUBLE, sizeof(double _Complex), _Alignof(double), "MPI_DOUBLE_COMPLEX" },
    { B_NONE, 0, 1, "MPI_LB" },
    { B_NONE, 0, 1, "MPI_UB" },
    { B_CFLOAT, sizeof(float _Complex), _Alignof(float), "MPI_C_COMPLEX" },
    { B_BOOL, sizeof(bool), _Alignof(bool), "MPI_CXX_BOOL" },     /* C++'s bool: 1 byte */
    { B_CFLOAT, sizeof(float _Complex), _Alignof(float), "MPI_CXX_FLOAT_COMPLEX" },
    { B_CDOUBLE, sizeof(double _Complex), _Alignof(double), "MPI_CXX_DOUBLE_COMPLEX" },
    { B_CLDOUBLE, sizeof(long double _Complex), _Alignof(long double),
      "MPI_CXX_LONG_DOUBLE_COMPLEX" },
};
#define NMORE ((int)(sizeof more / sizeof more[0]))
#define NTYPES (NBASE + NPAIRS + NMORE)

_Alignas(64) unsigned char mpi_types_[NTYPES * MPI_OBJ_STRIDE_];
_Static_assert(sizeof(struct mpi_type_s) <= MPI_OBJ_STRIDE_, "MPI_OBJ_STRIDE_ too small");
static struct seg base_segs[NTYPES][2];

int basic_size(int b)
{
    for (int i = 0; i < NBASE; i++)
        if (base[i].basic == b)
            return base[i].size;
    for (int i = 0; i < NMORE; i++)
        if (more[i].basic == b && b != B_NONE)
            return more[i].size;
    return 1;
}

/* a basic type's alignment in a C struct (long double's 16 on x86-64) */
static int basic_align(int b)
{
    for (int i = 0; i < NBASE; i++)
        if (base[i].basic == b)
            return base[i].align;
    for (int i = 0; i < NMORE; i++)
        if (more[i].basic == b && b != B_NONE)
            return more[i].align;
    return 1;
}

/* Fill the predefined types: their sizes are the compiler's. */
__attribute__((constructor)) static void types_init(void)
{
    for (int i = 0; i < NTYPES; i++) {
        struct mpi_type_s *t = MPI_TYPE_(i);
        t->predefined = t->committed = 1;
        t->seg = base_segs[i];
        if (i >= NBASE + NPAIRS) {
            int m = i - NBASE - NPAIRS;
            t->basic = more[m].basic;
            t->name = more[m].name;
            t->contig = 1;
            if (more[m].basic == B_NONE) {      /* MPI_LB, MPI_UB */
                t->marker = strcmp(more[m].name, "MPI_LB") ? 2 : 1;
                t->has_lb = t->marker == 1;
                t->has_ub = t->marker == 2;
                continue;
            }
            t->size = t->ub = t->true_ub = more[m].size;
            t->nseg = 1;
            t->seg[0] = (struct seg){ 0, more[m].size, (short)more[m].basic };
            t->nelem = 1;
        } else if (i < NBASE) {
            t->basic = base[i].basic;
            t->size = t->ub = t->true_ub = base[i].size;
            t->nseg = 1;
            t->seg[0] = (struct seg){ 0, base[i].size, (short)base[i].basic };
            t->nelem = 1;
            t->contig = 1;
            t->name = base[i].name;
        } else {
            int p = i - NBASE, vs = basic_size(pairs[p].vbasic);
            t->basic = pairs[p].basic;
            t->nseg = 2;
            t->seg[0] = (struct seg){ 0, vs, (short)pairs[p].vbasic };
            t->seg[1] = (struct seg){ pairs[p].boff, sizeof(int), B_INT };
            t->size = vs + (MPI_Aint)sizeof(int);
            t->ub = pairs[p].size;
            t->true_ub = pairs[p].boff + (MPI_Aint)sizeof(int);
            t->nelem = 2;
            t->contig = t->size == t->ub;
            t->name = pairs[p].name;
        }
    }
}

MPI_Aint type_extent(MPI_Datatype t)
{
    return t->ub - t->lb;
}

int type_check(MPI_Datatype t)
{
    return t ? MPI_SUCCESS : MPI_ERR_TYPE;
}

/* --- building derived types ---------------------------------------------------- */

/* A new type from `n` copies of old at displacements disp[i] (bytes), each
 * blen[i] instances long; the typemap in that order. */
static int build(int n, const int *blen, const MPI_Aint *disp, const MPI_Datatype *old,
                 MPI_Datatype *out)
{
    MPI_Aint nseg = 0;
    for (int i = 0; i < n; i++) {
        if (blen[i] < 0 || !old[i])
            return blen[i] < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE;
        nseg += (MPI_Aint)blen[i] * old[i]->nseg;
    }
    struct mpi_type_s *t = calloc(1, sizeof *t);
    if (!t || !(t->seg = malloc((size_t)(nseg ? nseg : 1) * sizeof *t->seg))) {
        free(t);
        return MPI_ERR_NO_MEM;
    }
    t->refs = 1;
    int first = 1, has_lb = 0, has_ub = 0;
    MPI_Aint xlb = 0, xub = 0;      /* the markers' (sticky) bounds */
    for (int i = 0; i < n; i++) {
        MPI_Datatype o = old[i];
        MPI_Aint ext = type_extent(o);
        if (blen[i] > 0 && o->has_lb) {
            MPI_Aint v = disp[i] + o->lb + (ext < 0 ? (blen[i] - 1) * ext : 0);
            xlb = has_lb && xlb < v ? xlb : v;
            has_lb = 1;
        }
        if (blen[i] > 0 && o->has_ub) {
            MPI_Aint v = disp[i] + o->ub + (ext > 0 ? (blen[i] - 1) * ext : 0);
            xub = has_ub && xub > v ? xub : v;
            has_ub = 1;
        }
        if (o->marker)
            continue;
        for (int k = 0; k < blen[i]; k++) {
            MPI_Aint at = disp[i] + k * ext;
            for (int s = 0; s < o->nseg; s++) {
                struct seg g = o->seg[s];
                g.off += at;
                /* merge runs that continue each other */
                if (t->nseg && t->seg[t->nseg - 1].basic == g.basic &&
                    t->seg[t->nseg - 1].off + t->seg[t->nseg - 1].len == g.off)
                    t->seg[t->nseg - 1].len += g.len;
                else
                    t->seg[t->nseg++] = g;
            }
            t->size += o->size;
            t->nelem += o->nelem;
        }
        if (blen[i] == 0)
            continue;
        /* the copies run from disp on, backwards if the extent is negative */
        MPI_Aint span = (blen[i] - 1) * ext, lo = span < 0 ? span : 0, hi = span > 0 ? span : 0;
        MPI_Aint lb = disp[i] + lo + o->lb, ub = disp[i] + hi + o->ub;
        MPI_Aint tlb = disp[i] + lo + o->true_lb, tub = disp[i] + hi + o->true_ub;
        if (first || lb < t->lb)
            t->lb = lb;
        if (first || ub > t->ub)
            t->ub = ub;
        if (first || tlb < t->true_lb)
            t->true_lb = tlb;
        if (first || tub > t->true_ub)
            t->true_ub = tub;
        first = 0;
    }
    /* the extent is padded to the strictest alignment of its parts, as C's */
    MPI_Aint align = 1;
    for (int s = 0; s < t->nseg; s++) {
        MPI_Aint a = basic_align(t->seg[s].basic);
        if (a > align)
            align = a;
    }
#if defined(__i386__)
    if (align > 4)
        align = 4;      /* the i386 ABI aligns doubles and long longs to 4 in structs */
#endif
    int is_struct = 0;
    for (int i = 1; i < n; i++)
        if (old[i] != old[0])
            is_struct = 1;
    if (has_lb)
        t->lb = xlb;
    if (has_ub)
        t->ub = xub;
    t->has_lb = has_lb;
    t->has_ub = has_ub;
    if (is_struct && !has_ub && (t->ub - t->lb) % align)
        t->ub += align - (t->ub - t->lb) % align;
    t->contig = t->nseg == 1 && t->seg[0].off == 0 && t->lb == 0 && t->ub == t->size;
    if (t->nseg == 0)
        t->contig = 1;
    *out = t;
    return MPI_SUCCESS;
}

static int build_same(int n, const int *blen, const MPI_Aint *disp, MPI_Datatype old,
                      MPI_Datatype *out)
{
    MPI_Datatype *olds = malloc((size_t)(n ? n : 1) * sizeof *olds);
    if (!olds)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        olds[i] = old;
    int err = build(n, blen, disp, olds, out);
    free(olds);
    return err;
}

#define CHECK_NEW(fn, count, old, out) do { \
    int e_ = mpi_check_up(fn); \
    if (!e_ && (count) < 0) e_ = MPI_ERR_COUNT; \
    if (!e_ && (!(old) || !(out))) e_ = (out) ? MPI_ERR_TYPE : MPI_ERR_ARG; \
    if (e_) return mpi_err(NULL, fn, e_); \
} while (0)

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    CHECK_NEW("MPI_Type_contiguous", count, old, newtype);
    MPI_Aint d = 0;
    int err = build_same(1, &count, &d, old, newtype);
    if (!err)
        type_record(*newtype, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
    return mpi_err(NULL, "MPI_Type_contiguous", err);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    CHECK_NEW("MPI_Type_create_hvector", count, old, newtype);
    int *bl = malloc((size_t)(count ? count : 1) * sizeof *bl);
    MPI_Aint *d = malloc((size_t)(count ? count : 1) * sizeof *d);
    int err = bl && d ? 0 : MPI_ERR_NO_MEM;
    for (int i = 0; !err && i < count; i++) {
        bl[i] = blocklength;
        d[i] = i * stride;
    }
    if (!err)
        err = build_same(count, bl, d, old, newtype);
    free(bl);
    free(d);
    if (!err)
        type_record(*newtype, MPI_COMBINER_HVECTOR, 2, (int[]){ count, blocklength }, 1,
                    &stride, 1, &old);
    return mpi_err(NULL, "MPI_Type_create_hvector", err);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                    MPI_Datatype *newtype)
{
    CHECK_NEW("MPI_Type_vector", count, old, newtype);
    int err = MPI_Type_create_hvector(count, blocklength, (MPI_Aint)stride * type_extent(old),
                                      old, newtype);
    if (!err)
        type_record(*newtype, MPI_COMBINER_VECTOR, 3, (int[]){ count, blocklength, stride },
                    0, NULL, 1, &old);
    return err;
}

int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displs[],
                             MPI_Datatype old, MPI_Datatype *newtype)
{
    CHECK_NEW("MPI_Type_create_hindexed", count, old, newtype);
    int err = build_same(count, blocklengths, displs, old, newtype);
    if (!err) {
        int *ints = malloc(sizeof(int) * (size_t)(count + 1));
        ints[0] = count;
        memcpy(ints + 1, blocklengths, sizeof(int) * (size_t)count);
        type_record(*newtype, MPI_COMBINER_HINDEXED, count + 1, ints, count, displs, 1, &old);
        free(ints);
    }
    return mpi_err(NULL, "MPI_Type_create_hindexed", err);
}

/* displacements in multiples of old's extent, to bytes */
static int indexed(const char *fn, int count, const int *bl, int blconst, const int *displs,
                   MPI_Datatype old, MPI_Datatype *newtype)
{
    CHECK_NEW(fn, count, old, newtype);
    int *b = malloc((size_t)(count ? count : 1) * sizeof *b);
    MPI_Aint *d = malloc((size_t)(count ? count : 1) * sizeof *d);
    int err = b && d ? 0 : MPI_ERR_NO_MEM;
    for (int i = 0; !err && i < count; i++) {
        b[i] = bl ? bl[i] : blconst;
        d[i] = (MPI_Aint)displs[i] * type_extent(old);
    }
    if (!err)
        err = build_same(count, b, d, old, newtype);
    free(b);
    free(d);
    return mpi_err(NULL, fn, err);
}

int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
                     MPI_Datatype old, MPI_Datatype *newtype)
{
    int err = indexed("MPI_Type_indexed", count, blocklengths, 0, displs, old, newtype);
    if (!err) {
        int *ints = malloc(sizeof(int) * (size_t)(2 * count + 1));
        ints[0] = count;
        memcpy(ints + 1, blocklengths, sizeof(int) * (size_t)count);
        memcpy(ints + 1 + count, displs, sizeof(int) * (size_t)count);
        type_record(*newtype, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &old);
        free(ints);
    }
    return err;
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int displs[],
                                  MPI_Datatype old, MPI_Datatype *newtype)
{
    int err = indexed("MPI_Type_create_indexed_block", count, NULL, blocklength, displs, old,
                      newtype);
    if (!err) {
        int *ints = malloc(sizeof(int) * (size_t)(count + 2));
        ints[0] = count;
        ints[1] = blocklength;
        memcpy(ints + 2, displs, sizeof(int) * (size_t)count);
        type_record(*newtype, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &old);
        free(ints);
    }
    return err;
}

int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displs[],
                           const MPI_Datatype types[], MPI_Datatype *newtype)
{
    int err = mpi_check_up("MPI_Type_create_struct");
    if (!err && count < 0)
        err = MPI_ERR_COUNT;
    if (!err && !newtype)
        err = MPI_ERR_ARG;
    if (!err)
        err = build(count, blocklengths, displs, types, newtype);
    if (!err) {
        int *ints = malloc(sizeof(int) * (size_t)(count + 1));
        ints[0] = count;
        memcpy(ints + 1, blocklengths, sizeof(int) * (size_t)count);
        type_record(*newtype, MPI_COMBINER_STRUCT, count + 1, ints, count, displs, count,
                    types);
        free(ints);
    }
    return mpi_err(NULL, "MPI_Type_create_struct", err);
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype)
{
    CHECK_NEW("MPI_Type_create_resized", 0, old, newtype);
    int one = 1;
    MPI_Aint d = 0;
    int err = build_same(1, &one, &d, old, newtype);
    if (!err) {
        (*newtype)->lb = lb;
        (*newtype)->ub = lb + extent;
        (*newtype)->has_lb = (*newtype)->has_ub = 1;
        MPI_Datatype t = *newtype;
        t->contig = t->nseg == 1 && t->seg[0].off == 0 && t->lb == 0 && t->ub == t->size;
        type_record(t, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){ lb, extent }, 1, &old);
    }
    return mpi_err(NULL, "MPI_Type_create_resized", err);
}

int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    int err = MPI_Type_create_resized(old, old ? old->lb : 0, old ? type_extent(old) : 0,
                                      newtype);
    if (!err) {
        (*newtype)->committed = old->committed;
        (*newtype)->has_lb = old->has_lb;
        (*newtype)->has_ub = old->has_ub;
        type_record(*newtype, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
        if ((err = typeattr_copy(old, *newtype))) {
            type_release(*newtype);     /* a failed copy callback: no new type */
            *newtype = MPI_DATATYPE_NULL;
            return mpi_err(NULL, "MPI_Type_dup", err);
        }
    }
    return err;
}

int MPI_Type_commit(MPI_Datatype *type)
{
    if (!type || !*type)
        return mpi_err(NULL, "MPI_Type_commit", MPI_ERR_TYPE);
    (*type)->committed = 1;
    return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
    if (!type || !*type || (*type)->predefined)
        return mpi_err(NULL, "MPI_Type_free", MPI_ERR_TYPE);
    int err = typeattr_delete_all(*type);
    if (err)
        return mpi_err(NULL, "MPI_Type_free", err);
    /* the types made from it hold it (envelope.c) */
    type_release(*type);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype type, int *size)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_size", MPI_ERR_TYPE);
    *size = (int)type->size;
    return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_extent", MPI_ERR_TYPE);
    *lb = type->lb;
    *extent = type_extent(type);
    return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
    if (!type)
        return mpi_err(NULL, "MPI_Type_get_true_extent", MPI_ERR_TYPE);
    *lb = type->true_lb;
    *extent = type->true_ub - type->true_lb;
    return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
