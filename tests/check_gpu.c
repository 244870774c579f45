/* tests/check_gpu.c -- the timing model end to end: divergence, scoreboard
** latencies, barriers, bank conflicts and coalescing as the engine counts
** them, DRAM access granularity, a fault's report, determinism, --threads,
** the policies, trace sinks (check_gpu_launch: waves, the launcher and runs
** that do not finish; check_gpu_memory: DRAM and the L2 under load;
** check_gpu_shared: shared-memory requests as the banks serve them).
** Kernels are assembly text; machines are presets shrunk with config_set
** so each case runs in well under a second.                              */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include <cjson/cJSON.h>

#include "cli/trace_chrome.h"
#include "sim/gpu.h"
#include "tests/sim_run.h"

static const char *DIVERGE =
    ".kernel branchy\n"
    ".param .ptr out\n"
    ".param .u32 shift\n"
    "    ld.param.u32 %r0, [out]\n"
    "    ld.param.u32 %r9, [shift]\n"
    "    mov.u32 %r2, %tid.x\n"
    "    cvt.rn.f32.u32 %r6, %r2\n"
    "    shr.u32 %r8, %r2, %r9\n"          /* shift 0: tid % 2 (divergent), 5: warp % 2 (uniform) */
    "    and.b32 %r8, %r8, 1\n"
    "    setp.ne.u32 %p0, %r8, 0\n"
    "    mov.u32 %r7, 0\n"
    "    @%p0 bra ODD\n"
    "EVEN:\n"
    "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n"
    "    add.s32 %r7, %r7, 1\n"
    "    setp.lt.s32 %p1, %r7, 50\n"
    "    @%p1 bra EVEN\n"
    "    bra STORE\n"
    "ODD:\n"
    "    fma.rn.f32 %r6, %r6, 0.998, 0.5\n"
    "    add.s32 %r7, %r7, 1\n"
    "    setp.lt.s32 %p1, %r7, 50\n"
    "    @%p1 bra ODD\n"
    "STORE:\n"
    "    shl.b32 %r3, %r2, 2\n"
    "    add.u32 %r3, %r3, %r0\n"
    "    st.global.f32 [%r3], %r6\n"
    "    exit\n";

static KernelStats branchy(uint32_t shift, float *out)
{
    Run t;
    run_init(&t, "a100", DIVERGE, "branchy");
    set(&t, "sm.count=2");
    t.params[0] = buffer(&t, 256 * 4, "out");
    t.params[1] = shift;
    t.L.grid[0] = 1;
    t.L.block[0] = 256;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    memcpy(out, gmem_translate(t.gmem, t.params[0], 256 * 4), 256 * 4);
    KernelStats s = t.r.stats;
    run_free(&t);
    return s;
}

START_TEST(test_divergence_doubles_issue)
{
    float a[256], b[256];
    KernelStats div = branchy(0, a), uni = branchy(5, b);
    double ratio = (double)div.warp_instructions / (double)uni.warp_instructions;
    ck_assert_msg(ratio > 1.8 && ratio < 2.1, "issued instructions ratio %.2f", ratio);
    ck_assert_msg(div.branch_efficiency < 0.6, "divergent efficiency %.2f", div.branch_efficiency);
    ck_assert_msg(uni.branch_efficiency > 0.99, "uniform efficiency %.2f", uni.branch_efficiency);
    ck_assert_uint_eq(uni.divergent_branches, 0);
    ck_assert_uint_eq(div.divergent_branches, 8); /* one split per warp */
    ck_assert_msg(div.cycles > 1.6 * uni.cycles, "cycles %llu vs %llu", (unsigned long long)div.cycles,
                  (unsigned long long)uni.cycles);
    for (int i = 0; i < 256; i++) { /* results follow each thread's own branch */
        float x = (float)i, c = (i % 2) ? 0.998f : 0.999f;
        for (int k = 0; k < 50; k++) x = fmaf(x, c, 0.5f);
        ck_assert_msg(a[i] == x, "lane %d: %g vs %g", i, a[i], x);
    }
}
END_TEST

