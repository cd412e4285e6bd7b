// Who is this core? The device layer reads it from TILEID and MESH
// (drivers/mesh.c); the id they give must agree with COREID, or the
// machine and the kernel would disagree about every other core's place.

#include "defs.h"

void whoami(struct core *c)
{
	uint32_t tileid, coreid = mesh_whoami(c, &tileid);

	if (c->id != coreid)
		panic("core id %u from TILEID %x and MESH, but COREID says %u",
		      c->id, tileid, coreid);
}
