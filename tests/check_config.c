/* tests/check_config.c -- machine descriptions (sim/config.h): the presets,
** --set on every knob, JSON round trips, and the errors a user can provoke. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, unlink */
#include "sim/config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The knob list, read from the same X-macro rows as the library. */
enum { T_U32, T_F64, T_POLICY };
static const struct {
    const char *key;
    int type;
    double lo, hi;
    const char *help;
} knobs[] = {
#define CFG(key, field, type, lo, hi, help) {key, T_##type, (double)(lo), (double)(hi), help},
#include "sim/config.def"
#undef CFG
};
#define NKNOBS ((int)(sizeof knobs / sizeof knobs[0]))

static double knob_value(const GpuConfig *c, int i)
{
    int n = 0;
#define CFG(key, field, type, lo, hi, help) \
    if (n++ == i) return (double)c->field;
#include "sim/config.def"
#undef CFG
    return NAN;
}

static GpuConfig gpu(const char *name)
{
    GpuConfig c;
    Diag d;
    ck_assert_msg(config_load(name, &c, &d), "%s: %s", name, d.message);
    return c;
}

static void assert_same(const GpuConfig *a, const GpuConfig *b)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_str_eq(a->description, b->description);
    for (int i = 0; i < NKNOBS; i++)
        ck_assert_msg(knob_value(a, i) == knob_value(b, i), "%s: %.17g != %.17g", knobs[i].key,
                      knob_value(a, i), knob_value(b, i));
}

/* malloc'd copy of s with the first `from` replaced by `to` (which must be there) */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    ck_assert_msg(at != NULL, "'%s' not in the text", from);
    size_t head = (size_t)(at - s), flen = strlen(from), tlen = strlen(to);
    char *out = malloc(strlen(s) - flen + tlen + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, s, head);
    memcpy(out + head, to, tlen);
    strcpy(out + head + tlen, at + flen);
    return out;
}