/* One warp: a chain of dependent FMAs waits lat.fma each; independent ones
** issue every fma_interval cycles. */
START_TEST(test_scoreboard_latency)
{
    char dep[4096] = ".kernel k\n", ind[4096] = ".kernel k\n";
    for (int i = 0; i < 64; i++) {
        strcat(dep, "    fma.rn.f32 %r1, %r1, 1.5, 0.5\n");
        char line[64];
        snprintf(line, sizeof line, "    fma.rn.f32 %%r%d, %%r0, 1.5, 0.5\n", 1 + i % 16);
        strcat(ind, line);
    }
    strcat(dep, "    exit\n");
    strcat(ind, "    exit\n");
    uint64_t cycles[2];
    const char *src[2] = { dep, ind };
    for (int v = 0; v < 2; v++) {
        Run t;
        run_init(&t, "a100", src[v], "k");
        set(&t, "sm.count=1");
        set(&t, "lat.fma=6");
        t.L.grid[0] = 1;
        t.L.block[0] = 32;
        ck_assert(simulate(&t));
        cycles[v] = t.r.stats.cycles;
        if (v == 0) ck_assert_uint_gt(t.r.stats.stall[STALL_WAIT], 64 * 4);
        run_free(&t);
    }
    ck_assert_msg(cycles[0] >= 63 * 6 && cycles[0] < 64 * 6 + 40, "dependent chain: %llu cycles",
                  (unsigned long long)cycles[0]);
    ck_assert_msg(cycles[1] >= 63 * 2 && cycles[1] < 64 * 2 + 40, "independent: %llu cycles",
                  (unsigned long long)cycles[1]);
}
END_TEST

/* Warp 1 stalls on a long loop before writing its half of shared memory;
** warp 0 must still read warp 1's values after the barrier. */
START_TEST(test_barrier_orders_shared_memory)
{
    const char *src =
        ".kernel k\n"
        ".param .ptr out\n"
        ".shared buf 256\n"
        "    ld.param.u32 %r0, [out]\n"
        "    mov.u32 %r1, %tid.x\n"
        "    setp.lt.u32 %p0, %r1, 32\n"
        "    mov.u32 %r5, 0\n"
        "    @%p0 bra WRITE\n"
        "SLOW:\n"
        "    add.u32 %r5, %r5, 1\n"
        "    setp.lt.u32 %p1, %r5, 200\n"
        "    @%p1 bra SLOW\n"
        "WRITE:\n"
        "    shl.b32 %r2, %r1, 2\n"
        "    st.shared.u32 [%r2+buf], %r1\n"
        "    bar.sync 0\n"
        "    add.u32 %r3, %r1, 32\n"
        "    and.b32 %r3, %r3, 63\n"
        "    shl.b32 %r3, %r3, 2\n"
        "    ld.shared.u32 %r4, [%r3+buf]\n"
        "    add.u32 %r6, %r2, %r0\n"
        "    st.global.u32 [%r6], %r4\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.params[0] = buffer(&t, 64 * 4, "out");
    t.L.grid[0] = 1;
    t.L.block[0] = 64;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    uint32_t *out = gmem_translate(t.gmem, t.params[0], 256);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(out[i], (i + 32) % 64);
    ck_assert_uint_gt(t.r.stats.stall[STALL_BARRIER], 200);
    run_free(&t);
}
END_TEST


/* %globaltimer counts the machine's nanoseconds: the simulated cycle at
** the preset's clock (it assumed 1410 MHz whatever the preset said). */
static const char *TIMERS =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [k_param_0];\n"
    "  mov.u64 %rd2, %globaltimer;\n"
    "  mov.u64 %rd3, %clock64;\n"
    "  st.global.u64 [%rd1], %rd2;\n"
    "  st.global.u64 [%rd1+8], %rd3;\n"
    "  ret;\n}\n";

START_TEST(test_globaltimer_at_preset_clock)
{
    Run t;
    run_init(&t, "h200", TIMERS, "k");
    set(&t, "sm.count=1");
    set(&t, "clock_mhz=250");
    t.params[0] = buffer(&t, 16, "out");
    t.L.block[0] = 32;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    const uint64_t *out = gmem_translate(t.gmem, t.params[0], 16);
    uint64_t ns = out[0], cycles = out[1];
    ck_assert_uint_gt(cycles, 0);
    ck_assert_uint_eq(ns % 4, 0);                 /* 4 ns a cycle at 250 MHz */
    ck_assert_uint_le(ns / 4, cycles);           /* read first */
    ck_assert_uint_ge(ns / 4 + 64, cycles);      /* a few instructions before */
    run_free(&t);
}
END_TEST


static const char *STRIDED_GLOBAL =
    ".kernel k\n"
    ".param .ptr in\n"
    ".param .ptr out\n"
    ".param .u32 stride\n"
    ".param .u32 offset\n"
    "    ld.param.u32 %r0, [in]\n"
    "    ld.param.u32 %r1, [stride]\n"
    "    ld.param.u32 %r7, [offset]\n"
    "    mov.u32 %r2, %ctaid.x\n"
    "    mov.u32 %r3, %ntid.x\n"
    "    mov.u32 %r4, %tid.x\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4\n"
    "    mad.lo.u32 %r6, %r5, %r1, %r7\n"
    "    shl.b32 %r6, %r6, 2\n"
    "    add.u32 %r6, %r6, %r0\n"
    "    ld.global.f32 %r8, [%r6]\n"
    "    ld.param.u32 %r0, [out]\n"
    "    shl.b32 %r5, %r5, 2\n"
    "    add.u32 %r5, %r5, %r0\n"
    "    st.global.f32 [%r5], %r8\n"
    "    exit\n";

