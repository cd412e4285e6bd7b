/*
 * SCC timing mode: one modeled clock per core, the costs of the mesh, and
 * the deterministic scheduler that runs the cores in modeled-time order.
 * See scc-timing.c for the model and docs/system/i386/scc.rst for the
 * table of parameters.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SCC_SCC_TIMING_H
#define HW_SCC_SCC_TIMING_H

#include "exec/memattrs.h"
#include "standard-headers/scc/abi.h"

#define SCC_LINE            32          /* bytes in a cache line */
#define SCC_MPB_LINES       (SCC_MPB_SIZE / SCC_LINE)
#define SCC_L1_SETS         128         /* data L1: 16 KiB, 4-way (002) */
#define SCC_L1_WAYS         4
#define SCC_TM_MAX_EVENTS   8
#define SCC_L2_SETS         2048        /* 256 KiB, 4-way */
#define SCC_L2_WAYS         4

typedef struct SCCMachineState SCCMachineState;
typedef struct SCCCore SCCCore;

/* What a core's clock is doing between runs. */
enum {
    SCC_TM_RUN,         /* runnable at its clock */
    SCC_TM_BLOCKED,     /* an access waits until no core can act before it */
    SCC_TM_POLL,        /* spinning on an MPB line: skipped until written */
};

/* Per-core counters; the CSV of timing-stats= lists them in this order. */
#define SCC_TM_COUNTERS(X) \
    X(instructions)      /* executed by QEMU */ \
    X(poll_instructions) /* of skipped poll iterations, modeled */ \
    X(cycles) \
    X(mpb_line_reads)    /* lines read over the mesh */ \
    X(mpb_line_writes)   /* WCB flushes and uncached writes */ \
    X(l1_mpbt_hits) \
    X(l1_mpbt_misses) \
    X(wcb_flushes) \
    X(crb_accesses) \
    X(sif_accesses) \
    X(stall_mpb_read) \
    X(stall_mpb_write) \
    X(stall_crb) \
    X(stall_sif) \
    X(stall_contention)  /* part of the above spent queued at an MPB */ \
    X(l1_data_misses)    /* private and shared DRAM, L1 */ \
    X(l2_misses) \
    X(dram_line_reads) \
    X(dram_line_writes) \
    X(stall_dram) \
    X(poll_skips)        /* times a spinning core was fast-forwarded */ \
    X(interrupts)        /* LINT and APIC timer events delivered */ \
    X(stale_reads)       /* MPBT hits that returned stale data */ \
    X(dram_writes_around) /* stores that missed L1 and L2: one each */ \
    X(dram_writebacks)   /* dirty lines the L2 evicted to DRAM */ \
    X(stall_write_buffer) /* waiting for the posted write before */ \
    X(mc_waits)          /* DRAM transactions that waited at a rank or MC */ \
    X(mc_wait)           /* and how long: a read's is in stall_dram, a
                            posted write's in the write buffer's gap */

/* leaves of the scheduler's tournament: a power of 2, at least SCC_MAX_CORES */
#define SCC_TM_LEAVES 64

typedef struct SCCTimingCounters {
#define SCC_TM_FIELD(n) uint64_t n;
    SCC_TM_COUNTERS(SCC_TM_FIELD)
#undef SCC_TM_FIELD
} SCCTimingCounters;

/* What a pending event does when the core's clock reaches it. */
enum {
    SCC_TM_EV_LINT0,    /* level: the pin's new level */
    SCC_TM_EV_LINT1,
    SCC_TM_EV_CLOCK,    /* mhz: the tile's new clock (GCBCFG) */
};

/* LINT0 mask changes a core remembers (see tm_listened) */
#define SCC_TM_LINT0_LOG 4

typedef struct SCCTimingEvent {
    int64_t at;         /* ps */
    int kind;
    bool level;
    uint32_t mhz;
    /* the core had run past @at when it was sent (see tm_late_lost) */
    bool late;
} SCCTimingEvent;

/* A region of interest (SIF_STATS): its counters summed over its calls. */
typedef struct SCCTimingRegion {
    char name[STATS_NAME_MAX + 1];
    uint64_t calls;
    SCCTimingCounters sum, begin;
} SCCTimingRegion;

/* The shared-DRAM accesses of one instruction a restart remembers. */
#define SCC_TM_SHARED_PER_INSN 4

