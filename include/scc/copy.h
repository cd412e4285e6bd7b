/*
 * The copy-core protocol (docs/copy.md): mailbox tags and the 24-byte
 * payloads, shared by the kernel (kernel/copy.c) and the user library
 * (libscc/sys/scc_copy.h).
 */
#ifndef SCC_COPY_PROTO_H
#define SCC_COPY_PROTO_H

#include <stdint.h>

#define SCC_COPY_TAG_REQ    0xC0A0  /* requester -> copy core */
#define SCC_COPY_TAG_DONE   0xC0A1  /* copy core -> completion target */
#define SCC_COPY_TAG_STOP   0xC0A2  /* anyone -> copy core: exit 0 */
#define SCC_COPY_TAG_PING   0xC0A3  /* a waiting requester's kernel -> copy
                                       core, to learn whether its ring is
                                       closed; never answered */

struct scc_copy_req {
    uint32_t dst, src;          /* the requester's user addresses */
    uint32_t size;              /* bytes, at most SCC_COPY_MAX */
    uint16_t target;            /* core to notify on success */
    uint16_t method;            /* SCC_COPY_* */
    uint32_t cookie;            /* returned as is */
};

struct scc_copy_done {
    uint32_t cookie;
    int32_t status;             /* 0, or -errno */
    uint16_t requester;         /* who asked */
    uint16_t copier;            /* which copy core answered */
    uint32_t size;
};

#define SCC_COPY_MAX        (64u << 20)

#endif
