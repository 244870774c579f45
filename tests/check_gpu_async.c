/* tests/check_gpu_async.c -- asynchronous copies and mbarriers through the
** whole simulator (isa/exec_async.c, sim/async.c): what they copy and
** count, when a wait_group lets a warp go, when a waiter on an mbarrier
** sees the copies it tracks, the misuse a kernel is stopped for, and a
** launch with copies keeping to one host thread with the same result. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"
#include "sim/gpu.h"
#include "tests/sim_run.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Blocks of `block_x` threads of kernel k (body: its PTX between the
** braces, param p a pointer to 64 KiB of global memory holding word i = i)
** on as many h200 SMs, on `threads` host threads. */
static void async_run_on(Run *t, const char *body, bool ok, uint32_t blocks, uint32_t threads, uint32_t block_x)
{
    char src[8192];
    snprintf(src, sizeof src,
             HEAD ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<40>;\n  .reg .b64 %%rd<20>;\n"
                  "  .reg .pred %%p<8>;\n  .shared .align 16 .b8 buf[4096];\n  .shared .align 8 .b64 bar;\n"
                  "  ld.param.u64 %%rd1, [p];\n  cvta.to.global.u64 %%rd1, %%rd1;\n  mov.u32 %%r0, %%tid.x;\n"
                  "  mul.wide.u32 %%rd2, %%r0, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n  shl.b32 %%r1, %%r0, 2;\n"
                  "  mov.u32 %%r2, buf;\n  add.s32 %%r3, %%r2, %%r1;\n  mov.u32 %%r4, bar;\n%s}\n",
             body);
    run_init(t, "h200", src, "k");
    char sms[32];
    snprintf(sms, sizeof sms, "sm.count=%u", blocks);
    set(t, sms);
    t->L.grid[0] = blocks;
    t->L.threads = threads;
    uint32_t data = buffer(t, 65536, "data");
    uint32_t *words = gmem_translate(t->gmem, data, 65536);
    ck_assert_ptr_nonnull(words);
    for (uint32_t i = 0; i < 16384; i++) words[i] = i;
    t->params[0] = data;
    t->params[1] = 0;
    t->L.block[0] = block_x;
    bool done = simulate(t);
    ck_assert_msg(done == ok, "%s", t->r.message);
}

static void async_run(Run *t, const char *body, bool ok) { async_run_on(t, body, ok, 1, 1, 32); }

static uint32_t word(Run *t, uint32_t i)
{
    const uint32_t *v = gmem_translate(t->gmem, t->params[0] + 4 * i, 4);
    ck_assert_ptr_nonnull(v);
    return *v;
}

/* The copy lands in shared memory: lane l's word copied, read back and
** stored at word 1024 + l. A zero fill (src-size 0) reads nothing: lanes
** whose address is past every buffer still copy zeros without a fault. */
START_TEST(test_copy_lands)
{
    Run t;
    async_run(&t,
              "  setp.lt.u32 %p1, %r0, 16;\n  selp.b32 %r5, 4, 0, %p1;\n"
              "  @%p1 bra SRC;\n  mov.u64 %rd3, 0x70000000;\nSRC:\n"
              "  cp.async.ca.shared.global [%r3], [%rd3], 4, %r5;\n  cp.async.wait_all;\n"
              "  ld.shared.u32 %r6, [%r3];\n  add.s64 %rd4, %rd1, 4096;\n  add.s64 %rd4, %rd4, %rd2;\n"
              "  st.global.u32 [%rd4], %r6;\n  ret;\n",
              true);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(word(&t, 1024 + l), l < 16 ? l : 0);
    /* only the reading lanes' sectors: 16 lanes of 4 bytes, two sectors */
    ck_assert_uint_eq(t.r.stats.global[ACCESS_LOAD].sectors, 2);
    run_free(&t);
}
END_TEST

