/* tests/check_bwqueue.c -- bandwidth queue with a latency, loaded or fixed (sim/bwqueue.h):
** what serves DRAM and the L2 byte and request limits. */
#include "sim/bwqueue.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

/* ---- Core ---- */

/* unloaded: now + ceil(bytes / bpc) + latency */
static const struct { double bpc; uint32_t lat; uint64_t now; uint32_t bytes; uint64_t expect; } unloaded[] = {
    {32.0,  400, 1000,  128, 1000 + 4 + 400},
    {32.0,  400, 1000,  100, 1000 + 4 + 400},  /* 3.125 cycles round up */
    {1000., 200, 0,      32, 0 + 1 + 200},     /* sub-cycle transfer */
    {1.5,     0, 7,       3, 7 + 2},
    {64.0,  250, 5,       0, 5 + 250},         /* empty transfer: latency only */
};

START_TEST(test_unloaded)
{
    BwQueue m;
    bwqueue_init(&m, unloaded[_i].bpc, unloaded[_i].lat);
    ck_assert_uint_eq(bwqueue_transfer(&m, unloaded[_i].now, unloaded[_i].bytes), unloaded[_i].expect);
    ck_assert_uint_eq(m.transfers, 1);
    ck_assert_uint_eq(m.units, unloaded[_i].bytes);
}
END_TEST

START_TEST(test_back_to_back_queue)
{
    BwQueue m;
    bwqueue_init(&m, 32.0, 100);
    /* four 128-byte transfers asked in the same cycle: 4 cycles each, in order */
    ck_assert_uint_eq(bwqueue_transfer(&m, 10, 128), 10 + 4 + 100);
    ck_assert_uint_eq(bwqueue_transfer(&m, 10, 128), 10 + 8 + 100);
    ck_assert_uint_eq(bwqueue_transfer(&m, 10, 128), 10 + 12 + 100);
    /* asked later but while the channel is still busy: still queued */
    ck_assert_uint_eq(bwqueue_transfer(&m, 15, 128), 10 + 16 + 100);
    ck_assert_uint_eq(m.transfers, 4);
    ck_assert_uint_eq(m.units, 512);
}
END_TEST

/* streaming N bytes in sectors achieves the configured bandwidth */
static const double stream_bpc[] = {1.0, 7.3, 32.0, 510.2, 1555.0 / 1.41, 3350.0 / 1.98};

START_TEST(test_streaming_bandwidth)
{
    const double bpc = stream_bpc[_i];
    const uint32_t lat = 500;
    BwQueue m;
    bwqueue_init(&m, bpc, lat);
    const uint64_t sectors = 1u << 17, t0 = 100;
    uint64_t last = 0;
    int in_order = 1;
    for (uint64_t i = 0; i < sectors; i++) {
        uint64_t back = bwqueue_transfer(&m, t0, 32);
        in_order &= back >= last;
        last = back;
    }
    ck_assert(in_order);
    const double cycles = (double)(last - lat - t0);
    const double achieved = (double)(sectors * 32) / cycles;
    ck_assert_msg(fabs(achieved - bpc) <= 0.01 * bpc, "achieved %.3f B/cycle, configured %.3f", achieved, bpc);
    ck_assert_uint_eq(m.units, sectors * 32);
}
END_TEST

START_TEST(test_idle_no_credit)
{
    BwQueue m;
    bwqueue_init(&m, 32.0, 100);
    ck_assert_uint_eq(bwqueue_transfer(&m, 0, 128), 4 + 100);
    /* a long gap: the channel idles, and a burst after it gets no head start */
    ck_assert_uint_eq(bwqueue_transfer(&m, 1000, 128), 1000 + 4 + 100);
    ck_assert_uint_eq(bwqueue_transfer(&m, 1000, 128), 1000 + 8 + 100);
    ck_assert_uint_eq(bwqueue_transfer(&m, 1000, 128), 1000 + 12 + 100);
}
END_TEST

