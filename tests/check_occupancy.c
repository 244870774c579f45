/* tests/check_occupancy.c -- the occupancy calculator (sim/occupancy.h):
** the teaching figures, edge cases of each rule, and launches that cannot run.
** tests/occupancy_ref.cpp compares it with cuda_occupancy.h on random launches. */
#include "sim/occupancy.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static GpuConfig gpu(const char *name)
{
    GpuConfig c;
    Diag d;
    ck_assert_msg(config_load(name, &c, &d), "%s: %s", name, d.message);
    return c;
}

/* ---- Core: the figures the course and the docs quote ---- */

static const struct {
    const char *gpu;
    uint32_t block, regs, static_smem, dynamic_smem;
    uint32_t blocks, warps;
    double occupancy;
    OccLimiter limiter;
} teaching[] = {
    /* A100, 256 threads: 64 regs -> 2048 per warp, 8 warps per sub-partition */
    {"a100", 256, 64, 0, 0, 4, 32, 0.50, OCC_REGISTERS},
    /* 32 regs: registers and warp slots both allow 8; ties report warps */
    {"a100", 256, 32, 0, 0, 8, 64, 1.00, OCC_WARPS},
    /* 40 regs -> 1280 per warp, 12 warps per sub-partition, 48 / 8 = 6 */
    {"a100", 256, 40, 0, 0, 6, 48, 0.75, OCC_REGISTERS},
    /* 32 KB per block + 1 KB reserved = 33792 B; 167936 / 33792 = 4.97 -> 4,
    ** not the 5 one gets by forgetting the reservation (167936 / 32768) */
    {"a100", 256, 32, 32768, 0, 4, 32, 0.50, OCC_SHARED_MEMORY},
    /* H100, 128 threads, 168 regs (5376 per warp: 3 per sub-partition), 64 KB
    ** dynamic (opt-in) + 1 KB: registers and shared memory both allow 3 */
    {"h100", 128, 168, 0, 65536, 3, 12, 0.1875, OCC_REGISTERS},
    /* one warp per block: the 32 block slots bind before the 64 warp slots */
    {"a100", 32, 16, 0, 0, 32, 32, 0.50, OCC_BLOCKS},
    /* RTX 4090: 1536 threads per SM, 24 block slots */
    {"rtx4090", 512, 32, 0, 0, 3, 48, 1.00, OCC_WARPS},
    {"rtx4090", 64, 32, 0, 0, 24, 48, 1.00, OCC_WARPS},
    /* T4: 32 warps, 16 blocks, 64 KB, no reservation, 256-byte units */
    {"t4", 128, 32, 0, 0, 8, 32, 1.00, OCC_WARPS},
    {"t4", 128, 32, 16384, 0, 4, 16, 0.50, OCC_SHARED_MEMORY},
    /* 1024 threads x 64 regs fills the register file exactly: 1 block of the
    ** 2 the warp slots allow */
    {"a100", 1024, 64, 0, 0, 1, 32, 0.50, OCC_REGISTERS},
};

START_TEST(test_teaching_figures)
{
    GpuConfig c = gpu(teaching[_i].gpu);
    OccResult r;
    Diag d;
    ck_assert_msg(occupancy_compute(&c, teaching[_i].block, teaching[_i].regs, teaching[_i].static_smem,
                                    teaching[_i].dynamic_smem, &r, &d),
                  "%s", d.message);
    ck_assert_uint_eq(r.blocks_per_sm, teaching[_i].blocks);
    ck_assert_uint_eq(r.warps_per_sm, teaching[_i].warps);
    ck_assert_double_eq_tol(r.occupancy, teaching[_i].occupancy, 1e-12);
    ck_assert_str_eq(occupancy_limiter_name(r.limiter), occupancy_limiter_name(teaching[_i].limiter));
}
END_TEST

START_TEST(test_limits_and_allocations)
{
    GpuConfig c = gpu("a100");
    OccResult r;
    Diag d;
    ck_assert(occupancy_compute(&c, 256, 64, 32768, 0, &r, &d));
    ck_assert_uint_eq(r.limit_warps, 8);
    ck_assert_uint_eq(r.limit_blocks, 32);
    ck_assert_uint_eq(r.limit_registers, 4);
    ck_assert_uint_eq(r.limit_shared_memory, 4);
    ck_assert_uint_eq(r.regs_per_block_alloc, 8 * 2048);
    ck_assert_uint_eq(r.smem_per_block_alloc, 33792);
    /* registers and shared memory tie at 4: registers come first */
    ck_assert_uint_eq(r.blocks_per_sm, 4);
    ck_assert_str_eq(occupancy_limiter_name(r.limiter), "registers");

    GpuConfig h = gpu("h100");
    ck_assert(occupancy_compute(&h, 128, 168, 0, 65536, &r, &d));
    ck_assert_uint_eq(r.limit_registers, 3);
    ck_assert_uint_eq(r.limit_shared_memory, 3);
    ck_assert_uint_eq(r.limit_warps, 16);
    ck_assert_uint_eq(r.regs_per_block_alloc, 4 * 5376);
    ck_assert_uint_eq(r.smem_per_block_alloc, 66560);
}
END_TEST

