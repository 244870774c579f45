/* isa/ptx_decode.c -- one PTX instruction -> one (or two) Instr on rows of
** isa/opcodes.def, with the operand widths the row's `wide` column says and
** the SASS cost its `lower` column says (the kernel-wide folds and the load
** hoisting are isa/ptx_lower.c). Here: the builders the decoders share, the
** instruction read (guard, head and modifiers, operands), the table of
** decoders by head (isa/ptx_decode_ops.c), and the plain register rows.
** Sources: the PTX ISA manual (each instruction's syntax and semantics) and
** the SASS of the CUDA twins on an H200 (validate/results/h200/sass.txt)
** for what ptxas makes of them (sim/presets/SOURCES.md, "PTX lowering").
** What is not decoded is an error at the opcode: "'X' is not supported yet". */
#include "isa/ptx_int.h"

#include "base/bits.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- building */

bool ptx_unsupported(Ptx *P, const Tok *t)
{
    char q[80];
    return ptx_fail(P, t, "'%s' is not supported yet by the PTX front end (docs/PTX.md lists what is)", ptx_quote(t, q, sizeof q));
}

const char *ptx_cls_name(uint8_t c)
{
    return c == VREG_32 ? "a 32-bit register" : c == VREG_64 ? "a 64-bit register" : "a predicate";
}

