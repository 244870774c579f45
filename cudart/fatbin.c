/* cudart/fatbin.c -- reading the fatbinary (cudart/fatbin.h). The layout,
** as nvcc 12 and 13 write it (checked on their output, little-endian):
**   wrapper:  u32 magic, u32 version, u64 pointer to the fatbinary, u64 -;
**   header:   u32 magic, u16 version, u16 header bytes, u64 bytes after it;
**   entry:    u16 kind, u16 version, u32 header bytes, u64 payload bytes
**             (padded), u32 compressed bytes (0: stored), u32 -, u32 PTX
**             version, u32 target, u32 -, u32 -, u64 flags, u64 -, u64
**             bytes once decompressed (0: stored), then more header the
**             header size covers, then the payload.
** Decompression is libzstd's (Debian libzstd-dev).                      */
#include "cudart/fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, sizeof v); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, sizeof v); return v; }

#define ENTRY_MIN_HEADER 64u   /* the fields above                            */
#define FATBIN_MAX_BYTES (1ull << 34) /* a size beyond this is a corrupt header */
#define FATBIN_MAX_PTX   (64u << 20)   /* what the PTX front end reads at most   */

bool fatbin_parse(const uint8_t *h, size_t avail, FatbinEntry *out, size_t cap, size_t *n, Diag *d)
{
    *n = 0;
    if (!h || avail < 16 || rd32(h) != FATBIN_MAGIC) {
        diag_set(d, NULL, 0, 0, "the fatbinary has magic %#x, expected %#x", h && avail >= 4 ? rd32(h) : 0u, FATBIN_MAGIC);
        return false;
    }
    uint16_t hbytes = rd16(h + 6);
    uint64_t total = rd64(h + 8);
    if (hbytes < 16 || hbytes > avail || total > avail - hbytes) {
        diag_set(d, NULL, 0, 0, "the fatbinary's header is corrupt (header %u bytes, %llu bytes of entries, %zu present)",
                 hbytes, (unsigned long long)total, avail);
        return false;
    }
    const uint8_t *p = h + hbytes, *end = p + total;
    while (p < end) {
        if ((uint64_t)(end - p) < ENTRY_MIN_HEADER) {
            diag_set(d, NULL, 0, 0, "the fatbinary ends inside an entry's header");
            return false;
        }
        uint32_t ehdr = rd32(p + 4);
        uint64_t padded = rd64(p + 8);
        if (ehdr < ENTRY_MIN_HEADER || ehdr > (uint64_t)(end - p) || padded > (uint64_t)(end - p) - ehdr) {
            diag_set(d, NULL, 0, 0, "the fatbinary's entry %zu overruns it (header %u, payload %llu bytes)", *n, ehdr,
                     (unsigned long long)padded);
            return false;
        }
        FatbinEntry e = { .kind = rd16(p), .sm = rd32(p + 28), .flags = rd64(p + 40), .payload = p + ehdr };
        /* a compressed entry gives both sizes; a stored one is its padded payload */
        uint32_t compressed = rd32(p + 16);
        bool packed = (e.flags & (FATBIN_FLAG_ZSTD | FATBIN_FLAG_LZ4)) != 0;
        e.payload_bytes = packed && compressed && compressed <= padded ? compressed : padded;
        e.plain_bytes = packed ? rd64(p + 56) : e.payload_bytes;
        if (*n < cap) out[*n] = e;
        (*n)++;
        p += ehdr + padded;
    }
    return true;
}

