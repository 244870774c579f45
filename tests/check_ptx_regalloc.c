/* tests/check_ptx_regalloc.c -- the PTX front end's register rows
** (isa/ptx_regalloc.c): rows follow what is live, not what is declared;
** values live around loops and through out-of-line blocks keep theirs; the
** kernels run right on the rows they got. */
#include "isa/ptx.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/gmem.h"
#include "isa/grid.h"

static void parse_ok(const char *src, Program *p)
{
    Diag d;
    bool ok = ptx_parse(src, strlen(src), "t.ptx", p, &d);
    ck_assert_msg(ok, "t.ptx:%u:%u: %s\n%s", d.line, d.col, d.message, src);
}

/* %r<5000> declared, a chain of 3000 temporaries each used once: the rows
** follow what is live (a handful), not what is declared. */
START_TEST(test_rows_follow_liveness)
{
    size_t cap = 200000, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len,
                            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0)\n{\n"
                            "  .reg .b32 %%r<5000>;\n  .reg .b64 %%rd<3>;\n  mov.u32 %%r0, %%tid.x;\n");
    for (int i = 1; i <= 3000; i++) len += (size_t)snprintf(src + len, cap - len, "  add.s32 %%r%d, %%r%d, 1;\n", i, i - 1);
    len += (size_t)snprintf(src + len, cap - len,
                            "  ld.param.u64 %%rd1, [k_param_0];\n  cvta.to.global.u64 %%rd2, %%rd1;\n"
                            "  st.global.u32 [%%rd2], %%r3000;\n  ret;\n}\n");
    Program p;
    parse_ok(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_le(k->regs_used, 8);
    ck_assert_uint_eq(k->vregs, 5003);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(k, g, &L, &r), "%s", r.message);
    ck_assert_uint_eq(*(uint32_t *)gmem_translate(g, out, 4), 3000);
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
}
END_TEST

/* nvcc places slow paths out of line: a branch forward to a block at the
** end that jumps back. That is no loop: what lies between keeps only the
** rows it needs (200 temporaries, each used once, stay in a handful), while
** a value live through the slow path (%r1: set before the branch, read
** after the join) keeps its row against the slow path's own temporaries.
** Lanes 0-15 take the slow path. */
START_TEST(test_rows_out_of_line_block)
{
    size_t cap = 100000, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len,
                            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0)\n{\n"
                            "  .reg .pred %%p<2>;\n  .reg .b32 %%r<400>;\n  .reg .b64 %%rd<4>;\n"
                            "  mov.u32 %%r0, %%tid.x;\n  mul.lo.s32 %%r1, %%r0, 3;\n  setp.lt.u32 %%p1, %%r0, 16;\n"
                            "  @%%p1 bra $SLOW;\n  mov.u32 %%r2, 5;\n$JOIN:\n  mov.u32 %%r10, %%r2;\n");
    for (int i = 11; i <= 210; i++) len += (size_t)snprintf(src + len, cap - len, "  add.s32 %%r%d, %%r%d, 1;\n", i, i - 1);
    len += (size_t)snprintf(src + len, cap - len,
                            "  add.s32 %%r211, %%r210, %%r1;\n  ld.param.u64 %%rd1, [k_param_0];\n"
                            "  cvta.to.global.u64 %%rd2, %%rd1;\n  mul.wide.u32 %%rd3, %%r0, 4;\n  add.s64 %%rd2, %%rd2, %%rd3;\n"
                            "  st.global.u32 [%%rd2], %%r211;\n  ret;\n"
                            "$SLOW:\n  mov.u32 %%r300, 40;\n  add.s32 %%r301, %%r300, 60;\n  add.s32 %%r302, %%r301, %%r300;\n"
                            "  add.s32 %%r303, %%r302, %%r301;\n  sub.s32 %%r2, %%r303, 230;\n  bra.uni $JOIN;\n}\n");
    Program p;
    parse_ok(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_le(k->regs_used, 12);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(k, g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 32 * 4);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(o[l], (l < 16 ? 10u : 5u) + 200 + 3 * l);
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
}
END_TEST

