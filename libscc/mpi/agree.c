/*
 * agree.c - the collectives' agreement on a communicator of every rank,
 * through MPB lines instead of packets: a dissemination barrier whose
 * round k writes this rank's running ranges of (call, root, bytes) into
 * line k of partner me + 2^k's MPB (one writer per line), then waits for
 * its own line k. Lines come in two sets used by turns: a partner is at
 * most one agreement ahead, so it never overwrites a line not yet read.
 * Waiting also progresses MPI now and then, so a member still
 * delivering its packets to this one (coll_enter's flush) is never held
 * up by it.
 */
#include "mpiimpl.h"
#include "../src/internal.h"

#define ROUNDS 6                /* ceil(log2(RCCE_MAXNP)) */
#define LOOKS 64

struct line {                   /* one MPB line */
    uint32_t epoch;             /* written last: the agreement it belongs to */
    int32_t kmin, kmax;         /* call and communicator */
    uint32_t bmin, bmax;        /* bytes per member (mod 2^32) */
    int16_t rmin, rmax;
    int32_t maps;
};
#define LINE_WORDS (sizeof(struct line) / 4)
_Static_assert(sizeof(struct line) <= SCC_MPB_LINE && sizeof(struct line) % 4 == 0,
               "an agreement line is one MPB line, in words");
union words {                   /* a line as the words it is stored and loaded in */
    struct line l;
    uint32_t w[LINE_WORDS];
};

static size_t lines_off;        /* [2][ROUNDS] lines at this offset of every MPB */
static int ready;
static uint32_t epoch;

/* In every rank, in the same order (MPI_Init): the same offset everywhere. */
void agree_init(void)
{
    t_vcharp p = RCCE_malloc(2 * ROUNDS * SCC_MPB_LINE);
    if (p) {
        lines_off = (size_t)(p - my_mpb());
        ready = 1;
    }
}

int agree_ready(void)
{
    return ready;
}

/* The ranges so far with what a partner's line says. */
static void take(struct line *a, const struct line *l)
{
    if (l->kmin < a->kmin) a->kmin = l->kmin;
    if (l->kmax > a->kmax) a->kmax = l->kmax;
    if (l->rmin < a->rmin) a->rmin = l->rmin;
    if (l->rmax > a->rmax) a->rmax = l->rmax;
    if (l->bmin < a->bmin) a->bmin = l->bmin;
    if (l->bmax > a->bmax) a->bmax = l->bmax;
    a->maps &= l->maps;
}

/* acc: kmin, kmax, rmin, rmax, bmin, bmax, maps (coll.c), in and out;
 * worked on as the line's own 32-bit words (each round is on the path of
 * every member after it: its instructions count). */
void agree_world(long long *acc)
{
    int n = mpi_env.np, me = mpi_env.me;
    size_t set = lines_off + (++epoch & 1) * ROUNDS * SCC_MPB_LINE;
    union words a = { { epoch, (int32_t)acc[0], (int32_t)acc[1], (uint32_t)acc[4],
                        (uint32_t)acc[5], (int16_t)acc[2], (int16_t)acc[3],
                        (int32_t)acc[6] } };

    for (int k = 1, round = 0; k < n; k <<= 1, round++) {
        t_vcharp to = scc_self.mpb[(me + k) % n] + set + (size_t)round * SCC_MPB_LINE;
        t_vcharp mine = my_mpb() + set + (size_t)round * SCC_MPB_LINE;

        /* the ranges, then the epoch in the same line, then out of the WCB */
        for (size_t i = 1; i < LINE_WORDS; i++)
            plat_store_relaxed(to + 4 * i, a.w[i]);
        plat_store(to, epoch);
        plat_flush(my_mpb());
        /* a pass of MPI's progress reads every channel line (47 of them
         * on 48 ranks), some 40 looks at this one: with nothing under way
         * it is only for members still delivering their packets to this
         * one before they enter (coll_enter), so it comes after LOOKS
         * looks, then after twice as many, up to every 2048th look; once
         * a pass moved something or found MPI's work under way (a
         * rendezvous across the call), one comes at every look until
         * neither is so. Looks never sleep:
         * only a pass that found nothing may precede a sleep (a write
         * wakes a sleeper once) */
        for (unsigned int i = 1, busy = 0; line_read(mine) != epoch; i++)
            if (!busy && (i < LOOKS || ((i & (i - 1)) && (i & 2047)))) {
                plat_pause(i);
            } else {
                busy = (unsigned int)progress();
                progress_wait((int)busy);
                busy |= (unsigned int)transport_busy();
            }
        if (scc_self.idle)      /* not idle: the next wait starts afresh */
            scc_self.idle = 0;
        /* the line is in the L1 since the read that saw the epoch (one
         * line write brought all of it): no second read of the MPB */
        union words in;
        for (size_t i = 0; i < LINE_WORDS; i++)
            in.w[i] = plat_load_relaxed(mine + 4 * i);
        take(&a.l, &in.l);
    }
    acc[0] = a.l.kmin;
    acc[1] = a.l.kmax;
    acc[2] = a.l.rmin;
    acc[3] = a.l.rmax;
    acc[4] = a.l.bmin;
    acc[5] = a.l.bmax;
    acc[6] = a.l.maps;
}
