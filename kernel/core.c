// Who is this core? The tile comes from TILEID, the mesh shape from the
// MESH extension register; the id they give must agree with COREID.

#include <scc/sif.h>
#include "defs.h"

static void mesh(struct core *c)
{
	uint32_t m = sif_read(SIF_MESH);

	c->mesh_x = MESH_X(m);
	c->mesh_y = MESH_Y(m);
	c->cpt = MESH_CPT(m);
	c->ncores = sif_read(SIF_NCORES);
}

void whoami(struct core *c)
{
	uint32_t tileid = read32(SCC_OWN_CRB + CRB_TILEID);
	uint32_t coreid = sif_read(SIF_COREID);

	mesh(c);
	c->x = TILEID_X(tileid);
	c->y = TILEID_Y(tileid);
	c->z = TILEID_Z(tileid);
	c->tile = c->x + c->mesh_x * c->y;
	c->id = c->cpt * c->tile + c->z;
	if (c->id != coreid)
		panic("core id %u from TILEID %x and MESH, but COREID says %u",
		      c->id, tileid, coreid);
}

// Where another core sits, given our own view of the mesh.
void core_locate(const struct core *me, uint32_t id, struct core *c)
{
	*c = *me;
	c->id = id;
	c->tile = id / me->cpt;
	c->z = id % me->cpt;
	c->x = c->tile % me->mesh_x;
	c->y = c->tile / me->mesh_x;
}
