/* isa/ptx_func.c -- device functions (.func): every definition's header is
** read ahead of the kernels, and a call of one is inlined where it stands:
** the function's body is parsed again at the call, in a scope of its own
** (fresh indices of registers, labels and local arrays, as PTX scopes them
** to the function), its parameters and return value standing for the
** call's .param registers, its `ret` a branch to its end. ptxas inlines
** most device functions too; a __noinline__ one costs a CALL and a RET on
** the GPU, which are not timed here. Recursion is inlined to a fixed depth
** (recursion_levels), deeper calls trap. Also every call instruction's
** decoding (ptx_decode_call): the device runtime's functions a file
** declares (vprintf, __assertfail, malloc and free, cudaGraphSetConditional)
** become rows of their own, and calls through a pointer are
** ptx_func_call_indirect's. */
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
        ptx_next(P);
        int64_t bytes;
        Tok bt = P->tok;
        if (!ptx_int(P, &bt, false, &bytes)) return false;
        if (bytes <= 0 || bytes > 65536)
            return ptx_fail(P, &bt, "a struct parameter's size %lld is out of range (1 .. 65536 bytes)", (long long)bytes);
        fp->bytes = (uint32_t)bytes;
        ptx_next(P);
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
    /* the functions whose address a mov reads (`mov.u64 %rd5, f;`: a
    ** register and a comma before the name; a call has ')' or its opcode)
    ** or a variable's initializer holds (a C++ class's table of virtual
    ** functions: `.global .u64 _ZTV2Sq[5] = {0, 0, _ZNK2Sq4areaEv, ...};`) */
    ptx_seek(P, &start);
    Tok before[2] = { { 0 }, { 0 } };
    bool initializer = false; /* from '=' to ';' */
    while (P->nfuncs && P->tok.kind != TK_EOF && !P->failed) {
        int32_t fi = P->tok.kind == TK_WORD ? find_func(P, &P->tok) : -1;
        if (fi >= 0 && ptx_punct(&before[1], ',') && before[0].kind == TK_WORD && before[0].len && before[0].s[0] == '%')
            P->funcs[fi].address_taken = true;
        if (fi >= 0 && initializer) P->funcs[fi].address_taken = true;
        if (ptx_punct(&P->tok, '=')) initializer = true;
        if (ptx_punct(&P->tok, ';')) initializer = false;
        before[0] = before[1], before[1] = P->tok;
        ptx_next(P);
    }
    memset(P->d, 0, sizeof *P->d);
    P->failed = false;
    ptx_seek(P, &start);
}

