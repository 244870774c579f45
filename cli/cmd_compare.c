/* cli/cmd_compare.c -- `gpusim compare RESULTS.json`: simulate what the
** validate runner measured on hardware (validate/README.md, "The results
** file") and put the two side by side.
**
** Each record names a workload file, a variant, the sizes it ran at and the
** twin's registers per thread; the same variant is simulated at the same
** sizes on the preset of the recorded device, with those registers (except
** for records that emulate a register count with unused shared memory: they
** are simulated as the workload file says). What is compared is the ratio of
** each variant to its workload's first variant, as the teaching material
** reasons in ratios; absolute times are shown too. Occupancy is compared
** exactly: blocks per SM from gpusim's calculator for the twin's launch
** against cudaOccupancyMaxActiveBlocksPerMultiprocessor.
** --from-ptx simulates the twins' own kernels instead of the hand-written
** mini-ISA ones: validate/twins/<workload>.cu compiled with nvcc -ptx for
** the preset's sm (workloads/cuda.h), the record's kernel (the bare
** function name; a twin of one kernel stands for all its variants) in
** place of the .asm kernel, with the workload's buffers
** and arguments (the twins take the .asm kernels' parameters in the same
** order; a record whose twin differs is not simulated, with a note). The
** PTX is timed as the SASS it becomes, except that ptxas's loop unrolling
** and scheduling are not emulated (docs/PTX.md).
** Exit status: 0 ok; 1 a target given with --max-* is missed, or a record
** could not be simulated; 2 bad input.                                     */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/jsonparse.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "cli/report.h"
#include "isa/load.h"
#include "isa/ptx.h"
#include "sim/occupancy.h"
#include "workloads/cuda.h"

#define COMPARE_MAX_FILE_BYTES (64u << 20)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim compare RESULTS.json [--json] [--gpu NAME|FILE] [--only WORKLOAD]...\n"
            "                      [--max-median-error F] [--max-error F] [--max-occupancy-mismatches N]\n"
            "                      [--jobs N] [--threads N]\n\n"
            "Simulates every workload variant recorded by gpusim-validate (validate/README.md) on the\n"
            "preset of the recorded device, at the recorded sizes and registers per thread, and prints\n"
            "hardware and simulation side by side: each variant's time as a ratio to its workload's\n"
            "first variant (hw and sim), the error of the simulated ratio (sim/hw - 1), and absolute\n"
            "times; then a summary and the occupancy comparison (gpusim's blocks per SM against\n"
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor for the same launch).\n\n"
            "  --json                         print one JSON object instead of the tables; each\n"
            "                                 simulated pair has sim_stats, its stats under\n"
            "                                 gpusim run --json's names (Nsight Compute's too)\n"
            "  --gpu NAME|FILE                simulate on this machine instead of the recorded preset\n"
            "  --only WORKLOAD                compare only this workload (repeatable)\n"
            "  --no-simulation                check launches and occupancy only (fast; no ratios)\n"
            "  --from-ptx                     simulate the twins' own PTX (validate/twins/*.cu, compiled\n"
            "                                 with nvcc) instead of the mini-ISA kernels; ptxas's loop\n"
            "                                 unrolling is not emulated, so unrolled loops cost more here\n"
            "  --max-median-error F           exit 1 when the median |ratio error| exceeds F (0.10 = 10%%)\n"
            "  --max-error F                  exit 1 when any |ratio error| exceeds F\n"
            "  --max-occupancy-mismatches N   exit 1 when more occupancy figures differ (default 0)\n"
            "  --jobs N                       records simulated at a time (default: the cores, here %u,\n"
            "                                 over --threads); the tables are the same for every N\n"
            "  --threads N                    each launch on N host threads (as gpusim run)\n\n"
            "Workload files are looked up relative to the current directory, then to the source tree.\n"
            "Progress: a line on stderr per record, in record order; on a terminal with the time elapsed\n"
            "and the time left at the pace so far.\n"
            "Exit status: 0 ok, 1 a target missed or a record could not be simulated, 2 bad input.\n",
            jobs_default());
}

