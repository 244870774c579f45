// validate/twins/compaction.cu -- CUDA twin of workloads/compaction.json
// (kernels/compaction.asm: divergent, compaction). Teaching case 12: an
// element is special when x[i] > threshold and then costs `iters` dependent
// FMAs (ordinary: y = x * 0.5). divergent handles its own element behind an
// if; compaction appends special indices to a shared list (shared atomic),
// reserves room in a global list with one atomicAdd per block, and lets
// threads 0..bucket-1 run the costly loop in full warps.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// `#pragma unroll 1` on the costly loops (nvcc unrolls them by 4): FFMA,
// IADD, ISETP, BRA per step, the .asm's loop rotated (the .asm tests at the
// top: 5 instructions per step, see validate/README.md). The shared atomic
// is ATOMS.ADD, the global one ATOMG/RED.ADD.
// The global count is zeroed before every timed launch (untimed) and the
// list is sized for the largest group of launches, so repeated launches
// never run past it.
// Launch as compaction.json: n = 8 * sm_count * 256, block 256, x uniform in
// [0, 1), threshold 0.875 (1 in 8 special: 4 lanes of a typical warp), 1 KB
// of dynamic shared memory. Size: iters = 512 instead of the JSON's 48 (a
// launch would be a few us): divergent simulates 8448 warps x 512 x 5 =
// 21.6 M warp instructions, compaction ~1060 full warps x 512 x 5 = 2.7 M.
#include "../runner/harness.h"

#include <algorithm>
#include <stdexcept>
#include <cmath>
#include <vector>

using namespace vh;

namespace {

__global__ void divergent(const float *x, float *y, unsigned n, float threshold, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    if (v > threshold) {
#pragma unroll 1
        for (int k = 0; k < iters; k++) v = v * 0.999f + 0.5f;
    } else {
        v = v * 0.5f;
    }
    y[i] = v;
}

__global__ void compaction(const float *x, float *y, unsigned *list, unsigned *count, unsigned n, float threshold,
                           int iters)
{
    __shared__ unsigned bucket, base;
    extern __shared__ unsigned slist[];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    if (tid == 0) bucket = 0;
    __syncthreads();
    bool in = i < n;
    float v = in ? x[i] : 0.f;
    bool flag = in && v > threshold;
    if (in && !flag) y[i] = v * 0.5f;
    if (flag) slist[atomicAdd(&bucket, 1u)] = i;
    __syncthreads();
    unsigned b = bucket;
    if (tid == 0) base = atomicAdd(count, b);  // one global atomic per block
    __syncthreads();
    if (tid >= b) return;
    unsigned j = slist[tid];
    list[base + tid] = j;
    v = x[j];
#pragma unroll 1
    for (int k = 0; k < iters; k++) v = v * 0.999f + 0.5f;
    y[j] = v;
}

void run(Ctx &ctx)
{
    const unsigned block = 256, n = 8 * ctx.sm_count() * block;
    const float threshold = 0.875f;
    const int iters = 512, max_group = 1000;  // the harness's largest group of launches
    DevBuf<float> x(n), y(n);
    DevBuf<unsigned> list((size_t)n / 4 * max_group + n), count(1);
    std::vector<float> hx;
    size_t specials = 0;
    auto reset = [&] {
        fill_uniform(x.p, n, ctx.next_seed(), 0.f, 1.f);
        y.poison();
        list.poison();
        CK(cudaMemset(count.p, 0, sizeof(unsigned)));
        hx = x.host();
        specials = std::count_if(hx.begin(), hx.end(), [&](float f) { return f > threshold; });
        if (specials > n / 4) throw std::runtime_error("compaction: too many special elements for the list");
    };
    auto ref_y = [&] {
        std::vector<float> r(n);
        for (unsigned i = 0; i < n; i++) {
            float v = hx[i];
            if (v > threshold)
                for (int k = 0; k < iters; k++) v = fmaf(v, 0.999f, 0.5f);
            else v *= 0.5f;
            r[i] = v;
        }
        return r;
    };
    const Params params = {{"n", n}, {"iters", iters}};
    {
        Variant v = make_variant("compaction", "divergent", "divergent", (const void *)divergent,
                                 dim3((n + block - 1) / block), dim3(block), 0, params);
        Body b;
        b.reset = reset;
        b.launch = [&](cudaStream_t s) { divergent<<<v.grid, block, 0, s>>>(x.p, y.p, n, threshold, iters); };
        b.check = [&] {
            std::vector<float> r = ref_y();
            return compare_f32(y.host().data(), r.data(), n, 0.0, 1e-6);
        };
        ctx.run(v, b);
    }
    {
        Variant v = make_variant("compaction", "compaction", "compaction", (const void *)compaction,
                                 dim3((n + block - 1) / block), dim3(block), block * 4, params);
        v.note = "count zeroed (untimed) before each timed repetition; the list sized for a whole group of launches";
        Body b;
        b.reset = reset;
        b.between = [&](cudaStream_t s) { CK(cudaMemsetAsync(count.p, 0, sizeof(unsigned), s)); };
        b.launch = [&](cudaStream_t s) {
            compaction<<<v.grid, block, block * 4, s>>>(x.p, y.p, list.p, count.p, n, threshold, iters);
        };
        b.check = [&] {
            std::vector<float> r = ref_y();
            std::string e = compare_f32(y.host().data(), r.data(), n, 0.0, 1e-6);
            if (!e.empty()) return "y: " + e;
            unsigned c = count.host()[0];
            if (c != specials) return "count " + std::to_string(c) + ", expected " + std::to_string(specials);
            std::vector<unsigned> l = list.host(), want;
            l.resize(c);
            std::sort(l.begin(), l.end());
            for (unsigned i = 0; i < n; i++)
                if (hx[i] > threshold) want.push_back(i);
            return compare_u32(l.data(), want.data(), c).empty() ? std::string() : std::string("list is not the special indices");
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("compaction", 20, run);
