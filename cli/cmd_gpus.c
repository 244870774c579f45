/* cli/cmd_gpus.c -- `gpusim gpus`: the machines. Without arguments, one
** line of headline figures per preset; with a preset name or machine file
** (plus any --set), the whole GpuConfig as JSON, in the shape a machine file
** takes; --knobs lists every knob --set accepts; --diff A B the knobs in
** which two machines differ.                                             */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpusim gpus                                list the presets\n"
            "       gpusim gpus NAME|FILE [--set key=value]... print one machine as JSON\n"
            "       gpusim gpus --knobs                        list every knob --set accepts\n"
            "       gpusim gpus --diff A B [--set key=value]... the knobs in which two machines differ\n\n"
            "The JSON printed for a machine is a complete machine file: save it, edit it and\n"
            "pass it to --gpu FILE. A machine file may also say \"base\": NAME-or-FILE and give only\n"
            "the knobs it changes; FILE then prints the merged machine. --set applies overrides\n"
            "(in order) before printing; with --diff it changes B (so 'gpus --diff a100 a100\n"
            "--set sm.count=200' shows one knob).\n");
}

static void list_presets(void)
{
    printf("%-8s %-5s %4s %9s %9s %6s %8s %12s  %s\n", "name", "cc", "SMs", "clock MHz", "DRAM GB/s",
           "L2 MB", "warps/SM", "shared KB/SM", "description");
    for (size_t i = 0; i < config_preset_count(); i++) {
        GpuConfig c;
        Diag d;
        if (!config_load(config_preset_name(i), &c, &d)) {
            /* a broken compiled-in preset is a bug, but say which one */
            diag_print(stderr, &d);
            continue;
        }
        char cc[16];
        snprintf(cc, sizeof cc, "%u.%u", c.compute_capability / 10, c.compute_capability % 10);
        printf("%-8s %-5s %4u %9g %9g %6g %8u %12g  %s\n", c.name, cc, c.sm_count, c.clock_mhz,
               c.dram_bandwidth_gbs, c.l2_size / 1048576.0, c.sm_max_warps, c.sm_shared_memory / 1024.0,
               c.description);
    }
}

/* One line per knob whose value differs, in sim/config.def order: key, A's
** value, B's value (as --set writes them). */
static int diff_machines(const char *a, const char *b, char **sets, int nsets)
{
    GpuConfig ca, cb;
    Diag d;
    const char *names[2] = { a, b };
    for (int m = 0; m < 2; m++)
        if (!cli_load_gpu(names[m], m ? sets : NULL, m ? nsets : 0, m ? &cb : &ca, &d)) {
            if (strcmp(d.file, "--gpu") == 0) snprintf(d.file, sizeof d.file, "gpusim gpus --diff");
            diag_print(stderr, &d);
            return EXIT_BAD_INPUT;
        }
    int wk = (int)strlen("knob"), wa = (int)strlen(a), differ = 0;
    size_t n = config_knob_count();
    for (size_t i = 0; i < n; i++) {
        char va[64], vb[64];
        config_knob_text(&ca, i, va, sizeof va);
        config_knob_text(&cb, i, vb, sizeof vb);
        if (strcmp(va, vb) == 0) continue;
        differ++;
        if ((int)strlen(config_knob_key(i)) > wk) wk = (int)strlen(config_knob_key(i));
        if ((int)strlen(va) > wa) wa = (int)strlen(va);
    }
    printf("%s: %s\n%s: %s\n", a, ca.description, b, cb.description);
    if (!differ) {
        printf("no knob differs (%zu knobs)\n", n);
        return EXIT_OK;
    }
    printf("\n%-*s  %-*s  %s\n", wk, "knob", wa, a, b);
    for (size_t i = 0; i < n; i++) {
        char va[64], vb[64];
        config_knob_text(&ca, i, va, sizeof va);
        config_knob_text(&cb, i, vb, sizeof vb);
        if (strcmp(va, vb) != 0) printf("%-*s  %-*s  %s\n", wk, config_knob_key(i), wa, va, vb);
    }
    printf("%d of %zu knobs differ\n", differ, n);
    return EXIT_OK;
}

int cmd_gpus(int argc, char **argv)
{
    const char *gpu = NULL, *diff[2] = { NULL, NULL };
    bool knobs = false;
    int nsets = 0;
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) return cli_error("gpus", "out of memory");

    int status = EXIT_BAD_INPUT;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            status = EXIT_OK;
            goto done;
        } else if (strcmp(argv[i], "--knobs") == 0) {
            knobs = true;
        } else if (strcmp(argv[i], "--diff") == 0) {
            if (i + 2 >= argc || argv[i + 1][0] == '-' || argv[i + 2][0] == '-') {
                cli_error("gpus", "--diff needs two machines: gpusim gpus --diff A B");
                goto done;
            }
            diff[0] = argv[++i];
            diff[1] = argv[++i];
        } else if (cli_option(argc, argv, &i, "--set", &v)) {
            if (!v) {
                cli_error("gpus", "--set needs a value (key=value)");
                goto done;
            }
            sets[nsets++] = (char *)v;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("gpus", "unknown option '%s'", argv[i]);
            usage(stderr);
            goto done;
        } else if (gpu) {
            cli_error("gpus", "one machine at a time ('%s' and '%s')", gpu, argv[i]);
            goto done;
        } else {
            gpu = argv[i];
        }
    }
    if (diff[0]) {
        if (gpu || knobs) {
            cli_error("gpus", "--diff takes its two machines and nothing else but --set");
            goto done;
        }
        status = diff_machines(diff[0], diff[1], sets, nsets);
        goto done;
    }
    if (knobs) {
        if (gpu || nsets) {
            cli_error("gpus", "--knobs takes no machine and no --set");
            goto done;
        }
        config_print_knobs(stdout);
        status = EXIT_OK;
        goto done;
    }
    if (!gpu) {
        if (nsets) {
            cli_error("gpus", "--set needs a machine to change: gpusim gpus NAME --set key=value");
            goto done;
        }
        list_presets();
        status = EXIT_OK;
        goto done;
    }

    GpuConfig c;
    Diag d;
    if (!cli_load_gpu(gpu, sets, nsets, &c, &d)) {
        /* the machine is a positional argument here, not --gpu */
        if (strcmp(d.file, "--gpu") == 0) snprintf(d.file, sizeof d.file, "gpusim gpus");
        diag_print(stderr, &d);
        goto done;
    }
    char *json = config_to_json(&c);
    if (!json) {
        cli_error("gpus", "out of memory");
        goto done;
    }
    fputs(json, stdout);
    free(json);
    status = EXIT_OK;
done:
    free(sets);
    return status;
}
