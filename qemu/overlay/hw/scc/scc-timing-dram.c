/*
 * SCC timing mode, DRAM: the write-back L1 and L2 models, the P54C's
 * write buffer, MPBT lines in the write-combine buffer, shared DRAM.
 * See scc-timing.c for the model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/host-utils.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "exec/cpu-common.h"
#include "hw/core/cpu.h"
#include "hw/i386/apic_internal.h"
#include "system/cpu-timers.h"
#include "system/cpus.h"
#include "system/system.h"
#include "system/tcg-timing.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "trace.h"
#include "scc-timing-internal.h"

/* --- DRAM through L1 and L2 -------------------------------------------- */

/* the most instructions a translation block has (TCG_MAX_INSNS) */
#define TM_MAX_TB_INSNS 512

/* The router (x, y) the core's LUT sends physical address @pa to. */
static void tm_lut_xy(SCCCore *c, uint64_t pa, int *x, int *y)
{
    uint32_t route = SCC_LUT_ROUTE(c->lut[pa >> SCC_PAGE_SHIFT]);

    *x = LUT_ROUTE_X(route);
    *y = LUT_ROUTE_Y(route);
}

/* Routers from the core to where its LUT sends physical address @pa. */
static int tm_hops_to(SCCMachineState *s, SCCCore *c, uint32_t pa)
{
    SCCTile *t = &s->tile[c->tile];
    int x, y;

    tm_lut_xy(c, pa, &x, &y);
    return abs(x - t->x) + abs(y - t->y) + 1;
}

/*
 * Line @vaddr (its L1 set @set) is now the most recently used of its set:
 * the only line an access can hit there without changing the L1's state.
 * If tm_ram would do nothing else for a load of it (@eligible), loads of
 * it may skip tm_ram, and stores too if its page needs nothing else of
 * QEMU's slow path (@store_ok): all tm_ram does for such a store is
 * log it, which the target's helper does (env->timing_log). They check the
 * entry (env->timing_filter, tcg_timing_filter). Every change of a set's
 * most recently used line comes through here, so the entry of each set
 * is that line or nothing, and the model's state and results are the
 * same whether or not an access takes the filter. Host time only.
 */
static void tm_filter_set(CPUState *cs, int set, bool eligible, int mmu_idx,
                          uint64_t vaddr, void *haddr, uint64_t paddr,
                          bool store_ok)
{
    TCGTimingFilterEntry *f = &cpu_env(cs)->timing_filter[set];

    QEMU_BUILD_BUG_ON(MMU_PHYS_IDX >= TCG_TIMING_TAG_STORE);
    if (!eligible || !haddr || paddr > UINT32_MAX || vaddr > UINT32_MAX) {
        f->tag = 0;
        return;
    }
    f->tag = tcg_timing_line_tag(vaddr, mmu_idx) |
             (store_ok ? TCG_TIMING_TAG_STORE : 0);
    f->pline = paddr & -(uint64_t)SCC_LINE;
    f->addend = (uintptr_t)haddr - vaddr;
}

/*
 * Stores to line @vaddr are now posted around the caches (tm_ram's
 * around_tag), or no line's are (@eligible false): the target's store
 * helper sends those straight here (env->timing_around), without the
 * slow path's look-ups, when the page needs nothing else of it. The
 * model sees the same calls either way. Host time only.
 */
static void tm_around_set(CPUState *cs, bool eligible, int mmu_idx,
                          uint64_t vaddr, void *haddr, uint64_t paddr)
{
    TCGTimingFilterEntry *f = &cpu_env(cs)->timing_around;

    if (!eligible || !haddr || paddr > UINT32_MAX || vaddr > UINT32_MAX) {
        f->tag = 0;
        return;
    }
    f->tag = tcg_timing_line_tag(vaddr, mmu_idx);
    f->pline = paddr & -(uint64_t)SCC_LINE;
    f->addend = (uintptr_t)haddr - vaddr;
}

/* Every translation may have changed: empty the filter and the MPB's. */
void tm_filter_clear(CPUState *cs)
{
    memset(cpu_env(cs)->timing_filter, 0,
           sizeof(cpu_env(cs)->timing_filter));
    cpu_env(cs)->timing_around.tag = 0;
    cpu_env(cs)->timing_mpb.gen++;
}

