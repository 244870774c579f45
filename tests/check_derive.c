/* tests/check_derive.c -- the derived half of KernelStats from its raw
** counters and the machine (sim/derive.h): per-request ratios by access
** kind, shared totals and bank conflicts, occupancy and IPC, waves and the
** tail, hit rates, bandwidth and the roofline, stall shares. Counters are
** written by hand; the machine is the a100 preset. */
#include "sim/derive.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static GpuConfig machine(void)
{
    GpuConfig c;
    Diag d;
    ck_assert_msg(config_load("a100", &c, &d), "%s", d.message);
    return c;
}

static void near(double got, double want, const char *what)
{
    ck_assert_msg(fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1), "%s: %.17g, want %.17g", what, got,
                  want);
}

/* ---- Core ---- */

START_TEST(test_global_ratios_by_kind)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.global[ACCESS_LOAD] = (GlobalCounts){ .requests = 10, .sectors = 40, .ideal_sectors = 40 };
    st.global[ACCESS_STORE] = (GlobalCounts){ .requests = 2, .sectors = 64, .ideal_sectors = 8 };
    derive_stats(&c, &st);
    near(st.global[ACCESS_LOAD].sectors_per_request, 4.0, "load sectors/request");
    near(st.global[ACCESS_LOAD].ideal_sectors_per_request, 4.0, "load ideal/request");
    near(st.global[ACCESS_STORE].sectors_per_request, 32.0, "store sectors/request");
    near(st.global[ACCESS_STORE].ideal_sectors_per_request, 4.0, "store ideal/request");
    /* no atomics: ratios 0, not NaN */
    ck_assert(st.global[ACCESS_ATOMIC].sectors_per_request == 0);
    ck_assert(st.global[ACCESS_ATOMIC].ideal_sectors_per_request == 0);
    /* the raw counters are left as they were */
    ck_assert_uint_eq(st.global[ACCESS_STORE].sectors, 64);
    ck_assert_uint_eq(st.global[ACCESS_LOAD].requests, 10);
}
END_TEST

static const struct {
    uint64_t req[ACCESS_KINDS], wf[ACCESS_KINDS], ideal[ACCESS_KINDS];
    uint64_t requests, wavefronts, conflicts;
} shared_cases[] = {
    { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, 0, 0, 0 },
    { { 3, 1, 0 }, { 3, 32, 0 }, { 3, 1, 0 }, 4, 35, 31 },
    { { 3, 1, 2 }, { 3, 32, 2 }, { 3, 1, 2 }, 6, 37, 31 }, /* atomics count in the totals too */
    { { 0, 0, 5 }, { 0, 0, 5 }, { 0, 0, 5 }, 5, 5, 0 },
    { { 2, 2, 0 }, { 8, 16, 0 }, { 8, 8, 0 }, 4, 24, 8 }, /* float4: 4 phases each are no conflict */
};

START_TEST(test_shared_totals)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    for (int k = 0; k < ACCESS_KINDS; k++) {
        st.shared[k].requests = shared_cases[_i].req[k];
        st.shared[k].wavefronts = shared_cases[_i].wf[k];
        st.shared[k].ideal_wavefronts = shared_cases[_i].ideal[k];
    }
    derive_stats(&c, &st);
    ck_assert_uint_eq(st.shared_requests, shared_cases[_i].requests);
    ck_assert_uint_eq(st.shared_wavefronts, shared_cases[_i].wavefronts);
    ck_assert_uint_eq(st.shared_bank_conflicts, shared_cases[_i].conflicts);
    double want = shared_cases[_i].requests ? (double)shared_cases[_i].wavefronts / shared_cases[_i].requests : 0;
    near(st.shared_wavefronts_per_request, want, "wavefronts/request");
    for (int k = 0; k < ACCESS_KINDS; k++) {
        double w = st.shared[k].requests ? (double)st.shared[k].wavefronts / st.shared[k].requests : 0;
        near(st.shared[k].wavefronts_per_request, w, ACCESS_NAMES[k]);
        double i = st.shared[k].requests ? (double)st.shared[k].ideal_wavefronts / st.shared[k].requests : 0;
        near(st.shared[k].ideal_wavefronts_per_request, i, ACCESS_NAMES[k]);
    }
}
END_TEST

