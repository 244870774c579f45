/* tests/check_gpu_shared.c -- shared-memory requests through the whole
** simulator: the wavefronts a stride costs, the ideal ones a request needs
** (a float4 takes four passes free of conflicts), broadcasts named and
** generic, and 1- and 2-byte accesses. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "sim/gpu.h"
#include "tests/sim_run.h"

static const char *STRIDED_SHARED =
    ".kernel k\n"
    ".param .u32 stride\n"
    ".shared buf 16384\n"
    "    ld.param.u32 %r0, [stride]\n"
    "    mov.u32 %r1, %laneid\n"
    "    mul.lo.u32 %r2, %r1, %r0\n"
    "    shl.b32 %r2, %r2, 2\n"
    "    ld.shared.f32 %r3, [%r2+buf]\n"
    "    st.shared.f32 [%r2+buf], %r3\n"
    "    exit\n";

static const uint32_t STRIDES[] = { 1, 2, 4, 8, 16, 32, 0, 3, 33 };
static const uint32_t WAVEFRONTS[] = { 1, 2, 4, 8, 16, 32, 1, 1, 1 };

START_TEST(test_bank_conflicts_in_engine)
{
    Run t;
    run_init(&t, "a100", STRIDED_SHARED, "k");
    set(&t, "sm.count=1");
    t.params[0] = STRIDES[_i];
    t.L.grid[0] = 1;
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    ck_assert_uint_eq(t.r.stats.shared_requests, 2);
    ck_assert_uint_eq(t.r.stats.shared_wavefronts, 2 * WAVEFRONTS[_i]);
    ck_assert_uint_eq(t.r.stats.shared_bank_conflicts, 2 * (WAVEFRONTS[_i] - 1));
    for (AccessKind k = ACCESS_LOAD; k <= ACCESS_STORE; k++) { /* one ld.shared, one st.shared */
        const SharedCounts *c = &t.r.stats.shared[k];
        ck_assert_uint_eq(c->requests, 1);
        ck_assert_uint_eq(c->wavefronts, WAVEFRONTS[_i]);
        ck_assert_uint_eq(c->max_wavefronts, WAVEFRONTS[_i]);
    }
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_ATOMIC].requests, 0);
    run_free(&t);
}
END_TEST

/* A 16-byte shared load that every lane asks of the same word is one
** broadcast whether the kernel names the shared space (ld.shared.v4) or
** reaches it through a generic pointer (cvta.shared, ld.v4): the timing
** model asks the table whether an instruction writes, not which opcode it
** is (the generic form was once costed as a store). */
static const char *BROADCAST_V4 =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .b64 %%rd<4>;\n  .reg .f32 %%f<8>;\n  .shared .align 16 .b8 buf[512];\n"
    "  mov.u64 %%rd1, buf;\n%s"
    "  add.f32 %%f5, %%f1, %%f4;\n  st.shared.f32 [%%rd1], %%f5;\n  ret;\n}\n";

static SharedCounts broadcast_load(const char *load)
{
    char src[1024];
    snprintf(src, sizeof src, BROADCAST_V4, load);
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    t.L.block[0] = 32;
    ck_assert(simulate(&t));
    SharedCounts c = t.r.stats.shared[ACCESS_LOAD];
    run_free(&t);
    return c;
}

START_TEST(test_broadcast_same_through_generic)
{
    SharedCounts named = broadcast_load("  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n");
    SharedCounts generic = broadcast_load("  cvta.shared.u64 %rd2, %rd1;\n  ld.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2];\n");
    ck_assert_uint_eq(named.requests, 1);
    ck_assert_uint_eq(generic.requests, 1);
    ck_assert_uint_eq(generic.wavefronts, named.wavefronts);
    /* and a broadcast is cheaper than four lanes' distinct 16 bytes would be */
    ck_assert_uint_lt(named.wavefronts, 4);
}
END_TEST

/* A float4 per lane, lanes on consecutive 16 bytes: four quarter-warp
** passes, each conflict-free, so four wavefronts and no bank conflict
** (they were counted as three: wavefronts beyond one per request). */
START_TEST(test_float4_not_a_conflict)
{
    char src[1024];
    snprintf(src, sizeof src, BROADCAST_V4,
             "  .reg .b32 %r<2>;\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd1, %rd1, %rd3;\n"
             "  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n");
    Run t;
    run_init(&t, "h200", src, "k");
    set(&t, "sm.count=1");
    t.L.block[0] = 32;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    const SharedCounts *ld = &t.r.stats.shared[ACCESS_LOAD];
    ck_assert_uint_eq(ld->requests, 1);
    ck_assert_uint_eq(ld->wavefronts, 4);
    ck_assert_uint_eq(ld->ideal_wavefronts, 4);
    /* the store of one float a lane, 4 bytes apart on a 16-byte stride: 4-way */
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_STORE].wavefronts, 4);
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_STORE].ideal_wavefronts, 1);
    ck_assert_uint_eq(t.r.stats.shared_bank_conflicts, 3);
    run_free(&t);
}
END_TEST

/* Bytes and half-words through shared memory (PTX's ld/st.shared.u8/.u16):
** each lane swaps its byte with its neighbour's. Such an access asks the
** banks for the word that holds it (it once divided by width / 4 = 0 and
** crashed the simulator). */
static const char *SHARED_BYTES =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 buf[64];\n"
    "  ld.param.u64 %rd1, [k_param_0];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u64 %rd3, buf;\n"
    "  cvt.u64.u32 %rd4, %r1;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.shared.u8 [%rd5], %r1;\n"
    "  bar.sync 0;\n"
    "  xor.b32 %r2, %r1, 1;\n"
    "  cvt.u64.u32 %rd6, %r2;\n"
    "  add.s64 %rd7, %rd3, %rd6;\n"
    "  ld.shared.u8 %r3, [%rd7];\n"
    "  shl.b32 %r4, %r1, 1;\n"
    "  cvt.u64.u32 %rd2, %r4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.shared.u16 [%rd2], %r3;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u8 [%rd5], %r3;\n"
    "  ret;\n"
    "}\n";

START_TEST(test_shared_bytes)
{
    Run t;
    run_init(&t, "h200", SHARED_BYTES, "k");
    set(&t, "sm.count=1");
    t.params[0] = buffer(&t, 32, "out"); /* a .u64 pointer: two words */
    t.L.block[0] = 32;
    ck_assert_msg(simulate(&t), "%s", t.r.message);
    const uint8_t *out = gmem_translate(t.gmem, t.params[0], 32);
    for (uint32_t i = 0; i < 32; i++) ck_assert_uint_eq(out[i], i ^ 1);
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_STORE].requests, 2);
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_STORE].wavefronts, 2); /* 8 words, then 16: one pass each */
    ck_assert_uint_eq(t.r.stats.shared[ACCESS_LOAD].wavefronts, 1);
    run_free(&t);
}
END_TEST

static Suite *shared_suite(void)
{
    Suite *s = suite_create("gpu_shared");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_bank_conflicts_in_engine, 0, sizeof STRIDES / sizeof STRIDES[0]);
    tcase_add_test(core, test_broadcast_same_through_generic);
    tcase_add_test(core, test_float4_not_a_conflict);
    tcase_add_test(core, test_shared_bytes);
    suite_add_tcase(s, core);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(shared_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
