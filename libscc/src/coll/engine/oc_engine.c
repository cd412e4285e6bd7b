/*
 * oc_engine.c - the pipelined one-sided tree broadcast of OC-Bcast (001
 * section 4), for any tree (oc.h).
 *
 * Every member but the root, for each chunk i (buffer i % 2 of a region;
 * i % bufs with more buffers, struct oc_how):
 * waits for its notification (counter 0 from its notifier: the parent or
 * an earlier sibling), passes it on to its own notification children,
 * then either gets the chunk from the parent's region into its own region
 * (inner nodes and kept leaves), signals done to the parent (counter 1),
 * notifies its children and copies the chunk to private memory; or gets
 * it straight into private memory and signals done. A node overwrites
 * buffer i % 2 only after all its children signalled done for chunk i - 2
 * (i - bufs),
 * and returns only after they did for its last chunk, so nobody reads its
 * region after it returns. Every signal sent in a call is consumed in it.
 * In direct mode (struct oc_how) the notifier is always the parent,
 * which signals every child itself, and an inner node signals its
 * children before its done to its parent.
 *
 * The root's size travels in value words 0 and 1 of the parent's line in
 * each child's MPB, written before the first notification; the parent
 * cannot run ahead into the next call (it waits for our done signals), so
 * the words are still this call's when we read them. Everybody runs the
 * root's number of chunks, so a member with another size still completes
 * the protocol and then reports RCCE_ERROR_MESSAGE_LENGTH.
 */
#include <string.h>

#include "oc.h"

void oc_tree_kary(const struct coll_call *c, int k, struct oc_tree *t)
{
    t->n = c->n;
    for (int j = 0; j < c->n; j++) {
        t->rank[j] = (c->root + j) % c->n;
        t->up[j] = j ? (j - 1) / k : -1;
        t->keep[j] = 1;
    }
}

int oc_tile(const struct coll_call *c, int r)
{
    int cpt = scc_self.facts.cores_per_tile;

    return RCCE_ue_core(coll_ue(c, r)) / (cpt > 0 ? cpt : 1);
}

/* Wait for, and consume, one done signal per child. */
static void wait_done(const int *kid, int nkids, uint32_t chunks)
{
    for (int j = 0; j < nkids; j++) {
        sig_wait(kid[j], 1, chunks);
        sig_consume(kid[j], 1, chunks);
    }
}

/*
 * Packed done words (struct oc_how .packed): wait until the words of
 * members 1..n-1 all count @chunks. A word is its member's alone, and
 * counts from 0 in each call (the root clears them before its first
 * notification; every word of a call is waited for in it).
 */
static void wait_packed(t_vcharp done, int n, uint32_t chunks)
{
    unsigned int spins = 0;

    for (int j = 1; j < n;) {
        plat_invalidate();
        while (j < n && plat_load(done + 4 * (j - 1)) >= chunks)
            j++;
        if (j < n)
            coll_wait_step(&spins);
    }
}

/*
 * Where this member sits in the tree: its kids, whom it waits on, whom it
 * forwards notifications to. Building the tree and scanning it is about a
 * thousand instructions on 48 members, and the root's are on every
 * call's critical path: so the last plan is kept, for as long as the
 * call's tree is the same (same builder, k, root, and members).
 */
struct oc_plan {
    oc_build_fn *build;
    const RCCE_COMM *comm;
    int k, n, me, root, direct, label, member[RCCE_MAXNP];
    int pos, nkids, kid[RCCE_MAXNP], nfwd, fwd[2], parent, notifier, keep;
};

static SCC_TLS struct oc_plan last;

static int same_plan(const struct coll_call *c, oc_build_fn *build, int k, int direct)
{
    if (last.build != build || last.comm != c->comm || last.k != k || last.direct != direct ||
        last.n != c->n || last.me != c->me || last.root != c->root)
        return 0;
    /* the members of one labelled communicator do not change (RCCE.h):
     * comparing them all was about 250 instructions on the root's
     * critical path at 48 members */
    if (c->comm->label && last.label == c->comm->label)
        return 1;
    for (int j = 0; j < c->n; j++)
        if (last.member[j] != c->comm->member[j])
            return 0;
    return 1;
}

