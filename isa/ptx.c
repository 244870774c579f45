/* isa/ptx.c -- the PTX front end (see ptx.h): over the tokens of
** isa/ptx_lex.c, the module and .entry grammar,
** the register declarations, and every instruction decoded onto a row of
** isa/opcodes.def (isa/ptx_decode.c), then the CFG (isa/cfg.c) and the
** register rows (isa/ptx_regalloc.c).
** Grammar (PTX ISA manual, "Syntax" and "Directives"): statements end in
** ';', a kernel is `[.visible|.weak] .entry NAME ( .param ... ) [perf
** directives] { ... }`; .version/.target/.address_size 64 head the module;
** .file/.loc give source lines; .section bodies (debug info) are skipped.
** Module-scope .global and .const variables (with their initializers) are
** laid out in ISA_VAR_WINDOW (program.h, ProgramVar); ld.const is a global
** load. Kernel-scope .local arrays (nvcc's depot) are each thread's own
** (Kernel.local_bytes); a struct passed by value is a .param byte array;
** a call's .param declarations (in its braces) are registers, and the one
** calls taken are vprintf's (isa/ptx_decode.c) and those of the module's
** device functions (.func), inlined (isa/ptx_func.c), directly or
** through a function pointer, recursive ones PTX_RECURSION_MAX levels
** deep. Textures and surfaces are objects' (isa/ptx_decode_tex.c). Left out
** (errors that say so): texture references, .address_size 32. */
#include "isa/ptx_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "isa/cfg.h"

/* --------------------------------------------------------- name tables */

static const char *range_name(const void *ctx, uint32_t id) { return ((const Ptx *)ctx)->ranges[id].name; }
const char *ptx_sym_name(const void *ctx, uint32_t id) { return ((const Ptx *)ctx)->syms[id].name; }
static const char *plabel_name(const void *ctx, uint32_t id) { return ((const Ptx *)ctx)->k->labels[id].name; }
static const char *kernel_mangled(const void *ctx, uint32_t id) { return ((const Ptx *)ctx)->prog->kernels[id].mangled; }

char *ptx_dup_tok(const Tok *t)
{
    char *s = malloc(t->len + 1);
    if (s) {
        memcpy(s, t->s, t->len);
        s[t->len] = 0;
    }
    return s;
}

bool ptx_grow(Ptx *P, void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (grow_array(arr, cap, need, elem)) return true;
    return ptx_fail(P, &P->tok, "out of memory");
}

/* Virtual register for (range, index), made on first use. */
static uint32_t vreg_of(Ptx *P, uint32_t range, uint32_t index)
{
    uint64_t key = (uint64_t)range << 32 | index;
    if (P->vmap_n * 2 >= P->vmap_cap) { /* rehash at half full */
        uint32_t ncap = P->vmap_cap ? P->vmap_cap * 2 : 256;
        uint64_t *nk = malloc((size_t)ncap * sizeof *nk);
        uint32_t *nvv = malloc((size_t)ncap * sizeof *nvv);
        if (!nk || !nvv) {
            free(nk);
            free(nvv);
            return UINT32_MAX;
        }
        memset(nvv, 0xff, (size_t)ncap * sizeof *nvv);
        for (uint32_t i = 0; i < P->vmap_cap; i++)
            if (P->vmap_val[i] != UINT32_MAX) {
                uint32_t h = (uint32_t)(P->vmap_key[i] * 0x9E3779B97F4A7C15ull >> 32) & (ncap - 1);
                while (nvv[h] != UINT32_MAX) h = (h + 1) & (ncap - 1);
                nk[h] = P->vmap_key[i];
                nvv[h] = P->vmap_val[i];
            }
        free(P->vmap_key);
        free(P->vmap_val);
        P->vmap_key = nk;
        P->vmap_val = nvv;
        P->vmap_cap = ncap;
    }
    uint32_t h = (uint32_t)(key * 0x9E3779B97F4A7C15ull >> 32) & (P->vmap_cap - 1);
    while (P->vmap_val[h] != UINT32_MAX) {
        if (P->vmap_key[h] == key) return P->vmap_val[h];
        h = (h + 1) & (P->vmap_cap - 1);
    }
    if (P->nv >= 0xffff) return UINT32_MAX - 1; /* Operand.index is 16 bits */
    if (!grow_array((void **)&P->vclass, &P->vclass_cap, P->nv + 1, 1)) return UINT32_MAX;
    P->vclass[P->nv] = P->ranges[range].cls;
    P->vmap_key[h] = key;
    P->vmap_val[h] = P->nv;
    P->vmap_n++;
    return P->nv++;
}

/* The range of register name s (len bytes). A name without digits at its
** end that is also a family's prefix (`%p` beside `%p<8>`: inline asm's
** `{.reg .pred %p; ...}`) is its own register, kept under "name#". */
#define REG_TWIN '#'
static uint32_t find_reg_name(Ptx *P, const char *s, size_t len)
{
    uint32_t r = names_find(&P->range_ix, s, len, range_name, P);
    if (r == NAMES_NONE || !P->ranges[r].count || !len || isdigit((unsigned char)s[len - 1]) || len >= 63) return r;
    char twin[64];
    memcpy(twin, s, len);
    twin[len] = REG_TWIN;
    uint32_t t = names_find(&P->range_ix, twin, len + 1, range_name, P);
    return t != NAMES_NONE && !P->ranges[t].closed ? t : r;
}

bool ptx_named_reg(Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls)
{
    if (P->inline_depth && ptx_func_alias(P, t, v, cls)) return true; /* an inlined function's parameter */
    uint32_t r = find_reg_name(P, t->s, t->len);
    if (r == NAMES_NONE || P->ranges[r].count || P->ranges[r].closed) return false;
    uint32_t id = vreg_of(P, r, P->ranges[r].gen);
    if (id >= UINT32_MAX - 1) return false;
    *v = id;
    *cls = P->ranges[r].cls;
    return true;
}

