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
    bool     adopted;   /* host memory the caller gave (gmem_adopt): not freed here */
    uint8_t  tag;       /* gmem_set_tag's                                   */
    char     name[64];
} Region;

struct GlobalMem {
    Region  *regions;
    uint32_t count, cap;
    uint32_t last;      /* index of the last region hit */
    uint64_t bytes;
};

GlobalMem *gmem_create(void)
{
    GlobalMem *g = calloc(1, sizeof *g);
    return g;
}

void gmem_destroy(GlobalMem *g)
{
    if (!g) return;
    for (uint32_t i = 0; i < g->count; i++)
        if (!g->regions[i].adopted) free(g->regions[i].host);
    free(g->regions);
    free(g);
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

/* The lowest aligned address where `bytes` fit: in a gap that a freed
** buffer left (GMEM_GAP kept on both sides), else after the last buffer.
** Returns UINT64_MAX when the space cannot hold them. Also the index the
** new region takes, keeping regions sorted by address. */
static uint64_t find_space(const GlobalMem *g, uint64_t bytes, uint32_t *at)
{
    uint64_t from = GMEM_BASE;
    for (uint32_t i = 0; i < g->count; i++) {
        uint64_t base = (from + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
        if (base + bytes + GMEM_GAP <= g->regions[i].base) {
            *at = i;
            return base;
        }
        from = g->regions[i].base + g->regions[i].size + GMEM_GAP;
    }
    uint64_t base = (from + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
    *at = g->count;
    return bytes > GMEM_LIMIT || base + bytes > GMEM_LIMIT ? UINT64_MAX : base;
}

uint32_t gmem_alloc(GlobalMem *g, uint64_t bytes, const char *name, Diag *d)
{
    if (bytes == 0) {
        diag_set(d, NULL, 0, 0, "buffer '%s' has size 0", name);
        return 0;
    }
    uint32_t at;
    uint64_t base = find_space(g, bytes, &at);
    if (base == UINT64_MAX) {
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
    memmove(&g->regions[at + 1], &g->regions[at], (g->count - at) * sizeof *g->regions);
    g->count++;
    g->last = 0;
    Region *r = &g->regions[at];
    *r = (Region){ .base = (uint32_t)base, .size = bytes, .host = host };
    snprintf(r->name, sizeof r->name, "%s", name ? name : "?");
    g->bytes += bytes;
    return (uint32_t)base;
}

/* A region at addr of caller-given host memory (NULL: zeroed memory of
** ours), keeping GMEM_GAP from the others. */
static uint32_t place_at(GlobalMem *g, uint32_t addr, uint64_t bytes, uint8_t *given, const char *name, Diag *d)
{
    if (bytes == 0 || addr < GMEM_BASE || (uint64_t)addr + bytes > GMEM_LIMIT) {
        diag_set(d, NULL, 0, 0, "buffer '%s' of %llu bytes cannot be placed at %#x", name, (unsigned long long)bytes, addr);
        return 0;
    }
    uint32_t at = 0;
    while (at < g->count && g->regions[at].base < addr) at++;
    bool clear_below = at == 0 || (uint64_t)g->regions[at - 1].base + g->regions[at - 1].size + GMEM_GAP <= addr;
    bool clear_above = at == g->count || addr + bytes + GMEM_GAP <= g->regions[at].base;
    if (!clear_below || !clear_above) {
        diag_set(d, NULL, 0, 0, "buffer '%s' at %#x overlaps another buffer", name, addr);
        return 0;
    }
    if (!grow_array((void **)&g->regions, &g->cap, g->count + 1, sizeof *g->regions)) {
        diag_set(d, NULL, 0, 0, "out of host memory");
        return 0;
    }
    uint8_t *host = given ? given : calloc(1, (size_t)bytes);
    if (!host) {
        diag_set(d, NULL, 0, 0, "out of host memory for buffer '%s' (%llu bytes)", name, (unsigned long long)bytes);
        return 0;
    }
    memmove(&g->regions[at + 1], &g->regions[at], (g->count - at) * sizeof *g->regions);
    g->count++;
    g->last = 0;
    g->regions[at] = (Region){ .base = addr, .size = bytes, .host = host, .adopted = given != NULL };
    snprintf(g->regions[at].name, sizeof g->regions[at].name, "%s", name ? name : "?");
    g->bytes += bytes;
    return addr;
}

uint32_t gmem_alloc_at(GlobalMem *g, uint32_t addr, uint64_t bytes, const char *name, Diag *d)
{
    return place_at(g, addr, bytes, NULL, name, d);
}

uint32_t gmem_adopt(GlobalMem *g, void *host, uint64_t bytes, const char *name, Diag *d)
{
    uintptr_t a = (uintptr_t)host;
    if (a > UINT32_MAX) {
        diag_set(d, NULL, 0, 0, "buffer '%s' at host address %p lies outside the 32-bit space", name, host);
        return 0;
    }
    return place_at(g, (uint32_t)a, bytes, host, name, d);
}

uint32_t gmem_adopt_at(GlobalMem *g, uint32_t addr, void *host, uint64_t bytes, const char *name, Diag *d)
{
    return place_at(g, addr, bytes, host, name, d);
}

uint64_t gmem_free_space(const GlobalMem *g, uint64_t bytes, uint64_t from)
{
    uint64_t at = (from + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
    if (at < GMEM_BASE) at = GMEM_BASE;
    for (uint32_t i = 0; i < g->count; i++) {
        const Region *r = &g->regions[i];
        if (at + bytes + GMEM_GAP <= r->base) return at;
        uint64_t after = (uint64_t)r->base + r->size + GMEM_GAP;
        if (after > at) at = (after + GMEM_ALIGN - 1) / GMEM_ALIGN * GMEM_ALIGN;
    }
    return at + bytes <= GMEM_LIMIT ? at : UINT64_MAX;
}

bool gmem_free(GlobalMem *g, uint32_t addr)
{
    if (g->count == 0) return false;
    uint32_t i = region_below(g, addr);
    if (g->regions[i].base != addr) return false;
    if (!g->regions[i].adopted) free(g->regions[i].host);
    g->bytes -= g->regions[i].size;
    memmove(&g->regions[i], &g->regions[i + 1], (g->count - i - 1) * sizeof *g->regions);
    g->count--;
    g->last = 0;
    return true;
}

bool gmem_set_tag(GlobalMem *g, uint32_t addr, uint8_t tag)
{
    if (g->count == 0) return false;
    Region *r = &g->regions[region_below(g, addr)];
    if (r->base != addr) return false;
    r->tag = tag;
    return true;
}

int gmem_tag(const GlobalMem *g, uint32_t addr)
{
    if (g->count == 0) return -1;
    const Region *r = &g->regions[region_below(g, addr)];
    return r->base == addr ? r->tag : -1;
}

bool gmem_buffer_at(const GlobalMem *g, uint64_t addr, uint32_t *base, uint64_t *size)
{
    if (g->count == 0) return false;
    const Region *r = &g->regions[region_below(g, addr)];
    if (addr < r->base || addr - r->base >= r->size) return false;
    *base = r->base;
    *size = r->size;
    return true;
}

static bool inside(const Region *r, uint64_t addr, uint32_t size)
{
    return addr >= r->base && addr - r->base + size <= r->size;
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
