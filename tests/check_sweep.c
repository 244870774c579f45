/* tests/check_sweep.c -- the pure parts of `gpusim sweep`: value lists
** (cli/sweep_spec.h), axes and the point order, shards, the spec hash, the
** JSON-lines files read back and merged (cli/sweep_lines.h), their CSV form,
** and the runs themselves on one and on several threads (cli/sweep_run.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/sweep_lines.h"
#include "cli/sweep_run.h"
#include "cli/sweep_spec.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "workloads/loader.h"

#define ck_assert_has(hay, needle) \
    ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' lacks '%s'", (hay), (needle))

static void free_values(char **v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* the values of list, joined by '|' */
static char *joined(const char *list, bool ranges)
{
    char **v = NULL, why[256];
    uint32_t n = 0;
    ck_assert_msg(sweep_values_parse(list, ranges, &v, &n, why, sizeof why), "%s: %s", list, why);
    size_t cap = 16;
    for (uint32_t i = 0; i < n; i++) cap += strlen(v[i]) + 1;
    char *s = calloc(1, cap);
    for (uint32_t i = 0; i < n; i++) {
        if (i) strcat(s, "|");
        strcat(s, v[i]);
    }
    free_values(v, n);
    return s;
}

/* ---- Values ---- */

static const struct {
    const char *list, *values;
} good_lists[] = {
    { "54,108,216", "54|108|216" },
    { "1000:4000:1000", "1000|2000|3000|4000" },
    { "1:10:4", "1|5|9" },                      /* STOP included only when a step lands on it */
    { "5:1:-2", "5|3|1" },
    { "3:3:1", "3" },
    { "1:4", "1|2|3|4" },
    { "64:1024:*2", "64|128|256|512|1024" },
    { "1:100:*3", "1|3|9|27|81" },
    { "2^20,2^22", "1048576|4194304" },
    { "2^10:2^12:*2", "1024|2048|4096" },
    { "1e3,2.5e3", "1000|2500" },
    { "0.1:0.5:0.1", "0.1|0.2|0.3|0.4|0.5" },   /* 15 digits: not 0.30000000000000004 */
    { "-0.2:0.2:0.2", "-0.2|0|0.2" },
    { "0.5:4:*2", "0.5|1|2|4" },
    { "1,2,8:32:8", "1|2|8|16|24|32" },
    { "gto,lrr", "gto|lrr" },
    { "8*sm_count,min(4,n)", "8*sm_count|min(4,n)" }, /* a comma inside parentheses */
    { "-3,+4", "-3|4" },
    { "1000.0", "1000" },
};

START_TEST(test_lists)
{
    char *s = joined(good_lists[_i].list, true);
    ck_assert_str_eq(s, good_lists[_i].values);
    free(s);
}
END_TEST

START_TEST(test_list_without_ranges)
{
    char *s = joined("a100,dir/m:1.json", false); /* a machine file may hold ':' */
    ck_assert_str_eq(s, "a100|dir/m:1.json");
    free(s);
}
END_TEST

START_TEST(test_list_limits)
{
    char **v = NULL, why[256];
    uint32_t n = 0;
    ck_assert(sweep_values_parse("1:1000000", true, &v, &n, why, sizeof why));
    ck_assert_uint_eq(n, 1000000);
    ck_assert_str_eq(v[999999], "1000000");
    free_values(v, n);
    ck_assert(!sweep_values_parse("0:1000000", true, &v, &n, why, sizeof why));
    ck_assert_has(why, "1000001 values, more than 10^6");
}
END_TEST

static const struct {
    const char *list, *says;
} bad_lists[] = {
    { "", "no values" },
    { "1,,2", "empty value in '1,,2'" },
    { "1,", "empty value" },
    { ",1", "empty value" },
    { "1:10:0", "range '1:10:0' has step 0" },
    { "0.5:1:0", "has step 0" },
    { "10:1:1", "never reaches 1: the step goes the other way" },
    { "1:10:-1", "the step goes the other way" },
    { "1:2000000:1", "2000000 values, more than 10^6" },
    { "1:1e12:1", "more than 10^6" },
    { "1:1e300:*1.0000001", "more than 10^6" },
    { "1:8:*1", "the factor of a geometric range must be more than 1" },
    { "0:8:*2", "goes up from a START above 0" },
    { "8:1:*2", "goes up from a START above 0" },
    { "a:b:1", "must be numbers" },
    { "1:2:3:4", "more than three parts" },
    { "2^x", "B^E is a whole value of two integers" },
    { "2^64", "B^E is a whole value" },
    { "1,2,1", "value 1 is given twice" },
    { "1e3,1000", "value 1000 is given twice" },
    { "2^4,16", "given twice" },
    { "1:4,3", "value 3 is given twice" },
};