bool ptx_func_address(const Ptx *P, const Tok *t, uint32_t *addr)
{
    int32_t fi = find_func(P, t);
    if (fi < 0) return false;
    *addr = ISA_CODE_WINDOW + 16u * (uint32_t)fi;
    return true;
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

/* ------------------------------------------------ structs passed by value */

static PtxAgg *agg_of(const Ptx *P, uint32_t v)
{
    for (uint32_t i = 0; i < P->naggs; i++)
        if (P->aggs[i].v == v) return &P->aggs[i];
    return NULL;
}

bool ptx_func_is_agg(const Ptx *P, uint32_t v)
{
    return agg_of(P, v) != NULL;
}

bool ptx_func_agg_open(Ptx *P, uint32_t v, uint32_t bytes)
{
    PtxAgg *a = agg_of(P, v);
    if (!bytes && a) *a = P->aggs[--P->naggs]; /* a scalar now (another call's `retval0`) */
    if (!bytes) a = NULL;
    else if (!a) {
        if (!ptx_grow(P, (void **)&P->aggs, &P->aggs_cap, P->naggs + 1, sizeof *P->aggs)) return false;
        a = &P->aggs[P->naggs++];
        a->v = v;
    }
    if (a) a->bytes = bytes;
    uint32_t keep = 0; /* a new call's struct: the last call's fields are gone */
    for (uint32_t i = 0; i < P->nfields; i++)
        if (P->fields[i].agg != v) P->fields[keep++] = P->fields[i];
    P->nfields = keep;
    return true;
}

/* The register of struct a's field [off, off + bytes): the one st.param
** made there (made now if none was: an unset field reads as whatever its
** register holds). A field that overlaps another without being it (a
** double read as two words) is refused. */
static bool agg_field(Ptx *P, const PtxAgg *a, const Tok *at, bool store, uint32_t off, uint32_t bytes, uint32_t *v)
{
    for (uint32_t i = 0; i < P->nfields; i++) {
        const PtxField *f = &P->fields[i];
        if (f->agg != a->v || f->off + f->bytes <= off || off + bytes <= f->off) continue;
        if (f->off == off && f->bytes == bytes) {
            *v = f->v;
            return true;
        }
        return ptx_fail(P, at, "%s %u bytes at offset %u of a struct parameter whose field there is %u bytes at "
                               "offset %u: not supported (a field is read and written whole, as it was first written)",
                        store ? "st.param writes" : "ld.param reads", bytes, off, f->bytes, f->off);
    }
    if (!ptx_fresh_reg(P, at, bytes == 8 ? VREG_64 : VREG_32, v)) return false;
    if (!ptx_grow(P, (void **)&P->fields, &P->fields_cap, P->nfields + 1, sizeof *P->fields)) return false;
    P->fields[P->nfields++] = (PtxField){ a->v, *v, off, bytes };
    return true;
}

bool ptx_func_agg_move(Ptx *P, const Tok *opt, const Mods *m, bool store, const POp *addr, const POp *val, Instr *in,
                       uint32_t g)
{
    char q[80];
    const PtxAgg *a = agg_of(P, addr->v);
    ValueType t = ptx_last_type(m);
    uint32_t size = type_bytes(t), n = m->vec > 1 ? m->vec : 1;
    if ((val->kind == PO_VEC) != (n > 1) || (val->kind == PO_VEC && val->nelem != n))
        return ptx_fail(P, &val->tok, "'%s' moves %u element(s): expected %s", ptx_quote(opt, q, sizeof q), n,
                        n > 1 ? "a vector {..} of that many" : "one register");
    for (uint32_t e = 0; e < n; e++) {
        POp one = *val;
        if (val->kind == PO_VEC)
            one = (POp){ .kind = val->eimm[e] ? PO_IMM : PO_REG, .tok = val->etok[e], .v = val->ev[e], .cls = val->ecls[e],
                         .ival = val->eival[e] };
        int64_t off = addr->disp + (int64_t)e * size;
        if (off < 0 || off + size > a->bytes)
            return ptx_fail(P, &addr->tok, "%u bytes at offset %lld are outside the struct parameter (%u bytes)", size,
                            (long long)off, a->bytes);
        uint32_t fv;
        if (!agg_field(P, a, &addr->tok, store, (uint32_t)off, size, &fv)) return false;
        POp field = { .kind = PO_REG, .tok = addr->tok, .v = fv, .cls = size == 8 ? VREG_64 : VREG_32 };
        Instr x = *in;
        x.ndst = x.nsrc = 1;
        x.op = (uint8_t)(size == 8 ? OP_MOV_B64 : OP_MOV);
        x.type = (uint8_t)(size == 8 ? TYPE_B64 : TYPE_B32);
        if (!store && size < 4) { /* a byte or half-word read: extended as ld.param.u8 / .s8 does, free */
            x.op = (uint8_t)(t == TYPE_S8 || t == TYPE_S16 ? OP_BFE_S32 : OP_BFE_U32);
            x.type = (uint8_t)OP_INFO[x.op].type;
            x.nsrc = 3;
            x.src[1] = (Operand){ .kind = OPND_IMM, .value = 0 };
            x.src[2] = (Operand){ .kind = OPND_IMM, .value = size * 8 };
            ptx_set_free(&x);
        }
        const POp *d = store ? &field : &one, *s = store ? &one : &field;
        if (!ptx_want_reg(P, d, size == 8 ? VREG_64 : VREG_32, &x.dst[0], "the destination") ||
            !ptx_want_src(P, s, size == 8, ptx_is_float(t), &x.src[0], "the source") || !ptx_emit(P, &x, g))
            return false;
    }
    return true;
}

/* A call's operand as the .param register it must be: a scalar of the
** function's width, or a struct of its size. */
static bool call_param(Ptx *P, const POp *o, const PtxFuncParam *fp, const char *fn, const char *what, uint32_t *v)
{
    char q[80];
    if (o->kind != PO_REG || !ptx_is_callparam(P, o->v))
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is '%s': expected a .param declared in the call's braces",
                        what, fn, ptx_quote(&o->tok, q, sizeof q));
    const PtxAgg *a = agg_of(P, o->v);
    if (fp->array != (a != NULL))
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is %s, the function's is %s", what, fn,
                        a ? "a struct" : "a scalar", fp->array ? "a struct" : "a scalar");
    if (a && a->bytes != fp->bytes)
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is a struct of %u bytes, the function's of %u", what, fn,
                        a->bytes, fp->bytes);
    if (!a && o->cls != fp->cls)
        return ptx_fail(P, &o->tok, "%s of the call of '%s' is %s-bit, the function's is %s-bit", what, fn,
                        o->cls == VREG_64 ? "64" : "32", fp->cls == VREG_64 ? "64" : "32");
    *v = o->v;
    return true;
}

