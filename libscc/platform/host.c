/*
 * host.c - libscc on the host, like Intel's RCCE emulator: one thread per
 * UE, the chip's MPBs, T&S locks and shared DRAM as host memory.
 *
 * The library's main() takes rccerun's arguments,
 *
 *     prog <nues> <clock GHz> <core id>... [program arguments]
 *
 * starts one thread per listed core (core ids 0-47 of the default 6x4x2
 * mesh), runs RCCE_APP(argc, argv) in each with its own copy of argv (so
 * RCCE_init can shift it) and exits with the first non-zero status in
 * rank order, or 0.
 *
 * A run in which every UE left waits and nothing is stored for
 * SCC_HOST_STALL_S seconds (default 10, fractions allowed; 0: never) cannot end: a member
 * that found an error (mismatched sizes, say) left its partners waiting,
 * or the program deadlocks. It is stopped with a report of where each UE
 * waits and the chip's stall status, 247, as the machine does on the chip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <standard-headers/scc/abi.h>

#include "platform.h"
#include "scc_mpb.h"

#define HOST_MESH_X 6
#define HOST_MESH_Y 4
#define HOST_CPT    2
#define HOST_CORES  (HOST_MESH_X * HOST_MESH_Y * HOST_CPT)
#define HOST_SHM    (64u << 20)     /* like the machine's default shared-mem */
#define STACK_SIZE  (16u << 20)

/* Each core's 8 KiB; libscc uses the first SCC_MPB_USER_SIZE bytes. */
static _Alignas(64) unsigned char mpbs[HOST_CORES][0x2000];
static int locks[HOST_CORES];
static void *shm;

/* A UE that has waited a while sleeps on its core's wake word; a store to
 * a line in that core's MPB (plat_store) bumps the word and wakes it. */
static struct {
    _Alignas(64) int seq;
    int sleepers;
} wake[HOST_CORES];

static __thread int my_core = -1;
__thread int plat_copy_style;       /* RCCE_COPY_*: memcpy either way here */
static __thread int seen_seq;       /* wake[my_core].seq at the last relax */

/* For the stall watchdog: stores announced so far, and per core whether
 * its UE runs and where it last waited (0: it has not waited since the
 * watchdog last looked). */
static unsigned long stores;
/* The report asks a UE for its stack (want_stack) and the UE takes it at
 * its next wait: a thread can take only its own. */
#define STACK_FRAMES 24
static struct {
    _Alignas(64) int live;
    void *waited_at;
    int want_stack, depth;
    void *stack[STACK_FRAMES];
} ue_state[HOST_CORES];

static void waiting(void *where)
{
    __atomic_store_n(&ue_state[my_core].waited_at, where, __ATOMIC_RELAXED);
    if (__atomic_load_n(&ue_state[my_core].want_stack, __ATOMIC_ACQUIRE)) {
        int d = backtrace(ue_state[my_core].stack, STACK_FRAMES);
        __atomic_store_n(&ue_state[my_core].depth, d, __ATOMIC_RELEASE);
        __atomic_store_n(&ue_state[my_core].want_stack, 0, __ATOMIC_RELEASE);
    }
}

int plat_init(struct plat_facts *f)
{
    if (my_core < 0)    /* a thread the library did not start */
        return RCCE_ERROR_CORE_NOT_IN_HOSTFILE;
    f->core = my_core;
    f->ncores = HOST_CORES;
    f->mesh_x = HOST_MESH_X;
    f->cores_per_tile = HOST_CPT;
    f->tick_hz = 1e9;
    return 0;
}

t_vcharp plat_mpb(int core)
{
    return mpbs[core];
}

