/* isa/program.c -- ownership and small queries of an assembled Program. */
#include "isa/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

const char *const SREG_NAMES[SREG_COUNT] = {
    "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
    "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z",
    "laneid", "warpid", "smid", "nsmid", "clock",
    "lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt", "lanemask_ge", "clock64", "globaltimer",
    "envreg1", "envreg2", "dynamic_smem_size",
    "reserved_smem_offset_begin", "reserved_smem_offset_end", "reserved_smem_offset_cap",
    "reserved_smem_offset_0", "reserved_smem_offset_1",
};

KernelParam *program_add_param(Kernel *k)
{
    KernelParam *n = realloc(k->params, (k->nparams + 1) * sizeof *n); /* at most ISA_MAX_PARAMS: grown by one */
    if (!n) return NULL;
    k->params = n;
    memset(&n[k->nparams], 0, sizeof *n);
    return &n[k->nparams];
}

void program_destroy(Program *p)
{
    if (!p) return;
    for (uint32_t i = 0; i < p->nkernels; i++) {
        free(p->kernels[i].code);
        free(p->kernels[i].params);
        free(p->kernels[i].labels);
        free(p->kernels[i].shared);
        free(p->kernels[i].mangled);
        free(p->kernels[i].signature);
        free(p->kernels[i].consts);
        free(p->kernels[i].refused);
        free(p->kernels[i].refused_file);
    }
    for (uint32_t i = 0; i < p->nvars; i++) free(p->vars[i].name), free(p->vars[i].init), free(p->vars[i].relocs);
    free(p->vars);
    for (uint32_t i = 0; i < p->nsrc_files; i++) free(p->src_files[i]);
    free(p->src_files);
    free(p->kernels);
    free(p->file);
    memset(p, 0, sizeof *p);
}

/* The variable whose bytes, or its one-past-the-end address, hold a; -1
** when none does. */
static int var_at(const Program *p, uint64_t a)
{
    for (uint32_t i = 0; i < p->nvars; i++)
        if (a >= p->vars[i].addr && a - p->vars[i].addr < p->vars[i].size) return (int)i;
    for (uint32_t i = 0; i < p->nvars; i++)
        if (a == (uint64_t)p->vars[i].addr + p->vars[i].size) return (int)i;
    return -1;
}

void program_bind_vars(Program *p, const uint32_t *addr)
{
    if (!p->nvars) return;
    for (uint32_t k = 0; k < p->nkernels; k++) {
        Kernel *K = &p->kernels[k];
        for (uint32_t pc = 0; pc < K->ncode; pc++) {
            Instr *in = &K->code[pc];
            if (!(in->iflags & INSTR_VARREF)) continue;
            for (uint32_t s = 0; s < in->nsrc; s++) {
                Operand *o = &in->src[s];
                if (o->kind != OPND_IMM) continue;
                int v = var_at(p, o->value);
                if (v < 0) continue;
                uint32_t moved = addr[v] + (o->value - p->vars[v].addr);
                if (o->index < K->nconsts && K->consts[o->index] == o->value) K->consts[o->index] = moved;
                o->value = moved;
            }
        }
    }
    for (uint32_t i = 0; i < p->nvars; i++) /* initializers first: they find their targets at the old places */
        for (uint32_t r = 0; r < p->vars[i].nrelocs; r++) {
            uint8_t *at = p->vars[i].init + p->vars[i].relocs[r];
            uint64_t a;
            memcpy(&a, at, 8);
            int v = var_at(p, a);
            if (v < 0) continue;
            a = addr[v] + (a - p->vars[v].addr);
            memcpy(at, &a, 8);
        }
    for (uint32_t i = 0; i < p->nvars; i++) p->vars[i].addr = addr[i];
}

bool kernel_runnable(const Program *p, const Kernel *k, Diag *d)
{
    if (!k->refused) return true;
    diag_set(d, k->refused_file ? k->refused_file : p->file, k->refused_line, k->refused_col, "%s", k->refused);
    return false;
}

const Kernel *program_find_kernel(const Program *p, const char *name)
{
    for (uint32_t i = 0; i < p->nkernels; i++)
        if (strcmp(p->kernels[i].name, name) == 0) return &p->kernels[i];
    return NULL;
}

uint32_t kernel_regs_per_thread(const Kernel *k)
{
    if (k->regs_declared) return k->regs_declared;
    if (k->ptx) return k->regs_estimated; /* no ptxas, no "regs": the rows live at once */
    return k->regs_used ? k->regs_used : 1;
}

