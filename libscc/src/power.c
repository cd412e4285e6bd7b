/*
 * power.c - RCCE's power management API. The domains are the SCC's: 2x2
 * tiles (8 cores) each. A frequency divider sets the clock of every tile
 * of the caller's domain to 1600 / fdiv MHz (the SCC's global clock over
 * the divider: 533 MHz at fdiv 3) through GCBCFG; in the machine's timing
 * mode the cores then run at that clock. Clocks above the chip's core
 * clock are refused (RCCE_ERROR_FDIVIDER). Voltage is not modeled: the
 * requests report level 0.
 */
#include "internal.h"

static int domain_of(int core)
{
    int mx = scc_self.facts.mesh_x, cpt = scc_self.facts.cores_per_tile;
    int tile = core / cpt, x = tile % mx, y = tile / mx;

    return x / 2 + (mx + 1) / 2 * (y / 2);
}

/* Every UE that asks for its domain takes part in its power management
 * (RCCE's power programs ask on every UE before the master sets the
 * clock): the clock changes must reach it in time. */
int RCCE_power_domain(void)
{
    plat_power_member();
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

/* Every tile of my domain at 1600 / fdiv MHz. */
static int set_domain_clock(int fdiv)
{
    int d = RCCE_power_domain(), cpt = scc_self.facts.cores_per_tile;

    if (fdiv < 2 || fdiv > 16)
        return scc_error(RCCE_ERROR_FDIVIDER);
    for (int core = 0; core < scc_self.facts.ncores; core += cpt)
        if (domain_of(core) == d && plat_tile_clock(core / cpt, 1600u / (unsigned)fdiv))
            return scc_error(RCCE_ERROR_FDIVIDER);
    return RCCE_SUCCESS;
}

int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *new_fdiv,
                    int *new_vlevel)
{
    int err = set_domain_clock(fdiv);

    if (err)
        return err;
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
    int err = set_domain_clock(fdiv);

    if (err)
        return err;
    if (new_fdiv)
        *new_fdiv = fdiv;
    return RCCE_SUCCESS;
}
