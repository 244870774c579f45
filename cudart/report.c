/* cudart/report.c -- what gpusim exec prints when the program ends: one
** row per kernel as nsys/ncu summaries give them (launches, shape,
** registers, simulated time, occupancy and its limiter, DRAM bandwidth,
** what binds it (explain_bound_name), the top warp state) and the sentence gpusim run writes under a variant
** (cli/explain.h), on stderr; the same as JSON to GPUSIM_REPORT; the
** per-line view of each kernel with GPUSIM_SOURCE; then every call the
** program made that gpusim does not implement. Columns: docs/CUDA.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonstr.h"
#include "cli/explain.h"
#include "cli/report.h"
#include "cli/srcview.h"
#include "cudart/runtime.h"
#include "sim/derive.h"
#include "sim/occupancy.h"

/* A kernel's timed launches as one (derive_sum), and its why-sentence,
** written as gpusim run writes a variant's: a one-row report. */
typedef struct {
    KernelStats st;
    char        why[1024];
    StallReason top;
    bool        timed;
} KernelSummary;

static void summarize(const Runtime *rt, const RtKernel *k, KernelSummary *s)
{
    memset(s, 0, sizeof *s);
    s->timed = k->timed > 0;
    if (!s->timed) return;
    derive_sum(&rt->cfg, k->launch_st, k->timed, &s->st);
    WlLaunch *launches = calloc(k->timed, sizeof *launches);
    if (launches) {
        for (uint32_t i = 0; i < k->timed; i++) memcpy(launches[i].block, k->block, sizeof k->block);
        WlVariant v = { .launches = launches, .nlaunches = k->timed };
        snprintf(v.name, sizeof v.name, "%s", k->kernel->name);
        RunRow row = { .v = &v, .ran = true, .status = SIM_OK, .st = s->st, .launch_st = k->launch_st,
                       .nlaunches_run = k->timed, .ratio = 1 };
        RunReport r = { .c = &rt->cfg, .rows = &row, .nrows = 1 };
        explain_row(&r, 0, s->why, sizeof s->why);
        free(launches);
    }
    uint64_t best = 0;
    for (int i = 0; i < STALL_REASONS; i++)
        if (s->st.stall[i] > best) best = s->st.stall[i], s->top = (StallReason)i;
}

static void dims(char *buf, size_t cap, const uint32_t d[3])
{
    if (d[1] == 1 && d[2] == 1) snprintf(buf, cap, "%u", d[0]);
    else if (d[2] == 1) snprintf(buf, cap, "%ux%u", d[0], d[1]);
    else snprintf(buf, cap, "%ux%ux%u", d[0], d[1], d[2]);
}

static void duration(char *buf, size_t cap, double us)
{
    if (us >= 1e4) snprintf(buf, cap, "%.2f ms", us / 1e3);
    else snprintf(buf, cap, us < 10 ? "%.2f us" : "%.1f us", us);
}

static const char *kernel_title(const RtKernel *k)
{
    return k->kernel ? (k->kernel->signature ? k->kernel->signature : k->kernel->name) : k->mangled;
}

static void report_kernel_text(FILE *out, const RtKernel *k, const KernelSummary *s)
{
    char grid[48], block[48], total[32], mean[32], launches[48];
    dims(grid, sizeof grid, k->grid);
    dims(block, sizeof block, k->block);
    if (k->timed == k->launches) snprintf(launches, sizeof launches, "%u", k->launches);
    else snprintf(launches, sizeof launches, "%u (%u timed)", k->launches, k->timed);
    const char *name = k->kernel ? k->kernel->name : k->mangled;
    fprintf(out, "  %-24.24s %-12s %-9s%s %-7s %4u", name, launches, grid, k->shapes_vary ? "*" : " ", block, k->regs);
    if (!s->timed) {
        fprintf(out, k->failed == k->launches ? "  failed\n" : "  not timed\n");
        return;
    }
    duration(total, sizeof total, s->st.time_us);
    duration(mean, sizeof mean, s->st.time_us / k->timed);
    fprintf(out, "  %10s %10s  %3.0f%%/%3.0f%%  %-9s %9.0f  %-7s  %s %.0f%%\n", total, mean,
            100.0 * s->st.theoretical_occupancy, 100.0 * s->st.active_occupancy,
            s->st.occ.limiter == OCC_SHARED_MEMORY ? "smem" : occupancy_limiter_name(s->st.occ.limiter),
            s->st.dram_bandwidth_gbs, explain_bound_name(&s->st), STALL_NAMES[s->top], 100.0 * s->st.stall_share[s->top]);
}

