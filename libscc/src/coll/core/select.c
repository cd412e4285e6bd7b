/*
 * select.c - which algorithm runs a collective: the registry of every
 * algorithm, the measured defaults, the papers' table, and forcing by name.
 *
 * A forced algorithm (scc_coll_set) runs as it is. Otherwise the measured
 * rule (tuning.json) whose ranges hold for the call (members, bytes)
 * picks, if its algorithm accepts the call; failing that, the papers'
 * table is read top to bottom and the first rule whose ranges hold and
 * whose algorithm accepts the call picks it. Each of those rules names the
 * finding it follows.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"

/* --- the registry ------------------------------------------------------------- */

#define COLL_ALG(name) extern const struct coll_alg coll_##name;
#include "registry.h"
#undef COLL_ALG

static const struct coll_alg *const registry[] = {
#define COLL_ALG(name) &coll_##name,
#include "registry.h"
#undef COLL_ALG
};
#define NREG ((int)(sizeof(registry) / sizeof(registry[0])))

/* --- the papers' table --------------------------------------------------------- */

struct rule {
    enum coll_op op;
    const char *alg;
    int min_n, max_n;           /* members */
    size_t min_bytes, max_bytes;
    const char *why;            /* the finding behind the rule */
};

#define ANY_N 1, RCCE_MAXNP
#define ANY_BYTES 0, SIZE_MAX

static const struct rule table[] = {
    { COLL_BCAST, "binomial", 1, 2, ANY_BYTES,
      "with 2 members a tree has one edge: OC-Bcast's extra MPB-to-MPB copy "
      "(Formula 13, 001 section 5.2.1) buys nothing, binomial is one RCCE send" },
    { COLL_BCAST, "oc", 3, RCCE_MAXNP, ANY_BYTES,
      "OC-Bcast k=7 beats RCCE_comm's binomial at every small size (16.6 vs 21.6 us "
      "at 1 line, 001 section 6.2.1) and scatter-allgather ~3x in throughput for "
      "large ones (Table 2, 001 sections 5.3 and 6.2.2)" },
    { COLL_REDUCE, "bucket_relaxed", ANY_N, 4097, SIZE_MAX,
      "004 section IV: the bucket reduce gains 1.5x from RCCEnb and >60% at best "
      "(~20% on average) from balanced buckets over RCCE_comm's; buckets only above "
      "512 doubles, RCCE_comm's bucket threshold (004 section III, for allreduce)" },
    { COLL_REDUCE, "binomial", ANY_N, ANY_BYTES,
      "a binomial reduction tree, RCCE_comm's reduce" },
    { COLL_ALLREDUCE, "inmpb", ANY_N, 4097, SIZE_MAX,
      "004 section IV: above 512 doubles (RCCE_comm's bucket threshold, section III) "
      "the in-MPB data flow adds ~10% to the balanced RCCEnb bucket allreduce, "
      "which halves (RCCEnb) and beats by up to 90% (balancing) RCCE_comm's" },
    { COLL_ALLREDUCE, "reduce_bcast", ANY_N, ANY_BYTES,
      "reduce then broadcast, as RCCE's own allreduce" },
    { COLL_ALLGATHER, "bucket_relaxed", ANY_N, ANY_BYTES,
      "004 section IV: relaxed synchronization makes RCCE_comm's ring allgather 2.6x "
      "faster; RCCEnb changes almost nothing for Allgather" },
    { COLL_ALLGATHER, "ring", ANY_N, ANY_BYTES, "a ring" },
    { COLL_ALLTOALL, "pairwise_relaxed", ANY_N, ANY_BYTES,
      "004 section IV: non-blocking primitives speed up Alltoall; RCCEnb is as fast "
      "as iRCCE there and lighter" },
    { COLL_ALLTOALL, "pairwise", ANY_N, ANY_BYTES, "pairwise exchange" },
    { COLL_REDUCE_SCATTER, "bucket_relaxed", ANY_N, ANY_BYTES,
      "004 section IV: the bucket reduce-scatter ring with relaxed synchronization, "
      "and RCCEnb doubling it over iRCCE (2x, the largest RCCEnb gain)" },
    { COLL_REDUCE_SCATTER, "reduce", ANY_N, ANY_BYTES,
      "reduce to rank 0, then scatter" },
    { COLL_SCATTER, "linear", ANY_N, ANY_BYTES, "the root sends each block" },
    { COLL_GATHER, "linear", ANY_N, ANY_BYTES, "the root receives each block" },
    { COLL_BARRIER, "dissemination", ANY_N, ANY_BYTES,
      "a dissemination barrier on MPB lines" },
    { COLL_STOP, "persalltoall", 1, 16, ANY_BYTES,
      "003 sec. 5.1 fig. 5: PersAlltoAll is as good as any algorithm on 4 to 16 "
      "processors; for p <= 16 the algorithms and distributions differ little (sec. 5.2)" },
    { COLL_STOP, "br_xy_source", 17, RCCE_MAXNP, ANY_BYTES,
      "003 sec. 5.1 fig. 3: Br_Lin/Br_xy_* beat 2-Step and PersAlltoAll; sec. 5.2: "
      "Repos_xy_source should be used (repos=2: when s<p/2, 1K<=L<=16K)" },
    { COLL_STOP, "allgather", ANY_N, ANY_BYTES,
      "every source broadcasts in turn (the baseline of 003)" },
};
#define NRULES ((int)(sizeof(table) / sizeof(table[0])))