/* 1-based line of the first `what` in text */
static uint32_t line_of(const char *text, const char *what)
{
    const char *at = strstr(text, what);
    ck_assert_ptr_nonnull(at);
    uint32_t line = 1;
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

static char *a100_json(void)
{
    GpuConfig c = gpu("a100");
    char *j = config_to_json(&c);
    ck_assert_ptr_nonnull(j);
    return j;
}

/* parses text as "dir/custom.json"; expects failure; returns the Diag */
static Diag parse_fails(const char *text)
{
    GpuConfig c;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_msg(!config_parse(text, strlen(text), "dir/custom.json", &c, &d), "accepted:\n%s", text);
    ck_assert_str_eq(d.file, "dir/custom.json");
    return d;
}

#define ck_assert_has(hay, needle) \
    ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' lacks '%s'", (hay), (needle))

/* ---- Core ---- */

START_TEST(test_presets_load)
{
    const char *name = config_preset_name((size_t)_i);
    ck_assert_ptr_nonnull(name);
    GpuConfig c = gpu(name);
    Diag d;
    ck_assert_str_eq(c.name, name);
    ck_assert_uint_gt(strlen(c.description), 10);
    ck_assert_msg(config_validate(&c, &d), "%s: %s", name, d.message);
}
END_TEST

START_TEST(test_preset_list)
{
    static const char *const want[] = {"a100", "b200", "h100", "h200", "rtx4090", "t4"};
    ck_assert_uint_eq(config_preset_count(), 6);
    for (size_t i = 0; i < 6; i++) ck_assert_str_eq(config_preset_name(i), want[i]);
    ck_assert_ptr_null(config_preset_name(6));
    GpuConfig c = gpu(CONFIG_DEFAULT_GPU);
    ck_assert_str_eq(c.name, "a100");
}
END_TEST

START_TEST(test_preset_facts)
{
    GpuConfig a = gpu("a100");
    ck_assert_uint_eq(a.compute_capability, 80);
    ck_assert_uint_eq(a.sm_count, 108);
    ck_assert_double_eq(a.clock_mhz, 1410);
    ck_assert_double_eq(a.dram_bandwidth_gbs, 2039);
    ck_assert_uint_eq(a.l2_size, 40u << 20);
    ck_assert_uint_eq(a.sm_shared_memory, 167936);
    ck_assert_uint_eq(a.shared_per_block_optin, 163 * 1024);
    ck_assert_uint_eq(a.shared_reserved, 1024);
    ck_assert_uint_eq(a.l1_shared_total, 192 * 1024);
    ck_assert_uint_eq(a.sm_max_warps, 64);
    ck_assert_uint_eq(a.sm_max_threads, 2048);
    ck_assert_uint_eq(a.sm_max_blocks, 32);
    ck_assert_uint_eq(a.sm_registers, 65536);
    ck_assert_uint_eq(a.fma_interval, 2);
    ck_assert_uint_eq(a.fp64_interval, 4); /* 32 FP64 results/clk/SM [CG] */
    ck_assert_uint_eq(a.l2_bytes_per_clk, 5120);

    GpuConfig h = gpu("h100");
    ck_assert_uint_eq(h.compute_capability, 90);
    ck_assert_uint_eq(h.sm_count, 132);
    ck_assert_double_eq(h.dram_bandwidth_gbs, 3350);
    ck_assert_uint_eq(h.l2_size, 50u << 20);
    ck_assert_uint_eq(h.sm_shared_memory, 233472);
    ck_assert_uint_eq(h.shared_per_block_optin, 227 * 1024);
    ck_assert_uint_eq(h.fma_interval, 1);
    ck_assert_uint_eq(h.fp64_interval, 2); /* 64 */
    ck_assert_uint_eq(h.lat_fp64, 8);

    GpuConfig h2 = gpu("h200");
    ck_assert_uint_eq(h2.compute_capability, 90);
    ck_assert_uint_eq(h2.sm_count, 132);
    /* calibrated: the streaming copy the validate runner measured (4186 GB/s),
    ** not the 4.8 TB/s of the datasheet (sim/presets/SOURCES.md) */
    ck_assert_double_eq(h2.dram_bandwidth_gbs, 4186);
    ck_assert_uint_eq(h2.l2_size, 60u << 20); /* as the device reports it */

    GpuConfig t = gpu("t4");
    ck_assert_uint_eq(t.compute_capability, 75);
    ck_assert_uint_eq(t.sm_count, 40);
    ck_assert_uint_eq(t.sm_max_warps, 32);
    ck_assert_uint_eq(t.sm_max_threads, 1024);
    ck_assert_uint_eq(t.sm_max_blocks, 16);
    ck_assert_uint_eq(t.sm_shared_memory, 65536);
    ck_assert_uint_eq(t.shared_reserved, 0);
    ck_assert_double_eq(t.dram_bandwidth_gbs, 320);
    ck_assert_uint_eq(t.l2_size, 4u << 20);
    ck_assert_uint_eq(t.fp64_interval, 64); /* 2 */

    GpuConfig r = gpu("rtx4090");
    ck_assert_uint_eq(r.compute_capability, 89);
    ck_assert_uint_eq(r.sm_count, 128);
    ck_assert_uint_eq(r.sm_max_warps, 48);
    ck_assert_uint_eq(r.sm_max_threads, 1536);
    ck_assert_uint_eq(r.sm_max_blocks, 24);
    ck_assert_uint_eq(r.sm_shared_memory, 100 * 1024);
    ck_assert_double_eq(r.dram_bandwidth_gbs, 1008);
    ck_assert_uint_eq(r.l2_size, 72u << 20);
    ck_assert_uint_eq(r.fma_interval, 1);
    ck_assert_uint_eq(r.fp64_interval, 64); /* 2 */

    GpuConfig b = gpu("b200");
    ck_assert_uint_eq(b.compute_capability, 100);
    ck_assert_uint_eq(b.sm_count, 148);
    ck_assert_double_eq(b.dram_bandwidth_gbs, 8000);
    ck_assert_uint_eq(b.l2_size, 126u << 20);
}
END_TEST

START_TEST(test_dram_bytes_per_cycle)
{
    GpuConfig a = gpu("a100");
    ck_assert_double_eq_tol(config_dram_bytes_per_cycle(&a), 2039e9 / 1410e6, 1e-9);
    GpuConfig h = gpu("h100");
    ck_assert_double_eq_tol(config_dram_bytes_per_cycle(&h), 3350e9 / 1980e6, 1e-9);
}
END_TEST

/* print -> parse gives the identical machine, for every preset */
START_TEST(test_json_round_trip)
{
    GpuConfig c = gpu(config_preset_name((size_t)_i)), back;
    Diag d;
    char *j = config_to_json(&c);
    ck_assert_ptr_nonnull(j);
    ck_assert_msg(config_parse(j, strlen(j), "printed.json", &back, &d), "%s", d.message);
    assert_same(&c, &back);
    free(j);
}
END_TEST

/* the same through a file, after --set on knobs of every type */
START_TEST(test_json_file_round_trip)
{
    GpuConfig c = gpu("h100"), back;
    Diag d;
    ck_assert(config_set(&c, "sm.count=200", &d));
    ck_assert(config_set(&c, "clock_mhz=1234.5678", &d));
    ck_assert(config_set(&c, "l2.bandwidth_bytes_per_clk=0x1p-1", &d) == false); /* not a plain number */
    ck_assert(config_set(&c, "l2.bandwidth_bytes_per_clk=3333.3333333333335", &d));
    ck_assert(config_set(&c, "sched.policy=lrr", &d));
    snprintf(c.description, sizeof c.description, "quote \" backslash \\ tab \t done");
    char *j = config_to_json(&c);
    ck_assert_ptr_nonnull(j);

    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/gpusim_cfg_XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    size_t len = strlen(j);
    ck_assert_int_eq(write(fd, j, len), (ssize_t)len);
    close(fd);
    ck_assert_msg(config_load(path, &back, &d), "%s", d.message);
    unlink(path);
    assert_same(&c, &back);
    ck_assert_str_eq(back.description, "quote \" backslash \\ tab \t done");
    ck_assert(back.sched_policy == SCHED_LRR);
    free(j);
}
END_TEST

/* every knob, at both ends of its range, and one past them */
START_TEST(test_set_every_knob)
{
    GpuConfig c = gpu("a100");
    Diag d;
    char as[160];
    if (knobs[_i].type == T_POLICY) {
        snprintf(as, sizeof as, "%s=lrr", knobs[_i].key);
        ck_assert(config_set(&c, as, &d));
        ck_assert(c.sched_policy == SCHED_LRR);
        snprintf(as, sizeof as, "%s=rr", knobs[_i].key);
        ck_assert(config_set(&c, as, &d));
        ck_assert(c.sched_policy == SCHED_ROUND_ROBIN);
        ck_assert_str_eq(config_policy_name(c.sched_policy), "rr");
        snprintf(as, sizeof as, "%s=gto", knobs[_i].key);
        ck_assert(config_set(&c, as, &d));
        ck_assert(c.sched_policy == SCHED_GTO);
        snprintf(as, sizeof as, "%s=1", knobs[_i].key);
        ck_assert(!config_set(&c, as, &d));
        ck_assert_has(d.message, "gto, lrr or rr");
        return;
    }
    const double ends[2] = {knobs[_i].lo, knobs[_i].hi};
    for (int e = 0; e < 2; e++) {
        snprintf(as, sizeof as, "%s=%.17g", knobs[_i].key, ends[e]);
        ck_assert_msg(config_set(&c, as, &d), "%s: %s", as, d.message);
        ck_assert_double_eq(knob_value(&c, _i), ends[e]);
    }
    double kept = knob_value(&c, _i);
    const double outside[2] = {knobs[_i].lo - 1, knobs[_i].hi + 1};
    for (int e = 0; e < 2; e++) {
        if (outside[e] < 0) continue; /* a negative u32 is a syntax error, below */
        snprintf(as, sizeof as, "%s=%.17g", knobs[_i].key, outside[e]);
        ck_assert_msg(!config_set(&c, as, &d), "%s accepted", as);
        ck_assert_has(d.message, "out of range");
        ck_assert_has(d.message, knobs[_i].key);
        ck_assert_str_eq(d.file, "--set");
        ck_assert_double_eq(knob_value(&c, _i), kept);
    }
    snprintf(as, sizeof as, "%s=abc", knobs[_i].key);
    ck_assert(!config_set(&c, as, &d));
    ck_assert_has(d.message, knobs[_i].type == T_U32 ? "unsigned integer" : "a number");
    if (knobs[_i].type == T_U32) {
        snprintf(as, sizeof as, "%s=-1", knobs[_i].key);
        ck_assert(!config_set(&c, as, &d));
        snprintf(as, sizeof as, "%s=1.5", knobs[_i].key);
        ck_assert(!config_set(&c, as, &d));
    }
    ck_assert_double_eq(knob_value(&c, _i), kept);
}
END_TEST

START_TEST(test_print_knobs)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    config_print_knobs(f);
    long size = ftell(f);
    ck_assert_int_gt(size, 0);
    char *text = calloc(1, (size_t)size + 1);
    rewind(f);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    for (int i = 0; i < NKNOBS; i++) ck_assert_has(text, knobs[i].key);
    ck_assert_has(text, "gto | lrr | rr");
    ck_assert_has(text, "[1, 100000]"); /* sm.count */
    free(text);
}
END_TEST

