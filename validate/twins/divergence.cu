// validate/twins/divergence.cu -- CUDA twin of workloads/divergence.json
// (kernels/divergence.asm: divergent, uniform). Teaching case 1, the text's
// own CUDA source: x = x*c + 0.5 for iters iterations, c picked by
// threadIdx.x % 2 (divergent) or (threadIdx.x / 32) % 2 (uniform).
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - `#pragma unroll 1` keeps one FFMA per iteration, as the .asm has; without
//   it nvcc unrolls the loop by 4, which changes the instructions per
//   iteration (branch and compare amortised) but not the FFMA chain.
// - nvcc keeps the two loops as two loops under a real branch (no select of
//   c before one shared loop), so the divergent warps do run both paths.
// - nvcc rotates each loop (guard once, then FFMA; IADD; ISETP; BRA at the
//   bottom): 4 instructions per iteration against the .asm's 5 (setp, bra,
//   fma, add, bra). validate/README.md gives the .asm change that matches.
// Size: iters = 300 instead of the JSON's 2000: the divergent variant is
// then 8448 warps x 300 x 10 = 25 M simulated warp instructions (~17 s; at
// iters = 500 it took 27 s of CPU, measured). On the H200 uniform runs
// ~10 us and divergent ~20 us per launch, timed in groups of back-to-back
// launches.
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__device__ __forceinline__ float heavy(float x, int iters, float c)
{
#pragma unroll 1
    for (int k = 0; k < iters; ++k) x = x * c + 0.5f;  // contracted to one FFMA
    return x;
}

__global__ void divergent(float *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)threadIdx.x;
    if (threadIdx.x % 2 == 0) x = heavy(x, iters, 0.999f);
    else x = heavy(x, iters, 0.998f);
    out[i] = x;
}

__global__ void uniform(float *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)threadIdx.x;
    if ((threadIdx.x / 32) % 2 == 0) x = heavy(x, iters, 0.999f);
    else x = heavy(x, iters, 0.998f);
    out[i] = x;
}

void run(Ctx &ctx)
{
    const int block = 256, iters = 300;
    const long long n = 8LL * ctx.sm_count() * block;  // the JSON's n = 8*sm_count*256
    DevBuf<float> out((size_t)n);
    struct K { const char *name; void (*fn)(float *, int); unsigned shift; };
    const K ks[] = {{"divergent", divergent, 0}, {"uniform", uniform, 5}};
    for (const K &k : ks) {
        Variant v;
        v.workload = "divergence";
        v.file = "workloads/divergence.json";
        v.variant = k.name;
        v.kernel = k.name;
        v.params = {{"n", n}, {"iters", iters}};
        v.grid = dim3((unsigned)((n + block - 1) / block));
        v.block = dim3(block);
        v.func = (const void *)k.fn;
        v.flops = 2.0 * n * iters;
        Body b;
        b.reset = [&] { out.poison(); };  // the input is threadIdx.x itself
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, v.block, 0, s>>>(out.p, iters); };
        b.check = [&] {
            std::vector<float> per_tid(block), ref((size_t)n);
            for (int t = 0; t < block; t++) {
                float x = (float)t, c = ((t >> k.shift) & 1) ? 0.998f : 0.999f;
                for (int j = 0; j < iters; j++) x = fmaf(x, c, 0.5f);
                per_tid[t] = x;
            }
            for (long long i = 0; i < n; i++) ref[i] = per_tid[i % block];
            std::vector<float> got = out.host();
            return compare_f32(got.data(), ref.data(), (size_t)n, 0.0, 1e-6);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("divergence", 10, run);
