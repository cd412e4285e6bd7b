/*
 * coll.c - every collective algorithm against a serial reference
 * (tests/test_coll.py).
 *
 *     coll [OP[:SPEC] ...] [sizes=A,B,..] [roots=first,last,mid|all]
 *          [ks=1,2,7,47] [reps=R] [fast] [mix=N] [exclude=OP:ALG] [names=OP]
 *
 * Without OPs: every algorithm of every collective. OP alone: every
 * algorithm of OP with its defaults, and, for an algorithm with a
 * parameter k, every k in ks that the communicator allows (k < members),
 * and for one with a parameter shape, shape=1.
 * OP:SPEC: that one (e.g. bcast:oc:k=7). For every algorithm, size and
 * root, every member fills its input from a formula of (member, size,
 * root, repetition), runs the collective, and compares its output with
 * what the same formulas give computed serially. Reductions run for every
 * type and operator with values whose results are exact in every type.
 * Sizes of block collectives (allgather, alltoall, scatter, gather,
 * reduce_scatter, stop) above 64 KiB are taken as the total and divided
 * among the members, so that 48 members stay within memory.
 *
 * fast: reductions run for (double, sum) and (int, max) only. mix=N: N
 * back-to-back calls of randomly chosen collectives, algorithms, sizes
 * and roots (the same pseudo-random choices on every member), each
 * checked, instead of the sweep.
 *
 * Prints "FAIL ..." for a wrong byte (and exits 1), "PASS coll (N UEs,
 * C calls)" on UE 0 at the end, and "USED op spec" once per algorithm run
 * (the spec scc_coll_used reports).
 */
#include "check.h"

#define MAXALG 32
/* 8: one double, the short path of reduce_tree.c */
static const int default_sizes[] = {0, 1, 8, 31, 32, 33, 3071, 3072, 3104, (1 << 20) + 5};
static const char *const ops[] = {"bcast", "reduce", "allreduce", "allgather", "alltoall",
                                  "reduce_scatter", "scatter", "gather", "barrier", "stop"};
#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))
static const int types[] = {RCCE_INT, RCCE_LONG, RCCE_FLOAT, RCCE_DOUBLE};
static const int rops[] = {RCCE_SUM, RCCE_MAX, RCCE_MIN, RCCE_PROD};

static UE_LOCAL int sizes[64], nsizes;
static UE_LOCAL int ks[16], nks;
static UE_LOCAL int all_roots, reps = 1, fast;
static UE_LOCAL const char *exclude;    /* "op:alg" left out of mix= */
static UE_LOCAL long calls;

/* The byte member m contributes at index i (block collectives, bcast). */
static unsigned char byte_of(int m, size_t i, int size, int root, int rep)
{
    return (unsigned char)(m * 131 + i * 7 + (i >> 8) * 13 + size * 3 + root * 17 + rep * 29 + 1);
}

/* p[k] = byte_of(m, start + k, ...) for k < n, and the check of it (0, or
 * 1 + the first k that differs): one addition a byte, as byte_of's
 * differences go (7, and 13 more where i crosses a multiple of 256).
 * Computed in full for every byte, the checks were two thirds of a mixed
 * run on the emulated chip. */
static void fill_bytes(unsigned char *p, size_t n, int m, size_t start, int size, int root,
                       int rep)
{
    unsigned char w = byte_of(m, start, size, root, rep);

    for (size_t k = 0, i = start; k < n; k++) {
        p[k] = w;
        w += ++i & 255 ? 7 : 7 + 13;
    }
}

static size_t bytes_differ(const unsigned char *p, size_t n, int m, size_t start, int size,
                           int root, int rep)
{
    unsigned char w = byte_of(m, start, size, root, rep);

    for (size_t k = 0, i = start; k < n; k++) {
        if (p[k] != w)
            return k + 1;
        w += ++i & 255 ? 7 : 7 + 13;
    }
    return 0;
}

/* The value member m contributes at element i of a reduction: small
 * integers, and only +-1 for PROD, so every result is exact. */
static long value_of(int m, int i, int rop, int rep)
{
    if (rop == RCCE_PROD)
        return ((m + i + rep) % 5 == 0) ? -1 : 1;
    return (long)((m * 7 + i * 3 + rep) % 41) - 20;
}

#define REF_PERIOD (41 * 5)     /* value_of's period in i, every rop */

