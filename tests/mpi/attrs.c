/* attrs: keyvals and attributes on communicators: set, get, overwrite
 * (the old value's delete callback runs), copy callbacks on dup, delete
 * callbacks on free and delete_attr, MPI_COMM_SELF's at MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

static int errs, deleted, copied, self_deleted;
#define CHECK(c, ...) do { if (!(c)) { errs++; printf(__VA_ARGS__); printf("\n"); } } while (0)

static int copy_double(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    copied++;
    *(void **)out = (void *)((char *)in + 1);      /* a different value: one more */
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c, (void)k, (void)value;
    (*(int *)extra)++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, k1, k2, k3, flag;
    void *v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_create_keyval(copy_double, count_delete, &k1, &deleted);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &k3, &self_deleted);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_attr(c, k1, &v, &flag);
    CHECK(!flag, "unset attribute found");
    MPI_Comm_set_attr(c, k1, (void *)100);
    MPI_Comm_set_attr(c, k1, (void *)200);         /* the old one's delete runs */
    CHECK(deleted == 1, "overwrite: %d deletes", deleted);
    MPI_Comm_set_attr(c, k2, (void *)7);
    MPI_Comm_get_attr(c, k1, &v, &flag);
    CHECK(flag && v == (void *)200, "get: %d %p", flag, v);
    MPI_Comm d;
    MPI_Comm_dup(c, &d);
    CHECK(copied == 1, "dup: %d copies", copied);
    MPI_Comm_get_attr(d, k1, &v, &flag);
    CHECK(flag && v == (void *)201, "copied value %p", v);
    MPI_Comm_get_attr(d, k2, &v, &flag);
    CHECK(!flag, "null copy copied");
    MPI_Comm_free_keyval(&k1);                     /* still cached on c and d */
    CHECK(k1 == MPI_KEYVAL_INVALID, "free_keyval");
    MPI_Comm_free(&d);
    CHECK(deleted == 2, "free: %d deletes", deleted);
    MPI_Comm_delete_attr(c, k2);
    MPI_Comm_get_attr(c, k2, &v, &flag);
    CHECK(!flag, "deleted attribute found");
    MPI_Comm_free(&c);
    CHECK(deleted == 3, "free: %d deletes", deleted);
    int *ub;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    CHECK(flag && *ub >= 32767, "tag ub");
    MPI_Comm_set_attr(MPI_COMM_SELF, k3, (void *)1);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 0 && !errs && self_deleted == 1)
        printf(" No Errors\n");
    else if (self_deleted != 1)
        printf("MPI_COMM_SELF's attribute deleted %d times\n", self_deleted);
    return 0;
}