/* The register named by token t: its virtual register and class. */
bool ptx_reg(Ptx *P, const Tok *t, uint32_t *v, uint8_t *cls)
{
    char q[80];
    uint32_t r = find_reg_name(P, t->s, t->len);
    uint32_t index = 0;
    if (r != NAMES_NONE && P->ranges[r].closed) r = NAMES_NONE; /* a block's, out of scope */
    if (r == NAMES_NONE || P->ranges[r].count) { /* %r12: a prefix and a number */
        uint32_t nd = 0;
        while (nd < t->len && isdigit((unsigned char)t->s[t->len - 1 - nd])) nd++;
        if (nd && nd < t->len && nd <= 9) {
            r = names_find(&P->range_ix, t->s, t->len - nd, range_name, P);
            if (r != NAMES_NONE && P->ranges[r].closed) r = NAMES_NONE;
            for (uint32_t i = t->len - nd; i < t->len; i++) index = index * 10 + (uint32_t)(t->s[i] - '0');
            if (r != NAMES_NONE && (P->ranges[r].count == 0 || index >= P->ranges[r].count ||
                                    (nd > 1 && t->s[t->len - nd] == '0')))
                return ptx_fail(P, t, "register '%s' is not declared (%.*s<%u> declares %.*s0 .. %.*s%u)",
                                ptx_quote(t, q, sizeof q), (int)(t->len - nd), t->s, P->ranges[r].count,
                                (int)(t->len - nd), t->s, (int)(t->len - nd), t->s,
                                P->ranges[r].count ? P->ranges[r].count - 1 : 0);
        } else {
            r = NAMES_NONE;
        }
    }
    if (r == NAMES_NONE)
        return ptx_fail(P, t, "undeclared register '%s'; declare it with .reg", ptx_quote(t, q, sizeof q));
    if (!P->ranges[r].count) index = P->ranges[r].gen;
    uint32_t id = vreg_of(P, r, index);
    if (id == UINT32_MAX) return ptx_fail(P, t, "out of memory");
    if (id == UINT32_MAX - 1) return ptx_fail(P, t, "too many registers in one kernel (at most 65535 used)");
    *v = id;
    *cls = P->ranges[r].cls;
    return true;
}

const PtxSym *ptx_sym(const Ptx *P, const Tok *t)
{
    uint32_t i = names_find(&P->sym_ix, t->s, t->len, ptx_sym_name, P);
    return i == NAMES_NONE ? NULL : &P->syms[i];
}

/* ------------------------------------------------------------ directives */

uint8_t ptx_type_class(const Tok *t)
{
    static const char *const t32[] = { ".b32", ".u32", ".s32", ".f32", ".b16", ".u16", ".s16", ".b8", ".u8", ".s8",
                                       ".f16", ".bf16", NULL };
    static const char *const t64[] = { ".b64", ".u64", ".s64", ".f64", NULL };
    for (int i = 0; t32[i]; i++)
        if (ptx_is(t, t32[i])) return VREG_32;
    for (int i = 0; t64[i]; i++)
        if (ptx_is(t, t64[i])) return VREG_64;
    return ptx_is(t, ".pred") ? VREG_PRED : 0;
}