static const uint32_t G_STRIDE[] = { 1, 2, 4, 32, 1 };
static const uint32_t G_OFFSET[] = { 0, 0, 0, 0, 1 };
static const double G_SECTORS[] = { 4, 8, 16, 32, 5 };

START_TEST(test_coalescing_in_engine)
{
    Run t;
    run_init(&t, "a100", STRIDED_GLOBAL, "k");
    set(&t, "sm.count=2");
    uint32_t threads = 1024;
    t.params[0] = buffer(&t, (uint64_t)threads * G_STRIDE[_i] * 4 + 64, "in");
    t.params[1] = buffer(&t, threads * 4, "out");
    t.params[2] = G_STRIDE[_i];
    t.params[3] = G_OFFSET[_i];
    t.L.grid[0] = threads / 256;
    t.L.block[0] = 256;
    ck_assert(simulate(&t));
    KernelStats *s = &t.r.stats;
    const GlobalCounts *ld = &s->global[ACCESS_LOAD], *st = &s->global[ACCESS_STORE];
    ck_assert_uint_eq(ld->requests, threads / 32);
    double per = (double)ld->sectors / (double)ld->requests;
    ck_assert_msg(fabs(per - G_SECTORS[_i]) < 1e-9, "stride %u offset %u: %.2f sectors/request", G_STRIDE[_i],
                  G_OFFSET[_i], per);
    ck_assert(ld->sectors_per_request == per); /* derived from the same counters */
    ck_assert_uint_eq(ld->ideal_sectors, 4 * ld->requests); /* 32 floats: 4 sectors at best, whatever the stride */
    ck_assert_uint_eq(st->sectors, 4 * st->requests);
    ck_assert_uint_eq(st->ideal_sectors, st->sectors);
    ck_assert_uint_eq(s->global[ACCESS_ATOMIC].requests, 0);
    run_free(&t);
}
END_TEST

/* Every lane loads its word, then all lanes of the warp add theirs to one
** counter: the atomics are counted apart from the loads. */
START_TEST(test_global_atomics_counted_apart)
{
    const char *src =
        ".kernel k\n"
        ".param .ptr in\n"
        ".param .ptr sum\n"
        "    ld.param.u32 %r0, [in]\n"
        "    mov.u32 %r1, %tid.x\n"
        "    shl.b32 %r1, %r1, 2\n"
        "    add.u32 %r1, %r1, %r0\n"
        "    ld.global.u32 %r2, [%r1]\n"
        "    ld.param.u32 %r3, [sum]\n"
        "    atom.global.add.u32 %r4, [%r3], %r2\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.params[0] = buffer(&t, 64 * 4, "in");
    t.params[1] = buffer(&t, 4, "sum");
    t.L.grid[0] = 1;
    t.L.block[0] = 64;
    ck_assert(simulate(&t));
    const KernelStats *s = &t.r.stats;
    const GlobalCounts *ld = &s->global[ACCESS_LOAD], *at = &s->global[ACCESS_ATOMIC];
    ck_assert_uint_eq(ld->requests, 2);
    ck_assert_uint_eq(ld->sectors, 8);
    ck_assert_uint_eq(at->requests, 2);
    ck_assert_uint_eq(at->sectors, 2);       /* 32 lanes, one address */
    ck_assert_uint_eq(at->ideal_sectors, 8); /* 128 bytes asked per request */
    ck_assert_uint_eq(s->global[ACCESS_STORE].requests, 0);
    ck_assert(ld->sectors_per_request == 4.0 && at->sectors_per_request == 1.0);
    run_free(&t);
}
END_TEST

START_TEST(test_fault_reports_buffer)
{
    Run t;
    run_init(&t, "a100", STRIDED_GLOBAL, "k");
    set(&t, "sm.count=2");
    t.params[0] = buffer(&t, 256 * 4, "input");
    t.params[1] = buffer(&t, 256 * 4, "out");
    t.params[2] = 2; /* reads twice past the end */
    t.L.grid[0] = 1;
    t.L.block[0] = 256;
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_FAULT);
    ck_assert_msg(strstr(t.r.message, "out-of-bounds global access") && strstr(t.r.message, "'input'") &&
                      strstr(t.r.message, "test.asm:16:") && strstr(t.r.message, "ld.global"),
                  "%s", t.r.message);
    run_free(&t);
}
END_TEST

START_TEST(test_deterministic)
{
    float a[256], b[256];
    KernelStats x = branchy(0, a), y = branchy(0, b);
    ck_assert_int_eq(memcmp(&x, &y, sizeof x), 0);
    ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
}
END_TEST

