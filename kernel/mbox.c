// The kernel mailbox (docs/kernel.md). Each core receives into a ring of
// 32-byte lines in its own 8 KiB of MPB, at MB_OFF:
//
//   line 0     head, mode, sleeping, closed
//                                      written by the receiver only
//   line 1     tail, waiters[2], waiters[2] again
//                                      written by senders, under the lock
//   lines 2-31 30 slots, n % 30        written by senders, under the lock
//
// A slot is: source | check_hi << 6 | tag << 16; size | seq << 5 |
// check_lo << 16; 24 bytes of payload. seq is the slot's index n (11
// bits) and check a 26-bit hash of the whole line and the receiver's id:
// the SCC cannot protect the MPB from user code, so a line that user code
// wrote over is dropped and counted (kstat.mbox_dropped) rather than
// delivered. 26 bits, not 16: a scribbling test drops thousands of lines
// a run, and one in 65,536 passing a 16-bit check was delivered.
//
// A sender that finds the ring full sets its bit in waiters and sleeps;
// the receiver interrupts every waiter after it made room, and a waiter
// clears its own bit once it got a slot. A receiver that exits closes its
// ring and wakes its waiters, which then find it closed: sending to a
// core that is not running (in reset, or exited) fails with -ESRCH
// instead of waiting. Closing and reading the waiters happen under the
// lock, as setting a waiter bit and checking closed do, so a sender either
// sees the ring closed or is seen as a waiter and woken; the core's state
// alone would leave a window (waiters read, then a bit set and the state
// read before the exit is written: a sender asleep for ever).
//
// User code can write any word of it too. The slots carry their check;
// the other words heal from any one written over (docs/kernel.md): line 0
// is the receiver's alone, and it rewrites from its own copy any word of
// it that differs when a sender waits (a head made to look full would
// keep them waiting for ever) or an interrupt came that it did not ask
// for; senders leave the receiver alone only on the exact mode and
// sleeping words it writes, and interrupt it on anything else; a sender
// that finds the ring full interrupts a receiver that waits for
// interrupts, which then looks at line 0 even when nothing else would
// have woken it; waiters are kept twice and read as the union of the
// copies; a tail out of range resets the ring; a ring closed while its
// receiver runs is opened again after a second.
//
// The lock is the receiver's T&S register. Senders take it; the receiver
// takes it only to close its ring at exit and to open it at boot: it
// alone writes line 0, so its LINT0 handler cannot block.
// The receiver moves messages from the ring into a queue in private DRAM,
// where the application's receive finds them.
//
// On the chip, MPB reads come through the L1 (CL1INVMB first, to see what
// other cores wrote) and writes through the write-combine buffer (flushed
// after the last line written).

#include <scc/io.h>
#include "defs.h"

#define MB_OFF   0x1C00
#define MB_HEAD  0x00
#define MB_MODE  0x04
#define MB_SLEEP 0x08
#define MB_TAIL  0x20
#define MB_CLOSED 0x0C          // MB_GONE: the receiver has exited
#define MB_WAIT  0x24           // two words: a bit per sending core
#define MB_WAIT2 0x2C           // the same two words again
#define MB_SLOT0 0x40
#define MB_LINE  32
#define MB_SLOTS 30
#define MB_GONE  0xC105EDu      // not 1: a stray user write rarely forges it
// Only these exact words let senders leave the receiver alone: any other
// value, as user code may write, makes them interrupt it, which loses
// nothing (a stray store rarely forges them either).
#define MB_MODE_TAG 0x4D0DE000u // | the mode (SCC_MBOX_*)
#define MB_AWAKE 0xA3A4EDu      // sleeping: the receiver is awake
#define MB_ASLEEP 1u

#define QSIZE    4096
#define REPAIRS_TOLD 8          // repairs said one by one; then only counted

static struct scc_msg queue[QSIZE];
static uint32_t qhead, qtail;           // qtail - qhead messages queued
static uint32_t rxhead;                 // our ring's head, as we wrote it
static uint32_t rxmode, rxsleep;        // its mode and sleeping words, likewise
static int intr_expected;               // senders interrupt us (mode, sleeping)
static uintptr_t own;                   // our ring

