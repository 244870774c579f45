/* isa/ptx_decode16.c -- 16-bit arithmetic: integers and compares (.s16 .u16
** .b16: what `short`, `bool` and `char` code compiles to), decoded onto the
** 32-bit rows; half precision (.f16 .bf16, below) onto its own rows. A 16-bit value lives in a 32-bit register row, extended as
** the type that last wrote it (isa/exec_ptx.c's cvt keeps that rule), so:
**   - add, sub, mul.lo, mad.lo, neg, not, and, or, xor, shl wrap: the 32-bit
**     row, then its result re-extended from its low 16 bits as the type;
**   - shr, min, max, div, rem, abs, mul.wide and setp read the value: their
**     register sources are first extended from their low 16 bits as the
**     type (into fresh registers), immediates read as the type.
** The extensions are free (0 slots): ptxas does 16-bit work with 32-bit
** instructions whose operands it extends with the PRMT/SGXT it folds or
** needs anyway (sim/presets/SOURCES.md, "PTX lowering", [ASSUME]).
** Source: the PTX ISA manual, "Integer Arithmetic Instructions" (the .s16
** .u16 forms: results are the low 16 bits; mul.wide.16 gives 32). */
#include "isa/ptx_int.h"

#include <string.h>

bool ptx_is16(ValueType t) { return t == TYPE_S16 || t == TYPE_U16 || t == TYPE_B16; }

bool ptx_emit_extend(Ptx *P, const Instr *like, uint32_t d, uint32_t s, ValueType to, ValueType from, uint32_t g)
{
    Instr c;
    memset(&c, 0, sizeof c);
    c.op = OP_CVT;
    c.type = (uint8_t)to;
    c.stype = (uint8_t)from;
    c.sub = RND_NONE;
    c.guard = like->guard;
    c.guard_neg = like->guard_neg;
    c.vec = 1;
    c.reconv = ISA_NO_RECONV;
    ptx_copy_place(&c, like);
    c.ndst = c.nsrc = 1;
    c.dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)d };
    c.src[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)s };
    ptx_set_free(&c);
    return ptx_emit(P, &c, g);
}

bool ptx_extend16(Ptx *P, const Instr *like, const POp *o, ValueType t, POp *out, uint32_t g)
{
    *out = *o;
    if (o->kind == PO_IMM && !o->is_float) {
        out->ival = type_signed(t) ? (int64_t)(int16_t)o->ival : (int64_t)(uint16_t)o->ival;
        return true;
    }
    if (o->kind != PO_REG || o->cls != VREG_32) return true; /* the row's own checks say what is wrong */
    uint32_t v = 0;
    if (!ptx_fresh_reg(P, &o->tok, VREG_32, &v)) return false;
    if (!ptx_emit_extend(P, like, v, o->v, type_signed(t) ? TYPE_S32 : TYPE_U32, t, g)) return false;
    out->v = v;
    return true;
}

bool ptx_decode_int16(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                      uint32_t g)
{
    ValueType t = ptx_last_type(m);
    bool sgn = t == TYPE_S16;
    static const char *const WRAP[] = { "add", "sub", "mul", "mad", "neg", "not", "and", "or", "xor", "shl", NULL };
    static const char *const READ[] = { "shr", "min", "max", "div", "rem", "abs", NULL };
    bool wrap = false, read = false;
    for (int i = 0; WRAP[i]; i++) wrap |= !strcmp(head, WRAP[i]);
    for (int i = 0; READ[i]; i++) read |= !strcmp(head, READ[i]);
    bool wide = m->wide && (!strcmp(head, "mul") || !strcmp(head, "mad"));
    if ((!wrap && !read) || m->sat || m->hi || (t == TYPE_B16 && strcmp(head, "and") && strcmp(head, "or") &&
                                                strcmp(head, "xor") && strcmp(head, "not") && strcmp(head, "shl") &&
                                                strcmp(head, "shr")))
        return ptx_unsupported(P, opt);
    /* the 32-bit row of the same operation */
    Mods m32 = *m;
    m32.types[m32.ntypes - 1] = sgn ? TYPE_S32 : TYPE_U32;
    if (t == TYPE_B16 || !strcmp(head, "and") || !strcmp(head, "or") || !strcmp(head, "xor") || !strcmp(head, "not") ||
        !strcmp(head, "shl"))
        m32.types[m32.ntypes - 1] = !strcmp(head, "shr") ? TYPE_U32 : TYPE_B32;
    if (wide) m32.wide = false, m32.lo = true; /* the 16 x 16 product fits 32 bits */
    if (!strcmp(head, "mul") && !wide && !m->lo) return ptx_unsupported(P, opt);
    Opcode op = ptx_arith_row(head, &m32);
    if (op == OP_COUNT) return ptx_unsupported(P, opt);
    POp xs[MAX_OPS];
    memcpy(xs, ops, sizeof xs[0] * (n < MAX_OPS ? n : MAX_OPS));
    ValueType rt = t == TYPE_B16 && !strcmp(head, "shr") ? TYPE_U16 : t; /* shr.b16 shifts in zeros */
    if (read || wide)
        for (uint32_t i = 1; i < n && i < MAX_OPS; i++) {
            if (!strcmp(head, "shr") && i == 2) continue; /* the shift count is a 32-bit value */
            if (wide && i == 3) continue;                 /* mad.wide's addend is 32-bit */
            if (!ptx_extend16(P, in, &ops[i], rt, &xs[i], g)) return false;
        }
    if (!ptx_reg_form(P, opt, op, xs, n, in)) return false;
    in->type = (uint8_t)OP_INFO[op].type;
    if (!ptx_emit(P, in, g)) return false;
    /* a wrapped result (and abs's, which wraps at -32768) back to 16 bits */
    if (wide || (read && strcmp(head, "abs"))) return true;
    return ptx_emit_extend(P, in, ops[0].v, ops[0].v, rt, sgn ? TYPE_S32 : TYPE_U32, g);
}

