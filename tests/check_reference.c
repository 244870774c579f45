/* tests/check_reference.c -- the CPU reference functions (workloads/
** reference.h) against the kernels they describe: every variant of every
** shipped workload runs on the functional grid runner (isa/grid.h, no
** timing) at a small size and its checks must pass; a deliberately wrong
** result must fail. Also the table itself: signatures parse and name
** their output buffer. */
#include "workloads/reference.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/grid.h"
#include "workloads/loader.h"
#include "workloads/run.h"

static const struct {
    const char *file;
    const char *params[2];
} cases[] = {
    { "transpose.json", { "n=96", NULL } },   /* not a multiple of 32: edge blocks */
    { "transpose.json", { "n=64", NULL } },
    { "vecadd.json", { "n=4099", NULL } },    /* n % 4 = 3: the float4 tail loop */
    { "vecadd.json", { "n=1024", NULL } },
    { "divergence.json", { "n=512", "iters=37" } },
};

START_TEST(test_workload_checks_pass)
{
    GpuConfig c;
    Diag d;
    ck_assert(config_load("a100", &c, &d));
    char path[1024];
    snprintf(path, sizeof path, "%s/../workloads/%s", TESTS_DIR, cases[_i].file);
    size_t np = cases[_i].params[1] ? 2 : 1;
    Workload w;
    ck_assert_msg(workload_load(path, &c, cases[_i].params, np, &w, &d), "%s: %s", path, d.message);
    for (uint32_t i = 0; i < w.nvariants; i++) {
        const WlVariant *v = &w.variants[i];
        ck_assert_msg(v->nchecks > 0, "%s: variant %s has no check", cases[_i].file, v->name);
        WlRun r;
        ck_assert_msg(workload_prepare(&w, v, &r, &d), "%s", d.message);
        for (uint32_t k = 0; k < v->nlaunches; k++) {
            const WlLaunch *l = &v->launches[k];
            GridLaunch L = { { l->grid[0], l->grid[1], l->grid[2] }, { l->block[0], l->block[1], l->block[2] },
                             l->dynamic_smem, r.params[k], c.sm_count, 0, NULL, 0, NULL, 0, NULL, 0 };
            GridResult gr;
            ck_assert_msg(grid_run_functional(l->kernel, r.gmem, &L, &gr), "%s/%s: %s", cases[_i].file, v->name,
                          gr.message);
        }
        for (uint32_t k = 0; k < v->nchecks; k++) {
            WlCheckResult cr;
            workload_compare(&w, v, k, &r, &cr);
            ck_assert_msg(cr.pass, "%s/%s: %s", cases[_i].file, v->name, cr.text);
        }
        workload_run_free(&r);
    }
    workload_destroy(&w);
}
END_TEST

START_TEST(test_wrong_reference_fails)
{
    /* the uniform kernel against the divergent kernel's reference */
    GpuConfig c;
    Diag d;
    ck_assert(config_load("a100", &c, &d));
    char path[1024];
    snprintf(path, sizeof path, "%s/../workloads/divergence.json", TESTS_DIR);
    const char *params[] = { "n=256", "iters=10" };
    Workload w;
    ck_assert_msg(workload_load(path, &c, params, 2, &w, &d), "%s", d.message);
    WlVariant v = *workload_find_variant(&w, "uniform");
    WlCheck ck = v.checks[0];
    ck.ref = reference_find("fma_chain_lane_parity");
    v.checks = &ck;
    WlRun r;
    ck_assert(workload_prepare(&w, &v, &r, &d));
    GridLaunch L = { { v.launches[0].grid[0], 1, 1 }, { v.launches[0].block[0], 1, 1 }, 0, r.params[0], c.sm_count, 0, NULL, 0, NULL, 0, NULL, 0 };
    GridResult gr;
    ck_assert(grid_run_functional(v.launches[0].kernel, r.gmem, &L, &gr));
    WlCheckResult cr;
    workload_compare(&w, &v, 0, &r, &cr);
    ck_assert(!cr.pass);
    ck_assert_uint_eq(cr.first_bad, 1); /* thread 1: odd lane, even warp */
    ck_assert_msg(strncmp(cr.text, "out[1]: expected ", 17) == 0, "%s", cr.text);
    workload_run_free(&r);
    workload_destroy(&w);
}
END_TEST

