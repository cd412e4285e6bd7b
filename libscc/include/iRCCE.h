/*
 * iRCCE.h - libscc's implementation of RWTH Aachen's iRCCE (2.0 names and
 * status codes): non-blocking send/recv with request handles, progress by
 * push/test/wait, wait lists, cancel, the iRCCE_ANY_SOURCE wildcard and
 * pipelined send/recv.
 *
 * All of RCCE's, iRCCE's and RCCEnb's sends and receives speak the same
 * protocol on the same MPB channel, so any send matches any receive.
 * Sends leave one at a time in posting order (one payload buffer per UE);
 * receives queue per source and complete in any order. Every message is
 * synchronous: a send completes when the receiver has taken all of it.
 * Messages larger than the payload buffer are always pipelined (two
 * halves), so iRCCE_ssend/srecv are the same as isend/irecv + wait.
 * Not provided: iRCCE_ANY_LENGTH, tagged flags, the 32-byte variants,
 * atomic increment registers, multicast.
 */
#ifndef IRCCE_H
#define IRCCE_H

#include <sys/types.h>

#include "RCCE.h"
#include "scc_chan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define iRCCE_VERSION "2.0 (libscc)"

#define iRCCE_SUCCESS  RCCE_SUCCESS
#define iRCCE_ERROR        -1
#define iRCCE_PENDING      -2
#define iRCCE_RESERVED     -3
#define iRCCE_NOT_ENQUEUED -4

extern const int iRCCE_ANY_SOURCE;

typedef struct _iRCCE_SEND_REQUEST {
    char *privbuf;      /* source buffer in private memory */
    size_t size;        /* bytes */
    int dest;           /* receiving UE */
    int sync;           /* issued as synchronous (all sends are) */
    int label;          /* 0 queued, 1 on the channel */
    int finished;       /* 1 when the receiver has all of it */
    struct scc_xfer xfer;
    struct _iRCCE_SEND_REQUEST *next;
} iRCCE_SEND_REQUEST;

typedef struct _iRCCE_RECV_REQUEST {
    char *privbuf;      /* target buffer in private memory */
    size_t size;        /* bytes */
    int source;         /* sending UE; iRCCE_ANY_SOURCE until matched */
    int sync;
    int label;          /* 0 queued, 1 on the channel */
    int finished;       /* 1 when all of it is in privbuf */
    int started;        /* 1 once the first chunk came in */
    int error;          /* RCCE_ERROR_MESSAGE_LENGTH if sizes differed */
    struct scc_xfer xfer;
    struct _iRCCE_RECV_REQUEST *next;
} iRCCE_RECV_REQUEST;

#define iRCCE_WAIT_LIST_RECV_TYPE 0
#define iRCCE_WAIT_LIST_SEND_TYPE 1

typedef struct _iRCCE_WAIT_LISTELEM {
    int type;
    struct _iRCCE_WAIT_LISTELEM *next;
    void *req;
} iRCCE_WAIT_LISTELEM;

typedef struct _iRCCE_WAIT_LIST {
    iRCCE_WAIT_LISTELEM *first;
    iRCCE_WAIT_LISTELEM *last;
} iRCCE_WAIT_LIST;

/* Initialize function: */
int   iRCCE_init(void);
/* Non-blocking send/recv functions: */
int   iRCCE_isend(char *, ssize_t, int, iRCCE_SEND_REQUEST *);
int   iRCCE_isend_test(iRCCE_SEND_REQUEST *, int *);
int   iRCCE_isend_wait(iRCCE_SEND_REQUEST *);
int   iRCCE_isend_push(void);
int   iRCCE_irecv(char *, ssize_t, int, iRCCE_RECV_REQUEST *);
int   iRCCE_irecv_test(iRCCE_RECV_REQUEST *, int *);
int   iRCCE_irecv_wait(iRCCE_RECV_REQUEST *);
int   iRCCE_irecv_push(void);
/* libscc: push every pending send and receive */
int   iRCCE_push(void);
/* Pipelined send/recv functions (synchronous and blocking): */
int   iRCCE_ssend(char *, ssize_t, int);
int   iRCCE_srecv(char *, ssize_t, int);
int   iRCCE_srecv_test(char *, ssize_t, int, int *);
/* Non-blocking pipelined send/recv functions: */
int   iRCCE_issend(char *, ssize_t, int, iRCCE_SEND_REQUEST *);
int   iRCCE_isrecv(char *, ssize_t, int, iRCCE_RECV_REQUEST *);
/* SCC-customized put/get and memcpy functions: */
int   iRCCE_put(t_vcharp, t_vcharp, int, int);
int   iRCCE_get(t_vcharp, t_vcharp, int, int);
void *iRCCE_memcpy_put(void *, const void *, size_t);
void *iRCCE_memcpy_get(void *, const void *, size_t);
t_vcharp iRCCE_malloc(size_t);
#define iRCCE_memcpy iRCCE_memcpy_put
/* Blocking and non-blocking probe for incoming messages: */
int   iRCCE_probe(int, int *);
int   iRCCE_iprobe(int, int *, int *);
/* Wait/test-all/any functions: */
void  iRCCE_init_wait_list(iRCCE_WAIT_LIST *);
void  iRCCE_add_to_wait_list(iRCCE_WAIT_LIST *, iRCCE_SEND_REQUEST *,
                             iRCCE_RECV_REQUEST *);
