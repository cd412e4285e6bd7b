/*
 * alltoall_pull.c - ours: every member reads its block of each other
 * member's input straight out of that member's DRAM (scc_peer_read: the
 * kernel points a LUT entry of the reader's at the owner's memory and
 * reads it as MPBT lines), so that no block passes through an MPB.
 *
 * Why: through an MPB (every other alltoall here and in the papers) each
 * line of a block is read from the sender's DRAM, written into an MPB,
 * read out of it over the mesh and written into the receiver's DRAM;
 * from 4 KiB blocks on that path is the bound (README, "Where they
 * stop"). Read from the owner's DRAM, a line is read once and written
 * once: the MPB write, the MPB read and their instructions are gone.
 *
 * What it needs: the owner's consent, a grant (scc_grant_cores): each
 * member lets the other members' cores read its input, once a call, and
 * revokes that after the "done with your input" round below, so that
 * nobody else ever reads it and nobody reads it after the call. A member
 * that cannot grant (its grant table full) says its input is not ready,
 * as below. And the chip keeps no coherence, so a reader sees only what
 * is in DRAM. An input in pages marked MPBT (scc_copy_mark_mpbt) is
 * there: its stores went through the write-combine buffer, never into
 * the L2, and its owner sends that buffer out before it says the input
 * is ready. Any other input may still sit dirty in its owner's L2, which
 * no instruction writes back (the copy paper reads 256 KiB of other data,
 * 002 section IV: about 8,192 DRAM line reads a member, milliseconds):
 * then every member runs 004's pairwise exchange (pairwise_relaxed's
 * defaults) instead, after the one signal round that tells them. On the
 * host, whose threads share coherent memory, every input is ready.
 *
 * Protocol (sig.c): each member first signals every other one on
 * counter 0, with its input's address, its block size and whether the
 * input is ready, then waits for all of theirs: every member decides from
 * the same n values. Pulling, member i reads from i + 1, i + 2, ... in
 * turn, so that in each step every owner has one reader; then it signals
 * each owner on counter 1 "done with your input", and returns once every
 * reader is done with its own, so that nobody reads its input after it
 * returns. A block size that differs anywhere is
 * RCCE_ERROR_MESSAGE_LENGTH on every member, which all still end the
 * protocol.
 */
#include <string.h>

#include "../engine/bucket.h"

#define READY 0x80000000u       /* in the address's high word */

/* Whether the owners of the other members may read this member's input
 * of len bytes from DRAM (above). */
static int input_ready(const char *in, size_t len)
{
#ifdef SCC_HOST
    (void)in, (void)len;
    return 1;
#else
    return scc_mpbt_nranges && scc_mpbt_covers(in, len);
#endif
}

/* Let the cores of the other members (ue[0..m-1]) read the input, len
 * bytes: a grant id, 0 on the host (threads need none), or -errno. */
static int expose(const char *in, size_t len, const int *ue, int m)
{
#ifdef SCC_HOST
    (void)in, (void)len, (void)ue, (void)m;
    return 0;
#else
    uint64_t cores = 0;

    for (int i = 0; i < m; i++)
        cores |= (uint64_t)1 << scc_self.core_of[ue[i]];
    return scc_grant_cores(in, len, SCC_GRANT_READ, cores);
#endif
}

static void withdraw(int id)
{
#ifdef SCC_HOST
    (void)id;
#else
    if (id > 0)
        scc_revoke(id);
#endif
}

static int read_block(int ue, char *dst, uintptr_t src, size_t b)
{
#ifdef SCC_HOST
    (void)ue;
    memcpy(dst, (const void *)src, b);
    return 0;
#else
    return scc_peer_read(scc_self.core_of[ue], dst, (const void *)src, b);
#endif
}

static int run(struct coll_call *c)
{
    int n = c->n, me = c->me, ue[RCCE_MAXNP], m = 0, err = RCCE_SUCCESS, all = 1, id = -1;
    size_t b = c->bytes;
    uint64_t at = (uint64_t)(uintptr_t)c->in;
    /* the input's address (64 bits on the host, whose user addresses leave
     * the top bit free for "ready"), and the block size */
    uint32_t mine[3] = { (uint32_t)at, (uint32_t)(at >> 32), (uint32_t)b };
    uintptr_t from[RCCE_MAXNP];

    coll_copy_own(c->out + (size_t)me * b, c->in + (size_t)me * b, b);
    if (n == 1 || !b)
        return RCCE_SUCCESS;
    for (int s = 1; s < n; s++)
        ue[m++] = coll_ue(c, (me + s) % n);
    /* granted before the signal that says where the input is */
    if (input_ready(c->in, (size_t)n * b) && (id = expose(c->in, (size_t)n * b, ue, m)) >= 0)
        mine[1] |= READY;
    /* the input's last MPBT line out of the write-combine buffer first */
    plat_flush(my_mpb());
    for (int i = 0; i < m; i++)
        sig_add_vals(ue[i], 0, mine);
    for (int i = 0; i < m; i++) {
        uint32_t v[3];

        sig_wait(ue[i], 0, 1);
        sig_get_vals(ue[i], v);
        sig_consume(ue[i], 0, 1);
        from[i] = (uintptr_t)(((uint64_t)(v[1] & ~READY) << 32) | v[0]);
        all &= (v[1] & READY) != 0;
        if (v[2] != (uint32_t)b)
            err = RCCE_ERROR_MESSAGE_LENGTH;
    }
    if (err == RCCE_SUCCESS && !all) {
        withdraw(id);   /* nobody pulls */
        return coll_pairwise_alltoall(c, (struct coll_prim){ 1, 1 }, 0);
    }
    for (int i = 0; i < m && err == RCCE_SUCCESS; i++) {
        int r = (me + 1 + i) % n;

        if (read_block(ue[i], c->out + (size_t)r * b, from[i] + (size_t)me * b, b))
            err = RCCE_ERROR_SOURCE;
    }
    sig_add_each(ue, m, 1, 1);
    for (int i = 0; i < m; i++) {
        sig_wait(ue[i], 1, 1);
        sig_consume(ue[i], 1, 1);
    }
    withdraw(id);       /* every reader is done with it */
    return err == RCCE_SUCCESS ? err : scc_error(err);
}

const struct coll_alg coll_alltoall_pull = {
    .name = "pull", .op = COLL_ALLTOALL, .fn = run,
    .doc = "ours: each member reads its block of every input straight from the owner's "
           "DRAM through a LUT window; pairwise_relaxed unless every input is in MPBT pages",
};
