/*
 * snet: S-Net's own record path on the SCC, in its busy-waiting form
 * (002 Table II's "Polling" column, "a busy-waiting version of the
 * interrupt code", 002 lines 5500-5503). How S-Net moves a record is not
 * in 002; it is in S-Net's published runtime (the snet-rts repository,
 * src/distrib/scc/scc.h and transmit.c), which this follows:
 *
 * - Every core's MPB holds one ring for all its incoming records ("the
 *   MPB as a single queue for all incoming messages", 002 line 5194),
 *   with a header line: the reader's position (start), the writers'
 *   (end), a "handling" byte (the receiver is awake: no interrupt) and a
 *   "writing" byte.
 * - The ring is guarded by its owner's test-and-set register: a sender
 *   holds the receiver's, and so does the receiver while it looks.
 * - A record goes field by field, as S-Net serialises it: its kind, the
 *   binding tags (a count), the tags (a count, the names, the values),
 *   the fields (a count), its mode, its interface, then where it is
 *   from. Each field is one copy into the ring: invalidate the MPBT
 *   lines, mark "writing", read start and end from the receiver's MPB,
 *   copy, publish the new end, clear "writing", and push the WCB out by
 *   a store to another line; the receiver's copies out mirror it.
 * - A receiver polls by taking its own register and comparing start and
 *   end; a sender reads "handling" before it lets go (an interrupt would
 *   go out if the receiver were asleep: never here, it busy-waits).
 *
 * Parameters: ring=BYTES, the ring's size (S-Net's is the whole MPB but
 * its header: 8,096 B; one record in flight needs 240): a smaller ring
 * only wraps more often. The T&S registers are reached through the
 * kernel's short trap (scc_lock_try): under crb=isolated no user code
 * maps them; SCC Linux mapped them into S-Net's process.
 */
#include <stdio.h>

#include "notify.h"
#include "scc.h"

/* The header line: start, end (ring offsets), handling, writing. */
#define H_START    0
#define H_END      2
#define H_HANDLING 4
#define H_WRITING  5

static volatile uint8_t *box;   /* my header line; the ring follows */
static uint32_t ring;           /* its size, bytes */

static volatile uint16_t *u16_at(int ue, int off)
{
    return (volatile uint16_t *)(mpb_at(ue, box) + off);
}

static volatile uint8_t *u8_at(int ue, int off)
{
    return mpb_at(ue, box) + off;
}

static void lock(int ue)
{
    while (!scc_lock_try(RCCE_ue_core(ue)))
        ;
}

static void unlock(int ue)
{
    scc_lock_release(RCCE_ue_core(ue));
}

/* S-Net copied with the C library's memcpy; glibc's for i386 moves
 * words (every field here is whole ints). */
