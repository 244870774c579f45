/* tests/check_gpu_probes.c -- the timing model on the small cases the H200
** probes of validate/probes/ measured (outputs in
** validate/results/h200/probes-2026-12-01/), on the h200 preset: each test
** builds the probe's kernel as assembly text, runs it on one or a few SMs
** and compares with the measured figure.                                  */
#include <check.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/ptx.h"
#include "sim/gpu.h"
#include "tests/sim_run.h"

static uint64_t run_cycles(const char *src, uint32_t threads)
{
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    t.L.block[0] = threads;
    Diag d;
    ck_assert_msg(config_validate(&t.cfg, &d), "%s", d.message);
    ck_assert_msg(gpu_simulate(&t.cfg, &t.L, NULL, &t.r), "%s", t.r.message);
    uint64_t c = t.r.stats.cycles;
    run_free(&t);
    return c;
}

/* ---- shared memory: smem.cu "lat" (one warp, dependent loads) ---- */

/* One warp: lane l's cell at byte offset l * stride holds its own offset, so
** each load's address is the previous load's value; `loads` of them in a row. */
static uint64_t smem_chase_cycles(uint32_t width, uint32_t stride, uint32_t loads)
{
    char src[8192];
    int n = snprintf(src, sizeof src,
                     ".kernel k\n.shared buf 16384\n"
                     "    mov.u32 %%r0, %%tid.x\n"
                     "    mul.lo.u32 %%r1, %%r0, %u\n"
                     "    st.shared.u32 [%%r1+buf], %%r1\n"
                     "    bar.sync 0\n",
                     stride);
    for (uint32_t i = 0; i < loads; i++)
        n += snprintf(src + n, sizeof src - (size_t)n,
                      width == 4   ? "    ld.shared.u32 %%r1, [%%r1+buf]\n"
                      : width == 8 ? "    ld.shared.v2.u32 {%%r1, %%r2}, [%%r1+buf]\n"
                                   : "    ld.shared.v4.u32 {%%r1, %%r2, %%r3, %%r4}, [%%r1+buf]\n");
    snprintf(src + n, sizeof src - (size_t)n, "    exit\n");
    return run_cycles(src, 32);
}

static const struct { uint32_t width, stride, measured; } smem_lat[] = {
    {4, 4, 23},  /* s1 */     {4, 0, 23},  /* bcast */ {4, 8, 25},  /* s2 */ {4, 16, 29}, /* s4 */
    {4, 128, 85}, /* s32 */   {8, 8, 26},  /* s1 */    {8, 0, 23},  /* bcast */
    {16, 16, 32}, /* s1 */    {16, 0, 26}, /* bcast */ {16, 32, 40}, /* s2 */
};

START_TEST(test_shared_load_latency)
{
    uint32_t w = smem_lat[_i].width, s = smem_lat[_i].stride;
    double lat = (double)(smem_chase_cycles(w, s, 16) - smem_chase_cycles(w, s, 8)) / 8.0;
    ck_assert_msg(fabs(lat - smem_lat[_i].measured) <= 1.0, "%u-byte loads at lane stride %u B: %.1f cycles, H200 %u", w,
                  s, lat, smem_lat[_i].measured);
}
END_TEST

/* ---- block residency: residency.cu "slots" ---- */

/* Blocks of one warp that each run a chain of `iters` dependent FMAs, one
** block per SM at a time (the shared memory they ask for): after the first,
** each block starts sm.block_refill_latency after the one before it ends,
** so n blocks on one SM take n lifetimes and n - 1 refills. */
static uint64_t one_slot_cycles(uint32_t blocks, uint32_t refill)
{
    const char *src = ".kernel k\n.param .s32 iters\n.shared pad\n"
                      "    ld.param.s32 %r1, [iters]\n"
                      "    mov.f32 %r6, 1.0\n"
                      "    mov.u32 %r7, 0\n"
                      "LOOP:\n"
                      "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n"
                      "    add.s32 %r7, %r7, 1\n"
                      "    setp.lt.s32 %p0, %r7, %r1\n"
                      "    @%p0 bra LOOP\n"
                      "    exit\n";
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    char kv[64];
    snprintf(kv, sizeof kv, "sm.block_refill_latency=%u", refill);
    set(&t, kv);
    t.params[0] = 100;
    t.L.grid[0] = blocks;
    t.L.block[0] = 32;
    t.L.dynamic_smem = 200 * 1024; /* one block per SM */
    Diag d;
    ck_assert_msg(config_validate(&t.cfg, &d), "%s", d.message);
    ck_assert_msg(gpu_simulate(&t.cfg, &t.L, NULL, &t.r), "%s", t.r.message);
    ck_assert_uint_eq(t.r.stats.occ.blocks_per_sm, 1);
    uint64_t c = t.r.stats.cycles;
    run_free(&t);
    return c;
}

