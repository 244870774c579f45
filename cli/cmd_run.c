/* cli/cmd_run.c -- `gpusim run FILE.json`: load a workload for a machine,
** simulate each variant on freshly initialised buffers, check the results
** against the CPU references and print the report (cli/report.h).
** Exit status: 0 all ran and passed; 1 a check failed or a kernel did not
** finish (fault, deadlock, budget: the other variants still run); 2 bad
** input (flags, GPU, workload file), before anything runs.              */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/plot.h"
#include "cli/report.h"
#include "cli/trace_chrome.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim run FILE.json [--gpu NAME|FILE] [--set KEY=VALUE]... [--param NAME=VALUE]...\n"
            "                  [--variant NAME] [--json | --csv] [--trace FILE] [--max-cycles N]\n"
            "                  [--max-instructions N] [--roofline FILE]\n\n"
            "Runs every variant of a workload (workloads/README.md) on a simulated GPU, checks each\n"
            "result against its CPU reference and prints a table: cycles, time, the ratio to the first\n"
            "variant and the metrics that explain it, then one sentence per variant on why it costs\n"
            "what it costs.\n\n"
            "  --gpu NAME|FILE       machine preset (default %s; 'gpusim gpus' lists them) or a JSON file\n"
            "  --set KEY=VALUE       change one machine knob (repeatable), e.g. --set sm.count=200\n"
            "  --param NAME=VALUE    change one workload parameter (repeatable), e.g. --param n=256;\n"
            "                        VALUE may be an expression of machine values (8*sm_count)\n"
            "  --variant NAME        run only this variant\n"
            "  --json                print one JSON object instead of the table\n"
            "  --csv                 print one CSV row per variant instead of the table\n"
            "  --trace FILE          write a Chrome trace (Perfetto, chrome://tracing) of every launch:\n"
            "                        block and warp lifetimes and warp-state counters per SM, a span\n"
            "                        per launch; microseconds of simulated time (args.cycle: cycles)\n"
            "  --max-instructions N  give up on a launch after N warp instructions (0: none); the default\n"
            "                        scales with the launch: " VARIANT_BUDGET_RULE "\n"
            "  --max-cycles N        give up on a launch after N simulated cycles (0: none; default\n"
            "                        1024 per budgeted instruction, a backstop)\n"
            "  --racecheck           report two threads of a block touching one shared-memory word\n"
            "                        between barriers, at least one writing (off by default: ~15%% slower)\n"
            "  --roofline FILE       also draw every variant on the machine's roofline (FP32 and DRAM\n"
            "                        ceilings) as FILE.png, .svg or .pdf (needs PLplot in the build)\n\n"
            "Exit status: 0 every check passed, 1 a check failed or a kernel did not finish\n"
            "(fault, deadlock, budget), 2 bad input.\n",
            CONFIG_DEFAULT_GPU);
}

typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV } OutFormat;

typedef struct {
    const char  *file;
    const char  *gpu;
    char       **sets;
    size_t       nsets;
    const char **params;
    size_t       nparams;
    const char  *variant;
    const char  *trace;
    const char  *roofline;
    OutFormat    format;
    uint64_t     max_cycles, max_instructions;
    bool         racecheck;
} RunArgs;

static bool parse_count(const char *flag, const char *s, uint64_t *out)
{
    if (cli_number_u64(s, true, out)) return true;
    cli_error("run", "%s expects a non-negative integer, got '%s'", flag, s);
    return false;
}