/* .reg .TYPE %name<N>[, %other ...];  and a call's `.param .bN name;` (call_param: a
** register the call sequence's st.param / ld.param move through). A name
** declared again in another block of braces is the same register (nvcc
** declares temp_param_reg and param0 in every call sequence). */
static bool parse_reg_decl(Ptx *P, bool call_param)
{
    ptx_next(P);
    char q[80];
    if (call_param && ptx_is(&P->tok, ".align")) { /* a struct's: the fields keep their own alignment */
        ptx_next(P);
        ptx_next(P);
    }
    bool bytes_type = ptx_is(&P->tok, ".b8");
    if (call_param && !bytes_type && !ptx_is(&P->tok, ".b32") && !ptx_is(&P->tok, ".b64") && !ptx_is(&P->tok, ".u32") &&
        !ptx_is(&P->tok, ".u64") && !ptx_is(&P->tok, ".s32") && !ptx_is(&P->tok, ".f32") && !ptx_is(&P->tok, ".f64"))
        return ptx_fail(P, &P->tok, "a call parameter '%s' is not supported yet (calls take 32- and 64-bit scalars and "
                        "structs, .b8 name[N])", ptx_quote(&P->tok, q, sizeof q));
    Tok tt = P->tok;
    if (tt.kind != TK_DIR) return ptx_fail(P, &tt, "expected a register type after .reg, found '%s'", ptx_quote(&tt, q, sizeof q));
    uint8_t cls = ptx_type_class(&tt);
    if (!cls) {
        if (ptx_is(&tt, ".f16x2") || ptx_is(&tt, ".bf16x2") || ptx_is(&tt, ".b128"))
            return ptx_fail(P, &tt, "registers of type '%s' are not supported yet (supported: .pred .b8-.b64 .u8-.u64 .s8-.s64 .f16 .bf16 .f32 .f64)",
                            ptx_quote(&tt, q, sizeof q));
        return ptx_fail(P, &tt, "expected a register type (.pred .b16 .b32 .f32 .b64 .u64 .s64 ...), found '%s'",
                        ptx_quote(&tt, q, sizeof q));
    }
    ptx_next(P);
    for (;;) {
        Tok nt = P->tok;
        if (nt.kind != TK_WORD || nt.len >= 64)
            return ptx_fail(P, &nt, "expected a register name after .reg, found '%s'", ptx_quote(&nt, q, sizeof q));
        ptx_next(P);
        uint32_t count = 0;
        if (ptx_punct(&P->tok, '<')) {
            ptx_next(P);
            int64_t c;
            Tok ct = P->tok;
            if (!ptx_int(P, &ct, false, &c)) return false;
            if (c < 1 || c > 1000000)
                return ptx_fail(P, &ct, "register count %lld out of range (1 .. 1000000)", (long long)c);
            count = (uint32_t)c;
            ptx_next(P);
            if (!ptx_expect(P, '>', "after the register count")) return false;
        }
        char name[64]; /* a scalar beside a family of its name: "name#" (find_reg_name) */
        size_t nlen = nt.len;
        memcpy(name, nt.s, nlen);
        uint32_t again = names_find(&P->range_ix, name, nlen, range_name, P), ri = again;
        if (again != NAMES_NONE && P->ranges[again].count && !count && nlen < 63) {
            name[nlen++] = REG_TWIN;
            again = ri = names_find(&P->range_ix, name, nlen, range_name, P);
        }
        name[nlen] = 0;
        PtxRange *was = again != NAMES_NONE ? &P->ranges[again] : NULL;
        if (was && !(was->depth && P->body_depth > 1 && was->count == count && (was->cls == cls || !count)))
            return ptx_fail(P, &nt, "register '%s' declared twice", ptx_quote(&nt, q, sizeof q));
        if (was) was->closed = false; /* declared again in a block: in scope again */
        if (was && was->cls != cls) { /* another block's `param0` of another type: another register */
            was->cls = cls;
            was->gen++;
        }
        if (again == NAMES_NONE) {
            if (!ptx_grow(P, (void **)&P->ranges, &P->ranges_cap, P->nranges + 1, sizeof *P->ranges)) return false;
            PtxRange *r = &P->ranges[P->nranges];
            snprintf(r->name, sizeof r->name, "%s", name);
            r->count = count;
            r->gen = 0;
            r->closed = false;
            r->cls = cls;
            r->depth = P->body_depth > 1 ? P->body_depth - 1 : 0;
            if (!names_add(&P->range_ix, P->nranges, range_name, P)) return ptx_fail(P, &nt, "out of memory");
            ri = P->nranges++;
            P->k->vregs += count ? count : 1;
        }
        int64_t agg_bytes = 0; /* a struct by value: name[bytes] */
        if (call_param && ptx_punct(&P->tok, '[')) {
            ptx_next(P);
            Tok bt = P->tok;
            if (!bytes_type) return ptx_fail(P, &nt, "a call parameter that is an array must be .b8 (a struct by value, .b8 name[N])");
            if (!ptx_int(P, &bt, false, &agg_bytes)) return false;
            if (agg_bytes <= 0 || agg_bytes > 65536)
                return ptx_fail(P, &bt, "a struct parameter's size %lld is out of range (1 .. 65536 bytes)", (long long)agg_bytes);
            ptx_next(P);
            if (!ptx_expect(P, ']', "after the struct parameter's size")) return false;
        } else if (call_param && bytes_type) {
            return ptx_fail(P, &nt, "a .b8 call parameter is a struct: expected '%s[N]'", ptx_quote(&nt, q, sizeof q));
        }
        if (call_param) {
            if (count) return ptx_fail(P, &nt, "a call parameter is one register, not a range");
            uint32_t v = vreg_of(P, ri, P->ranges[ri].gen);
            if (v >= UINT32_MAX - 1) return ptx_fail(P, &nt, "too many registers in one kernel");
            if (!ptx_is_callparam(P, v)) {
                if (!ptx_grow(P, (void **)&P->callparams, &P->callparams_cap, P->ncallparams + 1, sizeof *P->callparams))
                    return false;
                P->callparams[P->ncallparams++] = v;
            }
            if (!ptx_func_agg_open(P, v, (uint32_t)agg_bytes)) return false;
        }
        if (!ptx_punct(&P->tok, ',')) break;
        ptx_next(P);
    }
    return ptx_expect(P, ';', "after the .reg declaration");
}