START_TEST(test_slot_refill_latency)
{
    ck_assert_uint_eq(one_slot_cycles(1, 375), one_slot_cycles(1, 0)); /* the first wave does not wait */
    int64_t with = (int64_t)one_slot_cycles(9, 375), without = (int64_t)one_slot_cycles(9, 0);
    ck_assert_msg(llabs(with - without - 8 * 375) <= 8, "9 blocks on one slot: %lld cycles, %lld without the refill",
                  (long long)with, (long long)without);
}
END_TEST

/* ---- barriers: barrier.cu, one block per SM ---- */

/* `bars` bar.sync back to back in a block of `warps` warps. */
static uint64_t barriers_cycles(uint32_t warps, uint32_t bars)
{
    char src[4096];
    int n = snprintf(src, sizeof src, ".kernel k\n");
    for (uint32_t i = 0; i < bars; i++) n += snprintf(src + n, sizeof src - (size_t)n, "    bar.sync 0\n");
    snprintf(src + n, sizeof src - (size_t)n, "    exit\n");
    return run_cycles(src, 32 * warps);
}

static const struct { uint32_t warps, measured; } bar_cost[] = {
    {1, 14}, {2, 16}, {4, 20}, {8, 28}, {16, 44}, {32, 76},
};

START_TEST(test_barrier_cost)
{
    uint32_t w = bar_cost[_i].warps;
    double per = (double)(barriers_cycles(w, 16) - barriers_cycles(w, 8)) / 8.0;
    ck_assert_msg(fabs(per - bar_cost[_i].measured) <= 2.0, "%u warps: %.1f cycles per bar.sync, H200 %u", w, per,
                  bar_cost[_i].measured);
}
END_TEST

/* ---- a loop's own path: branch.cu, one warp per scheduler ---- */

/* A loop of `iters` iterations whose body is `body`, one letter per
** instruction in the order ptxas emitted it (branch.sass_summary): A the
** counter's add, S its compare, F an FMA on its own accumulator (the
** next of 16), D an FMA on one chain, B the branch back. The counter
** starts at tid.x >> 10 (0, but per thread: a vector IADD3, as in
** branch.cu's SASS), or at 0 when `uniform` (a UIADD3, as in waves). */
static uint64_t loop_cycles_as(const char *body, uint32_t iters, bool uniform)
{
    char src[8192];
    int n = snprintf(src, sizeof src,
                     ".kernel k\n"
                     "%s"
                     "    mov.u32 %%r1, %u\n"
                     "LOOP:\n",
                     uniform ? "    mov.u32 %r0, 0\n" : "    mov.u32 %r20, %tid.x\n    shr.u32 %r0, %r20, 10\n", iters);
    uint32_t f = 0;
    for (const char *c = body; *c; c++) {
        if (*c == 'A') n += snprintf(src + n, sizeof src - (size_t)n, "    add.s32 %%r0, %%r0, 1\n");
        if (*c == 'S') n += snprintf(src + n, sizeof src - (size_t)n, "    setp.lt.u32 %%p0, %%r0, %%r1\n");
        if (*c == 'F') n += snprintf(src + n, sizeof src - (size_t)n, "    fma.rn.f32 %%r%u, %%r%u, 0.999, 0.5\n", 2 + f % 16, 2 + f % 16), f++;
        if (*c == 'D') n += snprintf(src + n, sizeof src - (size_t)n, "    fma.rn.f32 %%r2, %%r2, 0.999, 0.5\n");
        if (*c == 'B') n += snprintf(src + n, sizeof src - (size_t)n, "    @%%p0 bra LOOP\n");
    }
    snprintf(src + n, sizeof src - (size_t)n, "    exit\n");
    return run_cycles(src, 32);
}

