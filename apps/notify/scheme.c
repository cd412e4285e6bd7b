/*
 * The schemes by name, and their parameters: SPEC is NAME or
 * NAME:key=value,... Adding a scheme is one file and one line here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify.h"

static const struct scheme *const schemes[] = {
    &scheme_flag, &scheme_flags, &scheme_ring, &scheme_rcce, &scheme_snet,
    &scheme_mbox_ipi, &scheme_mbox_poll, &scheme_mbox_timer, &scheme_mbox_hybrid,
};
#define NSCHEMES (int)(sizeof schemes / sizeof schemes[0])

void scheme_list(FILE *f)
{
    if (RCCE_ue() != 0)
        return;
    for (int i = 0; i < NSCHEMES; i++)
        fprintf(f, "  %-12s %s\n", schemes[i]->name,
                *schemes[i]->params ? schemes[i]->params : "(no parameters)");
}

/* The scheme spec names, and its parameter text in *params; NULL after
 * printing why. Parameters are checked here, so that a bad one fails
 * before any core has started. */
const struct scheme *scheme_find(const char *spec, const char **params)
{
    size_t n = strcspn(spec, ":");
    *params = spec[n] ? spec + n + 1 : "";
    for (int i = 0; i < NSCHEMES; i++) {
        const struct scheme *s = schemes[i];
        if (strlen(s->name) != n || strncmp(s->name, spec, n))
            continue;
        for (const char *p = *params; *p;) {
            size_t k = strcspn(p, "=,");
            int known = 0;
            for (const char *q = s->params; *q;) {
                size_t m = strcspn(q, "=,");
                known |= m == k && !strncmp(p, q, k);
                q += strcspn(q, ",");
                q += *q == ',';
            }
            if (!known || p[k] != '=') {
                SAY_ERR("notify: scheme %s: unknown parameter '%.*s' (takes: %s)\n",
                        s->name, (int)k, p, *s->params ? s->params : "none");
                return NULL;
            }
            p += strcspn(p, ",");
            p += *p == ',';
        }
        return s;
    }
    SAY_ERR("notify: unknown scheme '%.*s'; the schemes:\n", (int)n, spec);
    scheme_list(stderr);
    return NULL;
}

/* key's value in params, else dflt; -1 after printing why if it is not a
 * number in lo..hi. */
int param_u32(const char *params, const char *key, uint32_t dflt, uint32_t lo, uint32_t hi,
              uint32_t *out)
{
    size_t k = strlen(key);
    *out = dflt;
    for (const char *p = params; *p;) {
        if (!strncmp(p, key, k) && p[k] == '=') {
            char *end;
            unsigned long v = strtoul(p + k + 1, &end, 0);
            if (end == p + k + 1 || (*end && *end != ',') || v < lo || v > hi) {
                SAY_ERR("notify: parameter %s must be a number in %lu..%lu\n", key,
                        (unsigned long)lo, (unsigned long)hi);
                return -1;
            }
            *out = (uint32_t)v;
        }
        p += strcspn(p, ",");
        p += *p == ',';
    }
    return 0;
}

int scheme_specs(const char *arg, const char **specs, int n, int max)
{
    const char *params;
    if (!strcmp(arg, "all")) {
        for (int i = 0; i < NSCHEMES; i++) {
            if (n == max)
                goto full;
            specs[n++] = schemes[i]->name;
        }
        return n;
    }
    if (!scheme_find(arg, &params))
        return -1;
    if (n < max) {
        specs[n++] = arg;
        return n;
    }
full:
    SAY_ERR("notify: at most %d schemes a run\n", max);
    return -1;
}