/* [.extern] .shared [.align A] .TYPE name[N] | name[] | name ; and the
** same with .local (a kernel's per-thread array: nvcc's __local_depot). */
static bool parse_shared_decl(Ptx *P, bool is_extern, bool module_scope, bool local)
{
    char q[80];
    const char *space = local ? "local" : "shared";
    ptx_next(P);
    uint32_t align = 1, esize = 0;
    while (P->tok.kind == TK_DIR) {
        Tok dt = P->tok;
        if (ptx_is(&dt, ".align")) {
            ptx_next(P);
            int64_t a;
            if (!ptx_int(P, &P->tok, false, &a)) return false;
            if (a < 1 || a > 4096 || (a & (a - 1)))
                return ptx_fail(P, &P->tok, ".align %lld: expected a power of two up to 4096", (long long)a);
            align = (uint32_t)a;
        } else {
            static const char *const ty[] = { ".b8", ".u8", ".s8", ".b16", ".u16", ".s16", ".b32", ".u32", ".s32",
                                              ".f32", ".b64", ".u64", ".s64", ".f64", NULL };
            static const uint32_t sz[] = { 1, 1, 1, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8 };
            int i = 0;
            while (ty[i] && !ptx_is(&dt, ty[i])) i++;
            if (!ty[i]) return ptx_fail(P, &dt, "expected a type in the .%s declaration, found '%s'", space, ptx_quote(&dt, q, sizeof q));
            esize = sz[i];
        }
        ptx_next(P);
    }
    Tok nt = P->tok;
    if (nt.kind != TK_WORD || !esize)
        return ptx_fail(P, &nt, "expected '.TYPE name' in the .%s declaration, found '%s'", space, ptx_quote(&nt, q, sizeof q));
    if (nt.len > 1024) return ptx_fail(P, &nt, "%s variable name too long", space);
    ptx_next(P);
    uint64_t count = 1;
    bool dynamic = false;
    if (ptx_punct(&P->tok, '[')) {
        ptx_next(P);
        if (ptx_punct(&P->tok, ']')) {
            dynamic = true;
        } else {
            int64_t c;
            if (!ptx_int(P, &P->tok, false, &c)) return false;
            if (c < 1 || c > (1 << 24)) return ptx_fail(P, &P->tok, "%s array of %lld elements out of range", space, (long long)c);
            count = (uint64_t)c;
            ptx_next(P);
        }
        if (!ptx_expect(P, ']', "after the array size")) return false;
    }
    if (dynamic && local) return ptx_fail(P, &nt, "a .local array needs a size");
    if (dynamic && !is_extern) return ptx_fail(P, &nt, "a shared array without a size must be declared .extern");
    if (ptx_sym(P, &nt)) return ptx_fail(P, &nt, "%s variable '%s' declared twice", space, ptx_quote(&nt, q, sizeof q));
    uint64_t local_total = count * esize + align;
    for (uint32_t i = 0; local && i < P->nsyms; i++)
        if (P->syms[i].local) local_total += P->syms[i].size + P->syms[i].align;
    if (local && local_total > ISA_MAX_LOCAL)
        return ptx_fail(P, &nt, ".local arrays of %llu bytes: a thread has at most %u bytes of local memory",
                        (unsigned long long)local_total, ISA_MAX_LOCAL);
    if (!ptx_grow(P, (void **)&P->syms, &P->syms_cap, P->nsyms + 1, sizeof *P->syms)) return false;
    PtxSym *sym = &P->syms[P->nsyms];
    memset(sym, 0, sizeof *sym);
    sym->name = ptx_dup_tok(&nt);
    if (!sym->name) return ptx_fail(P, &nt, "out of memory");
    sym->align = align;
    sym->size = dynamic ? 0 : (uint32_t)(count * esize);
    sym->module_scope = module_scope;
    sym->local = local;
    sym->line = nt.line;
    if (sym->size > (1u << 24)) return ptx_fail(P, &nt, "shared variable larger than 16 MiB");

    if (!names_add(&P->sym_ix, P->nsyms, ptx_sym_name, P)) return ptx_fail(P, &nt, "out of memory");
    P->nsyms++;
    return ptx_expect(P, ';', local ? "after the .local declaration" : "after the .shared declaration");
}

/* Skips `.section NAME { ... }` (debug sections) and `.pragma "..." ;`. */
static bool skip_section(Ptx *P)
{
    ptx_next(P);
    while (P->tok.kind != TK_EOF && !ptx_punct(&P->tok, '{')) ptx_next(P);
    uint32_t depth = 0;
    do {
        if (P->tok.kind == TK_EOF) return ptx_fail(P, &P->tok, "end of file inside a .section");
        if (ptx_punct(&P->tok, '{')) depth++;
        if (ptx_punct(&P->tok, '}')) depth--;
        ptx_next(P);
    } while (depth);
    return true;
}

/* ---------------------------------------------------------------- kernels */

static bool parse_param(Ptx *P, Kernel *k)
{
    char q[80];
    Tok pt = P->tok; /* .param */
    ptx_next(P);
    uint32_t size = 0, align = 0;
    ValueType type = TYPE_NONE;
    bool ptr = false;
    while (P->tok.kind == TK_DIR) {
        Tok t = P->tok;
        static const char *const ty[] = { ".u64", ".s64", ".b64", ".u32", ".s32", ".b32", ".f32", ".u16", ".s16", ".b16", ".u8", ".s8", ".b8", ".f64", NULL };
        static const ValueType tv[] = { TYPE_U64, TYPE_S64, TYPE_B64, TYPE_U32, TYPE_S32, TYPE_B32, TYPE_F32,
                                        TYPE_U16, TYPE_S16, TYPE_B16, TYPE_U8,  TYPE_S8,  TYPE_B8,  TYPE_F64 };
        int i = 0;
        while (ty[i] && !ptx_is(&t, ty[i])) i++;
        if (ty[i]) {
            type = tv[i];
            size = type_bytes(type);
        } else if (ptx_is(&t, ".ptr") || ptx_is(&t, ".global") || ptx_is(&t, ".const") || ptx_is(&t, ".shared") ||
                   ptx_is(&t, ".local")) {
            ptr = true;
        } else if (ptx_is(&t, ".align")) {
            ptx_next(P);
            int64_t a;
            if (!ptx_int(P, &P->tok, false, &a)) return false;
            align = a > 0 && a <= 4096 ? (uint32_t)a : 1;
        } else if (ptx_is(&t, ".f16")) {
            return ptx_fail(P, &t, "parameters of type '%s' are not supported yet", ptx_quote(&t, q, sizeof q));
        } else {
            return ptx_fail(P, &t, "expected a parameter type (.u64 .u32 .s32 .f32 ...), found '%s'", ptx_quote(&t, q, sizeof q));
        }
        ptx_next(P);
    }
    Tok nt = P->tok;
    if (!size) return ptx_fail(P, &pt, "expected a type in the .param declaration");
    if (nt.kind != TK_WORD) return ptx_fail(P, &nt, "expected a parameter name, found '%s'", ptx_quote(&nt, q, sizeof q));
    ptx_next(P);
    bool array = false;
    if (ptx_punct(&P->tok, '[')) { /* a struct passed by value: bytes at its alignment */
        ptx_next(P);
        int64_t n;
        if (!ptx_int(P, &P->tok, false, &n)) return false;
        if (n < 1 || n > 4 * ISA_MAX_PARAM_WORDS)
            return ptx_fail(P, &P->tok, "parameter array of %lld elements: expected 1 to %d bytes in all", (long long)n,
                            4 * ISA_MAX_PARAM_WORDS);
        ptx_next(P);
        if (!ptx_expect(P, ']', "after the parameter array's size")) return false;
        if (!align) align = size;
        size *= (uint32_t)n;
        array = true;
        ptr = false;
    }
    if (k->nparams == ISA_MAX_PARAMS) return ptx_fail(P, &nt, "too many parameters (at most %d)", ISA_MAX_PARAMS);
    if (align < size && !array) align = size;
    uint32_t off = (k->param_bytes + align - 1) / align * align;
    if (off + size > 4 * ISA_MAX_PARAM_WORDS) return ptx_fail(P, &nt, "parameters larger than %d bytes", 4 * ISA_MAX_PARAM_WORDS);
    KernelParam *p = program_add_param(k);
    if (!p) return ptx_fail(P, &nt, "out of memory");
    /* nvcc names parameters <entry>_param_<i>: keep what follows the entry name */
    const char *nm = nt.s;
    uint32_t nl = nt.len;
    size_t el = strlen(k->mangled);
    if (nl > el + 1 && memcmp(nm, k->mangled, el) == 0 && nm[el] == '_') nm += el + 1, nl -= (uint32_t)el + 1;
    if (nl >= ISA_MAX_NAME) nm += nl - (ISA_MAX_NAME - 1), nl = ISA_MAX_NAME - 1;
    memcpy(p->name, nm, nl);
    p->name[nl] = 0;
    if (!ptx_grow(P, (void **)&P->pnames, &P->pnames_cap, k->nparams + 1, sizeof *P->pnames)) return false;
    P->pnames[k->nparams] = ptx_dup_tok(&nt);
    if (!P->pnames[k->nparams]) return ptx_fail(P, &nt, "out of memory");
    P->npnames = k->nparams + 1;
    p->type = type;
    p->is_ptr = !array && (ptr || (size == 8 && type != TYPE_S64 && type != TYPE_F64));
    p->is_array = array;
    p->offset = off;
    p->size = size;
    k->param_bytes = off + size;
    k->nparams++;
    return true;
}

