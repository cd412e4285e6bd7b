/*
 * The guest ABI of the emulated SCC: every fact that both the machine
 * (qemu/overlay/hw/scc, where this file is include/standard-headers/scc/)
 * and the guest code (boot/, kernel/, drivers/, libscc/sys, tests/guest)
 * rely on, defined once. The reference page
 * qemu/overlay/docs/system/i386/scc.rst explains each of them; the Python
 * tests read the object-like #defines through tests/abi.py.
 *
 * Rules, so that every user can include it: macros only outside the C part
 * (boot/ and kernel/ include it from assembly), no includes but <stdint.h>,
 * no definitions of objects, plain integer constants (no C suffixes: the
 * assembler and tests/abi.py read them too), names of the guest's drivers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SCC_ABI_H
#define SCC_ABI_H

/* --- Chip size ------------------------------------------------------------ */
#define SCC_MAX_TILES       24          /* the default LUT's MPB/CRB slots */
#define SCC_MAX_CORES       48
#define SCC_NUM_MC          4           /* memory controllers */

/* --- Physical address space of a core: 256 LUT pages of 16 MiB ------------ */
#define SCC_PAGE_SHIFT      24
#define SCC_PAGE_SIZE       0x01000000
#define SCC_LUT_ENTRIES     256
#define SCC_PRIVATE_PAGES   41          /* 0x00-0x28, and the MC slot size */
#define SCC_WINDOW_PAGE     0x29        /* unmapped: window onto another core */
#define SCC_SHARED_PAGE     0x80        /* shared DRAM on MC0 */
#define SCC_SHARED_BASE     0x80000000
#define SCC_SHARED_ADDRBITS 0x1EC       /* its system address >> 24 (sccKit) */
#define SCC_SHARED_ADDRBITS_END SCC_MC_PAGES /* at the end of MC0's 8 GiB */
/* A controller's system address space: 8 GiB in four ranks of 2 GiB, each
 * a contiguous quarter (002: the controller does not interleave them) */
#define SCC_MC_PAGES        0x200
#define SCC_MC_RANKS        4
#define SCC_MC_RANK_PAGES   (SCC_MC_PAGES / SCC_MC_RANKS)
#define SCC_MPB_PAGE        0xC0        /* + tile */
#define SCC_OWN_MPB_PAGE    0xD8
#define SCC_CRB_PAGE        0xE0        /* + tile */
#define SCC_OWN_CRB_PAGE    0xF8
#define SCC_SIF_PAGE        0xF9
#define SCC_RESET_PAGE      0xFF        /* first 16 MiB of private DRAM again */
#define SCC_MPB_BASE        0xC0000000
#define SCC_MPB(t)          (SCC_MPB_BASE + ((t) << 24))
#define SCC_OWN_MPB         0xD8000000
#define SCC_CRB_BASE        0xE0000000
#define SCC_CRB(t)          (SCC_CRB_BASE + ((t) << 24))
#define SCC_OWN_CRB         0xF8000000
#define SCC_SIF             0xF9000000
#define SCC_LAPIC           0xFEE00000

/* --- The MPB split: 16 KiB a tile, repeated through its 16 MiB page ------- */
#define SCC_MPB_SIZE        0x4000
#define SCC_MPB_HALF        0x2000      /* core z owns z * SCC_MPB_HALF */
#define SCC_CACHE_LINE      32          /* bytes in an L1, L2, MPB and
                                           write-combine line */

/* --- LUT entries ---------------------------------------------------------- */
#define LUT_ADDRBITS(e)     ((e) & 0x3FF)
#define LUT_SUBDEST(e)      (((e) >> 10) & 0x7)
#define LUT_ROUTE(e)        (((e) >> 13) & 0xFF)
#define LUT_BYPASS          (1 << 21)
#define LUT_VALID_BITS      0x3FFFFF    /* what an entry keeps of a write */
#define LUT_PORT_MASK       0x1FFC00    /* subdest and route: where, not what */
#define LUT_ENTRY(addrbits, subdest, route) \
	(((addrbits) & 0x3FF) | ((subdest) << 10) | ((route) << 13))
#define LUT_ROUTE_XY(x, y)  (((y) << 4) | (x))
#define LUT_ROUTE_X(r)      ((r) & 0xF)
#define LUT_ROUTE_Y(r)      ((r) >> 4)
/* The memory controller of router (x, y)'s mesh quadrant: each core's
 * DRAM comes from its own quadrant's, and each controller hangs off a
 * router of its quadrant (0 north-west, 1 north-east, 2 and 3 south). */
