/* isa/ptx_func.c -- device functions (.func): every definition's header is
** read ahead of the kernels, and a call of one is inlined where it stands:
** the function's body is parsed again at the call, in a scope of its own
** (fresh indices of registers, labels and local arrays, as PTX scopes them
** to the function), its parameters and return value standing for the
** call's .param registers, its `ret` a branch to its end. ptxas inlines
** most device functions too; a __noinline__ one costs a CALL and a RET on
** the GPU, which are not timed here. Recursion is refused: inlining it
** would need the data's depth. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "isa/ptx_int.h"

const char PTX_RET_LABEL[] = "@ret"; /* '@' starts no PTX name */

void ptx_mark(const Ptx *P, PtxMark *m)
{
    *m = (PtxMark){ P->lx, P->tok, P->in_comment, P->comment_line, P->comment_col };
}

void ptx_seek(Ptx *P, const PtxMark *m)
{
    P->lx = m->lx;
    P->tok = m->tok;
    P->in_comment = m->in_comment;
    P->comment_line = m->comment_line;
    P->comment_col = m->comment_col;
}

static char *dup_name(Ptx *P, const Tok *t)
{
    char *s = ptx_dup_tok(t);
    if (!s) ptx_fail(P, t, "out of memory");
    return s;
}

/* `.param [.align N] .TYPE name[N]` of a .func header. */
static bool func_param(Ptx *P, PtxFuncParam *fp)
{
    char q[80];
    if (!ptx_is(&P->tok, ".param"))
        return ptx_fail(P, &P->tok, "expected '.param' in a device function's parameters, found '%s'", ptx_quote(&P->tok, q, sizeof q));
    ptx_next(P);
    while (P->tok.kind == TK_DIR) {
        uint8_t cls = ptx_type_class(&P->tok);
        if (cls == VREG_32 || cls == VREG_64) fp->cls = cls;
        if (ptx_is(&P->tok, ".align")) ptx_next(P); /* its number */
        ptx_next(P);
    }
    if (!fp->cls) return ptx_fail(P, &P->tok, "expected a parameter type (.b32 .u64 .f32 ...) before '%s'", ptx_quote(&P->tok, q, sizeof q));
    if (P->tok.kind != TK_WORD) return ptx_fail(P, &P->tok, "expected a parameter name, found '%s'", ptx_quote(&P->tok, q, sizeof q));
    if (!(fp->name = dup_name(P, &P->tok))) return false;
    ptx_next(P);
    if (ptx_punct(&P->tok, '[')) { /* a struct by value: bytes */
        fp->array = true;
        while (P->tok.kind != TK_EOF && !ptx_punct(&P->tok, ']')) ptx_next(P);
        if (!ptx_expect(P, ']', "after the parameter's size")) return false;
    }
    return true;
}

static void func_free(PtxFunc *f)
{
    free(f->name);
    free(f->ret.name);
    for (uint32_t i = 0; i < f->nparams; i++) free(f->params[i].name);
}

