/* isa/exec_async.c -- asynchronous copies and barriers (part of the exec
** module, isa/exec.h).
**
** cp.async copies at issue: any time between its issue and the wait that
** makes its bytes visible is a legal time for the copy, and a program that
** touches them in between has a race the PTX manual leaves undefined. When
** the copy completes is timing, kept per warp by sim/async.c.
**
** An mbarrier is a 64-bit word of shared memory, laid out here as the
** hardware's is opaque: the arrivals the current phase still needs (bits
** 0-20), the arrivals each phase expects (21-41) and the phase's parity
** (63). An arrival's state token is the word's parity then, with the
** arrivals still needed after it. Lanes arrive one after another in lane
** order, as atomics do; misuse the manual leaves undefined (a count out of
** range, an arrival past a phase's count, an uninitialised barrier) stops
** the kernel with a fault that says which. */
#include "isa/exec.h"

#include <string.h>

#define MBAR_FIELD   0x1fffffull /* 21 bits: counts up to 2^20 - 1 and their borrow */
#define MBAR_MAX     ((1u << 20) - 1)
#define MBAR_PHASE   (1ull << 63)

static inline uint32_t mbar_pending(uint64_t v) { return (uint32_t)(v & MBAR_FIELD); }
static inline uint32_t mbar_expected(uint64_t v) { return (uint32_t)(v >> 21 & MBAR_FIELD); }
static inline uint64_t mbar_word(uint64_t phase, uint32_t expected, uint32_t pending)
{
    return phase | (uint64_t)expected << 21 | pending;
}

static bool misuse(ExecOut *out, MbarMisuse why, uint32_t lane, uint64_t addr, uint32_t count)
{
    out->fault = (ExecFault){ .kind = FAULT_MBARRIER, .pc = out->pc, .lane = lane, .size = 8, .addr = addr,
                              .line = why, .file = count };
    return false;
}

/* One lane's arrivals (count of them) on the word at p; the state token. */
static bool arrive(uint8_t *p, uint32_t count, bool drop, bool no_complete, uint32_t lane, ExecOut *out, uint64_t *token)
{
    uint64_t v;
    memcpy(&v, p, 8);
    uint32_t expected = mbar_expected(v), pending = mbar_pending(v);
    uint64_t phase = v & MBAR_PHASE;
    if (!expected) return misuse(out, MBAR_UNINITIALISED, lane, out->addr[lane], count);
    if (count == 0 || count > pending || (drop && count > expected))
        return misuse(out, MBAR_TOO_MANY, lane, out->addr[lane], count);
    if (drop) expected -= count;
    pending -= count;
    *token = phase | pending;
    if (!pending) {
        if (no_complete) return misuse(out, MBAR_COMPLETES, lane, out->addr[lane], count);
        phase ^= MBAR_PHASE; /* the phase completes; the next one expects its count */
        pending = expected;
    }
    v = mbar_word(phase, expected, pending);
    memcpy(p, &v, 8);
    return true;
}

