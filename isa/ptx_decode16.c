/* isa/ptx_decode16.c -- 16-bit integer arithmetic and compares (.s16 .u16
** .b16: what `short`, `bool` and `char` code compiles to), decoded onto the
** 32-bit rows. A 16-bit value lives in a 32-bit register row, extended as
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
    c.line = like->line;
    c.col = like->col;
    c.src_file = like->src_file;
    c.src_line = like->src_line;
    c.ndst = c.nsrc = 1;
    c.dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)d };
    c.src[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)s };
    c.slots = 0;
    c.lunit = c.llat = UNIT_ALU;
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