static void put_value(void *p, int type, int i, long v)
{
    switch (type) {
    case RCCE_INT:    ((int *)p)[i] = (int)v; break;
    case RCCE_LONG:   ((long *)p)[i] = v; break;
    case RCCE_FLOAT:  ((float *)p)[i] = (float)v; break;
    case RCCE_DOUBLE: ((double *)p)[i] = (double)v; break;
    }
}

static long reduce_ref(int n, int i, int rop, int rep)
{
    long acc = value_of(0, i, rop, rep);

    for (int m = 1; m < n; m++) {
        long v = value_of(m, i, rop, rep);
        switch (rop) {
        case RCCE_SUM:  acc += v; break;
        case RCCE_PROD: acc *= v; break;
        case RCCE_MIN:  acc = v < acc ? v : acc; break;
        case RCCE_MAX:  acc = v > acc ? v : acc; break;
        }
    }
    return acc;
}

/* value_of repeats every 41 elements (5 for PROD), and so does every
 * member's input and the reduced reference: each is built and checked as
 * repeats of one period (pat, REF_PERIOD elements of ts bytes), the n
 * elements at p starting at element `first` of the period. Computed
 * element by element, 1 MiB results checked on every member were most of
 * a run's time. */
static void tile(char *p, size_t n, const char *pat, size_t first, size_t ts)
{
    for (size_t i = 0, run; i < n; i += run) {
        size_t j = (first + i) % REF_PERIOD;
        run = REF_PERIOD - j < n - i ? REF_PERIOD - j : n - i;
        memcpy(p + i * ts, pat + j * ts, run * ts);
    }
}

/* 0 if the n elements at p repeat pat as tile() writes them, else 1 + the
 * index of the first that does not. */
static size_t untiled(const char *p, size_t n, const char *pat, size_t first, size_t ts)
{
    for (size_t i = 0, run; i < n; i += run) {
        size_t j = (first + i) % REF_PERIOD;
        run = REF_PERIOD - j < n - i ? REF_PERIOD - j : n - i;
        if (memcmp(p + i * ts, pat + j * ts, run * ts))
            for (size_t k = 0; k < run; k++)
                if (memcmp(p + (i + k) * ts, pat + (j + k) * ts, ts))
                    return i + k + 1;
    }
    return 0;
}

static size_t tsize(int type)
{
    return type == RCCE_INT ? sizeof(int) : type == RCCE_LONG ? sizeof(long)
           : type == RCCE_FLOAT ? sizeof(float) : sizeof(double);
}

static int fail_at(const char *op, const char *spec, int size, int root, const char *what,
                   size_t at, int got, int want)
{
    printf("FAIL ue %d: %s %s size %d root %d: %s at %zu: got %d want %d\n", RCCE_ue(), op,
           spec, size, root, what, at, got, want);
    return 1;
}

/* The sources of an s-to-p broadcast of s sources: without dist=NAME,
 * spread out (every (n/s)-th rank); with it, 003's distribution NAME
 * (scc_stop_sources) placed on the grid the s-to-p algorithms use
 * (scc_stop_grid), as ascending ranks. */
static UE_LOCAL const char *stop_dist;      /* each UE parses argv */

static int stop_sources(int n, int s, int *src)
{
    int core[RCCE_MAXNP], at[RCCE_MAXNP], place[RCCE_MAXNP], cols;

    if (!stop_dist) {
        for (int i = 0; i < s; i++)
            src[i] = (int)((long)i * n / s);
        return s;
    }
    for (int i = 0; i < n; i++)
        core[i] = RCCE_ue_core(i);
    cols = scc_stop_grid(core, n, at);
    if (cols < 1 || scc_stop_sources(stop_dist, s, n, cols, 12345u, place) != s) {
        printf("FAIL ue %d: no distribution %s of %d sources on %d members\n", RCCE_ue(),
               stop_dist, s, n);
        fflush(stdout);
        exit(1);
    }
    for (int i = 0; i < s; i++) {
        int j = i, r = at[place[i]];
        for (; j > 0 && src[j - 1] > r; j--)
            src[j] = src[j - 1];
        src[j] = r;
    }
    return s;
}

