/* tests/check_gpu_launch.c -- blocks on SMs end to end: waves and the tail
** effect, a scheduler refilled as it empties, the SM's block launcher; and
** launches that do not finish or should not start: barrier deadlocks, the
** cycle budget, a block too big for an SM, shared-memory races. Kernels are
** assembly text; machines are presets shrunk with config_set. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gpu.h"
#include "tests/sim_run.h"

/* Fixed work per block: each thread runs `iters` dependent FMAs. */
static const char *FIXED_WORK =
    ".kernel work\n"
    ".param .ptr out\n"
    ".param .s32 iters\n"
    "    ld.param.u32 %r0, [out]\n"
    "    ld.param.s32 %r1, [iters]\n"
    "    mov.u32 %r2, %tid.x\n"
    "    mov.u32 %r3, %ctaid.x\n"
    "    mov.u32 %r4, %ntid.x\n"
    "    mad.lo.u32 %r5, %r3, %r4, %r2\n"
    "    cvt.rn.f32.u32 %r6, %r2\n"
    "    mov.u32 %r7, 0\n"
    "LOOP:\n"
    "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n"
    "    add.s32 %r7, %r7, 1\n"
    "    setp.lt.s32 %p0, %r7, %r1\n"
    "    @%p0 bra LOOP\n"
    "    shl.b32 %r8, %r5, 2\n"
    "    add.u32 %r8, %r8, %r0\n"
    "    st.global.f32 [%r8], %r6\n"
    "    exit\n";

static uint64_t fixed_work_cycles(uint32_t sms, uint32_t blocks, uint32_t regs)
{
    Run t;
    run_init(&t, "a100", FIXED_WORK, "work");
    char kv[64];
    snprintf(kv, sizeof kv, "sm.count=%u", sms);
    set(&t, kv);
    t.params[0] = buffer(&t, (uint64_t)blocks * 1024 * 4, "out");
    t.params[1] = 64;
    t.L.grid[0] = blocks;
    t.L.block[0] = 1024;
    t.L.regs_per_thread = regs;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    uint64_t c = t.r.stats.cycles;
    run_free(&t);
    return c;
}

/* 1024 threads x 64 registers fill the register file: one block per SM. */
START_TEST(test_one_extra_block_costs_a_wave)
{
    uint64_t full = fixed_work_cycles(12, 12, 64);
    uint64_t extra = fixed_work_cycles(12, 13, 64);
    double ratio = (double)extra / (double)full;
    ck_assert_msg(ratio > 1.8 && ratio < 2.2, "13 vs 12 blocks on 12 SMs: ratio %.2f", ratio);
}
END_TEST

/* 128-thread blocks with 70 KB of shared memory each: two per SM, and too
** few warps to fill the pipes, so a block takes as long alone as in company:
** 2*S+4 blocks need a third wave that costs as much as the first two. */
static uint64_t two_per_sm_cycles(uint32_t sms, uint32_t blocks, KernelStats *out)
{
    Run t;
    run_init(&t, "a100", FIXED_WORK, "work");
    char kv[64];
    snprintf(kv, sizeof kv, "sm.count=%u", sms);
    set(&t, kv);
    set(&t, "sm.block_launch_interval=0"); /* waves alone: no launch stagger */
    t.params[0] = buffer(&t, (uint64_t)blocks * 128 * 4, "out");
    t.params[1] = 64;
    t.L.grid[0] = blocks;
    t.L.block[0] = 128;
    t.L.dynamic_smem = 70 * 1024;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    *out = t.r.stats;
    run_free(&t);
    return out->cycles;
}

START_TEST(test_two_per_sm_tail)
{
    KernelStats tail, full;
    uint64_t c_tail = two_per_sm_cycles(10, 24, &tail), c_full = two_per_sm_cycles(10, 20, &full);
    ck_assert_uint_eq(tail.occ.blocks_per_sm, 2);
    ck_assert_int_eq(tail.occ.limiter, OCC_SHARED_MEMORY);
    ck_assert_uint_eq(full.waves, 1);
    ck_assert_uint_eq(tail.waves, 2);
    ck_assert_uint_eq(tail.tail_blocks, 4);
    double ratio = (double)c_tail / (double)c_full;
    ck_assert_msg(ratio > 1.8 && ratio < 2.2, "24 vs 20 blocks at 2/SM on 10 SMs: ratio %.2f", ratio);
}
END_TEST

