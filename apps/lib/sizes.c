/*
 * sizes.c - the benchmarks' sizes in bytes, one parser for all (bench.h
 * says what a size and a list are).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The host's UEs are threads of one process: each has its own. */
#ifdef SCC_HOST
static __thread char size_error[160];
#else
static char size_error[160];
#endif

const char *size_why(void)
{
    return size_error;
}

/* Say what is wrong with the @len characters at @s; -1. */
static int size_refuse(const char *s, size_t len, const char *what, long bound)
{
    char says[80];

    snprintf(says, sizeof says, what, bound);
    snprintf(size_error, sizeof size_error, "'%.*s' %s", (int)len, s, says);
    return -1;
}

static int size_not_a_size(const char *s)
{
    size_t len = strcspn(s, ",-:");

    if (!len)
        len = strcspn(s, ",");      /* "-5", say */
    if (!len) {
        snprintf(size_error, sizeof size_error, "a size is missing (want e.g. 4096, 4K or 1M)");
        return -1;
    }
    return size_refuse(s, len, "is not a size (want e.g. 4096, 4K or 1M)", 0);
}

/* The size at @s into *out, at most @limit; *end after it: 0, or -1. */
static int size_one(const char *s, const char **end, long limit, long *out)
{
    int shift = 0;
    char *e;
    long v;

    if (*s < '0' || *s > '9')       /* strtol would take a sign or blanks */
        return size_not_a_size(s);
    errno = 0;
    v = strtol(s, &e, 10);
    if (*e == 'K' || *e == 'k')
        shift = 10, e++;
    else if (*e == 'M' || *e == 'm')
        shift = 20, e++;
    if (*e && *e != ',' && *e != '-' && *e != ':')
        return size_not_a_size(s);
    if (errno == ERANGE || v > limit >> shift)
        return size_refuse(s, (size_t)(e - s), "is larger than %ld bytes", limit);
    *end = e;
    *out = v << shift;
    return 0;
}

/* One size, an option's value, in min..limit: 0, or -1. */
int size_parse(const char *s, long min, long limit, long *out)
{
    const char *end = s;

    if (size_one(s, &end, limit, out))
        return -1;
    if (*end)
        return size_not_a_size(s);
    if (*out < min)
        return size_refuse(s, strlen(s), "is below %ld bytes, the smallest size", min);
    return 0;
}

/* lo, lo * factor, ... while below hi, then hi, into out[n..max): the new
 * n, or -1 if they do not all fit. */
static int size_steps(long lo, long hi, long factor, long *out, int n, int max)
{
    long v = lo;

    while (v < hi) {
        if (n == max)
            return -1;
        out[n++] = v;
        if (v > hi / factor)
            break;                  /* v * factor would pass hi, or overflow */
        v = v ? v * factor : 1;
    }
    if (n == max)
        return -1;
    out[n++] = hi;
    return n;
}

/* lo, 2 lo, 4 lo, ... while within hi (hi itself only if it is one of
 * them; after 0 comes 1), into out[n..max): the new n, or -1 if they do
 * not all fit. */
static int size_doublings(long lo, long hi, long *out, int n, int max)
{
    long v = lo;

    for (;;) {
        if (n == max)
            return -1;
        out[n++] = v;
        if (v > hi / 2 || (v == 0 && hi == 0))
            return n;               /* 2 v would pass hi, or overflow */
        v = v ? v * 2 : 1;
    }
}

/* The sizes of the list @s into out[0..max), each in min..limit: how
 * many, or -1 if the list is malformed, empty or has more than max. */
int size_list(const char *s, long *out, int max, long min, long limit, long factor)
{
    const char *list = s;
    int n = 0;

    for (;;) {
        const char *end = s, *item = s;
        size_t len = strcspn(item, ",");
        long lo, hi;
        char sep;

        if (size_one(s, &end, limit, &lo))
            return -1;
        sep = *end;
        hi = lo;
        if ((sep == '-' || sep == ':') && size_one(end + 1, &end, limit, &hi))
            return -1;
        if (*end == '-' || *end == ':')
            return size_refuse(item, len, "is not a size or a range lo-hi or lo:hi", 0);
        if (lo < min)
            return size_refuse(item, len, "is below %ld bytes, the smallest size", min);
        if (hi < lo)
            return size_refuse(item, len, "is a range that runs backwards", 0);
        n = sep == ':' ? size_doublings(lo, hi, out, n, max)
                       : size_steps(lo, hi, factor, out, n, max);
        if (n < 0)
            return size_refuse(list, strlen(list), "makes more than %ld sizes", max);
        if (!*end)
            return n;
        s = end + 1;                /* after a comma, another size */
    }
}