/* A launch on several host threads (Launch.threads) comes out as on one:
** blocks that race on global memory (each takes a ticket with an atomic and
** stores it, then reads a neighbour's slot another block may have written),
** shared memory and a barrier, many short blocks on a few SMs; on a machine
** without block refill latency and on the h200's; and a launch that faults
** in a late block, whose report, partial warp-instruction count and memory
** must be those of one thread. */
static const char *RACY =
    ".kernel k\n"
    ".param .ptr tickets\n"
    ".param .ptr out\n"
    ".param .u32 limit\n"
    ".shared tile 256\n"
    "    ld.param.u32 %r0, [tickets]\n"
    "    ld.param.u32 %r1, [out]\n"
    "    ld.param.u32 %r9, [limit]\n"
    "    mov.u32 %r2, %ctaid.x\n"
    "    mov.u32 %r3, %ntid.x\n"
    "    mov.u32 %r4, %tid.x\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4\n"
    "    atom.global.add.u32 %r6, [%r0], 1\n"
    "    shl.b32 %r7, %r4, 2\n"
    "    st.shared.u32 [%r7+tile], %r6\n"
    "    bar.sync 0\n"
    "    xor.b32 %r8, %r4, 1\n"
    "    shl.b32 %r8, %r8, 2\n"
    "    ld.shared.u32 %r10, [%r8+tile]\n"
    "    setp.ge.u32 %p0, %r5, %r9\n"
    "    @%p0 add.u32 %r5, %r5, 100000\n"     /* past the end: a fault */
    "    shl.b32 %r11, %r5, 2\n"
    "    add.u32 %r11, %r11, %r1\n"
    "    st.global.u32 [%r11], %r10\n"
    "    ld.global.u32 %r12, [%r11+256]\n"     /* another block's slot, maybe written */
    "    add.u32 %r12, %r12, %r6\n"
    "    st.global.u32 [%r11+512], %r12\n"
    "    exit\n";

static const struct {
    const char *gpu;
    uint32_t    limit; /* threads that store in bounds */
} THREAD_CASES[] = { { "a100", 1u << 30 }, { "h200", 1u << 30 }, { "a100", 3000 }, { "h200", 3000 } };

START_TEST(test_threads_agree)
{
    enum { BLOCKS = 96, BLOCK = 64, OUT = BLOCKS * BLOCK + 256 };
    Run t[4];
    const uint32_t threads[4] = { 1, 2, 3, 5 };
    for (int k = 0; k < 4; k++) {
        run_init(&t[k], THREAD_CASES[_i].gpu, RACY, "k");
        set(&t[k], "sm.count=6");
        t[k].params[0] = buffer(&t[k], 4, "tickets");
        t[k].params[1] = buffer(&t[k], OUT * 4, "out");
        t[k].params[2] = THREAD_CASES[_i].limit;
        t[k].L.grid[0] = BLOCKS;
        t[k].L.block[0] = BLOCK;
        t[k].L.threads = threads[k];
        bool ok = simulate(&t[k]);
        ck_assert(ok == (THREAD_CASES[_i].limit > BLOCKS * BLOCK));
    }
    for (int k = 1; k < 4; k++) {
        ck_assert_int_eq(t[k].r.status, t[0].r.status);
        ck_assert_str_eq(t[k].r.message, t[0].r.message);
        if (t[0].r.status == SIM_OK) ck_assert_int_eq(memcmp(&t[k].r.stats, &t[0].r.stats, sizeof t[0].r.stats), 0);
        else ck_assert_uint_eq(t[k].r.stats.warp_instructions, t[0].r.stats.warp_instructions);
        ck_assert_int_eq(memcmp(gmem_translate(t[k].gmem, t[k].params[1], OUT * 4),
                                gmem_translate(t[0].gmem, t[0].params[1], OUT * 4), OUT * 4), 0);
    }
    if (t[0].r.status != SIM_OK) ck_assert_msg(strstr(t[0].r.message, "out-of-bounds"), "%s", t[0].r.message);
    for (int k = 0; k < 4; k++) run_free(&t[k]);
}
END_TEST

