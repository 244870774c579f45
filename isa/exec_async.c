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
** 0-20), the arrivals each phase expects (21-41), the bytes of bulk copies
** the phase still waits for (42-62, two's complement: a copy may complete
** before its expect_tx) and the phase's parity (63). A phase completes when
** its arrivals are in and its byte count is zero. An arrival's state token
** is the word's parity then, with the arrivals still needed after it. Lanes arrive one after another in lane
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
static inline int32_t mbar_tx(uint64_t v)
{
    uint32_t t = (uint32_t)(v >> 42 & MBAR_FIELD);
    return t & 0x100000u ? (int32_t)t - (int32_t)0x200000 : (int32_t)t;
}
static inline uint64_t mbar_word(uint64_t phase, uint32_t expected, uint32_t pending, int32_t tx)
{
    return phase | ((uint64_t)(uint32_t)tx & MBAR_FIELD) << 42 | (uint64_t)expected << 21 | pending;
}

static bool misuse(ExecOut *out, MbarMisuse why, uint32_t lane, uint64_t addr, uint32_t count)
{
    out->fault = (ExecFault){ .kind = FAULT_MBARRIER, .pc = out->pc, .lane = lane, .size = 8, .addr = addr,
                              .line = why, .file = count };
    return false;
}

static bool fail(ExecOut *out, FaultKind kind, uint32_t lane, uint64_t addr, uint32_t size)
{
    out->fault = (ExecFault){ .kind = kind, .pc = out->pc, .lane = lane, .size = size, .addr = addr };
    return false;
}

