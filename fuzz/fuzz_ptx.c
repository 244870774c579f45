/* fuzz/fuzz_ptx.c -- libFuzzer harness for the PTX front end (isa/ptx*.c):
** the input is PTX text. Every module that reads is also disassembled
** instruction by instruction (isa/disasm.h) and each kernel run
** functionally (isa/grid.c) on a small launch: 2 blocks of 64 threads,
** every 8-byte parameter the 64-bit address of one 4 KiB buffer, the
** others small integers, 256 bytes of dynamic shared memory, at most 4000
** warp instructions; that drives the 64-bit and sub-word executors, the
** generic window, the faults and the register rows of the allocator.
** Texture and surface handles 1 to 6 name objects over the buffer (a 2D
** float texture, linear filtering, wrap; a 2D uchar4 surface; a 1D fetch;
** a 3D texture; a 2D layered one; a cube map), so that a kernel that moves
** a small number into a handle samples them.
** Seeds: fuzz/corpus/ptx (the bad-input corpus), plus the committed nvcc
** output of the twins (the .ptx files of tests/ptx), copied in by fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/disasm.h"
#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"

#define FUZZ_MAX_STATIC_SMEM (64u << 10)
#define FUZZ_BUDGET          4000u

static void run_kernel(const Kernel *k)
{
    if (k->dynamic_smem_offset > FUZZ_MAX_STATIC_SMEM) return;
    GlobalMem *g = gmem_create();
    if (!g) return;
    Diag d;
    uint32_t buf = gmem_alloc(g, 4096, "buf", &d);
    if (buf) {
        uint32_t params[ISA_MAX_PARAM_WORDS];
        for (uint32_t i = 0; i < ISA_MAX_PARAM_WORDS; i++) params[i] = 64u + i;
        for (uint32_t i = 0; i < k->nparams; i++)
            if (k->params[i].size == 8) params[k->params[i].offset / 4] = buf, params[k->params[i].offset / 4 + 1] = 0;
        ExecTexture obj[6];
        memset(obj, 0, sizeof obj);
        for (int i = 0; i < 6; i++) {
            ExecTexture *t = &obj[i];
            t->kind = i == 1 ? TEXO_SURFACE : TEXO_TEXTURE;
            t->channels = i == 1 ? 4 : 1;
            t->channel_bytes = i == 1 ? 1 : 4;
            t->channel_kind = i == 1 ? TEXC_UNSIGNED : TEXC_FLOAT;
            t->dims = i == 2 ? 1 : i == 3 ? 3 : 2;
            t->fetch_only = i == 2;
            t->layered = i >= 4;
            t->cubemap = i == 5;
            t->filter_linear = i == 0 || i == 4;
            t->normalized_coords = i == 0;
            t->address[0] = t->address[1] = t->address[2] = (uint8_t)(i % 4);
            t->extent[0] = 8, t->extent[1] = i == 2 ? 1 : 8, t->extent[2] = i == 3 ? 8 : 1;
            t->layers = i == 4 ? 4 : i == 5 ? 6 : 1;
            t->base = buf;
            t->row_pitch = 8u * t->channels * t->channel_bytes;
            t->slice_pitch = t->row_pitch * t->extent[1];
        }
        ExecTextures table = { obj, 6, buf + 4096 - 32, buf + 4096 - 16 };
        /* a small device heap, so that malloc and free run too */
        GridLaunch L = { .grid = { 2, 1, 1 }, .block = { 64, 1, 1 }, .dynamic_smem = 256, .params = params,
                         .nsm = 4, .max_warp_instructions = FUZZ_BUDGET, .heap = exec_heap_create(g, 1 << 16, &d),
                         .textures = &table };
        GridResult r;
        grid_run_functional(k, g, &L, &r);
    }
    gmem_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Program p;
    Diag d;
    if (!ptx_parse((const char *)data, size, "fuzz.ptx", &p, &d)) return 0;
    char line[256];
    for (uint32_t i = 0; i < p.nkernels; i++) {
        const Kernel *k = &p.kernels[i];
        for (uint32_t pc = 0; pc < k->ncode; pc++) disasm_instr(k, &k->code[pc], line, sizeof line);
        run_kernel(k);
    }
    program_destroy(&p);
    return 0;
}
