/* sim/cache.c -- set-associative sector cache with LRU (see cache.h for the
** model, its sources and what it leaves out).
** Layout: structure of arrays indexed by set * assoc + way, so the hot tag
** compare scans one contiguous run of uint64_t. LRU is a per-line stamp from
** a per-cache access counter: the victim is the smallest stamp, and an empty
** way has stamp 0, so empty ways are filled first, lowest way first.      */
#include "sim/cache.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"

#define NO_TAG 0 /* tags are line number + 1, so that zeroed memory is empty */
#define NO_LINE UINT64_MAX

struct Cache {
    uint64_t  sets;      /* 0 = no cache                               */
    uint64_t  set_mask;  /* sets - 1 when sets is a power of two, else 0 */
    unsigned  set_shift; /* log2(sets) when it is a power of two: a shift
                            instead of two 64-bit divisions per access  */
    uint32_t  assoc;
    uint64_t  set_magic; /* otherwise, for sets > 1: bits_div_magic(sets),
                            so a line number below 2^32 (every simulated
                            one) is divided by multiplications          */
    bool      hashed;    /* XOR-fold the line number into the set index */
    uint64_t *tag;       /* line number + 1, NO_TAG when the way is empty */
    uint64_t *stamp;     /* last use; 0 = never (empty)                */
    uint8_t  *valid;     /* bit s: sector s holds data                 */
    uint8_t  *dirty;     /* bit s: sector s is newer than the level below */
    uint64_t *ready;     /* cycle the line's latest fill arrives (the caller's clock) */
    uint64_t  last;      /* the line the last lookup hit or allocated, NO_LINE if none */
    uint64_t  clock;     /* accesses so far: the LRU time base         */
    CacheStats st;
};

Cache *cache_create(uint64_t size_bytes, uint32_t assoc, Diag *d)
{
    uint64_t sets = 0;
    if (size_bytes != 0) {
        if (assoc == 0) {
            diag_set(d, NULL, 0, 0, "cache associativity must be at least 1");
            return NULL;
        }
        const uint64_t set_bytes = (uint64_t)SECTOR_LINE_BYTES * assoc;
        if (size_bytes % set_bytes != 0) {
            diag_set(d, NULL, 0, 0,
                     "cache size %llu bytes is not a multiple of %d-byte lines x %u ways (%llu bytes)",
                     (unsigned long long)size_bytes, SECTOR_LINE_BYTES, assoc, (unsigned long long)set_bytes);
            return NULL;
        }
        sets = size_bytes / set_bytes;
    }

    Cache *c = calloc(1, sizeof *c);
    if (!c) goto oom;
    c->sets = sets;
    c->assoc = sets ? assoc : 0;
    c->set_mask = (sets & (sets - 1)) == 0 && sets ? sets - 1 : 0;
    while (c->set_mask >> c->set_shift) c->set_shift++;
    c->set_magic = !c->set_mask && sets > 1 && sets <= UINT32_MAX ? bits_div_magic(sets) : 0;
    if (sets) {
        const uint64_t lines = sets * assoc;
        if (lines > SIZE_MAX / sizeof(uint64_t)) goto oom;
        /* zeroed: every way empty; a large L2's pages are then the host's
        ** only when a launch touches them */
        c->tag = calloc((size_t)lines, sizeof *c->tag);
        c->stamp = calloc((size_t)lines, sizeof *c->stamp);
        c->valid = calloc((size_t)lines, 1);
        c->dirty = calloc((size_t)lines, 1);
        c->ready = calloc((size_t)lines, sizeof *c->ready);
        if (!c->tag || !c->stamp || !c->valid || !c->dirty || !c->ready) goto oom;
    }
    c->last = NO_LINE;
    return c;
oom:
    cache_destroy(c);
    diag_set(d, NULL, 0, 0, "out of memory for a %llu-byte cache", (unsigned long long)size_bytes);
    return NULL;
}

void cache_destroy(Cache *c)
{
    if (!c) return;
    free(c->tag);
    free(c->stamp);
    free(c->valid);
    free(c->dirty);
    free(c->ready);
    free(c);
}

void cache_reset(Cache *c)
{
    const size_t lines = (size_t)(c->sets * c->assoc);
    if (lines) {
        memset(c->tag, 0, lines * sizeof *c->tag); /* NO_TAG */
        memset(c->stamp, 0, lines * sizeof *c->stamp);
        memset(c->valid, 0, lines);
        memset(c->dirty, 0, lines);
        memset(c->ready, 0, lines * sizeof *c->ready);
    }
    c->last = NO_LINE;
    c->clock = 0;
    c->st = (CacheStats){0};
}

/* The line is resident at index i: sector hits, and fills for allocating
** kinds. `count`: whether this is an access (cache_access) or a fill. */
static inline uint8_t line_hit(Cache *c, uint64_t i, unsigned want, unsigned n, uint64_t now, CacheAccessKind kind,
                               bool count, uint8_t *newly_dirty)
{
    const unsigned hit = want & c->valid[i];
    if (count) {
        const unsigned nhit = bits_popcount4(hit);
        c->st.sector_hits += nhit;
        c->st.sector_misses += n - nhit;
    }
    c->stamp[i] = now;
    c->last = i;
    switch (kind) {
    case CACHE_READ:
        c->valid[i] |= (uint8_t)want;
        break;
    case CACHE_WRITE_THROUGH_NOALLOC:
        /* only the sectors present take the new data; missing ones stay
        ** missing, the write goes on to L2 either way */
        break;
    case CACHE_WRITE_BACK_ALLOC:
        if (newly_dirty) *newly_dirty = (uint8_t)(want & ~c->dirty[i]);
        c->valid[i] |= (uint8_t)want;
        c->dirty[i] |= (uint8_t)want;
        break;
    }
    return (uint8_t)hit;
}

