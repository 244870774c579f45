/* isa/ptx_decode_ops.c -- the decoders of the PTX instructions with
** operand shapes of their own, one per instruction head (isa/ptx_decode.c
** reads an instruction and picks its decoder; the plain register rows,
** add.s32 to tanh.approx.f32, are decoded there): memory (ld, st, atom,
** red), conversions and compares (cvt, cvta, setp, selp), moves, control
** (bra, ret, exit, bar, membar; call is isa/ptx_func.c's), warp-wide (shfl; vote, activemask and redux are isa/ptx_decode_hints.c's)
** and bit operations (prmt, shf, slct, testp). Each fills *in from the
** operands through ptx_decode.c's builders and emits it, or fails with the
** PTX line and column. Sources as isa/ptx_decode.c's. */
#include "isa/ptx_int.h"

#include <string.h>

/* The memory operand into src[0] + offset, for an access of `space`. */
bool ptx_mem_operand(Ptx *P, const POp *o, MemSpace space, Instr *in)
{
    char q[80];
    if (o->kind != PO_MEM) return ptx_fail(P, &o->tok, "expected an address [..], found '%s'", ptx_quote(&o->tok, q, sizeof q));
    if (o->param >= 0) return ptx_fail(P, &o->tok, "a parameter is read with ld.param, not as an address of this space");
    memset(&in->src[0], 0, sizeof in->src[0]);
    int64_t disp = o->disp;
    if (o->var >= 0) {
        if (space == SPACE_SHARED)
            return ptx_fail(P, &o->tok, "'%s' is a .global or .const variable, not shared memory",
                            P->prog->vars[o->var].name);
        disp += P->prog->vars[o->var].addr;
        P->varrefs++;
    }
    if (o->sym && o->sym->local) {
        if (space != SPACE_LOCAL && space != SPACE_GENERIC)
            return ptx_fail(P, &o->tok, "'%s' is a .local variable: use ld.local / st.local", o->sym->name);
        disp += o->sym->offset + (space == SPACE_GENERIC ? (int64_t)ISA_LOCAL_WINDOW : 0);
    } else if (o->sym) {
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

/* ld.param: a parameter (or part of one: a struct's field) into registers;
** free (ptxas reads it as a constant-bank operand). */
/* st.param / ld.param of a call's parameter (a register in this front end):
** a move into or out of it, free. */
static bool callparam_move(Ptx *P, const Tok *opt, const Mods *m, bool store, uint32_t words, const POp *addr, const POp *val,
                           Instr *in, uint32_t g)
{
    if (ptx_func_is_agg(P, addr->v)) return ptx_func_agg_move(P, opt, m, store, addr, val, in, g);
    if (addr->disp || m->vec > 1) return ptx_unsupported(P, opt);
    POp reg = { .kind = PO_REG, .tok = addr->tok, .v = addr->v, .cls = addr->cls };
    uint8_t want = words == 2 ? VREG_64 : VREG_32;
    in->op = (uint8_t)(words == 2 ? OP_MOV_B64 : OP_MOV);
    in->type = (uint8_t)(words == 2 ? TYPE_B64 : TYPE_B32);
    in->ndst = in->nsrc = 1;
    const POp *d = store ? &reg : val, *s = store ? val : &reg;
    return ptx_want_reg(P, d, want, &in->dst[0], "the destination") &&
           ptx_want_src(P, s, words == 2, ptx_is_float(ptx_last_type(m)), &in->src[0], "the source") && ptx_emit(P, in, g);
}

/* The kernel parameter whose address register v holds, or -1. */
static int param_address_of(const Ptx *P, uint32_t v)
{
    for (uint32_t i = P->npaddrs; i-- > 0;)
        if (P->paddrs[i].v == v) return P->paddrs[i].param;
    return -1;
}

/* ld.param [%rd+d] of an address computed at run time (a struct parameter
** indexed by a register, as &param then arithmetic gives it): the
** parameter bytes at %rd + d, where %rd holds a parameter-space address
** (its offset, as mov.b64 %rd, param gives). One scalar. */
static bool ld_param_at_run_time(Ptx *P, const Tok *opt, const Mods *m, ValueType t, uint32_t words, const POp *addr,
                                 const POp *val, Instr *in, uint32_t g)
{
    if (m->vec > 1) return ptx_fail(P, opt, "a vector ld.param through a register computed at run time is not supported");
    if (addr->disp < INT32_MIN || addr->disp > INT32_MAX) return ptx_fail(P, &addr->tok, "address displacement out of range");
    in->op = (uint8_t)(words == 2 ? OP_LD_PARAM_REG64 : OP_LD_PARAM_REG);
    in->type = (uint8_t)t;
    in->offset = (int32_t)addr->disp;
    in->ndst = in->nsrc = 1;
    in->src[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)addr->v };
    return ptx_want_reg(P, val, words == 2 ? VREG_64 : VREG_32, &in->dst[0], "the destination") && ptx_emit(P, in, g);
}

static bool decode_ld_param(Ptx *P, const Tok *opt, const Mods *m, ValueType t, uint32_t words, const POp *addr, const POp *val,
                            Instr *in, uint32_t g)
{
    char q[80];
    if (addr->kind == PO_MEM && addr->has_reg && addr->param < 0 && ptx_is_callparam(P, addr->v))
        return callparam_move(P, opt, m, false, words, addr, val, in, g);
    if (addr->kind == PO_MEM && addr->has_reg && addr->param < 0 && param_address_of(P, addr->v) >= 0) {
        POp at = *addr; /* [%rd+d], %rd a parameter's address */
        at.has_reg = false;
        at.param = param_address_of(P, addr->v);
        return decode_ld_param(P, opt, m, t, words, &at, val, in, g);
    }
    if (addr->kind == PO_MEM && addr->has_reg && addr->param < 0 && addr->cls == VREG_64 && !addr->sym && addr->var < 0)
        return ld_param_at_run_time(P, opt, m, t, words, addr, val, in, g);
    if (addr->kind != PO_MEM || addr->param < 0 || addr->has_reg)
        return ptx_fail(P, &addr->tok, "expected [parameter] after ld.param, found '%s'", ptx_quote(&addr->tok, q, sizeof q));
    if (m->vec > 1 && m->vec * words > 4) return ptx_unsupported(P, opt);
    const KernelParam *kp = &P->k->params[addr->param];
    int64_t off = (int64_t)kp->offset + addr->disp;
    if (off < 0 || off + type_bytes(t) * m->vec > P->k->param_bytes)
        return ptx_fail(P, &addr->tok, "read of %u bytes at offset %lld is outside the parameters (%u bytes)",
                        type_bytes(t) * m->vec, (long long)off, P->k->param_bytes);
    uint8_t want = words == 2 ? VREG_64 : VREG_32;
    if (ptx_issub(t) && m->vec > 1) { /* a vector of bytes or half-words: one read each (free) */
        if (val->kind != PO_VEC || val->nelem != m->vec)
            return ptx_fail(P, &val->tok, "'%s' reads %u elements: expected a vector {..} of that many",
                            ptx_quote(opt, q, sizeof q), m->vec);
        for (uint32_t e = 0; e < m->vec; e++) {
            if (val->eimm[e]) return ptx_fail(P, &val->etok[e], "expected a register in the vector");
            Instr one = *in;
            POp r = { .kind = PO_REG, .tok = val->etok[e], .v = val->ev[e], .cls = val->ecls[e] };
            one.op = OP_LD_PARAM_SUB;
            one.offset = (int32_t)(off + (int64_t)e * type_bytes(t));
            one.ndst = one.nsrc = 1;
            one.src[0] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)((off + (int64_t)e * type_bytes(t)) / 4) };
            if (!ptx_want_reg(P, &r, VREG_32, &one.dst[0], "the destination") || !ptx_emit(P, &one, g)) return false;
        }
        return true;
    }
    if (ptx_issub(t)) {
        in->op = OP_LD_PARAM_SUB;
        in->offset = (int32_t)off;
    } else {
        if (off % 4) return ptx_fail(P, &addr->tok, "parameter read at offset %lld is not 4-byte aligned", (long long)off);
        in->op = OP_LD_PARAM;
        in->vec = (uint8_t)(words * m->vec);
    }
    in->ndst = in->op == OP_LD_PARAM ? in->vec : 1;
    in->nsrc = 1;
    in->src[0].kind = OPND_IMM;
    in->src[0].value = (uint32_t)(off / 4);
    if ((val->kind == PO_VEC) != (m->vec > 1) || (val->kind == PO_VEC && val->nelem != m->vec))
        return ptx_fail(P, &val->tok, "'%s' reads %u element(s): expected %s", ptx_quote(opt, q, sizeof q), m->vec,
                        m->vec > 1 ? "a vector {..} of that many" : "one register");
    for (uint32_t e = 0; e < m->vec; e++) {
        POp one = *val;
        if (val->kind == PO_VEC) {
            if (val->eimm[e]) return ptx_fail(P, &val->etok[e], "expected a register in the vector");
            one = (POp){ .kind = PO_REG, .tok = val->etok[e], .v = val->ev[e], .cls = val->ecls[e] };
        }
        Operand *slot = &in->dst[e * words];
        if (!ptx_want_reg(P, &one, want, slot, "the destination")) return false;
        if (words == 2) {
            slot[1] = slot[0];
            slot[1].neg = 1; /* the high word */
        }
    }
    return ptx_emit(P, in, g);
}

