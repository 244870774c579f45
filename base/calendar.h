/* base/calendar.h -- a set of ids per future cycle: the timing model's
** scheduler wake-ups (sim/gpu.c). The CALENDAR_SPAN cycles after `base`
** are buckets, a bit set of ids each, with one bit per bucket saying it holds
** any; later cycles go to a (cycle, id) heap. Nearly every wake-up is a few
** cycles ahead (the next cycle, an ALU latency, a pipe coming free), so a
** push is a bit set and the earliest cycle a rotate and a count of trailing
** zeros, where a heap of every scheduler took log2(n) steps each way.
** The calendar does not know which of an id's cycles is current: an id
** moved to another cycle stays queued at the first too, and the caller
** skips it there. Out of the ids due at one cycle it makes a bit set, so
** their order is the caller's (sim/gpu.c: SM by SM), never the queue's.
** Storage: the buckets in one 64-byte-aligned block of the calendar's own
** (threads that each own a calendar share no host cache line). */
#ifndef GPUSIM_BASE_CALENDAR_H
#define GPUSIM_BASE_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/heap.h"

#define CALENDAR_SPAN 64   /* cycles in buckets: one bit each in `busy` */
#define CALENDAR_NONE UINT64_MAX

typedef struct {
    uint64_t  base;    /* every cycle queued is after base (but see calendar_push) */
    uint64_t  busy;    /* bit at % CALENDAR_SPAN: that bucket holds an id      */
    uint32_t  nwords;  /* words of one bucket: ids below 64 * nwords           */
    uint64_t *bucket;  /* nwords x CALENDAR_SPAN words: word k of the bucket
                          of cycle t (base < t <= base + SPAN) at
                          k * SPAN + t % SPAN, so a push needs no multiply */
    Heap      far;     /* (cycle, id) for cycles after base + CALENDAR_SPAN     */
} Calendar;

/* An empty calendar for ids 0..nids-1 whose first cycle may be base + 1.
** False when the host is out of memory (nothing is then held). */
bool calendar_init(Calendar *c, uint32_t nids, uint64_t base);

/* Frees what calendar_init and the pushes allocated. */
void calendar_free(Calendar *c);

/* Empties the calendar; its first cycle may then be base + 1. */
void calendar_reset(Calendar *c, uint64_t base);

/* calendar_push's heap side. */
bool calendar_push_far(Calendar *c, uint64_t at, uint32_t id);

/* Queues id at cycle `at`. A cycle not after base goes to the heap, where
** calendar_first returns it, so that the caller can report the broken
** ordering instead of losing the wake-up. False when the heap cannot grow. */
static inline bool calendar_push(Calendar *c, uint64_t at, uint32_t id)
{
    if (at > c->base && at - c->base <= CALENDAR_SPAN) {
        uint32_t b = (uint32_t)(at % CALENDAR_SPAN);
        c->bucket[(size_t)(id / 64) * CALENDAR_SPAN + b] |= 1ull << (id % 64);
        c->busy |= 1ull << b;
        return true;
    }
    return calendar_push_far(c, at, id);
}

/* The earliest cycle with an id queued; CALENDAR_NONE when empty. */
static inline uint64_t calendar_first(const Calendar *c)
{
    uint64_t t = CALENDAR_NONE;
    if (c->busy) {
        uint32_t from = (uint32_t)((c->base + 1) % CALENDAR_SPAN); /* bucket of base + 1 */
        uint64_t rot = from ? c->busy >> from | c->busy << (CALENDAR_SPAN - from) : c->busy;
        t = c->base + 1 + (uint64_t)__builtin_ctzll(rot);
    }
    if (c->far.n && c->far.v[0].key < t) t = c->far.v[0].key;
    return t;
}

/* Removes the ids queued at t, which must be calendar_first's cycle,
** OR-ing them into set (nwords words, bit id); base becomes t. */
void calendar_take(Calendar *c, uint64_t t, uint64_t *set);

/* Calls fn for every (cycle, id) queued, in no particular order. */
void calendar_each(const Calendar *c, void (*fn)(void *user, uint64_t at, uint32_t id), void *user);

#endif
