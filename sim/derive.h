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

#endif
