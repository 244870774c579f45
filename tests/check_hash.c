/* tests/check_hash.c -- base/hash.h against FNV-1a's published test
** vectors, and continuation: hashing in pieces equals hashing at once (the
** compile cache and the sweep spec hash their inputs piece by piece). */
#include "base/hash.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *in; uint64_t h64; uint32_t h32; } vectors[] = {
    { "", 0xcbf29ce484222325ull, 0x811c9dc5u },
    { "a", 0xaf63dc4c8601ec8cull, 0xe40c292cu },
    { "foobar", 0x85944171f73967e8ull, 0xbf9cf968u },
};

START_TEST(test_vectors)
{
    const char *s = vectors[_i].in;
    ck_assert_uint_eq(hash_fnv64(HASH_FNV64_OFFSET, s, strlen(s)), vectors[_i].h64);
    ck_assert_uint_eq(hash_fnv32(HASH_FNV32_OFFSET, s, strlen(s)), vectors[_i].h32);
}
END_TEST

/* the sweep's start, kept for the files written with it */
START_TEST(test_sweep_offset)
{
    ck_assert_uint_eq(hash_fnv64(HASH_SWEEP_OFFSET, "", 0), 1469598103934665603ull);
    ck_assert_uint_ne(HASH_SWEEP_OFFSET, HASH_FNV64_OFFSET);
}
END_TEST

START_TEST(test_pieces)
{
    uint64_t h = hash_fnv64(HASH_FNV64_OFFSET, "foo", 3);
    ck_assert_uint_eq(hash_fnv64(h, "bar", 3), 0x85944171f73967e8ull);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hash");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_vectors, 0, (int)(sizeof vectors / sizeof vectors[0]));
    tcase_add_test(core, test_pieces);
    tcase_add_test(core, test_sweep_offset);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
