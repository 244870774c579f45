/* bench/bench.c -- how fast the simulator runs: a fixed set of kernels,
** each simulated several times; prints simulated warp instructions per host
** second and wall time (median, min, max). One host thread unless --threads N; Release build.
** Compute-bound: the divergence kernels (FMA loops). Memory-bound: vector
** add and the transposes (coalescer, caches, DRAM queue). Shared: the tiled
** matrix product (shared-memory loads that are broadcasts or consecutive).
** Sizes are fixed so numbers compare across commits on one machine; run
** before/after in one session since the host is noisy. The "(ptx)" cases
** run the CUDA twin of the same kernel from its committed nvcc output
** (the .ptx files of tests/ptx), for the PTX path's speed against the mini ISA's on
** the same launch (compare the wall times: a PTX instruction counts the
** SASS instructions it stands for, so the warp-instruction totals differ).
** The "(h200)" cases run on the calibrated preset, whose scheduler (rr),
** register read ports and two L2 partitions the a100's cases never take.
** Each case runs in a child process, so its peak RSS (wait4's ru_maxrss) is
** its own; CPU seconds are printed beside wall seconds because on a shared
** host the wall time includes the time other processes held the core.
** --small shrinks every case (for callgrind, ~50x slower than native), so
** host instructions per warp instruction can be counted in a minute.
** --threads N runs each launch on N host threads (sim/par.c). */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "isa/load.h"
#include "sim/gpu.h"

typedef enum { LAYOUT_DIVERGENCE, LAYOUT_TRANSPOSE, LAYOUT_VECADD, LAYOUT_GEMM } Layout;

typedef struct {
    const char *name, *file, *kernel, *kind;
    Layout      layout;     /* which arguments the kernel takes                      */
    uint32_t    sms;        /* SMs of the preset kept (smaller = faster bench)      */
    uint32_t    blocks_per_sm, block_x, block_y;
    uint32_t    n;          /* problem size (transpose side / vector elements)      */
    const char *gpu;        /* preset; NULL: the a100                               */
} Case;