bool fatbin_entries(const void *wrapper, FatbinEntry *out, size_t cap, size_t *n, Diag *d)
{
    *n = 0;
    const uint8_t *w = wrapper;
    if (!w || rd32(w) != FATBIN_WRAPPER_MAGIC) {
        diag_set(d, NULL, 0, 0, "the registered device code is not a fatbinary wrapper (magic %#x, expected %#x)",
                 w ? rd32(w) : 0u, FATBIN_WRAPPER_MAGIC);
        return false;
    }
    const uint8_t *h;
    memcpy(&h, w + 8, sizeof h);
    if (!h || rd32(h) != FATBIN_MAGIC) {
        diag_set(d, NULL, 0, 0, "the fatbinary has magic %#x, expected %#x", h ? rd32(h) : 0u, FATBIN_MAGIC);
        return false;
    }
    /* in a program the fatbinary is as long as its header says */
    uint64_t total = rd64(h + 8);
    if (total > FATBIN_MAX_BYTES) {
        diag_set(d, NULL, 0, 0, "the fatbinary claims %llu bytes", (unsigned long long)total);
        return false;
    }
    return fatbin_parse(h, (size_t)(rd16(h + 6) + total), out, cap, n, d);
}

/* "sm_80, sm_90a (SASS)" for the message of a device that has none. */
static void list_targets(const FatbinEntry *e, size_t n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        int k = snprintf(buf + len, cap - len, "%s%s_%u%s%s", len ? ", " : "",
                         e[i].kind == FATBIN_KIND_PTX ? "compute" : "sm", e[i].sm,
                         e[i].flags & FATBIN_FLAG_ARCH_SPECIFIC ? "a" : "",
                         e[i].kind == FATBIN_KIND_PTX ? " (PTX)" : e[i].kind == FATBIN_KIND_SASS ? " (SASS)" : " (?)");
        if (k > 0) len += (size_t)k;
    }
    if (!len) snprintf(buf, cap, "none");
}

char *fatbin_pick_ptx(const FatbinEntry *e, size_t n, uint32_t sm, size_t *len, Diag *d)
{
    const FatbinEntry *best = NULL;
    for (size_t i = 0; i < n; i++) {
        if (e[i].kind != FATBIN_KIND_PTX || e[i].sm > sm) continue;
        if ((e[i].flags & FATBIN_FLAG_ARCH_SPECIFIC) && e[i].sm != sm) continue;
        if (!best || e[i].sm > best->sm) best = &e[i];
    }
    if (!best) {
        char targets[256];
        list_targets(e, n, targets, sizeof targets);
        diag_set(d, NULL, 0, 0,
                 "no kernel image is available for execution on the device: the simulated GPU is sm_%u and the "
                 "program carries %s; gpusim runs PTX, so build with -arch=sm_XX (XX <= %u) or "
                 "-gencode arch=compute_XX,code=compute_XX", sm, targets, sm);
        return NULL;
    }
    if (best->flags & FATBIN_FLAG_LZ4) {
        diag_set(d, NULL, 0, 0, "the program's PTX is LZ4-compressed (an older nvcc's); rebuild it with "
                 "--no-compress or with nvcc 13");
        return NULL;
    }
    if (best->plain_bytes > FATBIN_MAX_PTX) {
        diag_set(d, NULL, 0, 0, "the fatbinary's PTX for compute_%u claims %llu bytes (at most %u)", best->sm,
                 (unsigned long long)best->plain_bytes, FATBIN_MAX_PTX);
        return NULL;
    }
    char *text = malloc((size_t)best->plain_bytes + 1);
    if (!text) {
        diag_set(d, NULL, 0, 0, "out of host memory for %llu bytes of PTX", (unsigned long long)best->plain_bytes);
        return NULL;
    }
    size_t got = (size_t)best->payload_bytes;
    if (best->flags & FATBIN_FLAG_ZSTD) {
        got = ZSTD_decompress(text, (size_t)best->plain_bytes, best->payload, (size_t)best->payload_bytes);
        if (ZSTD_isError(got)) {
            diag_set(d, NULL, 0, 0, "the program's PTX for compute_%u does not decompress: %s", best->sm,
                     ZSTD_getErrorName(got));
            free(text);
            return NULL;
        }
    } else {
        memcpy(text, best->payload, got);
    }
    text[got] = '\0';
    *len = strlen(text); /* stored entries are padded with NULs */
    return text;
}
