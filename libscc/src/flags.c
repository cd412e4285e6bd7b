/*
 * flags.c - RCCE's synchronization flags: word 0 of a whole MPB line from
 * the symmetric heap (scc_mpb.h), so a flag never shares its line, and
 * with it a write-combine buffer flush, with data or another flag.
 */
#include "internal.h"

static int check_flag(RCCE_FLAG flag)
{
    t_vcharp p = (t_vcharp)flag;

    if (!flag)
        return scc_error(RCCE_ERROR_FLAG_UNDEFINED);
    if (!scc_in_heap(p, SCC_MPB_LINE) ||
        (p - my_mpb()) % SCC_MPB_LINE)
        return scc_error(RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER);
    return RCCE_SUCCESS;
}

/* Where flag is in UE ue's MPB. */
static t_vcharp at(RCCE_FLAG flag, int ue)
{
    return scc_self.mpb[ue] + ((t_vcharp)flag - my_mpb());
}

int RCCE_flag_alloc(RCCE_FLAG *flag)
{
    t_vcharp p;

    if (!flag)
        return scc_error(RCCE_ERROR_FLAG_UNDEFINED);
    if (!scc_self.up || !(p = scc_heap_alloc(1)))
        return scc_error(RCCE_ERROR_FLAG_NOT_ALLOCATED);
    *flag = (RCCE_FLAG)p;
    return RCCE_SUCCESS;
}

/* The line goes back zeroed (RCCE_FLAG_UNSET), as it came at reset, so a
 * later flag in the same line starts unset. */
int RCCE_flag_free(RCCE_FLAG *flag)
{
    int err;

    if (!flag)
        return scc_error(RCCE_ERROR_FLAG_UNDEFINED);
    if ((err = check_flag(*flag)))
        return err;
    line_write((t_vcharp)*flag, RCCE_FLAG_UNSET);
    scc_heap_free((t_vcharp)*flag);
    *flag = NULL;
    return RCCE_SUCCESS;
}

int RCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    int err;

    if (!flag)
        return scc_error(RCCE_ERROR_FLAG_UNDEFINED);
    if ((err = check_flag(*flag)) || (err = scc_check_ue(ue)))
        return err;
    line_write(at(*flag, ue), (uint32_t)val);
    return RCCE_SUCCESS;
}

int RCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue)
{
    int err;

    if ((err = check_flag(flag)) || (err = scc_check_ue(ue)))
        return err;
    if (!val)
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    *val = (RCCE_FLAG_STATUS)line_read(at(flag, ue));
    return RCCE_SUCCESS;
}

int RCCE_test_flag(RCCE_FLAG flag, RCCE_FLAG_STATUS val, int *result)
{
    int err;

    if ((err = check_flag(flag)))
        return err;
    if (!result)
        return scc_error(RCCE_ERROR_VAL_UNDEFINED);
    *result = (RCCE_FLAG_STATUS)line_read((t_vcharp)flag) == val;
    scc_idle(*result);
    return RCCE_SUCCESS;
}

/* Wait for my copy of the flag to become val. Pending iRCCE requests keep
 * moving meanwhile. */
int RCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val)
{
    unsigned int spins = 0;
    int err;

    if ((err = check_flag(flag)))
        return err;
    while ((RCCE_FLAG_STATUS)line_read((t_vcharp)flag) != val) {
        spins = scc_progress() ? 0 : spins + plat_spin_step;
        plat_relax(spins);
    }
    return RCCE_SUCCESS;
}