static uint64_t loop_cycles(const char *body, uint32_t iters) { return loop_cycles_as(body, iters, false); }

static const struct { const char *mode, *body; double measured; } loop_cost[] = {
    {"ffma1", "AFSB", 27.06},
    {"ind4", "AFFFSFB", 27.05},
    {"ind8", "AFFFSFFFFFB", 27.05},
    {"ind16", "AFFFSFFFFFFFFFFFFFB", 28.10},
    {"dep8", "DADSDDDDDDB", 39.11},
    {"dep16", "DADSDDDDDDDDDDDDDDB", 71.23},
};

START_TEST(test_loop_path)
{
    const char *body = loop_cost[_i].body;
    double per = (double)(loop_cycles(body, 64) - loop_cycles(body, 32)) / 32.0;
    ck_assert_msg(fabs(per - loop_cost[_i].measured) <= 1.0, "%s: %.2f cycles an iteration, H200 %.2f",
                  loop_cost[_i].mode, per, loop_cost[_i].measured);
}
END_TEST

/* The waves twin's loop, its counter on the uniform datapath: 29.0 cycles
** an iteration (a wave of 60.1 us, 4096 iterations); on a vector counter
** 27.06 (branch.cu ffma1). */
START_TEST(test_uniform_loop)
{
    double uni = (double)(loop_cycles_as("AFSB", 64, true) - loop_cycles_as("AFSB", 32, true)) / 32.0;
    double vec = (double)(loop_cycles("AFSB", 64) - loop_cycles("AFSB", 32)) / 32.0;
    ck_assert_msg(fabs(uni - 29.0) <= 1.0, "uniform counter: %.2f cycles an iteration, H200 29.0", uni);
    ck_assert_msg(fabs(vec - 27.06) <= 1.0, "vector counter: %.2f cycles an iteration, H200 27.06", vec);
}
END_TEST

/* ---- the register file's read ports: dep_issue.cu ---- */

/* Two blocks of 768 threads on one SM (12 warps per scheduler: GTO runs
** them three at a time, and twelve leave no warp to finish alone), each
** thread one dependent chain of `links` instructions `op`. */
static KernelStats chain_run(const char *op, uint32_t links, const char *knob)
{
    char src[16384];
    int n = snprintf(src, sizeof src, ".kernel k\n    mov.f32 %%r2, 1.0\n    mov.f32 %%r3, 0.999\n    mov.f32 %%r4, 0.5\n");
    for (uint32_t i = 0; i < links; i++) n += snprintf(src + n, sizeof src - (size_t)n, "    %s\n", op);
    snprintf(src + n, sizeof src - (size_t)n, "    exit\n");
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    if (knob) set(&t, knob);
    t.L.block[0] = 768;
    t.L.grid[0] = 2;
    ck_assert_msg(gpu_simulate(&t.cfg, &t.L, NULL, &t.r), "%s", t.r.message);
    KernelStats st = t.r.stats;
    run_free(&t);
    return st;
}

/* The chain instructions issued per cycle per scheduler, from the cycles
** that 64 more links add. */
static double chain_rate(const char *op, const char *knob)
{
    uint64_t c64 = chain_run(op, 64, knob).cycles, c128 = chain_run(op, 128, knob).cycles;
    return 64.0 * 12 / (double)(c128 - c64);
}