static uintptr_t mailbox(const struct core *c)
{
	return mpb_area(c) + MB_OFF;
}

#define SRC_BITS	6		// source: a core id
_Static_assert(SCC_MAX_CORES <= 1 << SRC_BITS, "a core id fits the source bits");
#define CHECK_HI(w0)	((w0) >> SRC_BITS & 0x3FF)

// FNV-1a over the line (with the check's bits zero) and the receiver:
// 26 bits, 16 in the second word and 10 beside the source.
static uint32_t check(const uint32_t w[8], uint32_t dest)
{
	uint32_t h = 2166136261u, i, v;

	for (i = 0; i < 9; i++) {
		v = i < 8 ? w[i] : dest;
		if (i == 0)
			v &= ~(0x3FFu << SRC_BITS);
		if (i == 1)
			v &= 0xFFFF;
		h = (h ^ v) * 16777619u;
	}
	return (h ^ h >> 26) & 0x3FFFFFF;
}

// The check as a received line carries it.
static uint32_t carried_check(const uint32_t w[8])
{
	return w[1] >> 16 | CHECK_HI(w[0]) << 16;
}

// Word k of ring mb's waiters: the union of its two copies, so that a
// word user code wrote over loses no waiter (a bit it set costs only an
// interrupt). Senders write both.
static uint32_t waiters(uintptr_t mb, uint32_t k)
{
	return read32(mb + MB_WAIT + 4 * k) | read32(mb + MB_WAIT2 + 4 * k);
}

static void set_waiters(uintptr_t mb, uint32_t k, uint32_t bits)
{
	write32(mb + MB_WAIT + 4 * k, bits);
	write32(mb + MB_WAIT2 + 4 * k, bits);
}

// Interrupt every core whose bit is set in the waiters of ring mb.
static void wake_waiters(uintptr_t mb)
{
	struct core c;
	uint32_t bits, i, k;

	for (k = 0; k < 2; k++) {
		bits = waiters(mb, k);
		for (i = 0; i < 32 && bits; i++, bits >>= 1) {
			if (!(bits & 1) || 32 * k + i >= self.ncores)
				continue;
			core_locate(&self, 32 * k + i, &c);
			notify_core(&c);
		}
	}
}

// Our exit: senders waiting for room in our ring find that we are gone.
void mbox_exit(void)
{
	if (!own)
		return;
	lock_acquire(&self);
	write32(own + MB_CLOSED, MB_GONE);
	mpb_flush();
	mpb_invalidate();
	wake_waiters(own);
	lock_release(&self);
	if (kstat.mbox_dropped)
		cprintf("core %02u: mailbox: %u corrupt slot(s) dropped\n",
			self.id, kstat.mbox_dropped);
	if (kstat.mbox_repaired)
		cprintf("core %02u: mailbox: %u overwritten ring word(s) rewritten\n",
			self.id, kstat.mbox_repaired);
}

// Line 0 of our ring is written by us alone, so what it should hold is
// what we last wrote: a word that says otherwise was user code's, and is
// rewritten (a head that makes the ring look full would keep every
// sender waiting for ever, a mode or sleeping word could keep them from
// waking us). 1 if a word was wrong.
static int heal(void)
{
	static const char *const name[4] = {"head", "mode", "sleeping", "closed"};
	static const uint32_t off[4] = {MB_HEAD, MB_MODE, MB_SLEEP, MB_CLOSED};
	uint32_t want[4], v, i;
	int bad = 0;

	want[0] = rxhead;
	want[1] = rxmode;
	want[2] = rxsleep;
	want[3] = 0;		// we are running
	for (i = 0; i < 4; i++) {
		v = read32(own + off[i]);
		if (v == want[i])
			continue;
		write32(own + off[i], want[i]);
		bad = 1;
		if (++kstat.mbox_repaired <= REPAIRS_TOLD)
			cprintf("core %02u: mailbox %s was 0x%x, not 0x%x: rewritten%s\n",
				self.id, name[i], v, want[i],
				kstat.mbox_repaired == REPAIRS_TOLD ?
				" (further repairs only counted)" : "");
	}
	if (bad)
		mpb_flush();
	return bad;
}

