// validate/twins/ilp.cu -- CUDA twin of workloads/ilp.json
// (kernels/ilp.asm: copy_ilp1, copy_ilp4). Teaching case 4 (Little's law):
// a grid-stride copy out[i] = in[i] with one load in flight per thread, or
// four (loads of i, i+s, i+2s, i+3s issued before their stores), launched at
// low occupancy so that bytes in flight, not warps, decide the bandwidth:
// ilp.json declares 128 registers per thread (2 blocks of 256 per SM) and
// launches sm_count * blocks_per_sm blocks. The twin reaches the same 2
// blocks per SM with unused dynamic shared memory (as registers.cu; the
// record's "emulates" says so).
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// `#pragma unroll 1` on every loop: nvcc would unroll copy_ilp1 by 4 and
// hoist its loads, turning it into copy_ilp4; with the pragma copy_ilp1's
// loop is LDG, STG (+ index), copy_ilp4's is 4 LDG then 4 STG.
// Size: n = 2^24 (2 x 64 MB per launch, 2.1x the L2): 1056 warps x ~500
// iterations x ~8 = 4.2 M simulated warp instructions (JSON: n = 2^22).
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void copy_ilp1(const float *in, float *out, int n)
{
    int s = gridDim.x * blockDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += s) out[i] = in[i];
}

__global__ void copy_ilp4(const float *in, float *out, int n)
{
    int s = gridDim.x * blockDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (; i + 3 * s < n; i += 4 * s) {
        float a = in[i], b = in[i + s], c = in[i + 2 * s], d = in[i + 3 * s];  // four loads in flight
        out[i] = a;
        out[i + s] = b;
        out[i + 2 * s] = c;
        out[i + 3 * s] = d;
    }
#pragma unroll 1
    for (; i < n; i += s) out[i] = in[i];
}

void run(Ctx &ctx)
{
    const int n = 1 << 24, block = 256, regs = 128;  // ilp.json's "regs"
    const cudaDeviceProp &p = ctx.prop();
    const int per_sm = blocks_for_regs(p, regs, block), grid = ctx.sm_count() * per_sm;
    const size_t smem = smem_for_blocks(p, per_sm, block);
    DevBuf<float> in((size_t)n), out((size_t)n);
    std::vector<float> h;
    struct K { const char *variant, *kernel; void (*fn)(const float *, float *, int); };
    const K ks[] = {{"ilp1", "copy_ilp1", copy_ilp1}, {"ilp4", "copy_ilp4", copy_ilp4}};
    for (const K &k : ks) {
        CK(cudaFuncSetAttribute((const void *)k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)p.sharedMemPerBlockOptin));
        Variant v = make_variant("ilp", k.variant, k.kernel, (const void *)k.fn, dim3(grid), dim3(block), smem,
                                 {{"n", n}});
        v.bytes = 2.0 * n * 4;
        v.extra = JObj().i64("regs", regs).i64("blocks_per_sm", per_sm).text();
        v.note = "occupancy of 128 registers per thread emulated with unused dynamic shared memory";
        Body b;
        b.reset = [&] {
            fill_uniform(in.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            out.poison();
            h = in.host();
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<grid, block, smem, s>>>(in.p, out.p, n); };
        b.check = [&] { return compare_f32(out.host().data(), h.data(), (size_t)n, 0.0, 0.0); };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("ilp", 20, run);
