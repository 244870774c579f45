// validate/probes/residency.cu -- how blocks live on an SM while a streaming
// kernel runs at low residency: the kernels the simulator streams too fast
// (occupancy light_512/1024 and smem_32k/48k, registers regs_64/regs_128:
// -17..-36% in validate/RESULTS.md, "the worst pairs" 2). Every warp records
// %clock64 at its first instruction and after its last store (a clock read
// predicated on the stored value, so it waits for the load); warp 0 then
// records %smid and %globaltimer (read last). Per block: start = its first warp's start,
// end = its last warp's end. Per SM (one clock per SM, so these are exact):
//   life        block lifetime end - start (cycles): p10, p50, p90, mean;
//               wave1 = the blocks that started before the SM's first end
//   skew        max - min of the block's warp starts (how long its warps
//               take to launch); spread = max - min of its warp ends (how
//               long the block holds its slot for its slowest warp)
//   gap         cycles from the k-th end to the start of the k-th block
//               launched after the first wave, on the same SM (ends and
//               later starts matched in order: a freed slot's refill delay)
//   resident    sum of lifetimes / (last end - first start) per SM: the
//               time-averaged resident blocks, against occ (CUDA's limit)
//               and max (most blocks seen at once)
//   fill        cycles from the SM's first start to the start of its
//               wave1-th block (the launcher filling an empty SM)
// plus the plain kernel's time (ms, GBs) and the recorded one's (ms_rec),
// the cost of recording. Kernels as the twins: light (x = x*2+1 in place,
// 2^24 floats) at 256/512/1024 threads and at 256 with 32/48 KB of unused
// dynamic shared memory or with enough of it for 4 / 2 blocks per SM; smem_reverse (occupancy.cu) at 1/32/48 KB; saxpy
// (registers.cu) at 8/6/4/2 blocks of 256 per SM, emulated with unused
// shared memory as the twin does (registers per thread cannot be raised).
// With a directory argument, per-block records of SMs 0..7 go to
// DIR/residency_blocks.txt (smid start end skew spread, cycles from the
// SM's first start; gt_ns: warp 0's end on %globaltimer, from the kernel's
// earliest).
//
// warps table (the same recorded launch): d = t1 - t0 of each warp (its
// start to its loaded value), over all warps: p10/p50/p90/p99 and mean;
// per block the most of its warps' d (max_d) and their range (range_d),
// and what blocks of the same size would show if each warp's d were drawn
// independently from all warps' d (iid_max_d, iid_range_d: the mean over
// blocks of the max and the range of `warps` draws, a fixed hash as the
// sampler); icc: the share of d's variance that lies between blocks (0:
// a block's warps are independent, 1: they move together).
//
// Device time: 14 variants x ~400 launches (20 groups of 10, plain and
// recorded) of 50-200 us ~ 0.5 s of kernels; ~3 s with setup and the host
// analysis.
#include "probe.h"

#include <map>

using namespace probe;

namespace {

struct __align__(16) WarpRec {
    unsigned long long t0, t1;
};

template <bool REC>
__device__ __forceinline__ void record(unsigned long long t0, float v, WarpRec *wr, unsigned *bi,
                                       unsigned long long *gt)
{
    if (!REC) return;
    unsigned long long t1 = clk_after(__float_as_uint(v));
    if ((threadIdx.x & 31) == 0) wr[blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)] = WarpRec{t0, t1};
    if (threadIdx.x == 0) {
        bi[blockIdx.x] = smid();
        gt[blockIdx.x] = gtime();  // last, so that reading it delays nothing but warp 0's exit
    }
}

template <bool REC>
__global__ void light(float *x, unsigned n, WarpRec *wr, unsigned *bi, unsigned long long *gt)
{
    unsigned long long t0 = REC ? clk() : 0;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 1.f;
    if (i < n) {
        v = x[i] * 2.f + 1.f;
        x[i] = v;
    }
    record<REC>(t0, v, wr, bi, gt);
}

template <bool REC>
__global__ void smem_reverse(float *x, unsigned n, WarpRec *wr, unsigned *bi, unsigned long long *gt)
{
    extern __shared__ float buf[];
    unsigned long long t0 = REC ? clk() : 0;
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? x[i] : 0.f;
    __syncthreads();
    float v = buf[blockDim.x - 1 - t];
    if (i < n) x[i] = v;
    record<REC>(t0, v, wr, bi, gt);
}

template <bool REC>
__global__ void saxpy(const float *x, float *y, float a, unsigned n, WarpRec *wr, unsigned *bi,
                      unsigned long long *gt)
{
    unsigned long long t0 = REC ? clk() : 0;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 1.f;
    if (i < n) {
        v = a * x[i] + y[i];
        y[i] = v;
    }
    record<REC>(t0, v, wr, bi, gt);
}

