/* tests/check_cfg.c -- control-flow analysis (isa/cfg.h): immediate
** post-dominators, i.e. the reconvergence points the assembler stores in
** Instr.reconv, for the shapes structured code produces; exit reachability;
** and iterative traversal on very deep nests.                          */
#include "isa/cfg.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

static void must_assemble(const char *src, Program *p)
{
    Diag d;
    bool ok = asm_parse(src, strlen(src), "cfg.asm", p, &d);
    ck_assert_msg(ok, "assembly failed: %u:%u: %s", d.line, d.col, d.message);
}

/* pc of a label; the name EXIT stands for the virtual exit node (ncode). */
static uint32_t pc_of(const Kernel *k, const char *name)
{
    if (strcmp(name, "EXIT") == 0) return k->ncode;
    for (uint32_t i = 0; i < k->nlabels; i++)
        if (strcmp(k->labels[i].name, name) == 0) return k->labels[i].pc;
    ck_abort_msg("no label %s", name);
    return 0;
}

/* Each case: a kernel whose branches carry labels, and the expected
** reconvergence point of each as "BRANCH>POINT" pairs. */
static const struct {
    const char *name, *src, *expect;
} cases[] = {
    { "if_then",
      ".kernel k\n"
      "    setp.eq.u32 %p0, %r0, 0\n"
      "B:  @%p0 bra SKIP\n"
      "    add.u32 %r1, %r1, 1\n"
      "SKIP:\n"
      "    exit\n",
      "B>SKIP" },
    { "if_else",
      ".kernel k\n"
      "    setp.eq.u32 %p0, %r0, 0\n"
      "B:  @%p0 bra ELSE\n"
      "    add.u32 %r1, %r1, 1\n"
      "J:  bra JOIN\n"
      "ELSE:\n"
      "    add.u32 %r1, %r1, 2\n"
      "JOIN:\n"
      "    add.u32 %r2, %r1, 0\n"
      "    exit\n",
      "B>JOIN J>JOIN" },
    { "nested_if",
      ".kernel k\n"
      "    setp.eq.u32 %p0, %r0, 0\n"
      "B0: @%p0 bra ELSE0\n"
      "    setp.eq.u32 %p1, %r1, 0\n"
      "B1: @%p1 bra SKIP1\n"
      "    add.u32 %r2, %r2, 1\n"
      "SKIP1:\n"
      "    add.u32 %r2, %r2, 2\n"
      "J0: bra JOIN0\n"
      "ELSE0:\n"
      "    setp.eq.u32 %p2, %r2, 0\n"
      "B2: @%p2 bra ELSE2\n"
      "    add.u32 %r2, %r2, 3\n"
      "J2: bra JOIN2\n"
      "ELSE2:\n"
      "    add.u32 %r2, %r2, 4\n"
      "JOIN2:\n"
      "    add.u32 %r2, %r2, 5\n"
      "JOIN0:\n"
      "    exit\n",
      "B0>JOIN0 B1>SKIP1 B2>JOIN2 J0>JOIN0 J2>JOIN2" },
    { "while_loop",
      ".kernel k\n"
      "    mov.u32 %r1, 0\n"
      "TOP:\n"
      "    setp.ge.u32 %p0, %r1, %r2\n"
      "B:  @%p0 bra DONE\n"
      "    add.u32 %r1, %r1, 1\n"
      "BACK: bra TOP\n"
      "DONE:\n"
      "    exit\n",
      "B>DONE BACK>TOP" },
    { "do_while",
      ".kernel k\n"
      "TOP:\n"
      "    add.u32 %r1, %r1, 1\n"
      "    setp.lt.u32 %p0, %r1, %r2\n"
      "B:  @%p0 bra TOP\n"
      "AFTER:\n"
      "    exit\n",
      "B>AFTER" },
    { "early_exit",
      ".kernel k\n"
      "    setp.eq.u32 %p0, %r0, 0\n"
      "E:  @%p0 exit\n"
      "    setp.eq.u32 %p1, %r1, 0\n"
      "B:  @%p1 bra SKIP\n"
      "    add.u32 %r1, %r1, 1\n"
      "SKIP:\n"
      "    exit\n",
      "B>SKIP" },
    { "break_out_of_loop",
      ".kernel k\n"
      "TOP:\n"
      "    setp.ge.u32 %p0, %r1, %r2\n"
      "B1: @%p0 bra DONE\n"
      "    setp.eq.u32 %p1, %r1, 7\n"
      "B2: @%p1 bra DONE\n"
      "    add.u32 %r1, %r1, 1\n"
      "BACK: bra TOP\n"
      "DONE:\n"
      "    add.u32 %r3, %r1, 0\n"
      "    exit\n",
      "B1>DONE B2>DONE BACK>TOP" },
    { "if_inside_loop",
      ".kernel k\n"
      "TOP:\n"
      "    and.b32 %r3, %r1, 1\n"
      "    setp.eq.u32 %p1, %r3, 0\n"
      "B1: @%p1 bra SKIP\n"
      "    add.u32 %r4, %r4, 1\n"
      "SKIP:\n"
      "    add.u32 %r1, %r1, 1\n"
      "    setp.lt.u32 %p0, %r1, %r2\n"
      "B2: @%p0 bra TOP\n"
      "AFTER:\n"
      "    exit\n",
      "B1>SKIP B2>AFTER" },
    { "paths_meet_only_at_exit",
      ".kernel k\n"
      "    setp.eq.u32 %p0, %r0, 0\n"
      "B:  @%p0 bra OTHER\n"
      "    add.u32 %r1, %r1, 1\n"
      "    exit\n"
      "OTHER:\n"
      "    add.u32 %r1, %r1, 2\n"
      "    exit\n",
      "B>EXIT" },
    /* FAIL leaves the loop straight to an exit, so neither the escape nor
    ** the back edge has a point every path passes: both meet only at exit. */
    { "loop_with_exit_only_escape",
      ".kernel k\n"
      "TOP:\n"
      "    setp.eq.u32 %p0, %r1, 99\n"
      "B1: @%p0 bra FAIL\n"
      "    add.u32 %r1, %r1, 1\n"
      "    setp.lt.u32 %p1, %r1, %r2\n"
      "B2: @%p1 bra TOP\n"
      "AFTER:\n"
      "    add.u32 %r3, %r1, 0\n"
      "    exit\n"
      "FAIL:\n"
      "    exit\n",
      "B1>EXIT B2>EXIT" },
    { "branch_to_next",
      ".kernel k\n"
      "B:  @%p0 bra NEXT\n"
      "NEXT:\n"
      "    exit\n",
      "B>NEXT" },
    { "self_loop",
      ".kernel k\n"
      "B:  @%p0 bra B\n"
      "AFTER:\n"
      "    exit\n",
      "B>AFTER" },
    { "multiway",
      ".kernel k\n"
      "B0: @%p0 bra C1\n"
      "B1: @%p1 bra C2\n"
      "    add.u32 %r1, %r1, 0\n"
      "J0: bra JOIN\n"
      "C1:\n"
      "    add.u32 %r1, %r1, 1\n"
      "J1: bra JOIN\n"
      "C2:\n"
      "    add.u32 %r1, %r1, 2\n"
      "JOIN:\n"
      "    exit\n",
      "B0>JOIN B1>JOIN J0>JOIN J1>JOIN" },
    { "nested_loops",
      ".kernel k\n"
      "OUTER:\n"
      "    mov.u32 %r2, 0\n"
      "INNER:\n"
      "    add.u32 %r2, %r2, 1\n"
      "    setp.lt.u32 %p1, %r2, %r1\n"
      "BI: @%p1 bra INNER\n"
      "AFTER_INNER:\n"
      "    add.u32 %r3, %r3, 1\n"
      "    setp.lt.u32 %p0, %r3, %r4\n"
      "BO: @%p0 bra OUTER\n"
      "AFTER_OUTER:\n"
      "    exit\n",
      "BI>AFTER_INNER BO>AFTER_OUTER" },
    { "loop_in_else",
      ".kernel k\n"
      "B0: @%p0 bra ELSE\n"
      "    add.u32 %r1, %r1, 1\n"
      "J:  bra JOIN\n"
      "ELSE:\n"
      "    add.u32 %r1, %r1, 1\n"
      "    setp.lt.u32 %p1, %r1, 10\n"
      "B1: @%p1 bra ELSE\n"
      "JOIN:\n"
      "    exit\n",
      "B0>JOIN B1>JOIN J>JOIN" },
    { "uniform_branches",
      ".kernel k\n"
      "U0: bra.uni L1\n"
      "    add.u32 %r1, %r1, 1\n"
      "L1:\n"
      "U1: @%p0 bra.uni L2\n"
      "    add.u32 %r1, %r1, 1\n"
      "L2:\n"
      "    exit\n",
      "U0>L1 U1>L2" },
    /* a loop whose only way out is a guarded exit (nvcc -G's top-tested
    ** loops ending in `ret`): the if inside it reconverges after itself, not
    ** at the exit (a __syncthreads() after it once deadlocked) */
    { "loop_left_by_guarded_exit",
      ".kernel k\n"
      "TOP: @%p0 exit\n"
      "B0: @%p1 bra SKIP\n"
      "    add.u32 %r1, %r1, 1\n"
      "SKIP:\n"
      "    bar.sync 0\n"
      "B1: bra TOP\n",
      "B0>SKIP B1>TOP" },
    { "unreachable_endless_loop",
      ".kernel k\n"
      "    exit\n"
      "DEAD:\n"
      "B:  @%p0 bra DEAD\n"
      "D:  bra DEAD\n",
      "B>EXIT D>EXIT" },
};

