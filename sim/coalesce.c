/* sim/coalesce.c -- warp address coalescing into lines and sectors (see
** coalesce.h for the model and its sources).
** Distinct lines are found with a 128-slot open-addressing table on the
** stack (at most 64 lines, so never more than half full); runs of lanes in
** the same line, the common case, are merged before that lookup. A store's
** whole sectors come from a bit per byte of each touched sector, set lane by
** lane through the same table.                                           */
#include "sim/coalesce.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "base/bits.h"

#define LINE_SLOTS 128 /* 2 x COALESCE_MAX_LINES */

typedef struct {
    uint8_t  slot[LINE_SLOTS]; /* 0 = empty, else index into out->line_addr + 1 */
    uint64_t cur_line;         /* line of the touches not yet written to out   */
    unsigned cur_bits;         /* their sectors; 0 = none pending              */
} LineTable;

/* Index of line base `line` in out, appended (first touch) if new. */
static inline unsigned line_index(LineTable *t, CoalesceResult *out, uint64_t line)
{
    unsigned h = (unsigned)(((line / SECTOR_LINE_BYTES) * 0x9E3779B97F4A7C15ull) >> 57);
    while (t->slot[h]) {
        unsigned i = t->slot[h] - 1u;
        if (out->line_addr[i] == line) return i;
        h = (h + 1) & (LINE_SLOTS - 1);
    }
    unsigned i = out->nlines++;
    assert(i < COALESCE_MAX_LINES);
    out->line_addr[i] = line;
    out->sector_mask[i] = 0;
    out->full_mask[i] = 0;
    t->slot[h] = (uint8_t)(i + 1);
    return i;
}

/* Marks sectors `bits` of line base `line` as touched. Touches of the same
** line as the previous one are gathered in registers and written once. */
static inline void touch(LineTable *t, CoalesceResult *out, uint64_t line, unsigned bits)
{
    if (line == t->cur_line && t->cur_bits) {
        t->cur_bits |= bits;
        return;
    }
    if (t->cur_bits) out->sector_mask[line_index(t, out, t->cur_line)] |= (uint8_t)t->cur_bits;
    t->cur_line = line;
    t->cur_bits = bits;
}

/* An access that is not naturally aligned: it may cross sectors and a line. */
static void touch_range(LineTable *t, CoalesceResult *out, uint64_t first, unsigned width)
{
    uint64_t last = first + (width - 1);
    if (last < first) last = UINT64_MAX; /* clip at the top of the address space */
    /* width <= 16 < 128: one line, or two when the access straddles */
    for (uint64_t line = first - first % SECTOR_LINE_BYTES;; line += SECTOR_LINE_BYTES) {
        const uint64_t lo = first > line ? first : line;
        const uint64_t line_end = line + (SECTOR_LINE_BYTES - 1);
        const uint64_t hi = last < line_end ? last : line_end;
        const unsigned s0 = (unsigned)((lo - line) / SECTOR_BYTES);
        const unsigned s1 = (unsigned)((hi - line) / SECTOR_BYTES);
        touch(t, out, line, ((1u << (s1 + 1)) - 1u) & ~((1u << s0) - 1u));
        if (hi == last) break;
    }
}

/* The sectors of out's lines that the active lanes write entirely: a bit
** per byte of each sector, full when all 32 are set. Every line the lanes
** touch is already in t. */
static void full_sectors(LineTable *t, const uint64_t addr[32], uint32_t mask, unsigned width, CoalesceResult *out)
{
    uint32_t covered[COALESCE_MAX_LINES][SECTORS_PER_LINE];
    memset(covered, 0, out->nlines * sizeof covered[0]);
    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        uint64_t b = addr[lane], last = b + (width - 1);
        if (last < b) last = UINT64_MAX; /* clip at the top of the address space */
        /* width <= 16 < 32: the bytes span at most two sectors, maybe of two lines */
        for (;;) {
            const uint64_t line = b - b % SECTOR_LINE_BYTES;
            const unsigned off = (unsigned)(b - line), sector = off / SECTOR_BYTES;
            const uint64_t sector_end = line + (uint64_t)(sector + 1) * SECTOR_BYTES - 1;
            const uint64_t hi = last < sector_end ? last : sector_end;
            const unsigned n = (unsigned)(hi - b) + 1;
            covered[line_index(t, out, line)][sector] |= ((1u << n) - 1u) << (off % SECTOR_BYTES);
            if (hi == last) break;
            b = hi + 1;
        }
    }
    for (unsigned i = 0; i < out->nlines; i++)
        for (unsigned sct = 0; sct < SECTORS_PER_LINE; sct++)
            if (covered[i][sct] == UINT32_MAX) out->full_mask[i] |= (uint8_t)(1u << sct);
}

