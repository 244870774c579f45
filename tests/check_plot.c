/* tests/check_plot.c -- what the pictures show (cli/plot.h): picture names,
** log scales, units, metrics, a sweep's series and their refusals, and
** (where this build has PLplot) that the files written are PNG, SVG and
** PDF. tests/check_plot_none.c holds the build without PLplot. */
#define _POSIX_C_SOURCE 200809L
#include "cli/plot.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ck_assert_has(hay, needle) \
    ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' lacks '%s'", (hay), (needle))

START_TEST(test_choices)
{
    ck_assert(plot_path_ok("a.png") && plot_path_ok("dir/a.SVG") && plot_path_ok("a.pdf"));
    ck_assert(!plot_path_ok("a.jpg") && !plot_path_ok(".png") && !plot_path_ok("png") && !plot_path_ok(NULL));
    const double decades[] = { 1, 3, 10 }, narrow[] = { 54, 108, 216 }, zero[] = { 0, 10, 100 }, one[] = { 5 };
    ck_assert(plot_log_scale(decades, 3));
    ck_assert(!plot_log_scale(narrow, 3));
    ck_assert(!plot_log_scale(zero, 3));
    ck_assert(!plot_log_scale(one, 1));
    ck_assert_str_eq(plot_metric_unit("time_us"), "µs");
    ck_assert_str_eq(plot_metric_unit("dram_bandwidth_gbs"), "GB/s");
    ck_assert_str_eq(plot_metric_unit("stall_barrier"), "share of warp cycles");
    ck_assert_str_eq(plot_metric_unit("cycles"), "");
    ck_assert_str_eq(plot_key_unit("dram.bandwidth_gbs"), "GB/s");
    ck_assert_str_eq(plot_key_unit("lat.dram"), "cycles");
    ck_assert_str_eq(plot_key_unit("l2.size"), "bytes");
    ck_assert_str_eq(plot_key_unit("sm.count"), "SMs");
    ck_assert_str_eq(plot_key_unit("smem.banks"), "banks");
    ck_assert_str_eq(plot_key_unit("n"), "");
    static const char *const known[] = { "cycles", "time_us", "ratio", "ipc", "dram_bytes", "stall_long_scoreboard" };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) ck_assert_msg(plot_metric_known(known[i]), "%s", known[i]);
    static const char *const unknown[] = { "nope", "stall_nope", "occupancy_limiter", "stats", "" };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) ck_assert(!plot_metric_known(unknown[i]));
}
END_TEST

/* a line of a sweep of sm.count x n x variant */
static void add_line(SweepPlot *p, int point, int variant, int sms, int n, double cycles)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"spec\": \"00000000000000aa\", \"point\": %d, \"points\": 4, \"variant\": \"%s\", "
             "\"variant_index\": %d, \"variants\": 2, \"workload\": \"transpose\", \"gpu\": \"a100\", "
             "\"set\": {\"sm.count\": %d}, \"param\": {\"n\": %d}, \"params\": {\"n\": %d}, \"status\": \"%s\", "
             "\"cycles\": %g, \"stats\": {\"ipc\": 0.5}}",
             point, variant ? "tiled" : "naive", variant, sms, n, n, cycles > 0 ? "ok" : "fault", cycles);
    cJSON *o = cJSON_Parse(text);
    ck_assert_ptr_nonnull(o);
    if (cycles <= 0) cJSON_ReplaceItemInObject(o, "cycles", cJSON_CreateNull());
    sweep_plot_add(p, o);
    cJSON_Delete(o);
}

static SweepPlot *grid(const char *x, const char *series)
{
    SweepPlot *p = sweep_plot_create(x, "cycles", series);
    ck_assert_ptr_nonnull(p);
    int point = 0;
    for (int sms = 54; sms <= 108; sms *= 2)
        for (int n = 64; n <= 128; n *= 2, point++)
            for (int v = 0; v < 2; v++) add_line(p, point, v, sms, n, 1000.0 * (v + 1) * n / sms);
    return p;
}

static const struct {
    const char *x, *series, *says;
} refusals[] = {
    { "sm.count", "variant", "the sweep also varies n: with --series variant" },
    { "sm.count", "nope", "nope is not a key of the sweep" },
    { "gpu", NULL, "gpu is not a number in the runs" },
    { "nope", NULL, "nope is not a number in the runs" },
};

START_TEST(test_series_refused)
{
    SweepPlot *p = grid(refusals[_i].x, refusals[_i].series);
    Diag d;
    ck_assert(!sweep_plot_write(p, "/tmp/never.png", &d));
    ck_assert_has(d.message, refusals[_i].says);
    ck_assert_int_ne(access("/tmp/never.png", F_OK), 0);
    sweep_plot_destroy(p);
}
END_TEST

