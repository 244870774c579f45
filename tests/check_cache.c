/* tests/check_cache.c -- set-associative sector cache (sim/cache.h). */
#include "sim/cache.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"

#define LINE 128u
#define ALLS 0xFu

static Cache *make(uint64_t size, uint32_t assoc)
{
    Diag d;
    memset(&d, 0, sizeof d);
    Cache *c = cache_create(size, assoc, &d);
    ck_assert_msg(c != NULL, "cache_create(%llu, %u): %s", (unsigned long long)size, assoc, d.message);
    return c;
}

static int popcount_ref(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static CacheStats stats(const Cache *c)
{
    CacheStats s;
    cache_stats(c, &s);
    return s;
}

/* ---- Core ---- */

START_TEST(test_hit_after_miss)
{
    Cache *c = make(4096, 4);
    ck_assert_uint_eq(cache_access(c, 0x1000, ALLS, CACHE_READ, NULL), 0);
    ck_assert_uint_eq(cache_access(c, 0x1000, ALLS, CACHE_READ, NULL), ALLS);
    ck_assert_uint_eq(cache_access(c, 0x107F, 0x2, CACHE_READ, NULL), 0x2); /* any byte of the line */
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_accesses, 9);
    ck_assert_uint_eq(s.sector_hits, 5);
    ck_assert_uint_eq(s.sector_misses, 4);
    ck_assert_uint_eq(s.writebacks_sectors, 0);
    cache_destroy(c);
}
END_TEST

START_TEST(test_sector_granularity)
{
    Cache *c = make(4096, 4);
    ck_assert_uint_eq(cache_access(c, 0, 0x1, CACHE_READ, NULL), 0);
    /* the line is resident but sector 1 is not: a sector miss */
    ck_assert_uint_eq(cache_access(c, 0, 0x3, CACHE_READ, NULL), 0x1);
    ck_assert_uint_eq(cache_access(c, 0, 0xF, CACHE_READ, NULL), 0x3);
    ck_assert_uint_eq(cache_access(c, 0, 0xF, CACHE_READ, NULL), 0xF);
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_accesses, 1 + 2 + 4 + 4);
    ck_assert_uint_eq(s.sector_misses, 1 + 1 + 2);
    ck_assert_uint_eq(s.sector_hits, 1 + 2 + 4);
    cache_destroy(c);
}
END_TEST

START_TEST(test_lru_order)
{
    /* 2 ways, 2 sets: lines 0, 2, 4 ... map to set 0 */
    Cache *c = make(2 * 2 * LINE, 2);
    const uint64_t A = 0 * LINE, B = 2 * LINE, C = 4 * LINE;
    cache_access(c, A, 1, CACHE_READ, NULL);
    cache_access(c, B, 1, CACHE_READ, NULL);
    ck_assert_uint_eq(cache_access(c, A, 1, CACHE_READ, NULL), 1); /* A becomes MRU */
    cache_access(c, C, 1, CACHE_READ, NULL);                        /* evicts B, the LRU */
    ck_assert_uint_eq(cache_access(c, A, 1, CACHE_READ, NULL), 1);
    ck_assert_uint_eq(cache_access(c, C, 1, CACHE_READ, NULL), 1);
    ck_assert_uint_eq(cache_access(c, B, 1, CACHE_READ, NULL), 0); /* gone; now evicts A */
    ck_assert_uint_eq(cache_access(c, C, 1, CACHE_READ, NULL), 1);
    ck_assert_uint_eq(cache_access(c, A, 1, CACHE_READ, NULL), 0);
    /* the other set was never disturbed */
    cache_access(c, 1 * LINE, 1, CACHE_READ, NULL);
    ck_assert_uint_eq(cache_access(c, 1 * LINE, 1, CACHE_READ, NULL), 1);
    cache_destroy(c);
}
END_TEST

START_TEST(test_write_through_noalloc)
{
    Cache *c = make(4096, 4);
    /* a write to an absent line allocates nothing */
    ck_assert_uint_eq(cache_access(c, 0x200, ALLS, CACHE_WRITE_THROUGH_NOALLOC, NULL), 0);
    ck_assert_uint_eq(cache_access(c, 0x200, ALLS, CACHE_READ, NULL), 0);
    /* present sectors take the write; absent ones stay absent */
    cache_access(c, 0x400, 0x1, CACHE_READ, NULL);
    ck_assert_uint_eq(cache_access(c, 0x400, 0x3, CACHE_WRITE_THROUGH_NOALLOC, NULL), 0x1);
    ck_assert_uint_eq(cache_access(c, 0x400, 0x3, CACHE_READ, NULL), 0x1);
    /* nothing is ever dirty */
    ck_assert_uint_eq(cache_flush(c), 0);
    ck_assert_uint_eq(stats(c).writebacks_sectors, 0);
    cache_destroy(c);
}
END_TEST

