/* tests/check_report.c -- what `gpusim run` prints (cli/report.h) and the
** sentences under it (cli/explain.h), on transpose's four variants at
** n = 64 on the a100: the text's header, table, "same in every variant"
** line and the causes each variant's sentence names; the JSON (every stats
** field and the stall reasons of each variant) and CSV (as many fields in
** each row as in the header) forms; report_metric by alias, Nsight Compute
** name and the two extras; and the sentence of a run that did not finish. */
#include "cli/explain.h"
#include "cli/report.h"

#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TESTS_DIR
#define TESTS_DIR "tests"
#endif

typedef struct {
    GpuConfig c;
    Workload  w;
    RunRow    rows[8];
    RunReport r;
} Fixture;

static Fixture *fx;

static void setup(void)
{
    fx = calloc(1, sizeof *fx);
    Diag d;
    ck_assert_msg(config_load("a100", &fx->c, &d), "%s", d.message);
    const char *n64[] = { "n=64" };
    ck_assert_msg(workload_load(TESTS_DIR "/../workloads/transpose.json", &fx->c, n64, 1, &fx->w, &d), "%s", d.message);
    ck_assert_uint_le(fx->w.nvariants, 8);
    VariantOptions opt = { .max_cycles = VARIANT_BUDGET_AUTO, .max_instructions = VARIANT_BUDGET_AUTO };
    for (uint32_t i = 0; i < fx->w.nvariants; i++) {
        variant_run(&fx->c, &fx->w, &fx->w.variants[i], &opt, &fx->rows[i]);
        ck_assert_msg(fx->rows[i].ran, "%s did not run", fx->w.variants[i].name);
        fx->rows[i].ratio = (double)fx->rows[i].st.cycles / (double)fx->rows[0].st.cycles;
    }
    fx->r = (RunReport){ .w = &fx->w, .c = &fx->c, .rows = fx->rows, .nrows = fx->w.nvariants };
}

static void teardown(void)
{
    for (uint32_t i = 0; i < fx->w.nvariants; i++) variant_row_free(&fx->rows[i]);
    workload_destroy(&fx->w);
    free(fx);
}

/* What a writer prints, as a string the caller frees. */
static char *printed(void (*write)(FILE *, const RunReport *), const RunReport *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    write(f, r);
    fclose(f);
    return text;
}

static uint32_t variant_index(const char *name)
{
    for (uint32_t i = 0; i < fx->w.nvariants; i++)
        if (!strcmp(fx->w.variants[i].name, name)) return i;
    ck_abort_msg("no variant %s", name);
    return 0;
}

START_TEST(test_text)
{
    char *t = printed(report_text, &fx->r);
    ck_assert_msg(!strncmp(t, "workload transpose (n=64) on a100: ", 35), "header: %.60s", t);
    ck_assert_ptr_nonnull(strstr(t, "\nvariant "));
    ck_assert_ptr_nonnull(strstr(t, "\nsame in every variant: "));
    ck_assert_ptr_nonnull(strstr(t, "\nwhy:\n  naive: "));
    ck_assert_ptr_nonnull(strstr(t, "\nsimulated "));
    ck_assert_ptr_null(strstr(t, "\nproblems:"));
    free(t);
}
END_TEST

/* Each variant's sentence names the cause the workload is about. */
static const struct { const char *variant, *says; } causes[] = {
    { "naive", "uncoalesced" },
    { "tiled", "32-way bank conflict" },
    { "tiled_padded", "shared accesses free of bank conflicts" },
};

START_TEST(test_sentences)
{
    char s[2048];
    explain_row(&fx->r, variant_index(causes[_i].variant), s, sizeof s);
    ck_assert_msg(strstr(s, causes[_i].says) != NULL, "%s: '%s' lacks '%s'", causes[_i].variant, s, causes[_i].says);
}
END_TEST

/* Conflicts are counted against the phases a request needs: a float4
** access takes 4 wavefronts free of conflicts (it was called a 4-way
** conflict), 8 when two lanes of each quarter-warp share a bank. */
START_TEST(test_wide_shared_not_a_conflict)
{
    RunReport r = fx->r;
    RunRow rows[8];
    memcpy(rows, fx->rows, sizeof rows);
    r.rows = rows;
    int v = variant_index("tiled_padded");
    SharedCounts *ld = &rows[v].st.shared[ACCESS_LOAD];
    *ld = (SharedCounts){ .requests = 100, .wavefronts = 400, .ideal_wavefronts = 400, .max_wavefronts = 4,
                          .wavefronts_per_request = 4.0, .ideal_wavefronts_per_request = 4.0 };
    char s[2048];
    explain_row(&r, v, s, sizeof s);
    ck_assert_msg(strstr(s, "bank conflict") == NULL || strstr(s, "free of bank conflicts"), "%s", s);
    ld->wavefronts = 800, ld->max_wavefronts = 8, ld->wavefronts_per_request = 8.0;
    explain_row(&r, v, s, sizeof s);
    ck_assert_msg(strstr(s, "shared loads take 8.0 wavefronts per request where 4.0 would do: 2-way bank conflict"), "%s", s);
}
END_TEST

START_TEST(test_not_finished)
{
    RunReport r = fx->r;
    RunRow rows[8];
    memcpy(rows, fx->rows, sizeof rows);
    rows[1].ran = false;
    rows[1].status = SIM_FAULT;
    r.rows = rows;
    char s[2048];
    explain_row(&r, 1, s, sizeof s);
    ck_assert_msg(strstr(s, "did not finish (fault)") != NULL, "%s", s);
}
END_TEST