/* Cycles of one warp that copies `copies` words in groups of one (each
** from its own 4 KiB page, a DRAM miss), commits each, commits `empty`
** groups with no copy, then waits with wait_group `keep` and stores. */
static uint64_t wait_cycles(uint32_t copies, uint32_t empty, uint32_t keep, KernelStats *st)
{
    char body[4096];
    int n = 0;
    for (uint32_t c = 0; c < copies; c++)
        n += snprintf(body + n, sizeof body - (size_t)n,
                      "  add.s64 %%rd5, %%rd3, %u;\n  cp.async.ca.shared.global [%%r3+%u], [%%rd5], 4;\n"
                      "  cp.async.commit_group;\n",
                      4096u * (c % 15), 128u * (c % 31));
    for (uint32_t c = 0; c < empty; c++) n += snprintf(body + n, sizeof body - (size_t)n, "  cp.async.commit_group;\n");
    snprintf(body + n, sizeof body - (size_t)n,
             "  cp.async.wait_group %u;\n  add.s32 %%r7, %%r0, 1;\n  add.s64 %%rd4, %%rd1, 65532;\n"
             "  st.global.u32 [%%rd4], %%r7;\n  ret;\n",
             keep);
    Run t;
    async_run(&t, body, true);
    uint64_t c = t.r.stats.cycles;
    if (st) *st = t.r.stats;
    run_free(&t);
    return c;
}

/* wait_group 0 holds the warp for the copy (a DRAM miss: hundreds of
** cycles, under long scoreboard); wait_group 1 with one group does not. */
START_TEST(test_wait_group_waits)
{
    KernelStats waited, not_waited;
    uint64_t a = wait_cycles(1, 0, 0, &waited), b = wait_cycles(1, 0, 1, &not_waited);
    ck_assert_msg(a > b + 300, "wait_group 0: %llu cycles, wait_group 1: %llu", (unsigned long long)a, (unsigned long long)b);
    ck_assert_uint_gt(waited.stall[STALL_LONG_SCOREBOARD], not_waited.stall[STALL_LONG_SCOREBOARD] + 300);
}
END_TEST

/* Past the ring's eight groups the oldest are kept together, never lost:
** a copy (a DRAM miss) and eleven empty groups after it, then a wait for
** all, waits as long as for the copy alone; twelve copies' wait_group 11
** does not wait. */
START_TEST(test_wait_group_many)
{
    uint64_t one = wait_cycles(1, 0, 0, NULL), buried = wait_cycles(1, 11, 0, NULL);
    uint64_t twelve = wait_cycles(12, 0, 0, NULL), keep11 = wait_cycles(12, 0, 11, NULL);
    ck_assert_msg(buried + 20 >= one, "a copy under 11 empty groups: %llu cycles, alone: %llu", (unsigned long long)buried,
                  (unsigned long long)one);
    ck_assert_msg(keep11 + 300 < twelve, "wait_group 11 of 12: %llu cycles, wait_group 0: %llu", (unsigned long long)keep11,
                  (unsigned long long)twelve);
}
END_TEST

/* An mbarrier tracking the copies: the 32 lanes' .noinc arrivals complete
** its phase at once, but the waiter's predicate is ready only when the
** copy (a DRAM miss) is; a plain arrival does not wait for it. */
static uint64_t mbar_cycles(bool track)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  mbarrier.init.shared.b64 [%%r4], 32;\n  cp.async.ca.shared.global [%%r3], [%%rd3], 4;\n  %s\n"
             "  mbarrier.test_wait.parity.shared.b64 %%p2, [%%r4], 0;\n  selp.u32 %%r8, 1, 2, %%p2;\n"
             "  add.s64 %%rd4, %%rd1, 8192;\n  add.s64 %%rd4, %%rd4, %%rd2;\n  st.global.u32 [%%rd4], %%r8;\n  ret;\n",
             track ? "cp.async.mbarrier.arrive.noinc.shared.b64 [%r4];" : "mbarrier.arrive.shared.b64 _, [%r4];");
    Run t;
    async_run(&t, body, true);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(word(&t, 2048 + l), 1); /* the phase is over */
    uint64_t c = t.r.stats.cycles;
    run_free(&t);
    return c;
}

START_TEST(test_mbarrier_waits_for_tracked_copies)
{
    uint64_t tracked = mbar_cycles(true), plain = mbar_cycles(false);
    ck_assert_msg(tracked > plain + 300, "tracked: %llu cycles, plain: %llu", (unsigned long long)tracked,
                  (unsigned long long)plain);
}
END_TEST

