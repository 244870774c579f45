/* isa/ptx_decode.c -- one PTX instruction -> one (or two) Instr on rows of
** isa/opcodes.def, with the operand widths the row's `wide` column says and
** the SASS cost its `lower` column says (the kernel-wide folds and the load
** hoisting are isa/ptx_lower.c).
** Sources: the PTX ISA manual (each instruction's syntax and semantics) and
** the SASS of the CUDA twins on an H200 (validate/results/h200/sass.txt)
** for what ptxas makes of them (sim/presets/SOURCES.md, "PTX lowering").
** What is not decoded is an error at the opcode: "'X' is not supported yet". */
#include "isa/ptx_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- building */

static bool unsupported(Ptx *P, const Tok *t)
{
    char q[80];
    return ptx_fail(P, t, "'%s' is not supported yet by the PTX front end (docs/PTX.md lists what is)", ptx_quote(t, q, sizeof q));
}

static const char *cls_name(uint8_t c)
{
    return c == VREG_32 ? "a 32-bit register" : c == VREG_64 ? "a 64-bit register" : "a predicate";
}

/* Register operand of class want (VREG_32 also accepts the 16-bit ones). */
static bool want_reg(Ptx *P, const POp *o, uint8_t want, Operand *out, const char *what)
{
    char q[80];
    if (o->kind != PO_REG)
        return ptx_fail(P, &o->tok, "expected %s as %s, found '%s'", cls_name(want), what, ptx_quote(&o->tok, q, sizeof q));
    if (o->cls != want)
        return ptx_fail(P, &o->tok, "wrong operand type: expected %s as %s, found '%s' (%s)", cls_name(want), what,
                        ptx_quote(&o->tok, q, sizeof q), cls_name(o->cls));
    memset(out, 0, sizeof *out);
    out->kind = want == VREG_PRED ? OPND_PRED : OPND_REG;
    out->index = (uint16_t)o->v;
    out->neg = want == VREG_PRED ? o->neg : 0;
    return true;
}

static uint16_t pool(Ptx *P, uint64_t v)
{
    Kernel *k = P->k;
    for (uint32_t i = k->nconsts > 8 ? k->nconsts - 8 : 0; i < k->nconsts; i++) /* nearby repeats */
        if (k->consts[i] == v) return (uint16_t)i;
    uint32_t cap = k->nconsts; /* grown geometrically: capacity is the next power of two */
    uint32_t c2 = 1;
    while (c2 < cap) c2 *= 2;
    if (k->nconsts >= 0xffff) return 0xffff;
    if (k->nconsts == c2 || !k->consts) {
        uint64_t *n = realloc(k->consts, (size_t)(c2 ? c2 * 2 : 8) * sizeof *n);
        if (!n) return 0xffff;
        k->consts = n;
    }
    k->consts[k->nconsts] = v;
    return (uint16_t)k->nconsts++;
}

/* Source operand in the width and kind the row reads. */
static bool want_src(Ptx *P, const POp *o, bool w64, bool is_float, Operand *out, const char *what)
{
    char q[80];
    memset(out, 0, sizeof *out);
    if (o->kind == PO_REG) return want_reg(P, o, w64 ? VREG_64 : VREG_32, out, what);
    if (o->kind == PO_WORD && o->sym) { /* the address of a .shared variable */
        out->kind = OPND_IMM;
        out->value = o->sym->offset;
        if (w64) out->index = pool(P, o->sym->offset);
        return true;
    }
    if (o->kind != PO_IMM)
        return ptx_fail(P, &o->tok, "expected a register or a number as %s, found '%s'", what, ptx_quote(&o->tok, q, sizeof q));
    out->kind = OPND_IMM;
    if (is_float) {
        float f = (float)(o->is_float ? o->fval : (double)o->ival);
        memcpy(&out->value, &f, 4);
        return true;
    }
    if (o->is_float)
        return ptx_fail(P, &o->tok, "float literal '%s' given to an integer operand (%s); expected an integer",
                        ptx_quote(&o->tok, q, sizeof q), what);
    if (w64) {
        out->value = (uint32_t)o->ival;
        out->index = pool(P, (uint64_t)o->ival);
        if (out->index == 0xffff) return ptx_fail(P, &o->tok, "too many 64-bit constants in one kernel");
        return true;
    }
    if (o->ival < INT32_MIN || o->ival > (int64_t)UINT32_MAX)
        return ptx_fail(P, &o->tok, "integer %lld does not fit in 32 bits", (long long)o->ival);
    out->value = (uint32_t)o->ival;
    return true;
}

static bool nops(Ptx *P, const Tok *op, uint32_t have, uint32_t lo, uint32_t hi)
{
    char q[80];
    if (have < lo || have > hi) {
        if (lo == hi)
            return ptx_fail(P, op, "'%s' takes %u operands, found %u", ptx_quote(op, q, sizeof q), lo, have);
        return ptx_fail(P, op, "'%s' takes %u to %u operands, found %u", ptx_quote(op, q, sizeof q), lo, hi, have);
    }
    return true;
}

/* Appends in (guarded by virtual predicate g, or UINT32_MAX). */
static bool emit(Ptx *P, Instr *in, uint32_t g)
{
    Kernel *k = P->k;
    if (!ptx_grow(P, (void **)&k->code, &P->code_cap, k->ncode + 1, sizeof *in)) return false;
    if (!ptx_grow(P, (void **)&P->guard_v, &P->guard_cap, k->ncode + 1, sizeof *P->guard_v)) return false;
    const OpInfo *info = &OP_INFO[in->op];
    if (!in->lunit && !in->llat && !in->slots) { /* from the table, unless the decoder set it */
        in->slots = info->lower.slots;
        in->lunit = info->lower.unit;
        in->llat = info->lower.latency;
    }
    P->guard_v[k->ncode] = g;
    k->code[k->ncode++] = *in;
    return true;
}

