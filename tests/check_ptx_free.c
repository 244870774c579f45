/* tests/check_ptx_free.c -- the PTX instructions the front end times as
** free (isa/ptx_decode.c ptx_emit, ptx_set_free): what ptxas folds into a
** neighbour or makes vanish in register allocation takes no issue slot. A
** decoder that marks one free must not see it costed from the opcode
** table instead (UNIT_ALU is 0, so "free" once read as "not set" and every
** such instruction took the table's slot): a zero-extension and a
** truncation by cvt, unpacking a register into its 16-bit halves, and the
** choice of callee at an indirect call, beside what keeps its cost. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/ptx.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char SRC[] =
    PTX_HEAD
    ".func (.param .b32 f1_ret) f1(.param .b32 f1_a)\n{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [f1_a];\n"
    "  add.s32 %r2, %r1, 100;\n  st.param.b32 [f1_ret], %r2;\n  ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .b16 %h<3>;\n"
    "  ld.param.u64 %rd1, [p];\n"                 /* line 17 */
    "  mov.u32 %r1, %tid.x;\n"                    /* 18 */
    "  cvt.u64.u32 %rd2, %r1;\n"                  /* 19: zero-extension, free */
    "  cvt.u32.u64 %r2, %rd2;\n"                  /* 20: truncation, free */
    "  cvt.s64.s32 %rd3, %r2;\n"                  /* 21: sign-extension, one SHF */
    "  mov.b32 {%h1, %h2}, %r2;\n"                /* 22: the halves, free */
    "  mov.u64 %rd4, f1;\n"                       /* 23 */
    "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n  .param .b32 retval0;\n"
    "  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (retval0), %rd4, (param0), prototype_0;\n" /* 29: its choice of callee, free */
    "  ld.param.b32 %r3, [retval0];\n  }\n  ret;\n}\n";

/* The slots of every instruction of k at PTX line `line`, summed; *n of them. */
static uint32_t slots_at(const Kernel *k, uint32_t line, uint32_t *n)
{
    uint32_t s = 0;
    *n = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].line == line && !k->code[pc].call_line) {
            s += k->code[pc].slots;
            if (k->code[pc].op != OP_BRA) ++*n;
        }
    return s;
}

START_TEST(test_free_is_free)
{
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(SRC, strlen(SRC), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    const Kernel *k = &p.kernels[0];
    uint32_t n;
    ck_assert_uint_eq(slots_at(k, 18, &n), 1); /* what keeps its cost: a S2R */
    ck_assert_uint_eq(slots_at(k, 19, &n), 0);
    ck_assert_uint_ge(n, 1);
    ck_assert_uint_eq(slots_at(k, 20, &n), 0);
    ck_assert_uint_eq(slots_at(k, 21, &n), 1);
    ck_assert_uint_eq(slots_at(k, 22, &n), 0);
    ck_assert_uint_eq(n, 2); /* and + shift, both free */
    /* the indirect call: its compares are free, the guarded branch around
    ** the inlined body is the CALL's one slot */
    uint32_t call_slots = 0, branches = 0, compares = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        if (in->line != 29 || in->call_line) continue;
        if (in->op == OP_BRA) branches++, call_slots += in->slots;
        else compares++, ck_assert_msg(in->slots == 0, "pc %u (op %u) takes %u slots", pc, in->op, in->slots);
    }
    ck_assert_uint_ge(compares, 2);
    ck_assert_uint_eq(branches, 1);
    ck_assert_uint_eq(call_slots, 1);
    program_destroy(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_free");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_free_is_free);
    suite_add_tcase(s, c);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