/* One lane's arrivals (count of them; drop: .arrive_drop) and bytes (tx:
** + for expect_tx, - for complete_tx) on the word at p, at shared offset
** at; the state token. */
static bool arrive(uint8_t *p, uint64_t at, uint32_t count, int32_t tx, bool drop, bool no_complete, uint32_t lane,
                   ExecOut *out, uint64_t *token)
{
    uint64_t v;
    memcpy(&v, p, 8);
    uint32_t expected = mbar_expected(v), pending = mbar_pending(v);
    int32_t bytes = mbar_tx(v) + tx;
    uint64_t phase = v & MBAR_PHASE;
    if (!expected) return misuse(out, MBAR_UNINITIALISED, lane, at, count);
    if (count > pending || (drop && count > expected)) return misuse(out, MBAR_TOO_MANY, lane, at, count);
    if (bytes > (int32_t)MBAR_MAX || bytes < -(int32_t)MBAR_MAX) return misuse(out, MBAR_TX_RANGE, lane, at, (uint32_t)tx);
    if (drop) expected -= count;
    pending -= count;
    *token = phase | pending;
    if (!pending && !bytes && (count || tx < 0)) { /* an arrival or the last bytes complete the phase */
        if (no_complete) return misuse(out, MBAR_COMPLETES, lane, at, count);
        phase ^= MBAR_PHASE; /* the next phase expects its count */
        pending = expected;
    }
    v = mbar_word(phase, expected, pending, bytes);
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
            v = mbar_word(0, B[l], B[l], 0);
            memcpy(ptr[l], &v, 8);
            break;
        case OP_MBAR_TX: /* bytes only: sub 0 expect_tx, 1 complete_tx */
            if (B[l] > MBAR_MAX) return misuse(out, MBAR_TX_RANGE, l, out->addr[l], B[l]);
            if (!arrive(ptr[l], out->addr[l], 0, in->sub ? -(int32_t)B[l] : (int32_t)B[l], false, false, l, out, &token))
                return false;
            break;
        case OP_MBAR_INVAL:
            memset(ptr[l], 0, 8);
            break;
        case OP_MBAR_ARRIVE: { /* sub: 1 arrive_drop, 2 noComplete, 4 expect_tx (b the bytes, one arrival) */
            bool tx = in->sub & 4;
            if (tx && B[l] > MBAR_MAX) return misuse(out, MBAR_TX_RANGE, l, out->addr[l], B[l]);
            if (!tx && B[l] == 0) return misuse(out, MBAR_TOO_MANY, l, out->addr[l], 0);
            if (!arrive(ptr[l], out->addr[l], tx ? 1 : B[l], tx ? (int32_t)B[l] : 0, in->sub & 1, in->sub & 2, l, out, &token))
                return false;
            if (in->ndst) {
                w->r[in->dst[0].index][l] = (uint32_t)token;
                w->r[in->dst[0].index + 1][l] = (uint32_t)(token >> 32);
            }
            break;
        }
        case OP_CP_ASYNC_MBAR: /* the copies are done: .noinc's completion arrives; else +1 then -1 */
            if (!mbar_expected(v)) return misuse(out, MBAR_UNINITIALISED, l, out->addr[l], 1);
            if ((in->sub & 1) && !arrive(ptr[l], out->addr[l], 1, 0, false, false, l, out, &token)) return false;
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

int exec_mbar_phase(const ExecBlock *b, uint64_t at)
{
    if (at + 8 > b->smem_size) return -1;
    uint64_t v;
    memcpy(&v, b->smem + at, 8);
    return (v & MBAR_PHASE) != 0;
}

/* cp.async for the lanes in m: each copies src-size bytes from global
** memory and zeros the rest of cp-size into shared memory. out->addr is left
** holding the global addresses for the timing model (a lane that reads
** nothing takes the address of the first lane that does, so it adds no
** sector), out->data[0] the shared offsets it writes, out->width the copy
** size. */
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
    for (int l = 0; l < WARP_SIZE; l++) out->data[0][l] = (uint32_t)out->addr[l]; /* where it writes, for --racecheck */
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

/* cp.async.bulk (global to shared, completing on an mbarrier) for the
** lanes in m, one after another: each copies its own size bytes and
** completes them on its barrier. What the timing model needs is left in
** out (ExecOut.async_reads). */
static bool bulk(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    uint32_t tv[WARP_SIZE], tm[WARP_SIZE], ts[WARP_SIZE];
    const uint32_t *D = exec_row(w, &in->src[0], tv), *S = exec_row(w, &in->src[2], ts), *M = exec_row(w, &in->src[3], tm);
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t src = (in->sub & 1 ? exec_lane64(b, w, &in->src[1], l) : w->r[in->src[1].index][l]) +
                       (uint64_t)(int64_t)(int32_t)in->src[4].value;
        uint32_t dst = D[l] + (uint32_t)in->offset, size = S[l], at = M[l];
        out->addr[l] = src;
        if (src >> 32) return fail(out, FAULT_ADDR64, l, src, size);
        if ((src | dst | size) & 15 || !size) return fail(out, FAULT_MISALIGNED, l, (src & 15) ? src : dst, size);
        if ((uint64_t)dst + size > b->smem_size) return fail(out, FAULT_SHARED_OOB, l, dst, size);
        const uint8_t *from = gmem_translate(b->gmem, src, size);
        if (!from) return fail(out, FAULT_GLOBAL_OOB, l, src, size);
        if (at % 8 || (uint64_t)at + 8 > b->smem_size) return misuse(out, MBAR_NOT_SHARED, l, at, 0);
        memcpy(b->smem + dst, from, size);
        uint64_t token;
        if (size > MBAR_MAX) return misuse(out, MBAR_TX_RANGE, l, at, size);
        if (!arrive(b->smem + at, at, 0, -(int32_t)size, false, false, l, out, &token)) return false;
        out->data[0][l] = size;
        out->data[1][l] = at;
    }
    out->space = SPACE_GLOBAL;
    out->width = 16;
    out->async_reads = m;
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
    if (in->op == OP_CP_ASYNC_BULK) return bulk(b, w, in, m, out);
    if (!m) return true;
    return mbarrier(b, w, in, m, out);
}
