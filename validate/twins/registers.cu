// validate/twins/registers.cu -- CUDA twin of workloads/registers.json
// (kernels/grid_stride.asm: saxpy_one_per_thread). Teaching case 3: the same SAXPY (y[i] =
// a*x[i] + y[i], block 256, grid ceil(n/256)) declared with 32, 40, 64 and
// 128 registers per thread, so that occupancy follows the register count
// (8, 6, 4, 2 blocks of 256 per SM) while the work stays the same.
//
// The hardware cannot be told to allocate MORE registers than a kernel
// uses, so the twin reaches the same blocks per SM another way: dynamic
// shared memory that the kernel never touches, sized so that exactly as many
// blocks fit as the registers would allow (verified with CUDA's occupancy
// API before timing). The record's "emulates" {"regs": R} says so: the
// simulator must run the JSON's variant as it is (regs R, no dynamic shared
// memory) and compare its blocks per SM with the recorded blocks_per_sm.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// no loop; LDG x, LDG y, FFMA, STG. Size: n = 2^24 instead of the JSON's
// 2^20 (3 x 64 MB per launch, 3.2x the L2; 7 M simulated warp instructions).
#include "../runner/harness.h"

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace vh;

namespace {

__global__ void saxpy(const float *x, float *y, float a, int n)
{
    extern __shared__ float unused[];  // sized only to limit blocks per SM
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    y[i] = a * x[i] + y[i];
}

void run(Ctx &ctx)
{
    const int n = 1 << 24, block = 256;
    const float a = 2.5f;  // as registers.json
    const cudaDeviceProp &p = ctx.prop();
    CK(cudaFuncSetAttribute((const void *)saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            (int)p.sharedMemPerBlockOptin));
    DevBuf<float> x((size_t)n), y((size_t)n);
    std::vector<float> hx, hy;
    for (int regs : {32, 40, 64, 128}) {
        int want = blocks_for_regs(p, regs, block);
        size_t smem = smem_for_blocks(p, want, block);
        int got = blocks_per_sm((const void *)saxpy, block, smem);
        if (got != want)
            throw std::runtime_error("registers: " + std::to_string(smem) + " bytes give " + std::to_string(got) +
                                     " blocks per SM, not " + std::to_string(want));
        Variant v = make_variant("registers", "regs_" + std::to_string(regs), "saxpy_one_per_thread", (const void *)saxpy,
                                 dim3((n + block - 1) / block), dim3(block), smem, {{"n", n}});
        v.bytes = 3.0 * n * 4;
        v.extra = JObj().i64("regs", regs).i64("blocks_per_sm", want).text();
        v.note = "occupancy of R registers per thread emulated with unused dynamic shared memory";
        Body b;
        b.reset = [&] {
            fill_uniform(x.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            fill_uniform(y.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            hx = x.host();
            hy = y.host();
        };
        b.launch = [&, smem](cudaStream_t s) { saxpy<<<v.grid, block, smem, s>>>(x.p, y.p, a, n); };
        b.check = [&] {
            std::vector<float> ref(n), got = y.host();
            for (int i = 0; i < n; i++) ref[i] = fmaf(a, hx[i], hy[i]);
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("registers", 20, run);
