/* tests/check_racecheck.c -- shared-memory race checker (sim/racecheck.h). */
#include "sim/racecheck.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define ALL 0xFFFFFFFFu

static RaceCheck *rc;

static void setup(void)
{
    rc = racecheck_create(48 * 1024, 0);
    ck_assert_ptr_nonnull(rc);
}

static void teardown(void)
{
    racecheck_destroy(rc);
    rc = NULL;
}

/* addr[lane] = base + lane * stride */
static void strided(uint64_t addr[32], uint64_t base, uint64_t stride)
{
    for (unsigned l = 0; l < 32; l++) addr[l] = base + l * stride;
}

static void expect_race(const RaceReport *r, RaceHazard h, uint32_t addr, uint32_t t1, uint32_t pc1, uint32_t t2,
                        uint32_t pc2)
{
    ck_assert(r->found);
    ck_assert_int_eq(r->hazard, h);
    ck_assert_uint_eq(r->addr, addr);
    ck_assert_uint_eq(r->first_thread, t1);
    ck_assert_uint_eq(r->first_pc, pc1);
    ck_assert_uint_eq(r->second_thread, t2);
    ck_assert_uint_eq(r->second_pc, pc2);
}

/* ---- Core: the three hazards between warps ---- */

START_TEST(test_waw_across_warps)
{
    RaceReport r = { 0 };
    ck_assert(!racecheck_access(rc, 0, 1, 64, RACE_WRITE, &r));
    ck_assert(racecheck_access(rc, 32, 2, 64, RACE_WRITE, &r));
    expect_race(&r, RACE_WAW, 64, 0, 1, 32, 2);
    ck_assert_int_eq(r.first_access, RACE_WRITE);
    ck_assert_int_eq(r.second_access, RACE_WRITE);
}
END_TEST

START_TEST(test_raw_across_warps)
{
    RaceReport r = { 0 };
    ck_assert(!racecheck_access(rc, 5, 3, 128, RACE_WRITE, &r));
    ck_assert(racecheck_access(rc, 40, 9, 130, RACE_READ, &r)); /* same word: low bits ignored */
    expect_race(&r, RACE_RAW, 128, 5, 3, 40, 9);
}
END_TEST

START_TEST(test_war_across_warps)
{
    RaceReport r = { 0 };
    ck_assert(!racecheck_access(rc, 40, 7, 8, RACE_READ, &r));
    ck_assert(!racecheck_access(rc, 5, 7, 8, RACE_READ, &r));
    ck_assert(racecheck_access(rc, 5, 12, 8, RACE_WRITE, &r));
    expect_race(&r, RACE_WAR, 8, 40, 7, 5, 12);
    ck_assert_ptr_nonnull(racecheck_first(rc));
    ck_assert_uint_eq(racecheck_first(rc)->first_thread, 40);
}
END_TEST

/* Order does not matter, only the missing barrier: the later warp's read
** races even though the write "happened first" in this run. */
START_TEST(test_no_race_after_barrier)
{
    RaceReport r = { 0 };
    racecheck_access(rc, 0, 1, 0, RACE_WRITE, &r);
    racecheck_barrier(rc);
    ck_assert(!racecheck_access(rc, 33, 4, 0, RACE_READ, &r));
    ck_assert(!racecheck_access(rc, 64, 5, 0, RACE_READ, &r));
    racecheck_barrier(rc);
    ck_assert(!racecheck_access(rc, 64, 6, 0, RACE_WRITE, &r));
    ck_assert(!r.found);
    ck_assert_ptr_null(racecheck_first(rc));
}
END_TEST

START_TEST(test_read_only_sharing)
{
    uint64_t a[32];
    strided(a, 256, 0); /* every lane reads one word: a broadcast */
    RaceReport r = { 0 };
    for (uint32_t w = 0; w < 32; w++) ck_assert(!racecheck_warp(rc, w, 10, a, ALL, 4, RACE_READ, &r));
    ck_assert(!r.found);
    /* then one writer: some other warp has read the word */
    ck_assert(racecheck_access(rc, 7 * 32 + 3, 11, 256, RACE_WRITE, &r));
    ck_assert_int_eq(r.hazard, RACE_WAR);
    ck_assert_uint_ne(r.first_thread / 32, 7);
}
END_TEST