/* Generic register instruction: dst then sources in the widths of the row. */
static bool reg_form(Ptx *P, const Tok *opt, Opcode op, const POp *ops, uint32_t n, Instr *in)
{
    const OpInfo *info = &OP_INFO[op];
    bool fl = info->type == TYPE_F32 || (ValueType)in->type == TYPE_F32;
    in->op = (uint8_t)op;
    uint32_t need = info->format == FMT_DA ? 2 : info->format == FMT_DAB ? 3 : info->format == FMT_DABC ? 4 : 5;
    if (!nops(P, opt, n, need, need)) return false;
    in->ndst = 1;
    in->nsrc = (uint8_t)(need - 1);
    if (!want_reg(P, &ops[0], (info->wide & W_D) ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    static const uint32_t wb[] = { W_A, W_B, W_C, 0 };
    static const char *const what[] = { "the first source", "the second source", "the third source", "the fourth source" };
    for (uint32_t i = 1; i < need; i++)
        if (!want_src(P, &ops[i], (info->wide & wb[i - 1]) != 0, fl, &in->src[i - 1], what[i - 1])) return false;
    return true;
}

static bool add_ref(Ptx *P, const POp *o, uint32_t instr)
{
    char q[80];
    if (o->kind != PO_WORD || o->tok.len >= ISA_MAX_NAME)
        return ptx_fail(P, &o->tok, "expected a label, found '%s'", ptx_quote(&o->tok, q, sizeof q));
    if (!ptx_grow(P, (void **)&P->refs, &P->refs_cap, P->nrefs + 1, sizeof *P->refs)) return false;
    PtxRef *r = &P->refs[P->nrefs++];
    r->instr = instr;
    ptx_text(&o->tok, r->name, sizeof r->name);
    r->line = o->tok.line;
    r->col = o->tok.col;
    return true;
}

/* The memory operand into src[0] + offset, for an access of `space`. */
static bool mem_operand(Ptx *P, const POp *o, MemSpace space, Instr *in)
{
    char q[80];
    if (o->kind != PO_MEM) return ptx_fail(P, &o->tok, "expected an address [..], found '%s'", ptx_quote(&o->tok, q, sizeof q));
    if (o->param >= 0) return ptx_fail(P, &o->tok, "a parameter is read with ld.param, not as an address of this space");
    memset(&in->src[0], 0, sizeof in->src[0]);
    int64_t disp = o->disp;
    if (o->sym) {
        if (space != SPACE_SHARED && space != SPACE_GENERIC)
            return ptx_fail(P, &o->tok, "'%s' is a .shared variable: use ld.shared / st.shared", o->sym->name);
        disp += o->sym->offset + (space == SPACE_GENERIC ? (int64_t)ISA_SHARED_WINDOW : 0);
    }
    if (o->has_reg) {
        in->src[0].kind = OPND_REG;
        in->src[0].index = (uint16_t)o->v;
        if (o->cls == VREG_64) in->iflags |= INSTR_ADDR64;
        if (disp < INT32_MIN || disp > INT32_MAX) return ptx_fail(P, &o->tok, "address displacement out of range");
        in->offset = (int32_t)disp;
    } else {
        if (disp < 0 || disp > (int64_t)UINT32_MAX) return ptx_fail(P, &o->tok, "address out of the 32-bit space");
        in->src[0].kind = OPND_IMM;
        in->src[0].value = (uint32_t)disp;
    }
    return true;
}

static ValueType last_type(const Mods *m) { return m->ntypes ? m->types[m->ntypes - 1] : TYPE_NONE; }

static bool is32(ValueType t) { return t == TYPE_B32 || t == TYPE_U32 || t == TYPE_S32 || t == TYPE_F32; }
static bool is64(ValueType t) { return t == TYPE_B64 || t == TYPE_U64 || t == TYPE_S64; }
static bool issub(ValueType t) { return type_bytes(t) == 1 || type_bytes(t) == 2; }

/* ld / st / ldu of every space. */
static bool decode_ldst(Ptx *P, const Tok *opt, bool store, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char q[80];
    ValueType t = last_type(m);
    if (m->f16 || m->f64 || m->space == -2 || m->space == -3 || !t || m->ntypes != 1) return unsupported(P, opt);
    if (!nops(P, opt, n, 2, 2)) return false;
    const POp *addr = &ops[store ? 0 : 1], *val = &ops[store ? 1 : 0];
    MemSpace space = m->space < 0 ? SPACE_GENERIC : (MemSpace)m->space;
    uint32_t words = is64(t) ? 2 : 1; /* a 64-bit element is two 32-bit words in a register pair */
    in->type = (uint8_t)(is64(t) ? TYPE_B32 : t);
    if (space == SPACE_PARAM) {
        if (store) return unsupported(P, opt);
        if (addr->kind != PO_MEM || addr->param < 0 || addr->has_reg)
            return ptx_fail(P, &addr->tok, "expected [parameter] after ld.param, found '%s'", ptx_quote(&addr->tok, q, sizeof q));
        if (m->vec > 1) return unsupported(P, opt);
        const KernelParam *kp = &P->k->params[addr->param];
        int64_t off = (int64_t)kp->offset + addr->disp;
        if (off < 0 || off + type_bytes(t) > P->k->param_bytes)
            return ptx_fail(P, &addr->tok, "read of %u bytes at offset %lld is outside the parameters (%u bytes)", type_bytes(t),
                            (long long)off, P->k->param_bytes);
        uint8_t want = words == 2 ? VREG_64 : VREG_32;
        if (issub(t)) {
            in->op = OP_LD_PARAM_SUB;
            in->offset = (int32_t)off;
        } else {
            if (off % 4) return ptx_fail(P, &addr->tok, "parameter read at offset %lld is not 4-byte aligned", (long long)off);
            in->op = OP_LD_PARAM;
            in->vec = (uint8_t)words;
        }
        in->ndst = in->op == OP_LD_PARAM ? (uint8_t)words : 1;
        in->nsrc = 1;
        in->src[0].kind = OPND_IMM;
        in->src[0].value = (uint32_t)(off / 4);
        if (!want_reg(P, val, want, &in->dst[0], "the destination")) return false;
        if (words == 2) {
            in->dst[1] = in->dst[0];
            in->dst[1].neg = 1; /* the high word */
        }
        return emit(P, in, g);
    }
    if (m->vec * words > 4) return unsupported(P, opt);
    if (issub(t) && space == SPACE_GENERIC) return unsupported(P, opt);
    in->op = (uint8_t)(issub(t) ? (space == SPACE_GLOBAL ? (store ? OP_ST_GLOBAL_SUB : OP_LD_GLOBAL_SUB)
                                                           : (store ? OP_ST_SHARED_SUB : OP_LD_SHARED_SUB))
                       : space == SPACE_GLOBAL ? (store ? OP_ST_GLOBAL : OP_LD_GLOBAL)
                       : space == SPACE_SHARED ? (store ? OP_ST_SHARED : OP_LD_SHARED)
                                               : (store ? OP_ST_GENERIC : OP_LD_GENERIC));
    in->vec = (uint8_t)(m->vec * words);
    if (!mem_operand(P, addr, space, in)) return false;
    /* the values: one register, or a vector of them */
    uint32_t nel = m->vec;
    if ((val->kind == PO_VEC) != (m->vec > 1) || (val->kind == PO_VEC && val->nelem != m->vec))
        return ptx_fail(P, &val->tok, "'%s' moves %u element(s): expected %s", ptx_quote(opt, q, sizeof q), m->vec,
                        m->vec > 1 ? "a vector {..} of that many" : "one register");
    bool fl = t == TYPE_F32;
    for (uint32_t e = 0; e < nel; e++) {
        POp one;
        memset(&one, 0, sizeof one);
        if (val->kind == PO_VEC) {
            one.tok = val->etok[e];
            if (val->eimm[e]) {
                one.kind = PO_IMM;
                one.ival = val->eival[e];
                one.is_float = val->efloat[e];
                one.fval = val->efval[e];
            } else {
                one.kind = PO_REG;
                one.v = val->ev[e];
                one.cls = val->ecls[e];
            }
        } else {
            one = *val;
        }
        Operand *slot = store ? &in->src[1 + e * words] : &in->dst[e * words];
        if (store) {
            if (!want_src(P, &one, words == 2, fl, slot, "the value to store")) return false;
            if (words == 2 && slot->kind == OPND_IMM) { /* a 64-bit constant: its two words */
                uint64_t c = P->k->consts[slot->index];
                slot[0] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)c };
                slot[1] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)(c >> 32) };
                continue;
            }
        } else if (!want_reg(P, &one, words == 2 ? VREG_64 : VREG_32, slot, "the destination")) {
            return false;
        }
        if (words == 2) {
            slot[1] = slot[0];
            slot[1].neg = 1;
        }
    }
    in->ndst = store ? 0 : (uint8_t)(nel * words);
    in->nsrc = store ? (uint8_t)(1 + nel * words) : 1;
    return emit(P, in, g);
}

