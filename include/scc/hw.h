// Hardware of the emulated SCC, as seen by one core with its default LUT.
// Source: qemu/overlay/docs/system/i386/scc.rst (the machine's reference
// page). Safe to include from assembly: only macros outside the C part.

#ifndef SCC_HW_H
#define SCC_HW_H

// Physical address space: 256 LUT pages of 16 MiB.
#define SCC_PAGE_SHIFT      24
#define SCC_PAGE_SIZE       0x01000000
#define SCC_PRIVATE_PAGES   41          // 0x00-0x28, and the MC slot size
#define SCC_WINDOW_PAGE     0x29        // unmapped: window onto another core
#define SCC_SHARED_BASE     0x80000000  // shared DRAM on MC0
#define SCC_SHARED_PAGE     0x80
#define SCC_SHARED_ADDRBITS 0x1EC       // system address of shared DRAM >> 24
#define SCC_MPB_PAGE        0xC0        // + tile
#define SCC_OWN_MPB_PAGE    0xD8
#define SCC_CRB_PAGE        0xE0        // + tile
#define SCC_OWN_CRB_PAGE    0xF8
#define SCC_SIF_PAGE        0xF9
#define SCC_MPB_BASE        0xC0000000
#define SCC_MPB(t)          (SCC_MPB_BASE + ((t) << 24))
#define SCC_OWN_MPB         0xD8000000
#define SCC_MPB_SIZE        0x4000      // a 16 MiB MPB page repeats this
#define SCC_MPB_HALF        0x2000      // core z owns z * SCC_MPB_HALF
#define SCC_CRB_BASE        0xE0000000
#define SCC_CRB(t)          (SCC_CRB_BASE + ((t) << 24))
#define SCC_OWN_CRB         0xF8000000
#define SCC_SIF             0xF9000000
#define SCC_RESET_PAGE      0xFF        // first 16 MiB of private DRAM again
#define SCC_LAPIC           0xFEE00000
#define SCC_MAX_TILES       24

// Configuration register block, offsets in a CRB page.
#define CRB_GLCFG0   0x010
#define CRB_GLCFG1   0x018
#define CRB_GLCFG(z) (0x010 + 8 * (z))
#define CRB_L2CFG0   0x020
#define CRB_L2CFG1   0x028
#define CRB_SENSOR   0x040
#define CRB_SENSVAL  0x048
#define CRB_GCBCFG   0x080
#define CRB_TILEID   0x100
#define CRB_LOCK0    0x200
#define CRB_LOCK1    0x400
#define CRB_LOCK(z)  (0x200 << (z))
#define CRB_LUT0     0x800
#define CRB_LUT1     0x1000
#define CRB_LUT(z)   (0x800 << (z))
#define CRB_LUT_STRIDE 8

#define GLCFG_NMI        (1 << 0)       // drives LINT1 while set
#define GLCFG_INTR       (1 << 1)       // drives LINT0 while set
#define GCBCFG_RESET(z)  (1 << (z))     // 1 = core z held in reset

#define TILEID_Z(v)  ((v) & 0x7)
#define TILEID_X(v)  (((v) >> 3) & 0xF)
#define TILEID_Y(v)  (((v) >> 7) & 0xF)

// LUT entries.
#define LUT_ADDRBITS(e)  ((e) & 0x3FF)
#define LUT_SUBDEST(e)   (((e) >> 10) & 0x7)
#define LUT_ROUTE(e)     (((e) >> 13) & 0xFF)
#define LUT_BYPASS       (1 << 21)
#define LUT_PORT_MASK    0x1FFC00       // subdest and route: where, not which
#define LUT_ENTRY(addrbits, subdest, route) \
	((addrbits) | ((subdest) << 10) | ((route) << 13))
#define LUT_ROUTE_XY(x, y) (((y) << 4) | (x))

#define SUBDEST_CORE0 0
#define SUBDEST_CORE1 1
#define SUBDEST_CRB   2
#define SUBDEST_MPB   3
#define SUBDEST_EAST  4
#define SUBDEST_SOUTH 5
#define SUBDEST_WEST  6
#define SUBDEST_NORTH 7