/* The reader summary keeps two warps: a writer from either still finds the
** other, however many warps read. */
START_TEST(test_reader_summary)
{
    RaceReport r = { 0 };
    for (uint32_t w = 0; w < 8; w++) racecheck_access(rc, w * 32, 1, 4, RACE_READ, NULL);
    ck_assert(racecheck_access(rc, 0, 2, 4, RACE_WRITE, &r));
    ck_assert_uint_eq(r.first_thread, 32);
    racecheck_reset(rc);
    memset(&r, 0, sizeof r);
    for (uint32_t w = 0; w < 8; w++) racecheck_access(rc, w * 32, 1, 4, RACE_READ, NULL);
    ck_assert(racecheck_access(rc, 32, 2, 4, RACE_WRITE, &r));
    ck_assert_uint_eq(r.first_thread, 0);
}
END_TEST

/* ---- Core: within one warp ---- */

/* all lanes of one st.shared to one word: compute-sanitizer's WAW */
START_TEST(test_waw_same_instruction)
{
    uint64_t a[32];
    strided(a, 32, 0);
    RaceReport r = { 0 };
    ck_assert(racecheck_warp(rc, 2, 6, a, ALL, 4, RACE_WRITE, &r));
    expect_race(&r, RACE_WAW, 32, 64, 6, 65, 6);
}
END_TEST

/* distinct words per lane: no race; the same store again: still none */
START_TEST(test_distinct_words_same_instruction)
{
    uint64_t a[32];
    strided(a, 0, 4);
    RaceReport r = { 0 };
    ck_assert(!racecheck_warp(rc, 0, 6, a, ALL, 4, RACE_WRITE, &r));
    ck_assert(!racecheck_warp(rc, 0, 6, a, ALL, 4, RACE_WRITE, &r)); /* a loop: a new instance */
    ck_assert(!r.found);
}
END_TEST

/* lane 0 writes, then the whole warp reads it: ordered in lockstep, a race
** once lanes are independent (RACECHECK_INTRA_WARP) */
static bool lane0_then_broadcast(unsigned flags, RaceReport *r)
{
    RaceCheck *c = racecheck_create(1024, flags);
    uint64_t a[32];
    strided(a, 100, 0);
    bool raced = racecheck_warp(c, 1, 3, a, 1u, 4, RACE_WRITE, r);
    raced |= racecheck_warp(c, 1, 4, a, ALL, 4, RACE_READ, r);
    racecheck_destroy(c);
    return raced;
}

START_TEST(test_intra_warp_mode)
{
    RaceReport r = { 0 };
    ck_assert(!lane0_then_broadcast(0, &r));
    ck_assert(lane0_then_broadcast(RACECHECK_INTRA_WARP, &r));
    expect_race(&r, RACE_RAW, 100, 32, 3, 33, 4);
}
END_TEST

/* ---- Core: atomics ---- */

START_TEST(test_atomics)
{
    uint64_t a[32];
    strided(a, 0, 0);
    RaceReport r = { 0 };
    for (uint32_t w = 0; w < 4; w++) ck_assert(!racecheck_warp(rc, w, 2, a, ALL, 4, RACE_ATOMIC, &r));
    ck_assert(racecheck_access(rc, 1, 8, 0, RACE_READ, &r)); /* warp 0's atomics don't count for it */
    ck_assert_int_eq(r.hazard, RACE_RAW);
    ck_assert_uint_ne(r.first_thread / 32, 0);
    ck_assert_int_eq(r.first_access, RACE_ATOMIC);

    racecheck_reset(rc);
    memset(&r, 0, sizeof r);
    racecheck_access(rc, 3, 1, 4, RACE_READ, NULL);
    ck_assert(racecheck_access(rc, 99, 2, 4, RACE_ATOMIC, &r));
    expect_race(&r, RACE_WAR, 4, 3, 1, 99, 2);

    racecheck_reset(rc);
    memset(&r, 0, sizeof r);
    racecheck_access(rc, 3, 1, 4, RACE_WRITE, NULL);
    ck_assert(racecheck_access(rc, 99, 2, 4, RACE_ATOMIC, &r));
    expect_race(&r, RACE_WAW, 4, 3, 1, 99, 2);
}
END_TEST

