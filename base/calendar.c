/* base/calendar.c -- the wake-up calendar (see calendar.h). */
#include "base/calendar.h"

#include <stdlib.h>
#include <string.h>

bool calendar_init(Calendar *c, uint32_t nids, uint64_t base)
{
    memset(c, 0, sizeof *c);
    c->nwords = (nids + 63) / 64;
    if (!c->nwords) c->nwords = 1;
    /* whole host cache lines, so that no other thread's data shares one */
    size_t bytes = ((size_t)CALENDAR_SPAN * c->nwords * sizeof(uint64_t) + 63) / 64 * 64;
    c->bucket = aligned_alloc(64, bytes);
    if (!c->bucket) return false;
    memset(c->bucket, 0, bytes);
    c->base = base;
    return true;
}

void calendar_free(Calendar *c)
{
    free(c->bucket);
    heap_free(&c->far);
    c->bucket = NULL;
}

void calendar_reset(Calendar *c, uint64_t base)
{
    for (uint64_t busy = c->busy; busy; busy &= busy - 1)
        for (uint32_t k = 0; k < c->nwords; k++) c->bucket[(size_t)k * CALENDAR_SPAN + (uint32_t)__builtin_ctzll(busy)] = 0;
    c->busy = 0;
    c->far.n = 0;
    c->base = base;
}

bool calendar_push_far(Calendar *c, uint64_t at, uint32_t id)
{
    if (!heap_reserve(&c->far, c->far.n + 1)) return false;
    heap_push(&c->far, at, id);
    return true;
}

void calendar_take(Calendar *c, uint64_t t, uint64_t *set)
{
    uint32_t b = (uint32_t)(t % CALENDAR_SPAN);
    /* t is the earliest queued cycle, so a busy bucket b holds t itself
    ** when t lies in the buckets' span */
    if (t > c->base && t - c->base <= CALENDAR_SPAN && (c->busy >> b & 1)) {
        uint64_t *w = &c->bucket[b];
        for (uint32_t k = 0; k < c->nwords; k++) {
            set[k] |= w[(size_t)k * CALENDAR_SPAN];
            w[(size_t)k * CALENDAR_SPAN] = 0;
        }
        c->busy &= ~(1ull << b);
    }
    while (c->far.n && c->far.v[0].key == t) {
        uint32_t id = heap_pop(&c->far).id;
        set[id / 64] |= 1ull << (id % 64);
    }
    c->base = t;
}

void calendar_each(const Calendar *c, void (*fn)(void *user, uint64_t at, uint32_t id), void *user)
{
    for (uint64_t busy = c->busy; busy; busy &= busy - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(busy);
        /* the cycle in base+1 .. base+SPAN whose bucket is b */
        uint64_t at = c->base + 1 + (b + CALENDAR_SPAN - (uint32_t)((c->base + 1) % CALENDAR_SPAN)) % CALENDAR_SPAN;
        for (uint32_t k = 0; k < c->nwords; k++)
            for (uint64_t bits = c->bucket[(size_t)k * CALENDAR_SPAN + b]; bits; bits &= bits - 1)
                fn(user, at, k * 64 + (uint32_t)__builtin_ctzll(bits));
    }
    for (uint32_t i = 0; i < c->far.n; i++) fn(user, c->far.v[i].key, c->far.v[i].id);
}