/* ld / st / ldu of every space. */
bool ptx_decode_ldst(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    bool store = !strcmp(head, "st");
    char q[80];
    ValueType t = ptx_last_type(m);
    if (m->f16 || !t || m->ntypes != 1) return ptx_unsupported(P, opt);
    if (m->space == MODS_CONST && store) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, m->cache_hint ? 3 : 2)) return false;
    Operand policy; /* .L2::cache_hint's (createpolicy's): checked, then not kept */
    if (n == 3 && !ptx_want_src(P, &ops[2], true, false, &policy, "the cache policy")) return false;
    const POp *addr = &ops[store ? 0 : 1], *val = &ops[store ? 1 : 0];
    /* the constant space lives in global memory here: ld.const is a global
    ** load (its own cache is not modelled; docs/PTX.md) */
    MemSpace space = m->space == MODS_CONST ? SPACE_GLOBAL : m->space == MODS_LOCAL ? SPACE_LOCAL
                   : m->space < 0 ? SPACE_GENERIC : (MemSpace)m->space;
    uint32_t words = ptx_is64(t) ? 2 : 1; /* a 64-bit element is two 32-bit words in a register pair */
    in->type = (uint8_t)(ptx_is64(t) ? TYPE_B32 : t);
    if (space == SPACE_PARAM && store && addr->kind == PO_MEM && addr->has_reg && ptx_is_callparam(P, addr->v))
        return callparam_move(P, opt, m, true, words, addr, val, in, g);
    if (space == SPACE_PARAM) return !store ? decode_ld_param(P, opt, m, t, words, addr, val, in, g) : ptx_unsupported(P, opt);
    if (m->vec * words > 4) return ptx_unsupported(P, opt);
    in->op = (uint8_t)(ptx_issub(t) ? (space == SPACE_GLOBAL    ? (store ? OP_ST_GLOBAL_SUB : OP_LD_GLOBAL_SUB)
                                       : space == SPACE_LOCAL   ? (store ? OP_ST_LOCAL_SUB : OP_LD_LOCAL_SUB)
                                       : space == SPACE_GENERIC ? (store ? OP_ST_GENERIC_SUB : OP_LD_GENERIC_SUB)
                                                              : (store ? OP_ST_SHARED_SUB : OP_LD_SHARED_SUB))
                       : space == SPACE_GLOBAL ? (store ? OP_ST_GLOBAL : OP_LD_GLOBAL)
                       : space == SPACE_SHARED ? (store ? OP_ST_SHARED : OP_LD_SHARED)
                       : space == SPACE_LOCAL  ? (store ? OP_ST_LOCAL : OP_LD_LOCAL)
                                               : (store ? OP_ST_GENERIC : OP_LD_GENERIC));
    in->vec = (uint8_t)(m->vec * words);
    bool l2_only = m->l2_only || (m->strong && m->wide_scope);
    if (!store && l2_only && m->space != MODS_CONST && (space == SPACE_GLOBAL || space == SPACE_GENERIC))
        in->iflags |= INSTR_L2_ONLY;
    if (!ptx_mem_operand(P, addr, space, in)) return false;
    /* the values: one register, or a vector of them */
    uint32_t nel = m->vec;
    if ((val->kind == PO_VEC) != (m->vec > 1) || (val->kind == PO_VEC && val->nelem != m->vec))
        return ptx_fail(P, &val->tok, "'%s' moves %u element(s): expected %s", ptx_quote(opt, q, sizeof q), m->vec,
                        m->vec > 1 ? "a vector {..} of that many" : "one register");
    bool fl = ptx_is_float(t);
    int32_t widen = -1; /* a 64-bit register a narrower load fills */
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
        if (store && words == 1 && one.kind == PO_REG && one.cls == VREG_64) { /* a wider register: its low word */
            *slot = (Operand){ .kind = OPND_REG, .index = (uint16_t)one.v };
            continue;
        }
        if (store) {
            if (!ptx_want_src(P, &one, words == 2, fl, slot, "the value to store")) return false;
            if (words == 2 && slot->kind == OPND_IMM) { /* a 64-bit constant: its two words */
                uint64_t c = P->k->consts[slot->index];
                slot[0] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)c };
                slot[1] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)(c >> 32) };
                continue;
            }
        } else if (words == 1 && nel == 1 && one.kind == PO_REG && one.cls == VREG_64 && !ptx_is_float(t)) {
            *slot = (Operand){ .kind = OPND_REG, .index = (uint16_t)one.v }; /* into the low word, extended below */
            widen = (int32_t)one.v;
        } else if (!ptx_want_reg(P, &one, words == 2 ? VREG_64 : VREG_32, slot, "the destination")) {
            return false;
        }
        if (words == 2) {
            slot[1] = slot[0];
            slot[1].neg = 1;
        }
    }
    in->ndst = store ? 0 : (uint8_t)(nel * words);
    in->nsrc = store ? (uint8_t)(1 + nel * words) : 1;
    if (!ptx_emit(P, in, g)) return false;
    if (widen < 0) return true;
    /* a narrower load into a 64-bit register: zero- or sign-extended to it,
    ** as PTX defines (a free cvt: ptxas loads into the low register and
    ** sets the high one, or folds it into the user) */
    return ptx_emit_extend(P, in, (uint32_t)widen, (uint32_t)widen, type_signed(t) ? TYPE_S64 : TYPE_U64,
                           type_signed(t) ? TYPE_S32 : TYPE_U32, g);
}

