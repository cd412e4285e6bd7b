// The kernel mailbox (docs/kernel.md). Each core receives into a ring of
// 32-byte lines in its own 8 KiB of MPB, at MB_OFF:
//
//   line 0     head, mode, sleeping    written by the receiver only
//   line 1     tail                    written by senders, under the lock
//   lines 2-31 30 slots, n % 30        written by senders, under the lock
//
// The lock is the receiver's T&S register. Senders take it, the receiver
// never does: it alone writes head, so its LINT0 handler cannot block.
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
#define MB_SLOT0 0x40
#define MB_LINE  32
#define MB_SLOTS 30

#define QSIZE    4096

static struct scc_msg queue[QSIZE];
static uint32_t qhead, qtail;           // qtail - qhead messages queued
static uint32_t rxhead;                 // our ring's head, as we wrote it
static uintptr_t own;                   // our ring
static int mode;

static uintptr_t mailbox(const struct core *c)
{
	return mpb_area(c) + MB_OFF;
}

// The ring is not reset: messages sent before this core booted stay in
// it (machine reset zeroes the MPB, which is an empty ring in ipi mode).
void mbox_init(int m)
{
	own = mailbox(&self);
	mpb_invalidate();
	rxhead = read32(own + MB_HEAD);
	write32(own + MB_SLEEP, 0);
	mbox_mode(m);
}

// Move what the ring holds into the queue, as far as the queue has room;
// the number of messages moved. Safe in the LINT0 handler: no lock.
int mbox_drain(void)
{
	uint32_t tail, slot, w[8], i, n = 0;
	struct scc_msg *m;

	mpb_invalidate();
	tail = read32(own + MB_TAIL);
	if (tail - rxhead > MB_SLOTS) {
		// Only a user program writing the kernel's lines does this.
		cprintf("core %02u: mailbox tail %u head %u: ring reset\n",
			self.id, tail, rxhead);
		rxhead = tail;
		write32(own + MB_HEAD, rxhead);
		mpb_flush();
		return 0;
	}
	while (rxhead != tail && qtail - qhead < QSIZE) {
		slot = own + MB_SLOT0 + MB_LINE * (rxhead % MB_SLOTS);
		for (i = 0; i < 8; i++)
			w[i] = read32(slot + 4 * i);
		m = &queue[qtail % QSIZE];
		m->source = w[0] & 0xFFFF;
		m->tag = w[0] >> 16;
		m->size = w[1] <= SCC_MBOX_PAYLOAD ? w[1] : SCC_MBOX_PAYLOAD;
		memcpy(m->payload, &w[2], SCC_MBOX_PAYLOAD);
		qtail++;
		rxhead++;
		n++;
	}
	if (n) {
		write32(own + MB_HEAD, rxhead);
		mpb_flush();
		kstat.mbox_received += n;
	}
	return n;
}

// Put a message into dest's ring; waits while the ring is full.
int mbox_send(uint32_t dest, uint32_t tag, const void *payload, uint32_t size)
{
	struct core c;
	uintptr_t mb, slot;
	uint32_t head, tail, m, sleeping, w[8], i, backoff = 1;
	int waited = 0;

	core_locate(&self, dest, &c);
	mb = mailbox(&c);
	memset(w, 0, sizeof(w));
	w[0] = self.id | tag << 16;
	w[1] = size;
	memcpy(&w[2], payload, size);
	for (;;) {
		lock_acquire(&c);
		mpb_invalidate();
		head = read32(mb + MB_HEAD);
		tail = read32(mb + MB_TAIL);
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
		lock_release(&c);
		// Our own ring may be what dest waits on to drain its own.
		mbox_drain();
		for (i = 0; i < backoff; i++)
			pause();
		if (backoff < 4096)
			backoff *= 2;
	}
	slot = mb + MB_SLOT0 + MB_LINE * (tail % MB_SLOTS);
	for (i = 0; i < 8; i++)
		write32(slot + 4 * i, w[i]);
	write32(mb + MB_TAIL, tail + 1);
	mpb_flush();
	// Only now read mode and sleeping: a receiver that set sleeping
	// before we look here is woken, one that sets it later finds the
	// new tail when it checks its ring before sleeping.
	mpb_invalidate();
	m = read32(mb + MB_MODE);
	sleeping = read32(mb + MB_SLEEP);
	if (m == SCC_MBOX_IPI || (m == SCC_MBOX_HYBRID && sleeping))
		crb_intr(&c);
	lock_release(&c);
	kstat.mbox_sent++;
	return 0;
}

// Wait for an interrupt. sti takes effect after hlt has begun, so an
// interrupt already pending wakes it at once.
static void sleep(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

// In hybrid mode senders interrupt us only while sleeping is set, so we
// set it, then look at the ring once more, then sleep.
static void sleep_hybrid(void)
{
	write32(own + MB_SLEEP, 1);
	mpb_flush();
	if (!mbox_drain())
		sleep();
	write32(own + MB_SLEEP, 0);
	mpb_flush();
}

// The next message, in order of arrival.
int mbox_recv(struct scc_msg *out, int flags)
{
	for (;;) {
		mbox_drain();
		if (qtail != qhead)
			break;
		if (flags & SCC_MBOX_NONBLOCK)
			return -SCC_EAGAIN;
		if (mode == SCC_MBOX_POLL)
			pause();
		else if (mode == SCC_MBOX_HYBRID)
			sleep_hybrid();
		else
			sleep();
	}
	*out = queue[qhead % QSIZE];
	qhead++;
	return 0;
}

int mbox_waiting(void)
{
	mbox_drain();
	return qtail - qhead;
}

// SYS_halt: any interrupt wakes us; in hybrid mode a message does too.
void mbox_halt(void)
{
	if (mode == SCC_MBOX_HYBRID)
		sleep_hybrid();
	else
		sleep();
}

// Set the notification mode (-1: only ask); the previous mode.
int mbox_mode(int m)
{
	int old = mode;

	if (m == -1)
		return old;
	if (m != SCC_MBOX_IPI && m != SCC_MBOX_POLL && m != SCC_MBOX_HYBRID)
		return -SCC_EINVAL;
	mode = m;
	write32(own + MB_MODE, m);
	mpb_flush();
	return old;
}