/* Phases and tokens: 32 arrivals of count 1 on a barrier of 32 complete
** its first phase; each lane's token, read by pending_count, is what the
** phase still needed after it; test_wait on the token is true (the phase
** is over), test_wait.parity 0 true, .parity 1 (the phase now) false. */
START_TEST(test_mbarrier_phases)
{
    Run t;
    async_run(&t,
              "  mbarrier.init.shared.b64 [%r4], 32;\n  mbarrier.arrive.shared.b64 %rd6, [%r4];\n"
              "  mbarrier.pending_count.b64 %r9, %rd6;\n  mbarrier.test_wait.shared.b64 %p3, [%r4], %rd6;\n"
              "  mbarrier.try_wait.parity.shared.b64 %p4, [%r4], 0;\n  mbarrier.test_wait.parity.shared.b64 %p5, [%r4], 1;\n"
              "  selp.u32 %r10, 100, 0, %p3;\n  selp.u32 %r11, 1000, 0, %p4;\n  selp.u32 %r12, 10000, 0, %p5;\n"
              "  add.s32 %r9, %r9, %r10;\n  add.s32 %r9, %r9, %r11;\n  add.s32 %r9, %r9, %r12;\n"
              "  add.s64 %rd4, %rd1, 8192;\n  add.s64 %rd4, %rd4, %rd2;\n  st.global.u32 [%rd4], %r9;\n  ret;\n",
              true);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(word(&t, 2048 + l), 31 - l + 100 + 1000);
    run_free(&t);
}
END_TEST

/* A bulk copy (the TMA's) of 1 KiB by lane 0, completing on a barrier of
** 32 whose byte count lane 0 then expects (the copy's bytes may come
** first: the count goes below zero and back), all 32 lanes arriving: the
** phase is over, the bytes are in shared memory, and the waiter's
** predicate waits for the copy (a DRAM miss) when `copy` is set; without
** the copy (expect_tx then complete_tx by hand) it does not. Each lane
** stores word 8 * lane of the copy. */
static uint64_t bulk_cycles(bool copy)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  mbarrier.init.shared.b64 [%%r4], 32;\n  setp.eq.u32 %%p1, %%r0, 0;\n  @!%%p1 bra ARRIVE;\n%s"
             "  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%%r4], 1024;\n%s"
             "ARRIVE:\n  mbarrier.arrive.shared::cta.b64 %%rd6, [%%r4];\n"
             "  mbarrier.try_wait.shared.b64 %%p2, [%%r4], %%rd6;\n  selp.u32 %%r8, 1, 2, %%p2;\n"
             "  shl.b32 %%r9, %%r0, 5;\n  add.s32 %%r9, %%r2, %%r9;\n  ld.shared.u32 %%r10, [%%r9];\n"
             "  add.s32 %%r10, %%r10, %%r8;\n  add.s64 %%rd4, %%rd1, 8192;\n  add.s64 %%rd4, %%rd4, %%rd2;\n"
             "  st.global.u32 [%%rd4], %%r10;\n  ret;\n",
             copy ? "  add.s64 %rd5, %rd1, 4096;\n  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], "
                    "[%rd5], 1024, [bar];\n"
                  : "",
             copy ? "" : "  mbarrier.complete_tx.shared.b64 [%r4], 1024;\n");
    Run t;
    async_run(&t, body, true);
    /* word 8 l of the copy: data word 1024 + 8 l, plus 1 for the phase over */
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(word(&t, 2048 + l), (copy ? 1024 + 8 * l : 0) + 1);
    uint64_t c = t.r.stats.cycles;
    run_free(&t);
    return c;
}

START_TEST(test_bulk_copy)
{
    uint64_t with = bulk_cycles(true), without = bulk_cycles(false);
    ck_assert_msg(with > without + 300, "bulk copy: %llu cycles, bytes by hand: %llu", (unsigned long long)with,
                  (unsigned long long)without);
}
END_TEST