static void copy(volatile void *d, const volatile void *s, unsigned bytes)
{
    void *dst = (void *)d;
    const void *src = (const void *)s;
    unsigned n = bytes / 4;

    __asm__ volatile("cld; rep movsl" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* One field into ue's ring (the caller holds ue's register). "writing"
 * stays set until the whole field is in: S-Net clears it after each
 * piece, which lets another sender in between two pieces of one field
 * when the ring is full (never with one record in flight). */
static void put(int ue, const void *src, unsigned size)
{
    const uint8_t *p = src;

    scc_cl1invmb();
    *u8_at(ue, H_WRITING) = 1;
    mpb_flush();
    while (size) {
        scc_cl1invmb();
        unsigned start = *u16_at(ue, H_START), end = *u16_at(ue, H_END);
        unsigned room = end < start ? start - end - 1 : ring - end - (start == 0);
        room &= ~3u;            /* whole ints: every field is */
        if (room > size)
            room = size;
        if (!room) {            /* full: let the receiver in, then look again */
            unlock(ue);
            lock(ue);
            continue;
        }
        copy(mpb_at(ue, box) + MPB_LINE + end, p, room);
        scc_cl1invmb();
        size -= room;
        p += room;
        *u16_at(ue, H_END) = (uint16_t)((end + room) % ring);
        if (!size)
            *u8_at(ue, H_WRITING) = 0;
        mpb_flush();
    }
}

/* One field out of my ring (I hold my register). A sender stopped by a
 * full ring may not have put all of it yet: then let it in and look
 * again (S-Net's ring, the whole MPB, did not fill). */
static void get(void *dst, unsigned size)
{
    uint8_t *p = dst;
    unsigned start, end;

    for (;;) {
        scc_cl1invmb();
        start = *u16_at(me, H_START);
        end = *u16_at(me, H_END);
        if ((end + ring - start) % ring >= size)
            break;
        unlock(me);
        lock(me);
    }
    while (size) {
        unsigned n = size > ring - start ? ring - start : size;
        scc_cl1invmb();
        copy(p, box + MPB_LINE + start, n);
        start = (start + n) % ring;
        p += n;
        size -= n;
    }
    scc_cl1invmb();
    *u16_at(me, H_START) = (uint16_t)start;
    mpb_flush();
}

/* S-Net's serialised data record, as its fields go: what our record's
 * 8 bytes of metadata and 25 tags and values become. */
struct wire {
    int32_t kind, nbtags, ntags, nfields, mode, iface;
    uint32_t from[2];
};

static int setup(const char *params)
{
    if (param_u32(params, "ring", 1024, 256, 2048, &ring) < 0)
        return -1;
    ring &= ~3u;
    if (!(box = RCCE_malloc(MPB_LINE + ring))) {
        fprintf(stderr, "notify: snet: no MPB room for a %u-byte ring\n", (unsigned)ring);
        return -1;
    }
    *(volatile uint16_t *)(box + H_START) = 0;
    *(volatile uint16_t *)(box + H_END) = 0;
    box[H_HANDLING] = 1;        /* busy-waiting: always awake */
    box[H_WRITING] = 0;
    mpb_flush();
    return 0;
}

static void teardown(void)
{
    RCCE_free((t_vcharp)box);
    box = NULL;
}

static int xsend(int dest, const struct record *r)
{
    struct wire w = {.kind = 0, .nbtags = 0, .ntags = REC_TAGS, .nfields = 0, .mode = 0,
                     .iface = 0, .from = {r->source, r->seq}};

    for (;;) {                  /* S-Net's start_write_node */
        lock(dest);
        scc_cl1invmb();
        if (!*u8_at(dest, H_WRITING))
            break;
        unlock(dest);
    }
    put(dest, &w.kind, 4);
    put(dest, &w.nbtags, 4);    /* the binding tags: none */
    put(dest, &w.ntags, 4);
    put(dest, r->tag, sizeof r->tag);
    put(dest, r->value, sizeof r->value);
    put(dest, &w.nfields, 4);   /* the fields: none */
    put(dest, &w.mode, 4);
    put(dest, &w.iface, 4);
    put(dest, w.from, sizeof w.from);
    scc_cl1invmb();             /* stop_write_node: awake, so no interrupt */
    if (!*u8_at(dest, H_HANDLING))
        fprintf(stderr, "notify: snet: core %02d asleep\n", dest);
    unlock(dest);
    return 0;
}

static int xrecv(int from, struct record *r)
{
    struct wire w;

    (void)from;                 /* one ring for every sender */
    for (;;) {
        lock(me);
        scc_cl1invmb();
        if (*u16_at(me, H_START) != *u16_at(me, H_END))
            break;
        unlock(me);
    }
    get(&w.kind, 4);
    get(&w.nbtags, 4);
    get(&w.ntags, 4);
    int bad = w.kind != 0 || w.nbtags != 0 || w.ntags != REC_TAGS;
    if (!bad) {
        get(r->tag, sizeof r->tag);
        get(r->value, sizeof r->value);
        get(&w.nfields, 4);
        get(&w.mode, 4);
        get(&w.iface, 4);
        get(w.from, sizeof w.from);
    }
    unlock(me);
    if (bad || w.from[0] >= (uint32_t)ncores)
        return -1;
    r->source = w.from[0];
    r->seq = w.from[1];
    return (int)w.from[0];
}

const struct scheme scheme_snet = {
    .name = "snet", .params = "ring=1024", .setup = setup, .teardown = teardown,
    .xsend = xsend, .xrecv = xrecv,
};
