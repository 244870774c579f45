/* tests/check_names.c -- the name index (base/names.h): finds what was
** added, nothing else, across growth, with names in a moving array. */
#include "base/names.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char (*name)[16];
} Table;

static const char *name_of(const void *ctx, uint32_t id) { return ((const Table *)ctx)->name[id]; }

START_TEST(test_many_names)
{
    enum { N = 100000 };
    Table t = { NULL };
    NameIndex ix = { 0 };
    uint32_t cap = 0;
    for (uint32_t i = 0; i < N; i++) {
        if (i == cap) { /* the array moves as it grows */
            cap = cap ? 2 * cap : 16;
            t.name = realloc(t.name, (size_t)cap * sizeof *t.name);
            ck_assert_ptr_nonnull(t.name);
        }
        snprintf(t.name[i], sizeof t.name[i], "k%u", i);
        ck_assert_uint_eq(names_find(&ix, t.name[i], strlen(t.name[i]), name_of, &t), NAMES_NONE);
        ck_assert(names_add(&ix, i, name_of, &t));
    }
    ck_assert_uint_eq(ix.n, N);
    for (uint32_t i = 0; i < N; i += 997) {
        char buf[16];
        snprintf(buf, sizeof buf, "k%u", i);
        ck_assert_uint_eq(names_find(&ix, buf, strlen(buf), name_of, &t), i);
    }
    /* a prefix of a name, or a name with more after it, is not that name */
    ck_assert_uint_eq(names_find(&ix, "k1", 1, name_of, &t), NAMES_NONE);
    ck_assert_uint_eq(names_find(&ix, "k12x", 4, name_of, &t), NAMES_NONE);
    ck_assert_uint_eq(names_find(&ix, "k12x", 3, name_of, &t), 12);
    names_clear(&ix);
    ck_assert_uint_eq(names_find(&ix, "k5", 2, name_of, &t), NAMES_NONE);
    names_free(&ix);
    free(t.name);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("names");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_many_names);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
