/* tests/check_npy.c -- the .npy reader and writer (workloads/npy.h): the
** header we write (64-byte aligned, version 1.0), headers as NumPy writes
** them in either version, any key order and quoting, shapes of 0 to 3
** dimensions; every refusal names the file (truncated files, wrong magic,
** other versions, big-endian, Fortran order, object and 8-byte dtypes,
** structured arrays, a shape that overflows, unknown, missing and repeated
** keys, bytes after the data). With a python3 that has NumPy, a round trip
** through NumPy itself: our file loads there, NumPy's files load here;
** without one that test says it is skipped and passes. */
#include "workloads/npy.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* header text (the dict and its newline) -> a whole file in buf of
** version `major`, with `data_bytes` bytes of data 0, 1, 2, ... after it */
static size_t make_file(uint8_t *buf, int major, const char *dict, size_t data_bytes)
{
    size_t pre = major == 1 ? 10 : 12, n = strlen(dict);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (uint8_t)major;
    buf[7] = 0;
    if (major == 1) {
        buf[8] = (uint8_t)n;
        buf[9] = (uint8_t)(n >> 8);
    } else {
        buf[8] = (uint8_t)n;
        buf[9] = (uint8_t)(n >> 8);
        buf[10] = buf[11] = 0;
    }
    memcpy(buf + pre, dict, n);
    for (size_t i = 0; i < data_bytes; i++) buf[pre + n + i] = (uint8_t)i;
    return pre + n + data_bytes;
}

START_TEST(test_header_we_write)
{
    static const WlType types[] = { WL_F32, WL_S32, WL_U32 };
    static const uint64_t counts[] = { 1, 3, 1000000, 18446744073709551615ull / 8 };
    for (size_t t = 0; t < 3; t++)
        for (size_t c = 0; c < 4; c++) {
            uint8_t h[128];
            size_t n = npy_header(types[t], counts[c], h, sizeof h);
            ck_assert_uint_eq(n % 64, 0);
            ck_assert(memcmp(h, "\x93NUMPY\x01\x00", 8) == 0);
            ck_assert_uint_eq((size_t)h[8] | (size_t)h[9] << 8, n - 10);
            ck_assert_int_eq(h[n - 1], '\n');
            char want[128];
            snprintf(want, sizeof want, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }",
                     npy_descr(types[t]), (unsigned long long)counts[c]);
            ck_assert(memcmp(h + 10, want, strlen(want)) == 0);
        }
}
END_TEST

START_TEST(test_round_trip_here)
{
    uint32_t vals[5] = { 0, 1, 0x3f800000u, 0xffffffffu, 0x80000000u };
    uint8_t buf[256];
    size_t hl = npy_header(WL_S32, 5, buf, sizeof buf);
    memcpy(buf + hl, vals, sizeof vals); /* little-endian host */
    NpyArray a;
    Diag d;
    ck_assert_msg(npy_parse(buf, hl + sizeof vals, "mem.npy", &a, &d), "%s", d.message);
    ck_assert_int_eq(a.type, WL_S32);
    ck_assert_uint_eq(a.ndim, 1);
    ck_assert_uint_eq(a.shape[0], 5);
    ck_assert_uint_eq(a.count, 5);
    ck_assert(memcmp(a.data, vals, sizeof vals) == 0);
    npy_free(&a);

    char path[] = "/tmp/check_npy_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    ck_assert_msg(npy_write(path, WL_F32, vals, 5, &d), "%s", d.message);
    ck_assert_msg(npy_read(path, 1 << 20, &a, &d), "%s", d.message);
    ck_assert_int_eq(a.type, WL_F32);
    ck_assert(memcmp(a.data, vals, sizeof vals) == 0);
    npy_free(&a);
    unlink(path);
}
END_TEST

static const struct {
    int         major;
    const char *dict;
    size_t      data;
    WlType      type;
    uint32_t    ndim;
    uint64_t    count;
} good[] = {
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }      \n", 12, WL_F32, 1, 3 },
    { 1, "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }\n", 24, WL_U32, 2, 6 },
    { 1, "{'shape': (4,), 'fortran_order': False, 'descr': '<i4'}\n", 16, WL_S32, 1, 4 },
    { 1, "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": ()}\n", 4, WL_F32, 0, 1 },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,2,2,)}\n", 32, WL_F32, 3, 8 },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }\n", 0, WL_F32, 1, 0 },
    { 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", 20, WL_F32, 1, 5 },
};

