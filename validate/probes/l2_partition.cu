// validate/probes/l2_partition.cu -- is the H200's L2 one cache or two
// halves that each keep what their own SMs read? l2_reuse.cu found that a
// same-order second pass over F bytes, read by the whole chip, loses its
// L2 hits from F = 32-40 MB on, while a reversed one keeps them to ~56 MB,
// and the counters of the two-pass rmsnorm (hidden 8192: 1056 resident rows
// of 32 KB, ~35 MB between a row's two reads) show 1.55x its input read
// from DRAM (validate/results/h200/counters-2026-12-02). Two explanations:
//   (A) two L2 partitions of half the size; an SM's read goes to the
//       partition next to it, which keeps a copy of lines that live in the
//       other one (the A100/H100 whitepapers: "each L2 partition localizes
//       and caches data for memory accesses from SMs in the GPCs directly
//       connected to the partition"). A chip-wide sweep then fills each half
//       with 3/4 of F (its own half plus copies of a quarter), so a
//       same-order pass loses from F = 0.75 x 30 MB = 40 MB;
//   (B) one L2 of 60 MB whose replacement is not LRU.
// What separates them is one SM alone: under (A) every line it reads lands
// in its own half, so its second pass keeps its hits up to 30 MB only, in
// either order; under (B) the one SM sees what the chip sees.
//
// Tables:
//   sweep   F = 4 .. 80 MB: pass 1 (cold, after an L2 flush) and pass 2 in
//           the same order (rr) or reversed (rev), by one block of 1024
//           threads on SM 0 alone ("one") and by the whole chip (8 x 256
//           threads per SM, grid-stride, "all"); median of 5 of each.
//   pair    F = 16 MB: pass 1 on SM 0, pass 2 on SM b, for every b; under
//           (A) an SM of the other half finds half of the lines in its own
//           half and fetches the other half across, so its pass 2 is slower:
//           the SMs split into two groups of pass-2 times.
//   chase   one thread on SM 0 walks a random cycle of 8192 lines (1 MiB,
//           a line each), so every line is in SM 0's partition and at its
//           home; then one thread on SM b walks 2048 of them, each step
//           timed (clock64 around a dependent ld.global.cg): under (A) an
//           SM of SM 0's half finds every line beside it (one latency), one
//           of the other half finds half of them there and half across
//           (two latencies, the far one higher by what a far hit costs).
//           Per SM: the steps' p10 / median / p90, the share of steps above
//           the near latency + 40, and the median of those above and below.
// Device time: sweep ~0.3 s, pair ~0.5 s, chase ~0.2 s.
#include "probe.h"

#include <algorithm>

using namespace probe;

namespace {

// One block on SM `target` reads the buffer (the first block that lands
// there claims the work; every other block leaves at once).
__global__ void pass_one_sm(const float4 *x, size_t n4, int reverse, unsigned target, unsigned *claim,
                            unsigned *worked, float *out)
{
    __shared__ int mine;
    if (threadIdx.x == 0) mine = smid() == target && atomicCAS(claim, 0u, 1u) == 0u;
    __syncthreads();
    if (!mine) return;
    float s = 0.f;
    for (size_t i = threadIdx.x; i < n4; i += blockDim.x) {
        float4 v = x[reverse ? n4 - 1 - i : i];
        s += v.x + v.y + v.z + v.w;
    }
    if (threadIdx.x == 0) atomicAdd(worked, 1u);
    if (__float_as_uint(s) == 0x7fc0dead) out[0] = s;  // never: keeps the loads
}

__global__ void pass_all(const float4 *x, size_t n4, int reverse, float *out)
{
    float s = 0.f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[reverse ? n4 - 1 - i : i];
        s += v.x + v.y + v.z + v.w;
    }
    if (__float_as_uint(s) == 0x7fc0dead) out[0] = s;
}

// One thread on SM `target` (the first that lands there) walks `steps`
// links of the cycle in next[] (a link per 128-byte line), from `start`;
// with lat != NULL each step's cycles are stored.
__global__ void chase_on(const unsigned *next, unsigned start, int steps, unsigned target, unsigned *claim,
                         unsigned *lat, unsigned *end)
{
    if (threadIdx.x != 0 || smid() != target || atomicCAS(claim, 0u, 1u) != 0u) return;
    unsigned p = start;
    for (int i = 0; i < steps; i++) {
        unsigned long long t0 = clk_after(p);
        p = __ldcg(next + (size_t)p * 32);
        unsigned long long t1 = clk_after(p);
        if (lat) lat[i] = (unsigned)(t1 - t0);
    }
    *end = p;
}

struct Bufs {
    const float4 *x;
    unsigned *claim;   // [2]: one word per pass, cleared before pass 1
    unsigned *worked;  // [1]
    float *out;
};