START_TEST(test_bad_lists)
{
    char **v = NULL, why[256] = "";
    uint32_t n = 0;
    ck_assert_msg(!sweep_values_parse(bad_lists[_i].list, true, &v, &n, why, sizeof why), "'%s' accepted",
                  bad_lists[_i].list);
    ck_assert_has(why, bad_lists[_i].says);
}
END_TEST

/* ---- Spec: axes, order, shards, hash ---- */

static void add(SweepSpec *s, SweepAxisKind kind, const char *flag, const char *text)
{
    Diag d;
    ck_assert_msg(sweep_spec_add(s, kind, flag, text, &d), "%s %s: %s", flag, text, d.message);
}

START_TEST(test_point_order)
{
    SweepSpec s;
    sweep_spec_init(&s);
    ck_assert_uint_eq(s.npoints, 1);
    add(&s, AXIS_GPU, "--gpu", "a100,h100");
    add(&s, AXIS_SET, "--set", "sm.count=54,108,216");
    add(&s, AXIS_PARAM, "--param", "n=2^20,2^22");
    ck_assert_uint_eq(s.npoints, 12);
    ck_assert_str_eq(s.axes[2].values[1], "4194304");
    /* nested loops in command-line order: the last axis varies fastest */
    uint32_t idx[3];
    static const uint32_t want[12][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 1 }, { 0, 2, 0 }, { 0, 2, 1 },
                                          { 1, 0, 0 }, { 1, 0, 1 }, { 1, 1, 0 }, { 1, 1, 1 }, { 1, 2, 0 }, { 1, 2, 1 } };
    for (uint64_t p = 0; p < 12; p++) {
        sweep_point_indices(&s, p, idx);
        for (int k = 0; k < 3; k++) ck_assert_uint_eq(idx[k], want[p][k]);
    }
    ck_assert_ptr_nonnull(sweep_spec_axis(&s, "sm.count"));
    ck_assert_ptr_null(sweep_spec_axis(&s, "nope"));
    sweep_spec_free(&s);
    ck_assert_uint_eq(s.naxes, 0);
}
END_TEST

static const struct {
    const char *flag, *first, *second, *says;
} bad_axes[] = {
    { "--set", "sm.count=1,2", "sm.count=3", "sm.count is given twice (--set and --set): give all its values in one list" },
    { "--param", "block=32,64", "--launch", "block is given twice (--param and --launch)" },
    { "--set", "sm.count", NULL, "expected KEY=V1,V2,..." },
    { "--set", "=1,2", NULL, "expected KEY=V1,V2,..." },
    { "--set", "sm.count=", NULL, "sm.count: no values" },
    { "--set", "sm.count=1:10:0", NULL, "sm.count: range '1:10:0' has step 0" },
    { "--launch", "grid=1,2", NULL, "--launch takes block=V1,V2,..." },
    { "--set", "sm.count=1:1000", "l2.size=1:1001", "the sweep has 1001000 points (1 x 1000 x 1001), more than 10^6" },
};

START_TEST(test_bad_axes)
{
    SweepSpec s;
    sweep_spec_init(&s);
    add(&s, AXIS_GPU, "--gpu", "a100");
    Diag d;
    SweepAxisKind kind = strcmp(bad_axes[_i].flag, "--set") == 0 ? AXIS_SET : AXIS_PARAM;
    const char *flag = bad_axes[_i].flag, *text = bad_axes[_i].first;
    if (bad_axes[_i].second) {
        add(&s, kind, flag, text);
        if (strcmp(bad_axes[_i].second, "--launch") == 0) {
            flag = "--launch";
            text = "block=128";
        } else {
            text = bad_axes[_i].second;
        }
    }
    uint32_t before = s.naxes;
    uint64_t points = s.npoints;
    ck_assert_msg(!sweep_spec_add(&s, kind, flag, text, &d), "%s %s accepted", flag, text);
    ck_assert_has(d.message, bad_axes[_i].says);
    ck_assert_str_eq(d.file, flag);
    ck_assert_uint_eq(s.naxes, before); /* unchanged */
    ck_assert_uint_eq(s.npoints, points);
    sweep_spec_free(&s);
}
END_TEST