START_TEST(test_write_back_dirty_eviction)
{
    Cache *c = make(2 * LINE, 2); /* one set, two ways */
    unsigned evicted = 99;
    ck_assert_uint_eq(cache_access(c, 0 * LINE, 0x3, CACHE_WRITE_BACK_ALLOC, &evicted), 0);
    ck_assert_uint_eq(evicted, 0); /* an empty way: nothing evicted */
    /* a written sector reads back as a hit (full-sector writes need no fill) */
    ck_assert_uint_eq(cache_access(c, 0 * LINE, 0x7, CACHE_READ, &evicted), 0x3);
    ck_assert_uint_eq(evicted, 0);
    cache_access(c, 1 * LINE, 0xF, CACHE_READ, NULL); /* clean line */
    cache_access(c, 2 * LINE, 0x1, CACHE_READ, &evicted); /* evicts line 0: 2 dirty sectors */
    ck_assert_uint_eq(evicted, 2);
    ck_assert_uint_eq(stats(c).writebacks_sectors, 2);
    cache_access(c, 3 * LINE, 0x1, CACHE_READ, &evicted); /* evicts line 1: clean */
    ck_assert_uint_eq(evicted, 0);
    ck_assert_uint_eq(stats(c).writebacks_sectors, 2);
    /* writes into a resident line dirty more sectors */
    cache_access(c, 2 * LINE, 0x1, CACHE_WRITE_BACK_ALLOC, NULL);
    cache_access(c, 2 * LINE, 0xC, CACHE_WRITE_BACK_ALLOC, NULL);
    ck_assert_uint_eq(cache_flush(c), 3);
    ck_assert_uint_eq(cache_flush(c), 0); /* flushed lines are clean ... */
    ck_assert_uint_eq(cache_access(c, 2 * LINE, 0xD, CACHE_READ, NULL), 0xD); /* ... and still valid */
    ck_assert_uint_eq(stats(c).writebacks_sectors, 5);
    cache_destroy(c);
}
END_TEST

/* streaming a buffer bigger than the cache: LRU keeps nothing useful */
static const struct { uint64_t size; uint32_t assoc; } geoms[] = {
    {32 * 1024, 4}, {48 * 1024, 6}, {128 * 1024, 16}, {640 * 1024, 16}, {16 * 1024, 1},
};

START_TEST(test_stream_larger_all_miss)
{
    Cache *c = make(geoms[_i].size, geoms[_i].assoc);
    const uint64_t bytes = geoms[_i].size * 2;
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t a = 0; a < bytes; a += LINE)
            ck_assert_uint_eq(cache_access(c, 0x40000000 + a, ALLS, CACHE_READ, NULL), 0);
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_hits, 0);
    ck_assert_uint_eq(s.sector_misses, 3 * bytes / 32);
    cache_destroy(c);
}
END_TEST

START_TEST(test_reread_smaller_all_hit)
{
    Cache *c = make(geoms[_i].size, geoms[_i].assoc);
    const uint64_t bytes = geoms[_i].size; /* exactly fits: contiguous lines fill every set evenly */
    for (uint64_t a = 0; a < bytes; a += LINE) cache_access(c, a, ALLS, CACHE_READ, NULL);
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t a = 0; a < bytes; a += LINE)
            ck_assert_uint_eq(cache_access(c, a, ALLS, CACHE_READ, NULL), ALLS);
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_misses, bytes / 32);
    ck_assert_uint_eq(s.sector_hits, 2 * bytes / 32);
    cache_destroy(c);
}
END_TEST

/* A plain reference: per set, a list of (line, valid, dirty, last use),
** the empty way or else the least recently used one is replaced. */
typedef struct { uint64_t line; unsigned valid, dirty; uint64_t used; int present; } RefWay;