#define SCC_QUADRANT_MC(x, y, mesh_x, mesh_y) \
	(((x) >= (mesh_x) / 2) | ((y) >= (mesh_y) / 2) << 1)

#define SUBDEST_CORE0       0
#define SUBDEST_CORE1       1
#define SUBDEST_CRB         2
#define SUBDEST_MPB         3
#define SUBDEST_EAST        4
#define SUBDEST_SOUTH       5
#define SUBDEST_WEST        6
#define SUBDEST_NORTH       7

/* --- Configuration register block: offsets in a CRB page ------------------ */
#define CRB_GLCFG0          0x010
#define CRB_GLCFG1          0x018
#define CRB_GLCFG(z)        (0x010 + 8 * (z))
#define CRB_L2CFG0          0x020
#define CRB_L2CFG1          0x028
#define CRB_SENSOR          0x040
#define CRB_SENSVAL         0x048
#define CRB_GCBCFG          0x080
#define CRB_TILEID          0x100
#define CRB_LOCK0           0x200
#define CRB_LOCK1           0x400
#define CRB_LOCK(z)         (0x200 << (z))
#define CRB_LUT0            0x800
#define CRB_LUT1            0x1000
#define CRB_LUT(z)          (0x800 << (z))
#define CRB_LUT_STRIDE      8           /* the upper word of a slot reads 0 */
#define CRB_LUT_END         0x1800

#define GLCFG_NMI           (1 << 0)    /* drives LINT1 while set */
#define GLCFG_INTR          (1 << 1)    /* drives LINT0 while set */
#define GCBCFG_RESET(z)     (1 << (z))  /* 1 = core z held in reset */
/* Bits 8-25 of GCBCFG hold the tile frequency in MHz at reset (choice). */
#define GCBCFG_CLOCK_SHIFT  8
#define GCBCFG_CLOCK_MASK   (0x3FFFF << GCBCFG_CLOCK_SHIFT)
#define SENSVAL_VALUE       0x00001234  /* what SENSVAL reads (a constant) */

#define TILEID_Z(v)         ((v) & 0x7)
#define TILEID_X(v)         (((v) >> 3) & 0xF)
#define TILEID_Y(v)         (((v) >> 7) & 0xF)
#define TILEID(x, y, z)     ((z) | ((x) << 3) | ((y) << 7))

/* --- System interface registers: offsets in page 0xF9 --------------------- */
#define SIF_GTSC_LO         0x8224      /* reading LO latches HI for the core */
#define SIF_GTSC_HI         0x8228
#define SIF_ATOMIC_INC(i)   (0xE000 + 8 * (i))
#define SIF_ATOMIC_INIT(i)  (0xE004 + 8 * (i))
#define SIF_NATOMIC         48

/* Emulator extensions; each acts for the core that accesses it. */
#define SIF_CONSOLE         0x1000
#define SIF_EXIT            0x1004
#define SIF_MEMSIZE         0x1008
#define SIF_NCORES          0x100C
#define SIF_MESH            0x1010
#define SIF_CORE_HZ         0x1014
#define SIF_GTSC_HZ         0x1018
#define SIF_COREID          0x101C
/* A kernel that ends a core for an exception says where, for the
 * machine's report: EIP and address first, then the vector. */
#define SIF_FAULT_EIP       0x1020
#define SIF_FAULT_ADDR      0x1024
#define SIF_FAULT           0x1028
/* Read-only: which clock the machine runs (TIMING_*). */
#define SIF_TIMING          0x102C
#define TIMING_ON           (1 << 0)    /* modeled SCC time (timing=on) */
#define TIMING_STALE        (1 << 1)    /* MPBT hits may return stale data */
/* Write: a byte of this core's stderr (SIF_CONSOLE is its stdout); the
 * machine keeps a line of each and prints them apart. */
#define SIF_CONSOLE_ERR     0x1030
/* Regions of interest for the timing mode's counters (timing-stats): each
 * write to SIF_STATS_NAME adds a byte to the name of this core's next
 * region; SIF_STATS begins it (STATS_BEGIN) or ends the open one
 * (STATS_END). Regions do not nest; a region's counters are summed over
 * its calls. Ignored in functional mode (there are no counters). */
