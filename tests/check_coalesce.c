/* tests/check_coalesce.c -- warp coalescing into lines and sectors (sim/coalesce.h). */
#include "sim/coalesce.h"

#include <check.h>
#include <stdlib.h>

#define ALL  0xFFFFFFFFu
#define BASE 0x10000000ull /* a 128-byte-aligned buffer start */

static void strided(uint64_t addr[32], uint64_t base, uint64_t stride_bytes)
{
    for (unsigned i = 0; i < 32; i++) addr[i] = base + i * stride_bytes;
}

static unsigned popcount(unsigned m)
{
    unsigned n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* the invariants every result must keep, whatever the input */
static void check_consistent(const CoalesceResult *r)
{
    unsigned total = 0;
    ck_assert_uint_le(r->nlines, COALESCE_MAX_LINES);
    for (unsigned i = 0; i < r->nlines; i++) {
        ck_assert_uint_eq(r->line_addr[i] % SECTOR_LINE_BYTES, 0);
        ck_assert_uint_ne(r->sector_mask[i], 0);
        ck_assert_uint_eq(r->sector_mask[i] & ~0xFu, 0);
        total += popcount(r->sector_mask[i]);
        for (unsigned j = 0; j < i; j++) ck_assert(r->line_addr[j] != r->line_addr[i]);
    }
    ck_assert_uint_eq(r->sectors, total);
}

/* ---- Core ---- */

static const struct {
    const char *what;
    unsigned width;
    uint64_t offset, stride;
    uint32_t mask;
    unsigned lines, sectors;
} patterns[] = {
    {"float stride 1",            4,  0,   4, ALL,  1,  4},
    {"float stride 2",            4,  0,   8, ALL,  2,  8},
    {"float stride 32",           4,  0, 128, ALL, 32, 32},
    {"float stride 1, base+4",    4,  4,   4, ALL,  2,  5},
    {"float4 stride 1",          16,  0,  16, ALL,  4, 16},
    {"double stride 1",           8,  0,   8, ALL,  2,  8},
    {"char stride 1",             1,  0,   1, ALL,  1,  1},
    {"short stride 1",            2,  0,   2, ALL,  1,  2},
    {"all lanes one address",     4, 40,   0, ALL,  1,  1},
    {"float stride 8 (1 sector/lane)", 4, 0, 32, ALL, 8, 32},
    {"even lanes, float stride 1", 4, 0,   4, 0x55555555u, 1, 4},
    {"lanes 0-7 only",            4,  0,   4, 0x000000FFu, 1, 1},
};

START_TEST(test_patterns)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + patterns[_i].offset, patterns[_i].stride);
    coalesce_analyze(a, patterns[_i].mask, patterns[_i].width, &r);
    check_consistent(&r);
    ck_assert_msg(r.nlines == patterns[_i].lines, "%s: %u lines, expected %u",
                  patterns[_i].what, r.nlines, patterns[_i].lines);
    ck_assert_msg(r.sectors == patterns[_i].sectors, "%s: %u sectors, expected %u",
                  patterns[_i].what, r.sectors, patterns[_i].sectors);
    ck_assert_uint_eq(r.bytes_requested, popcount(patterns[_i].mask) * patterns[_i].width);
}
END_TEST

START_TEST(test_line_contents)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + 4, 4); /* bytes 4..131: sectors 0-3 of line 0, sector 0 of line 1 */
    coalesce_analyze(a, ALL, 4, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.line_addr[0], BASE);
    ck_assert_uint_eq(r.sector_mask[0], 0xF);
    ck_assert_uint_eq(r.line_addr[1], BASE + 128);
    ck_assert_uint_eq(r.sector_mask[1], 0x1);

    strided(a, BASE + 64, 0); /* broadcast of sector 2 */
    coalesce_analyze(a, ALL, 4, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.line_addr[0], BASE);
    ck_assert_uint_eq(r.sector_mask[0], 0x4);
}
END_TEST