/* The command line's default (Launch.threads_auto): a launch of fewer than
** GPU_AUTO_THREADS_MIN_BLOCKS blocks runs on one host thread whatever
** Launch.threads says, a larger one on them; asked for (not auto), a small
** launch runs on them too. SimResult.host_threads says which. */
START_TEST(test_threads_auto)
{
    const struct { uint32_t blocks; bool automatic; uint32_t want; } cases[] = {
        { GPU_AUTO_THREADS_MIN_BLOCKS - 1, true, 1 },
        { GPU_AUTO_THREADS_MIN_BLOCKS, true, 3 },
        { 12, false, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run t;
        run_init(&t, "a100", RACY, "k");
        set(&t, "sm.count=6");
        t.params[0] = buffer(&t, 4, "tickets");
        t.params[1] = buffer(&t, (cases[i].blocks * 32 + 256) * 4, "out");
        t.params[2] = 1u << 30;
        t.L.grid[0] = cases[i].blocks;
        t.L.block[0] = 32;
        t.L.threads = 3;
        t.L.threads_auto = cases[i].automatic;
        ck_assert_msg(simulate(&t), "%s", t.r.message);
        ck_assert_uint_eq(t.r.host_threads, cases[i].want);
        run_free(&t);
    }
}
END_TEST

START_TEST(test_policies_agree_on_results)
{
    Run t;
    run_init(&t, "a100", DIVERGE, "branchy");
    set(&t, "sm.count=1");
    set(&t, "sched.policy=lrr");
    t.params[0] = buffer(&t, 256 * 4, "out");
    t.L.grid[0] = 1;
    t.L.block[0] = 256;
    ck_assert(simulate(&t));
    float *lrr = gmem_translate(t.gmem, t.params[0], 1024), gto[256];
    KernelStats g = branchy(0, gto);
    ck_assert_int_eq(memcmp(lrr, gto, sizeof gto), 0);
    ck_assert_uint_eq(t.r.stats.warp_instructions, g.warp_instructions);
    run_free(&t);
}
END_TEST

/* The schedulers' bookkeeping (sim/gpu_int.h): eligible warps as bits by
** age rank, and a ring for warps ready within 64 cycles, which a per-warp
** trace sink turns off (its events keep the waiting heap's order). With 128
** warps a scheduler (two mask words) whose warps leave at different times,
** under GTO, LRR and RR, a run with the sink and one without count the same. */
static const char *STAGGERED =
    ".kernel staggered\n"
    ".param .ptr out\n"
    "    ld.param.u32 %r0, [out]\n"
    "    mov.u32 %r2, %tid.x\n"
    "    mov.u32 %r3, %ctaid.x\n"
    "    mov.u32 %r4, %ntid.x\n"
    "    mad.lo.u32 %r5, %r3, %r4, %r2\n"
    "    shr.u32 %r1, %r5, 5\n"            /* global warp id */
    "    mul.lo.u32 %r1, %r1, 7\n"
    "    and.b32 %r1, %r1, 31\n"
    "    add.u32 %r1, %r1, 4\n"            /* 4..35 iterations: warps leave at different times */
    "    shl.b32 %r8, %r5, 2\n"
    "    add.u32 %r8, %r8, %r0\n"
    "    cvt.rn.f32.u32 %r6, %r2\n"
    "    mov.u32 %r7, 0\n"
    "LOOP:\n"
    "    ld.global.f32 %r10, [%r8]\n"      /* a long wait (the heap) */
    "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n" /* short ones (the ring) */
    "    add.f32 %r6, %r6, %r10\n"
    "    add.s32 %r7, %r7, 1\n"
    "    setp.lt.s32 %p0, %r7, %r1\n"
    "    @%p0 bra LOOP\n"
    "    st.global.f32 [%r8], %r6\n"
    "    exit\n";

static void count_stall(void *user, const TraceStall *e) { *(uint64_t *)user += e->cycles; }

START_TEST(test_trace_sink_changes_no_count)
{
    Run t[2];
    uint64_t traced = 0;
    TraceSink sink = { .user = &traced, .warp_stall = count_stall };
    for (int k = 0; k < 2; k++) {
        run_init(&t[k], "a100", STAGGERED, "staggered");
        set(&t[k], "sm.count=2");
        set(&t[k], "sm.schedulers=1");
        set(&t[k], "sm.max_warps=128");
        set(&t[k], "sm.max_threads=4096");
        set(&t[k], "sm.max_blocks=32");
        set(&t[k], _i == 2 ? "sched.policy=rr" : _i ? "sched.policy=lrr" : "sched.policy=gto");
        t[k].params[0] = buffer(&t[k], 64 * 256 * 4, "out");
        t[k].L.grid[0] = 64;
        t[k].L.block[0] = 256;
        Diag d;
        ck_assert_msg(config_validate(&t[k].cfg, &d), "%s", d.message);
        ck_assert_msg(gpu_simulate(&t[k].cfg, &t[k].L, k ? &sink : NULL, &t[k].r), "%s", t[k].r.message);
    }
    ck_assert_uint_eq(t[0].r.stats.occ.blocks_per_sm, 16); /* 128 warps on the one scheduler */
    ck_assert_uint_gt(traced, 0);
    /* what the age-sorted eligible list and the heap alone gave (the tree
    ** before the rank bits and the ring, run on this test) */
    if (_i < 2) ck_assert_uint_eq(t[0].r.stats.cycles, _i ? 35016 : 36919);
    ck_assert_uint_eq(t[1].r.stats.cycles, t[0].r.stats.cycles);
    ck_assert_int_eq(memcmp(&t[1].r.stats, &t[0].r.stats, sizeof t[0].r.stats), 0);
    ck_assert_int_eq(memcmp(gmem_translate(t[1].gmem, t[1].params[0], 64 * 256 * 4),
                            gmem_translate(t[0].gmem, t[0].params[0], 64 * 256 * 4), 64 * 256 * 4), 0);
    for (int k = 0; k < 2; k++) run_free(&t[k]);
}
END_TEST

/* --trace output: valid JSON, one B/E pair per block, a span per warp and
** per launch, named tracks, times in microseconds of simulated time, and
** warp-state counters whose "selected" warp-cycles add up to the issues. */
/* The launch's name as the user gave it: quotes, backslashes and control
** characters escaped in the trace, not dropped (they once were). */
static const char TRACE_LABEL[] = "branchy \"v\\1\"\t\x01";

START_TEST(test_chrome_trace)
{
    Run t;
    run_init(&t, "a100", DIVERGE, "branchy");
    set(&t, "sm.count=2");
    t.params[0] = buffer(&t, 512 * 4, "out");
    t.L.grid[0] = 2;
    t.L.block[0] = 256;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ChromeTrace *ct = trace_chrome_open(f, t.cfg.clock_mhz);
    TraceSink sink;
    trace_chrome_sink(ct, &sink);
    trace_chrome_label(ct, TRACE_LABEL);
    Diag d;
    ck_assert(config_validate(&t.cfg, &d));
    ck_assert(gpu_simulate(&t.cfg, &t.L, &sink, &t.r));
    ck_assert(trace_chrome_close(ct));
    fclose(f);
    cJSON *root = cJSON_Parse(text);
    ck_assert_msg(root != NULL, "trace is not JSON");
    cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    int begins = 0, ends = 0, warps = 0, launches = 0, sm_names = 0, warp_names = 0;
    double selected = 0, counters = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, events) {
        const char *ph = cJSON_GetObjectItemCaseSensitive(e, "ph")->valuestring;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
        begins += ph[0] == 'B';
        ends += ph[0] == 'E';
        if (ph[0] == 'X' && strcmp(cJSON_GetObjectItemCaseSensitive(e, "cat")->valuestring, "warp") == 0) warps++;
        if (ph[0] == 'B')
            ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(args, "launch")->valuestring, TRACE_LABEL);
        if (ph[0] == 'X' && strcmp(name->valuestring, TRACE_LABEL) == 0) {
            launches++;
            double dur = cJSON_GetObjectItemCaseSensitive(e, "dur")->valuedouble;
            double cycles = cJSON_GetObjectItemCaseSensitive(args, "cycles")->valuedouble;
            ck_assert_msg(fabs(dur * t.cfg.clock_mhz - cycles) < 0.01, "launch: %g us for %g cycles", dur, cycles);
        }
        if (ph[0] == 'M' && strcmp(name->valuestring, "process_name") == 0)
            sm_names += strncmp(cJSON_GetObjectItemCaseSensitive(args, "name")->valuestring, "SM ", 3) == 0;
        if (ph[0] == 'M' && strcmp(name->valuestring, "thread_name") == 0)
            warp_names += strncmp(cJSON_GetObjectItemCaseSensitive(args, "name")->valuestring, "warp ", 5) == 0;
        if (ph[0] == 'C') {
            counters++;
            selected += cJSON_GetObjectItemCaseSensitive(args, "selected")->valuedouble * 256;
        }
    }
    ck_assert_int_eq(begins, 2);
    ck_assert_int_eq(ends, 2);
    ck_assert_int_eq(warps, 16);
    ck_assert_int_eq(launches, 1);
    ck_assert_int_eq(sm_names, 2);
    ck_assert_int_eq(warp_names, 16);
    ck_assert_msg(fabs(selected - (double)t.r.stats.warp_instructions) <= 0.13 * counters + 1,
                  "selected warp-cycles %g for %llu issues", selected, (unsigned long long)t.r.stats.warp_instructions);
    cJSON_Delete(root);
    free(text);
    run_free(&t);
}
END_TEST

