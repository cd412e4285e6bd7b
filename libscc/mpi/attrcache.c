/*
 * attrcache.c - the attribute cache of every kind of object that has one
 * (communicators: attr.c; datatypes: typeattr.c): keyvals with their
 * callbacks, counted by the attributes that hold them (a freed keyval
 * lives on until its last attribute goes, as the standard asks), and an
 * object's attributes, a list kept in the order they were set. The
 * callbacks' types differ by kind, so each kind calls its own through
 * the two functions of its struct cache_kind.
 */
#include <stdlib.h>

#include "mpiimpl.h"

struct attr {
    struct attr *next;
    int keyval;
    void *value;
};

static struct cache_keyval *kv(const struct cache_kind *kind, int keyval)
{
    int i = keyval - kind->first;
    return i >= 0 && i < kind->n ? &kind->keyvals[i] : NULL;
}

int cache_keyval_new(struct cache_kind *kind, void (*copy)(void), void (*del)(void),
                     void *extra, int *keyval)
{
    struct cache_keyval *k = realloc(kind->keyvals, sizeof *k * (size_t)(kind->n + 1));
    if (!k)
        return MPI_ERR_NO_MEM;
    kind->keyvals = k;
    kind->keyvals[kind->n] = (struct cache_keyval){ copy, del, extra, 0, 0 };
    *keyval = kind->first + kind->n++;
    return MPI_SUCCESS;
}

/* Marked only: objects may still hold its attributes, whose callbacks
 * still run. Freed again while they do: nothing more (as MPICH). */
int cache_keyval_free(struct cache_kind *kind, int *keyval)
{
    struct cache_keyval *k = keyval ? kv(kind, *keyval) : NULL;
    if (!k || (k->freed && !k->nattrs))
        return MPI_ERR_KEYVAL;
    k->freed = 1;
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int cache_known(const struct cache_kind *kind, int keyval)
{
    return kv(kind, keyval) != NULL;
}

static struct attr **find(void **list, int keyval)
{
    struct attr **pp = (struct attr **)list;
    while (*pp && (*pp)->keyval != keyval)
        pp = &(*pp)->next;
    return pp;
}

/* Run the delete callback and unlink: MPI_SUCCESS or its error. */
static int drop(struct cache_kind *kind, void *obj, struct attr **pp)
{
    struct attr *a = *pp;
    struct cache_keyval *k = kv(kind, a->keyval);
    int err = kind->del(k, obj, a->keyval, a->value);
    if (err)
        return err;
    *pp = a->next;
    free(a);
    k->nattrs--;
    return MPI_SUCCESS;
}

/* An attribute at the end of the list: kept in the order set. */
static int append(struct cache_keyval *k, void **list, int keyval, void *value)
{
    struct attr *a = malloc(sizeof *a);
    if (!a)
        return MPI_ERR_NO_MEM;
    *a = (struct attr){ NULL, keyval, value };
    *find(list, keyval) = a;
    k->nattrs++;
    return MPI_SUCCESS;
}

int cache_set(struct cache_kind *kind, void *obj, void **list, int keyval, void *value)
{
    struct cache_keyval *k = kv(kind, keyval);
    if (!k || k->freed)
        return MPI_ERR_KEYVAL;
    struct attr **pp = find(list, keyval);
    if (*pp) {
        int err = drop(kind, obj, pp);
        if (err)
            return err;
    }
    return append(k, list, keyval, value);
}

int cache_get(const struct cache_kind *kind, void **list, int keyval, void *value, int *flag)
{
    if (!kv(kind, keyval))
        return MPI_ERR_KEYVAL;
    struct attr *a = *find(list, keyval);
    *flag = a != NULL;
    if (a)
        *(void **)value = a->value;
    return MPI_SUCCESS;
}

int cache_remove(struct cache_kind *kind, void *obj, void **list, int keyval)
{
    if (!kv(kind, keyval))
        return MPI_ERR_KEYVAL;
    struct attr **pp = find(list, keyval);
    return *pp ? drop(kind, obj, pp) : CACHE_NO_ATTR;
}

/* The dup of an object: each attribute whose copy callback says so. */
int cache_copy(struct cache_kind *kind, void *from, void **from_list, void **to_list)
{
    for (struct attr *a = *from_list; a; a = a->next) {
        struct cache_keyval *k = kv(kind, a->keyval);
        void *out = NULL;
        int flag = 0;
        int err = kind->copy(k, from, a->keyval, a->value, &out, &flag);
        if (!err && flag)
            err = append(k, to_list, a->keyval, out);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

/* The free of an object: every attribute deleted, last set first. */
int cache_clear(struct cache_kind *kind, void *obj, void **list)
{
    while (*list) {
        struct attr **pp = (struct attr **)list;
        while ((*pp)->next)
            pp = &(*pp)->next;
        int err = drop(kind, obj, pp);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}
