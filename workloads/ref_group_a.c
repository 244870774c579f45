/* workloads/ref_group_a.c -- what the occupancy, waves, grid_stride,
** registers, ilp, coalescing and bank_conflicts kernels should leave in
** their output buffers, computed on the CPU the plain way (binary32, fmaf
** where the kernel uses fma.rn.f32), so checks can use atol = rtol = 0.
** (ilp's copies use the shared "copy" row of workloads/reference.c.)     */
#include "workloads/ref_group_a.h"

#include <math.h>
#include <stdio.h>

/* ------------------------------------------------------------- helpers */


static bool one_d(const RefCall *call, char *msg, size_t cap)
{
    if (call->block[1] == 1 && call->block[2] == 1 && call->grid[1] == 1 && call->grid[2] == 1) return true;
    snprintf(msg, cap, "expects a 1D launch (grid and block of the form [x])");
    return false;
}

static uint64_t launched_threads(const RefCall *call)
{
    return (uint64_t)call->grid[0] * call->block[0];
}

/* ----------------------------------------------------------- occupancy */

void ref_a_light_points(const RefCall *call, uint64_t first, uint64_t count, void *out)
{
    float *v = out;
    uint64_t m = ref_points_below(first, count, call->args[1].i);
    for (uint64_t k = 0; k < m; k++) v[k] = fmaf(v[k], 2.0f, 1.0f);
}

/* (x f32[], n): x[i] = fmaf(x[i], 2, 1) for i < n. */
bool ref_a_light(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *x = &call->args[0], *n = &call->args[1];
    if (!ref_nonneg(n, "n", msg, cap) || !ref_need(x, "x", (uint64_t)n->i, "n", msg, cap)) return false;
    if (!out) return true;
    ref_a_light_points(call, 0, (uint64_t)n->i, out);
    return true;
}

/* (x f32[], n): block b holds threads t < blockDim of elements
** i = b*blockDim + t; v[t] = x[i] (0 when i >= n); x[i] = v[blockDim-1-t]
** for i < n. */
bool ref_a_smem_reverse(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *x = &call->args[0], *n = &call->args[1];
    if (!one_d(call, msg, cap) || !ref_nonneg(n, "n", msg, cap) || !ref_need(x, "x", (uint64_t)n->i, "n", msg, cap))
        return false;
    if (call->block[0] > 1024) {
        snprintf(msg, cap, "expects at most 1024 threads per block");
        return false;
    }
    if (!out) return true;
    const float *src = x->data;
    float *dst = out;
    uint64_t bd = call->block[0], cnt = (uint64_t)n->i;
    float v[1024];
    for (uint64_t b = 0; b < call->grid[0]; b++) {
        uint64_t base = b * bd;
        if (base >= cnt) break;
        for (uint64_t t = 0; t < bd; t++) v[t] = base + t < cnt ? src[base + t] : 0.0f;
        for (uint64_t t = 0; t < bd && base + t < cnt; t++) dst[base + t] = v[bd - 1 - t];
    }
    return true;
}

/* --------------------------------------------------------------- waves */

/* (out f32[], iters): out[b*blockDim + t] = iters steps of
** x = fmaf(x, 0.999f, 0.5f) from x = (float)t, for every launched thread. */
bool ref_a_block_work(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *o = &call->args[0], *iters = &call->args[1];
    if (!one_d(call, msg, cap)) return false;
    if (call->block[0] > 1024) {
        snprintf(msg, cap, "expects at most 1024 threads per block");
        return false;
    }
    uint64_t threads = launched_threads(call);
    if (!ref_need(o, "out", threads, "grid*block threads", msg, cap)) return false;
    if (!out) return true;
    float per_tid[1024];
    uint32_t bd = call->block[0];
    for (uint32_t t = 0; t < bd; t++) {
        float x = (float)t;
        for (int64_t k = 0; k < iters->i; k++) x = fmaf(x, 0.999f, 0.5f);
        per_tid[t] = x;
    }
    float *dst = out;
    for (uint64_t i = 0; i < threads; i++) dst[i] = per_tid[i % bd];
    return true;
}

