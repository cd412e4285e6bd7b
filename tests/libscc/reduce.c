/*
 * reduce.c - RCCE_reduce and RCCE_allreduce for every type and operator,
 * several lengths and roots, against a serial reference that each UE
 * computes itself (every UE's contribution is a function of its rank).
 * Values keep every sum and product exact in float and double, so the
 * comparison is exact whatever order the tree combines in. Also
 * RCCE_bcast from every root, small and large.
 */
#include "check.h"

static const int types[] = { RCCE_INT, RCCE_LONG, RCCE_FLOAT, RCCE_DOUBLE };
static const int ops[] = { RCCE_SUM, RCCE_MIN, RCCE_MAX, RCCE_PROD };
static const char *const tname[] = { "int", "long", "float", "double" };
static const char *const oname[] = { "sum", "min", "max", "prod" };

/* UE ue's element i: small integers; for products mostly +-1, sometimes 2. */
static int value(int ue, int i, int op)
{
    if (op == RCCE_PROD) {
        int v = (ue * 7 + i * 3) % 11 == 0 ? 2 : 1;
        return (ue + i) % 3 == 0 ? -v : v;
    }
    return (ue * 37 + i * 11) % 201 - 100;
}

static double reference(int np, int i, int op)
{
    double r = value(0, i, op);
    for (int ue = 1; ue < np; ue++) {
        double v = value(ue, i, op);
        switch (op) {
        case RCCE_SUM:  r += v; break;
        case RCCE_PROD: r *= v; break;
        case RCCE_MIN:  r = v < r ? v : r; break;
        case RCCE_MAX:  r = v > r ? v : r; break;
        }
    }
    return r;
}

static size_t tsize(int type)
{
    return type == RCCE_INT ? sizeof(int) : type == RCCE_LONG ? sizeof(long)
         : type == RCCE_FLOAT ? sizeof(float) : sizeof(double);
}

static void put(void *buf, int type, int i, double v)
{
    switch (type) {
    case RCCE_INT:    ((int *)buf)[i] = (int)v; break;
    case RCCE_LONG:   ((long *)buf)[i] = (long)v; break;
    case RCCE_FLOAT:  ((float *)buf)[i] = (float)v; break;
    case RCCE_DOUBLE: ((double *)buf)[i] = v; break;
    }
}

static double get(const void *buf, int type, int i)
{
    switch (type) {
    case RCCE_INT:    return ((const int *)buf)[i];
    case RCCE_LONG:   return (double)((const long *)buf)[i];
    case RCCE_FLOAT:  return ((const float *)buf)[i];
    default:          return ((const double *)buf)[i];
    }
}

static void one(int me, int np, int t, int o, int num, int root, int all)
{
    int type = types[t], op = ops[o];
    char *in = xmalloc(num * tsize(type)), *out = xmalloc(num * tsize(type));
    char *keep = xmalloc(num * tsize(type));

    for (int i = 0; i < num; i++) {
        put(in, type, i, value(me, i, op));
        put(out, type, i, -12345);
    }
    memcpy(keep, in, num * tsize(type));
    int err = all ? RCCE_allreduce(in, out, num, type, op, RCCE_COMM_WORLD)
                  : RCCE_reduce(in, out, num, type, op, root, RCCE_COMM_WORLD);
    CHECK(err == RCCE_SUCCESS, "%s %s %s num %d: error %d", all ? "allreduce" : "reduce",
          tname[t], oname[o], num, err);
    CHECK(memcmp(keep, in, num * tsize(type)) == 0, "inbuf changed");
    if (all || me == root) {
        for (int i = 0; i < num; i++) {
            double want = reference(np, i, op), got = get(out, type, i);
            if (got != want) {
                CHECK(0, "%s %s %s num %d root %d: [%d] = %g, want %g",
                      all ? "allreduce" : "reduce", tname[t], oname[o], num, root,
                      i, got, want);
                break;
            }
        }
    } else {
        CHECK(get(out, type, 0) == -12345, "reduce wrote a non-root outbuf");
    }
    free(in);
    free(out);
    free(keep);
}

int RCCE_APP(int argc, char **argv)
{
    static const int nums[] = { 1, 3, 700 };

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        printf("FAIL: RCCE_init\n");
        return 1;
    }
    int me = RCCE_ue(), np = RCCE_num_ues();
    for (int t = 0; t < 4; t++)
        for (int o = 0; o < 4; o++)
            for (int k = 0; k < 3; k++) {
                one(me, np, t, o, nums[k], 0, 1);
                one(me, np, t, o, nums[k], (t * 4 + o + k) % np, 0);
            }

    /* in place: inbuf == outbuf */
    int v[2] = { me, 1 }, want = np * (np - 1) / 2;
    CHECK_EQ(RCCE_allreduce((char *)v, (char *)v, 2, RCCE_INT, RCCE_SUM,
                            RCCE_COMM_WORLD), RCCE_SUCCESS);
    CHECK_EQ(v[0], want);
    CHECK_EQ(v[1], np);

    /* broadcast from every root: a short and a long message */
    size_t big = 70000;
    char *buf = xmalloc(big);
    for (int root = 0; root < np; root++) {
        size_t n = root % 2 ? 37 : big;
        if (me == root)
            fill(buf, n, (uint32_t)root);
        else
            memset(buf, 0, n);
        CHECK_EQ(RCCE_bcast(buf, n, root, RCCE_COMM_WORLD), RCCE_SUCCESS);
        CHECK(verify(buf, n, (uint32_t)root) < 0, "bcast from %d", root);
    }
    free(buf);
    return done("reduce");
}
