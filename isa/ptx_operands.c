/* isa/ptx_operands.c -- what the text of one PTX instruction says before
** it is decoded: its operands (registers, immediates in every PTX spelling,
** special registers, [address] forms, {vectors}, d|p pipes) and its
** modifiers (types, state space, comparison, rounding, ...), each kind given
** at most once. isa/ptx_decode.c turns them into Instr rows.
** Source: the PTX ISA manual, "Instruction Operands" and each instruction's
** syntax. */
#include "isa/ptx_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ------------------------------------------------------------- operands */




/* A numeric literal: integers, 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX
** (f64 bits), decimal floats. */
bool ptx_parse_number(Ptx *P, const Tok *t, bool neg, POp *o)
{
    o->is_float = false;
    o->ival = 0;
    o->fval = 0;
    o->kind = PO_IMM;
    o->tok = *t;
    char buf[80], q[80];
    ptx_text(t, buf, sizeof buf);
    if (t->len >= 2 && buf[0] == '0' && (buf[1] == 'f' || buf[1] == 'F')) {
        if (t->len != 10) return ptx_fail(P, t, "float literal '%s' needs exactly 8 hex digits after 0f", buf);
        char *e;
        uint32_t u = (uint32_t)strtoul(buf + 2, &e, 16);
        if (*e) return ptx_fail(P, t, "malformed float literal '%s'", buf);
        float f;
        memcpy(&f, &u, 4);
        o->is_float = true;
        o->fval = neg ? -(double)f : (double)f;
        return true;
    }
    if (t->len >= 2 && buf[0] == '0' && (buf[1] == 'd' || buf[1] == 'D')) {
        if (t->len != 18) return ptx_fail(P, t, "double literal '%s' needs exactly 16 hex digits after 0d", buf);
        char *e;
        uint64_t u = strtoull(buf + 2, &e, 16);
        if (*e) return ptx_fail(P, t, "malformed double literal '%s'", buf);
        double f;
        memcpy(&f, &u, 8);
        o->is_float = true;
        o->fval = neg ? -f : f;
        return true;
    }
    bool hex = t->len > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    if (!hex && strpbrk(buf, ".eE")) {
        char *e;
        double f = strtod(buf, &e);
        if (*e) return ptx_fail(P, t, "malformed number '%s'", ptx_quote(t, q, sizeof q));
        o->is_float = true;
        o->fval = neg ? -f : f;
        return true;
    }
    return ptx_int(P, t, neg, &o->ival);
}

static int special_of(const Tok *t)
{
    for (int i = 0; i < SREG_COUNT; i++) {
        size_t n = strlen(SREG_NAMES[i]);
        if (t->len == n + 1 && t->s[0] == '%' && memcmp(t->s + 1, SREG_NAMES[i], n) == 0) return i;
    }
    return -1;
}

/* Special registers PTX has and the front end does not take yet (clusters,
** the environment, shared-memory sizes, performance counters): a prefix
** each, so that %envreg3 and %cluster_ctaid.x are found. Named as such
** rather than as undeclared registers. */
static const char *const SPECIAL_NOT_YET[] = { "%cluster", "%nclusterid", "%is_explicit_cluster", "%envreg", "%gridid",
                                               "%total_smem_size", "%aggr_smem_size",
                                               "%pm", "%globaltimer_", "%current_graph_exec",
                                               "%nwarpid", "%clock_hi", NULL };

static bool special_not_yet(const Tok *t)
{
    for (int i = 0; SPECIAL_NOT_YET[i]; i++) {
        size_t n = strlen(SPECIAL_NOT_YET[i]);
        if (t->len >= n && memcmp(t->s, SPECIAL_NOT_YET[i], n) == 0) return true;
    }
    return false;
}

