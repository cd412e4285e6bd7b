/*
 * Intel SCC-like many-core chip: machine state shared by hw/scc/.
 *
 * See docs/system/i386/scc.rst for the guest-visible contract.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_SCC_SCC_H
#define HW_SCC_SCC_H

#include "hw/boards.h"
#include "exec/memory.h"
#include "chardev/char-fe.h"
#include "qom/object.h"
#include "qemu/notify.h"
#include "qemu/timer.h"
#include "hw/scc/scc-timing.h"
#include "hw/scc/scc-tile.h"

#define TYPE_SCC_MACHINE MACHINE_TYPE_NAME("scc")
OBJECT_DECLARE_SIMPLE_TYPE(SCCMachineState, SCC_MACHINE)

/*
 * The guest ABI (register offsets, LUT entries, pages, exit statuses, the
 * boot handoff block) is defined once, for the machine and the guest code:
 * include/standard-headers/scc/abi.h in the project, copied into QEMU's
 * tree by scripts/qemu-tree.sh. The SCC_* names below are the machine's
 * older names for some of its facts.
 */
#include "standard-headers/scc/abi.h"
#include "standard-headers/scc/multiboot.h"

#define SCC_ATOMIC_COUNTERS     SIF_NATOMIC

/* A private DRAM slot in an MC is 41 pages, whatever is backed of it. */
#define SCC_SLOT_SIZE           ((uint64_t)SCC_PRIVATE_PAGES * SCC_PAGE_SIZE)
/* Shared DRAM sits after twelve slots of MC0, as with sccKit. */
#define SCC_SHARED_SYSADDR      \
    ((uint64_t)SCC_SHARED_ADDRBITS << SCC_PAGE_SHIFT)
#define SCC_SHARED_MAX          (((uint64_t)SCC_SHARED_ADDRBITS_END << \
                                  SCC_PAGE_SHIFT) - SCC_SHARED_SYSADDR)

/* LUT entry */
#define SCC_LUT_ADDRBITS(e)     LUT_ADDRBITS(e)
#define SCC_LUT_SUBDEST(e)      LUT_SUBDEST(e)
#define SCC_LUT_ROUTE(e)        LUT_ROUTE(e)
#define SCC_LUT_VALID_BITS      LUT_VALID_BITS
#define SCC_LUT_ENTRY(addrbits, subdest, route) \
    LUT_ENTRY(addrbits, subdest, route)

enum {
    SCC_SUB_CORE0 = SUBDEST_CORE0, SCC_SUB_CORE1 = SUBDEST_CORE1,
    SCC_SUB_CRB = SUBDEST_CRB, SCC_SUB_MPB = SUBDEST_MPB,
    SCC_SUB_EAST = SUBDEST_EAST, SCC_SUB_SOUTH = SUBDEST_SOUTH,
    SCC_SUB_WEST = SUBDEST_WEST, SCC_SUB_NORTH = SUBDEST_NORTH,
};

/* Default LUT page numbers */
#define SCC_PAGE_PRIVATE_LAST   (SCC_PRIVATE_PAGES - 1)
#define SCC_PAGE_REMOTE         SCC_WINDOW_PAGE
#define SCC_PAGE_SHARED         SCC_SHARED_PAGE
#define SCC_PAGE_MPB            SCC_MPB_PAGE
#define SCC_PAGE_OWN_MPB        SCC_OWN_MPB_PAGE
#define SCC_PAGE_CRB            SCC_CRB_PAGE
#define SCC_PAGE_OWN_CRB        SCC_OWN_CRB_PAGE
#define SCC_PAGE_SIF            SCC_SIF_PAGE
#define SCC_PAGE_RESET          SCC_RESET_PAGE

/* Statuses the machine reports for cores that could not report their own */
#define SCC_EXIT_HALTED         SCC_EXIT_HUNG
#define SCC_EXIT_TRIPLE_FAULT   SCC_EXIT_TRIPLE

