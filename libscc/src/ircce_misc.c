/*
 * ircce_misc.c - iRCCE's init, request queries and its names for RCCE
 * functions (put/get, MPB memory, flags, collectives).
 */
#include <string.h>

#include "internal.h"

int iRCCE_init(void)
{
    /* The queues live in the UE's state, which RCCE_init cleared. */
    return scc_self.up ? iRCCE_SUCCESS : iRCCE_ERROR;
}

int iRCCE_get_dest(iRCCE_SEND_REQUEST *r)
{
    return r ? r->dest : iRCCE_ERROR;
}

int iRCCE_get_source(iRCCE_RECV_REQUEST *r)
{
    return r ? r->source : scc_self.recent_source;
}

int iRCCE_get_size(iRCCE_SEND_REQUEST *s, iRCCE_RECV_REQUEST *r)
{
    if (s)
        return (int)s->size;
    if (r)
        return (int)r->size;
    return scc_self.recent_length;
}

int iRCCE_get_length(void)
{
    return scc_self.recent_length;
}

int iRCCE_get_status(iRCCE_SEND_REQUEST *s, iRCCE_RECV_REQUEST *r)
{
    if (s) {
        if (s->finished)
            return iRCCE_SUCCESS;
        return scc_self.isend_head == s ? iRCCE_PENDING : iRCCE_RESERVED;
    }
    if (r) {
        if (r->finished)
            return iRCCE_SUCCESS;
        if (r->source == iRCCE_ANY_SOURCE)
            return iRCCE_RESERVED;
        return scc_self.irecv_head[r->source] == r ? iRCCE_PENDING
                                                   : iRCCE_RESERVED;
    }
    return iRCCE_ERROR;
}

int iRCCE_put(t_vcharp target, t_vcharp source, int n, int ue)
{
    return RCCE_put(target, source, n, ue);
}

int iRCCE_get(t_vcharp target, t_vcharp source, int n, int ue)
{
    return RCCE_get(target, source, n, ue);
}

void *iRCCE_memcpy_put(void *dst, const void *src, size_t n)
{
    return plat_copy(dst, src, n);
}

void *iRCCE_memcpy_get(void *dst, const void *src, size_t n)
{
    plat_invalidate();
    return plat_copy(dst, src, n);
}

t_vcharp iRCCE_malloc(size_t size)
{
    return RCCE_malloc(size);
}

int iRCCE_flag_alloc(RCCE_FLAG *flag)
{
    return RCCE_flag_alloc(flag);
}

int iRCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    return RCCE_flag_write(flag, val, ue);
}

int iRCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue)
{
    return RCCE_flag_read(flag, val, ue);
}

int iRCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val)
{
    return RCCE_wait_until(flag, val);
}

int iRCCE_barrier(RCCE_COMM *comm)
{
    return RCCE_barrier(comm);
}

int iRCCE_bcast(char *buf, size_t n, int root, RCCE_COMM comm)
{
    return RCCE_bcast(buf, n, root, comm);
}