/* atom / red on global or shared memory. */
/* atom.add.noftz / red.add.noftz on .f16 .bf16 .f16x2 .bf16x2, in any space
** (atomicAdd on __half, __half2, __nv_bfloat16, __nv_bfloat162), and
** atom.cas.b16 (atomicCAS on an unsigned short): rows atom.*.half,
** Instr.type the half type (.b16 for the CAS), Instr.sub the halves (1 or 2). */
static bool decode_atom_half(Ptx *P, const Tok *opt, bool red, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (m->space != SPACE_GLOBAL && m->space != SPACE_SHARED && m->space != MODS_NO_SPACE) return ptx_unsupported(P, opt);
    Opcode row = m->space == SPACE_GLOBAL ? OP_ATOM_GLOBAL_HALF : m->space == SPACE_SHARED ? OP_ATOM_SHARED_HALF
                                                                                            : OP_ATOM_GENERIC_HALF;
    bool cas = m->atom == ATOM_CAS; /* atom.cas.b16: compare b, then c */
    uint32_t need = (red ? 2 : 3) + cas;
    if (!ptx_nops(P, opt, n, need, need)) return false;
    in->op = (uint8_t)row;
    in->mod = (uint8_t)m->atom;
    in->type = (uint8_t)ptx_last_type(m);
    in->sub = m->f16 ? 2 : 1;
    in->ndst = 1;
    in->nsrc = (uint8_t)(cas ? 3 : 2);
    const POp *o = ops;
    if (red) {
        uint32_t v = 0;
        if (!ptx_fresh_reg(P, opt, VREG_32, &v)) return false;
        in->dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)v };
    } else if (!ptx_want_reg(P, o++, VREG_32, &in->dst[0], "the destination")) {
        return false;
    }
    return ptx_mem_operand(P, o, OP_INFO[row].space, in) && ptx_want_src(P, o + 1, false, false, &in->src[1], "the operand") &&
           (!cas || ptx_want_src(P, o + 2, false, false, &in->src[2], "the new value")) && ptx_emit(P, in, g);
}

