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
#include <stdlib.h>
#include <string.h>

#include "coll.h"

#define OVERRIDE_MAX 256        /* characters of SCC_COLL */

/* Say what is wrong with one entry from @from, every UE alike. */
static int refuse(const char *from, const char *entry, const char *why)
{
    return scc_init_refuse(-1, "%s '%s': %s", from, entry, why);
}

/* One "COLLECTIVE=SPEC" entry: 0, or -1 after saying why. */
static int choose(const char *from, const char *entry)
{
    char coll[32];
    const char *eq = strchr(entry, '=');
    size_t n = eq ? (size_t)(eq - entry) : 0;

    if (!n || n >= sizeof coll)
        return refuse(from, entry, "not COLLECTIVE=ALGORITHM (for example bcast=oc:k=7)");
    memcpy(coll, entry, n);
    coll[n] = 0;
    if (scc_coll_set(coll, eq + 1))
        return refuse(from, entry, scc_coll_error());
    return 0;
}

/* SCC_COLL's entries, separated by ';' or spaces. */
static int from_environment(void)
{
    const char *env = getenv("SCC_COLL");
    char buf[OVERRIDE_MAX];

    if (!env || !*env)
        return 0;
    if (strlen(env) >= sizeof buf)
        return refuse("SCC_COLL", env, "too long");
    strcpy(buf, env);
    for (char *e = buf, *end; *e; e = end) {
        e += strspn(e, "; ");
        end = e + strcspn(e, "; ");
        if (*end)
            *end++ = 0;
        if (*e && choose("SCC_COLL", e))
            return -1;
    }
    return 0;
}

int scc_coll_override(int *argc, char **argv)
{
    int n = 1;

    if (from_environment())
        return -1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--coll")) {
            argv[n++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc)
            return scc_init_refuse(-1, "--coll: needs COLLECTIVE=ALGORITHM after it");
        if (choose("--coll", argv[++i]))
            return -1;
    }
    argv[n] = NULL;
    *argc = n;
    return 0;
}
