/*
 * internal.h - libscc's private state and helpers.
 *
 * The state of one UE lives in `scc_self`: per core on the chip, per
 * thread on the host (SCC_TLS).
 */
#ifndef SCC_INTERNAL_H
#define SCC_INTERNAL_H

#include <stdint.h>

#include "RCCE.h"
#include "iRCCE.h"
#include "RCCEnb.h"
#include "scc_chan.h"
#include "scc_mpb.h"
#include "../platform/platform.h"

#define RCCE_COMM_INITIALIZED       45328976
#define RCCE_COMM_NOT_INITIALIZED  -45328976

/* Blocks handed out by RCCE_shmalloc at most at the same time. */
#define SCC_SHM_BLOCKS 256

struct scc_shm_block {
    size_t off, len;
};

/* Scratch slots (scratch.c): a collective that calls another takes
 * SCC_SCRATCH_OUTER, so that the one it calls can take SCC_SCRATCH_OWN. */
enum { SCC_SCRATCH_OWN, SCC_SCRATCH_OUTER, SCC_SCRATCH_SLOTS };

struct scc_state {
    int up;                             /* between RCCE_init and finalize */
    int np, iam;                        /* UEs, this UE's rank */
    int core_of[RCCE_MAXNP];            /* rank -> core id */
    t_vcharp mpb[RCCE_MAXNP];           /* rank -> MPB user area */
    struct plat_facts facts;
    uint64_t t0;                        /* plat_ticks at RCCE_init */
    int debug;                          /* RCCE_debug_set */
    unsigned int idle;                  /* test calls in a row that found nothing */

    /* the MPB channel (chan.c) */
    unsigned int posted[RCCE_MAXNP];    /* chunks sent to each UE */
    unsigned int taken[RCCE_MAXNP];     /* chunks taken from each UE */
    struct scc_xfer *send_port;         /* the send using my payload buffer */
    struct scc_xfer *recv_port[RCCE_MAXNP]; /* the receive from each UE */

    /* the symmetric MPB heap (malloc.c): block length in lines at a
     * block's first line, 0 if free */
    unsigned char heap_len[SCC_MPB_HEAP_LINES];

    /* the symmetric shared-DRAM heap (shm.c), sorted by offset */
    struct scc_shm_block shm[SCC_SHM_BLOCKS];
    int nshm;

    /* iRCCE queues (ircce_queue.c) */
    iRCCE_SEND_REQUEST *isend_head, *isend_tail;
    iRCCE_RECV_REQUEST *irecv_head[RCCE_MAXNP], *irecv_tail[RCCE_MAXNP];
    iRCCE_RECV_REQUEST *any_head, *any_tail;
    int nrecvq;                         /* sources with queued receives */
    int any_next;                       /* where the next wildcard scan starts */
    int recent_source, recent_length;

    /* RCCEnb (nb.c): at most one transfer per direction */
    struct scc_xfer nb_send, nb_recv;
    int nb_send_on, nb_recv_on;
    int nb_recv_err;                    /* of the last receive */

    /* buffers kept from call to call (scratch.c) */
    struct { void *p; size_t n; } scratch[SCC_SCRATCH_SLOTS];

    /* the blocking alltoall's odd-even order, worked out once (coll/engine/bucket.c):
     * bit s, whether step s sends first, for (n, rank) = pairwise_key */
    uint64_t pairwise_first;
    int pairwise_key;
};

extern SCC_TLS struct scc_state scc_self;

/* --- channel lines (scc_mpb.h) ---------------------------------------------- */

static inline t_vcharp my_mpb(void)
{
    return scc_self.mpb[scc_self.iam];
}

/* Read word 0 of a line someone else writes: drop stale copies first. */
static inline uint32_t line_read(t_vcharp line)
{
    plat_invalidate();
    return plat_load(line);
}

/* Write word 0 of a line, push it out of the WCB. */
static inline void line_write(t_vcharp line, uint32_t v)
{
    plat_store(line, v);
    plat_flush(my_mpb());
}

/* Serial-number order of channel counters: a is at least b. */
static inline int seq_ge(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) >= 0;
}

/* A test function found nothing to do (busy == 0) or did something. A
 * program that polls a test function in a loop then waits as politely as
 * the library's own loops do (on the host: yields, then sleeps until its
 * MPB changes). */
static inline void scc_idle(int busy)
{
    if (busy)
        scc_self.idle = 0;
    else
        plat_relax(++scc_self.idle);
}

/* --- chan.c: the MPB channel ------------------------------------------------ */

void chan_send_begin(struct scc_xfer *x, char *buf, size_t size, int dest);
int  chan_send_step(struct scc_xfer *x);          /* 1 when done */
void chan_recv_begin(struct scc_xfer *x, char *buf, size_t size, int src);
int  chan_recv_step(struct scc_xfer *x);          /* 1 when done */
int  chan_incoming(int src);            /* a new message from src waits */

/* --- ircce_queue.c: progress of all queued iRCCE requests --------------------- */

int  scc_progress(void);                /* nonzero if anything moved */
int  scc_irecv_start(iRCCE_RECV_REQUEST *r);

/* --- ircce_recv.c: below RCCE's simple receive (send.c) ------------------------ */

/* Whether a blocking receive from source could take its message now:
 * RCCE_SUCCESS or an error, and *ready (see ircce_recv.c). */
int  scc_recv_test(char *buf, size_t size, int source, int *ready);

/* --- helpers ------------------------------------------------------------------- */

int  scc_error(int code);               /* report if debugging, return code */
int  scc_check_ue(int ue);              /* RCCE_SUCCESS or RCCE_ERROR_ID */
int  scc_comm_init(RCCE_COMM *comm);    /* barrier lines of a communicator */
int  scc_comm_label(void);              /* a new communicator's label (RCCE.h) */
int  scc_barrier_dissemination(RCCE_COMM *comm);  /* RCCE_barrier's own */
/* SCC_COLL and the --coll words (coll/core/override.c): 0, or -1 with the
 * reason in why (SCC_COLL_WHY bytes); takes the --coll words out of argv. */
#define SCC_COLL_WHY 640
int  scc_coll_override(int *argc, char **argv, char *why);
/* "RCCE_init: <reason>" on stderr (init.c); returns err. */
__attribute__((format(printf, 2, 3)))
int  scc_init_refuse(int err, const char *fmt, ...);
void *scc_scratch(int slot, size_t n);  /* >= n bytes kept across calls, or NULL */
/* n rounded up to whole cache lines (RCCE_LINE_SIZE): where the next
 * buffer of a scratch block starts */
#define SCC_SCRATCH_LINES(n) (((n) + SCC_MPB_LINE - 1) & ~(size_t)(SCC_MPB_LINE - 1))
void scc_scratch_release(void);         /* RCCE_finalize */
t_vcharp scc_heap_alloc(size_t lines);  /* symmetric MPB lines, or NULL */
void scc_heap_free(t_vcharp p);
int  scc_in_heap(t_vcharp p, size_t n); /* [p, p+n) inside my heap */
void scc_wait_recv(iRCCE_RECV_REQUEST *r);
void scc_wait_send(iRCCE_SEND_REQUEST *r);

#endif
