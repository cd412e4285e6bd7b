/*
 * A board's words for a vCPU in gdb's thread list (qThreadExtraInfo).
 *
 * QEMU says "CPU#5 [running]"; a board whose CPUs have states of their own
 * (the SCC's cores are held in reset, run, or have exited) sets this hook
 * to say so, e.g. "core 05 (held)". It returns a string the gdbstub frees,
 * or NULL for QEMU's own words.
 */
#ifndef GDBSTUB_THREAD_EXTRA_H
#define GDBSTUB_THREAD_EXTRA_H

extern char *(*gdb_thread_extra_hook)(CPUState *cpu);

#endif