// Pass 1 then pass 2 (times in us); one_sm: on SM a then SM b, else the chip.
void two_passes(const Bufs &B, size_t n4, bool one_sm, int reverse2, unsigned a, unsigned b, double *t1, double *t2,
                cudaEvent_t ev[3])
{
    Dev &D = dev();
    flush_l2();
    CK(cudaMemsetAsync(B.claim, 0, 2 * sizeof(unsigned)));
    CK(cudaEventRecord(ev[0]));
    if (one_sm) pass_one_sm<<<2 * D.sms, 1024>>>(B.x, n4, 0, a, B.claim, B.worked, B.out);
    else pass_all<<<8 * D.sms, 256>>>(B.x, n4, 0, B.out);
    CK(cudaEventRecord(ev[1]));
    if (one_sm) pass_one_sm<<<2 * D.sms, 1024>>>(B.x, n4, reverse2, b, B.claim + 1, B.worked, B.out);
    else pass_all<<<8 * D.sms, 256>>>(B.x, n4, reverse2, B.out);
    CK(cudaEventRecord(ev[2]));
    CK(cudaEventSynchronize(ev[2]));
    CKL();
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    *t1 = ms * 1e3;
    CK(cudaEventElapsedTime(&ms, ev[1], ev[2]));
    *t2 = ms * 1e3;
}

}  // namespace

