/*
 * A machine-provided scheduler for single-threaded TCG with exact
 * per-vCPU instruction budgets (icount's machinery), so that a machine
 * can keep one modeled clock per core and run them deterministically.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SYSTEM_TCG_TIMING_H
#define SYSTEM_TCG_TIMING_H

typedef struct TCGTimingOps {
    /*
     * The vCPU to run next and how many instructions it may execute
     * (at least 1); NULL when no vCPU can run until something external
     * happens. Called with the BQL held.
     */
    CPUState *(*next)(int64_t *budget);
    /* @cpu ran @executed instructions and cpu_exec returned @ret (BQL held). */
    void (*ran)(CPUState *cpu, int64_t executed, int ret);
} TCGTimingOps;

/* Set by the machine before the vCPUs start; needs -icount and thread=single. */
extern const TCGTimingOps *tcg_timing_ops;

/*
 * If set (before the vCPUs start), every data load and store to RAM goes
 * through the slow path and is reported here: @paddr in the vCPU's
 * physical address space, before the access is done (@vaddr: its linear
 * address, @haddr: where it is in host memory, @tlb_flags: the TLB_* flags
 * of its page, TLB_TIMED among them). @mmu_idx tells the
 * target's page-table walks (which follow QEMU's TLB, not the guest's)
 * from the program's accesses.
 */
extern void (*tcg_timing_ram)(CPUState *cpu, uint64_t paddr, int size,
                              bool store, bool mpbt, int mmu_idx,
                              uint64_t vaddr, void *haddr, int tlb_flags);
/*
 * With tcg_timing_ram set: false reports only accesses to pages whose
 * translation has attrs.mpbt (a write-combining core needs those even when
 * plain RAM is not timed); @mpbt says which an access is.
 */
extern bool tcg_timing_ram_all;

/*
 * A per-vCPU filter of loads and stores that would change nothing in the
 * machine's RAM hook but, for a store, a record of its address
 * (TCGTimingStoreLog): the target's helpers check it and do such an
 * access straight on host memory, without the slow path and the hook. One
 * entry per 32-byte line index within the page (the sets of the machine's
 * L1 cache, which the page offset indexes), filled by the machine: @tag is
 * the linear address of the line | (mmu_idx + 1), with
 * TCG_TIMING_TAG_STORE if stores may take it too (the page's TLB entry
 * for writes has no flag but TLB_TIMED), 0 when empty; the host address
 * of linear address a is a + @addend, its physical address @pline | (a %
 * 32). The target keeps it in its CPU state (x86: env->timing_filter);
 * the machine must empty it whenever a translation or a page's dirty
 * tracking changes (tcg_timing_tlb_changed).
 *
 * One more entry of the same kind (x86: env->timing_around, its tag
 * without TCG_TIMING_TAG_STORE) names a line whose stores the machine
 * wants reported but needs nothing else of the slow path for: the
 * target's store helper calls tcg_timing_ram for such a store itself
 * (store, not MPBT, flags TLB_TIMED, mem_io_pc set to the helper's
 * return address, as tcg_timing_ram_direct would), then stores to host
 * memory. The machine empties it with the filter.
 */
#define TCG_TIMING_LINE_BITS    5
#define TCG_TIMING_FILTER_LINES 128
#define TCG_TIMING_TAG_STORE    0x10    /* above every mmu_idx + 1 */
typedef struct TCGTimingFilterEntry {
    uint32_t tag;
    uint32_t pline;
    uint64_t addend;
} TCGTimingFilterEntry;
/*
 * The MPB lines in the machine's L1 model (an MPBT read of one hits there
 * until CL1INVMB), for the loads of REP string instructions: the bulk of
 * a copy out of an MPB. An L1 hit changes nothing in the model but its
 * set's replacement bits, which live here (@plru); it only tells the spin
 * detection which location was read last and with what value. The
 * target's helper does such a read on host memory, points the set's bits
 * away from the way it hit and records the hit here; the machine catches
 * up (its "sync") before it next looks at or changes that state, and on a
 * restart takes back the hits of the instruction being undone (not the
 * bits: done again, the instruction touches the same line first). Under
 * icount a REP iteration is the last instruction of its TB, and these are
 * the only loads that take this path, so the TB execution (@mark) says
 * which instruction a hit was in.
 *
 * @line[set][way] mirrors the L1's ways: @tag is the line's linear
 * address | (mmu_idx + 1), valid while @gen is the table's (bumped on
 * CL1INVMB and on every translation change); @key is the machine's name
 * for the line's first byte (its spin detection's key less the size).
 * Only the machine fills it, and never with the line its write-combine
 * buffer holds (a read must see those bytes).
 */
