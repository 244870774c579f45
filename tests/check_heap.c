/* tests/check_heap.c -- the (key, id) min-heap (base/heap.h): order, ties
** broken by id, fixed storage and growth. */
#include "base/heap.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_sorted_with_ties)
{
    Heap h = { 0 };
    ck_assert(heap_reserve(&h, 5000));
    uint64_t x = 12345;
    for (uint32_t i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1;
        heap_push(&h, (x >> 40) % 100, 5000 - i); /* many equal keys */
    }
    HeapItem prev = heap_pop(&h);
    for (uint32_t i = 1; i < 5000; i++) {
        HeapItem it = heap_pop(&h);
        ck_assert_msg(prev.key < it.key || (prev.key == it.key && prev.id < it.id), "out of order at %u", i);
        prev = it;
    }
    ck_assert_uint_eq(h.n, 0);
    heap_free(&h);
}
END_TEST

START_TEST(test_fixed_storage)
{
    HeapItem store[4];
    Heap h = { store, 0, 4 };
    heap_push(&h, 7, 1);
    heap_push(&h, 3, 2);
    heap_push(&h, 7, 0);
    heap_push(&h, 1, 9);
    ck_assert_uint_eq(heap_pop(&h).key, 1);
    ck_assert_uint_eq(heap_pop(&h).key, 3);
    HeapItem a = heap_pop(&h), b = heap_pop(&h);
    ck_assert(a.key == 7 && a.id == 0 && b.key == 7 && b.id == 1);
}
END_TEST

START_TEST(test_growth_keeps_items)
{
    Heap h = { 0 };
    for (uint32_t i = 0; i < 3000; i++) {
        ck_assert(heap_reserve(&h, h.n + 1));
        heap_push(&h, 3000 - i, i);
    }
    ck_assert_uint_ge(h.cap, 3000);
    for (uint32_t i = 1; i <= 3000; i++) ck_assert_uint_eq(heap_pop(&h).key, i);
    heap_free(&h);
    ck_assert_ptr_null(h.v);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("heap");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_sorted_with_ties);
    tcase_add_test(core, test_fixed_storage);
    tcase_add_test(core, test_growth_keeps_items);
    suite_add_tcase(s, core);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
