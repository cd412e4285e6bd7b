/*
 * reduce_kary.c - ours: a one-sided pipelined k-ary reduction tree, the
 * mirror of OC-Bcast (001 section 4). Every member leaves its partial
 * result chunk in its own MPB region and signals its parent; the parent
 * gets each child's chunk straight from the child's region (coll_region_of),
 * combines it into its own and passes the sum up the same way. Against
 * RCCE_comm's binomial tree of blocking sends, a hop costs one signal
 * and one get instead of a send/recv handshake, and the k children of a
 * node work in parallel (README: measured results).
 *
 * Chunks alternate between the two halves of the region, so a child
 * writes chunk j + 1 while its parent still reads chunk j. Flow control
 * (sig.c), child to parent: counter 0 "chunk j is in half j % 2", with
 * the child's element count in value word 0 (a parent whose count
 * differs returns RCCE_ERROR_MESSAGE_LENGTH instead of combining vectors
 * cut differently); parent to child: counter 1 "I have read chunk j". A
 * child waits for the read of chunk j - 2 before writing its half, and
 * for every read before it returns, so nobody reads its region after.
 */
#include <string.h>

#include "kary.h"

int coll_kary_reduce(const struct coll_call *c, int k, int lines, char *out)
{
    int n = c->n, pos = (c->me - c->root + n) % n;
    int first = pos * k + 1, last = pos * k + k < n - 1 ? pos * k + k : n - 1;
    int up = pos ? coll_ue(c, ((pos - 1) / k + c->root) % n) : -1;
    size_t cb = (size_t)lines * SCC_MPB_LINE;
    _Alignas(8) char acc[KARY_MAX_CHUNK * SCC_MPB_LINE], tmp[KARY_MAX_CHUNK * SCC_MPB_LINE];
    t_vcharp mine = NULL;
    unsigned chunks = 0, reads = 0;

    if (n == 1) {
        memmove(out, c->in, c->bytes);
        return RCCE_SUCCESS;
    }
    if (pos && !(mine = coll_region()))
        return scc_error(RCCE_REJECTED);
    for (size_t o = 0; o < c->bytes; o += cb, chunks++) {
        size_t len = c->bytes - o < cb ? c->bytes - o : cb, h = (chunks % 2) * cb;
        const char *part = c->in + o;

        if (first <= last) {
            memcpy(acc, part, len);
            for (int ch = first; ch <= last; ch++) {
                int ue = coll_ue(c, (ch + c->root) % n);

                sig_wait(ue, 0, 1);
                sig_consume(ue, 0, 1);
                if (sig_get_val(ue, 0) != (uint32_t)c->num)
                    return scc_error(RCCE_ERROR_MESSAGE_LENGTH);
                plat_get(tmp, coll_region_of(ue) + h, len);
                sig_add(ue, 1, 1);
                coll_combine(acc, tmp, (int)(len / c->tsize), c->type, c->rop);
            }
            part = acc;
        }
        if (!pos) {
            memcpy(out + o, part, len);
            continue;
        }
        if (chunks >= 2) {
            sig_wait(up, 1, 1);
            sig_consume(up, 1, 1);
            reads++;
        }
        plat_put(mine + h, part, len);
        plat_flush(my_mpb());
        sig_set_val(up, 0, (uint32_t)c->num);
        sig_add(up, 0, 1);
    }
    for (; pos && reads < chunks; reads++) {
        sig_wait(up, 1, 1);
        sig_consume(up, 1, 1);
    }
    return RCCE_SUCCESS;
}

static int run(struct coll_call *c)
{
    return coll_kary_reduce(c, (int)c->p[KARY_P_K], (int)c->p[KARY_P_CHUNK], c->out);
}

const struct coll_alg coll_reduce_kary = {
    .name = "kary", .op = COLL_REDUCE, .fn = run, .nparam = 2,
    .param = { KARY_PARAMS },
    .doc = "ours: one-sided pipelined k-ary tree; parents get their children's "
           "partial chunks from the children's MPB regions",
};
