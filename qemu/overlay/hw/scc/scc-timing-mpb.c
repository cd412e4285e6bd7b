/*
 * SCC timing mode, the MPB: its L1 model for MPBT lines, the write-combine
 * buffer, stale reads.
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

/* --- the MPB ------------------------------------------------------------ */

static uint8_t *tm_mpb_ram(SCCMachineState *s, uint32_t line)
{
    SCCTile *t = &s->tile[line / SCC_MPB_LINES];

    return t->mpb_host + (line % SCC_MPB_LINES) * SCC_LINE;
}

static int tm_l1_way(SCCCoreTiming *k, uint32_t line)
{
    int set = line % SCC_L1_SETS, w;

    for (w = 0; w < SCC_L1_WAYS; w++) {
        if (k->l1_tag[set][w] == line + 1) {
            return w;
        }
    }
    return -1;
}

static void tm_stale_report(SCCMachineState *s, SCCCore *c, uint32_t line,
                            int way)
{
    SCCTiming *tm = s->tm;
    uint64_t bit = (uint64_t)c->id * s->ntiles * SCC_MPB_LINES + line;
    int set = line % SCC_L1_SETS;

    SCCCoreTiming *k = tm_core_timing(c);
    int tile = line / SCC_MPB_LINES, off = (line % SCC_MPB_LINES) * SCC_LINE;
    int64_t now = scc_timing_now(s, c);

    k->n.stale_reads++;
    trace_scc_timing_stale_read(c->id, tile, off, k->l1_time[set][way],
                                tm->line_writer[line], tm->line_written[line],
                                now);
    if (tm->stale_seen[bit / 64] & (1ull << (bit % 64))) {
        return;
    }
    tm->stale_seen[bit / 64] |= 1ull << (bit % 64);
    /* a guest mistake: timing-stale=on turns guest_errors on (see init) */
    qemu_log_mask(LOG_GUEST_ERROR, "scc timing: core %02d read stale MPB data: "
                  "tile %d offset 0x%04x, cached at %.3f us, written by core "
                  "%02d at %.3f us, read at %.3f us (a CL1INVMB missing before "
                  "the read?)\n", c->id, tile, off, k->l1_time[set][way] / 1e6,
                  tm->line_writer[line], tm->line_written[line] / 1e6,
                  now / 1e6);
}

/* Put the bytes the core's WCB holds for @line over @len bytes at @off. */
static void tm_wcb_forward(SCCCore *c, uint32_t line, unsigned off,
                           unsigned len, uint8_t *out)
{
    SCCCoreTiming *k = tm_core_timing(c);
    unsigned i;

    if (k->wcb_valid && k->wcb_line == line) {
        for (i = 0; i < len; i++) {
            if (tm_core_wcb(c)->mask & (1u << (off + i))) {
                out[i] = tm_core_wcb(c)->data[off + i];
            }
        }
    }
}

/*
 * An MPBT hit. It counts once its instruction is done: a later access of
 * the same instruction (the write of a MOVS, the next line) may restart
 * it, and the hit is then made again.
 */
static void tm_count_hit(SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t insn = tm_insns(c);

    if (k->hit_insn != insn) {
        k->n.l1_mpbt_hits += k->hits_pending;
        k->hits_pending = 0;
        k->hit_insn = insn;
    }
    k->hits_pending++;
}

/*
 * Read @len bytes at @off of one line into @out; returns the L1 way that
 * holds the line now (-1: not cached, an uncached read). An MPBT read, hit
 * or fill, makes the line the most recently used of its set (the bits are
 * in the CPU state, where the REP loads' hits update them too); MPBT
 * stores, which the WCB takes, leave the bits alone.
 */
static int tm_read_line(SCCMachineState *s, SCCCore *c, uint32_t line,
                        unsigned off, unsigned len, uint8_t *out, bool mpbt)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingMPBHits *m = &cpu_env(c->cs)->timing_mpb;
    uint8_t *mem = tm_mpb_ram(s, line);
    int set = line % SCC_L1_SETS, way = mpbt ? tm_l1_way(k, line) : -1;
    int tile = line / SCC_MPB_LINES;
    int64_t a;

    if (way >= 0) {
        tm_count_hit(c);
        m->plru[set] = tcg_timing_plru_touch(m->plru[set], way);
        if (s->timing_stale) {
            if (memcmp(k->l1_data[set][way] + off, mem + off, len)) {
                tm_stale_report(s, c, line, way);
            }
            mem = k->l1_data[set][way];
        }
    } else {
        a = tm_transact(s, c, tile, tm_core_timing(c)->mpb_ps, true,
                        &k->n.stall_mpb_read);
        k->n.mpb_line_reads++;
        if (mpbt) {
            k->n.l1_mpbt_misses++;
            way = tm_l1_victim(k->l1_tag[set], m->plru[set]);
            m->plru[set] = tcg_timing_plru_touch(m->plru[set], way);
            m->line[set][way].tag = 0;
            k->l1_tag[set][way] = line + 1;
            k->l1_sets[set / 64] |= 1ull << (set % 64);
            memcpy(k->l1_data[set][way], mem, SCC_LINE);
            k->l1_time[set][way] = a;
        }
    }
    memcpy(out, mem + off, len);
    tm_wcb_forward(c, line, off, len, out);
    return way;
}

