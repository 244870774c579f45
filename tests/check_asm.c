/* tests/check_asm.c -- the assembler (isa/asm.h) and disassembler
** (isa/disasm.h): every operand format, directives, the round trip
** asm -> disasm -> asm over every opcode, the bad-input corpus
** tests/asm_corpus (first error line pinned per file), and robustness
** against garbage, huge lines and huge kernels. The opcode table and
** isa/ISA.md: check_opcodes.                                            */
#include "isa/asm.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "tests/asm_helpers.h"

/* ------------------------------------------------------------------ Core */

/* One instruction per row: it must decode to `op` and print back as `canon`. */
static const struct {
    const char *src;
    Opcode      op;
    const char *canon;
} formats[] = {
    { "mov.u32 %r1, %tid.y", OP_MOV, "mov.u32 %r1, %tid.y" },
    { "mov %r1, 7", OP_MOV, "mov.b32 %r1, 7" },
    { "mov.f32 %r2, -1.5", OP_MOV, "mov.f32 %r2, -1.5" },
    { "mov.s32 %r3, -2147483648", OP_MOV, "mov.s32 %r3, 0x80000000" },
    { "mov.u32 %r4, 4294967295", OP_MOV, "mov.u32 %r4, -1" },
    { "mov.u32 %r4, tile", OP_MOV, "mov.u32 %r4, 16" },
    { "mov.u32 %r5, %nctaid.z", OP_MOV, "mov.u32 %r5, %nctaid.z" },
    { "ld.param.u32 %r0, [n]", OP_LD_PARAM, "ld.param.u32 %r0, [n]" },
    { "ld.param.f32 %r0, [ alpha ]", OP_LD_PARAM, "ld.param.f32 %r0, [alpha]" },
    { "selp.f32 %r1, 1.0, %r2, !%p3", OP_SELP, "selp.f32 %r1, 1.0, %r2, !%p3" },
    { "selp.s32 %r1, -1, 0, %p0", OP_SELP, "selp.s32 %r1, -1, 0, %p0" },
    { "add.s32 %r1, %r2, -3", OP_ADD_S32, "add.s32 %r1, %r2, -3" },
    { "add.u32 %r1,%r2,%r3;", OP_ADD_U32, "add.u32 %r1, %r2, %r3" },
    { "mad.lo.u32 %r1, %r2, %r3, 0xdeadbeef", OP_MAD_LO_U32, "mad.lo.u32 %r1, %r2, %r3, 0xdeadbeef" },
    { "mul.hi.s32 %r1, %r2, 010", OP_MUL_HI_S32, "mul.hi.s32 %r1, %r2, 8" },
    { "fma.rn.f32 %r1, %r2, 0.999, 0.5", OP_FMA_F32, "fma.rn.f32 %r1, %r2, 0.999, 0.5" },
    { "add.f32 %r1, %r2, 2", OP_ADD_F32, "add.f32 %r1, %r2, 2.0" },
    { "mul.f32 %r1, %r2, -0.0", OP_MUL_F32, "mul.f32 %r1, %r2, -0.0" },
    { "sin.approx.f32 %r1, 0f3F800000", OP_SIN_F32, "sin.approx.f32 %r1, 1.0" },
    { "ex2.approx.f32 %r1, -inf", OP_EX2_F32, "ex2.approx.f32 %r1, 0fFF800000" },
    { "cvt.rn.f32.s32 %r1, %r2", OP_CVT_F32_S32, "cvt.rn.f32.s32 %r1, %r2" },
    { "cvt.rzi.u32.f32 %r1, 1e10", OP_CVT_U32_F32, "cvt.rzi.u32.f32 %r1, 1e+10" },
    { "setp.lt.s32 %p1, %r1, %r2", OP_SETP_S32, "setp.lt.s32 %p1, %r1, %r2" },
    { "setp.s32.ge %p1, %r1, 5", OP_SETP_S32, "setp.ge.s32 %p1, %r1, 5" },
    { "setp.ne.f32 %p7, %r1, nan", OP_SETP_F32, "setp.ne.f32 %p7, %r1, 0f7FC00000" },
    { "setp.le.u32 %p2, %r1, 0xffffffff", OP_SETP_U32, "setp.le.u32 %p2, %r1, -1" },
    { "and.pred %p0, !%p1, %p2", OP_AND_PRED, "and.pred %p0, !%p1, %p2" },
    { "not.pred %p0, %p1", OP_NOT_PRED, "not.pred %p0, %p1" },
    { "ld.global.f32 %r1, [%r2+8]", OP_LD_GLOBAL, "ld.global.f32 %r1, [%r2+8]" },
    { "ld.global.f32 %r1, [ %r2 - 8 ]", OP_LD_GLOBAL, "ld.global.f32 %r1, [%r2-8]" },
    { "ld.global.u32 %r1, [65536]", OP_LD_GLOBAL, "ld.global.u32 %r1, [65536]" },
    { "ld.global.v4.f32 {%r1, %r2, %r3, %r4}, [%r8-16]", OP_LD_GLOBAL,
      "ld.global.v4.f32 {%r1, %r2, %r3, %r4}, [%r8-16]" },
    { "ld.v2.shared.b32 {%r1,%r2}, [tile+8]", OP_LD_SHARED, "ld.shared.v2.b32 {%r1, %r2}, [24]" },
    { "ld.shared.f32 %r1, [%r2+tile+4-8]", OP_LD_SHARED, "ld.shared.f32 %r1, [%r2+12]" },
    { "st.shared.v2.f32 [%r3+tile], {%r1, 0.5}", OP_ST_SHARED, "st.shared.v2.f32 [%r3+16], {%r1, 0.5}" },
    { "st.global.u32 [%r1], 7", OP_ST_GLOBAL, "st.global.u32 [%r1], 7" },
    { "st.global.v4.b32 [%r1], {%r2, %r3, 0, 1}", OP_ST_GLOBAL, "st.global.v4.b32 [%r1], {%r2, %r3, 0, 1}" },
    { "atom.global.add.u32 %r1, [%r2], 1", OP_ATOM_GLOBAL_U32, "atom.global.add.u32 %r1, [%r2], 1" },
    { "atom.global.cas.b32 %r1, [%r2+4], %r3, %r4", OP_ATOM_GLOBAL_U32,
      "atom.global.cas.u32 %r1, [%r2+4], %r3, %r4" },
    { "atom.global.min.s32 %r1, [%r2], -1", OP_ATOM_GLOBAL_S32, "atom.global.min.s32 %r1, [%r2], -1" },
    { "atom.shared.add.f32 %r1, [tile], 1.5", OP_ATOM_SHARED_F32, "atom.shared.add.f32 %r1, [16], 1.5" },
    { "atom.shared.exch.f32 %r1, [%r2], %r3", OP_ATOM_SHARED_F32, "atom.shared.exch.f32 %r1, [%r2], %r3" },
    { "shfl.sync.bfly.b32 %r1, %r2, 4", OP_SHFL, "shfl.sync.bfly.b32 %r1, %r2, 4, 31, -1" },
    { "shfl.sync.up.b32 %r1, %r2, 1", OP_SHFL, "shfl.sync.up.b32 %r1, %r2, 1, 0, -1" },
    { "shfl.sync.idx.b32 %r1, %r2, %r3, 0x181f, 0xffff", OP_SHFL, "shfl.sync.idx.b32 %r1, %r2, %r3, 6175, 65535" },
    { "shfl.sync.down.f32 %r1, %r2, 16, %r4", OP_SHFL, "shfl.sync.down.f32 %r1, %r2, 16, %r4, -1" },
    { "vote.sync.ballot.b32 %r1, !%p0", OP_VOTE_BALLOT, "vote.sync.ballot.b32 %r1, !%p0" },
    { "@!%p2 bra L", OP_BRA, "@!%p2 bra L" },
    { "@ %p2 bra L", OP_BRA, "@%p2 bra L" },
    { "bra.uni L", OP_BRA_UNI, "bra.uni L" },
    { "bar.sync", OP_BAR_SYNC, "bar.sync 0" },
    { "bar.sync 0;", OP_BAR_SYNC, "bar.sync 0" },
    { "@%p1 exit", OP_EXIT, "@%p1 exit" },
    { "\texit\t; // done", OP_EXIT, "exit" },
};