/* `.func [(ret)] name [(params)] [.noreturn] ;` or `{ body }` at P->tok;
** the body passed over, its start marked. */
static bool func_header(Ptx *P, PtxFunc *f)
{
    char q[80];
    f->line = P->tok.line;
    ptx_next(P);
    if (ptx_punct(&P->tok, '(')) {
        ptx_next(P);
        if (!func_param(P, &f->ret) || !ptx_expect(P, ')', "after a device function's return value")) return false;
        f->has_ret = true;
    }
    if (P->tok.kind != TK_WORD) return ptx_fail(P, &P->tok, "expected a device function's name, found '%s'", ptx_quote(&P->tok, q, sizeof q));
    if (!(f->name = dup_name(P, &P->tok))) return false;
    ptx_next(P);
    if (ptx_punct(&P->tok, '(')) {
        ptx_next(P);
        while (!ptx_punct(&P->tok, ')')) {
            if (f->nparams == PTX_FUNC_MAX_PARAMS)
                return ptx_fail(P, &P->tok, "device function '%s' has more than %d parameters", f->name, PTX_FUNC_MAX_PARAMS);
            if (!func_param(P, &f->params[f->nparams++])) return false;
            if (ptx_punct(&P->tok, ',')) ptx_next(P);
            else if (!ptx_punct(&P->tok, ')'))
                return ptx_fail(P, &P->tok, "expected ',' or ')' in the parameters of '%s', found '%s'", f->name,
                                ptx_quote(&P->tok, q, sizeof q));
        }
        ptx_next(P);
    }
    while (P->tok.kind == TK_DIR) ptx_next(P); /* .noreturn, and the like */
    if (ptx_punct(&P->tok, ';')) { /* a declaration: the definition is elsewhere, or nowhere */
        ptx_next(P);
        return true;
    }
    if (!ptx_expect(P, '{', "to open the device function's body, or ';' to declare it")) return false;
    ptx_mark(P, &f->body);
    f->has_body = true;
    for (uint32_t depth = 1; depth;) {
        if (P->tok.kind == TK_EOF) return ptx_fail(P, &P->tok, "end of file inside device function '%s': expected '}'", f->name);
        if (ptx_punct(&P->tok, '{')) depth++;
        if (ptx_punct(&P->tok, '}')) depth--;
        ptx_next(P);
    }
    return true;
}

static int32_t find_func(const Ptx *P, const Tok *t)
{
    for (uint32_t i = 0; i < P->nfuncs; i++)
        if (strlen(P->funcs[i].name) == t->len && !memcmp(P->funcs[i].name, t->s, t->len)) return (int32_t)i;
    return -1;
}

void ptx_func_prescan(Ptx *P)
{
    PtxMark start;
    ptx_mark(P, &start);
    uint32_t depth = 0;
    while (P->tok.kind != TK_EOF && !P->failed) {
        if (depth == 0 && ptx_is(&P->tok, ".func")) {
            PtxFunc f = { 0 };
            bool ok = func_header(P, &f);
            Tok name = { TK_WORD, f.name, f.name ? (uint32_t)strlen(f.name) : 0, 0, 0 };
            int32_t known = ok ? find_func(P, &name) : -1;
            if (ok && known >= 0 && !P->funcs[known].has_body && f.has_body) { /* declared first, defined here */
                func_free(&P->funcs[known]);
                P->funcs[known] = f;
            } else if (ok && known < 0 && grow_array((void **)&P->funcs, &P->funcs_cap, P->nfuncs + 1, sizeof *P->funcs)) {
                P->funcs[P->nfuncs++] = f;
            } else {
                func_free(&f);
            }
            continue;
        }
        if (ptx_punct(&P->tok, '{')) depth++;
        if (ptx_punct(&P->tok, '}') && depth) depth--;
        ptx_next(P);
    }
    /* what went wrong is the parse's to say, where it meets it */
    memset(P->d, 0, sizeof *P->d);
    P->failed = false;
    ptx_seek(P, &start);
}

bool ptx_func_skip(Ptx *P)
{
    PtxFunc f = { 0 };
    bool ok = func_header(P, &f);
    func_free(&f);
    return ok;
}

void ptx_funcs_free(Ptx *P)
{
    for (uint32_t i = 0; i < P->nfuncs; i++) func_free(&P->funcs[i]);
    free(P->funcs);
    free(P->aliases);
}

/* A call's operand as the .param register it must be. */
static bool call_param(Ptx *P, const POp *o, uint8_t cls, const char *fn, const char *what, uint32_t *v)
{
    char q[80];
    if (o->kind != PO_REG || !ptx_is_callparam(P, o->v))
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is '%s': expected a .param declared in the call's braces",
                        what, fn, ptx_quote(&o->tok, q, sizeof q));
    if (o->cls != cls)
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is %s-bit, the function's is %s-bit", what, fn,
                        o->cls == VREG_64 ? "64" : "32", cls == VREG_64 ? "64" : "32");
    *v = o->v;
    return true;
}

