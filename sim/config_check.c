/* sim/config_check.c -- the cross-field sanity of a machine whose every
** knob is in its range (config_check_consistency, sim/config.h): what no
** single knob's range can say, e.g. that a largest block fits on an SM.
** Pure: reads the GpuConfig, writes the first problem into a Diag.      */
#include "sim/config.h"

#include <stdarg.h>

#include "sim/smem.h"

#define L2_REQUESTS_PER_CLK_MIN 1e-3 /* below it, not a limit a machine could have */

static bool vfail(Diag *d, const char *source, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool vfail(Diag *d, const char *source, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_setv(d, source, 0, 0, fmt, ap);
    va_end(ap);
    return false;
}

static uint64_t round_up(uint64_t x, uint64_t unit)
{
    return (x + unit - 1) / unit * unit;
}

bool config_check_consistency(const GpuConfig *c, const char *source, Diag *d)
{
    /* A rate becomes cycles per request (1 / rate) and then whole cycles: a
    ** vanishing rate would be a float beyond every integer, not a slow L2. */
    if (c->l2_requests_per_clk != 0 && c->l2_requests_per_clk < L2_REQUESTS_PER_CLK_MIN)
        return vfail(d, source,
                     "l2.requests_per_clk (%g) must be 0 (no limit) or at least %g (one request every %g cycles)",
                     c->l2_requests_per_clk, L2_REQUESTS_PER_CLK_MIN, 1 / L2_REQUESTS_PER_CLK_MIN);
    if (c->l2_load_requests_per_clk != 0 && c->l2_load_requests_per_clk < L2_REQUESTS_PER_CLK_MIN)
        return vfail(d, source,
                     "l2.load_requests_per_clk (%g) must be 0 (as l2.requests_per_clk) or at least %g (one request every %g cycles)",
                     c->l2_load_requests_per_clk, L2_REQUESTS_PER_CLK_MIN, 1 / L2_REQUESTS_PER_CLK_MIN);
    if (c->l2_write_bytes_per_clk != 0 && c->l2_write_bytes_per_clk < 1)
        return vfail(d, source, "l2.write_bytes_per_clk (%g) must be 0 (stores share l2.bandwidth_bytes_per_clk) or at least 1",
                     c->l2_write_bytes_per_clk);
    if (c->dram_access_bytes != 32 && c->dram_access_bytes != 64 && c->dram_access_bytes != 128)
        return vfail(d, source, "dram.access_bytes (%u) must be 32, 64 or 128: whole 32-byte sectors of a 128-byte line",
                     c->dram_access_bytes);
    if (!smem_banks_valid(c->smem_banks))
        return vfail(d, source, "smem.banks (%u) must be 16, 32 or 64: the bank model maps a word to its bank by its low bits",
                     c->smem_banks);
    if (c->max_threads_per_block > c->sm_max_threads)
        return vfail(d, source,
                     "sm.max_threads_per_block (%u) exceeds sm.max_threads (%u): a largest block "
                     "would not fit on an SM",
                     c->max_threads_per_block, c->sm_max_threads);
    if (c->max_threads_per_block > 32u * c->sm_max_warps)
        return vfail(d, source,
                     "sm.max_threads_per_block (%u) exceeds 32 * sm.max_warps (%u): a largest "
                     "block would not fit on an SM",
                     c->max_threads_per_block, 32u * c->sm_max_warps);
    if (c->sm_schedulers > c->sm_max_warps)
        return vfail(d, source, "sm.schedulers (%u) exceeds sm.max_warps (%u)", c->sm_schedulers,
                     c->sm_max_warps);
    if (c->max_regs_per_block > c->sm_registers)
        return vfail(d, source, "sm.max_regs_per_block (%u) exceeds sm.registers (%u)",
                     c->max_regs_per_block, c->sm_registers);
    if (c->sm_registers % c->sm_schedulers != 0)
        return vfail(d, source,
                     "sm.registers (%u) must split evenly over the sm.schedulers (%u) sub-partitions",
                     c->sm_registers, c->sm_schedulers);
    uint64_t warp_regs = round_up(32ull * c->max_regs_per_thread, c->reg_alloc_unit);
    if (warp_regs > c->sm_registers / c->sm_schedulers)
        return vfail(d, source,
                     "one warp at sm.max_regs_per_thread (%u) takes %llu registers (allocated in "
                     "units of sm.reg_alloc_unit = %u), more than a sub-partition's %u "
                     "(sm.registers / sm.schedulers)",
                     c->max_regs_per_thread, (unsigned long long)warp_regs, c->reg_alloc_unit,
                     c->sm_registers / c->sm_schedulers);
    if (warp_regs > c->max_regs_per_block)
        return vfail(d, source,
                     "one warp at sm.max_regs_per_thread (%u) takes %llu registers, more than "
                     "sm.max_regs_per_block (%u)",
                     c->max_regs_per_thread, (unsigned long long)warp_regs, c->max_regs_per_block);
    if (c->shared_per_block > c->shared_per_block_optin)
        return vfail(d, source, "sm.shared_per_block (%u) exceeds sm.shared_per_block_optin (%u)",
                     c->shared_per_block, c->shared_per_block_optin);
    if ((uint64_t)c->shared_per_block_optin + c->shared_reserved > c->sm_shared_memory)
        return vfail(d, source,
                     "sm.shared_per_block_optin (%u) + sm.shared_reserved (%u) exceeds "
                     "sm.shared_memory (%u): the largest block would not fit on an SM",
                     c->shared_per_block_optin, c->shared_reserved, c->sm_shared_memory);
    if (c->sm_shared_memory > c->l1_shared_total)
        return vfail(d, source, "sm.shared_memory (%u) exceeds sm.l1_shared_total (%u)",
                     c->sm_shared_memory, c->l1_shared_total);
    if (c->l1_size > c->l1_shared_total)
        return vfail(d, source, "l1.size (%u) exceeds sm.l1_shared_total (%u)", c->l1_size,
                     c->l1_shared_total);
    if (c->l1_size % (128u * c->l1_assoc) != 0)
        return vfail(d, source,
                     "l1.size (%u) is not a whole number of sets of l1.assoc (%u) 128-byte lines",
                     c->l1_size, c->l1_assoc);
    if ((uint64_t)c->l2_size % (128ull * c->l2_assoc) != 0)
        return vfail(d, source,
                     "l2.size (%u) is not a whole number of sets of l2.assoc (%u) 128-byte lines",
                     c->l2_size, c->l2_assoc);
    if ((uint64_t)c->l2_size % (128ull * c->l2_assoc * c->l2_partitions) != 0)
        return vfail(d, source,
                     "l2.size (%u) does not split into l2.partitions (%u) whole numbers of sets of l2.assoc (%u) "
                     "128-byte lines",
                     c->l2_size, c->l2_partitions, c->l2_assoc);
    if (c->lat_l1_hit > c->lat_l2_hit || c->lat_l2_hit > c->lat_dram)
        return vfail(d, source,
                     "latencies must grow down the hierarchy: lat.l1_hit (%u) <= lat.l2_hit (%u) "
                     "<= lat.dram (%u)",
                     c->lat_l1_hit, c->lat_l2_hit, c->lat_dram);
    if (c->dram_latency_spread > 2.0 * c->lat_dram)
        return vfail(d, source,
                     "dram.latency_spread (%g) exceeds twice lat.dram (%u): a request would come back before it "
                     "was asked",
                     c->dram_latency_spread, c->lat_dram);
    return true;
}
