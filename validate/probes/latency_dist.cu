// validate/probes/latency_dist.cu -- the DISTRIBUTION of a global load's
// latency inside a streaming kernel, not only its mean (loaded_latency.cu
// measures the mean of a lone pointer chase beside a stream). The model
// gives every DRAM request the same loaded latency; a large block waits for
// its slowest warp, so the spread matters (validate/RESULTS.md, worst pairs
// 2: "the model has no latency spread").
//
// Every warp of a grid-stride stream times each of its loads: %clock64
// before the load, and a clock read predicated on the loaded value after it
// (it cannot issue before the data is back), so each sample is one warp
// load's issue-to-use latency with one load in flight per warp, as in the
// light kernel. Lane 0 adds the sample to an 8-cycle-bin histogram in shared
// memory (2048 bins: 0..16383 cycles, the last bin takes the rest). Columns:
//   warps_SM    warps per SM (blocks of 256, or 1 warp per SM for w1);
//               occupancy is set with unused dynamic shared memory
//   load_B      bytes one warp load moves (512: float4, 128: float)
//   GBs         the kernel's bandwidth (reads + writes), events, median of 3
//   little_GBs  what warps x load_B / mean latency would move: about GBs
//               when the timed loads are what limits the stream
//   p*_cyc      percentiles of the per-load latency (bin middles, +-4)
// Rows: DRAM (256 MB, L2 flushed first) read-only float4 at 64/32/16/8/1
// warps per SM, read-only float, the light kernel (x = 2x+1 in place,
// float), a float4 copy; L2 (16 MB warm, ld.global.cg, 16 passes) float4
// and float.
//
// Device time: 11 variants x 4 launches of 0.05-1.5 ms plus L2 flushes and
// fills: < 0.1 s of kernels; ~3 s in all.
#include "probe.h"

using namespace probe;

namespace {

constexpr int NB = 2048, SHIFT = 3;

template <int V, bool CG>
__device__ __forceinline__ void load(const float *p, float *v)
{
    if (V == 4) {
        if (CG)
            asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                         : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(p) : "memory");
        else
            asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                         : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(p) : "memory");
    } else {
        if (CG) asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v[0]) : "l"(p) : "memory");
        else asm volatile("ld.global.f32 %0, [%1];" : "=f"(v[0]) : "l"(p) : "memory");
    }
}

// V floats per thread and load; WRITE: out[e] = 2 v + 1 (out == in: the light kernel).
template <int V, bool CG, bool WRITE>
__global__ void __launch_bounds__(256) timed_stream(const float *in, float *out, size_t mask, unsigned iters,
                                                    unsigned long long *hist, float *sink)
{
    extern __shared__ unsigned h[];  // NB bins; the rest (if any) only limits occupancy
    for (int b = threadIdx.x; b < NB; b += blockDim.x) h[b] = 0;
    __syncthreads();
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.f;
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++, i += stride) {
        float v[4];
        const size_t e = (i * V) & mask;  // mask: footprint in floats - 1 (a power of two)
        const float *p = in + e;
        unsigned long long t0 = clk_with(p);
        load<V, CG>(p, v);
        unsigned long long t1 = clk_after(__float_as_uint(v[0]));
        if (WRITE) {
            if (V == 4) *reinterpret_cast<float4 *>(out + e) = make_float4(2.f * v[0] + 1.f, 2.f * v[1] + 1.f, 2.f * v[2] + 1.f, 2.f * v[3] + 1.f);
            else out[e] = 2.f * v[0] + 1.f;
        }
        acc += v[0];
        if (V == 4) acc += v[1] + v[2] + v[3];
        if ((threadIdx.x & 31) == 0) atomicAdd(&h[min((unsigned)((t1 - t0) >> SHIFT), (unsigned)NB - 1)], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < NB; b += blockDim.x)
        if (h[b]) atomicAdd(&hist[b], (unsigned long long)h[b]);
    if (acc == 12345.f) sink[0] = acc;
}

struct Variant {
    const char *name;
    int v;          // floats per load
    bool cg, write, l2;
    int threads, blocks_per_sm;
    bool copy;      // write to a second buffer instead of in place
};

template <int V, bool CG, bool W>
void launch(int grid, int threads, size_t smem, const float *in, float *out, size_t mask, unsigned iters,
            unsigned long long *hist)
{
    timed_stream<V, CG, W><<<grid, threads, smem>>>(in, out, mask, iters, hist, dev().sink);
}

}  // namespace

