/* tests/check_ptx_cub.c -- PTX forms that CUB's kernels (Thrust's
** algorithms, CUDA 13) write and ordinary kernels do not: a kernel
** parameter's address taken with mov.b64 (or copied from a register that
** holds one) and read through it by ld.param [%rd+d] (a struct passed by
** value), and an address computed from it at run time; and elect.sync whose lane destination is the sink _. Each
** kernel runs and its results are checked. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"
#include "isa/uniform.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* out[tid] = ctx.b + ctx.c, ctx a 24-byte struct parameter read through
** its address; lane 0 of the elected leaders adds 1000. */
static const char SRC[] =
    PTX_HEAD
    ".visible .entry k(.param .u64 k_out, .param .align 8 .b8 k_ctx[24])\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.b64 %rd1, k_ctx;\n"
    "  ld.param.u32 %r1, [%rd1+8];\n"
    "  mov.u64 %rd7, %rd1;\n  ld.param.u64 %rd2, [%rd7+16];\n" /* through a copy (CUB for sm_100) */
    "  cvt.u32.u64 %r2, %rd2;\n  add.s32 %r3, %r1, %r2;\n"
    "  mov.u32 %r4, -1;\n"
    "  {\n  .reg .pred P_OUT;\n  elect.sync _|P_OUT, %r4;\n  selp.b32 %r5, 1000, 0, P_OUT;\n  }\n"
    "  add.s32 %r3, %r3, %r5;\n"
    "  ld.param.u64 %rd3, [k_out];\n  cvta.to.global.u64 %rd4, %rd3;\n  mov.u32 %r6, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r6, 4;\n  add.s64 %rd6, %rd4, %rd5;\n  st.global.u32 [%rd6], %r3;\n  ret;\n}\n";

START_TEST(test_param_address_and_sink)
{
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(SRC, strlen(SRC), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    GlobalMem *g = gmem_create();
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0, 11, 22, 0xdead, 0, 300, 0 }; /* ctx at offset 8: b at +8, c at +16 */
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 32 * 4);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(o[l], 0xdead + 300 + (l == 0 ? 1000 : 0));
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* An address computed from a parameter's at run time (a __grid_constant__
** struct indexed by a register): out[tid] = ctx word tid % 4, then the
** byte at ctx + 3 sign-extended, and a read past the parameters, 0. */
START_TEST(test_param_address_at_run_time)
{
    static const char src[] =
        PTX_HEAD ".visible .entry k(.param .u64 k_out, .param .align 8 .b8 k_ctx[16])\n{\n"
                 "  .reg .b16 %rs<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<9>;\n"
                 "  mov.b64 %rd1, k_ctx;\n  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n  mul.wide.u32 %rd2, %r2, 4;\n"
                 "  add.s64 %rd3, %rd1, %rd2;\n  ld.param.u32 %r3, [%rd3];\n"
                 "  ld.param.s8 %rs1, [%rd1+3];\n  cvt.s32.s16 %r4, %rs1;\n  ld.param.u32 %r5, [%rd3+4000];\n"
                 "  ld.param.u64 %rd4, [k_out];\n  cvta.to.global.u64 %rd5, %rd4;\n  mul.wide.u32 %rd6, %r1, 12;\n"
                 "  add.s64 %rd7, %rd5, %rd6;\n  st.global.u32 [%rd7], %r3;\n  st.global.u32 [%rd7+4], %r4;\n"
                 "  st.global.u32 [%rd7+8], %r5;\n  ret;\n}\n";
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    ck_assert_msg(!p.kernels[0].refused, "%s", p.kernels[0].refused ? p.kernels[0].refused : "");
    GlobalMem *g = gmem_create();
    uint32_t out = gmem_alloc(g, 32 * 12, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0, 0xf0000010u, 20, 30, 40 }; /* ctx at offset 8 */
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 32 * 12);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(o[3 * l], params[2 + l % 4]);
        ck_assert_uint_eq(o[3 * l + 1], 0xfffffff0u); /* byte 3 of ctx, 0xf0, sign-extended */
        ck_assert_uint_eq(o[3 * l + 2], 0);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* The sink stands for elect.sync's lane alone. */
START_TEST(test_sink_elsewhere)
{
    static const char src[] = PTX_HEAD ".visible .entry k()\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n"
                                       "  mov.u32 %r1, 5;\n  shfl.sync.idx.b32 _|%p1, %r1, 0, 31, -1;\n  ret;\n}\n";
    Program p;
    Diag d;
    ck_assert(ptx_parse(src, strlen(src), "t.ptx", &p, &d));
    const char *why = p.kernels[0].refused;
    ck_assert_msg(why && strstr(why, "the sink '_' cannot stand for"), "%s", why ? why : "(accepted)");
    program_destroy(&p);
}
END_TEST

