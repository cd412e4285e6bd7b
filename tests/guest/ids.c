// Every core reports who it is. The machine is checked against itself
// (TILEID and MESH vs COREID, NCORES, the local APIC id, TILEID through
// every tile's CRB); the test checks the lines against the topology.

#include "defs.h"
#include <scc/io.h>

int kmain(uint32_t magic, struct multiboot_info *mbi)
{
	struct core c;
	uint32_t t, v, apic;
	int bad = 0;

	(void)mbi;
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("bad Multiboot magic %x", magic);
	whoami(&c);
	cprintf("id %02u x %u y %u z %u\n", c.id, c.x, c.y, c.z);

	if (c.ncores != c.mesh_x * c.mesh_y * c.cpt) {
		cprintf("NCORES %u, but mesh %ux%u with %u cores a tile\n",
			c.ncores, c.mesh_x, c.mesh_y, c.cpt);
		bad = 1;
	}
	apic = read32(SCC_LAPIC + LAPIC_ID) >> 24;
	if (apic != c.id) {
		cprintf("local APIC id %u\n", apic);
		bad = 1;
	}
	// Another tile's TILEID names that tile, with the reader's z.
	for (t = 0; t < c.mesh_x * c.mesh_y; t++) {
		v = read32(SCC_CRB(t) + CRB_TILEID);
		if (TILEID_X(v) != t % c.mesh_x || TILEID_Y(v) != t / c.mesh_x ||
		    TILEID_Z(v) != c.z) {
			cprintf("TILEID of tile %u reads %x\n", t, v);
			bad = 1;
		}
	}
	return bad;
}