/* Finds parameter token t of the current kernel; its index or -1. */
int ptx_param_index(const Ptx *P, const Tok *t)
{
    if (P->inline_depth) return -1; /* an inlined function sees its own parameters only */
    for (uint32_t i = 0; i < P->k->nparams; i++)
        if (strlen(P->pnames[i]) == t->len && memcmp(P->pnames[i], t->s, t->len) == 0) return (int)i;
    return -1;
}

static bool label_def(Ptx *P, const Tok *t)
{
    char q[80];
    if (t->len >= ISA_MAX_NAME) return ptx_fail(P, t, "label name too long (%u characters, at most %d)", t->len, ISA_MAX_NAME - 1);
    if (names_find(&P->label_ix, t->s, t->len, plabel_name, P) != NAMES_NONE)
        return ptx_fail(P, t, "label '%s' defined twice", ptx_quote(t, q, sizeof q));
    Kernel *k = P->k;
    if (!ptx_grow(P, (void **)&k->labels, &P->label_cap, k->nlabels + 1, sizeof *k->labels)) return false;
    Label *l = &k->labels[k->nlabels];
    ptx_text(t, l->name, sizeof l->name);
    l->pc = k->ncode;
    if (!names_add(&P->label_ix, k->nlabels, plabel_name, P)) return ptx_fail(P, t, "out of memory");
    k->nlabels++;
    return true;
}

uint32_t ptx_label_find(const Ptx *P, const char *name, size_t len)
{
    return names_find(&P->label_ix, name, len, plabel_name, P);
}

/* Lays out the kernel's shared memory: the module's and its own sized
** variables in declaration order at their alignment, the extern array last;
** and its local arrays the same way in the thread's local memory. */
static void layout_shared(Ptx *P, Kernel *k)
{
    uint32_t off = 0, dyn_align = 16, local = 0;
    for (uint32_t i = 0; i < P->nsyms; i++) {
        PtxSym *s = &P->syms[i];
        if (s->local) {
            local = (local + s->align - 1) / s->align * s->align;
            s->offset = local;
            local += s->size;
            continue;
        }
        if (!s->size) {
            if (s->align > dyn_align) dyn_align = s->align;
            continue;
        }
        off = (off + s->align - 1) / s->align * s->align;
        s->offset = off;
        off += s->size;
    }
    k->static_smem = off;
    k->dynamic_smem_offset = (off + dyn_align - 1) / dyn_align * dyn_align;
    k->local_bytes = local;
    for (uint32_t i = 0; i < P->nsyms; i++)
        if (!P->syms[i].size && !P->syms[i].local) P->syms[i].offset = k->dynamic_smem_offset;
}

static bool finish_kernel(Ptx *P)
{
    Kernel *k = P->k;
    if (k->ncode == 0) {
        diag_set(P->d, P->file, k->line, 1, "kernel '%s' has no instructions", k->name);
        return P->failed = true, false;
    }
    for (uint32_t i = 0; i < P->nrefs; i++) {
        PtxRef *r = &P->refs[i];
        uint32_t j = ptx_label_find(P, r->name, strlen(r->name));
        if (j == NAMES_NONE) {
            diag_set(P->d, P->file, r->line, r->col, "unknown label '%s' in kernel '%s'", r->name, k->name);
            return P->failed = true, false;
        }
        if (k->labels[j].pc >= k->ncode) {
            diag_set(P->d, P->file, r->line, r->col, "label '%s' is at the end of kernel '%s' with no instruction after it",
                     r->name, k->name);
            return P->failed = true, false;
        }
        k->code[r->instr].target = k->labels[j].pc;
    }
    /* Shared symbols the kernel sees, for the disassembler and reports. */
    uint32_t n = 0;
    k->shared = calloc(P->nsyms ? P->nsyms : 1, sizeof *k->shared);
    if (!k->shared) return ptx_fail(P, &P->tok, "out of memory");
    for (uint32_t i = 0; i < P->nsyms; i++) {
        const PtxSym *s = &P->syms[i];
        if (s->local) continue;
        SharedSymbol *o = &k->shared[n++];
        const char *nm = s->name;
        size_t len = strlen(nm);
        if (len >= ISA_MAX_NAME) nm += len - (ISA_MAX_NAME - 1);
        snprintf(o->name, sizeof o->name, "%s", nm);
        o->offset = s->offset;
        o->size = s->size;
    }
    k->nshared = n;
    ptx_lower_peepholes(P);
    if (!cfg_analyze(k, P->file, P->d)) return P->failed = true, false;
    if (!ptx_regalloc(k, P->guard_v, P->vclass, P->nv, P->file, P->d)) return P->failed = true, false;
    /* The arrays grew by doubling; a file of many small kernels keeps only what they use. */
    Instr *code = k->ncode ? realloc(k->code, k->ncode * sizeof *code) : NULL;
    if (code) k->code = code;
    if (k->nlabels) {
        Label *labels = realloc(k->labels, k->nlabels * sizeof *labels);
        if (labels) k->labels = labels;
    }
    return true;
}

