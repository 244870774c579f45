// validate/twins/vecadd.cu -- CUDA twin of workloads/vecadd.json
// (kernels/vecadd.asm: vecadd_scalar, vecadd_float4). Teaching cases 6 and 9:
// c[i] = a[i] + b[i] over n floats, 256-thread blocks.
//   scalar: one element per thread, grid ceil(n/256).
//   float4: 16-byte loads and stores for the n/4 whole float4s, grid
//           ceil(ceil(n/4)/256); the n % 4 left over by a grid-stride scalar
//           tail loop starting at 4*(n/4) + i, as the .asm does.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - scalar: LDG.E, LDG.E, FADD, STG.E; float4: LDG.E.128 x2, 4 FADD,
//   STG.E.128, as ld/st.global.v4 in the .asm.
// - the tail loop stays a loop (`#pragma unroll 1`; nvcc would otherwise
//   unroll it by 4, though it runs at most once per thread here).
// Size: n = 2^24 + 3 instead of the JSON's 2^22: 3 x 67 MB = 3.4x the L2,
//   ~50 us per launch; the +3 makes the tail loop run. Scalar: 524 K warps x
//   16 instructions = 8.4 M simulated warp instructions (memory-bound
//   kernels simulate at ~0.75 M/s: ~11 s).
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void vecadd_scalar(const float *a, const float *b, float *c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    c[i] = a[i] + b[i];
}

__global__ void vecadd_float4(const float *a, const float *b, float *c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, n4 = n / 4;
    if (i < n4) {
        float4 va = reinterpret_cast<const float4 *>(a)[i], vb = reinterpret_cast<const float4 *>(b)[i];
        reinterpret_cast<float4 *>(c)[i] = make_float4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w);
    }
    unsigned stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (unsigned t = 4 * n4 + i; t < n; t += stride) c[t] = a[t] + b[t];
}

void run(Ctx &ctx)
{
    const unsigned n = (1u << 24) + 3;
    DevBuf<float> a(n), b(n), c(n);
    std::vector<float> ha, hb;
    struct K { const char *variant, *kernel; void (*fn)(const float *, const float *, float *, unsigned); unsigned per_thread; };
    const K ks[] = {{"scalar", "vecadd_scalar", vecadd_scalar, 1}, {"float4", "vecadd_float4", vecadd_float4, 4}};
    for (const K &k : ks) {
        Variant v;
        v.workload = "vecadd";
        v.file = "workloads/vecadd.json";
        v.variant = k.variant;
        v.kernel = k.kernel;
        v.params = {{"n", n}};
        unsigned threads = (n + k.per_thread - 1) / k.per_thread;
        v.grid = dim3((threads + 255) / 256);
        v.block = dim3(256);
        v.func = (const void *)k.fn;
        v.bytes = 3.0 * n * sizeof(float);
        v.flops = n;
        Body body;
        body.reset = [&] {
            fill_uniform(a.p, n, ctx.next_seed(), -1.f, 1.f);
            fill_uniform(b.p, n, ctx.next_seed(), -1.f, 1.f);
            c.poison();
            ha = a.host();
            hb = b.host();
        };
        body.launch = [&](cudaStream_t s) { k.fn<<<v.grid, v.block, 0, s>>>(a.p, b.p, c.p, n); };
        body.check = [&] {
            std::vector<float> ref(n);
            for (unsigned i = 0; i < n; i++) ref[i] = ha[i] + hb[i];
            std::vector<float> got = c.host();
            return compare_f32(got.data(), ref.data(), n, 0.0, 0.0);
        };
        ctx.run(v, body);
    }
}

}  // namespace

VH_TWIN("vecadd", 20, run);