/* Warps that exit no longer count at the barrier, as exited lanes do not
** (`if (i >= n) return; __syncthreads();` runs on the GPU): warp 0 passes
** the bar.sync whether warps 1-3 exited before it arrived (fast) or while
** it waited (slow: they loop first). */
static const char *EXIT_THEN_BARRIER =
    ".kernel k\n"
    ".param .ptr out\n"
    ".param .s32 iters\n"
    "    ld.param.u32 %r0, [out]\n"
    "    ld.param.s32 %r5, [iters]\n"
    "    mov.u32 %r1, %tid.x\n"
    "    setp.ge.u32 %p0, %r1, 32\n"
    "    @%p0 bra BUSY\n"
    "    bar.sync 0\n"
    "    shl.b32 %r2, %r1, 2\n"
    "    add.u32 %r2, %r2, %r0\n"
    "    mov.u32 %r3, 7\n"
    "    st.global.u32 [%r2], %r3\n"
    "    exit\n"
    "BUSY:\n"
    "    mov.u32 %r4, 0\n"
    "SPIN:\n"
    "    add.s32 %r4, %r4, 1\n"
    "    setp.lt.s32 %p1, %r4, %r5\n"
    "    @%p1 bra SPIN\n"
    "    exit\n";

START_TEST(test_exited_warps_do_not_hold_the_barrier)
{
    const int32_t spins[] = { 0, 200 };
    for (int i = 0; i < 2; i++) {
        Run t;
        run_init(&t, "a100", EXIT_THEN_BARRIER, "k");
        set(&t, "sm.count=1");
        t.params[0] = buffer(&t, 32 * 4, "out");
        t.params[1] = (uint32_t)spins[i];
        t.L.block[0] = 128;
        ck_assert_msg(simulate(&t), "spins %d: %s", spins[i], t.r.message);
        const uint32_t *out = gmem_translate(t.gmem, t.params[0], 32 * 4);
        for (int l = 0; l < 32; l++) ck_assert_uint_eq(out[l], 7);
        if (spins[i]) /* warp 0 waited at the barrier for the loops to end */
            ck_assert_uint_gt(t.r.stats.cycles, (uint64_t)spins[i] * 4);
        run_free(&t);
    }
}
END_TEST

START_TEST(test_deadlock_divergent_barrier_names_threads)
{
    const char *src =
        ".kernel k\n"
        "    mov.u32 %r1, %tid.x\n"
        "    setp.ge.u32 %p0, %r1, 40\n"
        "    @%p0 bra skip\n"
        "    bar.sync 0\n"
        "skip:\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.L.grid[0] = 1;
    t.L.block[0] = 64;
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_DEADLOCK);
    ck_assert_str_eq(t.r.message, "test.asm:5: barrier deadlock at 'bar.sync 0' in kernel 'k', block (0,0,0): a warp "
                                  "reached bar.sync with only some of its lanes (divergent barrier)\n"
                                  "    warp 0: arrived at line 5, threads 0-31\n"
                                  "    warp 1: arrived at line 5 with only threads 32-39; never arriving: threads 40-63");
    run_free(&t);
}
END_TEST

/* Named barriers (bar.sync a, b): of 3 warps, warps 0 and 1 meet at
** barrier a (a register's value), which asks for b threads. */
static const char *NAMED_BARRIER =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .reg .pred %%p<2>;\n"
    "  mov.u32 %%r1, %%tid.x;\n  setp.ge.u32 %%p1, %%r1, 64;\n  @%%p1 bra DONE;\n"
    "  mov.u32 %%r2, %s;\n  bar.sync %%r2, %s;\nDONE:\n  ret;\n}\n";

static SimResult *named_run(const char *id, const char *threads, bool racecheck)
{
    char src[1024];
    snprintf(src, sizeof src, NAMED_BARRIER, id, threads);
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    t.L.block[0] = 96;
    t.L.racecheck = racecheck;
    SimResult *r = malloc(sizeof *r);
    simulate(&t);
    *r = t.r;
    run_free(&t);
    return r;
}

