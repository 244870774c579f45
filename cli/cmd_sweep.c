/* cli/cmd_sweep.c -- `gpusim sweep`: design-space exploration. The
** cartesian product of the value lists given to --gpu, --set, --param and
** --launch, every point simulated once per variant on every core
** (cli/sweep_run.h), one JSON line per run streamed in sweep order (or
** CSV), resumable from its own output, split into shards for a cluster and
** merged back (--merge), and drawn as a chart (cli/plot.h).
**
** Everything a sweep could refuse is checked before anything runs and
** before any file is written: the lists, every machine of the sweep, the
** workload at the first point, the variants, the plot's keys, the --out
** file's runs (another sweep's file is never appended to). A run that fails
** later (a --param value the workload refuses at one point, a failed
** check) is a line with its error; the others still run.
** Exit status: 0 every run passed; 1 a check failed, a run did not finish,
** or the picture could not be drawn; 2 bad input (nothing ran), a run's
** point was bad input, or a write error.                                */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpusim_version.h"
#include "base/file.h"
#include "base/hash.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "cli/plot.h"
#include "cli/sweep_lines.h"
#include "cli/sweep_run.h"
#include "cli/sweep_spec.h"
#include "workloads/loader.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim sweep FILE.json [--gpu NAME[,NAME...]] [--set KEY=LIST]... [--param NAME=LIST]...\n"
            "                    [--launch block=LIST] [--variant NAME]... [--jobs N] [--shard I/N]\n"
            "                    [--out FILE] [--csv] [--plot FILE --x KEY --y METRIC [--series KEY]]\n"
            "                    [--max-cycles N] [--max-instructions N] [--racecheck] [--threads N]\n"
            "       gpusim sweep --merge FILE.jsonl... [--out FILE] [--csv] [--plot FILE --x KEY --y METRIC\n"
            "                    [--series KEY] [--variant NAME]...]\n\n"
            "Simulates every point of the cartesian product of the lists, once per variant of the\n"
            "workload (all of them, or those --variant names), and writes one JSON object per run\n"
            "(its parameters, the machine's hash, gpusim's version, every stat of `gpusim run --json`)\n"
            "as each finishes, in sweep order: the first list varies slowest.\n\n"
            "  LIST                  V1,V2,...; START:STOP:STEP (STOP included when a step lands on it);\n"
            "                        START:STOP:*F (geometric, F > 1); items may mix: 1,2,8:32:8.\n"
            "                        Numbers may be written 1e3 or 2^20; --param values may be\n"
            "                        expressions (8*sm_count). At most 10^6 points in all\n"
            "  --gpu NAME,...        machines (presets or files; default %s); --set applies to each\n"
            "  --set KEY=LIST        a machine knob ('gpusim gpus --knobs'), e.g. sm.count=54,108,216\n"
            "  --param NAME=LIST     a workload parameter, e.g. n=2^20:2^24:*4\n"
            "  --launch block=LIST   the block size, where the workload has it as its parameter 'block'\n"
            "  --variant NAME        only this variant (repeatable)\n"
            "  --jobs N              runs at a time (default: the cores, here %ld, over --threads); each\n"
            "                        holds its own buffers, so host memory is N times the largest run's\n"
            "  --shard I/N           only the points p with p %% N == I (0 <= I < N), for a cluster;\n"
            "                        merge the shards' files with --merge\n"
            "  --out FILE            write there (default: stdout); an existing FILE of the same sweep\n"
            "                        is resumed: its runs are kept and only the others run\n"
            "  --csv                 CSV instead of JSON lines: one column per swept key (not resumable)\n"
            "  --plot FILE           a line chart (.png, .svg or .pdf) of METRIC against KEY, one series\n"
            "                        per combination of the other keys and variants (or per variant and\n"
            "  --x KEY --y METRIC    value of --series KEY); METRIC is cycles, time_us, ratio, a stats\n"
            "  --series KEY          key or stall_NAME. Needs PLplot in the build\n"
            "  --merge FILE...       check that shards' files are one sweep, complete, each run once,\n"
            "                        and write them as one, in sweep order; with --plot, --variant picks\n"
            "                        the variants the chart draws\n"
            "  --max-cycles N, --max-instructions N, --racecheck, --threads N   as for gpusim run (each\n"
            "                        run's launches on N threads: --jobs x --threads threads in all,\n"
            "                        at most the cores unless --jobs says more)\n\n"
            "Exit status: 0 every run passed, 1 a check failed, a run did not finish or the picture\n"
            "was not drawn, 2 bad input (nothing ran; or a point the workload refused) or a write error.\n"
            "workloads/README.md, \"gpusim sweep\", has the keys of a line and examples.\n",
            CONFIG_DEFAULT_GPU, (long)jobs_default());
}

typedef struct {
    SweepAxisKind kind;
    const char   *flag, *text;
} AxisArg;

