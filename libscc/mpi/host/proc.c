/*
 * proc.c - libscc's platform for MPI on the host: one PROCESS per rank
 * (an MPI program's globals belong to its rank), the chip's MPBs, T&S
 * locks and shared DRAM in one shared mapping, a file scc-mpiexec makes
 * and names in SCC_MPI_SHM, with this process's core in SCC_MPI_CORE.
 * Everything else is as in libscc/platform/host.c (its thread-per-UE
 * main and watchdog aside: scc-mpiexec watches the processes); waits
 * sleep on shared futexes.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"
#include "scc_mpb.h"
#include "shared.h"

#define HOST_MESH_X 6
#define HOST_CPT    2
#define HOST_CORES  SCC_MPI_HOST_CORES
#define HOST_SHM    (16u << 20)

struct shared {
    struct {                    /* first: scc-mpiexec reads the seqs (shared.h) */
        _Alignas(SCC_MPI_WAKE_STRIDE) int seq;
        int sleepers;
    } wake[HOST_CORES];
    _Alignas(64) unsigned char mpbs[HOST_CORES][0x2000];
    int locks[HOST_CORES];
    _Alignas(4096) unsigned char shm[HOST_SHM];
};
_Static_assert(sizeof(((struct shared *)0)->wake[0]) == SCC_MPI_WAKE_STRIDE,
               "shared.h: one wake-up record per SCC_MPI_WAKE_STRIDE bytes");
_Static_assert(offsetof(struct shared, wake) == 0, "shared.h: the records first");

static struct shared *sh;
static int my_core = -1;
__thread int plat_copy_style;
static int seen_seq;

/* The size scc-mpiexec gives the file (tools/scc/machine/mpirun.py). */
size_t scc_mpi_shared_size(void)
{
    return sizeof(struct shared);
}

static int map(void)
{
    const char *path = getenv("SCC_MPI_SHM"), *core = getenv("SCC_MPI_CORE");
    void *p;

    my_core = core ? atoi(core) : 0;
    if (my_core < 0 || my_core >= HOST_CORES)
        return -1;
    if (path && *path) {
        int fd = open(path, O_RDWR);
        if (fd < 0) {
            perror(path);
            return -1;
        }
        if (ftruncate(fd, (off_t)sizeof *sh) < 0) {  /* a no-op when mpiexec sized it */
            perror(path);
            close(fd);
            return -1;
        }
        p = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
    } else {            /* a singleton: nobody to share with */
        p = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    if (p == MAP_FAILED)
        return -1;
    sh = p;
    return 0;
}

int plat_init(struct plat_facts *f)
{
    if (!sh && map())
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
    return sh->mpbs[core];
}

uint64_t plat_ticks(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int plat_lock_try(int core)
{
    return __atomic_exchange_n(&sh->locks[core], 1, __ATOMIC_ACQUIRE) == 0;
}

void plat_lock_release(int core)
{
    __atomic_store_n(&sh->locks[core], 0, __ATOMIC_RELEASE);
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
    *size = HOST_SHM;
    return sh->shm;
}

static long futex(int *word, int op, int val, const struct timespec *ts)
{
    return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

void plat_notify(t_vcharp p)
{
    uintptr_t off = (uintptr_t)p - (uintptr_t)sh->mpbs;

    if (off >= sizeof sh->mpbs)
        return;
    int c = (int)(off / sizeof sh->mpbs[0]);
    __atomic_add_fetch(&sh->wake[c].seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&sh->wake[c].sleepers, __ATOMIC_SEQ_CST))
        futex(&sh->wake[c].seq, FUTEX_WAKE, INT_MAX, NULL);
}

/* Sleep until a line of this core's MPB is written (plat_notify, which
 * wakes the sleeper at once) or ns pass, unless one was since `now`. */
static void wait_write(int now, long ns)
{
    struct timespec ts = { 0, ns };
    __atomic_add_fetch(&sh->wake[my_core].sleepers, 1, __ATOMIC_SEQ_CST);
    futex(&sh->wake[my_core].seq, FUTEX_WAIT, now, &ts);
    __atomic_sub_fetch(&sh->wake[my_core].sleepers, 1, __ATOMIC_SEQ_CST);
}

/* A wait yields the CPU for its first few dozen looks (another rank may
 * need it to answer, and a yield returns at once when none does), then
 * sleeps on its futex until a line of its MPB is written. A yield that
 * took more than CROWDED_NS handed the CPU to another program for a whole
 * time slice: on a host whose CPUs other programs keep busy every yield
 * does, and a chain of waits that yield crawls (ten to forty times slower
 * than alone), so for CROWDED_FOR after such a yield waits sleep at once:
 * a sleeper is woken by the very write it waits for. */
#define CROWDED_NS  1000000
#define CROWDED_FOR 100000000
static uint64_t crowded_until;

static int crowded(void)
{
    return plat_ticks() < crowded_until;
}

static void yield(void)
{
    uint64_t t0 = plat_ticks();
    sched_yield();
    uint64_t t1 = plat_ticks();
    if (t1 - t0 > CROWDED_NS)
        crowded_until = t1 + CROWDED_FOR;
}

/* Yield, then sleep until a line of this MPB is written, up to 20 ms (the
 * timeout only a safety net). */
unsigned int plat_spin_step = 1;

void plat_relax(unsigned int spins)
{
    int now = __atomic_load_n(&sh->wake[my_core].seq, __ATOMIC_SEQ_CST);

    if (now != seen_seq) {      /* written since the last look: look again */
        seen_seq = now;
        if (!crowded())
            yield();
        return;
    }
    if (spins < 50 && !crowded()) {
        yield();
        return;
    }
    wait_write(now, 20 * 1000 * 1000);
}

void plat_set_ues(int np)
{
    (void)np;
}

void plat_quiesce(void)
{
}

/* Any other wait (a lock, a line read between passes of progress): after
 * the yields, short sleeps that a write to this MPB ends early. */
void plat_pause(unsigned int spins)
{
    if (spins < 200 && !crowded())
        yield();
    else
        wait_write(__atomic_load_n(&sh->wake[my_core].seq, __ATOMIC_SEQ_CST), 50 * 1000);
}
