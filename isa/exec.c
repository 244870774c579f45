/* isa/exec.c -- lane semantics of every opcode (see exec.h).
** Every lane loop computes all 32 lanes and blends by mask, which compilers
** vectorise; operations whose C form could trap or be undefined (division by
** zero, INT_MIN / -1, oversized shifts, float->int out of range) are written
** out with the hardware's defined results (isa/ISA.md, "Edge cases").
** Floating point: binary32 in C with fmaf for fused multiply-add; the SFU
** approximations use the C library's correctly rounded functions, so results
** can differ from hardware in the last bits (documented in ISA.md).      */
#include "isa/exec.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const uint32_t EXEC_NIBBLE_LANES[16][4] = {
#define NL(n) { 0u - ((n) & 1u), 0u - ((n) >> 1 & 1u), 0u - ((n) >> 2 & 1u), 0u - ((n) >> 3 & 1u) }
    NL(0u), NL(1u), NL(2u), NL(3u), NL(4u), NL(5u), NL(6u), NL(7u),
    NL(8u), NL(9u), NL(10u), NL(11u), NL(12u), NL(13u), NL(14u), NL(15u),
#undef NL
};

/* D[l] = v for the lanes in m. A full warp's row is written without
** being read: the row of a warp that has just started is rarely in the
** host's cache, and a store does not wait for the line. */
static inline void fill_lanes(uint32_t *D, uint32_t v, uint32_t m)
{
    if (m == UINT32_MAX) {
        for (int l = 0; l < WARP_SIZE; l++) D[l] = v;
        return;
    }
    uint32_t mw[WARP_SIZE];
    exec_lanes_from_mask(m, mw);
    for (int l = 0; l < WARP_SIZE; l++) D[l] = (v & mw[l]) | (D[l] & ~mw[l]);
}

/* Lane loops. m = lanes to write; D = destination row; A/B/C source rows;
** EXPR uses x, y, z (the lane's a, b, c as uint32_t). */
#define LANES1(EXPR)                                                      \
    do {                                                                  \
        const uint32_t *A = exec_row(w, &in->src[0], ta);                 \
        uint32_t *D = w->r[in->dst[0].index];                             \
        if (m == UINT32_MAX) { /* full warp: a loop the compiler vectorises */ \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l];                                        \
                D[l] = (EXPR);                                            \
            }                                                             \
        } else {                                                          \
            uint32_t mw[WARP_SIZE];                                       \
            exec_lanes_from_mask(m, mw);                                  \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l];                                        \
                uint32_t v = (EXPR);                                      \
                D[l] = (v & mw[l]) | (D[l] & ~mw[l]);                     \
            }                                                             \
        }                                                                 \
    } while (0)
#define LANES2(EXPR)                                                      \
    do {                                                                  \
        const uint32_t *A = exec_row(w, &in->src[0], ta);                 \
        const uint32_t *B = exec_row(w, &in->src[1], tb);                 \
        uint32_t *D = w->r[in->dst[0].index];                             \
        if (m == UINT32_MAX) { /* full warp: a loop the compiler vectorises */ \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l], y = B[l];                              \
                D[l] = (EXPR);                                            \
            }                                                             \
        } else {                                                          \
            uint32_t mw[WARP_SIZE];                                       \
            exec_lanes_from_mask(m, mw);                                  \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l], y = B[l];                              \
                uint32_t v = (EXPR);                                      \
                D[l] = (v & mw[l]) | (D[l] & ~mw[l]);                     \
            }                                                             \
        }                                                                 \
    } while (0)
#define LANES3(EXPR)                                                      \
    do {                                                                  \
        const uint32_t *A = exec_row(w, &in->src[0], ta);                 \
        const uint32_t *B = exec_row(w, &in->src[1], tb);                 \
        const uint32_t *C = exec_row(w, &in->src[2], tc);                 \
        uint32_t *D = w->r[in->dst[0].index];                             \
        if (m == UINT32_MAX) { /* full warp: a loop the compiler vectorises */ \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l], y = B[l], z = C[l];                    \
                D[l] = (EXPR);                                            \
            }                                                             \
        } else {                                                          \
            uint32_t mw[WARP_SIZE];                                       \
            exec_lanes_from_mask(m, mw);                                  \
            for (int l = 0; l < WARP_SIZE; l++) {                         \
                uint32_t x = A[l], y = B[l], z = C[l];                    \
                uint32_t v = (EXPR);                                      \
                D[l] = (v & mw[l]) | (D[l] & ~mw[l]);                     \
            }                                                             \
        }                                                                 \
    } while (0)
#define SETP(COND)                                                        \
    do {                                                                  \
        const uint32_t *A = exec_row(w, &in->src[0], ta);                 \
        const uint32_t *B = exec_row(w, &in->src[1], tb);                 \
        uint32_t c[WARP_SIZE];                                            \
        for (int l = 0; l < WARP_SIZE; l++) {                             \
            uint32_t x = A[l], y = B[l];                                  \
            c[l] = 0u - (uint32_t)(COND);                                 \
        }                                                                 \
        uint32_t r = lanes_to_mask(c);                                    \
        uint32_t *P = &w->pred[in->dst[0].index];                         \
        *P = (*P & ~m) | (r & m);                                         \
    } while (0)