/* Whether a call's arguments (ops[2..n)) and return value fit function f,
** as call_param would find them: what an indirect call's prototype says. */
static bool call_fits(const Ptx *P, const POp *ops, uint32_t n, const PtxFunc *f)
{
    if (f->nparams != n - 2 || (ops[0].kind != PO_NONE && !f->has_ret)) return false;
    for (uint32_t i = 0; i <= f->nparams; i++) {
        const POp *o = i < f->nparams ? &ops[2 + i] : &ops[0];
        const PtxFuncParam *fp = i < f->nparams ? &f->params[i] : &f->ret;
        if (i == f->nparams && o->kind == PO_NONE) break;
        if (o->kind != PO_REG) return false;
        const PtxAgg *a = agg_of(P, o->v);
        if (fp->array != (a != NULL) || (a && a->bytes != fp->bytes) || (!a && o->cls != fp->cls)) return false;
    }
    return true;
}

bool ptx_call_result(Ptx *P, const Tok *opt, const POp *ret, uint8_t cls, Operand *dst)
{
    if (ret->kind != PO_NONE) return ptx_want_reg(P, ret, cls, dst, "the return value");
    uint32_t v = 0; /* its result unused: a register that nothing reads */
    if (!ptx_fresh_reg(P, opt, cls, &v)) return false;
    *dst = (Operand){ .kind = OPND_REG, .index = (uint16_t)v };
    return true;
}

bool ptx_func_is_heap(const Ptx *P, const Tok *t)
{
    int32_t fi = find_func(P, t);
    if (fi < 0 || P->funcs[fi].has_body) return false;
    const char *name = P->funcs[fi].name;
    return !strcmp(name, "malloc") || !strcmp(name, "free") || !strcmp(name, "__cuda_syscall_aligned_malloc");
}

bool ptx_func_heap_call(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    char name[64];
    ptx_text(&ops[1].tok, name, sizeof name);
    bool is_free = !strcmp(name, "free"), aligned = !strcmp(name, "__cuda_syscall_aligned_malloc");
    uint32_t args = is_free ? 1 : aligned ? 2 : 1;
    if (n - 2 != args) return ptx_fail(P, opt, "%s takes %u argument%s, found %u", name, args, args > 1 ? "s" : "", n - 2);
    in->op = is_free ? OP_FREE : OP_MALLOC;
    if (is_free) {
        if (ops[0].kind != PO_NONE) return ptx_fail(P, &ops[0].tok, "free returns nothing, but the call takes a return value");
        in->nsrc = 1;
        return ptx_want_reg(P, &ops[2], VREG_64, &in->src[0], "the address") && ptx_emit(P, in, g);
    }
    in->ndst = 1;
    in->nsrc = 2;
    if (!ptx_call_result(P, opt, &ops[0], VREG_64, &in->dst[0]) ||
        !ptx_want_reg(P, &ops[2], VREG_64, &in->src[0], "the size"))
        return false;
    if (aligned) return ptx_want_reg(P, &ops[3], VREG_64, &in->src[1], "the alignment") && ptx_emit(P, in, g);
    /* malloc's own alignment, a 64-bit immediate held in the operand (no
    ** pool index: Kernel.consts never reaches 0xffff entries) */
    in->src[1] = (Operand){ .kind = OPND_IMM, .index = 0xffff, .value = 16 };
    return ptx_emit(P, in, g);
}