START_TEST(test_format)
{
    char src[512], text[256];
    snprintf(src, sizeof src,
             ".kernel k\n.param .u32 n\n.param .f32 alpha\n.shared pad 3\n.shared tile 64\n    %s\nL:  exit\n",
             formats[_i].src);
    Program p;
    must_assemble(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->ncode, 2);
    ck_assert_msg(k->code[0].op == formats[_i].op, "'%s' decoded as %s", formats[_i].src,
                  OP_INFO[k->code[0].op].mnemonic);
    ck_assert_uint_eq(k->code[0].line, 6);
    disasm_instr(k, &k->code[0], text, sizeof text);
    ck_assert_str_eq(text, formats[_i].canon);
    assert_round_trip(&p, false);
    program_destroy(&p);
}
END_TEST

START_TEST(test_operand_fields)
{
    Program p;
    must_assemble(".kernel k\n"
                  ".param .u32 n\n"
                  ".param .ptr out\n"
                  "    mov.s32 %r7, -1\n"                                 /* 0 */
                  "    mov.f32 %r1, 1.5\n"                                /* 1 */
                  "    mov.f32 %r1, -0.0\n"                               /* 2 */
                  "    mov.f32 %r1, 0f7F800001\n"                         /* 3 */
                  "    @!%p5 ld.global.v4.f32 {%r9, %r2, %r30, %r4}, [%r8-16]\n" /* 4 */
                  "    ld.param.u32 %r0, [out]\n"                         /* 5 */
                  "    shfl.sync.up.b32 %r1, %r2, 3\n"                    /* 6 */
                  "    atom.shared.cas.u32 %r1, [%r2], 5, %r3\n"          /* 7 */
                  "    setp.gt.f32 %p4, %r1, 2\n"                         /* 8 */
                  "    st.global.f32 [100], 3\n"                          /* 9 */
                  "    exit\n",
                  &p);
    const Instr *c = p.kernels[0].code;
    ck_assert_uint_eq(c[0].src[0].kind, OPND_IMM);
    ck_assert_uint_eq(c[0].src[0].value, 0xffffffffu);
    ck_assert_uint_eq(c[0].dst[0].index, 7);
    ck_assert_uint_eq(c[0].type, TYPE_S32);
    ck_assert_uint_eq(c[0].guard, ISA_NO_GUARD);
    ck_assert_uint_eq(c[1].src[0].value, 0x3fc00000u);
    ck_assert_uint_eq(c[2].src[0].value, 0x80000000u);
    ck_assert_uint_eq(c[3].src[0].value, 0x7f800001u); /* raw bits kept, even a signalling NaN */
    ck_assert_uint_eq(c[4].guard, 5);
    ck_assert_uint_eq(c[4].guard_neg, 1);
    ck_assert_uint_eq(c[4].vec, 4);
    ck_assert_uint_eq(c[4].ndst, 4);
    ck_assert_uint_eq(c[4].dst[0].index, 9);
    ck_assert_uint_eq(c[4].dst[2].index, 30);
    ck_assert_uint_eq(c[4].src[0].kind, OPND_REG);
    ck_assert_uint_eq(c[4].src[0].index, 8);
    ck_assert_int_eq(c[4].offset, -16);
    ck_assert_uint_eq(c[5].src[0].value, 1); /* parameter index */
    ck_assert_uint_eq(c[6].mod, SHFL_UP);
    ck_assert_uint_eq(c[6].nsrc, 4);
    ck_assert_uint_eq(c[6].src[2].value, 0); /* up: clamp 0 */
    ck_assert_uint_eq(c[6].src[3].value, 0xffffffffu);
    ck_assert_uint_eq(c[7].mod, ATOM_CAS);
    ck_assert_uint_eq(c[7].nsrc, 3);
    ck_assert_uint_eq(c[7].src[1].value, 5);
    ck_assert_uint_eq(c[7].src[2].kind, OPND_REG);
    ck_assert_uint_eq(c[8].mod, CMP_GT);
    ck_assert_uint_eq(c[8].dst[0].kind, OPND_PRED);
    ck_assert_uint_eq(c[8].dst[0].index, 4);
    ck_assert_uint_eq(c[8].src[1].value, 0x40000000u); /* integer 2 given to a float op: 2.0f */
    ck_assert_uint_eq(c[9].src[0].kind, OPND_IMM);     /* absolute address */
    ck_assert_uint_eq(c[9].src[0].value, 100);
    ck_assert_uint_eq(c[9].src[1].value, 0x40400000u);
    ck_assert_uint_eq(p.kernels[0].regs_used, 31);
    ck_assert_uint_eq(p.kernels[0].preds_used, 6);
    program_destroy(&p);
}
END_TEST

