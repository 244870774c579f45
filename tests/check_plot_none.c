/* tests/check_plot_none.c -- a gpusim built without PLplot: linked with
** cli/plot_none.c in place of the PLplot drawing (tests/CMakeLists.txt),
** whatever this build has, so the message stays tested. Every picture is
** refused with what to install; nothing is written. */
#define _POSIX_C_SOURCE 200809L
#include "cli/plot.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ck_assert_has(hay, needle) \
    ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' lacks '%s'", (hay), (needle))

START_TEST(test_says_what_to_install)
{
    char why[512];
    ck_assert(!plot_available(why, sizeof why));
    ck_assert_has(why, "built without PLplot");
    ck_assert_has(why, "install libplplot-dev and plplot-driver-cairo");

    SweepPlot *p = sweep_plot_create("sm.count", "cycles", NULL);
    cJSON *o = cJSON_Parse("{\"spec\": \"00000000000000aa\", \"point\": 0, \"points\": 1, \"variant\": \"v\", "
                           "\"variant_index\": 0, \"variants\": 1, \"workload\": \"w\", \"gpu\": \"a100\", "
                           "\"set\": {\"sm.count\": 54}, \"param\": {}, \"status\": \"ok\", \"cycles\": 10}");
    sweep_plot_add(p, o);
    cJSON_Delete(o);
    Diag d;
    ck_assert(!sweep_plot_write(p, "/tmp/check_plot_none.png", &d));
    ck_assert_str_eq(d.file, "--plot");
    ck_assert_has(d.message, "cannot draw /tmp/check_plot_none.png: this gpusim was built without PLplot");
    ck_assert_int_ne(access("/tmp/check_plot_none.png", F_OK), 0);
    sweep_plot_destroy(p);

    RooflineFigure f = { .peak_gflops = 1, .peak_gbs = 1 };
    ck_assert(!plot_draw_roofline(&f, "/tmp/check_plot_none.png", &d));
    ck_assert_str_eq(d.file, "--roofline");
    ck_assert_has(d.message, "plplot-driver-cairo");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plot_none");
    TCase *tc = tcase_create("BadInput");
    tcase_add_test(tc, test_says_what_to_install);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