typedef struct {
    const char *workload, *variant, *file;
    double      hw_ms;
    bool        base;             /* the workload's first variant               */
    double      hw_ratio, sim_ratio, ratio_error, sim_us;
    bool        simulated;
    KernelStats sim_stats;        /* the simulated run's (--json: "sim_stats")  */
    uint32_t    hw_bps, sim_bps;  /* blocks per SM: CUDA API, gpusim           */
    bool        occ_compared;
    char        note[1024];
    const cJSON *rec;             /* its record in the results file            */
    bool        ok;               /* simulate_record's answer                  */
} Pair;

typedef struct {
    const char  *results;
    const char  *gpu;
    const char **only;
    size_t       nonly;
    bool         json;
    bool         no_simulation; /* --no-simulation: launches and occupancy only */
    bool         from_ptx;      /* --from-ptx: the twins' PTX instead of the .asm  */
    double       max_median, max_error; /* < 0: no target */
    long         max_occ_mismatch;
    uint32_t     jobs;          /* records simulated at a time             */
    uint32_t     threads;       /* --threads N: per launch                 */
} CompareArgs;

static bool parse_fraction(const char *flag, const char *s, double *out)
{
    double v;
    if (cli_number_double(s, &v) && v >= 0 && v < 1e6) {
        *out = v;
        return true;
    }
    cli_error("compare", "%s expects a non-negative number (0.1 = 10%%), got '%s'", flag, s);
    return false;
}

static int parse_args(int argc, char **argv, CompareArgs *a)
{
    memset(a, 0, sizeof *a);
    a->max_median = a->max_error = -1;
    a->jobs = 0; /* 0 until given: the default depends on --threads */
    a->only = calloc((size_t)argc, sizeof *a->only);
    if (!a->only) return EXIT_BAD_INPUT;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        if (cli_is_help(arg)) {
            usage(stdout);
            return -1;
        }
        if (cli_option(argc, argv, &i, "--gpu", &value)) {
            if (!value) return cli_error("compare", "--gpu needs a value");
            a->gpu = value;
        } else if (cli_option(argc, argv, &i, "--only", &value)) {
            if (!value) return cli_error("compare", "--only needs a value");
            a->only[a->nonly++] = value;
        } else if (cli_option(argc, argv, &i, "--max-median-error", &value)) {
            if (!value || !parse_fraction("--max-median-error", value, &a->max_median)) return EXIT_BAD_INPUT;
        } else if (cli_option(argc, argv, &i, "--threads", &value)) {
            Diag d;
            if (!cli_parse_u32(value, "--threads", &a->threads, 1, GPU_MAX_THREADS, &d))
                return cli_error("compare", "--threads: %s", d.message);
        } else if (cli_option(argc, argv, &i, "--max-error", &value)) {
            if (!value || !parse_fraction("--max-error", value, &a->max_error)) return EXIT_BAD_INPUT;
        } else if (cli_option(argc, argv, &i, "--max-occupancy-mismatches", &value)) {
            double v;
            if (!value || !parse_fraction("--max-occupancy-mismatches", value, &v) || v != floor(v))
                return value ? EXIT_BAD_INPUT : cli_error("compare", "--max-occupancy-mismatches needs a value");
            a->max_occ_mismatch = (long)v;
        } else if (cli_option(argc, argv, &i, "--jobs", &value)) {
            if (!value) return cli_error("compare", "--jobs needs a value");
            if (!jobs_parse(value, &a->jobs))
                return cli_error("compare", "--jobs expects a number of records at a time, 1 to %d, got '%s'",
                                 JOBS_MAX, value);
        } else if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (strcmp(arg, "--no-simulation") == 0) {
            a->no_simulation = true;
        } else if (strcmp(arg, "--from-ptx") == 0) {
            a->from_ptx = true;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_error("compare", "unknown option '%s' (see gpusim compare --help)", arg);
        } else if (a->results) {
            return cli_error("compare", "one results file at a time ('%s' and '%s')", a->results, arg);
        } else {
            a->results = arg;
        }
    }
    if (!a->results) {
        fprintf(stderr, "gpusim compare: error: no results file given\n");
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (!a->jobs) a->jobs = jobs_default_for(a->threads);
    return EXIT_OK;
}