START_TEST(test_first_touch_order)
{
    uint64_t a[32];
    CoalesceResult r;
    /* lanes walk backwards a line at a time, and come back to lines already seen */
    for (unsigned i = 0; i < 32; i++) a[i] = BASE + (uint64_t)(31 - i % 8) * 128 + (i / 8) * 32;
    coalesce_analyze(a, ALL, 4, &r);
    check_consistent(&r);
    ck_assert_uint_eq(r.nlines, 8);
    ck_assert_uint_eq(r.sectors, 32);
    for (unsigned i = 0; i < 8; i++) {
        ck_assert_uint_eq(r.line_addr[i], BASE + (uint64_t)(31 - i) * 128);
        ck_assert_uint_eq(r.sector_mask[i], 0xF);
    }
    /* inactive lane 0: lane 1's line comes first */
    coalesce_analyze(a, ALL & ~1u, 4, &r);
    ck_assert_uint_eq(r.line_addr[0], BASE + 30 * 128);
    ck_assert_uint_eq(r.line_addr[7], BASE + 31 * 128);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_mask_zero)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE, 4);
    coalesce_analyze(a, 0, 4, &r);
    ck_assert_uint_eq(r.nlines, 0);
    ck_assert_uint_eq(r.sectors, 0);
    ck_assert_uint_eq(r.bytes_requested, 0);
}
END_TEST

START_TEST(test_straddle)
{
    uint64_t a[32];
    CoalesceResult r;
    /* a misaligned float4 at byte 120 of a line: last sector of it, first of the next */
    strided(a, BASE + 120, 0);
    coalesce_analyze(a, 0x1u, 16, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.sectors, 2);
    ck_assert_uint_eq(r.sector_mask[0], 0x8);
    ck_assert_uint_eq(r.sector_mask[1], 0x1);
    /* crossing a sector inside a line: one line, two sectors */
    a[0] = BASE + 30;
    coalesce_analyze(a, 0x1u, 4, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sector_mask[0], 0x3);
}
END_TEST

START_TEST(test_worst_case_64_lines)
{
    /* every lane straddles its own pair of lines: 64 lines, no overflow */
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + 120, 256);
    coalesce_analyze(a, ALL, 16, &r);
    check_consistent(&r);
    ck_assert_uint_eq(r.nlines, 64);
    ck_assert_uint_eq(r.sectors, 64);
    ck_assert_uint_eq(r.bytes_requested, 512);
}
END_TEST

START_TEST(test_high_addresses)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, UINT64_MAX - 127, 4); /* the very last line of the address space */
    coalesce_analyze(a, ALL, 4, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sectors, 4);
    a[0] = UINT64_MAX - 1; /* would wrap: clipped at the top */
    coalesce_analyze(a, 0x1u, 16, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sector_mask[0], 0x8);
}
END_TEST

START_TEST(test_scattered_many_lines)
{
    /* pseudo-random lanes over a large buffer: result is consistent and
    ** matches a brute-force count of distinct lines */
    uint64_t a[32];
    CoalesceResult r;
    uint64_t x = 12345;
    for (unsigned rep = 0; rep < 200; rep++) {
        for (unsigned i = 0; i < 32; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            a[i] = BASE + ((x >> 20) % 4096) * 4;
        }
        coalesce_analyze(a, ALL, 4, &r);
        check_consistent(&r);
        unsigned distinct = 0;
        for (unsigned i = 0; i < 32; i++) {
            unsigned seen = 0;
            for (unsigned j = 0; j < i; j++) seen |= a[j] / 128 == a[i] / 128;
            distinct += !seen;
        }
        ck_assert_uint_eq(r.nlines, distinct);
    }
}
END_TEST

static Suite *coalesce_suite(void)
{
    Suite *s = suite_create("coalesce");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_patterns, 0, (int)(sizeof patterns / sizeof patterns[0]));
    tcase_add_test(core, test_line_contents);
    tcase_add_test(core, test_first_touch_order);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_mask_zero);
    tcase_add_test(edge, test_straddle);
    tcase_add_test(edge, test_worst_case_64_lines);
    tcase_add_test(edge, test_high_addresses);
    tcase_add_test(edge, test_scattered_many_lines);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(coalesce_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
