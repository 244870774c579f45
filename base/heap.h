/* base/heap.h -- a binary min-heap of (key, id) pairs, ordered by key and
** then id, so that equal keys come out in a fixed order (runs must be
** reproducible). The timing model's event queues use it: scheduler wake-ups
** more than 64 cycles ahead (base/calendar.h), warps waiting for operands,
** the order of a round's records (sim/par.c).
** Storage is the caller's (a fixed array) or grown by heap_reserve.
** Cost: push and pop O(log n); no allocation but in heap_reserve.       */
#ifndef GPUSIM_BASE_HEAP_H
#define GPUSIM_BASE_HEAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t key;
    uint32_t id;
} HeapItem;

typedef struct {
    HeapItem *v;
    uint32_t  n, cap;
} Heap;

static inline bool heap_before(HeapItem a, HeapItem b)
{
    return a.key < b.key || (a.key == b.key && a.id < b.id);
}

/* Makes room for `need` items, growing v with realloc (v must then be NULL
** or the heap's own allocation). False when the host is out of memory. */
bool heap_reserve(Heap *h, uint32_t need);

/* Frees storage that heap_reserve allocated. */
void heap_free(Heap *h);

/* Adds (key, id); requires n < cap. */
static inline void heap_push(Heap *h, uint64_t key, uint32_t id)
{
    HeapItem it = { key, id };
    uint32_t i = h->n++;
    while (i && heap_before(it, h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = it;
}

/* Removes and returns the smallest item; requires n > 0. */
static inline HeapItem heap_pop(Heap *h)
{
    HeapItem top = h->v[0], last = h->v[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && heap_before(h->v[c + 1], h->v[c])) c++;
        if (!heap_before(h->v[c], last)) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i] = last;
    return top;
}

#endif