/* A knob whose range is one value cannot be explored: it either opens up or
** its help (what `gpus --knobs` prints) says why it cannot. */
START_TEST(test_ranges_open)
{
    for (int i = 0; i < NKNOBS; i++)
        if (knobs[i].lo == knobs[i].hi)
            ck_assert_msg(strstr(knobs[i].help, "cannot"), "%s: range %g..%g, and its help does not say why", knobs[i].key,
                          knobs[i].lo, knobs[i].hi);
    GpuConfig c = gpu("a100");
    Diag d;
    for (unsigned banks = 16; banks <= 64; banks *= 2) {
        char as[32];
        snprintf(as, sizeof as, "smem.banks=%u", banks);
        ck_assert(config_set(&c, as, &d));
        ck_assert_msg(config_validate(&c, &d), "%s: %s", as, d.message);
    }
}
END_TEST

/* the knob walk (gpus --diff, sweeps): keys in config.def order, and each
** value's text is what --set takes back, on every preset */
START_TEST(test_knob_walk)
{
    ck_assert_uint_eq(config_knob_count(), NKNOBS);
    ck_assert_ptr_null(config_knob_key(NKNOBS));
    ck_assert_int_eq(config_knob_find("nope"), -1);
    ck_assert_int_eq(config_knob_find(NULL), -1);
    for (size_t p = 0; p < config_preset_count(); p++) {
        GpuConfig c = gpu(config_preset_name(p)), back = c;
        for (int i = 0; i < NKNOBS; i++) {
            ck_assert_str_eq(config_knob_key((size_t)i), knobs[i].key);
            ck_assert_int_eq(config_knob_find(knobs[i].key), i);
            ck_assert(config_knob_is_number((size_t)i) == (knobs[i].type != T_POLICY));
            char text[64], as[200];
            config_knob_text(&c, (size_t)i, text, sizeof text);
            snprintf(as, sizeof as, "%s=%s", knobs[i].key, text);
            Diag d;
            ck_assert_msg(config_set(&back, as, &d), "%s: %s", as, d.message);
        }
        ck_assert_mem_eq(&c, &back, sizeof c);
    }
    GpuConfig c = gpu("a100");
    char small[4];
    config_knob_text(&c, (size_t)config_knob_find("l2.size"), small, sizeof small);
    ck_assert_str_eq(small, "419"); /* cut, but terminated */
    config_knob_text(&c, (size_t)config_knob_find("sched.policy"), small, sizeof small);
    ck_assert_str_eq(small, "gto");
}
END_TEST

