/*
 * Memory copies: on this core with a chosen method, or by dedicated copy
 * cores (apps/copy_core.c) that take requests from their kernel mailbox.
 * docs/copy.md has the protocol, the methods and the rules.
 *
 * Every function returns 0 (or a count, a state) on success and -errno
 * (SCC_EINVAL, SCC_EFAULT, SCC_ESRCH, ...) on failure. A copy core never
 * executes a request that names memory the requester may not use, that
 * overlaps, or that is malformed: the requester gets the error.
 */
#ifndef SCC_COPY_H
#define SCC_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "scc.h"
#include <scc/copy.h>     /* the protocol: tags, request, completion */

#ifdef __cplusplus
extern "C" {
#endif

/* Methods: SCC_COPY_PLAIN, _MPBT_SRC, _MPBT_DST, _MPBT, _LUT
 * (include/scc/syscall.h), and the service's choice: */
#define SCC_COPY_AUTO       5   /* a copy core: MPBT on both sides */

/* --- on this core ------------------------------------------------------------- */

/* Copy with a method: PLAIN is memcpy; MPBT* mark the side(s) MPBT for
 * the copy (SYS_copy_mpbt, private pages of the app only) and unmark them
 * after; LUT is the kernel's copy through LUT windows (SYS_copy_lut). */
int scc_copy_local(void *dst, const void *src, size_t n, int method);

/* Mark the pages covering [addr, addr + len) MPBT (on = 1) or not. */
int scc_copy_mark_mpbt(void *addr, size_t len, int on);
/* 1 if [addr, addr + len) lies in pages marked MPBT with it; the number
 * of marked ranges (0: nothing to ask). */
int scc_mpbt_covers(const void *addr, size_t len);
extern int scc_mpbt_nranges;

/* This core's LUT entry for page (0-255). */
long scc_lut_read(unsigned page);

/* Read n bytes of core's user memory at src (an address of core's, e.g.
 * published through an MPB) into this core's dst, straight from DRAM
 * through a LUT window as MPBT lines (SYS_peer_read), as
 * process_vm_readv does between processes. The chip keeps no coherence:
 * what core still holds dirty in its caches is not seen, so core writes
 * src into pages marked MPBT (scc_copy_mark_mpbt: its stores go to DRAM
 * through the write-combine buffer) and sends that buffer out before it
 * says src is ready. 0, -SCC_ESRCH (core not running), -SCC_EFAULT
 * (memory either side may not use), -SCC_EINVAL (this core, n too
 * large). */
int scc_peer_read(int core, void *dst, const void *src, size_t n);

/* --- by copy cores ------------------------------------------------------------- */

struct scc_copy_handle {
    int core;                   /* the copy core */
    uint32_t cookie;
    int done;                   /* 1 once status is final */
    int status;
    size_t size;                /* bytes asked for: the deadline's share */
};

/* Send a request; its completion comes back to this core. */
int scc_copy_start(struct scc_copy_handle *h, int core, void *dst,
                   const void *src, size_t n, int method);
/* 1 if done (h->status final), 0 if not yet. */
int scc_copy_test(struct scc_copy_handle *h);
/* Wait until done; the status. A copy core that stops (exits, faults)
 * before answering gives -SCC_ESRCH. One that does not answer by the
 * deadline (scc_copy_set_timeout) gives -SCC_ETIMEDOUT, and the machine
 * ends it as unresponsive and reports where it was. */
int scc_copy_wait(struct scc_copy_handle *h);
/*
 * The deadline of scc_copy_wait (and scc_copy, scc_copy_split): base_us
 * plus us_per_mib for each MiB asked for, counted on the GTSC from the
 * first time the wait finds no answer (modeled time in the timing mode).
 * Defaults: 1 s and 1 s a MiB (1 MB/s, far below any method's rate); a
 * requester whose copy core also serves others may need more. base_us 0:
 * no deadline, wait for ever.
 */
void scc_copy_set_timeout(uint32_t base_us, uint32_t us_per_mib);
/* start + wait */
int scc_copy(int core, void *dst, const void *src, size_t n, int method);
/* Split [src, src + n) across ncores copy cores (line-aligned pieces),
 * wait for all; the first error, or 0. */
int scc_copy_split(const int *cores, int ncores, void *dst, const void *src,
                   size_t n, int method);

/* A request whose success goes to core target (errors come back here,
 * and to target too). */
int scc_copy_post(int core, void *dst, const void *src, size_t n, int method,
                  int target, uint32_t cookie);
/* At a completion target: the next completion (flags: SCC_MBOX_NONBLOCK). */
int scc_copy_notice(struct scc_copy_done *out, int flags);

/* Ask a copy core to exit. */
int scc_copy_stop(int core);

/* A message of another protocol that the copy client received while it
 * waited: 1 and *out, or 0 if none is kept. */
int scc_copy_other(struct scc_msg *out);

#ifdef __cplusplus
}
#endif

#endif
