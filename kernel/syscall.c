// System calls (include/scc/syscall.h): number in EAX, arguments in EBX,
// ECX, EDX, ESI, EDI, result in EAX (>= 0, or -errno). Every argument is
// checked; user pointers go through copyin/copyout, which refuse what is
// not the application's memory.

#include <scc/io.h>
#include <scc/sif.h>
#include "defs.h"

#define PANIC_MSG_MAX 200

static int32_t sys_exit(uint32_t status)
{
	core_exit(status & 0xFF);
}

// stderr's byte to the console's register for it: the machine keeps a
// line of each stream per core and prints them apart, so an app's
// diagnostics never land in the middle of its output.
static void console_err_putc(int c)
{
	sif_write(SIF_CONSOLE_ERR, (uint8_t)c);
}

// fd 1 and 2 go to the console (stdout and stderr); the machine prints
// whole lines. The kernel's own messages are stdout's (console_putc),
// which knows whether the app left a line open there.
static int32_t sys_write(uint32_t fd, uint32_t buf, uint32_t len)
{
	void (*put)(int) = fd == 2 ? console_err_putc : console_putc;
	char chunk[256];
	uint32_t done, n, i;

	if (fd != 1 && fd != 2)
		return -SCC_EINVAL;
	if ((int32_t)len < 0)
		return -SCC_EINVAL;
	if (uvalid(buf, len, 0))	// all or nothing
		return -SCC_EFAULT;
	for (done = 0; done < len; done += n) {
		n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
		copyin(chunk, buf + done, n);
		for (i = 0; i < n; i++)
			put(chunk[i]);
	}
	return len;
}

// There is no input: fd 0 is at its end.
static int32_t sys_read(uint32_t fd, uint32_t buf, uint32_t len)
{
	(void)buf;
	(void)len;
	return fd == 0 ? 0 : -SCC_EINVAL;
}

static int32_t sys_time(uint32_t ut)
{
	struct scc_time t;

	t.tsc = rdtsc();
	t.gtsc = sif_gtsc();
	t.core_hz = core_hz;
	t.gtsc_hz = gtsc_hz;
	return copyout(ut, &t, sizeof(t));
}

static int32_t sys_info(uint32_t ui)
{
	struct scc_info i;

	i.core_id = self.id;
	i.ncores = self.ncores;
	i.mesh_x = self.mesh_x;
	i.mesh_y = self.mesh_y;
	i.cores_per_tile = self.cpt;
	i.private_mem = memsize;
	i.core_hz = core_hz;
	i.gtsc_hz = gtsc_hz;
	i.mpb_base = SCC_MPB_BASE;
	i.mpb_stride = SCC_PAGE_SIZE;
	i.mpb_user_off = 0;
	i.mpb_user_size = 0x1C00;
	i.shm_base = SCC_SHARED_BASE;
	i.shm_size = shm_size;
	i.crb_base = SCC_CRB_BASE;
	i.sif_base = SCC_SIF;
	i.mbox_mode = mbox_mode(-1, 0);
	i.timing = sif_read(SIF_TIMING);
	i.crb_mode = crb_mode;
	return copyout(ui, &i, sizeof(i));
}

static int32_t sys_mbox_send(uint32_t dest, uint32_t tag, uint32_t buf, uint32_t len)
{
	uint8_t payload[SCC_MBOX_PAYLOAD];

	if (dest >= self.ncores || tag > 0xFFFF || len > SCC_MBOX_PAYLOAD)
		return -SCC_EINVAL;
	if (copyin(payload, buf, len))
		return -SCC_EFAULT;
	return mbox_send(dest, tag, payload, len);
}

static int32_t sys_mbox_recv(uint32_t uout, uint32_t flags)
{
	struct scc_msg m;
	int r;

	if (flags & ~SCC_MBOX_NONBLOCK)
		return -SCC_EINVAL;
	// Checked before taking a message, so that none is lost.
	if (uvalid(uout, sizeof(m), 1))
		return -SCC_EFAULT;
	if ((r = mbox_recv(&m, flags)) < 0)
		return r;
	return copyout(uout, &m, sizeof(m));
}

// Pulse dest's LINT0. Not under dest's lock, which user code may hold:
// concurrent pulses merge into one interrupt, but leave the pin clear.
static int32_t sys_ipi(uint32_t dest)
{
	struct core c;

	if (dest >= self.ncores || dest == self.id)
		return -SCC_EINVAL;
	core_locate(&self, dest, &c);
	notify_core(&c);
	return 0;
}

// The T&S registers for user code (RCCE's locks and barriers) that has
// no CRB page (crb=isolated): the register alone, never the LUT that
// shares its page. Any core's, as on the chip: RCCE releases other UEs'
// registers too. trapasm.S's tasentry (SCC_TAS_VECTOR) reads the
// register's address here.
uint32_t tas_ncores;
uintptr_t tas_reg[SCC_MAX_CORES];

void tas_init(void)
{
	struct core c;
	uint32_t i;

	for (i = 0; i < self.ncores && i < SCC_MAX_CORES; i++) {
		core_locate(&self, i, &c);
		tas_reg[i] = lock_reg(&c);
	}
	tas_ncores = i;
}