/* One bit per lane from 32 all-ones-or-zero words. SSE2 (every x86-64)
** packs four lanes per instruction; a shift by the lane number does not
** vectorise without AVX2, and that loop cost more than the comparisons. */
static inline uint32_t lanes_to_mask(const uint32_t c[WARP_SIZE])
{
    uint32_t r = 0;
#if defined(__SSE2__)
    for (int l = 0; l < WARP_SIZE; l += 4)
        r |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)&c[l]))) << l;
#else
    for (int l = 0; l < WARP_SIZE; l++) r |= (c[l] & 1u) << l;
#endif
    return r;
}

/* Fused multiply-add over a warp. Built twice: with the FMA instruction set
** (one vfmadd per lane, chosen at load time where the CPU has it) and
** portably (the C library's fmaf); both round once, so results are equal.
** Not under ThreadSanitizer: it instruments the clones' resolver, which the
** dynamic loader calls before the sanitizer has started. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("fma", "default")))
#endif
static void fma_lanes(uint32_t *D, const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t m)
{
    if (m == 0xffffffffu) {
        for (int l = 0; l < WARP_SIZE; l++) D[l] = bits_of_f32(fmaf(bits_f32(A[l]), bits_f32(B[l]), bits_f32(C[l])));
        return;
    }
    uint32_t mw[WARP_SIZE];
    exec_lanes_from_mask(m, mw);
    for (int l = 0; l < WARP_SIZE; l++) {
        uint32_t v = bits_of_f32(fmaf(bits_f32(A[l]), bits_f32(B[l]), bits_f32(C[l])));
        D[l] = (v & mw[l]) | (D[l] & ~mw[l]);
    }
}

/* min/max with a NaN operand give the other one; -0 is below +0 (the C
** library may return either zero, and results must not depend on it). */
static inline uint32_t min_f32(uint32_t x, uint32_t y)
{
    float a = bits_f32(x), b = bits_f32(y);
    if (isnan(a)) return y;
    if (isnan(b)) return x;
    if (a == b) return x | y; /* equal: only +-0 differ in bits; -0 wins */
    return a < b ? x : y;
}

static inline uint32_t max_f32(uint32_t x, uint32_t y)
{
    float a = bits_f32(x), b = bits_f32(y);
    if (isnan(a)) return y;
    if (isnan(b)) return x;
    if (a == b) return x & y; /* +0 wins */
    return a > b ? x : y;
}

static inline uint32_t div_s32(uint32_t x, uint32_t y)
{
    int32_t a = (int32_t)x, b = (int32_t)y;
    if (b == 0) return UINT32_MAX;
    if (a == INT32_MIN && b == -1) return x;
    return (uint32_t)(a / b);
}

static inline uint32_t rem_s32(uint32_t x, uint32_t y)
{
    int32_t a = (int32_t)x, b = (int32_t)y;
    if (b == 0) return x;
    if (b == -1) return 0;
    return (uint32_t)(a % b);
}

static inline uint32_t f2s(float f)
{
    if (isnan(f)) return 0;
    if (f >= 2147483648.0f) return (uint32_t)INT32_MAX;
    if (f <= -2147483648.0f) return (uint32_t)INT32_MIN;
    return (uint32_t)(int32_t)f;
}

static inline uint32_t f2u(float f)
{
    if (isnan(f) || f <= 0.0f) return 0;
    if (f >= 4294967296.0f) return UINT32_MAX;
    return (uint32_t)f;
}

static inline uint32_t shr_s32(uint32_t x, uint32_t y)
{
    int32_t a = (int32_t)x;
    if (y >= 32) return a < 0 ? UINT32_MAX : 0;
    return a < 0 ? ~(~x >> y) : x >> y; /* arithmetic shift without relying on >> of negatives */
}

/* The six comparisons, for one operand type (the unordered ones are the
** ordered ones for integers; the front ends only give them to floats). */
#define COMPARE(c, a, b)                  \
    switch (c) {                          \
    case CMP_EQ: case CMP_EQU: return (a) == (b); \
    case CMP_NE: case CMP_NEU: return (a) != (b); \
    case CMP_LT: case CMP_LTU: return (a) < (b);  \
    case CMP_LE: case CMP_LEU: return (a) <= (b); \
    case CMP_GT: case CMP_GTU: return (a) > (b);  \
    case CMP_GE: case CMP_GEU: return (a) >= (b); \
    case CMP_NUM: return true;            \
    case CMP_NAN: case CMP_COUNT: break;  \
    }                                     \
    return false