/* ---- Edge ---- */

START_TEST(test_set_forms)
{
    GpuConfig c = gpu("a100");
    Diag d;
    ck_assert(config_set(&c, " sm.count = 200 ", &d));
    ck_assert_uint_eq(c.sm_count, 200);
    ck_assert(config_set(&c, "clock_mhz=1e3", &d));
    ck_assert_double_eq(c.clock_mhz, 1000);
    ck_assert(config_set(&c, "sm.count=007", &d));
    ck_assert_uint_eq(c.sm_count, 7);
    ck_assert(config_validate(&c, &d));
}
END_TEST

START_TEST(test_name_defaults_to_stem)
{
    char *j = a100_json();
    char *nameless = replace(j, "\"name\": \"a100\",\n", "");
    GpuConfig c;
    Diag d;
    ck_assert_msg(config_parse(nameless, strlen(nameless), "some/dir/my_gpu.json", &c, &d), "%s", d.message);
    ck_assert_str_eq(c.name, "my_gpu");
    free(nameless);
    free(j);
}
END_TEST

START_TEST(test_keys_have_one_dot_at_most)
{
    for (int i = 0; i < NKNOBS; i++) {
        const char *dot = strchr(knobs[i].key, '.');
        ck_assert_msg(!dot || !strchr(dot + 1, '.'), "%s", knobs[i].key);
    }
}
END_TEST

START_TEST(test_error_leaves_output_alone)
{
    GpuConfig c = gpu("t4"), before = c;
    Diag d;
    ck_assert(!config_load("h100.json.missing/x.json", &c, &d));
    ck_assert(!config_parse("{", 1, "x.json", &c, &d));
    ck_assert_mem_eq(&c, &before, sizeof c);
}
END_TEST

/* ---- BadInput ---- */

START_TEST(test_set_unknown_key)
{
    GpuConfig c = gpu("a100");
    Diag d;
    ck_assert(!config_set(&c, "sm.cuont=3", &d));
    ck_assert_str_eq(d.file, "--set");
    ck_assert_has(d.message, "unknown key 'sm.cuont'");
    ck_assert_has(d.message, "did you mean sm.count?");
    ck_assert_has(d.message, "valid keys:");
    /* the list names every knob (grouped: "sm.{count, schedulers, ...}") */
    for (int i = 0; i < NKNOBS; i++) {
        const char *dot = strchr(knobs[i].key, '.');
        ck_assert_has(d.message, dot ? dot + 1 : knobs[i].key);
    }
    ck_assert_has(d.message, "sm.{count");
    ck_assert_has(d.message, "sched.{policy, register_reads}");
    ck_assert(!config_set(&c, "name=x", &d));
    ck_assert_has(d.message, "unknown key 'name'");
}
END_TEST

