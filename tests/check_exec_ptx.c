/* tests/check_exec_ptx.c -- the exec module on what nvcc writes for calls:
** (and its directed rounding, isa/exec_round.c, against the host's own)
** device printf (a PTX kernel with vprintf call sequences, its text
** captured: isa/exec_printf.c) and device functions (.func, inlined at
** each call: isa/ptx_func.c), run functionally; calls that cannot be. */
#include "isa/exec.h"

#include <check.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"

static void parse_ok(const char *src, Program *p)
{
    Diag d;
    bool ok = ptx_parse(src, strlen(src), "t.ptx", p, &d);
    ck_assert_msg(ok, "t.ptx:%u:%u: %s\n%s", d.line, d.col, d.message, src);
}

/* Device printf as nvcc writes it (a call sequence of vprintf with the
** arguments packed in the local depot): every active lane's text in lane
** order, 64-bit and double arguments at their alignment, a string
** argument, and printf's return value. */
START_TEST(test_printf)
{
    static const char src[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n.param .b64 vprintf_param_1\n)\n;\n"
        ".global .align 1 .b8 $str[20] = {108, 97, 110, 101, 32, 37, 100, 58, 32, 37, 108, 108, 100, 32, 37, 46, 50, 102, 32, 0};\n"
        ".global .align 1 .b8 $str$1[6] = {37, 115, 37, 37, 10, 0};\n"
        ".global .align 1 .b8 $str$2[3] = {104, 105, 0};\n"
        ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .local .align 8 .b8 __local_depot0[24];\n  .reg .b64 %SP;\n  .reg .b64 %SPL;\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<16>;\n  .reg .f64 %fd<2>;\n"
        "  mov.u64 %SPL, __local_depot0;\n  cvta.local.u64 %SP, %SPL;\n"
        "  mov.u32 %r1, %tid.x;\n  setp.gt.u32 %p1, %r1, 2;\n  @%p1 bra $L__done;\n"
        "  cvt.u64.u32 %rd1, %r1;\n  shl.b64 %rd2, %rd1, 40;\n  cvt.rn.f64.u32 %fd1, %r1;\n"
        "  add.u64 %rd3, %SP, 0;\n  add.u64 %rd4, %SPL, 0;\n"
        "  st.local.u32 [%rd4], %r1;\n  st.local.u64 [%rd4+8], %rd2;\n  st.local.f64 [%rd4+16], %fd1;\n"
        "  mov.u64 %rd5, $str;\n  cvta.global.u64 %rd6, %rd5;\n"
        "  { // callseq 0\n  .reg .b32 temp_param_reg;\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd6;\n"
        "  .param .b64 param1;\n  st.param.b64 [param1+0], %rd3;\n  .param .b32 retval0;\n"
        "  call.uni (retval0), vprintf, (param0, param1);\n  ld.param.b32 %r2, [retval0+0];\n  }\n"
        "  mov.u64 %rd7, $str$2;\n  cvta.global.u64 %rd8, %rd7;\n  st.local.u64 [%rd4], %rd8;\n"
        "  mov.u64 %rd9, $str$1;\n  cvta.global.u64 %rd10, %rd9;\n"
        "  { // callseq 1\n  .reg .b32 temp_param_reg;\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd10;\n"
        "  .param .b64 param1;\n  st.param.b64 [param1+0], %rd3;\n  .param .b32 retval0;\n"
        "  call.uni (retval0), vprintf, (param0, param1);\n  ld.param.b32 %r3, [retval0+0];\n  }\n"
        "  add.s32 %r4, %r2, %r3;\n  ld.param.u64 %rd11, [t_param_0];\n  cvta.to.global.u64 %rd12, %rd11;\n"
        "  mul.wide.u32 %rd13, %r1, 4;\n  add.s64 %rd14, %rd12, %rd13;\n  st.global.u32 [%rd14], %r4;\n"
        "$L__done:\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    for (uint32_t i = 0; i < p.nvars; i++) { /* the format strings, where the file put them */
        ck_assert_msg(gmem_alloc_at(g, p.vars[i].addr, p.vars[i].size, p.vars[i].name, &d), "%s", d.message);
        memcpy(gmem_translate(g, p.vars[i].addr, p.vars[i].size), p.vars[i].init, p.vars[i].size);
    }
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1, .printf_out = f };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    fclose(f);
    /* each call prints for the warp's lanes in order, before the next call */
    ck_assert_str_eq(text, "lane 0: 0 0.00 lane 1: 1099511627776 1.00 lane 2: 2199023255552 2.00 hi%\nhi%\nhi%\n");
    const uint32_t *res = gmem_translate(g, out, 32 * 4);
    ck_assert_uint_eq(res[0], (uint32_t)strlen("lane 0: 0 0.00 ") + 4);
    ck_assert_uint_eq(res[2], (uint32_t)strlen("lane 2: 2199023255552 2.00 ") + 4);
    free(text);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Device functions (.func), inlined at each call: one declared before the
** kernel and defined after it, calling another; a guarded call (the lanes
** whose guard is false skip the body); returns from both branches of a
** divergent branch; the same function inlined twice into one kernel, each
** with its own registers and labels. */
#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"
#define CALL1(fn, arg, dst)                                                                               \
    "  { .reg .b32 temp_param_reg;\n  .param .b32 param0;\n  st.param.b32 [param0+0], " arg ";\n" \
    "  .param .b32 retval0;\n  call.uni (retval0), " fn ", (param0);\n  ld.param.b32 " dst ", [retval0+0];\n  }\n"
static const char CLAMPNEG[] =
    ".func (.param .b32 func_retval0) clampneg(.param .b32 clampneg_param_0)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  ld.param.u32 %r1, [clampneg_param_0];\n"
    "  setp.lt.s32 %p1, %r1, 0;\n  @%p1 bra $L__neg;\n  st.param.b32 [func_retval0+0], %r1;\n  ret;\n"
    "$L__neg:\n  mov.u32 %r2, 0;\n  st.param.b32 [func_retval0+0], %r2;\n  ret;\n}\n";

