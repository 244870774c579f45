/* isa/ptx_vars.c -- the PTX front end's module-scope .global and .const
** variables (__device__, __constant__): their declarations, initializers
** (numbers, float bit patterns, nested braces, a size taken from the
** initializer), their place in ISA_VAR_WINDOW (program.h, ProgramVar), and
** looking one up by name. Instructions that name one are marked
** INSTR_VARREF as they are appended (isa/ptx_decode.c), so that
** program_bind_vars can move them. */
#include "isa/ptx_int.h"

#include <stdlib.h>
#include <string.h>

int ptx_var(const Ptx *P, const Tok *t)
{
    for (uint32_t i = 0; i < P->prog->nvars; i++)
        if (strlen(P->prog->vars[i].name) == t->len && memcmp(P->prog->vars[i].name, t->s, t->len) == 0) return (int)i;
    return -1;
}

/* Bytes of a .global/.const element type directive (.b8 .. .f64), 0 if t
** is none of them. */
static uint32_t var_type_bytes(const Tok *t, bool *is_float)
{
    static const struct { const char *name; uint32_t bytes; bool f; } T[] = {
        { ".b8", 1, false },  { ".u8", 1, false },  { ".s8", 1, false },  { ".b16", 2, false }, { ".u16", 2, false },
        { ".s16", 2, false }, { ".f16", 2, false }, { ".b32", 4, false }, { ".u32", 4, false }, { ".s32", 4, false },
        { ".f32", 4, true },  { ".b64", 8, false }, { ".u64", 8, false }, { ".s64", 8, false }, { ".f64", 8, true },
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (ptx_is(t, T[i].name)) {
            *is_float = T[i].f;
            return T[i].bytes;
        }
    return 0;
}

/* What an initializer is read into: room bytes of elem-byte elements, and
** where among them the addresses of variables are (ProgramVar.relocs). */
typedef struct {
    uint8_t  *bytes;
    uint64_t  room;
    uint32_t  elem;
    bool      is_float;
    uint32_t *relocs, nrelocs, cap;
} VarInit;

/* An address at byte offset `at`: a function's (a table of virtual
** functions, of function pointers), or a variable's declared before it,
** `v`, `generic(v)`, either `+ N`, which program_bind_vars moves with v. */
static bool var_address(Ptx *P, VarInit *vi, uint64_t at)
{
    char q[80];
    Tok t = P->tok;
    if (vi->elem != 8)
        return ptx_fail(P, &t, "an initializer holding an address ('%s') needs 64-bit elements, not %u-bit ones",
                        ptx_quote(&t, q, sizeof q), 8 * vi->elem);
    if (at + 8 > vi->room) return ptx_fail(P, &t, "more initializer elements than the variable holds");
    uint32_t func;
    uint64_t value;
    bool moves = !ptx_func_address(P, &t, &func);
    if (!moves) {
        value = func;
        ptx_next(P);
    } else {
        bool generic = ptx_is(&t, "generic");
        if (generic) {
            ptx_next(P);
            if (!ptx_expect(P, '(', "after generic")) return false;
        }
        Tok name = P->tok;
        int v = name.kind == TK_WORD ? ptx_var(P, &name) : -1;
        if (v < 0)
            return ptx_fail(P, &name, "'%s' in the initializer is neither a function nor a variable declared before it",
                            ptx_quote(&name, q, sizeof q));
        value = P->prog->vars[v].addr;
        ptx_next(P);
        if (generic && !ptx_expect(P, ')', "after generic's variable")) return false;
    }
    if (ptx_punct(&P->tok, '+')) {
        ptx_next(P);
        int64_t off;
        if (!ptx_int(P, &P->tok, false, &off)) return false;
        value += (uint64_t)off;
        ptx_next(P);
    }
    memcpy(vi->bytes + at, &value, 8);
    if (moves) {
        if (!ptx_grow(P, (void **)&vi->relocs, &vi->cap, vi->nrelocs + 1, sizeof *vi->relocs)) return false;
        vi->relocs[vi->nrelocs++] = (uint32_t)at;
    }
    return true;
}

/* One initializer element at byte offset `at`. */
static bool var_element(Ptx *P, VarInit *vi, uint64_t at)
{
    char q[80];
    bool neg = false;
    if (ptx_punct(&P->tok, '-')) neg = true, ptx_next(P);
    Tok t = P->tok;
    if (t.kind == TK_WORD && !neg) return var_address(P, vi, at);
    if (t.kind != TK_NUM) return ptx_fail(P, &t, "expected a number in the initializer, found '%s'", ptx_quote(&t, q, sizeof q));
    POp o;
    memset(&o, 0, sizeof o);
    if (!ptx_parse_number(P, &t, neg, &o)) return false;
    uint32_t elem = vi->elem;
    if (at + elem > vi->room) return ptx_fail(P, &t, "more initializer elements than the variable holds");
    uint8_t bytes[8];
    if (vi->is_float && elem == 4) {
        float f = (float)(o.is_float ? o.fval : (double)o.ival);
        memcpy(bytes, &f, 4);
    } else if (vi->is_float && elem == 8) {
        double f = o.is_float ? o.fval : (double)o.ival;
        memcpy(bytes, &f, 8);
    } else if (o.is_float) {
        return ptx_fail(P, &t, "float literal '%s' in the initializer of an integer variable", ptx_quote(&t, q, sizeof q));
    } else {
        uint64_t v = (uint64_t)o.ival;
        memcpy(bytes, &v, 8); /* little-endian: the low `elem` bytes */
    }
    memcpy(vi->bytes + at, bytes, elem);
    ptx_next(P);
    return true;
}

/* `= value` or `= {v, v, {v, v}, ...}` (nesting flattened) into vi. */
static bool var_initializer(Ptx *P, VarInit *vi, uint64_t *count)
{
    uint64_t n = 0;
    uint32_t depth = 0;
    do {
        if (ptx_punct(&P->tok, '{')) {
            depth++;
            ptx_next(P);
            continue;
        }
        if (ptx_punct(&P->tok, '}')) {
            if (!depth) return ptx_fail(P, &P->tok, "'}' without its '{' in the initializer");
            depth--;
            ptx_next(P);
        } else {
            if (!var_element(P, vi, n * vi->elem)) return false;
            n++;
        }
        if (depth && ptx_punct(&P->tok, ',')) ptx_next(P);
    } while (depth);
    *count = n;
    return true;
}

/* `.global` / `.const` [.align N] .TYPE name[N]... [= init];: a module
** variable (ProgramVar), laid out in the variable window. */
bool ptx_parse_module_var(Ptx *P)
{
    char q[80];
    Tok kw = P->tok;
    bool constant = ptx_is(&kw, ".const");
    uint32_t align = 0, elem = 0, vec = 1;
    bool is_float = false, managed = false;
    ptx_next(P);
    while (P->tok.kind == TK_DIR) {
        Tok d = P->tok;
        if (ptx_is(&d, ".align")) {
            ptx_next(P);
            int64_t a;
            if (!ptx_int(P, &P->tok, false, &a)) return false;
            if (a < 1 || a > 4096 || (a & (a - 1)))
                return ptx_fail(P, &P->tok, "alignment %lld is not a power of two up to 4096", (long long)a);
            align = (uint32_t)a;
        } else if (ptx_is(&d, ".v2") || ptx_is(&d, ".v4")) {
            vec = ptx_is(&d, ".v2") ? 2 : 4;
        } else if (ptx_is(&d, ".visible") || ptx_is(&d, ".weak")) {
            /* linkage: one module here */
        } else if (ptx_is(&d, ".attribute")) { /* .attribute(.managed): __managed__ */
            ptx_next(P);
            if (!ptx_expect(P, '(', "after .attribute")) return false;
            if (!ptx_is(&P->tok, ".managed"))
                return ptx_fail(P, &P->tok, "the variable attribute '%s' is not supported (only .managed is)",
                                ptx_quote(&P->tok, q, sizeof q));
            managed = true;
            ptx_next(P);
            if (!ptx_punct(&P->tok, ')')) return ptx_fail(P, &P->tok, "expected ')' after .attribute(.managed");
        } else if (!(elem = var_type_bytes(&d, &is_float))) {
            return ptx_fail(P, &d, "unsupported '%s' in a %s variable's declaration", ptx_quote(&d, q, sizeof q),
                            constant ? ".const" : ".global");
        }
        ptx_next(P);
    }
    Tok nt = P->tok;
    if (nt.kind != TK_WORD || nt.len >= 1024)
        return ptx_fail(P, &nt, "expected a variable's name after '%s', found '%s'", ptx_quote(&kw, q, sizeof q),
                        ptx_quote(&nt, q, sizeof q));
    if (!elem) return ptx_fail(P, &nt, "variable '%s' has no type", ptx_quote(&nt, q, sizeof q));
    if (ptx_var(P, &nt) >= 0 || ptx_sym(P, &nt))
        return ptx_fail(P, &nt, "variable '%s' declared twice", ptx_quote(&nt, q, sizeof q));
    elem *= vec;
    ptx_next(P);
    uint64_t count = 1;
    bool open_size = false;
    while (ptx_punct(&P->tok, '[')) {
        ptx_next(P);
        if (ptx_punct(&P->tok, ']')) {
            open_size = true;
        } else {
            int64_t c;
            if (!ptx_int(P, &P->tok, false, &c)) return false;
            if (c < 1 || (uint64_t)c > (64u << 20) / count)
                return ptx_fail(P, &P->tok, "array of %lld elements out of range (at most 64 MiB)", (long long)c);
            count *= (uint64_t)c;
            ptx_next(P);
        }
        if (!ptx_expect(P, ']', "after the array size")) return false;
    }
    uint64_t size = count * elem;
    uint8_t *init = NULL;
    VarInit vi = { .elem = elem, .is_float = is_float };
    if (ptx_punct(&P->tok, '=')) {
        ptx_next(P);
        uint64_t n = 0;
        vi.room = open_size ? (64u << 20) : size;
        if (!(init = vi.bytes = calloc(1, (size_t)vi.room))) return ptx_fail(P, &nt, "out of memory");
        if (!var_initializer(P, &vi, &n)) {
            free(init);
            free(vi.relocs);
            return false;
        }
        if (open_size) size = n * elem;
    } else if (open_size) {
        return ptx_fail(P, &nt, "variable '%s' has neither a size nor an initializer", ptx_quote(&nt, q, sizeof q));
    }
    if (size == 0 || size > (64u << 20)) {
        free(init);
        free(vi.relocs);
        return ptx_fail(P, &nt, "variable '%s' of %llu bytes: expected 1 byte to 64 MiB", ptx_quote(&nt, q, sizeof q),
                        (unsigned long long)size);
    }
    Program *pr = P->prog;
    uint32_t at = (P->var_next ? P->var_next : ISA_VAR_WINDOW);
    uint32_t a = align > ISA_VAR_ALIGN ? align : ISA_VAR_ALIGN;
    at = (at + a - 1) / a * a;
    if ((uint64_t)at + size > ISA_LOCAL_WINDOW - ISA_VAR_ALIGN) {
        free(init);
        free(vi.relocs);
        return ptx_fail(P, &nt, "the module's variables exceed the %u MiB they may take",
                        (ISA_LOCAL_WINDOW - ISA_VAR_WINDOW) >> 20);
    }
    if (!ptx_grow(P, (void **)&pr->vars, &P->vars_cap, pr->nvars + 1, sizeof *pr->vars)) {
        free(init);
        free(vi.relocs);
        return false;
    }
    ProgramVar *v = &pr->vars[pr->nvars];
    *v = (ProgramVar){ .name = strndup(nt.s, nt.len), .constant = constant, .managed = managed, .size = (uint32_t)size,
                       .align = align ? align : elem, .addr = at, .init = init, .relocs = vi.relocs,
                       .nrelocs = vi.nrelocs, .line = nt.line };
    if (!v->name) {
        free(init);
        free(vi.relocs);
        return ptx_fail(P, &nt, "out of memory");
    }
    pr->nvars++;
    P->var_next = at + (uint32_t)size + ISA_VAR_ALIGN;
    return ptx_expect(P, ';', "after the variable's declaration");
}