bool ptx_decode_atom(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    bool red = head[0] == 'r';
    ValueType t = ptx_last_type(m);
    if ((((t == TYPE_F16 || t == TYPE_BF16) && m->atom == ATOM_ADD) || (t == TYPE_B16 && m->atom == ATOM_CAS && !red && !m->f16)) &&
        m->ntypes == 1 && m->vec <= 1)
        return decode_atom_half(P, opt, red, m, ops, n, in, g);
    if (m->f16 || m->atom < 0 || m->ntypes != 1 || m->vec > 1) return ptx_unsupported(P, opt);
    if (m->space != SPACE_GLOBAL && m->space != SPACE_SHARED && m->space != MODS_NO_SPACE) return ptx_unsupported(P, opt);
    /* the rows of each space: global, shared, generic (no space: resolved per warp) */
    int sp = m->space == SPACE_GLOBAL ? 0 : m->space == SPACE_SHARED ? 1 : 2;
    static const Opcode F32[] = { OP_ATOM_GLOBAL_F32, OP_ATOM_SHARED_F32, OP_ATOM_GENERIC_F32 };
    static const Opcode S32[] = { OP_ATOM_GLOBAL_S32, OP_ATOM_SHARED_S32, OP_ATOM_GENERIC_S32 };
    static const Opcode U32[] = { OP_ATOM_GLOBAL_U32, OP_ATOM_SHARED_U32, OP_ATOM_GENERIC_U32 };
    static const Opcode U64[] = { OP_ATOM_GLOBAL_U64, OP_ATOM_SHARED_U64, OP_ATOM_GENERIC_U64 };
    AtomOp op = (AtomOp)m->atom;
    uint32_t allowed;
    Opcode row;
    if (t == TYPE_F32) row = F32[sp], allowed = ATOM_BIT(ADD) | ATOM_BIT(EXCH);
    else if (t == TYPE_S32) row = S32[sp], allowed = ATOM_BIT(ADD) | ATOM_BIT(MIN) | ATOM_BIT(MAX);
    else if (ptx_is32(t)) row = U32[sp], allowed = ATOMS_PTX;
    else if (t == TYPE_F64) row = U64[sp], allowed = ATOM_BIT(ADD); /* the type says how to add */
    else if (ptx_is64(t)) row = U64[sp], allowed = OP_INFO[OP_ATOM_GLOBAL_U64].atoms;
    else return ptx_unsupported(P, opt);
    if (t == TYPE_S64 && op != ATOM_ADD && op != ATOM_MIN && op != ATOM_MAX) return ptx_unsupported(P, opt);
    if (!(allowed >> op & 1)) return ptx_unsupported(P, opt);
    bool w64 = ptx_is64(t);
    uint32_t need = (red ? 2 : 3) + (op == ATOM_CAS);
    if (!ptx_nops(P, opt, n, need, need)) return false;
    in->op = (uint8_t)row;
    in->mod = (uint8_t)op;
    in->type = (uint8_t)t;
    in->ndst = 1;
    in->nsrc = (uint8_t)(op == ATOM_CAS ? 3 : 2);
    const POp *o = ops;
    if (red) { /* a reduction returns nothing: a dead register takes the old value */
        uint32_t v = 0;
        if (!ptx_fresh_reg(P, opt, w64 ? VREG_64 : VREG_32, &v)) return false;
        in->dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)v };
    } else if (!ptx_want_reg(P, o++, w64 ? VREG_64 : VREG_32, &in->dst[0], "the destination")) {
        return false;
    }
    if (!ptx_mem_operand(P, o++, OP_INFO[row].space, in)) return false;
    if (!ptx_want_src(P, o++, w64, ptx_is_float(t), &in->src[1], "the operand")) return false;
    if (op == ATOM_CAS && !ptx_want_src(P, o, w64, false, &in->src[2], "the new value")) return false;
    return ptx_emit(P, in, g);
}

/* cvt.[rnd][.ftz][.sat].dtype.stype */
bool ptx_decode_cvt(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    if (m->f16 || m->ntypes != 2) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    ValueType dt = m->types[0], st = m->types[1];
    if (dt == TYPE_B32 || dt == TYPE_B64 || st == TYPE_B32 || st == TYPE_B64 || dt == TYPE_B8 || dt == TYPE_B16 ||
        st == TYPE_B8 || st == TYPE_B16)
        return ptx_unsupported(P, opt);
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
    if (!ptx_want_reg(P, &ops[0], ptx_is64(dt) ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    POp src = ops[1];
    if (src.kind == PO_REG && src.cls == VREG_64 && !ptx_is64(st))
        src.cls = VREG_32; /* a wider source register, as PTX allows cvt: its low word (a pair's first row) */
    if (!ptx_want_src(P, &src, ptx_is64(st), ptx_is_float(st), &in->src[0], "the source")) return false;
    /* what ptxas makes of it: a zero-extension or a truncation is free
    ** (the high word is RZ, or dropped); a sign-extension one SHF; one to
    ** or from f64 is an I2F.F64 / F2I.F64 / F2F on the FP64 pipe; others one */
    bool ints = !ptx_is_float(dt) && !ptx_is_float(st);
    if (dt == TYPE_F64 || st == TYPE_F64) in->slots = 1, in->lunit = in->llat = UNIT_FP64;
    if (ints && !m->sat && ((ptx_is64(dt) && !type_signed(st) && type_bytes(st) == 4) || (type_bytes(dt) == 4 && ptx_is64(st))))
        ptx_set_free(in);
    return ptx_emit(P, in, g);
}

/* setp.CMP[.BOOL].type p[|q], a, b[, c]: a combining BOOL or the q output
** become predicate operations after the compare (one ISETP in SASS). */
bool ptx_decode_setp(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (m->f16 || m->cmp < 0 || m->ntypes != 1) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, m->boolop >= 0 ? 4 : 3, m->boolop >= 0 ? 4 : 3)) return false;
    int cmp = m->cmp;
    if (cmp >= 14) cmp = CMP_LT + (cmp - 14); /* lo ls hi hs: the unsigned lt le gt ge */
    if (!ptx_is_float(t) && cmp >= CMP_EQU) return ptx_unsupported(P, opt);
    POp xs[4] = { ops[0], ops[1], ops[2], n > 3 ? ops[3] : ops[2] };
    if (ptx_is16(t)) { /* the 16-bit values, extended as the type: a 32-bit compare */
        if (!ptx_extend16(P, in, &ops[1], t, &xs[1], g) || !ptx_extend16(P, in, &ops[2], t, &xs[2], g)) return false;
        ops = xs;
        t = t == TYPE_S16 ? TYPE_S32 : TYPE_U32;
    }
    Opcode row = t == TYPE_F32 ? OP_SETP_F32 : t == TYPE_F64 ? OP_SETP_F64 : t == TYPE_S32 ? OP_SETP_S32 : (t == TYPE_U32 || t == TYPE_B32) ? OP_SETP_U32
               : t == TYPE_S64 ? OP_SETP_S64 : (t == TYPE_U64 || t == TYPE_B64) ? OP_SETP_U64 : OP_COUNT;
    if (row == OP_COUNT) return ptx_unsupported(P, opt);
    if (type_signed(t) && m->cmp >= 14) return ptx_unsupported(P, opt);
    in->op = (uint8_t)row;
    in->mod = (uint8_t)cmp;
    in->type = (uint8_t)t;
    in->ndst = 1;
    in->nsrc = 2;
    bool w64 = ptx_is64(t);
    if (!ptx_want_src(P, &ops[1], w64, ptx_is_float(t), &in->src[0], "the first source")) return false;
    if (!ptx_want_src(P, &ops[2], w64, ptx_is_float(t), &in->src[1], "the second source")) return false;
    const POp *d = &ops[0];
    if (d->kind != PO_REG && d->kind != PO_PIPE) return ptx_want_reg(P, d, VREG_PRED, &in->dst[0], "the destination");
    if (d->cls != VREG_PRED) return ptx_want_reg(P, d, VREG_PRED, &in->dst[0], "the destination");
    Operand c;
    if (m->boolop >= 0 && !ptx_want_reg(P, &ops[3], VREG_PRED, &c, "the predicate to combine")) return false;
    bool plain = m->boolop < 0 && d->kind == PO_REG;
    if (plain) {
        in->dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)d->v };
        return ptx_emit(P, in, g);
    }
    /* the compare into a fresh predicate, then p = t BOOL c, q = !t BOOL c */
    uint32_t tv = 0;
    if (!ptx_fresh_reg(P, opt, VREG_PRED, &tv)) return false;
    in->dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)tv };
    if (!ptx_emit(P, in, g)) return false;
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
        ptx_set_free(&j); /* folded into the ISETP */
        if (!ptx_emit(P, &j, g)) return false;
    }
    return true;
}

