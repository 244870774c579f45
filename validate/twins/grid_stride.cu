// validate/twins/grid_stride.cu -- CUDA twin of workloads/grid_stride.json
// (kernels/grid_stride.asm: saxpy_one_per_thread, saxpy_grid_stride).
// Teaching case 13: y[i] = a*x[i] + y[i] with one thread per element (grid
// ceil(n/256)) or a grid-stride loop over a fixed grid (4 * sm_count *
// blocks_per_sm blocks: four full waves), a = 2.5, as grid_stride.json.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// a*x[i] + y[i] contracts to one FFMA (the .asm's fma.rn.f32); the
// grid-stride loop is kept rolled (`#pragma unroll 1`; nvcc unrolls it by
// 4 otherwise, putting 4 loads in flight: the ILP case, not this one).
// Size: n = 2^24 (x and y 64 MB each, 3 x 64 MB moved per launch, 3.2x the
// L2; the JSON's n is 2^21); 524 K warps x ~14 = 7.3 M simulated warp
// instructions. In place: y changes with each timed launch.
#include "../runner/harness.h"

#include <cmath>
#include <vector>

using namespace vh;

namespace {

__global__ void saxpy_one_per_thread(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    y[i] = a * x[i] + y[i];
}

__global__ void saxpy_grid_stride(const float *x, float *y, float a, int n)
{
    int stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = a * x[i] + y[i];
}

void run(Ctx &ctx)
{
    const int n = 1 << 24, block = 256;
    const float a = 2.5f;
    DevBuf<float> x((size_t)n), y((size_t)n);
    std::vector<float> hx, hy;
    struct K { const char *variant, *kernel; void (*fn)(const float *, float *, float, int); };
    const K ks[] = {{"one_per_thread", "saxpy_one_per_thread", saxpy_one_per_thread},
                    {"grid_stride", "saxpy_grid_stride", saxpy_grid_stride}};
    for (const K &k : ks) {
        bool gs = k.fn == saxpy_grid_stride;
        unsigned grid = gs ? 4 * ctx.sm_count() * blocks_per_sm((const void *)k.fn, block, 0) : (n + block - 1) / block;
        Variant v = make_variant("grid_stride", k.variant, k.kernel, (const void *)k.fn, dim3(grid), dim3(block), 0,
                                 {{"n", n}});
        v.bytes = 3.0 * n * 4;
        v.flops = 2.0 * n;
        Body b;
        b.reset = [&] {
            fill_uniform(x.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            fill_uniform(y.p, (size_t)n, ctx.next_seed(), -1.f, 1.f);
            hx = x.host();
            hy = y.host();  // in place: y's old contents are the input (not poisoned)
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, block, 0, s>>>(x.p, y.p, a, n); };
        b.check = [&] {
            std::vector<float> ref(n), got = y.host();
            for (int i = 0; i < n; i++) ref[i] = fmaf(a, hx[i], hy[i]);
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("grid_stride", 20, run);
