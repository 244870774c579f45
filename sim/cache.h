/* sim/cache.h -- a set-associative sector cache, used for L1 (one per SM)
** and L2 (one per partition, l2.partitions). No clock: it says hit or miss per sector; the
** timing model adds latencies and bandwidth.
**
** Model: 128-byte lines of four 32-byte sectors (sim/sector.h), as in
** NVIDIA's L1/L2 since Maxwell/Volta (CUDA C++ Programming Guide "Device
** Memory Accesses"; Nsight Compute counts L1/L2 traffic in these sectors).
** A tag covers a whole line, but each sector is valid on its own: a miss
** allocates the line and fills only the sectors asked for. Replacement is
** true LRU over the ways.
** Sets = size / (128 * assoc), any count (real L2s such as 40 MB x 16 ways
** have 20480 sets): set = line number % sets, or an XOR-folded hash of it
** (cache_set_hashed), standing in for the undocumented hash of real parts.
**
** Left out: the slices of real L2s (sim/memsys.c makes partitions of
** several caches), sector promotion/prefetch
** (the memory system fetches DRAM-sized chunks itself), MSHRs (the timing
** model has them; a line's in-flight fill is a cycle kept per line for
** it, cache_ready_slot), byte write masks, non-LRU policies and
** eviction-priority hints, the data itself (the executor owns memory).  */
#ifndef GPUSIM_SIM_CACHE_H
#define GPUSIM_SIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/sector.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct Cache Cache; /* opaque */

/* Creates an empty cache of size_bytes with assoc ways.
** size_bytes == 0 means "no cache": every access misses, nothing is kept.
** Otherwise size_bytes must be a multiple of 128 * assoc and assoc >= 1;
** on bad geometry or out of memory returns NULL and fills d (file NULL,
** line 0). Memory: about 26 bytes per line (a 40 MB L2 is ~8.5 MB of host
** memory). Caller owns the result; free with cache_destroy. */
Cache *cache_create(uint64_t size_bytes, uint32_t assoc, Diag *d);

/* Brings sectors in as a read would (allocating, evicting) without counting
** an access: for data that arrives beside what was asked for (a DRAM burst
** wider than a sector). Returns the sectors that were already present;
** *evicted_dirty as for cache_access (an eviction is real either way). */
uint8_t cache_fill(Cache *c, uint64_t line_addr, uint8_t sector_mask, unsigned *evicted_dirty);

/* Index sets by a hash of the line number instead of line % sets (as GPU
** caches do, so that power-of-two strides spread over the sets). Off after
** cache_create; the timing model turns it on. */
void cache_set_hashed(Cache *c, bool hashed);

/* Frees c and everything it owns; NULL is fine. */
void cache_destroy(Cache *c);

/* Invalidates every line (dirty sectors are dropped, not written back) and
** zeroes the statistics: the state right after cache_create. */
void cache_reset(Cache *c);

typedef enum {
    CACHE_READ,                  /* misses allocate (LRU victim) and fill the missed sectors */
    CACHE_WRITE_THROUGH_NOALLOC, /* L1 stores: sectors present are updated, nothing allocated */
    CACHE_WRITE_BACK_ALLOC       /* L2 stores: allocate on miss; written sectors become valid
                                    and dirty (a full-sector write needs no fill) */
} CacheAccessKind;

/* One access to the line at line_addr (any byte address inside the line;
** the low 7 bits are ignored) for the sectors in sector_mask (bits 0..3;
** higher bits ignored). Returns the subset of sector_mask that hit.
** A touched resident line becomes most recently used. *evicted_dirty (when
** not NULL) is set to the dirty sectors of the line this access evicted,
** 0 to 4: the caller sends them to the next level (they are also counted
** in writebacks_sectors). Cost: O(assoc) tag compare in one set; no
** allocation. */
uint8_t cache_access(Cache *c, uint64_t line_addr, uint8_t sector_mask, CacheAccessKind kind,
                     unsigned *evicted_dirty);

/* cache_access(c, line_addr, sector_mask, CACHE_WRITE_BACK_ALLOC,
** evicted_dirty) that also sets *newly_dirty to the sectors of sector_mask
** that were not dirty before it (for a caller that charges a sector's
** write-back when it becomes dirty). */
uint8_t cache_write(Cache *c, uint64_t line_addr, uint8_t sector_mask, unsigned *evicted_dirty, uint8_t *newly_dirty);

/* The cycle at which the data of the line the last access or fill of c
** hit or allocated arrives (0 for a line just allocated: the caller sets
** it when it knows the fill's completion), or NULL when that access kept
** no line. Valid until the next access to c. The cache has no clock: the
** caller keeps these on its own, so that a hit on a line whose fill is
** still on its way waits for it, as the MSHRs of real caches make it. */
uint64_t *cache_ready_slot(Cache *c);

/* Writes back every dirty sector (counted in writebacks_sectors, lines stay
** valid and become clean) and returns how many there were: the traffic a
** kernel's end (or a flush) sends to the next level. Cost: O(lines). */
uint64_t cache_flush(Cache *c);

typedef struct {
    uint64_t sector_accesses;    /* sectors asked for, all kinds           */
    uint64_t sector_hits;        /* of those, already valid                */
    uint64_t sector_misses;      /* of those, not valid                    */
    uint64_t writebacks_sectors; /* dirty sectors evicted or flushed       */
} CacheStats;

/* Copies the counters since creation or the last cache_reset. */
void cache_stats(const Cache *c, CacheStats *out);

#ifdef __cplusplus
}
#endif

#endif