/* mov: registers, immediates, symbols, special registers; 64-bit packs and unpacks; predicates. */
/* mov.b32 between a 32-bit register and two 16-bit halves (half2 code):
** d = {lo, hi} packs them, a PRMT (1 ALU); {lo, hi} = a unpacks it, free
** (ptxas reads the halves where they are, with .H0/.H1 operand selectors). */
static bool mov_halves(Ptx *P, const POp *ops, Instr *in, uint32_t g)
{
    const POp *v = &ops[ops[1].kind == PO_VEC ? 1 : 0];
    if (v->nelem != 2) return ptx_fail(P, &v->tok, "expected {lo, hi}: two 16-bit halves of the 32-bit value");
    POp e[2];
    for (int k = 0; k < 2; k++)
        e[k] = (POp){ .kind = v->eimm[k] ? PO_IMM : PO_REG, .tok = v->etok[k], .v = v->ev[k], .cls = v->ecls[k], .ival = v->eival[k] };
    in->type = TYPE_B32;
    if (v == &ops[1]) {
        in->op = OP_PRMT_B32;
        in->ndst = 1;
        in->nsrc = 3;
        in->sub = PRMT_DEFAULT;
        in->src[2] = (Operand){ .kind = OPND_IMM, .value = 0x5410 }; /* bytes 0-1 of lo, then of hi */
        return ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination") &&
               ptx_want_src(P, &e[0], false, false, &in->src[0], "the low half") &&
               ptx_want_src(P, &e[1], false, false, &in->src[1], "the high half") && ptx_emit(P, in, g);
    }
    if (e[0].kind != PO_REG || e[1].kind != PO_REG) return ptx_fail(P, &v->tok, "expected {lo, hi} registers");
    Instr hi = *in;
    in->op = OP_AND_B32, hi.op = OP_SHR_U32;
    in->ndst = hi.ndst = 1;
    in->nsrc = hi.nsrc = 2;
    in->src[1] = (Operand){ .kind = OPND_IMM, .value = 0xffff };
    hi.src[1] = (Operand){ .kind = OPND_IMM, .value = 16 };
    ptx_set_free(in);
    ptx_set_free(&hi);
    return ptx_want_reg(P, &e[0], VREG_32, &in->dst[0], "the low half") &&
           ptx_want_src(P, &ops[1], false, false, &in->src[0], "the source") &&
           ptx_want_reg(P, &e[1], VREG_32, &hi.dst[0], "the high half") &&
           ptx_want_src(P, &ops[1], false, false, &hi.src[0], "the source") && ptx_emit(P, &hi, g) && ptx_emit(P, in, g);
}

/* mov.b64 %rd, param: a kernel parameter's address in the parameter space,
** its offset there (what ptxas makes a constant-bank address), remembered
** for the ld.param [%rd+d] that read it. */
static bool mov_param_address(Ptx *P, const POp *d, int param, Instr *in, uint32_t g)
{
    in->src[0] = (Operand){ .kind = OPND_IMM, .value = P->k->params[param].offset };
    if (!ptx_emit(P, in, g)) return false;
    if (!ptx_grow(P, (void **)&P->paddrs, &P->paddrs_cap, P->npaddrs + 1, sizeof *P->paddrs)) return false;
    P->paddrs[P->npaddrs++] = (PtxParamAddr){ d->v, param };
    return true;
}

