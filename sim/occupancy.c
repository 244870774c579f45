/* sim/occupancy.c -- CUDA's occupancy rules (see occupancy.h for the list).
** Models the per-SM resource limits only; which carveout the driver really
** picks for L1, and how blocks are dispatched, are other modules' business.
** The rules follow the CUDA occupancy calculator (cuda_occupancy.h, CUDA 13)
** and the CUDA C++ Programming Guide, "Compute Capabilities"; every figure
** they need (granularities, sub-partitions, reservation, limits) is a knob of
** sim/config.def, so a machine changed with --set is treated by the same
** rules. tests/occupancy_ref.cpp checks this file against cuda_occupancy.h. */
#include "sim/occupancy.h"

#include <stdarg.h>
#include <stdio.h>

#define WARP_SIZE 32u

static uint64_t div_up(uint64_t x, uint64_t y)
{
    return (x + y - 1) / y;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

static uint32_t clamp_u32(uint64_t x)
{
    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

/* Records a launch failure caused by resource `why`: *out keeps the limits
** computed so far, with no resident blocks. */
static bool fail(OccResult *out, const OccResult *r, OccLimiter why, Diag *d, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static bool fail(OccResult *out, const OccResult *r, OccLimiter why, Diag *d, const char *fmt, ...)
{
    *out = *r;
    out->limiter = why;
    out->blocks_per_sm = 0;
    out->warps_per_sm = 0;
    out->occupancy = 0.0;
    va_list ap;
    va_start(ap, fmt);
    diag_setv(d, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

/* The launch's own limits, before any resource is counted: a machine that
** passed config_validate, a block of 1 to max_threads_per_block threads,
** registers and static shared memory within a kernel's limits. */
static bool launch_ok(const GpuConfig *c, uint32_t block_threads, uint32_t regs_per_thread, uint32_t static_smem,
                      uint32_t max_warps, OccResult *out, OccResult *r, Diag *d)
{
    if (max_warps == 0 || c->sm_schedulers == 0 || c->reg_alloc_unit == 0 || c->shared_alloc_unit == 0)
        return fail(out, r, OCC_WARPS, d, "invalid machine '%s' (run config_validate first)", c->name);
    if (block_threads == 0) return fail(out, r, OCC_WARPS, d, "a block needs at least 1 thread");
    if (block_threads > c->max_threads_per_block)
        return fail(out, r, OCC_WARPS, d, "a block of %u threads exceeds the limit of %u threads per block",
                    block_threads, c->max_threads_per_block);
    if (regs_per_thread > c->max_regs_per_thread)
        return fail(out, r, OCC_REGISTERS, d, "%u registers per thread exceed the limit of %u", regs_per_thread,
                    c->max_regs_per_thread);
    if (static_smem > c->shared_per_block)
        return fail(out, r, OCC_SHARED_MEMORY, d,
                    "%u bytes of static shared memory exceed the %u a kernel may declare "
                    "statically; more must be dynamic shared memory (opt-in)",
                    static_smem, c->shared_per_block);
    return true;
}

bool occupancy_compute(const GpuConfig *c, uint32_t block_threads, uint32_t regs_per_thread,
                       uint32_t static_smem, uint32_t dynamic_smem, OccResult *out, Diag *d)
{
    OccResult r = {0};
    r.limiter = OCC_WARPS;
    uint32_t max_warps = min_u32(c->sm_max_warps, c->sm_max_threads / WARP_SIZE);
    if (!launch_ok(c, block_threads, regs_per_thread, static_smem, max_warps, out, &r, d)) return false;

    uint32_t warps_per_block = (uint32_t)div_up(block_threads, WARP_SIZE);

    /* warp slots */
    r.limit_warps = max_warps / warps_per_block;

    /* block slots */
    r.limit_blocks = c->sm_max_blocks;

    /* registers: allocated per warp, and each warp lives in one sub-partition's
    ** slice of the register file */
    uint64_t regs_per_warp = div_up((uint64_t)regs_per_thread * WARP_SIZE, c->reg_alloc_unit) *
                             c->reg_alloc_unit;
    r.regs_per_block_alloc = clamp_u32(regs_per_warp * warps_per_block);
    if (regs_per_warp == 0) {
        r.limit_registers = OCC_UNLIMITED;
    } else {
        uint64_t warps_per_sub = (c->sm_registers / c->sm_schedulers) / regs_per_warp;
        r.limit_registers = (uint32_t)(warps_per_sub * c->sm_schedulers / warps_per_block);
    }

    /* shared memory: the driver's per-block reservation counts as shared memory */
    uint64_t smem_need = (uint64_t)static_smem + dynamic_smem + c->shared_reserved;
    uint64_t smem_alloc = div_up(smem_need, c->shared_alloc_unit) * c->shared_alloc_unit;
    r.smem_per_block_alloc = clamp_u32(smem_alloc);
    uint32_t carveout = c->sm_shared_memory; /* the default carveout: the largest */
    r.limit_shared_memory = smem_alloc == 0 ? OCC_UNLIMITED : clamp_u32(carveout / smem_alloc);

    /* the hardware checks a block's registers as if its warps filled every
    ** sub-partition evenly: warps rounded up to a multiple of the sub-partitions */
    uint64_t regs_checked = regs_per_warp * (div_up(warps_per_block, c->sm_schedulers) * c->sm_schedulers);
    if (regs_checked > c->max_regs_per_block) {
        r.limit_registers = 0;
        return fail(out, &r, OCC_REGISTERS, d,
                    "a block of %u warps at %u registers per thread is checked as %llu warps (a "
                    "multiple of the %u sub-partitions) x %llu registers = %llu, more than the %u "
                    "registers per block",
                    warps_per_block, regs_per_thread,
                    (unsigned long long)(regs_checked / regs_per_warp), c->sm_schedulers,
                    (unsigned long long)regs_per_warp, (unsigned long long)regs_checked,
                    c->max_regs_per_block);
    }

    /* per-block shared memory limit: the opt-in limit applies when the block
    ** needs more than the default one; the reservation comes on top of either */
    uint64_t smem_limit = (smem_need > c->shared_per_block ? c->shared_per_block_optin : c->shared_per_block) +
                          (uint64_t)c->shared_reserved;
    if (smem_alloc > smem_limit) {
        r.limit_shared_memory = 0;
        return fail(out, &r, OCC_SHARED_MEMORY, d,
                    "a block takes %llu bytes of shared memory (%u static + %u dynamic + %u "
                    "reserved, in units of %u), more than the %llu one block may use (%u opt-in "
                    "limit + %u reserved)",
                    (unsigned long long)smem_alloc, static_smem, dynamic_smem, c->shared_reserved,
                    c->shared_alloc_unit, (unsigned long long)smem_limit, c->shared_per_block_optin,
                    c->shared_reserved);
    }

    /* the smallest limit wins; ties go to the first in cuda_occupancy.h's order */
    const struct {
        OccLimiter which;
        uint32_t limit;
    } order[] = {
        {OCC_WARPS, r.limit_warps},
        {OCC_REGISTERS, r.limit_registers},
        {OCC_SHARED_MEMORY, r.limit_shared_memory},
        {OCC_BLOCKS, r.limit_blocks},
    };
    uint32_t blocks = order[0].limit;
    r.limiter = order[0].which;
    for (size_t i = 1; i < sizeof order / sizeof order[0]; i++)
        if (order[i].limit < blocks) {
            blocks = order[i].limit;
            r.limiter = order[i].which;
        }

    if (blocks == 0) {
        switch (r.limiter) {
        case OCC_WARPS:
            return fail(out, &r, r.limiter, d, "a block of %u warps exceeds the %u warps an SM holds",
                        warps_per_block, max_warps);
        case OCC_REGISTERS:
            return fail(out, &r, r.limiter, d,
                        "a block of %u warps at %u registers per thread does not fit in the "
                        "register file (%llu registers per warp; %u per sub-partition)",
                        warps_per_block, regs_per_thread, (unsigned long long)regs_per_warp,
                        c->sm_registers / c->sm_schedulers);
        case OCC_SHARED_MEMORY:
            return fail(out, &r, r.limiter, d,
                        "a block's %llu bytes of shared memory exceed the SM's %u",
                        (unsigned long long)smem_alloc, carveout);
        case OCC_BLOCKS:
            return fail(out, &r, r.limiter, d, "the machine allows no resident blocks");
        }
    }

    r.blocks_per_sm = blocks;
    r.warps_per_sm = blocks * warps_per_block;
    r.occupancy = (double)r.warps_per_sm / (double)max_warps;
    *out = r;
    return true;
}

const char *occupancy_limiter_name(OccLimiter l)
{
    switch (l) {
    case OCC_WARPS: return "warps";
    case OCC_BLOCKS: return "blocks";
    case OCC_REGISTERS: return "registers";
    case OCC_SHARED_MEMORY: return "shared_memory";
    }
    return "?";
}