/* [reg], [reg+imm], [symbol+imm], [param]: a memory operand (P->tok is
** its '['). */
static bool parse_address(Ptx *P, POp *o, Tok t)
{
    char q[80];
    o->kind = PO_MEM;
    ptx_next(P);
    bool first = true, neg = false;
    for (;;) {
        Tok u = P->tok;
        if (ptx_punct(&u, '-')) { /* [%rd1+-4] */
            neg = !neg;
            ptx_next(P);
            continue;
        }
        if (u.kind == TK_NUM) {
            int64_t v;
            if (!ptx_int(P, &u, neg, &v)) return false;
            o->disp += v;
        } else if (u.kind == TK_WORD && u.s[0] == '%') {
            if (!first || neg) return ptx_fail(P, &u, "a register must come first in an address, added");
            if (!ptx_reg(P, &u, &o->v, &o->cls)) return false;
            if (o->cls == VREG_PRED) return ptx_fail(P, &u, "a predicate cannot be an address");
            o->has_reg = true;
        } else if (u.kind == TK_WORD) {
            const PtxSym *s = ptx_sym(P, &u);
            int var = s ? -1 : ptx_var(P, &u);
            int pi = s || var >= 0 ? -1 : ptx_param_index(P, &u);
            if (!s && var < 0 && pi < 0 && first && !neg && ptx_named_reg(P, &u, &o->v, &o->cls)) {
                o->has_reg = true; /* [param0+0], [ptr]: a named register */
            } else {
                if (!s && var < 0 && pi < 0)
                    return ptx_fail(P, &u, "unknown name '%s' in an address; expected a register, a variable or a parameter",
                                    ptx_quote(&u, q, sizeof q));
                if (neg || o->sym || o->var >= 0 || o->param >= 0 || o->has_reg)
                    return ptx_fail(P, &u, "one symbol per address, added");
                o->sym = s;
                o->var = var;
                o->param = pi;
            }
        } else {
            return ptx_fail(P, &u, "expected a register, symbol or number in the address, found '%s'", ptx_quote(&u, q, sizeof q));
        }
        first = false;
        neg = false;
        ptx_next(P);
        if (ptx_punct(&P->tok, '+')) {
            ptx_next(P);
            continue;
        }
        if (ptx_punct(&P->tok, '-')) {
            neg = true;
            ptx_next(P);
            continue;
        }
        break;
    }
    if (o->disp < INT32_MIN || o->disp > INT32_MAX) return ptx_fail(P, &t, "address displacement out of 32-bit range");
    return ptx_expect(P, ']', "to close the address");
}

/* {a, b[, c, d]}: registers or numbers (P->tok is its '{'). */
static bool parse_vector(Ptx *P, POp *o)
{
    char q[80];
    o->kind = PO_VEC;
    ptx_next(P);
    P->vector_open = true; /* a failure inside: its '}' is not the scope's (refuse_kernel) */
    for (;;) {
        if (o->nelem == 4) return ptx_fail(P, &P->tok, "at most 4 elements in a vector operand");
        Tok u = P->tok;
        uint32_t e = o->nelem++;
        o->etok[e] = u;
        bool neg = false;
        if (ptx_punct(&u, '-')) {
            neg = true;
            ptx_next(P);
            u = P->tok;
        }
        if (u.kind == TK_WORD && u.s[0] == '%' && !neg) {
            if (!ptx_reg(P, &u, &o->ev[e], &o->ecls[e])) return false;
        } else if (u.kind == TK_WORD && !neg && ptx_named_reg(P, &u, &o->ev[e], &o->ecls[e])) {
            /* a register named without '%': inline assembly's scoped `lo`, `hi` */
        } else if (u.kind == TK_NUM) {
            POp n;
            if (!ptx_parse_number(P, &u, neg, &n)) return false;
            o->eimm[e] = true;
            o->efloat[e] = n.is_float;
            o->eival[e] = n.ival;
            o->efval[e] = n.fval;
        } else {
            return ptx_fail(P, &u, "expected a register or a number in the vector, found '%s'", ptx_quote(&u, q, sizeof q));
        }
        ptx_next(P);
        if (ptx_punct(&P->tok, ',')) {
            ptx_next(P);
            continue;
        }
        break;
    }
    if (!ptx_expect(P, '}', "to close the vector")) return false;
    P->vector_open = false;
    return true;
}

