// validate/twins/transpose.cu -- CUDA twin of workloads/transpose.json
// (kernels/transpose.asm: transpose_naive, transpose_tiled,
// transpose_tiled_padded, copy). Teaching case 8: an n x n float matrix,
// 32x32-thread blocks, grid ceil(n/32) x ceil(n/32). Indices are 32-bit
// unsigned as in the .asm (mad.lo.u32); only the final address is 64-bit.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - no loops; one 4-byte LDG and one 4-byte STG per thread (naive, copy), or
//   LDG, STS, BAR, LDS, STG (tiled): the same memory instructions as the
//   .asm. The bounds test is a branch around the accesses (the .asm uses
//   @p guards on them): same lanes, same accesses.
// - tile[32][32] / tile[32][33] are 4096 / 4224 bytes of static shared
//   memory, as the .asm's .shared sizes; the column read tile[tx][ty] has
//   the 128-byte (32-way conflict) and 132-byte (conflict-free) lane stride.
// Size: n = 4096 instead of the JSON's 1024: 2 x 67 MB moved per launch,
//   2.2x the 60 MB L2, ~30-150 us per launch. 16.8 M threads = 524 K warps x
//   21-37 instructions = 11-19 M simulated warp instructions per variant,
//   ~15 s each on the simulator (measured: the four variants in 61 s). A
//   larger n would pass 20 s per variant.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void transpose_naive(const float *in, float *out, unsigned n)
{
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= n || row >= n) return;
    out[col * n + row] = in[row * n + col];  // reads coalesced, writes 4n bytes apart
}

__global__ void transpose_tiled(const float *in, float *out, unsigned n)
{
    __shared__ float tile[32][32];
    unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // one bank, 32 ways
}

__global__ void transpose_tiled_padded(const float *in, float *out, unsigned n)
{
    __shared__ float tile[32][33];
    unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // 33 words apart: 32 banks
}

__global__ void copy(const float *in, float *out, unsigned n)
{
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= n || row >= n) return;
    out[row * n + col] = in[row * n + col];
}

void run(Ctx &ctx)
{
    const unsigned n = 4096;
    const size_t nn = (size_t)n * n;
    DevBuf<float> in(nn), out(nn);
    std::vector<float> h_in;
    struct K { const char *variant, *kernel; void (*fn)(const float *, float *, unsigned); bool transposes; };
    const K ks[] = {{"naive", "transpose_naive", transpose_naive, true},
                    {"tiled", "transpose_tiled", transpose_tiled, true},
                    {"tiled_padded", "transpose_tiled_padded", transpose_tiled_padded, true},
                    {"copy", "copy", copy, false}};
    for (const K &k : ks) {
        Variant v;
        v.workload = "transpose";
        v.file = "workloads/transpose.json";
        v.variant = k.variant;
        v.kernel = k.kernel;
        v.params = {{"n", n}};
        v.grid = dim3((n + 31) / 32, (n + 31) / 32);
        v.block = dim3(32, 32);
        v.func = (const void *)k.fn;
        v.bytes = 2.0 * nn * sizeof(float);
        Body b;
        b.reset = [&] {
            fill_uniform(in.p, nn, ctx.next_seed(), -1.f, 1.f);
            out.poison();
            h_in = in.host();
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, v.block, 0, s>>>(in.p, out.p, n); };
        b.check = [&] {
            std::vector<float> ref(nn);
            for (size_t r = 0; r < n; r++)
                for (size_t c = 0; c < n; c++) ref[k.transposes ? c * n + r : r * n + c] = h_in[r * n + c];
            std::vector<float> got = out.host();
            return compare_f32(got.data(), ref.data(), nn, 0.0, 0.0);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("transpose", 20, run);