static const Case CASES[] = {
    { "divergence/uniform",    "divergence.asm", "uniform",         "compute", LAYOUT_DIVERGENCE, 16, 8, 256, 1, 0, NULL },
    { "divergence/divergent",  "divergence.asm", "divergent",       "compute", LAYOUT_DIVERGENCE, 16, 8, 256, 1, 0, NULL },
    { "vecadd/scalar",         "vecadd.asm",     "vecadd_scalar",   "memory",  LAYOUT_VECADD, 108, 0, 256, 1, 1u << 22, NULL },
    { "vecadd/float4",         "vecadd.asm",     "vecadd_float4",   "memory",  LAYOUT_VECADD, 108, 0, 256, 1, 1u << 22, NULL },
    { "transpose/copy",        "transpose.asm",  "copy",            "memory",  LAYOUT_TRANSPOSE, 108, 0, 32, 32, 2048, NULL },
    { "transpose/naive",       "transpose.asm",  "transpose_naive", "memory",  LAYOUT_TRANSPOSE, 108, 0, 32, 32, 2048, NULL },
    { "transpose/tiled_padded","transpose.asm",  "transpose_tiled_padded", "memory", LAYOUT_TRANSPOSE, 108, 0, 32, 32, 2048, NULL },
    { "gemm/tiled",            "gemm.asm",       "gemm_tiled",      "shared",  LAYOUT_GEMM, 108, 0, 16, 16, 256, NULL },
    { "divergence/uniform (ptx)",   "ptx:divergence.ptx", "uniform",   "compute", LAYOUT_DIVERGENCE, 16, 8, 256, 1, 0, NULL },
    { "divergence/divergent (ptx)", "ptx:divergence.ptx", "divergent", "compute", LAYOUT_DIVERGENCE, 16, 8, 256, 1, 0, NULL },
    { "vecadd/scalar (ptx)",        "ptx:vecadd.ptx",     "vecadd_scalar", "memory", LAYOUT_VECADD, 108, 0, 256, 1, 1u << 22, NULL },
    { "transpose/tiled_padded (ptx)", "ptx:transpose.ptx", "transpose_tiled_padded", "memory", LAYOUT_TRANSPOSE, 108, 0, 32, 32, 2048, NULL },
    { "divergence/uniform (h200)",  "divergence.asm", "uniform",       "compute", LAYOUT_DIVERGENCE, 16, 8, 256, 1, 0, "h200" },
    { "vecadd/scalar (h200)",       "vecadd.asm",     "vecadd_scalar", "memory",  LAYOUT_VECADD, 132, 0, 256, 1, 1u << 22, "h200" },
};

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One simulation of case c; returns wall seconds, *cpu the process's CPU
** seconds, *insts the warp instructions. small: the --small sizes. */
static double run_once(const Case *c, const Kernel *k, const GpuConfig *cfg, bool small, uint32_t threads, double *cpu,
                       uint64_t *insts)
{
    Diag d;
    GlobalMem *g = gmem_create();
    uint32_t args[4] = { 0 }, params[ISA_MAX_PARAM_WORDS] = { 0 };
    Launch L = { .kernel = k, .kernel_file = c->file, .gmem = g, .params = params, .threads = threads };
    L.block[0] = c->block_x, L.block[1] = c->block_y, L.block[2] = 1;
    L.grid[1] = L.grid[2] = 1;
    if (c->layout == LAYOUT_DIVERGENCE) { /* out, iters */
        L.grid[0] = c->blocks_per_sm * cfg->sm_count;
        args[0] = gmem_alloc(g, (uint64_t)L.grid[0] * c->block_x * 4, "out", &d);
        args[1] = small ? 200 : 2000;
    } else if (c->layout == LAYOUT_VECADD) { /* a, b, c, n */
        uint32_t n = small ? c->n / 8 : c->n;
        uint64_t bytes = (uint64_t)n * 4;
        args[0] = gmem_alloc(g, bytes, "a", &d);
        args[1] = gmem_alloc(g, bytes, "b", &d);
        args[2] = gmem_alloc(g, bytes, "c", &d);
        args[3] = n;
        uint32_t per_thread = strstr(c->kernel, "float4") ? 4 : 1;
        L.grid[0] = (n / per_thread + c->block_x - 1) / c->block_x;
    } else if (c->layout == LAYOUT_GEMM) { /* A, B, C, n: 16 x 16 blocks of C, shared-memory tiles */
        uint32_t n = small ? c->n / 4 : c->n;
        uint64_t bytes = (uint64_t)n * n * 4;
        args[0] = gmem_alloc(g, bytes, "A", &d);
        args[1] = gmem_alloc(g, bytes, "B", &d);
        args[2] = gmem_alloc(g, bytes, "C", &d);
        args[3] = n;
        L.grid[0] = L.grid[1] = (n + 15) / 16;
    } else { /* transpose family: in, out, n */
        uint32_t n = small ? c->n / 4 : c->n;
        uint64_t bytes = (uint64_t)n * n * 4;
        args[0] = gmem_alloc(g, bytes, "in", &d);
        args[1] = gmem_alloc(g, bytes, "out", &d);
        args[2] = n;
        L.grid[0] = L.grid[1] = (n + 31) / 32;
    }
    for (uint32_t i = 0; i < k->nparams && i < 4; i++) params[k->params[i].offset / 4] = args[i]; /* a .u64's high word: 0 */
    SimResult *r = malloc(sizeof *r);
    double t0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    bool ok = r && gpu_simulate(cfg, &L, NULL, r);
    double t = seconds(CLOCK_MONOTONIC) - t0;
    *cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (!ok) {
        fprintf(stderr, "gpusim-bench: %s failed: %s\n", c->name, r ? r->message : "out of memory");
        exit(1);
    }
    *insts = r->stats.warp_instructions;
    free(r);
    gmem_destroy(g);
    return t;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof t[0], cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* Runs case c `repeat` times and prints its line but the RSS column. */
static int run_case(const Case *c, int repeat, bool small, uint32_t threads)
{
    char path[1024];
    if (strncmp(c->file, "ptx:", 4) == 0) snprintf(path, sizeof path, "%s/tests/ptx/%s", GPUSIM_SOURCE_DIR, c->file + 4);
    else snprintf(path, sizeof path, "%s/workloads/kernels/%s", GPUSIM_SOURCE_DIR, c->file);
    Program prog;
    GpuConfig cfg;
    Diag d;
    char set[64];
    snprintf(set, sizeof set, "sm.count=%u", c->sms);
    if (!program_load_file(path, &prog, &d) || !config_load(c->gpu ? c->gpu : "a100", &cfg, &d) || !config_set(&cfg, set, &d)) {
        diag_print(stderr, &d);
        return 2;
    }
    char why[1024];
    const Kernel *k = program_match_kernel(&prog, c->kernel, why, sizeof why);
    if (!k) {
        fprintf(stderr, "gpusim-bench: %s: %s\n", c->name, why);
        return 2;
    }
    if (!kernel_runnable(&prog, k, &d)) {
        diag_print(stderr, &d);
        return 2;
    }
    double t[100], cpu[100];
    uint64_t insts = 0;
    for (int r = 0; r < repeat; r++) t[r] = run_once(c, k, &cfg, small, threads, &cpu[r], &insts);
    double lo = t[0], hi = t[0];
    for (int r = 1; r < repeat; r++) lo = t[r] < lo ? t[r] : lo, hi = t[r] > hi ? t[r] : hi;
    double med = median(t, repeat), cmed = median(cpu, repeat);
    printf("%-30s %-8s %12llu %9.3f %9.3f %9.3f %9.3f %10.2f %10.2f", c->name, c->kind, (unsigned long long)insts, med,
           lo, hi, cmed, (double)insts / med / 1e6, (double)insts / cmed / 1e6);
    fflush(stdout);
    program_destroy(&prog);
    return 0;
}

int main(int argc, char **argv)
{
    int repeat = 3;
    bool small = false;
    uint32_t threads = 1;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--small") == 0) small = true;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--list") == 0) {
            for (size_t ci = 0; ci < sizeof CASES / sizeof CASES[0]; ci++) printf("%s\n", CASES[ci].name);
            return 0;
        }
        else {
            printf("usage: gpusim-bench [--repeat N] [--case NAME] [--small] [--threads N] | --list\n"
                   "Simulates a fixed set of kernels N times (default 3) and prints the median\n"
                   "simulated warp instructions per host second (wall and CPU) and each case's\n"
                   "peak RSS. --small: every case smaller (for callgrind). --threads N: each\n"
                   "launch on N host threads (Launch.threads; CPU seconds are then summed over them).\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (repeat < 1 || repeat > 100) repeat = 3;
    if (threads < 1 || threads > GPU_MAX_THREADS) threads = 1;
    printf("%-30s %-8s %12s %9s %9s %9s %9s %10s %10s %8s\n", "case", "kind", "warp-insts", "median s", "min s", "max s",
           "cpu s", "Minst/s", "Minst/cpu", "RSS MiB");
    fflush(stdout);
    for (size_t ci = 0; ci < sizeof CASES / sizeof CASES[0]; ci++) {
        const Case *c = &CASES[ci];
        if (only && strcmp(only, c->name) != 0) continue;
        pid_t pid = fork();
        if (pid < 0) {
            perror("gpusim-bench: fork");
            return 2;
        }
        if (pid == 0) _exit(run_case(c, repeat, small, threads));
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
            fprintf(stderr, "gpusim-bench: %s failed\n", c->name);
            return 1;
        }
        printf(" %8.1f\n", (double)ru.ru_maxrss / 1024.0); /* Linux: ru_maxrss in KiB */
        fflush(stdout);
    }
    return 0;
}