START_TEST(test_limiter_names)
{
    ck_assert_str_eq(occupancy_limiter_name(OCC_WARPS), "warps");
    ck_assert_str_eq(occupancy_limiter_name(OCC_BLOCKS), "blocks");
    ck_assert_str_eq(occupancy_limiter_name(OCC_REGISTERS), "registers");
    ck_assert_str_eq(occupancy_limiter_name(OCC_SHARED_MEMORY), "shared_memory");
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_granularity)
{
    GpuConfig c = gpu("a100");
    OccResult r;
    Diag d;
    /* 1 thread is a whole warp; 1 register per thread is 256 per warp */
    ck_assert(occupancy_compute(&c, 1, 1, 0, 0, &r, &d));
    ck_assert_uint_eq(r.warps_per_sm, r.blocks_per_sm);
    ck_assert_uint_eq(r.regs_per_block_alloc, 256);
    /* 33 threads take 2 warps */
    ck_assert(occupancy_compute(&c, 33, 32, 0, 0, &r, &d));
    ck_assert_uint_eq(r.limit_warps, 32);
    /* 1 byte of shared memory + 1 KB reserved rounds up to 1152 (128-byte units) */
    ck_assert(occupancy_compute(&c, 32, 32, 1, 0, &r, &d));
    ck_assert_uint_eq(r.smem_per_block_alloc, 1152);
    ck_assert_uint_eq(r.limit_shared_memory, 167936 / 1152);
    /* T4 allocates in 256-byte units */
    GpuConfig t = gpu("t4");
    ck_assert(occupancy_compute(&t, 32, 32, 1, 0, &r, &d));
    ck_assert_uint_eq(r.smem_per_block_alloc, 256);
}
END_TEST

START_TEST(test_unlimited)
{
    OccResult r;
    Diag d;
    /* no registers: registers set no limit */
    GpuConfig c = gpu("a100");
    ck_assert(occupancy_compute(&c, 64, 0, 0, 0, &r, &d));
    ck_assert_uint_eq(r.limit_registers, OCC_UNLIMITED);
    ck_assert_uint_eq(r.blocks_per_sm, 32);
    /* T4 reserves nothing: no shared memory, no limit */
    GpuConfig t = gpu("t4");
    ck_assert(occupancy_compute(&t, 64, 32, 0, 0, &r, &d));
    ck_assert_uint_eq(r.limit_shared_memory, OCC_UNLIMITED);
    ck_assert_uint_eq(r.smem_per_block_alloc, 0);
    /* on A100 even an empty block takes its 1 KB */
    ck_assert(occupancy_compute(&c, 64, 32, 0, 0, &r, &d));
    ck_assert_uint_eq(r.limit_shared_memory, 164);
}
END_TEST

START_TEST(test_largest_launches)
{
    OccResult r;
    Diag d;
    /* the whole opt-in shared memory: one block per SM */
    GpuConfig c = gpu("a100");
    ck_assert_msg(occupancy_compute(&c, 128, 32, 0, c.shared_per_block_optin, &r, &d), "%s", d.message);
    ck_assert_uint_eq(r.blocks_per_sm, 1);
    ck_assert_uint_eq(r.smem_per_block_alloc, 167936);
    /* 48 KB static + the rest dynamic */
    ck_assert(occupancy_compute(&c, 128, 32, 49152, c.shared_per_block_optin - 49152, &r, &d));
    ck_assert_uint_eq(r.blocks_per_sm, 1);
    /* 255 registers: one 8192-register warp... two per sub-partition */
    ck_assert(occupancy_compute(&c, 32, 255, 0, 0, &r, &d));
    ck_assert_uint_eq(r.limit_registers, 8);
    /* the largest block with 64 registers */
    GpuConfig h = gpu("h100");
    ck_assert(occupancy_compute(&h, 1024, 64, 0, 0, &r, &d));
    ck_assert_uint_eq(r.blocks_per_sm, 1);
}
END_TEST

START_TEST(test_set_machine)
{
    /* the rules follow the knobs: a machine changed with --set */
    GpuConfig c = gpu("a100");
    Diag d;
    OccResult r;
    ck_assert(config_set(&c, "sm.registers=131072", &d));
    ck_assert(config_validate(&c, &d));
    ck_assert(occupancy_compute(&c, 256, 64, 0, 0, &r, &d));
    ck_assert_uint_eq(r.blocks_per_sm, 8);
    /* fewer warp slots than threads/32: the smaller counts */
    ck_assert(config_set(&c, "sm.max_warps=32", &d));
    ck_assert(config_validate(&c, &d));
    ck_assert(occupancy_compute(&c, 256, 32, 0, 0, &r, &d));
    ck_assert_uint_eq(r.blocks_per_sm, 4);
    ck_assert_double_eq_tol(r.occupancy, 1.0, 1e-12);
}
END_TEST

