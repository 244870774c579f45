/* sim/occupancy.h -- how many blocks of a kernel fit on one SM, by CUDA's rules.
** A pure function of the machine (GpuConfig) and the launch (block size,
** registers per thread, static and dynamic shared memory), with the same
** rules as the CUDA occupancy calculator (cuda_occupancy.h, which
** tests/occupancy_ref.cpp compares it against):
**   warps     floor(max warps per SM / ceil(block / 32)), where max warps per
**             SM = min(sm.max_warps, sm.max_threads / 32);
**   blocks    sm.max_blocks;
**   registers regs * 32 rounded up to sm.reg_alloc_unit per warp; each of the
**             sm.schedulers sub-partitions holds floor((sm.registers /
**             sm.schedulers) / that) warps; blocks = floor(all those warps /
**             warps per block). A block must also pass the hardware's check
**             that its registers, counted for its warps rounded up to a
**             multiple of the sub-partitions, fit sm.max_regs_per_block;
**   shared    static + dynamic + sm.shared_reserved, rounded up to
**             sm.shared_alloc_unit, per block; a block may take up to
**             sm.shared_per_block (or, when it needs more, the opt-in limit
**             sm.shared_per_block_optin) plus the reservation; blocks =
**             floor(carveout / per-block), where the carveout is the default
**             one, i.e. the largest, sm.shared_memory.
** Left out: non-default carveout preferences, partitioned global caching
** (sm_52/6x only), block-barrier and virtual-resource limits (they never bind
** for a kernel with one barrier on the supported parts), thread-block clusters. */
#ifndef GPUSIM_SIM_OCCUPANCY_H
#define GPUSIM_SIM_OCCUPANCY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "sim/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JSON names: warps, blocks, registers, shared_memory. */
typedef enum { OCC_WARPS, OCC_BLOCKS, OCC_REGISTERS, OCC_SHARED_MEMORY } OccLimiter;

/* A limit_* of OCC_UNLIMITED: the resource sets no limit (a kernel with no
** registers, or no shared memory on a part that reserves none). */
#define OCC_UNLIMITED UINT32_MAX

typedef struct {
    uint32_t blocks_per_sm, warps_per_sm; /* resident at once; 0 = cannot launch     */
    double occupancy;                     /* warps_per_sm / max warps per SM, 0..1    */
    OccLimiter limiter;                   /* the resource that gives blocks_per_sm    */
    uint32_t limit_warps, limit_blocks, limit_registers, limit_shared_memory; /* blocks/SM each allows */
    uint32_t regs_per_block_alloc, smem_per_block_alloc; /* what one block takes, after granularity (bytes for smem) */
} OccResult;

/* Fills *out for a launch of blocks of block_threads threads using
** regs_per_thread registers and static_smem + dynamic_smem bytes of shared
** memory (the kernel is taken to have opted in to the dynamic shared memory it
** asks for, as cudaFuncSetAttribute(MaxDynamicSharedMemorySize) does).
** c must have passed config_validate.
** The limiter is the resource whose limit equals blocks_per_sm; on a tie the
** first of warps, registers, shared_memory, blocks (cuda_occupancy.h's order
** of limiting factors), so a full-occupancy launch reports "warps".
** Returns false, with d saying why, when the launch cannot run: block_threads
** of 0 or above sm.max_threads_per_block, regs_per_thread above
** sm.max_regs_per_thread, static shared memory above sm.shared_per_block (more
** must be dynamic), shared memory above what one block may use, a block's
** registers above sm.max_regs_per_block, or any limit of 0. *out is still
** filled (blocks_per_sm = 0, with the limits computed so far) so that a
** report can show them. Pure: no state, no allocation. */
bool occupancy_compute(const GpuConfig *c, uint32_t block_threads, uint32_t regs_per_thread,
                       uint32_t static_smem, uint32_t dynamic_smem, OccResult *out, Diag *d);

/* "warps", "blocks", "registers" or "shared_memory" (static strings). */
const char *occupancy_limiter_name(OccLimiter l);

#ifdef __cplusplus
}
#endif

#endif