typedef struct {
    const char  *file;
    const char  *gpu;
    AxisArg     *axes;
    size_t       naxes;
    const char **variants;
    size_t       nvariants;
    uint32_t     jobs, shard_i, shard_n, threads;
    const char  *out, *plot, *x, *y, *series;
    bool         csv, racecheck, merge;
    const char **files; /* --merge */
    size_t       nfiles;
    uint64_t     max_cycles, max_instructions;
} SweepArgs;

#define ERR(...) cli_error("sweep", __VA_ARGS__)

/* Returns EXIT_OK to go on, -1 for --help, else the status to exit with. */
static int parse_args(int argc, char **argv, SweepArgs *a)
{
    memset(a, 0, sizeof *a);
    a->max_cycles = a->max_instructions = VARIANT_BUDGET_AUTO;
    a->jobs = 0; /* 0 until given: the default depends on --threads */
    a->axes = calloc((size_t)argc, sizeof *a->axes);
    a->variants = calloc((size_t)argc, sizeof *a->variants);
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->axes || !a->variants || !a->files) return ERR("out of memory");
    bool other = false; /* an option that --merge does not take */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v = NULL, *flag = NULL;
        if (cli_is_help(arg)) {
            usage(stdout);
            return -1;
        }
        static const char *const with_value[] = { "--gpu", "--set", "--param", "--launch", "--variant", "--jobs",
                                                  "--shard", "--out", "--plot", "--x", "--y", "--series",
                                                  "--max-cycles", "--max-instructions", "--threads", NULL };
        for (const char *const *f = with_value; *f && !flag; f++)
            if (cli_option(argc, argv, &i, *f, &v)) flag = *f;
        if (flag && !v) return ERR("%s needs a value", flag);
        if (flag) {
            bool merge_ok = !strcmp(flag, "--out") || !strcmp(flag, "--plot") || !strcmp(flag, "--x") ||
                            !strcmp(flag, "--y") || !strcmp(flag, "--series") || !strcmp(flag, "--variant");
            other |= !merge_ok;
            uint64_t n;
            if (!strcmp(flag, "--gpu")) {
                if (a->gpu) return ERR("--gpu is given twice: give all machines in one list (--gpu a100,h100)");
                a->gpu = v;
            } else if (!strcmp(flag, "--set")) {
                a->axes[a->naxes++] = (AxisArg){ AXIS_SET, "--set", v };
            } else if (!strcmp(flag, "--param")) {
                a->axes[a->naxes++] = (AxisArg){ AXIS_PARAM, "--param", v };
            } else if (!strcmp(flag, "--launch")) {
                a->axes[a->naxes++] = (AxisArg){ AXIS_PARAM, "--launch", v };
            } else if (!strcmp(flag, "--variant")) {
                for (size_t k = 0; k < a->nvariants; k++)
                    if (!strcmp(a->variants[k], v)) return ERR("--variant %s is given twice", v);
                a->variants[a->nvariants++] = v;
            } else if (!strcmp(flag, "--jobs")) {
                if (!jobs_parse(v, &a->jobs))
                    return ERR("--jobs expects a number of runs at a time, 1 to %d, got '%s'", JOBS_MAX, v);
            } else if (!strcmp(flag, "--threads")) {
                Diag d;
                if (!cli_parse_u32(v, "--threads", &a->threads, 1, GPU_MAX_THREADS, &d)) return ERR("--threads: %s", d.message);
                other = true;
            } else if (!strcmp(flag, "--shard")) {
                Diag d;
                if (!sweep_shard_parse(v, &a->shard_i, &a->shard_n, &d)) {
                    diag_print(stderr, &d);
                    return EXIT_BAD_INPUT;
                }
            } else if (!strcmp(flag, "--max-cycles") || !strcmp(flag, "--max-instructions")) {
                if (!cli_number_u64(v, true, &n)) return ERR("%s expects a non-negative integer, got '%s'", flag, v);
                *(flag[6] == 'c' ? &a->max_cycles : &a->max_instructions) = n;
            } else {
                *(!strcmp(flag, "--out") ? &a->out : !strcmp(flag, "--plot") ? &a->plot
                  : !strcmp(flag, "--x") ? &a->x : !strcmp(flag, "--y") ? &a->y : &a->series) = v;
            }
        } else if (!strcmp(arg, "--csv")) {
            a->csv = true;
        } else if (!strcmp(arg, "--racecheck")) {
            a->racecheck = other = true;
        } else if (!strcmp(arg, "--merge")) {
            a->merge = true;
        } else if (arg[0] == '-' && arg[1]) {
            return ERR("unknown option '%s' (see gpusim sweep --help)", arg);
        } else if (a->merge) {
            a->files[a->nfiles++] = arg;
        } else if (a->file) {
            return ERR("one workload file at a time ('%s' and '%s')", a->file, arg);
        } else {
            a->file = arg;
        }
    }
    if (a->merge) {
        if (a->file) a->files[a->nfiles++] = a->file; /* a file given before --merge */
        a->file = NULL;
        if (other) return ERR("--merge takes the files and --out, --csv, --plot, --x, --y, --series, --variant only");
        if (a->nvariants && !a->plot)
            return ERR("--variant with --merge picks the variants --plot draws (every run is merged): give --plot");
        if (!a->nfiles) return ERR("--merge needs the files of the shards: gpusim sweep --merge A.jsonl B.jsonl ...");
    } else if (!a->file) {
        fprintf(stderr, "gpusim sweep: error: no workload file given\n");
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (a->plot && (!a->x || !a->y)) return ERR("--plot needs --x KEY and --y METRIC");
    if (!a->plot && (a->x || a->y || a->series)) return ERR("--x, --y and --series go with --plot FILE");
    if (a->plot && !plot_path_ok(a->plot)) return ERR("--plot %s: the picture's name ends in .png, .svg or .pdf", a->plot);
    if (a->plot && !plot_metric_known(a->y))
        return ERR("--y %s: not a metric of a run (cycles, time_us, ratio, a stats key of gpusim run --json, "
                   "or stall_NAME)", a->y);
    if (a->series && a->x && !strcmp(a->series, a->x)) return ERR("--series %s is the --x key", a->series);
    if (a->plot && a->out && (!strcmp(a->plot, a->out) || cli_same_file(a->plot, a->out)))
        return ERR("--plot %s is the --out file: the picture would replace the sweep's lines", a->plot);
    for (size_t i = 0; a->plot && i < a->nfiles; i++)
        if (!strcmp(a->plot, a->files[i]) || cli_same_file(a->plot, a->files[i]))
            return ERR("--plot %s is one of the files to merge: the picture would replace its lines", a->plot);
    if (!a->jobs) a->jobs = jobs_default_for(a->threads);
    return EXIT_OK;
}