/* dep_issue.h200.txt at 16 warps per scheduler (8: 0.653, 0.876, 0.904):
** an FFMA reading three registers issues at 0.668 a cycle, one reading a
** register and an immediate besides its chain at 0.924, an FMUL reading one
** at 0.945. The model's two reads a cycle give 2/3 and 1 (the probe's loop
** instructions take the rest of the last two). */
static const struct { const char *mode, *op; double measured; } chain_cost[] = {
    {"ffma_rr", "fma.rn.f32 %r2, %r2, %r3, %r4", 0.668},
    {"ffma_ri", "fma.rn.f32 %r2, %r2, %r3, 0.5", 0.924},
    {"fmul_i", "mul.f32 %r2, %r2, 0.9999", 0.945},
};

START_TEST(test_register_reads)
{
    double rate = chain_rate(chain_cost[_i].op, NULL);
    ck_assert_msg(fabs(rate - chain_cost[_i].measured) <= 0.08, "%s: %.3f instructions a cycle per scheduler, H200 %.3f",
                  chain_cost[_i].mode, rate, chain_cost[_i].measured);
}
END_TEST

/* The rule itself: three reads at two a cycle are 2/3 of an issue a cycle;
** a repeated source is read once; without the limit, one a cycle. */
START_TEST(test_register_reads_rule)
{
    double three = chain_rate(chain_cost[0].op, NULL);
    ck_assert_msg(fabs(three - 2.0 / 3.0) < 0.005, "three reads at two a cycle: %.4f, expected 2/3", three);
    double same = chain_rate("fma.rn.f32 %r2, %r2, %r3, %r3", NULL);
    ck_assert_msg(fabs(same - 1.0) < 0.005, "two distinct registers: %.4f, expected 1", same);
    double off = chain_rate(chain_cost[0].op, "sched.register_reads=0");
    ck_assert_msg(fabs(off - 1.0) < 0.005, "sched.register_reads=0: %.4f, expected 1", off);
    double four = chain_rate(chain_cost[0].op, "sched.register_reads=1");
    ck_assert_msg(fabs(four - 1.0 / 3.0) < 0.005, "three reads at one a cycle: %.4f, expected 1/3", four);
}
END_TEST

/* The same chain as PTX, its b operand from a parameter (ld.param, which
** ptxas folds into the FFMA as its constant-bank operand: two reads) or
** from a register computed in the kernel (three). */
/* reuse: after the chain a computed value is written to a new register,
** which takes the parameter's row (checked): the row then holds both. */
static double ptx_chain_rate(bool b_from_param, bool reuse)
{
    uint64_t cycles[2];
    for (int k = 0; k < 2; k++) {
        char src[32768];
        int n = snprintf(src, sizeof src,
                         ".version 8.0\n.target sm_90\n.address_size 64\n"
                         ".visible .entry k(.param .f32 k_param_0, .param .u64 k_param_1)\n{\n  .reg .f32 %%f<8>;\n"
                         "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
                         "  mov.u32 %%r0, %%tid.x;\n  cvt.rn.f32.u32 %%f1, %%r0;\n  add.f32 %%f2, %%f1, 0f3F000000;\n%s",
                         b_from_param ? "  ld.param.f32 %f3, [k_param_0];\n" : "  add.f32 %f3, %f1, 0f3E800000;\n");
        for (uint32_t i = 0; i < 64u * (k + 1); i++)
            n += snprintf(src + n, sizeof src - (size_t)n, "  fma.rn.f32 %%f1, %%f1, %%f2, %%f3;\n");
        if (reuse)
            n += snprintf(src + n, sizeof src - (size_t)n,
                          "  mul.f32 %%f4, %%f1, %%f2;\n  ld.param.u64 %%rd1, [k_param_1];\n"
                          "  st.global.f32 [%%rd1], %%f4;\n  st.global.f32 [%%rd1+4], %%f1;\n");
        snprintf(src + n, sizeof src - (size_t)n, "  ret;\n}\n");
        Program prog;
        Diag d;
        ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &prog, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
        if (reuse) { /* the ld.param's row and the mul's are one */
            const Kernel *kk = program_find_kernel(&prog, "k");
            uint32_t param_row = UINT32_MAX, mul_row = UINT32_MAX - 1;
            for (uint32_t pc = 0; pc < kk->ncode; pc++) {
                if (kk->code[pc].op == OP_LD_PARAM && kk->code[pc].type == TYPE_F32) param_row = kk->code[pc].dst[0].index;
                if (kk->code[pc].op == OP_MUL_F32) mul_row = kk->code[pc].dst[0].index;
            }
            ck_assert_uint_eq(param_row, mul_row);
        }
        GpuConfig cfg;
        ck_assert_msg(config_load("h200", &cfg, &d), "%s", d.message);
        ck_assert(config_set(&cfg, "sm.count=1", &d));
        GlobalMem *g = gmem_create();
        const Kernel *kern = program_find_kernel(&prog, "k");
        ck_assert_ptr_nonnull(kern);
        Diag ad;
        uint32_t out = gmem_alloc(g, 8, "out", &ad);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { 0x3f000000u, 0, out, 0 };
        Launch L = { .kernel = kern, .kernel_file = "t.ptx", .gmem = g, .params = params,
                     .grid = { 2, 1, 1 }, .block = { 768, 1, 1 } };
        SimResult r;
        ck_assert_msg(gpu_simulate(&cfg, &L, NULL, &r), "%s", r.message);
        cycles[k] = r.stats.cycles;
        gmem_destroy(g);
        program_destroy(&prog);
    }
    return 64.0 * 12 / (double)(cycles[1] - cycles[0]);
}