static int make_plan(const struct coll_call *c, oc_build_fn *build, int k, int direct,
                     struct oc_plan *p)
{
    struct oc_tree t;
    int sib[RCCE_MAXNP], nsib = 0, s = -1;

    p->build = NULL;
    build(c, k, &t);
    p->pos = -1;
    for (int j = 0; j < t.n; j++)
        if (t.rank[j] == c->me)
            p->pos = j;
    if (p->pos < 0)
        return scc_error(RCCE_ERROR_ID);
    p->nkids = p->nfwd = 0;
    p->parent = p->notifier = -1;
    for (int j = 0; j < t.n; j++) {
        if (t.up[j] == p->pos)
            p->kid[p->nkids++] = coll_ue(c, t.rank[j]);
        if (p->pos && t.up[j] == t.up[p->pos]) {
            if (j == p->pos)
                s = nsib;
            sib[nsib++] = coll_ue(c, t.rank[j]);
        }
    }
    if (p->pos) {
        p->parent = coll_ue(c, t.rank[t.up[p->pos]]);
        p->notifier = s < 2 || direct ? p->parent : sib[(s - 2) / 2];
        for (int j = 2 * s + 2; !direct && j < nsib && j <= 2 * s + 3; j++)
            p->fwd[p->nfwd++] = sib[j];
    }
    p->keep = p->nkids > 0 || t.keep[p->pos];
    p->comm = c->comm;
    p->k = k;
    p->direct = direct;
    p->n = c->n;
    p->me = c->me;
    p->root = c->root;
    p->label = c->comm->label;
    for (int j = 0; j < c->n; j++)
        p->member[j] = c->comm->member[j];
    p->build = build;
    return RCCE_SUCCESS;
}

/* Notify the kids of a chunk: the first two (binary mode, the siblings pass
 * it on) or every one (direct). With chunk 0 goes the root's size, in the
 * value words of the same line as the signal, so that in direct mode the
 * write-combine buffer sends the size and the signal as one line write. */
static void notify_kids(const int *kid, int nkids, int direct, int first, size_t bytes)
{
    int upto = direct ? nkids : nkids < 2 ? nkids : 2;

    if (!direct && first)
        for (int j = 0; j < nkids; j++) {
            sig_set_val(kid[j], 0, (uint32_t)bytes);
            sig_set_val(kid[j], 1, (uint32_t)((uint64_t)bytes >> 32));
        }
    for (int j = 0; j < upto; j++) {
        if (direct && first) {
            sig_set_val(kid[j], 0, (uint32_t)bytes);
            sig_set_val(kid[j], 1, (uint32_t)((uint64_t)bytes >> 32));
        }
        sig_add(kid[j], 0, 1);
    }
}

int oc_bcast(struct coll_call *c, oc_build_fn *build, int k, int lines)
{
    return oc_bcast_how(c, build, k, lines, (struct oc_how){ .direct = 0, .bufs = 2, .batch = 0 });
}