/* ------------------------------------------------------------ output */

typedef struct {
    FILE          *out;
    const char    *name;         /* for messages                          */
    bool           csv;
    SweepCsvColumns cols;
    SweepPlot     *plot;
    double         synced;       /* when the file was last fsync'd        */
    bool           write_error;
    uint64_t       passed, failed, bad;
} Sink;

/* One line out: whole, flushed (so a killed sweep keeps every line written),
** and synced to the disk at most once a second. */
static bool put_line(Sink *s, const char *line, size_t len)
{
    cJSON *obj = s->csv || s->plot ? cJSON_ParseWithLength(line, len) : NULL;
    if (s->plot && obj) sweep_plot_add(s->plot, obj);
    if (s->csv) {
        if (obj) sweep_csv_row(s->out, obj, &s->cols);
    } else {
        fwrite(line, 1, len, s->out);
    }
    cJSON_Delete(obj);
    if (fflush(s->out) != 0 || ferror(s->out)) {
        cli_error("sweep", "writing %s failed: %s", s->name, strerror(errno));
        s->write_error = true;
        return false;
    }
    double t = cli_now_seconds();
    if (t - s->synced >= 1.0) {
        fsync(fileno(s->out)); /* best effort: a pipe cannot be synced */
        s->synced = t;
    }
    return true;
}

static bool emit(void *user, uint64_t run, const char *line, size_t len, RunOutcome outcome)
{
    Sink *s = user;
    (void)run;
    *(outcome == RUN_PASSED ? &s->passed : outcome == RUN_FAILED ? &s->failed : &s->bad) += 1;
    return put_line(s, line, len);
}

static bool close_out(Sink *s)
{
    bool ok = !s->write_error;
    if (s->out && s->out != stdout) {
        if (ok && (fflush(s->out) != 0 || fsync(fileno(s->out)) != 0)) ok = false;
        if (fclose(s->out) != 0) ok = false;
    } else if (s->out && fflush(s->out) != 0) {
        ok = false;
    }
    if (!ok && !s->write_error) cli_error("sweep", "writing %s failed: %s", s->name, strerror(errno));
    s->out = NULL;
    return ok;
}

static int finish_plot(SweepPlot *plot, const char *path, int rc)
{
    if (!plot) return rc;
    Diag d;
    if (!sweep_plot_write(plot, path, &d)) {
        diag_print(stderr, &d);
        return rc == EXIT_OK ? EXIT_CHECK_FAILED : rc;
    }
    return rc;
}