START_TEST(test_occupancy_ipc_branches)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.occ.occupancy = 0.75;
    st.busy_sm_cycles = 1000;
    st.resident_warp_cycles = 1000ull * c.sm_max_warps / 2;
    st.warp_instructions = 500;
    st.active_lanes = 500 * 16;
    st.launch_wait_warp_cycles = 1000ull * c.sm_max_warps / 8; /* a quarter of the residency */
    st.launch_queue_cycles = 250;
    derive_stats(&c, &st);
    near(st.theoretical_occupancy, 0.75, "theoretical");
    near(st.achieved_occupancy, 0.5, "achieved");
    near(st.active_occupancy, 0.375, "active: the launched warps alone");
    near(st.launch_queue_share, 0.25, "launch queue share of busy SM cycles");
    near(st.ipc, 0.5, "ipc");
    near(st.branch_efficiency, 0.5, "branch efficiency");
}
END_TEST

/* a100: 108 SMs; at 2 blocks per SM a wave is 216 blocks */
static const struct {
    uint64_t blocks;
    uint32_t waves, tail;
    double efficiency;
} wave_cases[] = {
    { 216, 1, 216, 1.0 },
    { 217, 2, 1, 217.0 / 432 },
    { 1, 1, 1, 1.0 / 216 },
    { 648, 3, 216, 1.0 },
    { 0, 0, 0, 0.0 },
};

START_TEST(test_waves_and_tail)
{
    GpuConfig c = machine();
    ck_assert_uint_eq(c.sm_count, 108);
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.occ.blocks_per_sm = 2;
    st.blocks = wave_cases[_i].blocks;
    derive_stats(&c, &st);
    ck_assert_uint_eq(st.waves, wave_cases[_i].waves);
    ck_assert_uint_eq(st.tail_blocks, wave_cases[_i].tail);
    near(st.wave_efficiency, wave_cases[_i].efficiency, "wave efficiency");
}
END_TEST

START_TEST(test_memory_and_roofline)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.cycles = (uint64_t)c.clock_mhz * 1000; /* one millisecond */
    st.l1_sector_accesses = 8, st.l1_sector_hits = 2;
    st.l2_sector_accesses = 10, st.l2_sector_hits = 9;
    st.dram_read_bytes = 600000000, st.dram_write_bytes = 400000000;
    st.flops = 2000000000; /* 2 flops per DRAM byte */
    derive_stats(&c, &st);
    near(st.time_us, 1000.0, "time");
    near(st.l1_hit_rate, 0.25, "l1 hit rate");
    near(st.l2_hit_rate, 0.9, "l2 hit rate");
    ck_assert_uint_eq(st.dram_bytes, 1000000000);
    near(st.dram_bandwidth_gbs, 1000.0, "DRAM GB/s");
    near(st.achieved_gflops, 2000.0, "GFLOP/s");
    /* peak FP32: every scheduler's FMA pipe, 2 flops per lane per fma */
    double peak = 108.0 * c.sm_schedulers * (32.0 / c.fma_interval) * 2 * c.clock_mhz * 1e-3;
    near(st.peak_gflops, peak, "peak");
    near(st.peak_dram_gbs, c.dram_bandwidth_gbs, "peak DRAM");
    near(st.ridge_point, peak / c.dram_bandwidth_gbs, "ridge");
    near(st.arithmetic_intensity, 2.0, "intensity");
    near(st.roofline_gflops, 2.0 * c.dram_bandwidth_gbs, "roofline (memory-bound)");
    /* far right of the ridge: the roof is the FP32 peak */
    st.flops = 1000000000000000ull;
    derive_stats(&c, &st);
    near(st.roofline_gflops, peak, "roofline (compute-bound)");
}
END_TEST

