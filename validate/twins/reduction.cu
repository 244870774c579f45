// validate/twins/reduction.cu -- CUDA twin of workloads/reduction.json
// (kernels/reduction.asm: reduce_acc1, reduce_acc4, reduce_acc4_shared).
// Teaching cases 11 and 13: sum of n floats, a grid-stride loop with one or
// four accumulators, a 5-step shuffle tree and one atomicAdd per warp (acc1,
// acc4) or a shared-memory tree and one atomicAdd per block (acc4_shared).
// Block 256, grid 4 * sm_count as reduction.json launches it (was: sm_count * blocks_per_sm,
// recorded in the launch), acc4_shared with 1 KB of dynamic shared memory.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - `#pragma unroll 1` on every loop: without it nvcc unrolls the
//   one-accumulator loop by 4 and issues 4 loads together, which is exactly
//   the ILP difference acc1 vs acc4 is about.
// - acc4's body keeps its 4 LDG before the 4 FADD; the shuffle tree is 5
//   SHFL.DOWN + FADD; the float atomics are RED.E.ADD.F32 (no return value
//   used), the .asm's atom.global.add.f32.
// - The sum buffer starts at 0 (the kernel adds into it): it is zeroed, not
//   poisoned, before the checked launch.
// Size: n = 2^25 instead of the JSON's 2^22: 128 MB read (2.1x the L2);
// ~1 M warps' worth of elements x ~6 instructions = ~6 M warp instructions.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__device__ __forceinline__ float warp_sum(float v)
{
    v += __shfl_down_sync(0xffffffffu, v, 16);
    v += __shfl_down_sync(0xffffffffu, v, 8);
    v += __shfl_down_sync(0xffffffffu, v, 4);
    v += __shfl_down_sync(0xffffffffu, v, 2);
    v += __shfl_down_sync(0xffffffffu, v, 1);
    return v;
}

__global__ void reduce_acc1(const float *in, float *sum, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, s = gridDim.x * blockDim.x;
    float acc = 0.f;
#pragma unroll 1
    for (; i < n; i += s) acc += in[i];
    acc = warp_sum(acc);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

__device__ __forceinline__ float acc4_loop(const float *in, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, s = gridDim.x * blockDim.x;
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
#pragma unroll 1
    for (; i + 3 * s < n; i += 4 * s) {
        float v0 = in[i], v1 = in[i + s], v2 = in[i + 2 * s], v3 = in[i + 3 * s];  // four loads in flight
        a0 += v0;
        a1 += v1;
        a2 += v2;
        a3 += v3;
    }
#pragma unroll 1
    for (; i < n; i += s) a0 += in[i];
    return (a0 + a1) + (a2 + a3);
}

__global__ void reduce_acc4(const float *in, float *sum, unsigned n)
{
    float acc = warp_sum(acc4_loop(in, n));
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

__global__ void reduce_acc4_shared(const float *in, float *sum, unsigned n)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    sdata[tid] = acc4_loop(in, n);
    __syncthreads();
#pragma unroll 1
    for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
        if (tid < h) sdata[tid] += sdata[tid + h];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(sum, sdata[0]);
}

void run(Ctx &ctx)
{
    const unsigned n = 1u << 25, block = 256;
    DevBuf<float> in(n), sum(1);
    double ref = 0;
    struct K { const char *variant, *kernel; void (*fn)(const float *, float *, unsigned); size_t smem; };
    const K ks[] = {{"acc1", "reduce_acc1", reduce_acc1, 0},
                    {"acc4", "reduce_acc4", reduce_acc4, 0},
                    {"acc4_shared", "reduce_acc4_shared", reduce_acc4_shared, block * 4}};
    for (const K &k : ks) {
        // reduction.json's launch: blocks = 4 * sm_count (32 warps per SM), recorded
        // so that the simulator runs the same grid.
        unsigned grid = 4 * ctx.sm_count();
        Variant v = make_variant("reduction", k.variant, k.kernel, (const void *)k.fn, dim3(grid), dim3(block), k.smem,
                                 {{"n", n}, {"blocks", grid}});
        v.bytes = 4.0 * n;
        v.flops = n;
        Body b;
        b.reset = [&] {
            fill_uniform(in.p, n, ctx.next_seed(), 0.f, 1.f);
            CK(cudaMemset(sum.p, 0, sizeof(float)));  // accumulated into: must start at 0
            std::vector<float> h = in.host();
            ref = 0;
            for (float f : h) ref += f;
        };
        b.launch = [&](cudaStream_t s) { k.fn<<<v.grid, v.block, k.smem, s>>>(in.p, sum.p, n); };
        b.check = [&] {
            float r = (float)ref;
            return compare_f32(sum.host().data(), &r, 1, 0.0, 1e-3);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("reduction", 20, run);
