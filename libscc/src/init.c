/*
 * init.c - starting and stopping a UE, who it is, the clock.
 *
 * argv starts like rccerun's (and Intel's emulator's): the program name,
 * the number of UEs, the clock in GHz (ignored: the clock is measured),
 * then one core id per UE. Ranks go to the cores in increasing id order.
 * RCCE_init removes those words, so the program sees only its own, and
 * takes the run's choice of collective algorithms (SCC_COLL, --coll:
 * coll/core/override.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

SCC_TLS struct scc_state scc_self;
SCC_TLS RCCE_COMM RCCE_COMM_WORLD;
static SCC_TLS int refusal = RCCE_INIT_EXIT;  /* apart from scc_self, which init zeroes */

static int parse_int(const char *s, int *out)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;

    if (!s || end == s || *end || v < 0 || v > 1 << 20)
        return -1;
    *out = (int)v;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Say why RCCE_init refuses its arguments, and return err. Every UE says
 * it: on the chip the first UE to give up stops the run, so only its own
 * words are sure to be seen. The reason may carry a list of what exists
 * (coll/core/override.c: scc_coll_error's, up to 512 bytes). */
int scc_init_refuse(int err, const char *fmt, ...)
{
    char why[640];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "RCCE_init: %s\n", why);
    return err;
}

/* The number of UEs, argv[1]: one a core, at most RCCE_MAXNP. */
static int parse_np(int argc, char **argv, int *np)
{
    int ncores = scc_self.facts.ncores;
    int most = ncores < RCCE_MAXNP ? ncores : RCCE_MAXNP;

    if (argc < 3 || parse_int(argv[1], np) || *np < 1)
        return scc_init_refuse(RCCE_ERROR_NUM_UES, "'%s' is not a number of UEs (the "
                               "arguments start <nues> <GHz> <core id>...)",
                               argc > 1 ? argv[1] : "");
    if (*np > most)
        return scc_init_refuse(RCCE_ERROR_NUM_UES,
                               "%d UEs, but the chip has %d cores (one UE a core)", *np, most);
    if (argc < 3 + *np)
        return scc_init_refuse(RCCE_ERROR_NUM_UES, "%d UEs need %d core ids, got %d", *np,
                               *np, argc - 3);
    return RCCE_SUCCESS;
}

/* Read the UE list from argv, set np, iam and the rank -> core map. */
static int parse_ues(int argc, char **argv)
{
    int np, err, cores[RCCE_MAXNP];

    if ((err = parse_np(argc, argv, &np)))
        return err;
    for (int i = 0; i < np; i++) {
        if (parse_int(argv[3 + i], &cores[i]) ||
            cores[i] >= scc_self.facts.ncores)
            return scc_init_refuse(RCCE_ERROR_ID, "'%s' is not a core id of the chip (0-%d)",
                                   argv[3 + i], scc_self.facts.ncores - 1);
    }
    qsort(cores, np, sizeof cores[0], cmp_int);
    scc_self.np = np;
    scc_self.iam = -1;
    for (int i = 0; i < np; i++) {
        if (i > 0 && cores[i] == cores[i - 1])
            return scc_init_refuse(RCCE_ERROR_ID, "core %d is listed twice", cores[i]);
        if (cores[i] == scc_self.facts.core)
            scc_self.iam = i;
        scc_self.core_of[i] = cores[i];
        scc_self.mpb[i] = plat_mpb(cores[i]);
    }
    if (scc_self.iam < 0)
        return scc_init_refuse(RCCE_ERROR_CORE_NOT_IN_HOSTFILE,
                               "this core, %d, is not in the list", scc_self.facts.core);
    return RCCE_SUCCESS;
}

int RCCE_init_refusal(int mode)
{
    int old = refusal;

    if (mode != RCCE_INIT_EXIT && mode != RCCE_INIT_RETURN)
        return -1;
    refusal = mode;
    return old;
}

static int init(int *argc, char ***argv);

/* Most RCCE programs do not look at what RCCE_init returns: one that was
 * refused would go on without a rank or a UE count (a divide by zero, a
 * send to nobody). So by default a refusal ends the program here, with
 * the reason already said and the status of a usage error. */
int RCCE_init(int *argc, char ***argv)
{
    int err = init(argc, argv);

    if (err != RCCE_SUCCESS && refusal == RCCE_INIT_EXIT) {
        fprintf(stderr, "RCCE_init: refused, the program ends here with status 2 "
                "(RCCE_init_refusal(RCCE_INIT_RETURN) returns the error instead)\n");
        fflush(stdout);     /* picolibc's fflush takes no NULL */
        fflush(stderr);
        exit(2);
    }
    return err;
}

static int init(int *argc, char ***argv)
{
    int err;

    memset(&scc_self, 0, sizeof scc_self);
    scc_self.recent_source = -1;
    if (!argc || !argv || !*argv)
        return scc_init_refuse(RCCE_ERROR_NUM_UES, "no arguments");
    if ((err = plat_init(&scc_self.facts)) || (err = parse_ues(*argc, *argv)))
        return err;
    plat_set_ues(scc_self.np);

    char *program = (*argv)[0];
    *argv += scc_self.np + 2;
    (*argv)[0] = program;
    *argc -= scc_self.np + 2;
    char why[SCC_COLL_WHY];
    if (scc_coll_override(argc, *argv, why))
        return scc_init_refuse(RCCE_ERROR_VAL_UNDEFINED, "%s", why);

    RCCE_COMM *w = &RCCE_COMM_WORLD;
    memset(w, 0, sizeof *w);
    w->size = scc_self.np;
    w->my_rank = scc_self.iam;
    for (int i = 0; i < scc_self.np; i++)
        w->member[i] = i;
    /* the first heap lines; zero since reset, and nobody writes them
     * before every UE has got here (they are the barrier's own lines) */
    w->gather = (RCCE_FLAG)scc_heap_alloc(SCC_BARRIER_LINES);
    w->label = scc_comm_label();
    w->initialized = RCCE_COMM_INITIALIZED;
    scc_self.up = 1;
    return scc_barrier_dissemination(w);
}

int RCCE_finalize(void)
{
    if (!scc_self.up)
        return RCCE_SUCCESS;
    /* no UE leaves while another may still read its MPB */
    scc_barrier_dissemination(&RCCE_COMM_WORLD);
    plat_quiesce();
    scc_scratch_release();
    scc_self.up = 0;
    return RCCE_SUCCESS;
}

int RCCE_ue(void)
{
    return scc_self.iam;
}

int RCCE_num_ues(void)
{
    return scc_self.np;
}

int RCCE_copy_style(int style)
{
    int old = plat_copy_style;

    if (style & ~(RCCE_COPY_RCCE1 | RCCE_COPY_PROTO1))
        return -1;
    plat_copy_style = style;
    return old;
}

int RCCE_ue_core(int ue)
{
    return ue >= 0 && ue < scc_self.np ? scc_self.core_of[ue] : -1;
}

/* Seconds on a clock that all UEs share (the GTSC on the chip). */
double RCCE_wtime(void)
{
    return (double)plat_ticks() / scc_self.facts.tick_hz;
}

int scc_check_ue(int ue)
{
    if (ue < 0 || ue >= scc_self.np)
        return scc_error(RCCE_ERROR_ID);
    return RCCE_SUCCESS;
}