/* Write bytes to the MPB at @a (their arrival): visible from then on. */
static void tm_apply(SCCMachineState *s, SCCCore *c, uint32_t line,
                     uint32_t mask, const uint8_t *data, int64_t a)
{
    uint8_t *mem = tm_mpb_ram(s, line);
    int i;

    for (i = 0; i < SCC_LINE; i++) {
        if (mask & (1u << i)) {
            mem[i] = data[i];
        }
    }
    s->tm->line_writer[line] = c->id;
    s->tm->line_written[line] = a;
    tm_wake_pollers(s, line, a);
}

void tm_flush_wcb(SCCMachineState *s, SCCCore *c)
{
    SCCCoreTiming *k = tm_core_timing(c);
    int64_t a;

    a = tm_transact(s, c, k->wcb_line / SCC_MPB_LINES, k->mpb_ps, true,
                    &k->n.stall_mpb_write);
    k->n.wcb_flushes++;
    k->n.mpb_line_writes++;
    k->wcb_valid = false;
    tm_core_wcb(c)->tag = 0;
    tm_apply(s, c, k->wcb_line, tm_core_wcb(c)->mask, tm_core_wcb(c)->data, a);
}

/*
 * A store of @len bytes at @off of @line; @io_tag its line tag
 * (tcg_timing_io_st_tag), for the store helper's merges into the WCB
 * (TCGTimingWCB).
 */
static void tm_write_line(SCCMachineState *s, SCCCore *c, uint32_t line,
                          unsigned off, unsigned len, const uint8_t *in,
                          bool mpbt, uint64_t io_tag)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingWCB *w = tm_core_wcb(c);
    uint32_t mask = (len == 32 ? ~0u : ((1u << len) - 1)) << off;
    int way = tm_l1_way(k, line);
    uint8_t data[SCC_LINE];
    int64_t a;

    tm_io_event(c);
    if (way >= 0) {     /* the helper's hits must see the WCB: not theirs */
        cpu_env(c->cs)->timing_mpb.line[line % SCC_L1_SETS][way].tag = 0;
    }
    if (k->wcb_valid && (k->wcb_line != line || !mpbt)) {
        tm_flush_wcb(s, c);     /* in order: the WCB goes out first */
    }
    if (!k->wcb_valid) {
        w->mask = 0;
    }
    memcpy(data, w->data, SCC_LINE);
    memcpy(data + off, in, len);
    if (!mpbt || (w->mask | mask) == ~0u) {
        /* out now: uncached, or the line is full (no state changed yet,
         * so the access can still restart) */
        a = tm_transact(s, c, line / SCC_MPB_LINES, k->mpb_ps, true,
                        &k->n.stall_mpb_write);
        k->n.mpb_line_writes++;
        if (mpbt) {
            k->n.wcb_flushes++;
            mask = ~0u;
        }
        k->wcb_valid = false;
        w->tag = 0;
        tm_apply(s, c, line, mask, data, a);
    } else {
        k->wcb_valid = true;
        k->wcb_line = line;
        w->mask |= mask;
        memcpy(w->data, data, SCC_LINE);
        /* the next stores to it may merge on their own (not in the stale
         * mode: there they write the L1's copy through too) */
        w->tag = s->timing_stale ? 0 : io_tag;
        w->gen = cpu_env(c->cs)->timing_mpb.gen;
    }
    if (way >= 0) {     /* the L1 is written through */
        memcpy(k->l1_data[line % SCC_L1_SETS][way] + off, in, len);
    }
}

/*
 * Line @line, which the core just read with line tag @io_tag
 * (tcg_timing_io_ld_tag), is in way @way of its L1 model: let the REP
 * string loads' helper take its hits (TCGTimingMPBHits). Not in the stale
 * mode (a hit returns the L1's copy there), nor while the WCB holds bytes
 * of the line, which a read must see (tm_write_line drops the entry).
 */
