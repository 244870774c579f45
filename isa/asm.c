/* isa/asm.c -- the assembler: one pass over the lines, labels resolved at the
** end of each kernel, then the CFG analysis (isa/cfg.c).
** The grammar is line-oriented (isa/ISA.md):
**     [LABEL:] [@[!]%pN] mnemonic[.modifiers] operand, operand ... [;] [// comment]
**     .kernel NAME | .param .TYPE NAME | .shared NAME [BYTES] | .regs N
** Robustness: the input is a byte range, never assumed NUL-terminated; every
** token is length-checked before it is copied; any byte outside the grammar
** is an error with its position.                                             */
#include "isa/asm.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/file.h"
#include "base/grow.h"
#include "base/names.h"
#include "isa/cfg.h"
#include "isa/lex.h"

#define SHARED_ALIGN 16u /* every .shared array starts 16-byte aligned (float4) */

typedef struct {
    uint32_t instr;           /* index of the branch in the kernel */
    char     name[ISA_MAX_NAME];
    uint32_t line, col;
} LabelRef;

typedef struct {
    Lex         lx;               /* the cursor over the current line (file, Diag) */
    Program    *prog;
    /* the kernel being built (NULL outside any kernel) */
    Kernel     *k;
    uint32_t    code_cap, label_cap, shared_cap;
    LabelRef   *refs;
    uint32_t    nrefs, refs_cap;
    NameIndex   labels;           /* the current kernel's label names              */
    NameIndex   kernels;          /* the program's kernel names                    */
    uint32_t    kernels_cap;
    bool        have_dynamic;
} Asm;

/* ------------------------------------------------------------ growable arrays */


/* Names of the current kernel's labels and of the program's kernels, for
** the name indexes that keep defining and resolving them linear. */
static const char *label_name(const void *ctx, uint32_t id) { return ((const Kernel *)ctx)->labels[id].name; }
static const char *kernel_name(const void *ctx, uint32_t id) { return ((const Program *)ctx)->kernels[id].name; }

/* Index in k->labels of `name`, or UINT32_MAX. */
static uint32_t label_find(const Asm *a, const char *name)
{
    return names_find(&a->labels, name, strlen(name), label_name, a->k);
}

/* --------------------------------------------------------------- operands */

static bool parse_reg_index(Asm *a, char letter, uint32_t limit, uint16_t *out)
{
    lex_skip_space(&a->lx);
    const char *s = a->lx.p;
    char q[64];
    if (a->lx.end - s < 3 || s[0] != '%' || s[1] != letter || !isdigit((unsigned char)s[2]))
        return lex_fail(&a->lx, s, "expected a %s %%%c0..%%%c%u, found '%s'",
                       letter == 'r' ? "register" : "predicate", letter, letter, limit - 1,
                       lex_quote(s, a->lx.end, q, sizeof q));
    a->lx.p = s + 2;
    uint32_t v = 0;
    while (a->lx.p < a->lx.end && isdigit((unsigned char)*a->lx.p)) {
        v = v * 10 + (uint32_t)(*a->lx.p - '0');
        if (v > 100000) v = 100000;
        a->lx.p++;
    }
    if (a->lx.p < a->lx.end && lex_ident_char(*a->lx.p))
        return lex_fail(&a->lx, s, "malformed register '%s'", lex_quote(s, a->lx.end, q, sizeof q));
    if (v >= limit) /* quoted as written: v saturates on absurdly long numbers */
        return lex_fail(&a->lx, s, "%s %s out of range (%%%c0..%%%c%u)",
                       letter == 'r' ? "register" : "predicate", lex_quote(s, a->lx.end, q, sizeof q), letter, letter,
                       limit - 1);
    *out = (uint16_t)v;
    return true;
}

static bool parse_reg(Asm *a, Operand *o)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_REG;
    if (!parse_reg_index(a, 'r', ISA_MAX_REGS, &o->index)) return false;
    if (o->index + 1u > a->k->regs_used) a->k->regs_used = o->index + 1u;
    return true;
}

static bool parse_pred(Asm *a, Operand *o, bool allow_not)
{
    memset(o, 0, sizeof *o);
    o->kind = OPND_PRED;
    lex_skip_space(&a->lx);
    if (allow_not && a->lx.p < a->lx.end && *a->lx.p == '!') {
        o->neg = 1;
        a->lx.p++;
    }
    if (!parse_reg_index(a, 'p', ASM_MAX_PREDS, &o->index)) return false;
    if (o->index + 1u > a->k->preds_used) a->k->preds_used = o->index + 1u;
    return true;
}

static const SharedSymbol *find_shared(const Kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->nshared; i++)
        if (strcmp(k->shared[i].name, name) == 0) return &k->shared[i];
    return NULL;
}

/* A constant term: a number or the name of a .shared array (its offset). */
static bool parse_const(Asm *a, bool is_float, uint32_t *out)
{
    lex_skip_space(&a->lx);
    /* inf and nan are numbers; "info" or "nanos" are symbols. */
    bool inf_nan = a->lx.end - a->lx.p >= 3 && (memcmp(a->lx.p, "inf", 3) == 0 || memcmp(a->lx.p, "nan", 3) == 0) &&
                   (a->lx.end - a->lx.p == 3 || !lex_ident_char(a->lx.p[3]));
    if (a->lx.p < a->lx.end && lex_ident_start(*a->lx.p) && !inf_nan) {
        const char *s = a->lx.p;
        char name[ISA_MAX_NAME];
        if (!lex_ident(&a->lx, name, ISA_MAX_NAME, "a symbol")) return false;
        const SharedSymbol *sym = find_shared(a->k, name);
        if (!sym)
            return lex_fail(&a->lx, s, "unknown symbol '%s'; expected a register, a number or a .shared array name", name);
        *out = sym->offset;
        return true;
    }
    return lex_number32(&a->lx, is_float, out);
}