typedef struct SCCCoreTiming {
    int state;
    bool running;               /* in its run slice now */
    /*
     * LINT0 unmasked when the slice began: the core runs no further than
     * an interrupt from another core could reach it. A core that masks
     * LINT0 runs on to its next event; what others send it is then late.
     */
    bool listening;
    /* the last LINT0 mask changes: at (ps), and whether it listens since */
    int64_t lint0_at[SCC_TM_LINT0_LOG];
    bool lint0_on[SCC_TM_LINT0_LOG];
    unsigned lint0_n;           /* changes so far */
    /*
     * clock: t0 + (insns - insn0) * cpi_ps + what the instruction classes
     * added since mc0 (milli-cycles, tm_class_ps) (ps)
     */
    /*
     * DRAM: the line the last store went around the caches to (tag, 0 if
     * none), until a read fills a line: a store to it needs no look-up
     * (host time only)
     */
    uint32_t around_tag;
    int64_t t0, insn0, mc0;
    /*
     * The tile's clock (GCBCFG; core-hz at reset): a core cycle, an
     * instruction, and the core-side overheads of its accesses, in ps.
     * The TSC counts its cycles: tsc0 at tsc_t0, one per core_ps since.
     */
    int64_t core_ps, cpi_ps, mpb_ps, crb_ps, sif_ps, l2_ps;
    int64_t tsc0, tsc_t0;
    int64_t insns;              /* executed before the current run */
    int64_t budget;             /* instructions the current run was given */
    int64_t end;                /* ps: where that run must end (tm_next) */
    /*
     * No access may arrive later, this run: the earliest another core's
     * access can arrive. One arriving at the limit itself goes only if
     * the core is below limit_core, the lowest core that could do that.
     */
    int64_t limit;
    int limit_core;
    int64_t blocked_arrival;    /* SCC_TM_BLOCKED */
    int64_t mc_end;             /* a run ends once a stall passes this */
    int64_t mc_b, mc_lo;        /* its last controller window, and its start */
    /* the servers of the last LUT entry it sent a transaction through
     * (key: the entry | 1 << 32, 0 for none yet); NULL: no controller */
    uint64_t mc_key;
    struct TMServer *mc_rank, *mc_ctl;

    SCCTimingEvent ev[SCC_TM_MAX_EVENTS];
    int nev;
    int64_t apic_deadline;      /* ps, -1: none */

    /* L1: MPBT lines only; tag = global line + 1, 0 = invalid (its
     * replacement bits: env->timing_mpb.plru) */
    uint32_t l1_tag[SCC_L1_SETS][SCC_L1_WAYS];
    uint64_t l1_sets[SCC_L1_SETS / 64];         /* bit: a line filled there */
    uint8_t l1_data[SCC_L1_SETS][SCC_L1_WAYS][SCC_LINE];
    int64_t l1_time[SCC_L1_SETS][SCC_L1_WAYS];  /* filled at */

    /* L1 and L2 for DRAM: tags = physical line + 1 */
    uint32_t d1_tag[SCC_L1_SETS][SCC_L1_WAYS];
    uint8_t d1_plru[SCC_L1_SETS];               /* tcg_timing_plru_touch */
    uint8_t d1_dirty[SCC_L1_SETS];              /* bit w: way w written */
    uint8_t d1_mpbt[SCC_L1_SETS];               /* bit w: way w read MPBT-typed
                                                   (CL1INVMB drops it) */
    uint64_t d1_mpbt_sets[SCC_L1_SETS / 64];    /* bit: d1_mpbt set there */
    uint32_t l2_tag[SCC_L2_SETS][SCC_L2_WAYS];
    uint8_t l2_next[SCC_L2_SETS];
    uint8_t l2_dirty[SCC_L2_SETS];
    /*
     * The P54C's write buffer: a write to the L2 or around the caches is
     * posted, and the core goes on; the next such write, or any read that
     * leaves the core, waits until it is out (bus_free, ps).
     */
    int64_t bus_free;
    /* the write-combine buffer holding a DRAM line (MPBT stores to DRAM):
     * its physical line and the bytes written so far */
    bool wcb_dram;
    uint32_t wcb_dram_line;
    uint32_t wcb_dram_mask;

    /* the one-line write-combine buffer (its bytes: TCGTimingWCB) */
    bool wcb_valid;
    uint32_t wcb_line;                          /* global line */

    /* spin detection: the previous MPB read and its repeats */
    uint64_t io_seq;            /* bumped by every other timed event */
    uint64_t poll_seq;
    uint32_t poll_addr;         /* global byte address | size << 28 */
    uint64_t poll_val;
    int64_t poll_t, poll_insn;  /* issue time and instruction count */
    int64_t poll_dt, poll_dinsn;
    int poll_repeats;
    int64_t poll_rlat;          /* issue to arrival of the spinning read */
    uint32_t poll_line;
    uint64_t poll_state;        /* registers, EIP and stores since the last */

    /* MPBT hits of the instruction that made the last one: see tm_count_hit */
    int64_t hit_insn;
    uint64_t hits_pending;

    /*
     * Shared-DRAM accesses of instruction shared_insn: done (charged) by an
     * earlier attempt of it, which ones (address << 1 | store), and how
     * many this attempt has made so far. See tm_shared_access.
     */
    int64_t shared_insn;
    int shared_done, shared_seen;
    uint64_t shared_key[SCC_TM_SHARED_PER_INSN];

    SCCTimingCounters n;

    /* regions of interest: see SIF_STATS */
    SCCTimingRegion region[STATS_REGIONS];
    int nregions;
    int open_region;            /* index + 1; 0: none open */
    char next_name[STATS_NAME_MAX + 1];
    int next_len;
} SCCCoreTiming;