#define SCC_CONSOLE_LINE        SIF_CONSOLE_LINE

/* A core's two console streams (SIF_CONSOLE, SIF_CONSOLE_ERR). */
typedef enum SCCStream {
    SCC_STDOUT,
    SCC_STDERR,
    SCC_NSTREAMS,
} SCCStream;

/* What the machine holds of a stream's unfinished line, escaped. */
typedef struct SCCConsoleLine {
    char buf[SCC_CONSOLE_LINE];
    size_t len;
} SCCConsoleLine;

typedef struct SCCMachineState SCCMachineState;

typedef struct SCCImage SCCImage;

/*
 * What the loader puts into the private DRAM of the cores of one core map
 * line (or of every core, with -kernel). Laid out and checked at machine
 * init, copied at every reset.
 */
typedef struct SCCBootSpec {
    char *where;            /* "file:line" or "-kernel", for messages */
    SCCImage *kernel;
    int nmodules;
    SCCImage **modules;
    uint32_t *module_addr;
    bool hold;              /* load, but keep in reset at power-on */
    uint8_t *mbi;           /* Multiboot information, cmdline, modules */
    size_t mbi_len;
} SCCBootSpec;

typedef struct SCCCore {
    SCCMachineState *scc;
    int id, tile, z;
    CPUState *cs;

    /* The core's physical address space, built from its LUT. */
    MemoryRegion root;
    IOMMUMemoryRegion lut_mr;       /* the LUT's translation (scc-lut.c) */
    MemoryRegion unmapped;          /* background: what no entry maps */
    MemoryRegion apic;              /* the APIC page wins over the LUT */
    uint32_t lut[SCC_LUT_ENTRIES];
    hwaddr xlat[SCC_LUT_ENTRIES];   /* each page's target, in root */
    MemoryRegion targets;           /* the machine's lut_targets, above 4 GiB */

    MemoryRegion private_ram;

    SCCBootSpec *boot;              /* NULL: core gets no image */
    bool started;                   /* released at least once */
    bool held;                      /* in reset (GCBCFG or exited) */
    bool exited;
    bool stopped;                   /* ended by the machine, not itself */
    int exit_status;
    /* What the kernel wrote to the FAULT registers before exiting. */
    bool faulted;
    uint32_t fault_vector, fault_eip, fault_addr;
    /* The core that gave up waiting for it (SIF_UNRESPONSIVE), or -1, and
     * what it was doing then (scc_core_where). */
    int unresponsive_by;
    char *unresponsive_where;

    SCCConsoleLine line[SCC_NSTREAMS];
    uint32_t gtsc_hi_latch;

    /* its inputs, which the tile's GPIO lines drive (scc-core.c) */
    qemu_irq *lint;                 /* LINT0, LINT1 */
    qemu_irq reset;                 /* level 1: held in reset */

    SCCCoreTiming *tm;              /* timing=on only */
} SCCCore;


struct SCCMachineState {
    MachineState parent_obj;

    /* properties */
    uint32_t mesh_x, mesh_y, cores_per_tile;
    uint64_t private_mem, shared_mem;
    uint64_t core_hz, gtsc_hz;
    char *coremap;
    char *console_id;

    int ntiles, ncores;
    SCCTile tile[SCC_MAX_TILES];
    SCCCore core[SCC_MAX_CORES];
    MemoryRegion shared_ram;
    MemoryRegion sif;
    MemoryRegion lut_targets;       /* what LUT entries can name */
    uint32_t atomic[SCC_ATOMIC_COUNTERS];
    CharBackend console;
    int64_t clock_base_ns;

    /* Timing mode (scc-timing.c): modeled SCC time instead of host time */
    bool timing;
    bool timing_stale;              /* MPBT hits may return stale data */
    SCCTimingParams tp;
    const SCCTimingHooks *timing_hooks;     /* NULL: functional mode */
    SCCTiming *tm;
    Notifier timing_exit;

