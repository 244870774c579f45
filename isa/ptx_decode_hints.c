/* isa/ptx_decode_hints.c -- PTX instructions that are hints or bookkeeping
** on one GPU and little more on the simulated one, and the warp-wide votes:
**   griddepcontrol.wait / .launch_dependents   programmatic dependent launch
**       (cudaGridDependencySynchronize, cudaTriggerProgrammaticLaunchCompletion):
**       a stream's launches run one after another here, so the grid a
**       launch depends on is done and the wait passes at once;
**   discard.global.L2 [a], 128 and applypriority.global.L2::evict_normal
**       [a], 128 (cuda::discard_memory, cuda::apply_access_property): L2
**       hints on one line; the line keeps its data (PTX leaves a discarded
**       line's values undefined, and the values it had are such values);
**   createpolicy ... d, ... (cuda::access_property): d an opaque policy,
**       0, which ld/st's .L2::cache_hint operand then carries unread;
**   elect.sync d|p, membermask (cooperative_groups::invoke_one): the
**       lowest active lane of each lane's member mask leads it;
**   vote.sync, activemask, redux.sync: each lane's result over the active
**       lanes of its member mask (a cooperative-groups tile's).
** Each form takes its own modifiers (ptx_parse_mods leaves them whole).
** Part of the PTX front end (isa/ptx_int.h). */
#include "isa/ptx_int.h"

#include <string.h>

static bool spelled(const Tok *opt, const char *form)
{
    return opt->len == strlen(form) && memcmp(opt->s, form, opt->len) == 0;
}

static bool starts(const Tok *opt, const char *prefix)
{
    size_t n = strlen(prefix);
    return opt->len >= n && memcmp(opt->s, prefix, n) == 0;
}

bool ptx_decode_griddep(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                        uint32_t g)
{
    (void)head, (void)m, (void)ops;
    bool wait = spelled(opt, "griddepcontrol.wait");
    if (!wait && !spelled(opt, "griddepcontrol.launch_dependents")) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 0, 0)) return false;
    in->op = OP_GRIDDEP;
    in->sub = wait ? 0 : 1;
    return ptx_emit(P, in, g);
}

/* discard.global.L2 [a], 128 and applypriority{.global}.L2::evict_normal [a], 128. */
bool ptx_decode_l2_hint(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                        uint32_t g)
{
    (void)m;
    char q[80];
    bool discard = !strcmp(head, "discard");
    bool known = discard ? spelled(opt, "discard.global.L2") || spelled(opt, "discard.L2")
                         : spelled(opt, "applypriority.global.L2::evict_normal") || spelled(opt, "applypriority.L2::evict_normal");
    if (!known) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    if (ops[0].kind != PO_MEM)
        return ptx_fail(P, &ops[0].tok, "expected an address [..], found '%s'", ptx_quote(&ops[0].tok, q, sizeof q));
    if (ops[1].kind != PO_IMM || ops[1].ival != 128)
        return ptx_fail(P, &ops[1].tok, "'%s' takes the size 128 (one line)", discard ? "discard" : "applypriority");
    in->op = OP_L2_HINT;
    in->sub = discard ? 0 : 1;
    return ptx_emit(P, in, g);
}

/* createpolicy.fractional.L2::*{.L2::*}.b64 d{, fraction} and
** createpolicy.range{.global}.L2::* ... .b64 d, [a], primary, total: d = 0,
** the policy being a hint the model does not keep. */
bool ptx_decode_createpolicy(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n,
                             Instr *in, uint32_t g)
{
    (void)head, (void)m;
    bool fractional = starts(opt, "createpolicy.fractional.L2::"), range = starts(opt, "createpolicy.range.");
    if ((!fractional && !range) || opt->len < 4 || memcmp(opt->s + opt->len - 4, ".b64", 4) != 0)
        return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, fractional ? 1 : 4, fractional ? 2 : 4)) return false; /* the fraction may be left out */
    in->op = OP_MOV_B64;
    in->ndst = in->nsrc = 1;
    in->src[0] = (Operand){ .kind = OPND_IMM, .value = 0 };
    return ptx_want_reg(P, &ops[0], VREG_64, &in->dst[0], "the destination") && ptx_emit(P, in, g);
}

