/* tests/check_file.c -- capped whole-file reads (base/file.h): a file of
** exactly the limit is read, one byte more is refused, a missing file says
** why, and the text is NUL-terminated. */
#include "base/file.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void write_bytes(size_t n)
{
    snprintf(path, sizeof path, "/tmp/gpusim_check_file_%d", (int)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < n; i++) fputc('a' + (int)(i % 26), f);
    fclose(f);
}

START_TEST(test_exact_limit)
{
    static const size_t sizes[] = { 0, 1, 100, 65535, 65536, 65537, 200000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        write_bytes(n);
        char *text, why[128];
        size_t len;
        ck_assert_int_eq(file_read(path, n, &text, &len, why, sizeof why), FILE_READ_OK);
        ck_assert_uint_eq(len, n);
        ck_assert_int_eq(text[len], '\0');
        if (n) ck_assert_int_eq(text[n - 1], 'a' + (int)((n - 1) % 26));
        free(text);
        if (n) {
            ck_assert_int_eq(file_read(path, n - 1, &text, &len, why, sizeof why), FILE_READ_TOO_LARGE);
            ck_assert_ptr_null(text);
            ck_assert_msg(strstr(why, "file larger than") == why, "%s", why);
        }
        unlink(path);
    }
}
END_TEST

START_TEST(test_missing)
{
    char *text, why[128];
    size_t len;
    ck_assert_int_eq(file_read("/nonexistent/dir/file", 10, &text, &len, why, sizeof why), FILE_READ_CANNOT_OPEN);
    ck_assert_str_eq(why, "No such file or directory");
    ck_assert_int_eq(file_read("/nonexistent/dir/file", 10, &text, &len, NULL, 0), FILE_READ_CANNOT_OPEN);
}
END_TEST

START_TEST(test_mib_wording)
{
    write_bytes(3);
    char *text, why[128];
    size_t len;
    ck_assert_int_eq(file_read(path, 2, &text, &len, why, sizeof why), FILE_READ_TOO_LARGE);
    ck_assert_str_eq(why, "file larger than 2 bytes");
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("file");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_exact_limit);
    tcase_add_test(core, test_mib_wording);
    suite_add_tcase(s, core);
    TCase *bad = tcase_create("BadInput");
    tcase_add_test(bad, test_missing);
    suite_add_tcase(s, bad);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