START_TEST(test_labels_comments)
{
    /* Comments anywhere, labels alone or before an instruction, several
    ** labels at one pc, CRLF line ends, tabs, semicolons, blank lines. */
    Program p;
    must_assemble("// leading comment\r\n"
                  "\r\n"
                  ".kernel k // the kernel\r\n"
                  "START:\r\n"
                  "ALSO_START:\t// two labels, one pc\r\n"
                  "\tsetp.eq.u32 %p0, %r1, 0 ;\r\n"
                  "  @%p0 bra   END_1  // forward\r\n"
                  "L$2 : add.u32 %r1, %r1, 1\r\n"
                  "    bra START\r\n"
                  "END_1: exit;// done\r\n"
                  "   // trailing comment without newline",
                  &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->ncode, 5);
    ck_assert_uint_eq(k->nlabels, 4);
    ck_assert_uint_eq(label_pc(k, "START"), 0);
    ck_assert_uint_eq(label_pc(k, "ALSO_START"), 0);
    ck_assert_uint_eq(label_pc(k, "L$2"), 2);
    ck_assert_uint_eq(label_pc(k, "END_1"), 4);
    ck_assert_uint_eq(k->code[1].target, 4);
    ck_assert_uint_eq(k->code[3].target, 0);
    ck_assert_uint_eq(k->code[1].line, 7);
    ck_assert_uint_eq(k->code[1].col, 3);
    ck_assert_uint_eq(k->code[2].col, 7);
    ck_assert_str_eq(kernel_label_at(k, 0), "START");
    ck_assert_ptr_null(kernel_label_at(k, 1));
    program_destroy(&p);
}
END_TEST

START_TEST(test_multiple_kernels)
{
    /* Labels, parameters and shared symbols belong to one kernel. */
    Program p;
    must_assemble(".kernel first\n"
                  ".param .u32 n\n"
                  ".shared s 8\n"
                  "L:  @%p0 bra L\n"
                  "    exit\n"
                  "\n"
                  ".entry second\n"
                  ".param .f32 n\n"
                  ".param .ptr q\n"
                  ".shared t 4\n"
                  ".shared s 32\n"
                  "    bra L\n"
                  "    mov.u32 %r9, 0\n"
                  "L:  mov.u32 %r1, s\n"
                  "    exit\n"
                  ".kernel third\n"
                  "    exit\n",
                  &p);
    ck_assert_uint_eq(p.nkernels, 3);
    ck_assert_str_eq(p.file, "test.asm");
    const Kernel *a = program_find_kernel(&p, "first"), *b = program_find_kernel(&p, "second"),
                 *c = program_find_kernel(&p, "third");
    ck_assert_ptr_eq(a, &p.kernels[0]);
    ck_assert_ptr_eq(b, &p.kernels[1]);
    ck_assert_ptr_eq(c, &p.kernels[2]);
    ck_assert_ptr_null(program_find_kernel(&p, "fourth"));
    ck_assert_uint_eq(a->line, 1);
    ck_assert_uint_eq(b->line, 7);
    ck_assert_uint_eq(c->line, 16);
    ck_assert_uint_eq(a->code[0].target, 0);
    ck_assert_uint_eq(b->code[0].target, 2);
    ck_assert_uint_eq(b->code[2].src[0].value, 16); /* second's s, after t */
    ck_assert_uint_eq(a->nparams, 1);
    ck_assert_uint_eq(a->params[0].type, TYPE_U32);
    ck_assert_uint_eq(b->nparams, 2);
    ck_assert_uint_eq(b->params[0].type, TYPE_F32);
    ck_assert(b->params[1].is_ptr);
    ck_assert_uint_eq(c->ncode, 1);
    ck_assert_uint_eq(c->regs_used, 0);
    assert_round_trip(&p, true);
    program_destroy(&p);
}
END_TEST

/* .regs overrides the register count occupancy sees, larger or smaller. */
static const struct {
    const char *directive;
    uint32_t    used, declared, per_thread;
} regs_cases[] = {
    { "", 13, 0, 13 },
    { ".regs 40\n", 13, 40, 40 },
    { ".regs 8\n", 13, 8, 8 },
    { ".regs 255\n", 13, 255, 255 },
};

START_TEST(test_regs)
{
    char src[256];
    snprintf(src, sizeof src, ".kernel k\n%s    mov.u32 %%r12, 0\n    add.u32 %%r3, %%r12, 1\n"
                              "    setp.eq.u32 %%p2, %%r3, 0\n    exit\n", regs_cases[_i].directive);
    Program p;
    must_assemble(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->regs_used, regs_cases[_i].used);
    ck_assert_uint_eq(k->regs_declared, regs_cases[_i].declared);
    ck_assert_uint_eq(kernel_regs_per_thread(k), regs_cases[_i].per_thread);
    ck_assert_uint_eq(k->preds_used, 3);
    program_destroy(&p);
}
END_TEST