static const struct {
    const char *text;
    bool ok;
    uint32_t i, n;
    const char *says;
} shards[] = {
    { "0/4", true, 0, 4, NULL },
    { "3/4", true, 3, 4, NULL },
    { "0/1", true, 0, 1, NULL },
    { "5/4", false, 0, 0, "5/4: shards are numbered 0 to 3" },
    { "4/4", false, 0, 0, "shards are numbered 0 to 3" },
    { "1/0", false, 0, 0, "N must be 1 to 10^6" },
    { "1", false, 0, 0, "expected I/N" },
    { "-1/4", false, 0, 0, "expected I/N" },
    { "0x1/4", false, 0, 0, "expected I/N" },
    { "1/4/2", false, 0, 0, "expected I/N" },
    { "", false, 0, 0, "expected I/N" },
};

START_TEST(test_shards)
{
    uint32_t i = 99, n = 99;
    Diag d;
    ck_assert(sweep_shard_parse(shards[_i].text, &i, &n, &d) == shards[_i].ok);
    if (shards[_i].ok) {
        ck_assert_uint_eq(i, shards[_i].i);
        ck_assert_uint_eq(n, shards[_i].n);
    } else {
        ck_assert_has(d.message, shards[_i].says);
        ck_assert_str_eq(d.file, "--shard");
        ck_assert_uint_eq(i, 99); /* untouched */
    }
}
END_TEST

START_TEST(test_shard_cover)
{
    /* N shards take every point exactly once */
    for (uint32_t n = 1; n <= 7; n++)
        for (uint64_t p = 0; p < 50; p++) {
            int owners = 0;
            for (uint32_t i = 0; i < n; i++) owners += sweep_shard_has(p, i, n);
            ck_assert_int_eq(owners, 1);
        }
    ck_assert(sweep_shard_has(5, 0, 0)); /* no --shard: every point */
}
END_TEST

START_TEST(test_spec_hash)
{
    SweepSpec a, b;
    sweep_spec_init(&a);
    sweep_spec_init(&b);
    add(&a, AXIS_SET, "--set", "sm.count=54,108");
    add(&b, AXIS_SET, "--set", "sm.count=54:108:54"); /* the same values */
    char ha[17], hb[17], hc[17];
    sweep_spec_hash(&a, "ctx", ha);
    sweep_spec_hash(&b, "ctx", hb);
    ck_assert_str_eq(ha, hb);
    ck_assert_uint_eq(strlen(ha), 16);
    sweep_spec_hash(&a, "ctx2", hc); /* what else decides the results */
    ck_assert_str_ne(ha, hc);
    add(&b, AXIS_PARAM, "--param", "n=64");
    sweep_spec_hash(&b, "ctx", hb);
    ck_assert_str_ne(ha, hb);
    sweep_spec_free(&a);
    sweep_spec_free(&b);
    /* a stable name: it is written in every line and compared across machines */
    SweepSpec c;
    sweep_spec_init(&c);
    sweep_spec_hash(&c, "", hc);
    ck_assert_str_eq(hc, "ab31058d274bbd19");
}
END_TEST

/* ---- Lines: reading back, merging, CSV ---- */

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/check_sweep_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

#define L(spec, p, v) \
    "{\"spec\": \"" spec "\", \"point\": " #p ", \"points\": 3, \"variant\": \"v" #v "\", \"variant_index\": " #v \
    ", \"variants\": 2, \"status\": \"ok\", \"cycles\": 1" #p #v "}\n"
#define A "00000000000000aa"
#define B "00000000000000bb"