#define SIF_STATS_NAME      0x1034
#define SIF_STATS           0x1038
#define STATS_BEGIN         1
#define STATS_END           2
#define STATS_NAME_MAX      31          /* bytes of a region's name */
#define STATS_REGIONS       8           /* regions a core can have */
/* Write: the id of a core that did not answer this core in time (a copy
 * core past a request's deadline: kernel/copy.c). The machine ends that
 * core with SCC_EXIT_UNRESPONSIVE and reports it as it reports a fault:
 * the core, where it was (EIP), and which core gave up on it. */
#define SIF_UNRESPONSIVE    0x103C
/* Read-only: whether core i can run (CORE_STATE_*). */
#define SIF_CORE_STATE(i)   (0x1100 + 4 * (i))
#define CORE_STATE_RESET    0           /* held in reset, or never started */
#define CORE_STATE_RUNNING  1           /* released and not exited */
#define CORE_STATE_EXITED   2

#define SIF_CONSOLE_LINE    256         /* a longer line is emitted in pieces */

#define MESH_X(v)           ((v) & 0xFF)
#define MESH_Y(v)           (((v) >> 8) & 0xFF)
#define MESH_CPT(v)         (((v) >> 16) & 0xFF)
#define MESH(x, y, cpt)     ((x) | ((y) << 8) | ((cpt) << 16))

/* --- Exit statuses ---------------------------------------------------------
 * Applications use 0-127. The kernel reports the others for a core; the
 * boot stub and the machine report those that no kernel could. */
#define SCC_EXIT_TRAP_BASE  128 /* kernel: + vector, an unhandled exception */
#define SCC_EXIT_UNRESPONSIVE 246 /* machine: another core gave up on it */
#define SCC_EXIT_STALLED    247 /* machine: waiting, nothing could progress */
#define SCC_EXIT_BADOPTION  248 /* kernel: an unknown or malformed option */
#define SCC_EXIT_BADAPP     249 /* kernel: the module is no loadable app */
#define SCC_EXIT_PANIC      250 /* kernel: this core panicked (stops all) */
#define SCC_EXIT_STOPPED    251 /* kernel, machine: another core failed */
#define SCC_EXIT_BADBOOT    252 /* boot stub: no valid handoff block */
#define SCC_EXIT_HUNG       253 /* machine: hlt with interrupts off */
#define SCC_EXIT_TRIPLE     254 /* machine: triple fault */

/* The x86 exceptions by vector, as the kernel and the machine's report name
 * them: static const char *const names[32] = SCC_EXCEPTION_NAMES; */
#define SCC_EXCEPTION_NAMES { \
	"divide error", "debug", "NMI", "breakpoint", "overflow", \
	"bound range exceeded", "invalid opcode", "device not available", \
	"double fault", "coprocessor segment overrun", "invalid TSS", \
	"segment not present", "stack fault", "general protection", \
	"page fault", "reserved", "x87 floating-point error", \
	"alignment check", "machine check", "SIMD floating-point error", \
}
#define SCC_EXCEPTION_PAGE_FAULT 14

/* --- Boot: what the machine puts into a core's private DRAM (offsets) ---- */
#define BOOT_HANDOFF        0x1000      /* struct scc_handoff */
#define BOOT_MAGIC          0x42434353  /* "SCCB" */
#define BOOT_VERSION        1
#define BOOT_HANDOFF_MAGIC   0          /* offsets in the block */
#define BOOT_HANDOFF_VERSION 4
#define BOOT_HANDOFF_ENTRY   8
#define BOOT_HANDOFF_MBI     12
#define BOOT_HANDOFF_COREID  16
#define BOOT_HANDOFF_SIZE    20
#define BOOT_MBI            0x2000      /* Multiboot information, strings */
#define BOOT_MBI_END        0x8000
#define BOOT_STUB           0x8000      /* the boot stub's code and data */
#define BOOT_STUB_END       0x9000      /* GRUB's multiboot image starts here */
#define BOOT_LOW_END        0x9F000     /* below: available, as a BIOS says */
#define BOOT_KERNEL_MIN     0x100000    /* kernels load from 1 MiB up */
#define BOOT_RESET_PAGE     0x00FFF000  /* the reset vector's page */
#define BOOT_RESET_VECTOR   0x00FFFFF0  /* 0xFFFFFFF0 through page 0xFF */
#define BOOT_RESET_END      0x01000000
#define BOOT_LOADER_NAME    "qemu-scc"

#ifndef __ASSEMBLER__
#include <stdint.h>

/* At BOOT_HANDOFF, little endian; the offsets above name its fields. */
struct scc_handoff {
	uint32_t magic;
	uint32_t version;
	uint32_t entry;
	uint32_t mbi;
	uint32_t core_id;
};
#endif

#endif
