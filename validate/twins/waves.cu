// validate/twins/waves.cu -- CUDA twin of workloads/waves.json
// (kernels/waves.asm: block_work). Teaching case 5, the tail wave: every
// block of 128 threads runs the same dependent FMA chain of n steps; the
// dynamic shared memory (never touched) decides how many blocks fit on an
// SM: shared_per_block_optin -> 1, shared_per_sm/2 - 2048 -> 2. Variants:
// full_wave (sm_count blocks), one_extra (+1: a second, almost empty wave),
// two_waves (2*sm_count at 1 per SM), two_per_sm_full / _tail (2*sm_count
// and 2*sm_count + 4 at 2 per SM).
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// `#pragma unroll 1` keeps one FFMA per iteration (FFMA, IADD, ISETP, BRA),
// the loop of the .asm, which is already written rotated as nvcc emits it.
// Size: n (the chain length) = 4096 instead of the JSON's 256: one wave is
// then ~9 us on the H200 instead of ~0.6 us, far above the launch gap;
// simulated: (2*132+4) blocks x 4 warps x 4096 x 4 = 17.6 M warp
// instructions for the largest variant.
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__global__ void block_work(float *out, int iters)
{
    extern __shared__ float pad[];  // sized by the launch only: it decides blocks per SM
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)threadIdx.x;
#pragma unroll 1
    for (int k = 0; k < iters; k++) x = x * 0.999f + 0.5f;
    out[i] = x;
}

void run(Ctx &ctx)
{
    const int n = 4096, block = 128, sms = ctx.sm_count();
    const size_t one = ctx.prop().sharedMemPerBlockOptin, two = ctx.prop().sharedMemPerMultiprocessor / 2 - 2048;
    CK(cudaFuncSetAttribute((const void *)block_work, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)one));
    DevBuf<float> out((size_t)(2 * sms + 4) * block);
    const struct { const char *name; int grid; size_t smem; } vs[] = {
        {"full_wave", sms, one}, {"one_extra", sms + 1, one}, {"two_waves", 2 * sms, one},
        {"two_per_sm_full", 2 * sms, two}, {"two_per_sm_tail", 2 * sms + 4, two}};
    std::vector<float> per_tid(block);
    for (int t = 0; t < block; t++) {
        float x = (float)t;
        for (int k = 0; k < n; k++) x = fmaf(x, 0.999f, 0.5f);
        per_tid[t] = x;
    }
    for (auto &c : vs) {
        Variant v = make_variant("waves", c.name, "block_work", (const void *)block_work, dim3(c.grid), dim3(block),
                                 c.smem, {{"n", n}});
        v.flops = 2.0 * n * c.grid * block;
        Body b;
        b.reset = [&] { out.poison(); };  // the input is threadIdx.x itself
        b.launch = [&, c](cudaStream_t s) { block_work<<<c.grid, block, c.smem, s>>>(out.p, n); };
        b.check = [&, c] {
            size_t cnt = (size_t)c.grid * block;
            std::vector<float> ref(cnt), got = out.host();
            for (size_t i = 0; i < cnt; i++) ref[i] = per_tid[i % block];
            return compare_f32(got.data(), ref.data(), cnt, 0.0, 1e-6);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("waves", 20, run);
