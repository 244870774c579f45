/* tests/fatbin_check.c -- cudart/fatbin.c: the fatbinary nvcc embeds, built
** here in memory as nvcc lays it out (stored and ZSTD-compressed PTX, SASS,
** an architecture-specific target), and damaged: every bad header is an
** error that says what, never a read past the bytes given. */
#include "cudart/fatbin.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct {
    uint8_t bytes[16384];
    size_t  len;
} Fat;

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void fat_begin(Fat *f)
{
    memset(f, 0, sizeof *f);
    put32(f->bytes, FATBIN_MAGIC);
    put16(f->bytes + 4, 1);
    put16(f->bytes + 6, 16);
    f->len = 16;
}

/* One entry: kind, target, flags, payload (compressed with ZSTD when the
** flags say so), padded to 8 bytes as nvcc does. */
static void fat_entry(Fat *f, uint16_t kind, uint32_t sm, uint64_t flags, const void *payload, size_t n)
{
    uint8_t *e = f->bytes + f->len;
    uint8_t packed[8192];
    size_t stored = n;
    const void *data = payload;
    if (flags & FATBIN_FLAG_ZSTD) {
        stored = ZSTD_compress(packed, sizeof packed, payload, n, 3);
        ck_assert(!ZSTD_isError(stored));
        data = packed;
    }
    size_t padded = (stored + 7) / 8 * 8;
    put16(e, kind);
    put16(e + 2, 0x101);
    put32(e + 4, 64);
    put64(e + 8, padded);
    put32(e + 16, flags & FATBIN_FLAG_ZSTD ? (uint32_t)stored : 0);
    put32(e + 28, sm);
    put64(e + 40, flags);
    put64(e + 56, flags & FATBIN_FLAG_ZSTD ? n : 0);
    memcpy(e + 64, data, stored);
    f->len += 64 + padded;
    put64(f->bytes + 8, f->len - 16);
}

static const char PTX80[] = ".version 8.0\n.target sm_80\n// eighty\n";
static const char PTX90[] = ".version 8.0\n.target sm_90\n// ninety\n";

static char *pick(const Fat *f, uint32_t sm, Diag *d)
{
    FatbinEntry e[8];
    size_t n, len;
    ck_assert_msg(fatbin_parse(f->bytes, f->len, e, 8, &n, d), "%s", d->message);
    return fatbin_pick_ptx(e, n < 8 ? n : 8, sm, &len, d);
}

START_TEST(test_pick_the_device_target)
{
    Fat f;
    fat_begin(&f);
    fat_entry(&f, FATBIN_KIND_SASS, 90, 0x11, "\x7f" "ELF....", 8);
    fat_entry(&f, FATBIN_KIND_PTX, 80, 0x11, PTX80, sizeof PTX80);
    fat_entry(&f, FATBIN_KIND_PTX, 90, 0x11 | FATBIN_FLAG_ZSTD, PTX90, sizeof PTX90);
    Diag d = { 0 };
    char *t = pick(&f, 90, &d); /* the highest not above the device */
    ck_assert_msg(t && strstr(t, "ninety"), "%s", d.message);
    free(t);
    t = pick(&f, 86, &d);
    ck_assert(t && strstr(t, "eighty"));
    free(t);
    t = pick(&f, 100, &d); /* PTX runs on newer devices */
    ck_assert(t && strstr(t, "ninety"));
    free(t);
    ck_assert(pick(&f, 75, &d) == NULL);
    ck_assert_msg(strstr(d.message, "no kernel image is available for execution on the device: the simulated GPU is "
                                    "sm_75 and the program carries sm_90 (SASS), compute_80 (PTX), compute_90 (PTX)"),
                  "%s", d.message);
}
END_TEST

START_TEST(test_arch_specific_only_on_its_device)
{
    Fat f;
    fat_begin(&f);
    fat_entry(&f, FATBIN_KIND_PTX, 90, 0x11 | FATBIN_FLAG_ZSTD | FATBIN_FLAG_ARCH_SPECIFIC, PTX90, sizeof PTX90);
    Diag d = { 0 };
    char *t = pick(&f, 90, &d);
    ck_assert(t && strstr(t, "ninety"));
    free(t);
    ck_assert(pick(&f, 100, &d) == NULL);
    ck_assert_msg(strstr(d.message, "carries compute_90a (PTX)"), "%s", d.message);
}
END_TEST