/* The plot's keys against the sweep's: --x a numeric key, --series a key. */
static bool plot_keys_ok(const SweepArgs *a, const SweepSpec *s)
{
    if (!a->plot) return true;
    const SweepAxis *x = sweep_spec_axis(s, a->x);
    if (!x || x->kind == AXIS_GPU) {
        ERR("--x %s: not a swept --set knob or --param of this sweep", a->x);
        return false;
    }
    if (x->kind == AXIS_SET && !config_knob_is_number((size_t)config_knob_find(x->key))) {
        ERR("--x %s: its values are words, not numbers; plot it as --series", a->x);
        return false;
    }
    if (a->series && strcmp(a->series, "variant") != 0 && !sweep_spec_axis(s, a->series)) {
        ERR("--series %s: not a key of this sweep (variant, gpu, a --set knob or a --param)", a->series);
        return false;
    }
    for (uint32_t k = 0; a->series && k < s->naxes; k++)
        if (s->axes[k].nvalues > 1 && s->axes[k].key != x->key && strcmp(s->axes[k].key, a->series) != 0) {
            ERR("--series %s: the sweep also varies %s; with --series every other key but --x and the variant "
                "takes one value (or leave --series out for a series per combination)", a->series, s->axes[k].key);
            return false;
        }
    char why[512];
    if (!plot_available(why, sizeof why)) fprintf(stderr, "gpusim sweep: --plot: %s; the runs are written all the same\n", why);
    return true;
}

/* ------------------------------------------------------------ --merge */

typedef struct {
    SweepPlot      *plot;
    SweepCsvColumns cols;
    bool            have_cols;
} MergeSeen;

static void merge_each(void *user, const cJSON *line)
{
    MergeSeen *m = user;
    if (!m->have_cols) m->have_cols = sweep_csv_columns_of(line, &m->cols);
    if (m->plot) sweep_plot_add(m->plot, line);
}

static int cmd_merge(const SweepArgs *a)
{
    int rc = EXIT_BAD_INPUT;
    MergeSeen seen = { 0 };
    SweepFile *files = calloc(a->nfiles, sizeof *files);
    FILE **in = calloc(a->nfiles, sizeof *in);
    SweepRef *order = NULL;
    char *tmp = NULL;
    Sink s = { 0 };
    Diag d;
    if (!files || !in) goto out;
    if (a->plot && !(seen.plot = sweep_plot_create(a->x, a->y, a->series))) goto out;
    if (a->plot && a->nvariants && !sweep_plot_only_variants(seen.plot, a->variants, a->nvariants)) goto out;
    for (size_t i = 0; i < a->nfiles; i++) {
        if (a->out && (strcmp(a->out, a->files[i]) == 0 || cli_same_file(a->out, a->files[i]))) {
            ERR("--out %s is one of the files to merge", a->out);
            goto out;
        }
        if (!sweep_file_read(a->files[i], false, &files[i], merge_each, &seen, &d)) {
            diag_print(stderr, &d);
            goto out;
        }
    }
    if (seen.plot && sweep_plot_missing_variant(seen.plot)) { /* bad input: before anything is written */
        ERR("--variant %s: no run of the files is of that variant", sweep_plot_missing_variant(seen.plot));
        goto out;
    }
    uint64_t nruns = 0;
    if (!sweep_merge_order(files, a->files, a->nfiles, &order, &nruns, &d)) {
        diag_print(stderr, &d);
        goto out;
    }
    if (!seen.have_cols) goto out;
    for (size_t i = 0; a->plot && i < seen.cols.nset + seen.cols.nparam + 1; i++) {
        bool last = i == seen.cols.nset + seen.cols.nparam;
        const char *k = last ? NULL : i < seen.cols.nset ? seen.cols.set_keys[i] : seen.cols.param_keys[i - seen.cols.nset];
        if (k && !strcmp(k, a->x)) break;
        if (last) {
            ERR("--x %s: not a swept --set knob or --param of these runs", a->x);
            goto out;
        }
    }
    for (size_t i = 0; i < a->nfiles; i++)
        if (!(in[i] = fopen(a->files[i], "rb"))) {
            ERR("cannot open %s: %s", a->files[i], strerror(errno));
            goto out;
        }
    s.csv = a->csv;
    s.cols = seen.cols;
    s.name = a->out ? a->out : "stdout";
    s.out = stdout;
    if (a->out) { /* whole or not at all: a temporary file, renamed at the end */
        size_t n = strlen(a->out) + 32;
        tmp = malloc(n);
        if (!tmp) goto out;
        snprintf(tmp, n, "%s.tmp-%ld", a->out, (long)getpid());
        if (!(s.out = fopen(tmp, "wb"))) {
            ERR("cannot write %s: %s", a->out, strerror(errno));
            goto out;
        }
    }
    if (s.csv) sweep_csv_header(s.out, &s.cols);
    char *line = NULL;
    size_t cap = 0;
    for (uint64_t j = 0; j < nruns && !s.write_error; j++) {
        const SweepLine *l = &files[order[j].file].lines[order[j].line];
        if (l->length + 1 > cap) {
            free(line);
            cap = l->length + 1;
            if (!(line = malloc(cap))) break;
        }
        FILE *f = in[order[j].file];
        if (fseeko(f, (off_t)l->offset, SEEK_SET) != 0 || fread(line, 1, l->length, f) != l->length) {
            ERR("reading %s again failed (changed while merging?)", a->files[order[j].file]);
            s.write_error = true;
            break;
        }
        SweepPlot *keep = s.plot;
        s.plot = NULL; /* the plot saw the lines while they were read */
        put_line(&s, line, l->length);
        s.plot = keep;
    }
    free(line);
    bool written = close_out(&s) && cap > 0;
    if (written && tmp && rename(tmp, a->out) != 0) {
        ERR("cannot write %s: %s", a->out, strerror(errno));
        written = false;
    }
    if (!written) goto out;
    free(tmp);
    tmp = NULL;
    rc = finish_plot(seen.plot, a->plot, EXIT_OK);
out:
    if (s.out && s.out != stdout) fclose(s.out);
    if (tmp) unlink(tmp);
    free(tmp);
    for (size_t i = 0; files && i < a->nfiles; i++) {
        sweep_file_free(&files[i]);
        if (in && in[i]) fclose(in[i]);
    }
    free(files);
    free(in);
    free(order);
    if (seen.have_cols) sweep_csv_columns_free(&seen.cols);
    sweep_plot_destroy(seen.plot);
    return rc;
}