/* Sets Kernel.name (the bare function name when it demangles), .mangled and
** .signature. */
static bool name_kernel(Ptx *P, Kernel *k, const Tok *nt)
{
    k->mangled = ptx_dup_tok(nt);
    if (!k->mangled) return ptx_fail(P, nt, "out of memory");
    k->signature = ptx_demangle(k->mangled);
    char bare[ISA_MAX_NAME];
    if (!ptx_bare_name(k->mangled, k->signature, bare, sizeof bare)) {
        size_t len = strlen(k->mangled);
        const char *s = k->mangled + (len >= ISA_MAX_NAME ? len - (ISA_MAX_NAME - 1) : 0);
        snprintf(bare, sizeof bare, "%s", s);
    }
    snprintf(k->name, sizeof k->name, "%s", bare);
    return true;
}

static void reset_kernel_state(Ptx *P)
{
    /* the kernel's own names go; the module's shared variables stay */
    uint32_t keep = 0;
    for (uint32_t i = 0; i < P->nsyms; i++) {
        if (P->syms[i].module_scope) P->syms[keep++] = P->syms[i];
        else free(P->syms[i].name);
    }
    P->nsyms = keep;
    names_clear(&P->sym_ix);
    for (uint32_t i = 0; i < P->nsyms; i++) names_add(&P->sym_ix, i, ptx_sym_name, P); /* fits: it held more */
    names_clear(&P->range_ix);
    names_clear(&P->label_ix);
    P->nranges = P->range_base = 0;
    P->ncallparams = P->naggs = P->nfields = P->npaddrs = 0;
    P->carry_v = UINT32_MAX;
    P->inline_calls = P->inline_depth = P->naliases = P->alias_base = 0;
    P->call.active = false;
    P->nv = 0;
    P->vmap_n = 0;
    if (P->vmap_val) memset(P->vmap_val, 0xff, (size_t)P->vmap_cap * sizeof *P->vmap_val);
    P->nrefs = 0;
    P->code_cap = P->label_cap = 0;
    for (uint32_t i = 0; i < P->npnames; i++) free(P->pnames[i]);
    P->npnames = 0;
    P->loc_file = 0;
    P->loc_line = 0;
}


/* A kernel whose body the front end cannot take stays in the program,
** refused: its first error kept for whoever would run it (Kernel.refused,
** kernel_runnable), its code dropped, and the file read on after its
** closing brace, so that one kernel does not refuse the others. Running
** out of memory, or out of file inside the body, ends the parse. */
static bool refuse_kernel(Ptx *P, Kernel *k)
{
    if (strstr(P->d->message, "out of memory") || P->tok.kind == TK_EOF) return false;
    k->refused = strdup(P->d->message);
    if (!k->refused) return false;
    k->refused_line = P->d->line;
    k->refused_col = P->d->col;
    if (strcmp(P->d->file, P->file) != 0 && !(k->refused_file = strdup(P->d->file))) return false; /* at the .cu */
    P->failed = false;
    P->in_instr = false;
    P->varrefs = 0;
    if (P->vector_open) P->body_depth++; /* its '{' was read as an operand's, its '}' comes */
    P->vector_open = false;
    while (P->body_depth) {
        if (P->tok.kind == TK_EOF)
            return ptx_fail(P, &P->tok, "end of file inside kernel '%s': expected '}'", k->name);
        if (ptx_punct(&P->tok, '{')) P->body_depth++;
        if (ptx_punct(&P->tok, '}')) P->body_depth--;
        ptx_next(P);
    }
    free(k->code);
    free(k->labels);
    free(k->shared);
    free(k->consts);
    k->code = NULL, k->labels = NULL, k->shared = NULL, k->consts = NULL;
    k->ncode = k->nlabels = k->nshared = k->nconsts = 0;
    memset(P->d, 0, sizeof *P->d);
    return true;
}

