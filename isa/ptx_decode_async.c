/* isa/ptx_decode_async.c -- the decoders of PTX's asynchronous copies
** (cp.async: __pipeline_memcpy_async, cooperative_groups::memcpy_async,
** cuda::memcpy_async) and asynchronous barriers (mbarrier: cuda::barrier,
** cuda::pipeline). Their modifiers are read here, word by word, since each
** form takes its own set (isa/ptx_operands.c leaves them alone). Of the
** bulk copies, the global-to-shared one that completes on an mbarrier
** (cuda::memcpy_async of 16-byte aligned sizes on sm_90) is taken, with the
** barriers' byte counts (expect_tx, complete_tx); tensor copies (TMA
** tensor maps), multicast, the other directions and bulk groups are
** refused as not supported. Semantics: the PTX ISA manual, "Data
** Movement and Conversion Instructions: cp.async" and "Parallel
** Synchronization and Communication Instructions: mbarrier". */
#include "isa/ptx_int.h"

#include <string.h>

/* The modifiers of an opcode token, each without its dot ("ca", "shared::cta"). */
#define ASYNC_MAX_PARTS 12
typedef struct {
    char     part[ASYNC_MAX_PARTS][40];
    uint32_t n;
} Parts;

static bool split(Ptx *P, const Tok *opt, Parts *ps)
{
    char text[160];
    ptx_text(opt, text, sizeof text);
    ps->n = 0;
    for (char *p = strchr(text, '.'); p;) {
        char *e = strchr(p + 1, '.');
        size_t len = (size_t)((e ? e : text + strlen(text)) - (p + 1));
        if (ps->n == ASYNC_MAX_PARTS || len >= sizeof ps->part[0]) return ptx_unsupported(P, opt);
        memcpy(ps->part[ps->n], p + 1, len);
        ps->part[ps->n++][len] = 0;
        p = e;
    }
    return true;
}

static bool has(const Parts *ps, const char *word)
{
    for (uint32_t i = 0; i < ps->n; i++)
        if (!strcmp(ps->part[i], word)) return true;
    return false;
}

/* Every modifier is one of `allowed` (NULL-ended); else the form is not taken. */
static bool only(Ptx *P, const Tok *opt, const Parts *ps, const char *const *allowed)
{
    for (uint32_t i = 0; i < ps->n; i++) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++) ok = !strcmp(ps->part[i], *a);
        if (!ok) return ptx_unsupported(P, opt);
    }
    return true;
}