static void tm_dram_wait(SCCMachineState *s, SCCCore *c, int64_t cost);

/*
 * Shared DRAM is uncached (the kernel maps it PCD), and several cores use
 * it: every load or store is a transaction of its own to the memory
 * controller the core's LUT names, o_mem_r or o_mem_w plus the trip, and
 * like an MPB access it waits until no core can act before it arrives.
 * So a core sees another's store no earlier than its modeled time.
 *
 * An instruction with several accesses (a MOVS iteration: a load, then a
 * store) restarts whole when a later one must wait. The accesses an
 * earlier attempt made were charged then, and the clock kept them, as an
 * MPB line kept in the L1 keeps its miss: they are not charged again.
 * Charged anew, two cores of one tile copying at the same time each
 * pushed its clock past the other's with every attempt and never got to
 * the store.
 */
static void tm_shared_access(SCCMachineState *s, SCCCore *c, uint64_t paddr,
                             bool store)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t insn = tm_insns(c);
    uint64_t key = paddr << 1 | store;
    int64_t arrival, wait;
    int x, y, i;

    if (k->shared_insn != insn) {
        k->shared_insn = insn;
        k->shared_done = 0;
        k->shared_seen = 0;
    }
    i = k->shared_seen++;
    if (i < k->shared_done && k->shared_key[i] == key) {
        return;
    }
    /* not the access the earlier attempt made here: from here on, new */
    k->shared_done = MIN(i, SCC_TM_SHARED_PER_INSN);
    tm_lut_xy(c, paddr, &x, &y);
    x = MIN(x, s->mesh_x - 1);
    y = MIN(y, s->mesh_y - 1);
    arrival = tm_transact(s, c, y * s->mesh_x + x,
                          store ? s->tm->mem_ws_ps : s->tm->mem_r_ps, false,
                          &k->n.stall_dram);
    /* ordered like an MPB access: in time order at its controller too */
    wait = tm_mc_wait(s, c, paddr, arrival);
    if (wait) {
        tm_dram_wait(s, c, wait);
    }
    if (store) {
        k->n.dram_line_writes++;
    } else {
        k->n.dram_line_reads++;
    }
    if (i < SCC_TM_SHARED_PER_INSN) {
        k->shared_key[i] = key;
        k->shared_done = i + 1;
    }
}

/*
 * When the instruction of the access being done began. scc_timing_now
 * counts a translation block's instructions whole from its start (the
 * icount decrementer's way), which is exact for an MPB access (the block
 * ends there) but not for RAM. A write in flight overlaps the
 * instructions after it, so its end must be compared with the time of
 * the instruction itself, or the model would depend on where blocks end
 * (a gdb breakpoint, a run's budget end them elsewhere): the block's
 * instructions not yet run come off (tcg_timing_insns_left).
 */
static int64_t tm_exact_now(SCCMachineState *s, SCCCore *c)
{
    int64_t now = scc_timing_now(s, c);
    int left;

    if (!tm_in_run(c) || !c->cs->mem_io_pc) {
        return now;
    }
    left = tcg_timing_insns_left(c->cs->mem_io_pc);
    return left > 0 ? now - left * tm_core_timing(c)->cpi_ps : now;
}

/*
 * The access waits until @t (exact time): core @c's clock moves by the
 * wait, a stall of its DRAM path (@also: a counter of the kind). Returns
 * the exact time after it.
 */
static int64_t tm_dram_stall(SCCMachineState *s, SCCCore *c, int64_t t,
                             uint64_t *also)
{
    int64_t now = tm_exact_now(s, c);

    if (t > now) {
        *also += t - now;
        tm_core_timing(c)->n.stall_dram += t - now;
        tm_set_clock(s, c, scc_timing_now(s, c) + (t - now));
        now = t;
    }
    return now;
}

/* The access takes @cost more: a stall of a fixed length needs no exact
 * time. */
static void tm_dram_wait(SCCMachineState *s, SCCCore *c, int64_t cost)
{
    tm_core_timing(c)->n.stall_dram += cost;
    tm_set_clock(s, c, scc_timing_now(s, c) + cost);
}