/* atom / red on global or shared memory. */
static bool decode_atom(Ptx *P, const Tok *opt, bool red, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    ValueType t = last_type(m);
    if (m->f16 || m->f64 || m->atom < 0 || m->ntypes != 1 || m->vec > 1) return unsupported(P, opt);
    if (m->space != SPACE_GLOBAL && m->space != SPACE_SHARED) return unsupported(P, opt); /* generic atomics */
    bool glob = m->space == SPACE_GLOBAL;
    AtomOp op = (AtomOp)m->atom;
    uint32_t allowed;
    Opcode row;
    if (t == TYPE_F32) row = glob ? OP_ATOM_GLOBAL_F32 : OP_ATOM_SHARED_F32, allowed = ATOM_BIT(ADD) | ATOM_BIT(EXCH);
    else if (t == TYPE_S32) row = glob ? OP_ATOM_GLOBAL_S32 : OP_ATOM_SHARED_S32, allowed = ATOM_BIT(ADD) | ATOM_BIT(MIN) | ATOM_BIT(MAX);
    else if (is32(t)) row = glob ? OP_ATOM_GLOBAL_U32 : OP_ATOM_SHARED_U32, allowed = ATOMS_PTX;
    else if (is64(t)) row = glob ? OP_ATOM_GLOBAL_U64 : OP_ATOM_SHARED_U64, allowed = OP_INFO[OP_ATOM_GLOBAL_U64].atoms;
    else return unsupported(P, opt);
    if (t == TYPE_S64 && op != ATOM_ADD && op != ATOM_MIN && op != ATOM_MAX) return unsupported(P, opt);
    if (!(allowed >> op & 1)) return unsupported(P, opt);
    bool w64 = is64(t);
    uint32_t need = (red ? 2 : 3) + (op == ATOM_CAS);
    if (!nops(P, opt, n, need, need)) return false;
    in->op = (uint8_t)row;
    in->mod = (uint8_t)op;
    in->type = (uint8_t)t;
    in->ndst = 1;
    in->nsrc = (uint8_t)(op == ATOM_CAS ? 3 : 2);
    const POp *o = ops;
    if (red) { /* a reduction returns nothing: a dead register takes the old value */
        if (!ptx_grow(P, (void **)&P->vclass, &P->vclass_cap, P->nv + 1, 1)) return false;
        if (P->nv >= 0xffff) return ptx_fail(P, opt, "too many registers in one kernel");
        P->vclass[P->nv] = w64 ? VREG_64 : VREG_32;
        in->dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)P->nv++ };
    } else if (!want_reg(P, o++, w64 ? VREG_64 : VREG_32, &in->dst[0], "the destination")) {
        return false;
    }
    if (!mem_operand(P, o++, glob ? SPACE_GLOBAL : SPACE_SHARED, in)) return false;
    if (!want_src(P, o++, w64, t == TYPE_F32, &in->src[1], "the operand")) return false;
    if (op == ATOM_CAS && !want_src(P, o, w64, false, &in->src[2], "the new value")) return false;
    return emit(P, in, g);
}