/* One collective call on every member, checked. 0 if right. */
static int one(const char *op, const char *spec, int size, int root, int rep)
{
    int n = RCCE_num_ues(), me = RCCE_ue(), err = RCCE_SUCCESS;
    int block_op = strcmp(op, "bcast") && strcmp(op, "reduce") && strcmp(op, "allreduce");
    size_t b = (size_t)size;

    if (block_op && b > 65536)
        b = b / (size_t)n ? b / (size_t)n : 1;
    calls++;
    if (!strcmp(op, "barrier")) {
        if ((err = RCCE_barrier(&RCCE_COMM_WORLD)) != RCCE_SUCCESS)
            printf("FAIL ue %d: %s %s: error %d %s\n", me, op, spec, err, scc_coll_error());
        return err != RCCE_SUCCESS;
    }
    if (!strcmp(op, "bcast")) {
        unsigned char *buf = xmalloc(b + 1);
        if (me == root)
            fill_bytes(buf, b, root, 0, size, root, rep);
        else
            memset(buf, 0xEE, b);
        buf[b] = 0x5A;
        err = RCCE_bcast((char *)buf, b, root, RCCE_COMM_WORLD);
        int bad = err != RCCE_SUCCESS;
        size_t at;
        if (!bad && (at = bytes_differ(buf, b, root, 0, size, root, rep)))
            bad = fail_at(op, spec, size, root, "byte", at - 1, buf[at - 1],
                          byte_of(root, at - 1, size, root, rep));
        if (!bad && buf[b] != 0x5A)
            bad = fail_at(op, spec, size, root, "overrun", b, buf[b], 0x5A);
        if (err)
            printf("FAIL ue %d: %s %s size %d root %d: error %d %s\n", me, op, spec, size, root, err,
                   scc_coll_error());
        free(buf);
        return bad;
    }
    if (!strcmp(op, "reduce") || !strcmp(op, "allreduce") || !strcmp(op, "reduce_scatter")) {
        int rs = !strcmp(op, "reduce_scatter"), bad = 0;
        for (unsigned t = 0; t < 4 && !bad; t++) {
            for (unsigned o = 0; o < 4 && !bad; o++) {
                if (fast && !((t == 3 && o == 0) || (t == 0 && o == 1)))
                    continue;
                size_t ts = tsize(types[t]);
                int num = rs ? (int)(b / ts) : (int)(b / ts);       /* per block for rs */
                int total = rs ? num * n : num;
                char *in = xmalloc((size_t)total * ts + 1), *out = xmalloc((size_t)num * ts + 1);
                /* one period of this member's input and of the reduced
                 * reference, elements 0 .. REF_PERIOD-1 */
                char mine[REF_PERIOD * 8], ref[REF_PERIOD * 8];
                for (int i = 0; i < REF_PERIOD; i++) {
                    put_value(mine, types[t], i, value_of(me, i, rops[o], rep));
                    put_value(ref, types[t], i, reduce_ref(n, i, rops[o], rep));
                }
                tile(in, (size_t)total, mine, 0, ts);
                memset(out, 0xEE, (size_t)num * ts + 1);
                if (rs)
                    err = RCCE_reduce_scatter(in, out, num, types[t], rops[o], RCCE_COMM_WORLD);
                else if (!strcmp(op, "reduce"))
                    err = RCCE_reduce(in, out, num, types[t], rops[o], root, RCCE_COMM_WORLD);
                else
                    err = RCCE_allreduce(in, out, num, types[t], rops[o], RCCE_COMM_WORLD);
                if (err) {
                    printf("FAIL ue %d: %s %s size %d type %d op %d: error %d %s\n", me, op, spec,
                           size, t, o, err, scc_coll_error());
                    bad = 1;
                }
                int check = strcmp(op, "reduce") || me == root;
                size_t first = rs ? (size_t)me * (size_t)num : 0, at;
                if (check && !bad && (at = untiled(out, (size_t)num, ref, first, ts)))
                    bad = fail_at(op, spec, size, root, "element", at - 1, (int)out[(at - 1) * ts],
                                  (int)ref[(first + at - 1) % REF_PERIOD * ts]);
                if (!bad && check && (unsigned char)out[(size_t)num * ts] != 0xEE)
                    bad = fail_at(op, spec, size, root, "overrun", (size_t)num * ts, 0, 0xEE);
                if (!bad && (at = untiled(in, (size_t)total, mine, 0, ts)))   /* not written */
                    bad = fail_at(op, spec, size, root, "input changed", at - 1, 0, 0);
                free(in);
                free(out);
            }
        }
        return bad;
    }
    /* block collectives */
    int src[RCCE_MAXNP], nsrc = 0, is_src = 0;
    size_t nin = b, nout = b;
    if (!strcmp(op, "allgather") || (!strcmp(op, "gather") && me == root))
        nout = b * n;
    if (!strcmp(op, "alltoall"))
        nin = nout = b * n;
    if (!strcmp(op, "scatter") && me == root)
        nin = b * n;
    if (!strcmp(op, "stop")) {
        nsrc = stop_sources(n, root + 1, src);
        for (int i = 0; i < nsrc; i++)
            is_src |= src[i] == me;
        nout = b * nsrc;
    }
    unsigned char *in = xmalloc(nin + 1), *out = xmalloc(nout + 1);
    fill_bytes(in, nin, me, 0, size, root, rep);
    memset(out, 0xEE, nout + 1);
    if (!strcmp(op, "allgather"))
        err = RCCE_allgather((char *)in, (char *)out, b, RCCE_COMM_WORLD);
    else if (!strcmp(op, "alltoall"))
        err = RCCE_alltoall((char *)in, (char *)out, b, RCCE_COMM_WORLD);
    else if (!strcmp(op, "scatter"))
        err = RCCE_scatter((char *)in, (char *)out, b, root, RCCE_COMM_WORLD);
    else if (!strcmp(op, "gather"))
        err = RCCE_gather((char *)in, (char *)out, b, root, RCCE_COMM_WORLD);
    else
        err = scc_stop_bcast(is_src ? (char *)in : NULL, (char *)out, b, src, nsrc,
                             RCCE_COMM_WORLD);
    int bad = 0;
    if (err) {
        printf("FAIL ue %d: %s %s size %d root %d: error %d %s\n", me, op, spec, size, root, err,
                   scc_coll_error());
        bad = 1;
    }
    int check = strcmp(op, "gather") || me == root;
    /* block j of the output: member m's bytes from its byte `start` */
    size_t blocks = b ? nout / b : 0;
    for (size_t j = 0; check && !bad && j < blocks; j++) {
        int m = (int)j;
        size_t start = 0, at;
        if (!strcmp(op, "alltoall"))
            start = (size_t)me * b;
        else if (!strcmp(op, "scatter"))
            m = root, start = (size_t)me * b;
        else if (!strcmp(op, "stop"))
            m = src[j];
        if ((at = bytes_differ(out + j * b, b, m, start, size, root, rep)))
            bad = fail_at(op, spec, size, root, "byte", j * b + at - 1, out[j * b + at - 1],
                          byte_of(m, start + at - 1, size, root, rep));
    }
    if (!bad && check && out[nout] != 0xEE)
        bad = fail_at(op, spec, size, root, "overrun", nout, out[nout], 0xEE);
    free(in);
    free(out);
    return bad;
}

