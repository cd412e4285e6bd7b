/*
 * Random system calls with random arguments, on every core at once
 * (tests/test_reliability.py): the kernel must answer each one, never
 * panic, fault or hang, in functional and in timing mode.
 *
 *   syscall_fuzz [n=CALLS] [seed=S] [only=grant] [cores=C]
 *
 * The C started cores (default: all of the chip's) meet first. Each core
 * draws n calls from the numbers below with its own seed
 * (seed + core id, so every run makes the same calls). Arguments mix small
 * numbers, core ids, lengths, addresses of the app's own memory (its data,
 * heap and stack), of shared DRAM and the MPBs, and addresses the app may
 * not touch (0, the kernel, the top of memory). Left out: the calls that
 * are meant not to return or to wait for another core (exit, panic, halt,
 * copy_wait, a blocking mbox_recv), and the calls this program does not
 * know (newer numbers), whose waits it cannot bound. sleep's deadline is
 * a past one or at most 2,000 GTSC ticks ahead. copy_serve copies
 * only for this core: a copy core writes where its requester says, and
 * random copies into another core's memory would break that core, as
 * they would on the chip. Grants (SYS_grant, SYS_revoke) get random
 * ranges, protections and core masks, mostly well-formed ones so that
 * some hold and other cores' peer reads pass them; revokes are of ids
 * this core holds about half the time. only=grant draws only the calls
 * that make or use grants (tests/test_grant.py).
 *
 * Prints "fuzz peer reads A admitted G no grant O other" (peer reads of
 * one byte or more, by result) and "fuzz done N" (N: the calls made) on
 * lines of their own and exits 0.
 */
#include <stdint.h>
#include <string.h>

#include "testlib.h"

static uint32_t rng;

static uint32_t next(void)       /* xorshift32: the same calls on every run */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* What the calls may write: 8 KiB of offsets plus the longest write a call
 * below is given (16 KiB), so that they never reach this program's own
 * variables (a write there would be this program's bug, not the kernel's). */
static uint8_t buf[8192 + 16384 + 4096] __attribute__((aligned(4096)));

static long address(void)
{
    static const uint32_t bad[] = {
        0, 4, 0x1000, 0x00100000, 0x3ffff000, 0xc0000000, 0xf8000000,
        0xfee00000, 0xfffffffc, 0xffffffff,
    };
    switch (next() % 6) {
    case 0:
    case 1:
        return (long)(buf + next() % 8192);
    case 2:
        return (long)((uint8_t *)scc_shm() + next() % 65536);
    case 3:
        return (long)((uint8_t *)scc_mpb_user(next() % 48) + next() % 0x1c00);
    case 4:
        return (long)bad[next() % (sizeof(bad) / sizeof(bad[0]))];
    default:
        return (long)next();
    }
}

static long length(void)
{
    static const uint32_t len[] = { 0, 1, 4, 31, 32, 33, 255, 4096, 8192,
                                    0x7fffffff, 0x80000000, 0xffffffff };

    return next() % 4 ? (long)(next() % 8192)
                      : (long)len[next() % (sizeof(len) / sizeof(len[0]))];
}

static long arg(void)
{
    switch (next() % 4) {
    case 0:
        return (long)(next() % 64) - 8;         /* cores, modes, fds */
    case 1:
        return length();
    case 2:
        return address();
    default:
        return (long)next();
    }
}

/* The calls drawn, each a few times over so that the cheap ones dominate. */
static const int calls[] = {
    SYS_write, SYS_read, SYS_sbrk, SYS_mmap, SYS_munmap, SYS_time,
    SYS_yield, SYS_info, SYS_mbox_send, SYS_mbox_recv, SYS_mbox_poll,
    SYS_mbox_mode, SYS_ipi, SYS_kstat, SYS_vmquery, SYS_tick,
    SYS_core_state, SYS_copy_mpbt, SYS_copy_lut, SYS_copy_serve,
    SYS_lut_read, SYS_dram_map, SYS_peer_read, SYS_grant, SYS_revoke, SYS_sleep,
    SYS_NR, SYS_NR + 7, -1,
};
static const int grant_calls[] = {
    SYS_grant, SYS_grant, SYS_revoke, SYS_peer_read, SYS_peer_read, SYS_copy_serve,
    SYS_yield,
};
static const int *pick = calls;
static unsigned npick = sizeof(calls) / sizeof(calls[0]);

