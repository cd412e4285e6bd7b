/*
 * env.c - starting and ending MPI, who and where a rank is, the clock.
 *
 * MPI_Init starts libscc (RCCE_init) with the words rccerun would have
 * given, made here, so that a program's argv stays as mpiexec gave it:
 * on the chip the run's cores are those the machine started (every
 * other core stays in reset); on the host scc-mpiexec names them in
 * SCC_MPI_CORES (host/proc.c). World ranks are libscc's UEs, in
 * increasing core order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpiimpl.h"
#include "RCCE.h"
#include "../src/internal.h"
#ifndef SCC_HOST
#include "scc.h"
#endif

struct mpi_env mpi_env = { .me = -1 };

int mpi_check_up(const char *fn)
{
    if (!mpi_env.up || mpi_env.down) {
        fprintf(stderr, "MPI: %s called %s\n", fn,
                mpi_env.down ? "after MPI_Finalize" : "before MPI_Init");
        fflush(stderr);
        exit(MPI_ERR_OTHER);
    }
    return MPI_SUCCESS;
}

/* The run's cores, ascending: n of them into cores[]. */
static int run_cores(int *cores)
{
    int n = 0;
#ifdef SCC_HOST
    const char *list = getenv("SCC_MPI_CORES");
    if (!list || !*list) {
        const char *me = getenv("SCC_MPI_CORE");
        cores[0] = me ? atoi(me) : 0;
        return 1;
    }
    for (const char *p = list; *p && n < RCCE_MAXNP;) {
        cores[n++] = (int)strtol(p, (char **)&p, 10);
        if (*p == ',')
            p++;
    }
#else
    for (int c = 0; c < scc_num_cores() && n < RCCE_MAXNP; c++)
        if (scc_core_state(c) != 0)     /* CORE_STATE_RESET: not in the run */
            cores[n++] = c;
#endif
    return n;
}

/* A rank whose program ended without MPI_Finalize: say so, fail the run.
 * A destructor, not an atexit handler: exit() runs the program's atexit
 * handlers first (one of them may call MPI_Finalize), on both backends. */
__attribute__((destructor)) static void at_exit(void)
{
    if (mpi_env.up && !mpi_env.down) {
        fflush(stdout);
        fprintf(stderr, "MPI rank %d: the program ended without calling MPI_Finalize\n",
                mpi_env.me);
        fflush(stderr);
        _exit(MPI_ERR_OTHER);
    }
}

static int init(const char *fn)
{
    static char words[3 + RCCE_MAXNP][12];
    static char *argv[4 + RCCE_MAXNP];
    int cores[RCCE_MAXNP], n = run_cores(cores);

    if (mpi_env.up || mpi_env.down) {
        fprintf(stderr, "MPI: %s called twice\n", fn);
        exit(MPI_ERR_OTHER);
    }
    snprintf(words[0], sizeof words[0], "mpi");
    snprintf(words[1], sizeof words[1], "%d", n);
    snprintf(words[2], sizeof words[2], "0.533");
    for (int i = 0; i < n; i++)
        snprintf(words[3 + i], sizeof words[3 + i], "%d", cores[i]);
    for (int i = 0; i < 3 + n; i++)
        argv[i] = words[i];
    int argc = 3 + n;
    char **av = argv;
    if (RCCE_init(&argc, &av) != RCCE_SUCCESS)
        mpi_die(MPI_ERR_OTHER, "%s: libscc refused to start", fn);
    mpi_env.np = RCCE_num_ues();
    mpi_env.me = RCCE_ue();
    mpi_env.tick = 1.0 / scc_self.facts.tick_hz;
    mpi_env.up = 1;
    transport_init();
    agree_init();
    extern void comm_init(void);
    comm_init();
    return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return init("MPI_Init");
}

/* One thread per rank: the library keeps no locks, so it provides
 * MPI_THREAD_FUNNELED at most (any thread may be the main one if it is
 * the only one calling MPI). */
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    int err = init("MPI_Init_thread");
    mpi_env.thread = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    *provided = mpi_env.thread;
    return err;
}

int MPI_Query_thread(int *provided)
{
    *provided = mpi_env.thread;
    return MPI_SUCCESS;
}

int MPI_Is_thread_main(int *flag)
{
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    mpi_check_up("MPI_Finalize");
    /* MPI-2.2: MPI_COMM_SELF's attributes go first, as if it were freed */
    attr_delete_all(MPI_COMM_SELF);
    /* every packet of this rank delivered, and nobody still needs one of
     * ours, before libscc stops */
    while (!outbox_empty())
        progress_wait(progress());
    coll_enter(MPI_COMM_WORLD, "MPI_Finalize", C_FINALIZE, 0, 0, NULL);
    while (!outbox_empty())     /* the barrier's own last packets */
        progress_wait(progress());
    RCCE_finalize();
    mpi_env.down = 1;
    fflush(stdout);
    return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
    *flag = mpi_env.up;
    return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
    *flag = mpi_env.down;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    fflush(stdout);
    fprintf(stderr, "MPI_Abort: rank %d ends the run with error code %d\n", mpi_env.me,
            errorcode);
    fflush(stderr);
    mpi_env.down = 1;   /* no "without MPI_Finalize" on the way out */
    _exit(errorcode);
}

double MPI_Wtime(void)
{
    return RCCE_wtime();
}

double MPI_Wtick(void)
{
    return mpi_env.tick;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    int core = RCCE_ue_core(mpi_env.me);
    int cpt = scc_self.facts.cores_per_tile ? scc_self.facts.cores_per_tile : 2;
    int mx = scc_self.facts.mesh_x ? scc_self.facts.mesh_x : 6;
    int tile = core / cpt;

    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "scc-core%02d-tile%02d(%d,%d)", core,
                          tile, tile % mx, tile / mx);
    return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "libscc MPI (MPI %d.%d subset: point to point, communicators, "
                          "groups, datatypes, blocking collectives; %s)",
                          MPI_VERSION, MPI_SUBVERSION,
#ifdef SCC_HOST
                          "host backend, one process per rank"
#else
                          "the SCC chip"
#endif
                          );
    return MPI_SUCCESS;
}