/* ---- Core: kernels' shapes ---- */

/* transpose through a 32x32 tile: warp w writes row w, then reads column w */
static bool transpose(bool barrier, RaceReport *r)
{
    uint64_t a[32];
    bool raced = false;
    for (uint32_t w = 0; w < 32; w++) {
        strided(a, (uint64_t)w * 32 * 4, 4);
        raced |= racecheck_warp(rc, w, 5, a, ALL, 4, RACE_WRITE, r);
    }
    if (barrier) racecheck_barrier(rc);
    for (uint32_t w = 0; w < 32; w++) {
        strided(a, (uint64_t)w * 4, 32 * 4);
        raced |= racecheck_warp(rc, w, 7, a, ALL, 4, RACE_READ, r);
    }
    return raced;
}

START_TEST(test_transpose_tile)
{
    RaceReport r = { 0 };
    ck_assert(!transpose(true, &r));
    racecheck_reset(rc);
    ck_assert(transpose(false, &r));
    /* warp 0 reads column 0: word 32 (row 1) was written by warp 1, lane 0 */
    expect_race(&r, RACE_RAW, 32 * 4, 32, 5, 1, 7);
}
END_TEST

/* tree reduction over 256 floats: s[t] += s[t + k] for t < k, barrier per level */
static bool reduction(bool barriers, RaceReport *r)
{
    bool raced = false;
    for (uint32_t k = 128; k >= 1; k /= 2) {
        for (uint32_t t = 0; t < k; t++) {
            raced |= racecheck_access(rc, t, 20, 4 * t, RACE_READ, r);
            raced |= racecheck_access(rc, t, 21, 4 * (t + k), RACE_READ, r);
            raced |= racecheck_access(rc, t, 22, 4 * t, RACE_WRITE, r);
        }
        if (barriers) racecheck_barrier(rc);
    }
    return raced;
}

START_TEST(test_reduction_tree)
{
    RaceReport r = { 0 };
    ck_assert(!reduction(true, &r));
    racecheck_reset(rc);
    ck_assert(reduction(false, &r));
    ck_assert(r.found);
}
END_TEST

/* st.shared.v4: lane l writes words 4l..4l+3; another warp reads word 4l+3 */
START_TEST(test_vector_width)
{
    uint64_t a[32];
    strided(a, 0, 16);
    RaceReport r = { 0 };
    ck_assert(!racecheck_warp(rc, 0, 1, a, ALL, 16, RACE_WRITE, &r));
    strided(a, 12, 16);
    ck_assert(racecheck_warp(rc, 1, 2, a, 0x4u, 4, RACE_READ, &r));
    expect_race(&r, RACE_RAW, 2 * 16 + 12, 2, 1, 32 + 2, 2);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_first_report_kept)
{
    RaceReport r = { 0 };
    racecheck_access(rc, 0, 1, 0, RACE_WRITE, &r);
    racecheck_access(rc, 32, 2, 0, RACE_READ, &r);
    ck_assert(racecheck_access(rc, 64, 3, 0, RACE_WRITE, &r)); /* a second race ... */
    expect_race(&r, RACE_RAW, 0, 0, 1, 32, 2);                /* ... leaves the first */
    ck_assert_uint_eq(racecheck_first(rc)->second_thread, 32);
    racecheck_barrier(rc);
    ck_assert_ptr_nonnull(racecheck_first(rc)); /* a barrier keeps the report */
    racecheck_reset(rc);
    ck_assert_ptr_null(racecheck_first(rc)); /* a new block does not */
    ck_assert(!racecheck_access(rc, 32, 2, 0, RACE_READ, NULL));
}
END_TEST