// Tell senders whether we sleep (they interrupt a sleeper in every mode).
static void set_sleeping(int on)
{
	rxsleep = on ? MB_ASLEEP : MB_AWAKE;
	intr_expected = on || notify_current()->interrupt;
	write32(own + MB_SLEEP, rxsleep);
	mpb_flush();
}

// The ring is not reset: messages sent before this core booted stay in
// it (machine reset zeroes the MPB, which is an empty ring in ipi mode).
void mbox_init(int m)
{
	own = mailbox(&self);
	lock_acquire(&self);
	write32(own + MB_CLOSED, 0);	// open again after an exit and a release
	mpb_flush();
	lock_release(&self);
	mpb_invalidate();
	rxhead = read32(own + MB_HEAD);
	set_sleeping(0);
	mbox_mode(m, 0);
}

static inline int drain(int look, int locking);

// Move what the ring holds into the queue, as far as the queue has room;
// the number of messages moved. Safe in the LINT0 handler: it waits for
// no lock.
int mbox_drain(void)
{
	return drain(0, 0);
}

// LINT0. A receiver that senders should leave alone (awake, not in ipi
// mode) was interrupted: maybe because user code wrote its mode or
// sleeping word, so it looks at its line (or a core's SYS_ipi, a copy
// core's exit: then it finds nothing wrong).
int mbox_intr(void)
{
	return drain(!intr_expected, 0);
}

// With locking, a reset of the ring (below) may wait for our lock: only
// the mailbox calls of our own program do (user code that holds our lock
// must not make them).
// A drain that moves messages writes the head anyway. One that moves
// none looks at line 0 (heal) with look, or when a sender waits: it may
// wait only because user code wrote our line. (The waiters share the
// tail's line, already in the L1; one copy of them is enough here, as
// one word written over is either line 0's or a waiters word.)
static inline int drain(int look, int locking)
{
	uint32_t tail, slot, w[8], i, n = 0, moved = 0;
	struct scc_msg *m;

	mpb_invalidate();
	tail = read32(own + MB_TAIL);
	if (tail - rxhead > MB_SLOTS) {
		// Only a user program writing the kernel's lines does this.
		// The tail goes back to our head, under our lock (no sender
		// is halfway then): slot n % 30 would not stay the same slot
		// across 2^32 if we skipped to a tail user code chose. A
		// lock that is held (never waited for: we may be in the
		// LINT0 handler) leaves it to the next drain that may wait:
		// the receive or poll that follows.
		if (locking)
			lock_acquire(&self);
		else if (!lock_try(&self))
			return 0;
		mpb_invalidate();
		cprintf("core %02u: mailbox tail %u head %u: ring reset\n",
			self.id, read32(own + MB_TAIL), rxhead);
		kstat.mbox_dropped++;
		write32(own + MB_TAIL, rxhead);
		write32(own + MB_HEAD, rxhead);
		mpb_flush();
		lock_release(&self);
		mpb_invalidate();
		wake_waiters(own);
		return 0;
	}
	while (rxhead != tail && qtail - qhead < QSIZE) {
		slot = own + MB_SLOT0 + MB_LINE * (rxhead % MB_SLOTS);
		for (i = 0; i < 8; i++)
			w[i] = read32(slot + 4 * i);
		n++;
		if ((w[1] & 0x1F) > SCC_MBOX_PAYLOAD ||
		    (w[1] >> 5 & 0x7FF) != (rxhead & 0x7FF) ||
		    carried_check(w) != check(w, self.id) ||
		    (w[0] & ((1u << SRC_BITS) - 1)) >= self.ncores) {
			kstat.mbox_dropped++;
			rxhead++;
			continue;
		}
		m = &queue[qtail % QSIZE];
		m->source = w[0] & ((1u << SRC_BITS) - 1);
		m->tag = w[0] >> 16;
		m->size = w[1] & 0x1F;
		memcpy(m->payload, &w[2], SCC_MBOX_PAYLOAD);
		qtail++;
		rxhead++;
		moved++;
	}
	if (!n && (look | read32(own + MB_WAIT) | read32(own + MB_WAIT + 4)))
		n = heal();
	if (n) {
		write32(own + MB_HEAD, rxhead);
		mpb_flush();
		kstat.mbox_received += moved;
		// After the head is out: a waiter that set its bit before we
		// look is woken; one that sets it later sees the new head.
		mpb_invalidate();
		wake_waiters(own);
	}
	return moved;
}