START_TEST(test_reconvergence)
{
    Program p;
    must_assemble(cases[_i].src, &p);
    const Kernel *k = &p.kernels[0];
    uint32_t *ipdom = malloc(k->ncode * sizeof *ipdom);
    ck_assert(cfg_post_dominators(k, ipdom));
    char spec[256];
    snprintf(spec, sizeof spec, "%s", cases[_i].expect);
    uint32_t checked = 0;
    for (char *save, *tok = strtok_r(spec, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *gt = strchr(tok, '>');
        ck_assert_ptr_nonnull(gt);
        *gt = 0;
        uint32_t b = pc_of(k, tok), r = pc_of(k, gt + 1);
        ck_assert_msg(k->code[b].op == OP_BRA || k->code[b].op == OP_BRA_UNI, "%s: %s is no branch", cases[_i].name, tok);
        ck_assert_msg(k->code[b].reconv == r, "%s: %s reconverges at %u, expected %s = %u", cases[_i].name, tok,
                      k->code[b].reconv, gt + 1, r);
        checked++;
    }
    /* Every branch carries its immediate post-dominator; nothing else has one. */
    uint32_t branches = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        ck_assert_uint_le(ipdom[pc], k->ncode);
        if (in->op == OP_BRA || in->op == OP_BRA_UNI) {
            branches++;
            ck_assert_msg(in->reconv == ipdom[pc], "%s: pc %u reconv %u, ipdom %u", cases[_i].name, pc, in->reconv,
                          ipdom[pc]);
        } else {
            ck_assert_uint_eq(in->reconv, ISA_NO_RECONV);
        }
    }
    ck_assert_uint_eq(checked, branches); /* every branch is named in the case */
    free(ipdom);
    program_destroy(&p);
}
END_TEST