/* n / sets and n % sets, for a set count that is not a power of two: by
** multiplications when `fast` (set_magic, and n below 2^32, as every
** simulated line number and the hashed key made of them are), else by
** division. */
static inline uint64_t div_sets(const Cache *c, uint64_t n, bool fast)
{
    return fast ? bits_div32(n, c->set_magic) : n / c->sets;
}

static inline uint64_t mod_sets(const Cache *c, uint64_t n, bool fast)
{
    return fast ? bits_mod32(n, c->set_magic, c->sets) : n % c->sets;
}

/* cache_access (count) or cache_fill (not): the same lookup and allocation,
** but a fill is no access, so it leaves the access counters alone. */
static inline uint8_t lookup(Cache *c, uint64_t line_addr, uint8_t sector_mask, CacheAccessKind kind, bool count,
                             unsigned *evicted_dirty, uint8_t *newly_dirty)
{
    if (evicted_dirty) *evicted_dirty = 0;
    const unsigned want = sector_mask & 0xFu;
    if (newly_dirty) *newly_dirty = (uint8_t)want; /* a miss or no cache: all of them */
    c->last = NO_LINE;
    if (!want) return 0;
    const unsigned n = bits_popcount4(want);
    if (count) c->st.sector_accesses += n;
    if (c->sets == 0) {
        if (count) c->st.sector_misses += n;
        return 0;
    }

    const uint64_t ln = line_addr / SECTOR_LINE_BYTES;
    /* Hashed indexing folds the higher line-number bits in, so a stride that
    ** is a multiple of the set count does not pile into a few sets. */
    const bool fast = c->set_magic && ln <= UINT32_MAX; /* then the key is below 2^32 too */
    const uint64_t q1 = c->hashed && !c->set_mask ? div_sets(c, ln, fast) : 0;
    const uint64_t key = !c->hashed ? ln
                         : c->set_mask ? ln ^ (ln >> c->set_shift) ^ (ln >> 2 * c->set_shift)
                                       : ln ^ q1 ^ div_sets(c, q1, fast);
    const uint64_t set = c->set_mask ? (key & c->set_mask) : mod_sets(c, key, fast);
    const uint64_t base = set * c->assoc;
    const uint64_t *tags = c->tag + base, tag = ln + 1;
    const uint32_t assoc = c->assoc;
    const uint64_t now = ++c->clock;

    /* One pass finds the line or, failing that, the LRU victim. Ways fill
    ** lowest first and are only emptied all together (cache_reset), so the
    ** valid ways of a set are a prefix: the first empty way ends the search. */
    const uint64_t *stamps = c->stamp + base;
    uint32_t victim = 0;
    uint64_t oldest = UINT64_MAX;
    for (uint32_t w = 0; w < assoc; w++) {
        if (tags[w] == tag) return line_hit(c, base + w, want, n, now, kind, count, newly_dirty);
        if (stamps[w] < oldest) {
            oldest = stamps[w];
            victim = w;
            if (oldest == 0) break;
        }
    }

    if (count) c->st.sector_misses += n;
    if (kind == CACHE_WRITE_THROUGH_NOALLOC) return 0;

    const uint64_t i = base + victim;
    const unsigned dirty = bits_popcount4(c->dirty[i]);
    c->st.writebacks_sectors += dirty;
    if (evicted_dirty) *evicted_dirty = dirty;
    c->tag[i] = tag;
    c->stamp[i] = now;
    c->valid[i] = (uint8_t)want;
    c->dirty[i] = kind == CACHE_WRITE_BACK_ALLOC ? (uint8_t)want : 0;
    c->ready[i] = 0;
    c->last = i;
    return 0;
}

uint8_t cache_access(Cache *c, uint64_t line_addr, uint8_t sector_mask, CacheAccessKind kind,
                     unsigned *evicted_dirty)
{
    return lookup(c, line_addr, sector_mask, kind, true, evicted_dirty, NULL);
}

uint8_t cache_write(Cache *c, uint64_t line_addr, uint8_t sector_mask, unsigned *evicted_dirty, uint8_t *newly_dirty)
{
    return lookup(c, line_addr, sector_mask, CACHE_WRITE_BACK_ALLOC, true, evicted_dirty, newly_dirty);
}

uint8_t cache_fill(Cache *c, uint64_t line_addr, uint8_t sector_mask, unsigned *evicted_dirty)
{
    return lookup(c, line_addr, sector_mask, CACHE_READ, false, evicted_dirty, NULL);
}

uint64_t cache_flush(Cache *c)
{
    const uint64_t lines = c->sets * c->assoc;
    uint64_t n = 0;
    for (uint64_t i = 0; i < lines; i++) {
        n += bits_popcount4(c->dirty[i]);
        c->dirty[i] = 0;
    }
    c->st.writebacks_sectors += n;
    return n;
}

void cache_stats(const Cache *c, CacheStats *out)
{
    *out = c->st;
}

uint64_t *cache_ready_slot(Cache *c)
{
    return c->last == NO_LINE ? NULL : &c->ready[c->last];
}

void cache_set_hashed(Cache *c, bool hashed)
{
    if (c) c->hashed = hashed;
}