int main()
{
    init("l2_partition", "one L2 or two halves: second-pass reuse by one SM and by the chip; SM pairs");
    Dev &D = dev();
    const size_t maxF = 80u << 20;
    float4 *x;
    Bufs B;
    CK(cudaMalloc(&x, maxF));
    CK(cudaMalloc(&B.claim, 2 * sizeof(unsigned)));
    CK(cudaMalloc(&B.worked, sizeof(unsigned)));
    CK(cudaMalloc(&B.out, 64));
    B.x = x;
    fill_f32((float *)x, maxF / 4, 31);
    CK(cudaDeviceSynchronize());
    cudaEvent_t ev[3];
    for (auto &e : ev) CK(cudaEventCreate(&e));

    const int sizes_mb[] = {4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 64, 80};
    table("sweep",
          "us per pass, median of 5 (a warm-up first); one: one 1024-thread block on SM 0; all: 8 x 256 threads per "
          "SM; rr: pass 2 in the same order, rev: reversed; r = t2 / t1",
          "F_MB one_t1 one_rr_t2 one_rev_t2 one_rr_r one_rev_r all_t1 all_rr_t2 all_rev_t2 all_rr_r all_rev_r");
    unsigned missing = 0;
    for (int mb : sizes_mb) {
        const size_t n4 = ((size_t)mb << 20) / 16;
        double med[2][3];
        for (int one = 1; one >= 0; one--) {
            std::vector<double> t1, trr, trev;
            for (int rep = 0; rep < 6; rep++)
                for (int rev = 0; rev < 2; rev++) {
                    double a, b;
                    CK(cudaMemset(B.worked, 0, sizeof(unsigned)));
                    two_passes(B, n4, one, rev, 0, 0, &a, &b, ev);
                    unsigned w = 0;
                    CK(cudaMemcpy(&w, B.worked, sizeof w, cudaMemcpyDeviceToHost));
                    if (one && w != 2) missing++;
                    if (rep == 0) continue;
                    if (!rev) t1.push_back(a);
                    (rev ? trev : trr).push_back(b);
                }
            med[one][0] = median(t1), med[one][1] = median(trr), med[one][2] = median(trev);
        }
        printf("%4d %9.1f %9.1f %9.1f %6.3f %6.3f %8.2f %8.2f %8.2f %6.3f %6.3f\n", mb, med[1][0], med[1][1],
               med[1][2], med[1][1] / med[1][0], med[1][2] / med[1][0], med[0][0], med[0][1], med[0][2],
               med[0][1] / med[0][0], med[0][2] / med[0][0]);
        fflush(stdout);
    }
    if (missing) printf("# WARNING: %u one-SM passes found no block on their SM (their times are not one SM's)\n", missing);

    // pair: pass 1 on SM 0, pass 2 on SM b (16 MB: within half of the L2 either way)
    const size_t n4 = ((size_t)16 << 20) / 16;
    std::vector<double> t2(D.sms);
    missing = 0;
    for (int b = 0; b < D.sms; b++) {
        std::vector<double> v;
        for (int rep = 0; rep < 4; rep++) {
            double a, t;
            CK(cudaMemset(B.worked, 0, sizeof(unsigned)));
            two_passes(B, n4, true, 0, 0, (unsigned)b, &a, &t, ev);
            unsigned w = 0;
            CK(cudaMemcpy(&w, B.worked, sizeof w, cudaMemcpyDeviceToHost));
            if (w != 2) missing++;
            if (rep) v.push_back(t);
        }
        t2[b] = median(v);
    }
    // The two groups: split the sorted times at their largest gap.
    std::vector<double> s = t2;
    std::sort(s.begin(), s.end());
    size_t cut = 1;
    for (size_t i = 1; i < s.size(); i++)
        if (s[i] - s[i - 1] > s[cut] - s[cut - 1]) cut = i;
    const double split = 0.5 * (s[cut - 1] + s[cut]);
    table("pair", "F = 16 MB; pass 1 on SM 0, pass 2 (same order) on SM b: us, median of 3; group 0 is SM 0's",
          "sm t2_us group");
    double lo[2] = {1e30, 1e30}, hi[2] = {0, 0};
    int count[2] = {0, 0};
    for (int b = 0; b < D.sms; b++) {
        const int g = (t2[b] > split) == (t2[0] > split) ? 0 : 1;
        count[g]++;
        lo[g] = std::min(lo[g], t2[b]);
        hi[g] = std::max(hi[g], t2[b]);
        printf("%3d %8.1f %d\n", b, t2[b], g);
    }
    printf("# groups: %d SMs with SM 0 (t2 %.1f-%.1f us), %d apart (%.1f-%.1f us); largest gap %.1f us\n", count[0],
           lo[0], hi[0], count[1], lo[1], hi[1], s[cut] - s[cut - 1]);
    printf("# SMs in SM 0's group:");
    for (int b = 0; b < D.sms; b++)
        if ((t2[b] > split) == (t2[0] > split)) printf(" %d", b);
    printf("\n");
    if (missing) printf("# WARNING: %u pair passes found no block on their SM\n", missing);

    // chase: SM 0 warms a random cycle of 8192 lines, SM b walks 2048 steps of it
    const unsigned nodes = 8192, steps = 2048;
    std::vector<unsigned> perm(nodes), hnext((size_t)nodes * 32, 0);
    for (unsigned i = 0; i < nodes; i++) perm[i] = i;
    for (unsigned i = nodes - 1; i > 0; i--) std::swap(perm[i], perm[hash32(i * 7919u + 17u) % (i + 1)]);
    for (unsigned i = 0; i < nodes; i++) hnext[(size_t)perm[i] * 32] = perm[(i + 1) % nodes];
    unsigned *dnext, *dlat, *dend;
    CK(cudaMalloc(&dnext, hnext.size() * sizeof(unsigned)));
    CK(cudaMalloc(&dlat, steps * sizeof(unsigned)));
    CK(cudaMalloc(&dend, sizeof(unsigned)));
    CK(cudaMemcpy(dnext, hnext.data(), hnext.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    table("chase", "cycles per dependent ld.global.cg step on SM b after SM 0 walked all 8192 lines; far: share of "
          "steps above SM 0's own median + 40; lo/hi: medians of the steps below and above that",
          "sm p10 p50 p90 far_share lo_med hi_med");
    double own_median = 0;
    std::vector<double> hi_minus_lo;
    for (int b = 0; b < D.sms; b++) {
        flush_l2();
        CK(cudaMemset(B.claim, 0, 2 * sizeof(unsigned)));
        chase_on<<<2 * D.sms, 32>>>(dnext, perm[0], (int)nodes, 0, B.claim, nullptr, dend);
        chase_on<<<2 * D.sms, 32>>>(dnext, perm[0], (int)steps, (unsigned)b, B.claim + 1, dlat, dend);
        CK(cudaDeviceSynchronize());
        CKL();
        std::vector<unsigned> lat(steps);
        CK(cudaMemcpy(lat.data(), dlat, steps * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::vector<double> v(lat.begin() + 16, lat.end());  // the first steps warm the loop
        std::sort(v.begin(), v.end());
        if (b == 0) own_median = v[v.size() / 2];
        std::vector<double> lo, hi;
        for (double x : v) (x > own_median + 40 ? hi : lo).push_back(x);
        const double lom = lo.empty() ? 0 : lo[lo.size() / 2], him = hi.empty() ? 0 : hi[hi.size() / 2];
        printf("%3d %6.0f %6.0f %6.0f %6.3f %6.0f %6.0f\n", b, qs(v, 0.1), qs(v, 0.5), qs(v, 0.9),
               (double)hi.size() / v.size(), lom, him);
        if (hi.size() > v.size() / 4) hi_minus_lo.push_back(him - lom);
    }
    if (!hi_minus_lo.empty())
        printf("# chase: %zu SMs with a quarter of their steps or more above SM 0's median + 40; median (hi - lo) over "
               "them %.0f cycles\n",
               hi_minus_lo.size(), median(hi_minus_lo));
    finish();
    return 0;
}