// System interface registers, offsets in page 0xF9.
#define SIF_GTSC_LO        0x8224       // reading LO latches HI for this core
#define SIF_GTSC_HI        0x8228
#define SIF_ATOMIC_INC(i)  (0xE000 + 8 * (i))
#define SIF_ATOMIC_INIT(i) (0xE004 + 8 * (i))
#define SIF_NATOMIC        48

// Emulator extensions; each acts for the core that accesses it.
#define SIF_CONSOLE  0x1000
#define SIF_EXIT     0x1004
#define SIF_MEMSIZE  0x1008
#define SIF_NCORES   0x100C
#define SIF_MESH     0x1010
#define SIF_CORE_HZ  0x1014
#define SIF_GTSC_HZ  0x1018
#define SIF_COREID   0x101C
// A kernel that ends a core for an exception says where, for the
// machine's report: EIP and address first, then the vector.
#define SIF_FAULT_EIP  0x1020
#define SIF_FAULT_ADDR 0x1024
#define SIF_FAULT      0x1028
// Read-only: which clock the machine runs (TIMING_*).
#define SIF_TIMING     0x102C
#define TIMING_ON      (1 << 0)         // modeled SCC time (timing=on)
#define TIMING_STALE   (1 << 1)         // MPBT hits may return stale data
// Read-only: whether core i can run (CORE_STATE_*).
#define SIF_CORE_STATE(i) (0x1100 + 4 * (i))
#define CORE_STATE_RESET   0            // held in reset, or never started
#define CORE_STATE_RUNNING 1            // released and not exited
#define CORE_STATE_EXITED  2

#define MESH_X(v)    ((v) & 0xFF)
#define MESH_Y(v)    (((v) >> 8) & 0xFF)
#define MESH_CPT(v)  (((v) >> 16) & 0xFF)

// Exit statuses the boot stub and the machine use for failures that the
// kernel did not report itself.
#define EXIT_STALLED 247                // waiting when nothing could progress
#define EXIT_BADBOOT 252
#define EXIT_HUNG    253
#define EXIT_TRIPLE  254

// Local APIC registers.
#define LAPIC_ID     0x020
#define LAPIC_TPR    0x080
#define LAPIC_EOI    0x0B0
#define LAPIC_SVR    0x0F0
#define LAPIC_LINT0  0x350
#define LAPIC_LINT1  0x360
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INIT 0x380          // initial count
#define LAPIC_TIMER_CUR  0x390          // current count
#define LAPIC_TIMER_DIV  0x3E0          // divide configuration
#define SVR_ENABLE   (1 << 8)
#define LVT_MASKED   (1 << 16)
#define LVT_NMI      (4 << 8)           // delivery mode NMI (vector ignored)
#define LVT_PERIODIC (1 << 17)          // timer mode
#define TIMER_DIV_1  0xB                // divide configuration: by 1

// CR4.MBE: bit 7 of a PTE marks an MPBT page. Not together with PSE.
#define CR4_PSE      (1 << 4)
#define CR4_MBE      (1 << 11)

// Boot handoff block the machine writes into every core's private DRAM.
#define BOOT_HANDOFF         0x1000
#define BOOT_MAGIC           0x42434353 // "SCCB"
#define BOOT_VERSION         1
#define BOOT_HANDOFF_MAGIC   0
#define BOOT_HANDOFF_VERSION 4
#define BOOT_HANDOFF_ENTRY   8
#define BOOT_HANDOFF_MBI     12
#define BOOT_HANDOFF_COREID  16
#define BOOT_STUB            0x8000
#define BOOT_STUB_END        0xF000
#define BOOT_RESET_VECTOR    0x00FFFFF0 // private offset; 0xFFFFFFF0 at reset

#ifndef __ASSEMBLER__
#include <stdint.h>

struct scc_handoff {
	uint32_t magic;
	uint32_t version;
	uint32_t entry;
	uint32_t mbi;
	uint32_t core_id;
};
#endif

#include "multiboot.h"

#endif