START_TEST(test_register_reads_ptx_param)
{
    double param = ptx_chain_rate(true, false), reg = ptx_chain_rate(false, false);
    ck_assert_msg(fabs(param - 1.0) < 0.005, "b from a parameter: %.4f, expected 1 (two reads)", param);
    ck_assert_msg(fabs(reg - 2.0 / 3.0) < 0.005, "b from a register: %.4f, expected 2/3 (three reads)", reg);
    /* the parameter's value is not read where it is used, though its row
    ** later holds a computed value: the test is per value, not per row */
    double shared = ptx_chain_rate(true, true);
    ck_assert_msg(fabs(shared - 1.0) < 0.005, "b from a parameter, its row reused: %.4f, expected 1", shared);
}
END_TEST

/* ---- the FP64 pipe: pipe.fp64_interval and lat.fp64 ---- */

/* Cycles of a PTX kernel whose threads each run `links` dependent add.f64
** (blocks of `threads` on one SM), with --set `extra` (or NULL). */
static uint64_t f64_chain_cycles(const char *gpu, uint32_t links, uint32_t blocks, uint32_t threads, const char *extra)
{
    char src[65536];
    int n = snprintf(src, sizeof src,
                     ".version 8.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\n  .reg .f64 %%fd<4>;\n  .reg .b32 %%r<2>;\n"
                     "  mov.u32 %%r0, %%tid.x;\n  cvt.rn.f64.u32 %%fd1, %%r0;\n");
    for (uint32_t i = 0; i < links; i++)
        n += snprintf(src + n, sizeof src - (size_t)n, "  add.f64 %%fd1, %%fd1, 0d3FF0000000000000;\n");
    snprintf(src + n, sizeof src - (size_t)n, "  ret;\n}\n");
    Program prog;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &prog, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    GpuConfig cfg;
    ck_assert_msg(config_load(gpu, &cfg, &d), "%s", d.message);
    ck_assert(config_set(&cfg, "sm.count=1", &d));
    if (extra) ck_assert_msg(config_set(&cfg, extra, &d), "%s", d.message);
    GlobalMem *g = gmem_create();
    const Kernel *kern = program_find_kernel(&prog, "k");
    ck_assert_ptr_nonnull(kern);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { 0 };
    Launch L = { .kernel = kern, .kernel_file = "t.ptx", .gmem = g, .params = params,
                 .grid = { blocks, 1, 1 }, .block = { threads, 1, 1 } };
    SimResult r;
    ck_assert_msg(gpu_simulate(&cfg, &L, NULL, &r), "%s", r.message);
    gmem_destroy(g);
    program_destroy(&prog);
    return r.stats.cycles;
}