bool ptx_func_call(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, uint32_t g, bool guard_neg)
{
    char name[256], q[80];
    ptx_text(&ops[1].tok, name, sizeof name);
    int32_t fi = find_func(P, &ops[1].tok);
    if (fi < 0)
        return ptx_fail(P, &ops[1].tok, "a call of '%s', which is no device function of this file (one of another "
                                        "file needs separate compilation, -rdc, which gpusim does not take)", name);
    const PtxFunc *f = &P->funcs[fi];
    if (!f->has_body)
        return ptx_fail(P, &ops[1].tok, "device function '%s' is declared in this file but not defined here "
                                        "(separate compilation, -rdc, is not supported)", name);
    for (uint32_t i = 0; i < P->inline_depth; i++)
        if (P->inline_stack[i] == (uint32_t)fi)
            return ptx_fail(P, &ops[1].tok, "device function '%s' calls itself (recursion): gpusim inlines device "
                                            "functions, so recursion is not supported", name);
    if (P->inline_depth == PTX_INLINE_MAX_DEPTH)
        return ptx_fail(P, &ops[1].tok, "device functions nested more than %d deep", PTX_INLINE_MAX_DEPTH);
    if (P->inline_calls == PTX_INLINE_MAX_CALLS)
        return ptx_fail(P, &ops[1].tok, "more than %d device-function calls inlined into one kernel", PTX_INLINE_MAX_CALLS);
    if (n - 2 != f->nparams)
        return ptx_fail(P, opt, "the call of '%s' passes %u arguments; it takes %u", name, n - 2, f->nparams);
    P->call.active = false;
    for (uint32_t i = 0; i < f->nparams; i++) {
        if (f->params[i].array)
            return ptx_fail(P, &ops[2 + i].tok, "'%s' takes a struct by value (parameter %u): not supported yet in calls", name, i + 1);
        snprintf(q, sizeof q, "argument %u", i + 1);
        if (!call_param(P, &ops[2 + i], f->params[i].cls, name, q, &P->call.args[i])) return false;
    }
    if (f->has_ret && f->ret.array) return ptx_fail(P, opt, "'%s' returns a struct by value: not supported yet in calls", name);
    if (f->has_ret && ops[0].kind == PO_NONE) { /* its value unused */
        if (!ptx_fresh_reg(P, opt, f->ret.cls, &P->call.ret_v)) return false;
    } else if (f->has_ret) {
        if (!call_param(P, &ops[0], f->ret.cls, name, "the return value", &P->call.ret_v)) return false;
    } else if (ops[0].kind != PO_NONE) {
        return ptx_fail(P, &ops[0].tok, "'%s' returns nothing, but the call takes a return value", name);
    }
    P->call.func = (uint32_t)fi;
    P->call.guard = g;
    P->call.guard_neg = guard_neg;
    P->call.at = *opt;
    P->call.active = true;
    return true;
}

bool ptx_func_alias(const Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls)
{
    for (uint32_t i = P->alias_base; i < P->naliases; i++)
        if (strlen(P->aliases[i].name) == t->len && !memcmp(P->aliases[i].name, t->s, t->len)) {
            *v = P->aliases[i].v;
            *cls = P->vclass[*v];
            return true;
        }
    return false;
}

static bool add_alias(Ptx *P, const char *name, uint32_t v)
{
    if (!ptx_grow(P, (void **)&P->aliases, &P->aliases_cap, P->naliases + 1, sizeof *P->aliases)) return false;
    P->aliases[P->naliases++] = (PtxAlias){ name, v };
    return true;
}

/* The frame's branches (its own labels and `ret`), resolved at its end. */
static bool resolve_frame(Ptx *P, uint32_t refs_from, const char *fn)
{
    Kernel *k = P->k;
    for (uint32_t i = refs_from; i < P->nrefs; i++) {
        const PtxRef *r = &P->refs[i];
        if (!strcmp(r->name, PTX_RET_LABEL)) { /* the frame's end: what comes after the call */
            k->code[r->instr].target = k->ncode;
            continue;
        }
        uint32_t j = ptx_label_find(P, r->name, strlen(r->name));
        if (j == NAMES_NONE) {
            diag_set(P->d, P->file, r->line, r->col, "unknown label '%s' in device function '%s'", r->name, fn);
            return P->failed = true, false;
        }
        k->code[r->instr].target = k->labels[j].pc;
    }
    P->nrefs = refs_from;
    return true;
}

