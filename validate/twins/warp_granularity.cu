// validate/twins/warp_granularity.cu -- CUDA twin of
// workloads/labs/warp_granularity.json (kernels/occupancy.asm: light), for
// the warp lab of docs/labs/001_architecture.md: x[i] = x[i]*2 + 1 over n
// floats in blocks of 128 threads and of 100 (4 warps, the last with 4
// live lanes). The kernel is occupancy.cu's light.
//
// Checked in the compiled code: as occupancy.cu (LDG, FFMA, STG, no loop).
// Size: n = 2^24 instead of the JSON's 2^18 (64 MB read and written in
// place, 2.1x the L2).
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__global__ void light(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 2.f + 1.f;
}

void run(Ctx &ctx)
{
    const int n = 1 << 24;
    DevBuf<float> x((size_t)n);
    std::vector<float> h;
    for (int block : {128, 100}) {
        Variant v = make_variant("warp_granularity", "block_" + std::to_string(block), "light", (const void *)light,
                                 dim3((n + block - 1) / block), dim3(block), 0, {{"n", n}});
        v.file = "workloads/labs/warp_granularity.json";
        v.bytes = 2.0 * n * 4;
        Body b;
        b.reset = [&] {
            fill_uniform(x.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            h = x.host();  // in place: the input is the output's old contents (not poisoned)
        };
        b.launch = [&, block](cudaStream_t s) { light<<<v.grid, block, 0, s>>>(x.p, n); };
        b.check = [&] {
            std::vector<float> ref(h.size()), got = x.host();
            for (size_t i = 0; i < h.size(); i++) ref[i] = fmaf(h[i], 2.f, 1.f);
            return compare_f32(got.data(), ref.data(), ref.size(), 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("warp_granularity", 20, run);
