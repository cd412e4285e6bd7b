// The device layer: one file per device of the chip, mechanism only.
// It sits below the kernel: it includes no kernel header (the build gives
// drivers/ no -I kernel) and calls nothing of the kernel's; what it needs
// comes in as parameters, and what goes wrong goes back as results.
//
// A core is named by a struct core, filled by mesh_whoami() (this core) or
// core_locate() (any other), which says on which tile (and port z) it sits.

#ifndef DRIVERS_H
#define DRIVERS_H

#include <stdint.h>
#include <scc/hw.h>

// mesh.c: where cores sit
struct core {
	uint32_t id;        // cpt * tile + z
	uint32_t tile;      // x + mesh_x * y
	uint32_t x, y, z;
	uint32_t mesh_x, mesh_y, cpt;
	uint32_t ncores;
};
void mesh_shape(struct core *c);
uint32_t mesh_whoami(struct core *c, uint32_t *tileid);
void core_locate(const struct core *me, uint32_t id, struct core *c);

// lut.c: the lookup table of this core
uint32_t lut_mc(const struct core *c);
uint32_t lut_mc_entry(const struct core *me, uint32_t mc, uint32_t addrbits);
uint32_t lut_private_entry(const struct core *me, const struct core *c, uint32_t page);
uintptr_t lut_own(const struct core *me, uint32_t page);
uint32_t lut_get(const struct core *me, uint32_t page);
void lut_set(const struct core *me, uint32_t page, uint32_t entry);
void lut_window(const struct core *me, const struct core *c, uint32_t page);

// crb.c: the configuration registers of a core's tile
uint32_t crb_tileid(void);
int crb_try_intr(const struct core *c);
void crb_force_intr(const struct core *c);
int crb_try_nmi(const struct core *c);
void crb_force_nmi(const struct core *c);
int crb_running(const struct core *c);
void crb_hold(const struct core *c, int hold);
void crb_clock(uint32_t tile, uint32_t mhz);

// lock.c: the test-and-set register of a core
void lock_acquire(const struct core *c);
int lock_try(const struct core *c);
void lock_release(const struct core *c);
void lock_drop_held(void);
uintptr_t lock_reg(const struct core *c);

// sif.c: the system interface
void sif_putc(int c);
void sif_exit(uint32_t status) __attribute__((noreturn));
uint64_t sif_gtsc(void);
uint32_t sif_counter_inc(int i);
uint32_t sif_counter_get(int i);
void sif_counter_set(int i, uint32_t v);
uint32_t sif_core_state(uint32_t id);
void sif_fault(uint32_t vector, uint32_t eip, uint32_t addr);
void sif_unresponsive(uint32_t id);

// mpb.c: the message passing buffers
uintptr_t mpb_area(const struct core *c);
void mpb_invalidate(void);
void mpb_flush(void);
uintptr_t mpb_flush_page(void);

// lapic.c: this core's local APIC
#define LAPIC_SPURIOUS_VECTOR 0xFF
void lapic_init(uint32_t timer_vector, uint32_t lint0_vector);
void lapic_eoi(void);
void lapic_lint0(uint32_t vector, int on);
int lapic_timer(uint32_t hz, uint32_t core_hz);
int lapic_timer_on(void);
void lapic_oneshot(uint32_t cycles);

#endif
