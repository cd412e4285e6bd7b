/*
 * calibrate.c - the cost model of paper 001 (OC-Bcast, Table 1 and
 * Figure 3) measured on this machine, the way 001 measured it: the
 * completion time of one RCCE_put / RCCE_get of m cache lines between an
 * MPB at distance d and the local MPB or private memory, fitted to
 * time = overhead + m * per-line cost for each operation and distance.
 *
 *   per line, get MPB->MPB  = (o_mpb + 2 d L_hop) + (o_mpb + 2 L_hop)
 *   per line, get MPB->mem  = (o_mpb + 2 d L_hop) + (o_mem_w + 2 L_hop)
 *   per line, put mem->MPB  = (o_mem_r + 2 L_hop) + (o_mpb + 2 d L_hop)
 *   intercepts              = o_get^mpb, o_put^mpb, o_get^mem, o_put^mem
 *
 * (001 assumes the memory controller one hop away, d_mem = 1.)
 *
 * Run it on all 48 cores, in timing mode (times are then modeled SCC
 * time; in functional mode they are host time and mean little):
 *
 *   scc-run --timing --app build/apps/calibrate.elf -- 48 0.533 $(seq 0 47)
 *
 * UE 0 (core 0, tile (0,0)) measures; the others wait in a barrier. It
 * prints one CSV table, after the `#` lines of apps/lib/bench.h:
 *
 *   param,op,hops,lines,modeled_us,published_us,reps,warmup,clock
 *
 * with two kinds of rows: a row with param (and published_us) is 001's
 * Table 1, a parameter of the cost model fitted from the others; a row
 * with op, hops and lines is 001's Figure 3, one operation, the mean of
 * reps after warmup. hops is the Manhattan distance (001's d is hops +
 * 1); clock says what the times are (apps/lib/bench.h): modeled_us is
 * modeled SCC time only where clock is modeled.
 *
 * It takes no options: its table (below) is empty, and it refuses any
 * word after the RCCE words.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "bench.h"
#ifndef SCC_HOST
#include "scc.h"
#endif

#define LINE 32
#define REPS 4
#define NOPS 4
#define MAXH 8

/* up to 24 lines: two such buffers fill RCCE_malloc's 54-line heap */
static const int sizes[] = { 1, 2, 4, 8, 12, 16, 20, 24 };
#define MAXLINES 24
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static const char *const opname[NOPS] = { "get_mpb", "put_mpb", "get_mem",
                                          "put_mem" };

static t_vcharp remote, local;          /* same offsets in every MPB */
static char *priv;                      /* private memory, walked */
static size_t priv_off;
/* every operation gets fresh private lines (001: a fresh buffer offset
 * each time): 4 ops x 9 distances x 8 sizes x 5 runs x 4 KiB < 8 MiB */
#define PRIV_SIZE (8u << 20)

/*
 * The caches as 001's measurements found them (each operation measured on
 * its own, after many): a get into private memory in the steady state of
 * a program that keeps getting into fresh lines, whose L2 is full of the
 * dirty lines earlier gets left (each new line's read then writes one
 * back: 001's o_mem_w); a put from private memory in a program that only
 * reads its private data, with no dirty line to write back (001's
 * o_mem_r). Twice the L2 is passed over, to leave no earlier line.
 */
#define L2_PASS (512u << 10)
static volatile uint32_t *dirty_area, *clean_area;

static void caches_for(int o)
{
    size_t i;

    if (o == 2) {
        for (i = 0; i < L2_PASS / 4; i += LINE / 4)
            dirty_area[i] = dirty_area[i] + 1;
    } else if (o == 3) {
        for (i = 0; i < L2_PASS / 4; i += LINE / 4)
            (void)clean_area[i];
    }
}

static char *fresh_priv(void)
{
    char *p = priv + priv_off;

    priv_off = (priv_off + 4096) % (PRIV_SIZE - MAXLINES * LINE);
    return p;
}

/*
 * Microseconds of one operation: the mean of REPS after a warm-up, less
 * the cost of reading the clock. Only the call is between the clock
 * reads, as with 001's timer around a put or get: choosing the buffer
 * and the operation is not.
 */
BENCH_TIMED static double time_op(int o, int peer, int bytes, double empty)
{
    double sum = 0, t0 = 0, t1 = 0;
    int r;

    for (r = -1; r < REPS; r++) {
        char *p = fresh_priv();

        switch (o) {
        case 0:
            t0 = RCCE_wtime();
            RCCE_get(local, remote, bytes, peer);
            t1 = RCCE_wtime();
            break;
        case 1:
            /* what a put sends was written by someone: not in this
             * core's L1 */
#ifndef SCC_HOST
            scc_cl1invmb();
#endif
            t0 = RCCE_wtime();
            RCCE_put(remote, local, bytes, peer);
            t1 = RCCE_wtime();
            break;
        case 2:
            t0 = RCCE_wtime();
            RCCE_get((t_vcharp)p, remote, bytes, peer);
            t1 = RCCE_wtime();
            break;
        default:
            t0 = RCCE_wtime();
            RCCE_put(remote, (t_vcharp)p, bytes, peer);
            t1 = RCCE_wtime();
            break;
        }
        if (r >= 0)             /* r = -1: the warm-up */
            sum += t1 - t0;
    }
    return sum / REPS * 1e6 - empty;
}