static const char *const op_names[COLL_NOPS] = {
    "bcast", "reduce", "allreduce", "allgather", "alltoall", "reduce_scatter",
    "scatter", "gather", "barrier", "stop",
};

const char *coll_op_name(enum coll_op op)
{
    return op < COLL_NOPS ? op_names[op] : "?";
}

static int op_of(const char *name)
{
    for (int i = 0; name && i < COLL_NOPS; i++)
        if (!strcmp(name, op_names[i]))
            return i;
    return -1;
}

const struct coll_alg *const *coll_algs(enum coll_op op, int *count)
{
    static SCC_TLS const struct coll_alg *list[NREG];
    int n = 0;

    for (int i = 0; i < NREG; i++)
        if (registry[i]->op == op)
            list[n++] = registry[i];
    *count = n;
    return list;
}

static const struct coll_alg *find(enum coll_op op, const char *name, size_t len)
{
    for (int i = 0; i < NREG; i++)
        if (registry[i]->op == op && strlen(registry[i]->name) == len &&
            !strncmp(registry[i]->name, name, len))
            return registry[i];
    return NULL;
}

/* --- forcing ---------------------------------------------------------------------- */

struct choice {
    const struct coll_alg *alg;         /* NULL: the table decides */
    long p[COLL_MAXPARAM];
};

static SCC_TLS struct choice forced[COLL_NOPS];
/* What each collective ran last: noted by pointer and parameters on every
 * call, formatted only when asked (snprintf on every call cost the OC
 * broadcast some 2000 instructions, a third of its one-line latency). */
static SCC_TLS char used[COLL_NOPS][128];
static SCC_TLS const struct coll_alg *used_alg[COLL_NOPS];
static SCC_TLS long used_p[COLL_NOPS][COLL_MAXPARAM];
static SCC_TLS char err[512];

static void fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, sizeof(err), fmt, ap);
    va_end(ap);
}

const char *scc_coll_error(void)
{
    return err;
}

/* "a, b, c" of the algorithms of op, into buf. */
static const char *names(enum coll_op op, char *buf, size_t size)
{
    int n, len = 0;
    const struct coll_alg *const *a = coll_algs(op, &n);

    buf[0] = 0;
    for (int i = 0; i < n && len < (int)size; i++)
        len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "", a[i]->name);
    return buf;
}

static const char *keys(const struct coll_alg *a, char *buf, size_t size)
{
    int len = 0;

    buf[0] = 0;
    for (int i = 0; i < a->nparam && len < (int)size; i++)
        len += snprintf(buf + len, size - len, "%s%s [%ld..%ld]", i ? ", " : "",
                        a->param[i].key, a->param[i].min, a->param[i].max);
    if (!a->nparam)
        snprintf(buf, size, "none");
    return buf;
}

/* spec: "name" or "name:key=value,key=value", into *ch; -1 with the
 * reason in err if it names nothing of op or a parameter is wrong. */
