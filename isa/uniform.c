/* isa/uniform.c -- warp-uniform values and the instructions of the uniform
** datapath (isa/uniform.h). An optimistic fixed point: every register row
** and predicate starts uniform and loses it when one of its definitions is
** not; divergent paths are found from the branches on non-uniform
** predicates, which the fixed point may add, so both are iterated together
** (each round only clears flags: it ends). */
#include "isa/uniform.h"

#include <stdlib.h>
#include <string.h>

static bool special_uniform(uint32_t sreg)
{
    switch (sreg) {
    case SREG_NTID_X: case SREG_NTID_Y: case SREG_NTID_Z:
    case SREG_CTAID_X: case SREG_CTAID_Y: case SREG_CTAID_Z:
    case SREG_NCTAID_X: case SREG_NCTAID_Y: case SREG_NCTAID_Z:
    case SREG_WARPID: case SREG_SMID: case SREG_NSMID: case SREG_DYNAMIC_SMEM:
    case SREG_RESERVED_BEGIN: case SREG_RESERVED_END: case SREG_RESERVED_CAP: case SREG_RESERVED_0: case SREG_RESERVED_1:
        return true;
    default: /* thread ids, lane masks, clocks */
        return false;
    }
}

/* Rows whose result is a function of their sources alone, lane by lane:
** uniform sources give a uniform result. Votes, shuffles and memory rows
** read other lanes or memory. */
static bool pure_row(const Instr *in)
{
    const OpInfo *info = &OP_INFO[in->op];
    if (info->space == SPACE_PARAM) return true;
    if (info->flags & (OPF_LOAD | OPF_STORE | OPF_ATOM | OPF_BRANCH | OPF_BARRIER | OPF_EXIT)) return false;
    switch (in->op) {
    case OP_VOTE_BALLOT: case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_ACTIVEMASK: case OP_REDUX_ADD:
    case OP_REDUX_OP: case OP_ELECT: case OP_MATCH_ANY_B32: case OP_MATCH_ANY_B64: case OP_MATCH_ALL_B32:
    case OP_MATCH_ALL_B64: /* over a member mask's lanes: elect.sync's predicate holds in one lane */
        return false;
    default:
        return info->unit == UNIT_ALU || info->unit == UNIT_FMA || info->unit == UNIT_SFU || info->unit == UNIT_DIV;
    }
}

typedef struct {
    const Kernel *k;
    uint8_t *ureg, *upred; /* 1 = uniform                       */
    uint8_t *onpath;       /* scratch: pcs of one divergent path */
    uint32_t *stack;
    uint32_t nreg;
} Uni;

static bool src_uniform(const Uni *u, const Instr *in)
{
    for (uint32_t i = 0; i < in->nsrc; i++) {
        const Operand *o = &in->src[i];
        if (o->kind == OPND_REG && (o->index >= u->nreg || !u->ureg[o->index])) return false;
        if (o->kind == OPND_PRED && !u->upred[o->index]) return false;
        if (o->kind == OPND_SPECIAL && !special_uniform(o->index)) return false;
    }
    return in->guard == ISA_NO_GUARD || u->upred[in->guard];
}

/* Clears what instruction pc defines; true if a flag changed. */
static bool clear_dst(Uni *u, const Instr *in)
{
    bool changed = false;
    for (uint32_t i = 0; i < in->ndst; i++) {
        const Operand *o = &in->dst[i];
        if (o->kind == OPND_REG && o->index < u->nreg && u->ureg[o->index]) u->ureg[o->index] = 0, changed = true;
        if (o->kind == OPND_PRED && u->upred[o->index]) u->upred[o->index] = 0, changed = true;
    }
    return changed;
}

static bool reads(const Instr *in, const Operand *d)
{
    for (uint32_t i = 0; i < in->nsrc; i++)
        if (in->src[i].kind == d->kind && in->src[i].index == d->index) return true;
    return d->kind == OPND_PRED && in->guard == d->index;
}

