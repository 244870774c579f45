/* cli/variant.c -- one variant of a workload, end to end: fresh
** buffers, the launch, the simulation (with a trace sink that gathers the
** per-request access profile and shows progress), and the checks. Shared by
** `gpusim run` and `gpusim compare`.                                      */
#include "cli/variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/run.h"

/* ------------------------------------------------------------ trace sink */

/* The run's own sink: it gathers the access profile and the progress, and
** passes every event on to `next` (the --trace writer) when there is one. */
typedef struct {
    AccessProfile   *prof;
    bool             progress;
    const char      *label;     /* "transpose: variant 2/4 tiled" */
    uint64_t         blocks, done;
    int              shown;     /* last percentage printed */
    const TraceSink *next;
} Collector;

static void on_global(void *user, const TraceGlobal *e)
{
    Collector *c = user;
    GlobalProfile *g = &c->prof->global[e->is_store ? 1 : 0];
    g->requests++;
    g->sectors += e->sectors;
    g->ideal_sectors += (e->bytes_requested + 31) / 32;
    if (c->next && c->next->global_access) c->next->global_access(c->next->user, e);
}

static void on_shared(void *user, const TraceShared *e)
{
    Collector *c = user;
    SharedProfile *s = &c->prof->shared[e->is_store ? 1 : 0];
    s->requests++;
    s->wavefronts += e->wavefronts;
    if (e->wavefronts > s->max_wavefronts) s->max_wavefronts = e->wavefronts;
    if (c->next && c->next->shared_access) c->next->shared_access(c->next->user, e);
}

static void on_block_end(void *user, const TraceBlock *e)
{
    Collector *c = user;
    if (c->next && c->next->block_end) c->next->block_end(c->next->user, e);
    c->done++;
    if (!c->progress || !c->blocks) return;
    int pct = (int)(100 * c->done / c->blocks);
    if (pct == c->shown) return;
    c->shown = pct;
    fprintf(stderr, "\r%s: %3d%% of %llu blocks", c->label, pct, (unsigned long long)c->blocks);
    fflush(stderr);
}

static void on_block_start(void *user, const TraceBlock *e)
{
    const Collector *c = user;
    c->next->block_start(c->next->user, e);
}

static void on_issue(void *user, const TraceIssue *e)
{
    const Collector *c = user;
    c->next->warp_issue(c->next->user, e);
}

static void on_stall(void *user, const TraceStall *e)
{
    const Collector *c = user;
    c->next->warp_stall(c->next->user, e);
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
    const TraceSink *trace = opt->trace;
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
    bool auto_budget = opt->max_cycles == VARIANT_BUDGET_AUTO || opt->max_instructions == VARIANT_BUDGET_AUTO;
    L.max_cycles = opt->max_cycles == VARIANT_BUDGET_AUTO ? auto_cycles : opt->max_cycles;
    L.max_warp_instructions = opt->max_instructions == VARIANT_BUDGET_AUTO ? auto_instr : opt->max_instructions;
    L.racecheck = opt->racecheck;
    Collector col = { &row->prof, progress, label, (uint64_t)v->grid[0] * v->grid[1] * v->grid[2], 0, -1, trace };
    TraceSink sink;
    memset(&sink, 0, sizeof sink);
    sink.user = &col;
    sink.block_end = on_block_end;
    sink.global_access = on_global;
    sink.shared_access = on_shared;
    /* only what the trace writer listens to: each callback costs time */
    if (trace && trace->block_start) sink.block_start = on_block_start;
    if (trace && trace->warp_issue) sink.warp_issue = on_issue;
    if (trace && trace->warp_stall) sink.warp_stall = on_stall;
    SimResult *res = malloc(sizeof *res);
    if (!res) {
        row->status = SIM_BAD_LAUNCH;
        row->error = joined("out of host memory", "");
        workload_run_free(&run);
        return;
    }
    row->ran = gpu_simulate(c, &L, &sink, res);
    if (progress) fprintf(stderr, "\r\033[K");
    row->status = res->status;
    row->st = res->stats;
    if (!row->ran) {
        row->check = v->nchecks ? CHECK_FAIL : CHECK_NONE;
        row->error = res->status == SIM_BUDGET && auto_budget
                         ? joined(res->message, "\n(the default budget of this launch: " VARIANT_BUDGET_RULE
                                                "; --max-instructions and --max-cycles change it)")
                         : joined("", res->message);
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