static void report_text_all(FILE *out, const Runtime *rt, const KernelSummary *sums)
{
    uint64_t launches = 0, kernels = 0;
    for (uint32_t i = 0; i < rt->nkernels; i++)
        if (rt->kernels[i]->launches) launches += rt->kernels[i]->launches, kernels++;
    char simulated[32];
    duration(simulated, sizeof simulated, 1e3 * rt_cycles_to_ms(rt, rt->clock));
    fprintf(out, "\n== gpusim exec: %s on %s (%s, %u SMs, %.0f MHz): %llu kernel%s, %llu launch%s, %s simulated\n",
            rt->program, rt->cfg.name, rt->cfg.description, rt->cfg.sm_count, rt->cfg.clock_mhz,
            (unsigned long long)kernels, kernels == 1 ? "" : "s", (unsigned long long)launches,
            launches == 1 ? "" : "es", simulated);
    if (!kernels) {
        fprintf(out, "  (no kernel was launched)\n");
    } else {
        fprintf(out, "  %-24s %-12s %-10s %-7s %4s  %10s %10s  %-9s  %-9s %9s  %-7s  %s\n", "kernel", "launches",
                "grid", "block", "regs", "time", "mean", "occupancy", "limiter", "DRAM GB/s", "bound", "top warp state");
        for (uint32_t i = 0; i < rt->nkernels; i++)
            if (rt->kernels[i]->launches) report_kernel_text(out, rt->kernels[i], &sums[i]);
        for (uint32_t i = 0; i < rt->nkernels; i++) {
            const RtKernel *k = rt->kernels[i];
            if (!k->launches) continue;
            fprintf(out, "  %s", kernel_title(k));
            if (sums[i].timed) fprintf(out, ": %s", sums[i].why);
            if (k->failed) fprintf(out, " (%u launch%s failed)", k->failed, k->failed == 1 ? "" : "es");
            if (k->zero_copy)
                fprintf(out, "; %u launch%s passed a pointer to pinned host memory, whose accesses are timed as device "
                        "memory's (the link to the host is not modelled)", k->zero_copy, k->zero_copy == 1 ? "" : "es");
            fputc('\n', out);
        }
    }
    for (uint32_t i = 0; i < rt->nmodules; i++)
        if (rt->modules[i]->failed)
            fprintf(out, "  device code %s could not be loaded: %s\n", rt->modules[i]->name, rt->modules[i]->message);
    for (uint32_t i = 0; i < rt->nmissing; i++)
        fprintf(out, "gpusim: %s called %s, which gpusim does not implement (%llu call%s: each returned "
                "cudaErrorNotSupported)\n", rt->program, rt->missing[i].name, (unsigned long long)rt->missing[i].calls,
                rt->missing[i].calls == 1 ? "" : "s");
}

static void report_source(FILE *out, const Runtime *rt, const KernelSummary *sums)
{
    bool legend = false;
    for (uint32_t i = 0; i < rt->nkernels; i++) {
        const RtKernel *k = rt->kernels[i];
        if (!k->pcs || !sums[i].timed) continue;
        if (!legend) srcview_legend(out), legend = true;
        SrcListing *l = srcview_open(&k->module->program, k->module->name);
        if (!l) continue;
        char title[256];
        snprintf(title, sizeof title, "%s, %u timed launch%s summed", kernel_title(k), k->timed, k->timed == 1 ? "" : "es");
        SrcKernel sk = { k->kernel, k->pcs, &sums[i].st, title, false };
        if (!srcview_text(out, l, &sk)) fputs("(out of host memory for the source view)\n", out);
        srcview_close(l);
    }
}