static bool parse_entry(Ptx *P)
{
    char q[80];
    ptx_next(P);
    Tok nt = P->tok;
    if (nt.kind != TK_WORD) return ptx_fail(P, &nt, "expected a kernel name after .entry, found '%s'", ptx_quote(&nt, q, sizeof q));
    if (nt.len > 4096) return ptx_fail(P, &nt, "kernel name too long");
    Program *pr = P->prog;
    uint32_t first = names_find(&P->kernel_ix, nt.s, nt.len, kernel_mangled, P);
    if (first != NAMES_NONE)
        return ptx_fail(P, &nt, "kernel '%s' defined twice (first at line %u)", ptx_quote(&nt, q, sizeof q),
                        pr->kernels[first].line);
    if (!ptx_grow(P, (void **)&pr->kernels, &P->kernels_cap, pr->nkernels + 1, sizeof(Kernel))) return false;
    Kernel *k = &pr->kernels[pr->nkernels++];
    memset(k, 0, sizeof *k);
    P->k = k;
    k->ptx = true;
    k->line = nt.line;
    reset_kernel_state(P);
    if (!name_kernel(P, k, &nt)) return false;
    if (!names_add(&P->kernel_ix, pr->nkernels - 1, kernel_mangled, P)) return ptx_fail(P, &nt, "out of memory");
    ptx_next(P);
    if (!ptx_expect(P, '(', "after the kernel name (its parameter list)")) return false;
    while (!ptx_punct(&P->tok, ')')) {
        if (P->tok.kind != TK_DIR || !ptx_is(&P->tok, ".param"))
            return ptx_fail(P, &P->tok, "expected '.param' or ')' in the parameter list of '%s', found '%s'", k->name,
                            ptx_quote(&P->tok, q, sizeof q));
        if (!parse_param(P, k)) return false;
        if (ptx_punct(&P->tok, ',')) ptx_next(P);
        else if (!ptx_punct(&P->tok, ')'))
            return ptx_fail(P, &P->tok, "expected ',' or ')' after a parameter, found '%s'", ptx_quote(&P->tok, q, sizeof q));
    }
    ptx_next(P);
    /* performance directives: .maxntid 256, 1, 1  .reqntid  .minnctapersm  .maxnreg ... */
    while (P->tok.kind == TK_DIR) {
        static const char *const perf[] = { ".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm", ".maxnreg",
                                            ".noreturn", ".maxclusterrank", ".reqnctapercluster", ".explicitcluster",
                                            ".pragma", NULL };
        int i = 0;
        while (perf[i] && !ptx_is(&P->tok, perf[i])) i++;
        if (!perf[i]) break;
        ptx_next(P);
        while (P->tok.kind == TK_NUM || ptx_punct(&P->tok, ',') || P->tok.kind == TK_STR) ptx_next(P);
        if (ptx_punct(&P->tok, ';')) ptx_next(P);
    }
    if (ptx_punct(&P->tok, ';')) return ptx_fail(P, &P->tok, "a kernel declaration without a body ('.entry %s ... ;') cannot run", k->name);
    if (!ptx_expect(P, '{', "to open the kernel's body")) return false;
    P->body_depth = 1;
    if (ptx_parse_body(P, k) && finish_kernel(P)) return true;
    return refuse_kernel(P, k);
}

bool ptx_parse_body(Ptx *P, Kernel *k)
{
    char q[80];
    while (P->body_depth) {
        Tok t = P->tok;
        if (t.kind == TK_EOF) return ptx_fail(P, &t, "end of file inside kernel '%s': expected '}'", k->name);
        if (ptx_punct(&t, '{')) {
            P->body_depth++;
            ptx_next(P);
        } else if (ptx_punct(&t, '}')) {
            P->body_depth--;
            for (uint32_t i = P->range_base; i < P->nranges; i++) /* the block's registers go out of scope */
                if (P->ranges[i].depth && P->ranges[i].depth >= P->body_depth) P->ranges[i].closed = true;
            ptx_next(P);
        } else if (t.kind == TK_DIR) {
            if (ptx_is(&t, ".reg")) {
                if (!parse_reg_decl(P, false)) return false;
            } else if (ptx_is(&t, ".shared")) {
                if (!parse_shared_decl(P, false, false, false)) return false;
            } else if (ptx_is(&t, ".extern")) {
                ptx_next(P);
                if (!ptx_is(&P->tok, ".shared")) return ptx_fail(P, &P->tok, "only .extern .shared is supported inside a kernel");
                if (!parse_shared_decl(P, true, false, false)) return false;
            } else if (ptx_is(&t, ".loc")) {
                if (!ptx_parse_loc(P)) return false;
            } else if (ptx_is(&t, ".pragma")) {
                ptx_next(P);
                while (P->tok.kind == TK_STR || ptx_punct(&P->tok, ',')) ptx_next(P);
                if (!ptx_expect(P, ';', "after .pragma")) return false;
            } else if (ptx_is(&t, ".local")) {
                if (!parse_shared_decl(P, false, false, true)) return false;
            } else if (ptx_is(&t, ".callprototype")) { /* an indirect call's signature: its call's arguments say it */
                while (P->tok.kind != TK_EOF && !ptx_punct(&P->tok, ';')) ptx_next(P);
                if (!ptx_expect(P, ';', "after .callprototype")) return false;
            } else if (ptx_is(&t, ".param")) {
                if (P->body_depth < 2) return ptx_fail(P, &t, "a .param in a kernel body belongs in a call's braces");
                if (!parse_reg_decl(P, true)) return false;
            } else {
                return ptx_fail(P, &t, "unknown or unsupported directive '%s' in a kernel body", ptx_quote(&t, q, sizeof q));
            }
        } else if (t.kind == TK_WORD) {
            /* a label is a word followed by ':' */
            const char *after = t.s + t.len, *colon = after;
            while (colon < P->lx.end && (*colon == ' ' || *colon == '\t')) colon++; /* `prototype_0 : ...` */
            if (colon < P->lx.end && *colon == ':' && P->lx.p == after) {
                if (!label_def(P, &t)) return false;
                ptx_next(P); /* ':' */
                ptx_next(P);
            } else {
                layout_shared(P, k);
                if (!ptx_instruction(P)) return false;
            }
        } else if (ptx_punct(&t, '@')) {
            layout_shared(P, k);
            if (!ptx_instruction(P)) return false;
        } else {
            return ptx_fail(P, &t, "expected an instruction, a label or a directive, found '%s'", ptx_quote(&t, q, sizeof q));
        }
    }
    return true;
}