static bool parse_special(Asm *a, Operand *o)
{
    const char *s = a->lx.p; /* at '%' */
    char q[64];
    for (int i = 0; i < SREG_MINI_COUNT; i++) {
        size_t n = strlen(SREG_NAMES[i]);
        if ((size_t)(a->lx.end - s) > n && memcmp(s + 1, SREG_NAMES[i], n) == 0 &&
            (s + 1 + n == a->lx.end || !(lex_ident_char(s[1 + n]) || s[1 + n] == '.'))) {
            memset(o, 0, sizeof *o);
            o->kind = OPND_SPECIAL;
            o->index = (uint16_t)i;
            a->lx.p = s + 1 + n;
            return true;
        }
    }
    return lex_fail(&a->lx, s, "unknown special register '%s'; expected %%tid.x/y/z, %%ntid.*, %%ctaid.*, %%nctaid.*, "
                         "%%laneid, %%warpid, %%smid, %%nsmid or %%clock", lex_quote(s, a->lx.end, q, sizeof q));
}

/* How a source is read: SRC_FLOAT, immediates are floats (the instruction
** works in f32); SRC_SPECIAL, a special register may be named. */
enum { SRC_FLOAT = 1u << 0, SRC_SPECIAL = 1u << 1 };

/* Source operand: register, immediate/symbol, or (mov only) special register. */
static bool parse_src(Asm *a, uint32_t flags, Operand *o)
{
    lex_skip_space(&a->lx);
    memset(o, 0, sizeof *o);
    if (a->lx.p < a->lx.end && *a->lx.p == '%') {
        if (a->lx.end - a->lx.p >= 3 && a->lx.p[1] == 'r' && isdigit((unsigned char)a->lx.p[2])) return parse_reg(a, o);
        if (a->lx.end - a->lx.p >= 3 && a->lx.p[1] == 'p' && isdigit((unsigned char)a->lx.p[2]))
            return lex_fail(&a->lx, a->lx.p, "a predicate cannot be used here; expected a register or an immediate");
        if (!(flags & SRC_SPECIAL))
            return lex_fail(&a->lx, a->lx.p, "special registers can only be read with mov; expected a register or an immediate");
        return parse_special(a, o);
    }
    o->kind = OPND_IMM;
    return parse_const(a, flags & SRC_FLOAT, &o->value);
}

/* Memory operand: '[' term { ('+'|'-') term } ']' with at most one register
** term (added, not subtracted); the rest are summed into the displacement. */
static bool parse_mem(Asm *a, Operand *base, int32_t *offset)
{
    if (!lex_expect(&a->lx, '[', "to open a memory operand")) return false;
    memset(base, 0, sizeof *base);
    base->kind = OPND_IMM;
    bool have_reg = false;
    int64_t sum = 0;
    bool negate = false;
    for (;;) {
        lex_skip_space(&a->lx);
        const char *s = a->lx.p;
        if (a->lx.p < a->lx.end && *a->lx.p == '%') {
            if (have_reg) return lex_fail(&a->lx, s, "only one register may appear in an address");
            if (negate) return lex_fail(&a->lx, s, "a register cannot be subtracted in an address");
            if (!parse_reg(a, base)) return false;
            have_reg = true;
        } else {
            uint32_t v;
            if (!parse_const(a, false, &v)) return false;
            int64_t sv = (int64_t)(int32_t)v;
            if (v > INT32_MAX && s[0] != '-') sv = (int64_t)v;
            sum += negate ? -sv : sv;
            if (sum < INT32_MIN || sum > (int64_t)UINT32_MAX)
                return lex_fail(&a->lx, s, "address displacement out of 32-bit range");
        }
        lex_skip_space(&a->lx);
        if (a->lx.p < a->lx.end && (*a->lx.p == '+' || *a->lx.p == '-')) {
            negate = (*a->lx.p == '-');
            a->lx.p++;
            continue;
        }
        break;
    }
    if (!lex_expect(&a->lx, ']', "to close the memory operand")) return false;
    if (have_reg) {
        if (sum < INT32_MIN || sum > INT32_MAX) return lex_fail(&a->lx, a->lx.p, "address displacement out of range");
        *offset = (int32_t)sum;
    } else {
        base->value = (uint32_t)sum;
        *offset = 0;
    }
    return true;
}

/* A register or a brace list {%rA, %rB[, %rC, %rD]} of exactly `vec` registers. */
static bool parse_reg_list(Asm *a, uint32_t vec, Operand *regs)
{
    lex_skip_space(&a->lx);
    if (vec == 1) {
        if (a->lx.p < a->lx.end && *a->lx.p == '{')
            return lex_fail(&a->lx, a->lx.p, "a register list needs .v2 or .v4 on the instruction");
        return parse_reg(a, &regs[0]);
    }
    if (!lex_expect(&a->lx, '{', "to open a vector register list (.v2/.v4)")) return false;
    for (uint32_t i = 0; i < vec; i++) {
        if (i && !lex_expect(&a->lx, ',', "between vector registers")) return false;
        if (!parse_reg(a, &regs[i])) return false;
    }
    lex_skip_space(&a->lx);
    if (a->lx.p < a->lx.end && *a->lx.p == ',')
        return lex_fail(&a->lx, a->lx.p, "too many registers in the list: .v%u takes %u", vec, vec);
    return lex_expect(&a->lx, '}', "to close the register list");
}