/* ------------------------------------------------------------ a sweep */

/* Every machine of the sweep, before anything runs: each combination of
** the gpu and --set values must make a consistent machine. */
static bool machines_ok(const SweepSpec *s, const GpuConfig *bases)
{
    uint64_t combos = 1;
    for (uint32_t k = 0; k < s->naxes; k++)
        if (s->axes[k].kind != AXIS_PARAM) combos *= s->axes[k].nvalues;
    for (uint64_t c = 0; c < combos; c++) {
        uint64_t rest = c;
        GpuConfig cfg;
        char as[512], where[512] = "";
        Diag d;
        bool ok = true;
        uint32_t gi = 0;
        for (uint32_t k = s->naxes; k-- > 0;) {
            const SweepAxis *a = &s->axes[k];
            if (a->kind == AXIS_GPU) gi = (uint32_t)(rest % a->nvalues);
            if (a->kind != AXIS_PARAM) rest /= a->nvalues;
        }
        cfg = bases[gi];
        rest = c;
        uint32_t *idx = calloc(s->naxes ? s->naxes : 1, sizeof *idx);
        if (!idx) return false;
        for (uint32_t k = s->naxes; k-- > 0;)
            if (s->axes[k].kind != AXIS_PARAM) {
                idx[k] = (uint32_t)(rest % s->axes[k].nvalues);
                rest /= s->axes[k].nvalues;
            }
        for (uint32_t k = 0; k < s->naxes && ok; k++) {
            const SweepAxis *a = &s->axes[k];
            if (a->kind != AXIS_SET) continue;
            snprintf(as, sizeof as, "%s=%s", a->key, a->values[idx[k]]);
            size_t len = strlen(where);
            if (len + strlen(as) + 2 < sizeof where) {
                where[len] = ' ';
                strcpy(where + len + 1, as);
            }
            ok = config_set(&cfg, as, &d);
        }
        free(idx);
        if (ok && !config_validate(&cfg, &d)) {
            fprintf(stderr, "--set: error: the machine %s with%s: %s\n", bases[gi].name, where, d.message);
            return false;
        }
        if (!ok) {
            diag_print(stderr, &d);
            return false;
        }
    }
    return true;
}

/* Loads the workload at the first point of the sweep (its first machine,
** the first value of every --set and --param) into *w, or says why not. A
** --launch block for a workload without the parameter gets its own words. */
static bool first_point(const SweepArgs *a, const SweepSpec *s, const GpuConfig *bases, const char *text, size_t len,
                        Workload *w)
{
    GpuConfig c0 = bases[0];
    char **own = calloc(s->naxes, sizeof *own);
    const char **ov = calloc(s->naxes, sizeof *ov);
    size_t nov = 0;
    bool ok = own && ov, launch = false;
    Diag d;
    memset(&d, 0, sizeof d);
    for (uint32_t k = 0; ok && k < s->naxes; k++) {
        const SweepAxis *ax = &s->axes[k];
        if (ax->kind == AXIS_GPU) continue;
        launch |= !strcmp(ax->flag, "--launch");
        size_t l = strlen(ax->key) + strlen(ax->values[0]) + 2;
        if (!(own[k] = malloc(l))) {
            ok = false;
            break;
        }
        snprintf(own[k], l, "%s=%s", ax->key, ax->values[0]);
        if (ax->kind == AXIS_SET) ok = config_set(&c0, own[k], &d);
        else ov[nov++] = own[k];
    }
    ok = ok && config_validate(&c0, &d) && workload_parse(text, len, a->file, &c0, ov, nov, w, &d);
    if (!ok && launch) {
        Workload plain;
        if (workload_parse(text, len, a->file, &bases[0], NULL, 0, &plain, NULL)) {
            bool has = false;
            for (uint32_t i = 0; i < plain.nparams; i++) has |= !strcmp(plain.params[i].name, "block");
            workload_destroy(&plain);
            if (!has) {
                ERR("--launch block: %s has no parameter 'block', so its block size is fixed (workloads/README.md, "
                    "\"Sweeping the launch shape\", says how a workload makes it sweepable)", a->file);
                d.message[0] = '\0';
            }
        }
    }
    if (!ok && d.message[0]) diag_print(stderr, &d);
    for (uint32_t k = 0; own && k < s->naxes; k++) free(own[k]);
    free(own);
    free(ov);
    return ok;
}

