/* tests/check_ptx_cache_ops.c -- which global loads L1 serves (INSTR_L2_ONLY
** off) and which go to L2 alone: .cg and .cv, .volatile, and the strong
** loads of gpu or system scope, which SASS issues as LDG.E.STRONG.GPU/.SYS
** (L1 is not coherent across SMs); a cta-scope strong load, the default
** (.ca), .cs, .lu, .nc and ld.const may hit L1; stores are not loads. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char SRC[] =
    PTX_HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"             /* line 8 */
    "  ld.global.u32 %r1, [%rd1];\n"          /* 9: L1 */
    "  ld.global.ca.u32 %r2, [%rd1];\n"       /* 10: L1 */
    "  ld.global.cg.u32 %r3, [%rd1];\n"       /* 11: L2 */
    "  ld.global.cv.u32 %r4, [%rd1];\n"       /* 12: L2 */
    "  ld.global.cs.u32 %r5, [%rd1];\n"       /* 13: L1 */
    "  ld.global.lu.u32 %r6, [%rd1];\n"       /* 14: L1 */
    "  ld.global.nc.u32 %r7, [%rd1];\n"       /* 15: L1 */
    "  ld.volatile.global.u32 %r8, [%rd1];\n" /* 16: L2 */
    "  ld.relaxed.gpu.global.u32 %r9, [%rd1];\n"  /* 17: L2 */
    "  ld.acquire.sys.global.u32 %r10, [%rd1];\n" /* 18: L2 */
    "  ld.relaxed.cta.global.u32 %r11, [%rd1];\n" /* 19: L1 */
    "  ld.acquire.gpu.u32 %r12, [%rd1];\n"        /* 20: generic, L2 */
    "  ld.global.cg.v4.u32 {%r13, %r14, %r15, %r16}, [%rd1];\n" /* 21: L2 */
    "  st.global.cg.u32 [%rd1], %r1;\n"       /* 22: a store */
    "  ld.volatile.shared.u32 %r17, [%r1];\n" /* 23: shared memory */
    "  ret;\n}\n";

static bool l2_only_at(const Kernel *k, uint32_t line)
{
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].line == line && k->code[pc].slots) return (k->code[pc].iflags & INSTR_L2_ONLY) != 0;
    ck_abort_msg("no instruction at line %u", line);
    return false;
}

START_TEST(test_which_loads_skip_l1)
{
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(SRC, strlen(SRC), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    const Kernel *k = &p.kernels[0];
    static const uint32_t L1[] = { 9, 10, 13, 14, 15, 19, 22, 23 }, L2[] = { 11, 12, 16, 17, 18, 20, 21 };
    for (size_t i = 0; i < sizeof L1 / sizeof L1[0]; i++) ck_assert_msg(!l2_only_at(k, L1[i]), "line %u", L1[i]);
    for (size_t i = 0; i < sizeof L2 / sizeof L2[0]; i++) ck_assert_msg(l2_only_at(k, L2[i]), "line %u", L2[i]);
    program_destroy(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_cache_ops");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_which_loads_skip_l1);
    suite_add_tcase(s, c);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