/* Two 16-lane tiles: lane l's member mask is its half. out[l] = the half's
** sum of l, + 1000 * any(l == 3) over the half, + 100 * all(l < 20) over
** the half, + 10000 when elect.sync over the half elects lane l (lanes 0
** and 16); out[32 + l] = the half's ballot of odd lanes. */
START_TEST(test_tile_member_masks)
{
    static const char src[] =
        PTX_HEAD ".visible .entry k(.param .u64 k_out)\n{\n  .reg .pred %p<5>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<5>;\n"
                 "  mov.u32 %r1, %laneid;\n  and.b32 %r2, %r1, 16;\n  mov.u32 %r3, 65535;\n  shl.b32 %r4, %r3, %r2;\n"
                 "  redux.sync.add.s32 %r5, %r1, %r4;\n"
                 "  setp.eq.u32 %p1, %r1, 3;\n  vote.sync.any.pred %p2, %p1, %r4;\n  selp.b32 %r6, 1000, 0, %p2;\n"
                 "  setp.lt.u32 %p3, %r1, 20;\n  vote.sync.all.pred %p4, %p3, %r4;\n  selp.b32 %r7, 100, 0, %p4;\n"
                 "  add.s32 %r8, %r5, %r6;\n  add.s32 %r8, %r8, %r7;\n"
                 "  elect.sync %r11|%p1, %r4;\n  selp.b32 %r9, 10000, 0, %p1;\n  add.s32 %r8, %r8, %r9;\n"
                 "  and.b32 %r9, %r1, 1;\n  setp.ne.u32 %p1, %r9, 0;\n  vote.sync.ballot.b32 %r10, %p1, %r4;\n"
                 "  ld.param.u64 %rd1, [k_out];\n  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.u32 %rd3, %r1, 4;\n"
                 "  add.s64 %rd4, %rd2, %rd3;\n  st.global.u32 [%rd4], %r8;\n  st.global.u32 [%rd4+128], %r10;\n  ret;\n}\n";
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    ck_assert_msg(!p.kernels[0].refused, "%s", p.kernels[0].refused ? p.kernels[0].refused : "");
    GlobalMem *g = gmem_create();
    uint32_t out = gmem_alloc(g, 64 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 64 * 4);
    for (uint32_t l = 0; l < 32; l++) {
        bool low = l < 16;
        ck_assert_uint_eq(o[l], (low ? 120u : 376u) + (low ? 1000u : 0u) + (low ? 100u : 0u) + (l % 16 ? 0u : 10000u));
        ck_assert_uint_eq(o[32 + l], low ? 0xaaaau : 0xaaaa0000u);
    }
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* elect.sync's predicate holds in one lane, and a reduction over member
** masks differs between tiles: neither is warp-uniform, even from an
** immediate mask, nor is what they feed (isa/uniform.c). */
START_TEST(test_elect_not_uniform)
{
    static const char src[] = PTX_HEAD ".visible .entry k(.param .u64 k_out)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n"
                                       "  .reg .b64 %rd<3>;\n  mov.u32 %r1, 7;\n  elect.sync %r2|%p1, -1;\n"
                                       "  selp.b32 %r3, 1, 0, %p1;\n  redux.sync.min.u32 %r4, %r1, -1;\n"
                                       "  add.s32 %r5, %r3, %r4;\n  ld.param.u64 %rd1, [k_out];\n"
                                       "  cvta.to.global.u64 %rd2, %rd1;\n  st.global.u32 [%rd2], %r5;\n  ret;\n}\n";
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "%s", d.message);
    const Kernel *k = &p.kernels[0];
    uint8_t *uni = malloc(k->ncode);
    ck_assert(uni && uniform_analyze(k, uni));
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        Opcode op = (Opcode)k->code[pc].op;
        if (op == OP_ELECT || op == OP_SELP || op == OP_REDUX_OP)
            ck_assert_msg(!uni[pc], "%s at pc %u found uniform", OP_INFO[op].mnemonic, pc);
    }
    free(uni);
    program_destroy(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_cub");
    TCase *c = tcase_create("Cub");
    tcase_add_test(c, test_param_address_and_sink);
    tcase_add_test(c, test_param_address_at_run_time);
    tcase_add_test(c, test_sink_elsewhere);
    tcase_add_test(c, test_tile_member_masks);
    tcase_add_test(c, test_elect_not_uniform);
    suite_add_tcase(s, c);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
