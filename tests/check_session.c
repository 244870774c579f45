/* tests/check_session.c -- launches back to back on one GPU (GpuSession,
** sim/gpu.h): a session's first launch is timed as gpu_simulate times it;
** the next finds the L2 the previous left (its data hits, its dirty lines
** are still to be written), but empty L1s; keep_dirty leaves the writes to
** the last launch. Kernels are assembly text on a shrunk a100.          */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "sim/gpu.h"

/* out[i] = in[i] for i < n, one element per thread. */
static const char *COPY =
    ".kernel copy\n"
    ".param .ptr in\n"
    ".param .ptr out\n"
    ".param .u32 n\n"
    "    ld.param.u32 %r0, [in]\n"
    "    ld.param.u32 %r1, [out]\n"
    "    ld.param.u32 %r2, [n]\n"
    "    mov.u32 %r3, %ctaid.x\n"
    "    mov.u32 %r4, %ntid.x\n"
    "    mov.u32 %r5, %tid.x\n"
    "    mad.lo.u32 %r6, %r3, %r4, %r5\n"
    "    setp.ge.u32 %p0, %r6, %r2\n"
    "    @%p0 exit\n"
    "    shl.b32 %r7, %r6, 2\n"
    "    add.u32 %r8, %r7, %r0\n"
    "    ld.global.f32 %r9, [%r8]\n"
    "    add.u32 %r10, %r7, %r1\n"
    "    st.global.f32 [%r10], %r9\n"
    "    exit\n";

typedef struct {
    Program   prog;
    GpuConfig cfg;
    GlobalMem *gmem;
    uint32_t  a, b, c; /* three buffers of N floats */
} Bench;

#define N (1u << 16) /* 256 KiB per buffer: all three fit the 4 MiB L2 below */

static void bench_init(Bench *t)
{
    memset(t, 0, sizeof *t);
    Diag d;
    ck_assert_msg(asm_parse(COPY, strlen(COPY), "copy.asm", &t->prog, &d), "%s", d.message);
    ck_assert(config_load("a100", &t->cfg, &d));
    ck_assert(config_set(&t->cfg, "sm.count=8", &d));
    ck_assert(config_set(&t->cfg, "l2.size=4194304", &d));
    ck_assert_msg(config_validate(&t->cfg, &d), "%s", d.message);
    t->gmem = gmem_create();
    t->a = gmem_alloc(t->gmem, N * 4, "a", &d);
    t->b = gmem_alloc(t->gmem, N * 4, "b", &d);
    t->c = gmem_alloc(t->gmem, N * 4, "c", &d);
    ck_assert(t->a && t->b && t->c);
}

static void bench_free(Bench *t)
{
    gmem_destroy(t->gmem);
    program_destroy(&t->prog);
}

/* A launch of copy from src to dst; params must outlive it. */
static Launch copy_launch(Bench *t, uint32_t params[3], uint32_t src, uint32_t dst)
{
    params[0] = src;
    params[1] = dst;
    params[2] = N;
    Launch L;
    memset(&L, 0, sizeof L);
    L.kernel = program_find_kernel(&t->prog, "copy");
    L.kernel_file = "copy.asm";
    L.gmem = t->gmem;
    L.params = params;
    L.grid[0] = N / 256;
    L.block[0] = 256;
    L.grid[1] = L.grid[2] = L.block[1] = L.block[2] = 1;
    return L;
}

START_TEST(test_first_launch_as_alone)
{
    Bench t;
    bench_init(&t);
    uint32_t p[3];
    Launch L = copy_launch(&t, p, t.a, t.b);
    SimResult *alone = malloc(sizeof *alone), *first = malloc(sizeof *first);
    ck_assert(gpu_simulate(&t.cfg, &L, NULL, alone));
    GpuSession *s = gpu_session_create(&t.cfg);
    ck_assert(gpu_session_simulate(s, &L, NULL, first));
    gpu_session_destroy(s);
    ck_assert(memcmp(&alone->stats, &first->stats, sizeof alone->stats) == 0);
    free(alone);
    free(first);
    bench_free(&t);
}
END_TEST

