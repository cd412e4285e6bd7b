/*
 * RCCE.h - libscc's implementation of Intel's RCCE 1.x API.
 *
 * Names, signatures, types and constants follow Intel's RCCE.h (release
 * 1.0.7, with the status codes and flag test of 1.0.13), so programs
 * written for RCCE build unchanged. Both interfaces are in one library:
 * the simplified one by default, and with -DGORY the gory RCCE_send,
 * RCCE_recv and RCCE_recv_test (own comm buffer and flags). RCCE_malloc,
 * put/get and flags are available in both modes.
 *
 * Host build (-DSCC_HOST): like Intel's emulator, a program defines
 * RCCE_APP(argc, argv); the library's main() starts one thread per UE
 * that runs it. On the chip RCCE_APP is main. Either way argv starts like
 * rccerun's: prog <nues> <clock GHz> <core id>... [program arguments], and
 * RCCE_init removes those words. Library state is per thread on the host,
 * so the program's own globals are shared between UEs there, as in Intel's
 * emulator: keep per-UE data in locals.
 */
#ifndef RCCE_H
#define RCCE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#define _RCCE "1.0.7 release (libscc)"

#ifdef SCC_HOST
int RCCE_APP(int argc, char **argv);
#else
#define RCCE_APP main
#endif

#define STDERR                             stdout

#define LOG2_LINE_SIZE                     5
#define RCCE_LINE_SIZE                     (1<<LOG2_LINE_SIZE)
/* MPB bytes per UE (half of a tile's MPB) */
#define RCCE_BUFF_SIZE_MAX                 (1<<13)
#define RCCE_MAXNP                         48
/* shared DRAM RCCE_shmalloc may hand out at most */
#define RCCE_SHM_SIZE_MAX                  (1<<26)

#define RCCE_SUCCESS                       0
#define RCCE_PENDING                       -1
#define RCCE_RESERVED                      -2
#define RCCE_REJECTED                      -3
#define RCCE_ERROR_BASE                    1234321
#define RCCE_ERROR_TARGET                  (RCCE_ERROR_BASE +  1)
#define RCCE_ERROR_SOURCE                  (RCCE_ERROR_BASE +  2)
#define RCCE_ERROR_ID                      (RCCE_ERROR_BASE +  3)
#define RCCE_ERROR_MESSAGE_LENGTH          (RCCE_ERROR_BASE +  4)
#define RCCE_ERROR_FLAG_UNDEFINED          (RCCE_ERROR_BASE +  5)
#define RCCE_ERROR_NUM_UES                 (RCCE_ERROR_BASE +  6)
#define RCCE_ERROR_DATA_OVERLAP            (RCCE_ERROR_BASE +  7)
#define RCCE_ERROR_ALIGNMENT               (RCCE_ERROR_BASE +  8)
#define RCCE_ERROR_DEBUG_FLAG              (RCCE_ERROR_BASE +  9)
#define RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER (RCCE_ERROR_BASE + 10)
#define RCCE_ERROR_FLAG_STATUS_UNDEFINED   (RCCE_ERROR_BASE + 11)
#define RCCE_ERROR_FLAG_NOT_ALLOCATED      (RCCE_ERROR_BASE + 12)
#define RCCE_ERROR_VAL_UNDEFINED           (RCCE_ERROR_BASE + 13)
#define RCCE_ERROR_INVALID_ERROR_CODE      (RCCE_ERROR_BASE + 14)
#define RCCE_ERROR_RPC_NOT_ALLOCATED       (RCCE_ERROR_BASE + 15)
#define RCCE_ERROR_RPC_INTERNAL            (RCCE_ERROR_BASE + 16)
#define RCCE_ERROR_MULTIPLE_RPC_REQUESTS   (RCCE_ERROR_BASE + 17)
#define RCCE_ERROR_FDIVIDER                (RCCE_ERROR_BASE + 18)
#define RCCE_ERROR_FREQUENCY_EXCEEDED      (RCCE_ERROR_BASE + 19)
#define RCCE_ERROR_NO_ACTIVE_RPC_REQUEST   (RCCE_ERROR_BASE + 20)
#define RCCE_ERROR_STALE_RPC_REQUEST       (RCCE_ERROR_BASE + 21)
#define RCCE_ERROR_COMM_UNDEFINED          (RCCE_ERROR_BASE + 22)
#define RCCE_ERROR_ILLEGAL_OP              (RCCE_ERROR_BASE + 23)
#define RCCE_ERROR_ILLEGAL_TYPE            (RCCE_ERROR_BASE + 24)
#define RCCE_ERROR_MALLOC                  (RCCE_ERROR_BASE + 25)
#define RCCE_ERROR_COMM_INITIALIZED        (RCCE_ERROR_BASE + 26)
#define RCCE_ERROR_CORE_NOT_IN_HOSTFILE    (RCCE_ERROR_BASE + 27)
#define RCCE_ERROR_NO_MULTICAST_SUPPORT    (RCCE_ERROR_BASE + 28)
#define RCCE_MAX_ERROR_STRING              45