/* No two series of a chart look alike, colour x marker x line style, up
** to 400 of them; the first 10 differ in colour. */
START_TEST(test_series_looks)
{
    enum { N = PLOT_COLORS * PLOT_MARKERS * PLOT_STYLES };
    static bool seen[PLOT_COLORS][PLOT_MARKERS][PLOT_STYLES];
    for (size_t s = 0; s < N; s++) {
        PlotLook l = plot_series_look(s);
        ck_assert(l.color >= 0 && l.color < PLOT_COLORS && l.marker >= 0 && l.marker < PLOT_MARKERS && l.style >= 0 &&
                  l.style < PLOT_STYLES);
        ck_assert_msg(!seen[l.color][l.marker][l.style], "series %zu looks like an earlier one", s);
        seen[l.color][l.marker][l.style] = true;
        if (s < PLOT_COLORS) ck_assert_int_eq(l.color, (int)s);
    }
    /* 12 series: the 11th and 12th share a colour with the 1st and 2nd, not a marker */
    ck_assert_int_ne(plot_series_look(10).marker, plot_series_look(0).marker);
    ck_assert_int_ne(plot_series_look(11).marker, plot_series_look(1).marker);
}
END_TEST

/* --series with several variants: a series per variant and value; and
** --variant (on --merge --plot): only those variants, one no run has named. */
START_TEST(test_series_by_variant_and_only)
{
    char why[512];
    bool draws = plot_available(why, sizeof why);
    char path[64];
    snprintf(path, sizeof path, "/tmp/check_plot_v_%ld.png", (long)getpid());
    Diag d;
    SweepPlot *p = grid("sm.count", "n");
    ck_assert_msg(sweep_plot_write(p, path, &d) == draws, "%s", d.message);
    sweep_plot_destroy(p);
    static const char *const only[] = { "tiled" };
    p = sweep_plot_create("sm.count", "cycles", "n");
    ck_assert(sweep_plot_only_variants(p, only, 1));
    ck_assert_str_eq(sweep_plot_missing_variant(p), "tiled");
    add_line(p, 0, 0, 54, 64, 100); /* naive: left out */
    ck_assert_str_eq(sweep_plot_missing_variant(p), "tiled");
    add_line(p, 0, 1, 54, 64, 100);
    add_line(p, 1, 1, 108, 64, 60);
    ck_assert_ptr_null(sweep_plot_missing_variant(p));
    ck_assert_msg(sweep_plot_write(p, path, &d) == draws, "%s", d.message);
    sweep_plot_destroy(p);
    unlink(path);
}
END_TEST

START_TEST(test_nothing_to_plot)
{
    SweepPlot *p = sweep_plot_create("sm.count", "cycles", NULL);
    add_line(p, 0, 0, 54, 64, -1); /* did not finish */
    Diag d;
    ck_assert(!sweep_plot_write(p, "/tmp/never.png", &d));
    ck_assert_has(d.message, "no run has cycles to plot (1 did not finish)");
    sweep_plot_destroy(p);
}
END_TEST

/* the picture files themselves: PNG, SVG and PDF by their first bytes */
static const struct {
    const char *ext, *magic;
} formats[] = { { "png", "\x89PNG\r\n\x1a\n" }, { "svg", "<?xml" }, { "pdf", "%PDF-" } };

START_TEST(test_files)
{
    char why[512];
    if (!plot_available(why, sizeof why)) return; /* tests/check_plot_none.c */
    char path[64];
    snprintf(path, sizeof path, "/tmp/check_plot_%ld.%s", (long)getpid(), formats[_i].ext);
    SweepPlot *p = grid("sm.count", NULL);
    Diag d;
    ck_assert_msg(sweep_plot_write(p, path, &d), "%s", d.message);
    sweep_plot_destroy(p);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char head[16] = "";
    size_t n = fread(head, 1, strlen(formats[_i].magic), f);
    fclose(f);
    ck_assert_uint_eq(n, strlen(formats[_i].magic));
    ck_assert(memcmp(head, formats[_i].magic, n) == 0);
    unlink(path);
    /* a folder that cannot be written: a message, no exit */
    p = grid("sm.count", NULL);
    ck_assert(!sweep_plot_write(p, "/nonexistent/dir/x.png", &d));
    ck_assert_has(d.message, "cannot write /nonexistent/dir/x.png");
    sweep_plot_destroy(p);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_choices);
    tcase_add_loop_test(core, test_files, 0, 3);
    tcase_set_timeout(core, 60);
    suite_add_tcase(s, core);
    TCase *bad = tcase_create("BadInput");
    tcase_add_loop_test(bad, test_series_refused, 0, (int)(sizeof refusals / sizeof refusals[0]));
    tcase_add_test(bad, test_nothing_to_plot);
    tcase_add_test(core, test_series_looks);
    tcase_add_test(core, test_series_by_variant_and_only);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(plot_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
