/* workloads/npy.c -- .npy reading and writing (see npy.h). The header is
** read by a small parser of exactly the Python literals NumPy writes there
** (quoted strings, True/False, tuples of integers); everything else in it
** is refused rather than guessed at. Elements are little-endian on disk and
** converted to host order (a no-op on the x86 and Arm hosts we build on). */
#include "workloads/npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

#define NPY_MAGIC     "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN     64          /* NumPy pads headers so the data is 64-byte aligned */
#define NPY_MAX_HEADER (1u << 20) /* a real header is ~128 bytes; refuse absurd ones    */

const char *npy_descr(WlType t)
{
    switch (t) {
    case WL_F32: return "<f4";
    case WL_S32: return "<i4";
    case WL_U32: return "<u4";
    }
    return "?";
}

void npy_free(NpyArray *a)
{
    if (!a) return;
    free(a->data);
    memset(a, 0, sizeof *a);
}

__attribute__((format(printf, 3, 4))) static bool bad(Diag *d, const char *file, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(d, file, 0, 0, "%s", msg);
    return false;
}

static uint32_t get_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* ================================================================ the header */

typedef struct {
    const char *s, *end;
    const char *file;
    Diag       *d;
} Hdr;

static void skip_blank(Hdr *h)
{
    while (h->s < h->end && (*h->s == ' ' || *h->s == '\t')) h->s++;
}

static bool hdr_fail(Hdr *h, const char *what)
{
    size_t at = (size_t)(h->end - h->s);
    return bad(h->d, h->file, "not a .npy header NumPy writes: %s%s%.*s%s", what, at ? " at '" : " at its end",
               (int)(at < 16 ? at : 16), h->s, at ? "'" : "");
}

/* A quoted string (' or "), without escapes: NumPy's keys and dtypes have none. */
static bool hdr_string(Hdr *h, char *out, size_t cap)
{
    skip_blank(h);
    if (h->s >= h->end || (*h->s != '\'' && *h->s != '"')) return hdr_fail(h, "expected a quoted string");
    char q = *h->s++;
    const char *start = h->s;
    while (h->s < h->end && *h->s != q && *h->s != '\\' && *h->s != '\n') h->s++;
    if (h->s >= h->end || *h->s != q) return hdr_fail(h, "unterminated or escaped string");
    size_t n = (size_t)(h->s - start);
    h->s++;
    if (n >= cap) return hdr_fail(h, "string too long");
    memcpy(out, start, n);
    out[n] = '\0';
    return true;
}

static bool hdr_char(Hdr *h, char c)
{
    skip_blank(h);
    if (h->s < h->end && *h->s == c) {
        h->s++;
        return true;
    }
    return false;
}

/* A shape tuple: (), (n,), (a, b), (a, b,) of non-negative decimal integers. */
static bool hdr_shape(Hdr *h, NpyArray *a)
{
    if (!hdr_char(h, '(')) return hdr_fail(h, "expected a shape tuple '('");
    a->ndim = 0;
    for (;;) {
        if (hdr_char(h, ')')) return true;
        skip_blank(h);
        if (h->s >= h->end || *h->s < '0' || *h->s > '9') return hdr_fail(h, "expected a non-negative integer in the shape");
        uint64_t v = 0;
        while (h->s < h->end && *h->s >= '0' && *h->s <= '9') {
            uint64_t digit = (uint64_t)(*h->s - '0');
            if (v > (UINT64_MAX - digit) / 10) return hdr_fail(h, "a dimension of the shape does not fit 64 bits");
            v = v * 10 + digit;
            h->s++;
        }
        if (a->ndim >= NPY_MAX_DIMS) return hdr_fail(h, "more than 32 dimensions");
        a->shape[a->ndim++] = v;
        if (hdr_char(h, ',')) continue;
        if (hdr_char(h, ')')) return true;
        return hdr_fail(h, "expected ',' or ')' in the shape");
    }
}