static bool mbarrier(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    uint8_t *ptr[WARP_SIZE];
    uint32_t tv[WARP_SIZE];
    if (!exec_mem_at(b, w, &in->src[0], in->offset, (in->iflags & INSTR_ADDR64) != 0, (MemSpace)in->stype, m, 8, out, ptr))
        return false;
    if (out->space != SPACE_SHARED) { /* a generic address outside shared memory */
        uint32_t l = (uint32_t)__builtin_ctz(m);
        return misuse(out, MBAR_NOT_SHARED, l, out->addr[l], 0);
    }
    const uint32_t *B = in->nsrc > 1 && in->op != OP_MBAR_TEST ? exec_row(w, &in->src[1], tv) : NULL;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t v, token = 0;
        memcpy(&v, ptr[l], 8);
        switch ((Opcode)in->op) {
        case OP_MBAR_INIT:
            if (B[l] == 0 || B[l] > MBAR_MAX) return misuse(out, MBAR_BAD_COUNT, l, out->addr[l], B[l]);
            v = mbar_word(0, B[l], B[l]);
            memcpy(ptr[l], &v, 8);
            break;
        case OP_MBAR_INVAL:
            memset(ptr[l], 0, 8);
            break;
        case OP_MBAR_ARRIVE:
            if (!arrive(ptr[l], B[l], in->sub & 1, in->sub & 2, l, out, &token)) return false;
            if (in->ndst) {
                w->r[in->dst[0].index][l] = (uint32_t)token;
                w->r[in->dst[0].index + 1][l] = (uint32_t)(token >> 32);
            }
            break;
        case OP_CP_ASYNC_MBAR: /* the copies are done: .noinc's completion arrives; else +1 then -1 */
            if (!mbar_expected(v)) return misuse(out, MBAR_UNINITIALISED, l, out->addr[l], 1);
            if ((in->sub & 1) && !arrive(ptr[l], 1, false, false, l, out, &token)) return false;
            break;
        case OP_MBAR_TEST: {
            const Operand *s = &in->src[1];
            uint64_t phase = !(in->sub & 1)         ? ((uint64_t)w->r[s->index + 1][l] << 32 & MBAR_PHASE)
                             : s->kind == OPND_IMM ? (uint64_t)(s->value & 1) << 63
                                                   : (uint64_t)(w->r[s->index][l] & 1) << 63;
            uint32_t bit = (v & MBAR_PHASE) != phase; /* the phase asked about is over */
            w->pred[in->dst[0].index] = (w->pred[in->dst[0].index] & ~(1u << l)) | bit << l;
            break;
        }
        default: break;
        }
    }
    return true;
}

/* cp.async for the lanes in m: each copies src-size bytes from global
** memory and zeros the rest of cp-size into shared memory. out->addr is left
** holding the global addresses for the timing model (a lane that reads
** nothing takes the address of the first lane that does, so it adds no
** sector), out->width the copy size. */
static bool copy(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    const uint32_t size = in->src[2].value;
    uint32_t src_size[WARP_SIZE], tv[WARP_SIZE];
    const Operand *s3 = &in->src[3];
    if (s3->kind == OPND_PRED) { /* ignore-src: nothing read where it holds */
        uint32_t p = exec_pred(w, s3);
        for (int l = 0; l < WARP_SIZE; l++) src_size[l] = (p >> l & 1) ? 0 : size;
    } else if (s3->kind == OPND_NONE) {
        for (int l = 0; l < WARP_SIZE; l++) src_size[l] = size;
    } else {
        const uint32_t *S = exec_row(w, s3, tv);
        for (int l = 0; l < WARP_SIZE; l++) src_size[l] = S[l] < size ? S[l] : size; /* more: undefined; the copy size */
    }
    uint32_t reads = 0;
    for (int l = 0; l < WARP_SIZE; l++) reads |= (uint32_t)(src_size[l] != 0) << l;
    reads &= m;
    uint8_t *dst[WARP_SIZE], *src[WARP_SIZE];
    if (!exec_mem_at(b, w, &in->src[0], in->offset, (in->iflags & INSTR_ADDR64) != 0, SPACE_SHARED, m, size, out, dst))
        return false;
    if (reads && !exec_mem_at(b, w, &in->src[1], (int32_t)in->src[4].value, in->sub & 1, SPACE_GLOBAL, reads, size, out, src))
        return false;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        if (src_size[l]) memcpy(dst[l], src[l], src_size[l]);
        memset(dst[l] + src_size[l], 0, size - src_size[l]);
    }
    uint64_t first = reads ? out->addr[__builtin_ctz(reads)] : 0;
    for (int l = 0; l < WARP_SIZE; l++)
        if (!(reads >> l & 1)) out->addr[l] = first;
    out->space = SPACE_GLOBAL;
    out->width = size;
    out->async_reads = reads;
    return true;
}

bool exec_async(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    if (in->op == OP_MBAR_PENDING) {
        const Operand *s = &in->src[0];
        for (int l = 0; l < WARP_SIZE; l++)
            if (m >> l & 1) w->r[in->dst[0].index][l] = mbar_pending((uint64_t)w->r[s->index + 1][l] << 32 | w->r[s->index][l]);
        return true;
    }
    if (in->op == OP_CP_ASYNC) return copy(b, w, in, m, out);
    if (!m) return true;
    return mbarrier(b, w, in, m, out);
}