/* Vector stores may also take immediates (st.shared.v2 [..], {0, 0}). */
static bool parse_src_list(Asm *a, uint32_t vec, uint32_t flags, Operand *srcs)
{
    lex_skip_space(&a->lx);
    if (vec == 1) return parse_src(a, flags & ~SRC_SPECIAL, &srcs[0]);
    if (!lex_expect(&a->lx, '{', "to open a vector register list (.v2/.v4)")) return false;
    for (uint32_t i = 0; i < vec; i++) {
        if (i && !lex_expect(&a->lx, ',', "between vector elements")) return false;
        if (!parse_src(a, flags & ~SRC_SPECIAL, &srcs[i])) return false;
    }
    lex_skip_space(&a->lx);
    if (a->lx.p < a->lx.end && *a->lx.p == ',')
        return lex_fail(&a->lx, a->lx.p, "too many values in the list: .v%u takes %u", vec, vec);
    return lex_expect(&a->lx, '}', "to close the register list");
}

static bool comma(Asm *a, const char *mnemonic)
{
    lex_skip_space(&a->lx);
    char q[64];
    if (a->lx.p >= a->lx.end || *a->lx.p != ',')
        return lex_fail(&a->lx, a->lx.p, "'%s' needs more operands: expected ',', found '%s'", mnemonic,
                       lex_quote(a->lx.p, a->lx.end, q, sizeof q));
    a->lx.p++;
    return true;
}

/* --------------------------------------------------------------- mnemonics */

typedef struct {
    Opcode    op;
    int       cmp, shfl, atom; /* -1 when absent */
    uint32_t  vec;
    ValueType type;
} Mnemonic;

static int name_index(const char *const *names, int count, const char *s, size_t n)
{
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) return i;
    return -1;
}

static ValueType type_of(const char *s, size_t n)
{
    int i = name_index(TYPE_NAMES + TYPE_B32, TYPE_MINI_COUNT - TYPE_B32, s, n);
    return i < 0 ? TYPE_NONE : (ValueType)(TYPE_B32 + i);
}

/* Appends s to the string in buf (cap bytes), cutting it short if full. */
static void append(char *buf, size_t cap, const char *s)
{
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s", s);
}

/* What each type of op's atomic family (the rows spelled as op but for
** their type) allows, narrowest first, from the atoms column:
** "f32: add exch; s32: add min max; u32: all". */
static void atom_choices(Opcode op, char *buf, size_t cap)
{
    const char *mn = OP_INFO[op].mnemonic;
    size_t stem = (size_t)(strrchr(mn, '.') - mn);
    Opcode rows[OP_COUNT];
    int n = 0;
    for (int i = 0; i < OP_COUNT; i++) {
        const char *o = OP_INFO[i].mnemonic;
        if (OP_INFO[i].flags & OPF_PTX) continue;
        if (!OP_INFO[i].atoms || strncmp(o, mn, stem) != 0 || o[stem] != '.' || strchr(o + stem + 1, '.')) continue;
        int j = n++; /* insert, keeping rows ordered by how many operations they allow */
        for (; j > 0 && bits_popcount(OP_INFO[rows[j - 1]].atoms) > bits_popcount(OP_INFO[i].atoms); j--)
            rows[j] = rows[j - 1];
        rows[j] = (Opcode)i;
    }
    buf[0] = 0;
    for (int r = 0; r < n; r++) {
        const OpInfo *info = &OP_INFO[rows[r]];
        if (r) append(buf, cap, "; ");
        append(buf, cap, TYPE_NAMES[info->type]);
        append(buf, cap, ":");
        if (info->atoms == ATOMS_ALL) {
            append(buf, cap, " all");
            continue;
        }
        for (int k = 0; k < ATOM_MINI_COUNT; k++)
            if (info->atoms >> k & 1) {
                append(buf, cap, " ");
                append(buf, cap, ATOM_NAMES[k]);
            }
    }
}

static bool two_modifiers(Asm *a, const char *at, const char *full, const char *kind, const char *first,
                          const char *second, size_t second_len)
{
    return lex_fail(&a->lx, at, "'%s' has two %s (.%s and .%.*s); an instruction takes one", full, kind, first,
                    (int)second_len, second);
}

