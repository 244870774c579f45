/* cli/cmd_run.c -- `gpusim run FILE.json`: load a workload for a machine,
** simulate each variant on freshly initialised buffers, check the results
** against the CPU references and print the report (cli/report.h).
** Exit status: 0 all ran and passed; 1 a check or a claim of the
** description failed, or a kernel did not finish (fault, deadlock, budget: the other variants still run); 2 bad
** input (flags, GPU, workload file), before anything runs.              */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/claimcheck.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "cli/plot.h"
#include "cli/report.h"
#include "cli/trace_chrome.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim run FILE.json [--gpu NAME|FILE] [--set KEY=VALUE]... [--param NAME=VALUE]...\n"
            "                  [--variant NAME]... [--json | --csv] [--source] [--trace FILE] [--dump DIR\n"
            "                  [--dump-buffers A,B]] [--max-cycles N] [--max-instructions N]\n"
            "                  [--roofline FILE] [--jobs N] [--threads N]\n\n"
            "Runs every variant of a workload (workloads/README.md) on a simulated GPU, checks each\n"
            "result against its CPU reference and prints a table: cycles, time, the ratio to the first\n"
            "variant and the metrics that explain it, then one sentence per variant on why it costs\n"
            "what it costs.\n\n"
            "  --gpu NAME|FILE       machine preset (default %s; 'gpusim gpus' lists them) or a JSON file\n"
            "  --set KEY=VALUE       change one machine knob (repeatable), e.g. --set sm.count=200\n"
            "  --param NAME=VALUE    change one workload parameter (repeatable), e.g. --param n=256;\n"
            "                        VALUE may be an expression of machine values (8*sm_count)\n"
            "  --variant NAME        run only this variant (repeatable: these variants); the name is\n"
            "                        matched exactly. The variants their same_as checks compare with\n"
            "                        run (and are reported) too\n"
            "  --dump DIR            write every buffer after each variant as DIR/<variant>.<buffer>.npy\n"
            "                        (NumPy's format; DIR is made if missing)\n"
            "  --dump-buffers A,B    with --dump: only these buffers\n"
            "  --json                print one JSON object instead of the table\n"
            "  --csv                 print one CSV row per variant instead of the table\n"
            "  --source              also print each kernel's listing with what each instruction cost:\n"
            "                        warp and thread instructions, its share of the warp cycles and\n"
            "                        their warp states, sectors, hit rates, wavefronts and bank\n"
            "                        conflicts per request (PTX: by CUDA source line too); with\n"
            "                        --json, a \"source\" table per variant\n"
            "  --trace FILE          write a Chrome trace (Perfetto, chrome://tracing) of every launch:\n"
            "                        block and warp lifetimes and warp-state counters per SM, a span\n"
            "                        per launch; microseconds of simulated time (args.cycle: cycles)\n"
            "  --max-instructions N  give up on a launch after N warp instructions (0: none); the default\n"
            "                        scales with the launch: " VARIANT_BUDGET_RULE "\n"
            "  --max-cycles N        give up on a launch after N simulated cycles (0: none; default\n"
            "                        1024 per budgeted instruction, a backstop)\n"
            "  --threads N           simulate each launch on N host threads (1 to " GPU_MAX_THREADS_TEXT "; at most one\n"
            "                        per SM the launch uses, and no more than the host's cores other\n"
            "                        processes leave free when it starts). Default: launches of\n"
            "                        " GPU_AUTO_THREADS_MIN_BLOCKS_TEXT " blocks or more on the cores the --jobs running at once\n"
            "                        leave each, smaller ones on one. The output is the same for\n"
            "                        every N; --trace and --source run on one thread\n"
            "  --racecheck           report two threads of a block touching one shared-memory word\n"
            "                        between barriers, at least one writing (off by default: ~15%% slower)\n"
            "  --jobs N              variants simulated at a time (default: the cores, here %u, over\n"
            "                        --threads, fewer when their buffers would not fit in half the\n"
            "                        host memory; 1 with --trace); the report is the same for every N\n"
            "  --roofline FILE       also draw every variant on the machine's roofline (FP32 and DRAM\n"
            "                        ceilings) as FILE.png, .svg or .pdf (needs PLplot in the build)\n\n"
            "Exit status: 0 every check passed, 1 a check failed or a kernel did not finish\n"
            "(fault, deadlock, budget), 2 bad input.\n",
            CONFIG_DEFAULT_GPU, jobs_default());
}