/* 32 lanes adding to one shared word: serialised (it takes time) but not a
** bank conflict (one word, one bank, one wavefront). */
START_TEST(test_shared_atomic_serialises_without_conflict)
{
    const char *src =
        ".kernel k\n"
        ".shared counter 4\n"
        "    mov.u32 %r1, counter\n"
        "    atom.shared.add.u32 %r2, [%r1], 1\n"
        "    add.u32 %r3, %r2, 0\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.L.grid[0] = 1;
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    ck_assert_uint_eq(t.r.stats.shared_requests, 1);
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_ATOMIC].requests, 1); /* an atomic, not a load */
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_LOAD].requests, 0);
    ck_assert_uint_eq(t.r.stats.shared_bank_conflicts, 0);
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_ATOMIC].serial_cycles, 31); /* counted as atomic serialization */
    ck_assert(t.r.stats.shared_atomic_serial_per_request == 31.0);
    ck_assert_uint_ge(t.r.stats.cycles, t.cfg.lat_shared + 31);
    run_free(&t);
}
END_TEST

/* DRAM moves dram.access_bytes at a time: reading one 4-byte word from each
** 64-byte chunk costs 64 bytes of DRAM traffic, one from each 32-byte sector
** of a chunk the same. A store that writes a sector in part reads it first. */
START_TEST(test_dram_access_granularity_and_partial_writes)
{
    uint64_t read_bytes[2];
    const uint32_t strides[2] = { 8, 16 }; /* floats: 32 B and 64 B apart */
    for (int v = 0; v < 2; v++) {
        Run t;
        run_init(&t, "a100", STRIDED_GLOBAL, "k");
        set(&t, "sm.count=2");
        set(&t, "dram.access_bytes=64");
        uint32_t threads = 1024;
        t.params[0] = buffer(&t, (uint64_t)threads * strides[v] * 4, "in");
        t.params[1] = buffer(&t, threads * 4, "out");
        t.params[2] = strides[v];
        t.params[3] = 0;
        t.L.grid[0] = threads / 256;
        t.L.block[0] = 256;
        ck_assert(simulate(&t));
        read_bytes[v] = t.r.stats.dram_read_bytes;
        run_free(&t);
    }
    ck_assert_uint_eq(read_bytes[0], 1024 * 32); /* two lanes share each 64-byte chunk */
    ck_assert_uint_eq(read_bytes[1], 1024 * 64); /* one lane per chunk              */

    /* every lane stores 4 bytes into its own sector: each is read first */
    const char *scatter =
        ".kernel k\n"
        ".param .ptr out\n"
        "    ld.param.u32 %r0, [out]\n"
        "    mov.u32 %r1, %tid.x\n"
        "    shl.b32 %r2, %r1, 5\n"
        "    add.u32 %r2, %r2, %r0\n"
        "    st.global.u32 [%r2], %r1\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", scatter, "k");
    set(&t, "sm.count=1");
    set(&t, "dram.access_bytes=32");
    t.params[0] = buffer(&t, 32 * 32, "out");
    t.L.grid[0] = 1;
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    ck_assert_uint_eq(t.r.stats.dram_read_bytes, 32 * 32);  /* the fills           */
    ck_assert_uint_eq(t.r.stats.dram_write_bytes, 32 * 32); /* the write-back at the end */
    run_free(&t);
}
END_TEST

