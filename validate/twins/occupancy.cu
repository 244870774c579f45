// validate/twins/occupancy.cu -- CUDA twin of workloads/occupancy.json
// (kernels/occupancy.asm: light, smem_reverse). Teaching case 2, the text's
// occupancy.cu: light (x[i] = x[i]*2 + 1) at blocks of 32..1024 threads;
// smem_reverse (stage the block's slice in dynamic shared memory, barrier,
// write it back reversed) at 256 threads with 1/16/32/48 KB of dynamic
// shared memory. The recorded blocks_per_sm is CUDA's own answer for each
// launch: the simulator's occupancy must equal it.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// no loops; light: LDG, FFMA (x*2+1 contracted, as fma.rn.f32 in the .asm),
// STG; smem_reverse: LDG (guarded), STS, BAR, LDS, STG.
// Size: n = 2^24 instead of the JSON's 2^20: 64 MB read and written in
// place (2.1x the L2 per launch), 16 M threads = 524 K warps x ~12
// instructions = ~6 M simulated warp instructions per variant. In place:
// the timed launches keep doubling x (inf after ~128 launches; the
// arithmetic costs the same).
#include "../runner/harness.h"

#include <cmath>
#include <cstdio>
#include <vector>

using namespace vh;

namespace {

__global__ void light(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 2.f + 1.f;
}

__global__ void smem_reverse(float *x, int n)
{
    extern __shared__ float buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? x[i] : 0.f;
    __syncthreads();
    if (i < n) x[i] = buf[blockDim.x - 1 - t];
}

void run(Ctx &ctx)
{
    const int n = 1 << 24;
    DevBuf<float> x((size_t)n);
    std::vector<float> h;
    auto reset = [&] {
        fill_uniform(x.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
        h = x.host();  // in place: the input is the output's old contents (not poisoned)
    };
    for (int block : {32, 64, 128, 256, 512, 1024}) {
        Variant v = make_variant("occupancy", "light_" + std::to_string(block), "light", (const void *)light,
                                 dim3((n + block - 1) / block), dim3(block), 0, {{"n", n}});
        v.bytes = 2.0 * n * 4;
        Body b;
        b.reset = reset;
        b.launch = [&, block](cudaStream_t s) { light<<<v.grid, block, 0, s>>>(x.p, n); };
        b.check = [&] {
            std::vector<float> ref(h.size()), got = x.host();
            for (size_t i = 0; i < h.size(); i++) ref[i] = fmaf(h[i], 2.f, 1.f);
            return compare_f32(got.data(), ref.data(), ref.size(), 0.0, 0.0);
        };
        ctx.run(v, b);
    }
    const struct { const char *name; int smem; } sm[] = {{"smem_0k", 256 * 4}, {"smem_16k", 16384},
                                                         {"smem_32k", 32768}, {"smem_48k", 49152}};
    for (auto &c : sm) {
        const int block = 256;
        Variant v = make_variant("occupancy", c.name, "smem_reverse", (const void *)smem_reverse,
                                 dim3((n + block - 1) / block), dim3(block), c.smem, {{"n", n}});
        v.bytes = 2.0 * n * 4;
        Body b;
        b.reset = reset;
        b.launch = [&, c](cudaStream_t s) { smem_reverse<<<v.grid, block, c.smem, s>>>(x.p, n); };
        b.check = [&] {
            std::vector<float> ref(h.size()), got = x.host();
            for (size_t i = 0; i < h.size(); i++) {
                size_t blk = i / block, t = i % block;
                ref[i] = h[blk * block + (block - 1 - t)];
            }
            return compare_f32(got.data(), ref.data(), ref.size(), 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("occupancy", 20, run);
