/*
 * reduce_tree.c - ours: a one-sided pipelined reduction tree, binomial
 * (RCCE_comm's shape), k-ary (the mirror of OC-Bcast, 001 section 4) or
 * shaped by the model's costs (tree_shape.c).
 * A parent's MPB region is cut into two slots per child; each child
 * writes its partial result, a chunk at a time and the slots in turn,
 * straight into its slots (remote MPB writes are posted: the writer does
 * not wait for them), and the parent combines the slots from its own MPB
 * into its partial result, the last child's straight into its own slots
 * at its parent (no copy after the sum). Against
 * RCCE_comm's binomial tree of blocking sends, a hop costs one remote
 * write and one signal instead of a send/recv handshake with a remote
 * read (README: measured results). In the binomial tree a node takes its
 * children smallest subtree first, so that each arrives about when the
 * node is done with the one before.
 *
 * Flow control (sig.c), counter 0 both ways: parent to child "your slot
 * is free for chunk j" (chunks 0 and 1 when the parent enters the call,
 * chunk j + 2 once it has combined chunk j; so a child never writes a
 * region its owner may still use for something else), child to parent
 * "chunk j is in your slot". Each slot starts with the child's element
 * count (HDR bytes): a parent whose count differs returns
 * RCCE_ERROR_MESSAGE_LENGTH instead of combining vectors cut
 * differently. (Not in a value word of the signal line: the child does
 * not wait after its last chunk, and its next collective may write
 * those words before the parent has read them.) A child's data lives
 * only in its parent's region, and a parent returns only after combining
 * every chunk of every child, so nobody writes a region after its owner
 * returned.
 *
 * A vector of at most 8 bytes (one double) skips the region: it travels
 * in the value words of the child's signal line (sig.c), which only the
 * child writes, so no "free" signal has to come first. The parent answers
 * each child with a "read" signal (counter 1), which the child waits for
 * before it returns: at once while later children still work, and the
 * last one, but at the root, after sending its own sum up.
 */
#include <stdbool.h>
#include <string.h>

#include "../engine/tree.h"

/* Bytes of one child's slot: the region shared by `kids` children, whole
 * lines, at most `lines`. */
static size_t slot_bytes(int kids, int lines)
{
    int per = (int)(coll_region_size() / SCC_MPB_LINE) / kids;

    return (size_t)(per < lines ? per : lines) * SCC_MPB_LINE;
}

/* This member's place: its children (their UEs), its parent's UE (-1 at
 * the root) and its index among its parent's children (its slots). */
struct place {
    int pos, nkids, up, slot;
    int kid[RCCE_MAXNP];
};

static void place_of(const struct coll_call *c, int k, struct place *pl)
{
    int n = c->n, sib[RCCE_MAXNP];

    pl->pos = (c->me - c->root + n) % n;
    pl->nkids = tree_kids(k, n, pl->pos, pl->kid);
    for (int i = 0; i < pl->nkids; i++)
        pl->kid[i] = coll_ue(c, (pl->kid[i] + c->root) % n);
    pl->up = -1;
    pl->slot = 0;
    if (pl->pos) {
        int par = tree_parent(k, n, pl->pos);

        pl->up = coll_ue(c, (par + c->root) % n);
        tree_kids(k, n, par, sib);
        while (sib[pl->slot] != pl->pos)
            pl->slot++;
    }
}

#define TINY 8                  /* bytes in value words 1 and 2 */
#define HDR 8                   /* a slot's element count, before the data */

/* Chunk j's slot in the parent's region, once the parent has freed it,
 * with the element count written at its head. */
static t_vcharp up_slot(const struct place *pl, size_t j, size_t sb, uint64_t count)
{
    t_vcharp slot = coll_region_of(pl->up) + (2 * (size_t)pl->slot + j % 2) * sb;

    sig_wait(pl->up, 0, 1);
    sig_consume(pl->up, 0, 1);
    plat_put(slot, &count, HDR);
    return slot;
}

static int tiny(const struct coll_call *c, const struct place *pl, char *out)
{
    int up = pl->up;
    union {
        uint64_t align;         /* combined as the element type */
        uint32_t w[2];
    } sum = { 0 }, part;
    uint32_t v[3];              /* value words: the element count, the sum */

    if (up < 0)
        plat_prefetch_dst(out, c->bytes);      /* plat_prefetch_dst: why */
    if (c->bytes == TINY)
        memcpy(sum.w, c->in, TINY);     /* two loads, not a byte loop */
    else
        memcpy(sum.w, c->in, c->bytes);
    for (int i = 0; i < pl->nkids; i++) {
        int ue = pl->kid[i];

        sig_wait(ue, 0, 1);
        sig_consume(ue, 0, 1);
        sig_get_vals(ue, v);
        if (i < pl->nkids - 1 || up < 0)
            sig_add(ue, 1, 1);  /* read: while later children still work */
        if (v[0] != (uint32_t)c->num)
            return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
        part.w[0] = v[1];
        part.w[1] = v[2];
        coll_combine((char *)sum.w, (const char *)part.w, c->num, c->type, c->rop);
    }
    if (up < 0) {
        memcpy(out, sum.w, c->bytes);
    } else {
        v[0] = (uint32_t)c->num;
        v[1] = sum.w[0];
        v[2] = sum.w[1];
        sig_add_vals(up, 0, v);
    }
    if (pl->nkids && up >= 0)
        sig_add(pl->kid[pl->nkids - 1], 1, 1);
    if (up >= 0) {
        sig_wait(up, 1, 1);
        sig_consume(up, 1, 1);
    }
    return RCCE_SUCCESS;
}