/* cvt.[rnd][.ftz][.sat].dtype.stype */
static bool decode_cvt(Ptx *P, const Tok *opt, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (m->f16 || m->f64 || m->ntypes != 2) return unsupported(P, opt);
    if (!nops(P, opt, n, 2, 2)) return false;
    ValueType dt = m->types[0], st = m->types[1];
    if (dt == TYPE_B32 || dt == TYPE_B64 || st == TYPE_B32 || st == TYPE_B64 || dt == TYPE_B8 || dt == TYPE_B16 ||
        st == TYPE_B8 || st == TYPE_B16)
        return unsupported(P, opt);
    CvtRound r = (CvtRound)m->rnd;
    /* the mini ISA's rows where they say the same */
    Opcode fast = OP_COUNT;
    if (!m->sat && dt == TYPE_F32 && st == TYPE_S32 && r == RND_RN) fast = OP_CVT_F32_S32;
    if (!m->sat && dt == TYPE_F32 && st == TYPE_U32 && r == RND_RN) fast = OP_CVT_F32_U32;
    if (!m->sat && dt == TYPE_S32 && st == TYPE_F32 && r == RND_RZI) fast = OP_CVT_S32_F32;
    if (!m->sat && dt == TYPE_U32 && st == TYPE_F32 && r == RND_RZI) fast = OP_CVT_U32_F32;
    if (!m->sat && dt == TYPE_S32 && st == TYPE_F32 && r == RND_RNI) fast = OP_CVT_RNI_S32_F32;
    in->op = (uint8_t)(fast != OP_COUNT ? fast : OP_CVT);
    in->type = (uint8_t)dt;
    in->stype = (uint8_t)st;
    in->sub = (uint8_t)r;
    if (m->sat) in->iflags |= INSTR_SAT;
    in->ndst = in->nsrc = 1;
    if (!want_reg(P, &ops[0], is64(dt) ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    if (!want_src(P, &ops[1], is64(st), st == TYPE_F32, &in->src[0], "the source")) return false;
    if (fast == OP_COUNT && in->src[0].kind == OPND_IMM && is64(st)) { /* the executor reads a pair or the pool */
    }
    /* what ptxas makes of it: a zero-extension or a truncation is free
    ** (the high word is RZ, or dropped); a sign-extension one SHF; others one */
    bool ints = dt != TYPE_F32 && st != TYPE_F32;
    if (ints && !m->sat && ((is64(dt) && !type_signed(st) && type_bytes(st) == 4) || (type_bytes(dt) == 4 && is64(st))))
        in->slots = 0, in->lunit = in->llat = UNIT_ALU;
    return emit(P, in, g);
}

/* setp.CMP[.BOOL].type p[|q], a, b[, c]: a combining BOOL or the q output
** become predicate operations after the compare (one ISETP in SASS). */
static bool decode_setp(Ptx *P, const Tok *opt, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    ValueType t = last_type(m);
    if (m->f16 || m->f64 || m->cmp < 0 || m->ntypes != 1) return unsupported(P, opt);
    if (!nops(P, opt, n, m->boolop >= 0 ? 4 : 3, m->boolop >= 0 ? 4 : 3)) return false;
    int cmp = m->cmp;
    if (cmp >= 14) cmp = CMP_LT + (cmp - 14); /* lo ls hi hs: the unsigned lt le gt ge */
    if (t != TYPE_F32 && cmp >= CMP_EQU) return unsupported(P, opt);
    Opcode row = t == TYPE_F32 ? OP_SETP_F32 : t == TYPE_S32 ? OP_SETP_S32 : (t == TYPE_U32 || t == TYPE_B32) ? OP_SETP_U32
               : t == TYPE_S64 ? OP_SETP_S64 : (t == TYPE_U64 || t == TYPE_B64) ? OP_SETP_U64 : OP_COUNT;
    if (row == OP_COUNT) return unsupported(P, opt);
    if (type_signed(t) && m->cmp >= 14) return unsupported(P, opt);
    in->op = (uint8_t)row;
    in->mod = (uint8_t)cmp;
    in->type = (uint8_t)t;
    in->ndst = 1;
    in->nsrc = 2;
    bool w64 = is64(t);
    if (!want_src(P, &ops[1], w64, t == TYPE_F32, &in->src[0], "the first source")) return false;
    if (!want_src(P, &ops[2], w64, t == TYPE_F32, &in->src[1], "the second source")) return false;
    const POp *d = &ops[0];
    if (d->kind != PO_REG && d->kind != PO_PIPE) return want_reg(P, d, VREG_PRED, &in->dst[0], "the destination");
    if (d->cls != VREG_PRED) return want_reg(P, d, VREG_PRED, &in->dst[0], "the destination");
    Operand c;
    if (m->boolop >= 0 && !want_reg(P, &ops[3], VREG_PRED, &c, "the predicate to combine")) return false;
    bool plain = m->boolop < 0 && d->kind == PO_REG;
    if (plain) {
        in->dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)d->v };
        return emit(P, in, g);
    }
    /* the compare into a fresh predicate, then p = t BOOL c, q = !t BOOL c */
    if (!ptx_grow(P, (void **)&P->vclass, &P->vclass_cap, P->nv + 1, 1)) return false;
    if (P->nv >= 0xffff) return ptx_fail(P, opt, "too many registers in one kernel");
    P->vclass[P->nv] = VREG_PRED;
    uint32_t tv = P->nv++;
    in->dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)tv };
    if (!emit(P, in, g)) return false;
    static const Opcode BOOL_ROW[] = { OP_AND_PRED, OP_OR_PRED, OP_XOR_PRED };
    for (int out = 0; out < (d->kind == PO_PIPE ? 2 : 1); out++) {
        Instr j = *in;
        memset(j.dst, 0, sizeof j.dst);
        memset(j.src, 0, sizeof j.src);
        j.dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)(out ? d->v2 : d->v) };
        j.src[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)tv, .neg = (uint8_t)out };
        if (m->boolop >= 0) {
            j.op = (uint8_t)BOOL_ROW[m->boolop];
            j.nsrc = 2;
            j.src[1] = c;
        } else {
            j.op = (uint8_t)(out ? OP_NOT_PRED : OP_MOV_PRED);
            j.nsrc = 1;
            if (out) j.src[0].neg = 0;
        }
        j.mod = 0;
        j.type = TYPE_NONE;
        j.slots = 0; /* folded into the ISETP */
        j.lunit = j.llat = UNIT_ALU;
        if (!emit(P, &j, g)) return false;
    }
    return true;
}

typedef struct {
    const char *head;
    ValueType   t;
    Opcode      op;
} Arith;

/* Rows of the plain register instructions, by head and type (b32 reads as
** u32 where PTX allows it). */
static const Arith ARITH[] = {
    { "add", TYPE_S32, OP_ADD_S32 },  { "add", TYPE_U32, OP_ADD_U32 },  { "add", TYPE_S64, OP_ADD_S64 },
    { "add", TYPE_U64, OP_ADD_S64 },  { "add", TYPE_F32, OP_ADD_F32 },  { "sub", TYPE_S32, OP_SUB_S32 },
    { "sub", TYPE_U32, OP_SUB_U32 },  { "sub", TYPE_S64, OP_SUB_S64 },  { "sub", TYPE_U64, OP_SUB_S64 },
    { "sub", TYPE_F32, OP_SUB_F32 },  { "div", TYPE_S32, OP_DIV_S32 },  { "div", TYPE_U32, OP_DIV_U32 },
    { "div", TYPE_S64, OP_DIV_S64 },  { "div", TYPE_U64, OP_DIV_U64 },  { "rem", TYPE_S32, OP_REM_S32 },
    { "rem", TYPE_U32, OP_REM_U32 },  { "rem", TYPE_S64, OP_REM_S64 },  { "rem", TYPE_U64, OP_REM_U64 },
    { "min", TYPE_S32, OP_MIN_S32 },  { "min", TYPE_U32, OP_MIN_U32 },  { "min", TYPE_S64, OP_MIN_S64 },
    { "min", TYPE_U64, OP_MIN_U64 },  { "min", TYPE_F32, OP_MIN_F32 },  { "max", TYPE_S32, OP_MAX_S32 },
    { "max", TYPE_U32, OP_MAX_U32 },  { "max", TYPE_S64, OP_MAX_S64 },  { "max", TYPE_U64, OP_MAX_U64 },
    { "max", TYPE_F32, OP_MAX_F32 },  { "abs", TYPE_S32, OP_ABS_S32 },  { "abs", TYPE_S64, OP_ABS_S64 },
    { "abs", TYPE_F32, OP_ABS_F32 },  { "neg", TYPE_S32, OP_NEG_S32 },  { "neg", TYPE_S64, OP_NEG_S64 },
    { "neg", TYPE_F32, OP_NEG_F32 },  { "and", TYPE_B32, OP_AND_B32 },  { "and", TYPE_B64, OP_AND_B64 },
    { "or", TYPE_B32, OP_OR_B32 },    { "or", TYPE_B64, OP_OR_B64 },    { "xor", TYPE_B32, OP_XOR_B32 },
    { "xor", TYPE_B64, OP_XOR_B64 },  { "not", TYPE_B32, OP_NOT_B32 },  { "not", TYPE_B64, OP_NOT_B64 },
    { "shl", TYPE_B32, OP_SHL_B32 },  { "shl", TYPE_B64, OP_SHL_B64 },  { "shr", TYPE_U32, OP_SHR_U32 },
    { "shr", TYPE_B32, OP_SHR_U32 },  { "shr", TYPE_S32, OP_SHR_S32 },  { "shr", TYPE_U64, OP_SHR_U64 },
    { "shr", TYPE_B64, OP_SHR_U64 },  { "shr", TYPE_S64, OP_SHR_S64 },  { "popc", TYPE_B32, OP_POPC_B32 },
    { "popc", TYPE_B64, OP_POPC_B64 }, { "clz", TYPE_B32, OP_CLZ_B32 },  { "clz", TYPE_B64, OP_CLZ_B64 },
    { "brev", TYPE_B32, OP_BREV_B32 }, { "bfe", TYPE_U32, OP_BFE_U32 },  { "bfe", TYPE_S32, OP_BFE_S32 },
    { "bfi", TYPE_B32, OP_BFI_B32 },  { "sad", TYPE_U32, OP_SAD_U32 },  { "copysign", TYPE_F32, OP_COPYSIGN_F32 },
    { "fma", TYPE_F32, OP_FMA_F32 },  { "tanh", TYPE_F32, OP_TANH_F32 }, { NULL, TYPE_NONE, OP_COUNT },
};