typedef struct SCCTimingParams {
    uint64_t mesh_hz;
    uint64_t dram_hz;           /* the memory controllers' clock */
    uint32_t hop_cycles;        /* mesh cycles per router */
    uint32_t mpb_cycles;        /* core cycles of overhead per MPB line */
    uint32_t mpb_mesh_cycles;   /* and mesh cycles */
    uint32_t crb_cycles;
    uint32_t sif_cycles;
    uint32_t irq_cycles;        /* GLCFG arrival to the LINT pin */
    uint32_t mpb_service_ps;    /* MPB port time per line (contention) */
    uint32_t cpi_milli;         /* core cycles per instruction x 1000 */
    uint32_t l2_cycles;         /* an L1 miss that hits the L2 */
    uint32_t mem_r_cycles;      /* o_mem_r, DRAM cycles: a DRAM line read */
    uint32_t mem_w_cycles;      /* DRAM cycles: a line written to DRAM */
    uint32_t mem_ws_cycles;     /* DRAM cycles: one store written around */
    uint32_t rank_cycles;       /* DRAM cycles a rank takes a transaction */
    uint32_t mc_cycles;         /* and its controller */
    uint32_t mc_window_ns;      /* their service windows; 0: no queues */
    char *stats_file;
    bool dram;                  /* time DRAM accesses through L1/L2 */
    bool insn_classes;          /* P54C costs of expensive instructions */
} SCCTimingParams;

/* windows a rank or controller remembers (a power of 2), and how many a
 * core may run ahead of the others (less than half of them) */
#define TM_MC_WINDOWS 256
#define TM_MC_HORIZON 64

/* A rank or a memory controller: the service it gave in each window of
 * modeled time (scc-timing-mc.c) */
typedef struct TMWindow {
    int64_t tag;                /* the window the slot counts; -1: none */
    int64_t next;               /* once full: where to look next */
    int64_t used;               /* ps of service taken */
} TMWindow;

typedef struct TMServer {
    int64_t svc;                /* ps per transaction */
    TMWindow w[TM_MC_WINDOWS];
} TMServer;

