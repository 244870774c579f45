/* isa/gmem.c -- buffers in a flat 32-bit space (see gmem.h). Buffers are
** appended at increasing addresses, so lookup is a binary search over a
** sorted array, short-circuited by the last buffer hit.                   */
#include "isa/gmem.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

typedef struct {
    uint32_t base;
    uint64_t size;
    uint8_t *host;
    char     name[64];
} Region;

struct GlobalMem {
    Region  *regions;
    uint32_t count, cap;
    uint32_t last;      /* index of the last region hit */
    uint64_t next;      /* next free address            */
    uint64_t bytes;
};

GlobalMem *gmem_create(void)
{
    GlobalMem *g = calloc(1, sizeof *g);
    if (g) g->next = GMEM_BASE;
    return g;
}

void gmem_destroy(GlobalMem *g)
{
    if (!g) return;
    for (uint32_t i = 0; i < g->count; i++) free(g->regions[i].host);
    free(g->regions);
    free(g);
}

uint32_t gmem_alloc(GlobalMem *g, uint64_t bytes, const char *name, Diag *d)
{
    if (bytes == 0) {
        diag_set(d, NULL, 0, 0, "buffer '%s' has size 0", name);
        return 0;
    }
    uint64_t base = (g->next + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
    if (bytes > GMEM_LIMIT || base + bytes > GMEM_LIMIT) {
        diag_set(d, NULL, 0, 0,
                 "buffer '%s' of %llu bytes does not fit the simulated 4 GiB global address space "
                 "(%llu bytes already mapped)", name, (unsigned long long)bytes, (unsigned long long)g->bytes);
        return 0;
    }
    if (!grow_array((void **)&g->regions, &g->cap, g->count + 1, sizeof *g->regions)) {
        diag_set(d, NULL, 0, 0, "out of host memory");
        return 0;
    }
    uint8_t *host = calloc(1, (size_t)bytes);
    if (!host) {
        diag_set(d, NULL, 0, 0, "out of host memory for buffer '%s' (%llu bytes)", name, (unsigned long long)bytes);
        return 0;
    }
    Region *r = &g->regions[g->count++];
    r->base = (uint32_t)base;
    r->size = bytes;
    r->host = host;
    snprintf(r->name, sizeof r->name, "%s", name ? name : "?");
    g->next = base + bytes + GMEM_GAP;
    g->bytes += bytes;
    return (uint32_t)base;
}

static bool inside(const Region *r, uint64_t addr, uint32_t size)
{
    return addr >= r->base && addr - r->base + size <= r->size;
}

/* Index of the last region with base <= addr (count > 0). */
static uint32_t region_below(const GlobalMem *g, uint64_t addr)
{
    uint32_t lo = 0, hi = g->count;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (g->regions[mid].base <= addr) lo = mid;
        else hi = mid;
    }
    return lo;
}

void *gmem_translate(GlobalMem *g, uint64_t addr, uint32_t size)
{
    if (g->count == 0) return NULL;
    Region *r = &g->regions[g->last];
    if (inside(r, addr, size)) return r->host + (addr - r->base);
    uint32_t lo = region_below(g, addr);
    r = &g->regions[lo];
    if (!inside(r, addr, size)) return NULL;
    g->last = lo;
    return r->host + (addr - r->base);
}

void *gmem_lookup(const GlobalMem *g, uint64_t addr, uint32_t size)
{
    if (g->count == 0) return NULL;
    const Region *r = &g->regions[region_below(g, addr)];
    return inside(r, addr, size) ? r->host + (addr - r->base) : NULL;
}

bool gmem_nearest(const GlobalMem *g, uint64_t addr, const char **name, uint32_t *base, uint64_t *size,
                  int64_t *offset)
{
    if (g->count == 0) return false;
    const Region *best = NULL;
    uint64_t best_dist = UINT64_MAX;
    for (uint32_t i = 0; i < g->count; i++) {
        const Region *r = &g->regions[i];
        uint64_t dist = addr < r->base ? r->base - addr : addr < r->base + r->size ? 0 : addr - (r->base + r->size) + 1;
        if (dist < best_dist) best_dist = dist, best = r;
    }
    *name = best->name;
    *base = best->base;
    *size = best->size;
    *offset = (int64_t)addr - (int64_t)best->base;
    return true;
}

uint64_t gmem_bytes(const GlobalMem *g)
{
    return g->bytes;
}