static bool parse_module(Ptx *P)
{
    char q[80];
    bool seen_version = false, seen_target = false;
    ptx_next(P);
    ptx_func_prescan(P);
    while (P->tok.kind != TK_EOF) {
        Tok t = P->tok;
        if (t.kind != TK_DIR)
            return ptx_fail(P, &t, "expected a directive (.version .target .entry ...) at the top level, found '%s'",
                            ptx_quote(&t, q, sizeof q));
        if (ptx_is(&t, ".version")) {
            ptx_next(P);
            if (P->tok.kind != TK_NUM) return ptx_fail(P, &P->tok, "expected a version number after .version, found '%s'", ptx_quote(&P->tok, q, sizeof q));
            seen_version = true;
            ptx_next(P);
        } else if (ptx_is(&t, ".target")) {
            ptx_next(P);
            if (P->tok.kind != TK_WORD) return ptx_fail(P, &P->tok, "expected a target (sm_90 ...) after .target, found '%s'", ptx_quote(&P->tok, q, sizeof q));
            ptx_text(&P->tok, P->target, sizeof P->target);
            seen_target = true;
            ptx_next(P);
            while (ptx_punct(&P->tok, ',')) {
                ptx_next(P);
                ptx_next(P);
            }
        } else if (ptx_is(&t, ".address_size")) {
            ptx_next(P);
            int64_t a;
            if (!ptx_int(P, &P->tok, false, &a)) return false;
            if (a != 64)
                return ptx_fail(P, &P->tok, ".address_size %lld is not supported: expected .address_size 64 (what nvcc emits)", (long long)a);
            ptx_next(P);
        } else if (ptx_is(&t, ".visible") || ptx_is(&t, ".weak") || ptx_is(&t, ".common")) {
            ptx_next(P);
        } else if (ptx_is(&t, ".entry")) {
            if (!seen_version || !seen_target)
                return ptx_fail(P, &t, "'.entry' before the module header: a PTX file starts with .version and .target");
            if (!parse_entry(P)) return false;
        } else if (ptx_is(&t, ".extern")) {
            ptx_next(P);
            if (ptx_is(&P->tok, ".shared")) {
                if (!parse_shared_decl(P, true, true, false)) return false;
            } else if (ptx_is(&P->tok, ".func")) { /* a declaration (printf's vprintf ...): skipped; a call is refused */
                while (P->tok.kind != TK_EOF && !ptx_punct(&P->tok, ';')) ptx_next(P);
                ptx_next(P);
            } else {
                return ptx_fail(P, &P->tok, "'.extern %s' is not supported yet", ptx_quote(&P->tok, q, sizeof q));
            }
        } else if (ptx_is(&t, ".shared")) {
            if (!parse_shared_decl(P, false, true, false)) return false;
        } else if (ptx_is(&t, ".func")) { /* read ahead (ptx_func_prescan); inlined where it is called */
            if (!ptx_func_skip(P)) return false;
        } else if (ptx_is(&t, ".global") || ptx_is(&t, ".const")) {
            if (!ptx_parse_module_var(P)) return false;
        } else if (ptx_is(&t, ".file")) {
            if (!ptx_parse_file_dir(P)) return false;
        } else if (ptx_is(&t, ".section")) {
            if (!skip_section(P)) return false;
        } else if (ptx_is(&t, ".pragma")) {
            ptx_next(P);
            while (P->tok.kind == TK_STR || ptx_punct(&P->tok, ',')) ptx_next(P);
            if (!ptx_expect(P, ';', "after .pragma")) return false;
        } else {
            return ptx_fail(P, &t, "unknown or unsupported directive '%s' at the top level", ptx_quote(&t, q, sizeof q));
        }
    }
    if (P->in_comment) {
        Tok c = { TK_EOF, P->end, 0, P->comment_line, P->comment_col };
        return ptx_fail(P, &c, "this /* comment is never closed: expected '*/' before the end of the file");
    }
    if (!seen_version) return ptx_fail(P, &P->tok, "no .version directive: is this a PTX file?");
    if (P->prog->nkernels == 0) return ptx_fail(P, &P->tok, "no kernel in file: expected a '.entry'");
    return true;
}

bool ptx_parse(const char *text, size_t len, const char *file, Program *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    Ptx *P = calloc(1, sizeof *P);
    if (!P) {
        diag_set(d, file, 0, 0, "out of memory");
        return false;
    }
    P->file = file ? file : "<input>";
    P->d = d;
    P->prog = out;
    P->end = text + len;
    const char *nl = memchr(text, '\n', len);
    P->lx.file = P->file;
    P->lx.d = d;
    P->lx.line = 1;
    P->lx.line_start = P->lx.p = text;
    P->lx.end = nl ? nl : text + len;
    out->file = strdup(P->file);
    bool ok = out->file != NULL;
    if (!ok) diag_set(d, P->file, 0, 0, "out of memory");
    if (ok) ptx_prescan_files(out, text, len);
    if (ok) ok = parse_module(P);
    for (uint32_t i = 0; i < P->nsyms; i++) free(P->syms[i].name);
    for (uint32_t i = 0; i < P->npnames; i++) free(P->pnames[i]);
    free(P->syms);
    free(P->pnames);
    free(P->ranges);
    free(P->refs);
    free(P->guard_v);
    free(P->vclass);
    free(P->callparams);
    free(P->paddrs);
    free(P->aggs);
    free(P->fields);
    ptx_funcs_free(P);
    free(P->vmap_key);
    free(P->vmap_val);
    free(P->uses);
    names_free(&P->range_ix);
    names_free(&P->sym_ix);
    names_free(&P->label_ix);
    names_free(&P->kernel_ix);
    free(P);
    if (!ok) program_destroy(out);
    for (uint32_t i = 0; ok && i < out->nkernels; i++) { /* the table no longer moves */
        out->kernels[i].src_files = out->src_files;
        out->kernels[i].nsrc_files = out->nsrc_files;
    }
    return ok;
}