/* The levels of recursive function fi inlined: k^levels <= PTX_RECURSION_CALLS
** for its k calls of itself (its body read once for them). */
static uint32_t recursion_levels(Ptx *P, uint32_t fi)
{
    PtxFunc *f = &P->funcs[fi];
    if (!f->self_calls) {
        PtxMark here;
        ptx_mark(P, &here);
        ptx_seek(P, &f->body);
        Tok name = { TK_WORD, f->name, (uint32_t)strlen(f->name), 0, 0 };
        uint32_t depth = 1, k = 0;
        while (depth && P->tok.kind != TK_EOF && !P->failed) {
            if (ptx_punct(&P->tok, '{')) depth++;
            if (ptx_punct(&P->tok, '}')) depth--;
            if (P->tok.kind == TK_WORD && P->tok.len == name.len && !memcmp(P->tok.s, name.s, name.len)) k++;
            ptx_next(P);
        }
        ptx_seek(P, &here);
        f->self_calls = k + 1;
    }
    uint32_t k = f->self_calls - 1, levels = 0;
    if (k < 2) return PTX_RECURSION_MAX;
    for (uint64_t copies = k; copies <= PTX_RECURSION_CALLS && levels < PTX_RECURSION_MAX; copies *= k) levels++;
    return levels + 1;
}

/* A trap where the call stands, under its guard: a call gpusim cannot
** make (TrapWhy, Instr.sub of the trap). */
static bool call_trap(Ptx *P, const Tok *opt, uint32_t g, bool neg, TrapWhy why)
{
    Instr t = { .op = OP_TRAP, .sub = (uint8_t)why, .type = TYPE_NONE, .guard = ISA_NO_GUARD, .guard_neg = neg, .vec = 1,
                .reconv = ISA_NO_RECONV, .line = opt->line, .col = opt->col, .src_file = P->loc_file,
                .src_line = P->loc_line, .call_file = P->loc_inl_file, .call_line = P->loc_inl_line };
    return ptx_emit(P, &t, g);
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
    /* recursion: inlined as many levels as keep its deepest one within
    ** PTX_RECURSION_CALLS copies (k calls of itself a level: k^levels), at
    ** most PTX_RECURSION_MAX; a call deeper than that traps when it is made
    ** (FAULT_CALL_DEPTH) */
    uint32_t levels = 0;
    for (uint32_t i = 0; i < P->inline_depth; i++) levels += P->inline_stack[i] == (uint32_t)fi;
    if (levels && (levels >= recursion_levels(P, (uint32_t)fi) || P->inline_depth == PTX_INLINE_MAX_DEPTH))
        return call_trap(P, opt, g, guard_neg, TRAP_CALL_DEPTH);
    if (P->inline_depth == PTX_INLINE_MAX_DEPTH)
        return ptx_fail(P, &ops[1].tok, "device functions nested more than %d deep", PTX_INLINE_MAX_DEPTH);
    if (P->inline_calls == PTX_INLINE_MAX_CALLS)
        return ptx_fail(P, &ops[1].tok, "more than %d device-function calls inlined into one kernel", PTX_INLINE_MAX_CALLS);
    if (n - 2 != f->nparams)
        return ptx_fail(P, opt, "the call of '%s' passes %u arguments; it takes %u", name, n - 2, f->nparams);
    P->call.active = false;
    for (uint32_t i = 0; i < f->nparams; i++) {
        snprintf(q, sizeof q, "argument %u", i + 1);
        if (!call_param(P, &ops[2 + i], &f->params[i], name, q, &P->call.args[i])) return false;
    }
    if (f->has_ret && ops[0].kind == PO_NONE) { /* its value unused */
        if (!ptx_fresh_reg(P, opt, f->ret.array ? VREG_32 : f->ret.cls, &P->call.ret_v)) return false;
        if (!ptx_grow(P, (void **)&P->callparams, &P->callparams_cap, P->ncallparams + 1, sizeof *P->callparams))
            return false;
        P->callparams[P->ncallparams++] = P->call.ret_v; /* the body's st.param writes it */
        if (f->ret.array && !ptx_func_agg_open(P, P->call.ret_v, f->ret.bytes)) return false;
    } else if (f->has_ret) {
        if (!call_param(P, &ops[0], &f->ret, name, "the return value", &P->call.ret_v)) return false;
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

/* One more instruction in the call's place, guarded by g, and free: the
** GPU picks the callee with the one indirect CALL, which the guarded
** branch around each inlined body stands for. */
static bool emit_like(Ptx *P, const Instr *call, Instr in, uint32_t g, bool neg)
{
    in.line = call->line, in.col = call->col, in.src_file = call->src_file, in.src_line = call->src_line;
    in.call_file = call->call_file, in.call_line = call->call_line;
    in.vec = 1, in.reconv = ISA_NO_RECONV, in.guard = ISA_NO_GUARD, in.guard_neg = neg;
    ptx_set_free(&in);
    return ptx_emit(P, &in, g);
}

/* p = (target == address of function fi), and g (its negation when neg) when the call is guarded. */
static bool points_at(Ptx *P, const Instr *call, Operand target, int32_t fi, uint32_t g, bool neg, CmpOp cmp, uint32_t *p)
{
    if (!ptx_fresh_reg(P, &P->tok, VREG_PRED, p)) return false;
    Instr s = { .op = OP_SETP_U64, .mod = (uint8_t)cmp, .type = TYPE_U64, .ndst = 1, .nsrc = 2 };
    s.src[0] = target;
    s.src[1] = (Operand){ .kind = OPND_IMM, .index = 0xffff, .value = ISA_CODE_WINDOW + 16u * (uint32_t)fi };
    s.dst[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)*p };
    if (!emit_like(P, call, s, UINT32_MAX, false)) return false;
    if (g == UINT32_MAX) return true;
    Instr a = { .op = OP_AND_PRED, .ndst = 1, .nsrc = 2 };
    a.dst[0] = s.dst[0];
    a.src[0] = s.dst[0];
    a.src[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)g, .neg = neg };
    return emit_like(P, call, a, UINT32_MAX, false);
}