/* After a register operand: `|p`, a second destination that is a
** predicate (setp's d|p, shfl's and match's), named with '%' or not. */
static bool pipe_tail(Ptx *P, POp *o)
{
    if (!ptx_punct(&P->tok, '|')) return true;
    ptx_next(P);
    Tok u = P->tok;
    bool ok = u.kind == TK_WORD && (u.s[0] == '%' ? ptx_reg(P, &u, &o->v2, &o->cls2) : ptx_named_reg(P, &u, &o->v2, &o->cls2));
    if (!ok || o->cls2 != VREG_PRED) return P->failed ? false : ptx_fail(P, &u, "expected a predicate after '|'");
    o->kind = PO_PIPE;
    ptx_next(P);
    return true;
}

bool ptx_parse_operand(Ptx *P, POp *o)
{
    char q[80];
    memset(o, 0, sizeof *o);
    o->param = -1;
    o->var = -1;
    Tok t = P->tok;
    o->tok = t;
    if (ptx_punct(&t, '[')) return parse_address(P, o, t);
    if (ptx_punct(&t, '{')) return parse_vector(P, o);
    bool neg = false, notp = false;
    if (ptx_punct(&t, '-')) {
        neg = true;
        ptx_next(P);
        t = P->tok;
    } else if (ptx_punct(&t, '!')) {
        notp = true;
        ptx_next(P);
        t = P->tok;
    }
    if (t.kind == TK_NUM) {
        if (notp) return ptx_fail(P, &t, "'!' negates a predicate, not a number");
        if (!ptx_parse_number(P, &t, neg, o)) return false;
        ptx_next(P);
        return true;
    }
    if (t.kind == TK_WORD && t.s[0] == '%') {
        int sr = special_of(&t);
        if (sr >= 0 && !neg && !notp) {
            o->kind = PO_SPECIAL;
            o->special = (uint32_t)sr;
            ptx_next(P);
            return true;
        }
        if (neg) return ptx_fail(P, &t, "'-' before a register; expected a number");
        if (sr < 0 && special_not_yet(&t))
            return ptx_fail(P, &t, "the special register '%s' is not supported yet by the PTX front end (docs/PTX.md "
                            "lists those it takes)", ptx_quote(&t, q, sizeof q));
        o->kind = PO_REG;
        o->tok = t;
        if (!ptx_reg(P, &t, &o->v, &o->cls)) return false;
        o->neg = notp;
        if (notp && o->cls != VREG_PRED) return ptx_fail(P, &t, "'!' negates a predicate; '%s' is not one", ptx_quote(&t, q, sizeof q));
        ptx_next(P);
        return pipe_tail(P, o);
    }
    if (t.kind == TK_WORD) {
        if (neg || notp) return ptx_fail(P, &t, "unexpected sign before '%s'", ptx_quote(&t, q, sizeof q));
        if (ptx_is(&t, "WARP_SZ")) {
            o->kind = PO_IMM;
            o->ival = 32;
            ptx_next(P);
            return true;
        }
        if (t.len == 1 && t.s[0] == '_') { /* the sink: _|p (elect.sync) */
            ptx_next(P);
            if (!ptx_punct(&P->tok, '|')) {
                o->kind = PO_WORD;
                return true;
            }
            o->sink = true;
            return pipe_tail(P, o);
        }
        if (ptx_named_reg(P, &t, &o->v, &o->cls)) { /* inline asm's scoped register, a call's argument */
            o->kind = PO_REG;
            o->tok = t;
            ptx_next(P);
            return pipe_tail(P, o);
        }
        o->kind = PO_WORD;
        o->sym = ptx_sym(P, &t);
        o->var = o->sym ? -1 : ptx_var(P, &t);
        ptx_next(P);
        return true;
    }
    return ptx_fail(P, &t, "expected an operand, found '%s'", ptx_quote(&t, q, sizeof q));
}

/* ------------------------------------------------------------ modifiers */


static const char *const IGNORED[] = { "relaxed", "acquire", "release", "acq_rel", "sc", "weak", "gpu", "cta", "sys",
                                       "cluster", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile", "nc",
                                       "unified", "noftz", NULL };

static int name_in(const char *const *names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return i;
    return -1;
}