/* Splits "setp.lt.s32" into the canonical mnemonic "setp.s32" and its
** modifiers, then looks the canonical form up in the opcode table. */
static bool parse_mnemonic(Asm *a, Mnemonic *m)
{
    lex_skip_space(&a->lx);
    const char *s = a->lx.p;
    while (a->lx.p < a->lx.end && (lex_ident_char(*a->lx.p) || *a->lx.p == '.')) a->lx.p++;
    size_t n = (size_t)(a->lx.p - s);
    char q[64];
    if (n == 0) return lex_fail(&a->lx, s, "expected an instruction, found '%s'", lex_quote(s, a->lx.end, q, sizeof q));
    if (n >= 48) return lex_fail(&a->lx, s, "unknown instruction '%.40s...'", s);
    if (a->lx.p < a->lx.end && !isspace((unsigned char)*a->lx.p) && *a->lx.p != ';')
        return lex_fail(&a->lx, a->lx.p, "unexpected '%s' in instruction name", lex_quote(a->lx.p, a->lx.end, q, sizeof q));

    char full[48], canon[48], notype[48];
    memcpy(full, s, n);
    full[n] = 0;
    m->cmp = m->shfl = m->atom = -1;
    m->vec = 1;
    m->type = TYPE_NONE;

    const char *dot = memchr(full, '.', n);
    size_t headn = dot ? (size_t)(dot - full) : n;
    /* A part names a modifier only where the head's family takes that kind:
    ** "add.v2.s32" is an unknown instruction, not a vector add. */
    uint32_t kinds = opcode_head_mods(full, (uint32_t)headn);
    size_t cn = 0, tn = 0;
    int ntypes = 0; /* cvt.f32.s32 names two types as one opcode; others take one */
    ValueType first_type = TYPE_NONE;
    const char *second_type = NULL;
    size_t second_type_len = 0;
    memcpy(canon, full, headn);
    memcpy(notype, full, headn);
    cn = tn = headn;
    for (const char *t = dot; t; ) {
        const char *ts = t + 1;
        const char *te = memchr(ts, '.', (size_t)(full + n - ts));
        size_t len = te ? (size_t)(te - ts) : (size_t)(full + n - ts);
        int i;
        if (len == 0) return lex_fail(&a->lx, s, "empty modifier in '%s'", full);
        /* Two modifiers of one kind contradict each other (or repeat): the
        ** last one must not silently win. */
        if ((kinds & OPM_CMP) && (i = name_index(CMP_NAMES, CMP_MINI_COUNT, ts, len)) >= 0) {
            if (m->cmp >= 0) return two_modifiers(a, s, full, "comparisons", CMP_NAMES[m->cmp], ts, len);
            m->cmp = i;
        } else if ((kinds & OPM_SHFL) && (i = name_index(SHFL_NAMES, SHFL_COUNT, ts, len)) >= 0) {
            if (m->shfl >= 0) return two_modifiers(a, s, full, "shuffle modes", SHFL_NAMES[m->shfl], ts, len);
            m->shfl = i;
        } else if ((kinds & OPM_ATOM) && (i = name_index(ATOM_NAMES, ATOM_MINI_COUNT, ts, len)) >= 0) {
            if (m->atom >= 0) return two_modifiers(a, s, full, "atomic operations", ATOM_NAMES[m->atom], ts, len);
            m->atom = i;
        } else if ((kinds & OPM_VEC) && len == 2 && ts[0] == 'v' && (ts[1] == '2' || ts[1] == '4')) {
            if (m->vec > 1) return two_modifiers(a, s, full, "vector widths", m->vec == 2 ? "v2" : "v4", ts, len);
            m->vec = (uint32_t)(ts[1] - '0');
        } else {
            ValueType ty = type_of(ts, len);
            if (ty != TYPE_NONE && ntypes++ == 0) first_type = ty, second_type = ts, second_type_len = len;
            else if (ty != TYPE_NONE && ntypes == 2) second_type = ts, second_type_len = len;
            if ((kinds & OPM_ATOM) && ty == TYPE_B32) ty = TYPE_U32, ts = "u32"; /* PTX spells exch, cas .b32 */
            canon[cn++] = '.';
            memcpy(canon + cn, ts, len);
            cn += len;
            if (ty != TYPE_NONE) {
                m->type = ty;
            } else {
                notype[tn++] = '.';
                memcpy(notype + tn, ts, len);
                tn += len;
            }
        }
        t = te;
    }
    canon[cn] = 0;
    notype[tn] = 0;
    m->op = opcode_lookup(canon, (uint32_t)cn);
    if (m->op != OP_COUNT && (OP_INFO[m->op].flags & OPF_PTX)) m->op = OP_COUNT; /* PTX's rows, not this ISA's */
    if (m->op == OP_COUNT && m->type != TYPE_NONE) {
        m->op = opcode_lookup(notype, (uint32_t)tn);
        if (m->op != OP_COUNT && !(OP_INFO[m->op].mods & OPM_TYPE)) m->op = OP_COUNT;
        if (m->op != OP_COUNT && (OP_INFO[m->op].flags & OPF_PTX)) m->op = OP_COUNT;
        if (m->op != OP_COUNT && ntypes > 1)
            return two_modifiers(a, s, full, "types", TYPE_NAMES[first_type], second_type, second_type_len);
    }
    if (m->op == OP_COUNT) {
        DiagNear near = diag_near_start(canon, 3, false);
        for (int i = 0; i < OP_COUNT; i++)
            if (!(OP_INFO[i].flags & OPF_PTX)) diag_near_offer(&near, OP_INFO[i].mnemonic);
        if (near.best) return lex_fail(&a->lx, s, "unknown instruction '%s'; did you mean '%s'?", full, near.best);
        return lex_fail(&a->lx, s, "unknown instruction '%s'; expected an opcode of isa/ISA.md", full);
    }
    const OpInfo *info = &OP_INFO[m->op];
    if ((info->mods & OPM_CMP) && m->cmp < 0)
        return lex_fail(&a->lx, s, "'%s' needs a comparison: .eq .ne .lt .le .gt or .ge", full);
    if ((info->mods & OPM_SHFL) && m->shfl < 0)
        return lex_fail(&a->lx, s, "'%s' needs a mode: .idx .up .down or .bfly", full);
    if ((info->mods & OPM_ATOM) && m->atom < 0)
        return lex_fail(&a->lx, s, "'%s' needs an operation: .add .min .max .exch or .cas", full);
    if ((info->mods & OPM_ATOM) && !(info->atoms >> m->atom & 1)) {
        char allowed[256];
        atom_choices(m->op, allowed, sizeof allowed);
        return lex_fail(&a->lx, s, "'%s': .%s is not available for this type (%s)", full, ATOM_NAMES[m->atom], allowed);
    }
    /* A family may take a kind that one of its rows does not (ld.param). */
    if (m->cmp >= 0 && !(info->mods & OPM_CMP)) return lex_fail(&a->lx, s, "'%s' takes no comparison", full);
    if (m->shfl >= 0 && !(info->mods & OPM_SHFL)) return lex_fail(&a->lx, s, "'%s' takes no shuffle mode", full);
    if (m->atom >= 0 && !(info->mods & OPM_ATOM)) return lex_fail(&a->lx, s, "'%s' takes no atomic operation", full);
    if (m->vec > 1 && !(info->mods & OPM_VEC)) return lex_fail(&a->lx, s, "'%s' takes no vector width", full);
    if (m->type == TYPE_NONE && (info->mods & OPM_TYPE)) m->type = TYPE_B32;
    return true;
}

