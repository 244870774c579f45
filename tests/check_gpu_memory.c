/* tests/check_gpu_memory.c -- the timing model's memory system end to end:
** DRAM saturation by a float4 stream, the loaded latency as bytes in flight
** grow, and the L2's request rate against scattered stores. Kernels are
** assembly text; machines are presets shrunk with config_set. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gpu.h"
#include "tests/sim_run.h"

/* out[i] = in[i], one float4 per thread */
static const char *COPY4 =
    ".kernel copy4\n"
    ".param .ptr in\n"
    ".param .ptr out\n"
    "    ld.param.u32 %r0, [in]\n"
    "    ld.param.u32 %r1, [out]\n"
    "    mov.u32 %r2, %ctaid.x\n"
    "    mov.u32 %r3, %ntid.x\n"
    "    mov.u32 %r4, %tid.x\n"
    "    mad.lo.u32 %r5, %r2, %r3, %r4\n"
    "    shl.b32 %r5, %r5, 4\n"
    "    add.u32 %r6, %r5, %r0\n"
    "    ld.global.v4.f32 {%r8, %r9, %r10, %r11}, [%r6]\n"
    "    add.u32 %r7, %r5, %r1\n"
    "    st.global.v4.f32 [%r7], {%r8, %r9, %r10, %r11}\n"
    "    exit\n";

/* A float4 streaming copy: achieved DRAM bandwidth reaches the configured
** figure once enough bytes are in flight. */
START_TEST(test_dram_saturation)
{
    Run t;
    run_init(&t, "a100", COPY4, "copy4");
    set(&t, "sm.count=8");
    set(&t, "dram.bandwidth_gbs=150");
    set(&t, "l2.size=1048576");
    uint32_t n = 4u << 20; /* floats: 16 MiB read, 16 MiB written */
    t.params[0] = buffer(&t, (uint64_t)n * 4, "in");
    t.params[1] = buffer(&t, (uint64_t)n * 4, "out");
    t.L.grid[0] = n / 4 / 256;
    t.L.block[0] = 256;
    ck_assert(simulate(&t));
    KernelStats *s = &t.r.stats;
    ck_assert_msg(s->dram_bandwidth_gbs > 0.9 * 150 && s->dram_bandwidth_gbs <= 150 * 1.01,
                  "achieved %.1f GB/s of 150", s->dram_bandwidth_gbs);
    ck_assert_uint_ge(s->dram_read_bytes, (uint64_t)n * 4);
    run_free(&t);
}
END_TEST

/* COPY4 on a small machine, with the
** DRAM's loaded-latency terms set to `linear` and `queue`; blocks of
** `threads`, at most `blocks_per_sm` resident. Returns cycles. */
static uint64_t copy4_cycles(double linear, double queue, uint32_t threads, uint32_t blocks_per_sm, double *gbs)
{
    Run t;
    run_init(&t, "a100", COPY4, "copy4");
    char kv[64];
    set(&t, "sm.count=8");
    set(&t, "dram.bandwidth_gbs=150");
    set(&t, "l2.size=1048576");
    set(&t, "l1.max_inflight=4096");
    snprintf(kv, sizeof kv, "sm.max_blocks=%u", blocks_per_sm);
    set(&t, kv);
    snprintf(kv, sizeof kv, "dram.loaded_latency_linear=%g", linear);
    set(&t, kv);
    snprintf(kv, sizeof kv, "dram.loaded_latency_queue=%g", queue);
    set(&t, kv);
    uint32_t n = 1u << 21;
    t.params[0] = buffer(&t, (uint64_t)n * 4, "in");
    t.params[1] = buffer(&t, (uint64_t)n * 4, "out");
    t.L.grid[0] = n / 4 / threads;
    t.L.block[0] = threads;
    ck_assert(simulate(&t));
    uint64_t cycles = t.r.stats.cycles;
    *gbs = t.r.stats.dram_bandwidth_gbs;
    run_free(&t);
    return cycles;
}

