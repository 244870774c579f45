/* isa/ptx_regalloc.c -- register rows for PTX's virtual registers (see
** ptx_regalloc in isa/ptx.h): live intervals in instruction order, widened
** over loops, then linear scan (Poletto and Sarkar, "Linear Scan Register
** Allocation", TOPLAS 1999), 64-bit values in even-aligned row pairs,
** predicates in the warp's predicate slots.
** Liveness: a value's interval is the hull of the points where it is live,
** from dataflow over basic blocks (bit sets: blocks x values). Where those
** sets would pass 64 MB, the interval runs from the value's first to its
** last mention instead, and where that touches a loop (the span from a back
** edge's target to the branch, overlapping spans merged) it covers the
** whole loop. That is conservative and O(n log n), but a block placed out
** of line that jumps back (nvcc's slow paths) looks like a loop over all
** that lies between, which then holds every value. The rows only bound host memory:
** the register count the timing model uses for occupancy comes from ptxas
** or the workload (Kernel.regs_estimated is the fallback, marked so). */
#include "isa/ptx.h"

#include <stdlib.h>
#include <string.h>

#include "base/heap.h"

typedef struct {
    uint32_t start, end;
} Span;

static int span_cmp(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : (x->end < y->end ? -1 : x->end > y->end);
}

/* The region (merged loop span) holding pos, or NULL; regions are sorted
** and disjoint. */
static const Span *region_of(const Span *r, uint32_t nr, uint32_t pos)
{
    uint32_t lo = 0, hi = nr;
    while (lo < hi) { /* first region starting after pos */
        uint32_t mid = lo + (hi - lo) / 2;
        if (r[mid].start <= pos) lo = mid + 1;
        else hi = mid;
    }
    return lo && r[lo - 1].end >= pos ? &r[lo - 1] : NULL;
}

static void mention(uint32_t *first, uint32_t *last, uint32_t v, uint32_t pos)
{
    if (first[v] == UINT32_MAX || pos < first[v]) first[v] = pos;
    if (pos > last[v]) last[v] = pos;
}

/* ---- liveness by dataflow over basic blocks ---- */

#define LIVE_MAX_WORDS (8u << 20) /* 64 MB of bit sets at most; past that, loop widening */

typedef struct {
    uint32_t nb, words;
    uint32_t *block;  /* per instruction: its block            */
    uint32_t *start;  /* per block: first instruction, and n   */
    uint64_t *sets;   /* per block: use, def, in, out (words each) */
} Live;

static uint64_t *live_set(const Live *L, uint32_t b, int which) { return L->sets + ((size_t)b * 4 + (size_t)which) * L->words; }
static void bit_set(uint64_t *s, uint32_t v) { s[v / 64] |= 1ull << (v % 64); }
static bool bit_has(const uint64_t *s, uint32_t v) { return s[v / 64] >> (v % 64) & 1; }

/* Whether instruction i writes all of virtual register v: unguarded, and for
** a 64-bit value both its words (a wide destination, or the low and high
** word operands). A partial write keeps the old value live through it. */
static bool full_write(const Kernel *k, uint32_t i, const uint32_t *guard_v, const uint8_t *vclass, uint32_t v)
{
    const Instr *in = &k->code[i];
    if (guard_v[i] != UINT32_MAX) return false;
    if (vclass[v] != VREG_64 || OP_INFO[in->op].wide & W_D) return true;
    bool lo = false, hi = false;
    for (uint32_t j = 0; j < in->ndst; j++)
        if (in->dst[j].kind == OPND_REG && in->dst[j].index == v) {
            if (in->dst[j].neg) hi = true;
            else lo = true;
        }
    return lo && hi;
}

