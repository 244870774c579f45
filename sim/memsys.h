/* sim/memsys.h -- the global-memory path below the coalescer: an L1 per SM,
** the miss-status registers that bound each SM's outstanding sectors, the
** shared L2 (a request-rate queue and a bandwidth queue in front of a
** sectored cache) and DRAM (a bandwidth queue with a latency that grows
** with load). Every request is timed when it is issued:
** the caller gets the cycle its data is back, so no event queue is needed.
** Loads allocate in L1; stores write through to L2 (write-back, allocate);
** atomics are resolved at L2, one line's lanes one after another. A sector
** made dirty in L2 costs its write-back's DRAM bandwidth then (the steady
** state of back-to-back launches; memsys_flush at a kernel's end adds
** nothing).
** DRAM moves dram.access_bytes per access; set indices are hashed.
** The L2 may be l2.partitions caches of l2.size / partitions each: a line
** lives in one (a hash of its address), an SM reads through its own, and
** a read that misses there goes to the line's home, after which both hold
** it; stores and atomics are done at the home (a copy in the storing SM's
** partition is updated, not allocated). A hit at the home costs
** lat.l2_far beyond lat.l2_hit; one set of bandwidth queues serves all. */
#ifndef GPUSIM_SIM_MEMSYS_H
#define GPUSIM_SIM_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/coalesce.h"
#include "sim/config.h"
#include "sim/stats.h"

typedef struct MemSys MemSys;

/* A memory system for machine c, idle and empty, with an L1 of l1_bytes
** (rounded down to whole sets) for each of SMs 0..nsm-1 (the SMs the launch
** can use, at most c->sm_count). NULL with d on failure. */
MemSys *memsys_create(const GpuConfig *c, uint32_t nsm, uint64_t l1_bytes, Diag *d);
void memsys_destroy(MemSys *m);

/* The next launch of a sequence on m (gpu.h, GpuSession): the L1s start
** empty with l1_bytes each (the hardware invalidates L1 between kernels,
** and the carveout follows the new launch's shared memory), the miss
** registers free; the L2 keeps its contents and dirty sectors, and the
** queues what is left in them, their clocks restarted so that cycle
** prev_end (the end of the previous launch) is the new launch's cycle 0.
** memsys_stats counts from here on. nsm: the SMs this launch can use (the
** L1s grow to them; they never shrink). False with d when out of memory. */
bool memsys_next_launch(MemSys *m, const GpuConfig *c, uint32_t nsm, uint64_t l1_bytes, uint64_t prev_end, Diag *d);

/* A warp's global load on SM `sm`, entering L1 at cycle `start`.
** Returns the cycle the last sector is back (when its register is ready).
** l2_only: L1 neither serves nor keeps it (ld.global.cg, a strong load of
** gpu scope, cp.async.cg, the TMA's reads): every sector goes to L2. */
uint64_t memsys_load(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r, bool l2_only);

/* A warp's global store (r coalesced as COALESCE_STORE): no one waits for
** it, but it takes L2 and, later, DRAM bandwidth. A sector it writes only
** in part (not in r->full_mask) that misses L2 is read from DRAM first. */
void memsys_store(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r);

/* The end of a kernel: the dirty L2 sectors are written back. Their DRAM
** time was charged when each became dirty (memsys_store): back to back, a
** launch's leftover dirty lines are written back while the next launch
** runs, as the previous launch's were during this one, so the write-back
** costs bandwidth during a launch and nothing after it (on an H200 a
** kernel that writes 64 MB in place takes the time of its blocks:
** validate/probes/residency.cu). A launch of a sequence that leaves its
** dirty sectors to the next (Launch.keep_dirty) is not flushed: the next
** launch's writes to them owe nothing again. */
void memsys_flush(MemSys *m);

/* A warp's global atomic (r coalesced as COALESCE_ATOMIC): resolved at L2,
** one L2 request per sector, then by the slice that owns each line, which
** applies the line's lanes one after another, l2.atomic_interval cycles
** apart (l2.atomic_fadd_interval for FP32 adds on one address: `fadd`),
** after any earlier atomic on that line. Returns the cycle the old values
** are back: lat.atomic after the last lane's turn. */
uint64_t memsys_atomic(MemSys *m, uint32_t sm, uint64_t start, const CoalesceResult *r, bool fadd);

/* Cycle by which the traffic issued so far has finished: stores have
** reached L2, atomics have been applied (a warp may exit before its atomic
** returns; the kernel may not), and the write-back
** owed by the sectors made dirty has reached DRAM. A kernel ends no sooner
** (gpu.c flushes first, then asks this). */
uint64_t memsys_drain_cycle(const MemSys *m);

/* The sector accesses and hits so far of SM sm's L1 and of the L2: their
** differences around one request are that request's (per-instruction
** counters, PcCounters). Cost: two struct copies. */
typedef struct {
    uint64_t l1_accesses, l1_hits, l2_accesses, l2_hits;
} MemSectorCounts;
void memsys_sector_counts(const MemSys *m, uint32_t sm, MemSectorCounts *out);

/* Adds the cache and DRAM counters into s (l1_*, l2_*, dram_* fields),
** those of the current launch only. */
void memsys_stats(const MemSys *m, KernelStats *s);

#endif