/* Each unit's share of its peak over the elapsed cycles of every SM, and
** the busiest of them. */
START_TEST(test_throughputs)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.cycles = 1000;
    double sm_cycles = 1000.0 * c.sm_count, slots = sm_cycles * c.sm_schedulers;
    st.l2_sector_accesses = (uint64_t)(c.l2_bytes_per_clk * 1000 / 32 / 2); /* half the L2's bytes */
    st.global[ACCESS_LOAD].sectors = (uint64_t)(sm_cycles * c.l1_sectors_per_cycle / 4);
    st.global[ACCESS_STORE].sectors = st.global[ACCESS_LOAD].sectors; /* loads and stores: half of L1 */
    st.shared[ACCESS_LOAD].requests = st.shared[ACCESS_LOAD].wavefronts = (uint64_t)(sm_cycles / 10);
    st.warp_instructions = (uint64_t)(slots * 0.3);
    st.pipe_cycles[UNIT_FMA] = (uint64_t)(slots * 0.9);
    st.pipe_cycles[UNIT_ALU] = (uint64_t)(slots * 0.2);
    st.pipe_cycles[UNIT_SFU] = (uint64_t)(slots * 0.05);
    st.pipe_cycles[UNIT_FP64] = (uint64_t)(slots * 0.01);
    st.dram_read_bytes = (uint64_t)(c.dram_bandwidth_gbs * 1e9 * st.cycles / (c.clock_mhz * 1e6) * 0.7);
    derive_stats(&c, &st);
    ck_assert_msg(fabs(st.throughput[LIMIT_L2] - 0.5) < 1e-3, "L2 %g", st.throughput[LIMIT_L2]);
    ck_assert_msg(fabs(st.throughput[LIMIT_L1] - 0.5) < 1e-6, "L1 %g", st.throughput[LIMIT_L1]);
    near(st.throughput[LIMIT_SHARED], 0.1, "shared");
    near(st.throughput[LIMIT_ISSUE], 0.3, "issue");
    near(st.throughput[LIMIT_FMA], 0.9, "FMA pipe");
    near(st.throughput[LIMIT_ALU], 0.2, "ALU pipe");
    near(st.throughput[LIMIT_XU], 0.05, "XU pipe");
    near(st.throughput[LIMIT_FP64], 0.01, "FP64 pipe");
    ck_assert_msg(fabs(st.throughput[LIMIT_DRAM] - 0.7) < 1e-6, "DRAM %g", st.throughput[LIMIT_DRAM]);
    ck_assert_int_eq(st.busiest, LIMIT_FMA);
    /* DRAM past the FMA pipe: it is the busiest */
    st.dram_read_bytes = (uint64_t)(c.dram_bandwidth_gbs * 1e9 * st.cycles / (c.clock_mhz * 1e6) * 0.95);
    derive_stats(&c, &st);
    ck_assert_int_eq(st.busiest, LIMIT_DRAM);
    /* no cycles: every share 0, not a division by zero */
    memset(&st, 0, sizeof st);
    st.warp_instructions = 5;
    derive_stats(&c, &st);
    for (int k = 0; k < LIMITS; k++) ck_assert_msg(st.throughput[k] == 0, "%s %g", LIMIT_NAMES[k], st.throughput[k]);
}
END_TEST

START_TEST(test_stall_shares)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    st.stall[STALL_SELECTED] = 10;
    st.stall[STALL_LONG_SCOREBOARD] = 30;
    derive_stats(&c, &st);
    ck_assert_uint_eq(st.stall_cycles, 40);
    near(st.stall_share[STALL_SELECTED], 0.25, "selected");
    near(st.stall_share[STALL_LONG_SCOREBOARD], 0.75, "long_scoreboard");
    ck_assert(st.stall_share[STALL_BARRIER] == 0);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_zero_counters)
{
    GpuConfig c = machine();
    KernelStats st;
    memset(&st, 0, sizeof st);
    derive_stats(&c, &st);
    ck_assert(st.time_us == 0 && st.ipc == 0 && st.achieved_occupancy == 0 && st.branch_efficiency == 0);
    ck_assert(st.l1_hit_rate == 0 && st.l2_hit_rate == 0 && st.dram_bandwidth_gbs == 0);
    ck_assert(st.arithmetic_intensity == 0 && st.achieved_gflops == 0);
    ck_assert(st.roofline_gflops == st.peak_gflops); /* no DRAM traffic: nothing bounds it below the peak */
    ck_assert_uint_eq(st.stall_cycles, 0);
    for (int k = 0; k < STALL_REASONS; k++) ck_assert(st.stall_share[k] == 0);
}
END_TEST

START_TEST(test_idempotent)
{
    GpuConfig c = machine();
    KernelStats a;
    memset(&a, 0, sizeof a);
    a.cycles = 12345, a.warp_instructions = 777, a.busy_sm_cycles = 999, a.resident_warp_cycles = 9999;
    a.active_lanes = 777 * 30, a.blocks = 300, a.occ.blocks_per_sm = 1, a.occ.occupancy = 0.5;
    a.shared[ACCESS_LOAD] = (SharedCounts){ .requests = 4, .wavefronts = 9, .max_wavefronts = 4 };
    a.global[ACCESS_ATOMIC] = (GlobalCounts){ .requests = 3, .sectors = 7, .ideal_sectors = 3 };
    a.dram_read_bytes = 4096, a.flops = 100, a.stall[STALL_WAIT] = 5;
    derive_stats(&c, &a);
    KernelStats b;
    memcpy(&b, &a, sizeof b);
    derive_stats(&c, &b);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
}
END_TEST

