/* cli/variant.c -- one variant of a workload, end to end: fresh
** buffers, the launch, the simulation (with a progress line, and the
** caller's trace sink if it has one), and the checks. Shared by `gpusim
** run`, `gpusim compare` and gpusim-viz.                                 */
#include "cli/variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/run.h"

/* ------------------------------------------------------------ progress */

typedef struct {
    const char *label; /* "transpose: variant 2/4 tiled" */
    int         shown; /* last percentage printed */
} Progress;

static void on_progress(void *user, uint64_t done, uint64_t blocks)
{
    Progress *p = user;
    int pct = (int)(100 * done / blocks);
    if (pct == p->shown) return;
    p->shown = pct;
    fprintf(stderr, "\r%s: %3d%% of %llu blocks", p->label, pct, (unsigned long long)blocks);
    fflush(stderr);
}

/* ------------------------------------------------------------ one variant */

/* malloc'd a followed by b (NULL when out of memory: the report then just
** lacks the detail). */
static char *joined(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%s", a, b);
    return s;
}

void variant_default_budget(const Workload *w, const WlVariant *v, uint64_t *max_instructions, uint64_t *max_cycles)
{
    /* in double: a grid of 2^31 x 2^16 x 2^16 blocks overflows 64 bits */
    const double cap = 0x1p62;
    double warps = (double)v->grid[0] * v->grid[1] * v->grid[2] * ceil((double)v->block[0] * v->block[1] * v->block[2] / 32);
    double elements = 0;
    for (uint32_t i = 0; i < w->nbuffers; i++) elements += (double)w->buffers[i].count;
    double instr = fmin(cap, 0x1p24 + 0x1p16 * warps + 16 * elements);
    *max_instructions = (uint64_t)instr;
    *max_cycles = (uint64_t)fmin(cap, 1024 * instr);
}

void variant_run(const GpuConfig *c, const Workload *w, const WlVariant *v, const VariantOptions *opt, RunRow *row)
{
    const char *label = opt->label ? opt->label : v->name;
    bool progress = opt->progress;
    memset(row, 0, sizeof *row);
    row->v = v;
    row->ratio = -1;
    row->check = v->nchecks ? CHECK_FAIL : CHECK_NONE;
    WlRun run;
    Diag d;
    if (!workload_prepare(w, v, &run, &d)) {
        row->status = SIM_BAD_LAUNCH;
        row->error = joined("", d.message);
        return;
    }
    Launch L;
    memset(&L, 0, sizeof L);
    L.kernel = v->kernel;
    L.kernel_file = w->kernel_file;
    L.gmem = run.gmem;
    memcpy(L.grid, v->grid, sizeof L.grid);
    memcpy(L.block, v->block, sizeof L.block);
    L.dynamic_smem = v->dynamic_smem;
    L.regs_per_thread = opt->regs ? opt->regs : v->regs;
    L.params = run.params;
    uint64_t auto_instr, auto_cycles;
    variant_default_budget(w, v, &auto_instr, &auto_cycles);
    L.max_cycles = opt->max_cycles == VARIANT_BUDGET_AUTO ? auto_cycles : opt->max_cycles;
    L.max_warp_instructions = opt->max_instructions == VARIANT_BUDGET_AUTO ? auto_instr : opt->max_instructions;
    L.racecheck = opt->racecheck;
    Progress prog = { label, -1 };
    if (progress) {
        L.progress = on_progress;
        L.progress_user = &prog;
    }
    SimResult *res = malloc(sizeof *res);
    if (!res) {
        row->status = SIM_BAD_LAUNCH;
        row->error = joined("out of host memory", "");
        workload_run_free(&run);
        return;
    }
    row->ran = gpu_simulate(c, &L, opt->trace, res);
    if (progress) fprintf(stderr, "\r\033[K");
    row->status = res->status;
    row->st = res->stats;
    if (!row->ran) {
        row->check = v->nchecks ? CHECK_FAIL : CHECK_NONE;
        /* say whose budget it was: the default one scales with the launch */
        bool cycles = res->budget_cycles;
        bool automatic = (cycles ? opt->max_cycles : opt->max_instructions) == VARIANT_BUDGET_AUTO;
        if (res->status != SIM_BUDGET)
            row->error = joined("", res->message);
        else if (automatic)
            row->error = joined(res->message, cycles ? "\n(the default cycle budget of this launch: 1024 cycles per "
                                                       "budgeted instruction, " VARIANT_BUDGET_RULE "; --max-cycles "
                                                       "changes it)"
                                                     : "\n(the default instruction budget of this launch: "
                                                       VARIANT_BUDGET_RULE "; --max-instructions changes it)");
        else
            row->error = joined(res->message, cycles ? "\n(the budget --max-cycles set)"
                                                     : "\n(the budget --max-instructions set)");
    } else if (v->nchecks) {
        row->check = CHECK_PASS;
        for (uint32_t k = 0; k < v->nchecks; k++) {
            WlCheckResult cr;
            workload_compare(w, v, k, &run, &cr);
            if (!cr.pass && row->check == CHECK_PASS) {
                row->check = CHECK_FAIL;
                row->error = joined("check failed: ", cr.text);
            }
        }
    }
    free(res);
    workload_run_free(&run);
}

