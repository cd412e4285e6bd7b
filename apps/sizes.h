/*
 * sizes.h - the benchmarks' size lists: "32,100,1K-1M".
 *
 * A size is a number with an optional K or M (binary). A range lo-hi
 * steps by `factor` from lo and always ends at hi.
 */
#ifndef APPS_SIZES_H
#define APPS_SIZES_H

#include <stdlib.h>

static long size_one(const char *s, char **end)
{
    long v = strtol(s, end, 10);

    if (**end == 'K' || **end == 'k')
        v <<= 10, (*end)++;
    else if (**end == 'M' || **end == 'm')
        v <<= 20, (*end)++;
    return v;
}

/* The sizes of @s into out[0..max), none below @min: how many, or -1 if
 * the list is malformed or empty. */
static int size_list(const char *s, long *out, int max, long min, long factor)
{
    int n = 0;

    while (*s) {
        char *end;
        long lo = size_one(s, &end), hi = lo;

        if (end == s || lo < min)
            return -1;
        if (*end == '-') {
            s = end + 1;
            hi = size_one(s, &end);
            if (end == s || hi < lo)
                return -1;
        }
        for (long v = lo; n < max; v = v ? v * factor : 1) {
            if (v >= hi) {
                out[n++] = hi;
                break;
            }
            out[n++] = v;
        }
        if (*end && *end != ',')
            return -1;
        s = *end ? end + 1 : end;
    }
    return n ? n : -1;
}

#endif