#define RCCE_DEBUG_ALL                     111111
#define RCCE_DEBUG_SYNCH                   111444
#define RCCE_DEBUG_COMM                    111555
#define RCCE_DEBUG_RPC                     111666
#define RCCE_DEBUG_DEBUG                   111888

#define RCCE_FLAG_SET                      1
#define RCCE_FLAG_UNSET                    0

#define RCCE_NUM_OPS                       4
#define RCCE_OP_BASE                       23232323
#define RCCE_SUM                           (RCCE_OP_BASE)
#define RCCE_MIN                           (RCCE_OP_BASE+1)
#define RCCE_MAX                           (RCCE_OP_BASE+2)
#define RCCE_PROD                          (RCCE_OP_BASE+3)

#define RCCE_TYPE_BASE                     63636363
#define RCCE_INT                           (RCCE_TYPE_BASE)
#define RCCE_LONG                          (RCCE_TYPE_BASE+1)
#define RCCE_FLOAT                         (RCCE_TYPE_BASE+2)
#define RCCE_DOUBLE                        (RCCE_TYPE_BASE+3)

/* MPB pointer type */
typedef volatile unsigned char *t_vcharp;

/* A flag is word 0 of its own 32-byte MPB line (no SINGLEBITFLAGS). */
typedef volatile int *RCCE_FLAG;
typedef int RCCE_FLAG_STATUS;

typedef struct {
    int size;                   /* members */
    int my_rank;                /* this UE's rank in the communicator */
    int initialized;            /* RCCE_COMM_INITIALIZED when usable */
    int member[RCCE_MAXNP];     /* global rank of each member */
    RCCE_FLAG gather;           /* first of the barrier's MPB lines */
    RCCE_FLAG release;          /* unused (kept for RCCE's layout) */
    volatile int cycle;         /* barriers done (the barrier's epoch) */
    volatile int count;
    int step;
    int label;                  /* set by RCCE_init and RCCE_comm_split, new
                                   for each communicator (per UE): libscc's
                                   collectives key what they cache on it, so
                                   do not change the members of a copy */
} RCCE_COMM;

/* Power management (RC_POWER_MANAGEMENT in Intel's RCCE), over the SCC's
 * six 8-core power domains (2x2 tiles). A frequency divider fdiv (2-16)
 * sets the caller's domain to 1600 / fdiv MHz through GCBCFG: in the
 * machine's timing mode its cores then run at that clock; one above the
 * chip's core clock is refused (RCCE_ERROR_FDIVIDER). Voltage is not
 * modeled (level 0). */
typedef struct {
    int release;
    int old_voltage_level;
    int new_voltage_level;
    int old_frequency_divider;
    int new_frequency_divider;
    long long start_cycle;
} RCCE_REQUEST;
#define RCCE_POWER_DEFAULT -99999
int RCCE_power_domain(void);
int RCCE_iset_power(int, RCCE_REQUEST *, int *, int *);
int RCCE_wait_power(RCCE_REQUEST *);
int RCCE_set_frequency_divider(int, int *);
int RCCE_power_domain_master(void);
int RCCE_power_domain_size(void);

int    RCCE_init(int *, char ***);
int    RCCE_finalize(void);
double RCCE_wtime(void);
int    RCCE_ue(void);
int    RCCE_num_ues(void);

/* gory interface: MPB memory, put/get, flags, locks */
t_vcharp RCCE_malloc(size_t);
t_vcharp RCCE_malloc_request(size_t, size_t *);
void   RCCE_free(t_vcharp);
int    RCCE_put(t_vcharp, t_vcharp, int, int);
int    RCCE_get(t_vcharp, t_vcharp, int, int);
int    RCCE_wait_until(RCCE_FLAG, RCCE_FLAG_STATUS);
int    RCCE_test_flag(RCCE_FLAG, RCCE_FLAG_STATUS, int *);
int    RCCE_flag_alloc(RCCE_FLAG *);
int    RCCE_flag_free(RCCE_FLAG *);
int    RCCE_flag_write(RCCE_FLAG *, RCCE_FLAG_STATUS, int);
int    RCCE_flag_read(RCCE_FLAG, RCCE_FLAG_STATUS *, int);
int    RCCE_acquire_lock(int);
int    RCCE_release_lock(int);

/* gory send/recv: the caller's comm buffer and flags */
int    RCCE_gory_send(char *, t_vcharp, size_t, RCCE_FLAG *, RCCE_FLAG *,
                      size_t, int);
int    RCCE_gory_recv(char *, t_vcharp, size_t, RCCE_FLAG *, RCCE_FLAG *,
                      size_t, int);
