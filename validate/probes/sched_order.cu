// validate/probes/sched_order.cu -- in which order a scheduler's warps get
// their issue slots. The model's schedulers follow sched.policy: gto (the
// last warp picked while it can issue, else the oldest) or lrr (the next
// after the last one picked). Under GTO an issue-bound block's oldest warps
// run ahead and finish first, so the block's resident warps thin out before
// it ends; under round robin they finish together. Nsight says the H200's
// bank_conflicts blocks keep 49-50% of the SM's warps active (all 32 of a
// 1024-thread block, to the end) where the GTO model averages 27-34%.
//
// One block per SM (held there by unused dynamic shared memory) of W warps
// (W = 4, 8, 16, 32: 1, 2, 4, 8 per scheduler) runs the bank_conflicts
// twin's loop: fill a 1024-word shared array, bar.sync, then iters loads
// of buf[(lane * stride + k) % 1024] summed, at stride 1 (issue- and
// integer-pipe bound: 8 SASS instructions an iteration, 4 on the 16-lane
// integer pipe) and stride 16 (16 wavefronts a load: shared-pipe bound).
// The loop runs in four quarters; lane 0 of each warp reads %clock64 before
// the first and after each (outside the timed loop body), with its %warpid.
//
// Per (stride, W), over the blocks (one per SM, the median block):
//   span_cyc      the block's loop time: last warp's end - first warp's start
//   cyc_it_sched  span / (iters * W / 4): cycles per warp-iteration per
//                 scheduler (issue-bound at 8: one instruction a cycle)
//   end_spread    (last end - first end) / span: 0 when the warps finish
//                 together, near 1 when they finish one after another
//   half_spread   the same for the time each warp reached half its loop
//   rank_corr     Spearman correlation, within each scheduler (warpid % 4),
//                 of the warp's launch order (its index in the block) with
//                 its end time: +1 when the oldest finish first (GTO)
//   active_share  time-averaged resident warps over W, from each warp's
//                 loop end (what sm__warps_active sees in the loop)
// Then one block's warps at stride 1, W = 32: index, warpid, the quarter
// stamps relative to the block's first start.
//
// Device time: 2 strides x 4 W x 2 launches of under 1 ms: well under 1 s.
#include "probe.h"

using namespace probe;

namespace {

struct WarpRec {
    unsigned smid, warpid, index, pad;
    unsigned long long t[5];  // loop start, after quarters 1..4
};

__device__ __forceinline__ unsigned warpid()
{
    unsigned w;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    return w;
}

__global__ void order(int stride, int iters, WarpRec *rec, unsigned *out)
{
    extern __shared__ unsigned unused[];  // only holds the block alone on its SM
    __shared__ unsigned buf[1024];
    for (unsigned w = threadIdx.x; w < 1024; w += blockDim.x) buf[w] = w;
    const unsigned lane = threadIdx.x % 32, base = lane * (unsigned)stride;
    unsigned sum = 0, k = 0;
    unsigned long long t[5];
    t[0] = sync_clk();
    const int quarter = iters / 4;
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
#pragma unroll 1
        for (int j = 0; j < quarter; j++, k++) sum += buf[(base + k) % 1024];
        t[q + 1] = clk_after(sum);
    }
    if (lane == 0) {
        WarpRec r;
        r.smid = smid();
        r.warpid = warpid();
        r.index = threadIdx.x / 32;
        r.pad = 0;
        for (int i = 0; i < 5; i++) r.t[i] = t[i];
        rec[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = r;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Spearman's rho of two equally long vectors (no ties expected).
double spearman(const std::vector<double> &a, const std::vector<double> &b)
{
    const size_t n = a.size();
    if (n < 2) return NAN;
    auto ranks = [n](const std::vector<double> &v) {
        std::vector<size_t> idx(n);
        for (size_t i = 0; i < n; i++) idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&v](size_t x, size_t y) { return v[x] < v[y]; });
        std::vector<double> r(n);
        for (size_t i = 0; i < n; i++) r[idx[i]] = (double)i;
        return r;
    };
    std::vector<double> ra = ranks(a), rb = ranks(b);
    double d2 = 0;
    for (size_t i = 0; i < n; i++) d2 += (ra[i] - rb[i]) * (ra[i] - rb[i]);
    return 1.0 - 6.0 * d2 / ((double)n * ((double)n * n - 1.0));
}

struct BlockStats {
    double span, cyc_it, end_spread, half_spread, rank_corr, active_share;
};

BlockStats block_stats(const WarpRec *w, int W, int iters)
{
    unsigned long long s0 = ~0ull, e0 = ~0ull, e1 = 0, h0 = ~0ull, h1 = 0;
    for (int i = 0; i < W; i++) {
        s0 = std::min(s0, w[i].t[0]);
        e0 = std::min(e0, w[i].t[4]);
        e1 = std::max(e1, w[i].t[4]);
        h0 = std::min(h0, w[i].t[2]);
        h1 = std::max(h1, w[i].t[2]);
    }
    BlockStats b;
    b.span = (double)(e1 - s0);
    b.cyc_it = b.span / ((double)iters * W / 4.0);
    b.end_spread = (double)(e1 - e0) / b.span;
    b.half_spread = (double)(h1 - h0) / b.span;
    double resident = 0;
    for (int i = 0; i < W; i++) resident += (double)(w[i].t[4] - s0);
    b.active_share = resident / (b.span * W);
    double rho = 0;
    int groups = 0;
    for (int g = 0; g < 4; g++) {
        std::vector<double> idx, end;
        for (int i = 0; i < W; i++)
            if (w[i].warpid % 4 == (unsigned)g) idx.push_back(w[i].index), end.push_back((double)w[i].t[4]);
        if (idx.size() >= 2) rho += spearman(idx, end), groups++;
    }
    b.rank_corr = groups ? rho / groups : NAN;
    return b;
}

}  // namespace