/* the L2's request queue: one unit per line request at l2.requests_per_clk */
START_TEST(test_request_rate)
{
    BwQueue m;
    bwqueue_init(&m, 34.0, 0);
    uint64_t back = 0;
    for (int i = 0; i < 68; i++) back = bwqueue_transfer(&m, 0, 1);
    ck_assert_uint_eq(back, 2); /* 68 requests at 34 a cycle: two cycles */
    ck_assert_uint_eq(bwqueue_transfer(&m, 0, 1), 3); /* the 69th spills into the third */
    ck_assert_uint_eq(m.units, 69);
    ck_assert_uint_eq(m.transfers, 69);
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_fractional_accumulates)
{
    /* 10 transfers of 0.4 cycles each: 4 cycles in total, not 10 */
    BwQueue m;
    bwqueue_init(&m, 80.0, 0);
    uint64_t back = 0;
    for (int i = 0; i < 10; i++) back = bwqueue_transfer(&m, 0, 32);
    ck_assert_uint_eq(back, 4);
}
END_TEST

START_TEST(test_deterministic)
{
    BwQueue a, b;
    bwqueue_init(&a, 13.7, 321);
    bwqueue_init(&b, 13.7, 321);
    uint64_t now = 0;
    for (uint32_t i = 0; i < 10000; i++) {
        now += (i * 2654435761u) % 7;
        const uint32_t bytes = 32u * (1u + i % 4);
        ck_assert_uint_eq(bwqueue_transfer(&a, now, bytes), bwqueue_transfer(&b, now, bytes));
    }
    ck_assert(a.next_free == b.next_free);
}
END_TEST

START_TEST(test_init_resets)
{
    BwQueue m;
    bwqueue_init(&m, 16.0, 10);
    bwqueue_transfer(&m, 0, 1 << 20);
    bwqueue_init(&m, 16.0, 10);
    ck_assert_uint_eq(m.units, 0);
    ck_assert_uint_eq(m.transfers, 0);
    ck_assert_uint_eq(bwqueue_transfer(&m, 0, 16), 1 + 10);
}
END_TEST

/* ---- Loaded latency ---- */

/* A steady stream at utilisation u sees latency + linear*u + queue*u/(1-u)
** once the recent-utilisation window has filled (the H200's fitted terms). */
static const double steady_u[] = {0.1, 0.25, 0.5, 0.75, 0.9};

START_TEST(test_loaded_latency_steady)
{
    const double bpc = 64.0, u = steady_u[_i], linear = 248, queue = 99;
    const uint32_t lat = 662, bytes = 64;
    BwQueue m;
    bwqueue_init(&m, bpc, lat);
    bwqueue_set_loaded_latency(&m, linear, queue);
    /* one 64-byte access every 1/u cycles (in whole cycles: k accesses per
    ** period of p cycles), for 40 windows */
    const uint64_t period = 100, per_period = (uint64_t)llround(u * period);
    uint64_t back = 0, now = 0;
    for (uint64_t t = 0; t < 40 * 2 * lat; t += period)
        for (uint64_t k = 0; k < per_period; k++) {
            now = t + k * period / per_period;
            back = bwqueue_transfer(&m, now, bytes);
        }
    double want = lat + linear * u + queue * u / (1 - u);
    double got = (double)(back - now) - bytes / bpc;
    ck_assert_msg(fabs(got - want) <= 0.03 * want + 2, "u=%.2f: latency %.1f, want %.1f", u, got, want);
    ck_assert_msg(fabs(bwqueue_current_latency(&m) - want) <= 0.03 * want, "u=%.2f: current %.1f, want %.1f", u,
                  bwqueue_current_latency(&m), want);
}
END_TEST

