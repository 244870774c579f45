/* tests/check_jsonstr.c -- base/jsonstr.h: every byte class escaped as JSON
** wants it, the length needed whatever the room, a cut string still
** terminated, and the stream form the same bytes as the buffer form. */
#include "base/jsonstr.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *in, *out; } cases[] = {
    { "", "\"\"" },
    { "plain", "\"plain\"" },
    { "a\"b", "\"a\\\"b\"" },
    { "back\\slash", "\"back\\\\slash\"" },
    { "line\nfeed\r\ttab", "\"line\\nfeed\\r\\ttab\"" },
    { "\x01\x1f", "\"\\u0001\\u001f\"" },
    { "caf\xc3\xa9 \x7f", "\"caf\xc3\xa9 \x7f\"" }, /* UTF-8 and DEL as they are */
    { "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },           /* four bytes, U+1F600 */
    /* bytes that are not UTF-8 become U+FFFD, one each (JSON text is UTF-8):
    ** a stray continuation, Latin-1, an overlong '/', a surrogate, past
    ** U+10FFFF, a sequence cut by the end or by ASCII */
    { "a\x80" "b", "\"a\\ufffdb\"" },
    { "caf\xe9", "\"caf\\ufffd\"" },
    { "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
    { "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
    { "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
    { "\xe2\x82", "\"\\ufffd\\ufffd\"" },
    { "\xe2x", "\"\\ufffdx\"" },
};

START_TEST(test_escape)
{
    char buf[64];
    size_t n = jsonstr_escape(buf, sizeof buf, cases[_i].in);
    ck_assert_str_eq(buf, cases[_i].out);
    ck_assert_uint_eq(n, strlen(cases[_i].out));
    ck_assert_uint_eq(jsonstr_escape(NULL, 0, cases[_i].in), n);
}
END_TEST

START_TEST(test_stream_matches_buffer)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    jsonstr_write(f, cases[_i].in);
    fclose(f);
    ck_assert_str_eq(text, cases[_i].out);
    free(text);
}
END_TEST

START_TEST(test_cut_short)
{
    char buf[5];
    size_t n = jsonstr_escape(buf, sizeof buf, "a\"bcdef");
    ck_assert_uint_eq(n, strlen("\"a\\\"bcdef\""));
    ck_assert_uint_eq(strlen(buf), 4);
    ck_assert_str_eq(buf, "\"a\\\"");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("jsonstr");
    TCase *core = tcase_create("Core");
    int n = (int)(sizeof cases / sizeof cases[0]);
    tcase_add_loop_test(core, test_escape, 0, n);
    tcase_add_loop_test(core, test_stream_matches_buffer, 0, n);
    suite_add_tcase(s, core);
    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_cut_short);
    suite_add_tcase(s, edge);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
