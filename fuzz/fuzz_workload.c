/* fuzz/fuzz_workload.c -- libFuzzer harness for the workload loader
** (workloads/loader.c, with workloads/expr.c and the assembler behind it)
** and workloads/run.c, which prepares and judges the variants that load.
** Input: the bytes before the first NUL are a workload JSON text, the bytes
** after it --param overrides ("name=expression"), one per line (at most
** 16). The text is loaded for the a100 preset as if it were the file
** workloads/fuzz.json of the source tree, so "kernels" paths such as
** "kernels/transpose.asm" find the repository's kernels.
** A workload that loads is also prepared, variant by variant, when its
** buffers are small (at most 1 MiB together): buffers filled, expected
** check contents computed by the CPU references, the kernel run
** functionally under a budget when the grid is small, and every check
** compared. Larger ones are only loaded: refusing them is the CLI's job and
** is tested by tests/json_corpus.                                        */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/grid.h"
#include "workloads/loader.h"
#include "workloads/run.h"

#define FUZZ_MAX_PARAMS       16
#define FUZZ_MAX_BUFFER_BYTES (1u << 20)
#define FUZZ_MAX_THREADS      8192u
#define FUZZ_BUDGET           20000u

static GpuConfig machine;
static int machine_ok;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    Diag d;
    machine_ok = config_load("a100", &machine, &d);
    if (!machine_ok) fprintf(stderr, "fuzz_workload: cannot load a100: %s\n", d.message);
    /* a "kernels" path of /dev/stdin must not wait for a terminal */
    if (!freopen("/dev/null", "r", stdin)) perror("freopen");
    return 0;
}

static void exercise(const Workload *w)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < w->nbuffers; i++) bytes += w->buffers[i].count * 4u;
    if (bytes > FUZZ_MAX_BUFFER_BYTES) return;
    for (uint32_t v = 0; v < w->nvariants; v++) {
        const WlVariant *var = &w->variants[v];
        WlRun r;
        Diag d;
        if (!workload_prepare(w, var, &r, &d)) continue;
        for (uint32_t k = 0; k < var->nlaunches; k++) {
            const WlLaunch *l = &var->launches[k];
            uint64_t threads = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
            if (threads > FUZZ_MAX_THREADS) continue;
            GridLaunch L = { .grid = { l->grid[0], l->grid[1], l->grid[2] },
                             .block = { l->block[0], l->block[1], l->block[2] },
                             .dynamic_smem = l->dynamic_smem, .params = r.params[k], .nsm = machine.sm_count,
                             .max_warp_instructions = FUZZ_BUDGET };
            GridResult gr;
            grid_run_functional(l->kernel, r.gmem, &L, &gr);
        }
        /* same_as checks find no other result here (r.other stays NULL): they
        ** report it rather than compare */
        for (uint32_t c = 0; c < var->nchecks; c++) {
            WlCheckResult cr;
            workload_compare(w, var, c, &r, &cr);
        }
        workload_run_free(&r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!machine_ok) return 0;
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t json_len = nul ? (size_t)(nul - text) : size;

    /* --param lines after the NUL */
    char *overrides[FUZZ_MAX_PARAMS];
    size_t nover = 0;
    if (nul) {
        size_t i = json_len + 1;
        while (i < size && nover < FUZZ_MAX_PARAMS) {
            size_t j = i;
            while (j < size && text[j] != '\n' && text[j] != '\0') j++;
            char *s = malloc(j - i + 1);
            if (!s) break;
            memcpy(s, text + i, j - i);
            s[j - i] = '\0';
            overrides[nover++] = s;
            i = j + 1;
        }
    }

    Workload w;
    Diag d;
    if (workload_parse(text, json_len, GPUSIM_SOURCE_DIR "/workloads/fuzz.json", &machine,
                       (const char *const *)overrides, nover, &w, &d)) {
        exercise(&w);
        workload_destroy(&w);
    }
    for (size_t i = 0; i < nover; i++) free(overrides[i]);
    return 0;
}
