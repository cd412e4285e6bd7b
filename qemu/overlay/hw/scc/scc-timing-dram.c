/*
 * SCC timing mode, DRAM: the L1 and L2 models, the memory controllers,
 * shared DRAM.
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
 * A store to line @vaddr, which is not in the L1, changed nothing but
 * the store log, and the next ones will not either while it stays in the
 * L2 or stays the line last written around (tm_filter_drop): let stores
 * to it skip tm_ram, loads not (they would bring it into the L1). It
 * takes the place of its set's entry, which only costs that line's
 * loads the slow path once.
 */
static void tm_filter_store_only(CPUState *cs, int set, int mmu_idx,
                                 uint64_t vaddr, void *haddr, uint64_t paddr)
{
    TCGTimingFilterEntry *f = &cpu_env(cs)->timing_filter[set];

    tm_filter_set(cs, set, true, mmu_idx, vaddr, haddr, paddr, true);
    if (f->tag) {
        f->pline |= TCG_TIMING_PLINE_NOLOAD;
    }
}

/* Line tag - 1 left the L2 or is no longer the one written around. */
static void tm_filter_drop(CPUState *cs, uint32_t tag)
{
    TCGTimingFilterEntry *f;
    uint32_t line = tag - 1;

    if (!tag) {
        return;
    }
    f = &cpu_env(cs)->timing_filter[line % SCC_L1_SETS];
    if (f->pline == (line * SCC_LINE | TCG_TIMING_PLINE_NOLOAD)) {
        f->tag = 0;
    }
}

/* Every translation may have changed: empty the filter and the MPB's. */
void tm_filter_clear(CPUState *cs)
{
    memset(cpu_env(cs)->timing_filter, 0,
           sizeof(cpu_env(cs)->timing_filter));
    cpu_env(cs)->timing_mpb.gen++;
}

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
    tm_transact(s, c, y * s->mesh_x + x,
                store ? s->tm->mem_w_ps : s->tm->mem_r_ps, false,
                &k->n.stall_dram);
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
 * A load or store to RAM (shared DRAM: tm_shared_access). The P54C's L1 (8 KiB,
 * 2-way) and the tile's L2 for this core (256 KiB, 4-way), 32-byte lines:
 * a read that misses both costs o_mem_r + 2 d L_hop and fills both; a
 * read that misses only the L1 costs an L2 hit, a write that hits the L2
 * nothing (the P54C's write buffers post it). Neither cache allocates on
 * a write miss (002: "write back, and do not allocate on write miss, i.e.
 * are write around"): a write that misses the L2 goes to the memory
 * controller, o_mem_w + 2 d L_hop, and the line stays uncached. 001 charges
 * o_mem_w per line, so the stores that follow to the same line go with
 * the first. Write-backs of evicted lines are not charged again. No
 * coherence is needed: private DRAM is one core's.
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
    int64_t cost;
    /*
     * Whether a load of this line, once it is the most recently used of
     * its set, leaves everything here as it was: not for shared DRAM
     * (io_seq) nor for MPBT (the WCB): see tm_filter_set.
     */
    bool plain, shared;

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
        tm_shared_access(s, c, paddr, store);
        if (store) {
            tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
        } else {
            tm_io_event(c); /* other cores write shared DRAM: not a spin */
        }
        return;
    }
    if (store) {
        /* for tm_loop_state: all a store to the L1 set's most recently
         * used line does here (the filter's stores log themselves) */
        tcg_timing_log_store(&cpu_env(cs)->timing_log, paddr, size);
    }
    plain = !mpbt;
    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (k->d1_tag[s1][w] == tag) {
            k->d1_lru[s1] = !w;
            /* a store may take the filter if its page needs nothing else
             * of the slow path (no TLB_NOTDIRTY: no code on it) */
            tm_filter_set(cs, s1, plain, mmu_idx, vaddr, haddr, paddr,
                          store && !(tlb_flags & ~TLB_TIMED));
            return;
        }
    }
    if (!store) {
        k->n.l1_data_misses++;      /* stores never allocate: not misses */
    }
    for (w = 0; w < SCC_L2_WAYS && k->l2_tag[s2][w] != tag; w++) {
    }
    if (w < SCC_L2_WAYS) {
        cost = store ? 0 : tm_core_timing(c)->l2_ps;
    } else if (store) {
        cost = 0;
        if (k->around_tag != tag) {
            tm_filter_drop(cs, k->around_tag);
            k->around_tag = tag;
            k->n.dram_line_writes++;
            cost = s->tm->mem_w_ps + 2 * tm_hops_to(s, c, paddr) * s->tm->hop_ps;
        }
    } else {
        k->n.l2_misses++;
        w = k->l2_next[s2];
        k->l2_next[s2] = (w + 1) % SCC_L2_WAYS;
        tm_filter_drop(cs, k->l2_tag[s2][w]);
        k->l2_tag[s2][w] = tag;
        k->n.dram_line_reads++;
        cost = s->tm->mem_r_ps + 2 * tm_hops_to(s, c, paddr) * s->tm->hop_ps;
    }
    if (!store) {       /* the P54C does not allocate on a write miss */
        w = k->d1_lru[s1];
        k->d1_tag[s1][w] = tag;
        k->d1_lru[s1] = !w;
        tm_filter_set(cs, s1, plain, mmu_idx, vaddr, haddr, paddr, false);
    } else if (plain && !(tlb_flags & ~TLB_TIMED)) {
        tm_filter_store_only(cs, s1, mmu_idx, vaddr, haddr, paddr);
    }
    if (cost) {
        k->n.stall_dram += cost;
        tm_set_clock(s, c, scc_timing_now(s, c) + cost);
    }
}
