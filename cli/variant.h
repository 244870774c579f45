/* cli/variant.h -- one variant of a workload, end to end: fresh buffers,
** the launch, the simulation and the checks, into a RunRow that the
** reports read. Shared by `gpusim run`, `gpusim compare` and gpusim-viz. */
#ifndef GPUSIM_CLI_VARIANT_H
#define GPUSIM_CLI_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/config.h"
#include "sim/gpu.h"
#include "workloads/loader.h"

typedef enum { CHECK_NONE, CHECK_PASS, CHECK_FAIL } CheckState;

typedef struct {
    const WlVariant *v;
    bool             ran;     /* every launch reached the end (SIM_OK)         */
    SimStatus        status;
    CheckState       check;   /* CHECK_FAIL also when a kernel did not finish   */
    char            *error;   /* malloc'd: why the check failed or the run
                                 stopped, NULL when all is well               */
    char            *dump_error; /* malloc'd: a --dump file that could not be
                                    written, NULL when none                    */
    KernelStats      st;      /* everything the reports print (sim/stats.h); for
                                 several launches their sum (derive_sum)       */
    KernelStats     *launch_st; /* malloc'd, one per launch of v (v->nlaunches) */
    uint32_t         nlaunches_run; /* launches simulated (the last may have
                                       stopped: ran is false then)             */
    PcCounters     **launch_pcs; /* VariantOptions.source: malloc'd, one array
                                    per launch of v (its kernel's ncode
                                    entries); NULL otherwise                  */
    double           ratio;   /* cycles / cycles of the first variant that ran;
                                 negative when unknown                          */
} RunRow;

/* Frees what variant_run allocated in row. */
void variant_row_free(RunRow *row);

/* Buffers kept after a variant ran, for the same_as checks of the
** variants that compare with it (workloads/checks.h): only the buffers
** some check names, and only until the run ends. */
typedef struct VariantStore VariantStore;
VariantStore *variant_store_create(const Workload *w);
void variant_store_destroy(VariantStore *s);

/* A budget that variant_run replaces with variant_default_budget's. */
#define VARIANT_BUDGET_AUTO UINT64_MAX

/* How to run one variant (variant_run). */
typedef struct {
    uint64_t         max_cycles, max_instructions; /* budgets; 0: none, or
                                                      VARIANT_BUDGET_AUTO    */
    uint32_t         regs;      /* registers per thread to assume; 0: the variant's */
    const uint32_t  *launch_regs; /* the same per launch (v->nlaunches entries, 0:
                                     the launch's own); NULL: regs for every one */
    const char      *label;     /* progress line label; NULL: the variant name      */
    bool             progress;  /* print progress on stderr                          */
    const TraceSink *trace;     /* trace events (--trace, the visualizer); NULL: none,
                                   all a report needs is in the stats             */
    bool             racecheck; /* report shared-memory races as faults             */
    uint32_t         trace_only; /* with several launches: 0, trace every launch;
                                    k, only launch k (1-based: the visualizer) */
    /* Called before each launch (e.g. to label the trace); may be NULL. */
    void           (*on_launch)(void *user, const WlVariant *v, uint32_t launch);
    void            *on_launch_user;
    VariantStore    *store;     /* results for same_as checks, this run's kept in
                                   it; NULL: same_as checks are left out (compare
                                   and the visualizer time one variant alone) */
    const char      *dump_dir;  /* write every buffer after the run as
                                   DIR/<variant>.<buffer>.npy; NULL: no dump   */
    const bool      *dump;      /* which buffers (Workload order); NULL: all    */
    bool             source;    /* count per instruction (RunRow.launch_pcs) */
    uint32_t         threads;   /* host threads per launch (Launch.threads); 0: one */
    bool             threads_auto; /* ... the default, not asked for (Launch.threads_auto) */
} VariantOptions;

/* The budgets a launch of v gets unless the user sets them, scaled to the
** launch so that a runaway kernel is stopped after a multiple of the work a
** finishing one could do, not after an hour: warp instructions =
** 2^24 + 2^16 per warp of the grid + 16 per element of the workload's
** buffers (saturating at 2^62); cycles = 1024 per budgeted instruction (a
** backstop: one warp waiting on DRAM issues about one instruction per few
** hundred cycles). Text for help and messages: VARIANT_BUDGET_RULE. */
#define VARIANT_BUDGET_RULE "2^24 + 65536 per warp launched + 16 per buffer element"
void variant_default_budget(const Workload *w, const WlLaunch *l, uint64_t *max_instructions, uint64_t *max_cycles);

/* The same rule from a launch's warps and the 4-byte elements its memory
** holds (gpusim exec: the program's allocations). */
void variant_budget_for(double warps, double elements, uint64_t *max_instructions, uint64_t *max_cycles);

/* The --dump file name of buffer b after variant v: "<variant>.<buffer>.npy",
** with '/' in the variant's name written %2F and '%' written %25. */
void variant_dump_name(const WlVariant *v, const WlBuffer *b, char *out, size_t cap);

/* Prepares fresh buffers for v, simulates its launches on c, one GPU for
** all of them (sim/gpu.h, GpuSession), checks the results and dumps them
** into *row (variant_row_free frees what it holds). */
void variant_run(const GpuConfig *c, const Workload *w, const WlVariant *v, const VariantOptions *opt,
                 RunRow *row);

#endif