START_TEST(test_regs_none)
{
    Program p;
    must_assemble(".kernel k\n    exit\n", &p);
    ck_assert_uint_eq(p.kernels[0].regs_used, 0);
    ck_assert_uint_eq(kernel_regs_per_thread(&p.kernels[0]), 1);
    program_destroy(&p);
    /* %r254 is the last register; guards count as predicates used. */
    must_assemble(".kernel k\n    @%p7 mov.u32 %r254, 0\n    exit\n", &p);
    ck_assert_uint_eq(p.kernels[0].regs_used, 255);
    ck_assert_uint_eq(p.kernels[0].preds_used, 8);
    program_destroy(&p);
}
END_TEST

/* Shared arrays: 16-byte aligned offsets in order, the dynamic one after them. */
static const struct {
    const char *decls;
    uint32_t    static_smem, dyn_offset;
    uint32_t    offsets[4];
} shared_cases[] = {
    { ".shared a 10\n.shared b 4\n.shared c 16\n.shared d\n", 48, 48, { 0, 16, 32, 48 } },
    { ".shared a 4096\n.shared b 4224\n", 8320, 8320, { 0, 4096 } },
    { ".shared d\n", 0, 0, { 0 } },
    { ".shared a 1\n.shared b 1\n.shared d\n", 17, 32, { 0, 16, 32 } },
    { "", 0, 0, { 0 } },
};

START_TEST(test_shared)
{
    char src[512];
    snprintf(src, sizeof src, ".kernel k\n%s    exit\n", shared_cases[_i].decls);
    Program p;
    must_assemble(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->static_smem, shared_cases[_i].static_smem);
    ck_assert_uint_eq(k->dynamic_smem_offset, shared_cases[_i].dyn_offset);
    for (uint32_t i = 0; i < k->nshared; i++)
        ck_assert_msg(k->shared[i].offset == shared_cases[_i].offsets[i], "%s at %u, expected %u", k->shared[i].name,
                      k->shared[i].offset, shared_cases[_i].offsets[i]);
    program_destroy(&p);
}
END_TEST

START_TEST(test_shared_symbols_in_code)
{
    /* A symbol stands for its array's offset, the dynamic one included, also
    ** when it is used after later declarations of the kernel. */
    Program p;
    must_assemble(".kernel k\n"
                  ".shared a 10\n"
                  ".shared b 4\n"
                  "    mov.u32 %r1, b\n"
                  ".shared dyn\n"
                  "    mov.u32 %r2, dyn\n"
                  "    ld.shared.v4.b32 {%r4, %r5, %r6, %r7}, [dyn-16+4+12]\n"
                  "    st.shared.u32 [%r1+dyn+8], %r2\n"
                  "    exit\n",
                  &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->dynamic_smem_offset, 32);
    ck_assert_uint_eq(k->code[0].src[0].value, 16);
    ck_assert_uint_eq(k->code[1].src[0].value, 32);
    ck_assert_uint_eq(k->code[2].src[0].kind, OPND_IMM);
    ck_assert_uint_eq(k->code[2].src[0].value, 32);
    ck_assert_int_eq(k->code[3].offset, 40);
    assert_round_trip(&p, true);
    program_destroy(&p);
}
END_TEST

START_TEST(test_symbols_like_numbers)
{
    /* inf and nan are numbers only as whole words. */
    Program p;
    must_assemble(".kernel k\n.shared info 8\n.shared nanos 8\n"
                  "    mov.u32 %r1, info\n    mov.u32 %r2, nanos\n    mov.f32 %r3, nan\n    exit\n",
                  &p);
    const Instr *c = p.kernels[0].code;
    ck_assert_uint_eq(c[0].src[0].value, 0);
    ck_assert_uint_eq(c[1].src[0].value, 16);
    ck_assert_uint_eq(c[2].src[0].value, 0x7fc00000u);
    program_destroy(&p);
}
END_TEST

START_TEST(test_params)
{
    Program p;
    must_assemble(".kernel k\n.param .ptr in\n.param .u32 n\n.param .s32 k\n.param .f32 alpha\n"
                  "    ld.param.f32 %r3, [alpha]\n    ld.param.s32 %r2, [k]\n    exit\n",
                  &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->nparams, 4);
    ck_assert(k->params[0].is_ptr);
    ck_assert_uint_eq(k->params[1].type, TYPE_U32);
    ck_assert_uint_eq(k->params[2].type, TYPE_S32);
    ck_assert_uint_eq(k->params[3].type, TYPE_F32);
    ck_assert_uint_eq(k->code[0].src[0].value, 3);
    ck_assert_uint_eq(k->code[1].src[0].value, 2);
    program_destroy(&p);
}
END_TEST