/*
 * A write the core posts (to the L2, or around the caches to the memory
 * controller): it waits for the write before it to be out, then goes on
 * while this one takes @gap.
 */
static int64_t tm_post(SCCMachineState *s, SCCCore *c, int64_t gap)
{
    SCCCoreTiming *k = tm_core_timing(c);

    k->bus_free = tm_dram_stall(s, c, k->bus_free,
                                &k->n.stall_write_buffer) + gap;
    return k->bus_free - gap;
}

/*
 * A write posted to DRAM at @paddr, @cost at the controller and the trip
 * there and back: it also waits at the controller while its rank or the
 * controller is busy, which keeps the write buffer busy as long.
 */
static void tm_post_dram(SCCMachineState *s, SCCCore *c, uint64_t paddr,
                         int64_t cost)
{
    int64_t trip = tm_hops_to(s, c, paddr) * s->tm->hop_ps;
    int64_t start = tm_post(s, c, cost + 2 * trip);

    tm_core_timing(c)->bus_free += tm_mc_wait(s, c, paddr, start + trip);
}

static void tm_drain(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    /* no block is longer than TCG_MAX_INSNS: the write is out already */
    if (k->bus_free > scc_timing_now(s, c) - TM_MAX_TB_INSNS * k->cpi_ps) {
        tm_dram_stall(s, c, k->bus_free, &k->n.stall_write_buffer);
    }
}

/* A line to DRAM at physical address @paddr, posted: the trip and o_mem_w. */
static void tm_post_line(SCCMachineState *s, SCCCore *c, uint64_t paddr)
{
    tm_post_dram(s, c, paddr, s->tm->mem_w_ps);
    tm_core_timing(c)->n.dram_line_writes++;
}

/* The WCB's DRAM line goes out, as one line write. */
void tm_dram_wcb_out(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);

    if (!k->wcb_dram) {
        return;
    }
    k->wcb_dram = false;
    k->n.wcb_flushes++;
    tm_post_line(s, c, (uint64_t)k->wcb_dram_line * SCC_LINE);
}

/*
 * Before an uncached or MPB transaction: the WCB's DRAM line goes out,
 * and the transaction waits for the posted writes (the P54C keeps its
 * writes and reads in order).
 */
void tm_bus_quiet(SCCMachineState *s, SCCCore *c)
{
    tm_dram_wcb_out(s, c);
    tm_drain(s, c);
}

/* The L2's way @w of set @s2 leaves: a dirty line is written back. */
static void tm_l2_evict(SCCMachineState *s, SCCCore *c, int s2, int w)
{
    SCCCoreTiming *k = tm_core_timing(c);

    if (k->l2_tag[s2][w] && (k->l2_dirty[s2] & (1u << w))) {
        k->n.dram_writebacks++;
        tm_post_line(s, c, (uint64_t)(k->l2_tag[s2][w] - 1) * SCC_LINE);
    }
    k->l2_dirty[s2] &= ~(1u << w);
    k->l2_tag[s2][w] = 0;
}

static int tm_l2_way(SCCCoreTiming *k, uint32_t tag)
{
    int s2 = (tag - 1) % SCC_L2_SETS, w;

    for (w = 0; w < SCC_L2_WAYS; w++) {
        if (k->l2_tag[s2][w] == tag) {
            return w;
        }
    }
    return -1;
}

/*
 * The L1's way @w of set @s1 leaves: a dirty line goes to the L2 through
 * the P54C's replacement write-back buffer, behind the fill, at no cost
 * to the core; or past the L2 to DRAM, posted, if the L2 no longer holds
 * it.
 */
static void tm_l1_evict(SCCMachineState *s, SCCCore *c, int s1, int w)
{
    SCCCoreTiming *k = tm_core_timing(c);
    uint32_t tag = k->d1_tag[s1][w];
    int w2;

    if (tag && (k->d1_dirty[s1] & (1u << w))) {
        w2 = tm_l2_way(k, tag);
        if (w2 >= 0) {
            k->l2_dirty[(tag - 1) % SCC_L2_SETS] |= 1u << w2;
        } else {
            tm_post_line(s, c, (uint64_t)(tag - 1) * SCC_LINE);
        }
    }
    k->d1_dirty[s1] &= ~(1u << w);
}