#define TCG_TIMING_MPB_WAYS     4

/*
 * The replacement state of one 4-way set (the machine's L1 model): the
 * tree pseudo-LRU of the Pentium family's 4-way caches, three bits. Bit 0
 * says which pair was used last (1: ways 0-1), bit 1 which of ways 0 and
 * 1 (1: way 0), bit 2 which of ways 2 and 3 (1: way 2). An access to way
 * @way points them away from it; a fill (with no way invalid) replaces the
 * way they point to. The last two ways used are never the one replaced.
 */
static inline uint8_t tcg_timing_plru_touch(uint8_t bits, int way)
{
    return way < 2 ? (bits & 4) | 1 | (way == 0) << 1
                   : (bits & 2) | (way == 2) << 2;
}

static inline int tcg_timing_plru_victim(uint8_t bits)
{
    return bits & 1 ? 2 + (bits >> 2 & 1) : bits >> 1 & 1;
}

/*
 * The tag of the line of linear address @addr under @mmu_idx, as the
 * filter, the MPB lines and tcg_timing_io_ld_tag have it; never 0.
 */
static inline uint64_t tcg_timing_line_tag(uint64_t addr, int mmu_idx)
{
    return (addr & -(uint64_t)(1 << TCG_TIMING_LINE_BITS)) | (mmu_idx + 1);
}

typedef struct TCGTimingMPBLine {
    uint32_t tag;
    uint32_t gen;
    uint32_t key;
    uint64_t addend;            /* host address - linear address */
} TCGTimingMPBLine;
typedef struct TCGTimingMPBHits {
    TCGTimingMPBLine line[TCG_TIMING_FILTER_LINES][TCG_TIMING_MPB_WAYS];
    /* each set's replacement bits (tcg_timing_plru_touch): the machine's,
     * kept here so that a hit the helper takes updates them as the
     * machine's own read would */
    uint8_t plru[TCG_TIMING_FILTER_LINES];
    uint32_t gen;
    /* the machine's last read key (key | size << 28): a read of the same
     * key again may be a poll, which the machine must see */
    uint32_t poll_key;
    bool unsynced;              /* hits since the machine last caught up */
    uint32_t val;               /* the last hit's value */
    int64_t mark;               /* its TB execution: icount left */
    uint32_t events_at_hit;     /* TCGTimingWCB.events at the last hit */
    uint32_t mark_hits;         /* hits in that TB execution */
    uint64_t hits;              /* every hit, less those taken back */
} TCGTimingMPBHits;

/*
 * The machine's write-combine buffer (one line of MPBT stores), in the
 * CPU state so that the target's store helper can add to it: a store to
 * the line it holds that leaves the line short of full changes nothing
 * else in the machine but a count of timed events (@events, which the
 * machine takes in when it catches up). @tag is the line's linear address
 * | (mmu_idx + 1), valid while @gen is timing_mpb's; the machine sets it
 * only from a store to that address that came through tcg_timing_io_st
 * (which checked the page's write permission), 0 when none may merge.
 */
typedef struct TCGTimingWCB {
    uint32_t tag;
    uint32_t gen;
    uint32_t mask;              /* the bytes written */
    uint32_t events;
    uint8_t data[32];
} TCGTimingWCB;

/* What is left of @cpu's instructions: one value per TB execution. */
static inline int64_t tcg_timing_mark(CPUState *cpu)
{
    return cpu->neg.icount_decr.u16.low + cpu->icount_extra;
}

/* Set (before the vCPUs start) to have the translator use the filter. */
extern bool tcg_timing_filter;
/* Called whenever @cpu's TLB drops or replaces a translation. */
extern void (*tcg_timing_tlb_changed)(CPUState *cpu);
/*
 * The stores that took the filter, by physical address and size, since
 * the machine last emptied the log (it reads them to tell whether a loop
 * changed anything; -1 in @n: more than fit). The target appends to it
 * (x86: env->timing_log), the machine may append its own.
 */