/* What a load's cache operator, ordering and scope say of its path: .nc,
** and the parts of Mods.l2_only. */
static void memory_mod(const char *w, size_t n, Mods *m)
{
    if (n == 2 && memcmp(w, "nc", 2) == 0) m->nc = true;
    if ((n == 2 && (!memcmp(w, "cg", 2) || !memcmp(w, "cv", 2))) || (n == 8 && !memcmp(w, "volatile", 8)))
        m->l2_only = true;
    if (n == 7 && (!memcmp(w, "relaxed", 7) || !memcmp(w, "acquire", 7))) m->strong = true;
    if (n == 3 && (!memcmp(w, "gpu", 3) || !memcmp(w, "sys", 3))) m->wide_scope = true;
}

/* Records a modifier of a kind that an instruction names once (the slot
** starts at -1); false when the kind was already given. */
static bool set_once(int *slot, int value)
{
    bool first = *slot == -1;
    *slot = value;
    return first;
}

/* The modifiers that are a flag each: sets it, true; false for others. */
static bool flag_mod(const char *w, size_t n, Mods *m)
{
    static const char *const NAMES[] = { "sat", "ftz", "approx", "full", "wide", "lo", "hi", "uni", "sync", "aligned",
                                         "to", "l", "r", "wrap", "clamp", "NaN", "shiftamt", "cc", "relu" };
    bool *const flags[] = { &m->sat, &m->ftz, &m->approx, &m->full, &m->wide, &m->lo, &m->hi, &m->uni, &m->sync,
                            &m->aligned, &m->to, &m->l, &m->r, &m->wrap, &m->clamp, &m->nan, &m->shiftamt, &m->cc,
                            &m->relu };
    int i = name_in(NAMES, (int)(sizeof NAMES / sizeof NAMES[0]), w, n);
    if (i < 0) return false;
    *flags[i] = true;
    return true;
}