bool ptx_func_call_indirect(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, const Instr *in, uint32_t g)
{
    char name[64];
    ptx_text(&ops[1].tok, name, sizeof name);
    uint32_t v;
    uint8_t cls;
    Operand target;
    if (!ptx_reg(P, &ops[1].tok, &v, &cls)) return P->failed ? false : ptx_fail(P, &ops[1].tok, "unknown register '%s' called", name);
    POp reg = ops[1];
    reg.kind = PO_REG, reg.v = v, reg.cls = cls;
    if (!ptx_want_src(P, &reg, true, false, &target, "the called address")) return false;
    int32_t cand[PTX_INDIRECT_MAX];
    uint32_t ncand = 0;
    for (uint32_t i = 0; i < P->nfuncs; i++) {
        const PtxFunc *f = &P->funcs[i];
        if (!f->address_taken || !f->has_body || !call_fits(P, ops, n, f)) continue;
        if (ncand == PTX_INDIRECT_MAX)
            return ptx_fail(P, opt, "an indirect call through %s that more than %d device functions could answer", name,
                            PTX_INDIRECT_MAX);
        cand[ncand++] = (int32_t)i;
    }
    if (!ncand)
        return ptx_fail(P, opt, "an indirect call through %s with %u arguments, and no device function of this file "
                                "taking them has its address taken", name, n - 2);
    uint32_t none = UINT32_MAX;
    for (uint32_t c = 0; c < ncand; c++) { /* each candidate under its guard, inlined here */
        uint32_t p, miss;
        if (!points_at(P, in, target, cand[c], g, in->guard_neg, CMP_EQ, &p)) return false;
        if (!points_at(P, in, target, cand[c], UINT32_MAX, false, CMP_NE, &miss)) return false;
        if (none != UINT32_MAX) {
            Instr a = { .op = OP_AND_PRED, .ndst = 1, .nsrc = 2 };
            a.dst[0] = a.src[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)miss };
            a.src[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)none };
            if (!emit_like(P, in, a, UINT32_MAX, false)) return false;
        }
        none = miss;
        POp direct[MAX_OPS];
        memcpy(direct, ops, n * sizeof *ops);
        direct[1].kind = PO_WORD;
        direct[1].tok = (Tok){ TK_WORD, P->funcs[cand[c]].name, (uint32_t)strlen(P->funcs[cand[c]].name), opt->line, opt->col };
        if (!ptx_func_call(P, opt, direct, n, p, false) || !ptx_func_inline(P)) return false;
    }
    /* an address no candidate has (a data pointer, another file's function) traps, under the call's guard */
    Instr trap = { .op = OP_TRAP, .sub = TRAP_BAD_CALL };
    if (g != UINT32_MAX) {
        Instr a = { .op = OP_AND_PRED, .ndst = 1, .nsrc = 2 };
        a.dst[0] = a.src[0] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)none };
        a.src[1] = (Operand){ .kind = OPND_PRED, .index = (uint16_t)g, .neg = in->guard_neg };
        if (!emit_like(P, in, a, UINT32_MAX, false)) return false;
    }
    return emit_like(P, in, trap, none, false);
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
    uint32_t  body_depth, refs_from, alias_base, naliases, range_base;
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
    fr->body_depth = P->body_depth, fr->refs_from = P->nrefs, fr->range_base = P->range_base;
    P->range_base = P->nranges;
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
    P->body_depth = fr->body_depth, P->range_base = fr->range_base;
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
                       .line = ret.line, .col = ret.col, .src_file = P->loc_file, .src_line = P->loc_line,
                       .call_file = P->loc_inl_file, .call_line = P->loc_inl_line };
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

