/*
 * malloc.c - the symmetric MPB heap (scc_mpb.h): RCCE_malloc & co.
 *
 * First fit over SCC_MPB_HEAP_LINES lines, bookkept in private memory.
 * Every UE makes the same calls in the same order (RCCE requires it), so
 * every UE gets the same offsets without talking to the others.
 */
#include "internal.h"

#define N SCC_MPB_HEAP_LINES

static t_vcharp heap(void)
{
    return my_mpb() + SCC_MPB_HEAP;
}

t_vcharp scc_heap_alloc(size_t lines)
{
    int i = 0;

    if (lines == 0 || lines > N)
        return NULL;
    while (i < N) {
        if (scc_self.heap_len[i]) {
            i += scc_self.heap_len[i];
            continue;
        }
        int j = i;
        while (j < N && !scc_self.heap_len[j] && (size_t)(j - i) < lines)
            j++;
        if ((size_t)(j - i) == lines) {
            scc_self.heap_len[i] = (unsigned char)lines;
            return heap() + SCC_MPB_LINE * i;
        }
        i = j;
    }
    return NULL;
}

/* The block starting at p, or -1. */
static int block_of(t_vcharp p)
{
    t_vcharp h = heap();

    if (!p || p < h || p >= h + SCC_MPB_LINE * N ||
        (p - h) % SCC_MPB_LINE)
        return -1;
    int i = (int)((p - h) / SCC_MPB_LINE);
    return scc_self.heap_len[i] ? i : -1;
}

void scc_heap_free(t_vcharp p)
{
    int i = block_of(p);

    if (i >= 0)
        scc_self.heap_len[i] = 0;
}

int scc_in_heap(t_vcharp p, size_t n)
{
    t_vcharp h = heap(), end = h + SCC_MPB_LINE * N;

    return p && p >= h && p <= end && n <= (size_t)(end - p);
}

t_vcharp RCCE_malloc(size_t size)
{
    if (!scc_self.up || size == 0 || size > SCC_MPB_LINE * N)
        return NULL;
    return scc_heap_alloc((size + SCC_MPB_LINE - 1) / SCC_MPB_LINE);
}

/* The largest of size, size/2, size/4, ... (whole lines) that fits. */
t_vcharp RCCE_malloc_request(size_t size, size_t *chunk)
{
    size_t lines = (size + SCC_MPB_LINE - 1) / SCC_MPB_LINE;
    t_vcharp p = NULL;

    if (lines > N)
        lines = N;
    while (scc_self.up && lines && !(p = scc_heap_alloc(lines)))
        lines /= 2;
    if (chunk)
        *chunk = p ? lines * SCC_MPB_LINE : 0;
    return p;
}

void RCCE_free(t_vcharp p)
{
    scc_heap_free(p);
}
