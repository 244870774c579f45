/* sim/dram.h -- a bandwidth server with a fixed latency: DRAM, and (a second
** instance) the L2's chip-wide bandwidth limit. Timing unit: takes `now`,
** keeps no clock of its own.
**
** Model: one channel that moves bytes_per_cycle; transfers are served in the
** order they are asked for, each occupying the channel for bytes /
** bytes_per_cycle cycles (fractions kept, so many small transfers add up to
** the configured bandwidth exactly), and its data arrives a fixed latency
** after its transfer ends. An idle channel earns no credit: unused cycles
** are lost, as on real memory.
** Where the numbers come from: the preset (dram.bandwidth_gbs converted with
** clock_mhz, l2.bandwidth_bytes_per_clk, lat.dram / lat.l2_hit).
** Left out: banks, rows, refresh, read/write turnaround, separate channels
** and address interleaving; the latency does not grow with load other than
** through queueing, which is what makes memory-bound kernels saturate.   */
#ifndef GPUSIM_SIM_DRAM_H
#define GPUSIM_SIM_DRAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double   bytes_per_cycle; /* bandwidth, bytes per (SM) cycle, > 0              */
    uint32_t latency;         /* cycles from the end of a transfer to data back    */
    double   next_free;       /* cycle at which the channel finishes its queue     */
    uint64_t bytes;           /* bytes moved so far                                */
    uint64_t requests;        /* transfers so far                                  */
} Dram;

/* Initializes m (embedded; caller owns it) idle at cycle 0 with zero counters.
** bytes_per_cycle must be > 0 (asserted; the config range guarantees it). */
void dram_init(Dram *m, double bytes_per_cycle, uint32_t latency);

/* A transfer of `bytes` asked at cycle `now` starts when the channel is free
** (max(now, next_free)), occupies it for bytes / bytes_per_cycle cycles, and
** its data is back at start + transfer + latency. Returns that cycle, rounded
** up to a whole cycle. Calls are expected in non-decreasing `now` (the
** simulator's event order); an earlier `now` simply queues behind the
** channel. Deterministic; O(1). */
uint64_t dram_access(Dram *m, uint64_t now, uint32_t bytes);

#ifdef __cplusplus
}
#endif

#endif