/* The scope of an inlined body: what it replaces, kept to be put back. */
typedef struct {
    PtxMark   after_call;
    NameIndex ranges, labels, syms;
    uint32_t  body_depth, refs_from, alias_base, naliases;
    uint16_t  loc_file, loc_inl_file;
    uint32_t  loc_line, loc_inl_line;
} Frame;

static bool open_frame(Ptx *P, Frame *fr)
{
    ptx_mark(P, &fr->after_call);
    fr->ranges = P->range_ix, fr->labels = P->label_ix, fr->syms = P->sym_ix;
    memset(&P->range_ix, 0, sizeof P->range_ix);
    memset(&P->label_ix, 0, sizeof P->label_ix);
    memset(&P->sym_ix, 0, sizeof P->sym_ix);
    fr->body_depth = P->body_depth, fr->refs_from = P->nrefs;
    fr->alias_base = P->alias_base, fr->naliases = P->naliases;
    fr->loc_file = P->loc_file, fr->loc_line = P->loc_line;
    fr->loc_inl_file = P->loc_inl_file, fr->loc_inl_line = P->loc_inl_line;
    for (uint32_t i = 0; i < P->nsyms; i++) /* the module's shared variables, seen everywhere */
        if (P->syms[i].module_scope && !names_add(&P->sym_ix, i, ptx_sym_name, P)) return ptx_fail(P, &P->tok, "out of memory");
    return true;
}

static void close_frame(Ptx *P, const Frame *fr)
{
    names_free(&P->range_ix);
    names_free(&P->label_ix);
    names_free(&P->sym_ix);
    P->range_ix = fr->ranges, P->label_ix = fr->labels, P->sym_ix = fr->syms;
    P->body_depth = fr->body_depth;
    P->alias_base = fr->alias_base, P->naliases = fr->naliases;
    P->loc_file = fr->loc_file, P->loc_line = fr->loc_line;
    P->loc_inl_file = fr->loc_inl_file, P->loc_inl_line = fr->loc_inl_line;
    ptx_seek(P, &fr->after_call);
}

bool ptx_func_inline(Ptx *P)
{
    P->call.active = false;
    const PtxFunc *f = &P->funcs[P->call.func];
    Frame fr;
    bool ok = open_frame(P, &fr);
    Tok ret = { TK_WORD, PTX_RET_LABEL, (uint32_t)strlen(PTX_RET_LABEL), P->call.at.line, P->call.at.col };
    if (ok && P->call.guard != UINT32_MAX) { /* a guarded call: its body skipped when the guard says so */
        Instr skip = { .op = OP_BRA, .type = TYPE_NONE, .guard = 0, .guard_neg = !P->call.guard_neg, .vec = 1, .reconv = ISA_NO_RECONV,
                       .line = ret.line, .col = ret.col, .src_file = P->loc_file, .src_line = P->loc_line };
        POp to = { .kind = PO_WORD, .tok = ret };
        ok = ptx_add_ref(P, &to, P->k->ncode) && ptx_emit(P, &skip, P->call.guard);
    }
    P->alias_base = P->naliases;
    for (uint32_t i = 0; ok && i < f->nparams; i++) ok = add_alias(P, f->params[i].name, P->call.args[i]);
    if (ok && f->has_ret) ok = add_alias(P, f->ret.name, P->call.ret_v);
    if (ok) {
        P->inline_stack[P->inline_depth++] = P->call.func;
        P->inline_calls++;
        ptx_seek(P, &f->body);
        P->body_depth = 1;
        ok = ptx_parse_body(P, P->k);
        P->inline_depth--;
    }
    ok = ok && resolve_frame(P, fr.refs_from, f->name);
    close_frame(P, &fr);
    return ok;
}
