/*
 * Notification schemes for small messages between cores (docs/notify.md):
 * how a receiver learns that a record waits for it. One scheme per file;
 * the table is in scheme.c. Every scheme moves the record the same way,
 * so that the schemes differ in notification only: the sender writes it
 * into its own MPB outbox, the receiver, once notified, reads it from
 * there and acknowledges, and the sender reuses its outbox only after the
 * acknowledgement (one record in flight per sender). rcce is the
 * exception: it is RCCE_send/RCCE_recv, the baseline.
 *
 * Chip only (the kernel mailbox and the MPB layout are the chip's).
 */
#ifndef NOTIFY_H
#define NOTIFY_H

#include <stdint.h>
#include <stdio.h>

#include "RCCE.h"

/* S-Net's record: 8 bytes of metadata, 25 tags and their 25 values. */
#define REC_TAGS 25
struct record {
    uint32_t source, seq;
    int32_t tag[REC_TAGS], value[REC_TAGS];
};
#define REC_BYTES ((int)sizeof(struct record))
#define MPB_LINE 32
#define REC_LINES ((REC_BYTES + MPB_LINE - 1) / MPB_LINE)

struct scheme {
    const char *name;
    const char *params;         /* "key=default,..." accepted, or "" */
    /* On every core, with the same arguments (symmetric MPB allocation):
     * 0, or a negative value after printing why. */
    int (*setup)(const char *params);
    /* My outbox holds record seq for dest: tell dest. */
    void (*notify)(int dest, uint32_t seq);
    /* Wait for a record from core from (or from any core, from = -1);
     * the sending core. */
    int (*wait)(int from);
    /* Optional: own acknowledgement path (else the outbox's ack line). */
    void (*ack)(int src, uint32_t seq);
    uint32_t (*acked)(int dest);
    void (*teardown)(void);
    /* Whole transfer instead of the outbox (rcce): send and receive. */
    int (*xsend)(int dest, const struct record *r);
    int (*xrecv)(int from, struct record *r);
};

/* Say it once: every core runs the same code on the same arguments.
 * SAY is for the output (stdout), SAY_ERR for what went wrong (stderr). */
#define SAY(...) do { if (RCCE_ue() == 0) printf(__VA_ARGS__); } while (0)
#define SAY_ERR(...) do { if (RCCE_ue() == 0) fprintf(stderr, __VA_ARGS__); } while (0)

/* scheme.c */
const struct scheme *scheme_find(const char *spec, const char **params);
void scheme_list(FILE *f);     /* on UE 0 */
/* Parse "--scheme SPEC" arguments (SPEC may be "all"); the number of
 * specs put in specs[max], or -1 after saying why. */
int scheme_specs(const char *arg, const char **specs, int n, int max);
int param_u32(const char *params, const char *key, uint32_t dflt, uint32_t lo, uint32_t hi,
              uint32_t *out);

/* chan.c: the record path every scheme shares */
extern int me, ncores;
int chan_setup(const struct scheme *s, const char *params);
void chan_teardown(void);
int chan_send(int dest, const struct record *r);
int chan_recv(int from, struct record *r);
volatile uint8_t *mpb_at(int core, volatile uint8_t *mine);
void mpb_flush(void);
void rec_fill(struct record *r, uint32_t source, uint32_t seq);
int rec_check(const struct record *r, uint32_t source, uint32_t seq);
int hops_between(int a, int b);

extern const struct scheme scheme_flag, scheme_flags, scheme_ring, scheme_rcce, scheme_snet,
    scheme_mbox_ipi, scheme_mbox_poll, scheme_mbox_timer, scheme_mbox_hybrid;

#endif
