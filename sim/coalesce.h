/* sim/coalesce.h -- the global-memory coalescer: a warp's per-lane byte
** addresses become the 128-byte lines and 32-byte sectors the L1 sees, with
** what the memory system needs besides: the sectors a store writes whole,
** and, for an atomic, how many lanes hit each line and one address.
** Pure: no SM, no clock, no allocation.
**
** Where the numbers come from: the CUDA C++ Programming Guide ("Device Memory
** Accesses", compute capability 6.x and later) and the Nsight Compute
** memory tables: L1/L2 lines are 128 bytes made of four 32-byte sectors,
** and a warp request costs one "request" plus the sectors it touches, so a
** stride-1 float warp moves 4 sectors and a stride-32 one 32.
**
** Left out: how the LSU splits a request into L1 tag lookups ("wavefronts",
** one per distinct line per cycle) -- the caller charges that from nlines;
** byte-level write masks (a sector is written whole or not); any fetch granularity coarser than a sector below
** L1 (that is for the cache and DRAM models to decide, not the coalescer). */
#ifndef GPUSIM_SIM_COALESCE_H
#define GPUSIM_SIM_COALESCE_H

#include <stdint.h>

#include "sim/sector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Worst case: 32 lanes whose (misaligned) accesses each straddle a line
** boundary touch 64 distinct lines. Aligned accesses never exceed 32. */
#define COALESCE_MAX_LINES 64

/* What the request does with its bytes: it decides what else it needs. */
typedef enum {
    COALESCE_LOAD,
    COALESCE_STORE,  /* also needs full_mask                                  */
    COALESCE_ATOMIC  /* also needs max_same_address                           */
} CoalesceKind;

typedef struct {
    uint32_t nlines;                          /* distinct 128-B lines touched, in first-touch lane order */
    uint64_t line_addr[COALESCE_MAX_LINES];   /* line base addresses (multiples of 128)                  */
    uint8_t  sector_mask[COALESCE_MAX_LINES]; /* bit s (0..3): sector s of that line is touched          */
    uint8_t  full_mask[COALESCE_MAX_LINES];   /* stores: bit s: the active lanes write every byte of
                                                 sector s (a sector written in part that misses L2
                                                 must be read first); 0 for loads and atomics          */
    uint32_t sectors;                         /* total sectors (sum of popcounts)                        */
    uint32_t bytes_requested;                 /* active lanes * width                                    */
    uint32_t max_same_address;                /* atomics: coalesce_max_same_address (lanes updating one
                                                 address are applied one after another); 0 otherwise   */
    uint8_t  atomic_lanes[COALESCE_MAX_LINES];/* atomics: active lanes whose address is in that line
                                                 (the L2 slice applies them one after another)         */
    uint8_t  atomic_same[COALESCE_MAX_LINES]; /* atomics: the most of those lanes on one address        */
} CoalesceResult;

/* Coalesces one warp-wide global access.
**   addr  byte address of each lane (only the lanes set in mask are read)
**   mask  active lanes, bit i = lane i
**   width bytes per lane: 1, 2, 4, 8 or 16 (asserted)
**   kind  load, store or atomic: what the result must say beyond lines and
**         sectors (full_mask; max_same_address, atomic_lanes and atomic_same;
**         the others are 0 or, past nlines, unspecified)
**   out   filled; entries at and past nlines are unspecified (caller owns it)
** An access that crosses a sector or line boundary counts every sector it
** touches (a lane may then add two lines). Lines are listed in the order the
** lanes first touch them, lane 0 first, which is what a trace shows.
** Cost: O(active lanes) with a small on-stack hash; stores add O(active
** lanes) for the byte coverage, atomics O(active lanes^2); no allocation. */
void coalesce_analyze(const uint64_t addr[32], uint32_t mask, unsigned width, CoalesceKind kind,
                      CoalesceResult *out);

/* The largest number of active lanes whose addresses are equal (0 when
** mask == 0). Atomics to one address are applied one at a time, in global
** and in shared memory alike, so this is how long they serialise.
** Pure; O(active lanes^2), no allocation. */
uint32_t coalesce_max_same_address(const uint64_t addr[32], uint32_t mask);

#ifdef __cplusplus
}
#endif

#endif