START_TEST(test_loaded_latency_decays_and_caps)
{
    BwQueue m;
    bwqueue_init(&m, 32.0, 500);
    bwqueue_set_loaded_latency(&m, 200, 100);
    /* far more than the bandwidth asked at once: utilisation is capped at
    ** 0.95, so the latency stays finite: 500 + 200*0.95 + 100*19 */
    for (int i = 0; i < 100000; i++) bwqueue_transfer(&m, 1000, 64);
    ck_assert_msg(fabs(bwqueue_current_latency(&m) - (500 + 190 + 1900)) < 1e-6, "%f", bwqueue_current_latency(&m));
    /* after a long idle spell the memory answers at its idle latency again */
    uint64_t later = (uint64_t)ceil(m.next_free) + 1000000;
    uint64_t back = bwqueue_transfer(&m, later, 32);
    ck_assert_uint_le(back, later + 1 + 500 + 1);
    /* off (the default): a loaded channel keeps the fixed latency */
    bwqueue_init(&m, 32.0, 500);
    for (int i = 0; i < 1000; i++) bwqueue_transfer(&m, 1000, 64);
    ck_assert(bwqueue_current_latency(&m) == 500.0);
}
END_TEST

/* A spread moves each request's latency by spread x (draw - 1/2): uniform,
** the mean kept; the H200 preset's 530 cycles give a p10-p90 of 424, as
** latency_dist.cu measured for lone float4 loads at 4% of the bandwidth. */
START_TEST(test_spread)
{
    BwQueue m;
    bwqueue_init(&m, 64.0, 662);
    bwqueue_set_spread(&m, 530);
    ck_assert_uint_eq(bwqueue_transfer_drawn(&m, 1000, 64, 0.5), 1000 + 1 + 662);
    ck_assert_uint_eq(bwqueue_transfer_drawn(&m, 100000, 64, 0.0), 100000 + 1 + 662 - 265);
    ck_assert_uint_eq(bwqueue_transfer_drawn(&m, 200000, 64, 0.9), 200000 + 1 + 662 + 212);
    ck_assert_uint_eq(bwqueue_transfer(&m, 300000, 64), 300000 + 1 + 662); /* no draw: the mean */
    /* off: a draw changes nothing */
    bwqueue_init(&m, 64.0, 662);
    ck_assert_uint_eq(bwqueue_transfer_drawn(&m, 1000, 64, 0.99), 1000 + 1 + 662);
}
END_TEST

/* Background units (buffered writes) take no place in the queue, count in
** the utilisation and in the work the channel must have done. */
START_TEST(test_background)
{
    BwQueue m;
    bwqueue_init(&m, 32.0, 100);
    bwqueue_set_loaded_latency(&m, 200, 0);
    bwqueue_background(&m, 0, 32 * 400); /* 400 cycles of writes asked at once */
    ck_assert(m.next_free == 0.0);
    ck_assert(bwqueue_work_done(&m) == 400.0);
    uint64_t back = bwqueue_transfer(&m, 0, 32); /* a read does not wait behind them ... */
    ck_assert_uint_lt(back, 1 + 100 + 200 + 1);
    ck_assert_uint_gt(back, 1 + 100 + 100); /* ... but sees their load (u capped at 0.95) */
    ck_assert(bwqueue_work_done(&m) == 401.0);
}
END_TEST

static Suite *bwqueue_suite(void)
{
    Suite *s = suite_create("bwqueue");
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_unloaded, 0, (int)(sizeof unloaded / sizeof unloaded[0]));
    tcase_add_test(core, test_back_to_back_queue);
    tcase_add_loop_test(core, test_streaming_bandwidth, 0, (int)(sizeof stream_bpc / sizeof stream_bpc[0]));
    tcase_add_test(core, test_idle_no_credit);
    tcase_add_test(core, test_request_rate);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_fractional_accumulates);
    tcase_add_test(edge, test_deterministic);
    tcase_add_test(edge, test_init_resets);
    tcase_add_loop_test(edge, test_loaded_latency_steady, 0, (int)(sizeof steady_u / sizeof steady_u[0]));
    tcase_add_test(edge, test_loaded_latency_decays_and_caps);
    tcase_add_test(core, test_spread);
    tcase_add_test(core, test_background);
    suite_add_tcase(s, edge);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(bwqueue_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