/* The sentence starts with the one limit that binds: a unit at 60% of its
** peak or more (others at 50% follow as "also"), else the block launcher
** when blocks waited for it, else latency; --json's "bound" agrees. */
START_TEST(test_binding_limit)
{
    RunReport r = fx->r;
    RunRow rows[8];
    memcpy(rows, fx->rows, sizeof rows);
    r.rows = rows;
    KernelStats *st = &rows[1].st;
    char s[2048];
    for (int k = 0; k < LIMITS; k++) st->throughput[k] = 0.1;
    st->throughput[LIMIT_L2] = 0.8, st->throughput[LIMIT_ISSUE] = 0.55, st->busiest = LIMIT_L2;
    st->launch_queue_share = 0.9;
    explain_row(&r, 1, s, sizeof s);
    ck_assert_msg(!strncmp(s, "L2 at 80% of its peak (", 23), "%s", s);
    ck_assert_msg(strstr(s, "): memory-bound; also issue slots at 55%; ") != NULL, "%s", s);
    ck_assert_msg(strstr(s, "launch") == NULL, "a unit at its peak, yet the launcher named: %s", s);
    ck_assert_str_eq(explain_bound_name(st), "l2");

    st->throughput[LIMIT_L2] = 0.1, st->throughput[LIMIT_FMA] = 0.65, st->busiest = LIMIT_FMA;
    explain_row(&r, 1, s, sizeof s);
    ck_assert_msg(!strncmp(s, "FMA pipe at 65% of its peak (", 29) && strstr(s, "compute-bound"), "%s", s);
    ck_assert_str_eq(explain_bound_name(st), "fma");

    st->throughput[LIMIT_FMA] = 0.4, st->busiest = LIMIT_ISSUE;
    explain_row(&r, 1, s, sizeof s);
    ck_assert_msg(!strncmp(s, "launch-bound: blocks arrive slower than they finish", 51), "%s", s);
    ck_assert_msg(strstr(s, "(the busiest, issue slots, at 55%)") != NULL, "%s", s);
    ck_assert_str_eq(explain_bound_name(st), "launch");

    st->launch_queue_share = 0.1;
    explain_row(&r, 1, s, sizeof s);
    ck_assert_msg(!strncmp(s, "latency-bound: no unit near its peak (the busiest, issue slots, at 55%)", 70), "%s", s);
    ck_assert_str_eq(explain_bound_name(st), "latency");
}
END_TEST

START_TEST(test_json)
{
    char *t = printed(report_json, &fx->r);
    cJSON *root = cJSON_Parse(t);
    ck_assert_msg(root != NULL, "not JSON");
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(root, "variants");
    ck_assert_int_eq(cJSON_GetArraySize(vs), (int)fx->w.nvariants);
    const cJSON *v;
    cJSON_ArrayForEach(v, vs) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(v, "stats");
        for (size_t k = 0; k < report_stat_count(); k++)
            ck_assert_msg(cJSON_GetObjectItemCaseSensitive(st, report_stat_name(k)) != NULL, "no %s", report_stat_name(k));
        const cJSON *stalls = cJSON_GetObjectItemCaseSensitive(st, "stall_reasons");
        ck_assert_int_eq(cJSON_GetArraySize(stalls), STALL_REASONS);
    }
    ck_assert_ptr_null(report_stat_name(report_stat_count()));
    /* every unit's throughput is a stats key, under its ncu name (the table
    ** of cli/report.c lists them one by one) */
    for (int k = 0; k < LIMITS; k++) {
        size_t i = 0;
        while (i < report_stat_count() && strcmp(report_stat_name(i), LIMIT_NCU[k]) != 0) i++;
        ck_assert_msg(i < report_stat_count(), "no stats key %s", LIMIT_NCU[k]);
    }
    cJSON_Delete(root);
    free(t);
}
END_TEST

START_TEST(test_csv)
{
    char *t = printed(report_csv, &fx->r);
    uint32_t lines = 0, header_fields = 0;
    for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        uint32_t fields = 1;
        for (char *p = line; *p; p++) fields += *p == ','; /* no field of transpose holds a comma */
        if (!lines) header_fields = fields;
        else ck_assert_uint_eq(fields, header_fields);
    }
    ck_assert_uint_eq(lines, 1 + fx->w.nvariants);
    ck_assert_uint_ge(header_fields, report_stat_count());
    free(t);
}
END_TEST

START_TEST(test_metric)
{
    const KernelStats *st = &fx->rows[0].st;
    double v;
    ck_assert(report_metric(st, "cycles", &v) && v == (double)st->cycles);
    ck_assert(report_metric(st, "warp_instructions", &v) && v == (double)st->warp_instructions);
    ck_assert(report_metric(st, "smsp__inst_executed.sum", &v) && v == (double)st->warp_instructions);
    ck_assert(report_metric(st, "smsp__pcsamp_warps_issue_stalled_long_scoreboard", &v) &&
              v == (double)st->stall[STALL_LONG_SCOREBOARD]);
    ck_assert(!report_metric(st, "occupancy_limiter", &v)); /* a word, not a number */
    ck_assert(!report_metric(st, "no_such_metric", &v));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report");
    TCase *core = tcase_create("Core");
    tcase_add_unchecked_fixture(core, setup, teardown);
    tcase_set_timeout(core, 120);
    tcase_add_test(core, test_text);
    tcase_add_loop_test(core, test_sentences, 0, (int)(sizeof causes / sizeof causes[0]));
    tcase_add_test(core, test_not_finished);
    tcase_add_test(core, test_wide_shared_not_a_conflict);
    tcase_add_test(core, test_binding_limit);
    tcase_add_test(core, test_json);
    tcase_add_test(core, test_csv);
    tcase_add_test(core, test_metric);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