START_TEST(test_ipdom_every_instruction)
{
    /* The whole post-dominator tree of an if/else with an early exit. */
    Program p;
    must_assemble(".kernel k\n"
                  "    setp.eq.u32 %p0, %r0, 0\n" /* 0 */
                  "    @%p0 bra ELSE\n"           /* 1 */
                  "    @%p1 exit\n"               /* 2 */
                  "    add.u32 %r1, %r1, 1\n"     /* 3 */
                  "    bra JOIN\n"                /* 4 */
                  "ELSE:\n"
                  "    add.u32 %r1, %r1, 2\n"     /* 5 */
                  "JOIN:\n"
                  "    add.u32 %r2, %r1, 0\n"     /* 6 */
                  "    exit\n",                   /* 7 */
                  &p);
    const Kernel *k = &p.kernels[0];
    static const uint32_t expect[8] = { 1, 6, 3, 4, 6, 6, 7, 8 };
    uint32_t ipdom[8];
    ck_assert_uint_eq(k->ncode, 8);
    ck_assert(cfg_post_dominators(k, ipdom));
    for (uint32_t i = 0; i < 8; i++) ck_assert_msg(ipdom[i] == expect[i], "pc %u: %u, expected %u", i, ipdom[i], expect[i]);
    /* The guarded exit at pc 2 only removes lanes: the others fall through,
    ** so the if still reconverges at JOIN. */
    ck_assert_uint_eq(k->code[1].reconv, 6);
    program_destroy(&p);
}
END_TEST