static char *read_file(const char *path, size_t *len, Diag *d)
{
    char *text, why[256];
    FileReadStatus st = file_read(path, COMPARE_MAX_FILE_BYTES, &text, len, why, sizeof why);
    if (st != FILE_READ_OK) diag_set(d, path, 0, 0, st == FILE_READ_CANNOT_OPEN ? "cannot open: %s" : "%s", why);
    return text;
}

/* The workload file of a record: as given (relative to the working
** directory), else relative to the source tree gpusim was built from. */
static bool find_workload(const char *file, char *out, size_t cap)
{
    if (access(file, R_OK) == 0) {
        snprintf(out, cap, "%s", file);
        return true;
    }
    snprintf(out, cap, "%s/%s", GPUSIM_SOURCE_DIR, file);
    return access(out, R_OK) == 0;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool num_of(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) return false;
    *out = v->valuedouble;
    return true;
}

static bool dims_of(const cJSON *o, const char *key, uint32_t out[3])
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    out[0] = out[1] = out[2] = 1;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > 3) return false;
    for (int i = 0; i < cJSON_GetArraySize(v); i++) {
        const cJSON *e = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(e) || e->valuedouble < 1 || e->valuedouble > UINT32_MAX) return false;
        out[i] = (uint32_t)e->valuedouble;
    }
    return true;
}

/* Simulates one record into *p. Returns false (with p->note) when it could
** not be simulated; bad records are reported, not fatal. */
/* Puts the twin's PTX kernel for the record in place of v's mini-ISA one. */
static bool use_twin_ptx(const cJSON *rec, const GpuConfig *cfg, Workload *w, const WlVariant *v, Pair *p)
{
    char cu[4096], rel[512], ptx_path[1200];
    snprintf(rel, sizeof rel, "validate/twins/%s.cu", p->workload);
    if (!find_workload(rel, cu, sizeof cu)) {
        snprintf(p->note, sizeof p->note, "no twin %s", rel);
        return false;
    }
    char *text;
    size_t len;
    Diag d;
    if (!cuda_compile(cu, cfg->compute_capability, NULL, 0, &text, &len, ptx_path, sizeof ptx_path, &d)) {
        snprintf(p->note, sizeof p->note, "%.900s", d.message);
        return false;
    }
    Program ptx;
    bool ok = ptx_parse(text, len, ptx_path, &ptx, &d);
    if (ok) cuda_ptxas_regs(&ptx, text, len, cfg->compute_capability);
    free(text);
    if (!ok) {
        snprintf(p->note, sizeof p->note, "%.100s:%u:%u: %.800s", d.file, d.line, d.col, d.message);
        return false;
    }
    /* each launch's kernel: the record's "kernel", or its launches' own */
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(rec, "launches");
    const Kernel *kernels[16] = { NULL };
    if (v->nlaunches > 16) ok = false;
    for (uint32_t l = 0; ok && l < v->nlaunches; l++) {
        const cJSON *lrec = cJSON_IsArray(seq) ? cJSON_GetArrayItem(seq, (int)l) : rec;
        const char *kname = str_of(lrec, "kernel");
        char why[1024] = "no kernel named in the record";
        const Kernel *k = kname ? program_match_kernel(&ptx, kname, why, sizeof why) : NULL;
        if (!k && ptx.nkernels == 1) k = &ptx.kernels[0]; /* one twin kernel for every variant (registers) */
        if (k && k->refused) snprintf(why, sizeof why, "%s", k->refused), k = NULL;
        if (!k || k->nparams != v->launches[l].kernel->nparams) {
            snprintf(p->note, sizeof p->note, "%s",
                     !k ? why : "the twin's kernel takes other parameters than the .asm kernel");
            ok = false;
        }
        kernels[l] = k;
    }
    if (!ok) {
        program_destroy(&ptx);
        return false;
    }
    char *file = strdup(ptx_path);
    if (!file) {
        program_destroy(&ptx);
        return false;
    }
    program_destroy(&w->program);
    w->program = ptx;
    for (uint32_t i = 0; i < w->nvariants; i++) /* only v runs */
        for (uint32_t l = 0; l < w->variants[i].nlaunches; l++) w->variants[i].launches[l].kernel = NULL;
    for (uint32_t l = 0; l < v->nlaunches; l++)
        ((WlVariant *)v)->launches[l].kernel = &w->program.kernels[kernels[l] - ptx.kernels];
    free(w->kernel_file);
    w->kernel_file = file;
    return true;
}