START_TEST(test_named_barriers)
{
    SimResult *r = named_run("1", "64", false); /* the two warps that meet there */
    ck_assert_msg(r->status == SIM_OK, "%s", r->message);
    free(r);
    r = named_run("1", "96", false); /* the third warp exited: it never opens */
    ck_assert_int_eq(r->status, SIM_DEADLOCK);
    ck_assert_msg(strstr(r->message, "test.ptx:12: barrier deadlock at 'bar.sync %r") && strstr(r->message, ", 96' in kernel 'k'") &&
                      strstr(r->message, "barrier 1 waits for 3 warp(s), 2 arrived, and no other warp of the block will arrive") &&
                      strstr(r->message, "warp 2: exited"),
                  "%s", r->message);
    free(r);
    r = named_run("16", "64", false); /* a block has barriers 0-15 */
    ck_assert_int_eq(r->status, SIM_FAULT);
    ck_assert_int_eq(r->fault, FAULT_BARRIER);
    ck_assert_msg(strstr(r->message, "illegal barrier: barrier 16 (a block has barriers 0-15)"), "%s", r->message);
    free(r);
    r = named_run("1", "64", true); /* part of the block: --racecheck cannot follow it */
    ck_assert_int_eq(r->status, SIM_BAD_LAUNCH);
    ck_assert_msg(strstr(r->message, "which --racecheck does not follow"), "%s", r->message);
    free(r);
}
END_TEST

/* What nvcc -G writes for `if (i >= n) return; ... __syncthreads();`: the
** leaving lanes jump (through a chain of bra.uni) to the kernel's ret, so
** the branch reconverges only at the exit, and the staying lanes reach the
** barrier first. The path beside them goes first and its lanes exit (a
** GPU's scheduler would run them), so the barrier opens for the lanes left;
** then bar.red's result, written when the barrier opens, reaches the free
** instruction after it (it once ran before the barrier opened and read
** the register unwritten). */
static const char *EARLY_RETURN_G =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r1, %tid.x;\n  setp.ge.u32 %p1, %r1, 40;\n"
    "  not.pred %p2, %p1;\n  @%p2 bra STAY;\n  bra.uni LEAVE;\nLEAVE:\n  bra.uni END;\n"
    "STAY:\n  setp.lt.u32 %p3, %r1, 10;\n  bar.red.popc.u32 %r2, 0, %p3;\n  mov.u32 %r3, %r2;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r3;\n"
    "END:\n  ret;\n}\n";

START_TEST(test_early_return_before_barrier)
{
    Run t;
    run_init(&t, "h200", EARLY_RETURN_G, "k");
    set(&t, "sm.count=1");
    t.params[0] = buffer(&t, 64 * 4, "out");
    t.L.block[0] = 64;
    const Kernel *k = t.L.kernel;
    PcCounters *pcs = calloc(k->ncode, sizeof *pcs);
    t.L.pc_counters = pcs;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    const uint32_t *out = gmem_translate(t.gmem, t.params[0], 64 * 4);
    for (uint32_t i = 0; i < 40; i++) ck_assert_msg(out[i] == 10, "thread %u: %u, want 10", i, out[i]);
    /* each warp executes bar.red once: the turn warp 1's staying lanes
    ** gave to its leaving ones is not an issue (it was counted as one) */
    uint32_t bar = 0;
    while (k->code[bar].op != OP_BAR_RED) bar++;
    ck_assert_uint_eq(pcs[bar].executed, 2);
    ck_assert_uint_eq(pcs[bar].warp_instructions, 2 * k->code[bar].slots);
    free(pcs);
    run_free(&t);
}
END_TEST

START_TEST(test_cycle_budget)
{
    const char *src =
        ".kernel k\n"
        "    mov.u32 %r1, 0\n"
        "L:\n"
        "    add.u32 %r1, %r1, 1\n"
        "    setp.ne.u32 %p0, %r1, 0\n"   /* wraps after 2^32 iterations */
        "    @%p0 bra L\n"
        "    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    t.L.grid[0] = 1;
    t.L.block[0] = 32;
    t.L.max_cycles = 100000;
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_BUDGET);
    ck_assert_msg(strstr(t.r.message, "100000 cycles") && strstr(t.r.message, "pc "), "%s", t.r.message);
    run_free(&t);
}
END_TEST