/* One warp: each extra link costs lat.fp64 (8 on the h200, as set). */
START_TEST(test_fp64_latency)
{
    uint64_t a = f64_chain_cycles("h200", 64, 1, 32, NULL), b = f64_chain_cycles("h200", 128, 1, 32, NULL);
    ck_assert_uint_eq(b - a, 64 * 8);
    a = f64_chain_cycles("h200", 64, 1, 32, "lat.fp64=20");
    b = f64_chain_cycles("h200", 128, 1, 32, "lat.fp64=20");
    ck_assert_uint_eq(b - a, 64 * 20);
}
END_TEST

/* Many warps: a scheduler issues an FP64 instruction every
** pipe.fp64_interval cycles (2 on the h200, 64 on the t4, 4 when set),
** the read ports out of the way. */
START_TEST(test_fp64_throughput)
{
    static const struct { const char *gpu, *set; uint32_t interval; } cases[] = {
        { "h200", "sched.register_reads=0", 2 }, { "t4", "sched.register_reads=0", 64 }, { "h200", "pipe.fp64_interval=4", 4 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GpuConfig cfg;
        Diag d;
        ck_assert(config_load(cases[i].gpu, &cfg, &d));
        uint32_t threads = 1024; /* 32 warps: 8 a scheduler, enough to cover the latency */
        uint64_t a = f64_chain_cycles(cases[i].gpu, 32, 1, threads, cases[i].set);
        uint64_t b = f64_chain_cycles(cases[i].gpu, 64, 1, threads, cases[i].set);
        double per_sched = 32.0 * (threads / 32) / cfg.sm_schedulers / (double)(b - a);
        ck_assert_msg(fabs(per_sched - 1.0 / cases[i].interval) < 0.02 / cases[i].interval,
                      "%s %s: %.4f FP64 instructions a cycle per scheduler, expected 1/%u", cases[i].gpu, cases[i].set,
                      per_sched, cases[i].interval);
    }
}
END_TEST

/* A warp the read ports hold is charged dispatch_stall, and only then. */
START_TEST(test_register_reads_stall)
{
    ck_assert_uint_gt(chain_run(chain_cost[0].op, 64, NULL).stall[STALL_DISPATCH_STALL], 0);
    ck_assert_uint_eq(chain_run(chain_cost[2].op, 64, NULL).stall[STALL_DISPATCH_STALL], 0);
}
END_TEST

/* ---- nanosleep: the warp sleeps the longest time its lanes ask ---- */

/* One warp whose lane i asks for i * step_ns (the last lane's wins), on the
** h200 (1980 MHz); its stats. */
static KernelStats sleep_run(uint32_t step_ns)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k()\n{\n  .reg .b32 %%r<3>;\n"
             "  mov.u32 %%r0, %%tid.x;\n  mul.lo.u32 %%r1, %%r0, %u;\n  nanosleep.u32 %%r1;\n  ret;\n}\n",
             step_ns);
    Program prog;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &prog, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    GpuConfig cfg;
    ck_assert_msg(config_load("h200", &cfg, &d), "%s", d.message);
    ck_assert(config_set(&cfg, "sm.count=1", &d));
    GlobalMem *g = gmem_create();
    uint32_t params[ISA_MAX_PARAM_WORDS] = { 0 };
    Launch L = { .kernel = program_find_kernel(&prog, "k"), .kernel_file = "t.ptx", .gmem = g, .params = params,
                 .grid = { 1, 1, 1 }, .block = { 32, 1, 1 } };
    SimResult r;
    ck_assert_msg(gpu_simulate(&cfg, &L, NULL, &r), "%s", r.message);
    gmem_destroy(g);
    program_destroy(&prog);
    return r.stats;
}

/* 31 * 100 ns at 1980 MHz is 6138 cycles, all of them 'sleeping' but the
** one the instruction issues in; a zero sleep is one issue slot. */
START_TEST(test_nanosleep)
{
    KernelStats none = sleep_run(0), slept = sleep_run(100);
    ck_assert_uint_eq(slept.cycles - none.cycles, 6138 - 1);
    ck_assert_uint_eq(none.stall[STALL_SLEEPING], 0);
    ck_assert_uint_eq(slept.stall[STALL_SLEEPING], 6138 - 1);
}
END_TEST