static bool simulate_record(const cJSON *rec, const GpuConfig *cfg, bool simulate, bool from_ptx, bool progress,
                            uint32_t threads,
                            Pair *p)
{
    char path[4096];
    if (!find_workload(p->file, path, sizeof path)) {
        snprintf(p->note, sizeof p->note, "workload file %s not found", p->file);
        return false;
    }
    /* --param name=value for every recorded size parameter */
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(rec, "params");
    int np = cJSON_IsObject(params) ? cJSON_GetArraySize(params) : 0;
    char **ov = calloc((size_t)np + 1, sizeof *ov);
    int nov = 0;
    bool ok = ov != NULL;
    for (const cJSON *e = cJSON_IsObject(params) ? params->child : NULL; ok && e; e = e->next) {
        char buf[256];
        if (cJSON_IsNumber(e)) snprintf(buf, sizeof buf, "%s=%.17g", e->string, e->valuedouble);
        else if (cJSON_IsString(e)) snprintf(buf, sizeof buf, "%s=%s", e->string, e->valuestring);
        else continue;
        ov[nov] = strdup(buf);
        ok = ov[nov++] != NULL;
    }
    Workload w;
    Diag d;
    memset(&w, 0, sizeof w);
    if (ok && !workload_load(path, cfg, (const char *const *)ov, (size_t)nov, &w, &d)) {
        snprintf(p->note, sizeof p->note, "%.900s", d.message);
        ok = false;
    }
    const WlVariant *v = ok ? workload_find_variant(&w, p->variant) : NULL;
    if (ok && !v) {
        snprintf(p->note, sizeof p->note, "%s has no variant '%s'", p->file, p->variant);
        ok = false;
    }
    if (ok && from_ptx) ok = use_twin_ptx(rec, cfg, &w, v, p);
    /* the twin's launches: "launches" (several, in order) or "launch" (one),
    ** each with its registers and CUDA's blocks per SM where the record has them */
    bool emulates = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(rec, "emulates"));
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(rec, "launches");
    uint32_t nrec = cJSON_IsArray(seq) ? (uint32_t)cJSON_GetArraySize(seq) : 1;
    uint32_t regs_of[16] = { 0 };
    if (ok && nrec != v->nlaunches) {
        snprintf(p->note, sizeof p->note, "launch differs: hw %u launches, %s has %u", nrec, p->variant, v->nlaunches);
        nrec = 0;
    }
    for (uint32_t k = 0; ok && k < nrec && k < 16; k++) {
        const cJSON *launch = cJSON_IsArray(seq) ? cJSON_GetArrayItem(seq, (int)k) : cJSON_GetObjectItemCaseSensitive(rec, "launch");
        const cJSON *facts = cJSON_IsArray(seq) ? launch : rec; /* regs, blocks_per_sm, static_smem */
        const WlLaunch *l = &v->launches[k];
        double regs = 0, dsmem = 0, static_smem = 0, hw_bps;
        uint32_t grid[3], block[3];
        num_of(facts, "regs", &regs);
        bool have_launch = dims_of(launch, "grid", grid) && dims_of(launch, "block", block);
        num_of(launch, "dynamic_smem", &dsmem);
        num_of(facts, "static_smem", &static_smem);
        regs_of[k] = emulates || regs < 1 ? 0 : (uint32_t)regs;
        if (have_launch && !p->note[0] &&
            (memcmp(grid, l->grid, sizeof grid) != 0 || memcmp(block, l->block, sizeof block) != 0))
        {
            char which[16] = "";
            if (nrec > 1) snprintf(which, sizeof which, " %u", k);
            snprintf(p->note, sizeof p->note, "launch%s differs: hw grid %ux%ux%u block %ux%ux%u", which, grid[0],
                     grid[1], grid[2], block[0], block[1], block[2]);
        }
        /* Occupancy of the twin's own launch, as the CUDA API computed it;
        ** of several launches, the first that disagrees is the one shown. */
        if (have_launch && regs >= 1 && num_of(facts, "blocks_per_sm", &hw_bps)) {
            OccResult occ;
            occupancy_compute(cfg, block[0] * block[1] * block[2], (uint32_t)regs, (uint32_t)static_smem,
                              (uint32_t)dsmem, &occ, &d);
            if (!p->occ_compared || p->hw_bps == p->sim_bps) {
                p->hw_bps = (uint32_t)hw_bps;
                p->sim_bps = occ.blocks_per_sm;
            }
            p->occ_compared = true;
        }
    }
    if (ok && simulate) {
        RunRow row;
        /* same_as checks are left out (no store): gpusim run makes them */
        VariantOptions opt = { .max_cycles = VARIANT_BUDGET_AUTO, .max_instructions = VARIANT_BUDGET_AUTO,
                               .regs = v->nlaunches == 1 ? regs_of[0] : 0, .launch_regs = regs_of,
                               .label = v->name, .progress = progress, .threads = threads };
        variant_run(cfg, &w, v, &opt, &row);
        if (!row.ran || row.check == CHECK_FAIL) {
            snprintf(p->note, sizeof p->note, "simulation: %s", row.error ? row.error : gpu_status_name(row.status));
            ok = false;
        } else {
            p->sim_us = row.st.time_us;
            p->sim_stats = row.st;
            p->simulated = true;
        }
        variant_row_free(&row);
    }
    workload_destroy(&w);
    for (int i = 0; i < nov; i++) free(ov[i]);
    free(ov);
    return ok;
}