/* Integer setp: the comparison chosen once per instruction, then a lane
** loop per comparison that the compiler vectorises (a per-lane switch
** cost more than the comparisons themselves). T: int32_t or uint32_t. */
#define SETP_INT(T)                                                       \
    do {                                                                  \
        switch ((CmpOp)in->mod) {                                         \
        case CMP_EQ: case CMP_EQU: SETP((T)x == (T)y); break;            \
        case CMP_NE: case CMP_NEU: SETP((T)x != (T)y); break;            \
        case CMP_LT: case CMP_LTU: SETP((T)x < (T)y); break;             \
        case CMP_LE: case CMP_LEU: SETP((T)x <= (T)y); break;            \
        case CMP_GT: case CMP_GTU: SETP((T)x > (T)y); break;             \
        case CMP_GE: case CMP_GEU: SETP((T)x >= (T)y); break;            \
        case CMP_NUM: SETP((x | y | 1u) != 0); break;     /* integers are never NaN */ \
        case CMP_NAN: case CMP_COUNT: SETP((x & y & 0u) != 0); break;  \
        }                                                                 \
    } while (0)

/* Ordered float comparisons: any NaN operand makes them false (ne too). */
static bool cmp_f(CmpOp c, float a, float b)
{
    if (isnan(a) || isnan(b)) return c >= CMP_EQU && c != CMP_NUM; /* PTX's unordered ones, and nan, hold */
    if (c == CMP_NAN) return false;
    COMPARE(c, a, b);
}

static uint32_t special(const ExecBlock *b, const WarpExec *w, SpecialReg s, int lane)
{
    uint32_t lin = w->warp_in_block * WARP_SIZE + (uint32_t)lane;
    switch (s) {
    case SREG_TID_X: return lin % b->ntid[0];
    case SREG_TID_Y: return lin / b->ntid[0] % b->ntid[1];
    case SREG_TID_Z: return lin / (b->ntid[0] * b->ntid[1]);
    case SREG_NTID_X: case SREG_NTID_Y: case SREG_NTID_Z: return b->ntid[s - SREG_NTID_X];
    case SREG_CTAID_X: case SREG_CTAID_Y: case SREG_CTAID_Z: return b->ctaid[s - SREG_CTAID_X];
    case SREG_NCTAID_X: case SREG_NCTAID_Y: case SREG_NCTAID_Z: return b->nctaid[s - SREG_NCTAID_X];
    case SREG_LANEID: return (uint32_t)lane;
    case SREG_WARPID: return w->hw_warp;
    case SREG_SMID: return b->smid;
    case SREG_NSMID: return b->nsmid;
    case SREG_CLOCK:
    case SREG_CLOCK64: return (uint32_t)b->clock;
    case SREG_LANEMASK_EQ: return 1u << lane;
    case SREG_LANEMASK_LT: return (1u << lane) - 1;
    case SREG_LANEMASK_LE: return lane == 31 ? UINT32_MAX : (2u << lane) - 1;
    case SREG_LANEMASK_GT: return lane == 31 ? 0 : ~((2u << lane) - 1);
    case SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case SREG_GLOBALTIMER: return (uint32_t)exec_timer64(b, s);
    case SREG_DYNAMIC_SMEM: return b->smem_size - b->reserved_smem - b->kernel->dynamic_smem_offset;
    case SREG_RESERVED_BEGIN: case SREG_RESERVED_0: return b->smem_size - b->reserved_smem;
    case SREG_RESERVED_END: return b->smem_size;
    case SREG_RESERVED_CAP: return b->reserved_smem;
    case SREG_RESERVED_1: return b->smem_size - b->reserved_smem / 2; /* its second half */
    case SREG_ENVREG1: return (uint32_t)(b->grid_workspace >> 32);
    case SREG_ENVREG2: return (uint32_t)b->grid_workspace;
    case SREG_COUNT: break;
    }
    return 0;
}

void exec_warp_init(WarpExec *w, uint32_t (*regs)[WARP_SIZE], uint32_t nregs, uint32_t warp_in_block,
                    uint32_t block_threads, uint32_t hw_warp)
{
    memset(w, 0, sizeof *w);
    w->r = regs;
    memset(regs, 0, (size_t)nregs * sizeof regs[0]);
    uint32_t first = warp_in_block * WARP_SIZE;
    uint32_t n = block_threads > first ? block_threads - first : 0;
    w->live = n >= WARP_SIZE ? UINT32_MAX : (n ? (1u << n) - 1 : 0);
    w->warp_in_block = warp_in_block;
    w->hw_warp = hw_warp;
    w->stack[0] = (SimtEntry){ 0, ISA_NO_RECONV, w->live };
    w->depth = w->live ? 1 : 0;
}

static inline bool fault(ExecOut *out, FaultKind k, uint32_t lane, uint64_t addr, uint32_t size)
{
    return exec_fault_at(out, k, lane, addr, size);
}