START_TEST(test_read_lines)
{
    char *path = write_tmp(L(A, 0, 0) L(A, 0, 1) "{\"spec\": \"00000000000000aa\", \"poi");
    SweepFile f;
    Diag d;
    ck_assert_msg(sweep_file_read(path, false, &f, NULL, NULL, &d), "%s", d.message);
    ck_assert_uint_eq(f.n, 2);
    ck_assert(f.torn);
    ck_assert_uint_eq(f.whole_bytes, strlen(L(A, 0, 0) L(A, 0, 1)));
    ck_assert_uint_eq(f.lines[1].offset, strlen(L(A, 0, 0)));
    ck_assert_uint_eq(f.lines[1].variant, 1);
    ck_assert(f.lines[1].ran);
    ck_assert_uint_eq(f.lines[1].cycles, 101);
    sweep_file_free(&f);
    unlink(path);
    free(path);
    /* a missing file: empty when resuming, an error when merging */
    ck_assert(sweep_file_read("/nonexistent/x.jsonl", true, &f, NULL, NULL, &d));
    ck_assert_uint_eq(f.n, 0);
    ck_assert(!sweep_file_read("/nonexistent/x.jsonl", false, &f, NULL, NULL, &d));
    ck_assert_has(d.message, "cannot open");
}
END_TEST

static const struct {
    const char *text, *says;
    uint32_t line;
} bad_files[] = {
    { L(A, 0, 0) "not json\n" L(A, 1, 0), "not a JSON object", 2 },
    { "{\"point\": 0}\n", "no \"spec\" hash", 1 },
    { "{\"spec\": \"00000000000000aa\", \"point\": 3, \"points\": 3, \"variant_index\": 0, \"variants\": 1}\n",
      "out of range", 1 },
    { "{\"spec\": \"XYZ\", \"point\": 0}\n", "no \"spec\" hash", 1 },
    /* no sweep has more than 10^6 points: a damaged count is refused, not allocated */
    { "{\"spec\": \"00000000000000aa\", \"point\": 0, \"points\": 1000001, \"variant_index\": 0, \"variants\": 1}\n",
      "out of range", 1 },
};

START_TEST(test_bad_files)
{
    char *path = write_tmp(bad_files[_i].text);
    SweepFile f;
    Diag d;
    ck_assert(!sweep_file_read(path, false, &f, NULL, NULL, &d));
    ck_assert_has(d.message, bad_files[_i].says);
    ck_assert_uint_eq(d.line, bad_files[_i].line);
    ck_assert_str_eq(d.file, path);
    unlink(path);
    free(path);
}
END_TEST

/* A line past SWEEP_MAX_LINE is refused at its number, read no further than
** the cap (a device such as /dev/zero never ends a line); a device or a pipe
** is refused before reading (shards are read twice). */
START_TEST(test_endless_line_and_devices)
{
    char *text = malloc(SWEEP_MAX_LINE + 2000);
    ck_assert(text);
    size_t n = strlen(L(A, 0, 0));
    memcpy(text, L(A, 0, 0), n);
    memset(text + n, ' ', SWEEP_MAX_LINE + 1000);
    text[n + SWEEP_MAX_LINE + 1000] = 0;
    char *path = write_tmp(text);
    SweepFile f;
    Diag d;
    ck_assert(!sweep_file_read(path, false, &f, NULL, NULL, &d));
    ck_assert_has(d.message, "a line longer than");
    ck_assert_uint_eq(d.line, 2);
    unlink(path);
    free(path);
    free(text);
    ck_assert(!sweep_file_read("/dev/zero", false, &f, NULL, NULL, &d));
    ck_assert_has(d.message, "not a regular file");
    ck_assert(!sweep_file_read("/dev/null", true, &f, NULL, NULL, &d));
    ck_assert_has(d.message, "not a regular file");
}
END_TEST

typedef struct {
    const char *files[3];
    const char *says; /* NULL: merges */
} MergeCase;