/* The row of a plain arithmetic instruction, or OP_COUNT. */
static Opcode arith_row(const char *head, const Mods *m)
{
    ValueType t = last_type(m);
    if (m->ntypes != 1) return OP_COUNT;
    if (!strcmp(head, "mul")) {
        if (t == TYPE_F32) return m->lo || m->hi || m->wide ? OP_COUNT : OP_MUL_F32;
        if (m->wide) return t == TYPE_S32 ? OP_MUL_WIDE_S32 : t == TYPE_U32 ? OP_MUL_WIDE_U32 : OP_COUNT;
        if (m->lo) return t == TYPE_S32 ? OP_MUL_LO_S32 : t == TYPE_U32 ? OP_MUL_LO_U32 : is64(t) ? OP_MUL_LO_S64 : OP_COUNT;
        if (m->hi) return t == TYPE_S32 ? OP_MUL_HI_S32 : t == TYPE_U32 ? OP_MUL_HI_U32 : OP_COUNT;
        return OP_COUNT;
    }
    if (!strcmp(head, "mad")) {
        if (t == TYPE_F32) return m->lo || m->hi || m->wide ? OP_COUNT : OP_FMA_F32;
        if (m->wide) return t == TYPE_S32 ? OP_MAD_WIDE_S32 : t == TYPE_U32 ? OP_MAD_WIDE_U32 : OP_COUNT;
        if (m->lo) return t == TYPE_S32 ? OP_MAD_LO_S32 : t == TYPE_U32 ? OP_MAD_LO_U32 : is64(t) ? OP_MAD_LO_S64 : OP_COUNT;
        return OP_COUNT;
    }
    if (!strcmp(head, "mul24") && m->lo) return t == TYPE_U32 ? OP_MUL24_LO_U32 : t == TYPE_S32 ? OP_MUL24_LO_S32 : OP_COUNT;
    if (m->lo || m->hi || m->wide) return OP_COUNT;
    if (!strcmp(head, "div") && t == TYPE_F32)
        return m->approx ? OP_DIV_APPROX_F32 : m->full ? OP_DIV_FULL_F32 : m->rnd == RND_RN ? OP_DIV_F32 : OP_COUNT;
    if (!strcmp(head, "rcp")) return t != TYPE_F32 ? OP_COUNT : m->approx ? OP_RCP_F32 : m->rnd == RND_RN ? OP_RCP_RN_F32 : OP_COUNT;
    if (!strcmp(head, "sqrt")) return t != TYPE_F32 ? OP_COUNT : m->approx ? OP_SQRT_F32 : m->rnd == RND_RN ? OP_SQRT_RN_F32 : OP_COUNT;
    static const struct { const char *h; Opcode op; } SFU[] = {
        { "rsqrt", OP_RSQRT_F32 }, { "ex2", OP_EX2_F32 }, { "lg2", OP_LG2_F32 }, { "sin", OP_SIN_F32 }, { "cos", OP_COS_F32 },
    };
    for (size_t i = 0; i < sizeof SFU / sizeof SFU[0]; i++)
        if (!strcmp(head, SFU[i].h)) return t == TYPE_F32 && m->approx ? SFU[i].op : OP_COUNT;
    /* float arithmetic takes .rn (the default) and .ftz (not modelled) only */
    if (t == TYPE_F32 && (m->rnd != RND_NONE && m->rnd != RND_RN)) return OP_COUNT;
    if (!strcmp(head, "fma") && m->rnd != RND_RN) return OP_COUNT;
    for (const Arith *a = ARITH; a->head; a++)
        if (!strcmp(a->head, head) && a->t == t) return a->op;
    if ((!strcmp(head, "and") || !strcmp(head, "or") || !strcmp(head, "xor") || !strcmp(head, "not")) &&
        (t == TYPE_U32 || t == TYPE_S32))
        return arith_row(head, &(Mods){ .types = { TYPE_B32 }, .ntypes = 1 });
    if ((!strcmp(head, "popc") || !strcmp(head, "clz") || !strcmp(head, "shl")) && (t == TYPE_U32 || t == TYPE_S32))
        return arith_row(head, &(Mods){ .types = { TYPE_B32 }, .ntypes = 1 });
    return OP_COUNT;
}