/* ---- half precision: .f16 .bf16 and the packed .f16x2 .bf16x2, whose
** values are the bits of 16-bit floats in 32-bit register rows (a scalar in
** the low half, a pair in both). add sub mul min max fma neg abs and setp,
** computed as the PTX ISA manual's "Half Precision Floating-Point
** Instructions" say (setp's x2 form writes a predicate per half): rounded once to nearest even; .ftz is taken and
** subnormals kept (docs/PTX.md, as for f32); .sat clamps to [0, 1]. Timed
** as ptxas's HADD2/HMUL2/HFMA2/HMNMX2 (1 FMA-pipe slot; neg and abs are
** folded into operand modifiers) and HSETP2 (1 ALU), per the Programming
** Guide's throughput table (16-bit float arithmetic at the FP32 rate on
** sm_80 and sm_90); sim/presets/SOURCES.md, "PTX lowering". */

/* setp on halves: `p, a, b` on the low halves, or the pair form
** `setp.CMP.f16x2 p|q, a, b` (one HSETP2: p of the low halves, q of the
** high ones, read through free shifts). */
static bool setp_half(Ptx *P, const Tok *opt, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (!ptx_nops(P, opt, n, 3, 3)) return false;
    in->op = ptx_last_type(m) == TYPE_F16 ? OP_SETP_F16 : OP_SETP_BF16;
    in->type = (uint8_t)ptx_last_type(m);
    in->mod = (uint8_t)m->cmp;
    in->ndst = 1;
    in->nsrc = 2;
    POp p = ops[0];
    if (m->f16) p = (POp){ .kind = PO_REG, .tok = ops[0].tok, .v = ops[0].v, .cls = ops[0].cls };
    if (!ptx_want_reg(P, &p, VREG_PRED, &in->dst[0], "the destination") ||
        !ptx_want_src(P, &ops[1], false, false, &in->src[0], "the first source") ||
        !ptx_want_src(P, &ops[2], false, false, &in->src[1], "the second source") || !ptx_emit(P, in, g))
        return false;
    if (!m->f16) return true;
    Instr hi = *in;
    ptx_set_free(&hi); /* the same HSETP2 */
    for (int k = 0; k < 2; k++) { /* each source's high half, by a free shift */
        uint32_t v;
        if (!ptx_fresh_reg(P, opt, VREG_32, &v)) return false;
        Instr sh = *in;
        sh.op = OP_SHR_U32;
        sh.type = TYPE_U32;
        sh.mod = 0;
        ptx_set_free(&sh);
        sh.dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)v };
        sh.src[0] = in->src[k];
        sh.src[1] = (Operand){ .kind = OPND_IMM, .value = 16 };
        if (!ptx_emit(P, &sh, g)) return false;
        hi.src[k] = sh.dst[0];
    }
    POp q = { .kind = PO_REG, .tok = ops[0].tok, .v = ops[0].v2, .cls = ops[0].cls2 };
    return ptx_want_reg(P, &q, VREG_PRED, &hi.dst[0], "the second predicate") && ptx_emit(P, &hi, g);
}

/* set.CMP.DTYPE.STYPE d, a, b on halves: the source's halves compared,
** each half of d 1.0 or 0.0 (an f16/bf16 destination) or all ones or
** zeros (.u32: __heq2_mask's form). The pair when the source is x2. */
static bool set_half(Ptx *P, const Tok *opt, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (m->cmp < 0 || m->boolop >= 0) return ptx_unsupported(P, opt);
    if (!ptx_reg_form(P, opt, OP_SET_HALF, ops, n, in)) return false;
    in->type = (uint8_t)ptx_last_type(m);
    in->stype = (uint8_t)m->types[0];
    in->mod = (uint8_t)m->cmp;
    in->sub = m->f16 ? 2 : 1;
    return ptx_emit(P, in, g);
}

static const char *const HALF_HEADS[HALF_OPS] = { [HALF_ADD] = "add", [HALF_SUB] = "sub", [HALF_MUL] = "mul",
                                                  [HALF_MIN] = "min", [HALF_MAX] = "max", [HALF_FMA] = "fma",
                                                  [HALF_NEG] = "neg", [HALF_ABS] = "abs" };

