/*
 * bcast_flat.c - a one-sided broadcast in which every member gets each
 * chunk straight from the root's MPB into its private memory, in `bufs`
 * chunk buffers of the root's region. Ours.
 *
 * Why: for long messages a broadcast is a pipeline, and its rate is that
 * of its slowest member. A member that is an inner node of a tree copies
 * every line twice, parent MPB -> own MPB -> private memory; a leaf once.
 * On the chip the private write is the dear part: a fresh line costs its
 * read and, later, its write-back (001's o_mem_w, 0.46 us a line), next
 * to about 0.17 us for the MPB get. With every receiver a leaf each pays
 * about 0.65 us a line at best (49 MB/s, libscc/src/coll/README.md
 * derives it), where an inner node pays about 0.9 us. The root's port is
 * no limit: it serves a line in 5.7 ns (`timing-mpb-service-ps`), 47
 * readers in 0.27 us. The copies into private memory read a chunk's
 * destination lines first and then move it in one word copy
 * (plat_get_batch), without plat_get's loop per line. Notifications go
 * down binary trees among the members (the engine's), two signal writes
 * per chunk at the root; the root reads 47 done signals per chunk, which
 * is why chunks stay large: `bufs` > 2 lets the root run further ahead,
 * but with the region's 120 lines only with smaller chunks, and that cost
 * more than it gave (README.md).
 */
#include "oc.h"

enum { FLAT_P_CHUNK, FLAT_P_BUFS };

static void build(const struct coll_call *c, int k, struct oc_tree *t)
{
    (void)k;
    oc_tree_kary(c, c->n > 1 ? c->n - 1 : 1, t);
    for (int j = 0; j < t->n; j++)
        t->keep[j] = 0;
}

static int check(const struct coll_call *c, char *why, size_t size)
{
    if (c->p[FLAT_P_CHUNK] * c->p[FLAT_P_BUFS] > OC_REGION_LINES) {
        snprintf(why, size, "chunk=%ld x bufs=%ld lines: more than the region's %d",
                 c->p[FLAT_P_CHUNK], c->p[FLAT_P_BUFS], OC_REGION_LINES);
        return -1;
    }
    return 0;
}

static int run(struct coll_call *c)
{
    return oc_bcast_how(c, build, 0, (int)c->p[FLAT_P_CHUNK],
                        (struct oc_how){ .direct = 0, .bufs = (int)c->p[FLAT_P_BUFS],
                                         .batch = 1 });
}

const struct coll_alg coll_bcast_flat = {
    .name = "flat", .op = COLL_BCAST, .fn = run, .check = check, .nparam = 2,
    .param = {
        [FLAT_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK, "lines per chunk buffer" },
        [FLAT_P_BUFS] = { "bufs", 2, OC_REGION_LINES, 2,
                          "chunk buffers in the root's region (chunk x bufs <= 120 lines)" },
    },
    .doc = "every member gets each chunk from the root's MPB into private memory (ours)",
};
