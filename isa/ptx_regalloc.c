/* isa/ptx_regalloc.c -- register rows for PTX's virtual registers (see
** ptx_regalloc in isa/ptx.h): live intervals in instruction order, widened
** over loops, then linear scan (Poletto and Sarkar, "Linear Scan Register
** Allocation", TOPLAS 1999), 64-bit values in even-aligned row pairs,
** predicates in the warp's predicate slots.
** Liveness: a value's interval runs from its first to its last mention;
** where that touches a loop (the span from a back edge's target to the
** branch, overlapping spans merged) it covers the whole loop, since the
** value may be live around the back edge. That is conservative (a value
** used only inside one iteration keeps its row through the loop), never
** wrong, and O(n log n) on any input, unlike dataflow over blocks, which
** can be quadratic in blocks x registers. The rows only bound host memory:
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
    /* Merge the loops' spans into disjoint regions. */
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
    uint64_t preds = 0; /* ISA_MAX_PREDS <= 64 slots */
    memset(rows, 0, sizeof rows);
    uint32_t high_row = 0, high_pred = 0;
    for (uint32_t oi = 0; ok && oi < nused; oi++) {
        uint32_t v = order[oi];
        while (active.n && active.v[0].key < first[v]) {
            uint32_t u = heap_pop(&active).id;
            if (vclass[u] == VREG_PRED) preds &= ~(1ull << slot[u]);
            else rows[slot[u] / 64] &= ~((vclass[u] == VREG_64 ? 3ull : 1ull) << (slot[u] % 64));
        }
        if (vclass[v] == VREG_PRED) {
            uint64_t freeb = ~preds & ((1ull << ISA_MAX_PREDS) - 1);
            if (!freeb) {
                diag_set(d, file, k->code[first[v]].line, k->code[first[v]].col,
                         "kernel '%s' needs more than %d predicates live at once here; a warp holds %d", k->name,
                         ISA_MAX_PREDS, ISA_MAX_PREDS);
                ok = false;
                break;
            }
            slot[v] = (uint32_t)__builtin_ctzll(freeb);
            preds |= 1ull << slot[v];
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
