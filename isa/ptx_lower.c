/* isa/ptx_lower.c -- what ptxas does to a PTX kernel that changes its
** timing, as far as gpusim emulates it: the folds of instructions into
** others' operands (mul.wide into the add.s64 that takes it: one
** IMAD.WIDE; a constant add into the displacement of the loads and stores
** that use it; a constant shl.b64 into the add.s64 after it, as LEA does),
** a branch to the kernel's ret made an exit (@P0 EXIT), and loads hoisted
** within their basic block as its scheduler issues them.
** Sources: the twins' SASS on an H200 (sim/presets/SOURCES.md, "PTX
** lowering"). Left out: loop unrolling, other scheduling, register
** allocation (docs/PTX.md). Linear in the kernel's length. */
#include "isa/ptx_int.h"

#include <stdlib.h>
#include <string.h>


/* Virtual registers an instruction reads (sources and guard) or writes. */
static bool touches(const Instr *in, uint32_t guard, uint32_t v, bool writes)
{
    if (writes) {
        for (uint32_t j = 0; j < in->ndst; j++)
            if ((in->dst[j].kind == OPND_REG || in->dst[j].kind == OPND_PRED) && in->dst[j].index == v) return true;
        return false;
    }
    for (uint32_t j = 0; j < in->nsrc; j++)
        if ((in->src[j].kind == OPND_REG || in->src[j].kind == OPND_PRED) && in->src[j].index == v) return true;
    return guard == v;
}

/* Whether load L (guard gl) may move above instruction I (guard gi). */
static bool can_pass(const Instr *L, uint32_t gl, const Instr *I, uint32_t gi)
{
    uint32_t f = OP_INFO[I->op].flags;
    if (f & (OPF_LOAD | OPF_STORE | OPF_ATOM | OPF_BARRIER | OPF_BRANCH | OPF_EXIT | OPF_ORDERED)) return false;
    for (uint32_t j = 0; j < I->ndst; j++) /* I writes what L reads or writes */
        if ((I->dst[j].kind == OPND_REG || I->dst[j].kind == OPND_PRED) &&
            (touches(L, gl, I->dst[j].index, false) || touches(L, gl, I->dst[j].index, true)))
            return false;
    for (uint32_t j = 0; j < L->ndst; j++) /* I reads what L writes */
        if (touches(I, gi, L->dst[j].index, false)) return false;
    return true;
}

/* ptxas's scheduler issues a basic block's loads early, so that several
** are in flight before their values are used; PTX from nvcc often writes
** each load next to its use. Each load moves up within its block past at
** most PTX_HOIST_WINDOW instructions that neither feed it nor use what it
** writes, never past a store, atomic, barrier, branch, exit, fence,
** shuffle or another load (memory order and load order are kept). */
#define PTX_HOIST_WINDOW 48
static void hoist_loads(Ptx *P)
{
    Kernel *k = P->k;
    uint8_t *start = calloc(k->ncode + 1, 1); /* block starts: labels */
    if (!start) return;
    for (uint32_t i = 0; i < k->nlabels; i++)
        if (k->labels[i].pc <= k->ncode) start[k->labels[i].pc] = 1;
    for (uint32_t i = 1; i < k->ncode; i++) {
        const Instr *L = &k->code[i];
        uint32_t f = OP_INFO[L->op].flags;
        if (!(f & OPF_LOAD) || (f & OPF_ATOM) || L->op == OP_LD_PARAM || L->op == OP_LD_PARAM_SUB) continue;
        uint32_t j = i;
        while (j > 0 && i - j < PTX_HOIST_WINDOW && !start[j] &&
               can_pass(L, P->guard_v[i], &k->code[j - 1], P->guard_v[j - 1]))
            j--;
        if (j == i) continue;
        Instr moved = *L;
        uint32_t g = P->guard_v[i];
        memmove(&k->code[j + 1], &k->code[j], (size_t)(i - j) * sizeof *k->code);
        memmove(&P->guard_v[j + 1], &P->guard_v[j], (size_t)(i - j) * sizeof *P->guard_v);
        k->code[j] = moved;
        P->guard_v[j] = g;
    }
    free(start);
}

/* A constant source: an immediate, or a register whose one unguarded
** definition moves an immediate (a .shared variable's address). */
static bool is_const(const Kernel *k, const uint32_t *def, const Operand *o)
{
    if (o->kind == OPND_IMM) return true;
    if (o->kind != OPND_REG || o->neg) return false;
    uint32_t d = def[o->index];
    if (d >= k->ncode) return false;
    const Instr *m = &k->code[d];
    return m->op == OP_MOV && m->src[0].kind == OPND_IMM;
}

/* `@%p bra L; ... L: ret;` (every `if (i >= n) return;`, every
** `if (i < n) { ... }`) is `@P0 EXIT` in SASS: the lanes leave at the branch
** instead of waiting at L for the others. Besides the instruction it saves,
** lanes that left no longer hold a barrier the others reach meanwhile. */
static void branches_to_exit(Ptx *P)
{
    Kernel *k = P->k;
    for (uint32_t i = 0; i < k->ncode; i++) {
        Instr *in = &k->code[i];
        if (in->op != OP_BRA && in->op != OP_BRA_UNI) continue;
        const Instr *t = &k->code[in->target];
        if (t->op != OP_EXIT || P->guard_v[in->target] != UINT32_MAX) continue;
        Instr e = *t;
        e.guard = in->guard, e.guard_neg = in->guard_neg;
        ptx_copy_place(&e, in);
        *in = e;
    }
}

