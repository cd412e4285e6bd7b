/*
 * The system-call interface between the per-core kernel and user
 * applications. See docs/kernel.md.
 *
 * A call is `int $0x80` with the number in EAX and arguments in EBX, ECX,
 * EDX, ESI, EDI. The result comes back in EAX: a value >= 0, or -errno.
 */
#ifndef SCC_SYSCALL_H
#define SCC_SYSCALL_H

#define SCC_SYSCALL_VECTOR  0x80

#define SYS_exit        0   /* (int status) -> does not return */
#define SYS_write       1   /* (int fd, const void *buf, size_t len) -> len */
#define SYS_read        2   /* (int fd, void *buf, size_t len) -> 0 (EOF) */
#define SYS_sbrk        3   /* (intptr_t incr) -> old break */
#define SYS_mmap        4   /* (size_t len) -> address of zeroed pages */
#define SYS_munmap      5   /* (void *addr, size_t len) -> 0 */
#define SYS_time        6   /* (struct scc_time *) -> 0 */
#define SYS_yield       7   /* () -> 0: drain the mailbox, then return */
#define SYS_halt        8   /* (int since, unsigned seen) -> interrupts taken
                               so far (kstat.lint0 + kstat.ticks): sleep until
                               an interrupt; with since = 1, only if that count
                               is still seen (no wake-up lost in between) */
#define SYS_info        9   /* (struct scc_info *) -> 0 */
#define SYS_mbox_send   10  /* (int dest, int tag, const void *buf, size_t len)
                               -> 0; waits while dest's ring is full;
                               -ESRCH if dest is in reset or has exited */
#define SYS_mbox_recv   11  /* (struct scc_msg *out, int flags) -> 0,
                               or -EAGAIN with SCC_MBOX_NONBLOCK */
#define SYS_mbox_poll   12  /* () -> messages waiting (drains the ring) */
#define SYS_mbox_mode   13  /* (int mode, or -1 to ask; unsigned spin) ->
                               previous mode; spin: hybrid mode's polling
                               budget in core cycles before it sleeps */
#define SYS_ipi         14  /* (int dest) -> 0: pulse dest's INTR line */
#define SYS_kstat       15  /* (struct scc_kstat *) -> 0 */
#define SYS_vmquery     16  /* (const void *vaddr) -> PTE, or -EFAULT */
#define SYS_panic       17  /* (const char *msg) -> does not return */
#define SYS_tick        18  /* (unsigned hz) -> 0: LAPIC timer rate, 0 off */
#define SYS_core_state  19  /* (int core) -> CORE_STATE_* (abi.h), -EINVAL */
#define SYS_copy_mpbt   20  /* (void *addr, size_t len, int on) -> 0: mark the
                               app's private pages MPBT (1) or not (0) */
#define SYS_copy_lut    21  /* (void *dst, const void *src, size_t len) -> 0:
                               copy through LUT windows (docs/copy.md) */
#define SYS_copy_serve  22  /* (int requester, uint32_t dst, uint32_t src,
                               size_t len, int method) -> 0: copy between
                               the requester's user addresses; -EPERM
                               unless the requester granted this core read
                               of [src, src + len) and read-write of
                               [dst, dst + len) (SYS_grant) */
#define SYS_lut_read    23  /* (unsigned page) -> this core's LUT entry */
#define SYS_copy_wait   24  /* (int copier, u32 deadline_lo, u32 deadline_hi)
                               -> 0 once a message is waiting, -ESRCH once
                               copier is not running, -ETIMEDOUT once the
                               GTSC reaches the deadline (0: none): copier
                               is then ended as unresponsive */
#define SYS_tile_clock  25  /* (int tile, unsigned mhz) -> 0: GCBCFG's clock
                               field, 1..core_hz/1e6 MHz (reset bits kept) */
#define SYS_crb_raw     26  /* (int on) -> 0/1, whether user code had the CRB
                               pages: map (1) or unmap (0) them for user
                               code; -EPERM to map under crb=strict */
