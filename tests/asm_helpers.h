/* tests/asm_helpers.h -- what the assembler's suites share (check_asm,
** check_opcodes): assembling text, the first error line of a bad text, a
** file's text, labels, and the round trip asm -> disasm -> asm compared
** instruction by instruction. */
#ifndef GPUSIM_TESTS_ASM_HELPERS_H
#define GPUSIM_TESTS_ASM_HELPERS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"


static inline bool assemble(const char *src, Program *p, Diag *d)
{
    return asm_parse(src, strlen(src), "test.asm", p, d);
}

static inline void must_assemble(const char *src, Program *p)
{
    Diag d;
    memset(&d, 0, sizeof d);
    bool ok = assemble(src, p, &d);
    ck_assert_msg(ok, "assembly failed: %u:%u: %s", d.line, d.col, d.message);
}

/* The first error of src[0..len) as "line:col: error: message"; checks that
** a failed assembly leaves the program empty. */
static inline void first_error(const char *src, size_t len, char *buf, size_t cap)
{
    Program p;
    Diag d;
    memset(&d, 0, sizeof d);
    ck_assert_msg(!asm_parse(src, len, "test.asm", &p, &d), "assembled, but an error was expected");
    ck_assert_ptr_null(p.kernels);
    ck_assert_uint_eq(p.nkernels, 0);
    ck_assert_str_eq(d.file, "test.asm");
    snprintf(buf, cap, "%u:%u: error: %s", d.line, d.col, d.message);
}

/* Whole file as a NUL-terminated heap string (the length in *len). */
static inline char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

static inline uint32_t label_pc(const Kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->nlabels; i++)
        if (strcmp(k->labels[i].name, name) == 0) return k->labels[i].pc;
    ck_abort_msg("no label %s", name);
    return 0;
}

/* Field-by-field equality of two decoded instructions (not their source
** positions). False with the first difference in why. Plain comparisons,
** not ck_assert: a passing ck_assert costs a message to the parent process,
** and this runs for every instruction of a 200,000-instruction kernel. */
static inline bool same_instr(const Instr *a, const Instr *b, char *why, size_t cap)
{
#define DIFF(cond, ...) if (cond) { snprintf(why, cap, __VA_ARGS__); return false; }
    DIFF(a->op != b->op, "op %s vs %s", OP_INFO[a->op].mnemonic, OP_INFO[b->op].mnemonic)
    DIFF(a->guard != b->guard || a->guard_neg != b->guard_neg, "guard")
    DIFF(a->mod != b->mod, "modifier %u vs %u", a->mod, b->mod)
    DIFF(a->vec != b->vec, "vec %u vs %u", a->vec, b->vec)
    DIFF(a->type != b->type, "type %u vs %u", a->type, b->type)
    DIFF(a->ndst != b->ndst || a->nsrc != b->nsrc, "operand counts")
    for (uint32_t i = 0; i < a->ndst; i++)
        DIFF(memcmp(&a->dst[i], &b->dst[i], sizeof a->dst[i]) != 0, "dst %u", i)
    for (uint32_t i = 0; i < a->nsrc; i++)
        DIFF(memcmp(&a->src[i], &b->src[i], sizeof a->src[i]) != 0,
             "src %u (kind %u value 0x%x vs kind %u value 0x%x)", i, a->src[i].kind, a->src[i].value,
             b->src[i].kind, b->src[i].value)
    DIFF(a->offset != b->offset, "offset %d vs %d", a->offset, b->offset)
    DIFF(a->target != b->target, "target %u vs %u", a->target, b->target)
    DIFF(a->reconv != b->reconv, "reconv %u vs %u", a->reconv, b->reconv)
#undef DIFF
    return true;
}

static inline void assert_same_kernel(const Kernel *a, const Kernel *b)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_uint_eq(a->ncode, b->ncode);
    char why[160];
    for (uint32_t pc = 0; pc < a->ncode; pc++)
        if (!same_instr(&a->code[pc], &b->code[pc], why, sizeof why))
            ck_abort_msg("kernel %s, pc %u: %s", a->name, pc, why);
    ck_assert_uint_eq(a->nparams, b->nparams);
    for (uint32_t i = 0; i < a->nparams; i++) {
        ck_assert_str_eq(a->params[i].name, b->params[i].name);
        ck_assert_uint_eq(a->params[i].type, b->params[i].type);
        ck_assert_uint_eq(a->params[i].is_ptr, b->params[i].is_ptr);
    }
    ck_assert_uint_eq(a->nlabels, b->nlabels);
    for (uint32_t i = 0; i < a->nlabels; i++)
        if (strcmp(a->labels[i].name, b->labels[i].name) != 0 || a->labels[i].pc != b->labels[i].pc)
            ck_abort_msg("label %u: %s at %u vs %s at %u", i, a->labels[i].name, a->labels[i].pc,
                         b->labels[i].name, b->labels[i].pc);
    ck_assert_uint_eq(a->nshared, b->nshared);
    for (uint32_t i = 0; i < a->nshared; i++) {
        ck_assert_str_eq(a->shared[i].name, b->shared[i].name);
        ck_assert_uint_eq(a->shared[i].offset, b->shared[i].offset);
        ck_assert_uint_eq(a->shared[i].size, b->shared[i].size);
    }
    ck_assert_uint_eq(a->static_smem, b->static_smem);
    ck_assert_uint_eq(a->dynamic_smem_offset, b->dynamic_smem_offset);
    ck_assert_uint_eq(a->regs_used, b->regs_used);
    ck_assert_uint_eq(a->regs_declared, b->regs_declared);
    ck_assert_uint_eq(a->preds_used, b->preds_used);
}

/* Disassembles every kernel of p (annotated or not) and assembles the text
** again; the result must equal p. */
static inline void assert_round_trip(const Program *p, bool annotate)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    for (uint32_t i = 0; i < p->nkernels; i++) disasm_kernel(f, &p->kernels[i], annotate);
    fclose(f);
    Program q;
    Diag d;
    bool ok = asm_parse(text, len, "disasm.asm", &q, &d);
    ck_assert_msg(ok, "disassembly does not assemble: %u:%u: %s", d.line, d.col, d.message);
    ck_assert_uint_eq(q.nkernels, p->nkernels);
    for (uint32_t i = 0; i < p->nkernels; i++) assert_same_kernel(&p->kernels[i], &q.kernels[i]);
    program_destroy(&q);
    free(text);
}

/* Deterministic xorshift64* generator; the state lives in the caller. */
static inline uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

#endif