/* ------------------------------------------------ grid_stride, registers */

/* (x f32[], y f32[], a, n): y[i] = fmaf(a, x[i], y[i]) for i < n. */
void ref_a_saxpy_points(const RefCall *call, uint64_t first, uint64_t count, void *out)
{
    const float *xs = call->args[0].data;
    float *ys = out, a = call->args[2].f;
    uint64_t m = ref_points_below(first, count, call->args[3].i);
    for (uint64_t k = 0; k < m; k++) ys[k] = fmaf(a, xs[k], ys[k]);
}

bool ref_a_saxpy(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *x = &call->args[0], *y = &call->args[1], *n = &call->args[3];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t cnt = (uint64_t)n->i;
    if (!ref_need(x, "x", cnt, "n", msg, cap) || !ref_need(y, "y", cnt, "n", msg, cap)) return false;
    if (!out) return true;
    ref_a_saxpy_points(call, 0, cnt, out);
    return true;
}

/* ---------------------------------------------------------- coalescing */

/* (in f32[], out f32[], stride, n): out[i] = in[i * stride] for i < n. */
bool ref_a_strided_read(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *in = &call->args[0], *o = &call->args[1], *stride = &call->args[2], *n = &call->args[3];
    if (!ref_nonneg(n, "n", msg, cap) || !ref_nonneg(stride, "stride", msg, cap)) return false;
    uint64_t cnt = (uint64_t)n->i, s = (uint64_t)stride->i;
    if (!ref_need(o, "out", cnt, "n", msg, cap)) return false;
    if (cnt && !ref_need(in, "in", (cnt - 1) * s + 1, "(n-1)*stride + 1", msg, cap)) return false;
    if (!out) return true;
    const float *src = in->data;
    float *dst = out;
    for (uint64_t i = 0; i < cnt; i++) dst[i] = src[i * s];
    return true;
}

/* ------------------------------------------------------ bank_conflicts */

/* Both kernels fill buf[w] = w (1024 words) and add up iters loads;
** word(lane, k) says which word lane reads in iteration k. */
static bool bank_sum(const RefCall *call, void *out, char *msg, size_t cap, const RefArg *iters, uint32_t stride,
                     bool swizzle)
{
    if (!one_d(call, msg, cap)) return false;
    uint64_t threads = launched_threads(call);
    if (!ref_need(&call->args[0], "out", threads, "grid*block threads", msg, cap)) return false;
    if (!out) return true;
    uint32_t per_lane[32];
    for (uint32_t lane = 0; lane < 32; lane++) {
        uint32_t sum = 0;
        for (int64_t k = 0; k < iters->i; k++) {
            uint32_t kk = (uint32_t)k;
            sum += swizzle ? lane * 32u + ((kk ^ lane) & 31u) : (lane * stride + kk) & 1023u;
        }
        per_lane[lane] = sum;
    }
    uint32_t *dst = out;
    for (uint64_t i = 0; i < threads; i++) dst[i] = per_lane[(i % call->block[0]) % 32];
    return true;
}

/* (out u32[], stride, iters): lane reads buf[(lane*stride + k) % 1024]. */
bool ref_a_bank_stride(const RefCall *call, void *out, char *msg, size_t cap)
{
    if (!ref_nonneg(&call->args[1], "stride", msg, cap)) return false;
    return bank_sum(call, out, msg, cap, &call->args[2], (uint32_t)call->args[1].i, false);
}

/* (out u32[], iters): lane reads buf[lane*32 + ((k ^ lane) % 32)]. */
bool ref_a_bank_swizzle(const RefCall *call, void *out, char *msg, size_t cap)
{
    return bank_sum(call, out, msg, cap, &call->args[1], 0, true);
}