int oc_bcast_how(struct coll_call *c, oc_build_fn *build, int k, int lines, struct oc_how how)
{
    int direct = how.direct, bufs = how.bufs;
    void (*get_private)(void *, t_vcharp, size_t) = how.batch ? plat_get_batch : plat_get;
    const int *kid, *fwd;
    int pos, nkids, nfwd, keep, parent, notifier, err = RCCE_SUCCESS;
    size_t cb = (size_t)lines * SCC_MPB_LINE, bytes = c->bytes, nchunks, i;
    t_vcharp mine = NULL, theirs = NULL;

    if (c->n == 1)
        return RCCE_SUCCESS;
    if (lines < 1 || bufs < 2 ||
        lines * bufs > OC_REGION_LINES - (how.packed ? OC_PACKED_LINES : 0))
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    if (!same_plan(c, build, k, direct) && (err = make_plan(c, build, k, direct, &last)))
        return err;
    pos = last.pos;
    kid = last.kid;
    nkids = last.nkids;
    fwd = last.fwd;
    nfwd = last.nfwd;
    parent = last.parent;
    notifier = last.notifier;
    keep = last.keep;
    /* packed done words are the root's, from its children only */
    if (how.packed && (pos ? keep || parent != coll_ue(c, c->root) : nkids != c->n - 1))
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    if (pos)
        theirs = coll_region_of(parent);
    if (keep && !(mine = coll_region()))
        return scc_error(RCCE_REJECTED);

    if (!pos) {
        nchunks = bytes ? (bytes + cb - 1) / cb : 1;
        if (how.packed) {
            for (int j = 1; j < c->n; j++)
                plat_store_relaxed(mine + OC_PACKED_OFF + 4 * (j - 1), 0);
            plat_flush(my_mpb());
        }
        for (i = 0; i < nchunks; i++) {
            size_t off = i * cb, len = bytes - off < cb ? bytes - off : cb;

            if (i >= (size_t)bufs && how.packed)
                wait_packed(mine + OC_PACKED_OFF, c->n, (uint32_t)(i - bufs + 1));
            else if (i >= (size_t)bufs)
                wait_done(kid, nkids, 1);
            plat_put(mine + (i % bufs) * cb, c->out + off, len);
            plat_flush(my_mpb());
            notify_kids(kid, nkids, direct, !i, bytes);
        }
        if (how.packed)
            wait_packed(mine + OC_PACKED_OFF, c->n, (uint32_t)nchunks);
        else
            wait_done(kid, nkids, nchunks < (size_t)bufs ? nchunks : (size_t)bufs);
        return RCCE_SUCCESS;
    }

    /* the first chunk's destination lines, read while the data is on its
     * way: the last leaf's read of them was on every call's critical path */
    plat_prefetch_dst(c->out, c->bytes < cb ? c->bytes : cb);
    nchunks = 1;
    for (i = 0; i < nchunks; i++) {
        size_t off = i * cb, len, mylen;

        sig_wait(notifier, 0, 1);
        sig_consume(notifier, 0, 1);
        for (int j = 0; j < nfwd; j++)
            sig_add(fwd[j], 0, 1);
        if (!i) {
            bytes = sig_get_val(parent, 0) | (uint64_t)sig_get_val(parent, 1) << 32;
            nchunks = bytes ? (bytes + cb - 1) / cb : 1;
            if (bytes != c->bytes)
                err = RCCE_ERROR_MESSAGE_LENGTH;
        }
        len = bytes - off < cb ? bytes - off : cb;
        mylen = off >= c->bytes ? 0 : c->bytes - off < len ? c->bytes - off : len;
        if (!keep) {
            get_private(c->out + off, theirs + (i % bufs) * cb, mylen);
            if (how.packed) {
                plat_store(theirs + OC_PACKED_OFF + 4 * (pos - 1), (uint32_t)(i + 1));
                plat_flush(my_mpb());
            } else {
                sig_add(parent, 1, 1);
            }
            continue;
        }
        if (i >= (size_t)bufs)
            wait_done(kid, nkids, 1);
        plat_get((void *)(mine + (i % bufs) * cb), theirs + (i % bufs) * cb, len);
        plat_flush(my_mpb());
        if (!direct)
            sig_add(parent, 1, 1);
        notify_kids(kid, nkids, direct, !i, bytes);
        /* direct: the children first, they are the longer path */
        if (direct)
            sig_add(parent, 1, 1);
        get_private(c->out + off, mine + (i % bufs) * cb, mylen);
    }
    wait_done(kid, nkids, nchunks < (size_t)bufs ? nchunks : (size_t)bufs);
    return err ? scc_error(err) : RCCE_SUCCESS;
}