static void shape_text(const NpyArray *a, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "(");
    for (uint32_t i = 0; i < a->ndim && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%llu", i ? ", " : "", (unsigned long long)a->shape[i]);
    if (len < cap) snprintf(buf + len, cap - len, a->ndim == 1 ? ",)" : ")");
}

/* The dict: exactly 'descr', 'fortran_order' and 'shape', in any order. */
static bool parse_header(Hdr *h, NpyArray *a)
{
    bool seen[3] = { false, false, false };
    char descr[64] = "";
    bool fortran = false;
    if (!hdr_char(h, '{')) return hdr_fail(h, "expected '{'");
    for (;;) {
        if (hdr_char(h, '}')) break;
        char key[64];
        if (!hdr_string(h, key, sizeof key)) return false;
        if (!hdr_char(h, ':')) return hdr_fail(h, "expected ':'");
        int k = strcmp(key, "descr") == 0 ? 0 : strcmp(key, "fortran_order") == 0 ? 1 : strcmp(key, "shape") == 0 ? 2 : -1;
        if (k < 0) return bad(h->d, h->file, "unknown key '%s' in the .npy header (expected descr, fortran_order, shape)", key);
        if (seen[k]) return bad(h->d, h->file, "key '%s' given twice in the .npy header", key);
        seen[k] = true;
        if (k == 0) {
            skip_blank(h);
            if (h->s < h->end && *h->s == '[')
                return bad(h->d, h->file, "structured dtype (a record type): only '<f4', '<i4' and '<u4' arrays are read");
            if (!hdr_string(h, descr, sizeof descr)) return false;
        } else if (k == 1) {
            skip_blank(h);
            size_t left = (size_t)(h->end - h->s);
            if (left >= 4 && memcmp(h->s, "True", 4) == 0) fortran = true, h->s += 4;
            else if (left >= 5 && memcmp(h->s, "False", 5) == 0) fortran = false, h->s += 5;
            else return hdr_fail(h, "expected True or False for fortran_order");
        } else if (!hdr_shape(h, a)) {
            return false;
        }
        if (hdr_char(h, ',')) continue;
        if (hdr_char(h, '}')) break;
        return hdr_fail(h, "expected ',' or '}'");
    }
    skip_blank(h);
    if (h->s != h->end) return hdr_fail(h, "text after the dict");
    static const char *const names[3] = { "descr", "fortran_order", "shape" };
    for (int k = 0; k < 3; k++)
        if (!seen[k]) return bad(h->d, h->file, "the .npy header has no '%s'", names[k]);
    if (strcmp(descr, "<f4") == 0) a->type = WL_F32;
    else if (strcmp(descr, "<i4") == 0) a->type = WL_S32;
    else if (strcmp(descr, "<u4") == 0) a->type = WL_U32;
    else if (descr[0] == '>' && (strcmp(descr + 1, "f4") == 0 || strcmp(descr + 1, "i4") == 0 || strcmp(descr + 1, "u4") == 0))
        return bad(h->d, h->file, "big-endian dtype '%s': save it little-endian (a.astype('<%s'))", descr, descr + 1);
    else if (strchr(descr, 'O'))
        return bad(h->d, h->file, "object dtype '%s': only '<f4', '<i4' and '<u4' arrays are read", descr);
    else
        return bad(h->d, h->file, "dtype '%s': only '<f4', '<i4' and '<u4' arrays are read (a.astype(np.float32), ...)", descr);
    if (fortran)
        return bad(h->d, h->file, "Fortran-order array (fortran_order: True): save a C-order copy (np.ascontiguousarray(a))");
    a->count = 1;
    for (uint32_t i = 0; i < a->ndim; i++)
        if (__builtin_mul_overflow(a->count, a->shape[i], &a->count) || a->count > UINT64_MAX / 4) {
            char st[256];
            shape_text(a, st, sizeof st);
            return bad(h->d, h->file, "shape %s: its element count overflows 64 bits", st);
        }
    return true;
}

/* ================================================================ reading */