START_TEST(test_bounds)
{
    uint64_t a[32];
    strided(a, 48 * 1024 - 8, 0);
    ck_assert(!racecheck_warp(rc, 0, 1, a, 1u, 16, RACE_WRITE, NULL)); /* the last 2 of its 4 words are outside */
    ck_assert(racecheck_access(rc, 32, 2, 48 * 1024 - 4, RACE_READ, NULL));
    ck_assert(!racecheck_access(rc, 32, 2, 48 * 1024, RACE_READ, NULL));
    strided(a, (uint64_t)1 << 40, 0);
    ck_assert(!racecheck_warp(rc, 0, 1, a, ALL, 4, RACE_WRITE, NULL));
    ck_assert(!racecheck_warp(rc, 0, 1, a, 0, 4, RACE_WRITE, NULL));

    RaceCheck *none = racecheck_create(0, 0);
    ck_assert_ptr_nonnull(none);
    ck_assert(!racecheck_access(none, 0, 1, 0, RACE_WRITE, NULL));
    ck_assert(!racecheck_access(none, 32, 1, 0, RACE_WRITE, NULL));
    racecheck_barrier(none);
    racecheck_destroy(none);
    racecheck_destroy(NULL);

    ck_assert_uint_ge(racecheck_bytes(48 * 1024), 12 * 1024 * RACECHECK_WORD_BYTES);
    ck_assert_uint_lt(racecheck_bytes(48 * 1024), 12 * 1024 * RACECHECK_WORD_BYTES + 4096);
}
END_TEST

START_TEST(test_describe)
{
    RaceReport r = { 0 };
    racecheck_access(rc, 1, 7, 0x40, RACE_READ, NULL);
    racecheck_access(rc, 33, 12, 0x40, RACE_WRITE, &r);
    char buf[256];
    const uint32_t ntid[3] = { 16, 4, 1 };
    racecheck_describe(&r, ntid, buf, sizeof buf);
    ck_assert_str_eq(buf, "write-after-read race on shared memory word 0x40: thread (1,2,0) wrote at pc 12 "
                          "after thread (1,0,0) read at pc 7, with no bar.sync between");
    RaceReport none = { 0 };
    racecheck_describe(&none, ntid, buf, sizeof buf);
    ck_assert_str_eq(buf, "no shared-memory race");
    racecheck_describe(&r, ntid, buf, 8);
    ck_assert_uint_eq(strlen(buf), 7);
    ck_assert_str_eq(racecheck_access_name(RACE_ATOMIC), "atomic");
    ck_assert_str_eq(racecheck_hazard_name(RACE_WAW), "write-after-write");
}
END_TEST

static Suite *racecheck_suite(void)
{
    Suite *s = suite_create("racecheck");
    TCase *core = tcase_create("Core");
    tcase_add_checked_fixture(core, setup, teardown);
    tcase_add_test(core, test_waw_across_warps);
    tcase_add_test(core, test_raw_across_warps);
    tcase_add_test(core, test_war_across_warps);
    tcase_add_test(core, test_no_race_after_barrier);
    tcase_add_test(core, test_read_only_sharing);
    tcase_add_test(core, test_reader_summary);
    tcase_add_test(core, test_waw_same_instruction);
    tcase_add_test(core, test_distinct_words_same_instruction);
    tcase_add_test(core, test_intra_warp_mode);
    tcase_add_test(core, test_atomics);
    tcase_add_test(core, test_transpose_tile);
    tcase_add_test(core, test_reduction_tree);
    tcase_add_test(core, test_vector_width);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_checked_fixture(edge, setup, teardown);
    tcase_add_test(edge, test_first_report_kept);
    tcase_add_test(edge, test_bounds);
    tcase_add_test(edge, test_describe);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(racecheck_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