/* --------------------------------------------------------------- instruction */

/* [name]: a kernel parameter, as its index in src. */
static bool parse_param(Asm *a, Operand *src)
{
    if (!lex_expect(&a->lx, '[', "before the parameter name")) return false;
    lex_skip_space(&a->lx);
    const char *s = a->lx.p;
    char name[ISA_MAX_NAME];
    if (!lex_ident(&a->lx, name, ISA_MAX_NAME, "a parameter name")) return false;
    uint32_t i = 0;
    while (i < a->k->nparams && strcmp(a->k->params[i].name, name) != 0) i++;
    if (i == a->k->nparams)
        return lex_fail(&a->lx, s, "unknown parameter '%s'; declare it first with .param .u32 %s", name, name);
    src->kind = OPND_IMM;
    src->value = i;
    return lex_expect(&a->lx, ']', "after the parameter name");
}

/* A branch's label, recorded for the instruction being assembled and
** resolved when its kernel ends. */
static bool parse_label_ref(Asm *a)
{
    lex_skip_space(&a->lx);
    const char *s = a->lx.p;
    if (!grow_array((void **)&a->refs, &a->refs_cap, a->nrefs + 1, sizeof *a->refs))
        return lex_fail(&a->lx, s, "out of memory");
    LabelRef *r = &a->refs[a->nrefs];
    if (!lex_ident(&a->lx, r->name, ISA_MAX_NAME, "a label")) return false;
    r->instr = a->k->ncode;
    r->line = a->lx.line;
    r->col = lex_col(&a->lx, s);
    a->nrefs++;
    return true;
}

static bool parse_operands(Asm *a, const Mnemonic *m, Instr *in, const char *mn)
{
    const OpInfo *info = &OP_INFO[m->op];
    bool f32 = opcode_value_type(m->op, (ValueType)in->type) == TYPE_F32; /* also mov.f32 %r1, 1.5 */
    uint32_t fl = (f32 ? SRC_FLOAT : 0) | (info->flags & OPF_SPECIAL_SRC ? SRC_SPECIAL : 0);
    switch (info->format) {
    case FMT_NONE:
        break;
    case FMT_DA:
        in->ndst = 1, in->nsrc = 1;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_src(a, fl, &in->src[0])) return false;
        break;
    case FMT_DAB:
        in->ndst = 1, in->nsrc = 2;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_src(a, fl, &in->src[0]) ||
            !comma(a, mn) || !parse_src(a, fl, &in->src[1])) return false;
        break;
    case FMT_DABC:
        in->ndst = 1, in->nsrc = 3;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_src(a, fl, &in->src[0]) ||
            !comma(a, mn) || !parse_src(a, fl, &in->src[1]) || !comma(a, mn) || !parse_src(a, fl, &in->src[2]))
            return false;
        break;
    case FMT_SETP:
        in->ndst = 1, in->nsrc = 2;
        if (!parse_pred(a, &in->dst[0], false) || !comma(a, mn) || !parse_src(a, fl, &in->src[0]) ||
            !comma(a, mn) || !parse_src(a, fl, &in->src[1])) return false;
        break;
    case FMT_SELP: {
        in->ndst = 1, in->nsrc = 3;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_src(a, fl, &in->src[0]) ||
            !comma(a, mn) || !parse_src(a, fl, &in->src[1]) || !comma(a, mn) || !parse_pred(a, &in->src[2], true))
            return false;
        break;
    }
    case FMT_PP:
        in->ndst = 1, in->nsrc = 1;
        if (!parse_pred(a, &in->dst[0], false) || !comma(a, mn) || !parse_pred(a, &in->src[0], true)) return false;
        break;
    case FMT_PPP:
        in->ndst = 1, in->nsrc = 2;
        if (!parse_pred(a, &in->dst[0], false) || !comma(a, mn) || !parse_pred(a, &in->src[0], true) ||
            !comma(a, mn) || !parse_pred(a, &in->src[1], true)) return false;
        break;
    case FMT_PARAM:
        in->ndst = 1, in->nsrc = 1;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_param(a, &in->src[0])) return false;
        break;
    case FMT_LD:
        in->ndst = (uint8_t)m->vec, in->nsrc = 1;
        if (!parse_reg_list(a, m->vec, in->dst) || !comma(a, mn) || !parse_mem(a, &in->src[0], &in->offset))
            return false;
        break;
    case FMT_ST:
        in->ndst = 0, in->nsrc = (uint8_t)(1 + m->vec);
        if (!parse_mem(a, &in->src[0], &in->offset) || !comma(a, mn) ||
            !parse_src_list(a, m->vec, fl, &in->src[1]))
            return false;
        break;
    case FMT_ATOM:
        in->ndst = 1, in->nsrc = (uint8_t)(m->atom == ATOM_CAS ? 3 : 2);
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_mem(a, &in->src[0], &in->offset) ||
            !comma(a, mn) || !parse_src(a, fl, &in->src[1])) return false;
        if (m->atom == ATOM_CAS && (!comma(a, mn) || !parse_src(a, fl, &in->src[2]))) return false;
        break;
    case FMT_SHFL:
        in->ndst = 1, in->nsrc = 4;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_src(a, 0, &in->src[0]) ||
            !comma(a, mn) || !parse_src(a, 0, &in->src[1])) return false;
        /* PTX's packed c operand: clamp in bits 0-4, segment mask in 8-12. */
        in->src[2].kind = OPND_IMM;
        in->src[2].value = m->shfl == SHFL_UP ? 0 : 31;
        in->src[3].kind = OPND_IMM;
        in->src[3].value = 0xffffffffu;
        if (lex_accept(&a->lx, ',')) {
            if (!parse_src(a, 0, &in->src[2])) return false;
            if (lex_accept(&a->lx, ',') && !parse_src(a, 0, &in->src[3])) return false;
        }
        break;
    case FMT_VOTE:
        in->ndst = 1, in->nsrc = 1;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_pred(a, &in->src[0], true)) return false;
        break;
    case FMT_L:
        if (!parse_label_ref(a)) return false;
        break;
    case FMT_UNPACK:
    case FMT_DABCD:
    case FMT_TESTP:
    case FMT_D:
    case FMT_A:
    case FMT_ABCD:
    case FMT_TEX: /* PTX-only shapes: parse_mnemonic never yields their rows */
        return lex_fail(&a->lx, a->lx.p, "'%s' is a PTX instruction", mn);
    case FMT_BAR:
        lex_skip_space(&a->lx);
        if (a->lx.p < a->lx.end && *a->lx.p != ';') {
            int64_t id;
            const char *s = a->lx.p;
            if (!lex_int32(&a->lx, &id)) return false;
            if (id != 0) return lex_fail(&a->lx, s, "only barrier 0 exists in this ISA; found %lld", (long long)id);
        }
        break;
    }
    return true;
}