static const struct {
    const char *assignment, *says;
} bad_sets[] = {
    {"sm.count", "expected key=value"},
    {"sm.count=", "expected an unsigned integer in [1, 100000], got ''"},
    {"sm.count=0", "sm.count: 0 is out of range [1, 100000]"},
    {"sm.count=4294967296", "out of range"},
    {"sm.count=99999999999999", "expected an unsigned integer"},
    {"sm.count=1e3", "expected an unsigned integer"},
    {"sm.max_regs_per_thread=1000000", "out of range [16, 255]"},
    {"clock_mhz=fast", "clock_mhz: expected a number in [1, 10000], got 'fast'"},
    {"clock_mhz=nan", "expected a number"},
    {"clock_mhz=inf", "expected a number"},
    {"clock_mhz=0.5", "out of range"},
    {"sched.policy=fifo", "sched.policy: expected gto, lrr or rr, got 'fifo'"},
    {"sched.policy=GTO", "expected gto, lrr or rr"},
    {"smem.banks=128", "smem.banks: 128 is out of range [16, 64]"},
    {"=5", "unknown key ''"},
};

START_TEST(test_set_bad_value)
{
    GpuConfig c = gpu("a100"), before = c;
    Diag d;
    ck_assert_msg(!config_set(&c, bad_sets[_i].assignment, &d), "%s accepted", bad_sets[_i].assignment);
    ck_assert_has(d.message, bad_sets[_i].says);
    ck_assert_mem_eq(&c, &before, sizeof c);
}
END_TEST

START_TEST(test_syntax_error_position)
{
    const char *text = "{\n  \"sm\": {\n    \"count\": 108,,\n  }\n}\n";
    Diag d = parse_fails(text);
    ck_assert_uint_eq(d.line, 3);
    ck_assert_uint_eq(d.col, 18);
    ck_assert_has(d.message, "invalid JSON: unexpected ','");

    d = parse_fails("{\n  \"sm\": {\n    \"count\" 108\n  }\n}\n");
    ck_assert_uint_eq(d.line, 3);
    ck_assert_uint_eq(d.col, 13);

    d = parse_fails("{\n  \"sm\": {\n");
    ck_assert_uint_eq(d.line, 2);
    ck_assert_has(d.message, "invalid JSON: unexpected end of file");

    d = parse_fails("{} trailing");
    ck_assert_uint_eq(d.line, 1);
    ck_assert_uint_eq(d.col, 4);

    d = parse_fails("");
    ck_assert_has(d.message, "end of file");
}
END_TEST

START_TEST(test_not_json)
{
    GpuConfig c;
    Diag d;
    ck_assert(!config_parse("{\"a\":\0}", 7, "bin.json", &c, &d));
    ck_assert_has(d.message, "NUL byte");
    d = parse_fails("[1, 2]");
    ck_assert_has(d.message, "expected a JSON object at the top level, got an array");
}
END_TEST

START_TEST(test_unknown_key_in_file)
{
    char *j = a100_json();
    char *typo = replace(j, "\"count\"", "\"cuont\"");
    Diag d = parse_fails(typo);
    ck_assert_msg(strncmp(d.message, "sm.cuont: unknown key", 21) == 0, "%s", d.message);
    ck_assert_has(d.message, "did you mean sm.count?");
    ck_assert_has(d.message, "valid keys: count, schedulers, max_warps");
    ck_assert_uint_eq(d.line, line_of(typo, "\"cuont\""));
    ck_assert_uint_eq(d.col, 5);
    free(typo);

    /* keys are case-sensitive */
    typo = replace(j, "\"count\"", "\"Count\"");
    d = parse_fails(typo);
    ck_assert_has(d.message, "sm.Count: unknown key");
    free(typo);

    /* at the top level the list includes name and description */
    typo = replace(j, "{\n", "{\n  \"foo\": 1,\n");
    d = parse_fails(typo);
    ck_assert_has(d.message, "foo: unknown key; valid keys: name, description, compute_capability");
    ck_assert_uint_eq(d.line, 2);
    ck_assert_uint_eq(d.col, 3);
    free(typo);

    /* a dotted key is not a nested one */
    typo = replace(j, "{\n", "{\n  \"sm.count\": 1,\n");
    d = parse_fails(typo);
    ck_assert_has(d.message, "sm.count: a dotted key must be written as nested objects");
    free(typo);
    free(j);
}
END_TEST

START_TEST(test_missing_key_in_file)
{
    char *j = a100_json();
    char *gap = replace(j, "    \"count\": 108,\n", "");
    Diag d = parse_fails(gap);
    ck_assert_msg(strncmp(d.message, "sm.count: missing key", 21) == 0, "%s", d.message);
    ck_assert_has(d.message, "1 missing in all");
    ck_assert_uint_eq(d.line, line_of(gap, "\"sm\""));
    free(gap);

    gap = replace(j, "  \"clock_mhz\": 1410,\n", "");
    d = parse_fails(gap);
    ck_assert_has(d.message, "clock_mhz: missing key");
    free(gap);

    d = parse_fails("{\"name\": \"x\"}");
    ck_assert_has(d.message, "compute_capability: missing key");
    free(j);
}
END_TEST

