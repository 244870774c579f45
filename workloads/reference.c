/* workloads/reference.c -- the reference table: what each workload kernel
** should leave in its output buffer, computed on the CPU the plain way.
** Floating point follows the kernels operation by operation (binary32,
** fmaf where the kernel uses fma.rn.f32), so checks can use atol = rtol = 0.
** Adding a reference: write a function with the RefFn contract (shape checks
** first, then `if (!out) return true;`, then the computation) and add a row
** to REFERENCES. Its signature must list the kernel's parameters in order. */
#include "workloads/reference.h"
#include "workloads/ref_group_a.h"
#include "workloads/ref_group_b.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *wl_type_name(WlType t)
{
    switch (t) {
    case WL_F32: return "f32";
    case WL_U32: return "u32";
    case WL_S32: return "s32";
    }
    return "?";
}

/* ------------------------------------------------------------- helpers */

bool ref_need(const RefArg *a, const char *name, uint64_t elems, const char *what, char *msg, size_t cap)
{
    if (a->count >= elems) return true;
    snprintf(msg, cap, "buffer '%s' holds %llu elements, %s = %llu needed", name, (unsigned long long)a->count, what,
             (unsigned long long)elems);
    return false;
}

bool ref_nonneg(const RefArg *a, const char *name, char *msg, size_t cap)
{
    if (a->i >= 0) return true;
    snprintf(msg, cap, "%s = %lld must not be negative", name, (long long)a->i);
    return false;
}

uint64_t ref_points_below(uint64_t first, uint64_t count, int64_t n)
{
    if (n <= 0 || (uint64_t)n <= first) return 0;
    return (uint64_t)n - first < count ? (uint64_t)n - first : count;
}

/* --------------------------------------------------- transpose, copy */

/* (in f32[], out f32[], n): out[c*n + r] = in[r*n + c] for r, c < n. */
static bool ref_transpose(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *in = &call->args[0], *o = &call->args[1], *n = &call->args[2];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t nn = (uint64_t)n->i * (uint64_t)n->i;
    if (!ref_need(in, "in", nn, "n*n", msg, cap) || !ref_need(o, "out", nn, "n*n", msg, cap)) return false;
    if (!out) return true;
    const float *src = in->data;
    float *dst = out;
    uint64_t side = (uint64_t)n->i;
    for (uint64_t r = 0; r < side; r++)
        for (uint64_t c = 0; c < side; c++) dst[c * side + r] = src[r * side + c];
    return true;
}

/* out[i] = in[i] for i below `limit` (the copy rows' elementwise form). */
static void copy_points(const RefCall *call, uint64_t first, uint64_t count, void *out, int64_t limit)
{
    uint64_t m = ref_points_below(first, count, limit);
    if (m) memcpy(out, call->args[0].data, m * sizeof(float));
}

static void copy_square_points(const RefCall *call, uint64_t first, uint64_t count, void *out)
{
    copy_points(call, first, count, out, call->args[2].i * call->args[2].i);
}

static void copy_n_points(const RefCall *call, uint64_t first, uint64_t count, void *out)
{
    copy_points(call, first, count, out, call->args[2].i);
}

/* (in f32[], out f32[], n): out[i] = in[i] for i < n*n. */
static bool ref_copy_square(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *in = &call->args[0], *o = &call->args[1], *n = &call->args[2];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t nn = (uint64_t)n->i * (uint64_t)n->i;
    if (!ref_need(in, "in", nn, "n*n", msg, cap) || !ref_need(o, "out", nn, "n*n", msg, cap)) return false;
    if (!out) return true;
    copy_square_points(call, 0, nn, out);
    return true;
}

/* (in f32[], out f32[], n): out[i] = in[i] for i < n. */
static bool ref_copy(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *in = &call->args[0], *o = &call->args[1], *n = &call->args[2];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    if (!ref_need(in, "in", (uint64_t)n->i, "n", msg, cap) || !ref_need(o, "out", (uint64_t)n->i, "n", msg, cap)) return false;
    if (!out) return true;
    copy_n_points(call, 0, (uint64_t)n->i, out);
    return true;
}

/* ------------------------------------------------------------- vecadd */

