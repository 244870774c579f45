/* tests/check_stats.c -- the names sim/stats.h gives: every stall reason is
** one of Nsight Compute's (tests/ncu_stall_reasons.txt, with its source),
** spelt as ncu spells it, and the warp state a block waiting for its launch
** puts a warp in is not among the stall reasons. */
#include "sim/stats.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 64

/* Reads ncu's list: one name a line, '#' comments and blank lines skipped. */
static int ncu_names(char names[MAX_NAMES][64])
{
    FILE *f = fopen(TESTS_DIR "/ncu_stall_reasons.txt", "r");
    ck_assert_msg(f != NULL, "cannot open " TESTS_DIR "/ncu_stall_reasons.txt");
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        ck_assert_int_lt(n, MAX_NAMES);
        ck_assert_uint_lt(strlen(line), 64);
        strcpy(names[n++], line);
    }
    fclose(f);
    return n;
}

static bool listed(char names[MAX_NAMES][64], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

START_TEST(test_stall_reasons_are_ncus)
{
    char names[MAX_NAMES][64];
    int n = ncu_names(names);
    ck_assert_int_eq(n, 18); /* the list as ncu has it: a changed file is a changed source */
    for (int k = 0; k < STALL_REASONS; k++)
        ck_assert_msg(listed(names, n, STALL_NAMES[k]), "stall reason '%s' is not one of Nsight Compute's",
                      STALL_NAMES[k]);
    for (int k = 0; k < STALL_REASONS; k++)
        for (int j = 0; j < k; j++) ck_assert_str_ne(STALL_NAMES[j], STALL_NAMES[k]);
}
END_TEST

START_TEST(test_block_launch_is_not_a_stall)
{
    char names[MAX_NAMES][64];
    int n = ncu_names(names);
    ck_assert_int_eq(STALL_REASONS, STALL_BLOCK_LAUNCH);
    ck_assert_int_eq(STALL_COUNT, STALL_BLOCK_LAUNCH + 1);
    ck_assert(!listed(names, n, STALL_NAMES[STALL_BLOCK_LAUNCH]));
    ck_assert_str_eq(STALL_NAMES[STALL_BLOCK_LAUNCH], "block_launch");
    for (int k = 0; k < STALL_COUNT; k++) ck_assert(STALL_HELP[k] && STALL_HELP[k][0]);
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_stall_reasons_are_ncus);
    tcase_add_test(core, test_block_launch_is_not_a_stall);
    suite_add_tcase(s, core);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(stats_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
