/*
 * info.c - info objects: ordered (key, value) string pairs. The library
 * takes no hints yet, so the calls that accept an info only keep it.
 */
#include <stdlib.h>
#include <string.h>

#include "mpiimpl.h"

struct mpi_info_s {
    int n, cap;
    char **key, **val;
};

static int find(MPI_Info info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (!strcmp(info->key[i], key))
            return i;
    return -1;
}

int MPI_Info_create(MPI_Info *info)
{
    if (!(*info = calloc(1, sizeof **info)))
        return mpi_err(NULL, "MPI_Info_create", MPI_ERR_NO_MEM);
    return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    if (!info)
        return mpi_err(NULL, "MPI_Info_set", MPI_ERR_ARG);
    if (strlen(key) >= MPI_MAX_INFO_KEY || strlen(value) >= MPI_MAX_INFO_VAL)
        return mpi_errf(NULL, "MPI_Info_set", MPI_ERR_ARG, "key or value too long");
    int i = find(info, key);
    char *v = strdup(value);
    if (!v)
        return mpi_err(NULL, "MPI_Info_set", MPI_ERR_NO_MEM);
    if (i >= 0) {
        free(info->val[i]);
        info->val[i] = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        char **k = realloc(info->key, sizeof *k * (size_t)cap);
        char **w = k ? realloc(info->val, sizeof *w * (size_t)cap) : NULL;
        if (!k || !w) {
            free(v);
            if (k)
                info->key = k;
            return mpi_err(NULL, "MPI_Info_set", MPI_ERR_NO_MEM);
        }
        info->key = k;
        info->val = w;
        info->cap = cap;
    }
    info->key[info->n] = strdup(key);
    info->val[info->n++] = v;
    return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    if (!info)
        return mpi_err(NULL, "MPI_Info_get", MPI_ERR_ARG);
    int i = find(info, key);
    *flag = i >= 0;
    if (i >= 0 && valuelen > 0) {
        strncpy(value, info->val[i], (size_t)valuelen);
        value[valuelen] = '\0';     /* valuelen excludes the NUL, as the standard says */
    }
    return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    if (!info)
        return mpi_err(NULL, "MPI_Info_get_valuelen", MPI_ERR_ARG);
    int i = find(info, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(info->val[i]);
    return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    if (!info)
        return mpi_err(NULL, "MPI_Info_get_nkeys", MPI_ERR_ARG);
    *nkeys = info->n;
    return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    if (!info || n < 0 || n >= info->n)
        return mpi_err(NULL, "MPI_Info_get_nthkey", MPI_ERR_ARG);
    strcpy(key, info->key[n]);
    return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
    int i = info ? find(info, key) : -1;
    if (i < 0)
        return mpi_errf(NULL, "MPI_Info_delete", MPI_ERR_ARG, "no key '%s'", key);
    free(info->key[i]);
    free(info->val[i]);
    memmove(&info->key[i], &info->key[i + 1], sizeof(char *) * (size_t)(info->n - i - 1));
    memmove(&info->val[i], &info->val[i + 1], sizeof(char *) * (size_t)(info->n - i - 1));
    info->n--;
    return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    if (!info)
        return mpi_err(NULL, "MPI_Info_dup", MPI_ERR_ARG);
    int err = MPI_Info_create(newinfo);
    for (int i = 0; !err && i < info->n; i++)
        err = MPI_Info_set(*newinfo, info->key[i], info->val[i]);
    return err;
}

int MPI_Info_free(MPI_Info *info)
{
    if (!info || !*info)
        return mpi_err(NULL, "MPI_Info_free", MPI_ERR_ARG);
    for (int i = 0; i < (*info)->n; i++) {
        free((*info)->key[i]);
        free((*info)->val[i]);
    }
    free((*info)->key);
    free((*info)->val);
    free(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* Memory for communication: private memory is what every transfer uses. */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    (void)info;
    void *p = size >= 0 ? malloc(size ? (size_t)size : 1) : NULL;
    if (!p)
        return mpi_err(NULL, "MPI_Alloc_mem", MPI_ERR_NO_MEM);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
