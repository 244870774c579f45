// validate/twins/intensity.cu -- CUDA twin of workloads/labs/intensity.json
// (labs/kernels/fma_stream.asm: fma_stream), for the roofline lab of
// docs/labs/000_execution_model.md: y[i] = f^iters(x[i]), f(v) = v * 0.999 +
// 0.5, by a grid-stride loop over one full wave of 256-thread blocks; 8
// bytes and 2 * iters FLOP per element, iters = 2, 8, 32, 128 (0.5 to 32
// FLOP/B). The threshold -1 sends every element (all in [0, 1)) down the
// costly path, as in the JSON.
//
// The loop is written as the .asm: four dependent FMAs per iteration, then
// a one-FMA tail, both `#pragma unroll 1` so that nvcc keeps that shape
// (FFMA x4, IADD, ISETP, BRA; the tail FFMA, IADD, ISETP, BRA).
// Size: n = 2^24 instead of the JSON's 2^19 (128 MB through DRAM per
// launch, 2x the H200's L2; ~28 us at the DRAM peak for iters = 2).
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__global__ void fma_stream(const float *x, float *y, unsigned n, float threshold, int iters)
{
    unsigned stride = gridDim.x * blockDim.x;
    int by4 = iters & ~3;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = x[i];
        if (v > threshold) {
            int k = 0;
#pragma unroll 1
            for (; k < by4; k += 4) {
                v = v * 0.999f + 0.5f;
                v = v * 0.999f + 0.5f;
                v = v * 0.999f + 0.5f;
                v = v * 0.999f + 0.5f;
            }
#pragma unroll 1
            for (; k < iters; k++) v = v * 0.999f + 0.5f;
        } else {
            v = v * 0.5f;
        }
        y[i] = v;
    }
}

void run(Ctx &ctx)
{
    const unsigned n = 1u << 24;
    const int block = 256;
    const float threshold = -1.0f;
    const int grid = ctx.sm_count() * blocks_per_sm((const void *)fma_stream, block, 0);
    DevBuf<float> x(n), y(n);
    std::vector<float> hx;
    for (int iters : {2, 8, 32, 128}) {
        Variant v = make_variant("intensity", "iters_" + std::to_string(iters), "fma_stream", (const void *)fma_stream,
                                 dim3(grid), dim3(block), 0, {{"n", (long long)n}});
        v.file = "workloads/labs/intensity.json";
        v.bytes = 8.0 * n;
        v.flops = 2.0 * iters * n;
        Body b;
        b.reset = [&] {
            fill_uniform(x.p, n, ctx.next_seed(), 0.f, 1.f);
            y.poison();
            hx = x.host();
        };
        b.launch = [&, iters](cudaStream_t s) { fma_stream<<<grid, block, 0, s>>>(x.p, y.p, n, threshold, iters); };
        b.check = [&, iters] {
            std::vector<float> ref(n), got = y.host();
            for (unsigned i = 0; i < n; i++) {
                float t = hx[i];
                if (t > threshold)
                    for (int k = 0; k < iters; k++) t = fmaf(t, 0.999f, 0.5f);
                else
                    t = t * 0.5f;
                ref[i] = t;
            }
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("intensity", 20, run);
