// validate/twins/rmsnorm.cu -- CUDA twin of workloads/rmsnorm.json
// (kernels/rmsnorm.asm: rmsnorm, residual_add, fused_add_rmsnorm). Teaching
// cases 6 and 7, written as vLLM's rms_norm / fused_add_rms_norm: one block
// of 256 threads per row, two strided passes over the row, a shuffle tree
// per warp, one partial per warp in shared memory, a second tree in warp 0,
// rstd = rsqrtf(ss / hidden + eps) by thread 0. residual_add: h = x + r,
// one element per thread.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - `#pragma unroll 1` on both row loops (nvcc would unroll them by 4): one
//   LDG + FFMA per pass-1 iteration, 2 LDG + 2 FMUL + STG per pass-2
//   iteration, as the .asm.
// - ss / hidden is IEEE division (div.rn.f32 in the .asm; a short sequence
//   with a slow path on the GPU, run by one thread per block) and rsqrtf is
//   MUFU.RSQ (rsqrt.approx.f32).
// Size: n (rows) = 16*sm_count as the JSON, hidden = 8192 instead of 1024:
// each matrix is 2112 x 8192 x 4 = 69 MB, rmsnorm moves 138 MB (2.3x the L2),
// fused_residual 277 MB. Simulated: 2112 rows x 8 warps x ~500 instructions
// = ~8.5 M warp instructions (residual_add: 17 M threads, ~7.6 M).
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__device__ __forceinline__ float warp_sum(float v)
{
    v += __shfl_down_sync(0xffffffffu, v, 16);
    v += __shfl_down_sync(0xffffffffu, v, 8);
    v += __shfl_down_sync(0xffffffffu, v, 4);
    v += __shfl_down_sync(0xffffffffu, v, 2);
    v += __shfl_down_sync(0xffffffffu, v, 1);
    return v;
}

// The block's sum of ss, in every thread (through s_rstd: the row's 1/rms).
__device__ __forceinline__ float block_rstd(float ss, unsigned hidden, float eps)
{
    __shared__ float red[32];
    __shared__ float s_rstd;
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    ss = warp_sum(ss);
    if (lane == 0) red[warp] = ss;
    __syncthreads();
    ss = threadIdx.x < (blockDim.x >> 5) ? red[lane] : 0.f;
    if (warp == 0) {
        ss = warp_sum(ss);
        if (lane == 0) s_rstd = rsqrtf(ss / (float)hidden + eps);
    }
    __syncthreads();
    return s_rstd;
}

__global__ void rmsnorm(const float *x, const float *w, float *y, unsigned hidden, float eps)
{
    const float *xrow = x + blockIdx.x * hidden;
    float *yrow = y + blockIdx.x * hidden;
    float ss = 0.f;
#pragma unroll 1
    for (unsigned j = threadIdx.x; j < hidden; j += blockDim.x) {
        float v = xrow[j];
        ss = fmaf(v, v, ss);
    }
    float rstd = block_rstd(ss, hidden, eps);
#pragma unroll 1
    for (unsigned j = threadIdx.x; j < hidden; j += blockDim.x) yrow[j] = xrow[j] * rstd * w[j];
}

__global__ void residual_add(const float *x, const float *r, float *h, unsigned count)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    h[i] = x[i] + r[i];
}

__global__ void fused_add_rmsnorm(const float *x, const float *r, const float *w, float *h, float *y, unsigned hidden,
                                  float eps)
{
    unsigned off = blockIdx.x * hidden;
    float ss = 0.f;
#pragma unroll 1
    for (unsigned j = threadIdx.x; j < hidden; j += blockDim.x) {
        float v = x[off + j] + r[off + j];
        h[off + j] = v;  // the new residual stream
        ss = fmaf(v, v, ss);
    }
    float rstd = block_rstd(ss, hidden, eps);
#pragma unroll 1
    for (unsigned j = threadIdx.x; j < hidden; j += blockDim.x) y[off + j] = h[off + j] * rstd * w[j];
}

void run(Ctx &ctx)
{
    const unsigned rows = 16 * ctx.sm_count(), hidden = 8192, block = 256;
    const size_t cnt = (size_t)rows * hidden;
    const float eps = 1e-5f;
    DevBuf<float> x(cnt), r(cnt), w(hidden), h(cnt), y(cnt);
    std::vector<float> hx, hr, hw;
    auto reset = [&] {
        fill_uniform(x.p, cnt, ctx.next_seed(), -1.f, 1.f);
        fill_uniform(r.p, cnt, ctx.next_seed(), -1.f, 1.f);
        fill_uniform(w.p, hidden, ctx.next_seed(), 0.5f, 1.5f);
        h.poison();
        y.poison();
        hx = x.host();
        hr = r.host();
        hw = w.host();
    };
    // y = rmsnorm(src) * w in double, row by row.
    auto ref_norm = [&](const std::vector<float> &src) {
        std::vector<float> out(cnt);
        for (size_t t = 0; t < rows; t++) {
            double ss = 0;
            for (size_t j = 0; j < hidden; j++) ss += (double)src[t * hidden + j] * src[t * hidden + j];
            double rstd = 1.0 / std::sqrt(ss / hidden + eps);
            for (size_t j = 0; j < hidden; j++) out[t * hidden + j] = (float)(src[t * hidden + j] * rstd * hw[j]);
        }
        return out;
    };
    const Params params = {{"n", rows}, {"hidden", hidden}};
    {
        Variant v = make_variant("rmsnorm", "rmsnorm", "rmsnorm", (const void *)rmsnorm, dim3(rows), dim3(block), 0, params);
        v.bytes = 2.0 * cnt * 4;
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) { rmsnorm<<<rows, block, 0, s>>>(x.p, w.p, y.p, hidden, eps); };
        b.check = [&] {
            std::vector<float> ref = ref_norm(hx), got = y.host();
            return compare_f32(got.data(), ref.data(), cnt, 1e-6, 1e-4);
        };
        ctx.run(v, b);
    }
    {
        Variant v = make_variant("rmsnorm", "residual_add", "residual_add", (const void *)residual_add,
                                 dim3((unsigned)((cnt + block - 1) / block)), dim3(block), 0, params);
        v.bytes = 3.0 * cnt * 4;
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) { residual_add<<<v.grid, block, 0, s>>>(x.p, r.p, h.p, (unsigned)cnt); };
        b.check = [&] {
            std::vector<float> ref(cnt), got = h.host();
            for (size_t i = 0; i < cnt; i++) ref[i] = hx[i] + hr[i];
            return compare_f32(got.data(), ref.data(), cnt, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
    {
        Variant v = make_variant("rmsnorm", "fused_residual", "fused_add_rmsnorm", (const void *)fused_add_rmsnorm,
                                 dim3(rows), dim3(block), 0, params);
        v.bytes = 4.0 * cnt * 4;
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) { fused_add_rmsnorm<<<rows, block, 0, s>>>(x.p, r.p, w.p, h.p, y.p, hidden, eps); };
        b.check = [&] {
            std::vector<float> hh(cnt), goth = h.host(), goty = y.host();
            for (size_t i = 0; i < cnt; i++) hh[i] = hx[i] + hr[i];
            std::string e = compare_f32(goth.data(), hh.data(), cnt, 0.0, 0.0);
            if (!e.empty()) return "h: " + e;
            std::vector<float> ref = ref_norm(hh);
            e = compare_f32(goty.data(), ref.data(), cnt, 1e-6, 1e-4);
            return e.empty() ? e : "y: " + e;
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("rmsnorm", 20, run);