static const MergeCase merges[] = {
    { { L(A, 0, 0) L(A, 0, 1) L(A, 2, 0) L(A, 2, 1), L(A, 1, 1) L(A, 1, 0), NULL }, NULL },
    { { L(A, 0, 0) L(A, 0, 1) L(A, 2, 0) L(A, 2, 1), L(A, 1, 0), NULL }, "1 of 6 runs are missing, the first point 1, variant 1" },
    { { L(A, 0, 0) L(A, 0, 1) L(A, 2, 0), "", NULL }, "3 of 6 runs are missing, the first point 1, variant 0" },
    { { L(A, 0, 0) L(A, 0, 1) L(A, 2, 0) L(A, 2, 1), L(A, 1, 0) L(A, 1, 1), L(A, 2, 1) }, "point 2, variant 1 is there twice" },
    { { L(A, 0, 0) L(A, 0, 1) L(A, 2, 0) L(A, 2, 1), L(B, 1, 0) L(B, 1, 1), NULL }, "a run of another sweep (spec 00000000000000bb" },
    { { L(A, 0, 0) L(A, 0, 1) "{\"spec\"", NULL, NULL }, "the last line is cut short" },
    { { "", "", NULL }, "no runs in the 2 files" },
    /* a count as large as a line may claim: the merge's memory follows the lines given */
    { { "{\"spec\": \"" A "\", \"point\": 999999, \"points\": 1000000, \"variant_index\": 7, \"variants\": 4294967295}\n",
        NULL, NULL },
      "4294967294999999 of 4294967295000000 runs are missing, the first point 0, variant 0" },
    { { L(A, 1, 1) L(A, 0, 0) L(A, 0, 1) L(A, 2, 0) L(A, 2, 1), NULL, NULL }, "1 of 6 runs are missing, the first point 1, variant 0" },
};

START_TEST(test_merge)
{
    const MergeCase *c = &merges[_i];
    SweepFile f[3];
    const char *names[3];
    char *paths[3] = { NULL, NULL, NULL };
    size_t n = 0;
    Diag d;
    for (; n < 3 && c->files[n]; n++) {
        paths[n] = write_tmp(c->files[n]);
        names[n] = paths[n];
        ck_assert(sweep_file_read(paths[n], false, &f[n], NULL, NULL, &d));
    }
    SweepRef *order = NULL;
    uint64_t nruns = 0;
    bool ok = sweep_merge_order(f, names, n, &order, &nruns, &d);
    if (!c->says) {
        ck_assert_msg(ok, "%s", d.message);
        ck_assert_uint_eq(nruns, 6);
        /* sweep order: point, then variant, whichever file holds them */
        for (uint64_t j = 0; j < nruns; j++) {
            const SweepLine *l = &f[order[j].file].lines[order[j].line];
            ck_assert_uint_eq(l->point * 2 + l->variant, j);
        }
        ck_assert_uint_eq(order[2].file, 1); /* point 1, variant 0: the second line of file 2 */
        ck_assert_uint_eq(order[2].line, 1);
        free(order);
    } else {
        ck_assert_msg(!ok, "merged");
        ck_assert_has(d.message, c->says);
    }
    for (size_t i = 0; i < n; i++) {
        sweep_file_free(&f[i]);
        unlink(paths[i]);
        free(paths[i]);
    }
}
END_TEST