/* Returns EXIT_OK to go on, anything else to exit with (help: -1). */
static int parse_args(int argc, char **argv, RunArgs *a)
{
    memset(a, 0, sizeof *a);
    a->gpu = CONFIG_DEFAULT_GPU;
    a->max_cycles = VARIANT_BUDGET_AUTO;
    a->max_instructions = VARIANT_BUDGET_AUTO;
    a->sets = calloc((size_t)argc, sizeof *a->sets);
    a->params = calloc((size_t)argc, sizeof *a->params);
    if (!a->sets || !a->params) return EXIT_BAD_INPUT;
    bool json = false, csv = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return -1;
        }
        static const char *const with_value[] = { "--gpu", "--set", "--param", "--variant", "--trace",
                                                  "--max-cycles", "--max-instructions", "--roofline", NULL };
        const char *value = NULL, *flag = NULL;
        for (const char *const *f = with_value; *f && !flag; f++)
            if (cli_option(argc, argv, &i, *f, &value)) flag = *f;
        if (flag && !value) return cli_error("run", "%s needs a value", flag);
        if (flag) {
            if (strcmp(flag, "--gpu") == 0) a->gpu = value;
            else if (strcmp(flag, "--set") == 0) a->sets[a->nsets++] = (char *)value;
            else if (strcmp(flag, "--param") == 0) a->params[a->nparams++] = value;
            else if (strcmp(flag, "--variant") == 0) a->variant = value;
            else if (strcmp(flag, "--trace") == 0) a->trace = value;
            else if (strcmp(flag, "--roofline") == 0) a->roofline = value;
            else if (strcmp(flag, "--max-cycles") == 0) {
                if (!parse_count(flag, value, &a->max_cycles)) return EXIT_BAD_INPUT;
            } else if (!parse_count(flag, value, &a->max_instructions)) {
                return EXIT_BAD_INPUT;
            }
        } else if (strcmp(arg, "--json") == 0) {
            json = true;
        } else if (strcmp(arg, "--csv") == 0) {
            csv = true;
        } else if (strcmp(arg, "--racecheck") == 0) {
            a->racecheck = true;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_error("run", "unknown option '%s' (see gpusim run --help)", arg);
        } else if (a->file) {
            return cli_error("run", "one workload file at a time ('%s' and '%s')", a->file, arg);
        } else {
            a->file = arg;
        }
    }
    if (json && csv) return cli_error("run", "--json and --csv exclude each other");
    if (a->roofline && !plot_path_ok(a->roofline))
        return cli_error("run", "--roofline %s: the picture's name ends in .png, .svg or .pdf", a->roofline);
    a->format = json ? FMT_JSON : csv ? FMT_CSV : FMT_TEXT;
    if (!a->file) {
        fprintf(stderr, "gpusim run: error: no workload file given\n");
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ command */

int cmd_run(int argc, char **argv)
{
    RunArgs args;
    int rc = parse_args(argc, argv, &args);
    GpuConfig *cfg = NULL;
    Workload w;
    memset(&w, 0, sizeof w);
    RunRow *rows = NULL;
    uint32_t nrows = 0;
    FILE *trace_file = NULL;
    ChromeTrace *chrome = NULL;
    TraceSink trace_sink;
    if (rc != EXIT_OK) {
        rc = rc < 0 ? EXIT_OK : rc;
        goto out;
    }
    rc = EXIT_BAD_INPUT;
    Diag d;
    cfg = malloc(sizeof *cfg);
    if (!cfg) goto out;
    if (!cli_load_gpu(args.gpu, args.sets, (int)args.nsets, cfg, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    if (!workload_load(args.file, cfg, args.params, args.nparams, &w, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    const WlVariant *only = NULL;
    if (args.variant) {
        only = workload_find_variant(&w, args.variant);
        if (!only) {
            fprintf(stderr, "gpusim run: error: %s has no variant '%s' (it has:", args.file, args.variant);
            for (uint32_t i = 0; i < w.nvariants; i++) fprintf(stderr, "%s %s", i ? "," : "", w.variants[i].name);
            fprintf(stderr, ")\n");
            goto out;
        }
    }
    rows = calloc(w.nvariants, sizeof *rows);
    if (!rows) goto out;
    if (args.trace) {
        const char *inputs[] = { args.file, w.kernel_file };
        for (size_t k = 0; k < sizeof inputs / sizeof inputs[0]; k++)
            if (inputs[k] && cli_same_file(args.trace, inputs[k])) {
                cli_error("run", "--trace %s is an input of this run (%s): refusing to overwrite it", args.trace,
                          inputs[k]);
                goto out;
            }
        trace_file = fopen(args.trace, "w");
        if (!trace_file) {
            cli_error("run", "cannot write trace file '%s': %s", args.trace, strerror(errno));
            goto out;
        }
        chrome = trace_chrome_open(trace_file, cfg->clock_mhz);
        if (!chrome) goto out;
        trace_chrome_sink(chrome, &trace_sink);
    }
    bool progress = isatty(STDERR_FILENO);
    double t0 = now_seconds();
    uint64_t instructions = 0;
    uint32_t total = only ? 1 : w.nvariants;
    for (uint32_t i = 0; i < w.nvariants; i++) {
        const WlVariant *v = &w.variants[i];
        if (only && v != only) continue;
        char label[128];
        snprintf(label, sizeof label, "%s: variant %u/%u %s", w.name, nrows + 1, total, v->name);
        if (chrome) {
            char name[2 * WL_MAX_NAME + 8];
            snprintf(name, sizeof name, "%s/%s", w.name, v->name);
            trace_chrome_label(chrome, name);
        }
        VariantOptions opt = { .max_cycles = args.max_cycles, .max_instructions = args.max_instructions,
                               .label = label, .progress = progress, .trace = chrome ? &trace_sink : NULL,
                               .racecheck = args.racecheck };
        variant_run(cfg, &w, v, &opt, &rows[nrows]);
        instructions += rows[nrows].st.warp_instructions;
        nrows++;
    }
    double wall = now_seconds() - t0;
    const RunRow *base = NULL;
    for (uint32_t i = 0; i < nrows; i++) {
        if (!rows[i].ran) continue;
        if (!base) base = &rows[i];
        rows[i].ratio = base->st.cycles ? (double)rows[i].st.cycles / (double)base->st.cycles : -1;
    }
    RunReport rep = { &w, cfg, (const char *const *)args.sets, args.nsets, rows, nrows, wall, instructions };
    if (args.format == FMT_JSON) report_json(stdout, &rep);
    else if (args.format == FMT_CSV) report_csv(stdout, &rep);
    else report_text(stdout, &rep);
    rc = EXIT_OK;
    if (args.roofline && !plot_roofline_report(&rep, args.roofline, &d)) {
        diag_print(stderr, &d);
        rc = EXIT_CHECK_FAILED;
    }
    for (uint32_t i = 0; i < nrows; i++)
        if (!rows[i].ran || rows[i].check == CHECK_FAIL) {
            /* a launch this machine cannot hold is bad input, not a failed check */
            if (rc != EXIT_BAD_INPUT) rc = rows[i].status == SIM_BAD_LAUNCH ? EXIT_BAD_INPUT : EXIT_CHECK_FAILED;
            if (args.format != FMT_TEXT)
                fprintf(stderr, "gpusim run: %s: %s\n", rows[i].v->name,
                        rows[i].error ? rows[i].error : report_status_name(rows[i].status));
        }
out:
    /* A report or trace that did not reach its file is a failure of its own,
    ** said whatever else went wrong (exit 2). */
    if (chrome && !trace_chrome_close(chrome)) rc = cli_error("run", "out of host memory writing the trace: %s is incomplete", args.trace);
    if (trace_file && (ferror(trace_file) | fclose(trace_file)))
        rc = cli_error("run", "writing the trace file '%s' failed: %s", args.trace, strerror(errno));
    for (uint32_t i = 0; i < nrows; i++) free(rows[i].error);
    free(rows);
    workload_destroy(&w);
    free(cfg);
    free(args.sets);
    free(args.params);
    return rc;
}