static int parse(int op, const char *spec, struct choice *ch)
{
    char list[256];
    const char *collective = op_names[op], *colon, *p;

    if (!spec || !*spec) {
        fail("%s: empty algorithm name (known: auto, %s)", collective,
             names(op, list, sizeof(list)));
        return -1;
    }
    colon = strchr(spec, ':');
    ch->alg = find(op, spec, colon ? (size_t)(colon - spec) : strlen(spec));
    if (!ch->alg) {
        fail("%s: unknown algorithm '%.*s' (known: auto, %s)", collective,
             colon ? (int)(colon - spec) : (int)strlen(spec), spec,
             names(op, list, sizeof(list)));
        return -1;
    }
    for (int i = 0; i < ch->alg->nparam; i++)
        ch->p[i] = ch->alg->param[i].dflt;
    for (p = colon ? colon + 1 : NULL; p && *p; ) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        int i;

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end) {
            fail("%s %s: '%.*s' is not key=value (parameters: %s)", collective,
                 ch->alg->name, (int)(end - p), p, keys(ch->alg, list, sizeof(list)));
            return -1;
        }
        for (i = 0; i < ch->alg->nparam; i++)
            if (strlen(ch->alg->param[i].key) == (size_t)(eq - p) &&
                !strncmp(ch->alg->param[i].key, p, eq - p))
                break;
        if (i == ch->alg->nparam) {
            fail("%s %s: unknown parameter '%.*s' (parameters: %s)", collective,
                 ch->alg->name, (int)(eq - p), p, keys(ch->alg, list, sizeof(list)));
            return -1;
        }
        char *stop;
        errno = 0;
        long v = strtol(eq + 1, &stop, 10);
        if (stop == eq + 1 || stop != end || errno) {
            fail("%s %s: %s=%.*s is not a number", collective, ch->alg->name,
                 ch->alg->param[i].key, (int)(end - eq - 1), eq + 1);
            return -1;
        }
        if (v < ch->alg->param[i].min || v > ch->alg->param[i].max) {
            fail("%s %s: %s=%ld out of range [%ld..%ld]", collective, ch->alg->name,
                 ch->alg->param[i].key, v, ch->alg->param[i].min, ch->alg->param[i].max);
            return -1;
        }
        ch->p[i] = v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* spec: "auto", "name" or "name:key=value,key=value". */
int scc_coll_set(const char *collective, const char *spec)
{
    int op = op_of(collective);
    struct choice ch;

    err[0] = 0;
    if (op < 0) {
        fail("unknown collective '%s' (known: bcast, reduce, allreduce, allgather, "
             "alltoall, reduce_scatter, scatter, gather, barrier, stop)",
             collective ? collective : "(null)");
        return -1;
    }
    if (spec && !strcmp(spec, "auto")) {
        forced[op].alg = NULL;
        return 0;
    }
    if (parse(op, spec, &ch))
        return -1;
    forced[op] = ch;
    return 0;
}

/* --- the measured defaults -------------------------------------------------------- */

/* tuning.json, this directory: for each collective, member count and size,
 * the algorithm that was fastest in modeled sweeps (README.md, "Defaults
 * from measurement"). tools/scc/bench/tuning.py compiles it into one array per
 * collective, tuned_of[op], rules ordered by members, then bytes. */
struct tuned {
    int min_n, max_n;
    size_t min_bytes, max_bytes;
    const char *spec;
};
struct tuned_list {
    const struct tuned *rule;
    int count;
};
#include "coll_tuning.h"        /* tuned_of[], COLL_TUNING_FROM */

/* Each rule's spec, parsed on its first use: 0 not yet, 1 good, -1 it
 * names nothing this build has (then the papers' table decides). */
static SCC_TLS struct choice tuned_choice[COLL_NOPS][COLL_TUNED_MAX];
static SCC_TLS signed char tuned_state[COLL_NOPS][COLL_TUNED_MAX];

static const struct choice *tuned_get(int op, int r)
{
    if (!tuned_state[op][r]) {
        char keep[sizeof(err)];

        memcpy(keep, err, sizeof(err));     /* not the caller's error */
        tuned_state[op][r] = parse(op, tuned_of[op].rule[r].spec, &tuned_choice[op][r]) ? -1 : 1;
        memcpy(err, keep, sizeof(err));
    }
    return tuned_state[op][r] > 0 ? &tuned_choice[op][r] : NULL;
}