/* A program that uses every opcode (checked below), with branches, labels,
** guards, vector forms, symbols, parameters and every kind of immediate. */
static const char *const EVERY_OPCODE =
    ".kernel every\n"
    ".param .ptr buf\n"
    ".param .f32 alpha\n"
    ".param .s32 k\n"
    ".shared tile 256\n"
    ".shared dyn\n"
    ".regs 40\n"
    "    mov.u32         %r0, %tid.x\n"
    "    mov.f32         %r1, 1.5\n"
    "    ld.param.u32    %r2, [buf]\n"
    "    ld.param.f32    %r3, [alpha]\n"
    "    setp.lt.s32     %p0, %r0, 16\n"
    "    selp.s32        %r4, %r0, -1, !%p0\n"
    "    add.s32         %r5, %r4, -7\n"
    "    add.u32         %r5, %r5, 0x10\n"
    "    sub.s32         %r6, %r5, %r4\n"
    "    sub.u32         %r6, %r6, 1\n"
    "    mul.lo.s32      %r7, %r6, -3\n"
    "    mul.lo.u32      %r7, %r7, 3\n"
    "    mul.hi.s32      %r8, %r7, %r6\n"
    "    mul.hi.u32      %r8, %r8, 0xffffffff\n"
    "    mad.lo.s32      %r9, %r8, %r7, -1\n"
    "    mad.lo.u32      %r9, %r9, 5, %r0\n"
    "    div.s32         %r10, %r9, -2\n"
    "    div.u32         %r10, %r10, 3\n"
    "    rem.s32         %r11, %r9, 7\n"
    "    rem.u32         %r11, %r11, %r10\n"
    "    min.s32         %r12, %r11, -5\n"
    "    min.u32         %r12, %r12, 100\n"
    "    max.s32         %r13, %r12, %r11\n"
    "    max.u32         %r13, %r13, 1\n"
    "    abs.s32         %r14, %r13\n"
    "    neg.s32         %r14, %r14\n"
    "    and.b32         %r15, %r14, 0xff00\n"
    "    or.b32          %r15, %r15, 1\n"
    "    xor.b32         %r15, %r15, %r14\n"
    "    not.b32         %r16, %r15\n"
    "    shl.b32         %r16, %r16, 3\n"
    "    shr.u32         %r17, %r16, %r0\n"
    "    shr.s32         %r17, %r17, 33\n"
    "    popc.b32        %r18, %r17\n"
    "    clz.b32         %r18, %r18\n"
    "    add.f32         %r19, %r1, 0.25\n"
    "    sub.f32         %r19, %r19, -1e-3\n"
    "    mul.f32         %r19, %r19, %r3\n"
    "    fma.rn.f32      %r20, %r19, 0.999, 0.5\n"
    "    mad.f32         %r20, %r20, %r19, -0.0\n"
    "    min.f32         %r21, %r20, inf\n"
    "    max.f32         %r21, %r21, -inf\n"
    "    abs.f32         %r22, %r21\n"
    "    neg.f32         %r22, %r22\n"
    "    div.rn.f32      %r23, %r22, 3\n"
    "    rcp.approx.f32  %r24, %r23\n"
    "    sqrt.approx.f32 %r24, %r24\n"
    "    rsqrt.approx.f32 %r24, 0f40800000\n"
    "    ex2.approx.f32  %r25, %r24\n"
    "    lg2.approx.f32  %r25, %r25\n"
    "    sin.approx.f32  %r26, %r25\n"
    "    cos.approx.f32  %r26, 3.14159265\n"
    "    cvt.rn.f32.s32  %r27, %r9\n"
    "    cvt.rn.f32.u32  %r27, %r27\n"
    "    cvt.rzi.s32.f32 %r28, %r26\n"
    "    cvt.rzi.u32.f32 %r28, 1e10\n"
    "    cvt.rni.s32.f32 %r28, -2.5\n"
    "    setp.ge.u32     %p1, %r28, 7\n"
    "    setp.ne.f32     %p2, %r26, nan\n"
    "    and.pred        %p3, %p1, !%p2\n"
    "    or.pred         %p3, !%p3, %p0\n"
    "    xor.pred        %p4, %p3, %p1\n"
    "    not.pred        %p5, !%p4\n"
    "    shl.b32         %r29, %r0, 4\n"
    "    add.u32         %r29, %r29, %r2\n"
    "    ld.global.f32   %r30, [%r29+4]\n"
    "    ld.global.v2.u32 {%r30, %r31}, [%r29-8]\n"
    "    ld.global.v4.f32 {%r32, %r33, %r34, %r35}, [%r29]\n"
    "    st.global.f32   [%r29], %r30\n"
    "    st.global.v4.f32 [%r29+16], {%r32, 1.0, -2.5, %r35}\n"
    "    st.shared.v2.b32 [%r0+tile], {%r30, %r31}\n"
    "    ld.shared.s32   %r36, [tile+4]\n"
    "    ld.shared.v4.b32 {%r32, %r33, %r34, %r35}, [%r0+dyn]\n"
    "    st.shared.u32   [dyn], 0xffff\n"
    "    atom.global.add.u32 %r37, [%r2], 1\n"
    "    atom.global.min.u32 %r37, [%r2+4], %r0\n"
    "    atom.global.max.u32 %r37, [%r2+4], %r0\n"
    "    atom.global.exch.u32 %r37, [%r2+8], 5\n"
    "    atom.global.cas.u32 %r37, [%r2+12], 0, %r0\n"
    "    atom.global.add.s32 %r37, [%r2], -1\n"
    "    atom.global.min.s32 %r37, [%r2], -1\n"
    "    atom.global.max.s32 %r37, [%r2], -1\n"
    "    atom.global.add.f32 %r37, [%r2], 0.5\n"
    "    atom.global.exch.f32 %r37, [%r2], %r1\n"
    "    atom.shared.add.u32 %r38, [tile], 1\n"
    "    atom.shared.cas.u32 %r38, [%r0+tile], %r38, 7\n"
    "    atom.shared.max.s32 %r38, [tile+8], -9\n"
    "    atom.shared.add.f32 %r38, [tile+12], -1.5\n"
    "    shfl.sync.idx.b32 %r39, %r38, 0\n"
    "    shfl.sync.up.b32 %r39, %r39, 1\n"
    "    shfl.sync.down.b32 %r39, %r39, 2, 0x101f\n"
    "    shfl.sync.bfly.b32 %r39, %r39, %r0, 31, 0xffffffff\n"
    "    vote.sync.ballot.b32 %r39, %p5\n"
    "    bar.sync        0\n"
    "    @%p5 exit\n"
    "    mov.u32         %r0, 0\n"
    "LOOP:\n"
    "    setp.ge.s32     %p6, %r0, %r5\n"
    "    @%p6 bra        DONE\n"
    "    @!%p1 bra       SKIP\n"
    "    add.s32         %r0, %r0, 2\n"
    "SKIP: add.s32       %r0, %r0, 1\n"
    "    bra             LOOP\n"
    "DONE:\n"
    "    @%p7 bra.uni    END\n"
    "    mov.u32         %r1, %laneid\n"
    "END:\n"
    "    exit\n";