START_TEST(test_loaded_latency_in_engine)
{
    double off_gbs, on_gbs;
    /* few warps in flight (one 64-thread block per SM): latency-bound, at a
    ** fair fraction of the bandwidth, so the loaded latency slows it */
    uint64_t off = copy4_cycles(0, 0, 64, 1, &off_gbs), on = copy4_cycles(248, 99, 64, 1, &on_gbs);
    ck_assert_msg(on > off * 1.08, "loaded latency: %llu cycles, unloaded %llu (%.0f GB/s of 150)",
                  (unsigned long long)on, (unsigned long long)off, off_gbs);
    /* enough in flight: the stream still reaches the bandwidth, the
    ** queueing term not counted on top of the channel's own queue */
    copy4_cycles(248, 99, 256, 8, &on_gbs);
    ck_assert_msg(on_gbs > 0.9 * 150, "saturating stream with loaded latency: %.1f GB/s of 150", on_gbs);
}
END_TEST

/* Every thread stores 32 words of its own line (scattered: 32 lines per
** warp instruction) or the warp fills one line per instruction (line);
** returns cycles on a small machine whose L2 takes `rate` requests/cycle. */
static uint64_t store_pattern_cycles(bool scattered, double rate, uint32_t blocks)
{
    const char *src =
        ".kernel st\n"
        ".param .ptr out\n"
        ".param .u32 scattered\n"
        "    ld.param.u32 %r0, [out]\n"
        "    ld.param.u32 %r1, [scattered]\n"
        "    mov.u32 %r2, %ctaid.x\n"
        "    mov.u32 %r3, %ntid.x\n"
        "    mov.u32 %r4, %tid.x\n"
        "    mad.lo.u32 %r5, %r2, %r3, %r4\n"
        "    setp.ne.u32 %p1, %r1, 0\n"
        "    shl.b32 %r6, %r5, 7\n"           /* scattered: line g, step 4 B */
        "    mov.u32 %r10, 4\n"
        "    @%p1 bra GO\n"
        "    shr.u32 %r7, %r5, 5\n"           /* line: lines 32w.., lane word, step 128 B */
        "    and.b32 %r8, %r5, 31\n"
        "    shl.b32 %r6, %r7, 12\n"
        "    shl.b32 %r8, %r8, 2\n"
        "    add.u32 %r6, %r6, %r8\n"
        "    mov.u32 %r10, 128\n"
        "GO:\n"
        "    add.u32 %r6, %r6, %r0\n"
        "    mov.u32 %r9, 0\n"
        "L:  st.global.u32 [%r6], %r5\n"
        "    add.u32 %r6, %r6, %r10\n"
        "    add.u32 %r9, %r9, 1\n"
        "    setp.lt.u32 %p0, %r9, 32\n"
        "    @%p0 bra L\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "st");
    char kv[64];
    set(&t, "sm.count=8");
    snprintf(kv, sizeof kv, "l2.requests_per_clk=%g", rate);
    set(&t, kv);
    t.params[0] = buffer(&t, (uint64_t)blocks * 256 * 128, "out");
    t.params[1] = scattered;
    t.L.grid[0] = blocks;
    t.L.block[0] = 256;
    ck_assert(simulate(&t));
    /* every word written once, by its owner */
    const uint32_t *o = gmem_translate(t.gmem, t.params[0], 4);
    ck_assert_uint_eq(o[0], 0);
    ck_assert_uint_eq(o[1], scattered ? 0 : 1);
    uint64_t cycles = t.r.stats.cycles;
    run_free(&t);
    return cycles;
}

START_TEST(test_l2_request_rate)
{
    /* 16 blocks x 256 threads x 32 stores: 131072 scattered requests at 2 per
    ** cycle take 65536 cycles, whatever the bytes */
    uint64_t limited = store_pattern_cycles(true, 2, 16), free_rate = store_pattern_cycles(true, 0, 16);
    ck_assert_msg(limited >= 65536 && limited < 65536 * 1.1, "scattered at 2 requests/cycle: %llu cycles",
                  (unsigned long long)limited);
    ck_assert_msg(free_rate < limited / 2, "no limit: %llu cycles, limited %llu", (unsigned long long)free_rate,
                  (unsigned long long)limited);
    /* the same words stored a line per instruction are 32x fewer requests */
    uint64_t lines = store_pattern_cycles(false, 2, 16);
    ck_assert_msg(lines < limited / 4, "line stores at 2 requests/cycle: %llu cycles, scattered %llu",
                  (unsigned long long)lines, (unsigned long long)limited);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_memory");
    TCase *mem = tcase_create("Memory");
    tcase_add_test(mem, test_dram_saturation);
    tcase_add_test(mem, test_loaded_latency_in_engine);
    tcase_add_test(mem, test_l2_request_rate);
    tcase_set_timeout(mem, 120);
    suite_add_tcase(s, mem);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