/* A block's uses (read before any full write in it) and full writes. */
static void block_use_def(const Kernel *k, const Live *L, uint32_t b, const uint32_t *guard_v, const uint8_t *vclass)
{
    uint64_t *use = live_set(L, b, 0), *def = live_set(L, b, 1);
    for (uint32_t i = L->start[b]; i < L->start[b + 1]; i++) {
        const Instr *in = &k->code[i];
        for (uint32_t j = 0; j < in->nsrc; j++)
            if ((in->src[j].kind == OPND_REG || in->src[j].kind == OPND_PRED) && !bit_has(def, in->src[j].index))
                bit_set(use, in->src[j].index);
        if (guard_v[i] != UINT32_MAX && !bit_has(def, guard_v[i])) bit_set(use, guard_v[i]);
        for (uint32_t j = 0; j < in->ndst; j++) {
            if (in->dst[j].kind != OPND_REG && in->dst[j].kind != OPND_PRED) continue;
            uint32_t v = in->dst[j].index;
            if (bit_has(def, v)) continue;
            if (full_write(k, i, guard_v, vclass, v)) bit_set(def, v);
            else bit_set(use, v);
        }
    }
}

/* Whether control can fall from instruction i to i + 1. */
static bool falls_through(const Kernel *k, uint32_t i, const uint32_t *guard_v)
{
    uint8_t op = k->code[i].op;
    return guard_v[i] != UINT32_MAX || (op != OP_BRA && op != OP_BRA_UNI && op != OP_EXIT);
}

/* Each value's interval (first, last) as the hull of the points where it is
** live, by the classic backward dataflow (in = use | (out & ~def), out = the
** union of the successors' in) to a fixed point. False when the bit sets
** would be too large: the caller widens over loops instead. */
static bool live_hulls(const Kernel *k, const uint32_t *guard_v, const uint8_t *vclass, uint32_t nv, uint32_t *first,
                       uint32_t *last)
{
    uint32_t n = k->ncode;
    Live L = { .words = (nv + 63) / 64 };
    uint8_t *leader = calloc((size_t)n + 1, 1);
    if (!leader) return false;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t op = k->code[i].op;
        if (op == OP_BRA || op == OP_BRA_UNI) leader[k->code[i].target] = 1;
        if (op == OP_BRA || op == OP_BRA_UNI || op == OP_EXIT) leader[i + 1] = 1;
    }
    for (uint32_t i = 0; i < n; i++) L.nb += leader[i];
    bool ok = (uint64_t)L.nb * 4 * L.words <= LIVE_MAX_WORDS;
    L.block = ok ? malloc((size_t)n * sizeof *L.block) : NULL;
    L.start = ok ? malloc(((size_t)L.nb + 1) * sizeof *L.start) : NULL;
    L.sets = ok ? calloc((size_t)L.nb * 4 * L.words, sizeof *L.sets) : NULL;
    ok = L.block && L.start && L.sets;
    for (uint32_t i = 0, b = 0; ok && i < n; i++) {
        if (leader[i]) L.start[b++] = i;
        L.block[i] = b - 1;
    }
    if (ok) L.start[L.nb] = n;
    for (uint32_t b = 0; ok && b < L.nb; b++) block_use_def(k, &L, b, guard_v, vclass);
    for (bool changed = ok; changed;) {
        changed = false;
        for (uint32_t b = L.nb; b-- > 0;) {
            uint64_t *in = live_set(&L, b, 2), *out = live_set(&L, b, 3);
            const uint64_t *use = live_set(&L, b, 0), *def = live_set(&L, b, 1);
            uint32_t last_i = L.start[b + 1] - 1;
            const Instr *end = &k->code[last_i];
            uint32_t succ[2], ns = 0;
            if ((end->op == OP_BRA || end->op == OP_BRA_UNI)) succ[ns++] = L.block[end->target];
            if (falls_through(k, last_i, guard_v) && b + 1 < L.nb) succ[ns++] = b + 1;
            for (uint32_t w = 0; w < L.words; w++) {
                uint64_t o = 0;
                for (uint32_t j = 0; j < ns; j++) o |= live_set(&L, succ[j], 2)[w];
                uint64_t x = use[w] | (o & ~def[w]);
                if (o != out[w] || x != in[w]) changed = true;
                out[w] = o, in[w] = x;
            }
        }
    }
    for (uint32_t b = 0; ok && b < L.nb; b++) {
        const uint64_t *in = live_set(&L, b, 2), *out = live_set(&L, b, 3);
        for (uint32_t w = 0; w < L.words; w++)
            for (uint64_t bits = in[w] | out[w]; bits; bits &= bits - 1) {
                uint32_t v = w * 64 + (uint32_t)__builtin_ctzll(bits);
                if (bit_has(in, v)) mention(first, last, v, L.start[b]);
                if (bit_has(out, v)) mention(first, last, v, L.start[b + 1] - 1);
            }
    }
    free(leader);
    free(L.block);
    free(L.start);
    free(L.sets);
    return ok;
}