/* Integer adds may issue to the FMA pipe (as IMADs) when the ALU pipe is
** busy: a stream of independent adds is not held to the ALU's rate alone. */
/* The bank_conflicts loop (validate/probes/sched_order.cu): each thread
** sums `iters` shared loads, lane L reading word (L * stride + k) % 1024. */
static const char *SHARED_LOOP =
    ".kernel k\n"
    ".param .s32 stride\n"
    ".param .s32 iters\n"
    ".shared buf 4096\n"
    "    ld.param.s32 %r1, [stride]\n"
    "    ld.param.s32 %r2, [iters]\n"
    "    mov.u32 %r3, %tid.x\n"
    "    and.b32 %r7, %r3, 31\n"
    "    mul.lo.u32 %r8, %r7, %r1\n"
    "    mov.u32 %r9, 0\n"
    "    mov.u32 %r10, 0\n"
    "LOOP:\n"
    "    add.u32 %r11, %r8, %r9\n"
    "    add.s32 %r9, %r9, 1\n"
    "    and.b32 %r11, %r11, 1023\n"
    "    shl.b32 %r11, %r11, 2\n"
    "    setp.lt.s32 %p1, %r9, %r2\n"
    "    ld.shared.u32 %r12, [%r11+buf]\n"
    "    add.u32 %r10, %r10, %r12\n"
    "    @%p1 bra LOOP\n"
    "    exit\n";

static KernelStats shared_loop(const char *policy, uint32_t warps, int32_t stride, int32_t iters)
{
    Run t;
    run_init(&t, "h200", SHARED_LOOP, "k");
    set(&t, "sm.count=1");
    char kv[64];
    snprintf(kv, sizeof kv, "sched.policy=%s", policy);
    set(&t, kv);
    t.params[0] = (uint32_t)stride;
    t.params[1] = (uint32_t)iters;
    t.L.grid[0] = 1;
    t.L.block[0] = warps * 32;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    KernelStats st = t.r.stats;
    run_free(&t);
    return st;
}