// GCBCFG's clock field of a tile (RCCE's power API), its reset bits kept:
// without the CRB page, user code can neither set the clock nor hold
// cores in reset. A clock above the core clock is refused, as the
// machine refuses it.
static int32_t sys_tile_clock(uint32_t tile, uint32_t mhz)
{
	if (tile >= self.mesh_x * self.mesh_y || mhz == 0 || mhz > core_hz / 1000000)
		return -SCC_EINVAL;
	crb_clock(tile, mhz);
	return 0;
}

// SYS_stats: a region of interest for the timing mode's counters. The
// name is checked here, so that a program hears of a bad one; the machine
// does the rest (SIF_STATS).
static int32_t sys_stats(uint32_t uname)
{
	char name[STATS_NAME_MAX + 1];
	int n, i;

	if (!uname) {
		sif_write(SIF_STATS, STATS_END);
		return 0;
	}
	n = copyinstr(name, uname, sizeof(name));
	if (n == -SCC_EFAULT)
		return -SCC_EFAULT;
	if (n <= 0)
		return -SCC_EINVAL;
	for (i = 0; i < n; i++)
		if (name[i] < 0x21 || name[i] > 0x7e || name[i] == ',')
			return -SCC_EINVAL;
	for (i = 0; i < n; i++)
		sif_write(SIF_STATS_NAME, (uint8_t)name[i]);
	sif_write(SIF_STATS, STATS_BEGIN);
	return 0;
}

static int32_t sys_panic(uint32_t umsg)
{
	char msg[PANIC_MSG_MAX];

	// A message too long for the line is cut.
	if (!umsg || copyinstr(msg, umsg, sizeof(msg)) == -SCC_EFAULT)
		return -SCC_EFAULT;
	msg[sizeof(msg) - 1] = 0;
	panic("%s", msg);
}

static int32_t sys_tick(uint32_t hz)
{
	if (hz > TICK_MAX || lapic_timer(hz, core_hz))
		return -SCC_EINVAL;
	return 0;
}

static int32_t sys_lut_read(uint32_t page)
{
	if (page > 0xFF)
		return -SCC_EINVAL;
	return (int32_t)lut_get(&self, page);
}

void syscall(struct trapframe *tf)
{
	uint32_t a = tf->ebx, b = tf->ecx, c = tf->edx, d = tf->esi, e = tf->edi;
	int32_t r;

	kstat.syscalls++;
	switch (tf->eax) {
	case SYS_exit:
		r = sys_exit(a);
		break;
	case SYS_write:
		r = sys_write(a, b, c);
		break;
	case SYS_read:
		r = sys_read(a, b, c);
		break;
	case SYS_sbrk:
		r = uvm_sbrk((int32_t)a);
		break;
	case SYS_mmap:
		r = uvm_mmap(a);
		break;
	case SYS_munmap:
		r = uvm_munmap(a, b);
		break;
	case SYS_time:
		r = sys_time(a);
		break;
	case SYS_yield:
		mbox_drain();
		r = 0;
		break;
	case SYS_halt:
		listen();
		r = idle_halt(a == SCC_HALT_SINCE, b);
		break;
	case SYS_info:
		r = sys_info(a);
		break;
	case SYS_mbox_send:
		r = sys_mbox_send(a, b, c, d);
		break;
	case SYS_mbox_recv:
		r = sys_mbox_recv(a, b);
		break;
	case SYS_mbox_poll:
		r = mbox_waiting();
		break;
	case SYS_mbox_mode:
		r = mbox_mode((int32_t)a, b);
		break;
	case SYS_ipi:
		r = sys_ipi(a);
		break;
	case SYS_kstat:
		listen();
		r = copyout(a, &kstat, sizeof(kstat));
		break;
	case SYS_vmquery:
		r = uvm_query(a);
		break;
	case SYS_panic:
		r = sys_panic(a);
		break;
	case SYS_tick:
		r = sys_tick(a);
		break;
	case SYS_core_state:
		r = a < self.ncores ? (int32_t)sif_core_state(a) : -SCC_EINVAL;
		break;
	case SYS_copy_mpbt:
		r = copy_mpbt(a, b, c);
		break;
	case SYS_copy_lut:
		r = copy_lut(a, b, c);
		break;
	case SYS_copy_serve:
		r = copy_serve(a, b, c, d, e);
		break;
	case SYS_lut_read:
		r = sys_lut_read(a);
		break;
	case SYS_copy_wait:
		r = copy_wait(a, b, c);
		break;
	case SYS_tile_clock:
		r = sys_tile_clock(a, b);
		break;
	case SYS_crb_raw:
		r = uvm_crb(a);
		break;
	case SYS_stats:
		r = sys_stats(a);
		break;
	case SYS_dram_map:
		r = dram_map(a, b, c);
		break;
	case SYS_peer_read:
		r = peer_read(a, b, c, d);
		break;
	case SYS_grant:
		r = grant(a, b, c, d, e);
		break;
	case SYS_revoke:
		r = revoke(a);
		break;
	case SYS_sleep:
		r = idle_sleep(a, b);
		break;
	default:
		r = -SCC_ENOSYS;
		break;
	}
	tf->eax = r;
}
