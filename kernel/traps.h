// Segment selectors and interrupt vectors: plain numbers, so that the
// assembler entry code (trapasm.S) and the C side share one definition.

#ifndef KERNEL_TRAPS_H
#define KERNEL_TRAPS_H

#include <scc/syscall.h>

// Segment selectors (seg.c).
#define SEL_KCODE       0x08
#define SEL_KDATA       0x10
#define SEL_UCODE       (0x18 | 3)
#define SEL_UDATA       (0x20 | 3)
#define SEL_TSS         0x28
#define SEL_DFTSS       0x30

// Vectors.
#define T_NMI           2
#define T_DOUBLE        8
#define T_PGFLT         14
#define T_TIMER         0x20
#define T_LINT0         0x30
#define T_SYSCALL       SCC_SYSCALL_VECTOR
#define T_TAS           SCC_TAS_VECTOR
#define T_SPURIOUS      LAPIC_SPURIOUS_VECTOR  // drivers.h

#endif
