/* tests/check_jsonparse.c -- base/jsonparse.h, the one JSON front door:
** each kind of bad text named at its line:col in the one wording, and a
** good text parsed whole. Machine files (check_config) and workloads
** (check_loader) pin the same messages through their loaders. */
#include "base/jsonparse.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonpos.h"

static const struct {
    const char *text;
    size_t      len; /* 0: strlen */
    uint32_t    line, col;
    const char *says;
} bad[] = {
    { "{\n  \"sm\": {\n    \"count\": 108,,\n  }\n}\n", 0, 3, 18, "invalid JSON: unexpected ','" },
    { "{\n  \"sm\": {\n", 0, 2, 10, "invalid JSON: unexpected end of file" },
    { "", 0, 1, 1, "invalid JSON: unexpected end of file" },
    { "{\"a\": \"open", 0, 1, 7, "invalid JSON: unterminated string" },
    { "{\"a\":\0}", 7, 1, 6, "unexpected NUL byte" },
    { "{} {}", 0, 1, 4, "invalid JSON: text after the end of the top-level value" },
    { "{\"a\": \"\xff\"}", 0, 1, 8, "byte 0xff is not UTF-8 text" },
    { "{\"a\": \"x\\u0000y\"}", 0, 1, 9, "\\u0000 (a NUL character) inside a string" },
    { "[1 2]", 0, 1, 4, "invalid JSON: unexpected '2'" },
};

START_TEST(test_bad)
{
    Diag d;
    size_t len = bad[_i].len ? bad[_i].len : strlen(bad[_i].text);
    cJSON *root = jsonparse_text(bad[_i].text, len, "f.json", &d);
    ck_assert_ptr_null(root);
    ck_assert_str_eq(d.file, "f.json");
    ck_assert_msg(strstr(d.message, bad[_i].says) != NULL, "'%s' lacks '%s'", d.message, bad[_i].says);
    ck_assert_msg(d.line == bad[_i].line && d.col == bad[_i].col, "%s at %u:%u, want %u:%u", d.message, d.line, d.col,
                  bad[_i].line, bad[_i].col);
}
END_TEST

START_TEST(test_deep)
{
    char text[JSONPOS_NESTING_LIMIT + 10];
    memset(text, '[', sizeof text);
    Diag d;
    ck_assert_ptr_null(jsonparse_text(text, sizeof text, "deep.json", &d));
    ck_assert_msg(strstr(d.message, "nested too deeply") != NULL, "%s", d.message);
}
END_TEST

START_TEST(test_good)
{
    const char text[] = "{\"name\": \"caf\xc3\xa9\", \"n\": [1, 2]}\n"; /* no terminator is read */
    Diag d;
    cJSON *root = jsonparse_text(text, strlen(text), "g.json", &d);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "name")->valuestring, "caf\xc3\xa9");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "n")), 2);
    cJSON_Delete(root);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonparse");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_good);
    suite_add_tcase(s, core);
    TCase *badc = tcase_create("BadInput");
    tcase_add_loop_test(badc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(badc, test_deep);
    suite_add_tcase(s, badc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
