/* tests/check_jsonpos.c -- JSON source positions (base/jsonpos.h): paths
** to values and keys, duplicate keys by member number, strings with
** escapes, the one column rule (characters, not bytes), and syntax helpers. */
#include "base/jsonpos.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static void at(const char *text, const JsonPath *p, bool key, uint32_t line, uint32_t col)
{
    size_t off;
    ck_assert(jsonpos_locate(text, strlen(text), p, key, &off));
    uint32_t l, c;
    jsonpos_line_col(text, strlen(text), off, &l, &c);
    ck_assert_msg(l == line && c == col, "at %u:%u, expected %u:%u", l, c, line, col);
}

START_TEST(test_values_and_keys)
{
    const char *t = "{\"a\": 1,\n \"b\": [10, {\"c\": true}],\n \"a\": \"dup\"}";
    JsonPath p = { .n = 0 };
    jsonpos_push(&p, "b", 1);
    jsonpos_push(&p, NULL, 1);
    jsonpos_push(&p, "c", 0);
    at(t, &p, false, 2, 18);
    at(t, &p, true, 2, 13);
    char buf[64];
    jsonpos_format(&p, buf, sizeof buf);
    ck_assert_str_eq(buf, "b[1].c");
    JsonPath q = { .n = 0 };
    jsonpos_push(&q, "a", 2); /* the second "a": by member number */
    at(t, &q, true, 3, 2);
    jsonpos_pop(&q);
    ck_assert_int_eq(q.n, 0);
}
END_TEST

START_TEST(test_utf8_columns)
{
    /* "é" is two bytes and one column; a BOM is skipped */
    const char *t = "\xEF\xBB\xBF{\"n\\u00e9\": \"\xC3\xA9\xC3\xA9\", \"x\": 5}";
    JsonPath p = { .n = 0 };
    jsonpos_push(&p, "x", 1);
    size_t off;
    ck_assert(jsonpos_locate(t, strlen(t), &p, false, &off));
    ck_assert_int_eq(t[off], '5');
    uint32_t l, c;
    jsonpos_line_col(t, strlen(t), off, &l, &c);
    ck_assert_uint_eq(l, 1);
    ck_assert_uint_eq(c, 25); /* the BOM counts as one character before the '{' */
}
END_TEST

START_TEST(test_string_offset_and_open_string)
{
    const char *t = "{\"k\": \"a\\nb\\u0041c\"}";
    size_t q = (size_t)(strchr(t + 5, '"') - t); /* the value's opening quote */
    ck_assert_int_eq(t[jsonpos_string_offset(t, strlen(t), q, 0)], 'a');
    ck_assert_int_eq(t[jsonpos_string_offset(t, strlen(t), q, 2)], 'b');
    ck_assert_int_eq(t[jsonpos_string_offset(t, strlen(t), q, 4)], 'c');
    const char *u = "{\"a\": \"ok\", \"b\": \"never closed}";
    ck_assert_uint_eq(jsonpos_open_string(u, strlen(u)), 17);
    ck_assert_uint_eq(jsonpos_open_string(t, strlen(t)), strlen(t));
}
END_TEST

START_TEST(test_bad_paths)
{
    const char *t = "[1, 2]";
    JsonPath p = { .n = 0 };
    jsonpos_push(&p, NULL, 5);
    size_t off;
    ck_assert(!jsonpos_locate(t, strlen(t), &p, false, &off));
    JsonPath deep = { .n = 0 };
    for (int i = 0; i < 40; i++) jsonpos_push(&deep, NULL, 0); /* steps past the limit are counted, not kept */
    ck_assert_int_eq(deep.n, 40);
    char buf[512];
    jsonpos_format(&deep, buf, sizeof buf);
    ck_assert_uint_eq(strlen(buf), 3 * JSONPOS_MAX_DEPTH);
}
END_TEST


START_TEST(test_nul_escape_and_depth)
{
    const char *a = "{\"k\": \"x\\u0000y\"}";       /* a NUL escape inside a string */
    ck_assert_uint_eq(jsonpos_find_nul_escape(a, strlen(a)), 8);
    const char *b = "{\"k\": \"x\\\\u0000y\"}";   /* an escaped backslash, then the text u0000 */
    ck_assert_uint_eq(jsonpos_find_nul_escape(b, strlen(b)), strlen(b));
    const char *c = "{\"k\": 1} \\u0000";             /* outside any string */
    ck_assert_uint_eq(jsonpos_find_nul_escape(c, strlen(c)), strlen(c));
    const char *d = "[{\"a\": [\"[[\", [1]]}]";
    ck_assert_uint_eq(jsonpos_depth_at(d, strlen(d), 0), 0);
    ck_assert_uint_eq(jsonpos_depth_at(d, strlen(d), 8), 3);  /* inside the string, its brackets uncounted */
    ck_assert_uint_eq(jsonpos_depth_at(d, strlen(d), 15), 4);
    ck_assert_uint_eq(jsonpos_depth_at(d, strlen(d), strlen(d)), 0);
}
END_TEST


START_TEST(test_utf8_validation)
{
    static const struct { const char *s; size_t bad; } cases[] = {
        { "plain ascii", 11 },
        { "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 14 },   /* é, euro, an emoji */
        { "x\xFFy", 1 },                                              /* never a UTF-8 byte */
        { "x\xC3", 1 },                                               /* cut short */
        { "x\xC0\xAFy", 1 },                                         /* overlong '/' */
        { "x\xED\xA0\x80", 1 },                                     /* a surrogate */
        { "x\xF4\x90\x80\x80", 1 },                                /* past U+10FFFF */
        { "ab\xE2\x82", 2 },                                         /* three-byte form cut short */
        { "\xE2\x28\xA1", 0 },                                      /* a bad continuation byte */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(jsonpos_find_bad_utf8(cases[i].s, strlen(cases[i].s)) == cases[i].bad, "case %zu", i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonpos");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_values_and_keys);
    tcase_add_test(core, test_utf8_columns);
    tcase_add_test(core, test_string_offset_and_open_string);
    tcase_add_test(core, test_nul_escape_and_depth);
    tcase_add_test(core, test_utf8_validation);
    suite_add_tcase(s, core);
    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_bad_paths);
    suite_add_tcase(s, edge);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