typedef struct SCCTiming {
    /* derived, in ps */
    /* core-side costs at core-hz, the fastest a tile may run: the
     * lookahead's bound (each core's own are in SCCCoreTiming) */
    int64_t core_ps, cpi_ps, mpb_ps, crb_ps, sif_ps;
    int64_t hop_ps, irq_ps, mem_r_ps, mem_w_ps, mem_ws_ps;
    int64_t mpb_mesh_ps;        /* the mesh's part of an MPB access */
    int64_t mc_window_ps;       /* 0: the controllers do not queue */
    TMServer *mc_q[SCC_NUM_MC];
    TMServer *rank_q[SCC_NUM_MC * SCC_MC_RANKS];
    int64_t lookahead;          /* the earliest any action affects another */
    int64_t irq_lookahead;      /* the earliest a core interrupts another */
    int sif_tile;
    int64_t io_arrival;         /* the arrival of the access being done */
    bool stall_reported;
    /*
     * A core stopped at a breakpoint, and the stop of the others it asked
     * for not done yet: the main loop does it in host time.
     */
    bool debug_stopping;
    uint64_t blocks;            /* restarts of accesses (host work) */
    int64_t port_busy[SCC_MAX_TILES];  /* MPB port of each tile busy until */
    int16_t line_writer[SCC_MAX_TILES * SCC_MPB_LINES];
    int64_t line_written[SCC_MAX_TILES * SCC_MPB_LINES];
    /* the cores parked on each line (state SCC_TM_POLL): a write wakes
     * them without looking at every core's state */
    uint64_t line_pollers[SCC_MAX_TILES * SCC_MPB_LINES];
    uint64_t *stale_seen;       /* ncores x lines bitmap */
    uint64_t link[SCC_MAX_TILES][4];   /* packets out of each router: E S W N */
    /*
     * Every core's key (NEVER if it cannot run), kept in one place: a
     * scan of the cores' own state at every switch touched three cache
     * lines a core. Between two switches only the core that ran changes,
     * unless something reached other cores: that sets keys_stale or
     * bumps the machine's event count, and all are computed again.
     */
    int64_t key[SCC_TM_LEAVES];    /* NEVER past the last core */
    /*
     * A tournament over the keys: win[n] is the smaller rank (key, id in
     * one number: tm_rank) of nodes 2n and 2n + 1, the leaves at
     * SCC_TM_LEAVES + core. A switch changes one leaf: log n to update,
     * and the second smallest is among the ones the first beat.
     */
    int64_t win[2 * SCC_TM_LEAVES];
    bool keys_stale;
    uint64_t keys_events;       /* the machine's events when computed */
    int last;                   /* the core that ran last, or -1 */
    /* each core's LINT inputs, behind the model's delay (lint_delay) */
    qemu_irq lint_out[SCC_MAX_CORES][2];
    void (*stalled)(SCCMachineState *s, const char *why);
} SCCTiming;

/*
 * What the devices ask of the model, all of it: the machine's
 * timing_hooks is NULL in functional mode, so one test tells the modes
 * apart and no device calls into the model by name. The model calls no
 * device either: it changes LINT pins through qemu_irq lines the machine
 * wires (lint_delay) and reads the MPBs' SRAM itself.
 */
typedef struct SCCTimingHooks {
    /* A CRB (tile @tile's) or SIF access by the current core: may restart
     * it later. */
    void (*io)(SCCMachineState *s, int tile, bool sif);
    /* Core @c released from reset, by the current core's access or not. */
    void (*release)(SCCMachineState *s, SCCCore *c);
    /* The current core's GCBCFG write set tile @tile's clock to @mhz. */
    void (*tile_clock)(SCCMachineState *s, int tile, uint32_t mhz);
    void (*cl1invmb)(SCCMachineState *s, SCCCore *c);
    void (*hlt)(SCCMachineState *s, SCCCore *c);
    /* RDTSC on core @c: its own cycles. */
    uint64_t (*tsc)(SCCMachineState *s, SCCCore *c);
    /* When the current core's access arrives, in ps (the GTSC it reads);
     * 0 when no core is running. */
    int64_t (*io_time)(SCCMachineState *s);
    /* SIF_STATS_NAME and SIF_STATS, written by core @c. */
    void (*region_name)(SCCMachineState *s, SCCCore *c, uint8_t byte);
    void (*region)(SCCMachineState *s, SCCCore *c, uint32_t cmd);
    /*
     * Core @c's two LINT inputs as the model sees them: a pin a running
     * core's GLCFG write changes reaches @pins when the write gets there
     * (plus the pin's latency), any other change at once.
     */
    qemu_irq *(*lint_delay)(SCCMachineState *s, SCCCore *c, qemu_irq *pins);
    /* The MPB page's accesses: in this mode the page is I/O. */
    const MemoryRegionOps *mpb_ops;
} SCCTimingHooks;

/* The machine's side: the knobs, set-up and reset. */
void scc_timing_add_props(ObjectClass *oc);
/* @stalled: called once if no core can make progress in modeled time. */
bool scc_timing_init(SCCMachineState *s,
                     void (*stalled)(SCCMachineState *s, const char *why),
                     Error **errp);
void scc_timing_reset(SCCMachineState *s);

#endif