/* A value live around a loop keeps its row through the whole loop. */
START_TEST(test_rows_across_loop)
{
    const char *src =
        ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<3>;\n"
        "  mov.u32 %r1, 0;\n  mov.u32 %r2, 10;\n  mov.u32 %r6, 1000;\n"
        "$L1:\n  add.s32 %r3, %r1, 1;\n  mov.u32 %r1, %r3;\n  add.s32 %r4, %r3, 7;\n  add.s32 %r5, %r4, %r4;\n"
        "  add.s32 %r6, %r6, %r5;\n  setp.lt.u32 %p1, %r1, %r2;\n  @%p1 bra $L1;\n"
        "  ld.param.u64 %rd1, [k_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  st.global.u32 [%rd2], %r6;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    uint32_t want = 1000;
    for (uint32_t i = 1; i <= 10; i++) want += 2 * (i + 7);
    ck_assert_uint_eq(*(uint32_t *)gmem_translate(g, out, 4), want);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* A kernel with `live` predicates set, then all read: each predicate
** %p<i> is tid.x < i + 1, and the sum of selp(1, 0) over them goes out. */
static char *many_predicates(int live)
{
    size_t cap = 64 * 1024, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len,
                            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 k_param_0)\n{\n"
                            "  .reg .pred %%p<%d>;\n  .reg .b32 %%r<%d>;\n  .reg .b64 %%rd<4>;\n  mov.u32 %%r0, %%tid.x;\n",
                            live, 2 * live + 4);
    for (int i = 0; i < live; i++) len += (size_t)snprintf(src + len, cap - len, "  setp.lt.u32 %%p%d, %%r0, %d;\n", i, i + 1);
    len += (size_t)snprintf(src + len, cap - len, "  mov.u32 %%r1, 0;\n");
    for (int i = 0; i < live; i++)
        len += (size_t)snprintf(src + len, cap - len, "  selp.u32 %%r%d, 1, 0, %%p%d;\n  add.s32 %%r1, %%r1, %%r%d;\n", i + 2, i,
                                i + 2);
    len += (size_t)snprintf(src + len, cap - len,
                            "  ld.param.u64 %%rd1, [k_param_0];\n  cvta.to.global.u64 %%rd2, %%rd1;\n"
                            "  mul.wide.u32 %%rd3, %%r0, 4;\n  add.s64 %%rd2, %%rd2, %%rd3;\n  st.global.u32 [%%rd2], %%r1;\n"
                            "  ret;\n}\n");
    return src;
}

/* CUB's select kernels keep dozens of flags live: 48 predicates at once
** fit (and run right); more than the warp's ISA_MAX_PREDS are refused with
** the place. */
START_TEST(test_many_predicates)
{
    char *src = many_predicates(48);
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 64 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 64, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 64 * 4);
    for (uint32_t t = 0; t < 64; t++) ck_assert_uint_eq(o[t], t < 48 ? 48 - t : 0);
    gmem_destroy(g);
    program_destroy(&p);
    free(src);
    src = many_predicates(ISA_MAX_PREDS + 2);
    ck_assert(!ptx_parse(src, strlen(src), "t.ptx", &p, &d)); /* its one kernel refused: the file is */
    ck_assert_msg(strstr(d.message, "predicates live at once"), "%s", d.message);
    free(src);
}
END_TEST


int main(void)
{
    Suite *s = suite_create("ptx_regalloc");
    TCase *ra = tcase_create("Regalloc");
    tcase_add_test(ra, test_rows_follow_liveness);
    tcase_add_test(ra, test_rows_across_loop);
    tcase_add_test(ra, test_rows_out_of_line_block);
    tcase_add_test(ra, test_many_predicates);
    suite_add_tcase(s, ra);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
