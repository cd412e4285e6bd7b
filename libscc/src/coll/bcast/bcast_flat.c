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
 * per chunk at the root. Each member counts the chunks it is done with in
 * a word of its own in the root's region (struct oc_how .packed), so the
 * root reads 47 members' dones in 6 line reads, not 47: with a line each
 * they took the root about 12 % of a chunk's time at 48 members, and the
 * root was the pipeline's slowest member. The 6 lines come off the
 * chunk buffers (114 of the region's 120 lines: 2 x 57). `bufs` > 2 lets
 * the root run further ahead, only with smaller chunks (README.md).
 */
#include "../engine/oc.h"

enum { FLAT_P_CHUNK, FLAT_P_BUFS };

static void build(const struct coll_call *c, int k, struct oc_tree *t)
{
    (void)k;
    oc_tree_kary(c, c->n > 1 ? c->n - 1 : 1, t);
    for (int j = 0; j < t->n; j++)
        t->keep[j] = 0;
}

/* the region's lines less the root's done words */
#define FLAT_LINES (OC_REGION_LINES - OC_PACKED_LINES)

static int check(const struct coll_call *c, char *why, size_t size)
{
    if (c->p[FLAT_P_CHUNK] * c->p[FLAT_P_BUFS] > FLAT_LINES) {
        snprintf(why, size, "chunk=%ld x bufs=%ld lines: more than the region's %d "
                 "(%d less %d of done words)", c->p[FLAT_P_CHUNK], c->p[FLAT_P_BUFS],
                 FLAT_LINES, OC_REGION_LINES, OC_PACKED_LINES);
        return -1;
    }
    return 0;
}

static int run(struct coll_call *c)
{
    return oc_bcast_how(c, build, 0, (int)c->p[FLAT_P_CHUNK],
                        (struct oc_how){ .direct = 0, .bufs = (int)c->p[FLAT_P_BUFS],
                                         .batch = 1, .packed = 1 });
}

const struct coll_alg coll_bcast_flat = {
    .name = "flat", .op = COLL_BCAST, .fn = run, .check = check, .nparam = 2,
    .param = {
        [FLAT_P_CHUNK] = { "chunk", 1, FLAT_LINES / 2, FLAT_LINES / 2,
                           "lines per chunk buffer" },
        [FLAT_P_BUFS] = { "bufs", 2, FLAT_LINES, 2,
                          "chunk buffers in the root's region (chunk x bufs <= 114 lines)" },
    },
    .doc = "every member gets each chunk from the root's MPB into private memory (ours)",
};