/* The records, --jobs at a time; their progress lines in record order. */
typedef struct {
    const CompareArgs *args;
    const GpuConfig   *cfg;
    Pair              *pairs;
    uint32_t           npairs, failed;
    bool               tty;
    double             started; /* cli_now_seconds() when the first began */
} RecordJobs;

static void record_run(void *user, uint32_t i)
{
    RecordJobs *j = user;
    Pair *p = &j->pairs[i];
    p->ok = simulate_record(p->rec, j->cfg, !j->args->no_simulation, j->args->from_ptx,
                            j->tty && j->args->jobs <= 1, j->args->threads, p);
}

static void record_done(void *user, uint32_t i)
{
    RecordJobs *j = user;
    const Pair *p = &j->pairs[i];
    if (!p->ok) j->failed++;
    if (j->args->json || j->args->no_simulation) return;
    if (!j->tty) { /* the same lines for every --jobs, for scripts */
        fprintf(stderr, "simulated %u/%u %s/%s\n", i + 1, j->npairs, p->workload, p->variant);
        return;
    }
    /* on a terminal, how long the rest will take at the pace so far */
    char elapsed[32], left[32];
    double t = cli_now_seconds() - j->started;
    cli_clock_text(t, elapsed, sizeof elapsed);
    cli_clock_text(t / (i + 1) * (j->npairs - i - 1), left, sizeof left);
    fprintf(stderr, "simulated %u/%u %s/%s  (%s elapsed, ~%s left)\n", i + 1, j->npairs, p->workload, p->variant,
            elapsed, left);
}