START_TEST(test_headers_numpy_writes)
{
    uint8_t buf[512];
    size_t len = make_file(buf, good[_i].major, good[_i].dict, good[_i].data);
    NpyArray a;
    Diag d;
    ck_assert_msg(npy_parse(buf, len, "x.npy", &a, &d), "%s: %s", good[_i].dict, d.message);
    ck_assert_int_eq(a.type, good[_i].type);
    ck_assert_uint_eq(a.ndim, good[_i].ndim);
    ck_assert_uint_eq(a.count, good[_i].count);
    npy_free(&a);
}
END_TEST

static const struct {
    int         major;   /* 0: dict is the whole file, data its length */
    const char *dict;
    size_t      data;
    const char *message; /* a part of the message */
} bad_files[] = {
    { 0, "\x93NUMP", 5, "not a .npy file" },
    { 0, "PK\x03\x04 a zip, not an npy file", 27, "not a .npy file" },
    { 0, "\x93NUMPY\x01\x00", 8, "truncated .npy file" },
    { 0, "\x93NUMPY\x01\x00\x40\x00{'descr'", 17, "truncated .npy file: the header says 64 bytes" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", 11, "truncated .npy file: shape (3,) of <f4 needs 12 bytes of data, 11 follow" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", 13, "1 bytes after the data of shape (3,)" },
    { 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", 12, "version 3.0: versions 1.0 and 2.0 are read" },
    { 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }\n", 12, "big-endian dtype '>f4'" },
    { 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }\n", 12, "Fortran-order array" },
    { 1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }\n", 24, "object dtype '|O'" },
    { 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }\n", 24, "dtype '<f8': only '<f4', '<i4' and '<u4'" },
    { 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }\n", 12, "structured dtype" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n", 0, "overflows 64 bits" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n", 0, "does not fit 64 bits" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'extra': 1}\n", 12, "unknown key 'extra'" },
    { 1, "{'descr': '<f4', 'shape': (3,), }\n", 12, "has no 'fortran_order'" },
    { 1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}\n", 12, "key 'descr' given twice" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }\n", 12, "expected a non-negative integer" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12, "does not end with a newline" },
    { 1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }\n", 12, "expected True or False" },
    { 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x\n", 12, "text after the dict" },
};

START_TEST(test_bad_files)
{
    uint8_t buf[512];
    size_t len;
    if (bad_files[_i].major == 0) {
        len = bad_files[_i].data;
        memcpy(buf, bad_files[_i].dict, len);
    } else {
        len = make_file(buf, bad_files[_i].major, bad_files[_i].dict, bad_files[_i].data);
    }
    NpyArray a;
    Diag d;
    ck_assert_msg(!npy_parse(buf, len, "data/in.npy", &a, &d), "case %d parsed", _i);
    ck_assert_str_eq(d.file, "data/in.npy");
    ck_assert_msg(strstr(d.message, bad_files[_i].message), "case %d: '%s' lacks '%s'", _i, d.message,
                  bad_files[_i].message);
    ck_assert_ptr_null(a.data);
}
END_TEST

START_TEST(test_missing_file)
{
    NpyArray a;
    Diag d;
    ck_assert(!npy_read("/nonexistent/x.npy", 1 << 20, &a, &d));
    ck_assert_str_eq(d.file, "/nonexistent/x.npy");
    ck_assert(strstr(d.message, "cannot read .npy file"));
}
END_TEST