/* call __assertfail (a failed assert()): message, file, line, function and
** the character size, which is 1. */
static bool decode_assertfail(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (n != 7) return ptx_fail(P, opt, "__assertfail takes a message, a file, a line, a function and a character size, found %u arguments", n - 2);
    if (ops[0].kind != PO_NONE) return ptx_fail(P, &ops[0].tok, "__assertfail returns nothing, but the call takes a return value");
    in->op = OP_ASSERTFAIL;
    in->nsrc = 4;
    return ptx_want_reg(P, &ops[2], VREG_64, &in->src[0], "the message") &&
           ptx_want_reg(P, &ops[3], VREG_64, &in->src[1], "the file") &&
           ptx_want_reg(P, &ops[4], VREG_32, &in->src[2], "the line") &&
           ptx_want_reg(P, &ops[5], VREG_64, &in->src[3], "the function") && ptx_emit(P, in, g);
}

/* call cudaGraphSetConditional(handle, value) (CUDA 12.4's conditional
** graph nodes): the handle is the device address of the condition's word
** (cudart/api_graph_cond.c), so the call is a store of value to it. */
static bool decode_set_conditional(Ptx *P, const Tok *opt, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    if (n != 4)
        return ptx_fail(P, opt, "cudaGraphSetConditional takes a handle and a value, found %u argument%s", n - 2,
                        n == 3 ? "" : "s");
    if (ops[0].kind != PO_NONE)
        return ptx_fail(P, &ops[0].tok, "cudaGraphSetConditional returns nothing, but the call takes a return value");
    Operand handle;
    if (!ptx_want_reg(P, &ops[2], VREG_64, &handle, "the handle")) return false;
    in->op = OP_ST_GLOBAL;
    in->type = TYPE_U32;
    in->vec = 1;
    in->src[0] = handle;
    in->iflags |= INSTR_ADDR64;
    in->offset = 0;
    in->nsrc = 2;
    return ptx_want_reg(P, &ops[3], VREG_32, &in->src[1], "the value") && ptx_emit(P, in, g);
}

/* call: vprintf (device printf), __assertfail (assert), malloc and free, and the module's
** device functions, which are inlined (isa/ptx_func.c; nvcc keeps a .func
** for a __noinline__ or recursive one). */
bool ptx_decode_call(Ptx *P, const Tok *opt, const char *head, const Mods *m, const POp *ops, uint32_t n, Instr *in, uint32_t g)
{
    (void)head, (void)m;
    char name[64];
    ptx_text(&ops[1].tok, name, sizeof name);
    if (!strcmp(name, "__assertfail")) return decode_assertfail(P, opt, ops, n, in, g);
    if (!strcmp(name, "cudaGraphSetConditional")) return decode_set_conditional(P, opt, ops, n, in, g);
    if (ptx_func_is_heap(P, &ops[1].tok)) return ptx_func_heap_call(P, opt, ops, n, in, g);
    if (name[0] == '%') return ptx_func_call_indirect(P, opt, ops, n, in, g); /* through a function pointer */
    if (strcmp(name, "vprintf")) return ptx_func_call(P, opt, ops, n, g, in->guard_neg);
    if (n != 4) return ptx_fail(P, opt, "vprintf takes a format and an argument buffer, found %u arguments", n - 2);
    in->op = OP_PRINTF;
    in->ndst = 1;
    in->nsrc = 2;
    return ptx_call_result(P, opt, &ops[0], VREG_32, &in->dst[0]) && ptx_want_reg(P, &ops[2], VREG_64, &in->src[0], "the format") &&
           ptx_want_reg(P, &ops[3], VREG_64, &in->src[1], "the argument buffer") && ptx_emit(P, in, g);
}