const char *kernel_label_at(const Kernel *k, uint32_t pc)
{
    /* The assembler appends labels in source order, so their pcs never
    ** decrease: binary search for the first one at pc. */
    uint32_t lo = 0, hi = k->nlabels;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->labels[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->nlabels && k->labels[lo].pc == pc ? k->labels[lo].name : NULL;
}

/* "path:line: text" of a file's line into buf (the text trimmed and cut at
** 100 characters when the file can be read; else "path:line"). */
static void cuda_line_text(const char *path, uint32_t want, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s:%u", path, want);
    char *text = NULL, why[128];
    size_t len = 0;
    if (n < 0 || (size_t)n >= cap || file_read(path, 1 << 24, &text, &len, why, sizeof why) != FILE_READ_OK) {
        free(text);
        return;
    }
    const char *line = text, *end = text + len;
    for (uint32_t l = 1; l < want && line < end; l++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        line = nl ? nl + 1 : end;
    }
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol) eol = end;
    while (line < eol && (*line == ' ' || *line == '\t')) line++;
    while (eol > line && (eol[-1] == ' ' || eol[-1] == '\t' || eol[-1] == '\r')) eol--;
    if (line < eol) {
        int shown = eol - line > 100 ? 100 : (int)(eol - line);
        snprintf(buf + n, cap - (size_t)n, ": %.*s%s", shown, line, eol - line > 100 ? " ..." : "");
    }
    free(text);
}

static const char *src_path(const Kernel *k, uint16_t file)
{
    return file && k->src_files && file <= k->nsrc_files ? k->src_files[file - 1] : NULL;
}

bool kernel_cuda_line(const Kernel *k, uint32_t pc, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (pc >= k->ncode) return false;
    const Instr *in = &k->code[pc];
    const char *path = src_path(k, in->src_file), *call = src_path(k, in->call_file);
    if (!path) return false;
    if (!call || !in->call_line) {
        cuda_line_text(path, in->src_line, buf, cap);
        return true;
    }
    /* inlined from a header: the user's line first, then the header's */
    cuda_line_text(call, in->call_line, buf, cap);
    size_t n = strlen(buf);
    if (n + 1 < cap) snprintf(buf + n, cap - n, " (in %s:%u, inlined here)", path, in->src_line);
    return true;
}

const char *kernel_label(const Kernel *k) { return k->signature ? k->signature : k->name; }

const char *kernel_param_label(const Kernel *k, uint32_t i, char *buf, size_t cap)
{
    const char *open = k->signature ? strchr(k->signature, '(') : NULL;
    if (open) {
        /* the list's top-level commas (templates and function pointer types
        ** nest theirs in <> and ()): how many types, and where type i is */
        const char *from = open + 1, *start = NULL;
        int len = 0, depth = 0;
        uint32_t count = 0;
        for (const char *at = from; *at; at++) {
            if (*at == '(' || *at == '<') depth++;
            else if ((*at == ')' || *at == '>') && depth > 0) depth--;
            else if ((*at == ',' || *at == ')') && depth == 0) {
                if (count == i) start = from, len = (int)(at - from);
                count += at > from;
                if (*at == ')') break;
                for (from = at + 1; *from == ' '; from++) {}
            }
        }
        if (start && len > 0 && count == k->nparams) { /* else the list means something else: by name */
            snprintf(buf, cap, "parameter %u (%.*s)", i + 1, len, start);
            return buf;
        }
    }
    snprintf(buf, cap, "parameter '%s'", k->params[i].name);
    return buf;
}

bool kernel_has_op(const Kernel *k, uint32_t op)
{
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].op == op) return true;
    return false;
}

bool kernel_uses_heap(const Kernel *k) { return kernel_has_op(k, OP_MALLOC) || kernel_has_op(k, OP_FREE); }

bool kernel_uses_async_copies(const Kernel *k) { return kernel_has_op(k, OP_CP_ASYNC) || kernel_has_op(k, OP_CP_ASYNC_BULK); }

bool kernel_reads_reserved_smem(const Kernel *k)
{
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        for (uint32_t i = 0; i < k->code[pc].nsrc; i++) {
            const Operand *o = &k->code[pc].src[i];
            if (o->kind == OPND_SPECIAL && o->index >= SREG_RESERVED_BEGIN && o->index <= SREG_RESERVED_1) return true;
        }
    return false;
}

bool kernel_has_partial_barriers(const Kernel *k)
{
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const Instr *in = &k->code[pc];
        if (in->op == OP_BAR_ARRIVE || (in->op == OP_BAR_SYNC && in->nsrc > 1) || (in->op == OP_BAR_RED && in->nsrc > 2))
            return true;
    }
    return false;
}