static const struct {
    const char *from, *to, *says;
} bad_values[] = {
    {"\"count\": 108", "\"count\": \"108\"", "sm.count: expected an unsigned integer, got a string"},
    {"\"count\": 108", "\"count\": 108.5", "sm.count: expected an unsigned integer, got 108.5"},
    {"\"count\": 108", "\"count\": -1", "sm.count: -1 is out of range [1, 100000]"},
    {"\"count\": 108", "\"count\": 0", "sm.count: 0 is out of range [1, 100000]"},
    {"\"count\": 108", "\"count\": null", "got null"},
    {"\"count\": 108", "\"count\": true", "got a boolean"},
    {"\"count\": 108", "\"count\": [108]", "got an array"},
    {"\"count\": 108", "\"count\": {\"n\": 108}", "got an object"},
    {"\"clock_mhz\": 1410", "\"clock_mhz\": \"1410\"", "clock_mhz: expected a number, got a string"},
    {"\"clock_mhz\": 1410", "\"clock_mhz\": 1e400", "clock_mhz: expected a number"},
    {"\"policy\": \"gto\"", "\"policy\": 1", "sched.policy: expected \"gto\", \"lrr\" or \"rr\", got a number"},
    {"\"policy\": \"gto\"", "\"policy\": \"GTO\"", "sched.policy: expected gto, lrr or rr, got 'GTO'"},
    {"\"dram\": {\n    \"access_bytes\": 64,\n    \"bandwidth_gbs\": 2039,\n    \"loaded_latency_linear\": 0,\n    \"loaded_latency_queue\": 0,\n    \"latency_spread\": 0\n  }",
     "\"dram\": 2039", "dram: expected an object with keys access_bytes, bandwidth_gbs, loaded_latency_linear, loaded_latency_queue, latency_spread"},
    {"\"count\": 108,", "\"count\": 108,\n    \"count\": 109,", "sm.count: duplicate key"},
    {"\"name\": \"a100\"", "\"name\": 5", "name: expected a string"},
    {"\"name\": \"a100\"", "\"name\": \"\"", "name: must not be empty"},
    {"\"name\": \"a100\"",
     "\"name\": \"0123456789012345678901234567890123456789012345678901234567890123456789\"",
     "name: longer than 63 characters"},
    /* values each in range, but not together */
    {"\"shared_per_block_optin\": 166912", "\"shared_per_block_optin\": 200000",
     "sm.shared_per_block_optin (200000) + sm.shared_reserved (1024) exceeds sm.shared_memory"},
    {"\"max_regs_per_thread\": 255", "\"max_regs_per_thread\": 100000", "out of range [16, 255]"},
};

START_TEST(test_bad_value_in_file)
{
    char *j = a100_json();
    char *text = replace(j, bad_values[_i].from, bad_values[_i].to);
    Diag d = parse_fails(text);
    ck_assert_has(d.message, bad_values[_i].says);
    free(text);
    free(j);
}
END_TEST

START_TEST(test_duplicate_position)
{
    char *j = a100_json();
    char *text = replace(j, "\"count\": 108,", "\"count\": 108,\n    \"count\": 109,");
    Diag d = parse_fails(text);
    ck_assert_uint_eq(d.line, line_of(text, "\"count\": 109"));
    free(text);
    free(j);
}
END_TEST

START_TEST(test_load_errors)
{
    GpuConfig c;
    Diag d;
    ck_assert(!config_load("a1000", &c, &d));
    ck_assert_has(d.message, "unknown GPU 'a1000'");
    ck_assert_has(d.message, "a100, b200, h100, h200, rtx4090, t4");
    ck_assert(!config_load("no/such/dir/gpu.json", &c, &d));
    ck_assert_str_eq(d.file, "no/such/dir/gpu.json");
    ck_assert_has(d.message, "cannot open");
    ck_assert(!config_load("missing.json", &c, &d)); /* .json means a path */
    ck_assert_has(d.message, "cannot open");
    ck_assert(!config_load("", &c, &d));
    ck_assert(!config_load(NULL, &c, &d));
}
END_TEST