/* A wrong result ends the program at once: the other members would
 * otherwise wait in the next collective for this one. */
static void must(int bad)
{
    if (bad) {
        fflush(stdout);
        exit(1);
    }
}

/* Every size and root of one algorithm spec. */
static int run_spec(const char *op, const char *spec)
{
    int n = RCCE_num_ues(), bad = 0;
    int roots[RCCE_MAXNP], nroots = 0;

    if (scc_coll_set(op, spec)) {
        printf("FAIL ue %d: scc_coll_set(%s, %s): %s\n", RCCE_ue(), op, spec, scc_coll_error());
        must(1);
    }
    if (all_roots) {
        for (int r = 0; r < n; r++)
            roots[nroots++] = r;
    } else {
        /* first, last and a middle one (for stop: s = 1, n and n / 2) */
        roots[nroots++] = 0;
        if (n > 1)
            roots[nroots++] = n - 1;
        if (n > 2)
            roots[nroots++] = n / 2;
    }
    if (!strcmp(op, "barrier") || !strcmp(op, "allreduce") || !strcmp(op, "allgather") ||
        !strcmp(op, "alltoall") || !strcmp(op, "reduce_scatter"))
        nroots = 1;             /* no root */
    for (int s = 0; s < nsizes && !bad; s++)
        for (int r = 0; r < nroots && !bad; r++)
            for (int rep = 0; rep < reps && !bad; rep++)
                must(bad = one(op, spec, sizes[s], roots[r], rep));
    if (RCCE_ue() == 0)
        printf("USED %s %s\n", op, scc_coll_used(op));
    scc_coll_set(op, "auto");
    return bad;
}