/* A device or a file longer than its header says is read only as far as
** the header takes it: /dev/zero was read to the 4 GiB cap (a hang). */
START_TEST(test_read_stops_at_header)
{
    NpyArray a;
    Diag d;
    const char *devices[] = { "/dev/zero", "/dev/urandom" };
    for (int i = 0; i < 2; i++) {
        ck_assert(!npy_read(devices[i], UINT64_MAX / 2, &a, &d));
        ck_assert_msg(strstr(d.message, "not a .npy file"), "%s: %s", devices[i], d.message);
    }
    char path[] = "/tmp/check_npy_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    uint8_t buf[256];
    size_t n = make_file(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n", 16 + 5);
    ck_assert(write(fd, buf, n) == (ssize_t)n);
    close(fd);
    ck_assert(!npy_read(path, 1 << 20, &a, &d));
    ck_assert_msg(strstr(d.message, "bytes after the data"), "%s", d.message);
    ck_assert(!npy_read(path, 40, &a, &d)); /* the shape needs more than allowed */
    ck_assert_msg(strstr(d.message, "more than the 40 allowed"), "%s", d.message);
    unlink(path);
}
END_TEST

/* A python3 with NumPy, or NULL: the one on PATH, then Debian's own (where
** python3-numpy installs it). */
static const char *python_with_numpy(void)
{
    static const char *const tries[] = { "python3", "/usr/bin/python3" };
    for (size_t i = 0; i < 2; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", tries[i]);
        if (system(cmd) == 0) return tries[i];
    }
    return NULL;
}

START_TEST(test_numpy_round_trip)
{
    const char *py = python_with_numpy();
    if (!py) {
        printf("check_npy: NumPy round trip skipped (no python3 with numpy)\n");
        return;
    }
    char dir[] = "/tmp/check_npy_dir_XXXXXX";
    ck_assert(mkdtemp(dir));
    char path[256], cmd[4096];
    /* ours -> NumPy */
    float f[4] = { 1.5f, -2.0f, 3.25f, 1e-30f };
    snprintf(path, sizeof path, "%s/ours_f4.npy", dir);
    Diag d;
    ck_assert_msg(npy_write(path, WL_F32, f, 4, &d), "%s", d.message);
    uint32_t u[3] = { 0, 7, 0xffffffffu };
    snprintf(path, sizeof path, "%s/ours_u4.npy", dir);
    ck_assert(npy_write(path, WL_U32, u, 3, &d));
    int32_t s[2] = { -5, 2147483647 };
    snprintf(path, sizeof path, "%s/ours_i4.npy", dir);
    ck_assert(npy_write(path, WL_S32, s, 2, &d));
    snprintf(cmd, sizeof cmd,
             "%s -c \"\n"
             "import numpy as np\n"
             "d = '%s'\n"
             "a = np.load(d + '/ours_f4.npy'); assert a.dtype == '<f4' and a.tolist() == [1.5, -2.0, 3.25, np.float32(1e-30)], a\n"
             "b = np.load(d + '/ours_u4.npy'); assert b.dtype == '<u4' and b.tolist() == [0, 7, 4294967295], b\n"
             "c = np.load(d + '/ours_i4.npy'); assert c.dtype == '<i4' and c.tolist() == [-5, 2147483647], c\n"
             "np.save(d + '/np_2d.npy', np.arange(12, dtype='<f4').reshape(3, 4))\n"
             "np.save(d + '/np_u4.npy', np.array([3, 1, 4], dtype='<u4'))\n"
             "np.save(d + '/np_big.npy', np.arange(3, dtype='>f4'))\n"
             "np.save(d + '/np_fortran.npy', np.asfortranarray(np.ones((2, 3), dtype='<f4')))\n"
             "np.save(d + '/np_obj.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)\n"
             "np.save(d + '/np_f8.npy', np.zeros(3))\n"
             "\"",
             py, dir);
    ck_assert_msg(system(cmd) == 0, "NumPy did not read our files (or could not write its own)");
    /* NumPy -> ours */
    NpyArray a;
    snprintf(path, sizeof path, "%s/np_2d.npy", dir);
    ck_assert_msg(npy_read(path, 1 << 20, &a, &d), "%s", d.message);
    ck_assert_uint_eq(a.ndim, 2);
    ck_assert_uint_eq(a.shape[0], 3);
    ck_assert_uint_eq(a.shape[1], 4);
    ck_assert_uint_eq(a.count, 12);
    for (int i = 0; i < 12; i++) ck_assert(((float *)a.data)[i] == (float)i);
    npy_free(&a);
    snprintf(path, sizeof path, "%s/np_u4.npy", dir);
    ck_assert_msg(npy_read(path, 1 << 20, &a, &d), "%s", d.message);
    ck_assert_int_eq(a.type, WL_U32);
    ck_assert_uint_eq(((uint32_t *)a.data)[2], 4);
    npy_free(&a);
    static const struct {
        const char *file, *message;
    } refused[] = { { "np_big.npy", "big-endian" }, { "np_fortran.npy", "Fortran-order" },
                    { "np_obj.npy", "object dtype" }, { "np_f8.npy", "dtype '<f8'" } };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, refused[i].file);
        ck_assert_msg(!npy_read(path, 1 << 20, &a, &d), "%s read", refused[i].file);
        ck_assert_str_eq(d.file, path);
        ck_assert_msg(strstr(d.message, refused[i].message), "%s: %s", refused[i].file, d.message);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert(system(cmd) == 0);
}
END_TEST

static Suite *npy_suite(void)
{
    Suite *s = suite_create("npy");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_header_we_write);
    tcase_add_test(tc, test_round_trip_here);
    tcase_add_loop_test(tc, test_headers_numpy_writes, 0, sizeof good / sizeof good[0]);
    suite_add_tcase(s, tc);
    tc = tcase_create("BadInput");
    tcase_add_loop_test(tc, test_bad_files, 0, sizeof bad_files / sizeof bad_files[0]);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_read_stops_at_header);
    suite_add_tcase(s, tc);
    tc = tcase_create("NumPy");
    tcase_add_test(tc, test_numpy_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(npy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