static const struct { uint64_t size; uint32_t assoc; uint64_t span_lines; } ref_geoms[] = {
    {2 * LINE, 2, 5}, {3 * 4 * LINE, 4, 40}, {64 * LINE, 8, 200}, {96 * LINE, 1, 300}, {7 * 3 * LINE, 3, 64},
};

START_TEST(test_matches_reference)
{
    const uint64_t size = ref_geoms[_i].size;
    const uint32_t assoc = ref_geoms[_i].assoc;
    const uint64_t sets = size / LINE / assoc;
    Cache *c = make(size, assoc);
    RefWay *ref = calloc(sets * assoc, sizeof *ref);
    ck_assert_ptr_nonnull(ref);
    uint64_t x = 42 + (uint64_t)_i, t = 0, wb = 0;
    for (int op = 0; op < 20000; op++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t line = (x >> 33) % ref_geoms[_i].span_lines;
        const unsigned want = (unsigned)(x >> 20) & 0xFu;
        const CacheAccessKind kind = (CacheAccessKind)((x >> 40) % 3);
        if (!want) continue;
        t++;
        RefWay *set = ref + (line % sets) * assoc;
        RefWay *w = NULL;
        for (uint32_t k = 0; k < assoc; k++)
            if (set[k].present && set[k].line == line) w = &set[k];
        unsigned expect = 0, expect_evicted = 0;
        if (w) {
            expect = want & w->valid;
            w->used = t;
            if (kind != CACHE_WRITE_THROUGH_NOALLOC) w->valid |= want;
            if (kind == CACHE_WRITE_BACK_ALLOC) w->dirty |= want;
        } else if (kind != CACHE_WRITE_THROUGH_NOALLOC) {
            RefWay *v = NULL;
            for (uint32_t k = 0; k < assoc && !v; k++)
                if (!set[k].present) v = &set[k];
            for (uint32_t k = 0; k < assoc && !v; k++)
                if (!w || set[k].used < w->used) w = &set[k];
            if (!v) v = w;
            expect_evicted = (unsigned)popcount_ref(v->dirty);
            wb += expect_evicted;
            *v = (RefWay){line, want, kind == CACHE_WRITE_BACK_ALLOC ? want : 0, t, 1};
        }
        unsigned evicted = 99;
        ck_assert_uint_eq(cache_access(c, line * LINE + (x & 127), (uint8_t)want, kind, &evicted), expect);
        ck_assert_uint_eq(evicted, expect_evicted);
    }
    ck_assert_uint_eq(stats(c).writebacks_sectors, wb);
    free(ref);
    cache_destroy(c);
}
END_TEST

START_TEST(test_fill)
{
    Cache *c = make(2 * LINE, 2); /* one set, two ways */
    unsigned evicted = 99;
    cache_access(c, 0 * LINE, 0x1, CACHE_WRITE_BACK_ALLOC, NULL);
    ck_assert_uint_eq(cache_fill(c, 0 * LINE, 0x3, &evicted), 0x1); /* says what was there ... */
    ck_assert_uint_eq(evicted, 0);
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_accesses, 1); /* ... but is no access */
    ck_assert_uint_eq(s.sector_hits, 0);
    ck_assert_uint_eq(s.sector_misses, 1);
    ck_assert_uint_eq(cache_access(c, 0 * LINE, 0x3, CACHE_READ, NULL), 0x3); /* filled */
    /* a fill allocates and makes its line most recently used, like a read */
    cache_fill(c, 1 * LINE, 0xF, NULL);
    cache_fill(c, 0 * LINE, 0x4, NULL);
    ck_assert_uint_eq(cache_fill(c, 2 * LINE, 0x1, &evicted), 0); /* evicts line 1, clean */
    ck_assert_uint_eq(evicted, 0);
    ck_assert_uint_eq(cache_fill(c, 3 * LINE, 0x1, &evicted), 0); /* evicts line 0: its dirty sector */
    ck_assert_uint_eq(evicted, 1);
    s = stats(c);
    ck_assert_uint_eq(s.writebacks_sectors, 1); /* evictions are real */
    ck_assert_uint_eq(s.sector_accesses, 1 + 2);
    ck_assert_uint_eq(cache_fill(c, 3 * LINE, 0, &evicted), 0); /* nothing asked: nothing done */
    ck_assert_uint_eq(evicted, 0);
    cache_destroy(c);
}
END_TEST