START_TEST(test_table)
{
    ck_assert_uint_gt(reference_count(), 0);
    ck_assert_ptr_null(reference_at(reference_count()));
    ck_assert_ptr_null(reference_find("no such reference"));
    for (size_t i = 0; i < reference_count(); i++) {
        const RefEntry *e = reference_at(i);
        ck_assert_ptr_eq(reference_find(e->name), e);
        RefArgKind kinds[16];
        WlType types[16];
        uint32_t n = reference_signature(e, kinds, types, 16);
        ck_assert_msg(n > 0 && n <= 16, "%s", e->name);
        ck_assert_msg(e->output < n && kinds[e->output] == REF_ARG_BUFFER, "%s: output is not a buffer", e->name);
        ck_assert_ptr_nonnull(e->help);
    }
    RefArgKind kinds[4];
    WlType types[4];
    ck_assert_uint_eq(reference_signature(reference_find("vecadd"), kinds, types, 4), 4);
    ck_assert_int_eq(kinds[0], REF_ARG_BUFFER);
    ck_assert_int_eq(types[0], WL_F32);
    ck_assert_int_eq(kinds[3], REF_ARG_INT);
    ck_assert_str_eq(wl_type_name(WL_S32), "s32");
}
END_TEST

START_TEST(test_shape_errors)
{
    /* the dry run (out == NULL) reports inconsistent sizes */
    RefArg a[3];
    memset(a, 0, sizeof a);
    a[0].kind = a[1].kind = REF_ARG_BUFFER;
    a[0].count = 100;
    a[1].count = 1024;
    a[2].kind = REF_ARG_INT;
    a[2].i = 32;
    RefCall call = { a, 3, { 1, 1, 1 }, { 32, 1, 1 } };
    char msg[256];
    ck_assert(!reference_find("transpose")->fn(&call, NULL, msg, sizeof msg));
    ck_assert_str_eq(msg, "buffer 'in' holds 100 elements, n*n = 1024 needed");
    a[0].count = 1024;
    ck_assert(reference_find("transpose")->fn(&call, NULL, msg, sizeof msg));
    a[2].i = -1;
    ck_assert(!reference_find("copy")->fn(&call, NULL, msg, sizeof msg));
    ck_assert_str_eq(msg, "n = -1 must not be negative");
}
END_TEST

/* workloads/README.md's reference table: one row per registry entry, in
** any order, each with its signature, and no row for a name not in it. */
START_TEST(test_readme_table)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../workloads/README.md", TESTS_DIR);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[4096];
    bool in_table = false;
    size_t rows = 0;
    bool *seen = calloc(reference_count(), sizeof *seen);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "| reference | signature |", 25) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table || strncmp(line, "| ---", 5) == 0) continue;
        if (line[0] != '|') break;
        char name[128], sig[256];
        ck_assert_msg(sscanf(line, "| `%127[^`]` | `%255[^`]`", name, sig) == 2, "README row: %s", line);
        const RefEntry *e = reference_find(name);
        ck_assert_msg(e, "README lists '%s', which reference.c does not have", name);
        ck_assert_msg(strcmp(e->signature, sig) == 0, "README: %s has signature '%s', reference.c '%s'", name, sig,
                      e->signature);
        seen[e - reference_at(0)] = true;
        rows++;
    }
    fclose(f);
    for (size_t i = 0; i < reference_count(); i++)
        ck_assert_msg(seen[i], "README's reference table lacks '%s'", reference_at(i)->name);
    ck_assert_uint_eq(rows, reference_count());
    free(seen);
}
END_TEST

static Suite *reference_suite(void)
{
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("Core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_workload_checks_pass, 0, sizeof cases / sizeof cases[0]);
    tcase_add_test(tc, test_wrong_reference_fails);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_readme_table);
    suite_add_tcase(s, tc);
    tc = tcase_create("BadInput");
    tcase_add_test(tc, test_shape_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reference_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
