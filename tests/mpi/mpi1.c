/* mpi1: MPI-1's deprecated calls (attributes through keyvals, MPI_LB
 * and MPI_UB in MPI_Type_struct, MPI_Type_extent/lb/ub, the error
 * handler's old names), error classes and codes of one's own,
 * attributes on datatypes, and reductions of complex numbers; and what
 * MPICH's tests expect where the standard leaves room (an empty group is
 * MPI_GROUP_EMPTY, a dup whose copy callback fails gives MPI_COMM_NULL,
 * logical operations on floating types, a keyval freed again while an
 * attribute holds it, a predefined type renamed), a struct's extent as
 * C's, the true bounds of copies at a negative extent, MAXLOC into a
 * buffer that ends at the last pair's int. */
#include <mpi.h>
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

static int copies, deletes;

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int k, void *v, void *extra)
{
    (void)c, (void)k, (void)v;
    deletes += *(int *)extra;
    return MPI_SUCCESS;
}

static int tcopy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)k, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int tdelete(MPI_Datatype t, int k, void *v, void *extra)
{
    (void)t, (void)k, (void)v, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra, (void)in, (void)out;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int handled;
static void handler(MPI_Comm *c, int *err, ...)
{
    (void)c;
    handled = *err;
}

int main(int argc, char **argv)
{
    int rank, size, flag, one = 1;
    static char value[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* keyvals and attributes: copied by dup, deleted by free */
    int key;
    MPI_Comm dup;
    void *got;
    MPI_Keyval_create(copy_fn, delete_fn, &key, &one);
    MPI_Attr_put(MPI_COMM_WORLD, key, value);
    MPI_Attr_get(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(flag && got == value, "Attr_get: flag %d", flag);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Attr_get(dup, key, &got, &flag);
    CHECK(copies == 1 && flag && got == value + 1, "copied: %d %d", copies, flag);
    MPI_Comm_free(&dup);
    CHECK(deletes == 1, "deleted with the comm: %d", deletes);
    MPI_Attr_delete(MPI_COMM_WORLD, key);
    MPI_Attr_get(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(deletes == 2 && !flag, "Attr_delete: %d %d", deletes, flag);
    MPI_Keyval_free(&key);
    CHECK(key == MPI_KEYVAL_INVALID, "Keyval_free");
    int *tagub;
    MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tagub, &flag);
    CHECK(flag && *tagub >= 32767, "MPI_TAG_UB");

    /* MPI_LB and MPI_UB set the bounds, and stick in types made from it */
    MPI_Datatype t, t2;
    int bl[3] = { 1, 1, 1 };
    MPI_Aint d[3] = { -8, 0, 24 }, lb, ub, ext;
    MPI_Datatype ty[3] = { MPI_LB, MPI_INT, MPI_UB };
    MPI_Type_struct(3, bl, d, ty, &t);
    MPI_Type_commit(&t);
    MPI_Type_lb(t, &lb);
    MPI_Type_ub(t, &ub);
    MPI_Type_extent(t, &ext);
    int sz;
    MPI_Type_size(t, &sz);
    CHECK(lb == -8 && ub == 24 && ext == 32 && sz == 4, "markers: lb %ld ub %ld extent %ld "
          "size %d", (long)lb, (long)ub, (long)ext, sz);
    MPI_Type_contiguous(2, t, &t2);
    MPI_Type_lb(t2, &lb);
    MPI_Type_ub(t2, &ub);
    CHECK(lb == -8 && ub == 56, "contiguous of markers: lb %ld ub %ld", (long)lb, (long)ub);
    /* markers win over data beyond them */
    MPI_Datatype ty2[3] = { t, MPI_DOUBLE, MPI_CHAR };
    MPI_Aint d2[3] = { 0, -100, 200 };
    MPI_Datatype t3;
    MPI_Type_struct(3, bl, d2, ty2, &t3);
    MPI_Type_lb(t3, &lb);
    MPI_Type_ub(t3, &ub);
    CHECK(lb == -8 && ub == 24, "sticky markers: lb %ld ub %ld", (long)lb, (long)ub);
    /* the data move as the extent says */
    int in[16], out[16] = { 0 };
    for (int i = 0; i < 16; i++)
        in[i] = i + 1;
    MPI_Sendrecv(in, 2, t, rank, 0, out, 2, t, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(out[0] == 1 && out[1] == 0 && out[8] == 9 && out[7] == 0, "sendrecv with "
          "markers: %d %d %d", out[0], out[1], out[8]);
    MPI_Type_free(&t3);
    MPI_Type_free(&t2);
    MPI_Type_free(&t);

    /* attributes on datatypes */
    int tkey;
    MPI_Datatype c, cd;
    copies = deletes = 0;
    MPI_Type_contiguous(3, MPI_INT, &c);
    MPI_Type_create_keyval(tcopy, tdelete, &tkey, NULL);
    MPI_Type_set_attr(c, tkey, value);
    MPI_Type_dup(c, &cd);
    MPI_Type_get_attr(cd, tkey, &got, &flag);
    CHECK(copies == 1 && flag && got == value, "type attr copied: %d %d", copies, flag);
    MPI_Type_free(&cd);
    MPI_Type_free(&c);
    CHECK(deletes == 2, "type attrs deleted: %d", deletes);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int err = MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, value), cls;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_KEYVAL, "a type keyval on a comm: class %d", cls);
    MPI_Type_free_keyval(&tkey);

    /* error classes and codes of one's own; MPI-1's handler calls */
    int myclass, mycode, last, *lastp, len;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&myclass);
    MPI_Add_error_code(myclass, &mycode);
    MPI_Add_error_string(mycode, "my own error");
    MPI_Error_class(mycode, &cls);
    MPI_Error_string(mycode, s, &len);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag);
    last = *lastp;
    CHECK(myclass > MPI_ERR_LASTCODE && cls == myclass && !strcmp(s, "my own error") &&
          flag && last == mycode, "added: class %d code %d -> %d '%s', last %d", myclass,
          mycode, cls, s, last);
    MPI_Errhandler eh, eh2;
    MPI_Errhandler_create(handler, &eh);
    MPI_Errhandler_set(MPI_COMM_WORLD, eh);
    MPI_Errhandler_get(MPI_COMM_WORLD, &eh2);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, mycode);
    CHECK(eh2 == eh && handled == mycode, "handler: %d", handled);
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);

    /* complex sums and products */
    double _Complex z = (rank + 1) + 1.0 * I, zs = 0, zp = 0;
    float _Complex f = 1.0f * I, fp = 0;
    MPI_Allreduce(&z, &zs, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&z, &zp, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    MPI_Allreduce(&f, &fp, 1, MPI_C_FLOAT_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
    double _Complex wp = 1;
    float _Complex wf = 1;
    for (int r = 0; r < size; r++) {
        wp *= (r + 1) + 1.0 * I;
        wf *= 1.0f * I;
    }
    double dr = creal(zp) - creal(wp), di = cimag(zp) - cimag(wp);
    double scale = creal(wp) * creal(wp) + cimag(wp) * cimag(wp);
    float fr = crealf(fp) - crealf(wf), fi = cimagf(fp) - cimagf(wf);
    CHECK(creal(zs) == size * (size + 1) / 2 && cimag(zs) == size &&
          dr * dr + di * di <= 1e-18 * scale && fr * fr + fi * fi < 1e-10f,
          "complex: sum %g%+gi, product %g%+gi", creal(zs), cimag(zs), creal(zp), cimag(zp));

    /* MPICH's choices */
    MPI_Group wg, none;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_range_excl(wg, 1, (int[][3]){ { 0, size - 1, 1 } }, &none);
    CHECK(none == MPI_GROUP_EMPTY, "an empty group is not MPI_GROUP_EMPTY");
    MPI_Group_free(&none);
    MPI_Group_free(&wg);
    int fkey;
    MPI_Comm dc = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &fkey, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, fkey, value);
    err = MPI_Comm_dup(MPI_COMM_WORLD, &dc);
    CHECK(err != MPI_SUCCESS && dc == MPI_COMM_NULL, "a failed dup: %d", err);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, fkey);
    MPI_Comm_free_keyval(&fkey);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    double truth = rank == 0, lx = -1;
    MPI_Allreduce(&truth, &lx, 1, MPI_DOUBLE, MPI_LXOR, MPI_COMM_WORLD);
    CHECK(lx == 1, "LXOR of doubles: %g", lx);
    struct { long double v; int k; } ldi;
    MPI_Datatype lt;
    MPI_Aint ld[2] = { 0, (char *)&ldi.k - (char *)&ldi.v };
    MPI_Type_create_struct(2, (int[]){ 1, 1 }, ld, (MPI_Datatype[]){ MPI_LONG_DOUBLE, MPI_INT },
                           &lt);
    MPI_Type_get_extent(lt, &lb, &ext);
    CHECK(ext == (MPI_Aint)sizeof ldi, "struct {long double, int}: extent %ld, not %zu",
          (long)ext, sizeof ldi);
    MPI_Type_free(&lt);

    int k2, k2copy;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL);
    k2copy = k2;
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int e1 = MPI_Comm_free_keyval(&k2), e2 = MPI_Comm_free_keyval(&k2copy);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(!e1 && !e2, "a keyval freed twice while an attribute holds it: %d %d", e1, e2);
    char nm[MPI_MAX_OBJECT_NAME];
    int nl;
    MPI_Type_set_name(MPI_SHORT, "short");
    MPI_Type_get_name(MPI_SHORT, nm, &nl);
    CHECK(!strcmp(nm, "short") && nl == 5, "renamed MPI_SHORT: %s", nm);
    MPI_Type_set_name(MPI_SHORT, "MPI_SHORT");
    /* { (LB,6), 4 bytes at 0, (UB,-3) } three times: copies at 0, -9, -18 */
    MPI_Datatype four, neg, evil;
    MPI_Aint tlb, text;
    MPI_Type_contiguous(4, MPI_BYTE, &four);
    MPI_Type_create_resized(four, 6, -9, &neg);
    MPI_Type_contiguous(3, neg, &evil);
    MPI_Type_get_extent(evil, &lb, &ext);
    MPI_Type_get_true_extent(evil, &tlb, &text);
    CHECK(lb == -12 && ext == 9 && tlb == -18 && text == 22, "negative extent: lb %ld "
          "extent %ld true lb %ld true extent %ld", (long)lb, (long)ext, (long)tlb, (long)text);
    MPI_Type_free(&evil);
    MPI_Type_free(&neg);
    MPI_Type_free(&four);
    struct { long v; int k; } *pl = malloc(2 * sizeof *pl), in2[2];
    for (int i = 0; i < 2; i++) {
        in2[i].v = rank * (i ? -1 : 1);
        in2[i].k = rank;
    }
    MPI_Allreduce(in2, pl, 2, MPI_LONG_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(pl[0].v == size - 1 && pl[0].k == size - 1 && pl[1].v == 0 && pl[1].k == 0,
          "maxloc of long_int: %ld %d, %ld %d", pl[0].v, pl[0].k, pl[1].v, pl[1].k);
    free(pl);

    int all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all)
        printf(" No Errors\n");
    MPI_Finalize();
    return all != 0;
}
