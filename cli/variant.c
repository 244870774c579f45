/* cli/variant.c -- one variant of a workload, end to end: fresh
** buffers, the launch, the simulation (with a progress line, and the
** caller's trace sink if it has one), and the checks. Shared by `gpusim
** run`, `gpusim compare` and gpusim-viz.                                 */
#include "cli/variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/derive.h"
#include "workloads/npy.h"
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

void variant_budget_for(double warps, double elements, uint64_t *max_instructions, uint64_t *max_cycles)
{
    /* in double: a grid of 2^31 x 2^16 x 2^16 blocks overflows 64 bits */
    const double cap = 0x1p62;
    double instr = fmin(cap, 0x1p24 + 0x1p16 * warps + 16 * elements);
    *max_instructions = (uint64_t)instr;
    *max_cycles = (uint64_t)fmin(cap, 1024 * instr);
}

void variant_default_budget(const Workload *w, const WlLaunch *l, uint64_t *max_instructions, uint64_t *max_cycles)
{
    double warps = (double)l->grid[0] * l->grid[1] * l->grid[2] * ceil((double)l->block[0] * l->block[1] * l->block[2] / 32);
    double elements = 0;
    for (uint32_t i = 0; i < w->nbuffers; i++) elements += (double)w->buffers[i].count;
    variant_budget_for(warps, elements, max_instructions, max_cycles);
}

void variant_row_free(RunRow *row)
{
    free(row->error);
    free(row->dump_error);
    free(row->launch_st);
    for (uint32_t k = 0; row->launch_pcs && k < row->v->nlaunches; k++) free(row->launch_pcs[k]);
    free(row->launch_pcs);
    row->error = row->dump_error = NULL;
    row->launch_st = NULL;
    row->launch_pcs = NULL;
}

/* ------------------------------------------------------------ kept results */

/* want[v * nbuffers + b]: variant v's buffer b is compared with by a later
** variant; data[...]: its contents once v has run (NULL before, or when v
** did not finish). */
struct VariantStore {
    const Workload *w;
    bool           *want;
    void          **data;
};

VariantStore *variant_store_create(const Workload *w)
{
    VariantStore *s = calloc(1, sizeof *s);
    size_t n = (size_t)w->nvariants * (w->nbuffers ? w->nbuffers : 1);
    if (!s || !(s->want = calloc(n, sizeof *s->want)) || !(s->data = calloc(n, sizeof *s->data))) {
        variant_store_destroy(s);
        return NULL;
    }
    s->w = w;
    for (uint32_t i = 0; i < w->nvariants; i++)
        for (uint32_t k = 0; k < w->variants[i].nchecks; k++) {
            const WlCheck *ck = &w->variants[i].checks[k];
            if (ck->kind == WL_CHECK_SAME_AS) s->want[(size_t)ck->variant * w->nbuffers + ck->buffer] = true;
        }
    return s;
}

void variant_store_destroy(VariantStore *s)
{
    if (!s) return;
    for (size_t i = 0; s->data && s->want && i < (size_t)s->w->nvariants * s->w->nbuffers; i++) free(s->data[i]);
    free(s->want);
    free(s->data);
    free(s);
}

static void store_keep(VariantStore *s, const WlVariant *v, const WlRun *run)
{
    const Workload *w = s->w;
    size_t vi = (size_t)(v - w->variants);
    for (uint32_t b = 0; b < w->nbuffers; b++) {
        if (!s->want[vi * w->nbuffers + b]) continue;
        uint64_t bytes = w->buffers[b].count * 4;
        void *copy = malloc(bytes);
        if (copy) memcpy(copy, gmem_translate(run->gmem, run->addrs[b], (uint32_t)bytes), bytes);
        free(s->data[vi * w->nbuffers + b]);
        s->data[vi * w->nbuffers + b] = copy; /* NULL when out of memory: the check then fails, saying so */
    }
}