START_TEST(test_block_too_big_for_sm)
{
    Run t;
    run_init(&t, "a100", FIXED_WORK, "work");
    t.L.grid[0] = 1;
    t.L.block[0] = 1024;
    t.L.regs_per_thread = 128; /* 128 x 1024 > 65536 registers */
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_BAD_LAUNCH);
    ck_assert_msg(strstr(t.r.message, "cannot launch"), "%s", t.r.message);
    run_free(&t);
}
END_TEST



/* Regression: one warp per scheduler, blocks that all end in the same
** cycle and more blocks waiting. Each scheduler is emptied by its exit and
** refilled by the next block in one cycle; it must be queued once (a
** duplicate overflowed the next-cycle list and let it issue twice). */
START_TEST(test_scheduler_refilled_in_the_cycle_it_empties)
{
    KernelStats one, three;
    memset(&one, 0, sizeof one);
    memset(&three, 0, sizeof three);
    Run t;
    for (int waves = 1; waves <= 3; waves += 2) {
        run_init(&t, "a100", FIXED_WORK, "work");
        set(&t, "sm.count=16");
        uint32_t blocks = 16u * (uint32_t)waves;
        t.params[0] = buffer(&t, (uint64_t)blocks * 128 * 4, "out");
        t.params[1] = 16;
        t.L.grid[0] = blocks;
        t.L.block[0] = 128;
        t.L.dynamic_smem = 150 * 1024; /* one block per SM */
        ck_assert_msg(simulate(&t), "%s", t.r.message);
        if (waves == 1) one = t.r.stats;
        else three = t.r.stats;
        run_free(&t);
    }
    ck_assert_uint_eq(three.waves, 3);
    ck_assert_uint_eq(three.warp_instructions, 3 * one.warp_instructions);
    double ratio = (double)three.cycles / (double)one.cycles;
    ck_assert_msg(ratio > 2.9 && ratio < 3.1, "3 waves vs 1: %.3f", ratio);
}
END_TEST


/* --racecheck: a tile written by some warps and read by others needs the
** barrier between them; without it the race is reported with both pcs. */
static const char *TILE_RACE =
    ".kernel k\n"
    ".param .ptr out\n"
    ".shared tile 256\n"
    "    mov.u32 %r1, %tid.x\n"
    "    shl.b32 %r2, %r1, 2\n"
    "    st.shared.u32 [%r2+tile], %r1\n"
    "BARRIER\n"
    "    add.u32 %r3, %r1, 32\n"
    "    and.b32 %r3, %r3, 63\n"
    "    shl.b32 %r3, %r3, 2\n"
    "    ld.shared.u32 %r4, [%r3+tile]\n"
    "    ld.param.u32 %r0, [out]\n"
    "    add.u32 %r5, %r2, %r0\n"
    "    st.global.u32 [%r5], %r4\n"
    "    exit\n";

static bool racecheck_run_banks(bool barrier, const char *banks, SimResult *r)
{
    char src[1024];
    const char *mark = strstr(TILE_RACE, "BARRIER\n");
    snprintf(src, sizeof src, "%.*s%s%s", (int)(mark - TILE_RACE), TILE_RACE, barrier ? "    bar.sync 0\n" : "",
             mark + strlen("BARRIER\n"));
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=1");
    set(&t, banks);
    t.params[0] = buffer(&t, 64 * 4, "out");
    t.L.grid[0] = 1;
    t.L.block[0] = 64;
    t.L.racecheck = true;
    bool ok = simulate(&t);
    *r = t.r;
    run_free(&t);
    return ok;
}

static bool racecheck_run(bool barrier, SimResult *r)
{
    return racecheck_run_banks(barrier, "smem.banks=32", r);
}

START_TEST(test_racecheck)
{
    SimResult *r = malloc(sizeof *r);
    ck_assert(racecheck_run(true, r));
    ck_assert(!racecheck_run(false, r));
    ck_assert_int_eq(r->status, SIM_FAULT);
    ck_assert_msg(strstr(r->message, "race") && strstr(r->message, "st.shared") && strstr(r->message, "ld.shared"),
                  "%s", r->message);
    free(r);
}
END_TEST

