// validate/twins/bank_conflicts.cu -- CUDA twin of workloads/bank_conflicts.json
// (kernels/bank_conflicts.asm: bank_stride, bank_swizzle). Teaching case 10:
// fill buf[1024] with buf[w] = w, barrier, then `iters` shared loads per
// thread: bank_stride reads buf[(lane*stride + k) % 1024] (stride 0 is a
// broadcast, 2^j a 2^j-way conflict, 33 conflict-free), bank_swizzle reads
// buf[lane*32 + ((k ^ lane) % 32)]; out[gid] = the sum.
//
// Checked in the compiled code (PTX here, SASS on the H200 by run_device.sh):
// - the loads are volatile: buf[w] = w is known to the compiler, which could
//   otherwise fold a load into index arithmetic; volatile keeps exactly one
//   LDS per iteration (the .asm's ld.shared), nothing else changes.
// - `#pragma unroll 1` on both loops (nvcc unrolls the k loop by 4 else).
// Launch as bank_conflicts.json: n = 8 * 1024 threads, block 1024, the
// stride a literal argument of each variant. Size: iters = 1024 instead of
// the JSON's 128 (stride1 would run ~1 us): 256 warps x 1024 x ~8 = 2.1 M
// simulated warp instructions per variant.
#include "../runner/harness.h"

#include <vector>

using namespace vh;

namespace {

__global__ void bank_stride(unsigned *out, int stride, int iters)
{
    __shared__ unsigned buf[1024];
#pragma unroll 1
    for (unsigned w = threadIdx.x; w < 1024; w += blockDim.x) buf[w] = w;
    __syncthreads();
    const volatile unsigned *vb = buf;
    unsigned lane = threadIdx.x & 31, base = lane * stride, sum = 0;
#pragma unroll 1
    for (int k = 0; k < iters; k++) sum += vb[(base + k) & 1023];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void bank_swizzle(unsigned *out, int iters)
{
    __shared__ unsigned buf[32 * 32];
#pragma unroll 1
    for (unsigned w = threadIdx.x; w < 1024; w += blockDim.x) buf[w] = w;
    __syncthreads();
    const volatile unsigned *vb = buf;
    unsigned lane = threadIdx.x & 31, row = lane * 32, sum = 0;
#pragma unroll 1
    for (int k = 0; k < iters; k++) sum += vb[row + ((k ^ lane) & 31)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void run(Ctx &ctx)
{
    // bank_conflicts.json: blocks of 1024 threads, n = 8 * 1024 threads (8 blocks).
    const int iters = 1024, block = 1024, grid = 8;
    DevBuf<unsigned> out((size_t)grid * block);
    const struct { const char *name; int stride; } vs[] = {
        {"stride1", 1}, {"stride2", 2}, {"stride4", 4}, {"stride8", 8}, {"stride16", 16},
        {"stride32", 32}, {"broadcast", 0}, {"padded", 33}, {"swizzle", -1}};  // the JSON's order
    for (auto &c : vs) {
        bool sw = c.stride < 0;
        Params p = {{"n", (long long)grid * block}, {"iters", iters}};
        Variant v = make_variant("bank_conflicts", c.name, sw ? "bank_swizzle" : "bank_stride",
                                 sw ? (const void *)bank_swizzle : (const void *)bank_stride, dim3(grid), dim3(block), 0, p);
        Body b;
        b.reset = [&] { out.poison(); };
        b.launch = [&, c, sw](cudaStream_t s) {
            if (sw) bank_swizzle<<<grid, block, 0, s>>>(out.p, iters);
            else bank_stride<<<grid, block, 0, s>>>(out.p, c.stride, iters);
        };
        b.check = [&, c, sw] {
            std::vector<unsigned> ref(out.n), got = out.host();
            for (size_t i = 0; i < ref.size(); i++) {
                unsigned lane = (unsigned)(i % block) & 31, sum = 0;
                for (int k = 0; k < iters; k++)
                    sum += sw ? lane * 32 + (((unsigned)k ^ lane) & 31) : (lane * c.stride + k) & 1023;
                ref[i] = sum;
            }
            return compare_u32(got.data(), ref.data(), ref.size());
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("bank_conflicts", 20, run);
