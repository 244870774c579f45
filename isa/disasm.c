/* isa/disasm.c -- the inverse of the assembler (see disasm.h). */
#include "isa/disasm.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void disasm_mnemonic(const Instr *in, char *buf, size_t cap)
{
    const OpInfo *info = &OP_INFO[in->op];
    const char *mn = info->mnemonic;
    const char *type = TYPE_NAMES[in->type];
    if (info->mods & OPM_CMP) { /* setp.s32 -> setp.lt.s32: after the head */
        const char *dot = strchr(mn, '.');
        snprintf(buf, cap, "%.*s.%s%s", (int)(dot - mn), mn, CMP_NAMES[in->mod], dot);
    } else if (info->mods & OPM_ATOM) { /* atom.global.u32 -> atom.global.add.u32: before the type */
        const char *dot = strrchr(mn, '.');
        char half[24]; /* the half rows: their own type, and x2 for a pair */
        if (info->type == TYPE_F16)
            snprintf(half, sizeof half, "%s.%s%s", in->mod == ATOM_CAS ? "" : ".noftz", type, in->sub == 2 ? "x2" : "");
        snprintf(buf, cap, "%.*s.%s%s", (int)(dot - mn), mn, ATOM_NAMES[in->mod], info->type == TYPE_F16 ? half : dot);
    } else if (in->op == OP_MBAR_TEST) { /* sub: bit 0 .parity, bit 1 try_wait */
        snprintf(buf, cap, "mbarrier.%s%s", in->sub & 2 ? "try_wait" : "test_wait", in->sub & 1 ? ".parity" : "");
    } else if (in->op == OP_BAR_RED) { /* its reduction and type */
        snprintf(buf, cap, "%s.%s", mn, in->mod == 0 ? "popc.u32" : in->mod == 1 ? "and.pred" : "or.pred");
    } else if (info->mods & OPM_SHFL) {
        snprintf(buf, cap, "%s.%s.%s", mn, SHFL_NAMES[in->mod], type);
    } else if (info->mods & OPM_VEC) {
        if (in->vec > 1) snprintf(buf, cap, "%s.v%u.%s", mn, in->vec, type);
        else snprintf(buf, cap, "%s.%s", mn, type);
    } else if (info->mods & OPM_TYPE) {
        snprintf(buf, cap, "%s.%s", mn, type);
    } else {
        snprintf(buf, cap, "%s", mn);
    }
}