static void vecadd_points(const RefCall *call, uint64_t first, uint64_t count, void *out)
{
    const float *x = call->args[0].data, *y = call->args[1].data;
    float *z = out;
    uint64_t m = ref_points_below(first, count, call->args[3].i);
    for (uint64_t k = 0; k < m; k++) z[k] = x[k] + y[k];
}

/* (a f32[], b f32[], c f32[], n): c[i] = a[i] + b[i] for i < n. */
static bool ref_vecadd(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *a = &call->args[0], *b = &call->args[1], *c = &call->args[2], *n = &call->args[3];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t cnt = (uint64_t)n->i;
    if (!ref_need(a, "a", cnt, "n", msg, cap) || !ref_need(b, "b", cnt, "n", msg, cap) || !ref_need(c, "c", cnt, "n", msg, cap))
        return false;
    if (!out) return true;
    vecadd_points(call, 0, cnt, out);
    return true;
}

/* --------------------------------------------------------- divergence */

/* The divergence kernels: thread t of each block starts from x = (float)t
** and applies x = fmaf(x, c, 0.5f) `iters` times, c = 0.999f when
** select(t) is even and 0.998f when odd; out[block * blockDim + t] = x.
** The result depends on t only, so each distinct t is computed once. */
static bool fma_chain(const RefCall *call, void *out, char *msg, size_t cap, uint32_t shift)
{
    const RefArg *o = &call->args[0], *iters = &call->args[1];
    if (call->block[1] != 1 || call->block[2] != 1 || call->grid[1] != 1 || call->grid[2] != 1) {
        snprintf(msg, cap, "expects a 1D launch (grid and block of the form [x])");
        return false;
    }
    if (call->block[0] > 1024) {
        snprintf(msg, cap, "expects at most 1024 threads per block");
        return false;
    }
    uint64_t threads = (uint64_t)call->grid[0] * call->block[0];
    if (!ref_need(o, "out", threads, "grid*block threads", msg, cap)) return false;
    if (!out) return true;
    float per_tid[1024];
    uint32_t bdim = call->block[0];
    for (uint32_t t = 0; t < bdim; t++) {
        float x = (float)t, c = ((t >> shift) & 1) ? 0.998f : 0.999f;
        for (int64_t k = 0; k < iters->i; k++) x = fmaf(x, c, 0.5f);
        per_tid[t] = x;
    }
    float *dst = out;
    for (uint64_t i = 0; i < threads; i++) dst[i] = per_tid[i % bdim];
    return true;
}

/* (out f32[], iters): c chosen by threadIdx.x % 2 (the divergent kernel). */
static bool ref_fma_chain_lane(const RefCall *call, void *out, char *msg, size_t cap)
{
    return fma_chain(call, out, msg, cap, 0);
}

/* (out f32[], iters): c chosen by (threadIdx.x / 32) % 2 (the uniform kernel). */
static bool ref_fma_chain_warp(const RefCall *call, void *out, char *msg, size_t cap)
{
    return fma_chain(call, out, msg, cap, 5);
}

/* -------------------------------------------------------------- table */