/* Grant ids this core holds, for SYS_revoke (one may be revoked twice). */
static long held[32];
static unsigned nheld;
/* Peer reads of one byte or more: admitted, refused for want of a grant,
 * refused otherwise */
static unsigned long peer[3];

/* A core mask word: any core, one core, or whatever arg() gives. */
static long mask_word(void)
{
    switch (next() % 4) {
    case 0:
        return -1;
    case 1:
        return (long)(1u << (next() % 32));
    case 2:
        return 0;
    default:
        return arg();
    }
}

static void one(void)
{
    int nr = pick[next() % npick];
    long a = arg(), b = arg(), c = arg(), d = arg(), e = arg(), r;

    switch (nr) {
    case SYS_write:
        a = next() % 4 ? 5 : a;         /* mostly a bad fd: a quiet console */
        c = c & 0xff;
        break;
    case SYS_mmap:
        a = length();                   /* zeroing gigabytes would only be slow */
        break;
    case SYS_sbrk:
        a = (long)(next() % 3) * 4096 - 4096;   /* and back: no exhaustion */
        break;
    case SYS_mbox_recv:
        b = SCC_MBOX_NONBLOCK;
        break;
    case SYS_mbox_send:
        d = d & 0x7ff;
        break;
    case SYS_mbox_mode:
        a = next() % 5 - 1;             /* ask, or one of the modes */
        b = next() % 100000;
        break;
    case SYS_tick:
        a = next() % 2 ? 0 : next() % 2000;     /* a storm would only be slow */
        break;
    case SYS_copy_lut:
        c = c & 0x3fff;
        break;
    case SYS_peer_read:
        d = d & 0x3fff;                 /* reads another core, writes ours */
        /* often a neighbour (cores 4k..4k+3 run together in a test) */
        a = next() % 2 ? (long)((uint32_t)scc_core_id() ^ (next() % 4)) : a;
        /* often both in buf: the other core's is at the same address */
        if (next() % 2) {
            b = (long)(buf + next() % 8192);
            c = (long)(buf + next() % 8192);
        }
        break;
    case SYS_copy_serve:
        /* a copy core writes its requester's memory as told: only our own
         * (random copies into another core's data would be its bug) */
        a = next() % 8 ? scc_core_id() : a;
        a = a >= 0 && a < 48 ? scc_core_id() : a;
        d = d & 0x3fff;
        e = next() % 8;
        break;
    case SYS_grant:
        c = next() % 4 ? (next() % 2 ? SCC_GRANT_READ : SCC_GRANT_RW) : c;
        a = next() % 2 ? (long)(buf + next() % 8192) : a;
        d = mask_word();
        e = d == -1 && next() % 2 ? -1 : mask_word();
        break;
    case SYS_revoke:
        a = nheld && next() % 2 ? held[next() % nheld] : a;
        break;
    case SYS_sleep: {
        struct scc_time t;
        uint64_t when = 0;
        if (next() % 4 && !scc_time(&t))
            when = t.gtsc + next() % 2000;
        a = (long)(uint32_t)when;
        b = (long)(uint32_t)(when >> 32);
        break;
    }
    }
    r = scc_syscall(nr, a, b, c, d, e);
    if (nr == SYS_grant && r > 0)
        held[nheld < 32 ? nheld++ : next() % 32] = r;
    if (nr == SYS_peer_read && d > 0)
        peer[r == 0 ? 0 : r == -SCC_EPERM ? 1 : 2]++;
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, "n", 1000);
    long cores = arg_long(argc, argv, "cores", scc_num_cores());
    unsigned round = 0;
    long i;

    rng = (uint32_t)arg_long(argc, argv, "seed", 1) * 2654435761u + scc_core_id() + 1;
    if (!strcmp(arg_str(argc, argv, "only"), "grant")) {
        pick = grant_calls;
        npick = sizeof(grant_calls) / sizeof(grant_calls[0]);
    }
    /* Every core is up before the first call, and each call ends the
     * core's turn: under round-robin TCG a core would otherwise make all
     * its calls in one turn, before the others' kernels ran or after they
     * exited, and no peer read would find its owner running. */
    barrier(0, (unsigned)cores, &round);
    for (i = 0; i < n; i++) {
        one();
        relax();
    }
    scc_syscall(SYS_tick, 0, 0, 0, 0, 0);
    /* on a line of its own: a random write may have left one unfinished */
    printf("\nfuzz peer reads %lu admitted %lu no grant %lu other\n", peer[0], peer[1],
           peer[2]);
    printf("fuzz done %ld\n", n);
    return 0;
}