static int sleep_waiting(uintptr_t mb, uint32_t tail);

// The receiver c is gone (lock held): clear our waiter bit, if set, and
// fail the send.
static int closed(const struct core *c, uintptr_t mb, uint32_t bit, uint32_t k)
{
	if (bit) {
		set_waiters(mb, k, waiters(mb, k) & ~bit);
		mpb_flush();
	}
	lock_release(c);
	return -SCC_ESRCH;
}

// Ring mb (lock held) says its receiver c has exited, but c still runs:
// it is exiting (its state follows within microseconds), or user code
// wrote the word. A second of our clock later it is the latter: we open
// the ring again, as its receiver does at boot, under the lock. 1 if the
// send should look again (lock released), 0 if c has stopped (lock held).
static int forged_close(const struct core *c, uintptr_t mb)
{
	uint64_t t0 = rdtsc();

	if (sif_core_state(c->id) != CORE_STATE_RUNNING)
		return 0;
	lock_release(c);
	while (sif_core_state(c->id) == CORE_STATE_RUNNING && rdtsc() - t0 < core_hz)
		pause();
	lock_acquire(c);
	mpb_invalidate();
	if (read32(mb + MB_CLOSED) == MB_GONE) {
		if (sif_core_state(c->id) != CORE_STATE_RUNNING)
			return 0;
		write32(mb + MB_CLOSED, 0);
		mpb_flush();
		kstat.mbox_repaired++;
		console_endline();
		cprintf("core %02u: mailbox of core %02u said closed for 1 s while it "
			"ran: opened again\n", self.id, c->id);
	}
	lock_release(c);
	return 1;
}

// Whether the receiver of ring mb must be interrupted (its mode says so,
// or it sleeps). A word that is neither of the exact values the receiver
// writes says so too.
static int must_interrupt(uintptr_t mb)
{
	uint32_t m = read32(mb + MB_MODE);

	if ((m & ~0xFFu) != MB_MODE_TAG || notify_scheme(m & 0xFF)->interrupt)
		return 1;
	return read32(mb + MB_SLEEP) != MB_AWAKE;
}

