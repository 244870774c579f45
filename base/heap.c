/* base/heap.c -- growth of a heap's storage (see heap.h). */
#include "base/heap.h"

#include <stdlib.h>

bool heap_reserve(Heap *h, uint32_t need)
{
    if (need <= h->cap) return true;
    uint32_t ncap = h->cap ? h->cap : 1024;
    while (ncap < need) {
        if (ncap > UINT32_MAX / 2) return false;
        ncap *= 2;
    }
    HeapItem *nv = realloc(h->v, (size_t)ncap * sizeof *nv);
    if (!nv) return false;
    h->v = nv;
    h->cap = ncap;
    return true;
}

void heap_free(Heap *h)
{
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}
