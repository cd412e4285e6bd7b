/*
 * bcast_pipe.c - forwarding engine of the 002 broadcasts (bcast_pipe.h).
 */

#include "bcast_pipe.h"

#define WINDOW 16               /* chunks in flight per member (nb) */

static int blocking(struct coll_call *c, int parent, const int *kids, int nk,
                    size_t chunk)
{
    int err;

    for (size_t off = 0; off < c->bytes; off += chunk) {
        size_t len = c->bytes - off < chunk ? c->bytes - off : chunk;

        if (parent >= 0 && (err = coll_recv(c, c->out + off, len, parent)))
            return err;
        for (int k = 0; k < nk; k++)
            if ((err = coll_send(c, c->out + off, len, kids[k])))
                return err;
    }
    return RCCE_SUCCESS;
}

static int posted(int err)
{
    return err == iRCCE_SUCCESS || err == iRCCE_PENDING || err == iRCCE_RESERVED
           ? RCCE_SUCCESS : err;
}

/* A ring of WINDOW receive slots and WINDOW x nk send slots: chunk i uses
 * slot i % WINDOW, reused once chunk i - WINDOW has left. */
static int nonblocking(struct coll_call *c, int parent, const int *kids, int nk,
                       size_t chunk)
{
    size_t nc = (c->bytes + chunk - 1) / chunk;
    size_t nr = SCC_SCRATCH_LINES(sizeof(iRCCE_RECV_REQUEST) * WINDOW);
    iRCCE_RECV_REQUEST *rr = scc_scratch(SCC_SCRATCH_OWN, nr + sizeof(iRCCE_SEND_REQUEST) *
                                         WINDOW * (size_t)(nk ? nk : 1));
    iRCCE_SEND_REQUEST *sr;
    int err = RCCE_SUCCESS, pue = parent >= 0 ? coll_ue(c, parent) : -1;
    size_t i;

    if (!rr)
        return scc_error(RCCE_ERROR_MALLOC);
    sr = (iRCCE_SEND_REQUEST *)((char *)rr + nr);
#define LEN(i) (c->bytes - (i) * chunk < chunk ? c->bytes - (i) * chunk : chunk)
    for (i = 0; parent >= 0 && i < nc && i < WINDOW && !err; i++)
        err = posted(iRCCE_irecv(c->out + i * chunk, (ssize_t)LEN(i), pue, &rr[i]));
    for (i = 0; i < nc && !err; i++) {
        int s = (int)(i % WINDOW);

        if (parent >= 0 && (err = iRCCE_irecv_wait(&rr[s])))
            break;
        for (int k = 0; k < nk && !err; k++) {
            if (i >= WINDOW && (err = iRCCE_isend_wait(&sr[s * nk + k])))
                break;
            err = posted(iRCCE_isend(c->out + i * chunk, (ssize_t)LEN(i),
                                     coll_ue(c, kids[k]), &sr[s * nk + k]));
        }
        if (!err && parent >= 0 && i + WINDOW < nc)
            err = posted(iRCCE_irecv(c->out + (i + WINDOW) * chunk,
                                     (ssize_t)LEN(i + WINDOW), pue, &rr[s]));
    }
    /* on success: the last WINDOW chunks' sends are still out */
    for (i = nc > WINDOW ? nc - WINDOW : 0; !err && i < nc; i++)
        for (int k = 0; k < nk && !err; k++)
            err = iRCCE_isend_wait(&sr[(i % WINDOW) * nk + k]);
#undef LEN
    return err ? scc_error(err) : RCCE_SUCCESS;
}

int coll_bcast_pipe(struct coll_call *c, int parent, const int *kids, int nk,
                    size_t chunk, int nb)
{
    if (c->bytes == 0)
        return RCCE_SUCCESS;
    if (chunk == 0 || chunk > c->bytes)
        chunk = c->bytes;
    return nb ? nonblocking(c, parent, kids, nk, chunk)
              : blocking(c, parent, kids, nk, chunk);
}

/* The three trees of 002, on ranks relative to the root (rel 0 = root):
 * this member's parent (-1 for the root) and children; the count. */
int coll_pipe_chain(int n, int r, int *parent, int kids[2])
{
    int nk = 0;

    /* IV.B: each member receives from its predecessor and sends to its
     * successor; the last one only receives */
    *parent = r > 0 ? r - 1 : -1;
    if (r + 1 < n)
        kids[nk++] = r + 1;
    return nk;
}

int coll_pipe_bintree(int n, int r, int *parent, int kids[2])
{
    int nk = 0;

    /* IV.C: heap-ordered binary tree, every parent has two children */
    *parent = r > 0 ? (r - 1) / 2 : -1;
    for (int k = 2 * r + 1; k <= 2 * r + 2 && k < n; k++)
        kids[nk++] = k;
    return nk;
}

int coll_pipe_twotree(int n, int r, int *parent, int kids[2])
{
    /* IV.D: P0 heads the chain P0..Pm-1 and feeds the second chain
     * Pm..Pn-1, m = n/2 + 1 for even n, n/2 for odd n (Fig. 8); each
     * chain carries the whole message */
    int m = n % 2 ? n / 2 : n / 2 + 1, nk = 0;

    if (m < 1 || m > n)
        m = n;
    *parent = -1;
    if (r == 0) {
        if (m > 1)
            kids[nk++] = 1;
        if (m < n)
            kids[nk++] = m;
    } else {
        *parent = r == m ? 0 : r - 1;
        if (r + 1 < n && r + 1 != m)
            kids[nk++] = r + 1;
    }
    return nk;
}

int coll_bcast_shape(struct coll_call *c, coll_pipe_shape shape, int nb)
{
    int n = c->n, r = (c->me - c->root + n) % n, parent, kids[2];
    int nk = shape(n, r, &parent, kids);

    for (int k = 0; k < nk; k++)
        kids[k] = coll_bcast_abs(c, kids[k]);
    return coll_bcast_pipe(c, parent < 0 ? -1 : coll_bcast_abs(c, parent), kids, nk,
                           (size_t)c->p[PIPE_P_CHUNK], nb);
}
