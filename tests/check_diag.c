/* tests/check_diag.c -- error values (base/diag.h): formatting, and the
** bounded edit distance of the "did you mean" hints against the textbook
** full-table Levenshtein on random strings. */
#include "base/diag.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static size_t full_levenshtein(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), t[65][65];
    for (size_t i = 0; i <= la; i++) t[i][0] = i;
    for (size_t j = 0; j <= lb; j++) t[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (t[i - 1][j] + 1 < best) best = t[i - 1][j] + 1;
            if (t[i][j - 1] + 1 < best) best = t[i][j - 1] + 1;
            t[i][j] = best;
        }
    return t[la][lb];
}

START_TEST(test_edit_distance_bounded)
{
    uint64_t x = 0x243F6A8885A308D3ull;
    char a[40], b[40];
    for (int round = 0; round < 20000; round++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        size_t la = (x >> 33) % 12, lb = (x >> 45) % 12;
        for (size_t i = 0; i < la; i++) a[i] = (char)('a' + (x >> (i * 2 + 3)) % 3);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        for (size_t i = 0; i < lb; i++) b[i] = (char)('a' + (x >> (i * 2 + 5)) % 3);
        a[la] = b[lb] = 0;
        size_t want = full_levenshtein(a, b);
        for (size_t max = 0; max <= 6; max++) {
            size_t got = diag_edit_distance(a, b, max);
            if (want <= max) ck_assert_msg(got == want, "'%s' '%s' max %zu: %zu, want %zu", a, b, max, got, want);
            else ck_assert_msg(got == max + 1, "'%s' '%s' max %zu: %zu, want %zu (far)", a, b, max, got, max + 1);
        }
    }
    ck_assert_uint_eq(diag_edit_distance("sm.count", "sm.cuont", 3), 2);
    char long_name[80];
    memset(long_name, 'x', 79);
    long_name[79] = 0;
    ck_assert_uint_eq(diag_edit_distance(long_name, long_name, 3), 4); /* 64 characters or more: far */
}
END_TEST

/* "Did you mean": the closest within the bound, the first of equals; the
** proportional rule keeps a short word from being "corrected". */
START_TEST(test_near)
{
    const char *names[] = { "naive", "tiled", "tiled_padded", "copy" };
    DiagNear n = diag_near_start("tiled_pad", 3, false);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_str_eq(n.best, "tiled_padded");
    ck_assert_uint_eq(n.dist, 3);
    n = diag_near_start("tilde", 2, true);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_ptr_null(n.best); /* "tiled" is 2 edits away: more than one per three of 5 characters */
    n = diag_near_start("tilde", 2, false);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_str_eq(n.best, "tiled"); /* without the proportional rule */
    n = diag_near_start("cop", 2, true);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_str_eq(n.best, "copy"); /* 1 edit in 3 characters */
    n = diag_near_start("co", 2, true);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_ptr_null(n.best); /* 2 edits in 2 characters: no guess */
    n = diag_near_start("zzzzzz", 3, false);
    for (int i = 0; i < 4; i++) diag_near_offer(&n, names[i]);
    ck_assert_ptr_null(n.best);
}
END_TEST

/* A list for a message: ", " between names, cut (and terminated) when full. */
START_TEST(test_join)
{
    char buf[16];
    size_t len = 0;
    const char *names[] = { "naive", "tiled", "tiled_padded", "copy" };
    for (int i = 0; i < 2; i++) len = diag_join(buf, sizeof buf, len, names[i]);
    ck_assert_str_eq(buf, "naive, tiled");
    ck_assert_uint_eq(len, 12);
    for (int i = 2; i < 4; i++) len = diag_join(buf, sizeof buf, len, names[i]);
    ck_assert_uint_eq(len, sizeof buf);
    ck_assert_str_eq(buf, "naive, tiled, t"); /* cut, terminated */
    char one[8];
    ck_assert_uint_eq(diag_join(one, sizeof one, 0, "copy"), 4);
    ck_assert_str_eq(one, "copy");
}
END_TEST

START_TEST(test_format)
{
    Diag d;
    diag_set(&d, "k.asm", 3, 7, "expected %s", "a register");
    ck_assert_str_eq(d.file, "k.asm");
    ck_assert_uint_eq(d.line, 3);
    ck_assert_uint_eq(d.col, 7);
    ck_assert_str_eq(d.message, "expected a register");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    diag_print(f, &d);
    diag_set(&d, NULL, 0, 0, "no position");
    diag_print(f, &d);
    fclose(f);
    ck_assert_str_eq(buf, "k.asm:3:7: error: expected a register\nerror: no position\n");
    free(buf);
    /* a message may quote the Diag it replaces */
    diag_set(&d, "a.json", 1, 1, "first");
    diag_set(&d, "b.json", 2, 2, "%s, then second", d.message);
    ck_assert_str_eq(d.message, "first, then second");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diag");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_edit_distance_bounded);
    tcase_add_test(core, test_format);
    tcase_add_test(core, test_near);
    tcase_add_test(core, test_join);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
