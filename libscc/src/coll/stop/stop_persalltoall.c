/*
 * stop_persalltoall.c - 003's PersAlltoAll (sec. 2, sec. 5.1): every
 * source sends its own block to every other member directly, in p-1
 * permutation rounds: partner i XOR j (003's exclusive-or permutations)
 * when p is a power of two, i + j mod p otherwise. Blocks are never
 * combined; no member waits on another's progress.
 * repos=1 first moves the sources to E(s), which 003 sec. 5.3 conjectures
 * suits MPI_AlltoAll on the T3D.
 */
#include "../engine/stop.h"

static int run(struct coll_call *c)
{
    struct stop st;
    uint64_t own[RCCE_MAXNP];
    int n = c->n, pow2 = !(n & (n - 1)), err;

    if ((err = stop_begin_at(&st, c, "E")))
        return err;
    for (int r = 0; r < n; r++)
        own[r] = st.hold[r];
    for (int j = 1; j < n; j++) {
        int any = 0;
        for (int i = 0; i < n; i++)
            if (own[i]) {
                stop_add(&st, i, pow2 ? i ^ j : (i + j) % n, own[i]);
                any = 1;
            }
        if (any && (err = stop_round(&st)))
            return err;
    }
    return RCCE_SUCCESS;
}

const struct coll_alg coll_stop_persalltoall = {
    .name = "persalltoall", .op = COLL_STOP, .fn = run, .nparam = 1,
    .param = {[STOP_P_REPOS] = {"repos", 0, 2, 0, "move the sources to E(s) first (003 sec. 5.3): "
               "0 no, 1 yes, 2 if s<p/2, p>16, 1K<=L<=16K"}},
    .doc = "003 PersAlltoAll: each source sends its block to each member, p-1 XOR/shift rounds",
};
