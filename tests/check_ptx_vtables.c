/* tests/check_ptx_vtables.c -- addresses in a variable's initializer
** (isa/ptx_vars.c, isa/ptx_func.c, program_bind_vars): C++ tables of
** virtual functions, __device__ tables of function pointers and pointers to
** other variables. A table entry holds the same address `mov.u64 %rd, f`
** gives, a call through a loaded entry reaches its function (each lane its
** own), an entry of 0 called is a bad call; a variable's address follows the
** variable when it is moved; what cannot be laid out (a name declared
** later, an address in an element narrower than a pointer) is refused at
** its line and column. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "isa/exec.h"
#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* t(out, slot_base): lane l calls tab[slot_base + l % 2] with l and stores
** what it returns at out[2l], and the entry it loaded equals f1's address
** as mov reads it (out[2l + 1] = 1). */
static const char VTABLE[] =
    PTX_HEAD
    ".func (.param .b32 f1_ret) f1(.param .b32 f1_a)\n{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [f1_a];\n"
    "  add.s32 %r2, %r1, 100;\n  st.param.b32 [f1_ret], %r2;\n  ret;\n}\n"
    ".func (.param .b32 f2_ret) f2(.param .b32 f2_a)\n{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [f2_a];\n"
    "  mul.lo.s32 %r2, %r1, 3;\n  st.param.b32 [f2_ret], %r2;\n  ret;\n}\n"
    ".global .align 8 .u64 tab[3] = {0, f1, f2};\n"
    ".visible .entry t(.param .u64 t_param_0, .param .u32 t_param_1)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n  ld.param.u32 %r6, [t_param_1];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 1;\n  add.s32 %r4, %r2, %r6;\n"
    "  mov.u64 %rd3, tab;\n  cvta.global.u64 %rd4, %rd3;\n  mul.wide.u32 %rd5, %r4, 8;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n  ld.u64 %rd7, [%rd6];\n"
    "  mov.u64 %rd8, f1;\n  setp.eq.s64 %p1, %rd7, %rd8;\n  selp.u32 %r7, 1, 0, %p1;\n"
    "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r1;\n  .param .b32 retval0;\n"
    "  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "  call (retval0), %rd7, (param0), prototype_0;\n  ld.param.b32 %r3, [retval0];\n  }\n"
    "  mul.wide.u32 %rd9, %r1, 8;\n  add.s64 %rd10, %rd2, %rd9;\n  st.global.u32 [%rd10], %r3;\n"
    "  st.global.u32 [%rd10+4], %r7;\n  ret;\n}\n";

static void parse_ok(const char *src, Program *p)
{
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
}

/* Runs t with slot_base `base` on one warp: true when it completed. */
static bool run(const Program *p, uint32_t base, uint32_t *res, GridResult *r)
{
    GlobalMem *g = gmem_create();
    Diag d;
    for (uint32_t i = 0; i < p->nvars; i++) { /* the table, where the file put it */
        ck_assert_msg(gmem_alloc_at(g, p->vars[i].addr, p->vars[i].size, p->vars[i].name, &d), "%s", d.message);
        memcpy(gmem_translate(g, p->vars[i].addr, p->vars[i].size), p->vars[i].init, p->vars[i].size);
    }
    uint32_t out = gmem_alloc(g, 32 * 8, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0, base };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1, .kernel_file = "t.ptx" };
    bool ok = grid_run_functional(&p->kernels[0], g, &L, r);
    memcpy(res, gmem_translate(g, out, 32 * 8), 32 * 8);
    gmem_destroy(g);
    return ok;
}

START_TEST(test_table_of_functions)
{
    Program p;
    parse_ok(VTABLE, &p);
    uint32_t res[64];
    GridResult r;
    ck_assert_msg(run(&p, 1, res, &r), "%s", r.message);
    for (uint32_t l = 0; l < 32; l++) {
        ck_assert_uint_eq(res[2 * l], l % 2 ? 3 * l : l + 100); /* tab[1] is f1, tab[2] f2 */
        ck_assert_uint_eq(res[2 * l + 1], l % 2 == 0);          /* the entry is f1's address as mov gives it */
    }
    /* tab[0] holds 0 (a pure virtual function's slot): calling it is a bad call */
    ck_assert(!run(&p, 0, res, &r));
    ck_assert_int_eq(r.fault, FAULT_BAD_CALL);
    ck_assert_msg(strstr(r.message, "holds no device function's address"), "%s", r.message);
    program_destroy(&p);
}
END_TEST