static int run_op(const char *op)
{
    const char *names[MAXALG];
    int n = scc_coll_names(op, names, MAXALG), bad = 0;
    char spec[64];

    if (n < 0) {
        printf("FAIL: unknown collective %s\n", op);
        return 1;
    }
    for (int a = 0; a < n && a < MAXALG && !bad; a++) {
        bad = run_spec(op, names[a]);
        /* a tree with a shape: the cost-shaped one too */
        snprintf(spec, sizeof(spec), "%s:shape=1", names[a]);
        if (!bad && !scc_coll_set(op, spec)) {
            scc_coll_set(op, "auto");
            bad = run_spec(op, spec);
        }
        /* an algorithm with a fan-out k: every k the members allow */
        snprintf(spec, sizeof(spec), "%s:k=1", names[a]);
        if (scc_coll_set(op, spec))
            continue;                           /* no parameter k */
        scc_coll_set(op, "auto");
        for (int i = 0; i < nks && !bad; i++) {
            if (ks[i] >= RCCE_num_ues())
                continue;
            snprintf(spec, sizeof(spec), "%s:k=%d", names[a], ks[i]);
            bad = run_spec(op, spec);
        }
    }
    return bad;
}

/* N calls of pseudo-random (collective, algorithm, size, root), the same
 * sequence on every member. */
static int mix(long count)
{
    static const int mix_sizes[] = {0, 1, 31, 32, 33, 100, 3071, 3104, 5000, 20000};
    uint32_t x = 2463534242u;
    int n = RCCE_num_ues();

    for (long i = 0; i < count; i++) {
        const char *names[MAXALG];
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        const char *op = ops[x % NOPS];
        int na = scc_coll_names(op, names, MAXALG);
        const char *alg = names[(x >> 8) % (unsigned)na];
        char this[64];
        snprintf(this, sizeof(this), "%s:%s", op, alg);
        if (exclude && !strcmp(exclude, this)) {
            i--;
            continue;
        }
        int size = mix_sizes[(x >> 16) % 10], root = (int)((x >> 20) % (unsigned)n);
        if (scc_coll_set(op, alg)) {
            printf("FAIL ue %d: scc_coll_set(%s, %s): %s\n", RCCE_ue(), op, alg,
                   scc_coll_error());
            must(1);
        }
        must(one(op, alg, size, root, (int)(i & 7)));
        scc_coll_set(op, "auto");
    }
    return 0;
}

static void parse_list(const char *s, int *out, int *n, int max)
{
    *n = 0;
    while (*s && *n < max) {
        out[(*n)++] = atoi(s);
        while (*s && *s != ',')
            s++;
        if (*s)
            s++;
    }
}

int RCCE_APP(int argc, char **argv)
{
    int bad = 0, nops = 0;
    long mixes = 0;
    const char *which[32];

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    memcpy(sizes, default_sizes, sizeof(default_sizes));
    nsizes = (int)(sizeof(default_sizes) / sizeof(default_sizes[0]));
    ks[0] = 1, ks[1] = 2, ks[2] = 7, ks[3] = 47, nks = 4;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "sizes=", 6))
            parse_list(argv[i] + 6, sizes, &nsizes, 64);
        else if (!strncmp(argv[i], "ks=", 3))
            parse_list(argv[i] + 3, ks, &nks, 16);
        else if (!strcmp(argv[i], "roots=all"))
            all_roots = 1;
        else if (!strncmp(argv[i], "reps=", 5))
            reps = atoi(argv[i] + 5);
        else if (!strncmp(argv[i], "dist=", 5))
            stop_dist = argv[i] + 5;
        else if (!strncmp(argv[i], "names=", 6)) {
            const char *names[MAXALG];
            int na = scc_coll_names(argv[i] + 6, names, MAXALG);
            if (RCCE_ue() == 0) {
                printf("NAMES %s", argv[i] + 6);
                for (int a = 0; a < na && a < MAXALG; a++)
                    printf(" %s", names[a]);
                printf("\n");
            }
            RCCE_finalize();
            return na < 0;
        } else if (!strncmp(argv[i], "exclude=", 8))
            exclude = argv[i] + 8;
        else if (!strcmp(argv[i], "fast"))
            fast = 1;
        else if (!strncmp(argv[i], "mix=", 4))
            mixes = atol(argv[i] + 4);
        else if (nops < 32)
            which[nops++] = argv[i];
    }
    if (mixes)
        bad = mix(mixes), nops = 0;
    else if (!nops)
        for (int o = 0; o < NOPS; o++)
            which[nops++] = ops[o];
    for (int i = 0; i < nops && !bad; i++) {
        char op[32];
        const char *colon = strchr(which[i], ':');
        snprintf(op, sizeof(op), "%.*s", colon ? (int)(colon - which[i]) : (int)strlen(which[i]),
                 which[i]);
        bad = colon ? run_spec(op, colon + 1) : run_op(op);
    }
    if (bad)
        return 1;
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 0)
        printf("PASS coll (%d UEs, %ld calls)\n", RCCE_num_ues(), calls);
    RCCE_finalize();
    return 0;
}