static const RefEntry REFERENCES[] = {
    { "transpose", "f32[] f32[] int", 1, ref_transpose, "out[c*n + r] = in[r*n + c] for an n x n matrix", NULL },
    { "copy_square", "f32[] f32[] int", 1, ref_copy_square, "out[i] = in[i] for i < n*n", copy_square_points },
    { "copy", "f32[] f32[] int", 1, ref_copy, "out[i] = in[i] for i < n", copy_n_points },
    { "vecadd", "f32[] f32[] f32[] int", 2, ref_vecadd, "c[i] = a[i] + b[i] for i < n", vecadd_points },
    { "fma_chain_lane_parity", "f32[] int", 0, ref_fma_chain_lane,
      "x = (float)tid.x; iters times x = x*c + 0.5, c = 0.999 or 0.998 by tid.x % 2; out[gid] = x", NULL },
    { "fma_chain_warp_parity", "f32[] int", 0, ref_fma_chain_warp,
      "as fma_chain_lane_parity with c chosen by (tid.x / 32) % 2", NULL },
    /* occupancy, waves, grid_stride, registers, coalescing, bank_conflicts: workloads/ref_group_a.c */
    { "light", "f32[] int", 0, ref_a_light, "x[i] = x[i] * 2 + 1 for i < n", ref_a_light_points },
    { "smem_reverse", "f32[] int", 0, ref_a_smem_reverse,
      "x[i] = v[blockDim-1-t] for i < n, v[t] = x[i] of the same block (0 past n)", NULL },
    { "block_work", "f32[] int", 0, ref_a_block_work,
      "x = (float)tid.x; iters times x = x*0.999 + 0.5; out[gid] = x for every launched thread", NULL },
    { "saxpy", "f32[] f32[] float int", 1, ref_a_saxpy, "y[i] = a * x[i] + y[i] (one fma) for i < n",
      ref_a_saxpy_points },
    { "strided_read", "f32[] f32[] int int", 1, ref_a_strided_read, "out[i] = in[i * stride] for i < n", NULL },
    { "bank_stride", "u32[] int int", 0, ref_a_bank_stride,
      "out[gid] = sum over k < iters of (lane*stride + k) % 1024", NULL },
    { "bank_swizzle", "u32[] int", 0, ref_a_bank_swizzle,
      "out[gid] = sum over k < iters of lane*32 + ((k ^ lane) % 32)", NULL },
    /* reduction, rmsnorm, gemv, gemm, compaction: workloads/ref_group_b.c */
    { "sum", "f32[] f32[] int", 1, ref_b_sum, "sum[0] += in[0] + ... + in[n-1] (in double)", NULL },
    { "rmsnorm", "f32[] f32[] f32[] int float", 2, ref_b_rmsnorm,
      "y[t][j] = x[t][j] / sqrt(mean_j x[t][j]^2 + eps) * w[j], one row per block (in double)", NULL },
    { "fused_residual", "f32[] f32[] f32[] f32[] f32[] int float", 3, ref_b_fused_residual,
      "h = x + r over grid.x rows of hidden", NULL },
    { "fused_rmsnorm", "f32[] f32[] f32[] f32[] f32[] int float", 4, ref_b_fused_rmsnorm,
      "y = rmsnorm(x + r) * w over grid.x rows of hidden (in double)", NULL },
    { "gemv", "f32[] f32[] f32[] int", 2, ref_b_gemv, "y = A x, A n x n row-major (in double)", NULL },
    { "gemm", "f32[] f32[] f32[] int", 2, ref_b_gemm, "C = A B, n x n row-major (in double)", NULL },
    { "special", "f32[] f32[] int float int", 1, ref_b_special,
      "y[i] = x[i] > threshold ? iters times v = v*0.999 + 0.5 : x[i] * 0.5", NULL },
    { "compaction_y", "f32[] f32[] u32[] u32[] int float int", 1, ref_b_compact_y,
      "as special, for the compaction kernel's arguments", NULL },
    { "compaction_count", "f32[] f32[] u32[] u32[] int float int", 3, ref_b_compact_count,
      "count[0] += number of i < n with x[i] > threshold", NULL },
};

#define NREFERENCES (sizeof REFERENCES / sizeof REFERENCES[0])

const RefEntry *reference_find(const char *name)
{
    for (size_t i = 0; i < NREFERENCES; i++)
        if (strcmp(REFERENCES[i].name, name) == 0) return &REFERENCES[i];
    return NULL;
}

size_t reference_count(void) { return NREFERENCES; }

const RefEntry *reference_at(size_t i) { return i < NREFERENCES ? &REFERENCES[i] : NULL; }

uint32_t reference_signature(const RefEntry *e, RefArgKind *kinds, WlType *types, uint32_t cap)
{
    uint32_t n = 0;
    const char *s = e->signature;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        size_t len = strcspn(s, " ");
        RefArgKind k = REF_ARG_INT;
        WlType t = WL_U32;
        if (len == 5 && strncmp(s, "f32[]", 5) == 0) k = REF_ARG_BUFFER, t = WL_F32;
        else if (len == 5 && strncmp(s, "u32[]", 5) == 0) k = REF_ARG_BUFFER, t = WL_U32;
        else if (len == 5 && strncmp(s, "s32[]", 5) == 0) k = REF_ARG_BUFFER, t = WL_S32;
        else if (len == 5 && strncmp(s, "float", 5) == 0) k = REF_ARG_FLOAT;
        if (n < cap) {
            kinds[n] = k;
            types[n] = t;
        }
        n++;
        s += len;
    }
    return n;
}