bool ptx_decode_mov(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    char q[80];
    ValueType t = ptx_last_type(m);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    if (m->ntypes == 1 && t == TYPE_NONE) { /* mov.pred */
        in->op = OP_MOV_PRED;
        in->ndst = in->nsrc = 1;
        if (!ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the destination")) return false;
        if (ops[1].kind == PO_IMM && !ops[1].is_float) /* nvcc writes true as -1: any nonzero */
            in->src[0] = (Operand){ .kind = OPND_IMM, .value = ops[1].ival != 0 };
        else if (!ptx_want_reg(P, &ops[1], VREG_PRED, &in->src[0], "the source"))
            return false;
        return ptx_emit(P, in, g);
    }
    if (m->ntypes != 1) return ptx_unsupported(P, opt);
    if (ptx_is64(t)) {
        if (ops[0].kind == PO_VEC) { /* mov.b64 {lo, hi}, a */
            if (ops[0].nelem != 2 || ops[0].eimm[0] || ops[0].eimm[1]) return ptx_fail(P, &ops[0].tok, "expected {lo, hi} registers");
            in->op = OP_MOV_UNPACK64;
            in->ndst = 2;
            in->nsrc = 1;
            for (int e = 0; e < 2; e++) {
                POp one = { .kind = PO_REG, .tok = ops[0].etok[e], .v = ops[0].ev[e], .cls = ops[0].ecls[e] };
                if (!ptx_want_reg(P, &one, VREG_32, &in->dst[e], "a destination word")) return false;
            }
            if (!ptx_want_src(P, &ops[1], true, false, &in->src[0], "the source")) return false;
            return ptx_emit(P, in, g);
        }
        if (ops[1].kind == PO_VEC) { /* mov.b64 d, {lo, hi} */
            if (ops[1].nelem != 2) return ptx_fail(P, &ops[1].tok, "expected {lo, hi}");
            in->op = OP_MOV_PACK64;
            in->ndst = 1;
            in->nsrc = 2;
            if (!ptx_want_reg(P, &ops[0], VREG_64, &in->dst[0], "the destination")) return false;
            for (int e = 0; e < 2; e++) {
                POp one = { .kind = ops[1].eimm[e] ? PO_IMM : PO_REG, .tok = ops[1].etok[e], .v = ops[1].ev[e],
                            .cls = ops[1].ecls[e], .ival = ops[1].eival[e] };
                if (!ptx_want_src(P, &one, false, false, &in->src[e], "a source word")) return false;
            }
            return ptx_emit(P, in, g);
        }
        in->op = OP_MOV_B64;
        in->ndst = in->nsrc = 1;
        if (!ptx_want_reg(P, &ops[0], VREG_64, &in->dst[0], "the destination")) return false;
        if (ops[1].kind == PO_SPECIAL) {
            if (ops[1].special != SREG_CLOCK64 && ops[1].special != SREG_GLOBALTIMER)
                return ptx_fail(P, &ops[1].tok, "'%s' is a 32-bit special register: read it with mov.u32", ptx_quote(&ops[1].tok, q, sizeof q));
            in->src[0] = (Operand){ .kind = OPND_SPECIAL, .index = (uint16_t)ops[1].special };
            in->slots = 1, in->lunit = in->llat = UNIT_ALU; /* S2UR / CS2R */
        } else if (ops[1].kind == PO_WORD && ptx_func_address(P, &ops[1].tok, &in->src[0].value)) { /* a function pointer */
            in->src[0].kind = OPND_IMM, in->src[0].index = 0xffff;
        } else if (ops[1].kind == PO_WORD && ptx_param_index(P, &ops[1].tok) >= 0) {
            return mov_param_address(P, &ops[0], ptx_param_index(P, &ops[1].tok), in, g);
        } else if (ops[1].kind == PO_REG && param_address_of(P, ops[1].v) >= 0) { /* a copy of one */
            return mov_param_address(P, &ops[0], param_address_of(P, ops[1].v), in, g);
        } else if (!ptx_want_src(P, &ops[1], true, t == TYPE_F64, &in->src[0], "the source")) {
            return false;
        }
        return ptx_emit(P, in, g);
    }
    if (ptx_is32(t) && (ops[0].kind == PO_VEC || ops[1].kind == PO_VEC)) return mov_halves(P, ops, in, g);
    if (!ptx_is32(t) && !ptx_issub(t)) return ptx_unsupported(P, opt);
    in->op = OP_MOV;
    in->type = (uint8_t)(t == TYPE_F32 ? TYPE_F32 : TYPE_B32);
    in->ndst = in->nsrc = 1;
    if (!ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination")) return false;
    if (ops[1].kind == PO_SPECIAL) {
        if (ops[1].special == SREG_CLOCK64 || ops[1].special == SREG_GLOBALTIMER)
            return ptx_fail(P, &ops[1].tok, "'%s' is 64-bit: read it with mov.u64", ptx_quote(&ops[1].tok, q, sizeof q));
        in->src[0] = (Operand){ .kind = OPND_SPECIAL, .index = (uint16_t)ops[1].special };
        in->slots = 1, in->lunit = in->llat = UNIT_ALU; /* S2R */
    } else if (ops[1].kind == PO_WORD && !ops[1].sym && ops[1].var < 0) {
        return ptx_fail(P, &ops[1].tok, "unknown name '%s'; expected a register, a number, a variable or a special register",
                        ptx_quote(&ops[1].tok, q, sizeof q));
    } else if (!ptx_want_src(P, &ops[1], false, t == TYPE_F32, &in->src[0], "the source")) {
        return false;
    }
    return ptx_emit(P, in, g);

}


/* cvta: a global or shared address to and from the generic space. */
bool ptx_decode_cvta(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    if (m->space == SPACE_GLOBAL || m->space == MODS_CONST) {
        if (t != TYPE_U64) return ptx_unsupported(P, opt);
        if (ops[1].kind == PO_WORD && ops[1].var >= 0) { /* cvta.global d, var: the address itself */
            in->op = OP_MOV_B64;
            in->ndst = in->nsrc = 1;
            return ptx_want_reg(P, &ops[0], VREG_64, &in->dst[0], "the destination") &&
                   ptx_want_src(P, &ops[1], true, false, &in->src[0], "the source") && ptx_emit(P, in, g);
        }
        return ptx_reg_form(P, opt, OP_CVTA_GLOBAL, ops, n, in) &&
               ptx_emit(P, in, g);
    }
    bool local = m->space == MODS_LOCAL;
    if ((m->space != SPACE_SHARED && !local) || (t != TYPE_U64 && t != TYPE_U32)) return ptx_unsupported(P, opt);
    in->op = (uint8_t)(local ? (m->to ? OP_CVTA_TO_LOCAL : OP_CVTA_LOCAL) : m->to ? OP_CVTA_TO_SHARED : OP_CVTA_SHARED);
    in->ndst = in->nsrc = 1;
    if (!ptx_want_reg(P, &ops[0], t == TYPE_U64 ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    if (!ptx_want_src(P, &ops[1], t == TYPE_U64, false, &in->src[0], "the source")) return false;
    return ptx_emit(P, in, g);

}


/* selp: d = p ? a : b, 32 or 64 bits. */
bool ptx_decode_selp(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (!ptx_nops(P, opt, n, 4, 4)) return false;
    bool w64 = ptx_is64(t);
    if (!w64 && !ptx_is32(t) && !ptx_is16(t)) return ptx_unsupported(P, opt);
    in->op = (uint8_t)(w64 ? OP_SELP_B64 : OP_SELP);
    in->type = (uint8_t)(w64 ? TYPE_B64 : t == TYPE_F32 ? TYPE_F32 : TYPE_B32);
    in->ndst = 1;
    in->nsrc = 3;
    if (!ptx_want_reg(P, &ops[0], w64 ? VREG_64 : VREG_32, &in->dst[0], "the destination")) return false;
    if (!ptx_want_src(P, &ops[1], w64, ptx_is_float(t), &in->src[0], "the first source") ||
        !ptx_want_src(P, &ops[2], w64, ptx_is_float(t), &in->src[1], "the second source") ||
        !ptx_want_reg(P, &ops[3], VREG_PRED, &in->src[2], "the selector"))
        return false;
    return ptx_emit(P, in, g);

}


/* bra (to a label), ret and exit (a kernel's ret ends the thread). */
bool ptx_decode_flow(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    Kernel *k = P->k;
    if (head[0] == 'b') {
        if (!ptx_nops(P, opt, n, 1, 1)) return false;
        in->op = (uint8_t)(m->uni ? OP_BRA_UNI : OP_BRA);
        if (!ptx_add_ref(P, &ops[0], k->ncode)) return false;
    } else if (P->inline_depth && !strcmp(head, "ret")) { /* from an inlined function: to its end */
        if (!ptx_nops(P, opt, n, 0, 0)) return false;
        if (g == UINT32_MAX && P->body_depth == 1 && ptx_punct(&P->tok, '}')) return true; /* at its end already */
        POp to = { .kind = PO_WORD, .tok = { TK_WORD, PTX_RET_LABEL, (uint32_t)strlen(PTX_RET_LABEL), opt->line, opt->col } };
        in->op = OP_BRA;
        if (!ptx_add_ref(P, &to, k->ncode)) return false;
    } else {
        if (!ptx_nops(P, opt, n, 0, 0)) return false;
        in->op = !strcmp(head, "trap") ? OP_TRAP : OP_EXIT; /* ret from a kernel ends the thread */
    }
    in->type = TYPE_NONE;
    return ptx_emit(P, in, g);

}


/* shfl.sync: d[|p], a, b, c, membermask. */
bool ptx_decode_shfl(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (!m->sync || m->shfl < 0 || t != TYPE_B32) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 5, 5)) return false;
    in->op = OP_SHFL;
    in->mod = (uint8_t)m->shfl;
    in->ndst = 1;
    in->nsrc = 4;
    if (ops[0].kind == PO_PIPE) { /* d|p: p says whether the source lane was in range */
        POp d = ops[0];
        d.kind = PO_REG;
        if (!ptx_want_reg(P, &d, VREG_32, &in->dst[0], "the destination")) return false;
        in->dst[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)ops[0].v2 };
        in->ndst = 2;
    } else if (!ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination")) {
        return false;
    }
    for (uint32_t i = 1; i < 5; i++)
        if (!ptx_want_src(P, &ops[i], false, false, &in->src[i - 1], "a source")) return false;
    return ptx_emit(P, in, g);

}


/* testp: a float's class (finite, infinite, number, NaN, normal, subnormal). */
bool ptx_decode_testp(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (m->testp < 0 || !ptx_is_float(t)) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    in->op = (uint8_t)(t == TYPE_F64 ? OP_TESTP_F64 : OP_TESTP_F32);
    in->sub = (uint8_t)m->testp;
    in->ndst = in->nsrc = 1;
    return ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the destination") &&
           ptx_want_src(P, &ops[1], t == TYPE_F64, true, &in->src[0], "the source") && ptx_emit(P, in, g);

}


/* isspacep.SPACE p, a: whether generic address a is in SPACE. Instr.sub:
** 0 .global, 1 .shared, 2 .local, 3 .const or .param (no generic window). */
bool ptx_decode_isspacep(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                         uint32_t g)
{
    (void)head;
    int s = m->space == SPACE_GLOBAL ? 0 : m->space == SPACE_SHARED ? 1 : m->space == MODS_LOCAL ? 2
            : m->space == MODS_CONST || m->space == SPACE_PARAM ? 3 : -1;
    if (s < 0 || m->ntypes) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    in->op = OP_ISSPACEP;
    in->sub = (uint8_t)s;
    in->ndst = in->nsrc = 1;
    return ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the destination") &&
           ptx_want_src(P, &ops[1], true, false, &in->src[0], "the address") && ptx_emit(P, in, g);
}

/* prmt: byte permute, by selector or mode. */
bool ptx_decode_prmt(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (t != TYPE_B32) return ptx_unsupported(P, opt);
    in->sub = (uint8_t)(m->prmt < 0 ? PRMT_DEFAULT : m->prmt);
    return ptx_reg_form(P, opt, OP_PRMT_B32, ops, n, in) && ptx_emit(P, in, g);

}


/* shf.l / shf.r: funnel shift, .wrap or .clamp. */
bool ptx_decode_shf(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (t != TYPE_B32 || m->l == m->r || m->wrap == m->clamp) return ptx_unsupported(P, opt);
    in->sub = m->clamp;
    return ptx_reg_form(P, opt, m->l ? OP_SHF_L : OP_SHF_R, ops, n, in) && ptx_emit(P, in, g);

}


/* slct: d = c >= 0 ? a : b. */
bool ptx_decode_slct(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    if (m->ntypes != 2 || !ptx_is32(m->types[0]) || (m->types[1] != TYPE_S32 && m->types[1] != TYPE_F32)) return ptx_unsupported(P, opt);
    in->type = (uint8_t)m->types[0];
    if (!ptx_reg_form(P, opt, m->types[1] == TYPE_F32 ? OP_SLCT_F32 : OP_SLCT_S32, ops, n, in)) return false;
    if (m->types[0] != TYPE_F32) /* a and b are read as the destination's type */
        for (int i = 0; i < 2; i++)
            if (in->src[i].kind == OPND_IMM && ops[i + 1].is_float) return ptx_fail(P, &ops[i + 1].tok, "float literal for an integer slct");
    return ptx_emit(P, in, g);

}

/* membar / fence: ordering only (the model's memory is coherent at issue). */
bool ptx_decode_membar(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)opt, (void)head, (void)m, (void)ops, (void)n;
    in->op = OP_MEMBAR;
    in->type = TYPE_NONE;
    return ptx_emit(P, in, g);
}


