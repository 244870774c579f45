// validate/probes/barrier.cu -- what a __syncthreads() (bar.sync 0) costs
// by block size: the model releases a barrier the cycle its last warp
// arrives and charges lat.branch (8, not measured) before the warps issue
// again; rmsnorm (two barriers per row) and the tiled transposes and GEMM
// are simulated too fast (validate/RESULTS.md).
//
// Each block runs `iters` x 16 (or 8) barriers back to back with nothing
// between them, timed by %clock64 in thread 0 (per block, median over
// blocks); cyc_bar = (t16 - t8) / 8 per iteration: the loop cancelled.
// Rows: 1, 2, 4, 8, 16, 32 warps per block, one block per SM (the rest of
// the SM kept empty with unused dynamic shared memory) and as many blocks
// per SM as fit (64 warps or 32 blocks), all looping at once.
//
// Device time: 12 rows x 2 kernels x 3 launches of <= 1 ms: < 0.1 s; ~1 s
// in all.
#include "probe.h"

using namespace probe;

namespace {

template <int U>
__global__ void bar_loop(unsigned iters, BlockRec *rec)
{
    extern __shared__ unsigned unused[];  // only limits blocks per SM
    unsigned long long t0 = sync_clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < U; j++) __syncthreads();
    }
    unsigned long long t1 = clk();
    put_rec(rec, t0, t1);
}

// median over blocks of the cycles of one launch
template <int U>
double block_cycles(int grid, int threads, size_t smem, unsigned iters, BlockRec *rec)
{
    std::vector<double> best;
    for (int r = 0; r < 3; r++) {
        bar_loop<U><<<grid, threads, smem>>>(iters, rec);
        CKL();
        CK(cudaDeviceSynchronize());
        std::vector<BlockRec> h(grid);
        CK(cudaMemcpy(h.data(), rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
        std::vector<double> c;
        for (auto &b : h) c.push_back((double)(b.t1 - b.t0));
        double m = median(c);
        best.push_back(m);
    }
    return *std::min_element(best.begin(), best.end());  // the first launch has cold instruction caches
}

}  // namespace

int main()
{
    init("barrier", "__syncthreads cost by warps per block, one block per SM and a full SM");
    Dev &D = dev();
    allow_smem((const void *)bar_loop<8>);
    allow_smem((const void *)bar_loop<16>);
    BlockRec *rec;
    CK(cudaMalloc(&rec, 32 * D.sms * sizeof(BlockRec)));
    const unsigned iters = 1024;
    table("barrier", "cycles per bar.sync (median over blocks); cyc_bar: loop cancelled",
          "warps blocks_per_sm occ cyc_bar_u16 cyc_bar_u8 cyc_bar");
    for (int full = 0; full < 2; full++)
        for (int w : {1, 2, 4, 8, 16, 32}) {
            const int threads = 32 * w, per_sm = full ? std::min(32, 64 / w) : 1;
            const size_t smem = full ? 0 : smem_for_blocks(1, threads);
            const int occ = occupancy((const void *)bar_loop<16>, threads, smem);
            const int grid = per_sm * D.sms;
            double t16 = block_cycles<16>(grid, threads, smem, iters, rec);
            double t8 = block_cycles<8>(grid, threads, smem, iters, rec);
            printf("%2d %2d %2d %7.2f %7.2f %7.2f\n", w, per_sm, occ, t16 / (16.0 * iters), t8 / (8.0 * iters),
                   (t16 - t8) / (8.0 * iters));
            fflush(stdout);
        }
    finish();
    return 0;
}