int main()
{
    init("sched_order", "which warp of a scheduler issues: finish order and spread of an issue-bound block's warps");
    Dev &D = dev();
    const int iters = 4096, maxW = 32;
    WarpRec *rec;
    unsigned *out;
    CK(cudaMalloc(&rec, (size_t)D.sms * maxW * sizeof(WarpRec)));
    CK(cudaMalloc(&out, (size_t)D.sms * maxW * 32 * 4));
    const int static_smem = 4096, dyn_max = (int)D.p.sharedMemPerBlockOptin - static_smem;
    CK(cudaFuncSetAttribute((const void *)order, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn_max));
    std::vector<WarpRec> sample;
    table("sched_order", "one block of W warps per SM, the bank_conflicts loop; medians over the blocks",
          "stride W warps_sched occ span_cyc cyc_it_sched end_spread half_spread rank_corr active_share");
    for (int stride : {1, 16}) {
        for (int W : {4, 8, 16, 32}) {
            const int threads = W * 32;
            const size_t want = smem_for_blocks(1, threads);  // with the static buffer: one block per SM
            const size_t smem = std::min(want > (size_t)static_smem ? want - static_smem : 0, (size_t)dyn_max);
            const int occ = occupancy((const void *)order, threads, smem);
            std::vector<WarpRec> h((size_t)D.sms * W);
            for (int r = 0; r < 2; r++) {  // the first launch warms the instruction caches
                order<<<D.sms, threads, smem>>>(stride, iters, rec, out);
                CKL();
                CK(cudaDeviceSynchronize());
            }
            CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(WarpRec), cudaMemcpyDeviceToHost));
            std::vector<double> span, cyc, es, hs, rc, as;
            for (int b = 0; b < D.sms; b++) {
                BlockStats s = block_stats(&h[(size_t)b * W], W, iters);
                span.push_back(s.span), cyc.push_back(s.cyc_it), es.push_back(s.end_spread);
                hs.push_back(s.half_spread), rc.push_back(s.rank_corr), as.push_back(s.active_share);
            }
            printf("%2d %2d %d %d %9.0f %6.2f %6.3f %6.3f %+6.3f %6.3f\n", stride, W, W / 4, occ, median(span),
                   median(cyc), median(es), median(hs), median(rc), median(as));
            fflush(stdout);
            if (stride == 1 && W == 32) sample.assign(h.begin(), h.begin() + W);
        }
    }
    table("sched_order_warps", "block 0 at stride 1, W = 32: each warp's quarter stamps from the block's first start",
          "index warpid sched q0_cyc q1_cyc q2_cyc q3_cyc end_cyc");
    unsigned long long s0 = ~0ull;
    for (const WarpRec &w : sample) s0 = std::min(s0, w.t[0]);
    for (const WarpRec &w : sample)
        printf("%2u %2u %u %7llu %7llu %7llu %7llu %7llu\n", w.index, w.warpid, w.warpid % 4, w.t[0] - s0, w.t[1] - s0,
               w.t[2] - s0, w.t[3] - s0, w.t[4] - s0);
    finish();
    return 0;
}
