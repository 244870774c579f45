/* isa/ptx_decode_simd.c -- SIMD within a 32-bit register, as the CUDA
** headers' __v* intrinsics compile (__vadd2, __vmaxu2, __vabsdiffu4,
** __vsadu4, __viaddmax_s16x2, __vimax_s32_relu ...): packed 16-bit integer
** add/sub/min/max (.u16x2 .s16x2, min/max .relu), min/max.relu.s32, and the
** video instructions vadd, vsub, vabsdiff, vmin, vmax on two halves or four
** bytes. Left out, refused by name: vavrg and vset, the scalar video
** instructions, and a video operand's mask or element selectors.
** Source: the PTX ISA manual, "Integer Arithmetic Instructions" (add, min,
** max on .u16x2/.s16x2, .relu) and "SIMD Video Instructions" (the element
** extraction, .sat, and the secondary accumulate .add). */
#include "isa/ptx_int.h"

#include <string.h>

/* add|sub|min|max.{u16x2,s16x2} d, a, b (min/max.s16x2 also .relu) and
** min|max.relu.s32. SIMD16X2: Instr.mod 0 add, 1 sub, 2 min, 3 max;
** Instr.sub bit 0 signed, bit 1 relu. MINMAX_RELU_S32: mod 0 min, 1 max. */
bool ptx_decode_simd16(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                       uint32_t g)
{
    static const char *const OPS[] = { "add", "sub", "min", "max" };
    int op = 0;
    while (op < 4 && strcmp(head, OPS[op])) op++;
    ValueType t = m->ntypes == 1 ? m->types[0] : TYPE_NONE;
    bool minmax = op >= 2;
    bool packed = m->i16x2 && (t == TYPE_U16 || t == TYPE_S16) && (!m->relu || (minmax && t == TYPE_S16));
    bool relu32 = !m->i16x2 && m->relu && minmax && t == TYPE_S32;
    if (op == 4 || (!packed && !relu32) || m->sat || m->lo || m->hi || m->wide || m->rnd != RND_NONE || m->cc)
        return ptx_unsupported(P, opt);
    Opcode row = packed ? OP_SIMD16X2 : OP_MINMAX_RELU_S32;
    if (!ptx_nops(P, opt, n, 3, 3) || !ptx_reg_form(P, opt, row, ops, n, in)) return false;
    in->type = (uint8_t)OP_INFO[row].type;
    in->mod = (uint8_t)(packed ? op : op - 2);
    in->sub = (uint8_t)(packed ? (t == TYPE_S16) | m->relu << 1 : 0);
    return ptx_emit(P, in, g);
}

/* vop2|vop4.dtype.atype.btype{.sat} d, a, b, c and vop2|vop4.dtype.atype.btype.add
** d, a, b, c (each type .u32 or .s32). Instr.mod: 0 add, 1 sub, 2 absdiff,
** 3 min, 4 max; Instr.sub: bit 0 a signed, 1 b signed, 2 d signed, 3 .sat,
** 4 .add, 5 four byte elements (else two halves). */
bool ptx_decode_video(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                      uint32_t g)
{
    static const char *const OPS[] = { "vadd", "vsub", "vabsdiff", "vmin", "vmax" };
    size_t hl = strlen(head);
    int op = 0;
    while (op < 5 && (strlen(OPS[op]) != hl - 1 || strncmp(head, OPS[op], hl - 1))) op++;
    if (op == 5 || m->ntypes != 3 || (m->sat && m->accumulate) || m->rnd != RND_NONE) return ptx_unsupported(P, opt);
    uint8_t sub = (uint8_t)((m->sat ? 8 : 0) | (m->accumulate ? 16 : 0) | (head[hl - 1] == '4' ? 32 : 0));
    static const int BIT[3] = { 4, 1, 2 }; /* types are written d, a, b */
    for (int i = 0; i < 3; i++) {
        if (m->types[i] != TYPE_U32 && m->types[i] != TYPE_S32) return ptx_unsupported(P, opt);
        if (m->types[i] == TYPE_S32) sub |= (uint8_t)BIT[i];
    }
    for (uint32_t i = 0; i < n; i++) /* d.h10, a.b3210: a mask or selectors */
        if (ops[i].kind == PO_REG && memchr(ops[i].tok.s, '.', ops[i].tok.len))
            return ptx_fail(P, &ops[i].tok, "a video instruction's element mask or selectors are not supported yet");
    Opcode row = op == 2 ? OP_VABSDIFF : OP_VSIMD;
    if (!ptx_nops(P, opt, n, 4, 4) || !ptx_reg_form(P, opt, row, ops, n, in)) return false;
    in->type = TYPE_NONE;
    in->mod = (uint8_t)op;
    in->sub = sub;
    return ptx_emit(P, in, g);
}