#define SYS_stats       27  /* (const char *name) -> 0: begin the region of
                               interest @name for timing-stats (NULL: end
                               the open one); -EINVAL for a name the
                               machine would refuse (SIF_STATS, abi.h) */
#define SYS_dram_map    28  /* (unsigned mc, unsigned page, size_t len) ->
                               user address of len bytes (16 MiB at most)
                               of controller mc's system page, read-only
                               and cached, replacing the view before; len
                               0: none (-> 0); -EINVAL for a page that
                               holds no memory */
#define SYS_peer_read   29  /* (int core, void *dst, const void *src, size_t n)
                               -> 0: n bytes of core's user memory at src
                               into this core's at dst, read from DRAM
                               through a LUT window as MPBT lines (what is
                               still in core's caches is not seen);
                               -ESRCH if core is not running this kernel,
                               -EFAULT for memory either side may not use,
                               -EINVAL for this core or n > SCC_COPY_MAX;
                               -EPERM unless core granted this core read
                               of all of [src, src + n) (SYS_grant) */
#define SYS_grant       30  /* (const void *addr, size_t len, int prot,
                               u32 cores_lo, u32 cores_hi) -> a grant id
                               (> 0): the cores of the mask (bit i: core i;
                               both words all ones: SCC_GRANT_ANY, every
                               core) may read (SCC_GRANT_READ), or read and
                               write (SCC_GRANT_RW), this core's user
                               memory [addr, addr + len) with SYS_peer_read
                               and SYS_copy_serve, until revoked or this
                               core exits; -EINVAL for len 0, another prot,
                               an empty mask or a core beyond the chip,
                               -EFAULT for a range that is not all private
                               user space or all shared DRAM, -ENOMEM with
                               SCC_GRANT_MAX grants held */
#define SYS_revoke      31  /* (int id) -> 0: the grant ends (an access that
                               passed its check before may still finish);
                               -EINVAL for an id this core does not hold */
#define SYS_sleep       32  /* (u32 deadline_lo, u32 deadline_hi) -> 0 once
                               the GTSC reached the deadline; the core
                               halts meanwhile, woken by its LAPIC timer */
#define SYS_NR          33

/* The T&S registers (LOCK0/1) have a vector of their own, a path as
 * short as one register access allows (docs/kernel.md): `int $0x81` with
 * the core in EAX and the operation in ECX; the result in EAX. */
#define SCC_TAS_VECTOR  0x81
#define SCC_TAS_TRY     0   /* -> 1 if this call took core's register, 0 if
                               it was held */
#define SCC_TAS_RELEASE 1   /* -> 0: core's register is free */
                            /* a core beyond the chip: -EINVAL */

/* errno values returned (negated) by the kernel; picolibc's numbering */
#define SCC_EPERM       1
#define SCC_ESRCH       3   /* the destination core is not running */
#define SCC_EAGAIN      11
#define SCC_ENOMEM      12
#define SCC_EFAULT      14
#define SCC_EINVAL      22
#define SCC_ENOSYS      88
#define SCC_ETIMEDOUT   110 /* a copy core did not answer by the deadline */

/* Copy methods (docs/copy.md): memory types of the source and destination */
#define SCC_COPY_PLAIN      0   /* cached, as the app maps them */
#define SCC_COPY_MPBT_SRC   1   /* source MPBT: L1 only */
#define SCC_COPY_MPBT_DST   2   /* destination MPBT: write-combine buffer */
#define SCC_COPY_MPBT       3   /* both */
#define SCC_COPY_LUT        4   /* both through LUT windows, MPBT */

/* Grants (SYS_grant, docs/copy.md "Grants"): what another core may do
 * with a range of this core's user memory */
#define SCC_GRANT_READ      1   /* SYS_peer_read, a copy core's source */
#define SCC_GRANT_RW        3   /* also a copy core's destination */
#define SCC_GRANT_ANY_WORD  0xFFFFFFFFu /* cores_lo and cores_hi both: any core */
#define SCC_GRANT_MAX       127 /* grants a core holds at once */

/* The kernel option crb= (docs/kernel.md): what user code may do with
 * the CRBs' first pages (GLCFG, GCBCFG, locks, LUT0) */