START_TEST(test_pure)
{
    GpuConfig c = gpu("h100"), before = c;
    OccResult a, b;
    Diag d;
    ck_assert(occupancy_compute(&c, 96, 77, 1000, 2000, &a, &d));
    ck_assert(occupancy_compute(&c, 96, 77, 1000, 2000, &b, &d));
    ck_assert_mem_eq(&c, &before, sizeof c);
    ck_assert_uint_eq(a.blocks_per_sm, b.blocks_per_sm);
    ck_assert_uint_eq(a.limit_registers, b.limit_registers);
    ck_assert_uint_eq(a.smem_per_block_alloc, b.smem_per_block_alloc);
    ck_assert(a.limiter == b.limiter);
    ck_assert(occupancy_compute(&c, 96, 77, 1000, 2000, &a, NULL)); /* Diag is optional */
}
END_TEST

/* ---- BadInput: launches that cannot run ---- */

static const struct {
    const char *gpu;
    uint32_t block, regs, static_smem, dynamic_smem;
    OccLimiter why;
    const char *says; /* a phrase of the message */
} bad[] = {
    {"a100", 0, 32, 0, 0, OCC_WARPS, "at least 1 thread"},
    {"a100", 1025, 32, 0, 0, OCC_WARPS, "1025 threads"},
    {"t4", 2048, 32, 0, 0, OCC_WARPS, "limit of 1024 threads"},
    {"a100", 256, 256, 0, 0, OCC_REGISTERS, "256 registers per thread"},
    {"a100", 256, 1000000, 0, 0, OCC_REGISTERS, "registers per thread"},
    /* 25 warps x 2560 registers fit in 65536, but the hardware counts 28 warps */
    {"a100", 800, 80, 0, 0, OCC_REGISTERS, "28 warps"},
    {"a100", 1024, 65, 0, 0, OCC_REGISTERS, "registers per block"},
    {"a100", 256, 32, 49153, 0, OCC_SHARED_MEMORY, "static shared memory"},
    /* one byte past the opt-in limit (plus the reservation, rounded) */
    {"a100", 256, 32, 0, 166913, OCC_SHARED_MEMORY, "opt-in"},
    {"h100", 256, 32, 0, 232449, OCC_SHARED_MEMORY, "opt-in"},
    {"t4", 256, 32, 0, 65537, OCC_SHARED_MEMORY, "opt-in"},
    {"a100", 256, 32, 0, UINT32_MAX, OCC_SHARED_MEMORY, "opt-in"},
};

START_TEST(test_impossible_launch)
{
    GpuConfig c = gpu(bad[_i].gpu);
    OccResult r;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert(!occupancy_compute(&c, bad[_i].block, bad[_i].regs, bad[_i].static_smem, bad[_i].dynamic_smem,
                                 &r, &d));
    ck_assert_uint_eq(r.blocks_per_sm, 0);
    ck_assert_uint_eq(r.warps_per_sm, 0);
    ck_assert_double_eq(r.occupancy, 0.0);
    ck_assert_str_eq(occupancy_limiter_name(r.limiter), occupancy_limiter_name(bad[_i].why));
    ck_assert_msg(strstr(d.message, bad[_i].says) != NULL, "'%s' lacks '%s'", d.message, bad[_i].says);
}
END_TEST

START_TEST(test_failure_keeps_limits)
{
    /* the report can still show what each resource allows */
    GpuConfig c = gpu("a100");
    OccResult r;
    Diag d;
    ck_assert(!occupancy_compute(&c, 256, 32, 0, 200000, &r, &d));
    ck_assert_uint_eq(r.limit_warps, 8);
    ck_assert_uint_eq(r.limit_registers, 8);
    ck_assert_uint_eq(r.limit_shared_memory, 0);
    ck_assert_uint_eq(r.regs_per_block_alloc, 8192);
}
END_TEST

static Suite *occupancy_suite(void)
{
    Suite *s = suite_create("occupancy");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_teaching_figures, 0, (int)(sizeof teaching / sizeof teaching[0]));
    tcase_add_test(core, test_limits_and_allocations);
    tcase_add_test(core, test_limiter_names);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_granularity);
    tcase_add_test(edge, test_unlimited);
    tcase_add_test(edge, test_largest_launches);
    tcase_add_test(edge, test_set_machine);
    tcase_add_test(edge, test_pure);
    suite_add_tcase(s, edge);

    TCase *badin = tcase_create("BadInput");
    tcase_add_loop_test(badin, test_impossible_launch, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(badin, test_failure_keeps_limits);
    suite_add_tcase(s, badin);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(occupancy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