/* `@P0 EXIT` carries the BRA's control word (validate/RESULTS.md, "Seventh
** round"): a guarded exit that leaves the warp running holds its next issue
** lat.branch cycles and reads its guard lat.branch_pred late, as a branch. */
static uint64_t guarded_exit_cycles(bool with_exit)
{
    char src[512];
    snprintf(src, sizeof src,
             ".kernel k\n    mov.u32 %%r1, %%tid.x\n    setp.ge.u32 %%p0, %%r1, 64\n%s"
             "    mov.u32 %%r2, 1\n    exit\n", with_exit ? "    @%p0 exit\n" : "    add.u32 %r3, %r1, 1\n");
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    t.L.block[0] = 32;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    uint64_t c = t.r.stats.cycles;
    ck_assert_uint_eq(t.r.stats.stall[STALL_BRANCH_RESOLVING] > 0, with_exit);
    run_free(&t);
    return c;
}

START_TEST(test_guarded_exit_is_a_branch)
{
    GpuConfig c;
    Diag d;
    ck_assert(config_load("h200", &c, &d));
    /* in place of an independent ALU instruction: it waits for the setp's
    ** predicate and lat.branch_pred more, then lat.branch to the next issue */
    uint64_t extra = guarded_exit_cycles(true) - guarded_exit_cycles(false);
    ck_assert_uint_eq(extra, c.lat_alu - 1 + c.lat_branch_pred + c.lat_branch - 1);
}
END_TEST

/* ---- PTX lowerings: the pipe they go to, the issue slots they take ---- */

/* Stats of a PTX kernel on one SM of the h200 (read ports off): 1024
** threads, each running `reps` times the body (registers %r1..%r4,
** %rd1..%rd4 and %f1..%f5 set up). */
static KernelStats lowering_run(const char *body, uint32_t reps, const TraceSink *trace)
{
    char src[65536];
    int n = snprintf(src, sizeof src,
                     ".version 8.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n  .reg .f32 %%f<8>;\n"
                     "  mov.u32 %%r0, %%tid.x;\n  add.u32 %%r1, %%r0, 1000;\n  add.u32 %%r2, %%r0, 2000;\n"
                     "  add.u32 %%r3, %%r0, 3000;\n  add.u32 %%r4, %%r0, 4000;\n  cvt.u64.u32 %%rd1, %%r1;\n"
                     "  cvt.u64.u32 %%rd2, %%r2;\n  cvt.u64.u32 %%rd3, %%r3;\n  cvt.u64.u32 %%rd4, %%r4;\n"
                     "  cvt.rn.f32.u32 %%f1, %%r1;\n  cvt.rn.f32.u32 %%f2, %%r2;\n  cvt.rn.f32.u32 %%f3, %%r3;\n"
                     "  mov.f32 %%f4, 0f3F000000;\n  mov.f32 %%f5, 0f3E800000;\n");
    for (uint32_t i = 0; i < reps; i++) n += snprintf(src + n, sizeof src - (size_t)n, "%s", body);
    snprintf(src + n, sizeof src - (size_t)n, "  ret;\n}\n");
    Program prog;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &prog, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    GpuConfig cfg;
    ck_assert(config_load("h200", &cfg, &d));
    ck_assert(config_set(&cfg, "sm.count=1", &d) && config_set(&cfg, "sched.register_reads=0", &d));
    GlobalMem *g = gmem_create();
    uint32_t params[ISA_MAX_PARAM_WORDS] = { 0 };
    Launch L = { .kernel = program_find_kernel(&prog, "k"), .kernel_file = "t.ptx", .gmem = g, .params = params,
                 .grid = { 1, 1, 1 }, .block = { 1024, 1, 1 } };
    SimResult r;
    ck_assert_msg(gpu_simulate(&cfg, &L, trace, &r), "%s", r.message);
    gmem_destroy(g);
    program_destroy(&prog);
    return r.stats;
}