START_TEST(test_reset)
{
    Cache *c = make(4096, 2);
    cache_access(c, 0, ALLS, CACHE_WRITE_BACK_ALLOC, NULL);
    cache_reset(c);
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_accesses, 0);
    ck_assert_uint_eq(s.writebacks_sectors, 0);
    ck_assert_uint_eq(cache_access(c, 0, ALLS, CACHE_READ, NULL), 0);
    ck_assert_uint_eq(cache_flush(c), 0); /* dirty data was dropped by reset */
    cache_destroy(c);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_size_zero)
{
    Cache *c = make(0, 0);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(cache_access(c, 0, ALLS, CACHE_READ, NULL), 0);
        ck_assert_uint_eq(cache_access(c, 0, 0x3, CACHE_WRITE_BACK_ALLOC, NULL), 0);
        ck_assert_uint_eq(cache_fill(c, 0, ALLS, NULL), 0); /* no access: not counted */
    }
    CacheStats s = stats(c);
    ck_assert_uint_eq(s.sector_accesses, 18);
    ck_assert_uint_eq(s.sector_misses, 18);
    ck_assert_uint_eq(s.sector_hits, 0);
    ck_assert_uint_eq(cache_flush(c), 0);
    cache_reset(c);
    cache_destroy(c);
}
END_TEST

START_TEST(test_odd_set_count)
{
    /* 40 MB, 16 ways: 20480 sets (not a power of two), like an A100 L2 */
    Cache *c = make(40ull * 1024 * 1024, 16);
    for (uint64_t a = 0; a < 40ull * 1024 * 1024; a += LINE) cache_access(c, a, ALLS, CACHE_READ, NULL);
    for (uint64_t a = 0; a < 40ull * 1024 * 1024; a += 64 * LINE)
        ck_assert_uint_eq(cache_access(c, a, ALLS, CACHE_READ, NULL), ALLS);
    cache_destroy(c);

    /* 3 sets x 2 ways: lines 0, 3, 6 share set 0 */
    c = make(3 * 2 * LINE, 2);
    cache_access(c, 0 * LINE, 1, CACHE_READ, NULL);
    cache_access(c, 3 * LINE, 1, CACHE_READ, NULL);
    cache_access(c, 1 * LINE, 1, CACHE_READ, NULL);
    cache_access(c, 2 * LINE, 1, CACHE_READ, NULL);
    ck_assert_uint_eq(cache_access(c, 0 * LINE, 1, CACHE_READ, NULL), 1);
    cache_access(c, 6 * LINE, 1, CACHE_READ, NULL); /* evicts line 3 */
    ck_assert_uint_eq(cache_access(c, 3 * LINE, 1, CACHE_READ, NULL), 0);
    ck_assert_uint_eq(cache_access(c, 1 * LINE, 1, CACHE_READ, NULL), 1);
    ck_assert_uint_eq(cache_access(c, 2 * LINE, 1, CACHE_READ, NULL), 1);
    cache_destroy(c);
}
END_TEST

START_TEST(test_mask_bits)
{
    Cache *c = make(4096, 4);
    /* no sector asked: no access at all */
    ck_assert_uint_eq(cache_access(c, 0, 0, CACHE_READ, NULL), 0);
    ck_assert_uint_eq(stats(c).sector_accesses, 0);
    /* bits above the four sectors are ignored */
    ck_assert_uint_eq(cache_access(c, 0, 0xF1, CACHE_READ, NULL), 0);
    ck_assert_uint_eq(cache_access(c, 0, 0xFF, CACHE_READ, NULL), 0x1);
    ck_assert_uint_eq(stats(c).sector_accesses, 5);
    cache_destroy(c);
}
END_TEST

START_TEST(test_high_addresses)
{
    Cache *c = make(4096, 4);
    const uint64_t top = UINT64_MAX - 127;
    cache_access(c, top, ALLS, CACHE_READ, NULL);
    ck_assert_uint_eq(cache_access(c, UINT64_MAX, ALLS, CACHE_READ, NULL), ALLS);
    cache_destroy(c);
}
END_TEST

static const struct { uint64_t size; uint32_t assoc; const char *needle; } bad[] = {
    {4096, 0, "associativity"},
    {4000, 4, "multiple"},
    {256, 4, "multiple"},   /* smaller than one set */
    {3 * LINE, 2, "multiple"},
};