/* A PTX address from a 64-bit register pair (or 64-bit immediate): the
** simulated space is 32-bit, so a nonzero high word after the displacement
** is a fault, never a silent truncation. */
static bool addresses64(const ExecBlock *b, const WarpExec *w, const Operand *o, int32_t disp, uint32_t m, uint32_t width,
                        ExecOut *out)
{
    const uint64_t offset = (uint64_t)(int64_t)disp;
    uint32_t high = 0; /* the active lanes' high words OR-ed (one vector loop), the lane only on a fault */
    if (o->kind == OPND_REG) {
        const uint32_t *lo = w->r[o->index], *hi = w->r[o->index + 1];
        uint32_t mw[WARP_SIZE];
        exec_lanes_from_mask(m, mw);
        for (int l = 0; l < WARP_SIZE; l++) {
            uint64_t a = ((uint64_t)hi[l] << 32 | lo[l]) + offset;
            out->addr[l] = (uint32_t)a;
            high |= (uint32_t)(a >> 32) & mw[l];
        }
    } else {
        uint64_t a = exec_imm64(b->kernel, o) + offset;
        for (int l = 0; l < WARP_SIZE; l++) out->addr[l] = (uint32_t)a;
        high = m ? (uint32_t)(a >> 32) : 0;
    }
    if (!high) return true;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        uint64_t a = exec_lane64(b, w, o, l) + offset;
        if ((m >> l & 1) && (a >> 32)) {
            out->addr[l] = a;
            return fault(out, FAULT_ADDR64, l, a, width);
        }
    }
    return true; /* not reached: some active lane has a high word */
}

/* Per-lane addresses of memory operand o + disp (addr64: o a 64-bit
** register pair or immediate); checks alignment. */
static inline bool addresses_of(const ExecBlock *b, const WarpExec *w, const Operand *o, int32_t disp, bool addr64, uint32_t m,
                                uint32_t width, ExecOut *out)
{
    uint32_t tmp[WARP_SIZE];
    if (addr64) {
        if (!addresses64(b, w, o, disp, m, width, out)) return false;
    } else {
        const uint32_t *base = exec_row(w, o, tmp);
        for (int l = 0; l < WARP_SIZE; l++) out->addr[l] = (uint32_t)(base[l] + (uint32_t)disp);
    }
    if (m == UINT32_MAX) { /* every lane: their low bits in one vector loop, the lane only on a fault */
        uint64_t low_bits = 0;
        for (int l = 0; l < WARP_SIZE; l++) low_bits |= out->addr[l];
        if (!(low_bits & (width - 1))) return true;
    }
    for (int l = 0; l < WARP_SIZE; l++)
        if ((m >> l & 1) && (out->addr[l] & (width - 1)))
            return fault(out, FAULT_MISALIGNED, (uint32_t)l, out->addr[l], width);
    return true;
}

static inline bool addresses(const ExecBlock *b, const WarpExec *w, const Instr *in, uint32_t m, uint32_t width, ExecOut *out)
{
    return addresses_of(b, w, &in->src[0], in->offset, (in->iflags & INSTR_ADDR64) != 0, m, width, out);
}

bool exec_mem_lanes(const ExecBlock *b, const WarpExec *w, const Instr *in, uint32_t m, uint32_t width, ExecOut *out,
                    uint8_t *ptr[WARP_SIZE])
{
    out->width = width;
    return addresses(b, w, in, m, width, out) && exec_map_space(b, w, OP_INFO[in->op].space, m, width, out, ptr, NULL);
}

bool exec_mem_at(const ExecBlock *b, const WarpExec *w, const Operand *o, int32_t disp, bool addr64, MemSpace space, uint32_t m,
                 uint32_t width, ExecOut *out, uint8_t *ptr[WARP_SIZE])
{
    out->width = width;
    return addresses_of(b, w, o, disp, addr64, m, width, out) && exec_map_space(b, w, space, m, width, out, ptr, NULL);
}

static bool push(WarpExec *w, ExecOut *out, uint32_t pc, uint32_t reconv, uint32_t mask)
{
    if (w->depth == SIMT_MAX_DEPTH) return fault(out, FAULT_STACK_OVERFLOW, 0, 0, 0);
    w->stack[w->depth++] = (SimtEntry){ pc, reconv, mask };
    return true;
}

/* Splits the top path at a divergent branch: `taken` lanes go to target,
** the rest fall through; both rejoin at the branch's post-dominator R.
** When the top path already rejoins at R (a loop's back edge diverging
** again), it is replaced instead of stacked, so loops keep the stack flat. */
static bool diverge(WarpExec *w, ExecOut *out, const Instr *in, uint32_t taken)
{
    SimtEntry *top = &w->stack[w->depth - 1];
    uint32_t active = top->mask, R = in->reconv;
    uint32_t fall = out->pc + 1;
    if (top->reconv == R) w->depth--;
    else top->pc = R;
    if (fall != R && !push(w, out, fall, R, active & ~taken)) return false;
    if (in->target != R && !push(w, out, in->target, R, taken)) return false;
    out->diverged = true;
    return true;
}