int coll_tree_reduce(const struct coll_call *c, int k, int lines, char *out)
{
    struct place pl;
    _Alignas(8) char acc[TREE_MAX_CHUNK * SCC_MPB_LINE];
    t_vcharp mine = NULL;
    size_t sb, cb;              /* bytes of a slot, of the data in it */
    uint64_t count = (uint64_t)c->num;

    if (c->n == 1) {
        memmove(out, c->in, c->bytes);
        return RCCE_SUCCESS;
    }
    place_of(c, k, &pl);
    if (c->bytes <= TINY)
        return tiny(c, &pl, out);
    /* one chunk size for the whole tree: the slots of the node with the
     * most children are the smallest */
    sb = slot_bytes(2 * tree_most_kids(k, c->n), lines);
    cb = sb - HDR;
    if (pl.nkids) {
        if (!(mine = coll_region()))
            return scc_error(RCCE_REJECTED);
        sig_add_each(pl.kid, pl.nkids, 0, c->bytes > cb ? 2 : 1);
    }
    /* A vector that fits acc is read whole before the first child's chunk
     * can arrive: read chunk by chunk, a later chunk's input lines would
     * come from DRAM while that chunk already waits in the slots. */
    bool whole = pl.nkids && c->bytes <= sizeof acc;

    if (whole) {
        if (pl.up < 0)
            plat_prefetch_dst(out, c->bytes);
        plat_copy(pl.up < 0 ? out : acc, c->in, c->bytes);
    }
    for (size_t o = 0, j = 0; o < c->bytes; o += cb, j++) {
        size_t len = c->bytes - o < cb ? c->bytes - o : cb;
        const char *part = c->in + o;
        /* the root sums straight into out, its lines read first: stores
         * into lines not cached go to DRAM one by one (plat_get) */
        char *sum = pl.up < 0 ? out + o : whole ? acc + o : acc;
        t_vcharp up = NULL;     /* the parent's slot, once free and headed */

        if (pl.nkids) {
            if (!whole) {
                if (pl.up < 0)
                    plat_prefetch_dst(sum, len);
                plat_copy(sum, part, len);
            }
            for (int i = 0; i < pl.nkids; i++) {
                int ue = pl.kid[i];
                t_vcharp slot = mine + (2 * (size_t)i + j % 2) * sb;
                const char *in = (const char *)(slot + HDR);
                int num = (int)(len / c->tsize);

                /* sig_wait dropped the L1's copies of MPB lines: the slot's
                 * lines are read fresh, as plat_get would */
                sig_wait(ue, 0, 1);
                sig_consume(ue, 0, 1);
                if (plat_load_relaxed(slot) != (uint32_t)count)
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
                if (i == pl.nkids - 1 && pl.up >= 0) {
                    /* the last child's sum goes straight into the parent's
                     * slot: no copy of it after, on every level's path */
                    up = up_slot(&pl, j, sb, count);
                    coll_combine_to((char *)(up + HDR), sum, in, num, c->type, c->rop);
                } else {
                    coll_combine(sum, in, num, c->type, c->rop);
                }
                if (o + 2 * cb < c->bytes)
                    sig_add(ue, 0, 1);  /* this slot is free for chunk j + 2 */
            }
        }
        if (pl.up < 0)
            continue;
        if (!up) {
            up = up_slot(&pl, j, sb, count);
            plat_put(up + HDR, part, len);
        }
        plat_flush(my_mpb());
        sig_add(pl.up, 0, 1);
    }
    return RCCE_SUCCESS;
}

static int run(struct coll_call *c)
{
    return coll_tree_reduce(c, TREE_K(c), (int)c->p[TREE_P_CHUNK], c->out);
}

const struct coll_alg coll_reduce_tree = {
    .name = "tree", .op = COLL_REDUCE, .fn = run, .nparam = 3,
    .param = { TREE_PARAMS },
    .doc = "ours: pipelined binomial, k-ary or cost-shaped tree; children write their "
           "partial chunks into slots of their parent's MPB region",
};
