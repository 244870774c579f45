/* tests/check_cuda.c -- the .cu cache's manifests (workloads/cuda.h): the
** make rule nvcc -MD writes is read as make reads it (continuation lines,
** escaped spaces), each file kept by its real path and hash, and an entry
** is fresh only while every file hashes as it did. No nvcc needed. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/cuda.h"

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *at(const char *name)
{
    static char path[4][256];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_cuda.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put("a.cu", "#include \"x y.h\"\n");
    put("x y.h", "#define X 1\n");
    put("b.h", "#define B 2\n");
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* The rule's form as nvcc writes it: the target, then the files after a
** colon, several lines joined by backslashes, a space in a name escaped. */
static void write_rule(void)
{
    char rule[1024];
    snprintf(rule, sizeof rule, "%s/out.ptx : %s/a.cu \\\n    %s/x\\ y.h \\\n    %s/b.h\n", dir, dir, dir, dir);
    put("out.d", rule);
}

START_TEST(test_manifest_lists_every_file)
{
    write_rule();
    ck_assert(cuda_manifest_write(at("out.d"), at("out.deps")));
    FILE *f = fopen(at("out.deps"), "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int n = 0;
    bool spaced = false;
    while (fgets(line, sizeof line, f)) {
        ck_assert_uint_eq(strspn(line, "0123456789abcdef"), 16);
        ck_assert_int_eq(line[16], ' ');
        ck_assert_int_eq(line[17], '/'); /* a real path */
        spaced |= strstr(line, "/x y.h\n") != NULL;
        n++;
    }
    fclose(f);
    ck_assert_int_eq(n, 3);
    ck_assert(spaced);
    ck_assert(cuda_manifest_fresh(at("out.deps")));
}
END_TEST

START_TEST(test_an_edit_makes_it_stale)
{
    write_rule();
    ck_assert(cuda_manifest_write(at("out.d"), at("out.deps")));
    put("b.h", "#define B 3\n");
    ck_assert(!cuda_manifest_fresh(at("out.deps")));
    put("b.h", "#define B 2\n"); /* the same bytes again: fresh again */
    ck_assert(cuda_manifest_fresh(at("out.deps")));
    unlink(at("x y.h")); /* a file that is gone */
    ck_assert(!cuda_manifest_fresh(at("out.deps")));
}
END_TEST

START_TEST(test_missing_or_cut_manifests_are_stale)
{
    ck_assert(!cuda_manifest_fresh(at("none.deps")));
    put("empty.deps", "");
    ck_assert(!cuda_manifest_fresh(at("empty.deps")));
    write_rule();
    ck_assert(cuda_manifest_write(at("out.d"), at("out.deps")));
    FILE *f = fopen(at("out.deps"), "r");
    char text[2048];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len - 5] = 0; /* the last line cut short */
    put("cut.deps", text);
    ck_assert(!cuda_manifest_fresh(at("cut.deps")));
    put("bad.deps", "zz not a hash\n");
    ck_assert(!cuda_manifest_fresh(at("bad.deps")));
}
END_TEST

START_TEST(test_a_file_that_cannot_be_read_refuses_the_manifest)
{
    char rule[512];
    snprintf(rule, sizeof rule, "%s/out.ptx: %s/a.cu %s/nowhere.h\n", dir, dir, dir);
    put("out.d", rule);
    ck_assert(!cuda_manifest_write(at("out.d"), at("out.deps")));
    ck_assert_int_ne(access(at("out.deps"), F_OK), 0); /* nothing half written */
    ck_assert(!cuda_manifest_write(at("no-such.d"), at("out.deps")));
}
END_TEST

static Suite *cuda_suite(void)
{
    Suite *s = suite_create("cuda");
    TCase *t = tcase_create("manifest");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_manifest_lists_every_file);
    tcase_add_test(t, test_an_edit_makes_it_stale);
    tcase_add_test(t, test_missing_or_cut_manifests_are_stale);
    tcase_add_test(t, test_a_file_that_cannot_be_read_refuses_the_manifest);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(cuda_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