/* prefetch{.global,.local}.{L1,L2} [a], prefetch.global.L2::evict_* [a] and
** prefetchu.L1 [a]: a hint, kept as one issue slot (SASS CCTL); the address
** is not read and no line is brought in. */
bool ptx_decode_prefetch(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char q[80], q2[80];
    bool uniform = strcmp(head, "prefetchu") == 0;
    if (m->cache_level == 0 || (uniform && (m->cache_level != 1 || m->space != MODS_NO_SPACE)))
        return ptx_fail(P, opt, "'%s': expected %s", ptx_quote(opt, q, sizeof q),
                        uniform ? "prefetchu.L1" : "a cache level .L1 or .L2 (prefetch.tensormap is not taken yet)");
    if (m->space != MODS_NO_SPACE && m->space != SPACE_GLOBAL && m->space != MODS_LOCAL)
        return ptx_fail(P, opt, "'%s': prefetch takes .global, .local or a generic address", ptx_quote(opt, q, sizeof q));
    if (!ptx_nops(P, opt, n, 1, 1)) return false;
    if (ops[0].kind != PO_MEM)
        return ptx_fail(P, &ops[0].tok, "expected an address [..] after '%s', found '%s'", ptx_quote(opt, q, sizeof q),
                        ptx_quote(&ops[0].tok, q2, sizeof q2));
    in->op = OP_PREFETCH;
    in->type = TYPE_NONE;
    return ptx_emit(P, in, g);
}