/* The measured rule for c, its parameters in c->p; NULL if none holds or
 * its algorithm refuses the call. *held: whether a rule held. */
static const struct coll_alg *tuned_pick(struct coll_call *c, int *held)
{
    const struct tuned_list *l = &tuned_of[c->op];
    char why[256];

    *held = 0;
    for (int r = 0; r < l->count; r++) {
        const struct tuned *t = &l->rule[r];
        const struct choice *ch;

        if (c->n < t->min_n || c->n > t->max_n || c->bytes < t->min_bytes ||
            c->bytes > t->max_bytes)
            continue;
        *held = 1;
        if (!(ch = tuned_get(c->op, r)))
            return NULL;
        memcpy(c->p, ch->p, sizeof(c->p));
        return !ch->alg->check || !ch->alg->check(c, why, sizeof(why)) ? ch->alg : NULL;
    }
    return NULL;
}

void scc_coll_list(FILE *out, const char *collective)
{
    int op = op_of(collective);

    for (int o = 0; o < COLL_NOPS; o++) {
        int n;
        const struct coll_alg *const *a = coll_algs(o, &n);

        if (collective && o != op)
            continue;
        fprintf(out, "%s:\n", op_names[o]);
        for (int i = 0; i < n; i++) {
            fprintf(out, "  %-16s %s\n", a[i]->name, a[i]->doc);
            for (int k = 0; k < a[i]->nparam; k++)
                fprintf(out, "  %16s   %s=%ld [%ld..%ld]: %s\n", "", a[i]->param[k].key,
                        a[i]->param[k].dflt, a[i]->param[k].min, a[i]->param[k].max,
                        a[i]->param[k].doc);
        }
        if (tuned_of[o].count)
            fprintf(out, "  default, measured (tuning.json: %s):\n", COLL_TUNING_FROM);
        for (int r = 0; r < tuned_of[o].count; r++) {
            const struct tuned *t = &tuned_of[o].rule[r];
            struct choice ch;
            char hi[24] = "any", most[16] = "any";

            if (t->max_bytes != SIZE_MAX)
                snprintf(hi, sizeof(hi), "%zu", t->max_bytes);
            if (t->max_n != INT_MAX)
                snprintf(most, sizeof(most), "%d", t->max_n);
            fprintf(out, "    %s for %d-%s members, %zu-%s bytes", t->spec, t->min_n, most,
                    t->min_bytes, hi);
            if (parse(o, t->spec, &ch))
                fprintf(out, ": REFUSED, %s", err);
            fprintf(out, "\n");
        }
        fprintf(out, "  %s (first rule that holds):\n",
                tuned_of[o].count ? "otherwise, or where that algorithm refuses the call, "
                                    "the papers' findings" : "default");
        for (int r = 0; r < NRULES; r++) {
            char hi[24] = "any";
            if ((int)table[r].op != o)
                continue;
            if (table[r].max_bytes != SIZE_MAX)
                snprintf(hi, sizeof(hi), "%zu", table[r].max_bytes);
            fprintf(out, "    %s for %d-%d members, %zu-%s bytes: %s\n", table[r].alg,
                    table[r].min_n, table[r].max_n, table[r].min_bytes, hi, table[r].why);
        }
    }
}

int scc_coll_names(const char *collective, const char **out, int max)
{
    int op = op_of(collective), n;
    const struct coll_alg *const *a;

    if (op < 0)
        return -1;
    a = coll_algs(op, &n);
    for (int i = 0; i < n && i < max; i++)
        out[i] = a[i]->name;
    return n;
}

const char *scc_coll_used(const char *collective)
{
    int op = op_of(collective);

    if (op < 0 || !used_alg[op])
        return "";
    const struct coll_alg *a = used_alg[op];
    char *u = used[op];
    size_t size = sizeof(used[op]);
    int len = snprintf(u, size, "%s", a->name);

    for (int i = 0; i < a->nparam && len < (int)size; i++)
        len += snprintf(u + len, size - len, "%s%s=%ld", i ? "," : ":",
                        a->param[i].key, used_p[op][i]);
    return u;
}

/* --- dispatch ------------------------------------------------------------------------- */

/* Each rule's algorithm, found on its first use: the search of the
 * registry by name cost some 480 instructions on every call the table
 * decides (RCCE_barrier's among them), 1.8 us of modeled time. */