uint64_t plat_ticks(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int plat_lock_try(int core)
{
    return __atomic_exchange_n(&locks[core], 1, __ATOMIC_ACQUIRE) == 0;
}

void plat_lock_release(int core)
{
    __atomic_store_n(&locks[core], 0, __ATOMIC_RELEASE);
}

int plat_tile_clock(int tile, unsigned int mhz)
{
    (void)tile;
    (void)mhz;
    return 0;
}

void plat_power_member(void)
{
}

void *plat_shm(size_t *size)
{
    *size = shm ? HOST_SHM : 0;
    return shm;
}

static long futex(int *word, int op, int val, const struct timespec *ts)
{
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

void plat_notify(t_vcharp p)
{
    uintptr_t off = (uintptr_t)p - (uintptr_t)mpbs;

    if (off >= sizeof mpbs)
        return;
    int c = (int)(off / sizeof mpbs[0]);
    __atomic_add_fetch(&stores, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&wake[c].seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&wake[c].sleepers, __ATOMIC_SEQ_CST))
        futex(&wake[c].seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/* Up to 48 UEs share two or so host CPUs. A waiting UE first gives its
 * CPU away (an answer often comes within microseconds), then sleeps until
 * a line of its MPB is written. No wakeup is lost: the caller checked its
 * condition after the last call read the wake word, so a store since then
 * changed the word, and FUTEX_WAIT does not sleep on a changed word. The
 * timeout is only a safety net. */
unsigned int plat_spin_step = 1;

void plat_relax(unsigned int spins)
{
    int *word = &wake[my_core].seq;
    int now = __atomic_load_n(word, __ATOMIC_SEQ_CST);

    waiting(__builtin_return_address(0));
    if (now != seen_seq || spins < 50) {
        seen_seq = now;
        sched_yield();
        return;
    }
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    __atomic_add_fetch(&wake[my_core].sleepers, 1, __ATOMIC_SEQ_CST);
    futex(word, FUTEX_WAIT_PRIVATE, now, &ts);
    __atomic_sub_fetch(&wake[my_core].sleepers, 1, __ATOMIC_SEQ_CST);
}

/* The host's waits do not depend on how many UEs there are. */
void plat_set_ues(int np)
{
    (void)np;
}

void plat_quiesce(void)
{
}

void plat_pause(unsigned int spins)
{
    waiting(__builtin_return_address(0));
    if (spins < 200) {
        sched_yield();
    } else {
        struct timespec ts = { 0, 50 * 1000 };
        nanosleep(&ts, NULL);
    }
}

/* --- main: one thread per UE ------------------------------------------------- */

int RCCE_APP(int argc, char **argv);

struct ue_thread {
    pthread_t thread;
    int core, argc, status;
    char **argv;
};

static void *ue_main(void *arg)
{
    struct ue_thread *t = arg;

    my_core = t->core;
    t->status = RCCE_APP(t->argc, t->argv);
    __atomic_store_n(&ue_state[my_core].live, 0, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&stores, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* The main thread while the UEs run: a stall is every live UE having
 * waited (and none having stored) through a whole period of 0.1 s,
 * period after period for the limit. Host time decides only when a hung
 * run ends. */
static void watch(double limit_s)
{
    unsigned long last = ~0ul;
    int quiet = 0, live, periods = (int)(limit_s * 10 + 0.5);

    for (;;) {
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        unsigned long now = __atomic_load_n(&stores, __ATOMIC_RELAXED);
        int all_waited = 1;
        live = 0;
        for (int c = 0; c < HOST_CORES; c++) {
            if (!__atomic_load_n(&ue_state[c].live, __ATOMIC_SEQ_CST))
                continue;
            live++;
            if (!__atomic_exchange_n(&ue_state[c].waited_at, NULL, __ATOMIC_RELAXED))
                all_waited = 0;
        }
        if (!live)
            return;
        quiet = now == last && all_waited ? quiet + 1 : 0;
        last = now;
        if (periods && quiet >= periods)
            break;
    }
    fprintf(stderr, "libscc host: no UE can make progress: for %.1f s every UE left has "
            "waited and none has stored a line; where they wait:\n", limit_s);
    for (int c = 0; c < HOST_CORES; c++)
        if (__atomic_load_n(&ue_state[c].live, __ATOMIC_SEQ_CST))
            __atomic_store_n(&ue_state[c].want_stack, 1, __ATOMIC_RELEASE);
    struct timespec ts = { 0, 200 * 1000 * 1000 };
    nanosleep(&ts, NULL);           /* let each wait once more, to see where */
    for (int c = 0; c < HOST_CORES; c++) {
        if (!__atomic_load_n(&ue_state[c].live, __ATOMIC_SEQ_CST))
            continue;
        fprintf(stderr, "  core %02d waits ", c);
        if (__atomic_load_n(&ue_state[c].want_stack, __ATOMIC_ACQUIRE)) {
            void *at = __atomic_load_n(&ue_state[c].waited_at, __ATOMIC_RELAXED);
            plat_where_print(stderr, &at, 1);
        } else {
            plat_where_print(stderr, ue_state[c].stack,
                             __atomic_load_n(&ue_state[c].depth, __ATOMIC_ACQUIRE));
        }
        fputc('\n', stderr);
    }
    fflush(stderr);
    _exit(SCC_EXIT_STALLED);
}

static int usage(const char *prog, const char *why)
{
    fprintf(stderr, "%s: %s\nusage: %s <nues> <clock GHz> <core id>... "
            "[arguments]\n  core ids 0-%d, one per UE, all different\n",
            prog, why, prog, HOST_CORES - 1);
    return 2;
}

int main(int argc, char **argv)
{
    static struct ue_thread ues[HOST_CORES];
    int n, used[HOST_CORES] = { 0 }, status = 0;
    pthread_attr_t attr;

    if (argc < 3 || (n = atoi(argv[1])) < 1 || n > HOST_CORES || argc < 3 + n)
        return usage(argv[0], "need the number of UEs, a clock and a core id per UE");
    for (int i = 0; i < n; i++) {
        char *end;
        long c = strtol(argv[3 + i], &end, 10);
        if (end == argv[3 + i] || *end || c < 0 || c >= HOST_CORES || used[c]++)
            return usage(argv[0], "bad or repeated core id");
        ues[i].core = (int)c;
    }
    shm = mmap(NULL, HOST_SHM, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shm == MAP_FAILED)
        shm = NULL;

    const char *limit = getenv("SCC_HOST_STALL_S");
    double limit_s = limit ? atof(limit) : 10;

    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, STACK_SIZE);
    for (int i = 0; i < n; i++)
        ue_state[ues[i].core].live = 1;
    for (int i = 0; i < n; i++) {
        ues[i].argc = argc;
        ues[i].argv = calloc((size_t)argc + 1, sizeof(char *));
        if (!ues[i].argv) {
            perror("calloc");
            return 1;
        }
        memcpy(ues[i].argv, argv, (size_t)argc * sizeof(char *));
        int err = pthread_create(&ues[i].thread, &attr, ue_main, &ues[i]);
        if (err) {
            fprintf(stderr, "%s: pthread_create: %s\n", argv[0], strerror(err));
            return 1;
        }
    }
    pthread_attr_destroy(&attr);
    watch(limit_s);
    for (int i = 0; i < n; i++) {
        pthread_join(ues[i].thread, NULL);
        free(ues[i].argv);
    }
    /* rank order is core id order */
    for (int c = 0; c < HOST_CORES && !status; c++)
        for (int i = 0; i < n; i++)
            if (ues[i].core == c && ues[i].status)
                status = ues[i].status;
    if (shm)
        munmap(shm, HOST_SHM);
    return status;
}
