/*
 * bcast_oc.c - OC-Bcast (001 section 4): a pipelined k-ary tree in which
 * children get each chunk from their parent's MPB into their own MPB and
 * then into private memory, with binary notification trees, per-child
 * done signals and double buffering (engine: oc_engine.c). The tree is
 * the paper's: the children of relative rank i are ik+1 .. ik+k.
 *
 * Chunks: the paper used two 96-line buffers; our region has 120 lines,
 * so the largest double-buffered chunk is 60 lines.
 */
#include "../engine/oc.h"

static int run(struct coll_call *c)
{
    return oc_bcast(c, oc_tree_kary, (int)c->p[OC_P_K], (int)c->p[OC_P_CHUNK]);
}

const struct coll_alg coll_bcast_oc = {
    .name = "oc", .op = COLL_BCAST, .fn = run, .nparam = 2,
    .param = {
        [OC_P_K] = { "k", 1, 47, 7, "fan-out of the data tree (001 section 5.2: 7)" },
        [OC_P_CHUNK] = { "chunk", 1, OC_MAX_CHUNK, OC_MAX_CHUNK,
          "lines per chunk buffer, two buffers per region (001 used 96)" },
    },
    .doc = "OC-Bcast: one-sided pipelined k-ary tree through MPBs (001 section 4)",
};