static bool parse_instruction(Asm *a)
{
    const char *start = a->lx.p;
    if (!a->k) return lex_fail(&a->lx, start, "instruction outside a kernel; start one with '.kernel NAME'");
    Instr in;
    memset(&in, 0, sizeof in);
    in.guard = ISA_NO_GUARD;
    in.line = a->lx.line;
    in.col = lex_col(&a->lx, start);
    in.vec = 1;
    in.reconv = ISA_NO_RECONV;
    in.slots = 1; /* a mini-ISA instruction is one SASS instruction on its row's unit */
    if (*a->lx.p == '@') {
        a->lx.p++;
        if (a->lx.p < a->lx.end && *a->lx.p == '!') {
            in.guard_neg = 1;
            a->lx.p++;
        }
        uint16_t pi = 0;
        if (!parse_reg_index(a, 'p', ASM_MAX_PREDS, &pi)) return false;
        in.guard = (uint8_t)pi;
        if (pi + 1u > a->k->preds_used) a->k->preds_used = pi + 1u;
    }
    Mnemonic m = { .op = OP_COUNT, .cmp = -1, .shfl = -1, .atom = -1, .vec = 1 };
    if (!parse_mnemonic(a, &m)) return false;
    in.op = (uint8_t)m.op;
    in.mod = (uint8_t)(m.cmp >= 0 ? m.cmp : m.shfl >= 0 ? m.shfl : m.atom >= 0 ? m.atom : 0);
    in.vec = (uint8_t)m.vec;
    in.type = (uint8_t)m.type;
    in.lunit = in.llat = (uint8_t)OP_INFO[m.op].unit;
    char mn[48];
    snprintf(mn, sizeof mn, "%s", OP_INFO[m.op].mnemonic);
    if (in.op == OP_BAR_SYNC && in.guard != ISA_NO_GUARD)
        return lex_fail(&a->lx, start, "'bar.sync' cannot be predicated: every thread of the block must reach it");
    if (!parse_operands(a, &m, &in, mn)) return false;
    lex_skip_space(&a->lx);
    if (a->lx.p < a->lx.end && *a->lx.p == ';') a->lx.p++;
    if (!lex_at_end(&a->lx)) {
        char q[64];
        if (*a->lx.p == ',')
            return lex_fail(&a->lx, a->lx.p, "too many operands for '%s'", mn);
        return lex_fail(&a->lx, a->lx.p, "unexpected '%s' after the operands of '%s'", lex_quote(a->lx.p, a->lx.end, q, sizeof q), mn);
    }
    if (!grow_array((void **)&a->k->code, &a->code_cap, a->k->ncode + 1, sizeof in))
        return lex_fail(&a->lx, start, "out of memory");
    a->k->code[a->k->ncode++] = in;
    return true;
}

/* -------------------------------------------------------------- directives */