/* elect.sync d|p, membermask (d may be the sink _). */
bool ptx_decode_elect(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in,
                      uint32_t g)
{
    (void)head, (void)m;
    if (!spelled(opt, "elect.sync")) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 2, 2)) return false;
    if (ops[0].kind != PO_PIPE) return ptx_fail(P, &ops[0].tok, "elect.sync writes d|p: a register (or _) and a predicate");
    in->op = OP_ELECT;
    in->ndst = 2;
    in->nsrc = 1;
    POp d = ops[0];
    d.kind = PO_REG;
    if (d.sink) { /* _|p: the leader's lane goes to a register nothing reads */
        uint32_t v;
        if (!ptx_fresh_reg(P, opt, VREG_32, &v)) return false;
        in->dst[0] = (Operand){ .kind = OPND_REG, .index = (uint16_t)v };
    } else if (!ptx_want_reg(P, &d, VREG_32, &in->dst[0], "the destination")) {
        return false;
    }
    in->dst[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)ops[0].v2 };
    return ptx_want_src(P, &ops[1], false, false, &in->src[0], "the member mask") && ptx_emit(P, in, g);
}

/* vote.sync: all, any, uni (to a predicate), ballot (to a register). */
bool ptx_decode_vote(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    if (!m->sync || m->vote < 0) return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 3, 3)) return false;
    in->type = TYPE_NONE;
    if (m->vote == VOTE_BALLOT) {
        if (t != TYPE_B32) return ptx_unsupported(P, opt);
        in->op = OP_VOTE_BALLOT;
        in->type = TYPE_B32;
        if (!ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination")) return false;
    } else {
        static const Opcode ROW[VOTE_MODES] = { [VOTE_ALL] = OP_VOTE_ALL, [VOTE_ANY] = OP_VOTE_ANY, [VOTE_UNI] = OP_VOTE_UNI };
        in->op = (uint8_t)ROW[m->vote];
        if (!ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the destination")) return false;
    }
    in->ndst = 1;
    in->nsrc = 2; /* the member mask: each lane's vote is over the active lanes of its own */
    if (!ptx_want_reg(P, &ops[1], VREG_PRED, &in->src[0], "the predicate")) return false;
    return ptx_want_src(P, &ops[2], false, false, &in->src[1], "the member mask") && ptx_emit(P, in, g);

}


/* activemask: the lanes executing it. */
bool ptx_decode_activemask(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    (void)m;
    if (!ptx_nops(P, opt, n, 1, 1)) return false;
    in->op = OP_ACTIVEMASK;
    in->ndst = 1;
    return ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination") && ptx_emit(P, in, g);

}


/* redux.sync: the sum (or min, max, and, or, xor) over the active lanes of
** each lane's member mask (a tile's lanes, for cooperative groups). */
bool ptx_decode_redux(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head;
    ValueType t = ptx_last_type(m);
    bool bitwise = m->atom == ATOM_AND || m->atom == ATOM_OR || m->atom == ATOM_XOR;
    bool arith = m->atom == ATOM_ADD || m->atom == ATOM_MIN || m->atom == ATOM_MAX;
    if (!m->sync || (!bitwise && !arith) || (arith && t != TYPE_U32 && t != TYPE_S32) || (bitwise && t != TYPE_B32))
        return ptx_unsupported(P, opt);
    if (!ptx_nops(P, opt, n, 3, 3)) return false;
    in->op = (uint8_t)(m->atom == ATOM_ADD ? OP_REDUX_ADD : OP_REDUX_OP);
    in->mod = (uint8_t)m->atom;
    in->type = (uint8_t)t;
    in->ndst = 1;
    in->nsrc = 2;
    return ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the destination") &&
           ptx_want_src(P, &ops[1], false, false, &in->src[0], "the source") &&
           ptx_want_src(P, &ops[2], false, false, &in->src[1], "the member mask") && ptx_emit(P, in, g);

}
