/*
 * sig.c - signals between collective members, through the chan lines.
 *
 * chan[me] in UE u's MPB is written by me alone (scc_mpb.h): besides the
 * p2p words it holds two signal counters and three value words. A signal
 * adds to my counter k in u's line; u waits until its copy exceeds what it
 * has consumed. Counters only grow, so there is nothing to reset between
 * calls, and a value word written before its signal is visible once the
 * signal is.
 */
#include "coll.h"

static SCC_TLS uint32_t sent[RCCE_MAXNP][2];     /* my counters, per UE */
static SCC_TLS uint32_t used[RCCE_MAXNP][2];     /* consumed, per UE */

static t_vcharp their_line(int ue)
{
    return scc_self.mpb[ue] + SCC_MPB_CHAN_LINE(scc_self.iam);
}

static t_vcharp my_line(int ue)
{
    return my_mpb() + SCC_MPB_CHAN_LINE(ue);
}

void sig_set_val(int ue, int w, uint32_t v)
{
    plat_store_relaxed(their_line(ue) + SCC_LINE_VAL(w), v);
}

uint32_t sig_get_val(int ue, int w)
{
    return plat_load_relaxed(my_line(ue) + SCC_LINE_VAL(w));
}

void sig_add(int ue, int k, uint32_t n)
{
    sent[ue][k] += n;
    plat_store(their_line(ue) + SCC_LINE_SIG(k), sent[ue][k]);
    plat_flush(my_mpb());
}

/* Each store pushes the line before it out of the write-combine buffer:
 * one flush after the last sends them all (a flush is an MPB line write
 * of its own). */
void sig_add_each(const int *ue, int m, int k, uint32_t n)
{
    for (int i = 0; i < m; i++) {
        sent[ue[i]][k] += n;
        plat_store(their_line(ue[i]) + SCC_LINE_SIG(k), sent[ue[i]][k]);
    }
    if (m)
        plat_flush(my_mpb());
}

void sig_add_vals(int ue, int k, const uint32_t v[3])
{
    t_vcharp line = their_line(ue);

    for (int w = 0; w < 3; w++)
        plat_store_relaxed(line + SCC_LINE_VAL(w), v[w]);
    sig_add(ue, k, 1);
}

void sig_get_vals(int ue, uint32_t v[3])
{
    t_vcharp line = my_line(ue);

    for (int w = 0; w < 3; w++)
        v[w] = plat_load_relaxed(line + SCC_LINE_VAL(w));
}

int sig_test(int ue, int k, uint32_t n)
{
    plat_invalidate();
    return seq_ge(plat_load(my_line(ue) + SCC_LINE_SIG(k)), used[ue][k] + n);
}

void coll_wait_step(unsigned int *spins)
{
    *spins = scc_progress() ? 0 : *spins + plat_spin_step;
    plat_relax(*spins);
}

/* A few bare tests between progress steps: a signal is seen that much
 * sooner after it lands, and every hop of a tree waits for one. */
#define SIG_TESTS_PER_STEP 8

void sig_wait(int ue, int k, uint32_t n)
{
    unsigned int spins = 0;

    for (;;) {
        for (int i = 0; i < SIG_TESTS_PER_STEP; i++)
            if (sig_test(ue, k, n))
                return;
        coll_wait_step(&spins);
    }
}

void sig_consume(int ue, int k, uint32_t n)
{
    used[ue][k] += n;
}