/* Lowest free row (or even-aligned pair when pair) in the bitset, or UINT32_MAX. */
static uint32_t take_rows(uint64_t *bits, uint32_t nwords, bool pair)
{
    for (uint32_t wi = 0; wi < nwords; wi++) {
        uint64_t freeb = ~bits[wi];
        if (pair) freeb &= freeb >> 1 & 0x5555555555555555ull; /* both rows of an even pair free */
        if (!freeb) continue;
        uint32_t b = (uint32_t)__builtin_ctzll(freeb);
        bits[wi] |= (pair ? 3ull : 1ull) << b;
        return wi * 64 + b;
    }
    return UINT32_MAX;
}

/* Every operand and guard from its virtual register to the row or slot the
** scan gave it (until here a register operand's `neg` says it is the high word of a pair). */
static void rename_operands(Kernel *k, const uint32_t *guard_v, const uint32_t *slot)
{
    for (uint32_t i = 0; i < k->ncode; i++) {
        Instr *in = &k->code[i];
        Operand *ops[9];
        uint32_t no = 0;
        for (uint32_t j = 0; j < in->ndst; j++) ops[no++] = &in->dst[j];
        for (uint32_t j = 0; j < in->nsrc; j++) ops[no++] = &in->src[j];
        for (uint32_t j = 0; j < no; j++) {
            Operand *o = ops[j];
            if (o->kind == OPND_REG) {
                o->index = (uint16_t)(slot[o->index] + o->neg);
                o->neg = 0;
            } else if (o->kind == OPND_PRED) {
                o->index = (uint16_t)slot[o->index];
            }
        }
        if (guard_v[i] != UINT32_MAX) in->guard = (uint8_t)slot[guard_v[i]];
    }
}