/* smem.banks: the race checker works on 4-byte words, so it reports the
** same race on every bank count; the wavefronts follow the banks (64
** consecutive words: 1 pass each on 32 and 64 banks, 2 half-warps on 16). */
START_TEST(test_racecheck_banks)
{
    static const char *const banks[] = { "smem.banks=16", "smem.banks=32", "smem.banks=64" };
    static const uint64_t passes[] = { 2, 1, 1 };
    SimResult *r = malloc(sizeof *r);
    ck_assert(racecheck_run_banks(true, banks[_i], r));
    const SharedCounts *st = &r->stats.shared[ACCESS_STORE];
    ck_assert_uint_eq(st->requests, 2);
    ck_assert_uint_eq(st->wavefronts, 2 * passes[_i]);
    ck_assert(!racecheck_run_banks(false, banks[_i], r));
    ck_assert_int_eq(r->status, SIM_FAULT);
    ck_assert_msg(strstr(r->message, "write-after-read race") || strstr(r->message, "read-after-write race"), "%s",
                  r->message);
    free(r);
}
END_TEST



/* The block launcher starts one block per SM every sm.block_launch_interval
** cycles: a grid of many tiny blocks takes that long per block per SM. */
START_TEST(test_block_launch_interval)
{
    const char *src = ".kernel k\n    exit\n";
    Run t;
    run_init(&t, "a100", src, "k");
    set(&t, "sm.count=2");
    set(&t, "sm.block_launch_interval=100");
    t.L.grid[0] = 64; /* 32 blocks per SM */
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    uint64_t c = t.r.stats.cycles;
    ck_assert_msg(c >= 31 * 100 && c <= 31 * 100 + 50, "64 empty blocks on 2 SMs: %llu cycles", (unsigned long long)c);
    /* waiting for the launcher is SM-level time, not a stall: block k of
    ** each SM waits 100 k cycles, and each SM has a block waiting from cycle
    ** 1 until its last one starts at 3101 */
    ck_assert_uint_eq(t.r.stats.launch_wait_warp_cycles, 2 * 100 * (31 * 32 / 2));
    ck_assert_uint_eq(t.r.stats.launch_queue_cycles, 2 * 31 * 100);
    uint64_t stalled = 0;
    for (int k = 0; k < STALL_REASONS; k++) stalled += t.r.stats.stall[k];
    ck_assert_uint_lt(stalled, 64 * 8); /* each warp: its exit, and little else */
    run_free(&t);
    /* blocks of many warps take warp_launch_interval per warp when that is
    ** longer: 32-warp blocks at 8 per warp are 256 apart, 1-warp ones 100 */
    for (uint32_t threads = 32; threads <= 1024; threads *= 32) {
        run_init(&t, "a100", src, "k");
        set(&t, "sm.count=2");
        set(&t, "sm.block_launch_interval=100");
        set(&t, "sm.warp_launch_interval=8");
        t.L.grid[0] = 16; /* 8 blocks per SM, at most 2 resident at 1024 threads */
        t.L.block[0] = threads;
        ck_assert(simulate(&t));
        uint64_t gap = threads == 1024 ? 256 : 100;
        c = t.r.stats.cycles;
        ck_assert_msg(c >= 7 * gap && c <= 7 * gap + 60, "%u-thread blocks: %llu cycles, want about 7 x %llu", threads,
                      (unsigned long long)c, (unsigned long long)gap);
        run_free(&t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_launch");
    TCase *waves = tcase_create("Waves");
    tcase_add_test(waves, test_one_extra_block_costs_a_wave);
    tcase_add_test(waves, test_two_per_sm_tail);
    tcase_add_test(waves, test_scheduler_refilled_in_the_cycle_it_empties);
    tcase_add_test(waves, test_block_launch_interval);
    tcase_set_timeout(waves, 120);
    suite_add_tcase(s, waves);
    TCase *bad = tcase_create("BadRuns");
    tcase_add_test(bad, test_deadlock_divergent_barrier_names_threads);
    tcase_add_test(bad, test_named_barriers);
    tcase_add_test(bad, test_early_return_before_barrier);
    tcase_add_test(bad, test_exited_warps_do_not_hold_the_barrier);
    tcase_add_test(bad, test_cycle_budget);
    tcase_add_test(bad, test_block_too_big_for_sm);
    tcase_add_test(bad, test_racecheck);
    tcase_add_loop_test(bad, test_racecheck_banks, 0, 3);
    suite_add_tcase(s, bad);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