/* Register operand of class want (VREG_32 also accepts the 16-bit ones). */
bool ptx_want_reg(Ptx *P, const POp *o, uint8_t want, Operand *out, const char *what)
{
    char q[80];
    if (o->sink) return ptx_fail(P, &o->tok, "the sink '_' cannot stand for %s here", what);
    if (o->kind != PO_REG)
        return ptx_fail(P, &o->tok, "expected %s as %s, found '%s'", ptx_cls_name(want), what, ptx_quote(&o->tok, q, sizeof q));
    if (o->cls != want)
        return ptx_fail(P, &o->tok, "wrong operand type: expected %s as %s, found '%s' (%s)", ptx_cls_name(want), what,
                        ptx_quote(&o->tok, q, sizeof q), ptx_cls_name(o->cls));
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
bool ptx_want_src(Ptx *P, const POp *o, bool w64, bool is_float, Operand *out, const char *what)
{
    char q[80];
    memset(out, 0, sizeof *out);
    if (o->kind == PO_REG) return ptx_want_reg(P, o, w64 ? VREG_64 : VREG_32, out, what);
    if (o->kind == PO_WORD && o->var >= 0) { /* a module variable's address */
        uint32_t a = P->prog->vars[o->var].addr;
        out->kind = OPND_IMM;
        out->value = a;
        if (w64) out->index = pool(P, a);
        if (out->index == 0xffff) return ptx_fail(P, &o->tok, "too many 64-bit constants in one kernel");
        P->varrefs++;
        return true;
    }
    if (o->kind == PO_WORD && o->sym) { /* the address of a .shared variable */
        out->kind = OPND_IMM;
        out->value = o->sym->offset;
        if (w64) out->index = pool(P, o->sym->offset);
        return true;
    }
    if (o->kind != PO_IMM)
        return ptx_fail(P, &o->tok, "expected a register or a number as %s, found '%s'", what, ptx_quote(&o->tok, q, sizeof q));
    out->kind = OPND_IMM;
    if (is_float && w64) { /* an f64: its bits from the pool */
        double d = o->is_float ? o->fval : (double)o->ival;
        uint64_t bits = bits_of_f64(d);
        out->value = (uint32_t)bits;
        out->index = pool(P, bits);
        if (out->index == 0xffff) return ptx_fail(P, &o->tok, "too many 64-bit constants in one kernel");
        return true;
    }
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

bool ptx_fresh_reg(Ptx *P, const Tok *at, uint8_t cls, uint32_t *v)
{
    if (!ptx_grow(P, (void **)&P->vclass, &P->vclass_cap, P->nv + 1, 1)) return false;
    if (P->nv >= 0xffff) return ptx_fail(P, at, "too many registers in one kernel");
    P->vclass[P->nv] = cls;
    *v = P->nv++;
    return true;
}

bool ptx_nops(Ptx *P, const Tok *op, uint32_t have, uint32_t lo, uint32_t hi)
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
bool ptx_emit(Ptx *P, Instr *in, uint32_t g)
{
    Kernel *k = P->k;
    for (uint32_t i = 0; i < P->npaddrs; i++) /* a register that held a parameter's address is written */
        for (uint32_t d = 0; d < in->ndst; d++)
            if (in->dst[d].kind == OPND_REG && in->dst[d].index == P->paddrs[i].v) P->paddrs[i].param = -1;
    if (!ptx_grow(P, (void **)&k->code, &P->code_cap, k->ncode + 1, sizeof *in)) return false;
    if (!ptx_grow(P, (void **)&P->guard_v, &P->guard_cap, k->ncode + 1, sizeof *P->guard_v)) return false;
    const OpInfo *info = &OP_INFO[in->op];
    if (!(in->iflags & INSTR_COSTED) && !in->lunit && !in->llat && !in->slots) { /* from the table, unless the decoder set it */
        in->slots = info->lower.slots;
        in->lunit = info->lower.unit;
        in->llat = info->lower.latency;
    }
    P->guard_v[k->ncode] = g;
    if (P->varrefs) in->iflags |= INSTR_VARREF;
    P->varrefs = 0;
    k->code[k->ncode++] = *in;
    return true;
}

/* Generic register instruction: dst then sources in the widths of the row. */
bool ptx_reg_form(Ptx *P, const Tok *opt, Opcode op, const POp *ops, uint32_t n, Instr *in)
{
    const OpInfo *info = &OP_INFO[op];
    bool fl = ptx_is_float(info->type) || ptx_is_float((ValueType)in->type);
    in->op = (uint8_t)op;
    uint32_t need = info->format == FMT_DA ? 2 : info->format == FMT_DAB ? 3 : info->format == FMT_DABC ? 4 : 5;
    if (!ptx_nops(P, opt, n, need, need)) return false;
    in->ndst = 1;
    in->nsrc = (uint8_t)(need - 1);
    if (!ptx_want_reg(P, &ops[0], (info->wide & W_D) ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    static const uint32_t wb[] = { W_A, W_B, W_C, 0 };
    static const char *const what[] = { "the first source", "the second source", "the third source", "the fourth source" };
    for (uint32_t i = 1; i < need; i++)
        if (!ptx_want_src(P, &ops[i], (info->wide & wb[i - 1]) != 0, fl, &in->src[i - 1], what[i - 1])) return false;
    return true;
}

bool ptx_add_ref(Ptx *P, const POp *o, uint32_t instr)
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
    { "brev", TYPE_B32, OP_BREV_B32 }, { "brev", TYPE_B64, OP_BREV_B64 }, { "bfe", TYPE_U32, OP_BFE_U32 },  { "bfe", TYPE_S32, OP_BFE_S32 },
    { "bfi", TYPE_B32, OP_BFI_B32 },  { "bfi", TYPE_B64, OP_BFI_B64 },  { "lop3", TYPE_B32, OP_LOP3_B32 },  { "sad", TYPE_U32, OP_SAD_U32 },
    { "sad", TYPE_S32, OP_SAD_S32 },  { "bfind", TYPE_U32, OP_BFIND_U32 }, { "bfind", TYPE_S32, OP_BFIND_S32 },
    { "bfind", TYPE_U64, OP_BFIND_U64 }, { "bfind", TYPE_S64, OP_BFIND_S64 },  { "copysign", TYPE_F32, OP_COPYSIGN_F32 },
    { "fma", TYPE_F32, OP_FMA_F32 },  { "tanh", TYPE_F32, OP_TANH_F32 }, { "fns", TYPE_B32, OP_FNS_B32 },
    { NULL, TYPE_NONE, OP_COUNT },
};

/* The row of an .f64 instruction (add, mul, fma, div, ...), or OP_COUNT. */
static Opcode f64_row(const char *head, const Mods *m)
{
    bool plain = m->rnd == RND_NONE;
    bool rounded = m->rnd == RND_RN || m->rnd == RND_RZ || m->rnd == RND_RM || m->rnd == RND_RP; /* any of the four */
    if (m->lo || m->hi || m->wide) return OP_COUNT;
    if (!strcmp(head, "add")) return plain || rounded ? OP_ADD_F64 : OP_COUNT;
    if (!strcmp(head, "sub")) return plain || rounded ? OP_SUB_F64 : OP_COUNT;
    if (!strcmp(head, "mul")) return plain || rounded ? OP_MUL_F64 : OP_COUNT;
    if (!strcmp(head, "fma") || !strcmp(head, "mad")) return rounded ? OP_FMA_F64 : OP_COUNT;
    if (!strcmp(head, "div")) return rounded ? OP_DIV_F64 : OP_COUNT;
    if (!strcmp(head, "rcp")) return rounded ? OP_RCP_F64 : m->approx ? OP_RCP_APPROX_F64 : OP_COUNT;
    if (!strcmp(head, "sqrt")) return rounded ? OP_SQRT_F64 : OP_COUNT;
    if (!strcmp(head, "rsqrt")) return m->approx ? OP_RSQRT_F64 : OP_COUNT;
    if (!plain) return OP_COUNT;
    static const struct { const char *h; Opcode op; } PLAIN[] = {
        { "min", OP_MIN_F64 }, { "max", OP_MAX_F64 }, { "abs", OP_ABS_F64 }, { "neg", OP_NEG_F64 }, { "copysign", OP_COPYSIGN_F64 },
    };
    for (size_t i = 0; i < sizeof PLAIN / sizeof PLAIN[0]; i++)
        if (!strcmp(head, PLAIN[i].h)) return PLAIN[i].op;
    return OP_COUNT;
}

Opcode ptx_arith_row(const char *head, const Mods *m)
{
    ValueType t = ptx_last_type(m);
    if (m->ntypes != 1) return OP_COUNT;
    if (t == TYPE_F64) return f64_row(head, m);
    /* add, sub, mul and fma on f32 also take the directed modes */
    if (t == TYPE_F32 && (m->rnd == RND_RZ || m->rnd == RND_RM || m->rnd == RND_RP)) {
        static const struct { const char *h; Opcode op; } DIR[] = {
            { "add", OP_ADD_DIR_F32 }, { "sub", OP_SUB_DIR_F32 }, { "mul", OP_MUL_DIR_F32 }, { "fma", OP_FMA_DIR_F32 }, { "mad", OP_FMA_DIR_F32 },
            { "div", OP_DIV_DIR_F32 }, { "rcp", OP_RCP_DIR_F32 }, { "sqrt", OP_SQRT_DIR_F32 },
        };
        for (size_t i = 0; i < sizeof DIR / sizeof DIR[0]; i++)
            if (!strcmp(head, DIR[i].h)) return DIR[i].op;
        return OP_COUNT;
    }
    if (!strcmp(head, "mul")) {
        if (t == TYPE_F32) return m->lo || m->hi || m->wide ? OP_COUNT : OP_MUL_F32;
        if (m->wide) return t == TYPE_S32 ? OP_MUL_WIDE_S32 : t == TYPE_U32 ? OP_MUL_WIDE_U32 : OP_COUNT;
        if (m->lo) return t == TYPE_S32 ? OP_MUL_LO_S32 : t == TYPE_U32 ? OP_MUL_LO_U32 : ptx_is64(t) ? OP_MUL_LO_S64 : OP_COUNT;
        if (m->hi) return t == TYPE_S32 ? OP_MUL_HI_S32 : t == TYPE_U32 ? OP_MUL_HI_U32 : t == TYPE_S64 ? OP_MUL_HI_S64
                        : t == TYPE_U64 || t == TYPE_B64 ? OP_MUL_HI_U64 : OP_COUNT;
        return OP_COUNT;
    }
    if (!strcmp(head, "mad")) {
        if (t == TYPE_F32) return m->lo || m->hi || m->wide ? OP_COUNT : OP_FMA_F32;
        if (m->wide) return t == TYPE_S32 ? OP_MAD_WIDE_S32 : t == TYPE_U32 ? OP_MAD_WIDE_U32 : OP_COUNT;
        if (m->lo) return t == TYPE_S32 ? OP_MAD_LO_S32 : t == TYPE_U32 ? OP_MAD_LO_U32 : ptx_is64(t) ? OP_MAD_LO_S64 : OP_COUNT;
        if (m->hi) return t == TYPE_S32 ? OP_MAD_HI_S32 : t == TYPE_U32 ? OP_MAD_HI_U32 : OP_COUNT;
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
    /* float arithmetic takes .rn (the default) and .ftz (not modelled) */
    if (t == TYPE_F32 && (m->rnd != RND_NONE && m->rnd != RND_RN)) return OP_COUNT;
    if (!strcmp(head, "fma") && m->rnd != RND_RN) return OP_COUNT;
    for (const Arith *a = ARITH; a->head; a++)
        if (!strcmp(a->head, head) && a->t == t) return a->op;
    if ((!strcmp(head, "and") || !strcmp(head, "or") || !strcmp(head, "xor") || !strcmp(head, "not")) &&
        (t == TYPE_U32 || t == TYPE_S32))
        return ptx_arith_row(head, &(Mods){ .types = { TYPE_B32 }, .ntypes = 1 });
    if ((!strcmp(head, "popc") || !strcmp(head, "clz") || !strcmp(head, "shl")) && (t == TYPE_U32 || t == TYPE_S32))
        return ptx_arith_row(head, &(Mods){ .types = { TYPE_B32 }, .ntypes = 1 });
    return OP_COUNT;
}

/* Instructions (by their first words) that PTX has and the front end does
** not take yet: refused by name before their operands are read. */
static const char *const NOT_YET[] = { "brkpt", "brx", "txq", "sured",
                                       "suq", "wmma", "mma", "wgmma", "ldmatrix", "stmatrix",
                                       "mapa", "getctarank", "istypep",
                                       "pmevent", "setmaxnreg", "stackrestore", "stacksave",
                                       "alloca", "cvt.pack",
                                       "barrier.cluster", "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr",
                                       "vmad", "vset", "vavrg2", "vset2", "vavrg4", "vset4", NULL };

bool ptx_is_callparam(const Ptx *P, uint32_t v)
{
    for (uint32_t i = 0; i < P->ncallparams; i++)
        if (P->callparams[i] == v) return true;
    return false;
}

/* The operands of `call[.uni] [(ret),] func[, (args, ...)];` into ops: the
** return register or PO_NONE, the function's name (PO_WORD), the arguments. */
static bool read_call(Ptx *P, const Tok *opt, POp *ops, uint32_t *nops_out)
{
    char q[80];
    uint32_t n = 0;
    memset(&ops[0], 0, sizeof ops[0]);
    ops[0].kind = PO_NONE;
    n++;
    if (ptx_punct(&P->tok, '(')) {
        ptx_next(P);
        if (!ptx_parse_operand(P, &ops[0])) return false;
        if (!ptx_expect(P, ')', "after the call's return value") || !ptx_expect(P, ',', "after the call's return value"))
            return false;
    }
    if (P->tok.kind != TK_WORD) return ptx_fail(P, &P->tok, "expected the function a call names, found '%s'", ptx_quote(&P->tok, q, sizeof q));
    memset(&ops[1], 0, sizeof ops[1]);
    ops[1].kind = PO_WORD;
    ops[1].tok = P->tok;
    n++;
    ptx_next(P);
    if (ptx_punct(&P->tok, ',')) {
        ptx_next(P);
        if (!ptx_expect(P, '(', "before the call's arguments")) return false;
        while (!ptx_punct(&P->tok, ')')) {
            if (n == MAX_OPS) return ptx_fail(P, &P->tok, "too many arguments in '%s'", ptx_quote(opt, q, sizeof q));
            if (!ptx_parse_operand(P, &ops[n++])) return false;
            if (ptx_punct(&P->tok, ',')) ptx_next(P);
            else if (!ptx_punct(&P->tok, ')')) return ptx_fail(P, &P->tok, "expected ',' or ')' in the call's arguments, found '%s'",
                                                              ptx_quote(&P->tok, q, sizeof q));
        }
        ptx_next(P); /* ')' */
    }
    if (ptx_punct(&P->tok, ',') && ops[1].tok.s[0] == '%') { /* an indirect call's prototype: the arguments say it */
        ptx_next(P);
        if (P->tok.kind != TK_WORD) return ptx_fail(P, &P->tok, "expected the call's prototype, found '%s'", ptx_quote(&P->tok, q, sizeof q));
        ptx_next(P);
    }
    if (!ptx_expect(P, ';', "after the call")) return false;
    *nops_out = n;
    return true;
}

/* Reads one instruction from P's tokens through its ';': its guard (*g: the
** guard's virtual register, or UINT32_MAX; in->guard and guard_neg), its
** name (*opt) split into head and modifiers (*m), and its operands. */
static bool read_instruction(Ptx *P, Instr *in, uint32_t *g, Tok *opt, char *head, size_t head_cap, Mods *m, POp *ops,
                             uint32_t *nops_out)
{
    char q[80];
    memset(in, 0, sizeof *in);
    in->guard = ISA_NO_GUARD;
    in->vec = 1;
    in->reconv = ISA_NO_RECONV;
    in->line = P->tok.line;
    in->col = P->tok.col;
    in->src_file = P->loc_file;
    in->src_line = P->loc_line;
    in->call_file = P->loc_inl_file;
    in->call_line = P->loc_inl_line;
    *g = UINT32_MAX;
    if (ptx_punct(&P->tok, '@')) {
        ptx_next(P);
        bool negp = false;
        if (ptx_punct(&P->tok, '!')) negp = true, ptx_next(P);
        uint8_t cls;
        Tok gt = P->tok;
        if (gt.kind != TK_WORD || !ptx_reg(P, &gt, g, &cls)) return P->failed ? false : ptx_fail(P, &gt, "expected a predicate after '@'");
        if (cls != VREG_PRED) return ptx_fail(P, &gt, "wrong operand type: a guard is a predicate, '%s' is %s", ptx_quote(&gt, q, sizeof q), ptx_cls_name(cls));
        in->guard = 0; /* set by the allocator */
        in->guard_neg = negp;
        ptx_next(P);
    }
    *opt = P->tok;
    if (opt->kind != TK_WORD) return ptx_fail(P, opt, "expected an instruction, found '%s'", ptx_quote(opt, q, sizeof q));
    for (int i = 0; NOT_YET[i]; i++) {
        size_t hl = strlen(NOT_YET[i]);
        if (opt->len >= hl && memcmp(opt->s, NOT_YET[i], hl) == 0 && (opt->len == hl || opt->s[hl] == '.'))
            return ptx_unsupported(P, opt);
    }
    if (!ptx_parse_mods(P, opt, head, head_cap, m)) return false;
    ptx_next(P);
    if (!strcmp(head, "call")) return read_call(P, opt, ops, nops_out);
    if (ptx_is_tex_head(head)) return ptx_read_tex_operands(P, opt, ops, nops_out); /* [object, coordinates] */
    uint32_t n = 0;
    while (!ptx_punct(&P->tok, ';')) {
        if (P->tok.kind == TK_EOF) return ptx_fail(P, &P->tok, "end of file in '%s': expected ';'", ptx_quote(opt, q, sizeof q));
        if (n == MAX_OPS) return ptx_fail(P, &P->tok, "too many operands for '%s'", ptx_quote(opt, q, sizeof q));
        if (!ptx_parse_operand(P, &ops[n++])) return false;
        char q2[80];
        if (ptx_punct(&P->tok, ',')) {
            ptx_next(P);
            if (ptx_punct(&P->tok, ';')) return ptx_fail(P, &P->tok, "expected an operand after ','");
        } else if (P->tok.kind == TK_EOF) {
            return ptx_fail(P, &P->tok, "end of file in '%s': expected ';'", ptx_quote(opt, q, sizeof q));
        } else if (!ptx_punct(&P->tok, ';')) {
            return ptx_fail(P, &P->tok, "expected ',' or ';' after an operand of '%s', found '%s'", ptx_quote(opt, q, sizeof q),
                            ptx_quote(&P->tok, q2, sizeof q2));
        }
    }
    ptx_next(P); /* ';' */
    *nops_out = n;
    return true;
}

/* and / or / xor / not on predicates (the same heads on registers are
** arithmetic rows). */
static bool is_pred_logic(const char *head, const Mods *m)
{
    return (!strcmp(head, "and") || !strcmp(head, "or") || !strcmp(head, "xor") || !strcmp(head, "not")) && m->ntypes == 1 &&
           ptx_last_type(m) == TYPE_NONE;
}

static bool decode_pred_logic(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                              uint32_t g)
{
    (void)m;
    bool unary = head[0] == 'n';
    if (!ptx_nops(P, opt, n, unary ? 2 : 3, unary ? 2 : 3)) return false;
    in->op = (uint8_t)(head[0] == 'a' ? OP_AND_PRED : head[0] == 'o' ? OP_OR_PRED : head[0] == 'x' ? OP_XOR_PRED : OP_NOT_PRED);
    in->ndst = 1;
    in->nsrc = (uint8_t)(n - 1);
    if (!ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the destination")) return false;
    for (uint32_t i = 1; i < n; i++)
        if (!ptx_want_reg(P, &ops[i], VREG_PRED, &in->src[i - 1], "a source")) return false;
    return ptx_emit(P, in, g);
}

/* Whether head is the first word of some opcode row's mnemonic: an
** instruction the front end knows, in a form it does not take. */
static bool known_head(const char *head)
{
    size_t hl = strlen(head);
    for (int op = 0; op < OP_COUNT; op++) {
        const char *mn = OP_INFO[op].mnemonic;
        if (!strncmp(mn, head, hl) && (mn[hl] == '.' || mn[hl] == 0)) return true;
    }
    return false;
}

/* The plain register rows (arith_row): add, mul, fma, min, shifts, ... */
static bool decode_arith(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                         uint32_t g)
{
    char q[80];
    if (m->i16x2 || m->relu) return ptx_decode_simd16(P, opt, head, m, ops, n, in, g);
    if (m->ntypes == 1 && ptx_is16(ptx_last_type(m))) return ptx_decode_int16(P, opt, head, m, ops, n, in, g);
    Opcode op = ptx_arith_row(head, m);
    if (op == OP_COUNT)
        return known_head(head) ? ptx_unsupported(P, opt) : ptx_fail(P, opt, "unknown instruction '%s'", ptx_quote(opt, q, sizeof q));
    if (m->sat || m->nan) return ptx_unsupported(P, opt);
    in->type = (uint8_t)(ptx_is_float(OP_INFO[op].type) ? OP_INFO[op].type : TYPE_NONE);
    if (!ptx_reg_form(P, opt, op, ops, n, in)) return false;
    in->type = (uint8_t)OP_INFO[op].type;
    if (OP_INFO[op].flags & OPF_ROUND) in->sub = (uint8_t)m->rnd;
    if (op == OP_BFIND_U32 || op == OP_BFIND_S32 || op == OP_BFIND_U64 || op == OP_BFIND_S64) in->sub = m->shiftamt;
    else if (m->shiftamt) return ptx_unsupported(P, opt);
    return ptx_emit(P, in, g);
}

/* Each instruction head and its decoder; a head not here is a plain
** register row (decode_arith). */
typedef bool (*Decoder)(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                        uint32_t g);
static const struct {
    const char *head;
    Decoder     decode;
} DECODERS[] = {
    { "ld", ptx_decode_ldst },        { "ldu", ptx_decode_ldst },         { "st", ptx_decode_ldst },
    { "atom", ptx_decode_atom },      { "red", ptx_decode_atom },         { "cvt", ptx_decode_cvt },
    { "setp", ptx_decode_setp },      { "mov", ptx_decode_mov },          { "cvta", ptx_decode_cvta },
    { "selp", ptx_decode_selp },      { "bra", ptx_decode_flow },         { "ret", ptx_decode_flow },
    { "exit", ptx_decode_flow },      { "trap", ptx_decode_flow },      { "bar", ptx_decode_bar },          { "barrier", ptx_decode_bar },
    { "membar", ptx_decode_membar },  { "fence", ptx_decode_membar },     { "prefetch", ptx_decode_prefetch },
    { "prefetchu", ptx_decode_prefetch },     { "shfl", ptx_decode_shfl },
    { "vote", ptx_decode_vote },      { "activemask", ptx_decode_activemask }, { "redux", ptx_decode_redux },
    { "testp", ptx_decode_testp },    { "isspacep", ptx_decode_isspacep },    { "prmt", ptx_decode_prmt },        { "shf", ptx_decode_shf },
    { "slct", ptx_decode_slct },      { "call", ptx_decode_call },      { "match", ptx_decode_match },      { "dp4a", ptx_decode_dp4a }, { "dp2a", ptx_decode_dp4a }, { "nanosleep", ptx_decode_nanosleep },
    { "bmsk", ptx_decode_bitfield_mode }, { "szext", ptx_decode_bitfield_mode },
    { "addc", ptx_decode_carry },     { "subc", ptx_decode_carry },       { "madc", ptx_decode_carry },
    { "vadd2", ptx_decode_video },    { "vsub2", ptx_decode_video },      { "vabsdiff2", ptx_decode_video },
    { "vmin2", ptx_decode_video },    { "vmax2", ptx_decode_video },      { "vadd4", ptx_decode_video },
    { "vsub4", ptx_decode_video },    { "vabsdiff4", ptx_decode_video },  { "vmin4", ptx_decode_video },
    { "vmax4", ptx_decode_video },
    { "cp", ptx_decode_cp },          { "mbarrier", ptx_decode_mbarrier },
    { "griddepcontrol", ptx_decode_griddep }, { "discard", ptx_decode_l2_hint }, { "applypriority", ptx_decode_l2_hint },
    { "createpolicy", ptx_decode_createpolicy }, { "elect", ptx_decode_elect },
    { "tex", ptx_decode_tex },        { "tld4", ptx_decode_tex },         { "suld", ptx_decode_tex },
    { "sust", ptx_decode_tex },
};

/* A barrier's a{, b} (the barrier, 0-15, and its thread count, a positive
** multiple of 32), immediates or registers, into src[first], src[first+1]. */
static bool barrier_operands(Ptx *P, const POp *ops, uint32_t n, Instr *in, uint32_t first)
{
    for (uint32_t i = 0; i < n; i++) {
        const POp *o = &ops[i];
        if (o->kind == PO_IMM && i == 0 && (o->ival < 0 || o->ival >= 16))
            return ptx_fail(P, &o->tok, "barrier %lld does not exist: a block has barriers 0-15", (long long)o->ival);
        if (o->kind == PO_IMM && i == 1 && (o->ival <= 0 || o->ival % 32))
            return ptx_fail(P, &o->tok, "a barrier's thread count must be a positive multiple of 32; found %lld",
                            (long long)o->ival);
        if (!ptx_want_src(P, o, false, false, &in->src[first + i], i ? "the thread count" : "the barrier")) return false;
    }
    in->nsrc = (uint8_t)(first + n);
    return true;
}

/* bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b},
** {!}c (__syncthreads_count, _and, _or; barrier.red too): barrier a that
** reduces c over the threads that meet at it into every one's d or p.
** Instr.mod: 0 popc, 1 and, 2 or; src[0] c, src[1] a, src[2] b. */
static bool decode_bar_red(Ptx *P, const Tok *opt, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    ValueType t = ptx_last_type(m);
    bool popc = m->popc && m->boolop < 0 && m->ntypes == 1 && t == TYPE_U32;
    bool vote = !m->popc && m->boolop >= 0 && m->ntypes == 1 && t == TYPE_NONE;
    if (!popc && !vote) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 3, 4)) return false;
    if (g != UINT32_MAX) return ptx_fail(P, opt, "'bar.red' cannot be predicated: every thread of the block must reach it");
    in->op = OP_BAR_RED;
    in->type = (uint8_t)t;
    in->mod = (uint8_t)(popc ? 0 : 1 + m->boolop);
    in->ndst = 1;
    return ptx_want_reg(P, &ops[0], popc ? VREG_32 : VREG_PRED, &in->dst[0], "the destination") &&
           ptx_want_reg(P, &ops[n - 1], VREG_PRED, &in->src[0], "the predicate") &&
           barrier_operands(P, &ops[1], n - 2, in, 1) && ptx_emit(P, in, g);
}

/* bar.sync / barrier.sync a{, b} and bar.arrive / barrier.arrive a, b
** (named barriers: isa/exec_barrier.c), bar.warp.sync (the warp). */
bool ptx_decode_bar(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char q[80];
    if (m->ntypes == 0 && !strcmp(head, "bar") && m->sync && opt->len > 8 && !memcmp(opt->s, "bar.warp", 8)) {
        if (!ptx_nops(P, opt, n, 1, 1)) return false;
        in->op = OP_BAR_WARP;
        in->nsrc = 1;
        if (!ptx_want_src(P, &ops[0], false, false, &in->src[0], "the member mask")) return false;
        return ptx_emit(P, in, g);
    }
    if (m->red) return decode_bar_red(P, opt, m, ops, n, in, g);
    bool arrive = opt->len > 4 && strstr(ptx_text(opt, q, sizeof q), ".arrive");
    if (!arrive && !(m->sync || !strcmp(q, "bar.sync") || !strcmp(q, "barrier.sync"))) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, arrive ? 2 : 1, 2)) return false; /* an arrival names its count */
    if (g != UINT32_MAX)
        return ptx_fail(P, opt, "'%s' cannot be predicated: every thread that meets there must reach it",
                        arrive ? "bar.arrive" : "bar.sync");
    in->op = arrive ? OP_BAR_ARRIVE : OP_BAR_SYNC;
    in->type = TYPE_NONE;
    return barrier_operands(P, ops, n, in, 0) && ptx_emit(P, in, g);

}

/* Extended-precision integer arithmetic, chained through the carry flag
** CC.CF (a virtual predicate of the kernel's, P->carry_v): add.cc, addc,
** sub.cc, subc (each .cc or not), mad{.lo,.hi}.cc and madc{.lo,.hi}, on
** .u32/.s32 (add and sub also .u64/.s64). Instr.sub: bit 0 reads the
** carry, bit 1 writes it; Instr.mod: 1 for sub (a borrow chain) or .hi. */
bool ptx_decode_carry(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    bool carry_in = head[strlen(head) - 1] == 'c', is_mad = head[0] == 'm', is_sub = head[0] == 's';
    ValueType t = m->ntypes == 1 ? m->types[0] : TYPE_NONE;
    bool wide = t == TYPE_U64 || t == TYPE_S64;
    if ((t != TYPE_U32 && t != TYPE_S32 && !wide) || (is_mad && (wide || m->lo == m->hi)) || (!is_mad && (m->lo || m->hi)) ||
        m->sat || m->wide)
        return ptx_unsupported(P, opt);
    Opcode op = is_mad ? OP_MADC_U32 : wide ? OP_ADDC_U64 : OP_ADDC_U32;
    if (!ptx_reg_form(P, opt, op, ops, n, in)) return false;
    if (P->carry_v == UINT32_MAX && !ptx_fresh_reg(P, opt, VREG_PRED, &P->carry_v)) return false;
    POp cf = { .kind = PO_REG, .tok = *opt, .v = P->carry_v, .cls = VREG_PRED };
    in->type = (uint8_t)t;
    in->mod = (uint8_t)(is_sub || (is_mad && m->hi));
    in->sub = (uint8_t)(carry_in | (m->cc ? 2 : 0));
    if (carry_in && !ptx_want_reg(P, &cf, VREG_PRED, &in->src[in->nsrc++], "the carry flag")) return false;
    if (m->cc && !ptx_want_reg(P, &cf, VREG_PRED, &in->dst[in->ndst++], "the carry flag")) return false;
    return ptx_emit(P, in, g);
}

static bool instruction(Ptx *P);

bool ptx_instruction(Ptx *P)
{
    P->in_instr = true;
    bool ok = instruction(P);
    P->in_instr = false;
    if (ok && P->call.active) ok = ptx_func_inline(P); /* a device function's call: its body here */
    return ok;
}

static bool instruction(Ptx *P)
{
    Instr in;
    uint32_t g = UINT32_MAX, n = 0;
    Tok opt;
    char head[24];
    Mods m;
    POp ops[MAX_OPS];
    if (!read_instruction(P, &in, &g, &opt, head, sizeof head, &m, ops, &n)) return false;
    bool simd_head = !strcmp(head, "add") || !strcmp(head, "sub") || !strcmp(head, "min") || !strcmp(head, "max");
    if (m.f8 && !strcmp(head, "cvt")) return ptx_decode_cvt_f8(P, &opt, head, &m, ops, n, &in, g);
    if (m.f8 || m.satfinite) return ptx_unsupported(P, &opt);
    if ((m.relu || m.i16x2) && (!simd_head || m.f16)) return ptx_unsupported(P, &opt); /* fma.relu.f16, cvt.relu ... */
    if (ptx_is_half_arith(head, &m)) return ptx_decode_half(P, &opt, head, &m, ops, n, &in, g);
    if (m.f16 && !strcmp(head, "cvt")) return ptx_decode_cvt_half2(P, &opt, head, &m, ops, n, &in, g);
    if (m.f16 && (!strcmp(head, "atom") || !strcmp(head, "red"))) return ptx_decode_atom(P, &opt, head, &m, ops, n, &in, g);
    if (m.f16) return ptx_unsupported(P, &opt);
    in.type = (uint8_t)ptx_last_type(&m);
    if (is_pred_logic(head, &m)) return decode_pred_logic(P, &opt, head, &m, ops, n, &in, g);
    if (m.cc) return ptx_decode_carry(P, &opt, head, &m, ops, n, &in, g); /* add.cc, sub.cc, mad.lo.cc ... */
    for (size_t i = 0; i < sizeof DECODERS / sizeof DECODERS[0]; i++)
        if (!strcmp(head, DECODERS[i].head)) return DECODERS[i].decode(P, &opt, head, &m, ops, n, &in, g);
    return decode_arith(P, &opt, head, &m, ops, n, &in, g);
}