typedef enum { FMT_TEXT, FMT_JSON, FMT_CSV } OutFormat;

typedef struct {
    const char  *file;
    const char  *gpu;
    char       **sets;
    size_t       nsets;
    const char **params;
    size_t       nparams;
    const char **variants;    /* --variant, each given (repeatable)    */
    size_t       nvariants;
    const char  *trace;
    const char  *dump;        /* --dump DIR                            */
    const char  *dump_buffers; /* --dump-buffers a,b                  */
    const char  *roofline;    /* --roofline FILE.png|svg|pdf          */
    OutFormat    format;
    uint64_t     max_cycles, max_instructions;
    bool         racecheck;
    bool         source;      /* --source                              */
    uint32_t     jobs;        /* --jobs; 0: not given (run_jobs decides) */
    uint32_t     threads;     /* --threads N; 0: not given (the default) */
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
    a->variants = calloc((size_t)argc, sizeof *a->variants);
    if (!a->sets || !a->params || !a->variants) return EXIT_BAD_INPUT;
    bool json = false, csv = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return -1;
        }
        static const char *const with_value[] = { "--gpu", "--set", "--param", "--variant", "--trace",
                                                  "--max-cycles", "--max-instructions", "--dump-buffers",
                                                  "--dump", "--roofline", "--jobs", "--threads", NULL };
        const char *value = NULL, *flag = NULL;
        for (const char *const *f = with_value; *f && !flag; f++)
            if (cli_option(argc, argv, &i, *f, &value)) flag = *f;
        if (flag && !value) return cli_error("run", "%s needs a value", flag);
        if (flag) {
            if (strcmp(flag, "--gpu") == 0) a->gpu = value;
            else if (strcmp(flag, "--set") == 0) a->sets[a->nsets++] = (char *)value;
            else if (strcmp(flag, "--param") == 0) a->params[a->nparams++] = value;
            else if (strcmp(flag, "--variant") == 0) a->variants[a->nvariants++] = value;
            else if (strcmp(flag, "--trace") == 0) a->trace = value;
            else if (strcmp(flag, "--dump") == 0) a->dump = value;
            else if (strcmp(flag, "--dump-buffers") == 0) a->dump_buffers = value;
            else if (strcmp(flag, "--roofline") == 0) a->roofline = value;
            else if (strcmp(flag, "--jobs") == 0) {
                if (!jobs_parse(value, &a->jobs))
                    return cli_error("run", "--jobs expects a number of variants at a time, 1 to %d, got '%s'",
                                     JOBS_MAX, value);
            }
            else if (strcmp(flag, "--threads") == 0) {
                Diag d;
                if (!cli_parse_u32(value, "--threads", &a->threads, 1, GPU_MAX_THREADS, &d))
                    return cli_error("run", "--threads: %s", d.message);
            }
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
        } else if (strcmp(arg, "--source") == 0) {
            a->source = true;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_error("run", "unknown option '%s' (see gpusim run --help)", arg);
        } else if (a->file) {
            return cli_error("run", "one workload file at a time ('%s' and '%s')", a->file, arg);
        } else {
            a->file = arg;
        }
    }
    if (json && csv) return cli_error("run", "--json and --csv exclude each other");
    if (a->source && csv) return cli_error("run", "--source has no CSV form (use it alone, or with --json)");
    if (a->trace && a->jobs > 1)
        return cli_error("run", "--trace writes one timeline, one variant after another: it cannot go with --jobs %u",
                         a->jobs);
    if (a->dump_buffers && !a->dump) return cli_error("run", "--dump-buffers goes with --dump DIR");
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