// Put a message into dest's ring; waits while the ring is full.
int mbox_send(uint32_t dest, uint32_t tag, const void *payload, uint32_t size)
{
	struct core c;
	uintptr_t mb, slot;
	uint32_t head, tail, w[8], i, sum, k = self.id / 32;
	uint32_t bit = 1u << self.id % 32;
	int waited = 0, listed = 0, poke = 0;

	if (sif_core_state(dest) != CORE_STATE_RUNNING)
		return -SCC_ESRCH;
	core_locate(&self, dest, &c);
	mb = mailbox(&c);
	memset(w, 0, sizeof(w));
	w[0] = self.id | tag << 16;
	memcpy(&w[2], payload, size);
	for (;;) {
		lock_acquire(&c);
		mpb_invalidate();
		head = read32(mb + MB_HEAD);
		tail = read32(mb + MB_TAIL);
		if (read32(mb + MB_CLOSED) == MB_GONE) {
			if (!forged_close(&c, mb))
				return closed(&c, mb, listed ? bit : 0, k);
			continue;
		}
		if (tail - head < MB_SLOTS)
			break;
		if (!waited++)
			kstat.mbox_full_waits++;
		if (dest == self.id) {
			// Our own ring: we make room, holding the lock keeps the
			// other senders out meanwhile. Only a full queue stops us.
			mbox_drain();
			if (tail - rxhead < MB_SLOTS)
				break;
			lock_release(&c);
			return -SCC_EAGAIN;
		}
		if (!listed) {
			set_waiters(mb, k, waiters(mb, k) | bit);
			mpb_flush();
			listed = 1;
			// The ring may look full only because user code wrote
			// its head (or tail): a receiver that waits for an
			// interrupt would then never look. Its drain sees our
			// bit and looks at its line; one that polls will see it.
			// After the lock is free, which a reset needs.
			poke = must_interrupt(mb);
		}
		lock_release(&c);
		if (poke) {
			notify_core(&c);
			poke = 0;
		}
		if (sif_core_state(dest) != CORE_STATE_RUNNING) {
			// Held in reset meanwhile: no exit closes the ring.
			lock_acquire(&c);
			mpb_invalidate();
			return closed(&c, mb, bit, k);
		}
		sleep_waiting(mb, tail);
	}
	if (listed)
		set_waiters(mb, k, waiters(mb, k) & ~bit);
	w[1] = size | (tail & 0x7FF) << 5;
	sum = check(w, dest);
	w[1] |= (sum & 0xFFFF) << 16;
	w[0] |= (sum >> 16) << SRC_BITS;
	slot = mb + MB_SLOT0 + MB_LINE * (tail % MB_SLOTS);
	for (i = 0; i < 8; i++)
		write32(slot + 4 * i, w[i]);
	write32(mb + MB_TAIL, tail + 1);
	mpb_flush();
	// Only now read mode and sleeping: a receiver that set sleeping
	// before we look here is woken, one that sets it later finds the
	// new tail when it checks its ring before sleeping. A sleeping
	// receiver is woken in every mode: in poll mode it sleeps only while
	// it waits for room in another ring, and must drain its own.
	mpb_invalidate();
	if (must_interrupt(mb))
		notify_core(&c);
	lock_release(&c);
	kstat.mbox_sent++;
	return 0;
}

// Sleep, with senders told to interrupt us: we set sleeping, then look at
// the ring once more, then sleep (hybrid mode's wait, and its halt).
void mbox_sleep(void)
{
	set_sleeping(1);
	if (!mbox_drain())
		idle();
	set_sleeping(0);
}

// Wait for room in the full ring mb (its tail was tail): our waiters bit
// is set, so the receiver interrupts us once it has drained. Meanwhile
// senders to us interrupt us too (sleeping), so that two cores sending
// to each other's full rings drain each other's and cannot deadlock.
static int sleep_waiting(uintptr_t mb, uint32_t tail)
{
	set_sleeping(1);
	mpb_invalidate();
	if (!mbox_drain() && tail - read32(mb + MB_HEAD) >= MB_SLOTS)
		idle();
	set_sleeping(0);
	return 0;
}

// The next message, in order of arrival; the scheme decides how to wait.
int mbox_recv(struct scc_msg *out, int flags)
{
	int r;

	for (;;) {
		drain(0, 1);
		if (qtail != qhead)
			break;
		if (flags & SCC_MBOX_NONBLOCK)
			return -SCC_EAGAIN;
		if ((r = notify_current()->wait()) < 0)
			return r;
	}
	*out = queue[qhead % QSIZE];
	qhead++;
	return 0;
}

int mbox_waiting(void)
{
	drain(0, 1);
	return qtail - qhead;
}

// Set the notification mode and hybrid's spin budget (mode -1: only
// ask); the previous mode. Senders read the mode from our ring.
int mbox_mode(int m, uint32_t spin)
{
	int old = notify_mode(m, spin);

	if (m != -1 && old >= 0) {
		rxmode = MB_MODE_TAG | m;
		intr_expected = rxsleep == MB_ASLEEP || notify_current()->interrupt;
		write32(own + MB_MODE, rxmode);
		mpb_flush();
	}
	return old;
}