/* The four schedulers of an SM share its shared-memory pipe evenly (the
** H200: 8 warps of 16-wavefront loads keep it busy, 64 cycles a
** warp-iteration a scheduler, and end together). With the schedulers run in
** the same order every cycle, the first would win the pipe whenever it
** frees and the block would thin out long before it ends. */
START_TEST(test_schedulers_share_the_shared_pipe)
{
    static const char *const policies[] = { "gto", "lrr", "rr" };
    const int32_t iters = 512;
    KernelStats st = shared_loop(policies[_i], 8, 16, iters);
    double pipe = 8.0 * iters * 16; /* cycles of the pipe the loads need */
    double share = (double)st.resident_warp_cycles / ((double)st.cycles * 8);
    ck_assert_msg(st.cycles < pipe * 1.05, "%s: %llu cycles for %.0f of pipe work", policies[_i],
                  (unsigned long long)st.cycles, pipe);
    ck_assert_msg(share > 0.95, "%s: warps resident %.3f of the time", policies[_i], share);
}
END_TEST

/* sched.policy=rr picks the next warp whose operands are ready before it
** looks at the pipes: when that warp's pipe is busy the slot is lost. With
** one warp a scheduler there is nothing to pick instead (rr = lrr); with 8
** warps of a loop whose integer-pipe work fills the issue slots (4 of 8
** instructions, 2 cycles each on the h200), lrr fills the gaps and rr
** loses a share of them (the H200: 10.8 cycles an iteration of the twin's
** loop, against 8 issue slots). */
START_TEST(test_round_robin_loses_slots_to_busy_pipes)
{
    KernelStats one_rr = shared_loop("rr", 4, 1, 256), one_lrr = shared_loop("lrr", 4, 1, 256);
    ck_assert_uint_eq(one_rr.cycles, one_lrr.cycles);
    KernelStats rr = shared_loop("rr", 32, 1, 256), lrr = shared_loop("lrr", 32, 1, 256);
    double rr_it = (double)rr.cycles / (256 * 8), lrr_it = (double)lrr.cycles / (256 * 8);
    ck_assert_msg(lrr_it < 9.0, "lrr: %.2f cycles a warp-iteration a scheduler", lrr_it);
    ck_assert_msg(rr_it > 10.0 && rr_it < 12.0, "rr: %.2f cycles a warp-iteration a scheduler", rr_it);
    ck_assert_uint_eq(rr.warp_instructions, lrr.warp_instructions);
}
END_TEST

START_TEST(test_integer_adds_use_both_pipes)
{
    char src[4096] = ".kernel k\n";
    for (int i = 0; i < 64; i++) {
        char line[64];
        snprintf(line, sizeof line, "    add.u32 %%r%d, %%r0, %d\n", 1 + i % 16, i);
        strcat(src, line);
    }
    strcat(src, "    exit\n");
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.L.grid[0] = 1;
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    /* a100: ALU and FMA pipes take a warp instruction every 2 cycles each */
    ck_assert_msg(t.r.stats.cycles < 64 + 40, "64 independent adds: %llu cycles", (unsigned long long)t.r.stats.cycles);
    run_free(&t);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_divergence_doubles_issue);
    tcase_add_test(core, test_scoreboard_latency);
    tcase_add_test(core, test_integer_adds_use_both_pipes);
    tcase_add_loop_test(core, test_schedulers_share_the_shared_pipe, 0, 3);
    tcase_add_test(core, test_round_robin_loses_slots_to_busy_pipes);
    tcase_add_test(core, test_barrier_orders_shared_memory);
    tcase_add_loop_test(core, test_coalescing_in_engine, 0, sizeof G_STRIDE / sizeof G_STRIDE[0]);
    tcase_add_test(core, test_global_atomics_counted_apart);
    tcase_add_test(core, test_deterministic);
    tcase_add_loop_test(core, test_threads_agree, 0, sizeof THREAD_CASES / sizeof THREAD_CASES[0]);
    tcase_add_test(core, test_threads_auto);
    tcase_add_loop_test(core, test_trace_sink_changes_no_count, 0, 3);
    tcase_add_test(core, test_policies_agree_on_results);
    tcase_add_test(core, test_chrome_trace);
    tcase_add_test(core, test_shared_atomic_serialises_without_conflict);
    tcase_add_test(core, test_globaltimer_at_preset_clock);
    suite_add_tcase(s, core);
    TCase *mem = tcase_create("Memory");
    tcase_add_test(mem, test_dram_access_granularity_and_partial_writes);
    tcase_set_timeout(mem, 120);
    suite_add_tcase(s, mem);
    TCase *bad = tcase_create("BadRuns");
    tcase_add_test(bad, test_fault_reports_buffer);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gpu_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