/* A 32-bit operand read as a source: a register or an immediate. */
static bool src32(Ptx *P, const POp *o, Operand *out, const char *what)
{
    return ptx_want_src(P, o, false, false, out, what);
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B}
**     [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
** into row cp.async: src[0] + offset the shared address, src[1] the global
** one with its displacement in src[4], src[2] cp-size, src[3] src-size (an
** immediate or a register), the ignore-src predicate, or none. Instr.mod:
** 1 for .cg. Instr.sub: 1 when the global address is a 64-bit register. */
static bool decode_copy(Ptx *P, const Tok *opt, const Parts *ps, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char q[80];
    static const char *const ALLOWED[] = { "async", "ca", "cg", "shared", "shared::cta", "global", "L2::cache_hint",
                                           "L2::64B", "L2::128B", "L2::256B", NULL };
    if (!only(P, opt, ps, ALLOWED)) return false;
    bool ca = has(ps, "ca"), cg = has(ps, "cg");
    if (ca == cg || !(has(ps, "shared") || has(ps, "shared::cta")) || !has(ps, "global")) return ptx_unsupported(P, opt);
    bool policy = has(ps, "L2::cache_hint"); /* a last operand: the cache policy, a hint */
    if (!ptx_nops(P, opt, n, 3, 4 + policy)) return false;
    if (policy) {
        if (n < 4 || ops[n - 1].kind != PO_REG || ops[n - 1].cls != VREG_64)
            return ptx_fail(P, &ops[n - 1].tok, "expected the cache policy (a 64-bit register) last in '%s'",
                            ptx_quote(opt, q, sizeof q));
        n--;
    }
    in->op = OP_CP_ASYNC;
    in->mod = cg;
    if (!ptx_mem_operand(P, &ops[0], SPACE_SHARED, in)) return false;
    Instr from = *in; /* the global address, read as ld.global's */
    from.iflags = 0;
    if (!ptx_mem_operand(P, &ops[1], SPACE_GLOBAL, &from)) return false;
    in->src[1] = from.src[0];
    in->src[4] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)from.offset };
    in->sub = (from.iflags & INSTR_ADDR64) != 0;
    if (ops[2].kind != PO_IMM || (ops[2].ival != 4 && ops[2].ival != 8 && ops[2].ival != 16))
        return ptx_fail(P, &ops[2].tok, "the copy size of cp.async is 4, 8 or 16 bytes, found '%s'",
                        ptx_quote(&ops[2].tok, q, sizeof q));
    if (cg && ops[2].ival != 16) return ptx_fail(P, &ops[2].tok, "cp.async.cg copies 16 bytes, found '%s'", ptx_quote(&ops[2].tok, q, sizeof q));
    in->src[2] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)ops[2].ival };
    in->nsrc = 5;
    if (n == 4) {
        const POp *o = &ops[3];
        if (o->kind == PO_REG && o->cls == VREG_PRED) {
            if (!ptx_want_reg(P, o, VREG_PRED, &in->src[3], "ignore-src")) return false;
        } else {
            if (o->kind == PO_IMM && (o->ival < 0 || o->ival > ops[2].ival))
                return ptx_fail(P, &o->tok, "the source size %lld is more than the copy size %lld", (long long)o->ival,
                                (long long)ops[2].ival);
            if (!src32(P, o, &in->src[3], "the source size")) return false;
        }
    }
    return ptx_emit(P, in, g);
}

/* The address of an mbarrier operand as one 32-bit source: a register, or
** a symbol's (or a number's) shared offset; a register with a
** displacement is not taken (nvcc does not write one). */
static bool mbar_source(Ptx *P, const POp *o, Operand *out)
{
    Instr tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!ptx_mem_operand(P, o, SPACE_SHARED, &tmp)) return false;
    if ((tmp.iflags & INSTR_ADDR64) || (tmp.src[0].kind == OPND_REG && tmp.offset))
        return ptx_fail(P, &o->tok, "the mbarrier of cp.async.bulk is a 32-bit shared address without a displacement");
    *out = tmp.src[0];
    return true;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
**     {.L2::cache_hint} [dst], [src], size, [mbar]{, cache-policy}
** (global to this block's shared memory; .shared::cta too) into row
** cp.async.bulk: src[0] + offset the shared destination, src[1] the global
** source with its displacement in src[4], src[2] the size, src[3] the
** mbarrier's shared offset. Instr.sub: 1 when the source is a 64-bit
** register. Multicast and the other directions are not taken. */
static bool decode_bulk(Ptx *P, const Tok *opt, const Parts *ps, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    static const char *const ALLOWED[] = { "async", "bulk", "shared::cluster", "shared::cta", "global",
                                           "mbarrier::complete_tx::bytes", "L2::cache_hint", NULL };
    if (!only(P, opt, ps, ALLOWED)) return false;
    if (strcmp(ps->part[2], "shared::cluster") && strcmp(ps->part[2], "shared::cta")) return ptx_unsupported(P, opt);
    if (!has(ps, "global") || !has(ps, "mbarrier::complete_tx::bytes")) return ptx_unsupported(P, opt);
    bool policy = has(ps, "L2::cache_hint");
    if (!ptx_nops(P, opt, n, 4 + policy, 4 + policy)) return false;
    in->op = OP_CP_ASYNC_BULK;
    if (!ptx_mem_operand(P, &ops[0], SPACE_SHARED, in)) return false;
    Instr from = *in;
    from.iflags = 0;
    if (!ptx_mem_operand(P, &ops[1], SPACE_GLOBAL, &from)) return false;
    in->src[1] = from.src[0];
    in->src[4] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)from.offset };
    in->sub = (from.iflags & INSTR_ADDR64) != 0;
    in->nsrc = 5;
    return src32(P, &ops[2], &in->src[2], "the size") && mbar_source(P, &ops[3], &in->src[3]) && ptx_emit(P, in, g);
}

/* cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all (a commit
** and a wait for 0, as ptxas makes it); cp.async.mbarrier.arrive{.noinc}
** {.shared{::cta}}.b64 [addr]. */
PTX_DECODER(ptx_decode_cp)
{
    (void)head, (void)m;
    char q[80];
    Parts ps;
    if (!split(P, opt, &ps)) return false;
    if (ps.n < 2 || strcmp(ps.part[0], "async")) return ptx_unsupported(P, opt);
    const char *what = ps.part[1];
    if (!strcmp(what, "bulk")) return ps.n > 2 ? decode_bulk(P, opt, &ps, ops, n, in, g) : ptx_unsupported(P, opt);
    if (!strcmp(what, "commit_group") || !strcmp(what, "wait_all")) {
        if (ps.n != 2 || !ptx_nops(P, opt, n, 0, 0)) return ps.n != 2 ? ptx_unsupported(P, opt) : false;
        in->op = OP_CP_ASYNC_COMMIT;
        if (!strcmp(what, "commit_group")) return ptx_emit(P, in, g);
        Instr wait = *in;
        if (!ptx_emit(P, in, g)) return false;
        wait.op = OP_CP_ASYNC_WAIT;
        wait.nsrc = 1;
        wait.src[0] = (Operand){ .kind = OPND_IMM, .value = 0 };
        return ptx_emit(P, &wait, g);
    }
    if (!strcmp(what, "wait_group")) {
        if (ps.n != 2) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 1, 1)) return false;
        if (ops[0].kind != PO_IMM || ops[0].ival < 0 || ops[0].ival > 255)
            return ptx_fail(P, &ops[0].tok, "cp.async.wait_group takes a constant count of groups (0 .. 255), found '%s'",
                            ptx_quote(&ops[0].tok, q, sizeof q));
        in->op = OP_CP_ASYNC_WAIT;
        in->nsrc = 1;
        in->src[0] = (Operand){ .kind = OPND_IMM, .value = (uint32_t)ops[0].ival };
        return ptx_emit(P, in, g);
    }
    if (!strcmp(what, "mbarrier")) {
        static const char *const ALLOWED[] = { "async", "mbarrier", "arrive", "noinc", "shared", "shared::cta", "b64", NULL };
        if (!only(P, opt, &ps, ALLOWED)) return false;
        if (!has(&ps, "arrive") || !has(&ps, "b64")) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 1, 1)) return false;
        in->op = OP_CP_ASYNC_MBAR;
        in->sub = has(&ps, "noinc");
        in->stype = (uint8_t)(has(&ps, "shared") || has(&ps, "shared::cta") ? SPACE_SHARED : SPACE_GENERIC);
        in->nsrc = 1;
        return ptx_mem_operand(P, &ops[0], (MemSpace)in->stype, in) && ptx_emit(P, in, g);
    }
    return decode_copy(P, opt, &ps, ops, n, in, g);
}