/* ------------------------------------------------------------ selection */

/* --dump DIR: made if missing; --dump-buffers names buffers of w. */
static bool dump_setup(const RunArgs *a, const Workload *w, bool *dump)
{
    struct stat st;
    if (stat(a->dump, &st) != 0 && mkdir(a->dump, 0777) != 0) {
        cli_error("run", "--dump: cannot make directory '%s': %s", a->dump, strerror(errno));
        return false;
    }
    if (stat(a->dump, &st) != 0 || !S_ISDIR(st.st_mode)) {
        cli_error("run", "--dump: '%s' is not a directory", a->dump);
        return false;
    }
    for (uint32_t b = 0; b < w->nbuffers; b++) dump[b] = a->dump_buffers == NULL;
    for (const char *p = a->dump_buffers; p && *p;) {
        size_t n = strcspn(p, ",");
        uint32_t b = 0;
        while (b < w->nbuffers && !(strlen(w->buffers[b].name) == n && strncmp(w->buffers[b].name, p, n) == 0)) b++;
        if (b == w->nbuffers) {
            fprintf(stderr, "gpusim run: error: --dump-buffers: %s has no buffer '%.*s' (it has:", a->file, (int)n, p);
            for (uint32_t k = 0; k < w->nbuffers; k++) fprintf(stderr, "%s %s", k ? "," : "", w->buffers[k].name);
            fprintf(stderr, ")\n");
            return false;
        }
        dump[b] = true;
        p += n + (p[n] == ',');
    }
    return true;
}

/* The trace's name of each launch: "workload/variant", and for a variant of
** several launches "workload/variant#k kernel". */
typedef struct {
    ChromeTrace *chrome;
    const char  *workload;
} TraceLabel;

static void label_launch(void *user, const WlVariant *v, uint32_t k)
{
    const TraceLabel *t = user;
    char name[WL_MAX_VARIANT_NAME + 384];
    if (v->nlaunches > 1)
        snprintf(name, sizeof name, "%s/%s#%u %s", t->workload, v->name, k + 1, v->launches[k].kernel->name);
    else
        snprintf(name, sizeof name, "%s/%s", t->workload, v->name);
    trace_chrome_label(t->chrome, name);
}

/* ------------------------------------------------------------ the variants, --jobs at a time */

/* One task per selected variant, in run order (a variant after those its
** same_as checks compare with: its deps). */
typedef struct {
    const RunArgs   *args;
    const GpuConfig *cfg;
    const Workload  *w;
    VariantStore    *store;
    const bool      *dump;
    const TraceSink *trace;
    ChromeTrace     *chrome;
    RunRow          *ran;         /* per variant (Workload order)          */
    uint32_t         ntasks;
    uint32_t        *variant;     /* per task: its variant                 */
    uint32_t        *dep_start;   /* per task + 1: its deps in dep[]       */
    uint32_t        *dep;         /* tasks                                 */
    bool             progress;    /* one job: each variant's progress line */
    bool             board;       /* several: a line of variants done      */
    uint32_t         threads;     /* per launch: --threads, or its default */
    uint64_t         instructions;
} RunJobs;

static void run_task(void *user, uint32_t task)
{
    RunJobs *j = user;
    uint32_t i = j->variant[task];
    const WlVariant *v = &j->w->variants[i];
    char label[WL_MAX_VARIANT_NAME + 128];
    snprintf(label, sizeof label, "%s: variant %u/%u %s", j->w->name, task + 1, j->ntasks, v->name);
    TraceLabel tl = { j->chrome, j->w->name };
    VariantOptions opt = { .max_cycles = j->args->max_cycles, .max_instructions = j->args->max_instructions,
                           .label = label, .progress = j->progress, .trace = j->trace,
                           .racecheck = j->args->racecheck, .on_launch = j->chrome ? label_launch : NULL,
                           .on_launch_user = &tl, .store = j->store, .dump_dir = j->args->dump, .dump = j->dump,
                           .source = j->args->source, .threads = j->threads, .threads_auto = !j->args->threads };
    variant_run(j->cfg, j->w, v, &opt, &j->ran[i]);
}