/* "sim_stats": the simulated run's stats as `gpusim run --json` names them
** (the table of cli/report.c), and its stall reasons' warp-cycles: what a
** hardware counters file is compared with (validate/counters.py). */
static void add_sim_stats(cJSON *e, const KernelStats *st)
{
    cJSON *o = cJSON_AddObjectToObject(e, "sim_stats");
    for (size_t i = 0; i < report_stat_count(); i++) {
        double v;
        if (report_metric(st, report_stat_name(i), &v) && isfinite(v)) cJSON_AddNumberToObject(o, report_stat_name(i), v);
    }
    cJSON *sr = cJSON_AddObjectToObject(o, "stall_reasons");
    for (int k = 0; k < STALL_REASONS; k++) cJSON_AddNumberToObject(sr, STALL_NAMES[k], (double)st->stall[k]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What the table's last lines and the bounds read. */
typedef struct {
    double      median, max_err, mape;
    const Pair *worst;
    uint32_t    nerr, within10, within20, ntime, occ_compared, occ_mismatch;
} Summary;

/* The records compare takes: the teaching workloads (microbenchmarks
** calibrate the preset), --workload's if given, measured and correct.
** Returns how many went into pairs[]. */
static uint32_t pick_records(const CompareArgs *args, const cJSON *variants, Pair *pairs)
{
    uint32_t npairs = 0;
    int nrec = cJSON_GetArraySize(variants);
    for (int i = 0; i < nrec; i++) {
        const cJSON *rec = cJSON_GetArrayItem(variants, i);
        Pair *p = &pairs[npairs];
        p->workload = str_of(rec, "workload");
        p->variant = str_of(rec, "variant");
        p->file = str_of(rec, "file");
        if (!p->workload || !p->variant || !p->file || strncmp(p->file, "workloads/", 10) != 0) continue;
        bool wanted = args->nonly == 0;
        for (size_t k = 0; k < args->nonly; k++) wanted |= strcmp(args->only[k], p->workload) == 0;
        const cJSON *correct = cJSON_GetObjectItemCaseSensitive(rec, "correct");
        if (!wanted || !num_of(rec, "ms", &p->hw_ms) || p->hw_ms <= 0 || !cJSON_IsTrue(correct)) continue;
        p->rec = rec;
        npairs++;
    }
    return npairs;
}

/* Ratios to each workload's first (simulated) variant, then the errors'
** median, maximum and counts, the time MAPE and the occupancy agreement. */
static bool summarize(Pair *pairs, uint32_t npairs, Summary *sum)
{
    for (uint32_t i = 0; i < npairs; i++) {
        Pair *p = &pairs[i];
        const Pair *base = NULL;
        for (uint32_t j = 0; j < npairs && !base; j++)
            if (pairs[j].simulated && strcmp(pairs[j].workload, p->workload) == 0) base = &pairs[j];
        p->base = base == p;
        if (!p->simulated || !base) continue;
        p->hw_ratio = p->hw_ms / base->hw_ms;
        p->sim_ratio = p->sim_us / base->sim_us;
        p->ratio_error = p->sim_ratio / p->hw_ratio - 1;
    }
    double *errs = calloc((size_t)npairs + 1, sizeof *errs);
    if (!errs) return false;
    memset(sum, 0, sizeof *sum);
    for (uint32_t i = 0; i < npairs; i++) {
        const Pair *p = &pairs[i];
        if (p->occ_compared) {
            sum->occ_compared++;
            sum->occ_mismatch += p->hw_bps != p->sim_bps;
        }
        if (!p->simulated) continue;
        sum->mape += fabs(p->sim_us / (p->hw_ms * 1000.0) - 1);
        sum->ntime++;
        if (p->base) continue; /* its ratio is 1 on both sides by definition */
        double e = fabs(p->ratio_error);
        errs[sum->nerr++] = e;
        sum->within10 += e <= 0.10;
        sum->within20 += e <= 0.20;
        if (e >= sum->max_err) sum->max_err = e, sum->worst = p;
    }
    uint32_t n = sum->nerr;
    qsort(errs, n, sizeof *errs, cmp_double);
    sum->median = n == 0 ? 0 : n % 2 ? errs[n / 2] : (errs[n / 2 - 1] + errs[n / 2]) / 2;
    sum->mape = sum->ntime ? sum->mape / sum->ntime : 0;
    free(errs);
    return true;
}

static void print_json(const Pair *pairs, uint32_t npairs, const Summary *sum)
{
    cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "pairs");
    for (uint32_t i = 0; i < npairs; i++) {
        const Pair *p = &pairs[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "workload", p->workload);
        cJSON_AddStringToObject(e, "variant", p->variant);
        cJSON_AddNumberToObject(e, "hw_ms", p->hw_ms);
        if (p->simulated) {
            cJSON_AddNumberToObject(e, "hw_ratio", p->hw_ratio);
            cJSON_AddNumberToObject(e, "sim_ratio", p->sim_ratio);
            cJSON_AddNumberToObject(e, "ratio_error", p->ratio_error);
            cJSON_AddNumberToObject(e, "sim_us", p->sim_us);
            add_sim_stats(e, &p->sim_stats);
        } else {
            cJSON_AddNullToObject(e, "hw_ratio");
            cJSON_AddNullToObject(e, "sim_ratio");
            cJSON_AddNullToObject(e, "ratio_error");
            cJSON_AddNullToObject(e, "sim_us");
        }
        if (p->occ_compared) {
            cJSON_AddNumberToObject(e, "hw_blocks_per_sm", p->hw_bps);
            cJSON_AddNumberToObject(e, "sim_blocks_per_sm", p->sim_bps);
        }
        if (p->note[0]) cJSON_AddStringToObject(e, "note", p->note);
        cJSON_AddItemToArray(arr, e);
    }
    cJSON *s = cJSON_AddObjectToObject(o, "summary");
    cJSON_AddNumberToObject(s, "median_abs_ratio_error", sum->median);
    cJSON_AddNumberToObject(s, "max_abs_ratio_error", sum->max_err);
    cJSON_AddNumberToObject(s, "within_10pct", sum->within10);
    cJSON_AddNumberToObject(s, "within_20pct", sum->within20);
    cJSON_AddNumberToObject(s, "time_mape", sum->mape);
    cJSON_AddNumberToObject(s, "pairs", sum->nerr);
    cJSON *oc = cJSON_AddObjectToObject(o, "occupancy");
    cJSON_AddNumberToObject(oc, "compared", sum->occ_compared);
    cJSON_AddNumberToObject(oc, "mismatches", sum->occ_mismatch);
    char *out = cJSON_Print(o);
    if (out) puts(out);
    free(out);
    cJSON_Delete(o);
}

static void print_table(const CompareArgs *args, const cJSON *root, const GpuConfig *cfg, const Pair *pairs,
                        uint32_t npairs, const Summary *sum)
{
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
    const char *date = str_of(root, "date");
    printf("%s: %u variants measured on %s%s%s, simulated on %s (%s)%s\n\n", args->results, npairs,
           str_of(device, "name") ? str_of(device, "name") : "?", date ? " on " : "", date ? date : "", cfg->name,
           cfg->description,
           args->from_ptx ? ",\nfrom the twins' own PTX (nvcc -ptx; ptxas's loop unrolling not emulated, its scheduling only as loads hoisted within a block)" : "");
    int ww = 15; /* the workload column fits the longest name */
    for (uint32_t i = 0; i < npairs; i++)
        if ((int)strlen(pairs[i].workload) > ww) ww = (int)strlen(pairs[i].workload);
    printf("%-*s %-22s %10s %9s %9s %10s %10s %10s %9s\n", ww, "workload", "variant", "hw ms", "hw ratio",
           "sim ratio", "ratio err", "hw us", "sim us", "time err");
    for (uint32_t i = 0; i < npairs; i++) {
        const Pair *p = &pairs[i];
        if (!p->simulated) {
            printf("%-*s %-22s %10.4f  (not simulated%s%s)\n", ww, p->workload, p->variant, p->hw_ms,
                   p->note[0] ? ": " : "", p->note);
            continue;
        }
        printf("%-*s %-22s %10.4f %9.3f %9.3f %9.1f%% %10.1f %10.1f %8.1f%%%s\n", ww, p->workload, p->variant,
               p->hw_ms, p->hw_ratio, p->sim_ratio, 100 * p->ratio_error, p->hw_ms * 1000, p->sim_us,
               100 * (p->sim_us / (p->hw_ms * 1000) - 1), p->base ? "  (base)" : "");
        if (p->note[0]) printf("%-*s %-22s   note: %s\n", ww, "", "", p->note);
    }
    printf("\nsummary: %u ratio pairs (each workload's first variant is its base and is not counted)\n", sum->nerr);
    printf("  median |ratio error| %.1f%%, max %.1f%%", 100 * sum->median, 100 * sum->max_err);
    if (sum->worst) printf(" (%s/%s)", sum->worst->workload, sum->worst->variant);
    printf("\n");
    printf("  within 10%%: %u of %u, within 20%%: %u of %u\n", sum->within10, sum->nerr, sum->within20, sum->nerr);
    printf("  absolute time, mean |sim/hw - 1| (MAPE): %.1f%% over %u variants\n", 100 * sum->mape, sum->ntime);
    printf("\noccupancy (blocks per SM): gpusim vs cudaOccupancyMaxActiveBlocksPerMultiprocessor: %u compared, "
           "%u mismatches\n", sum->occ_compared, sum->occ_mismatch);
    for (uint32_t i = 0; i < npairs; i++)
        if (pairs[i].occ_compared && pairs[i].hw_bps != pairs[i].sim_bps)
            printf("  MISMATCH %s/%s: CUDA %u, gpusim %u\n", pairs[i].workload, pairs[i].variant, pairs[i].hw_bps,
                   pairs[i].sim_bps);
}

/* The exit status: 1 when a record could not be simulated or a bound
** (--max-median-error, --max-error, --max-occupancy-mismatches) is passed. */
static int bounds_status(const CompareArgs *args, uint32_t failed, const Summary *sum)
{
    int rc = EXIT_OK;
    if (failed) {
        fprintf(stderr, "gpusim compare: %u record(s) could not be simulated\n", failed);
        rc = EXIT_CHECK_FAILED;
    }
    if (args->max_median >= 0 && sum->median > args->max_median) {
        fprintf(stderr, "gpusim compare: median |ratio error| %.3f exceeds --max-median-error %.3f\n", sum->median,
                args->max_median);
        rc = EXIT_CHECK_FAILED;
    }
    if (args->max_error >= 0 && sum->max_err > args->max_error) {
        fprintf(stderr, "gpusim compare: max |ratio error| %.3f (%s/%s) exceeds --max-error %.3f\n", sum->max_err,
                sum->worst ? sum->worst->workload : "?", sum->worst ? sum->worst->variant : "?", args->max_error);
        rc = EXIT_CHECK_FAILED;
    }
    if ((long)sum->occ_mismatch > args->max_occ_mismatch) {
        fprintf(stderr, "gpusim compare: %u occupancy mismatches (allowed %ld)\n", sum->occ_mismatch,
                args->max_occ_mismatch);
        rc = EXIT_CHECK_FAILED;
    }
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    CompareArgs args;
    int rc = parse_args(argc, argv, &args);
    if (rc != EXIT_OK) {
        free(args.only);
        return rc < 0 ? EXIT_OK : rc;
    }
    rc = EXIT_BAD_INPUT;
    Diag d;
    size_t len;
    char *text = read_file(args.results, &len, &d);
    cJSON *root = NULL;
    Pair *pairs = NULL;
    GpuConfig *cfg = malloc(sizeof *cfg);
    if (!text || !cfg) {
        if (!text) diag_print(stderr, &d);
        goto out;
    }
    root = jsonparse_text(text, len, args.results, &d);
    if (!root) {
        diag_print(stderr, &d);
        goto out;
    }
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
    const cJSON *variants = cJSON_GetObjectItemCaseSensitive(root, "variants");
    const char *schema = str_of(root, "schema");
    if (!schema || strcmp(schema, "gpusim-validate/1") != 0 || !cJSON_IsObject(device) || !cJSON_IsArray(variants)) {
        cli_error("compare", "%s: expected a gpusim-validate/1 results file (schema, device, variants)", args.results);
        goto out;
    }
    const char *preset = args.gpu ? args.gpu : str_of(device, "preset");
    if (!preset) {
        cli_error("compare", "%s: device.preset is missing; name the machine with --gpu", args.results);
        goto out;
    }
    if (!cli_load_gpu(preset, NULL, 0, cfg, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    pairs = calloc((size_t)cJSON_GetArraySize(variants) + 1, sizeof *pairs);
    if (!pairs) goto out;
    uint32_t npairs = pick_records(&args, variants, pairs);
    /* each record on its own workload and buffers: --jobs at a time */
    RecordJobs rj = { &args, cfg, pairs, npairs, 0, isatty(STDERR_FILENO), cli_now_seconds() };
    JobSet set = { .ntasks = npairs, .threads = args.jobs, .run = record_run, .done = record_done, .user = &rj };
    jobs_run(&set);
    Summary sum;
    if (!summarize(pairs, npairs, &sum)) goto out;
    if (args.json) print_json(pairs, npairs, &sum);
    else print_table(&args, root, cfg, pairs, npairs, &sum);
    rc = bounds_status(&args, rj.failed, &sum);
out:
    cJSON_Delete(root);
    free(text);
    free(pairs);
    free(cfg);
    free(args.only);
    return rc;
}