/* mbarrier.init / inval / arrive / arrive_drop / test_wait / try_wait
** {.parity} {.sem}{.scope}{.shared{::cta}}.b64 ..., and pending_count.
** Instr.stype: the address's space (shared, or generic). MBAR_ARRIVE's
** Instr.sub: bit 0 arrive_drop, bit 1 noComplete; MBAR_TEST's: bit 0
** parity, bit 1 try_wait. */
PTX_DECODER(ptx_decode_mbarrier)
{
    (void)head, (void)m;
    Parts ps;
    if (!split(P, opt, &ps)) return false;
    static const char *const ALLOWED[] = { "init", "inval", "arrive", "arrive_drop", "test_wait", "try_wait", "parity",
                                           "noComplete", "pending_count", "expect_tx", "complete_tx", "release",
                                           "acquire", "relaxed", "cta", "cluster", "shared", "shared::cta",
                                           "shared::cluster", "b64", NULL };
    if (ps.n < 2 || !only(P, opt, &ps, ALLOWED) || !has(&ps, "b64")) return P->failed ? false : ptx_unsupported(P, opt);
    const char *what = ps.part[0];
    /* no clusters here: a block is a cluster of one, whose shared::cluster
    ** addresses of its own barriers are their shared::cta ones */
    in->stype = (uint8_t)(has(&ps, "shared") || has(&ps, "shared::cta") || has(&ps, "shared::cluster") ? SPACE_SHARED
                                                                                                      : SPACE_GENERIC);
    bool parity = has(&ps, "parity"), no_complete = has(&ps, "noComplete"), expect = has(&ps, "expect_tx");
    if (!strcmp(what, "expect_tx") || !strcmp(what, "complete_tx")) {
        if (parity || no_complete || (what[0] == 'e' ? false : expect)) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 2, 2)) return false;
        in->op = OP_MBAR_TX;
        in->sub = what[0] == 'c';
        in->nsrc = 2;
        return ptx_mem_operand(P, &ops[0], (MemSpace)in->stype, in) && src32(P, &ops[1], &in->src[1], "the byte count") &&
               ptx_emit(P, in, g);
    }
    if (!strcmp(what, "pending_count")) {
        if (ps.n != 2) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 2, 2)) return false;
        in->op = OP_MBAR_PENDING;
        in->ndst = in->nsrc = 1;
        return ptx_want_reg(P, &ops[0], VREG_32, &in->dst[0], "the count") &&
               ptx_want_reg(P, &ops[1], VREG_64, &in->src[0], "the state") && ptx_emit(P, in, g);
    }
    if (!strcmp(what, "init") || !strcmp(what, "inval")) {
        bool init = what[2] == 'i';
        if (parity || no_complete || expect) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, init ? 2 : 1, init ? 2 : 1)) return false;
        in->op = init ? OP_MBAR_INIT : OP_MBAR_INVAL;
        in->nsrc = init ? 2 : 1;
        if (!ptx_mem_operand(P, &ops[0], (MemSpace)in->stype, in)) return false;
        return (!init || src32(P, &ops[1], &in->src[1], "the expected count")) && ptx_emit(P, in, g);
    }
    if (!strcmp(what, "arrive") || !strcmp(what, "arrive_drop")) {
        if (parity || (expect && no_complete)) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 2 + (no_complete || expect), 3)) return false;
        in->op = OP_MBAR_ARRIVE;
        in->sub = (uint8_t)((what[6] == '_') | no_complete << 1 | expect << 2); /* expect_tx: the count is bytes */
        in->nsrc = 2;
        if (!ptx_mem_operand(P, &ops[1], (MemSpace)in->stype, in)) return false;
        in->src[1] = (Operand){ .kind = OPND_IMM, .value = 1 };
        if (n == 3 && !src32(P, &ops[2], &in->src[1], "the arrival count")) return false;
        bool sink = ops[0].kind == PO_WORD && ops[0].tok.len == 1 && ops[0].tok.s[0] == '_';
        if (!sink) {
            in->ndst = 1;
            if (!ptx_want_reg(P, &ops[0], VREG_64, &in->dst[0], "the state")) return false;
        }
        return ptx_emit(P, in, g);
    }
    if (!strcmp(what, "test_wait") || !strcmp(what, "try_wait")) {
        bool try_wait = what[1] == 'r';
        if (no_complete || expect) return ptx_unsupported(P, opt);
        if (!ptx_nops(P, opt, n, 3, 3 + try_wait)) return false; /* try_wait's time hint: not modelled */
        in->op = OP_MBAR_TEST;
        in->sub = (uint8_t)(parity | try_wait << 1);
        in->ndst = 1;
        in->nsrc = 2;
        if (!ptx_want_reg(P, &ops[0], VREG_PRED, &in->dst[0], "the result")) return false;
        if (!ptx_mem_operand(P, &ops[1], (MemSpace)in->stype, in)) return false;
        if (parity ? !src32(P, &ops[2], &in->src[1], "the phase parity")
                   : !ptx_want_reg(P, &ops[2], VREG_64, &in->src[1], "the state"))
            return false;
        return ptx_emit(P, in, g);
    }
    return ptx_unsupported(P, opt);
}