/* ------------------------------------------------------------ dump */

void variant_dump_name(const WlVariant *v, const WlBuffer *b, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = v->name; *p && n + 4 < cap; p++) {
        if (*p == '/' || *p == '%') { /* '%' too, so that "a/b" and "a%2Fb" stay apart */
            memcpy(out + n, *p == '/' ? "%2F" : "%25", 3);
            n += 3;
        } else {
            out[n++] = *p;
        }
    }
    snprintf(out + n, cap - n, ".%s.npy", b->name);
}

static char *dump(const VariantOptions *opt, const Workload *w, const WlVariant *v, const WlRun *run)
{
    for (uint32_t b = 0; b < w->nbuffers; b++) {
        if (opt->dump && !opt->dump[b]) continue;
        char name[WL_MAX_VARIANT_NAME * 3 + WL_MAX_NAME + 8], path[4096 + sizeof name];
        variant_dump_name(v, &w->buffers[b], name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", opt->dump_dir, name);
        uint64_t bytes = w->buffers[b].count * 4;
        Diag d;
        if (!npy_write(path, w->buffers[b].type, gmem_translate(run->gmem, run->addrs[b], (uint32_t)bytes),
                       w->buffers[b].count, &d))
        {
            char *e = joined(path, ": ");
            char *full = e ? joined(e, d.message) : NULL;
            free(e);
            return full;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------ one variant */

void variant_run(const GpuConfig *c, const Workload *w, const WlVariant *v, const VariantOptions *opt, RunRow *row)
{
    const char *label = opt->label ? opt->label : v->name;
    memset(row, 0, sizeof *row);
    row->v = v;
    row->ratio = -1;
    row->check = v->nchecks ? CHECK_FAIL : CHECK_NONE;
    WlRun run;
    Diag d;
    row->launch_st = calloc(v->nlaunches, sizeof *row->launch_st);
    SimResult *res = malloc(sizeof *res);
    GpuSession *gpu = gpu_session_create(c);
    bool pcs_ok = true;
    if (opt->source && (row->launch_pcs = calloc(v->nlaunches, sizeof *row->launch_pcs)) != NULL)
        for (uint32_t k = 0; k < v->nlaunches; k++)
            pcs_ok &= (row->launch_pcs[k] = calloc(v->launches[k].kernel->ncode, sizeof(PcCounters))) != NULL;
    if (!row->launch_st || !res || !gpu || (opt->source && (!row->launch_pcs || !pcs_ok))) {
        row->status = SIM_BAD_LAUNCH;
        row->error = joined("out of host memory", "");
        free(res);
        gpu_session_destroy(gpu);
        return;
    }
    if (!workload_prepare(w, v, &run, &d)) {
        row->status = SIM_BAD_LAUNCH;
        row->error = joined("", d.message);
        free(res);
        gpu_session_destroy(gpu);
        return;
    }
    row->ran = true;
    uint32_t heap = 0; /* the device heap, made for the first launch that calls malloc or free */
    for (uint32_t k = 0; k < v->nlaunches && row->ran; k++) {
        const WlLaunch *l = &v->launches[k];
        Launch L;
        memset(&L, 0, sizeof L);
        L.kernel = l->kernel;
        L.kernel_file = w->kernel_file;
        L.gmem = run.gmem;
        memcpy(L.grid, l->grid, sizeof L.grid);
        memcpy(L.block, l->block, sizeof L.block);
        L.dynamic_smem = l->dynamic_smem;
        uint32_t regs = opt->launch_regs ? opt->launch_regs[k] : opt->regs;
        L.regs_per_thread = regs ? regs : l->regs;
        L.params = run.params[k];
        L.keep_dirty = k + 1 < v->nlaunches;
        uint64_t auto_instr, auto_cycles;
        variant_default_budget(w, l, &auto_instr, &auto_cycles);
        L.max_cycles = opt->max_cycles == VARIANT_BUDGET_AUTO ? auto_cycles : opt->max_cycles;
        L.max_warp_instructions = opt->max_instructions == VARIANT_BUDGET_AUTO ? auto_instr : opt->max_instructions;
        L.racecheck = opt->racecheck;
        L.pc_counters = row->launch_pcs ? row->launch_pcs[k] : NULL;
        L.threads = opt->threads;
        L.threads_auto = opt->threads_auto;
        L.threads_fit_host = cli_threads_fit_host();
        L.printf_out = stderr; /* device printf: stdout is the report's */
        if (kernel_uses_heap(l->kernel) && !heap && !(heap = exec_heap_create(run.gmem, EXEC_HEAP_DEFAULT_BYTES, &d))) {
            row->status = SIM_BAD_LAUNCH;
            row->error = joined("the device heap: ", d.message);
            row->ran = false;
            break;
        }
        L.heap = heap;
        char lab[WL_MAX_VARIANT_NAME + 256];
        snprintf(lab, sizeof lab, v->nlaunches > 1 ? "%s, launch %u/%u" : "%s", label, k + 1, v->nlaunches);
        Progress prog = { lab, -1 };
        if (opt->progress) {
            L.progress = on_progress;
            L.progress_user = &prog;
        }
        if (opt->on_launch) opt->on_launch(opt->on_launch_user, v, k);
        const TraceSink *trace = !opt->trace_only || opt->trace_only == k + 1 ? opt->trace : NULL;
        row->ran = gpu_session_simulate(gpu, &L, trace, res);
        if (opt->progress) fprintf(stderr, "\r\033[K");
        row->nlaunches_run = k + 1;
        row->status = res->status;
        row->launch_st[k] = res->stats;
        if (!row->ran) {
            char at[ISA_MAX_NAME + 64] = "";
            if (v->nlaunches > 1) snprintf(at, sizeof at, "launch %u/%u (%s): ", k + 1, v->nlaunches, l->kernel->name);
            /* say whose budget it was: the default one scales with the launch */
            bool cycles = res->budget_cycles;
            bool automatic = (cycles ? opt->max_cycles : opt->max_instructions) == VARIANT_BUDGET_AUTO;
            const char *why = res->status != SIM_BUDGET ? ""
                              : automatic ? (cycles ? "\n(the default cycle budget of this launch: 1024 cycles per "
                                                      "budgeted instruction, " VARIANT_BUDGET_RULE "; --max-cycles "
                                                      "changes it)"
                                                    : "\n(the default instruction budget of this launch: "
                                                      VARIANT_BUDGET_RULE "; --max-instructions changes it)")
                              : cycles ? "\n(the budget --max-cycles set)"
                                       : "\n(the budget --max-instructions set)";
            char *msg = joined(at, res->message);
            row->error = msg ? joined(msg, why) : NULL;
            free(msg);
        }
    }
    if (v->nlaunches == 1) row->st = row->launch_st[0];
    else derive_sum(c, row->launch_st, row->nlaunches_run, &row->st);
    if (row->ran && v->nchecks) {
        row->check = CHECK_PASS;
        for (uint32_t k = 0; k < v->nchecks; k++) {
            const WlCheck *ck = &v->checks[k];
            if (ck->kind == WL_CHECK_SAME_AS) {
                if (!opt->store) continue;
                run.other[k] = opt->store->data[(size_t)ck->variant * w->nbuffers + ck->buffer];
            }
            WlCheckResult cr;
            workload_compare(w, v, k, &run, &cr);
            if (!cr.pass && row->check == CHECK_PASS) {
                row->check = CHECK_FAIL;
                row->error = joined("check failed: ", cr.text);
            }
        }
    }
    if (row->ran && opt->store) store_keep(opt->store, v, &run);
    if (opt->dump_dir) row->dump_error = dump(opt, w, v, &run);
    free(res);
    gpu_session_destroy(gpu);
    workload_run_free(&run);
}
