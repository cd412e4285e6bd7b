/*
 * tree_shape.c - the shapes of the reduction tree (reduce_tree.c): which
 * positions are whose children. Positions are (rank - root) mod n; the
 * root is position 0.
 *
 * - binomial (k = 0): RCCE_comm's; children p + 1, p + 2, p + 4, ...
 * - k-ary (k > 0): the mirror of OC-Bcast's (001 section 4).
 * - cost-shaped (k = TREE_SHAPED): the tree that finishes first when every
 *   member first reads its input (R), a node combines its children one
 *   after the other (C each), a partial sum takes a hop to its parent (S)
 *   and the root also reads its out lines (P). The binomial tree ignores
 *   that a combine costs about a hop (both an MPB pass over the vector):
 *   at 48 members its root takes 6 children after 16 us of DRAM stalls
 *   (its input and out lines), and its deepest path has 5 hops.
 *   With G(n, f) the time a node is done with a subtree of n members
 *   using at most f children, G(1, f) = R (+ P at the root) and
 *   G(n, f) = min over m of max(G(n - m, f - 1), G(m, F) + S) + C,
 *   m the size of the last child's subtree. A dynamic programme over n
 *   (once a process) gives each m. F = TREE_SHAPED_KIDS caps a node's
 *   children: a slot is the region over twice the most children, and 6
 *   or more cut a 512-byte vector into three chunks.
 *   The costs, in tenths of a microsecond (only their ratios matter),
 *   are the 512-byte reduce's on this model as its counters show them,
 *   S and P then moved to the best of the trees tried (README: the
 *   cost-shaped tree).
 */
#include <stdbool.h>

#include "tree.h"

enum { COST_R = 145, COST_C = 42, COST_S = 40, COST_P = 150 };

/* [root][f][n]: the size of the last child's subtree of a node with n
 * members below it (itself included) and at most f children left */
static SCC_TLS unsigned char last_kid[2][TREE_SHAPED_KIDS + 1][RCCE_MAXNP + 1];

static void shape_table(void)
{
    static SCC_TLS bool ready;
    int g[2][TREE_SHAPED_KIDS + 1][RCCE_MAXNP + 1];

    if (ready)
        return;
    /* n ascending outside: a child's subtree, g[0][F][m < n], first */
    for (int r = 0; r < 2; r++)
        for (int n = 1; n <= RCCE_MAXNP; n++)
            for (int f = 0; f <= TREE_SHAPED_KIDS; f++) {
                g[r][f][n] = n == 1 ? COST_R + (r ? COST_P : 0) : -1;
                for (int m = 1; f && m < n; m++) {
                    int a = g[r][f - 1][n - m], b = g[0][TREE_SHAPED_KIDS][m] + COST_S;
                    int t = (a > b ? a : b) + COST_C;

                    if (a >= 0 && (g[r][f][n] < 0 || t < g[r][f][n])) {
                        g[r][f][n] = t;
                        last_kid[r][f][n] = (unsigned char)m;
                    }
                }
            }
    ready = true;
}

/* Position p's subtree in the shaped tree of n: its size, and its
 * parent's position (-1 at the root). A node at q with r members left
 * has its last child's subtree at their end: q + r - m .. q + r - 1. */
static int shaped_find(int n, int p, int *parent)
{
    int q = 0, size = n, root = 1;

    shape_table();
    *parent = -1;
    while (q != p) {
        for (int r = size, f = TREE_SHAPED_KIDS;; r -= last_kid[root][f--][r]) {
            int m = last_kid[root][f][r];

            if (p >= q + r - m) {
                *parent = q;
                q += r - m;
                size = m;
                root = 0;
                break;
            }
        }
    }
    return size;
}

int tree_kids(int k, int n, int p, int *kid)
{
    int m = 0;

    if (k == TREE_SHAPED) {
        int par, r = shaped_find(n, p, &par);

        for (int f = TREE_SHAPED_KIDS; r > 1; r -= last_kid[!p][f--][r])
            kid[m++] = p + r - last_kid[!p][f][r];
        for (int i = 0; i < m / 2; i++) {       /* the first to be done first */
            int t = kid[i];

            kid[i] = kid[m - 1 - i];
            kid[m - 1 - i] = t;
        }
        return m;
    }
    if (k > 0) {
        for (int ch = p * k + 1; ch <= p * k + k && ch < n; ch++)
            kid[m++] = ch;
        return m;
    }
    for (int mask = 1; mask < n && !(p & mask); mask <<= 1)
        if (p + mask < n)
            kid[m++] = p + mask;
    return m;
}

int tree_parent(int k, int n, int p)
{
    int par;

    if (k == TREE_SHAPED) {
        shaped_find(n, p, &par);
        return par;
    }
    return k > 0 ? (p - 1) / k : p & (p - 1);
}

int tree_most_kids(int k, int n)
{
    static SCC_TLS unsigned char most[RCCE_MAXNP + 1];     /* shaped, once per n */
    int kid[RCCE_MAXNP];

    /* the root has the most children in the binomial and k-ary trees */
    if (k != TREE_SHAPED)
        return tree_kids(k, n, 0, kid);
    if (!most[n])
        for (int p = 0; p < n; p++) {
            int m = tree_kids(k, n, p, kid);

            most[n] = (unsigned char)(m > most[n] ? m : most[n]);
        }
    return most[n];
}