static uint64_t file_hash(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (!path || file_read(path, WL_MAX_FILE_BYTES, &text, &len, NULL, 0) != FILE_READ_OK) return 0;
    uint64_t h = hash_fnv64(HASH_SWEEP_OFFSET, text, len);
    free(text);
    return h;
}

/* One sweep's state from its arguments to its output; sweep_free frees it. */
typedef struct {
    SweepArgs   a;
    SweepSpec   spec;
    GpuConfig  *bases;       /* one per value of the --gpu axis       */
    char       *text;        /* the workload file                     */
    size_t      len;
    Workload    w;           /* at the first point                    */
    char      **variants;    /* the names of the variants that run    */
    uint32_t    nvariants;
    SweepJob    job;
    uint8_t    *have;        /* a bit per run: its line is in --out   */
    SweepFile   done;        /* --out's lines (resume)                */
    uint64_t   *points;      /* this shard's points with a run to do  */
    uint64_t    npoints, mine, need;
    Sink        sink;
    int         lock_fd;     /* --out, held locked while the sweep runs, or -1 */
    bool        created;     /* ... and made by this sweep                     */
} Sweep;

static void sweep_free(Sweep *S)
{
    if (S->sink.out) close_out(&S->sink);
    if (S->lock_fd >= 0) close(S->lock_fd); /* the lock goes with it */
    if (S->sink.cols.set_keys || S->sink.cols.param_keys) sweep_csv_columns_free(&S->sink.cols);
    sweep_plot_destroy(S->sink.plot);
    free(S->have);
    sweep_file_free(&S->done);
    free(S->points);
    for (uint32_t i = 0; i < S->nvariants; i++) free(S->variants[i]);
    free(S->variants);
    workload_destroy(&S->w);
    free(S->text);
    free(S->bases);
    sweep_spec_free(&S->spec);
    free(S->a.axes);
    free(S->a.variants);
    free(S->a.files);
}

/* The axes, each --gpu machine, the workload at the first point and the
** variants that run; false (reported) on bad input. */
static bool sweep_load(Sweep *S)
{
    const SweepArgs *a = &S->a;
    Diag d;
    bool ok = sweep_spec_add(&S->spec, AXIS_GPU, "--gpu", a->gpu ? a->gpu : CONFIG_DEFAULT_GPU, &d);
    for (size_t i = 0; ok && i < a->naxes; i++) ok = sweep_spec_add(&S->spec, a->axes[i].kind, a->axes[i].flag, a->axes[i].text, &d);
    if (!ok) {
        diag_print(stderr, &d);
        return false;
    }
    const SweepAxis *gpu = &S->spec.axes[0];
    if (!(S->bases = calloc(gpu->nvalues, sizeof *S->bases))) return false;
    for (uint32_t i = 0; i < gpu->nvalues; i++)
        if (!cli_load_gpu(gpu->values[i], NULL, 0, &S->bases[i], &d)) {
            diag_print(stderr, &d);
            return false;
        }
    if (!machines_ok(&S->spec, S->bases)) return false;
    char why[256];
    if (file_read(a->file, WL_MAX_FILE_BYTES, &S->text, &S->len, why, sizeof why) != FILE_READ_OK) {
        ERR("cannot read workload file %s: %s", a->file, why);
        return false;
    }
    /* the workload at the first point: a bad value there stops the sweep before it starts */
    if (!first_point(a, &S->spec, S->bases, S->text, S->len, &S->w)) return false;
    /* the variants picked, and those their same_as checks compare with (as gpusim run does) */
    const Workload *w = &S->w;
    if (!(S->variants = calloc(w->nvariants ? w->nvariants : 1, sizeof *S->variants))) return false;
    bool *selected = calloc(w->nvariants ? w->nvariants : 1, sizeof *selected);
    bool picked = selected && cli_select_variants("sweep", a->file, w, a->variants, a->nvariants, selected);
    for (uint32_t i = 0; picked && i < w->nvariants; i++)
        if (selected[i] && !(S->variants[S->nvariants++] = strdup(w->variants[i].name))) picked = false;
    free(selected);
    return picked && plot_keys_ok(a, &S->spec);
}