static bool finish_kernel(Asm *a)
{
    Kernel *k = a->k;
    if (!k) return true;
    if (k->ncode == 0) {
        diag_set(a->lx.d, a->lx.file, k->line, 1, "kernel '%s' has no instructions", k->name);
        return false;
    }
    for (uint32_t i = 0; i < a->nrefs; i++) {
        LabelRef *r = &a->refs[i];
        uint32_t j = label_find(a, r->name);
        if (j == UINT32_MAX) {
            diag_set(a->lx.d, a->lx.file, r->line, r->col, "unknown label '%s' in kernel '%s'", r->name, k->name);
            return false;
        }
        if (k->labels[j].pc >= k->ncode) {
            diag_set(a->lx.d, a->lx.file, r->line, r->col, "label '%s' is at the end of kernel '%s' with no instruction after it",
                     r->name, k->name);
            return false;
        }
        k->code[r->instr].target = k->labels[j].pc;
    }
    uint32_t dyn_off = (k->static_smem + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN;
    k->dynamic_smem_offset = dyn_off;
    /* The dynamic array sits after all statics (its offset was final when declared). */
    for (uint32_t i = 0; i < k->nshared; i++)
        if (k->shared[i].size == 0) k->shared[i].offset = dyn_off;
    a->nrefs = 0;
    a->k = NULL;
    /* The arrays grew by doubling; a file of many small kernels keeps only what they use. */
    Instr *code = realloc(k->code, k->ncode * sizeof *code);
    if (code) k->code = code;
    if (k->nlabels) {
        Label *labels = realloc(k->labels, k->nlabels * sizeof *labels);
        if (labels) k->labels = labels;
    }
    return cfg_analyze(k, a->lx.file, a->lx.d);
}

static bool directive(Asm *a)
{
    const char *s = a->lx.p;
    a->lx.p++; /* '.' */
    char name[ISA_MAX_NAME];
    if (!lex_ident(&a->lx, name, ISA_MAX_NAME, "a directive name")) return false;
    if (strcmp(name, "kernel") == 0 || strcmp(name, "entry") == 0) {
        if (!finish_kernel(a)) return false;
        char kname[ISA_MAX_NAME];
        if (!lex_ident(&a->lx, kname, ISA_MAX_NAME, "a kernel name after .kernel")) return false;
        uint32_t twice = names_find(&a->kernels, kname, strlen(kname), kernel_name, a->prog);
        if (twice != NAMES_NONE)
            return lex_fail(&a->lx, s, "kernel '%s' defined twice (first at line %u)", kname, a->prog->kernels[twice].line);
        if (!grow_array((void **)&a->prog->kernels, &a->kernels_cap, a->prog->nkernels + 1, sizeof(Kernel)))
            return lex_fail(&a->lx, s, "out of memory");
        a->k = &a->prog->kernels[a->prog->nkernels];
        memset(a->k, 0, sizeof *a->k);
        snprintf(a->k->name, sizeof a->k->name, "%s", kname);
        if (!names_add(&a->kernels, a->prog->nkernels, kernel_name, a->prog)) return lex_fail(&a->lx, s, "out of memory");
        a->prog->nkernels++;
        a->k->line = a->lx.line;
        a->code_cap = a->label_cap = a->shared_cap = 0;
        names_clear(&a->labels);
        a->have_dynamic = false;
    } else if (!a->k) {
        return lex_fail(&a->lx, s, "'.%s' outside a kernel; start one with '.kernel NAME'", name);
    } else if (strcmp(name, "param") == 0) {
        if (a->k->nparams == ISA_MAX_PARAMS) return lex_fail(&a->lx, s, "too many parameters (at most %d)", ISA_MAX_PARAMS);
        if (!lex_expect(&a->lx, '.', "before the parameter type (.u32 .s32 .f32 .ptr)")) return false;
        const char *ts = a->lx.p;
        char tname[ISA_MAX_NAME];
        if (!lex_ident(&a->lx, tname, ISA_MAX_NAME, "a parameter type")) return false;
        KernelParam *pp = program_add_param(a->k);
        if (!pp) return lex_fail(&a->lx, s, "out of memory");
        pp->is_ptr = strcmp(tname, "ptr") == 0;
        pp->type = pp->is_ptr ? TYPE_B32 : type_of(tname, strlen(tname));
        if (pp->type == TYPE_NONE || pp->type == TYPE_B32) {
            if (!pp->is_ptr) return lex_fail(&a->lx, ts, "unknown parameter type '.%s'; expected .u32 .s32 .f32 or .ptr", tname);
        }
        lex_skip_space(&a->lx); /* positions point at the name, not the blank before it */
        const char *ns = a->lx.p;
        if (!lex_ident(&a->lx, pp->name, ISA_MAX_NAME, "a parameter name")) return false;
        for (uint32_t i = 0; i < a->k->nparams; i++)
            if (strcmp(a->k->params[i].name, pp->name) == 0)
                return lex_fail(&a->lx, ns, "parameter '%s' declared twice", pp->name);
        pp->offset = 4 * a->k->nparams; /* one 32-bit word each */
        pp->size = 4;
        a->k->nparams++;
        a->k->param_bytes = pp->offset + 4;
    } else if (strcmp(name, "shared") == 0) {
        lex_skip_space(&a->lx); /* positions point at the name, not the blank before it */
        const char *ns = a->lx.p;
        char sname[ISA_MAX_NAME];
        if (!lex_ident(&a->lx, sname, ISA_MAX_NAME, "a shared array name")) return false;
        if (find_shared(a->k, sname)) return lex_fail(&a->lx, ns, "shared array '%s' declared twice", sname);
        if (!grow_array((void **)&a->k->shared, &a->shared_cap, a->k->nshared + 1, sizeof(SharedSymbol)))
            return lex_fail(&a->lx, s, "out of memory");
        SharedSymbol *sym = &a->k->shared[a->k->nshared];
        memset(sym, 0, sizeof *sym);
        snprintf(sym->name, sizeof sym->name, "%s", sname);
        if (lex_at_end(&a->lx)) {
            if (a->have_dynamic) return lex_fail(&a->lx, ns, "only one dynamic (size-less) .shared array per kernel");
            a->have_dynamic = true;
            /* Final already: sized arrays may not follow the dynamic one. */
            sym->offset = (a->k->static_smem + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN;
        } else {
            const char *zs = a->lx.p;
            int64_t size;
            if (!lex_int32(&a->lx, &size)) return false;
            if (size <= 0 || size > (1 << 24))
                return lex_fail(&a->lx, zs, "shared array size %lld out of range (1..16777216 bytes)", (long long)size);
            if (a->have_dynamic)
                return lex_fail(&a->lx, ns, "declare sized .shared arrays before the dynamic one");
            uint32_t off = (a->k->static_smem + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN;
            sym->offset = off;
            sym->size = (uint32_t)size;
            a->k->static_smem = off + (uint32_t)size;
            if (a->k->static_smem > (1u << 24)) return lex_fail(&a->lx, zs, "static shared memory above 16 MiB");
        }
        a->k->nshared++;
    } else if (strcmp(name, "regs") == 0) {
        lex_skip_space(&a->lx); /* positions point at the name, not the blank before it */
        const char *ns = a->lx.p;
        int64_t n;
        if (!lex_int32(&a->lx, &n)) return false;
        if (n < 1 || n > ISA_MAX_REGS) return lex_fail(&a->lx, ns, ".regs %lld out of range (1..%d)", (long long)n, ISA_MAX_REGS);
        a->k->regs_declared = (uint32_t)n;
    } else {
        return lex_fail(&a->lx, s, "unknown directive '.%s'; expected .kernel .param .shared or .regs", name);
    }
    if (!lex_at_end(&a->lx)) {
        char q[64];
        return lex_fail(&a->lx, a->lx.p, "unexpected '%s' after the directive", lex_quote(a->lx.p, a->lx.end, q, sizeof q));
    }
    return true;
}

static bool label_def(Asm *a, const char *name, const char *at)
{
    if (!a->k) return lex_fail(&a->lx, at, "label '%s' outside a kernel", name);
    uint32_t prev = label_find(a, name);
    if (prev != UINT32_MAX)
        return lex_fail(&a->lx, at, "duplicate label '%s' (first defined before instruction %u)", name, a->k->labels[prev].pc);
    if (!grow_array((void **)&a->k->labels, &a->label_cap, a->k->nlabels + 1, sizeof(Label)))
        return lex_fail(&a->lx, at, "out of memory");
    Label *l = &a->k->labels[a->k->nlabels];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->pc = a->k->ncode;
    if (!names_add(&a->labels, a->k->nlabels, label_name, a->k)) return lex_fail(&a->lx, at, "out of memory");
    a->k->nlabels++;
    return true;
}

/* One source line (without its newline). */
static bool parse_line(Asm *a)
{
    /* Comments run from "//" to the end of the line. */
    for (const char *c = a->lx.p; c + 1 < a->lx.end; c++)
        if (c[0] == '/' && c[1] == '/') {
            a->lx.end = c;
            break;
        }
    if (a->lx.end > a->lx.p && a->lx.end[-1] == '\r') a->lx.end--;
    if (lex_at_end(&a->lx)) return true;
    if (*a->lx.p == '.') return directive(a);
    if (lex_ident_start(*a->lx.p)) {
        /* A label is an identifier followed by ':'. */
        const char *s = a->lx.p, *e = s;
        while (e < a->lx.end && lex_ident_char(*e)) e++;
        const char *after = e;
        while (after < a->lx.end && (*after == ' ' || *after == '\t')) after++;
        if (after < a->lx.end && *after == ':') {
            char name[ISA_MAX_NAME];
            if (!lex_ident(&a->lx, name, ISA_MAX_NAME, "a label")) return false;
            if (!label_def(a, name, s)) return false;
            a->lx.p = after + 1;
            if (lex_at_end(&a->lx)) return true;
        }
    }
    if (*a->lx.p == '@' || lex_ident_start(*a->lx.p)) return parse_instruction(a);
    char q[64];
    return lex_fail(&a->lx, a->lx.p, "expected an instruction, a label or a directive, found '%s'", lex_quote(a->lx.p, a->lx.end, q, sizeof q));
}

bool asm_parse(const char *text, size_t len, const char *file, Program *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    Asm a;
    memset(&a, 0, sizeof a);
    a.lx.file = file ? file : "<input>";
    a.lx.d = d;
    a.prog = out;
    out->file = strdup(a.lx.file);
    bool ok = out->file != NULL;
    if (!ok) diag_set(d, a.lx.file, 0, 0, "out of memory");
    const char *p = text, *end = text + len;
    for (uint32_t line = 1; ok && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        a.lx.line = line;
        a.lx.line_start = a.lx.p = p;
        a.lx.end = le;
        ok = parse_line(&a);
        p = nl ? nl + 1 : end;
        if (line == UINT32_MAX) {
            diag_set(d, a.lx.file, line, 1, "too many lines");
            ok = false;
        }
    }
    if (ok) ok = finish_kernel(&a);
    if (ok && out->nkernels == 0) {
        diag_set(d, a.lx.file, 1, 1, "no kernel in file; a program starts with '.kernel NAME'");
        ok = false;
    }
    free(a.refs);
    names_free(&a.labels);
    names_free(&a.kernels);
    if (!ok) program_destroy(out);
    return ok;
}

bool asm_parse_file(const char *path, Program *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    char *buf, why[256];
    size_t len;
    FileReadStatus st = file_read(path, ASM_MAX_FILE_BYTES, &buf, &len, why, sizeof why);
    if (st != FILE_READ_OK) {
        diag_set(d, path, 0, 0, st == FILE_READ_CANNOT_OPEN ? "cannot open: %s" : "%s", why);
        return false;
    }
    bool ok = asm_parse(buf, len, path, out, d);
    free(buf);
    return ok;
}
