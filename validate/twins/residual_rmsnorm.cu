// validate/twins/residual_rmsnorm.cu -- CUDA twin of
// workloads/residual_rmsnorm.json (kernels/rmsnorm.asm: residual_add,
// rmsnorm, fused_add_rmsnorm, the kernels of rmsnorm.cu). Teaching cases 6
// and 7: a layer's residual add and RMSNorm, unfused (two launches back to
// back, timed as one: the simulator's sum) or fused (one kernel).
// Block 256; rmsnorm and fused one block per row, residual_add one thread
// per element.
//
// Checked in the compiled code: as rmsnorm.cu (one `#pragma unroll 1` on
// each row loop, IEEE division and MUFU.RSQ for rstd).
// Size: n (rows) = 16*sm_count, hidden = 8192, as rmsnorm.cu (69 MB per matrix).
// Not yet measured on the H200: compare skips these records until
// validate/results/h200.json has them.
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

__global__ void residual_add(const float *x, const float *r, float *h, unsigned count)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    h[i] = x[i] + r[i];
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

__global__ void fused_add_rmsnorm(const float *x, const float *r, const float *w, float *h, float *y, unsigned hidden,
                                  float eps)
{
    unsigned off = blockIdx.x * hidden;
    float ss = 0.f;
#pragma unroll 1
    for (unsigned j = threadIdx.x; j < hidden; j += blockDim.x) {
        float v = x[off + j] + r[off + j];
        h[off + j] = v;
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
    const unsigned add_grid = (unsigned)((cnt + block - 1) / block);
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
    // h exactly, y = rmsnorm(h) * w in double, row by row.
    auto check = [&] {
        std::vector<float> hh(cnt), goth = h.host(), goty = y.host(), ref(cnt);
        for (size_t i = 0; i < cnt; i++) hh[i] = hx[i] + hr[i];
        std::string e = compare_f32(goth.data(), hh.data(), cnt, 0.0, 0.0);
        if (!e.empty()) return "h: " + e;
        for (size_t t = 0; t < rows; t++) {
            double ss = 0;
            for (size_t j = 0; j < hidden; j++) ss += (double)hh[t * hidden + j] * hh[t * hidden + j];
            double rstd = 1.0 / std::sqrt(ss / hidden + eps);
            for (size_t j = 0; j < hidden; j++) ref[t * hidden + j] = (float)(hh[t * hidden + j] * rstd * hw[j]);
        }
        e = compare_f32(goty.data(), ref.data(), cnt, 1e-6, 1e-4);
        return e.empty() ? e : "y: " + e;
    };
    const Params params = {{"n", rows}, {"hidden", hidden}};
    {
        Variant v = make_variant("residual_rmsnorm", "unfused", "residual_add", (const void *)residual_add,
                                 dim3(add_grid), dim3(block), 0, params);
        v.steps = {{"residual_add", (const void *)residual_add, dim3(add_grid), dim3(block), 0},
                   {"rmsnorm", (const void *)rmsnorm, dim3(rows), dim3(block), 0}};
        v.bytes = 5.0 * cnt * 4;
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) {
            residual_add<<<add_grid, block, 0, s>>>(x.p, r.p, h.p, (unsigned)cnt);
            rmsnorm<<<rows, block, 0, s>>>(h.p, w.p, y.p, hidden, eps);
        };
        b.check = check;
        ctx.run(v, b);
    }
    {
        Variant v = make_variant("residual_rmsnorm", "fused", "fused_add_rmsnorm", (const void *)fused_add_rmsnorm,
                                 dim3(rows), dim3(block), 0, params);
        v.bytes = 4.0 * cnt * 4;
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) { fused_add_rmsnorm<<<rows, block, 0, s>>>(x.p, r.p, w.p, h.p, y.p, hidden, eps); };
        b.check = check;
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("residual_rmsnorm", 20, run);
