// validate/twins/occupancy_compute.cu -- CUDA twin of
// workloads/labs/occupancy_compute.json (labs/kernels/fma_stream.asm:
// fma_stream), for the occupancy lab of docs/labs/000_execution_model.md:
// one element per thread (grid ceil(n/256), block 256), iters dependent FMAs
// on it, declared with 32, 64, 128 and 255 registers per thread: 8, 4, 2, 1
// blocks of 256 per SM, 100% to 12.5% occupancy, the code unchanged.
//
// As in registers.cu, the hardware cannot be told to allocate more
// registers than a kernel uses: unused dynamic shared memory holds each SM
// to the blocks the registers would allow (checked with CUDA's occupancy
// API before timing; the record's "emulates" {"regs": R} says so). The
// kernel is intensity.cu's (four FMAs per iteration and a tail, `#pragma
// unroll 1`). Size: n = 8 x sm_count x 256 as the JSON, iters = 1024
// instead of 128, so that one launch (~25 us at 100%) is far above the
// launch gap.
#include "../runner/harness.h"

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace vh;

namespace {

__global__ void fma_stream(const float *x, float *y, unsigned n, float threshold, int iters)
{
    extern __shared__ float unused[];  // sized only to limit blocks per SM
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
    const int block = 256, iters = 1024;
    const unsigned n = 8u * ctx.sm_count() * block;
    const float threshold = -1.0f;
    const cudaDeviceProp &p = ctx.prop();
    CK(cudaFuncSetAttribute((const void *)fma_stream, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            (int)p.sharedMemPerBlockOptin));
    DevBuf<float> x(n), y(n);
    std::vector<float> hx;
    for (int regs : {32, 64, 128, 255}) {
        int want = blocks_for_regs(p, regs, block);
        size_t smem = smem_for_blocks(p, want, block);
        int got = blocks_per_sm((const void *)fma_stream, block, smem);
        if (got != want)
            throw std::runtime_error("occupancy_compute: " + std::to_string(smem) + " bytes give " + std::to_string(got) +
                                     " blocks per SM, not " + std::to_string(want));
        const int grid = (int)((n + block - 1) / block);
        Variant v = make_variant("occupancy_compute", "regs_" + std::to_string(regs), "fma_stream",
                                 (const void *)fma_stream, dim3(grid), dim3(block), smem,
                                 {{"n", (long long)n}, {"iters", iters}});
        v.file = "workloads/labs/occupancy_compute.json";
        v.flops = 2.0 * iters * n;
        v.extra = JObj().i64("regs", regs).i64("blocks_per_sm", want).text();
        v.note = "occupancy of R registers per thread emulated with unused dynamic shared memory";
        Body b;
        b.reset = [&] {
            fill_uniform(x.p, n, ctx.next_seed(), 0.f, 1.f);
            y.poison();
            hx = x.host();
        };
        b.launch = [&, grid, smem](cudaStream_t s) { fma_stream<<<grid, block, smem, s>>>(x.p, y.p, n, threshold, iters); };
        b.check = [&] {
            std::vector<float> ref(n), got = y.host();
            for (unsigned i = 0; i < n; i++) {
                float t = hx[i];
                for (int k = 0; k < iters; k++) t = fmaf(t, 0.999f, 0.5f);
                ref[i] = t;
            }
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("occupancy_compute", 20, run);