/* The magic, version and header dict at the start of bytes (len of them):
** out gets the type and shape, *data_at where the data starts. */
static bool parse_prefix(const uint8_t *b, size_t len, const char *file, NpyArray *out, uint64_t *data_at, Diag *d)
{
    if (len < NPY_MAGIC_LEN || memcmp(b, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
        return bad(d, file, "not a .npy file (it does not start with \\x93NUMPY)");
    if (len < NPY_MAGIC_LEN + 4) return bad(d, file, "truncated .npy file: %zu bytes, not even a header length", len);
    uint32_t major = b[6], minor = b[7];
    size_t lenbytes;
    uint64_t hlen;
    if (major == 1 && minor == 0) {
        lenbytes = 2;
        hlen = (uint32_t)b[8] | (uint32_t)b[9] << 8;
    } else if (major == 2 && minor == 0) {
        lenbytes = 4;
        if (len < 12) return bad(d, file, "truncated .npy file: %zu bytes, not even a header length", len);
        hlen = get_le32(b + 8);
    } else {
        return bad(d, file, ".npy format version %u.%u: versions 1.0 and 2.0 are read", major, minor);
    }
    size_t start = 8 + lenbytes;
    if (hlen > NPY_MAX_HEADER) return bad(d, file, ".npy header of %llu bytes: more than %u is not a header NumPy writes",
                                          (unsigned long long)hlen, NPY_MAX_HEADER);
    if (hlen > len - start)
        return bad(d, file, "truncated .npy file: the header says %llu bytes, %zu follow", (unsigned long long)hlen,
                   len - start);
    const char *text = (const char *)b + start;
    if (hlen == 0 || text[hlen - 1] != '\n') return bad(d, file, "not a .npy header NumPy writes: it does not end with a newline");
    Hdr h = { text, text + hlen - 1, file, d };
    if (!parse_header(&h, out)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    *data_at = start + hlen;
    return true;
}

bool npy_parse(const void *bytes, size_t len, const char *file, NpyArray *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    const uint8_t *b = bytes;
    uint64_t data_at = 0;
    if (!parse_prefix(b, len, file, out, &data_at, d)) return false;
    uint64_t have = len - data_at, need = out->count * 4;
    char st[256];
    shape_text(out, st, sizeof st);
    if (have < need) {
        WlType t = out->type;
        memset(out, 0, sizeof *out);
        return bad(d, file, "truncated .npy file: shape %s of %s needs %llu bytes of data, %llu follow", st, npy_descr(t),
                   (unsigned long long)need, (unsigned long long)have);
    }
    if (have > need) {
        memset(out, 0, sizeof *out);
        return bad(d, file, "%llu bytes after the data of shape %s (%llu bytes)", (unsigned long long)(have - need), st,
                   (unsigned long long)need);
    }
    if (need) {
        if (need > SIZE_MAX || !(out->data = malloc((size_t)need))) {
            memset(out, 0, sizeof *out);
            return bad(d, file, "out of host memory for %llu bytes", (unsigned long long)need);
        }
        const uint8_t *src = b + data_at;
        uint32_t *dst = out->data;
        for (uint64_t i = 0; i < out->count; i++) dst[i] = get_le32(src + 4 * i);
    }
    return true;
}

/* Reads the magic, the version and the header of path (no more than they
** take) and gives the file size they imply in *total. */
static bool npy_read_prefix(const char *path, uint64_t *total, Diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) return bad(d, path, "cannot read .npy file: %s", strerror(errno));
    uint8_t *buf = malloc(12 + NPY_MAX_HEADER);
    if (!buf) {
        fclose(f);
        return bad(d, path, "out of host memory");
    }
    size_t len = fread(buf, 1, 10, f);
    if (len == 10 && memcmp(buf, NPY_MAGIC, NPY_MAGIC_LEN) == 0) {
        uint64_t hlen = buf[6] == 2 ? 0 : (uint32_t)buf[8] | (uint32_t)buf[9] << 8;
        if (buf[6] == 2) { /* version 2.0: a 4-byte header length */
            len += fread(buf + len, 1, 2, f);
            if (len == 12) hlen = get_le32(buf + 8);
        }
        size_t want = hlen > NPY_MAX_HEADER ? 0 : (size_t)hlen; /* an absurd length: parse_prefix says so */
        len += fread(buf + len, 1, want, f);
    }
    bool failed = ferror(f);
    int err = errno;
    fclose(f);
    NpyArray a = { 0 };
    uint64_t data_at = 0;
    bool ok = !failed && parse_prefix(buf, len, path, &a, &data_at, d);
    free(buf);
    if (failed) return bad(d, path, "cannot read .npy file: read error: %s", strerror(err));
    if (!ok) return false;
    *total = a.count * 4 > UINT64_MAX - data_at ? UINT64_MAX : data_at + a.count * 4;
    return true;
}

bool npy_read(const char *path, uint64_t max_bytes, NpyArray *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    char *text, why[256];
    size_t len;
    /* The header first, so that the data is read up to the size it gives
    ** and no further: a device such as /dev/zero is refused at its first
    ** bytes instead of being read to the cap. */
    uint64_t total = 0;
    if (!npy_read_prefix(path, &total, d)) return false;
    if (total > max_bytes)
        return bad(d, path, "cannot read .npy file: its shape needs %llu bytes, more than the %llu allowed",
                   (unsigned long long)total, (unsigned long long)max_bytes);
    FileReadStatus st = file_read(path, (size_t)total, &text, &len, why, sizeof why);
    if (st == FILE_READ_TOO_LARGE)
        return bad(d, path, "bytes after the data: the header gives %llu bytes in all", (unsigned long long)total);
    if (st != FILE_READ_OK) return bad(d, path, "cannot read .npy file: %s", why);
    bool ok = npy_parse(text, len, path, out, d);
    free(text);
    return ok;
}

/* ================================================================ writing */

size_t npy_header(WlType t, uint64_t count, uint8_t *buf, size_t cap)
{
    char dict[96];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }", npy_descr(t),
                     (unsigned long long)count);
    /* version 1.0: magic, 2 version bytes, 2 length bytes, then the dict
    ** padded with spaces and a newline to a multiple of 64 in all */
    size_t pre = NPY_MAGIC_LEN + 2 + 2, total = (pre + (size_t)n + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    uint8_t tmp[128];
    memcpy(tmp, NPY_MAGIC, NPY_MAGIC_LEN);
    tmp[6] = 1;
    tmp[7] = 0;
    size_t hlen = total - pre;
    tmp[8] = (uint8_t)(hlen & 0xff);
    tmp[9] = (uint8_t)(hlen >> 8);
    memcpy(tmp + pre, dict, (size_t)n);
    memset(tmp + pre + n, ' ', total - pre - (size_t)n - 1);
    tmp[total - 1] = '\n';
    memcpy(buf, tmp, total < cap ? total : cap);
    return total;
}

bool npy_write(const char *path, WlType t, const void *data, uint64_t count, Diag *d)
{
    FILE *f = fopen(path, "wb");
    if (!f) return bad(d, path, "cannot write .npy file: %s", strerror(errno));
    uint8_t head[128];
    size_t hl = npy_header(t, count, head, sizeof head);
    bool ok = fwrite(head, 1, hl, f) == hl;
    /* little-endian on disk, in pieces whatever the host order */
    enum { PIECE = 1 << 14 };
    uint8_t piece[4 * PIECE];
    const uint32_t *src = data;
    for (uint64_t i = 0; ok && i < count; i += PIECE) {
        size_t m = count - i < PIECE ? (size_t)(count - i) : PIECE;
        for (size_t j = 0; j < m; j++) {
            uint32_t v = src[i + j];
            piece[4 * j] = (uint8_t)v;
            piece[4 * j + 1] = (uint8_t)(v >> 8);
            piece[4 * j + 2] = (uint8_t)(v >> 16);
            piece[4 * j + 3] = (uint8_t)(v >> 24);
        }
        ok = fwrite(piece, 4, m, f) == m;
    }
    if (fclose(f) != 0) ok = false;
    if (!ok) return bad(d, path, "writing the .npy file failed: %s", strerror(errno));
    return true;
}