typedef struct {
    char  *buf;
    size_t cap, len;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

static void put_imm(Out *o, uint32_t v, bool is_float)
{
    if (is_float) {
        float f;
        memcpy(&f, &v, 4);
        if (isfinite(f)) { /* shortest decimal that reads back as the same float */
            char tmp[32];
            for (int prec = 6; prec <= 9; prec++) {
                snprintf(tmp, sizeof tmp, "%.*g", prec, (double)f);
                if (strtof(tmp, NULL) == f) break;
            }
            if (!strpbrk(tmp, ".eEn")) strcat(tmp, ".0");
            put(o, "%s", tmp);
        }
        else put(o, "0f%08X", v);
    } else if (v < 0x10000u) {
        put(o, "%u", v);
    } else if ((int32_t)v < 0 && (int32_t)v > -0x10000) {
        put(o, "%d", (int32_t)v);
    } else {
        put(o, "0x%x", v);
    }
}

static void put_operand(Out *o, const Operand *op, bool is_float)
{
    switch ((OperandKind)op->kind) {
    case OPND_REG: put(o, "%%r%u", op->index); break;
    case OPND_PRED: put(o, "%s%%p%u", op->neg ? "!" : "", op->index); break;
    case OPND_IMM: put_imm(o, op->value, is_float); break;
    case OPND_SPECIAL: put(o, "%%%s", SREG_NAMES[op->index]); break;
    case OPND_NONE: break;
    }
}

static void put_mem(Out *o, const Instr *in)
{
    const Operand *b = &in->src[0];
    if (b->kind == OPND_IMM) {
        put(o, "[%u]", b->value);
    } else if (in->offset > 0) {
        put(o, "[%%r%u+%d]", b->index, in->offset);
    } else if (in->offset < 0) {
        put(o, "[%%r%u-%u]", b->index, 0u - (uint32_t)in->offset);
    } else {
        put(o, "[%%r%u]", b->index);
    }
}

static void put_list(Out *o, const Operand *ops, uint32_t n, bool is_float)
{
    if (n > 1) put(o, "{");
    for (uint32_t i = 0; i < n; i++) {
        if (i) put(o, ", ");
        put_operand(o, &ops[i], is_float);
    }
    if (n > 1) put(o, "}");
}

size_t disasm_instr(const Kernel *k, const Instr *in, char *buf, size_t cap)
{
    Out o = { buf, cap, 0 };
    if (cap) buf[0] = 0;
    const OpInfo *info = &OP_INFO[in->op];
    bool fl = opcode_value_type((Opcode)in->op, (ValueType)in->type) == TYPE_F32;
    if (in->guard != ISA_NO_GUARD) put(&o, "@%s%%p%u ", in->guard_neg ? "!" : "", in->guard);
    char mn[48];
    disasm_mnemonic(in, mn, sizeof mn);
    put(&o, "%s", mn);
    switch (info->format) {
    case FMT_NONE: break;
    case FMT_L: {
        const char *label = kernel_label_at(k, in->target);
        if (label) put(&o, " %s", label);
        else put(&o, " <pc %u>", in->target);
        break;
    }
    case FMT_BAR: /* the mini ISA's names no barrier: 0 */
        if (!in->nsrc) put(&o, " 0");
        for (uint32_t i = 0; i < in->nsrc; i++) {
            put(&o, i ? ", " : " ");
            put_operand(&o, &in->src[i], false);
        }
        break;
    case FMT_PARAM:
        put(&o, " %%r%u, [%s]", in->dst[0].index,
            in->src[0].value < k->nparams ? k->params[in->src[0].value].name : "?");
        break;
    case FMT_LD:
        if (in->op == OP_CP_ASYNC) { /* no destination register: [shared], [global], sizes */
            put(&o, " ");
            put_mem(&o, in);
            put(&o, ", [");
            put_operand(&o, &in->src[1], false);
            if (in->src[4].value) put(&o, "%+d", (int32_t)in->src[4].value);
            put(&o, "], %u", in->src[2].value);
            if (in->src[3].kind != OPND_NONE) {
                put(&o, ", ");
                put_operand(&o, &in->src[3], false);
            }
            break;
        }
        put(&o, " ");
        put_list(&o, in->dst, in->vec, false);
        put(&o, ", ");
        put_mem(&o, in);
        break;
    case FMT_ST:
        put(&o, " ");
        put_mem(&o, in);
        put(&o, ", ");
        put_list(&o, &in->src[1], in->vec, fl);
        break;
    case FMT_ATOM:
        put(&o, " ");
        put_operand(&o, &in->dst[0], false);
        put(&o, ", ");
        put_mem(&o, in);
        for (uint32_t i = 1; i < in->nsrc; i++) {
            put(&o, ", ");
            put_operand(&o, &in->src[i], fl);
        }
        break;
    case FMT_TEX: /* {d0, d1, d2, d3}, [object, {coordinates}] */
        put(&o, " ");
        put_list(&o, in->dst, in->ndst, false);
        put(&o, ", [");
        put_operand(&o, &in->src[0], false);
        put(&o, ", ");
        put_list(&o, &in->src[1], in->nsrc - 1u, in->stype == TYPE_F32);
        put(&o, "]");
        break;
    default: /* register/predicate formats: destinations then sources */
        for (uint32_t i = 0; i < in->ndst; i++) {
            put(&o, i ? ", " : " ");
            put_operand(&o, &in->dst[i], false);
        }
        for (uint32_t i = 0; i < in->nsrc; i++) {
            put(&o, i || in->ndst ? ", " : " ");
            bool f = fl && info->format != FMT_SHFL;
            put_operand(&o, &in->src[i], f);
        }
        break;
    }
    return o.len;
}

void disasm_kernel(FILE *out, const Kernel *k, bool annotate)
{
    fprintf(out, ".kernel %s\n", k->name);
    static const char *const PTYPE[] = { "", "ptr", "u32", "s32", "f32" };
    for (uint32_t i = 0; i < k->nparams; i++)
        fprintf(out, ".param .%s %s\n", k->params[i].is_ptr ? "ptr" : PTYPE[k->params[i].type], k->params[i].name);
    for (uint32_t i = 0; i < k->nshared; i++) {
        if (k->shared[i].size)
            fprintf(out, ".shared %s %u", k->shared[i].name, k->shared[i].size);
        else
            fprintf(out, ".shared %s", k->shared[i].name);
        if (annotate) fprintf(out, "    // offset %u%s", k->shared[i].offset, k->shared[i].size ? "" : ", dynamic");
        fputc('\n', out);
    }
    if (k->regs_declared) fprintf(out, ".regs %u\n", k->regs_declared);
    char buf[256];
    uint32_t li = 0; /* labels come in pc order */
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        for (; li < k->nlabels && k->labels[li].pc <= pc; li++)
            if (k->labels[li].pc == pc) fprintf(out, "%s:\n", k->labels[li].name);
        const Instr *in = &k->code[pc];
        disasm_instr(k, in, buf, sizeof buf);
        if (!annotate) {
            fprintf(out, "    %s\n", buf);
            continue;
        }
        fprintf(out, "    %-44s // %4u", buf, pc);
        if ((in->op == OP_BRA || in->op == OP_BRA_UNI) && in->guard != ISA_NO_GUARD) {
            if (in->reconv >= k->ncode) {
                fprintf(out, "  reconverge: at exit");
            } else {
                const char *l = kernel_label_at(k, in->reconv);
                fprintf(out, "  reconverge: pc %u%s%s", in->reconv, l ? " " : "", l ? l : "");
            }
        }
        fputc('\n', out);
    }
}