/* div.u32 is 17 ALU-pipe instructions (its row's unit is the divider's):
** at two cycles an ALU instruction, a scheduler starts one every 34 cycles,
** however many warps want one, and the ALU pipe is never more than busy. */
START_TEST(test_lowering_takes_its_pipe)
{
    static const char body[] = "  div.u32 %r1, %r1, 3;\n  div.u32 %r2, %r2, 5;\n  div.u32 %r3, %r3, 7;\n"
                               "  div.u32 %r4, %r4, 9;\n";
    KernelStats a = lowering_run(body, 4, NULL), b = lowering_run(body, 8, NULL);
    double per_sched = 4.0 * 4 * 32 / 4 / (double)(b.cycles - a.cycles); /* div a cycle per scheduler */
    ck_assert_msg(fabs(per_sched - 1.0 / 34) < 0.001, "%.4f div.u32 a cycle per scheduler, expected 1/34", per_sched);
    ck_assert_uint_le(b.pipe_cycles[UNIT_ALU] - a.pipe_cycles[UNIT_ALU], (b.cycles - a.cycles) * 4);
}
END_TEST

/* Each scheduler's issues, in order: the gap after an add.s64 (two SASS
** instructions here: its operands are no mul.wide's) must be at least 2. */
typedef struct {
    uint64_t last[4];
    uint32_t last_slots[4];
    uint64_t issues, two_slot, too_soon;
} IssueGaps;

static void record_issue(void *user, const TraceIssue *e)
{
    IssueGaps *g = user;
    if (g->issues++ && e->cycle < g->last[e->scheduler] + g->last_slots[e->scheduler]) g->too_soon++;
    g->last[e->scheduler] = e->cycle;
    g->last_slots[e->scheduler] = e->opcode == OP_ADD_S64 ? 2 : 1;
    g->two_slot += e->opcode == OP_ADD_S64;
}

/* An add.s64 is two ALU-pipe instructions (four cycles of the pipe), an
** fma.rn.f32 one FMA: while one warp's add.s64 holds the ALU, others could
** issue to the FMA pipe every cycle, but a scheduler issues at most one
** SASS instruction a cycle: after an add.s64 it issues nothing for two. */
START_TEST(test_lowering_takes_its_issue_slots)
{
    static const char body[] = "  add.s64 %rd3, %rd3, %rd1;\n  fma.rn.f32 %f1, %f1, %f4, %f5;\n"
                               "  fma.rn.f32 %f2, %f2, %f4, %f5;\n  fma.rn.f32 %f3, %f3, %f4, %f5;\n";
    IssueGaps gaps = { 0 };
    TraceSink sink = { .user = &gaps, .warp_issue = record_issue };
    KernelStats st = lowering_run(body, 16, &sink);
    ck_assert_uint_eq(gaps.two_slot, 16 * 32);
    ck_assert_uint_eq(gaps.too_soon, 0);
    ck_assert_uint_le(st.warp_instructions, st.cycles * 4);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_probes");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_shared_load_latency, 0, (int)(sizeof smem_lat / sizeof smem_lat[0]));
    tcase_add_test(core, test_slot_refill_latency);
    tcase_add_loop_test(core, test_barrier_cost, 0, (int)(sizeof bar_cost / sizeof bar_cost[0]));
    tcase_add_loop_test(core, test_loop_path, 0, (int)(sizeof loop_cost / sizeof loop_cost[0]));
    tcase_add_test(core, test_uniform_loop);
    tcase_add_loop_test(core, test_register_reads, 0, (int)(sizeof chain_cost / sizeof chain_cost[0]));
    tcase_add_test(core, test_register_reads_rule);
    tcase_add_test(core, test_register_reads_ptx_param);
    tcase_add_test(core, test_register_reads_stall);
    tcase_add_test(core, test_fp64_latency);
    tcase_add_test(core, test_fp64_throughput);
    tcase_add_test(core, test_nanosleep);
    tcase_add_test(core, test_guarded_exit_is_a_branch);
    tcase_add_test(core, test_lowering_takes_its_pipe);
    tcase_add_test(core, test_lowering_takes_its_issue_slots);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