/* The divergent path of the branch at pc b: what its two successors reach
** before its reconvergence point. A value defined there and read elsewhere
** differs between the lanes that took either side. */
static bool diverge(Uni *u, uint32_t b)
{
    const Kernel *k = u->k;
    const Instr *br = &k->code[b];
    memset(u->onpath, 0, k->ncode);
    uint32_t n = 0;
    uint32_t succ[2] = { br->target, b + 1 };
    for (int s = 0; s < 2; s++)
        if (succ[s] < k->ncode && succ[s] != br->reconv && !u->onpath[succ[s]]) u->onpath[succ[s]] = 1, u->stack[n++] = succ[s];
    while (n) {
        uint32_t pc = u->stack[--n];
        const Instr *in = &k->code[pc];
        const uint32_t fl = OP_INFO[in->op].flags;
        uint32_t next[2], nn = 0;
        if (fl & OPF_EXIT) {
            if (in->guard != ISA_NO_GUARD) next[nn++] = pc + 1;
        } else if (fl & OPF_BRANCH) {
            next[nn++] = in->target;
            if (in->guard != ISA_NO_GUARD) next[nn++] = pc + 1;
        } else {
            next[nn++] = pc + 1;
        }
        for (uint32_t i = 0; i < nn; i++)
            if (next[i] < k->ncode && next[i] != br->reconv && !u->onpath[next[i]])
                u->onpath[next[i]] = 1, u->stack[n++] = next[i];
    }
    bool changed = false;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        if (!u->onpath[pc]) continue;
        const Instr *in = &k->code[pc];
        for (uint32_t i = 0; i < in->ndst; i++) {
            const Operand *d = &in->dst[i];
            bool uni = d->kind == OPND_REG ? d->index < u->nreg && u->ureg[d->index]
                     : d->kind == OPND_PRED ? u->upred[d->index] : false;
            if (!uni) continue;
            for (uint32_t r = 0; r < k->ncode; r++)
                if (!u->onpath[r] && reads(&k->code[r], d)) {
                    if (d->kind == OPND_REG) u->ureg[d->index] = 0;
                    else u->upred[d->index] = 0;
                    changed = true;
                    break;
                }
        }
    }
    return changed;
}

bool uniform_analyze(const Kernel *k, uint8_t *out)
{
    memset(out, 0, k->ncode);
    Uni u = { .k = k, .nreg = k->regs_used };
    u.ureg = malloc(u.nreg ? u.nreg : 1);
    u.upred = malloc(ISA_MAX_PREDS);
    u.onpath = malloc(k->ncode ? k->ncode : 1);
    u.stack = malloc((k->ncode ? k->ncode : 1) * sizeof *u.stack);
    bool ok = u.ureg && u.upred && u.onpath && u.stack;
    if (ok) {
        memset(u.ureg, 1, u.nreg);
        memset(u.upred, 1, ISA_MAX_PREDS);
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t pc = 0; pc < k->ncode; pc++) {
                const Instr *in = &k->code[pc];
                if (!(pure_row(in) && src_uniform(&u, in))) changed |= clear_dst(&u, in);
            }
            for (uint32_t pc = 0; pc < k->ncode; pc++) {
                const Instr *in = &k->code[pc];
                if ((OP_INFO[in->op].flags & OPF_BRANCH) && in->guard != ISA_NO_GUARD && !u.upred[in->guard])
                    changed |= diverge(&u, pc);
            }
        }
        for (uint32_t pc = 0; pc < k->ncode; pc++) {
            const Instr *in = &k->code[pc];
            out[pc] = (OP_INFO[in->op].flags & OPF_UNIFORM) && in->ndst == 1 && in->dst[0].kind == OPND_REG &&
                      in->dst[0].index < u.nreg && u.ureg[in->dst[0].index] && pure_row(in) && src_uniform(&u, in);
        }
    }
    free(u.ureg);
    free(u.upred);
    free(u.onpath);
    free(u.stack);
    return ok;
}