/* Misuse stops the kernel with a fault that says which. */
START_TEST(test_mbarrier_misuse)
{
    static const struct { const char *body, *says; } cases[] = {
        { "  mbarrier.init.shared.b64 [%r4], 0;\n  ret;\n", "expected count of 0" },
        { "  mbarrier.init.shared.b64 [%r4], 8;\n  mbarrier.arrive.shared.b64 _, [%r4], 9;\n  ret;\n", "whose phase needs fewer" },
        { "  mbarrier.arrive.shared.b64 _, [%r4];\n  ret;\n", "no mbarrier is initialised" },
        { "  mbarrier.init.shared.b64 [%r4], 32;\n  mbarrier.arrive.noComplete.shared.b64 %rd6, [%r4], 1;\n  ret;\n",
          "completes its phase" },
        { "  mbarrier.arrive.b64 %rd6, [%rd1];\n  ret;\n", "not in shared memory" },
        { "  mbarrier.init.shared.b64 [%r4], 1;\n  mbarrier.expect_tx.shared.b64 [%r4], 1048576;\n  ret;\n",
          "transaction count past" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run t;
        async_run(&t, cases[i].body, false);
        ck_assert_int_eq(t.r.status, SIM_FAULT);
        ck_assert_msg(strstr(t.r.message, "mbarrier misuse") && strstr(t.r.message, cases[i].says), "case %zu: %s", i,
                      t.r.message);
        run_free(&t);
    }
}
END_TEST

/* try_wait suspends a warp whose phase is not over until an arrival ends
** it, where it spun through its loop: warp 1 runs a 300-step loop and then
** arrives; warp 0 waits on the barrier in a try_wait loop. It issues its
** wait about twice (once suspended, once after the arrival wakes it), its
** time is charged as sleeping, and it goes on only after the arrival. With
** `arrivals` 2 on a barrier of 3 the phase never ends: a deadlock, named. */
static void try_wait_run(Run *t, uint32_t expected, bool ok)
{
    char body[2048];
    snprintf(body, sizeof body,
             "  setp.eq.u32 %%p1, %%r0, 0;\n  @%%p1 mbarrier.init.shared.b64 [%%r4], %u;\n  bar.sync 0;\n"
             "  setp.lt.u32 %%p2, %%r0, 32;\n  @%%p2 bra WAIT;\n  mov.u32 %%r20, 0;\nLOOP:\n"
             "  add.s32 %%r20, %%r20, 1;\n  setp.lt.u32 %%p3, %%r20, 300;\n  @%%p3 bra LOOP;\n"
             "  setp.lt.u32 %%p4, %%r0, 34;\n  @%%p4 mbarrier.arrive.shared.b64 %%rd6, [%%r4];\n  bra DONE;\n"
             "WAIT:\n  mbarrier.try_wait.parity.shared.b64 %%p5, [%%r4], 0;\n  @!%%p5 bra WAIT;\n"
             "  mov.u32 %%r20, 7;\nDONE:\n  add.s64 %%rd4, %%rd1, 8192;\n  add.s64 %%rd4, %%rd4, %%rd2;\n"
             "  st.global.u32 [%%rd4], %%r20;\n  ret;\n",
             expected);
    async_run_on(t, body, ok, 1, 1, 64);
}

START_TEST(test_try_wait_suspends)
{
    Run t;
    try_wait_run(&t, 2, true);
    for (uint32_t l = 0; l < 64; l++) ck_assert_uint_eq(word(&t, 2048 + l), l < 32 ? 7 : 300);
    const KernelStats *st = &t.r.stats;
    /* each warp: 9 to set up, 5 to the split, 4 to store and return; warp 1:
    ** its 1 + 3 x 300 + 3; warp 0: 1 + 2 a wait (a spinning one ~500 waits) */
    ck_assert_msg(st->ptx_instructions <= 2 * 18 + 904 + 1 + 2 * 3, "%llu PTX instructions: warp 0 spun",
                  (unsigned long long)st->ptx_instructions);
    ck_assert_uint_gt(st->stall[STALL_SLEEPING], 300);
    run_free(&t);
    try_wait_run(&t, 3, false);
    ck_assert_int_eq(t.r.status, SIM_DEADLOCK);
    ck_assert_msg(strstr(t.r.message, "barrier deadlock at 'mbarrier.try_wait") &&
                      strstr(t.r.message, "never completes its phase"),
                  "%s", t.r.message);
    run_free(&t);
}
END_TEST

/* A launch with copies runs on one host thread: asked for four, the same
** cycles and counts as on one (a deferred copy would never complete). */
START_TEST(test_one_thread)
{
    const char *body = "  mov.u32 %r12, %ctaid.x;\n  mul.wide.u32 %rd8, %r0, 16;\n  add.s64 %rd9, %rd1, %rd8;\n"
                       "  mul.wide.u32 %rd7, %r12, 512;\n  add.s64 %rd9, %rd9, %rd7;\n  shl.b32 %r13, %r0, 4;\n"
                       "  add.s32 %r14, %r2, %r13;\n  cp.async.cg.shared.global [%r14], [%rd9], 16;\n  cp.async.wait_all;\n"
                       "  ld.shared.u32 %r6, [%r14];\n  mul.wide.u32 %rd7, %r12, 128;\n  add.s64 %rd4, %rd1, 8192;\n"
                       "  add.s64 %rd4, %rd4, %rd7;\n  add.s64 %rd4, %rd4, %rd2;\n  st.global.u32 [%rd4], %r6;\n  ret;\n";
    Run t;
    async_run_on(&t, body, true, 4, 1, 32);
    KernelStats one = t.r.stats;
    run_free(&t);
    setenv("GPUSIM_THREADS_EXACT", "1", 1);
    async_run_on(&t, body, true, 4, 4, 32);
    KernelStats four = t.r.stats;
    for (uint32_t b = 0; b < 4; b++)
        for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(word(&t, 2048 + 32 * b + l), 128 * b + 4 * l);
    run_free(&t);
    ck_assert_uint_eq(one.cycles, four.cycles);
    ck_assert_uint_eq(one.global[ACCESS_LOAD].sectors, four.global[ACCESS_LOAD].sectors);
}
END_TEST

/* --racecheck knows bar.sync alone: a kernel that arrives on an mbarrier
** is refused, not reported racy. */
START_TEST(test_racecheck_refuses_mbarrier)
{
    Run t;
    memset(&t, 0, sizeof t);
    char src[2048];
    snprintf(src, sizeof src,
             HEAD ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .shared .align 8 .b64 bar;\n"
                  "  mov.u32 %%r1, bar;\n  mbarrier.init.shared.b64 [%%r1], 32;\n  mbarrier.arrive.shared.b64 _, [%%r1];\n"
                  "  ret;\n}\n");
    run_init(&t, "h200", src, "k");
    t.L.block[0] = 32;
    t.L.racecheck = true;
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_BAD_LAUNCH);
    ck_assert_msg(strstr(t.r.message, "--racecheck does not follow"), "%s", t.r.message);
    t.L.racecheck = false;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    run_free(&t);
}
END_TEST