START_TEST(test_device_functions)
{
    static char src[4096];
    snprintf(src, sizeof src,
             PTX_HEAD ".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);\n%s"
             ".func count(.param .b64 count_param_0)\n{\n  .reg .b32 %%r<2>;\n  .reg .b64 %%rd<2>;\n"
             "  ld.param.u64 %%rd1, [count_param_0];\n  atom.global.add.u32 %%r1, [%%rd1], 1;\n  ret;\n}\n"
             ".visible .entry t(.param .u64 t_param_0)\n{\n"
             "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n"
             "  mov.u32 %%r1, %%tid.x;\n  sub.s32 %%r2, %%r1, 4;\n  mov.u32 %%r4, 1000;\n  setp.lt.u32 %%p1, %%r1, 8;\n"
             "  { .reg .b32 temp_param_reg;\n  .param .b32 param0;\n  st.param.b32 [param0+0], %%r2;\n"
             "  .param .b32 retval0;\n  @%%p1 call.uni (retval0), twice, (param0);\n"
             "  @%%p1 ld.param.b32 %%r4, [retval0+0];\n  }\n"
             "  ld.param.u64 %%rd1, [t_param_0];\n  add.s64 %%rd2, %%rd1, 128;\n"
             "  { .param .b64 param0;\n  st.param.b64 [param0+0], %%rd2;\n  @%%p1 call.uni count, (param0);\n  }\n"
             "  sub.s32 %%r5, %%r1, 20;\n" CALL1("clampneg", "%%r5", "%%r6")
             "  add.s32 %%r7, %%r4, %%r6;\n  ld.param.u64 %%rd1, [t_param_0];\n  mul.wide.u32 %%rd2, %%r1, 4;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  st.global.u32 [%%rd3], %%r7;\n  ret;\n}\n"
             ".func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n"
             "  .reg .b32 %%r<4>;\n  ld.param.u32 %%r1, [twice_param_0];\n" CALL1("clampneg", "%%r1", "%%r2")
             "  add.s32 %%r3, %%r2, %%r2;\n  st.param.b32 [func_retval0+0], %%r3;\n  ret;\n}\n",
             CLAMPNEG);
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 33 * 4, "out", &d);
    memset(gmem_translate(g, out, 33 * 4), 0, 33 * 4);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const int32_t *res = gmem_translate(g, out, 33 * 4);
    ck_assert_int_eq(res[32], 8); /* the guarded call ran on the 8 lanes whose guard held */
    for (int i = 0; i < 32; i++) {
        int32_t want = (i < 8 ? (i < 4 ? 0 : 2 * (i - 4)) : 1000) + (i >= 20 ? i - 20 : 0);
        ck_assert_msg(res[i] == want, "lane %d: %d, expected %d", i, res[i], want);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Structs by value (`.param .b8 p[N]`): a 16-byte struct of a 64-bit, a
** 32-bit and two byte fields (one signed: sign-extended when read), returned
** as an 8-byte struct read as a vector; then `param0` declared again for a
** call with another layout (an 8-byte field where the first had two words),
** which must see the new call's values. */
START_TEST(test_struct_params)
{
    static const char src[] =
        PTX_HEAD
        ".func (.param .align 4 .b8 func_retval0[8]) mix(.param .align 8 .b8 mix_param_0[16])\n{\n"
        "  .reg .b16 %rs<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [mix_param_0];\n  ld.param.u32 %r1, [mix_param_0+8];\n"
        "  ld.param.s8 %rs1, [mix_param_0+12];\n  ld.param.u8 %rs2, [mix_param_0+13];\n"
        "  cvt.u32.u64 %r2, %rd1;\n  add.s32 %r3, %r2, %r1;\n  cvt.s32.s16 %r4, %rs1;\n  cvt.u32.u16 %r5, %rs2;\n"
        "  st.param.v2.b32 [func_retval0+0], {%r3, %r4};\n  ret;\n}\n"
        ".func (.param .b32 func_retval0) wide(.param .align 8 .b8 wide_param_0[16])\n{\n"
        "  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [wide_param_0+8];\n"
        "  cvt.u32.u64 %r1, %rd1;\n  st.param.b32 [func_retval0+0], %r1;\n  ret;\n}\n"
        ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .b16 %rs<3>;\n  .reg .b32 %r<9>;\n  .reg .b64 %rd<5>;\n"
        "  mov.u32 %r1, %tid.x;\n  cvt.u64.u32 %rd1, %r1;\n  shl.b64 %rd1, %rd1, 32;\n  add.s64 %rd1, %rd1, 100;\n"
        "  neg.s32 %r2, %r1;\n  cvt.u16.u32 %rs1, %r2;\n  mov.u16 %rs2, 200;\n"
        "  { .param .align 8 .b8 param0[16];\n  st.param.b64 [param0+0], %rd1;\n  st.param.b32 [param0+8], %r1;\n"
        "  st.param.v2.b8 [param0+12], {%rs1, %rs2};\n  .param .align 4 .b8 retval0[8];\n"
        "  call.uni (retval0), mix, (param0);\n  ld.param.v2.b32 {%r3, %r4}, [retval0+0];\n  }\n"
        "  { .param .align 8 .b8 param0[16];\n  st.param.v2.b32 [param0+0], {%r1, %r1};\n"
        "  add.s64 %rd2, %rd1, 7;\n  st.param.b64 [param0+8], %rd2;\n  .param .b32 retval0;\n"
        "  call.uni (retval0), wide, (param0);\n  ld.param.b32 %r5, [retval0+0];\n  }\n"
        "  ld.param.u64 %rd3, [t_param_0];\n  mul.wide.u32 %rd4, %r1, 12;\n  add.s64 %rd3, %rd3, %rd4;\n"
        "  st.global.u32 [%rd3], %r3;\n  st.global.u32 [%rd3+4], %r4;\n  st.global.u32 [%rd3+8], %r5;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 12, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const int32_t *res = gmem_translate(g, out, 32 * 12);
    for (int i = 0; i < 32; i++) {
        ck_assert_msg(res[3 * i] == 100 + i, "lane %d: low word + int %d", i, res[3 * i]);
        ck_assert_msg(res[3 * i + 1] == (int8_t)-i, "lane %d: signed byte %d", i, res[3 * i + 1]);
        ck_assert_msg(res[3 * i + 2] == 107, "lane %d: the second call's field %d", i, res[3 * i + 2]);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* What a call cannot be: each refuses its kernel, at the call, saying why. */
static const struct {
    const char *funcs, *call, *message;
} BAD_CALLS[] = {
    { ".func (.param .b32 func_retval0) f(.param .b32 f_param_0);\n", CALL1("f", "%r1", "%r2"),
      "device function 'f' is declared in this file but not defined here" },
    { "", CALL1("nowhere", "%r1", "%r2"), "a call of 'nowhere', which is no device function of this file" },
    { ".func (.param .b32 func_retval0) f(.param .b32 f_param_0, .param .b32 f_param_1)\n{\n  ret;\n}\n",
      CALL1("f", "%r1", "%r2"), "the call of 'f' passes 1 arguments; it takes 2" },
    { ".func (.param .b32 func_retval0) f(.param .b64 f_param_0)\n{\n  ret;\n}\n", CALL1("f", "%r1", "%r2"),
      "argument 1 of the call of 'f' is 32-bit, the function's is 64-bit" },
    { ".func (.param .b32 func_retval0) f(.param .align 4 .b8 f_param_0[8])\n{\n  ret;\n}\n", CALL1("f", "%r1", "%r2"),
      "argument 1 of the call of 'f' is a scalar, the function's is a struct" },
    { ".func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n{\n  ret;\n}\n",
      "  { .param .align 4 .b8 param0[8];\n  .param .b32 retval0;\n  call.uni (retval0), f, (param0);\n  }\n",
      "argument 1 of the call of 'f' is a struct, the function's is a scalar" },
    { ".func (.param .b32 func_retval0) f(.param .align 4 .b8 f_param_0[8])\n{\n  ret;\n}\n",
      "  { .param .align 4 .b8 param0[12];\n  .param .b32 retval0;\n  call.uni (retval0), f, (param0);\n  }\n",
      "argument 1 of the call of 'f' is a struct of 12 bytes, the function's of 8" },
    { ".func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n{\n  ret;\n}\n",
      "  { .reg .b64 %rd<2>;\n  mov.u64 %rd1, 0;\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n"
      "  .param .b32 retval0;\n  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "  call (retval0), %rd1, (param0), prototype_0;\n  }\n",
      "an indirect call through %rd1 with 1 arguments, and no device function of this file taking them has its "
      "address taken" },
};

START_TEST(test_bad_calls)
{
    char src[2048];
    snprintf(src, sizeof src,
             PTX_HEAD "%s.visible .entry t(.param .u64 t_param_0)\n{\n  .reg .b32 %%r<3>;\n  mov.u32 %%r1, 1;\n%s  ret;\n}\n",
             BAD_CALLS[_i].funcs, BAD_CALLS[_i].call);
    Program p;
    parse_ok(src, &p);
    Diag d;
    ck_assert(!kernel_runnable(&p, &p.kernels[0], &d));
    ck_assert_msg(strstr(d.message, BAD_CALLS[_i].message), "%s\n%s", d.message, src);
    program_destroy(&p);
}
END_TEST

/* prefetch in each of its forms is a hint: the kernel runs, and nothing it
** names is read (a prefetch of address 0 must not fault); cvt from a 64-bit
** register to a 32-bit source type reads the low word, as PTX allows (CUB's
** radix sort writes `cvt.s64.s32 %rd, %rd`). */
START_TEST(test_prefetch_and_wide_cvt)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  mov.u64 %rd7, 0;\n"
        "  prefetch.global.L2 [%rd7];\n  prefetch.global.L1 [%rd2+128];\n  prefetchu.L1 [%rd7];\n"
        "  prefetch.global.L2::evict_last [%rd2];\n  prefetch.L1 [%rd1];\n  prefetch.local.L2 [%rd7];\n"
        "  mov.u32 %r1, %tid.x;\n  neg.s32 %r2, %r1;\n  cvt.u64.u32 %rd3, %r2;\n"
        "  add.s64 %rd3, %rd3, 4294967296;\n  cvt.s64.s32 %rd4, %rd3;\n"
        "  mul.wide.u32 %rd5, %r1, 8;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.u64 [%rd6], %rd4;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 8, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const int64_t *res = gmem_translate(g, out, 32 * 8);
    for (int i = 0; i < 32; i++) ck_assert_msg(res[i] == -(int64_t)i, "lane %d: %lld", i, (long long)res[i]);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* The 8-bit float pairs by hand (tests/exec/fp8.cu holds them to
** cuda_fp8.h's host conversions): .relu makes negatives +0 both ways, a
** tie rounds to even, past the largest finite value clamps (e4m3 448:
** 0x7e; e5m2 57344: 0x7b), NaN is 0x7f, and e5m2's infinity comes back as
** the half's. */
START_TEST(test_fp8_pairs)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .b16 %rs<8>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n"
        "  cvt.rn.satfinite.relu.e4m3x2.f32 %rs1, 0fC0000000, 0f3F880000;\n" /* -2 -> 0; 1.0625 (a tie) -> 1.0 */
        "  cvt.rn.satfinite.e4m3x2.f32 %rs2, 0f44000000, 0f7FC00000;\n"      /* 512 -> 448; NaN */
        "  cvt.rn.satfinite.e5m2x2.f32 %rs3, 0fFF800000, 0f38000000;\n"      /* -inf -> -57344; 2^-15 */
        "  mov.b16 %rs4, 0x7c7f;\n"                                           /* e5m2: inf, NaN */
        "  cvt.rn.f16x2.e5m2x2 %r1, %rs4;\n"
        "  mov.b16 %rs5, 0xb838;\n"                                           /* e4m3: -1.0, 1.0 */
        "  cvt.rn.relu.f16x2.e4m3x2 %r2, %rs5;\n"
        "  cvt.u32.u16 %r3, %rs1;\n  cvt.u32.u16 %r4, %rs2;\n  cvt.u32.u16 %r5, %rs3;\n"
        "  st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r1};\n  st.global.u32 [%rd2+16], %r2;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 32);
    ck_assert_uint_eq(res[0], 0x0038); /* +0, 1.0 */
    ck_assert_uint_eq(res[1], 0x7e7f); /* 448, NaN */
    ck_assert_uint_eq(res[2], 0xfb02); /* -57344, 2^-15: the subnormal 2 x 2^-16 */
    ck_assert_uint_eq(res[3], 0x7c007fffu); /* inf, the canonical NaN */
    ck_assert_uint_eq(res[4], 0x00003c00u); /* relu: -1 -> +0; 1.0 */
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Hints the model keeps no state for: createpolicy's policy (0) carried by
** ld/st .L2::cache_hint, applypriority and discard on a line, and
** griddepcontrol; the loads and stores they ride on still move the data.
** elect.sync's leader is the lowest active lane of the member mask. */
START_TEST(test_hints_and_elect)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  griddepcontrol.wait;\n"
        "  createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd3, 0f3F800000;\n"
        "  createpolicy.fractional.L2::evict_first.b64 %rd6, 0f3F000000;\n"
        "  createpolicy.fractional.L2::evict_unchanged.b64 %rd7;\n"
        "  createpolicy.range.global.L2::evict_last.b64 %rd7, [%rd2], 128, 256;\n"
        "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd2, %rd4;\n"
        "  ld.global.L2::cache_hint.u32 %r2, [%rd5], %rd3;\n"
        "  applypriority.global.L2::evict_normal [%rd5], 128;\n  discard.global.L2 [%rd5+128], 128;\n"
        "  setp.ge.u32 %p1, %r1, 5;\n"
        "  @%p1 elect.sync %r3|%p2, 0xfffffff0;\n" /* lanes 5-31 active, mask from 4: lane 5 leads */
        "  selp.u32 %r4, 1000, 0, %p2;\n  add.u32 %r5, %r3, %r4;\n  add.u32 %r5, %r5, %r2;\n"
        "  @!%p1 mov.u32 %r5, 7;\n"
        "  cvt.u32.u64 %r6, %rd3;\n  add.u32 %r5, %r5, %r6;\n"
        "  st.global.L2::cache_hint.u32 [%rd5], %r5, %rd6;\n  griddepcontrol.launch_dependents;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 64 * 4, "out", &d);
    uint32_t *words = gmem_translate(g, out, 64 * 4);
    for (int i = 0; i < 64; i++) words[i] = 100u * (uint32_t)i;
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t want = l < 5 ? 7 : 5 + (l == 5 ? 1000 : 0) + 100 * l;
        ck_assert_msg(words[l] == want, "lane %u: %u, want %u", l, words[l], want);
    }
    ck_assert_uint_eq(words[32], 3200); /* the discarded line keeps its data */
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Recursion, inlined PTX_RECURSION_MAX levels deep: f(n) = n ? 2 f(n-1) + 1
** : 0 runs to the depth the data asks (lane l: l % 20 + a parameter
** levels); a call deeper than the levels inlined stops the kernel with
** FAULT_CALL_DEPTH, at the call. */
static const char RECURSIVE[] =
    PTX_HEAD ".func (.param .b32 func_retval0) f(.param .b32 f_param_0)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<5>;\n"
    "  ld.param.u32 %r1, [f_param_0];\n  mov.u32 %r4, 0;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
    "  sub.s32 %r2, %r1, 1;\n" CALL1("f", "%r2", "%r3") "  shl.b32 %r4, %r3, 1;\n  add.s32 %r4, %r4, 1;\n"
    "DONE:\n  st.param.b32 [func_retval0+0], %r4;\n  ret;\n}\n"
    ".visible .entry t(.param .u64 t_param_0, .param .u32 t_param_1)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  ld.param.u32 %r2, [t_param_1];\n"
    "  mov.u32 %r1, %tid.x;\n  rem.u32 %r1, %r1, 20;\n  add.s32 %r1, %r1, %r2;\n" CALL1("f", "%r1", "%r3")
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r3;\n"
    "  ret;\n}\n";

START_TEST(test_recursion)
{
    Program p;
    parse_ok(RECURSIVE, &p);
    for (uint32_t deeper = 0; deeper < 2; deeper++) { /* 0..19 levels, then 10..29 */
        GlobalMem *g = gmem_create();
        Diag d;
        uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0, deeper ? 10 : 0 };
        GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
        GridResult r;
        bool ok = grid_run_functional(&p.kernels[0], g, &L, &r);
        if (!deeper) {
            ck_assert_msg(ok, "%s", r.message);
            const uint32_t *res = gmem_translate(g, out, 32 * 4);
            for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(res[l], (1u << (l % 20)) - 1);
        } else { /* lanes asking for 24 levels or more */
            ck_assert(!ok);
            ck_assert_int_eq(r.fault, FAULT_CALL_DEPTH);
            ck_assert_msg(strstr(r.message, "recursion too deep"), "%s", r.message);
        }
        gmem_destroy(g);
    }
    program_destroy(&p);
}
END_TEST

/* A call through a register: the lanes of a warp pointing at two
** functions each get their own's result; a pointer at no function (here a
** data address) traps. */
static const char INDIRECT[] =
    PTX_HEAD
    ".func (.param .b32 f1_ret) f1(.param .b32 f1_a)\n{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [f1_a];\n"
    "  add.s32 %r2, %r1, 100;\n  st.param.b32 [f1_ret], %r2;\n  ret;\n}\n"
    ".func (.param .b32 f2_ret) f2(.param .b32 f2_a)\n{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [f2_a];\n"
    "  mul.lo.s32 %r2, %r1, 3;\n  st.param.b32 [f2_ret], %r2;\n  ret;\n}\n"
    ".visible .entry t(.param .u64 t_param_0, .param .u32 t_param_1)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  ld.param.u32 %r6, [t_param_1];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 1;\n  setp.eq.u32 %p1, %r2, 0;\n"
    "  mov.u64 %rd3, f1;\n  mov.u64 %rd4, f2;\n  selp.b64 %rd5, %rd3, %rd4, %p1;\n"
    "  setp.eq.u32 %p2, %r6, 1;\n  @%p2 mov.u64 %rd5, %rd2;\n" /* param 1: a data pointer instead */
    "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n  .param .b32 retval0;\n"
    "  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (retval0), %rd5, (param0), prototype_0;\n  ld.param.b32 %r3, [retval0];\n  }\n"
    "  mul.wide.u32 %rd6, %r1, 4;\n  add.s64 %rd7, %rd2, %rd6;\n  st.global.u32 [%rd7], %r3;\n  ret;\n}\n";

START_TEST(test_indirect_calls)
{
    Program p;
    parse_ok(INDIRECT, &p);
    for (uint32_t bad = 0; bad < 2; bad++) {
        GlobalMem *g = gmem_create();
        Diag d;
        uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0, bad };
        GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
        GridResult r;
        bool ok = grid_run_functional(&p.kernels[0], g, &L, &r);
        if (bad) {
            ck_assert(!ok);
            ck_assert_int_eq(r.fault, FAULT_BAD_CALL);
            ck_assert_msg(strstr(r.message, "holds no device function's address"), "%s", r.message);
        } else {
            ck_assert_msg(ok, "%s", r.message);
            const uint32_t *res = gmem_translate(g, out, 32 * 4);
            for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(res[l], l % 2 ? 3 * l : l + 100);
        }
        gmem_destroy(g);
    }
    program_destroy(&p);
}
END_TEST

