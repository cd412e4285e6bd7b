/*
 * bcast_scatter_allgather_relaxed.c - 004's optimized broadcast (Kohler & Radetzki, section IV):
 * RCCE_comm's long-message broadcast (binomial scatter of n pieces, then
 * the bucket allgather ring, 001 section 5.3.2) with 004's steps
 * selectable: relaxed synchronization and RCCEnb in the ring (III.A-B)
 * and in the scatter, and balanced piece sizes (III.C). balanced=0 puts
 * the remainder in the root's piece, RCCE_comm's bucket sizing as 004
 * describes it for allreduce (an assumption for broadcast).
 */
#include <limits.h>

#include "../engine/bucket.h"

static int run(struct coll_call *c)
{
    struct coll_prim m = coll_prim_of(c);
    size_t off[RCCE_MAXNP], len[RCCE_MAXNP], o[RCCE_MAXNP], l[RCCE_MAXNP];
    int n = c->n, rel = (c->me - c->root + n) % n, low = 1, err;

    if (n == 1 || c->bytes > INT_MAX)
        return n == 1 ? RCCE_SUCCESS : scc_error(RCCE_ERROR_MESSAGE_LENGTH);
    coll_buckets((int)c->bytes, 1, n, (int)c->p[BUCKET_P_BALANCED], off, len);    /* by rel */
    while (rel ? !(rel & low) : low < n)
        low <<= 1;
    if (rel) {                  /* my subtree's pieces [rel, rel + low) */
        int end = rel + low < n ? rel + low : n;
        size_t b = off[end - 1] + len[end - 1] - off[rel];
        if ((err = coll_xchg(c, m, 0, NULL, 0, 0, c->out + off[rel], b,
                             (rel - low + c->root) % n)))
            return err;
    }
    for (int mask = low / 2; mask >= 1; mask /= 2) {
        int to = rel + mask, end = rel + 2 * mask < n ? rel + 2 * mask : n;
        if (to >= n)
            continue;
        size_t b = off[end - 1] + len[end - 1] - off[to];
        if ((err = coll_xchg(c, m, 1, c->out + off[to], b, (to + c->root) % n,
                             NULL, 0, 0)))
            return err;
    }
    for (int r = 0; r < n; r++) {       /* the ring runs on ranks */
        o[r] = off[(r - c->root + n) % n];
        l[r] = len[(r - c->root + n) % n];
    }
    return coll_bucket_ag(c, m, c->out, o, l, -1);
}

const struct coll_alg coll_bcast_scatter_allgather_relaxed = {
    .name = "scatter_allgather_relaxed", .op = COLL_BCAST, .fn = run, .nparam = 3,
    .param = { [BUCKET_P_RELAXED] = { "relaxed", 0, 1, 1, "1: start send and receive, wait once per ring round (004 III.A, Alg. 2); 0: RCCE_comm odd-even order (Alg. 1)" },
               [BUCKET_P_NB] = { "nb", 0, 1, 1, "1: RCCEnb lightweight primitives (004 III.B); 0: iRCCE (relaxed=1) or blocking RCCE (relaxed=0)" },
               [BUCKET_P_BALANCED] = { "balanced", 0, 1, 1, "1: first bytes%n pieces one byte larger (004 III.C); 0: remainder all in the root's piece" } },
    .doc = "binomial scatter + bucket allgather ring with 004's optimizations (004 section III, IV)",
};