/* The job, and its spec hash: the axes, and what else decides the results
** (the gpusim version, the workload's and kernels' bytes, the machines, the
** variants, the budgets). */
static bool sweep_job(Sweep *S)
{
    const SweepArgs *a = &S->a;
    const SweepAxis *gpu = &S->spec.axes[0];
    S->job = (SweepJob){ .spec = &S->spec, .bases = S->bases, .gpu_axis = 0, .workload_path = a->file,
                         .workload_text = S->text, .workload_len = S->len, .workload_name = S->w.name,
                         .variants = S->variants, .nvariants = S->nvariants, .max_cycles = a->max_cycles,
                         .max_instructions = a->max_instructions, .racecheck = a->racecheck, .threads = a->threads };
    char *context = NULL;
    size_t nctx = 0;
    FILE *ctx = open_memstream(&context, &nctx);
    if (!ctx) return false;
    fprintf(ctx, "gpusim %s\nworkload %016llx\nkernels %016llx\n", GPUSIM_VERSION,
            (unsigned long long)hash_fnv64(HASH_SWEEP_OFFSET, S->text, S->len), (unsigned long long)file_hash(S->w.kernel_file));
    for (uint32_t i = 0; i < gpu->nvalues; i++)
        fprintf(ctx, "machine %s %016llx\n", gpu->values[i], (unsigned long long)report_config_hash(&S->bases[i]));
    for (uint32_t i = 0; i < S->nvariants; i++) fprintf(ctx, "variant %s\n", S->variants[i]);
    fprintf(ctx, "max_cycles %llu\nmax_instructions %llu\nracecheck %d\n", (unsigned long long)a->max_cycles,
            (unsigned long long)a->max_instructions, a->racecheck);
    bool ok = fclose(ctx) == 0;
    if (ok) sweep_spec_hash(&S->spec, context, S->job.spec_hash);
    free(context);
    return ok;
}

/* An output never goes over an input of the sweep. */
static bool out_not_an_input(const Sweep *S)
{
    const SweepArgs *a = &S->a;
    const SweepAxis *gpu = &S->spec.axes[0];
    const char *inputs[] = { a->file, S->w.kernel_file };
    for (size_t k = 0; a->out && k < sizeof inputs / sizeof inputs[0]; k++)
        if (inputs[k] && cli_same_file(a->out, inputs[k])) {
            ERR("--out %s is an input of this sweep (%s): refusing to overwrite it", a->out, inputs[k]);
            return false;
        }
    for (uint32_t i = 0; a->out && i < gpu->nvalues; i++)
        if (cli_same_file(a->out, gpu->values[i])) {
            ERR("--out %s is an input of this sweep (the machine file %s): refusing to overwrite it", a->out,
                gpu->values[i]);
            return false;
        }
    return true;
}

/* The runs the --out file holds already (S->have): each line of this
** sweep's spec, of its shape, and once. */
static bool sweep_resume(Sweep *S)
{
    const SweepArgs *a = &S->a;
    Diag d;
    struct stat st;
    if (a->csv && stat(a->out, &st) == 0) {
        ERR("--out %s exists: CSV is written whole, not resumed; leave out --csv to write JSON lines, "
            "which resume (and convert them with gpusim sweep --merge %s --csv)", a->out, a->out);
        return false;
    }
    if (!a->csv && !sweep_file_read(a->out, true, &S->done, S->sink.plot ? sweep_plot_add : NULL, S->sink.plot, &d)) {
        diag_print(stderr, &d);
        return false;
    }
    for (size_t i = 0; i < S->done.n; i++) {
        const SweepLine *l = &S->done.lines[i];
        if (strcmp(l->spec, S->job.spec_hash) != 0) {
            ERR("--out %s holds runs of another sweep (line %zu: spec %s; this sweep is %s): give another "
                "--out, or remove the file to start over", a->out, i + 1, l->spec, S->job.spec_hash);
            return false;
        }
        if (l->points != S->spec.npoints || l->variants != S->nvariants) {
            ERR("--out %s: line %zu is of %llu points x %u variants, where this sweep has %llu x %u (the "
                "same spec hash: a damaged file?): give another --out, or remove the file to start over",
                a->out, i + 1, (unsigned long long)l->points, l->variants, (unsigned long long)S->spec.npoints,
                S->nvariants);
            return false;
        }
        uint64_t r = l->point * S->nvariants + l->variant;
        if (S->have[r / 8] >> (r % 8) & 1) {
            ERR("--out %s: line %zu repeats point %llu, variant %u", a->out, i + 1, (unsigned long long)l->point,
                l->variant);
            return false;
        }
        S->have[r / 8] |= (uint8_t)(1u << (r % 8));
    }
    return true;
}

/* This shard's points with a missing run: a point runs whole when any of
** its runs is missing (its ratio needs its first variant), and hands out
** only the missing lines. */
static bool sweep_points(Sweep *S)
{
    uint32_t nv = S->nvariants;
    S->points = malloc((size_t)S->spec.npoints * sizeof *S->points);
    if (!S->points) return false;
    for (uint64_t p = 0; p < S->spec.npoints; p++) {
        if (!sweep_shard_has(p, S->a.shard_i, S->a.shard_n)) continue;
        uint64_t missing = 0;
        for (uint32_t k = 0; k < nv; k++) missing += !(S->have[(p * nv + k) / 8] >> ((p * nv + k) % 8) & 1);
        S->mine += nv;
        S->need += missing;
        if (missing) S->points[S->npoints++] = p;
    }
    return true;
}