enum Kind { LIGHT, REVERSE, SAXPY };
struct Variant {
    const char *name;
    Kind kind;
    int threads;
    int blocks_per_sm;  // wanted (0: what the kernel gets with `smem`)
    size_t smem;        // used when blocks_per_sm == 0
};

struct Blk {
    unsigned sm;
    double start, end, skew, spread, gt;
};

}  // namespace

int main(int argc, char **argv)
{
    init("residency", "block lifetimes, slot refill gaps and resident blocks per SM of streaming kernels");
    Dev &D = dev();
    const unsigned n = 1u << 24;
    float *x, *y;
    CK(cudaMalloc(&x, (size_t)n * 4));
    CK(cudaMalloc(&y, (size_t)n * 4));
    const unsigned max_blocks = n / 256, max_warps = n / 32;
    WarpRec *wr;
    unsigned *bi;
    unsigned long long *gt;
    CK(cudaMalloc(&wr, (size_t)max_warps * sizeof(WarpRec)));
    CK(cudaMalloc(&bi, (size_t)max_blocks * 4));
    CK(cudaMalloc(&gt, (size_t)max_blocks * 8));
    for (const void *f : {(const void *)light<true>, (const void *)light<false>, (const void *)smem_reverse<true>,
                          (const void *)smem_reverse<false>, (const void *)saxpy<true>, (const void *)saxpy<false>})
        allow_smem(f);

    FILE *raw = nullptr;
    if (argc > 1) {
        std::string p = std::string(argv[1]) + "/residency_blocks.txt";
        raw = fopen(p.c_str(), "w");
        if (!raw) printf("# cannot write %s\n", p.c_str());
        else fprintf(raw, "variant block smid start_cyc end_cyc skew_cyc spread_cyc gt_ns\n");
    }

    const Variant vs[] = {
        {"light_256", LIGHT, 256, 0, 0},          {"light_512", LIGHT, 512, 0, 0},
        {"light_1024", LIGHT, 1024, 0, 0},        {"light_256_s32k", LIGHT, 256, 0, 32768},
        {"light_256_s48k", LIGHT, 256, 0, 49152}, {"light_256_b4", LIGHT, 256, 4, 0},
        {"light_256_b2", LIGHT, 256, 2, 0},       {"reverse_s1k", REVERSE, 256, 0, 1024},
        {"reverse_s32k", REVERSE, 256, 0, 32768}, {"reverse_s48k", REVERSE, 256, 0, 49152},
        {"saxpy_b8", SAXPY, 256, 8, 0},           {"saxpy_b6", SAXPY, 256, 6, 0},
        {"saxpy_b4", SAXPY, 256, 4, 0},           {"saxpy_b2", SAXPY, 256, 2, 0},
    };

    std::vector<std::string> life_rows, slot_rows, warp_rows;
    for (const Variant &v : vs) {
        const int T = v.threads, warps = T / 32;
        const unsigned blocks = n / T;
        size_t smem = v.blocks_per_sm ? smem_for_blocks(v.blocks_per_sm, T) : v.smem;
        const void *fr = v.kind == LIGHT ? (const void *)light<true>
                         : v.kind == REVERSE ? (const void *)smem_reverse<true>
                                             : (const void *)saxpy<true>;
        const void *fp = v.kind == LIGHT ? (const void *)light<false>
                         : v.kind == REVERSE ? (const void *)smem_reverse<false>
                                             : (const void *)saxpy<false>;
        int occ = occupancy(fp, T, smem), occ_rec = occupancy(fr, T, smem);
        if (v.blocks_per_sm && occ != v.blocks_per_sm)
            printf("# %s: %zu B of shared memory give %d blocks per SM, not %d\n", v.name, smem, occ, v.blocks_per_sm);
        auto launch = [&](bool rec) {
            if (v.kind == LIGHT) {
                if (rec) light<true><<<blocks, T, smem>>>(x, n, wr, bi, gt);
                else light<false><<<blocks, T, smem>>>(x, n, wr, bi, gt);
            } else if (v.kind == REVERSE) {
                if (rec) smem_reverse<true><<<blocks, T, smem>>>(x, n, wr, bi, gt);
                else smem_reverse<false><<<blocks, T, smem>>>(x, n, wr, bi, gt);
            } else {
                if (rec) saxpy<true><<<blocks, T, smem>>>(x, y, 2.5f, n, wr, bi, gt);
                else saxpy<false><<<blocks, T, smem>>>(x, y, 2.5f, n, wr, bi, gt);
            }
        };
        fill_f32(x, n, 11u + (unsigned)life_rows.size());
        fill_f32(y, n, 101u + (unsigned)life_rows.size());
        CK(cudaDeviceSynchronize());
        for (int i = 0; i < 3; i++) launch(false);
        double ms = median_ms([&] { launch(false); }, 20, 10);
        double ms_rec = median_ms([&] { launch(true); }, 20, 10);
        // The records of one more launch, back to back after another (as timed).
        launch(true);
        launch(true);
        CK(cudaDeviceSynchronize());
        CKL();
        std::vector<WarpRec> w((size_t)blocks * warps);
        std::vector<unsigned> b(blocks);
        std::vector<unsigned long long> g0(blocks);
        CK(cudaMemcpy(w.data(), wr, w.size() * sizeof(WarpRec), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), bi, b.size() * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(g0.data(), gt, g0.size() * 8, cudaMemcpyDeviceToHost));
        double bytes = (v.kind == SAXPY ? 3.0 : 2.0) * n * 4;

        // ---- per block ----
        std::vector<Blk> bl(blocks);
        unsigned long long gmin = ~0ull;
        for (unsigned k = 0; k < blocks; k++) gmin = std::min(gmin, g0[k]);
        for (unsigned k = 0; k < blocks; k++) {
            unsigned long long s0 = ~0ull, s1 = 0, e0 = ~0ull, e1 = 0;
            for (int j = 0; j < warps; j++) {
                const WarpRec &r = w[(size_t)k * warps + j];
                s0 = std::min(s0, r.t0);
                s1 = std::max(s1, r.t0);
                e0 = std::min(e0, r.t1);
                e1 = std::max(e1, r.t1);
            }
            bl[k] = Blk{b[k], (double)s0, (double)e1, (double)(s1 - s0), (double)(e1 - e0),
                        (double)(g0[k] - gmin)};
        }
        std::map<unsigned, std::vector<unsigned>> per_sm;
        for (unsigned k = 0; k < blocks; k++) per_sm[bl[k].sm].push_back(k);

        std::vector<double> life, life1, skew, spread, gap, resid, fill, wave1, maxres, nblk;
        for (auto &kv : per_sm) {
            std::vector<unsigned> &ks = kv.second;
            std::sort(ks.begin(), ks.end(), [&](unsigned a, unsigned c) { return bl[a].start < bl[c].start; });
            std::vector<double> st, en;
            double first = bl[ks[0]].start, last = 0, sum = 0;
            for (unsigned k : ks) {
                st.push_back(bl[k].start);
                en.push_back(bl[k].end);
                last = std::max(last, bl[k].end);
                sum += bl[k].end - bl[k].start;
                life.push_back(bl[k].end - bl[k].start);
                skew.push_back(bl[k].skew);
                spread.push_back(bl[k].spread);
            }
            std::sort(en.begin(), en.end());
            size_t c0 = 0;
            while (c0 < st.size() && st[c0] < en[0]) c0++;
            for (size_t k = 0; k < c0; k++) life1.push_back(bl[ks[k]].end - bl[ks[k]].start);
            for (size_t k = 0; k + c0 < st.size(); k++) gap.push_back(st[k + c0] - en[k]);
            wave1.push_back((double)c0);
            fill.push_back(c0 ? st[c0 - 1] - st[0] : 0);
            resid.push_back(sum / (last - first));
            nblk.push_back((double)ks.size());
            // most blocks at once: sweep of starts (+1) and ends (-1)
            std::vector<std::pair<double, int>> ev;
            for (unsigned k : ks) {
                ev.push_back({bl[k].start, 1});
                ev.push_back({bl[k].end, -1});
            }
            std::sort(ev.begin(), ev.end());
            int cur = 0, mx = 0;
            for (auto &e : ev) mx = std::max(mx, cur += e.second);
            maxres.push_back(mx);
            if (raw && kv.first < 8)
                for (unsigned k : ks)
                    fprintf(raw, "%s %u %u %.0f %.0f %.0f %.0f %.0f\n", v.name, k, kv.first, bl[k].start - first,
                            bl[k].end - first, bl[k].skew, bl[k].spread, bl[k].gt);
        }
        for (auto *vec : {&life, &life1, &skew, &spread, &gap, &resid, &fill, &wave1, &maxres, &nblk})
            std::sort(vec->begin(), vec->end());
        char line[1024];
        snprintf(line, sizeof line, "%-15s %5d %6zu %3d %3d %6u %8.4f %8.4f %6.0f %7.0f %7.0f %7.0f %7.0f %7.0f %6.0f %6.0f %6.0f",
                 v.name, T, smem, occ, occ_rec, blocks, ms, ms_rec, bytes / ms / 1e6, qs(life, .1), qs(life, .5),
                 qs(life, .9), mean(life), qs(life1, .5), qs(skew, .5), qs(spread, .5), qs(spread, .9));
        life_rows.push_back(line);
        snprintf(line, sizeof line, "%-15s %3d %5.0f %5.0f %6.0f %6.0f %6.0f %6.0f %6.2f %6.2f %6.2f %4.0f %6.0f %4.0f %4.0f",
                 v.name, occ, qs(wave1, .5), qs(fill, .5), qs(gap, .1), qs(gap, .5), qs(gap, .9), mean(gap),
                 qs(resid, .1), qs(resid, .5), qs(resid, .9), qs(maxres, .5), qs(nblk, .5), nblk.front(), nblk.back());
        slot_rows.push_back(line);

        // ---- per warp: its own time, and how a block's warps go together ----
        std::vector<double> d((size_t)blocks * warps), maxd(blocks), ranged(blocks), bmean(blocks);
        double dsum = 0, dsq = 0;
        for (unsigned k = 0; k < blocks; k++) {
            double mx = 0, mn = 1e300, sm = 0;
            for (int j = 0; j < warps; j++) {
                const WarpRec &r = w[(size_t)k * warps + j];
                double dj = (double)(r.t1 - r.t0);
                d[(size_t)k * warps + j] = dj;
                mx = std::max(mx, dj);
                mn = std::min(mn, dj);
                sm += dj;
                dsum += dj;
                dsq += dj * dj;
            }
            maxd[k] = mx;
            ranged[k] = mx - mn;
            bmean[k] = sm / warps;
        }
        const double nd = (double)d.size(), dmean = dsum / nd, dvar = dsq / nd - dmean * dmean;
        double between = 0, within = 0;
        for (unsigned k = 0; k < blocks; k++) {
            between += (bmean[k] - dmean) * (bmean[k] - dmean);
            for (int j = 0; j < warps; j++) {
                double e = d[(size_t)k * warps + j] - bmean[k];
                within += e * e;
            }
        }
        between /= blocks;
        within /= nd;
        // block means of n iid warps vary by within/n even when independent
        double icc = dvar > 0 ? std::max(0.0, (between - within / (warps > 1 ? warps - 1 : 1)) / dvar) : 0;
        double iid_max = 0, iid_range = 0;
        for (unsigned k = 0; k < blocks; k++) {
            double mx = 0, mn = 1e300;
            for (int j = 0; j < warps; j++) {
                double dj = d[hash32(k * 977u + (unsigned)j * 7919u + 12345u) % d.size()];
                mx = std::max(mx, dj);
                mn = std::min(mn, dj);
            }
            iid_max += mx;
            iid_range += mx - mn;
        }
        iid_max /= blocks;
        iid_range /= blocks;
        std::sort(d.begin(), d.end());
        snprintf(line, sizeof line, "%-15s %5d %6.0f %6.0f %6.0f %6.0f %6.0f %7.0f %7.0f %7.0f %7.0f %7.0f %5.2f",
                 v.name, warps, qs(d, .1), qs(d, .5), qs(d, .9), qs(d, .99), dmean, mean(maxd), iid_max, mean(ranged),
                 iid_range, median(maxd), icc);
        warp_rows.push_back(line);
    }
    if (raw) fclose(raw);

    table("life", "per block, cycles (all blocks of the recorded launch); ms/ms_rec: plain and recorded kernel, median of 20 groups of 10",
          "variant threads smem_B occ occ_rec blocks ms ms_rec GBs life_p10_cyc life_p50_cyc life_p90_cyc "
          "life_mean_cyc wave1_life_p50_cyc skew_p50_cyc spread_p50_cyc spread_p90_cyc");
    for (auto &r : life_rows) printf("%s\n", r.c_str());
    table("slots", "per SM (medians over SMs unless p10/p90); gap: slot refill delay (cycles), resident: time-averaged blocks",
          "variant occ wave1_blocks fill_cyc gap_p10_cyc gap_p50_cyc gap_p90_cyc gap_mean_cyc resident_p10 "
          "resident_p50 resident_p90 resident_max blocks_per_sm blocks_per_sm_min blocks_per_sm_max");
    for (auto &r : slot_rows) printf("%s\n", r.c_str());
    table("warps", "per warp d = t1 - t0 (cycles, the recorded launch); per block the max and range of its warps' d, "
          "against independent draws from all warps' d (iid_*); icc: d's variance share between blocks",
          "variant warps d_p10_cyc d_p50_cyc d_p90_cyc d_p99_cyc d_mean_cyc max_d_mean_cyc iid_max_d_mean_cyc "
          "range_d_mean_cyc iid_range_d_mean_cyc max_d_p50_cyc icc");
    for (auto &r : warp_rows) printf("%s\n", r.c_str());
    finish();
    return 0;
}
