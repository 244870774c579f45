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
#include "isa/cfg.h"

#define SHARED_ALIGN 16u /* every .shared array starts 16-byte aligned (float4) */

typedef struct {
    uint32_t instr;           /* index of the branch in the kernel */
    char     name[ISA_MAX_NAME];
    uint32_t line, col;
} LabelRef;

typedef struct {
    const char *file;
    Diag       *d;
    Program    *prog;
    /* cursor over the current line */
    const char *line_start, *p, *end;
    uint32_t    line;
    /* the kernel being built (NULL outside any kernel) */
    Kernel     *k;
    uint32_t    code_cap, label_cap, shared_cap;
    LabelRef   *refs;
    uint32_t    nrefs, refs_cap;
    uint32_t   *lhash;            /* label name -> index + 1 in k->labels (0 empty) */
    uint32_t    lhash_cap;        /* power of two, at least twice nlabels           */
    bool        have_dynamic;
} Asm;

/* ------------------------------------------------------------------ errors */

static uint32_t col_of(const Asm *a, const char *at)
{
    return (uint32_t)(at - a->line_start) + 1;
}

/* Quotes at most 32 bytes of the source at `at`, escaping non-printables. */
static const char *quote(const char *at, const char *end, char *buf, size_t cap)
{
    size_t n = 0;
    for (const char *s = at; s < end && n + 5 < cap && s - at < 32; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == ',' && s != at) break;
        if (isspace(ch) && s != at) break;
        if (isprint(ch)) buf[n++] = (char)ch;
        else n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", ch);
    }
    if (n == 0) {
        snprintf(buf, cap, "end of line");
        return buf;
    }
    buf[n] = 0;
    return buf;
}