int    RCCE_gory_recv_test(char *, t_vcharp, size_t, RCCE_FLAG *,
                           RCCE_FLAG *, size_t, int, int *);
/* simplified send/recv: synchronous, any size */
int    RCCE_simple_send(char *, size_t, int);
int    RCCE_simple_recv(char *, size_t, int);
int    RCCE_simple_recv_test(char *, size_t, int, int *);
#ifdef GORY
#define RCCE_send      RCCE_gory_send
#define RCCE_recv      RCCE_gory_recv
#define RCCE_recv_test RCCE_gory_recv_test
#else
#define RCCE_send      RCCE_simple_send
#define RCCE_recv      RCCE_simple_recv
#define RCCE_recv_test RCCE_simple_recv_test
#endif

int    RCCE_allreduce(char *, char *, int, int, int, RCCE_COMM);
int    RCCE_reduce(char *, char *, int, int, int, int, RCCE_COMM);
int    RCCE_bcast(char *, size_t, int, RCCE_COMM);

t_vcharp RCCE_shmalloc(size_t);
void   RCCE_shfree(t_vcharp);
void   RCCE_shflush(void);
int    RCCE_DCMflush(void);     /* later RCCE: write back cached shared data */

int    RCCE_comm_split(int (*)(int, void *), void *, RCCE_COMM *);
int    RCCE_comm_free(RCCE_COMM *);
int    RCCE_comm_size(RCCE_COMM, int *);
int    RCCE_comm_rank(RCCE_COMM, int *);
void   RCCE_fence(void);
int    RCCE_barrier(RCCE_COMM *);
int    RCCE_error_string(int, char *, int *);
int    RCCE_debug_set(int);
int    RCCE_debug_unset(int);

/* libscc extension: the physical core id of UE ue, or -1 */
int    RCCE_ue_core(int ue);

/*
 * libscc extension: how this UE's point-to-point transfers move data, as
 * a set of RCCE_COPY_* bits. RCCE_COPY_LIBSCC (none, the default): gets
 * read each private destination line before writing it, as iRCCE's
 * memcpy did, and sends pipeline two half-buffer chunks, as iRCCE did.
 * RCCE_COPY_WORDS: gets copy words straight, as RCCE 1.x did, so a store
 * to a line no cache holds goes around the caches on its own (002:
 * "write around for every 4 bytes"). RCCE_COPY_LOCKSTEP: sends go in
 * lockstep as RCCE 1.x's did, one whole-buffer chunk put only once the
 * last was taken. RCCE_COPY_RCCE1 is both. RCCE 1.x's protocol, as its
 * RCCE_send_general / RCCE_recv_general did it (libscc/src/chan.c):
 * RCCE_COPY_CHUNK: the largest payload chunk the MPB layout allows (RCCE
 * 1.x: 8 KB less its flags; here 5,312 B for 2 UEs, 3,840 B for 48);
 * RCCE_COPY_FLAGS: each side clears the flag it saw, each chunk (a line
 * written to its own MPB); RCCE_COPY_PARTIAL: the bytes after the last
 * whole line go as a chunk of their own, with its own handshake (004:
 * "an extra synchronization"). CHUNK and PARTIAL must be set alike on
 * both sides. RCCE_COPY_PROTO1 is the three. Returns the previous style,
 * or -1 (RCCE_ERROR_* is not set) for bits it does not know.
 */
#define RCCE_COPY_LIBSCC   0
#define RCCE_COPY_WORDS    1
#define RCCE_COPY_LOCKSTEP 2
#define RCCE_COPY_RCCE1    (RCCE_COPY_WORDS | RCCE_COPY_LOCKSTEP)
#define RCCE_COPY_CHUNK    4
#define RCCE_COPY_FLAGS    8
#define RCCE_COPY_PARTIAL  16
#define RCCE_COPY_PROTO1   (RCCE_COPY_CHUNK | RCCE_COPY_FLAGS | RCCE_COPY_PARTIAL)
int    RCCE_copy_style(int style);

/*
 * libscc extension: what RCCE_init does when it refuses its arguments.
 * It always says why on stderr. RCCE_INIT_EXIT (the default) then ends the
 * program with status 2, since most RCCE programs do not check RCCE_init
 * and would go on without a rank; RCCE_INIT_RETURN returns the error, as
 * RCCE 1.x did. Call it before RCCE_init (on the host, in each UE).
 * Returns the previous mode, or -1 for a mode it does not know.
 */
#define RCCE_INIT_EXIT     0
#define RCCE_INIT_RETURN   1
int    RCCE_init_refusal(int mode);

#ifdef SCC_HOST
extern __thread RCCE_COMM RCCE_COMM_WORLD;
#else
extern RCCE_COMM RCCE_COMM_WORLD;
#endif

#ifdef __cplusplus
}
#endif

/* RCCE_comm's collectives and the choice of algorithms (libscc) */
#include "scc_coll.h"

#endif
