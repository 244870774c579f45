/* tests/sim_run.h -- the small harness the timing-model suites share
** (check_gpu, check_gpu_probes, check_pcstats): a kernel from text (mini
** ISA, or PTX when it starts with .version) or from a file, a machine
** preset, fresh global memory with named buffers, and a one-block-of-one
** launch to fill in. */
#ifndef GPUSIM_TESTS_SIM_RUN_H
#define GPUSIM_TESTS_SIM_RUN_H

#include <check.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/load.h"
#include "sim/gpu.h"

typedef struct {
    Program   prog;
    GpuConfig cfg;
    GlobalMem *gmem;
    Launch    L;
    uint32_t  params[8];
    SimResult r;
} Run;

/* The launch's fixed part, once t->prog holds the kernel's program. */
static inline void run_launch(Run *t, const char *gpu, const char *file, const char *kernel)
{
    Diag d;
    ck_assert_msg(config_load(gpu, &t->cfg, &d), "%s", d.message);
    t->gmem = gmem_create();
    char msg[512];
    t->L.kernel = program_match_kernel(&t->prog, kernel, msg, sizeof msg);
    ck_assert_msg(t->L.kernel != NULL, "%s", msg);
    t->L.kernel_file = file;
    t->L.gmem = t->gmem;
    t->L.params = t->params;
    t->L.grid[0] = t->L.grid[1] = t->L.grid[2] = t->L.block[1] = t->L.block[2] = 1;
}

static inline void run_init(Run *t, const char *gpu, const char *src, const char *kernel)
{
    memset(t, 0, sizeof *t);
    Diag d;
    KernelFileKind kind = program_file_kind(NULL, src, strlen(src));
    const char *file = kind == KFILE_PTX ? "test.ptx" : "test.asm";
    ck_assert_msg(program_parse(kind, src, strlen(src), file, &t->prog, &d), "%s:%u:%u: %s", file, d.line, d.col,
                  d.message);
    run_launch(t, gpu, file, kernel);
}

/* The same with the kernel read from a file (its front end by extension). */
static inline void run_init_file(Run *t, const char *gpu, const char *file, const char *kernel)
{
    memset(t, 0, sizeof *t);
    Diag d;
    ck_assert_msg(program_load_file(file, &t->prog, &d), "%s:%u:%u: %s", file, d.line, d.col, d.message);
    run_launch(t, gpu, file, kernel);
}

/* A zeroed buffer of global memory named `name`: its address. */
static inline uint32_t buffer(Run *t, uint64_t bytes, const char *name)
{
    Diag d;
    uint32_t a = gmem_alloc(t->gmem, bytes, name, &d);
    ck_assert_msg(a != 0, "%s", d.message);
    return a;
}

/* --set KEY=VALUE on the run's machine */
static inline void set(Run *t, const char *kv)
{
    Diag d;
    ck_assert_msg(config_set(&t->cfg, kv, &d), "%s", d.message);
}

/* Validates the machine and simulates the launch into t->r; false when the
** launch did not finish (t->r.status says why). */
static inline bool simulate(Run *t)
{
    Diag d;
    ck_assert_msg(config_validate(&t->cfg, &d), "%s", d.message);
    return gpu_simulate(&t->cfg, &t->L, NULL, &t->r);
}

static inline void run_free(Run *t)
{
    gmem_destroy(t->gmem);
    program_destroy(&t->prog);
}

#endif