void  iRCCE_add_send_to_wait_list(iRCCE_WAIT_LIST *, iRCCE_SEND_REQUEST *);
void  iRCCE_add_recv_to_wait_list(iRCCE_WAIT_LIST *, iRCCE_RECV_REQUEST *);
int   iRCCE_test_all(iRCCE_WAIT_LIST *, int *);
int   iRCCE_wait_all(iRCCE_WAIT_LIST *);
int   iRCCE_test_any(iRCCE_WAIT_LIST *, iRCCE_SEND_REQUEST **,
                     iRCCE_RECV_REQUEST **);
int   iRCCE_wait_any(iRCCE_WAIT_LIST *, iRCCE_SEND_REQUEST **,
                     iRCCE_RECV_REQUEST **);
/* Query functions for request handle parameters: */
int   iRCCE_get_dest(iRCCE_SEND_REQUEST *);
int   iRCCE_get_source(iRCCE_RECV_REQUEST *);
int   iRCCE_get_size(iRCCE_SEND_REQUEST *, iRCCE_RECV_REQUEST *);
int   iRCCE_get_length(void);
int   iRCCE_get_status(iRCCE_SEND_REQUEST *, iRCCE_RECV_REQUEST *);
/* Cancel functions for not yet started non-blocking requests: */
int   iRCCE_isend_cancel(iRCCE_SEND_REQUEST *, int *);
int   iRCCE_irecv_cancel(iRCCE_RECV_REQUEST *, int *);
/* One name for both, picked by the request's type (C11). */
#define iRCCE_cancel(req, test) _Generic((req), \
        iRCCE_SEND_REQUEST *: iRCCE_isend_cancel, \
        iRCCE_RECV_REQUEST *: iRCCE_irecv_cancel)((req), (test))
/* Collectives: */
int   iRCCE_barrier(RCCE_COMM *);
int   iRCCE_bcast(char *, size_t, int, RCCE_COMM);
/* Functions of the GORY RCCE interface mapped to iRCCE: */
int   iRCCE_flag_alloc(RCCE_FLAG *);
int   iRCCE_flag_write(RCCE_FLAG *, RCCE_FLAG_STATUS, int);
int   iRCCE_flag_read(RCCE_FLAG, RCCE_FLAG_STATUS *, int);
int   iRCCE_wait_until(RCCE_FLAG, RCCE_FLAG_STATUS);

/* Just for convenience: */
#define RCCE_isend        iRCCE_isend
#define RCCE_isend_test   iRCCE_isend_test
#define RCCE_isend_wait   iRCCE_isend_wait
#define RCCE_isend_push   iRCCE_isend_push
#define RCCE_irecv        iRCCE_irecv
#define RCCE_irecv_test   iRCCE_irecv_test
#define RCCE_irecv_wait   iRCCE_irecv_wait
#define RCCE_irecv_push   iRCCE_irecv_push
#define RCCE_SEND_REQUEST iRCCE_SEND_REQUEST
#define RCCE_RECV_REQUEST iRCCE_RECV_REQUEST

#define iRCCE_send        iRCCE_ssend
#define iRCCE_recv        iRCCE_srecv
#define iRCCE_recv_test   iRCCE_srecv_test

#define iRCCE_issend_test iRCCE_isend_test
#define iRCCE_issend_wait iRCCE_isend_wait
#define iRCCE_issend_push iRCCE_isend_push
#define iRCCE_isrecv_test iRCCE_irecv_test
#define iRCCE_isrecv_wait iRCCE_irecv_wait
#define iRCCE_isrecv_push iRCCE_irecv_push

#ifdef __cplusplus
}
#endif

#endif