/* nanosleep.u32 a: the warp sleeps about a nanoseconds (register or
** immediate). */
bool ptx_decode_nanosleep(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    if (m->ntypes != 1 || m->types[0] != TYPE_U32) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 1, 1)) return false;
    in->op = OP_NANOSLEEP;
    in->type = TYPE_U32;
    in->nsrc = 1;
    if (!ptx_want_src(P, &ops[0], false, false, &in->src[0], "the sleep time")) return false;
    return ptx_emit(P, in, g);
}

/* match.any.sync.b32/.b64 d, a, membermask (match.all is not taken yet). */
bool ptx_decode_match(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    bool all = m->all;
    if (!(m->any || all) || !m->sync || m->ntypes != 1 || (t != TYPE_B32 && t != TYPE_B64) ||
        (ops[0].kind == PO_PIPE && !all))
        return ptx_unsupported(P, opt);
    Opcode row = all ? (t == TYPE_B64 ? OP_MATCH_ALL_B64 : OP_MATCH_ALL_B32) : t == TYPE_B64 ? OP_MATCH_ANY_B64 : OP_MATCH_ANY_B32;
    POp d = ops[0], xs[3] = { ops[0], ops[1], ops[2] };
    if (d.kind == PO_PIPE) xs[0] = (POp){ .kind = PO_REG, .tok = d.tok, .v = d.v, .cls = d.cls };
    if (!ptx_nops(P, opt, n, 3, 3) || !ptx_reg_form(P, opt, row, xs, n, in) || !ptx_emit(P, in, g)) return false;
    if (d.kind != PO_PIPE) return true;
    /* the predicate MATCH.ALL writes beside d: set where d is not 0 (free) */
    Instr p = *in;
    p.op = OP_SETP_U32;
    p.type = TYPE_U32;
    p.mod = CMP_NE;
    p.nsrc = 2;
    p.src[0] = in->dst[0];
    p.src[1] = (Operand){ .kind = OPND_IMM, .value = 0 };
    ptx_set_free(&p);
    POp q = { .kind = PO_REG, .tok = d.tok, .v = d.v2, .cls = d.cls2 };
    return ptx_want_reg(P, &q, VREG_PRED, &p.dst[0], "the predicate") && ptx_emit(P, &p, g);
}

/* bmsk.{clamp,wrap}.b32 d, a, b and szext.{clamp,wrap}.{s32,u32} d, a, b:
** the mode is Instr.mod (1: clamp). */
bool ptx_decode_bitfield_mode(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char q[80];
    bool is_bmsk = strcmp(head, "bmsk") == 0;
    if (m->clamp == m->wrap)
        return ptx_fail(P, opt, "'%s' takes one mode, .clamp or .wrap", ptx_quote(opt, q, sizeof q));
    ValueType t = m->ntypes == 1 ? m->types[0] : TYPE_NONE;
    if (is_bmsk ? t != TYPE_B32 : t != TYPE_S32 && t != TYPE_U32) return ptx_unsupported(P, opt);
    Opcode op = is_bmsk ? OP_BMSK_B32 : OP_SZEXT;
    if (!ptx_nops(P, opt, n, 3, 3) || !ptx_reg_form(P, opt, op, ops, n, in)) return false;
    in->type = (uint8_t)t;
    in->mod = m->clamp ? 1 : 0;
    return ptx_emit(P, in, g);
}

/* dp4a.atype.btype d, a, b, c and dp2a.{lo,hi}.atype.btype (.u32 or .s32 each). */
bool ptx_decode_dp4a(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    bool two = head[2] == '2'; /* dp2a.lo / dp2a.hi: which bytes of b */
    if (m->ntypes != 2 || (two && m->lo == m->hi) || (!two && (m->lo || m->hi))) return ptx_unsupported(P, opt);
    for (int i = 0; i < 2; i++)
        if (m->types[i] != TYPE_U32 && m->types[i] != TYPE_S32) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 4, 4) || !ptx_reg_form(P, opt, two ? OP_DP2A : OP_DP4A, ops, n, in)) return false;
    in->type = (uint8_t)m->types[0];
    in->stype = (uint8_t)m->types[1];
    in->mod = m->hi;
    return ptx_emit(P, in, g);
}