int main()
{
    init("latency_dist", "per-load latency distribution of global loads inside streaming kernels");
    Dev &D = dev();
    const size_t dram_bytes = 256u << 20, l2_bytes = 16u << 20;
    float *a, *b;
    unsigned long long *hist;
    CK(cudaMalloc(&a, dram_bytes));
    CK(cudaMalloc(&b, dram_bytes));
    CK(cudaMalloc(&hist, NB * 8));
    fill_f32(a, dram_bytes / 4, 7);
    fill_f32(b, dram_bytes / 4, 8);
    CK(cudaDeviceSynchronize());
    const Variant vs[] = {
        {"dram_v4_w64", 4, false, false, false, 256, 8, false},
        {"dram_v4_w32", 4, false, false, false, 256, 4, false},
        {"dram_v4_w16", 4, false, false, false, 256, 2, false},
        {"dram_v4_w8", 4, false, false, false, 256, 1, false},
        {"dram_v4_w1", 4, false, false, false, 32, 1, false},
        {"dram_f32_w64", 1, false, false, false, 256, 8, false},
        {"dram_f32_w16", 1, false, false, false, 256, 2, false},
        {"light_f32_w64", 1, false, true, false, 256, 8, false},
        {"copy_v4_w64", 4, false, true, false, 256, 8, true},
        {"l2_v4_w64", 4, true, false, true, 256, 8, false},
        {"l2_f32_w64", 1, true, false, true, 256, 8, false},
    };
    const void *fns[] = {(const void *)timed_stream<4, false, false>, (const void *)timed_stream<4, false, true>,
                         (const void *)timed_stream<1, false, false>, (const void *)timed_stream<1, false, true>,
                         (const void *)timed_stream<4, true, false>, (const void *)timed_stream<1, true, false>};
    for (const void *f : fns) allow_smem(f);

    table("latency", "cycles from a warp's load issue to its data, one load in flight per warp; all samples of 3 launches",
          "variant warps_SM load_B footprint_MB GBs little_GBs samples min_cyc p1_cyc p10_cyc p25_cyc p50_cyc "
          "p75_cyc p90_cyc p99_cyc p999_cyc max_cyc mean_cyc over16k");
    for (const Variant &v : vs) {
        const size_t bytes = v.l2 ? l2_bytes : dram_bytes;
        const int grid = v.blocks_per_sm * D.sms;
        const size_t threads_all = (size_t)grid * v.threads;
        // DRAM: one pass over the footprint; L2: 16 passes over it (warm).
        const unsigned iters = (unsigned)(bytes / 4 / v.v * (v.l2 ? 16 : 1) / threads_all);
        const size_t mask = bytes / 4 - 1;
        size_t smem = std::max((size_t)NB * 4, v.threads == 256 ? smem_for_blocks(v.blocks_per_sm, 256) : 0);
        if (v.threads == 32) smem = smem_for_blocks(1, 256);  // one block of one warp per SM
        float *out = v.copy ? b : a;
        auto go = [&] {
            if (v.v == 4 && !v.cg && !v.write) launch<4, false, false>(grid, v.threads, smem, a, out, mask, iters, hist);
            else if (v.v == 4 && !v.cg && v.write) launch<4, false, true>(grid, v.threads, smem, a, out, mask, iters, hist);
            else if (v.v == 1 && !v.cg && !v.write) launch<1, false, false>(grid, v.threads, smem, a, out, mask, iters, hist);
            else if (v.v == 1 && !v.cg && v.write) launch<1, false, true>(grid, v.threads, smem, a, out, mask, iters, hist);
            else if (v.v == 4) launch<4, true, false>(grid, v.threads, smem, a, out, mask, iters, hist);
            else launch<1, true, false>(grid, v.threads, smem, a, out, mask, iters, hist);
        };
        int occ = occupancy(fns[0], v.threads, smem);
        if (occ != v.blocks_per_sm)
            printf("# %s: %zu B of shared memory give %d blocks per SM, not %d\n", v.name, smem, occ, v.blocks_per_sm);
        go();  // warm (for L2 rows: brings the footprint in)
        CK(cudaDeviceSynchronize());
        CKL();
        CK(cudaMemset(hist, 0, NB * 8));
        std::vector<double> ms;
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        for (int r = 0; r < 3; r++) {
            if (!v.l2) flush_l2();
            CK(cudaEventRecord(e0));
            go();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CKL();
            float t = 0;
            CK(cudaEventElapsedTime(&t, e0, e1));
            ms.push_back(t);
        }
        CK(cudaEventDestroy(e0));
        CK(cudaEventDestroy(e1));
        std::vector<unsigned long long> h(NB);
        CK(cudaMemcpy(h.data(), hist, NB * 8, cudaMemcpyDeviceToHost));
        double total = 0, sum = 0;
        for (int k = 0; k < NB; k++) {
            total += (double)h[k];
            sum += (double)h[k] * ((k << SHIFT) + (1 << (SHIFT - 1)));
        }
        auto pct = [&](double q) -> double {
            double want = q * total, c = 0;
            for (int k = 0; k < NB; k++) {
                c += (double)h[k];
                if (c >= want && h[k]) return (double)((k << SHIFT) + (1 << (SHIFT - 1)));
            }
            return (double)NAN;
        };
        int lo = 0, hi = NB - 1;
        while (lo < NB && !h[lo]) lo++;
        while (hi > 0 && !h[hi]) hi--;
        const double med_ms = median(ms);
        const double moved = (double)iters * threads_all * v.v * 4 * (v.write ? 2 : 1);
        const double mean_cyc = sum / total, warps_sm = v.blocks_per_sm * v.threads / 32.0;
        const double little = D.sms * warps_sm * 32 * v.v * 4 * (v.write ? 2 : 1) / mean_cyc * D.mhz * 1e6 / 1e9;
        printf("%-14s %3.0f %4d %5zu %7.0f %7.0f %9.0f %5d %5.0f %5.0f %5.0f %5.0f %5.0f %5.0f %5.0f %6.0f %6d %6.0f %llu\n",
               v.name, warps_sm, 32 * v.v * 4, bytes >> 20, moved / med_ms / 1e6, little, total, lo << SHIFT, pct(.01),
               pct(.1), pct(.25), pct(.5), pct(.75), pct(.9), pct(.99), pct(.999), (hi + 1) << SHIFT, mean_cyc, h[NB - 1]);
        if (!v.l2 && pct(.1) < 100)
            printf("# WARNING %s: p10 below 100 cycles from DRAM: the clock read did not wait for the load\n", v.name);
        fflush(stdout);
    }
    finish();
    return 0;
}