/* A variant's launches add up: every raw counter is summed (the largest
** for max_wavefronts), among them the three the variant's sum once dropped
** (a two-launch variant doing atom.shared showed its launches' serial
** cycles and 0 for itself). */
START_TEST(test_sum_of_launches)
{
    GpuConfig c = machine();
    KernelStats l[2];
    memset(l, 0, sizeof l);
    for (int i = 0; i < 2; i++) {
        uint64_t v = 100 * (uint64_t)(i + 1);
#define SET(f) l[i].f = v++;
        KERNEL_COUNTS(SET, SET)
#undef SET
        for (int k = 0; k < STALL_REASONS; k++) l[i].stall[k] = v++;
        for (int k = 0; k < ACCESS_KINDS; k++) {
#define SET_G(f) l[i].global[k].f = v++;
#define SET_S(f) l[i].shared[k].f = (uint32_t)v++;
            GLOBAL_COUNTS(SET_G, SET_G)
            SHARED_COUNTS(SET_S, SET_S)
#undef SET_G
#undef SET_S
        }
        l[i].blocks = 300, l[i].occ.blocks_per_sm = 1;
    }
    KernelStats t;
    derive_sum(&c, l, 2, &t);
#define SUMS(f) ck_assert_msg(t.f == l[0].f + l[1].f, #f);
#define MAXES(f) ck_assert_msg(t.f == (l[0].f > l[1].f ? l[0].f : l[1].f), #f);
    KERNEL_COUNTS(SUMS, MAXES)
    for (int k = 0; k < STALL_REASONS; k++) ck_assert_uint_eq(t.stall[k], l[0].stall[k] + l[1].stall[k]);
#undef SUMS
#undef MAXES
    for (int k = 0; k < ACCESS_KINDS; k++) {
#define SUMS(f) ck_assert_msg(t.global[k].f == l[0].global[k].f + l[1].global[k].f, #f);
        GLOBAL_COUNTS(SUMS, SUMS)
#undef SUMS
#define SUMS(f) ck_assert_msg(t.shared[k].f == l[0].shared[k].f + l[1].shared[k].f, #f);
#define MAXES(f) ck_assert_msg(t.shared[k].f == (l[0].shared[k].f > l[1].shared[k].f ? l[0].shared[k].f : l[1].shared[k].f), #f);
        SHARED_COUNTS(SUMS, MAXES)
#undef SUMS
#undef MAXES
    }
    ck_assert_uint_eq(t.shared[ACCESS_ATOMIC].serial_cycles,
                      l[0].shared[ACCESS_ATOMIC].serial_cycles + l[1].shared[ACCESS_ATOMIC].serial_cycles);
    ck_assert_uint_gt(t.shared[ACCESS_ATOMIC].serial_cycles, 0);
    ck_assert_uint_eq(t.l2_atomic_wait_cycles, l[0].l2_atomic_wait_cycles + l[1].l2_atomic_wait_cycles);
    ck_assert_uint_eq(t.ptx_instructions, l[0].ptx_instructions + l[1].ptx_instructions);
    ck_assert_uint_eq(t.blocks, 300); /* a launch's, not a sum */
}
END_TEST

static Suite *derive_suite(void)
{
    Suite *s = suite_create("derive");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_global_ratios_by_kind);
    tcase_add_loop_test(core, test_shared_totals, 0, (int)(sizeof shared_cases / sizeof shared_cases[0]));
    tcase_add_test(core, test_occupancy_ipc_branches);
    tcase_add_loop_test(core, test_waves_and_tail, 0, (int)(sizeof wave_cases / sizeof wave_cases[0]));
    tcase_add_test(core, test_memory_and_roofline);
    tcase_add_test(core, test_stall_shares);
    tcase_add_test(core, test_throughputs);
    tcase_add_test(core, test_sum_of_launches);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_zero_counters);
    tcase_add_test(edge, test_idempotent);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(derive_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