/* Random kernels of up to 60 instructions (guarded and unguarded forward
** branches, guarded back edges, guarded exits) against post-dominators
** computed the textbook way: pdom(v) = {v} + the intersection of pdom over
** v's successors, iterated to a fixed point over bit sets. */
START_TEST(test_ipdom_random_against_sets)
{
    uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)_i;
    for (int round = 0; round < 200; round++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t n = 2 + (uint32_t)(rng >> 33) % 59; /* instructions before the final exit */
        char *src = malloc(64u * (n + 4));
        ck_assert_ptr_nonnull(src);
        size_t len = (size_t)sprintf(src, ".kernel r\n");
        for (uint32_t i = 0; i < n; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t kind = (uint32_t)(rng >> 40) % 6, t = (uint32_t)(rng >> 20) % (n + 1);
            len += (size_t)sprintf(src + len, "L%u: ", i);
            if (kind == 0 && t > i) len += (size_t)sprintf(src + len, "bra L%u\n", t);          /* forward jump */
            else if (kind <= 2) len += (size_t)sprintf(src + len, "@%%p0 bra L%u\n", t);       /* either way */
            else if (kind == 3) len += (size_t)sprintf(src + len, "@%%p1 exit\n");
            else len += (size_t)sprintf(src + len, "add.u32 %%r1, %%r1, 1\n");
        }
        len += (size_t)sprintf(src + len, "L%u: exit\n", n);
        Program p;
        must_assemble(src, &p);
        const Kernel *k = &p.kernels[0];
        uint32_t nodes = k->ncode + 1, ex = k->ncode;
        uint64_t pd[64];
        for (uint32_t v = 0; v < nodes; v++) pd[v] = v == ex ? 1ull << ex : ~0ull;
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t v = 0; v < k->ncode; v++) {
                const Instr *in = &k->code[v];
                bool br = in->op == OP_BRA, guarded = in->guard != ISA_NO_GUARD;
                uint64_t m = ~0ull;
                if (in->op == OP_EXIT) m = guarded ? pd[v + 1] : pd[ex]; /* a guarded exit only removes lanes */
                else if (br) m = guarded ? pd[in->target] & pd[v + 1] : pd[in->target];
                else m = pd[v + 1];
                m |= 1ull << v;
                if (m != pd[v]) pd[v] = m, changed = true;
            }
        }
        uint32_t *ipdom = malloc(nodes * sizeof *ipdom);
        ck_assert(cfg_post_dominators(k, ipdom));
        for (uint32_t v = 0; v < k->ncode; v++) {
            uint64_t strict = pd[v] & ~(1ull << v);
            uint32_t want = ex; /* the strict post-dominator that all others post-dominate */
            for (uint32_t u = 0; u < nodes; u++)
                if ((strict >> u & 1) && (pd[u] == strict)) want = u;
            ck_assert_msg(ipdom[v] == want, "round %d, pc %u: ipdom %u, expected %u\n%s", round, v, ipdom[v], want, src);
        }
        free(ipdom);
        free(src);
        program_destroy(&p);
    }
}
END_TEST

/* -------------------------------------------------------------- BadInput */

/* cfg_analyze on kernels edited after assembly: it alone decides. */
START_TEST(test_analyze_falls_off_end)
{
    Program p;
    must_assemble(".kernel k\n    mov.u32 %r1, 0\nL:  add.u32 %r1, %r1, 1\n    @%p0 bra L\n    exit\n", &p);
    Kernel *k = &p.kernels[0];
    Diag d;
    /* guard the final exit: lanes that skip it would run past the end */
    k->code[3].guard = 0;
    ck_assert(!cfg_analyze(k, "edited.asm", &d));
    ck_assert_str_eq(d.file, "edited.asm");
    ck_assert_uint_eq(d.line, 5);
    ck_assert_uint_eq(d.col, 5);
    ck_assert_msg(strstr(d.message, "fall off the end of kernel 'k'") != NULL, "%s", d.message);
    program_destroy(&p);
}
END_TEST

