/* tests/check_coalesce.c -- warp coalescing into lines and sectors, the sectors a
** store writes whole and the lanes an atomic serialises on (sim/coalesce.h). */
#include "sim/coalesce.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
    unsigned full;    /* sectors a store writes whole          */
    unsigned same;    /* the most lanes at one address          */
} patterns[] = {
    {"float stride 1",            4,  0,   4, ALL,  1,  4,  4,  1},
    {"float stride 2",            4,  0,   8, ALL,  2,  8,  0,  1},
    {"float stride 32",           4,  0, 128, ALL, 32, 32,  0,  1},
    {"float stride 1, base+4",    4,  4,   4, ALL,  2,  5,  3,  1},
    {"float4 stride 1",          16,  0,  16, ALL,  4, 16, 16,  1},
    {"double stride 1",           8,  0,   8, ALL,  2,  8,  8,  1},
    {"char stride 1",             1,  0,   1, ALL,  1,  1,  1,  1},
    {"short stride 1",            2,  0,   2, ALL,  1,  2,  2,  1},
    {"all lanes one address",     4, 40,   0, ALL,  1,  1,  0, 32},
    {"float stride 8 (1 sector/lane)", 4, 0, 32, ALL, 8, 32, 0, 1},
    {"even lanes, float stride 1", 4, 0,   4, 0x55555555u, 1, 4, 0, 1},
    {"lanes 0-7 only",            4,  0,   4, 0x000000FFu, 1, 1, 1, 1},
};

static unsigned total_full(const CoalesceResult *r)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->nlines; i++) {
        ck_assert_uint_eq(r->full_mask[i] & ~r->sector_mask[i], 0); /* whole sectors are touched ones */
        n += popcount(r->full_mask[i]);
    }
    return n;
}

START_TEST(test_patterns)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + patterns[_i].offset, patterns[_i].stride);
    for (CoalesceKind kind = COALESCE_LOAD; kind <= COALESCE_ATOMIC; kind++) {
        coalesce_analyze(a, patterns[_i].mask, patterns[_i].width, kind, &r);
        check_consistent(&r);
        ck_assert_msg(r.nlines == patterns[_i].lines, "%s: %u lines, expected %u",
                      patterns[_i].what, r.nlines, patterns[_i].lines);
        ck_assert_msg(r.sectors == patterns[_i].sectors, "%s: %u sectors, expected %u",
                      patterns[_i].what, r.sectors, patterns[_i].sectors);
        ck_assert_uint_eq(r.bytes_requested, popcount(patterns[_i].mask) * patterns[_i].width);
        unsigned full = total_full(&r), want_full = kind == COALESCE_STORE ? patterns[_i].full : 0;
        ck_assert_msg(full == want_full, "%s (kind %d): %u whole sectors, expected %u", patterns[_i].what, kind,
                      full, want_full);
        ck_assert_uint_eq(r.max_same_address, kind == COALESCE_ATOMIC ? patterns[_i].same : 0);
    }
}
END_TEST

