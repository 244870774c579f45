/* sim/derive.h -- every figure of a launch that is computed rather than
** counted: per-request ratios, hit rates, achieved occupancy and IPC, waves
** and the tail, branch efficiency, DRAM bandwidth and the roofline. One
** step, from the raw counters of KernelStats (sim/stats.h) and the
** machine, so that the text table, the explanations, --json and --csv
** quote the same numbers. Pure: no SM, no clock.                          */
#ifndef GPUSIM_SIM_DERIVE_H
#define GPUSIM_SIM_DERIVE_H

#include "sim/config.h"
#include "sim/stats.h"

/* Fills the derived half of *st from its raw half and machine c; the raw
** counters are not changed. A ratio whose denominator is 0 is 0. Calling it
** twice gives the same result. */
void derive_stats(const GpuConfig *c, KernelStats *st);

/* The stats of n launches run one after another (a GpuSession), as one:
** every raw counter summed (cycles too: no gap between launches), then
** derived; the launch shape (blocks, occupancy and limiter, waves, wave
** efficiency and tail) is that of the launch that took the most cycles. */
void derive_sum(const GpuConfig *c, const KernelStats *launches, uint32_t n, KernelStats *out);

/* The figures of one instruction (or of a source line: its instructions'
** counters summed) that the per-instruction view prints. */
typedef struct {
    uint64_t warp_cycles;                /* all its warp states together          */
    double   cycle_share;                /* of the kernel's warp cycles           */
    double   threads_per_instruction;    /* thread / warp instructions           */
    double   sectors_per_request, ideal_sectors_per_request; /* global requests */
    double   wavefronts_per_request, ideal_wavefronts_per_request, bank_conflicts_per_request; /* shared */
    double   l1_hit_rate, l2_hit_rate;   /* of its sector accesses                */
    double   stall_share[STALL_REASONS]; /* each state's share of its warp_cycles */
} PcFigures;

/* Fills *f from p; kernel_warp_cycles is KernelStats.stall_cycles of the
** launch. A ratio whose denominator is 0 is 0. */
void derive_pc(const PcCounters *p, uint64_t kernel_warp_cycles, PcFigures *f);

/* acc += p, counter by counter (a source line's instructions). */
void derive_pc_add(PcCounters *acc, const PcCounters *p);

#endif