#define SCC_CRB_ISOLATED 0  /* not mapped: system calls for the T&S registers,
                               IPIs and tile clocks; SYS_crb_raw maps them */
#define SCC_CRB_RAW     1   /* mapped for user code (as /dev/rckncm did) */
#define SCC_CRB_STRICT  2   /* not mapped, and SYS_crb_raw is refused */
#define SCC_CRB_NAMES   { "isolated", "raw", "strict" }

/* Mailbox notification modes (docs/notify.md; kernel/notify_*.c) */
#define SCC_MBOX_IPI    0   /* the sender interrupts the receiver */
#define SCC_MBOX_POLL   1   /* the receiver spins, draining its ring */
#define SCC_MBOX_HYBRID 2   /* the receiver spins for a bounded time, then
                               sleeps; senders interrupt only a sleeper */
#define SCC_MBOX_TIMER  3   /* the receiver sleeps; its LAPIC tick drains */
#define SCC_MBOX_NMODES 4
#define SCC_MBOX_NAMES  { "ipi", "poll", "hybrid", "timer" }
#define SCC_HALT_SINCE  1   /* SYS_halt's since */

#define SCC_MBOX_NONBLOCK   1
#define SCC_MBOX_PAYLOAD    24  /* bytes of payload in one 32-byte line */

/* Exit statuses the kernel reports for a core (apps use 0-127):
 * SCC_EXIT_TRAP_BASE + vector, SCC_EXIT_PANIC, SCC_EXIT_STOPPED, ... are
 * defined with the machine's in the shared ABI header. */
#include <standard-headers/scc/abi.h>

#ifndef __ASSEMBLER__
#include <stdint.h>

struct scc_time {
    uint64_t tsc;           /* this core's cycle counter */
    uint64_t gtsc;          /* the chip's global timestamp counter */
    uint32_t core_hz;
    uint32_t gtsc_hz;
};

struct scc_info {
    uint32_t core_id;
    uint32_t ncores;
    uint32_t mesh_x, mesh_y, cores_per_tile;
    uint32_t private_mem;   /* bytes of this core's private DRAM */
    uint32_t core_hz, gtsc_hz;
    uint32_t mpb_base;      /* user address of tile 0's MPB page */
    uint32_t mpb_stride;    /* distance between tiles' MPB pages */
    uint32_t mpb_user_off;  /* user area in each core's 8 KiB ... */
    uint32_t mpb_user_size; /* ... and its size */
    uint32_t shm_base;      /* user address of shared DRAM */
    uint32_t shm_size;
    uint32_t crb_base;      /* user address of tile 0's CRB page */
    uint32_t sif_base;      /* user address of the system interface page */
    uint32_t mbox_mode;
    uint32_t timing;        /* SIF_TIMING: TIMING_ON, TIMING_STALE */
    uint32_t crb_mode;      /* SCC_CRB_*: the kernel's crb= option */
};

struct scc_msg {
    uint16_t source;        /* sending core */
    uint16_t tag;
    uint32_t size;          /* payload bytes, <= SCC_MBOX_PAYLOAD */
    uint8_t payload[SCC_MBOX_PAYLOAD];
};

struct scc_kstat {
    uint32_t lint0;         /* inter-core interrupts taken */
    uint32_t ticks;         /* LAPIC timer interrupts taken */
    uint32_t mbox_sent;
    uint32_t mbox_received; /* messages moved from the ring to the queue */
    uint32_t mbox_full_waits; /* times a send found the ring full */
    uint32_t syscalls;
    uint32_t mbox_dropped;  /* corrupt ring slots dropped, not delivered */
    uint32_t sleeps;        /* times the core halted */
    uint64_t idle_tsc;      /* TSC cycles spent halted */
    uint64_t intr_tsc;      /* TSC at the last interrupt's entry (LINT0: its stub's first instruction after the gate) */
    uint32_t mbox_repaired; /* ring words user code overwrote, rewritten */
    uint32_t pins_forced;   /* GLCFG pins found stuck high and pulsed anyway */
};
#endif

#endif