START_TEST(test_line_contents)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + 4, 4); /* bytes 4..131: sectors 0-3 of line 0, sector 0 of line 1 */
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.line_addr[0], BASE);
    ck_assert_uint_eq(r.sector_mask[0], 0xF);
    ck_assert_uint_eq(r.line_addr[1], BASE + 128);
    ck_assert_uint_eq(r.sector_mask[1], 0x1);

    strided(a, BASE + 64, 0); /* broadcast of sector 2 */
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
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
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
    check_consistent(&r);
    ck_assert_uint_eq(r.nlines, 8);
    ck_assert_uint_eq(r.sectors, 32);
    for (unsigned i = 0; i < 8; i++) {
        ck_assert_uint_eq(r.line_addr[i], BASE + (uint64_t)(31 - i) * 128);
        ck_assert_uint_eq(r.sector_mask[i], 0xF);
    }
    /* inactive lane 0: lane 1's line comes first */
    coalesce_analyze(a, ALL & ~1u, 4, COALESCE_LOAD, &r);
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
    coalesce_analyze(a, 0, 4, COALESCE_LOAD, &r);
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
    coalesce_analyze(a, 0x1u, 16, COALESCE_LOAD, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.sectors, 2);
    ck_assert_uint_eq(r.sector_mask[0], 0x8);
    ck_assert_uint_eq(r.sector_mask[1], 0x1);
    /* crossing a sector inside a line: one line, two sectors */
    a[0] = BASE + 30;
    coalesce_analyze(a, 0x1u, 4, COALESCE_LOAD, &r);
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
    coalesce_analyze(a, ALL, 16, COALESCE_LOAD, &r);
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
    coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sectors, 4);
    a[0] = UINT64_MAX - 1; /* would wrap: clipped at the top */
    coalesce_analyze(a, 0x1u, 16, COALESCE_LOAD, &r);
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
        coalesce_analyze(a, ALL, 4, COALESCE_LOAD, &r);
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

/* ---- Whole sectors of a store, same-address lanes of an atomic ---- */

START_TEST(test_full_sectors_per_line)
{
    uint64_t a[32];
    CoalesceResult r;
    strided(a, BASE + 4, 4); /* bytes 4..131: sector 0 lacks bytes 0..3, line 1 has 4 bytes */
    coalesce_analyze(a, ALL, 4, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.full_mask[0], 0xE);
    ck_assert_uint_eq(r.full_mask[1], 0x0);

    /* overlapping lanes: eight words written four times each cover sector 2 */
    for (unsigned i = 0; i < 32; i++) a[i] = BASE + 64 + (i % 8) * 4;
    coalesce_analyze(a, ALL, 4, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sector_mask[0], 0x4);
    ck_assert_uint_eq(r.full_mask[0], 0x4);
    /* ... but not when one of those words is left out */
    coalesce_analyze(a, ALL & ~0x01010101u, 4, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.full_mask[0], 0x0);

    /* misaligned 16-byte lanes at 0, 8 and 24: bytes 0..39, sector 0 whole, 1 in part */
    a[0] = BASE, a[1] = BASE + 8, a[2] = BASE + 24;
    coalesce_analyze(a, 0x7u, 16, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.nlines, 1);
    ck_assert_uint_eq(r.sector_mask[0], 0x3);
    ck_assert_uint_eq(r.full_mask[0], 0x1);

    /* a float4 straddling two lines writes neither end sector whole */
    a[0] = BASE + 120;
    coalesce_analyze(a, 0x1u, 16, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.full_mask[0], 0x0);
    ck_assert_uint_eq(r.full_mask[1], 0x0);

    /* a full warp of consecutive floats from byte 16 (the contiguous case, unaligned to sectors) */
    strided(a, BASE + 16, 4);
    coalesce_analyze(a, ALL, 4, COALESCE_STORE, &r);
    ck_assert_uint_eq(r.nlines, 2);
    ck_assert_uint_eq(r.sector_mask[0], 0xF);
    ck_assert_uint_eq(r.full_mask[0], 0xE);
    ck_assert_uint_eq(r.sector_mask[1], 0x1);
    ck_assert_uint_eq(r.full_mask[1], 0x0);
}
END_TEST

/* The byte-by-byte rule: a sector is whole when every one of its 32 bytes
** is written by an active lane. */
static void full_reference(const uint64_t a[32], uint32_t mask, unsigned width, const CoalesceResult *r,
                           uint8_t full[COALESCE_MAX_LINES])
{
    uint32_t covered[COALESCE_MAX_LINES][SECTORS_PER_LINE];
    memset(covered, 0, sizeof covered);
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        for (unsigned b = 0; b < width; b++) {
            uint64_t x = a[l] + b, line = x - x % SECTOR_LINE_BYTES;
            for (unsigned i = 0; i < r->nlines; i++)
                if (r->line_addr[i] == line) {
                    unsigned off = (unsigned)(x % SECTOR_LINE_BYTES);
                    covered[i][off / SECTOR_BYTES] |= 1u << (off % SECTOR_BYTES);
                }
        }
    }
    for (unsigned i = 0; i < r->nlines; i++) {
        full[i] = 0;
        for (unsigned s = 0; s < SECTORS_PER_LINE; s++)
            if (covered[i][s] == UINT32_MAX) full[i] |= (uint8_t)(1u << s);
    }
}

