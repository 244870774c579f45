// validate/twins/gemm.cu -- CUDA twin of workloads/gemm.json
// (kernels/gemm.asm: gemm_naive, gemm_tiled). Teaching cases 6 and 14:
// C = A B, row-major n x n floats, 16x16 blocks on a ceil(n/16)^2 grid.
// naive: one thread per C element, k loop over global memory; tiled: the
// CUDA programming guide's 16x16 shared-memory tiles, zero-padded edges.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - `#pragma unroll 1` on the k loops: nvcc fully unrolls the tiled inner
//   loop (trip count 16), which the .asm deliberately keeps rolled; with the
//   pragma both run LDS, LDS, FFMA (+ index, compare, branch) per k.
// - naive: LDG A, LDG B, FFMA per k. tiled's k loop keeps a counter beside
//   its two pointers: 8 instructions per k against the .asm's 7 (which ends
//   the loop on a pointer compare); close enough not to pin further.
// Size: n = 512 instead of the JSON's 128 (the simulator's cost grows as n^3: 8 K warps x 512 x 6 =
// 25 M warp instructions for naive at n = 512; n = 1024 would be 200 M).
// 2 x 512^3 = 268 MFLOP per launch, tens of microseconds on the H200.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void gemm_naive(const float *A, const float *B, float *C, unsigned n)
{
    unsigned col = blockIdx.x * 16 + threadIdx.x, row = blockIdx.y * 16 + threadIdx.y;
    if (row >= n || col >= n) return;
    float acc = 0.f;
#pragma unroll 1
    for (unsigned k = 0; k < n; k++) acc = fmaf(A[row * n + k], B[k * n + col], acc);
    C[row * n + col] = acc;
}

__global__ void gemm_tiled(const float *A, const float *B, float *C, unsigned n)
{
    __shared__ float As[16][16], Bs[16][16];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned col = blockIdx.x * 16 + tx, row = blockIdx.y * 16 + ty;
    float acc = 0.f;
#pragma unroll 1
    for (unsigned t0 = 0; t0 < n; t0 += 16) {
        unsigned ka = t0 + tx, kb = t0 + ty;
        As[ty][tx] = row < n && ka < n ? A[row * n + ka] : 0.f;
        Bs[ty][tx] = kb < n && col < n ? B[kb * n + col] : 0.f;
        __syncthreads();
#pragma unroll 1
        for (unsigned k = 0; k < 16; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}

void run(Ctx &ctx)
{
    const unsigned n = 512;
    const size_t nn = (size_t)n * n;
    DevBuf<float> A(nn), B(nn), C(nn);
    std::vector<float> ref;
    struct K { const char *variant, *kernel; void (*fn)(const float *, const float *, float *, unsigned); };
    const K ks[] = {{"naive", "gemm_naive", gemm_naive}, {"tiled", "gemm_tiled", gemm_tiled}};
    for (const K &k : ks) {
        Variant v = make_variant("gemm", k.variant, k.kernel, (const void *)k.fn, dim3((n + 15) / 16, (n + 15) / 16),
                                 dim3(16, 16), 0, {{"n", n}});
        v.flops = 2.0 * nn * n;
        v.bytes = 3.0 * nn * 4;
        Body b;
        b.reset = [&] {
            fill_uniform(A.p, nn, ctx.next_seed(), -1.f, 1.f);
            fill_uniform(B.p, nn, ctx.next_seed(), -1.f, 1.f);
            C.poison();
            std::vector<float> hA = A.host(), hB = B.host();
            std::vector<double> acc(nn, 0.0);
            for (size_t r = 0; r < n; r++)
                for (size_t kk = 0; kk < n; kk++) {
                    double a = hA[r * n + kk];
                    for (size_t c = 0; c < n; c++) acc[r * n + c] += a * hB[kk * n + c];
                }
            ref.assign(acc.begin(), acc.end());
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, v.block, 0, s>>>(A.p, B.p, C.p, n); };
        b.check = [&] { return compare_f32(C.host().data(), ref.data(), nn, 1e-3, 1e-4); };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("gemm", 20, run);
