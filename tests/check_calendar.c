/* tests/check_calendar.c -- the wake-up calendar (base/calendar.h): cycles
** come out in order with every id queued for them, once, whether they were
** in the buckets or the heap; each and reset; a cycle not after base is
** surfaced, not lost. Checked against a plain list of (cycle, id). */
#include "base/calendar.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define IDS 300 /* five words of ids */

typedef struct {
    uint64_t at;
    uint32_t id;
    bool     live;
} Ref;

/* Takes c's earliest cycle, which must be ref's, and checks its set is
** exactly ref's ids at that cycle. False when both are empty. */
static bool take_and_compare(Calendar *c, Ref *ref, uint32_t nref)
{
    uint64_t want = CALENDAR_NONE;
    for (uint32_t i = 0; i < nref; i++)
        if (ref[i].live && ref[i].at < want) want = ref[i].at;
    uint64_t t = calendar_first(c);
    ck_assert_uint_eq(t, want);
    if (t == CALENDAR_NONE) return false;
    uint64_t got[(IDS + 63) / 64] = { 0 }, exp[(IDS + 63) / 64] = { 0 };
    calendar_take(c, t, got);
    ck_assert_uint_eq(c->base, t);
    for (uint32_t i = 0; i < nref; i++)
        if (ref[i].live && ref[i].at == t) {
            exp[ref[i].id / 64] |= 1ull << (ref[i].id % 64);
            ref[i].live = false;
        }
    ck_assert_msg(memcmp(got, exp, sizeof got) == 0, "cycle %llu: other ids", (unsigned long long)t);
    return true;
}

/* Pushes drawn ahead of base by up to `reach` cycles, taking the earliest
** cycle now and then so that base moves and heap entries enter the span. */
static void run_drawn(uint64_t reach, uint32_t seed)
{
    Calendar c;
    ck_assert(calendar_init(&c, IDS, 1000));
    static Ref ref[6000];
    uint32_t nref = 0;
    uint64_t x = seed;
    for (uint32_t round = 0; round < 40; round++) {
        for (uint32_t i = 0; i < 100; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t at = c.base + 1 + (x >> 33) % reach;
            uint32_t id = (uint32_t)(x >> 13) % IDS;
            ck_assert(calendar_push(&c, at, id));
            ref[nref++] = (Ref){ at, id, true };
        }
        for (uint32_t k = 0; k < 3; k++) take_and_compare(&c, ref, nref); /* base moves on */
    }
    uint32_t cycles = 0;
    while (take_and_compare(&c, ref, nref)) cycles++;
    ck_assert_uint_gt(cycles, 0);
    calendar_free(&c);
}

/* Near (all in the buckets), across the span's edge, and far (mostly heap). */
static const uint64_t REACH[] = { 8, CALENDAR_SPAN, CALENDAR_SPAN + 1, 3 * CALENDAR_SPAN, 5000 };

START_TEST(test_drawn_against_a_list)
{
    run_drawn(REACH[_i], 7u + (uint32_t)_i);
}
END_TEST

START_TEST(test_same_cycle_from_bucket_and_heap_comes_out_once)
{
    Calendar c;
    ck_assert(calendar_init(&c, IDS, 0));
    ck_assert(calendar_push(&c, 200, 5));   /* far: heap */
    ck_assert(calendar_push(&c, 200, 5));   /* twice */
    ck_assert(calendar_push(&c, 150, 1));   /* far too */
    uint64_t set[(IDS + 63) / 64] = { 0 };
    ck_assert_uint_eq(calendar_first(&c), 150);
    calendar_take(&c, 150, set);
    ck_assert_uint_eq(set[0], 1ull << 1);
    ck_assert(calendar_push(&c, 200, 299)); /* now within the span: a bucket */
    ck_assert(calendar_push(&c, 200, 5));   /* a third time, in the bucket */
    memset(set, 0, sizeof set);
    ck_assert_uint_eq(calendar_first(&c), 200);
    calendar_take(&c, 200, set);
    ck_assert_uint_eq(set[0], 1ull << 5);
    ck_assert_uint_eq(set[299 / 64], 1ull << (299 % 64));
    ck_assert_uint_eq(calendar_first(&c), CALENDAR_NONE);
    calendar_free(&c);
}
END_TEST

static void collect(void *user, uint64_t at, uint32_t id)
{
    uint64_t *sum = user;
    sum[0]++;
    sum[1] += at * 1000 + id;
}

START_TEST(test_each_and_reset)
{
    Calendar c;
    ck_assert(calendar_init(&c, IDS, 100)); /* base + 1 is not bucket 0: wraps */
    uint64_t want = 0;
    const uint64_t at[] = { 101, 130, 163, 164, 165, 400 };
    for (uint32_t i = 0; i < 6; i++) {
        ck_assert(calendar_push(&c, at[i], 64 * (i % 5) + i));
        want += at[i] * 1000 + 64 * (i % 5) + i;
    }
    uint64_t sum[2] = { 0, 0 };
    calendar_each(&c, collect, sum);
    ck_assert_uint_eq(sum[0], 6);
    ck_assert_uint_eq(sum[1], want);
    calendar_reset(&c, 500);
    ck_assert_uint_eq(calendar_first(&c), CALENDAR_NONE);
    sum[0] = sum[1] = 0;
    calendar_each(&c, collect, sum);
    ck_assert_uint_eq(sum[0], 0);
    /* reset buckets are empty: a push after it brings back nothing old */
    ck_assert(calendar_push(&c, 501, 3));
    uint64_t set[(IDS + 63) / 64] = { 0 };
    calendar_take(&c, calendar_first(&c), set);
    ck_assert_uint_eq(set[0], 1ull << 3);
    for (uint32_t k = 1; k < (IDS + 63) / 64; k++) ck_assert_uint_eq(set[k], 0);
    calendar_free(&c);
}
END_TEST

START_TEST(test_a_cycle_not_after_base_is_surfaced)
{
    Calendar c;
    ck_assert(calendar_init(&c, IDS, 1000));
    ck_assert(calendar_push(&c, 1010, 2));
    ck_assert(calendar_push(&c, 1000, 7)); /* not after base: the caller's error to see */
    ck_assert_uint_eq(calendar_first(&c), 1000);
    calendar_free(&c);
}
END_TEST

static Suite *calendar_suite(void)
{
    Suite *s = suite_create("calendar");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_drawn_against_a_list, 0, sizeof REACH / sizeof REACH[0]);
    tcase_add_test(core, test_same_cycle_from_bucket_and_heap_comes_out_once);
    tcase_add_test(core, test_each_and_reset);
    suite_add_tcase(s, core);
    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_a_cycle_not_after_base_is_surfaced);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(calendar_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
