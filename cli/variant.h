/* cli/variant.h -- one variant of a workload, end to end: fresh buffers,
** the launch, the simulation and the checks, into a RunRow that the
** reports read. Shared by `gpusim run`, `gpusim compare` and gpusim-viz. */
#ifndef GPUSIM_CLI_VARIANT_H
#define GPUSIM_CLI_VARIANT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/config.h"
#include "sim/gpu.h"
#include "workloads/loader.h"

typedef enum { CHECK_NONE, CHECK_PASS, CHECK_FAIL } CheckState;

typedef struct {
    const WlVariant *v;
    bool             ran;     /* the simulation reached the end (SIM_OK)       */
    SimStatus        status;
    CheckState       check;   /* CHECK_FAIL also when the kernel did not finish */
    char            *error;   /* malloc'd: why the check failed or the run
                                 stopped, NULL when all is well               */
    KernelStats      st;      /* everything the reports print (sim/stats.h)     */
    double           ratio;   /* cycles / cycles of the first variant that ran;
                                 negative when unknown                          */
} RunRow;

/* A budget that variant_run replaces with variant_default_budget's. */
#define VARIANT_BUDGET_AUTO UINT64_MAX

/* How to run one variant (variant_run). */
typedef struct {
    uint64_t         max_cycles, max_instructions; /* budgets; 0: none, or
                                                      VARIANT_BUDGET_AUTO    */
    uint32_t         regs;      /* registers per thread to assume; 0: the variant's */
    const char      *label;     /* progress line label; NULL: the variant name      */
    bool             progress;  /* print progress on stderr                          */
    const TraceSink *trace;     /* trace events (--trace, the visualizer); NULL: none,
                                   all a report needs is in the stats             */
    bool             racecheck; /* report shared-memory races as faults             */
} VariantOptions;

/* The budgets a launch of v gets unless the user sets them, scaled to the
** launch so that a runaway kernel is stopped after a multiple of the work a
** finishing one could do, not after an hour: warp instructions =
** 2^24 + 2^16 per warp of the grid + 16 per element of the workload's
** buffers (saturating at 2^62); cycles = 1024 per budgeted instruction (a
** backstop: one warp waiting on DRAM issues about one instruction per few
** hundred cycles). Text for help and messages: VARIANT_BUDGET_RULE. */
#define VARIANT_BUDGET_RULE "2^24 + 65536 per warp launched + 16 per buffer element"
void variant_default_budget(const Workload *w, const WlVariant *v, uint64_t *max_instructions, uint64_t *max_cycles);

/* Prepares fresh buffers for v, simulates it on c and checks the results
** into *row (row->error is malloc'd; the caller frees it). */
void variant_run(const GpuConfig *c, const Workload *w, const WlVariant *v, const VariantOptions *opt,
                 RunRow *row);

#endif