/* Splits `word` (the opcode as written) into its head and modifiers. */
bool ptx_parse_mods(Ptx *P, const Tok *t, char *head, size_t hcap, Mods *m)
{
    char q[80];
    memset(m, 0, sizeof *m);
    m->space = MODS_NO_SPACE;
    m->vec = 1;
    m->cmp = m->boolop = m->shfl = m->vote = m->atom = m->testp = m->prmt = -1;
    m->rnd = RND_NONE;
    const char *s = t->s, *e = t->s + t->len, *dot = memchr(s, '.', t->len);
    size_t hl = (size_t)((dot ? dot : e) - s);
    if (hl >= hcap) return ptx_fail(P, t, "unknown instruction '%s'", ptx_quote(t, q, sizeof q));
    memcpy(head, s, hl);
    head[hl] = 0;
    static const char *const TY[] = { "b32", "u32", "s32", "f32", "b64", "u64", "s64", "b8", "u8", "s8", "b16", "u16", "s16", "f64",
                                      "f16", "bf16" };
    static const ValueType TV[] = { TYPE_B32, TYPE_U32, TYPE_S32, TYPE_F32, TYPE_B64, TYPE_U64, TYPE_S64,
                                    TYPE_B8,  TYPE_U8,  TYPE_S8,  TYPE_B16, TYPE_U16, TYPE_S16, TYPE_F64,
                                    TYPE_F16, TYPE_BF16 };
    static const char *const CMPS[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", "lo", "ls", "hi", "hs" };
    static const char *const RNDS[] = { "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi" };
    static const char *const TESTS[] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
    static const char *const PRMTS[] = { "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };
    static const char *const VOTES[VOTE_MODES] = { [VOTE_ALL] = "all", [VOTE_ANY] = "any", [VOTE_UNI] = "uni",
                                                   [VOTE_BALLOT] = "ballot" };
    /* cp.async, mbarrier, textures, surfaces: each form takes its own
    ** modifiers, which its decoder reads (isa/ptx_decode_async.c, _tex.c) */
    if (!strcmp(head, "cp") || !strcmp(head, "mbarrier") || !strcmp(head, "griddepcontrol") || !strcmp(head, "discard") ||
        !strcmp(head, "applypriority") || !strcmp(head, "createpolicy") || !strcmp(head, "elect") || ptx_is_tex_head(head))
        return true;
    bool is_atom = strcmp(head, "atom") == 0 || strcmp(head, "red") == 0 || strcmp(head, "redux") == 0;
    bool is_setp = strcmp(head, "setp") == 0 || strcmp(head, "set") == 0; /* set: the comparisons too */
    bool is_bar = strcmp(head, "bar") == 0 || strcmp(head, "barrier") == 0;
    for (const char *p = dot; p && p < e;) {
        const char *pe = p + 1;
        while (pe < e && *pe != '.') pe++;
        const char *w = p + 1;
        size_t n = (size_t)(pe - w);
        int i;
        bool ok = true;
        const char *kind = "state spaces";
        if ((i = name_in(TY, 16, w, n)) >= 0) {
            if (m->ntypes == 3) return ptx_fail(P, t, "too many types in '%s'", ptx_quote(t, q, sizeof q));
            m->types[m->ntypes++] = TV[i];
        } else if ((n == 5 && memcmp(w, "f16x2", 5) == 0) || (n == 6 && memcmp(w, "bf16x2", 6) == 0)) {
            if (m->ntypes == 3) return ptx_fail(P, t, "too many types in '%s'", ptx_quote(t, q, sizeof q));
            m->types[m->ntypes++] = n == 5 ? TYPE_F16 : TYPE_BF16; /* the element type; f16: a pair of them */
            m->f16 = true;
        }
        else if ((n == 6 && memcmp(w, "e4m3x2", 6) == 0) || (n == 6 && memcmp(w, "e5m2x2", 6) == 0)) {
            if (m->ntypes == 3 || m->f8) return ptx_fail(P, t, "too many types in '%s'", ptx_quote(t, q, sizeof q));
            m->types[m->ntypes++] = TYPE_B16; /* the pair's 16 bits */
            m->f8 = w[1] == '4' ? 1 : 2;
        }
        else if (n == 9 && memcmp(w, "satfinite", 9) == 0 && strcmp(head, "cvt") == 0) m->satfinite = true;
        else if ((n == 5 && memcmp(w, "u16x2", 5) == 0) || (n == 5 && memcmp(w, "s16x2", 5) == 0)) {
            if (m->ntypes == 3) return ptx_fail(P, t, "too many types in '%s'", ptx_quote(t, q, sizeof q));
            m->types[m->ntypes++] = w[0] == 'u' ? TYPE_U16 : TYPE_S16; /* the element type; i16x2: a pair */
            m->i16x2 = true;
        }
        else if (n == 3 && memcmp(w, "add", 3) == 0 && head[0] == 'v') m->accumulate = true; /* vabsdiff4.u32.u32.u32.add */
        else if (n == 4 && memcmp(w, "pred", 4) == 0) m->types[m->ntypes < 3 ? m->ntypes++ : 2] = TYPE_NONE;
        else if (n == 6 && memcmp(w, "global", 6) == 0) ok = set_once(&m->space, SPACE_GLOBAL);
        else if ((n == 6 && memcmp(w, "shared", 6) == 0) || (n == 11 && memcmp(w, "shared::cta", 11) == 0))
            ok = set_once(&m->space, SPACE_SHARED);
        else if (n == 5 && memcmp(w, "param", 5) == 0) ok = set_once(&m->space, SPACE_PARAM);
        else if (n == 5 && memcmp(w, "local", 5) == 0) ok = set_once(&m->space, MODS_LOCAL);
        else if (n == 5 && memcmp(w, "const", 5) == 0) ok = set_once(&m->space, MODS_CONST);
        else if (n == 2 && w[0] == 'v' && (w[1] == '2' || w[1] == '4')) {
            ok = m->vec == 1, kind = "vector widths";
            m->vec = (uint32_t)(w[1] - '0');
        } else if (is_atom && (i = name_in(ATOM_NAMES, ATOM_COUNT, w, n)) >= 0) ok = set_once(&m->atom, i), kind = "atomic operations";
        else if (is_setp && (i = name_in((const char *const[]){ "and", "or", "xor" }, 3, w, n)) >= 0)
            ok = set_once(&m->boolop, i), kind = "boolean operations";
        else if (is_setp && (i = name_in(CMPS, 18, w, n)) >= 0) ok = set_once(&m->cmp, i), kind = "comparisons";
        else if ((i = name_in(RNDS, 8, w, n)) >= 0) {
            ok = m->rnd == RND_NONE, kind = "rounding modes";
            m->rnd = RND_RN + i;
        } else if (strcmp(head, "shfl") == 0 && (i = name_in(SHFL_NAMES, SHFL_COUNT, w, n)) >= 0)
            ok = set_once(&m->shfl, i), kind = "shuffle modes";
        else if (strcmp(head, "vote") == 0 && (i = name_in(VOTES, VOTE_MODES, w, n)) >= 0) ok = set_once(&m->vote, i), kind = "vote modes";
        else if (strcmp(head, "testp") == 0 && (i = name_in(TESTS, 6, w, n)) >= 0) ok = set_once(&m->testp, i), kind = "tests";
        else if (strcmp(head, "prmt") == 0 && (i = name_in(PRMTS, 6, w, n)) >= 0) ok = set_once(&m->prmt, i + 1), kind = "permute modes";
        else if (flag_mod(w, n, m)) { /* .sat .ftz .approx ... */
        }
        else if (is_bar && n == 3 && memcmp(w, "red", 3) == 0) m->red = true;
        else if (is_bar && n == 4 && memcmp(w, "popc", 4) == 0) m->popc = true;
        else if (is_bar && (i = name_in((const char *const[]){ "and", "or" }, 2, w, n)) >= 0)
            ok = set_once(&m->boolop, i), kind = "reductions";
        else if (is_bar && n == 3 && memcmp(w, "cta", 3) == 0) { /* barrier.cta: the block's, as barrier is */
        }
        else if (is_bar && n == 6 && memcmp(w, "arrive", 6) == 0) { /* bar.arrive: its decoder reads it */
        }
        else if (n == 4 && memcmp(w, "warp", 4) == 0 && strcmp(head, "bar") == 0) { /* bar.warp.sync: its decoder reads it */
        }
        else if (n >= 2 && w[0] == 'L' && (w[1] == '1' || w[1] == '2') && (n == 2 || w[2] == ':') && !strncmp(head, "prefetch", 8))
            ok = m->cache_level == 0, kind = "cache levels", m->cache_level = w[1] - '0';
        else if (n == 3 && memcmp(w, "any", 3) == 0 && strcmp(head, "match") == 0) m->any = true;
        else if (n == 3 && memcmp(w, "all", 3) == 0 && strcmp(head, "match") == 0) m->all = true;
        else if (name_in(IGNORED, 21, w, n) >= 0 || memchr(w, ':', n)) { /* ordering, scope, cache hints */
            if (n == 14 && memcmp(w, "L2::cache_hint", 14) == 0) m->cache_hint = true;
            if (n == 15 && !memcmp(w, "shared::cluster", 15) && !strcmp(head, "isspacep")) ok = set_once(&m->space, SPACE_SHARED);
            memory_mod(w, n, m);
        } else if ((n == 2 && memcmp(w, "gl", 2) == 0) && strcmp(head, "membar") == 0) {
        } else if (strcmp(head, "fence") == 0 || strcmp(head, "membar") == 0) {
        } else {
            char part[40];
            snprintf(part, sizeof part, "%.*s", (int)(n < 32 ? n : 32), w);
            return ptx_fail(P, t, "unknown modifier '.%s' in '%s'", part, ptx_quote(t, q, sizeof q));
        }
        if (!ok) return ptx_fail(P, t, "'%s' has two %s; an instruction takes one", ptx_quote(t, q, sizeof q), kind);
        p = pe;
    }
    /* Pairs that contradict each other: the last one must not silently win. */
    const char *clash = m->lo && m->hi ? ".lo and .hi" : m->wide && (m->lo || m->hi) ? ".wide and .lo/.hi"
                      : m->l && m->r ? ".l and .r" : m->wrap && m->clamp ? ".wrap and .clamp"
                      : m->approx && m->full ? ".approx and .full" : m->approx && m->rnd != RND_NONE ? ".approx and a rounding mode"
                      : NULL;
    if (clash) return ptx_fail(P, t, "'%s' has both %s; they contradict each other", ptx_quote(t, q, sizeof q), clash);
    return true;
}
