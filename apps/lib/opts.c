/*
 * opts.c - the benchmarks' option parser: one table per program
 * (BENCH_OPTIONS in bench.h), every form of bench.h's list.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The host's UEs are threads of one process: each has its own. */
#ifdef SCC_HOST
#define PER_UE __thread
#else
#define PER_UE
#endif

static PER_UE char why[200];

const char *bench_why(void)
{
    return why;
}

int bench_refuse(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return -1;
}

void bench_args(struct bench_args *a, int argc, char **argv, int first,
                const struct bench_optset *set)
{
    a->argc = argc;
    a->argv = argv;
    a->i = first - 1;
    a->set = set;
}

const char *bench_word(const struct bench_args *a)
{
    return a->i < a->argc ? a->argv[a->i] : "";
}

/* The option of @set named by the @len characters at @s; -1 if none. */
static int lookup(const struct bench_optset *set, const char *s, size_t len)
{
    for (int k = 0; set->opts[k].name; k++)
        if (strlen(set->opts[k].name) == len && !strncmp(s, set->opts[k].name, len))
            return k;
    return -1;
}

static int is_regions(const struct bench_optset *set, const char *s, size_t len)
{
    return set->regions && len == 7 && !strncmp(s, "regions", 7);
}

/* A flag's value: "1" (none given, or 1) or "0"; NULL if it is neither. */
static const char *flag_value(const char *v)
{
    if (!v || !strcmp(v, "1"))
        return "1";
    return strcmp(v, "0") ? NULL : "0";
}

/* Say why (as bench_refuse) and return BENCH_BAD. */
#define BAD(...) (bench_refuse(__VA_ARGS__), BENCH_BAD)

int bench_next(struct bench_args *a, const char **value)
{
    for (;;) {
        const char *w, *name, *eq, *v = NULL;
        int dashes, k;
        size_t len;

        if (++a->i >= a->argc)
            return BENCH_END;
        w = a->argv[a->i];
        dashes = !strncmp(w, "--", 2);
        name = w + 2 * dashes;
        eq = strchr(name, '=');
        len = eq ? (size_t)(eq - name) : strlen(name);
        if (eq)
            v = eq + 1;
        if (!dashes && !eq) {
            /* a bare word: a flag's name, or positional */
            k = lookup(a->set, name, len);
            if (is_regions(a->set, name, len)) {
                bench_regions_set(1);
                continue;
            }
            if (k >= 0 && a->set->opts[k].kind == BENCH_KIND_flag) {
                *value = "1";
                return k;
            }
            *value = w;
            return BENCH_POSITIONAL;
        }
        if (is_regions(a->set, name, len)) {
            if (!(v = flag_value(v)))
                return BAD("'%s': regions is on (1) or off (0)", w);
            bench_regions_set(*v == '1');
            continue;
        }
        k = lookup(a->set, name, len);
        if (k < 0) {
            if (!dashes && eq)
                return BAD("'%s': unknown option '%.*s'", w, (int)len, name);
            return BAD("unknown option '%s'", w);
        }
        if (a->set->opts[k].kind == BENCH_KIND_flag) {
            if (!(*value = flag_value(v)))
                return BAD("'%s': %s is a flag (on: --%s; or =1, =0)", w,
                                    a->set->opts[k].name, a->set->opts[k].name);
            return k;
        }
        if (!eq) {
            if (a->i + 1 >= a->argc)
                return BAD("%s needs a value", w);
            v = a->argv[++a->i];
        }
        *value = v;
        return k;
    }
}

int bench_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    if (*s < '0' || *s > '9')
        return bench_refuse("'%s' is not a number", s);
    errno = 0;
    v = strtol(s, &end, 10);
    if (*end)
        return bench_refuse("'%s' is not a number", s);
    if (errno == ERANGE || v < lo || v > hi)
        return bench_refuse("%s is not in %ld..%ld", s, lo, hi);
    *out = v;
    return 0;
}
