/* tests/check_grow.c -- base/grow.h: room for what is asked, contents kept,
** the capacity doubling from 16, and a count past UINT32_MAX refused with
** the array untouched. */
#include "base/grow.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_grows_and_keeps)
{
    uint32_t *a = NULL, cap = 0;
    for (uint32_t n = 0; n < 1000; n++) {
        ck_assert(grow_array((void **)&a, &cap, n + 1, sizeof *a));
        ck_assert_uint_ge(cap, n + 1);
        a[n] = n * 7;
    }
    ck_assert_uint_eq(cap, 1024); /* 16, 32, ..., 1024 */
    for (uint32_t n = 0; n < 1000; n++) ck_assert_uint_eq(a[n], n * 7);
    ck_assert(grow_array((void **)&a, &cap, 10, sizeof *a)); /* enough already: nothing moves */
    ck_assert_uint_eq(cap, 1024);
    free(a);
}
END_TEST

START_TEST(test_too_many)
{
    char *a = NULL;
    uint32_t cap = 0;
    ck_assert(grow_array((void **)&a, &cap, 16, 1));
    char *before = a;
    ck_assert(!grow_array((void **)&a, &cap, UINT32_MAX, 1)); /* would need a capacity of 2^32 */
    ck_assert_ptr_eq(a, before);
    ck_assert_uint_eq(cap, 16);
    free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("grow");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_grows_and_keeps);
    tcase_add_test(core, test_too_many);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