static bool fail_at(Asm *a, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail_at(Asm *a, const char *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_setv(a->d, a->file, a->line, col_of(a, at), fmt, ap);
    va_end(ap);
    return false;
}

/* ----------------------------------------------------------------- scanning */

static void skip_space(Asm *a)
{
    while (a->p < a->end && (*a->p == ' ' || *a->p == '\t')) a->p++;
}

static bool at_end(Asm *a)
{
    skip_space(a);
    return a->p >= a->end;
}

static bool is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Reads an identifier ([A-Za-z_][A-Za-z0-9_$]*) into buf. */
static bool read_ident(Asm *a, char *buf, const char *what)
{
    skip_space(a);
    const char *s = a->p;
    char q[64];
    if (s >= a->end || !is_ident_start(*s))
        return fail_at(a, s, "expected %s, found '%s'", what, quote(s, a->end, q, sizeof q));
    while (a->p < a->end && is_ident_char(*a->p)) a->p++;
    size_t n = (size_t)(a->p - s);
    if (n >= ISA_MAX_NAME)
        return fail_at(a, s, "name too long (%zu characters, at most %d)", n, ISA_MAX_NAME - 1);
    memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

static bool expect_char(Asm *a, char c, const char *context)
{
    skip_space(a);
    char q[64];
    if (a->p >= a->end || *a->p != c)
        return fail_at(a, a->p, "expected '%c' %s, found '%s'", c, context,
                       quote(a->p, a->end, q, sizeof q));
    a->p++;
    return true;
}

static bool accept_char(Asm *a, char c)
{
    skip_space(a);
    if (a->p < a->end && *a->p == c) {
        a->p++;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ growable arrays */

static bool grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint32_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need) ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n) return false;
    *arr = n;
    *cap = ncap;
    return true;
}

/* Open-addressing index of the current kernel's label names, so that
** defining and resolving labels stays linear on huge kernels. */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

/* Slot of `name` in the index: its entry, or the empty slot where it goes. */
static uint32_t *label_slot(const Asm *a, const char *name)
{
    uint32_t i = name_hash(name) & (a->lhash_cap - 1);
    while (a->lhash[i] && strcmp(a->k->labels[a->lhash[i] - 1].name, name) != 0)
        i = (i + 1) & (a->lhash_cap - 1);
    return &a->lhash[i];
}

/* Index in k->labels of `name`, or UINT32_MAX. */
static uint32_t label_find(const Asm *a, const char *name)
{
    if (!a->lhash_cap) return UINT32_MAX;
    uint32_t e = *label_slot(a, name);
    return e ? e - 1 : UINT32_MAX;
}

/* Adds k->labels[idx] to the index (the name is known to be new). */
static bool label_index_add(Asm *a, uint32_t idx)
{
    if (2 * (idx + 1) > a->lhash_cap) {
        uint32_t ncap = a->lhash_cap ? a->lhash_cap * 2 : 64;
        uint32_t *nh = calloc(ncap, sizeof *nh);
        if (!nh) return false;
        free(a->lhash);
        a->lhash = nh;
        a->lhash_cap = ncap;
        for (uint32_t i = 0; i < idx; i++) *label_slot(a, a->k->labels[i].name) = i + 1;
    }
    *label_slot(a, a->k->labels[idx].name) = idx + 1;
    return true;
}

/* ----------------------------------------------------------------- numbers */

/* Parses an integer literal (decimal or 0x hex, optional sign) that must fit
** 32 bits as signed or unsigned. */
static bool parse_int(Asm *a, int64_t *out)
{
    skip_space(a);
    const char *s = a->p;
    char buf[48], q[64];
    size_t n = 0;
    while (a->p < a->end && (isalnum((unsigned char)*a->p) || *a->p == '-' || *a->p == '+') && n < sizeof buf - 1) {
        if ((*a->p == '-' || *a->p == '+') && n > 0) break;
        buf[n++] = *a->p++;
    }
    buf[n] = 0;
    if (n == 0 || n >= sizeof buf - 1)
        return fail_at(a, s, "expected an integer, found '%s'", quote(s, a->end, q, sizeof q));
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 0);
    if (*endp || errno)
        return fail_at(a, s, "expected an integer, found '%s'", quote(s, a->end, q, sizeof q));
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
        return fail_at(a, s, "integer %s does not fit in 32 bits", buf);
    *out = v;
    return true;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Parses a numeric immediate: integers, decimal floats (1.5, -2e-3, inf,
** nan) and raw float bits (0f3F800000). Floats are accepted only when
** `is_float`; integers given to float instructions are converted. */
static bool parse_number(Asm *a, bool is_float, uint32_t *out)
{
    skip_space(a);
    const char *s = a->p;
    char buf[64], q[64];
    size_t n = 0;
    while (a->p < a->end && n < sizeof buf - 1) {
        char c = *a->p;
        bool exp_sign = (c == '-' || c == '+') && n > 0 && (buf[n - 1] == 'e' || buf[n - 1] == 'E') &&
                        !(n > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'));
        if (!(isalnum((unsigned char)c) || c == '.' || ((c == '-' || c == '+') && n == 0) || exp_sign)) break;
        buf[n++] = c;
        a->p++;
    }
    buf[n] = 0;
    if (n == 0 || n == sizeof buf - 1)
        return fail_at(a, s, "expected a number, found '%s'", quote(s, a->end, q, sizeof q));
    const char *digits = buf + (buf[0] == '-' || buf[0] == '+');
    bool raw_bits = (digits[0] == '0' && (digits[1] == 'f' || digits[1] == 'F') && digits == buf);
    bool looks_float = !raw_bits && !(digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) &&
                       (strpbrk(digits, ".eE") != NULL || strcmp(digits, "inf") == 0 || strcmp(digits, "nan") == 0);
    if (raw_bits) {
        if (!is_float) return fail_at(a, s, "float literal '%s' given to an integer instruction", buf);
        if (strlen(buf) != 10) return fail_at(a, s, "raw float '%s' needs exactly 8 hex digits after 0f", buf);
        char *endp;
        unsigned long v = strtoul(buf + 2, &endp, 16);
        if (*endp) return fail_at(a, s, "raw float '%s' needs exactly 8 hex digits after 0f", buf);
        *out = (uint32_t)v;
        return true;
    }
    if (looks_float) {
        if (!is_float) return fail_at(a, s, "float literal '%s' given to an integer instruction; expected an integer", buf);
        char *endp;
        float f = strtof(buf, &endp);
        if (*endp) return fail_at(a, s, "expected a number, found '%s'", buf);
        /* a finite literal too large for f32 would silently become inf */
        if (isinf(f) && !strchr(digits, 'i') && !strchr(digits, 'I'))
            return fail_at(a, s, "float literal '%s' is beyond the f32 range (largest finite 3.4028235e38); "
                                 "write inf or 0f7F800000 for infinity", buf);
        *out = f32_bits(f);
        return true;
    }
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 0);
    if (*endp || errno)
        return fail_at(a, s, "expected a number, found '%s'", quote(s, a->end, q, sizeof q));
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
        return fail_at(a, s, "integer %s does not fit in 32 bits", buf);
    *out = is_float ? f32_bits((float)v) : (uint32_t)v;
    return true;
}

/* --------------------------------------------------------------- operands */

static bool parse_reg_index(Asm *a, char letter, uint32_t limit, uint16_t *out)
{
    skip_space(a);
    const char *s = a->p;
    char q[64];
    if (a->end - s < 3 || s[0] != '%' || s[1] != letter || !isdigit((unsigned char)s[2]))
        return fail_at(a, s, "expected a %s %%%c0..%%%c%u, found '%s'",
                       letter == 'r' ? "register" : "predicate", letter, letter, limit - 1,
                       quote(s, a->end, q, sizeof q));
    a->p = s + 2;
    uint32_t v = 0;
    while (a->p < a->end && isdigit((unsigned char)*a->p)) {
        v = v * 10 + (uint32_t)(*a->p - '0');
        if (v > 100000) v = 100000;
        a->p++;
    }
    if (a->p < a->end && is_ident_char(*a->p))
        return fail_at(a, s, "malformed register '%s'", quote(s, a->end, q, sizeof q));
    if (v >= limit) /* quoted as written: v saturates on absurdly long numbers */
        return fail_at(a, s, "%s %s out of range (%%%c0..%%%c%u)",
                       letter == 'r' ? "register" : "predicate", quote(s, a->end, q, sizeof q), letter, letter,
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
    skip_space(a);
    if (allow_not && a->p < a->end && *a->p == '!') {
        o->neg = 1;
        a->p++;
    }
    if (!parse_reg_index(a, 'p', ISA_MAX_PREDS, &o->index)) return false;
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
    skip_space(a);
    /* inf and nan are numbers; "info" or "nanos" are symbols. */
    bool inf_nan = a->end - a->p >= 3 && (memcmp(a->p, "inf", 3) == 0 || memcmp(a->p, "nan", 3) == 0) &&
                   (a->end - a->p == 3 || !is_ident_char(a->p[3]));
    if (a->p < a->end && is_ident_start(*a->p) && !inf_nan) {
        const char *s = a->p;
        char name[ISA_MAX_NAME];
        if (!read_ident(a, name, "a symbol")) return false;
        const SharedSymbol *sym = find_shared(a->k, name);
        if (!sym)
            return fail_at(a, s, "unknown symbol '%s'; expected a register, a number or a .shared array name", name);
        *out = sym->offset;
        return true;
    }
    return parse_number(a, is_float, out);
}

static bool parse_special(Asm *a, Operand *o)
{
    const char *s = a->p; /* at '%' */
    char q[64];
    for (int i = 0; i < SREG_COUNT; i++) {
        size_t n = strlen(SREG_NAMES[i]);
        if ((size_t)(a->end - s) > n && memcmp(s + 1, SREG_NAMES[i], n) == 0 &&
            (s + 1 + n == a->end || !(is_ident_char(s[1 + n]) || s[1 + n] == '.'))) {
            memset(o, 0, sizeof *o);
            o->kind = OPND_SPECIAL;
            o->index = (uint16_t)i;
            a->p = s + 1 + n;
            return true;
        }
    }
    return fail_at(a, s, "unknown special register '%s'; expected %%tid.x/y/z, %%ntid.*, %%ctaid.*, %%nctaid.*, "
                         "%%laneid, %%warpid, %%smid, %%nsmid or %%clock", quote(s, a->end, q, sizeof q));
}

/* How a source is read: SRC_FLOAT, immediates are floats (the instruction
** works in f32); SRC_SPECIAL, a special register may be named. */
enum { SRC_FLOAT = 1u << 0, SRC_SPECIAL = 1u << 1 };

/* Source operand: register, immediate/symbol, or (mov only) special register. */
static bool parse_src(Asm *a, uint32_t flags, Operand *o)
{
    skip_space(a);
    memset(o, 0, sizeof *o);
    if (a->p < a->end && *a->p == '%') {
        if (a->end - a->p >= 3 && a->p[1] == 'r' && isdigit((unsigned char)a->p[2])) return parse_reg(a, o);
        if (a->end - a->p >= 3 && a->p[1] == 'p' && isdigit((unsigned char)a->p[2]))
            return fail_at(a, a->p, "a predicate cannot be used here; expected a register or an immediate");
        if (!(flags & SRC_SPECIAL))
            return fail_at(a, a->p, "special registers can only be read with mov; expected a register or an immediate");
        return parse_special(a, o);
    }
    o->kind = OPND_IMM;
    return parse_const(a, flags & SRC_FLOAT, &o->value);
}

/* Memory operand: '[' term { ('+'|'-') term } ']' with at most one register
** term (added, not subtracted); the rest are summed into the displacement. */
static bool parse_mem(Asm *a, Operand *base, int32_t *offset)
{
    if (!expect_char(a, '[', "to open a memory operand")) return false;
    memset(base, 0, sizeof *base);
    base->kind = OPND_IMM;
    bool have_reg = false;
    int64_t sum = 0;
    bool negate = false;
    for (;;) {
        skip_space(a);
        const char *s = a->p;
        if (a->p < a->end && *a->p == '%') {
            if (have_reg) return fail_at(a, s, "only one register may appear in an address");
            if (negate) return fail_at(a, s, "a register cannot be subtracted in an address");
            if (!parse_reg(a, base)) return false;
            have_reg = true;
        } else {
            uint32_t v;
            if (!parse_const(a, false, &v)) return false;
            int64_t sv = (int64_t)(int32_t)v;
            if (v > INT32_MAX && s[0] != '-') sv = (int64_t)v;
            sum += negate ? -sv : sv;
            if (sum < INT32_MIN || sum > (int64_t)UINT32_MAX)
                return fail_at(a, s, "address displacement out of 32-bit range");
        }
        skip_space(a);
        if (a->p < a->end && (*a->p == '+' || *a->p == '-')) {
            negate = (*a->p == '-');
            a->p++;
            continue;
        }
        break;
    }
    if (!expect_char(a, ']', "to close the memory operand")) return false;
    if (have_reg) {
        if (sum < INT32_MIN || sum > INT32_MAX) return fail_at(a, a->p, "address displacement out of range");
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
    skip_space(a);
    if (vec == 1) {
        if (a->p < a->end && *a->p == '{')
            return fail_at(a, a->p, "a register list needs .v2 or .v4 on the instruction");
        return parse_reg(a, &regs[0]);
    }
    if (!expect_char(a, '{', "to open a vector register list (.v2/.v4)")) return false;
    for (uint32_t i = 0; i < vec; i++) {
        if (i && !expect_char(a, ',', "between vector registers")) return false;
        if (!parse_reg(a, &regs[i])) return false;
    }
    skip_space(a);
    if (a->p < a->end && *a->p == ',')
        return fail_at(a, a->p, "too many registers in the list: .v%u takes %u", vec, vec);
    return expect_char(a, '}', "to close the register list");
}

/* Vector stores may also take immediates (st.shared.v2 [..], {0, 0}). */
static bool parse_src_list(Asm *a, uint32_t vec, uint32_t flags, Operand *srcs)
{
    skip_space(a);
    if (vec == 1) return parse_src(a, flags & ~SRC_SPECIAL, &srcs[0]);
    if (!expect_char(a, '{', "to open a vector register list (.v2/.v4)")) return false;
    for (uint32_t i = 0; i < vec; i++) {
        if (i && !expect_char(a, ',', "between vector elements")) return false;
        if (!parse_src(a, flags & ~SRC_SPECIAL, &srcs[i])) return false;
    }
    skip_space(a);
    if (a->p < a->end && *a->p == ',')
        return fail_at(a, a->p, "too many values in the list: .v%u takes %u", vec, vec);
    return expect_char(a, '}', "to close the register list");
}

static bool comma(Asm *a, const char *mnemonic)
{
    skip_space(a);
    char q[64];
    if (a->p >= a->end || *a->p != ',')
        return fail_at(a, a->p, "'%s' needs more operands: expected ',', found '%s'", mnemonic,
                       quote(a->p, a->end, q, sizeof q));
    a->p++;
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
    int i = name_index(TYPE_NAMES + TYPE_B32, TYPE_COUNT - TYPE_B32, s, n);
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
        for (int k = 0; k < ATOM_COUNT; k++)
            if (info->atoms >> k & 1) {
                append(buf, cap, " ");
                append(buf, cap, ATOM_NAMES[k]);
            }
    }
}

/* Splits "setp.lt.s32" into the canonical mnemonic "setp.s32" and its
** modifiers, then looks the canonical form up in the opcode table. */
static bool parse_mnemonic(Asm *a, Mnemonic *m)
{
    skip_space(a);
    const char *s = a->p;
    while (a->p < a->end && (is_ident_char(*a->p) || *a->p == '.')) a->p++;
    size_t n = (size_t)(a->p - s);
    char q[64];
    if (n == 0) return fail_at(a, s, "expected an instruction, found '%s'", quote(s, a->end, q, sizeof q));
    if (n >= 48) return fail_at(a, s, "unknown instruction '%.40s...'", s);
    if (a->p < a->end && !isspace((unsigned char)*a->p) && *a->p != ';')
        return fail_at(a, a->p, "unexpected '%s' in instruction name", quote(a->p, a->end, q, sizeof q));

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
    memcpy(canon, full, headn);
    memcpy(notype, full, headn);
    cn = tn = headn;
    for (const char *t = dot; t; ) {
        const char *ts = t + 1;
        const char *te = memchr(ts, '.', (size_t)(full + n - ts));
        size_t len = te ? (size_t)(te - ts) : (size_t)(full + n - ts);
        int i;
        if (len == 0) return fail_at(a, s, "empty modifier in '%s'", full);
        if ((kinds & OPM_CMP) && (i = name_index(CMP_NAMES, CMP_COUNT, ts, len)) >= 0) m->cmp = i;
        else if ((kinds & OPM_SHFL) && (i = name_index(SHFL_NAMES, SHFL_COUNT, ts, len)) >= 0) m->shfl = i;
        else if ((kinds & OPM_ATOM) && (i = name_index(ATOM_NAMES, ATOM_COUNT, ts, len)) >= 0) m->atom = i;
        else if ((kinds & OPM_VEC) && len == 2 && ts[0] == 'v' && (ts[1] == '2' || ts[1] == '4'))
            m->vec = (uint32_t)(ts[1] - '0');
        else {
            ValueType ty = type_of(ts, len);
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
    if (m->op == OP_COUNT && m->type != TYPE_NONE) {
        m->op = opcode_lookup(notype, (uint32_t)tn);
        if (m->op != OP_COUNT && !(OP_INFO[m->op].mods & OPM_TYPE)) m->op = OP_COUNT;
    }
    if (m->op == OP_COUNT) {
        const char *best = NULL;
        size_t bestd = 4;
        for (int i = 0; i < OP_COUNT; i++) {
            size_t dd = diag_edit_distance(canon, OP_INFO[i].mnemonic);
            if (dd < bestd) bestd = dd, best = OP_INFO[i].mnemonic;
        }
        if (best) return fail_at(a, s, "unknown instruction '%s'; did you mean '%s'?", full, best);
        return fail_at(a, s, "unknown instruction '%s'; expected an opcode of isa/ISA.md", full);
    }
    const OpInfo *info = &OP_INFO[m->op];
    if ((info->mods & OPM_CMP) && m->cmp < 0)
        return fail_at(a, s, "'%s' needs a comparison: .eq .ne .lt .le .gt or .ge", full);
    if ((info->mods & OPM_SHFL) && m->shfl < 0)
        return fail_at(a, s, "'%s' needs a mode: .idx .up .down or .bfly", full);
    if ((info->mods & OPM_ATOM) && m->atom < 0)
        return fail_at(a, s, "'%s' needs an operation: .add .min .max .exch or .cas", full);
    if ((info->mods & OPM_ATOM) && !(info->atoms >> m->atom & 1)) {
        char allowed[256];
        atom_choices(m->op, allowed, sizeof allowed);
        return fail_at(a, s, "'%s': .%s is not available for this type (%s)", full, ATOM_NAMES[m->atom], allowed);
    }
    /* A family may take a kind that one of its rows does not (ld.param). */
    if (m->cmp >= 0 && !(info->mods & OPM_CMP)) return fail_at(a, s, "'%s' takes no comparison", full);
    if (m->shfl >= 0 && !(info->mods & OPM_SHFL)) return fail_at(a, s, "'%s' takes no shuffle mode", full);
    if (m->atom >= 0 && !(info->mods & OPM_ATOM)) return fail_at(a, s, "'%s' takes no atomic operation", full);
    if (m->vec > 1 && !(info->mods & OPM_VEC)) return fail_at(a, s, "'%s' takes no vector width", full);
    if (m->type == TYPE_NONE && (info->mods & OPM_TYPE)) m->type = TYPE_B32;
    return true;
}

/* --------------------------------------------------------------- instruction */

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
    case FMT_PARAM: {
        in->ndst = 1, in->nsrc = 1;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !expect_char(a, '[', "before the parameter name"))
            return false;
        skip_space(a);
        const char *s = a->p;
        char name[ISA_MAX_NAME];
        if (!read_ident(a, name, "a parameter name")) return false;
        uint32_t i = 0;
        while (i < a->k->nparams && strcmp(a->k->params[i].name, name) != 0) i++;
        if (i == a->k->nparams)
            return fail_at(a, s, "unknown parameter '%s'; declare it first with .param .u32 %s", name, name);
        in->src[0].kind = OPND_IMM;
        in->src[0].value = i;
        if (!expect_char(a, ']', "after the parameter name")) return false;
        break;
    }
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
        if (accept_char(a, ',')) {
            if (!parse_src(a, 0, &in->src[2])) return false;
            if (accept_char(a, ',') && !parse_src(a, 0, &in->src[3])) return false;
        }
        break;
    case FMT_VOTE:
        in->ndst = 1, in->nsrc = 1;
        if (!parse_reg(a, &in->dst[0]) || !comma(a, mn) || !parse_pred(a, &in->src[0], true)) return false;
        break;
    case FMT_L: {
        skip_space(a);
        const char *s = a->p;
        if (!grow((void **)&a->refs, &a->refs_cap, a->nrefs + 1, sizeof *a->refs))
            return fail_at(a, s, "out of memory");
        LabelRef *r = &a->refs[a->nrefs];
        if (!read_ident(a, r->name, "a label")) return false;
        r->instr = a->k->ncode;
        r->line = a->line;
        r->col = col_of(a, s);
        a->nrefs++;
        break;
    }
    case FMT_BAR:
        skip_space(a);
        if (a->p < a->end && *a->p != ';') {
            int64_t id;
            const char *s = a->p;
            if (!parse_int(a, &id)) return false;
            if (id != 0) return fail_at(a, s, "only barrier 0 exists in this ISA; found %lld", (long long)id);
        }
        break;
    }
    return true;
}

static bool parse_instruction(Asm *a)
{
    const char *start = a->p;
    if (!a->k) return fail_at(a, start, "instruction outside a kernel; start one with '.kernel NAME'");
    Instr in;
    memset(&in, 0, sizeof in);
    in.guard = ISA_NO_GUARD;
    in.line = a->line;
    in.col = col_of(a, start);
    in.vec = 1;
    in.reconv = ISA_NO_RECONV;
    if (*a->p == '@') {
        a->p++;
        if (a->p < a->end && *a->p == '!') {
            in.guard_neg = 1;
            a->p++;
        }
        uint16_t pi;
        if (!parse_reg_index(a, 'p', ISA_MAX_PREDS, &pi)) return false;
        in.guard = (uint8_t)pi;
        if (pi + 1u > a->k->preds_used) a->k->preds_used = pi + 1u;
    }
    Mnemonic m;
    if (!parse_mnemonic(a, &m)) return false;
    in.op = (uint8_t)m.op;
    in.mod = (uint8_t)(m.cmp >= 0 ? m.cmp : m.shfl >= 0 ? m.shfl : m.atom >= 0 ? m.atom : 0);
    in.vec = (uint8_t)m.vec;
    in.type = (uint8_t)m.type;
    char mn[48];
    snprintf(mn, sizeof mn, "%s", OP_INFO[m.op].mnemonic);
    if (in.op == OP_BAR_SYNC && in.guard != ISA_NO_GUARD)
        return fail_at(a, start, "'bar.sync' cannot be predicated: every thread of the block must reach it");
    if (!parse_operands(a, &m, &in, mn)) return false;
    skip_space(a);
    if (a->p < a->end && *a->p == ';') a->p++;
    if (!at_end(a)) {
        char q[64];
        if (*a->p == ',')
            return fail_at(a, a->p, "too many operands for '%s'", mn);
        return fail_at(a, a->p, "unexpected '%s' after the operands of '%s'", quote(a->p, a->end, q, sizeof q), mn);
    }
    if (!grow((void **)&a->k->code, &a->code_cap, a->k->ncode + 1, sizeof in))
        return fail_at(a, start, "out of memory");
    a->k->code[a->k->ncode++] = in;
    return true;
}

/* -------------------------------------------------------------- directives */

static bool finish_kernel(Asm *a)
{
    Kernel *k = a->k;
    if (!k) return true;
    if (k->ncode == 0) {
        diag_set(a->d, a->file, k->line, 1, "kernel '%s' has no instructions", k->name);
        return false;
    }
    for (uint32_t i = 0; i < a->nrefs; i++) {
        LabelRef *r = &a->refs[i];
        uint32_t j = label_find(a, r->name);
        if (j == UINT32_MAX) {
            diag_set(a->d, a->file, r->line, r->col, "unknown label '%s' in kernel '%s'", r->name, k->name);
            return false;
        }
        if (k->labels[j].pc >= k->ncode) {
            diag_set(a->d, a->file, r->line, r->col, "label '%s' is at the end of kernel '%s' with no instruction after it",
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
    return cfg_analyze(k, a->file, a->d);
}

static bool directive(Asm *a)
{
    const char *s = a->p;
    a->p++; /* '.' */
    char name[ISA_MAX_NAME];
    if (!read_ident(a, name, "a directive name")) return false;
    if (strcmp(name, "kernel") == 0 || strcmp(name, "entry") == 0) {
        if (!finish_kernel(a)) return false;
        char kname[ISA_MAX_NAME];
        if (!read_ident(a, kname, "a kernel name after .kernel")) return false;
        for (uint32_t i = 0; i < a->prog->nkernels; i++)
            if (strcmp(a->prog->kernels[i].name, kname) == 0)
                return fail_at(a, s, "kernel '%s' defined twice (first at line %u)", kname, a->prog->kernels[i].line);
        Kernel *nk = realloc(a->prog->kernels, (a->prog->nkernels + 1) * sizeof *nk);
        if (!nk) return fail_at(a, s, "out of memory");
        a->prog->kernels = nk;
        a->k = &nk[a->prog->nkernels++];
        memset(a->k, 0, sizeof *a->k);
        snprintf(a->k->name, sizeof a->k->name, "%s", kname);
        a->k->line = a->line;
        a->code_cap = a->label_cap = a->shared_cap = 0;
        if (a->lhash_cap) memset(a->lhash, 0, a->lhash_cap * sizeof *a->lhash);
        a->have_dynamic = false;
    } else if (!a->k) {
        return fail_at(a, s, "'.%s' outside a kernel; start one with '.kernel NAME'", name);
    } else if (strcmp(name, "param") == 0) {
        if (a->k->nparams == ISA_MAX_PARAMS) return fail_at(a, s, "too many parameters (at most %d)", ISA_MAX_PARAMS);
        if (!expect_char(a, '.', "before the parameter type (.u32 .s32 .f32 .ptr)")) return false;
        const char *ts = a->p;
        char tname[ISA_MAX_NAME];
        if (!read_ident(a, tname, "a parameter type")) return false;
        KernelParam *pp = &a->k->params[a->k->nparams];
        pp->is_ptr = strcmp(tname, "ptr") == 0;
        pp->type = pp->is_ptr ? TYPE_B32 : type_of(tname, strlen(tname));
        if (pp->type == TYPE_NONE || pp->type == TYPE_B32) {
            if (!pp->is_ptr) return fail_at(a, ts, "unknown parameter type '.%s'; expected .u32 .s32 .f32 or .ptr", tname);
        }
        skip_space(a); /* positions point at the name, not the blank before it */
        const char *ns = a->p;
        if (!read_ident(a, pp->name, "a parameter name")) return false;
        for (uint32_t i = 0; i < a->k->nparams; i++)
            if (strcmp(a->k->params[i].name, pp->name) == 0)
                return fail_at(a, ns, "parameter '%s' declared twice", pp->name);
        a->k->nparams++;
    } else if (strcmp(name, "shared") == 0) {
        skip_space(a); /* positions point at the name, not the blank before it */
        const char *ns = a->p;
        char sname[ISA_MAX_NAME];
        if (!read_ident(a, sname, "a shared array name")) return false;
        if (find_shared(a->k, sname)) return fail_at(a, ns, "shared array '%s' declared twice", sname);
        if (!grow((void **)&a->k->shared, &a->shared_cap, a->k->nshared + 1, sizeof(SharedSymbol)))
            return fail_at(a, s, "out of memory");
        SharedSymbol *sym = &a->k->shared[a->k->nshared];
        memset(sym, 0, sizeof *sym);
        snprintf(sym->name, sizeof sym->name, "%s", sname);
        if (at_end(a)) {
            if (a->have_dynamic) return fail_at(a, ns, "only one dynamic (size-less) .shared array per kernel");
            a->have_dynamic = true;
            /* Final already: sized arrays may not follow the dynamic one. */
            sym->offset = (a->k->static_smem + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN;
        } else {
            const char *zs = a->p;
            int64_t size;
            if (!parse_int(a, &size)) return false;
            if (size <= 0 || size > (1 << 24))
                return fail_at(a, zs, "shared array size %lld out of range (1..16777216 bytes)", (long long)size);
            if (a->have_dynamic)
                return fail_at(a, ns, "declare sized .shared arrays before the dynamic one");
            uint32_t off = (a->k->static_smem + SHARED_ALIGN - 1) / SHARED_ALIGN * SHARED_ALIGN;
            sym->offset = off;
            sym->size = (uint32_t)size;
            a->k->static_smem = off + (uint32_t)size;
            if (a->k->static_smem > (1u << 24)) return fail_at(a, zs, "static shared memory above 16 MiB");
        }
        a->k->nshared++;
    } else if (strcmp(name, "regs") == 0) {
        skip_space(a); /* positions point at the name, not the blank before it */
        const char *ns = a->p;
        int64_t n;
        if (!parse_int(a, &n)) return false;
        if (n < 1 || n > ISA_MAX_REGS) return fail_at(a, ns, ".regs %lld out of range (1..%d)", (long long)n, ISA_MAX_REGS);
        a->k->regs_declared = (uint32_t)n;
    } else {
        return fail_at(a, s, "unknown directive '.%s'; expected .kernel .param .shared or .regs", name);
    }
    if (!at_end(a)) {
        char q[64];
        return fail_at(a, a->p, "unexpected '%s' after the directive", quote(a->p, a->end, q, sizeof q));
    }
    return true;
}

static bool label_def(Asm *a, const char *name, const char *at)
{
    if (!a->k) return fail_at(a, at, "label '%s' outside a kernel", name);
    uint32_t prev = label_find(a, name);
    if (prev != UINT32_MAX)
        return fail_at(a, at, "duplicate label '%s' (first defined before instruction %u)", name, a->k->labels[prev].pc);
    if (!grow((void **)&a->k->labels, &a->label_cap, a->k->nlabels + 1, sizeof(Label)))
        return fail_at(a, at, "out of memory");
    Label *l = &a->k->labels[a->k->nlabels];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->pc = a->k->ncode;
    if (!label_index_add(a, a->k->nlabels)) return fail_at(a, at, "out of memory");
    a->k->nlabels++;
    return true;
}

/* One source line (without its newline). */
static bool parse_line(Asm *a)
{
    /* Comments run from "//" to the end of the line. */
    for (const char *c = a->p; c + 1 < a->end; c++)
        if (c[0] == '/' && c[1] == '/') {
            a->end = c;
            break;
        }
    if (a->end > a->p && a->end[-1] == '\r') a->end--;
    if (at_end(a)) return true;
    if (*a->p == '.') return directive(a);
    if (is_ident_start(*a->p)) {
        /* A label is an identifier followed by ':'. */
        const char *s = a->p, *e = s;
        while (e < a->end && is_ident_char(*e)) e++;
        const char *after = e;
        while (after < a->end && (*after == ' ' || *after == '\t')) after++;
        if (after < a->end && *after == ':') {
            char name[ISA_MAX_NAME];
            if (!read_ident(a, name, "a label")) return false;
            if (!label_def(a, name, s)) return false;
            a->p = after + 1;
            if (at_end(a)) return true;
        }
    }
    if (*a->p == '@' || is_ident_start(*a->p)) return parse_instruction(a);
    char q[64];
    return fail_at(a, a->p, "expected an instruction, a label or a directive, found '%s'", quote(a->p, a->end, q, sizeof q));
}

bool asm_parse(const char *text, size_t len, const char *file, Program *out, Diag *d)
{
    memset(out, 0, sizeof *out);
    Asm a;
    memset(&a, 0, sizeof a);
    a.file = file ? file : "<input>";
    a.d = d;
    a.prog = out;
    out->file = strdup(a.file);
    bool ok = out->file != NULL;
    if (!ok) diag_set(d, a.file, 0, 0, "out of memory");
    const char *p = text, *end = text + len;
    for (uint32_t line = 1; ok && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        a.line = line;
        a.line_start = a.p = p;
        a.end = le;
        ok = parse_line(&a);
        p = nl ? nl + 1 : end;
        if (line == UINT32_MAX) {
            diag_set(d, a.file, line, 1, "too many lines");
            ok = false;
        }
    }
    if (ok) ok = finish_kernel(&a);
    if (ok && out->nkernels == 0) {
        diag_set(d, a.file, 1, 1, "no kernel in file; a program starts with '.kernel NAME'");
        ok = false;
    }
    free(a.refs);
    free(a.lhash);
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
