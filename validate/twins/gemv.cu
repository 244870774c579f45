// validate/twins/gemv.cu -- CUDA twin of workloads/gemv.json
// (kernels/gemv.asm: gemv_naive, gemv_warp_per_row). Teaching case 6:
// y = A x, A row-major n x n. naive: one thread per row (lanes 4n bytes
// apart: 32 sectors per request); warp_per_row: one warp per row, lanes
// reading consecutive words, then a 5-step shuffle tree.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// `#pragma unroll 1` on both k loops (nvcc unrolls them by 4 otherwise,
// 4 loads of A in flight): LDG A, LDG x, FFMA per iteration as the .asm.
// Launch as gemv.json: block 256, grid ceil(n/256) (naive), ceil(n/8)
// (warp_per_row). Size: n = 8192 instead of the JSON's 2048 (A = 256 MB,
// 4.3x the L2). Simulated: 256 warps x 8192 x ~6 (naive) and 8192 warps x
// 256 x ~6 (warp_per_row) = ~12.6 M warp instructions each.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void gemv_naive(const float *A, const float *x, float *y, unsigned n)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    const float *a = A + r * n;
    float acc = 0.f;
#pragma unroll 1
    for (unsigned k = 0; k < n; k++) acc = fmaf(a[k], x[k], acc);
    y[r] = acc;
}

__global__ void gemv_warp_per_row(const float *A, const float *x, float *y, unsigned n)
{
    unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, l = threadIdx.x & 31;
    if (r >= n) return;
    const float *a = A + r * n;
    float acc = 0.f;
#pragma unroll 1
    for (unsigned k = l; k < n; k += 32) acc = fmaf(a[k], x[k], acc);
    acc += __shfl_down_sync(0xffffffffu, acc, 16);
    acc += __shfl_down_sync(0xffffffffu, acc, 8);
    acc += __shfl_down_sync(0xffffffffu, acc, 4);
    acc += __shfl_down_sync(0xffffffffu, acc, 2);
    acc += __shfl_down_sync(0xffffffffu, acc, 1);
    if (l == 0) y[r] = acc;
}

void run(Ctx &ctx)
{
    const unsigned n = 8192, block = 256;
    const size_t nn = (size_t)n * n;
    DevBuf<float> A(nn), x(n), y(n);
    std::vector<float> hA, hx;
    struct K { const char *variant, *kernel; void (*fn)(const float *, const float *, float *, unsigned); unsigned threads; };
    const K ks[] = {{"naive", "gemv_naive", gemv_naive, n}, {"warp_per_row", "gemv_warp_per_row", gemv_warp_per_row, 32 * n}};
    for (const K &k : ks) {
        Variant v = make_variant("gemv", k.variant, k.kernel, (const void *)k.fn, dim3((k.threads + block - 1) / block),
                                 dim3(block), 0, {{"n", n}});
        v.bytes = 4.0 * (nn + 2.0 * n);
        v.flops = 2.0 * nn;
        Body b;
        b.reset = [&] {
            fill_uniform(A.p, nn, ctx.next_seed(), -1.f, 1.f);
            fill_uniform(x.p, n, ctx.next_seed(), -1.f, 1.f);
            y.poison();
            hA = A.host();
            hx = x.host();
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, block, 0, s>>>(A.p, x.p, y.p, n); };
        b.check = [&] {
            std::vector<float> ref(n), got = y.host();
            for (size_t r = 0; r < n; r++) {
                double acc = 0;
                for (size_t c = 0; c < n; c++) acc += (double)hA[r * n + c] * hx[c];
                ref[r] = (float)acc;
            }
            return compare_f32(got.data(), ref.data(), n, 1e-3, 1e-4);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("gemv", 20, run);