BENCH_TIMED static double empty_us(void)
{
    double sum = 0;
    int r;

    (void)RCCE_wtime();         /* a warm-up, as time_op has */
    for (r = 0; r < REPS; r++) {
        double t0 = RCCE_wtime();
        sum += RCCE_wtime() - t0;
    }
    return sum / REPS * 1e6;
}

/* Least squares: y = a + b m over the sizes. */
static void fit(const double *y, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int i;

    for (i = 0; i < NSIZES; i++) {
        sx += sizes[i];
        sy += y[i];
        sxx += (double)sizes[i] * sizes[i];
        sxy += sizes[i] * y[i];
    }
    *b = (NSIZES * sxy - sx * sy) / (NSIZES * sxx - sx * sx);
    *a = (sy - *b * sx) / NSIZES;
}

/* The core on a tile `hops` routers from tile (0,0) (mesh 6x4). */
static int peer_at(int hops, int mesh_x)
{
    int x = hops < mesh_x ? hops : mesh_x - 1;
    int y = hops - x;

    return hops == 0 ? 1 : 2 * (y * mesh_x + x);
}

/* None (apps/lib/bench.h): the ELF says so to the tools. */
#define CAL_OPTIONS(X)
BENCH_OPTIONS(cal, rcce, none, CAL_OPTIONS);

/* It takes no word after the RCCE ones: 0, or 2 after saying why. */
static int cal_options(int argc, char **argv)
{
    struct bench_args args;
    const char *v;

    bench_args(&args, argc, argv, 1, &cal_opts);
    if (bench_next(&args, &v) == BENCH_END)
        return 0;
    fprintf(stderr, "calibrate: unknown argument '%s': it takes none after the RCCE ones\n",
            bench_word(&args));
    return 2;
}

int RCCE_APP(int argc, char **argv)
{
    static double t[NOPS][MAXH + 1][NSIZES];
    double a[NOPS][MAXH + 1], b[NOPS][MAXH + 1];
    double empty, L, o_mpb;
    int o, h, i, maxh;

    if (bench_rcce_start(&argc, &argv, "calibrate", 0) || cal_options(argc, argv))
        return 2;
    remote = RCCE_malloc(MAXLINES * LINE);
    local = RCCE_malloc(MAXLINES * LINE);
    if (!remote || !local) {
        fprintf(stderr, "calibrate: RCCE_malloc failed\n");
        return 1;
    }
    if (RCCE_num_ues() != 48) {
        if (RCCE_ue() == 0)
            fprintf(stderr, "calibrate: run it on the 48 cores 0-47 (UE i "
                    "on core i): it measures every distance of the 6x4 "
                    "mesh\n");
        RCCE_finalize();
        return 2;
    }
    maxh = MAXH;
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 0) {
        /* line-aligned, as 001's buffers: m lines from malloc's 8-byte
         * alignment would touch m + 1 lines of private memory */
        priv = malloc(PRIV_SIZE + LINE);
        if (!priv) {
            fprintf(stderr, "calibrate: out of memory\n");
            return 1;
        }
        priv += (LINE - (uintptr_t)priv % LINE) % LINE;
        dirty_area = malloc(L2_PASS);
        clean_area = calloc(1, L2_PASS);
        if (!dirty_area || !clean_area) {
            fprintf(stderr, "calibrate: out of memory\n");
            return 1;
        }
        empty = empty_us();
        for (o = 0; o < NOPS; o++)
            for (caches_for(o), h = 0; h <= maxh; h++)
                for (i = 0; i < NSIZES; i++)
                    t[o][h][i] = time_op(o, peer_at(h, 6), sizes[i] * LINE,
                                         empty);
        for (o = 0; o < NOPS; o++)
            for (h = 0; h <= maxh; h++)
                fit(t[o][h], &a[o][h], &b[o][h]);

        L = (b[0][maxh] - b[0][0]) / (2.0 * maxh);
        o_mpb = (b[0][0] - 4 * L) / 2;
        const char *clock = bench_clock();
        bench_preamble("001's cost model (Table 1, Figure 3) measured on this machine");
        printf("# times: us of RCCE_wtime, less the cost of reading it\n");
        printf("param,op,hops,lines,modeled_us,published_us,reps,warmup,clock\n");
        printf("L_hop,,,,%.4f,0.005,,,%s\n", L, clock);
        printf("o_mpb,,,,%.4f,0.126,,,%s\n", o_mpb, clock);
        printf("o_mem_w,,,,%.4f,0.461,,,%s\n", b[2][0] - o_mpb - 4 * L, clock);
        printf("o_mem_r,,,,%.4f,0.208,,,%s\n", b[3][0] - o_mpb - 4 * L, clock);
        printf("o_put_mpb,,,,%.4f,0.069,,,%s\n", a[1][0], clock);
        printf("o_get_mpb,,,,%.4f,0.33,,,%s\n", a[0][0], clock);
        printf("o_put_mem,,,,%.4f,0.19,,,%s\n", a[3][0], clock);
        printf("o_get_mem,,,,%.4f,0.095,,,%s\n", a[2][0], clock);
        for (o = 0; o < NOPS; o++)
            for (h = 0; h <= maxh; h++)
                for (i = 0; i < NSIZES; i++)
                    printf(",%s,%d,%d,%.4f,,%d,1,%s\n", opname[o], h, sizes[i],
                           t[o][h][i], REPS, clock);
        fflush(stdout);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_finalize();
    return 0;
}
