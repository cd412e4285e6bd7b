/*
 * RCCEnb.h - lightweight non-blocking send/recv for collectives
 * (Kohler et al., "RCCEnb", section III.B of the RCCE_comm optimization
 * paper): at most ONE send and ONE receive in flight per UE, no request
 * handles, no lists, no queues. A collective round is
 *
 *     RCCEnb_isend(out, n, right);
 *     RCCEnb_irecv(in,  n, left);
 *     RCCEnb_wait();
 *
 * The transfers use the same MPB channel and protocol as RCCE_send/recv
 * and iRCCE, so an RCCEnb send matches any receive and vice versa. While
 * iRCCE requests hold the channel in a direction, RCCEnb refuses to start
 * one there (RCCE_REJECTED) instead of mixing them up.
 */
#ifndef RCCENB_H
#define RCCENB_H

#include "RCCE.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start a send / a receive. RCCE_SUCCESS once started (possibly already
 * done), RCCE_REJECTED if one is in flight in that direction, or an
 * RCCE_ERROR_* for bad arguments. */
int RCCEnb_isend(char *buf, size_t size, int dest);
int RCCEnb_irecv(char *buf, size_t size, int source);

/* Advance both transfers; *send_done / *recv_done (either may be NULL)
 * say whether that direction is idle now. RCCE_SUCCESS when both are. */
int RCCEnb_test(int *send_done, int *recv_done);

/* Wait until the send / the receive / both are done. A receive whose
 * sender sent another size returns RCCE_ERROR_MESSAGE_LENGTH. */
int RCCEnb_send_wait(void);
int RCCEnb_recv_wait(void);
int RCCEnb_wait(void);

#ifdef __cplusplus
}
#endif

#endif