    /* Supervision of the run (scc-supervisor.c) */
    bool keep_going;                /* on-failure=continue */
    bool ending;                    /* the run is being stopped */
    int first_failure;              /* core id, or -1 */
    bool fail_fast;                 /* its stop is scheduled */
    QEMUTimer *stall_timer;
    int stall_checks;               /* consecutive checks that found a stall */
    uint64_t events;                /* bumped by anything that can wake */
    uint64_t stall_events;          /* events at the last stall check */
    Notifier shutdown_notifier;
};

/* scc-core.c: creating, starting, stopping cores, exits */
SCCMachineState *scc_machine(void);
/* The core whose vCPU thread is running this device access, if any. */
SCCCore *scc_current_core(void);

/*
 * scc-props.c: machine knobs backed by a field of SCCMachineState at
 * @offset, their defaults set by QOM (and shown by -M scc,help).
 */
void scc_prop_add_uint32(ObjectClass *oc, const char *name, size_t offset,
                         uint32_t def, const char *desc);
void scc_prop_add_uint64(ObjectClass *oc, const char *name, size_t offset,
                         uint64_t def, const char *desc);
void scc_prop_add_size(ObjectClass *oc, const char *name, size_t offset,
                       uint64_t def, const char *desc);
void scc_prop_add_bool(ObjectClass *oc, const char *name, size_t offset,
                       bool def, const char *desc);

/* scc-lut.c: per-core address spaces */
int scc_mc_at(SCCMachineState *s, int x, int y, int side);
void scc_lut_init(SCCMachineState *s, SCCCore *c);
void scc_lut_targets_init(SCCMachineState *s);
void scc_lut_reset(SCCMachineState *s, SCCCore *c);
void scc_lut_write(SCCMachineState *s, SCCCore *c, int page, uint32_t val);
int scc_mc_of_core(SCCMachineState *s, int core, int *slot);

/* scc-sif.c */
void scc_sif_init(SCCMachineState *s);
void scc_sif_reset(SCCMachineState *s);

void scc_cores_init(SCCMachineState *s);
void scc_core_exit(SCCMachineState *s, SCCCore *c, int status,
                   const char *why);
/* Core @by gave up waiting for core @id: end it, and say where it was. */
void scc_core_unresponsive(SCCMachineState *s, SCCCore *by, uint32_t id);
void scc_cores_reset(SCCMachineState *s);

/* scc-console.c */
void scc_console_init(SCCMachineState *s);
void scc_core_console_putc(SCCMachineState *s, SCCCore *c, SCCStream stream,
                           uint8_t ch);
/* Emits the core's unfinished console lines, if it has any. */
void scc_core_console_flush(SCCMachineState *s, SCCCore *c);

/* scc-supervisor.c: fail fast, detect stalls, report every core */
void scc_supervisor_init(SCCMachineState *s);
void scc_supervisor_reset(SCCMachineState *s);
void scc_supervisor_core_failed(SCCMachineState *s, SCCCore *c);
void scc_supervisor_all_exited(SCCMachineState *s);
void scc_supervisor_stalled(SCCMachineState *s, const char *why);
int scc_core_state(SCCMachineState *s, SCCCore *c);
/* A running core's state and where it is ("running at eip ...;
 * application at ..."), read on its own thread to be exact. */
char *scc_core_where(SCCMachineState *s, SCCCore *c);

/* scc-clock.c: the one clock source (functional, or scc-timing.c's) */
void scc_clock_reset(SCCMachineState *s);
uint64_t scc_clock_core_cycles(SCCMachineState *s, SCCCore *c);
uint64_t scc_clock_gtsc(SCCMachineState *s);

/* scc-loader.c */
bool scc_loader_plan(SCCMachineState *s, Error **errp);
bool scc_loader_load(SCCMachineState *s, SCCCore *c, Error **errp);
const char *scc_loader_symbol(SCCCore *c, bool app, uint32_t addr,
                              uint32_t *offset, const char **file);

#endif