START_TEST(test_round_trip_every_opcode)
{
    Program p;
    must_assemble(EVERY_OPCODE, &p);
    const Kernel *k = &p.kernels[0];
    bool seen[OP_COUNT] = { false };
    for (uint32_t pc = 0; pc < k->ncode; pc++) seen[k->code[pc].op] = true;
    for (int op = 0; op < OP_COUNT; op++) /* PTX-only rows: tests/check_ptx.c */
        ck_assert_msg(seen[op] || (OP_INFO[op].flags & OPF_PTX), "the round-trip program does not use %s", OP_INFO[op].mnemonic);
    assert_round_trip(&p, false);
    assert_round_trip(&p, true);
    program_destroy(&p);
}
END_TEST

static const char *const workload_files[] = {
    TESTS_DIR "/../workloads/kernels/divergence.asm",
    TESTS_DIR "/../workloads/kernels/transpose.asm",
};

START_TEST(test_round_trip_workloads)
{
    Program p;
    Diag d;
    bool ok = asm_parse_file(workload_files[_i], &p, &d);
    ck_assert_msg(ok, "%s:%u:%u: %s", d.file, d.line, d.col, d.message);
    ck_assert_str_eq(p.file, workload_files[_i]);
    ck_assert_uint_ge(p.nkernels, 2);
    assert_round_trip(&p, true);
    program_destroy(&p);
}
END_TEST

/* -------------------------------------------------------------- BadInput */

/* Bad inputs that are awkward as corpus files (NUL bytes, lone CRs, bytes
** above 0x7f) or that check positions precisely: source with its length,
** first error "line:col: error: message". */
#define S(lit) lit, sizeof(lit) - 1
static const struct {
    const char *src;
    size_t      len;
    const char *expect;
} bad_cases[] = {
    { S(".kernel k\n    mov.u32 %r1, 0\0\n    exit\n"),
      "2:19: error: unexpected '\\x00' after the operands of 'mov'" },
    { S(".kernel k\n\0\n"),
      "2:1: error: expected an instruction, a label or a directive, found '\\x00'" },
    { S(".kernel k\n    mov.u32 %r1,\r 0\n    exit\n"),
      "2:17: error: expected a number, found '\\x0d'" },
    { S(".kernel k\n    mov.u32 %r1, \xc3\xa9t\xc3\xa9\n    exit\n"),
      "2:18: error: expected a number, found '\\xc3\\xa9t\\xc3\\xa9'" },
    { S(".kernel k\n\tadd.s32\t%r1,\t%r2,\t%r400\n\texit\n"),
      "2:20: error: register %r400 out of range (%r0..%r254)" },
    { S(".kernel k\n    mov.u32 %r99999999999, 0\n    exit\n"),
      "2:13: error: register %r99999999999 out of range (%r0..%r254)" },
    { S(".kernel k\n    @%p9 exit\n    exit\n"),
      "2:6: error: predicate %p9 out of range (%p0..%p7)" },
    { S(".kernel k\n    bra.uni SELF\nSELF: bra SELF\n    exit\n"),
      "3:7: error: this branch closes a loop that never reaches 'exit' in kernel 'k' (the loop starts at line 3): it is an endless loop" },
    { S(".kernel k\n    ld.global.f32 %r1, [%r2+2147483648]\n    exit\n"),
      "2:40: error: address displacement out of range" },
    { S(".kernel k\n    exit\n.kernel j\n.shared s 16777216\n.shared t 16\n    exit\n"),
      "5:11: error: static shared memory above 16 MiB" },
    { S(".kernel k\n    shfl.sync.up.b32 %r1, %r2, %p0\n    exit\n"),
      "2:32: error: a predicate cannot be used here; expected a register or an immediate" },
    { S(".kernel k\n    st.global.v2.f32 [%r1], {%r2, 1.0, 2.0}\n    exit\n"),
      "2:38: error: too many values in the list: .v2 takes 2" },
    { S(".kernel k\n    ld.global.f32 %r1, [%r2\n    exit\n"),
      "2:28: error: expected ']' to close the memory operand, found 'end of line'" },
    { S(".kernel k\n    vote.sync.ballot.b32 %r1, %r2\n    exit\n"),
      "2:31: error: expected a predicate %p0..%p7, found '%r2'" },
    { S(".kernel k\n    selp.u32 %r1, 1, 2, !%r3\n    exit\n"),
      "2:26: error: expected a predicate %p0..%p7, found '%r3'" },
    { S("\n\n\n"),
      "1:1: error: no kernel in file; a program starts with '.kernel NAME'" },
};

START_TEST(test_bad_input)
{
    char msg[sizeof ((Diag *)0)->message + 64];
    first_error(bad_cases[_i].src, bad_cases[_i].len, msg, sizeof msg);
    ck_assert_str_eq(msg, bad_cases[_i].expect);
}
END_TEST

START_TEST(test_bad_file)
{
    Program p;
    Diag d;
    ck_assert(!asm_parse_file(TESTS_DIR "/asm_corpus/no_such_file.asm", &p, &d));
    ck_assert_ptr_null(p.kernels);
    ck_assert_uint_eq(d.line, 0);
    ck_assert_str_eq(d.file, TESTS_DIR "/asm_corpus/no_such_file.asm");
    ck_assert_msg(strncmp(d.message, "cannot open: ", 13) == 0, "%s", d.message);
}
END_TEST

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tests/asm_corpus: each X.asm fails to assemble, and the first error,
** printed as the CLI prints it with the file named "X.asm", is the single
** line of X.expected. */
START_TEST(test_corpus)
{
    const char *dir = TESTS_DIR "/asm_corpus";
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "cannot open %s", dir);
    char *names[512];
    uint32_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".asm") == 0 && n < 512) names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof names[0], cmp_names);
    ck_assert_uint_ge(n, 30);
    uint32_t failures = 0;
    for (uint32_t i = 0; i < n; i++) {
        char path[1024], expected_path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(expected_path, sizeof expected_path, "%s/%.*s.expected", dir, (int)(strlen(names[i]) - 4), names[i]);
        size_t len;
        char *src = read_text(path, &len);
        char *expected = read_text(expected_path, NULL);
        size_t el = strlen(expected);
        while (el && (expected[el - 1] == '\n' || expected[el - 1] == '\r')) expected[--el] = 0;
        ck_assert_msg(strchr(expected, '\n') == NULL, "%s holds more than one line", expected_path);
        Program p;
        Diag d;
        char *got = NULL;
        size_t got_len = 0;
        if (asm_parse(src, len, names[i], &p, &d)) {
            program_destroy(&p);
            got = strdup("(assembled without error)");
        } else {
            FILE *f = open_memstream(&got, &got_len);
            diag_print(f, &d);
            fclose(f);
            if (got_len && got[got_len - 1] == '\n') got[got_len - 1] = 0;
        }
        if (strcmp(got, expected) != 0) {
            fprintf(stderr, "asm_corpus/%s:\n  expected: %s\n  got:      %s\n", names[i], expected, got);
            failures++;
        }
        free(got);
        free(src);
        free(expected);
        free(names[i]);
    }
    ck_assert_msg(failures == 0, "%u of %u corpus cases differ (listed on stderr)", failures, n);
}
END_TEST

