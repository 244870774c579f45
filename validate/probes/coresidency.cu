// validate/probes/coresidency.cu -- how a compute-bound block slows down as
// more blocks share its SM: alone, then with k = 2, 3, 4, 6, 8 blocks of 256
// per SM (grid = k x SMs; unused dynamic shared memory holds each SM to
// exactly k, so all blocks run at once). Tells which shared resource sets
// the pace: with a dependent FFMA chain a warp issues every lat.fma
// cycles, so the SM's 4 schedulers absorb more warps for free until the
// FMA pipe (pipe.fma_interval) or the issue slot (1 per scheduler per
// cycle) is full; with independent chains (ILP) it fills sooner; a mix of
// FFMA and LOP3 chains shows whether two pipes issue in one scheduler's
// slot (the model: one instruction per scheduler per cycle, any pipe).
//
// Every thread does 32768 links in all (dep: one chain; ilp4: 4 chains of
// 8192; ilp8: 8 of 4096; mix: 2 FFMA + 2 LOP3 chains of 8192; rsq: one
// MUFU.RSQ chain of 2048, sfu pipe). Per block %clock64 around the loop
// (thread 0's start, and after a barrier: the block's last warp's end):
//   block_cyc   block lifetime, median over blocks (p10 / p90 too)
//   slowdown    block_cyc / block_cyc at k = 1
//   ops_clk_SM  links per cycle per SM (probe::sm_rate: the SM's blocks'
//               links over first start to last end)
//   warps_sched warps per scheduler (k x 8 warps / 4)
//
// Device time: 5 modes x 6 k x 2 launches of 0.05-1.2 ms: ~20 ms; ~1 s
// in all.
#include "probe.h"

using namespace probe;

namespace {

enum Mode { DEP, ILP4, ILP8, MIX, RSQ };

__device__ __forceinline__ float ffma(float x, float a, float b)
{
    asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    return x;
}
__device__ __forceinline__ unsigned lop3(unsigned x, unsigned a, unsigned b)
{
    asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x) : "r"(a), "r"(b));
    return x;
}
__device__ __forceinline__ float rsq(float x)
{
    asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    return x;
}

template <Mode M>
__global__ void __launch_bounds__(256) work(float a, float b, unsigned ua, unsigned ub, unsigned iters, BlockRec *rec,
                                            float *out)
{
    extern __shared__ unsigned unused[];  // only limits blocks per SM
    float x[8];
    unsigned y[2];
#pragma unroll
    for (int c = 0; c < 8; c++) x[c] = 1.0f + (threadIdx.x * 8 + c) * 1e-4f;
    y[0] = threadIdx.x * 0x9E3779B9u;
    y[1] = y[0] ^ 0x85EBCA77u;
    unsigned long long t0 = clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (M == DEP) x[0] = ffma(x[0], a, b);
            if (M == ILP4)
#pragma unroll
                for (int c = 0; c < 4; c++) x[c] = ffma(x[c], a, b);
            if (M == ILP8)
#pragma unroll
                for (int c = 0; c < 8; c++) x[c] = ffma(x[c], a, b);
            if (M == MIX) {
                x[0] = ffma(x[0], a, b);
                y[0] = lop3(y[0], ua, ub);
                x[1] = ffma(x[1], a, b);
                y[1] = lop3(y[1], ub, ua);
            }
            if (M == RSQ) x[0] = rsq(x[0]);
        }
    }
    unsigned long long t1 = sync_clk();  // the block ends with its last warp
    put_rec(rec, t0, t1);
    float s = x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7] + (float)(y[0] ^ y[1]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

struct ModeInfo {
    const char *name;
    Mode m;
    unsigned iters;        // x 8 unrolled steps
    double links_per_step; // links per thread per unrolled step
};

template <Mode M>
void launch(int grid, size_t smem, unsigned iters, BlockRec *rec, float *out)
{
    work<M><<<grid, 256, smem>>>(0.9999f, 0.5f, 0x9E3779B9u, 0x85EBCA77u, iters, rec, out);
    CKL();
}

}  // namespace

int main()
{
    init("coresidency", "a compute-bound block alone on an SM and with k-1 others");
    Dev &D = dev();
    BlockRec *rec;
    float *out;
    CK(cudaMalloc(&rec, 8 * D.sms * sizeof(BlockRec)));
    CK(cudaMalloc(&out, 8 * D.sms * 256 * 4));
    const void *fs[] = {(const void *)work<DEP>, (const void *)work<ILP4>, (const void *)work<ILP8>,
                        (const void *)work<MIX>, (const void *)work<RSQ>};
    for (const void *f : fs) allow_smem(f);
    const ModeInfo modes[] = {
        {"dep", DEP, 4096, 1}, {"ilp4", ILP4, 1024, 4}, {"ilp8", ILP8, 512, 8}, {"mix", MIX, 1024, 4}, {"rsq", RSQ, 256, 1},
    };
    table("coresidency", "per block cycles (median over blocks) and per SM rate; k blocks of 256 per SM",
          "mode k occ warps_sched block_cyc block_cyc_p10 block_cyc_p90 slowdown ops_clk_SM");
    for (const ModeInfo &mi : modes) {
        double alone = 0;
        for (int k : {1, 2, 3, 4, 6, 8}) {
            const size_t smem = smem_for_blocks(k, 256);
            const int grid = k * D.sms;
            const int occ = occupancy(fs[mi.m], 256, smem);
            std::vector<BlockRec> best;
            double best_med = 0;
            for (int r = 0; r < 2; r++) {
                if (mi.m == DEP) launch<DEP>(grid, smem, mi.iters, rec, out);
                if (mi.m == ILP4) launch<ILP4>(grid, smem, mi.iters, rec, out);
                if (mi.m == ILP8) launch<ILP8>(grid, smem, mi.iters, rec, out);
                if (mi.m == MIX) launch<MIX>(grid, smem, mi.iters, rec, out);
                if (mi.m == RSQ) launch<RSQ>(grid, smem, mi.iters, rec, out);
                CK(cudaDeviceSynchronize());
                std::vector<BlockRec> h(grid);
                CK(cudaMemcpy(h.data(), rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
                std::vector<double> c;
                for (auto &b : h) c.push_back((double)(b.t1 - b.t0));
                double m = median(c);
                if (r == 0 || m < best_med) best_med = m, best = h;  // the first launch: cold instruction caches
            }
            std::vector<double> c;
            for (auto &b : best) c.push_back((double)(b.t1 - b.t0));
            std::sort(c.begin(), c.end());
            if (k == 1) alone = qs(c, .5);
            const double links = 256.0 * mi.iters * 8 * mi.links_per_step;  // per block
            SmRate s = sm_rate(best, links);
            printf("%-5s %d %d %4.1f %9.0f %9.0f %9.0f %6.2f %7.2f\n", mi.name, k, occ, k * 8 / 4.0, qs(c, .5),
                   qs(c, .1), qs(c, .9), qs(c, .5) / alone, s.rate);
            fflush(stdout);
        }
    }
    finish();
    return 0;
}
