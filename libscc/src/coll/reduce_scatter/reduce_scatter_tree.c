/*
 * reduce_scatter_tree.c - ours: the one-sided reduction tree of the
 * whole vector to rank 0 (reduce_tree.c), then a one-sided scatter: rank 0
 * leaves the result in its MPB region, a region at a time, and each
 * member gets its own block straight from there. For short blocks the
 * n - 1 dependent rounds of the bucket ring become a few signal hops.
 *
 * Flow control (sig.c), per region-full: counter 0 from rank 0 to every
 * member whose block it holds, "your part is in"; counter 1 back, "read".
 * Rank 0 refills the region only when every reader of the last fill is
 * done, and returns after the last fill's readers.
 */
#include <string.h>

#include "../engine/tree.h"

static int run(struct coll_call *c)
{
    size_t all = c->bytes * (size_t)c->n, rs = coll_region_size();
    struct coll_call r = *c;
    char *acc = NULL;
    t_vcharp region = NULL;
    int err, n = c->n, root = coll_ue(c, 0);

    if (n == 1) {
        memmove(c->out, c->in, c->bytes);
        return RCCE_SUCCESS;
    }
    if (c->me == 0) {
        /* OUTER: held across the scatter; nothing below takes a slot */
        if (!(acc = scc_scratch(SCC_SCRATCH_OUTER, all)))
            return scc_error(RCCE_ERROR_MALLOC);
        if (!(region = coll_region()))
            return scc_error(RCCE_REJECTED);
    }
    r.op = COLL_REDUCE;
    r.root = 0;
    r.bytes = all;
    r.num = c->num * n;
    err = coll_tree_reduce(&r, TREE_K(c), (int)c->p[TREE_P_CHUNK], acc);
    if (err)
        return err;
    for (size_t base = 0; base < all; base += rs) {
        size_t end = all - base < rs ? all : base + rs;
        int lo = (int)(base / c->bytes), hi = (int)((end - 1) / c->bytes);

        if (c->me == 0) {
            plat_put(region, acc + base, end - base);
            plat_flush(my_mpb());
            for (int i = lo < 1 ? 1 : lo; i <= hi; i++)
                sig_add(coll_ue(c, i), 0, 1);
            for (int i = lo < 1 ? 1 : lo; i <= hi; i++) {
                sig_wait(coll_ue(c, i), 1, 1);
                sig_consume(coll_ue(c, i), 1, 1);
            }
        } else if (c->me >= lo && c->me <= hi) {
            size_t from = (size_t)c->me * c->bytes, to = from + c->bytes;

            from = from > base ? from : base;
            to = to < end ? to : end;
            sig_wait(root, 0, 1);
            sig_consume(root, 0, 1);
            plat_get(c->out + (from - (size_t)c->me * c->bytes),
                     coll_region_of(root) + (from - base), to - from);
            sig_add(root, 1, 1);
        }
    }
    if (c->me == 0)
        memcpy(c->out, acc, c->bytes);
    return RCCE_SUCCESS;
}

const struct coll_alg coll_reduce_scatter_tree = {
    .name = "tree", .op = COLL_REDUCE_SCATTER, .fn = run, .nparam = 3,
    .param = { TREE_PARAMS },
    .doc = "ours: one-sided tree reduce of the whole vector to rank 0, then "
           "each member gets its block from rank 0's MPB region",
};
