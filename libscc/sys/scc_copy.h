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

/* --- grants: other cores' access to this core's memory ----------------------- */

/* Let core (or SCC_GRANT_ANY: every core) read (prot SCC_GRANT_READ), or
 * read and write (SCC_GRANT_RW), this core's user memory [addr, addr +
 * len) through scc_peer_read and copy cores (SYS_grant), as XPMEM's
 * xpmem_make does between processes: no other core's kernel touches this
 * core's memory without one. A grant id (> 0) for scc_revoke, or
 * -SCC_EINVAL (len 0, another prot, a core beyond the chip),
 * -SCC_EFAULT (not all private user memory or all shared DRAM),
 * -SCC_ENOMEM (SCC_GRANT_MAX grants held). */
#define SCC_GRANT_ANY       (-1)
int scc_grant(const volatile void *addr, size_t len, int prot, int core);
/* The same for a set of cores: bit i of cores is core i (all ones: any). */
int scc_grant_cores(const volatile void *addr, size_t len, int prot, uint64_t cores);
/* End a grant: 0, or -SCC_EINVAL for an id this core does not hold. An
 * access that passed its check before may still finish: revoke once the
 * other cores are done (a peer read that finds the grant gone when it
 * ends fails with -SCC_EPERM and leaves zeros). */
int scc_revoke(int id);

/* Read n bytes of core's user memory at src (an address of core's, e.g.
 * published through an MPB) into this core's dst, straight from DRAM
 * through a LUT window as MPBT lines (SYS_peer_read), as
 * process_vm_readv does between processes. core must have granted this
 * core (or any) read of the whole range in one grant (scc_grant). The
 * chip keeps no coherence: what core still holds dirty in its caches is
 * not seen, so core writes src into pages marked MPBT
 * (scc_copy_mark_mpbt: its stores go to DRAM through the write-combine
 * buffer) and sends that buffer out before it says src is ready. 0,
 * -SCC_EPERM (no grant: core's kernel console says so too), -SCC_ESRCH
 * (core not running), -SCC_EFAULT (memory either side may not use),
 * -SCC_EINVAL (this core, n too large). */
int scc_peer_read(int core, void *dst, const void *src, size_t n);

/* --- by copy cores ------------------------------------------------------------- */

struct scc_copy_handle {
    int core;                   /* the copy core */
    uint32_t cookie;
    int done;                   /* 1 once status is final */
    int status;
    size_t size;                /* bytes asked for: the deadline's share */
    int grant[2];               /* the source's and destination's grants to
                                   core while the request runs (0: none) */
};

/*
 * Asking a copy core to copy is consent for that copy: scc_copy_start
 * (and scc_copy, scc_copy_split) grants the copy core read of the source
 * and read-write of the destination, and revokes both once the handle is
 * done (its completion came, the copy core stopped, the deadline passed).
 * A request it cannot grant is not sent: the handle is done with the
 * grant's error.
 */

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
 * and to target too). Only this core learns when it is done, so it
 * grants nothing: the caller grants core read of src and read-write of
 * dst (scc_grant) before, and revokes them once target says the copy is
 * done. */
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