/* a machine filled in by hand: config_validate is the gate */
static const struct {
    const char *set; /* applied to the struct directly, bypassing config_set */
    const char *says;
} bad_machines[] = {
    {"sm_count=0", "sm.count: 0 is out of range"},
    {"max_regs_per_thread=1000000", "sm.max_regs_per_thread: 1000000 is out of range"},
    {"clock_mhz=nan", "clock_mhz: nan is out of range"},
    {"max_threads_per_block=4096", "sm.max_threads_per_block (4096) exceeds sm.max_threads (2048)"},
    {"sm_max_warps=16", "exceeds 32 * sm.max_warps"},
    {"sm_registers=8192", "sm.max_regs_per_block (65536) exceeds sm.registers (8192)"},
    {"regs_small", "more than a sub-partition's"},
    {"sm_registers=65537", "split evenly"},
    {"shared_per_block=200000", "sm.shared_per_block (200000) exceeds sm.shared_per_block_optin"},
    {"sm_shared_memory=100000", "exceeds sm.shared_memory (100000)"},
    {"l1_shared_total=100000", "sm.shared_memory (167936) exceeds sm.l1_shared_total (100000)"},
    {"l1_size=1000", "l1.size (1000) is not a whole number of sets"},
    {"l2_partitions=3", "l2.size (41943040) does not split into l2.partitions (3) whole numbers of sets"},
    {"lat_l2_hit=10", "latencies must grow"},
    {"sm_schedulers=16,sm_max_warps=8", "exceeds"},
    {"smem_banks=48", "smem.banks (48) must be 16, 32 or 64"},
    {"name", "not NUL-terminated"},
};

START_TEST(test_validate_refuses)
{
    GpuConfig c = gpu("a100");
    Diag d;
    const char *s = bad_machines[_i].set;
    if (!strcmp(s, "sm_count=0")) c.sm_count = 0;
    else if (!strcmp(s, "max_regs_per_thread=1000000")) c.max_regs_per_thread = 1000000;
    else if (!strcmp(s, "clock_mhz=nan")) c.clock_mhz = NAN;
    else if (!strcmp(s, "max_threads_per_block=4096")) c.max_threads_per_block = 4096;
    else if (!strcmp(s, "sm_max_warps=16")) c.sm_max_warps = 16;
    else if (!strcmp(s, "sm_registers=8192")) c.sm_registers = 8192;
    else if (!strcmp(s, "regs_small")) c.sm_registers = c.max_regs_per_block = 16384;
    else if (!strcmp(s, "sm_registers=65537")) c.sm_registers = 65537;
    else if (!strcmp(s, "shared_per_block=200000")) c.shared_per_block = 200000;
    else if (!strcmp(s, "sm_shared_memory=100000")) c.sm_shared_memory = 100000;
    else if (!strcmp(s, "l1_shared_total=100000")) c.l1_shared_total = 100000;
    else if (!strcmp(s, "l1_size=1000")) c.l1_size = 1000;
    else if (!strcmp(s, "l2_partitions=3")) c.l2_partitions = 3;
    else if (!strcmp(s, "lat_l2_hit=10")) c.lat_l2_hit = 10;
    else if (!strcmp(s, "sm_schedulers=16,sm_max_warps=8")) c.sm_schedulers = 16, c.sm_max_warps = 8, c.max_threads_per_block = 256;
    else if (!strcmp(s, "smem_banks=48")) c.smem_banks = 48;
    else if (!strcmp(s, "name")) memset(c.name, 'x', sizeof c.name);
    else ck_abort_msg("unknown case %s", s);
    ck_assert(!config_validate(&c, &d));
    ck_assert_has(d.message, bad_machines[_i].says);
}
END_TEST

/* ---- machine files with a base ---- */