/* t(out): lane l reads the word where[l % 3] points at. where holds
** counter's address three ways (generic(v), v + N, generic(v)+N), so the
** lanes read counter[0], [2] and [3]; at the places the file gave and
** after program_bind_vars moved both variables (as the runtime does),
** which must move the addresses in where's initializer too. */
static const char POINTERS[] =
    PTX_HEAD
    ".global .align 4 .u32 counter[4] = {11, 12, 13, 14};\n"
    ".global .align 8 .u64 where[3] = {generic(counter), counter + 8, generic(counter)+12};\n"
    ".visible .entry t(.param .u64 t_param_0)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [t_param_0];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  rem.u32 %r2, %r1, 3;\n"
    "  mov.u64 %rd3, where;\n  cvta.global.u64 %rd4, %rd3;\n  mul.wide.u32 %rd5, %r2, 8;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n  ld.u64 %rd7, [%rd6];\n  ld.u32 %r3, [%rd7];\n"
    "  mul.wide.u32 %rd9, %r1, 4;\n  add.s64 %rd10, %rd2, %rd9;\n  st.global.u32 [%rd10], %r3;\n  ret;\n}\n";

START_TEST(test_variable_addresses)
{
    for (int moved = 0; moved < 2; moved++) {
        Program p;
        parse_ok(POINTERS, &p);
        ck_assert_uint_eq(p.vars[1].nrelocs, 3);
        GlobalMem *g = gmem_create();
        Diag d;
        uint32_t addr[2];
        for (uint32_t i = 0; i < 2; i++) {
            addr[i] = moved ? gmem_alloc(g, p.vars[i].size, p.vars[i].name, &d) : p.vars[i].addr;
            if (!moved) ck_assert_msg(gmem_alloc_at(g, addr[i], p.vars[i].size, p.vars[i].name, &d), "%s", d.message);
            ck_assert_uint_ne(addr[i], 0);
        }
        if (moved) {
            ck_assert_uint_ne(addr[0], p.vars[0].addr);
            program_bind_vars(&p, addr);
        }
        for (uint32_t i = 0; i < 2; i++)
            memcpy(gmem_translate(g, addr[i], p.vars[i].size), p.vars[i].init, p.vars[i].size);
        uint64_t first;
        memcpy(&first, p.vars[1].init, 8);
        ck_assert_uint_eq(first, addr[0]);
        uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
        GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
        GridResult r;
        ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
        const uint32_t *res = gmem_translate(g, out, 32 * 4);
        static const uint32_t want[3] = { 11, 13, 14 };
        for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(res[l], want[l % 3]);
        gmem_destroy(g);
        program_destroy(&p);
    }
}
END_TEST

/* What is refused, at the element's line and column. */
START_TEST(test_refused_addresses)
{
    static const struct { const char *decl, *error; } cases[] = {
        { ".global .align 8 .u64 where[1] = {generic(later)};\n.global .align 4 .u32 later;\n",
          "t.ptx:4:43: 'later' in the initializer is neither a function nor a variable declared before it" },
        { ".global .align 4 .u32 narrow[2] = {0, f1};\n",
          "t.ptx:4:39: an initializer holding an address ('f1') needs 64-bit elements, not 32-bit ones" },
        { ".global .align 8 .u64 self[2] = {0, self};\n",
          "t.ptx:4:37: 'self' in the initializer is neither a function nor a variable declared before it" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 PTX_HEAD "%s.func f1()\n{\n  ret;\n}\n.visible .entry k()\n{\n  call.uni f1, ();\n  ret;\n}\n",
                 cases[i].decl);
        Program p;
        Diag d;
        ck_assert(!ptx_parse(src, strlen(src), "t.ptx", &p, &d));
        char got[sizeof d.message + 64];
        snprintf(got, sizeof got, "t.ptx:%u:%u: %s", d.line, d.col, d.message);
        ck_assert_str_eq(got, cases[i].error);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ptx_vtables");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_table_of_functions);
    tcase_add_test(c, test_variable_addresses);
    tcase_add_test(c, test_refused_addresses);
    suite_add_tcase(s, c);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