/*
 * An MPBT store to DRAM: it goes into the write-combine buffer, which
 * sends the line out as one write when a store goes to another line, when
 * the line is full, or before an uncached or MPB access (002: 125 MB/s
 * against 22 MB/s for plain stores). MPBT data bypass the L2.
 */
static void tm_dram_wcb_store(SCCMachineState *s, SCCCore *c, uint64_t paddr,
                              int size)
{
    SCCCoreTiming *k = tm_core_timing(c);
    uint32_t line = paddr / SCC_LINE, off = paddr % SCC_LINE;
    uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;

    if (k->wcb_dram && k->wcb_dram_line != line) {
        tm_dram_wcb_out(s, c);
    }
    if (!k->wcb_dram) {
        k->wcb_dram = true;
        k->wcb_dram_line = line;
        k->wcb_dram_mask = 0;
    }
    k->wcb_dram_mask |= mask;
    if (k->wcb_dram_mask == ~0u) {
        tm_dram_wcb_out(s, c);
    }
}

/* A store that misses both caches: posted around them, its own write. */
static void tm_store_around(SCCMachineState *s, SCCCore *c, uint64_t paddr)
{
    tm_core_timing(c)->n.dram_writes_around++;
    tm_post_dram(s, c, paddr, s->tm->mem_ws_ps);
}

/*
 * A load or store to RAM (shared DRAM: tm_shared_access). The core's L1
 * (16 KiB, 4-way, tree pseudo-LRU: tm_l1_victim) and the tile's L2 for
 * this core (256 KiB, 4-way), 32-byte lines, both write-back and neither
 * allocating on a write miss (002: "write back, and do not allocate on
 * write miss, i.e. are write around"):
 * - a read that misses both waits for the posted writes, then costs
 *   o_mem_r + 2 d L_hop and fills both (MPBT lines: the L1 only); a read
 *   that misses only the L1 costs an L2 hit (not an MPBT read: those
 *   bypass the L2, and a line it holds is a miss for them);
 * - a store that hits the L1 dirties the line; one that hits only the L2
 *   is posted to it (its gap the L2's cost: 002's 116 MB/s L2 writes);
 *   one that misses both is posted around them, o_mem_ws + 2 d L_hop for
 *   each store (002: 22 MB/s, "102 cycles per 4 bytes");
 * - dirty lines are written back when evicted: from the L1 into the L2,
 *   from the L2 to DRAM, a line write (o_mem_w) the next transaction
 *   waits for. So RCCE's copy into private memory, which reads each
 *   destination line before writing it, pays o_mem_r + o_mem_w a line
 *   once the L2 is full of its dirty lines: 001's o_mem_w;
 * - MPBT stores go through the write-combine buffer (tm_dram_wcb_store).
 * No coherence is needed: private DRAM is one core's.
 */