START_TEST(test_second_launch_finds_l2)
{
    Bench t;
    bench_init(&t);
    uint32_t p1[3], p2[3];
    Launch l1 = copy_launch(&t, p1, t.a, t.b), l2 = copy_launch(&t, p2, t.b, t.c);
    SimResult *r1 = malloc(sizeof *r1), *r2 = malloc(sizeof *r2), *cold = malloc(sizeof *cold);
    ck_assert(gpu_simulate(&t.cfg, &l2, NULL, cold)); /* b -> c on a cold GPU */
    GpuSession *s = gpu_session_create(&t.cfg);
    l1.keep_dirty = true;
    ck_assert(gpu_session_simulate(s, &l1, NULL, r1));
    ck_assert(gpu_session_simulate(s, &l2, NULL, r2));
    gpu_session_destroy(s);
    /* b was written by the first launch and stays in L2: the second reads it there */
    ck_assert_uint_eq(r2->stats.dram_read_bytes, 0);
    ck_assert_uint_ge(cold->stats.dram_read_bytes, N * 4);
    ck_assert_msg(r2->stats.l2_hit_rate > cold->stats.l2_hit_rate + 0.3, "L2 hit rate %.3f, cold %.3f",
                  r2->stats.l2_hit_rate, cold->stats.l2_hit_rate);
    ck_assert_uint_lt(r2->stats.cycles, cold->stats.cycles);
    /* a sector owes its write-back when it becomes dirty (memsys.h): the
    ** first launch owes b's, the second c's; b, kept dirty in L2, is not
    ** owed twice */
    ck_assert_uint_eq(r1->stats.dram_write_bytes, N * 4);
    ck_assert_uint_eq(r2->stats.dram_write_bytes, N * 4);
    /* each launch counts from its own start */
    ck_assert_uint_eq(r2->stats.warp_instructions, cold->stats.warp_instructions);
    /* the L1s start empty: no launch hits in L1 (each element is read once) */
    ck_assert_uint_eq(r2->stats.l1_sector_hits, cold->stats.l1_sector_hits);
    free(r1);
    free(r2);
    free(cold);
    bench_free(&t);
}
END_TEST


/* A launch of one block uses one SM's state; the next launch of the session
** may use every SM: the memory system grows to it, and the wide launch is
** timed as it would be on a GPU whose L2 held the same lines. */
START_TEST(test_wider_second_launch)
{
    Bench t;
    bench_init(&t);
    uint32_t p1[3], p2[3];
    Launch narrow = copy_launch(&t, p1, t.a, t.b), wide = copy_launch(&t, p2, t.b, t.c);
    p1[2] = 256; /* one block of 256 elements */
    narrow.grid[0] = 1;
    SimResult *r1 = malloc(sizeof *r1), *r2 = malloc(sizeof *r2);
    GpuSession *s = gpu_session_create(&t.cfg);
    ck_assert(gpu_session_simulate(s, &narrow, NULL, r1));
    ck_assert(gpu_session_simulate(s, &wide, NULL, r2));
    gpu_session_destroy(s);
    SimResult *alone = malloc(sizeof *alone);
    ck_assert(gpu_simulate(&t.cfg, &wide, NULL, alone));
    ck_assert_uint_eq(r2->stats.warp_instructions, alone->stats.warp_instructions);
    ck_assert_uint_eq(r2->stats.blocks, N / 256);
    ck_assert_uint_gt(r2->stats.cycles, r1->stats.cycles);
    free(r1);
    free(r2);
    free(alone);
    bench_free(&t);
}
END_TEST

START_TEST(test_written_back_between_launches)
{
    /* without keep_dirty the first launch writes b back at its end, as a
    ** launch alone does; b's lines stay in L2, clean */
    Bench t;
    bench_init(&t);
    uint32_t p1[3], p2[3];
    Launch l1 = copy_launch(&t, p1, t.a, t.b), l2 = copy_launch(&t, p2, t.b, t.c);
    SimResult *r1 = malloc(sizeof *r1), *r2 = malloc(sizeof *r2);
    GpuSession *s = gpu_session_create(&t.cfg);
    ck_assert(gpu_session_simulate(s, &l1, NULL, r1));
    ck_assert(gpu_session_simulate(s, &l2, NULL, r2));
    gpu_session_destroy(s);
    ck_assert_uint_eq(r1->stats.dram_write_bytes, N * 4);
    ck_assert_uint_eq(r2->stats.dram_write_bytes, N * 4);
    ck_assert_uint_eq(r2->stats.dram_read_bytes, 0);
    free(r1);
    free(r2);
    bench_free(&t);
}
END_TEST

static Suite *session_suite(void)
{
    Suite *s = suite_create("session");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_first_launch_as_alone);
    tcase_add_test(tc, test_second_launch_finds_l2);
    tcase_add_test(tc, test_wider_second_launch);
    tcase_add_test(tc, test_written_back_between_launches);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(session_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