START_TEST(test_the_wrapper)
{
    Fat f;
    fat_begin(&f);
    fat_entry(&f, FATBIN_KIND_PTX, 80, 0x11, PTX80, sizeof PTX80);
    struct { uint32_t magic, version; const void *data, *unused; } w = { FATBIN_WRAPPER_MAGIC, 1, f.bytes, NULL };
    FatbinEntry e[4];
    size_t n;
    Diag d = { 0 };
    ck_assert_msg(fatbin_entries(&w, e, 4, &n, &d), "%s", d.message);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(e[0].sm, 80);
    w.magic = 0x12345678;
    ck_assert(!fatbin_entries(&w, e, 4, &n, &d));
    ck_assert(strstr(d.message, "not a fatbinary wrapper"));
}
END_TEST

/* Damaged fatbinaries: each an error naming what is wrong. */
START_TEST(test_damage)
{
    Fat f, g;
    fat_begin(&f);
    fat_entry(&f, FATBIN_KIND_PTX, 90, 0x11 | FATBIN_FLAG_ZSTD, PTX90, sizeof PTX90);
    FatbinEntry e[4];
    size_t n, len;
    Diag d = { 0 };
    /* cut short: fewer bytes than the header says */
    ck_assert(!fatbin_parse(f.bytes, f.len - 1, e, 4, &n, &d));
    ck_assert(strstr(d.message, "header is corrupt"));
    /* wrong magic */
    g = f;
    g.bytes[0] ^= 1;
    ck_assert(!fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert(strstr(d.message, "magic"));
    /* an entry whose header claims more than there is */
    g = f;
    put32(g.bytes + 16 + 4, 1u << 20);
    ck_assert(!fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert(strstr(d.message, "overruns"));
    /* a payload size past the end */
    g = f;
    put64(g.bytes + 16 + 8, 1ull << 40);
    ck_assert(!fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    /* a corrupt compressed payload */
    g = f;
    memset(g.bytes + 16 + 64, 0x55, 8);
    ck_assert(fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert(fatbin_pick_ptx(e, n, 90, &len, &d) == NULL);
    ck_assert_msg(strstr(d.message, "does not decompress"), "%s", d.message);
    /* a decompressed size beyond what the PTX front end reads */
    g = f;
    put64(g.bytes + 16 + 56, 1ull << 33);
    ck_assert(fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert(fatbin_pick_ptx(e, n, 90, &len, &d) == NULL);
    ck_assert_msg(strstr(d.message, "claims"), "%s", d.message);
    /* an older nvcc's LZ4 */
    g = f;
    put64(g.bytes + 16 + 40, 0x11 | FATBIN_FLAG_LZ4);
    ck_assert(fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert(fatbin_pick_ptx(e, n, 90, &len, &d) == NULL);
    ck_assert(strstr(d.message, "LZ4"));
    /* a stored entry whose header also gives a compressed size and a small
    ** decompressed one: read as stored, all of it (the copy overran the
    ** buffer sized by the decompressed size; found by fuzz_fatbin) */
    fat_begin(&g);
    fat_entry(&g, FATBIN_KIND_PTX, 90, 0x11, PTX90, sizeof PTX90);
    put32(g.bytes + 16 + 16, 8);
    put64(g.bytes + 16 + 56, 2);
    ck_assert(fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    char *t = fatbin_pick_ptx(e, n, 90, &len, &d);
    ck_assert_msg(t && strstr(t, "ninety") && len == strlen(PTX90), "%s", d.message);
    free(t);
    /* an empty fatbinary has no PTX */
    fat_begin(&g);
    ck_assert(fatbin_parse(g.bytes, g.len, e, 4, &n, &d));
    ck_assert_uint_eq(n, 0);
    ck_assert(fatbin_pick_ptx(e, n, 90, &len, &d) == NULL);
    ck_assert(strstr(d.message, "carries none"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fatbin");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_pick_the_device_target);
    tcase_add_test(tc, test_arch_specific_only_on_its_device);
    tcase_add_test(tc, test_the_wrapper);
    tcase_add_test(tc, test_damage);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