void tm_ram(CPUState *cs, uint64_t paddr, int size, bool store,
            bool mpbt, int mmu_idx, uint64_t vaddr, void *haddr,
            int tlb_flags)
{
    SCCMachineState *s = tm_machine;
    SCCCore *c = &s->core[cs->cpu_index];
    SCCCoreTiming *k = tm_core_timing(c);
    uint32_t line = paddr / SCC_LINE, tag = line + 1;
    int s1 = line % SCC_L1_SETS, s2 = line % SCC_L2_SETS, w;
    int64_t trip;
    bool shared;

    /*
     * Page-table walks follow QEMU's TLB, whose size QEMU tunes by host
     * time: they would make runs differ. TLB misses cost nothing here.
     */
    if (!tm_in_run(c) || mmu_idx >= MMU_PHYS_IDX) {
        return;
    }
    /*
     * The WCB combines MPBT-typed stores wherever they go: one to a DRAM
     * line pushes the MPB line it holds out, as a store to another MPB
     * line does (the kernel flushes its WCB with a store to an MPBT page
     * of its own DRAM). First, before anything here changed, since the
     * flush may restart the instruction.
     */
    if (store && mpbt && k->wcb_valid) {
        tm_flush_wcb(s, c);
    }
    if (!s->tp.dram) {
        return;     /* only the MPBT pages are reported then */
    }
    shared = (paddr >> SCC_PAGE_SHIFT) >= SCC_PAGE_SHARED &&
             (paddr >> SCC_PAGE_SHIFT) < SCC_PAGE_MPB;
    if (shared) {
        tm_dram_wcb_out(s, c);
        tm_drain(s, c);
        tm_shared_access(s, c, paddr, store);
        if (store) {
            tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
        } else {
            tm_io_event(c); /* other cores write shared DRAM: not a spin */
        }
        return;
    }
    if (store) {
        /* for tm_loop_state: all a store to a dirty line of the L1 does
         * here (the filter's stores log themselves) */
        tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
        if (mpbt) {
            tm_dram_wcb_store(s, c, paddr, size);
            return;
        }
    }
    if (store && tag == k->around_tag) {
        /* the line last written around, and no cache has changed since */
        tm_around_set(cs, tlb_flags == TLB_TIMED, mmu_idx, vaddr, haddr,
                      paddr);
        tm_store_around(s, c, paddr);
        return;
    }
    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (k->d1_tag[s1][w] == tag) {
            k->d1_plru[s1] = tcg_timing_plru_touch(k->d1_plru[s1], w);
            if (store) {
                k->d1_dirty[s1] |= 1u << w;
            }
            /* the filter takes loads of it, and stores once it is dirty
             * (if its page needs nothing else of the slow path: no
             * TLB_NOTDIRTY, no code on it) */
            tm_filter_set(cs, s1, !mpbt, mmu_idx, vaddr, haddr, paddr,
                          (k->d1_dirty[s1] & (1u << w)) &&
                          !(tlb_flags & ~TLB_TIMED));
            return;
        }
    }
    /*
     * MPBT loads bypass the L2 (002: "MPBT tagged reads do not benefit
     * from the L2 cache as it is bypassed"): a line the L2 holds from
     * plain accesses is not a hit for them. (MPBT stores went to the WCB
     * above.)
     */
    w = mpbt ? -1 : tm_l2_way(k, tag);
    if (store) {
        if (w >= 0) {
            k->l2_dirty[s2] |= 1u << w;
            tm_post(s, c, k->l2_ps);
        } else {
            k->around_tag = tag;
            tm_around_set(cs, tlb_flags == TLB_TIMED, mmu_idx, vaddr, haddr,
                          paddr);
            tm_store_around(s, c, paddr);
        }
        return;
    }
    k->around_tag = 0;      /* the caches change */
    tm_around_set(cs, false, 0, 0, NULL, 0);
    k->n.l1_data_misses++;
    tm_drain(s, c);
    if (w >= 0) {
        tm_dram_wait(s, c, k->l2_ps);
    } else {
        k->n.l2_misses++;
        if (!mpbt) {
            w = k->l2_next[s2];
            k->l2_next[s2] = (w + 1) % SCC_L2_WAYS;
            tm_l2_evict(s, c, s2, w);
            k->l2_tag[s2][w] = tag;
            tm_drain(s, c);     /* the write-back goes out first */
        }
        k->n.dram_line_reads++;
        trip = tm_hops_to(s, c, paddr) * s->tm->hop_ps;
        tm_dram_wait(s, c, s->tm->mem_r_ps + 2 * trip +
                     tm_mc_wait(s, c, paddr, tm_exact_now(s, c) + trip));
    }
    w = tm_l1_victim(k->d1_tag[s1], k->d1_plru[s1]);
    tm_l1_evict(s, c, s1, w);
    k->d1_tag[s1][w] = tag;
    k->d1_plru[s1] = tcg_timing_plru_touch(k->d1_plru[s1], w);
    if (mpbt) {
        k->d1_mpbt[s1] |= 1u << w;
        k->d1_mpbt_sets[s1 / 64] |= 1ull << (s1 % 64);
    } else {
        k->d1_mpbt[s1] &= ~(1u << w);
    }
    tm_filter_set(cs, s1, !mpbt, mmu_idx, vaddr, haddr, paddr, false);
}