static uint32_t task_deps(void *user, uint32_t task, const uint32_t **list)
{
    const RunJobs *j = user;
    *list = j->dep + j->dep_start[task];
    return j->dep_start[task + 1] - j->dep_start[task];
}

static void task_done(void *user, uint32_t task)
{
    RunJobs *j = user;
    j->instructions += j->ran[j->variant[task]].st.warp_instructions;
    if (j->board) {
        fprintf(stderr, "\r%s: %u/%u variants done\033[K", j->w->name, task + 1, j->ntasks);
        if (task + 1 == j->ntasks) fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

/* Without --jobs: the cores, but no more runs at a time than half the host
** memory holds buffers for (each run has its own), and 1 with a trace. */
static uint32_t default_jobs(const RunArgs *a, const Workload *w)
{
    if (a->trace) return 1;
    double bytes = 0;
    for (uint32_t b = 0; b < w->nbuffers; b++) bytes += 4.0 * (double)w->buffers[b].count;
    double host = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    uint32_t n = jobs_default_for(a->threads);
    if (bytes > 0 && host > 0 && n > host / 2 / bytes) n = host / 2 / bytes < 1 ? 1 : (uint32_t)(host / 2 / bytes);
    return n;
}

/* Simulates every selected variant into ran[] (Workload order); false when
** out of host memory before anything ran. */
static bool run_jobs(const RunArgs *a, const GpuConfig *cfg, const Workload *w, const bool *selected,
                     VariantStore *store, const bool *dump, const TraceSink *trace, ChromeTrace *chrome, RunRow *ran,
                     RunJobs *j)
{
    memset(j, 0, sizeof *j);
    *j = (RunJobs){ .args = a, .cfg = cfg, .w = w, .store = store, .dump = dump, .trace = trace, .chrome = chrome,
                    .ran = ran };
    uint32_t *task_of = calloc(w->nvariants ? w->nvariants : 1, sizeof *task_of);
    j->variant = calloc(w->nvariants ? w->nvariants : 1, sizeof *j->variant);
    j->dep_start = calloc((size_t)w->nvariants + 1, sizeof *j->dep_start);
    size_t ndep = 0;
    for (uint32_t i = 0; i < w->nvariants; i++) ndep += w->variants[i].nchecks;
    j->dep = calloc(ndep ? ndep : 1, sizeof *j->dep);
    bool ok = task_of && j->variant && j->dep_start && j->dep;
    for (uint32_t k = 0; ok && k < w->nvariants; k++) {
        uint32_t i = w->order[k];
        if (!selected[i]) continue;
        const WlVariant *v = &w->variants[i];
        task_of[i] = j->ntasks;
        j->variant[j->ntasks] = i;
        uint32_t at = j->dep_start[j->ntasks];
        for (uint32_t c = 0; c < v->nchecks; c++) { /* w->order puts these before v */
            uint32_t other = v->checks[c].variant;
            if (v->checks[c].kind == WL_CHECK_SAME_AS && selected[other] && other != i) j->dep[at++] = task_of[other];
        }
        j->dep_start[++j->ntasks] = at;
    }
    if (ok) {
        uint32_t threads = a->jobs ? a->jobs : default_jobs(a, w);
        /* without --threads, the cores the jobs running at once leave each */
        j->threads = a->threads ? a->threads : jobs_auto_threads(threads < j->ntasks ? threads : j->ntasks);
        bool tty = isatty(STDERR_FILENO);
        j->progress = tty && (threads <= 1 || j->ntasks <= 1);
        j->board = tty && !j->progress;
        JobSet set = { .ntasks = j->ntasks, .threads = threads, .run = run_task, .deps = task_deps,
                       .done = task_done, .user = j };
        jobs_run(&set);
    }
    free(task_of);
    free(j->variant);
    free(j->dep_start);
    free(j->dep);
    j->variant = j->dep_start = j->dep = NULL;
    return ok;
}

/* ------------------------------------------------------------ command */

int cmd_run(int argc, char **argv)
{
    RunArgs args;
    int rc = parse_args(argc, argv, &args);
    GpuConfig *cfg = NULL;
    Workload w;
    memset(&w, 0, sizeof w);
    RunRow *rows = NULL, *ran = NULL;
    uint32_t nrows = 0;
    bool *selected = NULL, *dump = NULL;
    VariantStore *store = NULL;
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
    if (!workload_load(args.file, cfg, args.params, args.nparams, &w, &d) || !claimcheck_metrics_known(&w, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    selected = calloc(w.nvariants ? w.nvariants : 1, sizeof *selected);
    dump = calloc(w.nbuffers ? w.nbuffers : 1, sizeof *dump);
    if (!selected || !dump) goto out;
    if (!cli_select_variants("run", args.file, &w, args.variants, args.nvariants, selected)) goto out;
    if (args.dump && !dump_setup(&args, &w, dump)) goto out;
    rows = calloc(w.nvariants, sizeof *rows);
    ran = calloc(w.nvariants, sizeof *ran);
    store = variant_store_create(&w);
    if (!rows || !ran || !store) goto out;
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
    double t0 = cli_now_seconds();
    RunJobs jobs;
    if (!run_jobs(&args, cfg, &w, selected, store, dump, chrome ? &trace_sink : NULL, chrome, ran, &jobs)) goto out;
    uint64_t instructions = jobs.instructions;
    for (uint32_t i = 0; i < w.nvariants; i++)
        if (selected[i]) rows[nrows++] = ran[i];
    double wall = cli_now_seconds() - t0;
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
    /* the description's claims, for the workload as shipped: a failed one
    ** is a failed check (the lesson's sentence no longer holds) */
    ClaimTally claims;
    claimcheck_run(&rep, args.nsets == 0 && args.nparams == 0, args.format == FMT_TEXT ? stdout : stderr, &claims);
    if (args.format == FMT_TEXT && claims.checked)
        printf("claims of the description: %u checked, %s\n", claims.checked,
               claims.failed ? "some failed (above)" : "all hold");
    if (claims.failed) rc = EXIT_CHECK_FAILED;
    if (args.roofline && !plot_roofline_report(&rep, args.roofline, &d)) {
        diag_print(stderr, &d);
        rc = EXIT_CHECK_FAILED;
    }
    for (uint32_t i = 0; i < nrows; i++)
        if (rows[i].dump_error) rc = cli_error("run", "--dump: %s", rows[i].dump_error);
    for (uint32_t i = 0; i < nrows; i++)
        if (!rows[i].ran || rows[i].check == CHECK_FAIL) {
            /* a launch this machine cannot hold is bad input, not a failed check */
            if (rc != EXIT_BAD_INPUT) rc = rows[i].status == SIM_BAD_LAUNCH ? EXIT_BAD_INPUT : EXIT_CHECK_FAILED;
            if (args.format != FMT_TEXT)
                fprintf(stderr, "gpusim run: %s: %s\n", rows[i].v->name,
                        rows[i].error ? rows[i].error : gpu_status_name(rows[i].status));
        }
out:
    /* A report or trace that did not reach its file is a failure of its own,
    ** said whatever else went wrong (exit 2). */
    if (chrome && !trace_chrome_close(chrome)) rc = cli_error("run", "out of host memory writing the trace: %s is incomplete", args.trace);
    if (trace_file && (ferror(trace_file) | fclose(trace_file)))
        rc = cli_error("run", "writing the trace file '%s' failed: %s", args.trace, strerror(errno));
    for (uint32_t i = 0; i < nrows; i++) variant_row_free(&rows[i]);
    free(rows);
    free(ran);
    free(selected);
    free(dump);
    variant_store_destroy(store);
    workload_destroy(&w);
    free(cfg);
    free(args.sets);
    free(args.params);
    free(args.variants);
    return rc;
}