/* --racecheck sees a cp.async's shared write: each thread copies its own
** word, waits for its group, and reads the word the other warp copied; with
** no bar.sync between, that is a race (the read is the second access);
** with one, none. The copies wrote nothing racecheck saw, once. */
static void copy_then_read(Run *t, const char *sync)
{
    memset(t, 0, sizeof *t);
    char src[2048];
    snprintf(src, sizeof src,
             HEAD ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n"
                  "  .shared .align 16 .b8 buf[256];\n  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r0, %%tid.x;\n"
                  "  mul.wide.u32 %%rd2, %%r0, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n  shl.b32 %%r1, %%r0, 2;\n"
                  "  mov.u32 %%r2, buf;\n  add.s32 %%r3, %%r2, %%r1;\n"
                  "  cp.async.ca.shared.global [%%r3], [%%rd3], 4;\n  cp.async.commit_group;\n"
                  "  cp.async.wait_group 0;\n%s  xor.b32 %%r4, %%r1, 128;\n  add.s32 %%r5, %%r2, %%r4;\n"
                  "  ld.shared.u32 %%r6, [%%r5];\n  st.global.u32 [%%rd3], %%r6;\n  ret;\n}\n",
             sync);
    run_init(t, "h200", src, "k");
    t->L.block[0] = 64;
    t->L.racecheck = true;
    t->params[0] = buffer(t, 256, "data");
    uint32_t *words = gmem_translate(t->gmem, t->params[0], 256);
    for (uint32_t i = 0; i < 64; i++) words[i] = i;
}

START_TEST(test_racecheck_sees_copies)
{
    Run t;
    copy_then_read(&t, "");
    ck_assert(!simulate(&t));
    ck_assert_int_eq(t.r.status, SIM_FAULT);
    ck_assert_msg(strstr(t.r.message, "test.ptx:21: read-after-write race on shared memory word 0x0: thread (32,0,0) "
                                      "read at pc 12 after thread (0,0,0) wrote at pc 7") &&
                      strstr(t.r.message, "line 16: cp.async ["), "%s", t.r.message);
    run_free(&t);
    copy_then_read(&t, "  bar.sync 0;\n");
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    const uint32_t *out = gmem_translate(t.gmem, t.params[0], 256);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(out[i], i ^ 32);
    run_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_async");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_copy_lands);
    tcase_add_test(c, test_try_wait_suspends);
    tcase_add_test(c, test_wait_group_waits);
    tcase_add_test(c, test_wait_group_many);
    tcase_add_test(c, test_mbarrier_waits_for_tracked_copies);
    tcase_add_test(c, test_mbarrier_phases);
    tcase_add_test(c, test_bulk_copy);
    tcase_add_test(c, test_mbarrier_misuse);
    tcase_add_test(c, test_one_thread);
    tcase_add_test(c, test_racecheck_refuses_mbarrier);
    tcase_add_test(c, test_racecheck_sees_copies);
    suite_add_tcase(s, c);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