bool ptx_instruction(Ptx *P)
{
    char q[80];
    Kernel *k = P->k;
    Instr in;
    memset(&in, 0, sizeof in);
    in.guard = ISA_NO_GUARD;
    in.vec = 1;
    in.reconv = ISA_NO_RECONV;
    in.line = P->tok.line;
    in.col = P->tok.col;
    in.src_file = P->loc_file;
    in.src_line = P->loc_line;
    uint32_t g = UINT32_MAX;
    if (ptx_punct(&P->tok, '@')) {
        ptx_next(P);
        bool negp = false;
        if (ptx_punct(&P->tok, '!')) negp = true, ptx_next(P);
        uint8_t cls;
        Tok gt = P->tok;
        if (gt.kind != TK_WORD || !ptx_reg(P, &gt, &g, &cls)) return P->failed ? false : ptx_fail(P, &gt, "expected a predicate after '@'");
        if (cls != VREG_PRED) return ptx_fail(P, &gt, "wrong operand type: a guard is a predicate, '%s' is %s", ptx_quote(&gt, q, sizeof q), cls_name(cls));
        in.guard = 0; /* set by the allocator */
        in.guard_neg = negp;
        ptx_next(P);
    }
    Tok opt = P->tok;
    if (opt.kind != TK_WORD) return ptx_fail(P, &opt, "expected an instruction, found '%s'", ptx_quote(&opt, q, sizeof q));
    static const char *const OUTSIDE[] = { "call", "trap", "brkpt", "brx", "tex", "tld4", "txq", "suld", "sust", "sured",
                                           "suq", "wmma", "mma", "wgmma", "ldmatrix", "stmatrix", "cp", "nanosleep",
                                           "prefetch", "prefetchu", "isspacep", "mapa", "getctarank", "istypep",
                                           "match", "pmevent", "elect", "setmaxnreg", "stackrestore", "stacksave",
                                           "alloca", "dp4a", "dp2a", "lop3", "fns", "bmsk", "szext", "cvt.pack",
                                           "mbarrier", "griddepcontrol", "applypriority", "discard", "createpolicy", NULL };
    for (int i = 0; OUTSIDE[i]; i++) {
        size_t hl = strlen(OUTSIDE[i]);
        if (opt.len >= hl && memcmp(opt.s, OUTSIDE[i], hl) == 0 && (opt.len == hl || opt.s[hl] == '.'))
            return unsupported(P, &opt);
    }
    char head[24];
    Mods m;
    if (!ptx_parse_mods(P, &opt, head, sizeof head, &m)) return false;
    ptx_next(P);
    POp ops[MAX_OPS];
    uint32_t n = 0;
    while (!ptx_punct(&P->tok, ';')) {
        if (P->tok.kind == TK_EOF) return ptx_fail(P, &P->tok, "end of file in '%s': expected ';'", ptx_quote(&opt, q, sizeof q));
        if (n == MAX_OPS) return ptx_fail(P, &P->tok, "too many operands for '%s'", ptx_quote(&opt, q, sizeof q));
        if (!ptx_parse_operand(P, &ops[n++])) return false;
        char q2[80];
        if (ptx_punct(&P->tok, ',')) {
            ptx_next(P);
            if (ptx_punct(&P->tok, ';')) return ptx_fail(P, &P->tok, "expected an operand after ','");
        } else if (P->tok.kind == TK_EOF) {
            return ptx_fail(P, &P->tok, "end of file in '%s': expected ';'", ptx_quote(&opt, q, sizeof q));
        } else if (!ptx_punct(&P->tok, ';')) {
            return ptx_fail(P, &P->tok, "expected ',' or ';' after an operand of '%s', found '%s'", ptx_quote(&opt, q, sizeof q),
                            ptx_quote(&P->tok, q2, sizeof q2));
        }
    }
    ptx_next(P); /* ';' */
    ValueType t = last_type(&m);
    if (m.f16 || m.f64) return unsupported(P, &opt);
    in.type = (uint8_t)t;

    if (!strcmp(head, "ld") || !strcmp(head, "ldu")) return decode_ldst(P, &opt, false, &m, ops, n, &in, g);
    if (!strcmp(head, "st")) return decode_ldst(P, &opt, true, &m, ops, n, &in, g);
    if (!strcmp(head, "atom") || !strcmp(head, "red")) return decode_atom(P, &opt, head[0] == 'r', &m, ops, n, &in, g);
    if (!strcmp(head, "cvt")) return decode_cvt(P, &opt, &m, ops, n, &in, g);
    if (!strcmp(head, "setp")) return decode_setp(P, &opt, &m, ops, n, &in, g);
    if (!strcmp(head, "mov")) {
        if (!nops(P, &opt, n, 2, 2)) return false;
        if (m.ntypes == 1 && t == TYPE_NONE) { /* mov.pred */
            in.op = OP_MOV_PRED;
            in.ndst = in.nsrc = 1;
            if (!want_reg(P, &ops[0], VREG_PRED, &in.dst[0], "the destination")) return false;
            if (ops[1].kind == PO_IMM && !ops[1].is_float && (ops[1].ival == 0 || ops[1].ival == 1))
                in.src[0] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)ops[1].ival };
            else if (!want_reg(P, &ops[1], VREG_PRED, &in.src[0], "the source"))
                return false;
            return emit(P, &in, g);
        }
        if (m.ntypes != 1) return unsupported(P, &opt);
        if (is64(t)) {
            if (ops[0].kind == PO_VEC) { /* mov.b64 {lo, hi}, a */
                if (ops[0].nelem != 2 || ops[0].eimm[0] || ops[0].eimm[1]) return ptx_fail(P, &ops[0].tok, "expected {lo, hi} registers");
                in.op = OP_MOV_UNPACK64;
                in.ndst = 2;
                in.nsrc = 1;
                for (int e = 0; e < 2; e++) {
                    POp one = { .kind = PO_REG, .tok = ops[0].etok[e], .v = ops[0].ev[e], .cls = ops[0].ecls[e] };
                    if (!want_reg(P, &one, VREG_32, &in.dst[e], "a destination word")) return false;
                }
                if (!want_src(P, &ops[1], true, false, &in.src[0], "the source")) return false;
                return emit(P, &in, g);
            }
            if (ops[1].kind == PO_VEC) { /* mov.b64 d, {lo, hi} */
                if (ops[1].nelem != 2) return ptx_fail(P, &ops[1].tok, "expected {lo, hi}");
                in.op = OP_MOV_PACK64;
                in.ndst = 1;
                in.nsrc = 2;
                if (!want_reg(P, &ops[0], VREG_64, &in.dst[0], "the destination")) return false;
                for (int e = 0; e < 2; e++) {
                    POp one = { .kind = ops[1].eimm[e] ? PO_IMM : PO_REG, .tok = ops[1].etok[e], .v = ops[1].ev[e],
                                .cls = ops[1].ecls[e], .ival = ops[1].eival[e] };
                    if (!want_src(P, &one, false, false, &in.src[e], "a source word")) return false;
                }
                return emit(P, &in, g);
            }
            in.op = OP_MOV_B64;
            in.ndst = in.nsrc = 1;
            if (!want_reg(P, &ops[0], VREG_64, &in.dst[0], "the destination")) return false;
            if (ops[1].kind == PO_SPECIAL) {
                if (ops[1].special != SREG_CLOCK64 && ops[1].special != SREG_GLOBALTIMER)
                    return ptx_fail(P, &ops[1].tok, "'%s' is a 32-bit special register: read it with mov.u32", ptx_quote(&ops[1].tok, q, sizeof q));
                in.src[0] = (Operand){ .kind = OPND_SPECIAL, .index = (uint16_t)ops[1].special };
                in.slots = 1, in.lunit = in.llat = UNIT_ALU; /* S2UR / CS2R */
            } else if (!want_src(P, &ops[1], true, false, &in.src[0], "the source")) {
                return false;
            }
            return emit(P, &in, g);
        }
        if (!is32(t) && !issub(t)) return unsupported(P, &opt);
        in.op = OP_MOV;
        in.type = (uint8_t)(t == TYPE_F32 ? TYPE_F32 : TYPE_B32);
        in.ndst = in.nsrc = 1;
        if (!want_reg(P, &ops[0], VREG_32, &in.dst[0], "the destination")) return false;
        if (ops[1].kind == PO_SPECIAL) {
            if (ops[1].special == SREG_CLOCK64 || ops[1].special == SREG_GLOBALTIMER)
                return ptx_fail(P, &ops[1].tok, "'%s' is 64-bit: read it with mov.u64", ptx_quote(&ops[1].tok, q, sizeof q));
            in.src[0] = (Operand){ .kind = OPND_SPECIAL, .index = (uint16_t)ops[1].special };
            in.slots = 1, in.lunit = in.llat = UNIT_ALU; /* S2R */
        } else if (ops[1].kind == PO_WORD && !ops[1].sym) {
            return ptx_fail(P, &ops[1].tok, "unknown name '%s'; expected a register, a number, a .shared variable or a special register",
                            ptx_quote(&ops[1].tok, q, sizeof q));
        } else if (!want_src(P, &ops[1], false, t == TYPE_F32, &in.src[0], "the source")) {
            return false;
        }
        return emit(P, &in, g);
    }
    if (!strcmp(head, "cvta")) {
        if (!nops(P, &opt, n, 2, 2)) return false;
        if (m.space == SPACE_GLOBAL) {
            if (t != TYPE_U64) return unsupported(P, &opt);
            return reg_form(P, &opt, OP_CVTA_GLOBAL, ops, n, &in) && emit(P, &in, g);
        }
        if (m.space != SPACE_SHARED || (t != TYPE_U64 && t != TYPE_U32)) return unsupported(P, &opt);
        in.op = (uint8_t)(m.to ? OP_CVTA_TO_SHARED : OP_CVTA_SHARED);
        in.ndst = in.nsrc = 1;
        if (!want_reg(P, &ops[0], t == TYPE_U64 ? VREG_64 : VREG_32, &in.dst[0], "the destination")) return false;
        if (!want_src(P, &ops[1], t == TYPE_U64, false, &in.src[0], "the source")) return false;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "selp")) {
        if (!nops(P, &opt, n, 4, 4)) return false;
        bool w64 = is64(t);
        if (!w64 && !is32(t)) return unsupported(P, &opt);
        in.op = (uint8_t)(w64 ? OP_SELP_B64 : OP_SELP);
        in.type = (uint8_t)(w64 ? TYPE_B64 : t == TYPE_F32 ? TYPE_F32 : TYPE_B32);
        in.ndst = 1;
        in.nsrc = 3;
        if (!want_reg(P, &ops[0], w64 ? VREG_64 : VREG_32, &in.dst[0], "the destination")) return false;
        if (!want_src(P, &ops[1], w64, t == TYPE_F32, &in.src[0], "the first source") ||
            !want_src(P, &ops[2], w64, t == TYPE_F32, &in.src[1], "the second source") ||
            !want_reg(P, &ops[3], VREG_PRED, &in.src[2], "the selector"))
            return false;
        return emit(P, &in, g);
    }
    if ((!strcmp(head, "and") || !strcmp(head, "or") || !strcmp(head, "xor") || !strcmp(head, "not")) && m.ntypes == 1 &&
        t == TYPE_NONE) { /* .pred */
        bool unary = head[0] == 'n';
        if (!nops(P, &opt, n, unary ? 2 : 3, unary ? 2 : 3)) return false;
        in.op = (uint8_t)(head[0] == 'a' ? OP_AND_PRED : head[0] == 'o' ? OP_OR_PRED : head[0] == 'x' ? OP_XOR_PRED : OP_NOT_PRED);
        in.ndst = 1;
        in.nsrc = (uint8_t)(n - 1);
        if (!want_reg(P, &ops[0], VREG_PRED, &in.dst[0], "the destination")) return false;
        for (uint32_t i = 1; i < n; i++)
            if (!want_reg(P, &ops[i], VREG_PRED, &in.src[i - 1], "a source")) return false;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "bra") || !strcmp(head, "ret") || !strcmp(head, "exit")) {
        if (head[0] == 'b') {
            if (!nops(P, &opt, n, 1, 1)) return false;
            in.op = (uint8_t)(m.uni ? OP_BRA_UNI : OP_BRA);
            if (!add_ref(P, &ops[0], k->ncode)) return false;
        } else {
            if (!nops(P, &opt, n, 0, 0)) return false;
            in.op = OP_EXIT; /* ret from a kernel ends the thread */
        }
        in.type = TYPE_NONE;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "bar") || !strcmp(head, "barrier")) {
        if (m.ntypes == 0 && !strcmp(head, "bar") && m.sync && opt.len > 8 && !memcmp(opt.s, "bar.warp", 8)) {
            if (!nops(P, &opt, n, 1, 1)) return false;
            in.op = OP_BAR_WARP;
            in.nsrc = 1;
            if (!want_src(P, &ops[0], false, false, &in.src[0], "the member mask")) return false;
            return emit(P, &in, g);
        }
        bool red = opt.len > 4 && (strstr(ptx_text(&opt, q, sizeof q), ".red") || strstr(q, ".arrive") || strstr(q, ".cta.red"));
        if (red || !(m.sync || !strcmp(q, "bar.sync") || !strcmp(q, "barrier.sync"))) return unsupported(P, &opt);
        if (!nops(P, &opt, n, 1, 2)) return false;
        if (ops[0].kind != PO_IMM || ops[0].ival != 0)
            return ptx_fail(P, &ops[0].tok, "only barrier 0 is supported (named barriers are not yet)");
        if (n == 2) return ptx_fail(P, &ops[1].tok, "a barrier with a thread count is not supported yet");
        if (g != UINT32_MAX) return ptx_fail(P, &opt, "'bar.sync' cannot be predicated: every thread of the block must reach it");
        in.op = OP_BAR_SYNC;
        in.type = TYPE_NONE;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "membar") || !strcmp(head, "fence")) {
        in.op = OP_MEMBAR;
        in.type = TYPE_NONE;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "shfl")) {
        if (!m.sync || m.shfl < 0 || t != TYPE_B32) return unsupported(P, &opt);
        if (!nops(P, &opt, n, 5, 5)) return false;
        in.op = OP_SHFL;
        in.mod = (uint8_t)m.shfl;
        in.ndst = 1;
        in.nsrc = 4;
        if (ops[0].kind == PO_PIPE) { /* d|p: p says whether the source lane was in range */
            POp d = ops[0];
            d.kind = PO_REG;
            if (!want_reg(P, &d, VREG_32, &in.dst[0], "the destination")) return false;
            in.dst[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)ops[0].v2 };
            in.ndst = 2;
        } else if (!want_reg(P, &ops[0], VREG_32, &in.dst[0], "the destination")) {
            return false;
        }
        for (uint32_t i = 1; i < 5; i++)
            if (!want_src(P, &ops[i], false, false, &in.src[i - 1], "a source")) return false;
        return emit(P, &in, g);
    }
    if (!strcmp(head, "vote")) {
        if (!m.sync || m.vote < 0) return unsupported(P, &opt);
        if (!nops(P, &opt, n, 3, 3)) return false;
        in.type = TYPE_NONE;
        if (m.vote == 3) {
            if (t != TYPE_B32) return unsupported(P, &opt);
            in.op = OP_VOTE_BALLOT;
            in.type = TYPE_B32;
            if (!want_reg(P, &ops[0], VREG_32, &in.dst[0], "the destination")) return false;
        } else {
            in.op = (uint8_t)(m.vote == 0 ? OP_VOTE_ALL : m.vote == 1 ? OP_VOTE_ANY : OP_VOTE_UNI);
            if (!want_reg(P, &ops[0], VREG_PRED, &in.dst[0], "the destination")) return false;
        }
        in.ndst = in.nsrc = 1;
        if (!want_reg(P, &ops[1], VREG_PRED, &in.src[0], "the predicate")) return false;
        return emit(P, &in, g); /* the member mask is parsed and ignored, as in the mini ISA */
    }
    if (!strcmp(head, "activemask")) {
        if (!nops(P, &opt, n, 1, 1)) return false;
        in.op = OP_ACTIVEMASK;
        in.ndst = 1;
        return want_reg(P, &ops[0], VREG_32, &in.dst[0], "the destination") && emit(P, &in, g);
    }
    if (!strcmp(head, "redux")) {
        if (!m.sync || m.atom != ATOM_ADD || (t != TYPE_U32 && t != TYPE_S32)) return unsupported(P, &opt);
        if (!nops(P, &opt, n, 3, 3)) return false;
        in.op = OP_REDUX_ADD;
        in.ndst = in.nsrc = 1;
        return want_reg(P, &ops[0], VREG_32, &in.dst[0], "the destination") &&
               want_src(P, &ops[1], false, false, &in.src[0], "the source") && emit(P, &in, g);
    }
    if (!strcmp(head, "testp")) {
        if (m.testp < 0 || t != TYPE_F32) return unsupported(P, &opt);
        if (!nops(P, &opt, n, 2, 2)) return false;
        in.op = OP_TESTP_F32;
        in.sub = (uint8_t)m.testp;
        in.ndst = in.nsrc = 1;
        return want_reg(P, &ops[0], VREG_PRED, &in.dst[0], "the destination") &&
               want_src(P, &ops[1], false, true, &in.src[0], "the source") && emit(P, &in, g);
    }
    if (!strcmp(head, "prmt")) {
        if (t != TYPE_B32) return unsupported(P, &opt);
        in.sub = (uint8_t)(m.prmt < 0 ? PRMT_DEFAULT : m.prmt);
        return reg_form(P, &opt, OP_PRMT_B32, ops, n, &in) && emit(P, &in, g);
    }
    if (!strcmp(head, "shf")) {
        if (t != TYPE_B32 || m.l == m.r || m.wrap == m.clamp) return unsupported(P, &opt);
        in.sub = m.clamp;
        return reg_form(P, &opt, m.l ? OP_SHF_L : OP_SHF_R, ops, n, &in) && emit(P, &in, g);
    }
    if (!strcmp(head, "slct")) {
        if (m.ntypes != 2 || !is32(m.types[0]) || (m.types[1] != TYPE_S32 && m.types[1] != TYPE_F32)) return unsupported(P, &opt);
        in.type = (uint8_t)m.types[0];
        if (!reg_form(P, &opt, m.types[1] == TYPE_F32 ? OP_SLCT_F32 : OP_SLCT_S32, ops, n, &in)) return false;
        if (m.types[0] != TYPE_F32) /* a and b are read as the destination's type */
            for (int i = 0; i < 2; i++)
                if (in.src[i].kind == OPND_IMM && ops[i + 1].is_float) return ptx_fail(P, &ops[i + 1].tok, "float literal for an integer slct");
        return emit(P, &in, g);
    }
    if (!strcmp(head, "call") || !strcmp(head, "trap") || !strcmp(head, "brkpt") || !strcmp(head, "brx") ||
        !strcmp(head, "tex") || !strcmp(head, "suld") || !strcmp(head, "sust") || !strcmp(head, "wmma") ||
        !strcmp(head, "mma") || !strcmp(head, "ldmatrix") || !strcmp(head, "cp") || !strcmp(head, "nanosleep"))
        return unsupported(P, &opt);
    Opcode op = arith_row(head, &m);
    if (op == OP_COUNT) {
        static const char *const KNOWN[] = { "add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs", "neg", "and",
                                             "or", "xor", "not", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi", "fma",
                                             "rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "copysign", "sad",
                                             "mul24", NULL };
        for (int i = 0; KNOWN[i]; i++)
            if (!strcmp(head, KNOWN[i])) return unsupported(P, &opt);
        return ptx_fail(P, &opt, "unknown instruction '%s'", ptx_quote(&opt, q, sizeof q));
    }
    if (m.sat || m.nan) return unsupported(P, &opt);
    in.type = (uint8_t)(OP_INFO[op].type == TYPE_F32 ? TYPE_F32 : TYPE_NONE);
    if (!reg_form(P, &opt, op, ops, n, &in)) return false;
    in.type = (uint8_t)OP_INFO[op].type;
    return emit(P, &in, g);
}
