/*
 * override.c - the run's choice of collective algorithms, made without
 * recompiling the program (as MPICH's control variables do).
 *
 * Two places, applied in this order, each entry as scc_coll_set() would:
 *   SCC_COLL=bcast=oc:k=7;allreduce=hybrid   in the environment (the host
 *                                            backend's programs have one;
 *                                            the chip's programs do not)
 *   --coll bcast=oc:k=7                      among the program's words,
 *                                            any number of times
 * RCCE_init takes the --coll words out, as it does the UE list, so an
 * unmodified RCCE program sees only its own. Every UE gets the same words
 * and so makes the same choice, which the collectives need. A program's
 * own scc_coll_set() after RCCE_init overrides these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

#define OVERRIDE_MAX 256        /* characters of SCC_COLL */

/* What is wrong with one entry from @from, every UE alike, into out (of
 * SCC_COLL_WHY bytes) for RCCE_init to say: the collectives do not call
 * back up into init.c. Returns -1. */
static int refuse(char *out, const char *from, const char *entry, const char *why)
{
    if (snprintf(out, SCC_COLL_WHY, "%s '%s': %s", from, entry, why) >= SCC_COLL_WHY)
        out[SCC_COLL_WHY - 2] = out[SCC_COLL_WHY - 3] = out[SCC_COLL_WHY - 4] = '.';
    return -1;
}

/* One "COLLECTIVE=SPEC" entry: 0, or -1 with the reason in out. */
static int choose(char *out, const char *from, const char *entry)
{
    char coll[32];
    const char *eq = strchr(entry, '=');
    size_t n = eq ? (size_t)(eq - entry) : 0;

    if (!n || n >= sizeof coll)
        return refuse(out, from, entry, "not COLLECTIVE=ALGORITHM (for example bcast=oc:k=7)");
    memcpy(coll, entry, n);
    coll[n] = 0;
    if (scc_coll_set(coll, eq + 1))
        return refuse(out, from, entry, scc_coll_error());
    return 0;
}

/* SCC_COLL's entries, separated by ';' or spaces. */
static int from_environment(char *out)
{
    const char *env = getenv("SCC_COLL");
    char buf[OVERRIDE_MAX];

    if (!env || !*env)
        return 0;
    if (strlen(env) >= sizeof buf)
        return refuse(out, "SCC_COLL", env, "too long");
    strcpy(buf, env);
    for (char *e = buf, *end; *e; e = end) {
        e += strspn(e, "; ");
        end = e + strcspn(e, "; ");
        if (*end)
            *end++ = 0;
        if (*e && choose(out, "SCC_COLL", e))
            return -1;
    }
    return 0;
}

int scc_coll_override(int *argc, char **argv, char *why)
{
    int n = 1;

    if (from_environment(why))
        return -1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--coll")) {
            argv[n++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc)
            return snprintf(why, SCC_COLL_WHY,
                            "--coll: needs COLLECTIVE=ALGORITHM after it"), -1;
        if (choose(why, "--coll", argv[++i]))
            return -1;
    }
    argv[n] = NULL;
    *argc = n;
    return 0;
}
