/*
 * power.c - RCCE's power management API. The emulated chip models no
 * voltage or frequency control, so setting power does nothing and
 * succeeds. The domains are the SCC's: 2x2 tiles (8 cores) each.
 */
#include "internal.h"

static int domain_of(int core)
{
    int mx = scc_self.facts.mesh_x, cpt = scc_self.facts.cores_per_tile;
    int tile = core / cpt, x = tile % mx, y = tile / mx;

    return x / 2 + (mx + 1) / 2 * (y / 2);
}

int RCCE_power_domain(void)
{
    return domain_of(scc_self.core_of[scc_self.iam]);
}

/* The lowest rank in my domain. */
int RCCE_power_domain_master(void)
{
    int d = RCCE_power_domain();

    for (int ue = 0; ue < scc_self.np; ue++)
        if (domain_of(scc_self.core_of[ue]) == d)
            return ue;
    return scc_self.iam;
}

int RCCE_power_domain_size(void)
{
    int d = RCCE_power_domain(), n = 0;

    for (int ue = 0; ue < scc_self.np; ue++)
        n += domain_of(scc_self.core_of[ue]) == d;
    return n;
}

int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *new_fdiv,
                    int *new_vlevel)
{
    if (req) {
        req->release = 0;
        req->old_frequency_divider = req->new_frequency_divider = fdiv;
        req->old_voltage_level = req->new_voltage_level = 0;
        req->start_cycle = 0;
    }
    if (new_fdiv)
        *new_fdiv = fdiv;
    if (new_vlevel)
        *new_vlevel = 0;
    return RCCE_SUCCESS;
}

int RCCE_wait_power(RCCE_REQUEST *req)
{
    (void)req;
    return RCCE_SUCCESS;
}

int RCCE_set_frequency_divider(int fdiv, int *new_fdiv)
{
    if (new_fdiv)
        *new_fdiv = fdiv;
    return RCCE_SUCCESS;
}
