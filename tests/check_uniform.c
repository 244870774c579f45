/* tests/check_uniform.c -- warp-uniform values (isa/uniform.h): which
** instructions of a kernel go to the uniform datapath. Each case is a kernel
** whose instructions are marked by a trailing comment: "// U" for one that
** must be found uniform, none for one that must not.                     */
#include "isa/uniform.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

static const struct {
    const char *name, *src;
} cases[] = {
    { "loop_counter", /* the waves loop: the counter and its bound are uniform, the FMA chain is not */
      ".kernel k\n.param .s32 iters\n"
      "    ld.param.s32 %r1, [iters]     // U\n"
      "    mov.u32 %r2, %tid.x\n"
      "    cvt.rn.f32.u32 %r6, %r2\n"
      "    mov.u32 %r7, 0                // U\n"
      "LOOP:\n"
      "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n"
      "    add.s32 %r7, %r7, 1           // U\n"
      "    setp.lt.s32 %p1, %r7, %r1\n"
      "    @%p1 bra LOOP\n"
      "    exit\n" },
    { "thread_index", /* tid and everything computed from it is per thread */
      ".kernel k\n.param .ptr out\n"
      "    ld.param.u32 %r0, [out]       // U\n"
      "    mov.u32 %r1, %ctaid.x         // U\n"
      "    mov.u32 %r2, %ntid.x          // U\n"
      "    mul.lo.u32 %r3, %r1, %r2      // U\n"
      "    mov.u32 %r4, %tid.x\n"
      "    add.u32 %r5, %r3, %r4\n"
      "    shl.b32 %r5, %r5, 2\n"
      "    add.u32 %r5, %r5, %r0\n"
      "    st.global.u32 [%r5], %r3\n"
      "    exit\n" },
    { "loaded_value", /* a load's value is never uniform, nor what it feeds */
      ".kernel k\n.param .ptr in\n"
      "    ld.param.u32 %r0, [in]        // U\n"
      "    ld.global.u32 %r1, [%r0]\n"
      "    add.u32 %r2, %r1, 1\n"
      "    st.global.u32 [%r0], %r2\n"
      "    exit\n" },
    { "divergent_path_value", /* uniform inside a divergent if, but read after it: lanes disagree */
      ".kernel k\n.param .ptr out\n"
      "    ld.param.u32 %r0, [out]       // U\n"
      "    mov.u32 %r1, %tid.x\n"
      "    mov.u32 %r2, 0\n"
      "    setp.lt.u32 %p0, %r1, 16\n"
      "    @%p0 bra SKIP\n"
      "    mov.u32 %r2, 5\n"
      "SKIP:\n"
      "    add.u32 %r3, %r2, 1\n"
      "    st.global.u32 [%r0], %r3\n"
      "    exit\n" },
    { "divergent_path_loop", /* a loop inside a divergent branch keeps its uniform counter (its own path only) */
      ".kernel k\n.param .s32 iters\n"
      "    ld.param.s32 %r1, [iters]     // U\n"
      "    mov.u32 %r2, %tid.x\n"
      "    and.b32 %r3, %r2, 1\n"
      "    setp.eq.u32 %p0, %r3, 0\n"
      "    cvt.rn.f32.u32 %r6, %r2\n"
      "    @%p0 bra DONE\n"
      "    mov.u32 %r7, 0                // U\n"
      "ODD:\n"
      "    fma.rn.f32 %r6, %r6, 0.999, 0.5\n"
      "    add.s32 %r7, %r7, 1           // U\n"
      "    setp.lt.s32 %p1, %r7, %r1\n"
      "    @%p1 bra ODD\n"
      "DONE:\n"
      "    exit\n" },
    { "guarded_by_thread", /* a uniform add under a per-thread guard differs between lanes */
      ".kernel k\n"
      "    mov.u32 %r1, %tid.x\n"
      "    mov.u32 %r2, 0\n"
      "    setp.lt.u32 %p0, %r1, 3\n"
      "    @%p0 add.u32 %r2, %r2, 1\n"
      "    exit\n" },
};

/* The pcs marked "// U" in the source, in instruction order. */
static void expected(const char *src, const Kernel *k, uint8_t *want)
{
    uint32_t pc = 0;
    for (const char *l = src; *l && pc < k->ncode;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)n, l);
        const char *t = line;
        while (*t == ' ') t++;
        bool instr = *t && *t != '.' && strchr(t, ':') == NULL;
        if (instr) want[pc++] = strstr(line, "// U") != NULL;
        l = e ? e + 1 : l + n;
    }
}

START_TEST(test_uniform_cases)
{
    Program p;
    Diag d;
    const char *src = cases[_i].src;
    ck_assert_msg(asm_parse(src, strlen(src), "u.asm", &p, &d), "%s: %u:%u %s", cases[_i].name, d.line, d.col, d.message);
    const Kernel *k = &p.kernels[0];
    uint8_t got[64], want[64] = { 0 };
    ck_assert_uint_le(k->ncode, 64);
    ck_assert(uniform_analyze(k, got));
    expected(src, k, want);
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        ck_assert_msg(got[pc] == want[pc], "%s: pc %u (line %u) is %s", cases[_i].name, pc, k->code[pc].line,
                      got[pc] ? "uniform, should not be" : "not uniform, should be");
    program_destroy(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("uniform");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_uniform_cases, 0, (int)(sizeof cases / sizeof cases[0]));
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