START_TEST(test_bad_geometry)
{
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_ptr_null(cache_create(bad[_i].size, bad[_i].assoc, &d));
    ck_assert_msg(strstr(d.message, bad[_i].needle) != NULL, "message: %s", d.message);
    ck_assert_uint_eq(d.line, 0);
    ck_assert_str_eq(d.file, "");
    /* a NULL Diag is allowed */
    ck_assert_ptr_null(cache_create(bad[_i].size, bad[_i].assoc, NULL));
}
END_TEST

START_TEST(test_destroy_null)
{
    cache_destroy(NULL);
}
END_TEST

/* With modulo indexing, lines a whole number of "ways" apart all fall in one
** set; hashed indexing (as the timing model uses) spreads them. 64 KB,
** 4-way: 128 sets. 16 lines 128 sets apart thrash 4 ways under modulo and
** all fit when hashed. */
START_TEST(test_hashed_index_spreads_power_of_two_strides)
{
    for (int hashed = 0; hashed <= 1; hashed++) {
        Cache *c = cache_create(64 * 1024, 4, NULL);
        ck_assert_ptr_nonnull(c);
        cache_set_hashed(c, hashed);
        for (int pass = 0; pass < 2; pass++)
            for (uint64_t i = 0; i < 16; i++) cache_access(c, i * 128 * 128, 0xF, CACHE_READ, NULL);
        CacheStats st;
        cache_stats(c, &st);
        if (hashed) ck_assert_uint_eq(st.sector_hits, 16 * 4);
        else ck_assert_uint_eq(st.sector_hits, 0);
        cache_destroy(c);
    }
}
END_TEST

/* The set index's division by multiplication (bits_div32, bits_mod32) is
** exact: divisors that are set counts of the presets' caches and the
** awkward ones (2, 3, odd, just below a power of two, 2^32 - 1), against
** numerators at the edges and a million drawn ones. */
START_TEST(test_division_by_multiplication)
{
    const uint64_t divisors[] = { 2, 3, 5, 7, 127, 640, 1000, 20480, 40960, 61440, 65535, 98304,
                                  1u << 20 | 1, 2147483647u, 2147483648u, 4294967295u };
    uint64_t x = 0x243F6A8885A308D3ull;
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        const uint64_t d = divisors[i], magic = bits_div_magic(d);
        const uint64_t edges[] = { 0, 1, d - 1, d, d + 1, 2 * d - 1, UINT32_MAX / d * d, UINT32_MAX - 1, UINT32_MAX };
        for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
            uint64_t n = edges[k] > UINT32_MAX ? UINT32_MAX : edges[k];
            ck_assert_uint_eq(bits_div32(n, magic), n / d);
            ck_assert_uint_eq(bits_mod32(n, magic, d), n % d);
        }
        for (int k = 0; k < 1000000 / 16; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t n = x >> 32;
            if (bits_div32(n, magic) != n / d || bits_mod32(n, magic, d) != n % d)
                ck_abort_msg("%llu / %llu", (unsigned long long)n, (unsigned long long)d);
        }
    }
}
END_TEST

static Suite *cache_suite(void)
{
    Suite *s = suite_create("cache");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_hit_after_miss);
    tcase_add_test(core, test_division_by_multiplication);
    tcase_add_test(core, test_sector_granularity);
    tcase_add_test(core, test_lru_order);
    tcase_add_test(core, test_write_through_noalloc);
    tcase_add_test(core, test_write_back_dirty_eviction);
    tcase_add_loop_test(core, test_stream_larger_all_miss, 0, (int)(sizeof geoms / sizeof geoms[0]));
    tcase_add_loop_test(core, test_reread_smaller_all_hit, 0, (int)(sizeof geoms / sizeof geoms[0]));
    tcase_add_loop_test(core, test_matches_reference, 0, (int)(sizeof ref_geoms / sizeof ref_geoms[0]));
    tcase_add_test(core, test_fill);
    tcase_add_test(core, test_reset);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_size_zero);
    tcase_add_test(edge, test_odd_set_count);
    tcase_add_test(edge, test_hashed_index_spreads_power_of_two_strides);
    tcase_add_test(edge, test_mask_bits);
    tcase_add_test(edge, test_high_addresses);
    tcase_add_test(edge, test_destroy_null);
    suite_add_tcase(s, edge);

    TCase *badin = tcase_create("BadInput");
    tcase_add_loop_test(badin, test_bad_geometry, 0, (int)(sizeof bad / sizeof bad[0]));
    suite_add_tcase(s, badin);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cache_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