/* add.s64, sub.s64 and mov.b64 run on the register rows' 32-bit halves
** (isa/exec_ptx.c alu64_halves): a carry and a borrow across the words,
** a 64-bit immediate, and lanes a guard leaves out keep their values (in
** a 64-bit row written through dst64 too). */
START_TEST(test_wide_rows_by_halves)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<12>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n"
        "  mov.u32 %r1, %tid.x;\n  cvt.u64.u32 %rd3, %r1;\n  shl.b64 %rd3, %rd3, 32;\n"
        "  or.b64 %rd3, %rd3, 4294967295;\n" /* tid << 32 | 0xffffffff */
        "  add.s64 %rd4, %rd3, 1;\n"                    /* a carry into the high word */
        "  sub.s64 %rd5, %rd4, 2;\n"                    /* a borrow out of it */
        "  setp.lt.u32 %p1, %r1, 16;\n"
        "  @%p1 add.s64 %rd5, %rd5, %rd3;\n"
        "  mov.b64 %rd6, 0;\n  @%p1 mov.b64 %rd6, %rd4;\n"
        "  sub.s64 %rd7, %rd6, %rd4;\n"
        "  add.s64 %rd8, %rd3, -4294967296;\n"          /* a negative immediate */
        "  mov.b64 %rd11, 5;\n  @%p1 mul.wide.u32 %rd11, %r1, -1;\n" /* a 64-bit row under a guard */
        "  mul.wide.u32 %rd9, %r1, 40;\n  add.s64 %rd10, %rd2, %rd9;\n"
        "  st.global.u64 [%rd10], %rd5;\n  st.global.u64 [%rd10+8], %rd6;\n"
        "  st.global.u64 [%rd10+16], %rd7;\n  st.global.u64 [%rd10+24], %rd8;\n"
        "  st.global.u64 [%rd10+32], %rd11;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 40, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint64_t *res = gmem_translate(g, out, 32 * 40);
    for (uint64_t i = 0; i < 32; i++) {
        uint64_t eleven = i < 16 ? i * 0xffffffffull : 5;
        ck_assert_msg(res[5 * i + 4] == eleven, "lane %d mul.wide: %llx", (int)i, (unsigned long long)res[5 * i + 4]);
        uint64_t x = i << 32 | 0xffffffffu, x1 = x + 1, x2 = x1 - 2;
        uint64_t five = i < 16 ? x2 + x : x2, six = i < 16 ? x1 : 0;
        ck_assert_msg(res[5 * i] == five, "lane %d add: %llx", (int)i, (unsigned long long)res[5 * i]);
        ck_assert_msg(res[5 * i + 1] == six, "lane %d mov: %llx", (int)i, (unsigned long long)res[5 * i + 1]);
        ck_assert_msg(res[5 * i + 2] == six - x1, "lane %d sub: %llx", (int)i, (unsigned long long)res[5 * i + 2]);
        ck_assert_msg(res[5 * i + 3] == x - 4294967296u, "lane %d imm: %llx", (int)i, (unsigned long long)res[5 * i + 3]);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Shifts by an immediate count (one count for every lane: isa/exec.c's and
** alu64_halves' vector paths) against the host, for counts on each side of
** 32 and past the width: shl.b64, shr.u64, shl.b32 and shr.u32. */
START_TEST(test_shifts_by_immediates)
{
    static const unsigned counts[] = { 0, 1, 13, 31, 32, 33, 63, 64, 70 };
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd1, %rd1;\n"
        "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, -1640531527;\n  xor.b64 %rd2, %rd2, -7046029254386353131;\n"
        "  cvt.u32.u64 %r2, %rd2;\n  mul.wide.u32 %rd3, %r1, 216;\n  add.s64 %rd1, %rd1, %rd3;\n"
        "  shl.b64 %rd4, %rd2, 0;\n  st.global.u64 [%rd1+0], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 0;\n  st.global.u64 [%rd1+8], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 1;\n  st.global.u64 [%rd1+16], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 1;\n  st.global.u64 [%rd1+24], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 13;\n  st.global.u64 [%rd1+32], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 13;\n  st.global.u64 [%rd1+40], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 31;\n  st.global.u64 [%rd1+48], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 31;\n  st.global.u64 [%rd1+56], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 32;\n  st.global.u64 [%rd1+64], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 32;\n  st.global.u64 [%rd1+72], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 33;\n  st.global.u64 [%rd1+80], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 33;\n  st.global.u64 [%rd1+88], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 63;\n  st.global.u64 [%rd1+96], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 63;\n  st.global.u64 [%rd1+104], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 64;\n  st.global.u64 [%rd1+112], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 64;\n  st.global.u64 [%rd1+120], %rd4;\n"
        "  shl.b64 %rd4, %rd2, 70;\n  st.global.u64 [%rd1+128], %rd4;\n"
        "  shr.u64 %rd4, %rd2, 70;\n  st.global.u64 [%rd1+136], %rd4;\n"
        "  shl.b32 %r3, %r2, 0;\n  st.global.u32 [%rd1+144], %r3;\n"
        "  shr.u32 %r3, %r2, 0;\n  st.global.u32 [%rd1+148], %r3;\n"
        "  shl.b32 %r3, %r2, 1;\n  st.global.u32 [%rd1+152], %r3;\n"
        "  shr.u32 %r3, %r2, 1;\n  st.global.u32 [%rd1+156], %r3;\n"
        "  shl.b32 %r3, %r2, 13;\n  st.global.u32 [%rd1+160], %r3;\n"
        "  shr.u32 %r3, %r2, 13;\n  st.global.u32 [%rd1+164], %r3;\n"
        "  shl.b32 %r3, %r2, 31;\n  st.global.u32 [%rd1+168], %r3;\n"
        "  shr.u32 %r3, %r2, 31;\n  st.global.u32 [%rd1+172], %r3;\n"
        "  shl.b32 %r3, %r2, 32;\n  st.global.u32 [%rd1+176], %r3;\n"
        "  shr.u32 %r3, %r2, 32;\n  st.global.u32 [%rd1+180], %r3;\n"
        "  shl.b32 %r3, %r2, 33;\n  st.global.u32 [%rd1+184], %r3;\n"
        "  shr.u32 %r3, %r2, 33;\n  st.global.u32 [%rd1+188], %r3;\n"
        "  shl.b32 %r3, %r2, 63;\n  st.global.u32 [%rd1+192], %r3;\n"
        "  shr.u32 %r3, %r2, 63;\n  st.global.u32 [%rd1+196], %r3;\n"
        "  shl.b32 %r3, %r2, 64;\n  st.global.u32 [%rd1+200], %r3;\n"
        "  shr.u32 %r3, %r2, 64;\n  st.global.u32 [%rd1+204], %r3;\n"
        "  shl.b32 %r3, %r2, 70;\n  st.global.u32 [%rd1+208], %r3;\n"
        "  shr.u32 %r3, %r2, 70;\n  st.global.u32 [%rd1+212], %r3;\n"
        "  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 216, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint8_t *res = gmem_translate(g, out, 32 * 216);
    for (uint64_t i = 0; i < 32; i++) {
        uint64_t x = (i * 2654435769u) ^ 0x9e3779b97f4a7c15ull; /* mul.wide.u32 by -1640531527's bits */
        uint32_t x32 = (uint32_t)x;
        const uint8_t *lane = res + i * 216;
        for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            unsigned k = counts[c];
            uint64_t shl, shr;
            uint32_t shl32, shr32;
            memcpy(&shl, lane + 16 * c, 8);
            memcpy(&shr, lane + 16 * c + 8, 8);
            memcpy(&shl32, lane + 144 + 8 * c, 4);
            memcpy(&shr32, lane + 144 + 8 * c + 4, 4);
            ck_assert_msg(shl == (k >= 64 ? 0 : x << k), "lane %d shl.b64 %u: %llx", (int)i, k, (unsigned long long)shl);
            ck_assert_msg(shr == (k >= 64 ? 0 : x >> k), "lane %d shr.u64 %u: %llx", (int)i, k, (unsigned long long)shr);
            ck_assert_msg(shl32 == (k >= 32 ? 0 : x32 << k), "lane %d shl.b32 %u: %x", (int)i, k, shl32);
            ck_assert_msg(shr32 == (k >= 32 ? 0 : x32 >> k), "lane %d shr.u32 %u: %x", (int)i, k, shr32);
        }
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* trap and a failed assert() stop the kernel at the first lane that runs
** them (the fault's kind, lane and, for assert, CUDA's line from the
** module's strings); a call of six arguments reaches the device function. */
START_TEST(test_trap_assert_and_wide_calls)
{
    static const char src[] =
        PTX_HEAD ".extern .func __assertfail\n(\n .param .b64 m,\n .param .b64 f,\n .param .b32 l,\n .param .b64 fn,\n"
        " .param .b64 cs\n)\n;\n"
        ".global .align 1 .b8 $str[6] = {105, 32, 60, 32, 53, 0};\n"        /* "i < 5" */
        ".global .align 1 .b8 $str$1[5] = {97, 46, 99, 117, 0};\n"          /* "a.cu" */
        ".global .align 1 .b8 __unnamed_1[9] = {118, 111, 105, 100, 32, 107, 40, 41, 0};\n" /* "void k()" */
        ".func (.param .b32 r) six(.param .b32 a, .param .b32 b, .param .b32 c, .param .b32 d, .param .b32 e,"
        " .param .b32 f)\n{\n  .reg .b32 %r<8>;\n"
        "  ld.param.u32 %r1, [a];\n  ld.param.u32 %r2, [f];\n  mad.lo.s32 %r3, %r2, 10, %r1;\n"
        "  st.param.b32 [r], %r3;\n  ret;\n}\n"
        ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  { .reg .b32 temp_param_reg;\n  .param .b32 p0;\n st.param.b32 [p0], %r1;\n .param .b32 p1;\n"
        " st.param.b32 [p1], 0;\n .param .b32 p2;\n st.param.b32 [p2], 0;\n .param .b32 p3;\n st.param.b32 [p3], 0;\n"
        " .param .b32 p4;\n st.param.b32 [p4], 0;\n .param .b32 p5;\n st.param.b32 [p5], 7;\n .param .b32 rv;\n"
        " call.uni (rv), six, (p0, p1, p2, p3, p4, p5);\n ld.param.b32 %r2, [rv];\n  }\n"
        "  ld.param.u64 %rd1, [k_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r1, 4;\n"
        "  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r2;\n"
        "  setp.lt.u32 %p1, %r1, 5;\n  @%p1 bra $L_ok;\n"
        "  mov.u64 %rd5, $str;\n  cvta.global.u64 %rd5, %rd5;\n  mov.u64 %rd6, $str$1;\n  cvta.global.u64 %rd6, %rd6;\n"
        "  mov.u64 %rd7, __unnamed_1;\n  cvta.global.u64 %rd7, %rd7;\n"
        "  { .param .b64 param0;\n st.param.b64 [param0], %rd5;\n .param .b64 param1;\n st.param.b64 [param1], %rd6;\n"
        " .param .b32 param2;\n st.param.b32 [param2], 42;\n .param .b64 param3;\n st.param.b64 [param3], %rd7;\n"
        " .param .b64 param4;\n st.param.b64 [param4], 1;\n"
        " call.uni __assertfail, (param0, param1, param2, param3, param4);\n  }\n"
        "$L_ok:\n  ret;\n}\n"
        ".visible .entry t()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n"
        "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 9;\n  @%p1 trap;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    for (uint32_t i = 0; i < p.nvars; i++) {
        ck_assert_msg(gmem_alloc_at(g, p.vars[i].addr, p.vars[i].size, p.vars[i].name, &d), "%s", d.message);
        memcpy(gmem_translate(g, p.vars[i].addr, p.vars[i].size), p.vars[i].init, p.vars[i].size);
    }
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    ck_assert_int_eq(r.fault, FAULT_ASSERT);
    ck_assert_msg(strstr(r.message, "device-side assertion failed: a.cu:42: void k(): block: [0,0,0], thread: [5,0,0] "
                                    "Assertion `i < 5` failed.") != NULL, "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 32 * 4);
    for (uint32_t i = 0; i < 32; i++) ck_assert_uint_eq(res[i], 70 + i); /* six(tid, 0, 0, 0, 0, 7) */
    ck_assert(!grid_run_functional(&p.kernels[1], g, &L, &r));
    ck_assert_int_eq(r.fault, FAULT_TRAP);
    ck_assert_msg(strstr(r.message, "trap") && strstr(r.message, "by thread (9,0,0)"), "%s", r.message);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* A register declared in a block (inline asm's { .reg.u32 %r3; ... }, as
** CUDA's math library writes it) shadows the body's %r3 only inside the
** block: after it, %r3 is the body's again (it was the block's, so a
** double sin() of a large argument indexed its table wildly). And add.cc/addc
** and mad.lo.cc/madc carry through the flag. */
START_TEST(test_block_scope_and_carries)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
        "  mov.u32 %r1, %tid.x;\n  add.u32 %r3, %r1, 100;\n"
        "  {\n  .reg.u32 %r3, %lo;\n  mov.u32 %r3, 7;\n  add.cc.u32 %lo, %r1, -1;\n  addc.u32 %r4, %r3, 0;\n  }\n"
        "  add.u32 %r5, %r3, %r4;\n"                                   /* tid + 100 + 7 + (tid > 0) */
        "  mov.u32 %r6, -1;\n  mad.lo.cc.u32 %r6, %r6, %r6, %r6;\n  madc.hi.u32 %r7, %r1, 2, 0;\n" /* 1 + 2^32 - 1: carry 1 */
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r1, 8;\n"
        "  add.s64 %rd2, %rd2, %rd3;\n  st.global.v2.u32 [%rd2], {%r5, %r7};\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 8, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 32 * 8);
    for (uint32_t i = 0; i < 32; i++) {
        ck_assert_uint_eq(res[2 * i], i + 100 + 7 + (i > 0));
        ck_assert_uint_eq(res[2 * i + 1], 1); /* the high word of tid * 2 is 0, plus the carry */
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* bar.red sums and votes over the whole block (two warps here), every
** thread receiving the block's result: __syncthreads_count, _and, _or. */
START_TEST(test_bar_red)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n  .reg .pred %p<6>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
        "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n  setp.eq.u32 %p1, %r2, 0;\n"
        "  bar.red.popc.u32 %r3, 0, %p1;\n"                  /* 64 threads, every 4th: 16 */
        "  setp.lt.u32 %p2, %r1, 63;\n  bar.red.and.pred %p3, 0, %p2;\n"  /* not all: false */
        "  setp.eq.u32 %p4, %r1, 40;\n  barrier.red.or.pred %p5, 0, !%p4;\n" /* any not 40: true */
        "  selp.u32 %r4, 100, 0, %p3;\n  selp.u32 %r5, 1000, 0, %p5;\n  add.u32 %r6, %r3, %r4;\n  add.u32 %r6, %r6, %r5;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r1, 4;\n"
        "  add.s64 %rd2, %rd2, %rd3;\n  st.global.u32 [%rd2], %r6;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 64 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 64 * 4);
    for (uint32_t i = 0; i < 64; i++) ck_assert_uint_eq(res[i], 16 + 0 + 1000);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* atom without a space (a generic address) goes to shared memory inside
** its window and to global memory otherwise; %envreg1:%envreg2 is the
** launch's grid workspace (cooperative groups' grid.sync()). */
START_TEST(test_generic_atomics_and_envreg)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
        "  .shared .align 4 .b32 cnt;\n"
        "  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n  mov.u32 %r7, 0;\n  @%p1 st.shared.u32 [cnt], %r7;\n"
        "  bar.sync 0;\n  mov.u64 %rd1, cnt;\n  cvta.shared.u64 %rd2, %rd1;\n  atom.add.u32 %r2, [%rd2], 2;\n"
        "  bar.sync 0;\n  ld.shared.u32 %r3, [cnt];\n"                          /* 32 lanes x 2 */
        "  ld.param.u64 %rd3, [t_param_0];\n  atom.relaxed.gpu.add.u32 %r4, [%rd3], 1;\n" /* generic global */
        "  mov.u32 %r5, %envreg1;\n  mov.u32 %r6, %envreg2;\n  add.u32 %r3, %r3, %r5;\n  add.u32 %r3, %r3, %r6;\n"
        "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd3, %rd4;\n  st.global.u32 [%rd5+4], %r3;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 33 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 33 * 4);
    ck_assert_uint_eq(res[0], 32); /* the global counter */
    for (uint32_t i = 0; i < 32; i++) ck_assert_uint_eq(res[1 + i], 64); /* no workspace: %envreg1/2 are 0 */
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* bmsk and szext in both modes, against the PTX ISA's definitions: lane i
** takes a = i + 14 and b = 3 * i - 4 (so both cross 32 and wrap past it). */
static uint32_t bmsk_ref(uint32_t a, uint32_t b, bool clamp)
{
    a = clamp ? (a > 32 ? 32 : a) : a & 31;
    b = clamp ? (b > 32 ? 32 : b) : b & 31;
    uint32_t d = 0;
    for (uint32_t k = a; k < a + b && k < 32; k++) d |= 1u << k;
    return d;
}

static uint32_t szext_ref(uint32_t a, uint32_t b, bool clamp, bool is_signed)
{
    b = clamp ? (b > 32 ? 32 : b) : b & 31;
    if (b == 0) return 0;
    uint32_t d = a & (b == 32 ? ~0u : (1u << b) - 1);
    if (is_signed && b < 32 && (a >> (b - 1) & 1)) d |= ~0u << b;
    return d;
}

START_TEST(test_bmsk_szext)
{
    static const char src[] =
        PTX_HEAD ".visible .entry t(.param .u64 t_param_0)\n{\n"
        "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"
        "  ld.param.u64 %rd1, [t_param_0];\n  mov.u32 %r1, %tid.x;\n  add.s32 %r2, %r1, 14;\n"
        "  mul.lo.s32 %r3, %r1, 3;\n  sub.s32 %r3, %r3, 4;\n  mov.u32 %r10, -1515870811;\n"
        "  bmsk.clamp.b32 %r4, %r2, %r3;\n  bmsk.wrap.b32 %r5, %r2, %r3;\n"
        "  szext.clamp.s32 %r6, %r10, %r3;\n  szext.wrap.s32 %r7, %r10, %r3;\n"
        "  szext.clamp.u32 %r8, %r10, %r3;\n  szext.wrap.u32 %r9, %r10, %r3;\n"
        "  mul.wide.u32 %rd2, %r1, 24;\n  add.s64 %rd3, %rd1, %rd2;\n"
        "  st.global.v2.u32 [%rd3], {%r4, %r5};\n  st.global.v2.u32 [%rd3+8], {%r6, %r7};\n"
        "  st.global.v2.u32 [%rd3+16], {%r8, %r9};\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 24, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 32 * 24);
    const uint32_t x = 0xa5a5a5a5u;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t a = i + 14, b = 3 * i - 4;
        uint32_t want[6] = { bmsk_ref(a, b, true),         bmsk_ref(a, b, false),         szext_ref(x, b, true, true),
                             szext_ref(x, b, false, true), szext_ref(x, b, true, false), szext_ref(x, b, false, false) };
        for (int k = 0; k < 6; k++)
            ck_assert_msg(res[6 * i + k] == want[k], "lane %u result %d: %08x, want %08x", i, k, res[6 * i + k], want[k]);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* ----------------------------------------------------- directed rounding */

static const int MODES[3] = { FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const CvtRound RNDS[3] = { RND_RZ, RND_RM, RND_RP };

static uint64_t next_bits(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11 ^ *s << 7;
}

/* Operands over the whole range: any sign and exponent, and mantissas
** with long runs of zeros or ones, where the exact value lies on a tie or
** a float. */
static double random_f64(uint64_t *s, int min_exp, int max_exp)
{
    uint64_t b = next_bits(s);
    double m = 1.0 + (double)(b & 0xfffff) / 1048576.0;
    if (b >> 20 & 1) m = 1.0 + ldexp((double)(b >> 21 & 0xffff), -52);
    int e = min_exp + (int)((b >> 40) % (uint64_t)(max_exp - min_exp + 1));
    return (b >> 63 ? -1.0 : 1.0) * ldexp(m, e);
}

static bool same_bits(double got, double want)
{
    return memcmp(&got, &want, sizeof got) == 0 || (isnan(got) && isnan(want));
}

/* The host does IEEE arithmetic in every mode (fesetround; the operands
** read through volatile after it, so nothing is computed before): every
** result of exec_round.c equals it bit for bit, f32 down to subnormals,
** f64 in its normal range. */
START_TEST(test_directed_rounding)
{
    uint64_t seed = 7;
    for (int i = 0; i < 100000; i++) {
        float a = (float)random_f64(&seed, -130, 120), b = (float)random_f64(&seed, -100, 100);
        double x = random_f64(&seed, -300, 300), y = random_f64(&seed, -300, 300), z = random_f64(&seed, -300, 300);
        if (i % 4 == 0) z = -x * y; /* an exact error, or an exact zero */
        for (int m = 0; m < 3; m++) {
            fesetround(MODES[m]);
            volatile float va = a, vb = b;
            volatile double vx = x, vy = y, vz = z;
            volatile float q32 = va / vb, r32 = 1.0f / va, s32 = sqrtf(fabsf(va));
            volatile double q64 = vx / vy, r64 = 1.0 / vx, s64 = sqrt(fabs(vx)), f64 = fma(vx, vy, vz);
            fesetround(FE_TONEAREST);
            CvtRound r = RNDS[m];
            ck_assert_msg(same_bits(exec_div_f32_dir(a, b, r), q32), "%a / %a mode %d", a, b, m);
            ck_assert_msg(same_bits(exec_div_f32_dir(1.0f, a, r), r32), "1 / %a mode %d", a, m);
            ck_assert_msg(same_bits(exec_sqrt_f32_dir(fabsf(a), r), s32), "sqrt %a mode %d", a, m);
            ck_assert_msg(same_bits(exec_div_f64(x, y, r), q64), "%a / %a mode %d", x, y, m);
            ck_assert_msg(same_bits(exec_div_f64(1.0, x, r), r64), "1 / %a mode %d", x, m);
            ck_assert_msg(same_bits(exec_sqrt_f64(fabs(x), r), s64), "sqrt %a mode %d", x, m);
            ck_assert_msg(same_bits(exec_fma_f64(x, y, z, r), f64), "fma %a %a %a mode %d", x, y, z, m);
        }
    }
    /* edges: overflow stops at the largest finite value toward zero, exact
    ** zeros keep IEEE's sign, division by zero and NaN pass through */
    ck_assert(same_bits(exec_div_f32_dir(3e38f, 1e-3f, RND_RZ), FLT_MAX));
    ck_assert(same_bits(exec_div_f32_dir(3e38f, 1e-3f, RND_RP), INFINITY));
    ck_assert(same_bits(exec_div_f64(-1e300, 1e-300, RND_RP), -DBL_MAX));
    ck_assert(same_bits(exec_div_f64(1.0, 0.0, RND_RZ), INFINITY));
    ck_assert(same_bits(exec_div_f64(0.0, -2.0, RND_RM), -0.0));
    ck_assert(same_bits(exec_fma_f64(1.0, 1.0, -1.0, RND_RM), -0.0));
    ck_assert(same_bits(exec_fma_f64(1.0, 1.0, -1.0, RND_RZ), 0.0));
    ck_assert(same_bits(exec_fma_f64(1e300, 1e300, -INFINITY, RND_RZ), -INFINITY));
    ck_assert(same_bits(exec_fma_f64(1e300, 1e300, 1.0, RND_RZ), DBL_MAX));
    ck_assert(isnan(exec_sqrt_f64(-1.0, RND_RP)));
    ck_assert(isnan(exec_sqrt_f32_dir(-1.0f, RND_RM)));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("exec_ptx");
    TCase *tc = tcase_create("printf");
    tcase_add_test(tc, test_printf);
    suite_add_tcase(s, tc);
    TCase *fn = tcase_create("functions");
    tcase_add_test(fn, test_device_functions);
    tcase_add_test(fn, test_struct_params);
    tcase_add_loop_test(fn, test_bad_calls, 0, (int)(sizeof BAD_CALLS / sizeof BAD_CALLS[0]));
    suite_add_tcase(s, fn);
    TCase *misc = tcase_create("hints_and_conversions");
    tcase_add_test(misc, test_prefetch_and_wide_cvt);
    tcase_add_test(misc, test_fp8_pairs);
    tcase_add_test(misc, test_hints_and_elect);
    tcase_add_test(misc, test_indirect_calls);
    tcase_add_test(misc, test_recursion);
    tcase_add_test(misc, test_wide_rows_by_halves);
    tcase_add_test(misc, test_shifts_by_immediates);
    tcase_add_test(misc, test_trap_assert_and_wide_calls);
    tcase_add_test(misc, test_block_scope_and_carries);
    tcase_add_test(misc, test_bar_red);
    tcase_add_test(misc, test_generic_atomics_and_envreg);
    tcase_add_test(misc, test_bmsk_szext);
    suite_add_tcase(s, misc);
    TCase *rnd = tcase_create("rounding");
    tcase_add_test(rnd, test_directed_rounding);
    suite_add_tcase(s, rnd);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