bool exec_step(const ExecBlock *b, WarpExec *w, ExecOut *out)
{
    SimtEntry *top = &w->stack[w->depth - 1];
    const uint32_t pc = top->pc;
    const Instr *in = &b->kernel->code[pc];
    const uint32_t active = top->mask;
    uint32_t m = active;
    if (in->guard != ISA_NO_GUARD) {
        uint32_t p = w->pred[in->guard];
        m &= in->guard_neg ? ~p : p;
    }
    out->pc = pc;
    out->active = active;
    out->exec_mask = m;
    out->width = 0;
    out->at_barrier = out->barrier_partial = out->diverged = out->yielded = out->exited = out->deferred = false;
    out->fault.kind = FAULT_NONE;
    uint32_t next = pc + 1;
    uint32_t ta[WARP_SIZE], tb[WARP_SIZE], tc[WARP_SIZE];

    switch ((Opcode)in->op) {
    case OP_MOV:
        if (in->src[0].kind == OPND_SPECIAL) {
            SpecialReg sr = (SpecialReg)in->src[0].index;
            uint32_t *D = w->r[in->dst[0].index];
            if (sr == SREG_TID_X || sr == SREG_TID_Y || sr == SREG_TID_Z) {
                /* Divide once for lane 0, then count lanes up with carries. */
                uint32_t lin = w->warp_in_block * WARP_SIZE, nx = b->ntid[0], ny = b->ntid[1];
                uint32_t tid[3] = { lin % nx, lin / nx % ny, lin / (nx * ny) };
                for (int l = 0; l < WARP_SIZE; l++) {
                    if (m >> l & 1) D[l] = tid[sr - SREG_TID_X];
                    if (++tid[0] == nx) {
                        tid[0] = 0;
                        if (++tid[1] == ny) tid[1] = 0, tid[2]++;
                    }
                }
            } else if (sr == SREG_LANEID) {
                for (int l = 0; l < WARP_SIZE; l++)
                    if (m >> l & 1) D[l] = (uint32_t)l;
            } else if (sr >= SREG_LANEMASK_EQ && sr <= SREG_LANEMASK_GE) {
                for (int l = 0; l < WARP_SIZE; l++)
                    if (m >> l & 1) D[l] = special(b, w, sr, l);
            } else { /* the same for every lane */
                fill_lanes(D, special(b, w, sr, 0), m);
            }
        } else {
            LANES1(x);
        }
        break;
    case OP_LD_PARAM:
        for (uint32_t e = 0; e < in->vec; e++) { /* PTX .u64: two words */
            fill_lanes(w->r[in->dst[e].index], b->params[in->src[0].value + e], m);
        }
        break;
    case OP_LD_PARAM_SUB: { /* a byte or half-word at byte offset in->offset */
        uint32_t o = (uint32_t)in->offset, n = type_bytes((ValueType)in->type);
        uint32_t word = b->params[o / 4] >> (8 * (o % 4));
        uint32_t v = n == 1 ? (type_signed((ValueType)in->type) ? (uint32_t)(int32_t)(int8_t)word : (word & 0xff))
                            : (type_signed((ValueType)in->type) ? (uint32_t)(int32_t)(int16_t)word : (word & 0xffff));
        fill_lanes(w->r[in->dst[0].index], v, m);
        break;
    }
    case OP_SELP: {
        uint32_t p = exec_pred(w, &in->src[2]);
        LANES2((p >> l & 1) ? x : y);
        break;
    }
    case OP_ADD_S32:
    case OP_ADD_U32: LANES2(x + y); break;
    case OP_SUB_S32:
    case OP_SUB_U32: LANES2(x - y); break;
    case OP_MUL_LO_S32:
    case OP_MUL_LO_U32: LANES2(x * y); break;
    case OP_MUL_HI_S32: LANES2((uint32_t)((uint64_t)((int64_t)(int32_t)x * (int64_t)(int32_t)y) >> 32)); break;
    case OP_MUL_HI_U32: LANES2((uint32_t)(((uint64_t)x * y) >> 32)); break;
    case OP_MAD_LO_S32:
    case OP_MAD_LO_U32: LANES3(x * y + z); break;
    case OP_DIV_S32: LANES2(div_s32(x, y)); break;
    case OP_DIV_U32: LANES2(y ? x / y : UINT32_MAX); break;
    case OP_REM_S32: LANES2(rem_s32(x, y)); break;
    case OP_REM_U32: LANES2(y ? x % y : x); break;
    case OP_MIN_S32: LANES2((int32_t)x < (int32_t)y ? x : y); break;
    case OP_MIN_U32: LANES2(x < y ? x : y); break;
    case OP_MAX_S32: LANES2((int32_t)x > (int32_t)y ? x : y); break;
    case OP_MAX_U32: LANES2(x > y ? x : y); break;
    case OP_ABS_S32: LANES1((int32_t)x < 0 ? 0u - x : x); break;
    case OP_NEG_S32: LANES1(0u - x); break;
    case OP_AND_B32: LANES2(x & y); break;
    case OP_OR_B32: LANES2(x | y); break;
    case OP_XOR_B32: LANES2(x ^ y); break;
    case OP_NOT_B32: LANES1(~x); break;
    /* a shift by an immediate (the usual index scaling): one count for
    ** every lane, vector code; by a register, a count per lane, which is not */
    case OP_SHL_B32:
        if (in->src[1].kind == OPND_IMM) {
            const uint32_t k = in->src[1].value;
            LANES1(k >= 32 ? 0 : x << k);
        } else {
            LANES2(y >= 32 ? 0 : x << y);
        }
        break;
    case OP_SHR_U32:
        if (in->src[1].kind == OPND_IMM) {
            const uint32_t k = in->src[1].value;
            LANES1(k >= 32 ? 0 : x >> k);
        } else {
            LANES2(y >= 32 ? 0 : x >> y);
        }
        break;
    case OP_SHR_S32:
        if (in->src[1].kind == OPND_IMM) {
            const uint32_t k = in->src[1].value;
            LANES1(shr_s32(x, k));
        } else {
            LANES2(shr_s32(x, y));
        }
        break;
    case OP_POPC_B32: LANES1(bits_popcount(x)); break;
    case OP_CLZ_B32: LANES1(x ? (uint32_t)__builtin_clz(x) : 32u); break;

    case OP_ADD_F32: LANES2(bits_of_f32(bits_f32(x) + bits_f32(y))); break;
    case OP_SUB_F32: LANES2(bits_of_f32(bits_f32(x) - bits_f32(y))); break;
    case OP_MUL_F32: LANES2(bits_of_f32(bits_f32(x) * bits_f32(y))); break;
    case OP_FMA_F32:
    case OP_MAD_F32:
        fma_lanes(w->r[in->dst[0].index], exec_row(w, &in->src[0], ta), exec_row(w, &in->src[1], tb), exec_row(w, &in->src[2], tc), m);
        break;
    case OP_MIN_F32: LANES2(min_f32(x, y)); break;
    case OP_MAX_F32: LANES2(max_f32(x, y)); break;
    case OP_ABS_F32: LANES1(x & 0x7fffffffu); break;
    case OP_NEG_F32: LANES1(x ^ 0x80000000u); break;
    case OP_DIV_F32: LANES2(bits_of_f32(bits_f32(x) / bits_f32(y))); break;
    case OP_RCP_F32: LANES1(bits_of_f32(1.0f / bits_f32(x))); break;
    case OP_SQRT_F32: LANES1(bits_of_f32(sqrtf(bits_f32(x)))); break;
    case OP_RSQRT_F32: LANES1(bits_of_f32(1.0f / sqrtf(bits_f32(x)))); break;
    case OP_EX2_F32: LANES1(bits_of_f32(exp2f(bits_f32(x)))); break;
    case OP_LG2_F32: LANES1(bits_of_f32(log2f(bits_f32(x)))); break;
    case OP_SIN_F32: LANES1(bits_of_f32(sinf(bits_f32(x)))); break;
    case OP_COS_F32: LANES1(bits_of_f32(cosf(bits_f32(x)))); break;

    case OP_CVT_F32_S32: LANES1(bits_of_f32((float)(int32_t)x)); break;
    case OP_CVT_F32_U32: LANES1(bits_of_f32((float)x)); break;
    case OP_CVT_S32_F32: LANES1(f2s(bits_f32(x))); break;
    case OP_CVT_U32_F32: LANES1(f2u(bits_f32(x))); break;
    case OP_CVT_RNI_S32_F32: LANES1(f2s(nearbyintf(bits_f32(x)))); break;

    case OP_SETP_S32: SETP_INT(int32_t); break;
    case OP_SETP_U32: SETP_INT(uint32_t); break;
    case OP_SETP_F32: SETP(cmp_f((CmpOp)in->mod, bits_f32(x), bits_f32(y))); break;
    case OP_AND_PRED:
    case OP_OR_PRED:
    case OP_XOR_PRED: {
        uint32_t q = exec_pred(w, &in->src[0]), r = exec_pred(w, &in->src[1]);
        uint32_t v = in->op == OP_AND_PRED ? q & r : in->op == OP_OR_PRED ? q | r : q ^ r;
        uint32_t *P = &w->pred[in->dst[0].index];
        *P = (*P & ~m) | (v & m);
        break;
    }
    case OP_NOT_PRED: {
        uint32_t v = ~exec_pred(w, &in->src[0]);
        uint32_t *P = &w->pred[in->dst[0].index];
        *P = (*P & ~m) | (v & m);
        break;
    }

    case OP_LD_GLOBAL_SUB:
    case OP_LD_SHARED_SUB:
    case OP_LD_GENERIC_SUB:
    case OP_LD_LOCAL_SUB: {
        uint32_t n = type_bytes((ValueType)in->type), width = n * in->vec;
        bool sign = type_signed((ValueType)in->type);
        uint8_t *ptr[WARP_SIZE];
        out->width = width;
        if (!addresses(b, w, in, m, width, out)) return false;
        if (!exec_map_space(b, w, OP_INFO[in->op].space, m, width, out, ptr, NULL)) return false;
        if (out->deferred) break;
        for (uint32_t e = 0; e < in->vec; e++) {
            uint32_t *D = w->r[in->dst[e].index];
            for (int l = 0; l < WARP_SIZE; l++) {
                if (!(m >> l & 1)) continue;
                const uint8_t *q = ptr[l] + n * e;
                uint32_t v = n == 1 ? q[0] : (uint32_t)q[0] | (uint32_t)q[1] << 8;
                if (sign) v = n == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
                D[l] = v;
            }
        }
        break;
    }
    case OP_ST_GLOBAL_SUB:
    case OP_ST_SHARED_SUB:
    case OP_ST_GENERIC_SUB:
    case OP_ST_LOCAL_SUB: {
        uint32_t n = type_bytes((ValueType)in->type), width = n * in->vec;
        uint8_t *ptr[WARP_SIZE];
        out->width = width;
        if (!addresses(b, w, in, m, width, out)) return false;
        if (!exec_map_space(b, w, OP_INFO[in->op].space, m, width, out, ptr, NULL)) return false;
        uint32_t tv[WARP_SIZE];
        for (uint32_t e = 0; e < in->vec; e++) {
            const uint32_t *S = exec_row(w, &in->src[1 + e], tv);
            if (out->deferred) {
                memcpy(out->data[e], S, sizeof out->data[e]);
                continue;
            }
            for (int l = 0; l < WARP_SIZE; l++)
                if (m >> l & 1) {
                    ptr[l][n * e] = (uint8_t)S[l];
                    if (n == 2) ptr[l][n * e + 1] = (uint8_t)(S[l] >> 8);
                }
        }
        break;
    }
    case OP_LD_GLOBAL:
    case OP_LD_SHARED:
    case OP_LD_GENERIC:
    case OP_LD_LOCAL: {
        uint32_t width = 4u * in->vec;
        uint8_t *ptr[WARP_SIZE];
        out->width = width;
        if (!addresses(b, w, in, m, width, out)) return false;
        bool whole;
        if (!exec_map_space(b, w, OP_INFO[in->op].space, m, width, out, ptr, &whole)) return false;
        if (out->deferred) break;
        if (whole) { /* the coalesced case: rows copied whole */
            for (uint32_t e = 0; e < in->vec; e++) {
                uint32_t *D = w->r[in->dst[e].index];
                if (in->vec == 1) memcpy(D, ptr[0], WARP_SIZE * 4);
                else
                    for (int l = 0; l < WARP_SIZE; l++) memcpy(&D[l], ptr[0] + (size_t)l * width + 4 * e, 4);
            }
            break;
        }
        for (uint32_t e = 0; e < in->vec; e++) {
            uint32_t *D = w->r[in->dst[e].index];
            if (m == UINT32_MAX) /* every lane: no mask tests */
                for (int l = 0; l < WARP_SIZE; l++) memcpy(&D[l], ptr[l] + 4 * e, 4);
            else
                for (int l = 0; l < WARP_SIZE; l++)
                    if (m >> l & 1) memcpy(&D[l], ptr[l] + 4 * e, 4);
        }
        break;
    }
    case OP_ST_GLOBAL:
    case OP_ST_SHARED:
    case OP_ST_GENERIC:
    case OP_ST_LOCAL: {
        uint32_t width = 4u * in->vec;
        uint8_t *ptr[WARP_SIZE];
        out->width = width;
        if (!addresses(b, w, in, m, width, out)) return false;
        bool whole;
        if (!exec_map_space(b, w, OP_INFO[in->op].space, m, width, out, ptr, &whole)) return false;
        uint32_t tv[WARP_SIZE];
        whole = whole && !out->deferred; /* no two lanes meet */
        for (uint32_t e = 0; e < in->vec; e++) {
            const uint32_t *S = exec_row(w, &in->src[1 + e], tv);
            if (out->deferred) {
                memcpy(out->data[e], S, sizeof out->data[e]);
                continue;
            }
            if (whole && in->vec == 1) memcpy(ptr[0], S, WARP_SIZE * 4);
            else if (whole)
                for (int l = 0; l < WARP_SIZE; l++) memcpy(ptr[0] + (size_t)l * width + 4 * e, &S[l], 4);
            else
                for (int l = 0; l < WARP_SIZE; l++) /* lane order: the highest lane wins a same-address race */
                    if (m >> l & 1) memcpy(ptr[l] + 4 * e, &S[l], 4);
        }
        break;
    }
    case OP_ATOM_GLOBAL_U32:
    case OP_ATOM_GLOBAL_S32:
    case OP_ATOM_GLOBAL_F32:
    case OP_ATOM_SHARED_U32:
    case OP_ATOM_SHARED_S32:
    case OP_ATOM_SHARED_F32:
    case OP_ATOM_GENERIC_U32:
    case OP_ATOM_GENERIC_S32:
    case OP_ATOM_GENERIC_F32:
    case OP_ATOM_GLOBAL_U64:
    case OP_ATOM_SHARED_U64:
    case OP_ATOM_GENERIC_U64:
    case OP_ATOM_GLOBAL_HALF:
    case OP_ATOM_SHARED_HALF:
    case OP_ATOM_GENERIC_HALF:
        if (!exec_atomic(b, w, in, m, out)) return false;
        break;

    case OP_SHFL: {
        const uint32_t *A = exec_row(w, &in->src[0], ta);
        const uint32_t *B = exec_row(w, &in->src[1], tb);
        const uint32_t *C = exec_row(w, &in->src[2], tc);
        uint32_t v[WARP_SIZE], inside = 0;
        for (int l = 0; l < WARP_SIZE; l++) {
            /* PTX shfl: c packs the clamp (bits 0-4) and segment mask (8-12). */
            uint32_t lane = (uint32_t)l, bval = B[l] & 31, clamp = C[l] & 31, seg = (C[l] >> 8) & 31;
            uint32_t max_lane = (lane & seg) | (clamp & ~seg), min_lane = lane & seg, j = lane;
            bool ok;
            switch ((ShflMode)in->mod) {
            case SHFL_UP: j = lane - bval; ok = (int32_t)j >= (int32_t)max_lane; break;
            case SHFL_DOWN: j = lane + bval; ok = j <= max_lane; break;
            case SHFL_BFLY: j = lane ^ bval; ok = j <= max_lane; break;
            default: j = min_lane | (bval & ~seg); ok = j <= max_lane; break;
            }
            v[l] = A[ok ? j : lane];
            inside |= (uint32_t)ok << l;
        }
        uint32_t *D = w->r[in->dst[0].index];
        for (int l = 0; l < WARP_SIZE; l++) D[l] = (m >> l & 1) ? v[l] : D[l];
        if (in->ndst == 2) { /* PTX's d|p: whether the source lane was inside the segment */
            uint32_t *P = &w->pred[in->dst[1].index];
            *P = (*P & ~m) | (inside & m);
        }
        break;
    }
    case OP_VOTE_BALLOT: { /* PTX: each lane's ballot holds the lanes of its member mask alone */
        uint32_t ballot = exec_pred(w, &in->src[0]) & m;
        uint32_t *D = w->r[in->dst[0].index];
        const Operand *mask = &in->src[1];
        for (int l = 0; l < WARP_SIZE; l++)
            if (m >> l & 1)
                D[l] = ballot & (in->nsrc < 2 ? UINT32_MAX : mask->kind == OPND_REG ? w->r[mask->index][l] : mask->value);
        break;
    }

    case OP_BRA:
    case OP_BRA_UNI:
        if (m == active) {
            next = in->target;
        } else if (m != 0) {
            if (in->op == OP_BRA_UNI) return fault(out, FAULT_UNIFORM_DIVERGED, (uint32_t)__builtin_ctz(m), 0, 0);
            if (!diverge(w, out, in, m)) return false;
            goto settle;
        }
        break;
    case OP_BAR_RED:
        exec_bar_red(w, in, m);
        __attribute__((fallthrough)); /* it is a barrier too */
    case OP_BAR_SYNC:
    case OP_BAR_ARRIVE:
        if (!exec_barrier_at(b, w, in, active, out)) return false;
        if (!out->at_barrier) goto settle; /* the path beside it goes first (exec_barrier.c) */
        break;
    case OP_EXIT:
        w->live &= ~m;
        for (uint32_t i = 0; i < w->depth; i++) w->stack[i].mask &= ~m;
        break;

    /* the rows isa/exec_ptx.c executes (PTXALU in opcodes.def) */
#define OP(name, ...)
#define PTXALU(name, ...) case OP_##name:
#include "isa/opcodes.def"
#undef PTXALU
#undef OP
        exec_ptx_alu(b, w, in, m);
        break;
    case OP_NANOSLEEP: { /* the warp sleeps as long as its longest-sleeping lane */
        const uint32_t *a = exec_row(w, &in->src[0], ta);
        out->sleep_ns = 0;
        for (int l = 0; l < WARP_SIZE; l++) if ((m >> l & 1) && a[l] > out->sleep_ns) out->sleep_ns = a[l];
        break;
    }
    case OP_TRAP:
    case OP_ASSERTFAIL:
        if (!exec_trap(w, in, m, out)) return false;
        break;
    case OP_MALLOC:
    case OP_FREE:
        if (!exec_heap(b, w, in, m, out)) return false;
        break;
    case OP_CP_ASYNC: case OP_CP_ASYNC_MBAR: case OP_CP_ASYNC_BULK: /* isa/exec_async.c */
    case OP_MBAR_INIT: case OP_MBAR_ARRIVE: case OP_MBAR_TEST: case OP_MBAR_TX: case OP_MBAR_INVAL: case OP_MBAR_PENDING:
        if (!exec_async(b, w, in, m, out)) return false;
        break;
    case OP_TEX: /* isa/exec_tex.c */
        if (!exec_texture(b, w, in, m, out)) return false;
        break;
    case OP_SURF_ADDR:
        if (!exec_surface_address(b, w, in, m, out)) return false;
        break;
    case OP_CP_ASYNC_COMMIT: case OP_CP_ASYNC_WAIT: /* groups are timing (sim/async.c): the copies are done */
    case OP_MEMBAR: case OP_GRIDDEP: case OP_L2_HINT: /* ordering and hints */
    case OP_BAR_WARP: case OP_PREFETCH: case OP_COUNT:
        break;
    }
    top->pc = next;

settle:
    /* Pop paths that are empty (all lanes exited) or have reached the point
    ** where they rejoin the path below. */
    while (w->depth) {
        SimtEntry *t = &w->stack[w->depth - 1];
        if (t->mask != 0 && t->pc != t->reconv) break;
        w->depth--;
    }
    out->exited = w->depth == 0;
    return true;
}