/* Marks each instruction's first register source whose value is only ever
** a kernel parameter (every write of its virtual register a folded
** ld.param): ptxas makes that ld.param the instruction's one constant-bank
** operand, so the register file does not read it (sim/sched.c). Per value,
** before values share register rows. */
static void param_sources(Ptx *P)
{
    Kernel *k = P->k;
    uint8_t *state = calloc(P->nv ? P->nv : 1, 1); /* 0 never written, 1 parameters only, 2 else */
    if (!state) return; /* only the read ports' timing: without memory, every source is read */
    for (uint32_t i = 0; i < k->ncode; i++) {
        const Instr *in = &k->code[i];
        bool param = (in->op == OP_LD_PARAM || in->op == OP_LD_PARAM_SUB) && !in->slots;
        for (uint32_t j = 0; j < in->ndst; j++)
            if (in->dst[j].kind == OPND_REG) state[in->dst[j].index] = param && state[in->dst[j].index] != 2 ? 1 : 2;
    }
    for (uint32_t i = 0; i < k->ncode; i++) {
        Instr *in = &k->code[i];
        if (OP_INFO[in->op].space != SPACE_NONE) continue; /* an address is read */
        for (uint32_t j = 0; j < in->nsrc; j++)
            if (in->src[j].kind == OPND_REG && state[in->src[j].index] == 1) {
                in->iflags |= (uint8_t)((j + 1) << INSTR_PARAM_SRC_SHIFT);
                break;
            }
    }
    free(state);
}

void ptx_lower_peepholes(Ptx *P)
{
    branches_to_exit(P);
    hoist_loads(P);
    param_sources(P);
    Kernel *k = P->k;
    uint32_t nv = P->nv;
    /* per virtual register: defining instruction (UINT32_MAX: none, or
    ** several), uses, and whether every use is of the kind the fold needs */
    uint32_t *def = malloc(((size_t)nv * 3 + 1) * sizeof(uint32_t));
    if (!def) return; /* the folds only change timing: without memory, none */
    uint32_t *uses = def + nv, *ok_uses = uses + nv;
    for (uint32_t v = 0; v < nv; v++) def[v] = UINT32_MAX - 1, uses[v] = 0, ok_uses[v] = 0;
    for (uint32_t i = 0; i < k->ncode; i++) {
        const Instr *in = &k->code[i];
        for (uint32_t j = 0; j < in->ndst; j++)
            if (in->dst[j].kind == OPND_REG && !in->dst[j].neg) {
                uint32_t v = in->dst[j].index;
                def[v] = def[v] == UINT32_MAX - 1 && P->guard_v[i] == UINT32_MAX ? i : UINT32_MAX;
            }
        for (uint32_t j = 0; j < in->nsrc; j++) {
            if (in->src[j].kind != OPND_REG) continue;
            uint32_t v = in->src[j].index;
            uses[v]++;
            bool add = in->op == OP_ADD_S64;
            bool addr = j == 0 && (OP_INFO[in->op].flags & (OPF_LOAD | OPF_STORE)) && !(OP_INFO[in->op].flags & OPF_ATOM) &&
                        in->op != OP_LD_PARAM && in->op != OP_LD_PARAM_SUB;
            ok_uses[v] += add ? 1u : addr ? 0x10000u : 0u;
        }
    }
    uint8_t *folded = calloc(nv ? nv : 1, 1);
    if (!folded) {
        free(def);
        return;
    }
    for (uint32_t i = 0; i < k->ncode; i++) {
        Instr *in = &k->code[i];
        if (in->ndst != 1 || in->dst[0].kind != OPND_REG) continue;
        uint32_t v = in->dst[0].index;
        if (def[v] != i || !uses[v]) continue;
        uint32_t adds = ok_uses[v] & 0xffff, addrs = ok_uses[v] >> 16;
        if ((in->op == OP_MUL_WIDE_U32 || in->op == OP_MUL_WIDE_S32) && adds == uses[v]) {
            in->slots = 0; /* each add.s64 that takes it is one IMAD.WIDE */
            folded[v] = 1;
        } else if (in->op == OP_SHL_B64 && in->src[1].kind == OPND_IMM && adds == uses[v]) {
            in->slots = 0; /* LEA + LEA.HI.X: the add.s64 after it does the shift */
        } else if (in->op == OP_ADD_S64 && addrs == uses[v] && in->src[1].kind == OPND_IMM &&
                   in->src[1].index < k->nconsts && (int64_t)k->consts[in->src[1].index] >= -(1 << 23) &&
                   (int64_t)k->consts[in->src[1].index] < (1 << 23)) {
            in->slots = 0; /* the displacement of [R.64+imm] */
        } else if ((in->op == OP_ADD_S32 || in->op == OP_ADD_U32) && addrs == uses[v] &&
                   (is_const(k, def, &in->src[0]) || is_const(k, def, &in->src[1]))) {
            in->slots = 0; /* [R+imm]: a constant (a .shared variable's address) added to an address */
        }
    }
    for (uint32_t i = 0; i < k->ncode; i++) {
        Instr *a = &k->code[i];
        if (a->op != OP_ADD_S64) continue;
        for (int j = 0; j < 2; j++)
            if (a->src[j].kind == OPND_REG && !a->src[j].neg && folded[a->src[j].index])
                a->slots = 1, a->lunit = a->llat = UNIT_FMA;
    }
    free(folded);
    free(def);
}