static SCC_TLS const struct coll_alg *table_alg[NRULES];
static SCC_TLS unsigned char table_found[NRULES];

static const struct coll_alg *table_get(int r)
{
    if (!table_found[r]) {
        table_alg[r] = find(table[r].op, table[r].alg, strlen(table[r].alg));
        table_found[r] = 1;
    }
    return table_alg[r];
}

/* Written only where it changed: these lines are read only when asked, so
 * the caches do not hold them, and on the chip every store to a line the
 * caches do not hold goes around them, one DRAM trip each (docs/timing.md,
 * "Stores"). Storing on every call cost every member about ten such trips,
 * some 1.8 us of modeled time per collective call. Reading first brings the
 * line in; from then on the stores hit it. */
static void note_used(const struct coll_call *c, const struct coll_alg *a)
{
    if (used_alg[c->op] != a)
        used_alg[c->op] = a;
    for (int i = 0; i < a->nparam; i++)
        if (used_p[c->op][i] != c->p[i])
            used_p[c->op][i] = c->p[i];
}

/* The default's last pick for each collective, kept for the next call
 * with the same member count and size: walking the measured rules and
 * the table on every call cost a one-line broadcast on 48 members 0.7 to
 * 1.0 us of modeled time over naming its algorithm (11.9-12.2 against
 * 11.2 us), most of it cache misses on the rules. A pick is kept only
 * when it is the first rule that holds for (members, size), which depends
 * on nothing else; the algorithm's check still runs on every call, and a
 * refusal walks the rules as before. */
struct memo {
    const struct coll_alg *alg;         /* NULL: nothing kept */
    int n;
    size_t bytes;
    long p[COLL_MAXPARAM];
};
static SCC_TLS struct memo memo[COLL_NOPS];

static const struct coll_alg *memo_get(struct coll_call *c)
{
    const struct memo *m = &memo[c->op];
    char why[256];

    if (!m->alg || m->n != c->n || m->bytes != c->bytes)
        return NULL;
    memcpy(c->p, m->p, sizeof(c->p));
    if (m->alg->check && m->alg->check(c, why, sizeof(why)))
        return NULL;
    return m->alg;
}

/* The default for c: the measured rule, else the papers' table. *first:
 * whether it is the first rule that holds for c's members and size. */
static const struct coll_alg *default_pick(struct coll_call *c, int *first)
{
    const struct coll_alg *a;
    char why[256];
    int held;

    a = tuned_pick(c, &held);
    /* a measured rule held but refused the call: what follows depends on
     * more than members and size */
    *first = a || !held;
    for (int r = 0; r < NRULES && !a; r++) {
        const struct rule *t = &table[r];
        const struct coll_alg *cand;

        if ((int)t->op != (int)c->op || c->n < t->min_n || c->n > t->max_n ||
            c->bytes < t->min_bytes || c->bytes > t->max_bytes)
            continue;
        cand = table_get(r);
        for (int i = 0; cand && i < cand->nparam; i++)
            c->p[i] = cand->param[i].dflt;
        if (cand && (!cand->check || !cand->check(c, why, sizeof(why))))
            a = cand;
        else
            *first = 0;
    }
    return a;
}

int coll_dispatch(struct coll_call *c)
{
    const struct coll_alg *a = forced[c->op].alg;
    char why[256];
    int first;

    if (a) {
        memcpy(c->p, forced[c->op].p, sizeof(c->p));
        if (a->check && a->check(c, why, sizeof(why))) {
            fail("%s %s: %s", coll_op_name(c->op), a->name, why);
            if (scc_self.debug)
                fprintf(stderr, "libscc: %s\n", err);
            return scc_error(RCCE_ERROR_VAL_UNDEFINED);
        }
    } else if (!(a = memo_get(c))) {
        a = default_pick(c, &first);
        if (!a) {
            fail("%s: no algorithm in the table applies", coll_op_name(c->op));
            return scc_error(RCCE_ERROR_VAL_UNDEFINED);
        }
        if (first) {
            struct memo *m = &memo[c->op];

            m->alg = a;
            m->n = c->n;
            m->bytes = c->bytes;
            memcpy(m->p, c->p, sizeof(m->p));
        }
    }
    note_used(c, a);
    return a->fn(c);
}
