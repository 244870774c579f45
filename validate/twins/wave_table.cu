// validate/twins/wave_table.cu -- CUDA twin of workloads/labs/wave_table.json
// (kernels/waves.asm: block_work), for the wave lab of
// docs/labs/003_thread_configuration.md: waves.cu's fixed-work blocks (128
// threads, a dependent FMA chain of n steps), with the unused dynamic
// shared memory that lets exactly 2 blocks share an SM
// (shared_per_sm/2 - 2048), launched as 2 x sm_count, 2 x sm_count + 40,
// 4 x sm_count and 4 x sm_count + 68 blocks (216, 256, 432, 500 on an A100;
// 264, 304, 528, 596 on the H200).
//
// Checked in the compiled code: as waves.cu (`#pragma unroll 1`: FFMA,
// IADD, ISETP, BRA). Size: n = 4096 instead of the JSON's 256, as waves.cu.
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
    const size_t two = ctx.prop().sharedMemPerMultiprocessor / 2 - 2048;
    CK(cudaFuncSetAttribute((const void *)block_work, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)two));
    DevBuf<float> out((size_t)(4 * sms + 68) * block);
    const struct { const char *name; int grid; } vs[] = {
        {"grid_216", 2 * sms}, {"grid_256", 2 * sms + 40}, {"grid_432", 4 * sms}, {"grid_500", 4 * sms + 68}};
    std::vector<float> per_tid(block);
    for (int t = 0; t < block; t++) {
        float x = (float)t;
        for (int k = 0; k < n; k++) x = fmaf(x, 0.999f, 0.5f);
        per_tid[t] = x;
    }
    for (auto &c : vs) {
        Variant v = make_variant("wave_table", c.name, "block_work", (const void *)block_work, dim3(c.grid), dim3(block),
                                 two, {{"n", n}});
        v.file = "workloads/labs/wave_table.json";
        v.flops = 2.0 * n * c.grid * block;
        Body b;
        b.reset = [&] { out.poison(); };  // the input is threadIdx.x itself
        b.launch = [&, c](cudaStream_t s) { block_work<<<c.grid, block, two, s>>>(out.p, n); };
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

VH_TWIN("wave_table", 20, run);