static void json_dims(FILE *out, const uint32_t d[3])
{
    fprintf(out, "[%u, %u, %u]", d[0], d[1], d[2]);
}

static void report_json_all(FILE *out, const Runtime *rt, const KernelSummary *sums)
{
    fputs("{\"program\": ", out);
    jsonstr_write(out, rt->program);
    fputs(", \"gpu\": ", out);
    jsonstr_write(out, rt->cfg.name);
    fputs(", \"simulated_ms\": ", out);
    jsonstr_number(out, rt_cycles_to_ms(rt, rt->clock));
    fputs(", \"kernels\": [", out);
    bool first = true;
    for (uint32_t i = 0; i < rt->nkernels; i++) {
        const RtKernel *k = rt->kernels[i];
        const KernelSummary *s = &sums[i];
        if (!k->launches) continue;
        fputs(first ? "\n  {\"name\": " : ",\n  {\"name\": ", out);
        first = false;
        jsonstr_write(out, k->kernel ? k->kernel->name : k->mangled);
        fputs(", \"signature\": ", out);
        jsonstr_write(out, kernel_title(k));
        fputs(", \"mangled\": ", out);
        jsonstr_write(out, k->mangled);
        fprintf(out, ", \"launches\": %u, \"timed\": %u, \"failed\": %u, \"grid\": ", k->launches, k->timed, k->failed);
        json_dims(out, k->grid);
        fputs(", \"block\": ", out);
        json_dims(out, k->block);
        fprintf(out, ", \"shapes_vary\": %s, \"registers\": %u, \"zero_copy_launches\": %u", k->shapes_vary ? "true" : "false",
                k->regs, k->zero_copy);
        if (!s->timed) {
            fputs(", \"time_us\": null, \"mean_us\": null, \"why\": null, \"stats\": null}", out);
            continue;
        }
        fputs(", \"time_us\": ", out);
        jsonstr_number(out, s->st.time_us);
        fputs(", \"mean_us\": ", out);
        jsonstr_number(out, s->st.time_us / k->timed);
        fputs(", \"limiter\": ", out);
        jsonstr_write(out, occupancy_limiter_name(s->st.occ.limiter));
        fputs(", \"bound\": ", out);
        jsonstr_write(out, explain_bound_name(&s->st));
        fputs(", \"top_warp_state\": ", out);
        jsonstr_write(out, STALL_NAMES[s->top]);
        fputs(", \"why\": ", out);
        jsonstr_write(out, s->why);
        fputs(", \"stats\": ", out);
        report_json_stats(out, &s->st, true);
        fputc('}', out);
    }
    fputs("\n], \"unimplemented_calls\": [", out);
    for (uint32_t i = 0; i < rt->nmissing; i++) {
        fputs(i ? ", {\"call\": " : "{\"call\": ", out);
        jsonstr_write(out, rt->missing[i].name);
        fprintf(out, ", \"calls\": %llu}", (unsigned long long)rt->missing[i].calls);
    }
    fputs("]}\n", out);
}

void rt_report(Runtime *rt)
{
    if (!rt->ready) return;
    KernelSummary *sums = calloc(rt->nkernels ? rt->nkernels : 1, sizeof *sums);
    if (!sums) return;
    for (uint32_t i = 0; i < rt->nkernels; i++) summarize(rt, rt->kernels[i], &sums[i]);
    fflush(stdout);
    if (rt->source) report_source(stderr, rt, sums);
    report_text_all(stderr, rt, sums);
    if (rt->report_path && *rt->report_path) {
        FILE *f = fopen(rt->report_path, "w");
        if (f) {
            report_json_all(f, rt, sums);
            if (fclose(f) != 0) fprintf(stderr, "gpusim: writing %s failed\n", rt->report_path);
        } else {
            fprintf(stderr, "gpusim: cannot write the report to %s\n", rt->report_path);
        }
    }
    free(sums);
}