static void tm_mpb_hits_allow(SCCMachineState *s, SCCCore *c, uint32_t line,
                              int way, uint64_t io_tag)
{
    SCCCoreTiming *k = tm_core_timing(c);
    TCGTimingMPBHits *m = &cpu_env(c->cs)->timing_mpb;
    uint32_t vline = io_tag & -SCC_LINE;
    int set = line % SCC_L1_SETS;
    TCGTimingMPBLine *l;

    QEMU_BUILD_BUG_ON(SCC_L1_SETS != TCG_TIMING_FILTER_LINES ||
                      SCC_L1_WAYS != TCG_TIMING_MPB_WAYS);
    if (!io_tag || s->timing_stale || way < 0 ||
        (k->wcb_valid && k->wcb_line == line) ||
        vline / SCC_LINE % SCC_L1_SETS != set) {
        return;
    }
    l = &m->line[set][way];
    l->tag = io_tag;
    l->gen = m->gen;
    l->key = line / SCC_MPB_LINES * SCC_MPB_SIZE +
             line % SCC_MPB_LINES * SCC_LINE;
    l->addend = (uintptr_t)tm_mpb_ram(s, line) - vline;
}

static MemTxResult tm_mpb_read(void *opaque, hwaddr addr, uint64_t *val,
                               unsigned size, MemTxAttrs attrs)
{
    SCCTile *t = opaque;
    SCCMachineState *s = t->scc;
    SCCCore *c = tm_current_core();
    uint32_t off = addr & (SCC_MPB_SIZE - 1);
    uint8_t buf[8];
    unsigned done = 0;
    int held = -1;
    uint64_t io_tag = tcg_timing_io_ld_tag;

    tcg_timing_io_ld_tag = 0;
    if (!c || !tm_in_run(c)) {
        *val = scc_mpb_sram_read(t, off, size);
        return MEMTX_OK;
    }
    /* spinning? decide on what the read would return, before doing it */
    {
        SCCCoreTiming *k = tm_core_timing(c);
        uint32_t line = t->id * SCC_MPB_LINES + off / SCC_LINE;
        uint8_t peek[8];
        uint8_t *mem = tm_mpb_ram(s, line);
        int way = attrs.mpbt ? tm_l1_way(k, line) : -1;
        unsigned o = off % SCC_LINE;

        if (o + size <= SCC_LINE) {
            const uint8_t *src = way >= 0 && s->timing_stale ?
                k->l1_data[line % SCC_L1_SETS][way] : mem;

            /*
             * A miss goes over the mesh: wait for the other cores first,
             * so that what is decided on is what the read returns, which
             * the order the cores ran in does not change.
             */
            if (way < 0) {
                tm_bus_quiet(s, c);
                tm_check_arrival(s, c, tm_arrival(s, c, t->id,
                                                  tm_core_timing(c)->mpb_ps));
            }

            memcpy(peek, src + o, size);
            tm_wcb_forward(c, line, o, size, peek);
            tm_spin_check(s, c, (t->id * SCC_MPB_SIZE + off) | size << 28,
                          ldn_le_p(peek, size), line,
                          way >= 0 ? 0 : tm_core_timing(c)->mpb_ps +
                          tm_hops(s, c->tile, t->id) * s->tm->hop_ps);
        } else {
            tm_io_event(c);
        }
    }
    while (done < size) {
        uint32_t o = (off + done) & (SCC_MPB_SIZE - 1);
        unsigned n = MIN(size - done, SCC_LINE - o % SCC_LINE);

        held = tm_read_line(s, c, t->id * SCC_MPB_LINES + o / SCC_LINE,
                            o % SCC_LINE, n, buf + done, attrs.mpbt);
        done += n;
    }
    tm_core_timing(c)->poll_seq = tm_core_timing(c)->io_seq;
    if (off % SCC_LINE + size <= SCC_LINE) {    /* one line: @held is its */
        tm_mpb_hits_allow(s, c, t->id * SCC_MPB_LINES + off / SCC_LINE, held,
                          io_tag);
    }
    *val = ldn_le_p(buf, size);
    return MEMTX_OK;
}

static MemTxResult tm_mpb_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size, MemTxAttrs attrs)
{
    SCCTile *t = opaque;
    SCCMachineState *s = t->scc;
    SCCCore *c = tm_current_core();
    uint32_t off = addr & (SCC_MPB_SIZE - 1);
    uint8_t buf[8];
    unsigned done = 0;
    uint64_t io_tag = tcg_timing_io_st_tag;

    tcg_timing_io_st_tag = 0;
    if (!c || !tm_in_run(c)) {
        scc_mpb_sram_write(t, off, val, size);
        return MEMTX_OK;
    }
    tm_dram_wcb_out(s, c);      /* one WCB: a DRAM line in it goes out */
    stn_le_p(buf, size, val);
    while (done < size) {
        uint32_t o = (off + done) & (SCC_MPB_SIZE - 1);
        unsigned n = MIN(size - done, SCC_LINE - o % SCC_LINE);

        tm_write_line(s, c, t->id * SCC_MPB_LINES + o / SCC_LINE,
                      o % SCC_LINE, n, buf + done, attrs.mpbt,
                      n == size ? io_tag : 0);
        done += n;
    }
    return MEMTX_OK;
}

const MemoryRegionOps scc_timing_mpb_ops = {
    .read_with_attrs = tm_mpb_read,
    .write_with_attrs = tm_mpb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};
