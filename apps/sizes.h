/*
 * sizes.h - the apps' sizes in bytes, one parser for all: "4096", "4K",
 * "1M", and lists "32,100,1K-1M,1:1M".
 *
 * A size is a decimal number with an optional K or M (binary). Each app
 * says the largest size it takes (SIZE_LIMIT at most); a larger one is
 * refused, never wrapped: on the chip a long has 32 bits, where 4096M
 * once became 0 and 4097M 1 MiB. A range lo-hi steps by the app's
 * `factor` from lo and always ends at hi. A range lo:hi doubles from lo
 * while it stays within hi, whatever the app's factor, as OSU's
 * benchmarks read -m lo:hi: 1:1M is every power of two from 1 to 1M.
 * After an error, size_why() says what was wrong.
 */
#ifndef APPS_SIZES_H
#define APPS_SIZES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A count (iterations, repetitions, a line or core number) in lo..hi,
 * decimal digits only: 0, or -1. */
static inline int count_parse(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v;

    if (!s || *s < '0' || *s > '9')
        return -1;
    v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* What a long holds on the chip, so that the chip and the host (whose
 * long is larger) take the same sizes. */
#define SIZE_LIMIT 0x7fffffffL

/* The host's UEs are threads of one process: each has its own. */
#ifdef SCC_HOST
static __thread char size_error[160];
#else
static char size_error[160];
#endif

static inline const char *size_why(void)
{
    return size_error;
}

/* Say what is wrong with the @len characters at @s; -1. */
static inline int size_refuse(const char *s, size_t len, const char *what, long bound)
{
    char says[80];

    snprintf(says, sizeof says, what, bound);
    snprintf(size_error, sizeof size_error, "'%.*s' %s", (int)len, s, says);
    return -1;
}

static inline int size_not_a_size(const char *s)
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
static inline int size_one(const char *s, const char **end, long limit, long *out)
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
static inline int size_parse(const char *s, long min, long limit, long *out)
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
static inline int size_steps(long lo, long hi, long factor, long *out, int n, int max)
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
static inline int size_doublings(long lo, long hi, long *out, int n, int max)
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
static inline int size_list(const char *s, long *out, int max, long min, long limit, long factor)
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

#endif