/* --out, locked before it is read for resuming: two sweeps on one file
** would each run what the other runs and write it twice. A device or a
** pipe is nobody's to share: not locked. */
static bool sweep_lock_output(Sweep *S)
{
    const char *out = S->a.out;
    struct stat st;
    bool existed = stat(out, &st) == 0;
    if (existed && !S_ISREG(st.st_mode)) return true;
    int fd = open(out, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) {
        ERR("cannot write %s: %s", out, strerror(errno));
        return false;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ERR("%s is being written by another gpusim sweep (it holds the file's lock): wait for that one to finish "
            "(this command then resumes where it stopped), or give another --out", out);
        close(fd);
        return false;
    }
    S->lock_fd = fd;
    S->created = !existed;
    return true;
}

/* The output, opened for appending (its torn last line dropped), or
** stdout; the CSV header. */
static bool sweep_open_output(Sweep *S)
{
    const SweepArgs *a = &S->a;
    Sink *s = &S->sink;
    s->csv = a->csv;
    s->name = a->out ? a->out : "stdout";
    s->out = stdout;
    s->synced = cli_now_seconds();
    if (a->out) {
        if (S->done.torn) {
            if (truncate(a->out, (off_t)S->done.whole_bytes) != 0) {
                ERR("cannot drop the torn last line of %s: %s", a->out, strerror(errno));
                return false;
            }
            fprintf(stderr, "gpusim sweep: %s: dropped its last line, cut short when the sweep was stopped\n", a->out);
        }
        if (!(s->out = fopen(a->out, "ab"))) {
            ERR("cannot write %s: %s", a->out, strerror(errno));
            return false;
        }
        setvbuf(s->out, NULL, _IOFBF, 1 << 20); /* one line, one write */
        if (S->done.n)
            fprintf(stderr, "gpusim sweep: %s holds %llu of this shard's %llu runs; running the other %llu\n", a->out,
                    (unsigned long long)(S->mine - S->need), (unsigned long long)S->mine, (unsigned long long)S->need);
    }
    if (s->csv) {
        SweepCsvColumns *c = &s->cols;
        c->set_keys = calloc(S->spec.naxes, sizeof *c->set_keys);
        c->param_keys = calloc(S->spec.naxes, sizeof *c->param_keys);
        if (!c->set_keys || !c->param_keys) return false;
        for (uint32_t k = 0; k < S->spec.naxes; k++) {
            if (S->spec.axes[k].kind == AXIS_SET) c->set_keys[c->nset++] = strdup(S->spec.axes[k].key);
            if (S->spec.axes[k].kind == AXIS_PARAM) c->param_keys[c->nparam++] = strdup(S->spec.axes[k].key);
        }
        sweep_csv_header(s->out, &s->cols);
    }
    return true;
}

int cmd_sweep(int argc, char **argv)
{
    Sweep *S = calloc(1, sizeof *S);
    if (!S) return ERR("out of host memory"), EXIT_BAD_INPUT;
    S->lock_fd = -1;
    sweep_spec_init(&S->spec);
    int rc = parse_args(argc, argv, &S->a);
    const SweepArgs *a = &S->a;
    if (rc != EXIT_OK) {
        rc = rc < 0 ? EXIT_OK : rc;
    } else if (a->merge) {
        rc = cmd_merge(a);
    } else if (!sweep_load(S) || !sweep_job(S) || !out_not_an_input(S) ||
               !(S->have = calloc((size_t)(S->spec.npoints * S->nvariants / 8 + 1), 1)) ||
               (a->plot && !(S->sink.plot = sweep_plot_create(a->x, a->y, a->series))) ||
               (a->out && (!sweep_lock_output(S) || !sweep_resume(S))) || !sweep_points(S) || !sweep_open_output(S)) {
        rc = EXIT_BAD_INPUT; /* reported, but for out of host memory */
        struct stat st;
        if (S->created && stat(a->out, &st) == 0 && st.st_size == 0) unlink(a->out); /* touch no file */
    } else { /* everything checked: the runs */
        Sink *s = &S->sink;
        char whyrun[256] = "";
        bool ran = sweep_run(&S->job, S->points, S->npoints, S->have, a->jobs, isatty(STDERR_FILENO), emit, s, whyrun,
                             sizeof whyrun);
        if (!ran && whyrun[0]) ERR("%s", whyrun);
        bool closed = close_out(s);
        rc = !ran || !closed || s->bad ? EXIT_BAD_INPUT : s->failed ? EXIT_CHECK_FAILED : EXIT_OK;
        if (s->failed || s->bad)
            fprintf(stderr, "gpusim sweep: %llu of %llu runs did not pass (their lines say why)\n",
                    (unsigned long long)(s->failed + s->bad), (unsigned long long)S->need);
        if (ran && closed) rc = finish_plot(s->plot, a->plot, rc);
    }
    sweep_free(S);
    free(S);
    return rc;
}
