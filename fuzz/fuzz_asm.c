/* fuzz/fuzz_asm.c -- libFuzzer harness for the assembler (isa/asm.c) and
** what runs on its output: the input is mini-ISA source text. Every program
** that assembles is also
**   - disassembled, instruction by instruction and as whole kernels, and the
**     disassembly must assemble again to the same number of kernels and
**     instructions (isa/disasm.h promises the round trip; a mismatch aborts,
**     so the fuzzer reports it);
**   - run functionally (isa/grid.c) on a small launch (2 blocks of 64
**     threads, one 4 KiB buffer every pointer parameter points to, 256 bytes
**     of dynamic shared memory) under a budget of warp instructions, which
**     drives the executor's fault reports, the SIMT stack and barriers.
** Kernels asking for more than 64 KiB of static shared memory are not run:
** a real launch would be refused by the occupancy check first.          */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/disasm.h"
#include "isa/gmem.h"
#include "isa/grid.h"

#define FUZZ_MAX_STATIC_SMEM (64u << 10)
#define FUZZ_BUDGET          4000u

static void roundtrip(const Program *p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return;
    for (uint32_t i = 0; i < p->nkernels; i++) disasm_kernel(f, &p->kernels[i], true);
    if (fclose(f) != 0) {
        free(text);
        return;
    }
    Program q;
    Diag d;
    if (!asm_parse(text, len, "disasm", &q, &d)) {
        fprintf(stderr, "disassembly does not assemble: %s:%u:%u: %s\n--- text ---\n%s\n", d.file, d.line, d.col,
                d.message, text);
        abort();
    }
    if (q.nkernels != p->nkernels) abort();
    for (uint32_t i = 0; i < p->nkernels; i++)
        if (q.kernels[i].ncode != p->kernels[i].ncode || q.kernels[i].nparams != p->kernels[i].nparams) {
            fprintf(stderr, "round trip changed kernel '%s'\n--- text ---\n%s\n", p->kernels[i].name, text);
            abort();
        }
    program_destroy(&q);
    free(text);
}

static void run_kernel(const Kernel *k)
{
    if (k->dynamic_smem_offset > FUZZ_MAX_STATIC_SMEM) return;
    GlobalMem *g = gmem_create();
    if (!g) return;
    Diag d;
    uint32_t buf = gmem_alloc(g, 4096, "buf", &d);
    if (buf) {
        uint32_t params[ISA_MAX_PARAMS];
        for (uint32_t i = 0; i < ISA_MAX_PARAMS; i++)
            params[i] = i < k->nparams && k->params[i].is_ptr ? buf : 64u + i;
        GridLaunch L = { .grid = { 2, 1, 1 }, .block = { 64, 1, 1 }, .dynamic_smem = 256, .params = params,
                         .nsm = 4, .max_warp_instructions = FUZZ_BUDGET };
        GridResult r;
        grid_run_functional(k, g, &L, &r);
    }
    gmem_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Program p;
    Diag d;
    if (!asm_parse((const char *)data, size, "fuzz.asm", &p, &d)) return 0;
    char line[256];
    for (uint32_t i = 0; i < p.nkernels; i++) {
        const Kernel *k = &p.kernels[i];
        for (uint32_t pc = 0; pc < k->ncode; pc++) disasm_instr(k, &k->code[pc], line, sizeof line);
    }
    roundtrip(&p);
    for (uint32_t i = 0; i < p.nkernels; i++) run_kernel(&p.kernels[i]);
    program_destroy(&p);
    return 0;
}
