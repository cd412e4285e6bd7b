// Hardware of the emulated SCC, as seen by one core with its default LUT.
// The facts the machine shares with the guest (pages, CRB, LUT, SIF, exit
// statuses, the boot handoff block) are defined once, in
// include/standard-headers/scc/abi.h, which the machine includes too; this
// file adds what only the guest needs (the CPU's own registers) and the
// guest's short names. Source: qemu/overlay/docs/system/i386/scc.rst (the
// machine's reference page). Safe to include from assembly: only macros
// outside the C part.

#ifndef SCC_HW_H
#define SCC_HW_H

#include <standard-headers/scc/abi.h>
#include <standard-headers/scc/multiboot.h>

// The guest's short names of the exit statuses.
#define EXIT_STALLED SCC_EXIT_STALLED
#define EXIT_BADBOOT SCC_EXIT_BADBOOT
#define EXIT_HUNG    SCC_EXIT_HUNG
#define EXIT_TRIPLE  SCC_EXIT_TRIPLE

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

#endif
