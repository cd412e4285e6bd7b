/*
 * scc_mpb.h - what libscc keeps in each core's message passing buffer.
 *
 * This is the ONE place that lays out the MPB; every algorithm in libscc
 * takes its offsets from here.
 *
 * Each core owns 8 KiB of its tile's MPB (docs/kernel.md). libscc owns the
 * first 7 KiB of it, the "user area" (0x0000-0x1BFF); the kernel's mailbox
 * owns 0x1C00-0x1FFF. The user area is cut into 32-byte lines, the SCC's
 * cache line and the unit of its write-combine buffer (WCB). A line that
 * another core writes is written by exactly ONE core, so no two cores ever
 * race on a line and no line needs a lock.
 *
 *   offset  lines  bytes  what                                 written by
 *   0x0000   48    1536   chan[s]: the line of UE s            UE s (remote)
 *   0x0600  120    3840   region: p2p payload buffer of this   the owner
 *                         UE's sends, or its collective buffer
 *   0x1500   54    1728   symmetric heap (RCCE_malloc & co.)   see below
 *   0x1BC0    1      32   wake line: word 0 = "I may sleep"    the owner
 *   0x1BE0    1      32   WCB flush line (written, never read) the owner
 *
 * chan[s] in my MPB is everything UE s ever tells me, in one line that
 * only s writes: { u32 seq; u32 size; u32 taken; u32 sig[2]; u32 val[3] }.
 *   seq: chunks UE s has put in its payload buffer for me, counted since
 *     the program started; size: bytes of the message that chunk belongs
 *     to.
 *   taken: chunks UE s has copied out of MY payload buffer, counted the
 *     same way (the acknowledgement of my sends to s).
 *   sig[0], sig[1]: two counters of collective signals from s to me
 *     (coll/core/sig.c): "chunk k is ready", "I am done with your buffer".
 *   val[]: a value that goes with a signal (written before it).
 *   The counters only grow (mod 2^32), so a reader never has to clear a
 *   line and a late reader still sees the newest value ("at least n").
 * Putting all of a peer's words into one line (RCCE had a sent and a
 * ready line per peer) is what leaves 3840 bytes for the region.
 *
 * Region: the sender puts (local writes), the receiver gets from the
 * sender's MPB (remote reads) - RCCE's "local put, remote get". A p2p
 * message of at most SCC_MPB_PAYLOAD_SIZE bytes travels as one chunk in
 * the whole region. A larger one is pipelined: chunks of half the region,
 * chunk k in half k%2, so the sender fills one half while the receiver
 * empties the other (iRCCE's pipelined protocol); a sender in RCCE 1.x's
 * style (RCCE_COPY_LOCKSTEP) sends whole-region chunks in lockstep, as RCCE 1.x
 * did, and says so in the size word (SCC_SIZE_LOCKSTEP). A collective algorithm
 * that moves data through MPBs (OC-Bcast and the in-MPB algorithms) uses
 * the same region while this UE has no p2p send in flight (coll/core/region.c):
 * only the owner writes its region, and only signals (chan lines) are
 * written remotely.
 *
 * Symmetric heap: every UE runs the same allocator over the same region
 * with the same calls, so an allocation has the same offset in every UE's
 * MPB. RCCE_malloc, RCCE_flag_alloc (one line per flag) and communicator
 * barrier lines come from here; RCCE_init takes the first
 * SCC_BARRIER_LINES lines for RCCE_COMM_WORLD's barrier, which leaves 48
 * lines for programs: one RCCE flag per UE, as RCCE programs allocate.
 *
 * Barrier lines: a communicator has SCC_BARRIER_LINES lines; in round k of
 * its dissemination barrier member i writes line k of member
 * (i + 2^k) mod size, word 0 = the barrier's epoch (only grows).
 *
 * User flags (RCCE_FLAG): word 0 of a whole line, the rest of the line
 * unused, so a flag write never merges with other data in the WCB.
 *
 * Wake line (the chip only, platform/chip.c): a UE that has waited long
 * for a line of its MPB to change sets word 0 and then sleeps in the
 * kernel; whoever writes a line into its MPB and finds word 0 set sends
 * it a wake-up message through the kernel mailbox.
 */
#ifndef SCC_MPB_H
#define SCC_MPB_H

#define SCC_MPB_LINE            32          /* RCCE_LINE_SIZE */
#define SCC_MPB_USER_SIZE       0x1C00      /* the 7 KiB libscc owns */
#define SCC_MPB_MAX_UES         48          /* RCCE_MAXNP */

#define SCC_MPB_CHAN            0x0000      /* + 32 * the writer's rank */
#define SCC_MPB_REGION          0x0600
#define SCC_MPB_REGION_SIZE     0x0F00      /* 120 lines */
#define SCC_MPB_PAYLOAD         SCC_MPB_REGION
#define SCC_MPB_PAYLOAD_SIZE    SCC_MPB_REGION_SIZE
#define SCC_MPB_HEAP            0x1500
#define SCC_MPB_HEAP_LINES      54
#define SCC_MPB_WAKE_LINE       0x1BC0
#define SCC_MPB_WCB_LINE        0x1BE0

#define SCC_MPB_CHAN_LINE(s)    (SCC_MPB_CHAN + SCC_MPB_LINE * (s))
#define SCC_MPB_SENT_LINE(s)    SCC_MPB_CHAN_LINE(s)

/* Words of a chan line. */
#define SCC_LINE_SEQ            0
#define SCC_LINE_SIZE           4
#define SCC_SIZE_LOCKSTEP       0x80000000u /* in SIZE: sent in lockstep (chan.c) */
#define SCC_LINE_TAKEN          8
#define SCC_LINE_SIG(k)         (12 + 4 * (k))      /* k = 0, 1 */
#define SCC_LINE_VAL(k)         (20 + 4 * (k))      /* k = 0, 1, 2 */

/* ceil(log2(48)): rounds of the dissemination barrier. */
#define SCC_BARRIER_LINES       6

#if SCC_MPB_REGION != SCC_MPB_CHAN + SCC_MPB_LINE * SCC_MPB_MAX_UES || \
    SCC_MPB_HEAP != SCC_MPB_REGION + SCC_MPB_REGION_SIZE || \
    SCC_MPB_WAKE_LINE != SCC_MPB_HEAP + SCC_MPB_LINE * SCC_MPB_HEAP_LINES || \
    SCC_MPB_WCB_LINE != SCC_MPB_WAKE_LINE + SCC_MPB_LINE || \
    SCC_MPB_WCB_LINE + SCC_MPB_LINE != SCC_MPB_USER_SIZE || \
    SCC_LINE_VAL(2) + 4 != SCC_MPB_LINE
#error "scc_mpb.h: the MPB layout does not add up"
#endif

#endif