bool ptx_regalloc(Kernel *k, const uint32_t *guard_v, const uint8_t *vclass, uint32_t nv, const char *file, Diag *d)
{
    uint32_t n = k->ncode;
    uint32_t *first = malloc(((size_t)nv * 4 + 1) * sizeof(uint32_t));
    Span *spans = malloc(((size_t)n + 1) * sizeof(Span));
    Heap active = { 0 };
    bool ok = first && spans && heap_reserve(&active, nv + 1);
    if (!ok) {
        free(first);
        free(spans);
        heap_free(&active);
        diag_set(d, file, k->line, 1, "out of memory allocating registers of kernel '%s'", k->name);
        return false;
    }
    uint32_t *last = first + nv, *slot = last + nv, *order = slot + nv;
    for (uint32_t v = 0; v < nv; v++) first[v] = UINT32_MAX, last[v] = 0, slot[v] = UINT32_MAX;
    uint32_t nspans = 0;
    for (uint32_t i = 0; i < n; i++) {
        const Instr *in = &k->code[i];
        for (uint32_t j = 0; j < in->ndst; j++)
            if (in->dst[j].kind == OPND_REG || in->dst[j].kind == OPND_PRED) mention(first, last, in->dst[j].index, i);
        for (uint32_t j = 0; j < in->nsrc; j++)
            if (in->src[j].kind == OPND_REG || in->src[j].kind == OPND_PRED) mention(first, last, in->src[j].index, i);
        if (guard_v[i] != UINT32_MAX) mention(first, last, guard_v[i], i);
        if ((in->op == OP_BRA || in->op == OP_BRA_UNI) && in->target <= i) spans[nspans++] = (Span){ in->target, i };
    }
    /* Merge the loops' spans into disjoint regions (the fallback when the
    ** dataflow's sets would be too large). */
    if (live_hulls(k, guard_v, vclass, nv, first, last)) nspans = 0;
    qsort(spans, nspans, sizeof *spans, span_cmp);
    uint32_t nreg = 0;
    for (uint32_t i = 0; i < nspans; i++) {
        if (nreg && spans[i].start <= spans[nreg - 1].end) {
            if (spans[i].end > spans[nreg - 1].end) spans[nreg - 1].end = spans[i].end;
        } else {
            spans[nreg++] = spans[i];
        }
    }
    /* Widen over loops, then order by start (counting sort on positions). */
    uint32_t *count = calloc((size_t)n + 1, sizeof(uint32_t));
    if (!count) {
        ok = false;
        diag_set(d, file, k->line, 1, "out of memory allocating registers of kernel '%s'", k->name);
    }
    uint32_t nused = 0;
    for (uint32_t v = 0; ok && v < nv; v++) {
        if (first[v] == UINT32_MAX) continue;
        const Span *r = region_of(spans, nreg, first[v]);
        if (r) first[v] = r->start;
        r = region_of(spans, nreg, last[v]);
        if (r) last[v] = r->end;
        count[first[v] + 1]++;
        nused++;
    }
    for (uint32_t i = 0; ok && i < n; i++) count[i + 1] += count[i];
    for (uint32_t v = 0; ok && v < nv; v++)
        if (first[v] != UINT32_MAX) order[count[first[v]]++] = v;
    /* Linear scan: rows and predicate slots freed once their interval ends. */
    uint64_t rows[PTX_MAX_ROWS / 64];
    uint64_t preds[(ISA_MAX_PREDS + 63) / 64];
    memset(rows, 0, sizeof rows);
    memset(preds, 0, sizeof preds);
    uint32_t high_row = 0, high_pred = 0;
    for (uint32_t oi = 0; ok && oi < nused; oi++) {
        uint32_t v = order[oi];
        while (active.n && active.v[0].key < first[v]) {
            uint32_t u = heap_pop(&active).id;
            if (vclass[u] == VREG_PRED) preds[slot[u] / 64] &= ~(1ull << (slot[u] % 64));
            else rows[slot[u] / 64] &= ~((vclass[u] == VREG_64 ? 3ull : 1ull) << (slot[u] % 64));
        }
        if (vclass[v] == VREG_PRED) {
            slot[v] = take_rows(preds, (ISA_MAX_PREDS + 63) / 64, false);
            if (slot[v] >= ISA_MAX_PREDS) {
                diag_set(d, file, k->code[first[v]].line, k->code[first[v]].col,
                         "kernel '%s' needs more than %d predicates live at once here; a warp holds %d", k->name,
                         ISA_MAX_PREDS, ISA_MAX_PREDS);
                ok = false;
                break;
            }
            if (slot[v] + 1 > high_pred) high_pred = slot[v] + 1;
        } else {
            bool pair = vclass[v] == VREG_64;
            slot[v] = take_rows(rows, PTX_MAX_ROWS / 64, pair);
            if (slot[v] == UINT32_MAX) {
                diag_set(d, file, k->code[first[v]].line, k->code[first[v]].col,
                         "kernel '%s' needs more than %d 32-bit register rows live at once here", k->name,
                         PTX_MAX_ROWS);
                ok = false;
                break;
            }
            uint32_t top = slot[v] + (pair ? 2 : 1);
            if (top > high_row) high_row = top;
        }
        heap_push(&active, last[v], v);
    }
    if (ok) rename_operands(k, guard_v, slot);
    if (ok) {
        k->regs_used = high_row ? high_row : 1;
        k->preds_used = high_pred;
        k->regs_estimated = high_row < 1 ? 1 : high_row > ISA_MAX_REGS ? ISA_MAX_REGS : high_row;
    }
    free(count);
    free(first);
    free(spans);
    heap_free(&active);
    return ok;
}
