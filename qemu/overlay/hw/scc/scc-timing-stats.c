/*
 * SCC timing mode, statistics: the counters, regions of interest and
 * timing-stats=.
 * See scc-timing.c for the model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/host-utils.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "exec/cpu-common.h"
#include "hw/core/cpu.h"
#include "hw/i386/apic_internal.h"
#include "system/cpu-timers.h"
#include "system/cpus.h"
#include "system/system.h"
#include "system/tcg-timing.h"
#include "target/i386/cpu.h"
#include "hw/scc/scc.h"
#include "hw/scc/scc-timing.h"
#include "trace.h"
#include "scc-timing-internal.h"

/* --- statistics --------------------------------------------------------- */

static const char *const tm_counter_names[] = {
#define SCC_TM_NAME(n) #n,
    SCC_TM_COUNTERS(SCC_TM_NAME)
#undef SCC_TM_NAME
};

/* The core's counters as of now, stalls still in ps. */
static void tm_counters_now(SCCMachineState *s, SCCCore *c, SCCTimingCounters *n)
{
    tm_catch_up(c);
    *n = c->tm->n;
    n->cycles = scc_timing_tsc(s, c);
    n->l1_mpbt_hits += c->tm->hits_pending;
    if (tm_in_run(c)) {
        /* the instructions of the current run so far */
        n->instructions += tcg_timing_executed(c->cs, c->tm->budget);
    }
}

/* Stalls are kept in ps; the CSV gives cycles of core-hz. */
static void tm_counters_csv(SCCTiming *tm, SCCTimingCounters *n)
{
    n->stall_mpb_read /= tm->core_ps;
    n->stall_mpb_write /= tm->core_ps;
    n->stall_crb /= tm->core_ps;
    n->stall_sif /= tm->core_ps;
    n->stall_contention /= tm->core_ps;
    n->stall_dram /= tm->core_ps;
    n->stall_write_buffer /= tm->core_ps;
    n->mc_wait /= tm->core_ps;
}

void scc_timing_region_name(SCCMachineState *s, SCCCore *c, uint8_t byte)
{
    SCCCoreTiming *k = tm_core_timing(c);

    if (!s->timing) {
        return;
    }
    if (k->next_len >= STATS_NAME_MAX || byte < 0x21 || byte > 0x7e || byte == ',') {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region name byte 0x%02x "
                      "refused (printable, no comma, %d bytes at most)\n",
                      c->id, byte, STATS_NAME_MAX);
        return;
    }
    k->next_name[k->next_len++] = byte;
}

/*
 * Begin a region (named by the bytes since the last command) or end the
 * open one: the counters it took, summed over its calls, are written as
 * rows of their own (scope region:NAME) beside the whole run's.
 */
void scc_timing_region(SCCMachineState *s, SCCCore *c, uint32_t cmd)
{
    SCCCoreTiming *k = tm_core_timing(c);
    SCCTimingCounters now;
    uint64_t *v = (uint64_t *)&now, *b, *sum;
    int i;

    if (!s->timing) {
        return;
    }
    if (cmd == STATS_BEGIN) {
        k->next_name[k->next_len] = 0;
        k->next_len = 0;
        if (k->open_region || !k->next_name[0]) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region '%s' not begun: "
                          "%s\n", c->id, k->next_name,
                          k->open_region ? "another is open (regions do not nest)"
                                         : "no name");
            return;
        }
        for (i = 0; i < k->nregions && strcmp(k->region[i].name, k->next_name); i++) {
        }
        if (i == k->nregions) {
            if (i == STATS_REGIONS) {
                qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region '%s' not begun: "
                              "%d regions at most\n", c->id, k->next_name,
                              STATS_REGIONS);
                return;
            }
            pstrcpy(k->region[i].name, sizeof(k->region[i].name), k->next_name);
            k->nregions++;
        }
        tm_counters_now(s, c, &k->region[i].begin);
        k->open_region = i + 1;
    } else if (cmd == STATS_END) {
        if (!k->open_region) {
            qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: region end with none "
                          "open\n", c->id);
            return;
        }
        tm_counters_now(s, c, &now);
        b = (uint64_t *)&k->region[k->open_region - 1].begin;
        sum = (uint64_t *)&k->region[k->open_region - 1].sum;
        for (i = 0; i < ARRAY_SIZE(tm_counter_names); i++) {
            sum[i] += v[i] - b[i];
        }
        k->region[k->open_region - 1].calls++;
        k->open_region = 0;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "scc: core %d: SIF_STATS command %u "
                      "unknown\n", c->id, cmd);
    }
}

void scc_timing_write_stats(SCCMachineState *s)
{
    const char *const *names = tm_counter_names;
    static const char dirs[] = "ESWN";
    SCCTiming *tm = s->tm;
    FILE *f;
    int64_t end = 0;
    int i, j, r;

    if (!s->timing || !s->tp.stats_file || !*s->tp.stats_file) {
        return;
    }
    f = strcmp(s->tp.stats_file, "-") ? fopen(s->tp.stats_file, "w") : stderr;
    if (!f) {
        error_report("scc: timing-stats: cannot write %s: %s",
                     s->tp.stats_file, strerror(errno));
        return;
    }
    fprintf(f, "scope,id,counter,value\n");
    for (i = 0; i < s->ncores; i++) {
        SCCCore *c = &s->core[i];
        SCCTimingCounters n;
        uint64_t *v = (uint64_t *)&n;
        int64_t now;

        if (!c->started) {
            continue;
        }
        tm_counters_now(s, c, &n);
        now = scc_timing_now(s, c);
        end = MAX(end, now);
        tm_counters_csv(tm, &n);
        for (j = 0; j < ARRAY_SIZE(tm_counter_names); j++) {
            fprintf(f, "core,%d,%s,%" PRIu64 "\n", c->id, names[j], v[j]);
        }
    }
    for (i = 0; i < s->ncores; i++) {
        SCCCoreTiming *k = s->core[i].tm;

        for (r = 0; s->core[i].started && r < k->nregions; r++) {
            SCCTimingCounters n = k->region[r].sum;
            uint64_t *v = (uint64_t *)&n;

            tm_counters_csv(tm, &n);
            fprintf(f, "region:%s,%d,calls,%" PRIu64 "\n", k->region[r].name,
                    s->core[i].id, k->region[r].calls);
            for (j = 0; j < ARRAY_SIZE(tm_counter_names); j++) {
                fprintf(f, "region:%s,%d,%s,%" PRIu64 "\n", k->region[r].name,
                        s->core[i].id, names[j], v[j]);
            }
        }
    }
    fprintf(f, "run,,modeled_ps,%" PRId64 "\n", end);
    fprintf(f, "run,,restarted_accesses,%" PRIu64 "\n", tm->blocks);
    for (i = 0; i < s->ntiles; i++) {
        for (j = 0; j < 4; j++) {
            if (tm->link[i][j]) {
                fprintf(f, "link,%d,%c,%" PRIu64 "\n", i, dirs[j],
                        tm->link[i][j]);
            }
        }
    }
    if (f != stderr) {
        fclose(f);
    }
}
