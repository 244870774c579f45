/* tests/check_exec_ptx.c -- the exec module on what nvcc writes for
** device printf: a PTX kernel with vprintf call sequences (isa/ptx.c reads
** it) run functionally, its text captured (isa/exec_printf.c). */
#include "isa/exec.h"

#include <check.h>
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

int main(void)
{
    Suite *s = suite_create("exec_ptx");
    TCase *tc = tcase_create("printf");
    tcase_add_test(tc, test_printf);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