#define TCG_TIMING_STORE_LOG 32
typedef struct TCGTimingStoreLog {
    int32_t n;
    uint32_t addr[TCG_TIMING_STORE_LOG];
    uint8_t size[TCG_TIMING_STORE_LOG];
} TCGTimingStoreLog;

static inline void tcg_timing_log_store(TCGTimingStoreLog *l, uint64_t paddr,
                                        int size)
{
    if (l->n >= 0 && l->n < TCG_TIMING_STORE_LOG) {
        l->addr[l->n] = paddr;
        l->size[l->n++] = size;
    } else {
        l->n = -1;
    }
}

/*
 * Set (before the vCPUs start) to the ops of I/O regions that a machine's
 * timing mode serves without the BQL: only from the single vCPU thread,
 * on state of its own, like the RAM hook. Every other access to I/O
 * takes the BQL, as always.
 */
extern const struct MemoryRegionOps *tcg_timing_unlocked_io;

/*
 * A load (store) of @size bytes at linear address @addr straight to
 * those ops, when the vCPU has reached the page through its TLB before
 * and no translation changed since: true if done (the value in *@val),
 * false to take the slow path. Aligned accesses only; @ra is the
 * helper's return address, as for the slow path. The ops must not fail
 * and must have read_with_attrs and write_with_attrs. Skips the TLB
 * walk and the memory API's dispatch for each of the millions of MPB
 * accesses of a run.
 */
bool tcg_timing_io_ld(CPUState *cpu, uint64_t addr, int size, int mmu_idx,
                      uintptr_t ra, uint64_t *val);
bool tcg_timing_io_st(CPUState *cpu, uint64_t addr, int size, int mmu_idx,
                      uintptr_t ra, uint64_t val);
/*
 * The line tag (tcg_timing_line_tag) of the load tcg_timing_io_ld is
 * doing, for the ops it calls; 0 when they are called any other way.
 * The ops must read it first and set it to 0.
 */
extern uint64_t tcg_timing_io_ld_tag;
/* The same for the store tcg_timing_io_st is doing. */
extern uint64_t tcg_timing_io_st_tag;

/*
 * For a load or store of @size at @addr within one page whose entry in
 * the main TLB is RAM with TLB_TIMED and no other flag: report it to
 * tcg_timing_ram, as the slow path would (it may restart the instruction
 * from @ra), and return the host address to access. NULL: take the slow
 * path. The slow path's TLB look-up and dispatch cost more than the
 * model for the millions of private-memory accesses the timing filter
 * does not take.
 */
void *tcg_timing_ram_direct(CPUState *cpu, uint64_t addr, int size,
                            int mmu_idx, bool store, uintptr_t ra);

/*
 * Set (before the vCPUs start, single-threaded TCG only) to have
 * tcg_tb_lookup remember the TB of each host pc it was asked for.
 */
extern bool tcg_tb_lookup_cached;

/*
 * Under a timing scheduler, an I/O access that is not the last instruction
 * of its TB (cpu_io_recompile) cost a rewind and a TB of its own each time
 * it ran. Its pc is remembered instead and its TB dropped; translation
 * ends after an instruction at a remembered pc, so that it is last from
 * then on. Keyed by virtual pc: every core runs the same program at the
 * same addresses, so one core's discovery serves all (a pc that is I/O
 * only for some ends their TBs there too, which costs nothing else).
 */
void tcg_timing_io_pc_add(uint64_t pc);
bool tcg_timing_io_pc(uint64_t pc);

/*
 * Instructions @cpu has executed in its current run, which was given
 * @budget (its own thread only). What is left of the run is always
 * icount_decr.u16.low + icount_extra; cpu->icount_budget is no base: the
 * decrementer's refills within a run (icount_update) lower it by what was
 * executed so far.
 */
/*
 * The instructions of the TB at @host_pc (a helper's return address) that
 * the icount decrementer counted but that have not run, the one at
 * @host_pc included, or -1: tcg_timing_executed counts a TB whole from its
 * start, this tells where in it a RAM access is.
 */
int tcg_timing_insns_left(uintptr_t host_pc);

static inline int64_t tcg_timing_executed(CPUState *cpu, int64_t budget)
{
    return budget - (cpu->neg.icount_decr.u16.low + cpu->icount_extra);
}

#endif