START_TEST(test_analyze_endless_loop)
{
    Program p;
    must_assemble(".kernel k\n    mov.u32 %r1, 0\nL:  add.u32 %r1, %r1, 1\n    @%p0 bra L\n    exit\n", &p);
    Kernel *k = &p.kernels[0];
    Diag d;
    ck_assert(cfg_analyze(k, "edited.asm", &d));
    k->code[2].guard = ISA_NO_GUARD; /* the loop loses its way out */
    ck_assert(!cfg_analyze(k, "edited.asm", &d));
    ck_assert_uint_eq(d.line, 4); /* the branch that closes the loop, not the loop's first line */
    ck_assert_msg(strstr(d.message, "closes a loop that never reaches 'exit' in kernel 'k' (the loop starts at line 3)") !=
                      NULL,
                  "%s", d.message);
    /* the same loop entered conditionally: the error names the loop itself */
    program_destroy(&p);
    must_assemble(".kernel k\n    @%p0 bra L\n    exit\nL:  add.u32 %r1, %r1, 1\n    @%p1 bra L\n    exit\n", &p);
    k = &p.kernels[0];
    k->code[3].guard = ISA_NO_GUARD;
    ck_assert(!cfg_analyze(k, "edited.asm", &d));
    ck_assert_uint_eq(d.line, 5);
    ck_assert_uint_eq(d.col, 5);
    program_destroy(&p);
}
END_TEST

/* ------------------------------------------------------------------ Edge */

static char *append(char *buf, size_t *len, size_t *cap, const char *fmt, unsigned v)
{
    if (*len + 96 > *cap) {
        *cap = *cap * 2 + 4096;
        buf = realloc(buf, *cap);
        ck_assert_ptr_nonnull(buf);
    }
    *len += (size_t)snprintf(buf + *len, *cap - *len, fmt, v, v);
    return buf;
}

START_TEST(test_deep_if_nest)
{
    /* 100,000 nested ifs: B_i jumps to E_i, and the E_i labels close in
    ** reverse order. The analysis must be iterative (no C recursion) and
    ** near linear. */
    enum { N = 100000 };
    size_t len = 0, cap = 0;
    char *src = NULL;
    src = append(src, &len, &cap, ".kernel deep // %u %u\n", N);
    for (unsigned i = 0; i < N; i++) src = append(src, &len, &cap, "B%u: @%%p0 bra E%u\n", i);
    src = append(src, &len, &cap, "    add.u32 %%r1, %%r1, %u // %u\n", 1);
    for (unsigned i = N; i-- > 0;) src = append(src, &len, &cap, "E%u: add.u32 %%r1, %%r1, %u\n", i);
    src = append(src, &len, &cap, "    exit // %u %u\n", 0);
    Program p;
    must_assemble(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->ncode, 2 * N + 2);
    for (uint32_t i = 0; i < N; i++)
        if (k->code[i].reconv != k->code[i].target) ck_abort_msg("B%u reconverges at %u", i, k->code[i].reconv);
    ck_assert_uint_eq(k->code[0].target, 2 * N);
    program_destroy(&p);
    free(src);
}
END_TEST

START_TEST(test_deep_loop_nest)
{
    /* 20,000 loops nested in one another: L_i heads loop i, whose back edge
    ** C_i comes after the inner loops' back edges. */
    enum { N = 20000 };
    size_t len = 0, cap = 0;
    char *src = NULL;
    src = append(src, &len, &cap, ".kernel loops // %u %u\n", N);
    for (unsigned i = 0; i < N; i++) src = append(src, &len, &cap, "L%u: add.u32 %%r1, %%r1, %u\n", i);
    for (unsigned i = N; i-- > 0;) src = append(src, &len, &cap, "C%u: @%%p0 bra L%u\n", i);
    src = append(src, &len, &cap, "    exit // %u %u\n", 0);
    Program p;
    must_assemble(src, &p);
    const Kernel *k = &p.kernels[0];
    ck_assert_uint_eq(k->ncode, 2 * N + 1);
    for (uint32_t j = 0; j < N; j++) {
        uint32_t pc = N + j; /* back edge of loop N-1-j */
        if (k->code[pc].reconv != pc + 1) ck_abort_msg("back edge at pc %u reconverges at %u", pc, k->code[pc].reconv);
    }
    program_destroy(&p);
    free(src);
}
END_TEST

static Suite *cfg_suite(void)
{
    Suite *s = suite_create("cfg");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_reconvergence, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(core, test_ipdom_every_instruction);
    tcase_add_loop_test(core, test_ipdom_random_against_sets, 0, 8);
    suite_add_tcase(s, core);

    TCase *bad = tcase_create("BadInput");
    tcase_add_test(bad, test_analyze_falls_off_end);
    tcase_add_test(bad, test_analyze_endless_loop);
    suite_add_tcase(s, bad);

    TCase *edge = tcase_create("Edge");
    tcase_set_timeout(edge, 60);
    tcase_add_test(edge, test_deep_if_nest);
    tcase_add_test(edge, test_deep_loop_nest);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cfg_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