/* ------------------------------------------------------------------ Edge */

START_TEST(test_empty_and_comments)
{
    char msg[sizeof ((Diag *)0)->message + 64];
    first_error("", 0, msg, sizeof msg);
    ck_assert_str_eq(msg, "1:1: error: no kernel in file; a program starts with '.kernel NAME'");
    first_error(NULL, 0, msg, sizeof msg);
    ck_assert_str_eq(msg, "1:1: error: no kernel in file; a program starts with '.kernel NAME'");
    const char *only = "// only comments\n   // and spaces\n\t\n//\n";
    first_error(only, strlen(only), msg, sizeof msg);
    ck_assert_str_eq(msg, "1:1: error: no kernel in file; a program starts with '.kernel NAME'");
}
END_TEST

/* Structural sanity of a diagnostic for an input of `lines` lines. */
static void assert_sane_diag(const Diag *d, uint32_t lines, const char *what, uint32_t iter)
{
    ck_assert_msg(d->line >= 1 && d->line <= lines + 1, "%s %u: line %u of %u", what, iter, d->line, lines);
    ck_assert_msg(d->col >= 1, "%s %u: col 0", what, iter);
    ck_assert_msg(d->message[0] != 0, "%s %u: empty message", what, iter);
    ck_assert_msg(strlen(d->message) < sizeof d->message - 1, "%s %u: message truncated", what, iter);
}

START_TEST(test_random_garbage)
{
    /* Seeded random buffers of random length with NUL bytes: never a crash,
    ** never a success, always a position. */
    static const char ASMISH[] = "\n .%@![]{},+-:;/0123456789abcdefprx\t\r\0"; /* ends in a NUL byte */
    uint64_t s = 0x9e3779b97f4a7c15ull;
    enum { ROUNDS = 3000, MAXLEN = 1500 };
    char *buf = malloc(MAXLEN);
    ck_assert_ptr_nonnull(buf);
    for (uint32_t it = 0; it < ROUNDS; it++) {
        size_t len = (size_t)(rnd(&s) % MAXLEN);
        uint32_t mode = (uint32_t)(rnd(&s) % 3);
        for (size_t i = 0; i < len; i++) {
            uint64_t r = rnd(&s);
            if (mode == 0) buf[i] = (char)(r & 0xff);                 /* any byte */
            else if (mode == 1) buf[i] = ASMISH[r % (sizeof ASMISH - 1)];
            else buf[i] = (r % 8 == 0) ? '\n' : (char)(32 + r % 95); /* printable lines */
        }
        uint32_t lines = 1;
        for (size_t i = 0; i < len; i++) lines += buf[i] == '\n';
        Program p;
        Diag d;
        memset(&d, 0, sizeof d);
        bool ok = asm_parse(buf, len, "garbage.asm", &p, &d);
        ck_assert_msg(!ok, "random buffer %u assembled", it);
        ck_assert_ptr_null(p.kernels);
        assert_sane_diag(&d, lines, "random buffer", it);
    }
    free(buf);
}
END_TEST

START_TEST(test_mutated_programs)
{
    /* A few random byte edits of a real program: either an error with a sane
    ** position, or a program that disassembles and reassembles. */
    size_t len;
    char *orig = read_text(TESTS_DIR "/../workloads/kernels/divergence.asm", &len);
    char *buf = malloc(len + 16);
    ck_assert_ptr_nonnull(buf);
    uint64_t s = 12345;
    uint32_t accepted = 0;
    for (uint32_t it = 0; it < 1500; it++) {
        memcpy(buf, orig, len);
        size_t n = len;
        uint32_t edits = 1 + (uint32_t)(rnd(&s) % 6);
        for (uint32_t e = 0; e < edits && n > 1; e++) {
            size_t at = (size_t)(rnd(&s) % n);
            uint64_t r = rnd(&s);
            switch (r % 3) {
            case 0: buf[at] = (char)(r >> 8); break;                          /* replace */
            case 1: memmove(buf + at, buf + at + 1, n - at - 1), n--; break; /* delete  */
            default: buf[at] = "%.,[]{}@!:0x \n"[(r >> 8) % 14]; break;      /* punctuate */
            }
        }
        uint32_t lines = 1;
        for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
        Program p;
        Diag d;
        if (asm_parse(buf, n, "mutant.asm", &p, &d)) {
            accepted++;
            assert_round_trip(&p, true);
            program_destroy(&p);
        } else {
            assert_sane_diag(&d, lines, "mutant", it);
        }
    }
    ck_assert_uint_lt(accepted, 1500); /* the edits do break programs */
    free(buf);
    free(orig);
}
END_TEST

#define TEN_MB (10u << 20)