/* Writes text to dir/name. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_base_files)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512], sub[560], path[600];
    snprintf(dir, sizeof dir, "%s/gpusim_base_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    put_file(dir, "big.json", "{\"base\": \"a100\", \"sm\": {\"count\": 200}}");
    put_file(dir, "sub/bigger.json", "{\"base\": \"../big.json\", \"name\": \"b2\", \"l2\": {\"size\": 83886080}}");
    put_file(dir, "c1.json", "{\"base\": \"c2.json\"}");
    put_file(dir, "c2.json", "{\"base\": \"c1.json\"}");
    put_file(dir, "self.json", "{\"sm\": {\"count\": 3},\n \"base\": \"self.json\"}");
    put_file(dir, "badbase.json", "{\"base\": \"c9.json\"}");
    put_file(dir, "inrange.json", "{\"base\": \"a100\", \"sm\": {\"count\": 0}}");
    put_file(dir, "badinner.json", "{\"base\": \"inrange.json\"}");

    /* only the knobs it changes; the rest, and the description, from a100 */
    GpuConfig c, a = gpu("a100");
    Diag d;
    snprintf(path, sizeof path, "%s/sub/bigger.json", dir);
    ck_assert_msg(config_load(path, &c, &d), "%s", d.message);
    ck_assert_str_eq(c.name, "b2");
    ck_assert_str_eq(c.description, a.description);
    ck_assert_uint_eq(c.sm_count, 200);
    ck_assert_uint_eq(c.l2_size, 83886080);
    ck_assert_uint_eq(c.sm_registers, a.sm_registers);
    snprintf(path, sizeof path, "%s/big.json", dir);
    ck_assert(config_load(path, &c, &d));
    ck_assert_str_eq(c.name, "big"); /* the file's stem, not the base's name */

    snprintf(path, sizeof path, "%s/c1.json", dir);
    ck_assert(!config_load(path, &c, &d));
    ck_assert_has(d.message, "base: a cycle of machine files: ");
    ck_assert_has(d.message, "c1.json -> ");
    ck_assert_has(d.file, "c2.json");
    ck_assert_uint_eq(d.line, 1);
    ck_assert_uint_eq(d.col, 2);
    snprintf(path, sizeof path, "%s/self.json", dir);
    ck_assert(!config_load(path, &c, &d));
    ck_assert_has(d.message, "self.json -> ");
    ck_assert_uint_eq(d.line, 2); /* at the base key */
    snprintf(path, sizeof path, "%s/badbase.json", dir);
    ck_assert(!config_load(path, &c, &d));
    ck_assert_has(d.file, "badbase.json"); /* at the base key, naming the missing file */
    ck_assert_uint_eq(d.line, 1);
    ck_assert_has(d.message, "base: machine file 'c9.json': cannot open");
    snprintf(path, sizeof path, "%s/badinner.json", dir);
    ck_assert(!config_load(path, &c, &d));
    ck_assert_has(d.file, "inrange.json"); /* the base's own error, at its place */
    ck_assert_has(d.message, "sm.count: 0 is out of range");

    /* in memory: presets by name */
    const char *t = "{\"base\": \"h100\", \"sched\": {\"policy\": \"lrr\"}}";
    ck_assert_msg(config_parse(t, strlen(t), "x/lrr.json", &c, &d), "%s", d.message);
    ck_assert(c.sched_policy == SCHED_LRR);
    ck_assert_uint_eq(c.sm_count, gpu("h100").sm_count);
    d = parse_fails("{\"base\": \"a1000\"}");
    ck_assert_has(d.message, "base: unknown GPU 'a1000'");
    ck_assert_uint_eq(d.col, 2);
    d = parse_fails("{\"base\": 3}");
    ck_assert_has(d.message, "base: expected the name of a preset or a machine file, got a number");
    d = parse_fails("{\"base\": \"a100\", \"base\": \"h100\"}");
    ck_assert_has(d.message, "base: duplicate key");
    d = parse_fails("{\"base\": \"a100\", \"sm\": {\"cuont\": 1}}");
    ck_assert_has(d.message, "sm.cuont: unknown key (did you mean sm.count?)");
    d = parse_fails("{\"base\": \"a100\", \"sm\": {\"max_threads\": 512}}");
    ck_assert_has(d.message, "exceeds sm.max_threads");
    d = parse_fails("{\"foo\": 1}");
    ck_assert_has(d.message, ", base"); /* listed among the valid top-level keys */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    int presets = (int)config_preset_count();
    TCase *core = tcase_create("Core");
    tcase_add_loop_test(core, test_presets_load, 0, presets);
    tcase_add_test(core, test_preset_list);
    tcase_add_test(core, test_preset_facts);
    tcase_add_test(core, test_dram_bytes_per_cycle);
    tcase_add_test(core, test_ranges_open);
    tcase_add_test(core, test_knob_walk);
    tcase_add_loop_test(core, test_json_round_trip, 0, presets);
    tcase_add_test(core, test_json_file_round_trip);
    tcase_add_loop_test(core, test_set_every_knob, 0, NKNOBS);
    tcase_add_test(core, test_print_knobs);
    suite_add_tcase(s, core);

    TCase *edge = tcase_create("Edge");
    tcase_add_test(edge, test_set_forms);
    tcase_add_test(edge, test_name_defaults_to_stem);
    tcase_add_test(edge, test_keys_have_one_dot_at_most);
    tcase_add_test(edge, test_error_leaves_output_alone);
    suite_add_tcase(s, edge);

    TCase *badin = tcase_create("BadInput");
    tcase_add_test(badin, test_set_unknown_key);
    tcase_add_loop_test(badin, test_set_bad_value, 0, (int)(sizeof bad_sets / sizeof bad_sets[0]));
    tcase_add_test(badin, test_syntax_error_position);
    tcase_add_test(badin, test_not_json);
    tcase_add_test(badin, test_unknown_key_in_file);
    tcase_add_test(badin, test_missing_key_in_file);
    tcase_add_loop_test(badin, test_bad_value_in_file, 0, (int)(sizeof bad_values / sizeof bad_values[0]));
    tcase_add_test(badin, test_duplicate_position);
    tcase_add_test(badin, test_load_errors);
    tcase_add_loop_test(badin, test_validate_refuses, 0, (int)(sizeof bad_machines / sizeof bad_machines[0]));
    tcase_add_test(badin, test_base_files);
    suite_add_tcase(s, badin);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(config_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