bool ptx_is_half_arith(const char *head, const Mods *m)
{
    ValueType t = ptx_last_type(m);
    if (!strcmp(head, "set")) /* set.CMP.DTYPE.STYPE: the halves compared are the source's */
        return m->ntypes == 2 && (t == TYPE_F16 || t == TYPE_BF16) &&
               (m->types[0] == TYPE_U32 || m->types[0] == TYPE_F16 || m->types[0] == TYPE_BF16);
    if (m->ntypes != 1 || (t != TYPE_F16 && t != TYPE_BF16)) return false;
    if (!strcmp(head, "setp")) return true;
    for (int i = 0; i < HALF_OPS; i++)
        if (!strcmp(head, HALF_HEADS[i])) return true;
    return false;
}

bool ptx_decode_half(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                     uint32_t g)
{
    int op = 0;
    while (op < HALF_OPS && strcmp(head, HALF_HEADS[op])) op++;
    bool setp = !strcmp(head, "setp"), sat_ok = op == HALF_ADD || op == HALF_SUB || op == HALF_MUL || op == HALF_FMA;
    /* a pair of predicates (setp's x2 form), .and/.or, other roundings, NaN-propagating min/max: not yet */
    if ((setp && (m->boolop >= 0 || m->cmp < 0 || (n && (ops[0].kind == PO_PIPE) != m->f16))) ||
        (m->sat && !sat_ok) || m->nan || (m->rnd != RND_NONE && m->rnd != RND_RN))
        return ptx_unsupported(P, opt);
    if (setp) return setp_half(P, opt, m, ops, n, in, g);
    if (!strcmp(head, "set")) return set_half(P, opt, m, ops, n, in, g);
    Opcode row = op == HALF_FMA ? OP_HALF_FMA : op == HALF_NEG || op == HALF_ABS ? OP_HALF_UNARY : OP_HALF_ARITH;
    if (!ptx_reg_form(P, opt, row, ops, n, in)) return false;
    in->type = (uint8_t)ptx_last_type(m);
    in->mod = (uint8_t)op;
    in->sub = m->f16 ? 2 : 1; /* elements a lane */
    if (m->sat) in->iflags |= INSTR_SAT;
    return ptx_emit(P, in, g);
}

/* cvt.RND.f16x2.f32 d, a, b (and .bf16x2): two floats into a pair of
** halves, a in the high half. */
bool ptx_decode_cvt_half2(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                          uint32_t g)
{
    (void)head;
    bool rnd = m->rnd == RND_RN || m->rnd == RND_RZ || m->rnd == RND_RM || m->rnd == RND_RP;
    if (m->ntypes != 2 || m->types[1] != TYPE_F32 || !rnd || m->sat) return ptx_unsupported(P, opt);
    if (!ptx_reg_form(P, opt, OP_CVT_HALF2, ops, n, in)) return false;
    in->type = (uint8_t)m->types[0];
    in->sub = (uint8_t)m->rnd;
    return ptx_emit(P, in, g);
}

/* The 8-bit float pairs (.e4m3x2, .e5m2x2; __nv_fp8x2_e4m3 and the rest):
**   cvt.rn.satfinite{.relu}.F8X2.f32 d, a, b     two floats, a in the high byte
**   cvt.rn.satfinite{.relu}.F8X2.f16x2 d, a      a pair of halves
**   cvt.rn{.relu}.f16x2.F8X2 d, a                back to a pair of halves
** Instr.sub: bit 0 .e5m2x2 (else .e4m3x2), bit 2 .relu. */
bool ptx_decode_cvt_f8(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                       uint32_t g)
{
    (void)head;
    bool to_f8 = m->ntypes == 2 && m->types[0] == TYPE_B16, from_f32 = to_f8 && m->types[1] == TYPE_F32 && !m->f16;
    bool from_half = to_f8 && m->f16 && m->types[1] == TYPE_F16, to_half = !to_f8 && m->ntypes == 2 && m->f16 &&
                                                                               m->types[0] == TYPE_F16 && m->types[1] == TYPE_B16;
    if (m->rnd != RND_RN || (!from_f32 && !from_half && !to_half) || m->ftz || m->sat)
        return ptx_unsupported(P, opt);
    if (to_f8 && !m->satfinite)
        return ptx_fail(P, opt, "a conversion to 8-bit floats takes .satfinite (PTX has no other form)");
    if (to_half && m->satfinite) return ptx_unsupported(P, opt);
    Opcode op = from_f32 ? OP_CVT_F8X2_F32 : from_half ? OP_CVT_F8X2_F16X2 : OP_CVT_F16X2_F8X2;
    if (!ptx_reg_form(P, opt, op, ops, n, in)) return false;
    in->sub = (uint8_t)((m->f8 == 2 ? 1 : 0) | (m->relu ? 4 : 0));
    return ptx_emit(P, in, g);
}