/* A 10 MB line in four shapes: spaces before a comment (valid), one long
** identifier, one long number, one long comment with no kernel. */
START_TEST(test_ten_megabyte_line)
{
    char *buf = malloc(TEN_MB + 256);
    ck_assert_ptr_nonnull(buf);
    char msg[sizeof ((Diag *)0)->message + 64];
    Program p;
    Diag d;
    size_t n;

    n = (size_t)sprintf(buf, ".kernel k\n    mov.u32 %%r1, 0");
    memset(buf + n, ' ', TEN_MB);
    n += TEN_MB;
    n += (size_t)sprintf(buf + n, "// comment\n    exit\n");
    ck_assert(asm_parse(buf, n, "long.asm", &p, &d));
    ck_assert_uint_eq(p.kernels[0].ncode, 2);
    program_destroy(&p);

    n = (size_t)sprintf(buf, ".kernel k\n    ");
    memset(buf + n, 'a', TEN_MB);
    n += TEN_MB;
    n += (size_t)sprintf(buf + n, "\n    exit\n");
    first_error(buf, n, msg, sizeof msg);
    ck_assert_str_eq(msg, "2:5: error: unknown instruction 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");

    n = (size_t)sprintf(buf, ".kernel k\n    mov.u32 %%r1, ");
    memset(buf + n, '7', TEN_MB);
    n += TEN_MB;
    first_error(buf, n, msg, sizeof msg);
    ck_assert_str_eq(msg, "2:18: error: expected a number, found '77777777777777777777777777777777'");

    n = (size_t)sprintf(buf, "//");
    memset(buf + n, 'c', TEN_MB);
    n += TEN_MB;
    first_error(buf, n, msg, sizeof msg);
    ck_assert_str_eq(msg, "1:1: error: no kernel in file; a program starts with '.kernel NAME'");

    /* an error far along the line has its true column */
    n = (size_t)sprintf(buf, ".kernel k\n    exit");
    memset(buf + n, ' ', TEN_MB);
    n += TEN_MB;
    buf[n++] = '#';
    first_error(buf, n, msg, sizeof msg);
    char expect[128];
    snprintf(expect, sizeof expect, "2:%u: error: unexpected '#' after the operands of 'exit'", TEN_MB + 9);
    ck_assert_str_eq(msg, expect);
    free(buf);
}
END_TEST

START_TEST(test_huge_kernel)
{
    /* 200,000 instructions with a label and a divergent branch every four:
    ** label definition and lookup must not be quadratic. */
    enum { BLOCKS = 50000 };
    size_t cap = (size_t)BLOCKS * 160 + 64, n = 0;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    n += (size_t)sprintf(src + n, ".kernel big\n");
    for (uint32_t i = 0; i < BLOCKS; i++)
        n += (size_t)sprintf(src + n,
                             "L%u:\n    setp.lt.u32 %%p0, %%r1, %u\n    @%%p0 bra L%u\n"
                             "    add.u32 %%r1, %%r1, 1\n    add.u32 %%r2, %%r1, %%r2\n",
                             i, i, i + 1);
    n += (size_t)sprintf(src + n, "L%u: exit\n", BLOCKS);
    ck_assert_uint_lt(n, cap);
    Program p;
    Diag d;
    bool ok = asm_parse(src, n, "big.asm", &p, &d);
    ck_assert_msg(ok, "%u:%u: %s", d.line, d.col, d.message);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->ncode, 4 * BLOCKS + 1);
    ck_assert_uint_eq(k->nlabels, BLOCKS + 1);
    ck_assert_uint_eq(k->code[1].target, 4);
    ck_assert_uint_eq(k->code[1].reconv, 4);
    ck_assert_uint_eq(k->code[4 * BLOCKS - 3].target, 4 * BLOCKS);
    ck_assert_str_eq(kernel_label_at(k, 4 * 31337), "L31337");
    assert_round_trip(&p, false);
    program_destroy(&p);
    free(src);
}
END_TEST

START_TEST(test_many_lines)
{
    /* An error on line 300,001 after 300,000 comment and blank lines. */
    size_t cap = 300000 * 4 + 64, n = 0;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    n += (size_t)sprintf(src, ".kernel k\n");
    for (uint32_t i = 1; i < 300000; i++) {
        memcpy(src + n, i % 2 ? "//\n" : "\n", i % 2 ? 3 : 1);
        n += i % 2 ? 3 : 1;
    }
    n += (size_t)sprintf(src + n, "  nop\n");
    char msg[sizeof ((Diag *)0)->message + 64];
    first_error(src, n, msg, sizeof msg);
    ck_assert_str_eq(msg, "300001:3: error: unknown instruction 'nop'; did you mean 'mov'?");
    free(src);
}
END_TEST

static Suite *asm_suite(void)
{
    Suite *s = suite_create("asm");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_format, 0, (int)(sizeof formats / sizeof formats[0]));
    tcase_add_test(core, test_operand_fields);
    tcase_add_test(core, test_labels_comments);
    tcase_add_test(core, test_multiple_kernels);
    tcase_add_loop_test(core, test_regs, 0, (int)(sizeof regs_cases / sizeof regs_cases[0]));
    tcase_add_test(core, test_regs_none);
    tcase_add_loop_test(core, test_shared, 0, (int)(sizeof shared_cases / sizeof shared_cases[0]));
    tcase_add_test(core, test_shared_symbols_in_code);
    tcase_add_test(core, test_symbols_like_numbers);
    tcase_add_test(core, test_params);
    tcase_add_test(core, test_round_trip_every_opcode);
    tcase_add_loop_test(core, test_round_trip_workloads, 0, (int)(sizeof workload_files / sizeof workload_files[0]));
    suite_add_tcase(s, core);



    TCase *bad = tcase_create("BadInput");
    tcase_add_loop_test(bad, test_bad_input, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(bad, test_bad_file);
    tcase_add_test(bad, test_corpus);
    suite_add_tcase(s, bad);

    TCase *edge = tcase_create("Edge");
    tcase_set_timeout(edge, 60);
    tcase_add_test(edge, test_empty_and_comments);
    tcase_add_test(edge, test_random_garbage);
    tcase_add_test(edge, test_mutated_programs);
    tcase_add_test(edge, test_ten_megabyte_line);
    tcase_add_test(edge, test_huge_kernel);
    tcase_add_test(edge, test_many_lines);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(asm_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