static uint32_t same_reference(const uint64_t a[32], uint32_t mask)
{
    uint32_t best = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        uint32_t n = 0;
        for (unsigned j = 0; j < 32; j++) n += (mask >> j & 1u) && a[j] == a[l];
        if (n > best) best = n;
    }
    return best;
}

START_TEST(test_full_and_same_match_reference)
{
    /* random lanes over a few lines, aligned or not, any width and mask:
    ** overlaps, whole sectors and repeated addresses all happen */
    static const unsigned widths[] = { 1, 2, 4, 8, 16 };
    uint64_t a[32], x = 99;
    uint8_t want[COALESCE_MAX_LINES];
    CoalesceResult r;
    for (unsigned rep = 0; rep < 3000; rep++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned width = widths[(x >> 33) % 5];
        bool aligned = (x >> 40) & 1;
        uint32_t mask = (x >> 41) & 1 ? ALL : (uint32_t)(x >> 13);
        unsigned span = 16 + (unsigned)((x >> 50) % 400); /* bytes the lanes land in */
        for (unsigned i = 0; i < 32; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t off = (x >> 24) % span;
            a[i] = BASE + (aligned ? off - off % width : off);
        }
        if (rep % 7 == 0) strided(a, BASE + (x >> 60), width); /* contiguous, maybe sector-unaligned */
        coalesce_analyze(a, mask, width, COALESCE_STORE, &r);
        check_consistent(&r);
        full_reference(a, mask, width, &r, want);
        for (unsigned i = 0; i < r.nlines; i++)
            ck_assert_msg(r.full_mask[i] == want[i], "rep %u line %u: full 0x%x, expected 0x%x", rep, i,
                          r.full_mask[i], want[i]);
        ck_assert_uint_eq(coalesce_max_same_address(a, mask), same_reference(a, mask));
        coalesce_analyze(a, mask, width, COALESCE_ATOMIC, &r);
        ck_assert_uint_eq(r.max_same_address, same_reference(a, mask));
    }
}
END_TEST

START_TEST(test_max_same_address)
{
    uint64_t a[32];
    strided(a, BASE, 4);
    ck_assert_uint_eq(coalesce_max_same_address(a, ALL), 1);
    ck_assert_uint_eq(coalesce_max_same_address(a, 0), 0);
    for (unsigned i = 0; i < 32; i++) a[i] = BASE + (i < 5 ? 0 : i < 8 ? 4 : 8 + i * 4); /* 5 at one, 3 at another */
    ck_assert_uint_eq(coalesce_max_same_address(a, ALL), 5);
    ck_assert_uint_eq(coalesce_max_same_address(a, ALL & ~0x3u), 3); /* inactive lanes do not count */
    strided(a, BASE + 8, 0);
    ck_assert_uint_eq(coalesce_max_same_address(a, 0x80000001u), 2);
    /* equal addresses, not equal words: bytes 0 and 1 of one word are two addresses */
    a[1] = BASE + 9;
    ck_assert_uint_eq(coalesce_max_same_address(a, 0x3u), 1);
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

    TCase *needs = tcase_create("StoreAtomic");
    tcase_add_test(needs, test_full_sectors_per_line);
    tcase_add_test(needs, test_full_and_same_match_reference);
    tcase_add_test(needs, test_max_same_address);
    suite_add_tcase(s, needs);
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
