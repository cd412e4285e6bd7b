// Where cores sit on the mesh. This core learns its tile from TILEID and
// the mesh's shape from the MESH register; any other core's place follows
// from its id (id = cores-per-tile * tile + z, tile = x + mesh_x * y).

#include <scc/io.h>
#include <scc/sif.h>
#include "drivers.h"

// The chip's shape, the same seen from every core.
void mesh_shape(struct core *c)
{
	uint32_t m = sif_read(SIF_MESH);

	c->mesh_x = MESH_X(m);
	c->mesh_y = MESH_Y(m);
	c->cpt = MESH_CPT(m);
	c->ncores = sif_read(SIF_NCORES);
}

// This core, from TILEID and MESH. Returns the id the machine's COREID
// register gives, which the caller checks against c->id: drivers report,
// the kernel decides what a mismatch means.
uint32_t mesh_whoami(struct core *c, uint32_t *tileid)
{
	*tileid = read32(SCC_OWN_CRB + CRB_TILEID);
	mesh_shape(c);
	c->x = TILEID_X(*tileid);
	c->y = TILEID_Y(*tileid);
	c->z = TILEID_Z(*tileid);
	c->tile = c->x + c->mesh_x * c->y;
	c->id = c->cpt * c->tile + c->z;
	return sif_read(SIF_COREID);
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