/* Atomics: each active lane's line (its first byte's; an atomic is naturally
** aligned, so it lies in one line), and per line the lanes and the most of
** them on one address. The lines are already in out. */
static void atomic_lines(const uint64_t addr[32], uint32_t mask, CoalesceResult *out)
{
    memset(out->atomic_lanes, 0, out->nlines);
    memset(out->atomic_same, 0, out->nlines);
    uint8_t line_of[32];
    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        const uint64_t line = addr[lane] - addr[lane] % SECTOR_LINE_BYTES;
        unsigned i = 0;
        while (i + 1 < out->nlines && out->line_addr[i] != line) i++;
        line_of[lane] = (uint8_t)i;
        out->atomic_lanes[i]++;
    }
    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        uint8_t n = 1;
        for (unsigned j = lane + 1; j < 32; j++) n += (mask >> j & 1u) && addr[j] == addr[lane];
        if (n > out->atomic_same[line_of[lane]]) out->atomic_same[line_of[lane]] = n;
    }
}

void coalesce_analyze(const uint64_t addr[32], uint32_t mask, unsigned width, CoalesceKind kind,
                      CoalesceResult *out)
{
    assert(width == 1 || width == 2 || width == 4 || width == 8 || width == 16);
    out->nlines = 0;
    out->sectors = 0;
    out->bytes_requested = 0;
    out->max_same_address = kind == COALESCE_ATOMIC ? coalesce_max_same_address(addr, mask) : 0;
    if (mask == 0) return;

    /* Fast path: a full warp reading consecutive aligned elements (the
    ** coalesced case) covers one contiguous, aligned byte range. */
    if (mask == UINT32_MAX && addr[0] % width == 0 && addr[31] == addr[0] + 31u * width) {
        uint64_t off = 0; /* any bit of any lane's difference from consecutive: one vector loop, no exit */
        for (unsigned lane = 1; lane < 32; lane++) off |= addr[lane] ^ (addr[0] + (uint64_t)lane * width);
        if (!off) {
            uint64_t first = addr[0], last = addr[0] + 32u * width - 1;
            for (uint64_t line = first / SECTOR_LINE_BYTES; line <= last / SECTOR_LINE_BYTES; line++) {
                uint64_t lo = line * SECTOR_LINE_BYTES > first ? line * SECTOR_LINE_BYTES : first;
                uint64_t hi = line * SECTOR_LINE_BYTES + SECTOR_LINE_BYTES - 1 < last
                                  ? line * SECTOR_LINE_BYTES + SECTOR_LINE_BYTES - 1 : last;
                unsigned s0 = (unsigned)(lo / SECTOR_BYTES % SECTORS_PER_LINE);
                unsigned s1 = (unsigned)(hi / SECTOR_BYTES % SECTORS_PER_LINE);
                uint8_t touched = (uint8_t)(((1u << (s1 + 1)) - 1) & ~((1u << s0) - 1));
                /* the range is contiguous: only its end sectors can be written in part */
                uint8_t full = touched;
                if (lo % SECTOR_BYTES) full &= (uint8_t)~(1u << s0);
                if ((hi + 1) % SECTOR_BYTES) full &= (uint8_t)~(1u << s1);
                out->line_addr[out->nlines] = line * SECTOR_LINE_BYTES;
                out->full_mask[out->nlines] = kind == COALESCE_STORE ? full : 0;
                out->sector_mask[out->nlines++] = touched;
                out->sectors += s1 - s0 + 1;
            }
            out->bytes_requested = 32u * width;
            if (kind == COALESCE_ATOMIC) atomic_lines(addr, mask, out);
            return;
        }
    }

    LineTable t;
    memset(t.slot, 0, sizeof t.slot);
    t.cur_line = 0;
    t.cur_bits = 0;
    unsigned lanes = 0;

    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1u)) continue;
        lanes++;
        const uint64_t a = addr[lane];
        if ((a & (width - 1)) == 0) {
            /* naturally aligned and at most 16 bytes: inside one 32-byte sector */
            touch(&t, out, a - a % SECTOR_LINE_BYTES, 1u << (a / SECTOR_BYTES % SECTORS_PER_LINE));
        } else {
            touch_range(&t, out, a, width);
        }
    }
    out->sector_mask[line_index(&t, out, t.cur_line)] |= (uint8_t)t.cur_bits;

    unsigned sectors = 0;
    for (unsigned i = 0; i < out->nlines; i++) sectors += bits_popcount4(out->sector_mask[i]);
    out->sectors = sectors;
    out->bytes_requested = lanes * width;
    if (kind == COALESCE_STORE) full_sectors(&t, addr, mask, width, out);
    if (kind == COALESCE_ATOMIC) atomic_lines(addr, mask, out);
}

uint32_t coalesce_max_same_address(const uint64_t addr[32], uint32_t mask)
{
    /* The largest group is counted in full from its first lane. */
    uint32_t best = 0;
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask >> l & 1u)) continue;
        uint32_t n = 1;
        for (unsigned j = l + 1; j < 32; j++) n += (mask >> j & 1u) && addr[j] == addr[l];
        if (n > best) best = n;
    }
    return best;
}