START_TEST(test_csv)
{
    const char *line = "{\"spec\": \"00000000000000aa\", \"point\": 1, \"points\": 2, \"variant\": \"a,b\", "
                       "\"variant_index\": 0, \"variants\": 1, \"workload\": \"w\", \"gpu\": \"a100\", "
                       "\"config_fnv1a\": \"0123\", \"set\": {\"sm.count\": 54, \"sched.policy\": \"lrr\"}, "
                       "\"param\": {\"n\": 1048576}, \"check\": \"pass\", \"status\": \"ok\", \"cycles\": 12, "
                       "\"time_us\": 0.25, \"ratio\": 1.5, \"stats\": {\"warp_instructions\": 7, \"ipc\": 0.578522, "
                       "\"stall_reasons\": {\"selected\": 0.5}}}";
    cJSON *o = cJSON_Parse(line);
    ck_assert_ptr_nonnull(o);
    SweepCsvColumns cols;
    ck_assert(sweep_csv_columns_of(o, &cols));
    ck_assert_uint_eq(cols.nset, 2);
    ck_assert_uint_eq(cols.nparam, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sweep_csv_header(f, &cols);
    sweep_csv_row(f, o, &cols);
    fclose(f);
    ck_assert_has(buf, "spec,point,variant,workload,gpu,config_fnv1a,sm.count,sched.policy,n,check,status,cycles,time_us,"
                       "ratio,warp_instructions,ipc,");
    ck_assert_has(buf, ",stall_selected,stall_not_selected,");
    ck_assert_has(buf, ",error\n");
    ck_assert_has(buf, "\n00000000000000aa,1,\"a,b\",w,a100,0123,54,lrr,1048576,pass,ok,12,0.25,1.5,7,0.578522,");
    /* a cell per header column in the row */
    char *row = strchr(buf, '\n') + 1;
    int hc = 0, rc = 0;
    for (char *p = buf; p < row; p++) hc += *p == ',';
    for (char *p = row; *p; p++) rc += *p == ',';
    ck_assert_int_eq(hc, rc - 1); /* the quoted "a,b" holds one more */
    free(buf);
    sweep_csv_columns_free(&cols);
    cJSON_Delete(o);
    char num[64];
    sweep_number_text(1048576, num, sizeof num);
    ck_assert_str_eq(num, "1048576");
    sweep_number_text(0.1, num, sizeof num);
    ck_assert_str_eq(num, "0.1");
}
END_TEST

/* ---- Runs: one thread or several, the same lines ---- */

typedef struct {
    char    *text;
    size_t   len;
    uint64_t lines;
    uint64_t runs[64];
} Collect;

static bool collect(void *user, uint64_t run, const char *line, size_t len, RunOutcome outcome)
{
    Collect *c = user;
    ck_assert_int_eq(outcome, RUN_PASSED);
    c->runs[c->lines++] = run;
    c->text = realloc(c->text, c->len + len + 1);
    memcpy(c->text + c->len, line, len);
    c->len += len;
    c->text[c->len] = '\0';
    return true;
}

static SweepJob transpose_job(SweepSpec *s, char **text, GpuConfig *base, char **variants, uint32_t nvariants)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/../workloads/transpose.json", TESTS_DIR);
    size_t len;
    ck_assert_int_eq(file_read(path, 1 << 20, text, &len, NULL, 0), FILE_READ_OK);
    Diag d;
    ck_assert(config_load("a100", base, &d));
    SweepJob job = { .spec = s, .spec_hash = "00000000000000cc", .bases = base, .gpu_axis = 0,
                     .workload_path = path, .workload_text = *text, .workload_len = len, .workload_name = "transpose",
                     .variants = variants, .nvariants = nvariants, .max_cycles = UINT64_MAX,
                     .max_instructions = UINT64_MAX };
    return job;
}

START_TEST(test_runs_in_order)
{
    SweepSpec s;
    sweep_spec_init(&s);
    add(&s, AXIS_GPU, "--gpu", "a100");
    add(&s, AXIS_SET, "--set", "sm.count=2,4");
    add(&s, AXIS_PARAM, "--param", "n=32,64");
    char *text, *variants[] = { "naive", "tiled" };
    GpuConfig base;
    SweepJob job = transpose_job(&s, &text, &base, variants, 2);
    uint64_t points[] = { 0, 1, 2, 3 };
    Collect one = { 0 }, three = { 0 };
    char why[128];
    ck_assert(sweep_run(&job, points, 4, NULL, 1, false, collect, &one, why, sizeof why));
    ck_assert(sweep_run(&job, points, 4, NULL, 3, false, collect, &three, why, sizeof why));
    ck_assert_uint_eq(one.lines, 8);
    ck_assert_str_eq(one.text, three.text);
    for (uint64_t i = 0; i < 8; i++) ck_assert_uint_eq(three.runs[i], i);
    /* each line is one object: its identity first, the point's values, a ratio against variant 0 */
    char *second = strchr(one.text, '\n') + 1;
    ck_assert(strncmp(second, "{\"spec\": \"00000000000000cc\", \"point\": 0, \"points\": 4, \"variant\": \"tiled\", "
                              "\"variant_index\": 1, \"variants\": 2, \"workload\": \"transpose\", \"gpu\": \"a100\"",
                      120) == 0);
    ck_assert_has(one.text, "\"set\": {\"sm.count\": 4}, \"param\": {\"n\": 64}, \"params\": {\"n\": 64}");
    cJSON *o = cJSON_ParseWithLength(one.text, (size_t)(second - one.text));
    ck_assert_ptr_nonnull(o);
    ck_assert_double_eq(cJSON_GetObjectItemCaseSensitive(o, "ratio")->valuedouble, 1);
    cJSON_Delete(o);
    /* one point alone: the same lines */
    char *lines;
    size_t n;
    RunOutcome worst;
    ck_assert(sweep_run_point(&job, 0, &lines, &n, &worst));
    ck_assert_int_eq(worst, RUN_PASSED);
    ck_assert(strncmp(lines, one.text, n) == 0);
    free(lines);
    /* runs a resumed sweep has are not handed out again; their points still run */
    uint8_t have[1] = { 0x2d }; /* runs 0, 2, 3, 5 */
    Collect part = { 0 };
    ck_assert(sweep_run(&job, points, 4, have, 2, false, collect, &part, why, sizeof why));
    ck_assert_uint_eq(part.lines, 4);
    static const uint64_t left[] = { 1, 4, 6, 7 };
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(part.runs[i], left[i]);
    /* and they are the lines the whole sweep has there */
    char *want = calloc(1, one.len + 1), *at = one.text;
    for (uint64_t r = 0; r < 8; r++) {
        char *end = strchr(at, '\n') + 1;
        if (r == 1 || r == 4 || r == 6 || r == 7) strncat(want, at, (size_t)(end - at));
        at = end;
    }
    ck_assert_str_eq(part.text, want);
    free(want);
    free(one.text);
    free(three.text);
    free(part.text);
    free(text);
    sweep_spec_free(&s);
}
END_TEST

/* a point the workload refuses is a line with its error, not the end of the sweep */
START_TEST(test_bad_point)
{
    SweepSpec s;
    sweep_spec_init(&s);
    add(&s, AXIS_GPU, "--gpu", "a100");
    add(&s, AXIS_PARAM, "--param", "n=32,0");
    char *text, *variants[] = { "copy" };
    GpuConfig base;
    SweepJob job = transpose_job(&s, &text, &base, variants, 1);
    char *line;
    size_t n;
    RunOutcome out;
    ck_assert(sweep_run_point(&job, 1, &line, &n, &out));
    ck_assert_int_eq(out, RUN_BAD_INPUT);
    ck_assert_has(line, "\"param\": {\"n\": 0}, \"params\": {}, \"seeds\": {}, \"check\": \"none\", \"status\": \"bad_input\", "
                        "\"cycles\": null, \"time_us\": null, \"ratio\": null, \"stats\": null, \"error\": ");
    ck_assert(line[n - 1] == '\n' && memchr(line, '\n', n - 1) == NULL);
    free(line);
    free(text);
    sweep_spec_free(&s);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *values = tcase_create("Values");
    tcase_add_loop_test(values, test_lists, 0, (int)(sizeof good_lists / sizeof good_lists[0]));
    tcase_add_test(values, test_list_without_ranges);
    tcase_add_test(values, test_list_limits);
    suite_add_tcase(s, values);

    TCase *spec = tcase_create("Spec");
    tcase_add_test(spec, test_point_order);
    tcase_add_loop_test(spec, test_shards, 0, (int)(sizeof shards / sizeof shards[0]));
    tcase_add_test(spec, test_shard_cover);
    tcase_add_test(spec, test_spec_hash);
    suite_add_tcase(s, spec);

    TCase *lines = tcase_create("Lines");
    tcase_add_test(lines, test_read_lines);
    tcase_add_loop_test(lines, test_merge, 0, (int)(sizeof merges / sizeof merges[0]));
    tcase_add_test(lines, test_csv);
    tcase_add_test(lines, test_endless_line_and_devices);
    suite_add_tcase(s, lines);

    TCase *runs = tcase_create("Runs");
    tcase_add_test(runs, test_runs_in_order);
    tcase_add_test(runs, test_bad_point);
    tcase_set_timeout(runs, 120);
    suite_add_tcase(s, runs);

    TCase *bad = tcase_create("BadInput");
    tcase_add_loop_test(bad, test_bad_lists, 0, (int)(sizeof bad_lists / sizeof bad_lists[0]));
    tcase_add_loop_test(bad, test_bad_axes, 0, (int)(sizeof bad_axes / sizeof bad_axes[0]));
    tcase_add_loop_test(bad, test_bad_files, 0, (int)(sizeof bad_files / sizeof bad_files[0]));
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sweep_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
