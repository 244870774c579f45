// validate/probes/probe.h -- what the calibration probes share (header only:
// each probe stays one standalone .cu file that includes it).
//
//   probe::init()     no device: "no CUDA device (...)" on stderr, exit 2;
//                     else a 300 ms burn on every SM (an idle H200 was seen
//                     at 345 MHz), the SM clock measured (clock64 against
//                     %globaltimer) and a header of '#' lines: device, clocks.
//   probe::finish()   the clock measured again and the probe's wall time.
//   CK(call)          every CUDA call is checked; a failure prints the call
//                     and line and exits 1. CKL() after every launch.
//   clk(), clk_after(v), sync_clk(), gtime(), smid()
//                     %clock64 (SM cycles; one counter per SM); a clock read
//                     after a compare of v, so not before v is in its
//                     register (ptxas keeps it after the compare; the warp
//                     issues in order); __syncthreads() then the clock, in
//                     one asm statement (a lone clock read may be hoisted
//                     above a barrier); %globaltimer (ns); %smid.
//   BlockRec          (smid, t0, t1) of a block's timed region; sm_rate()
//                     turns them into work per cycle per SM: per SM, the
//                     work of its blocks over max(t1) - min(t0), the median
//                     over SMs (exact: no launch overhead, no clock guess).
//   median_ms()       events around groups of launches, the median group.
//   table()           one "== name: what" line, then the column line; the
//                     rows follow. Columns carry their unit in the name
//                     (_cyc cycles, _ms, _GBs 1e9 B/s, _B bytes, _per_clk).
//
// Fills are random and never zero (a counter hash), as in the runner.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            printf("CUDA error %s: %s at %s:%d\n", cudaGetErrorString(e_), #x, __FILE__, __LINE__);   \
            fflush(stdout);                                                                            \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)
#define CKL() CK(cudaGetLastError())

namespace probe {

// ---- device side -----------------------------------------------------------------
__device__ __forceinline__ unsigned long long clk()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

// A clock read placed after p is computed (p is an operand the read ignores;
// it keeps the address arithmetic of a timed load out of the interval).
__device__ __forceinline__ unsigned long long clk_with(const void *p)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "l"(p) : "memory");
    return t;
}

// A clock read that waits for v: predicated on a compare of v. ptxas may
// drop the predicate (a select follows) but leaves the read after the
// compare, which waits for v's producer (checked in the SASS of the probes).
__device__ __forceinline__ unsigned long long clk_after(unsigned v)
{
    unsigned long long t;
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "setp.ne.u32 p, %1, 0x7fc0dead;\n\t"
        "mov.u64 %0, 0;\n\t"
        "@p mov.u64 %0, %%clock64;\n\t}"
        : "=l"(t)
        : "r"(v)
        : "memory");
    return t;
}

// bar.sync 0, then the clock: in one asm statement, so that ptxas keeps the
// read after the barrier (a separate clock read can be hoisted above it).
__device__ __forceinline__ unsigned long long sync_clk()
{
    unsigned long long t;
    asm volatile("bar.sync 0;\n\tmov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__host__ __device__ __forceinline__ unsigned hash32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

struct BlockRec {
    unsigned smid, pad;
    unsigned long long t0, t1;
};

// Thread 0 writes its block's record (call after a __syncthreads()).
__device__ __forceinline__ void put_rec(BlockRec *r, unsigned long long t0, unsigned long long t1)
{
    if (threadIdx.x == 0) {
        BlockRec b;
        b.smid = smid();
        b.pad = 0;
        b.t0 = t0;
        b.t1 = t1;
        r[blockIdx.x] = b;
    }
}

__global__ void k_burn(unsigned long long ns, float *sink)
{
    unsigned long long t0 = gtime();
    float x = (float)threadIdx.x;
    while (gtime() - t0 < ns) {
#pragma unroll 1
        for (int k = 0; k < 64; k++) x = fmaf(x, 0.9999f, 0.5f);
    }
    if (x == 12345.f) sink[0] = x;  // never true: keeps the loop
}

// out[0] = clock64 cycles over ns of %globaltimer, out[1] = the ns, out[2] =
// the smallest step %globaltimer was seen to take.
__global__ void k_clock(unsigned long long ns, unsigned long long *out)
{
    unsigned long long g0 = gtime(), c0 = clk(), last = g0, step = ~0ull, g;
    do {
        g = gtime();
        if (g != last) {
            step = min(step, g - last);
            last = g;
        }
    } while (g - g0 < ns);
    unsigned long long c1 = clk();
    out[0] = c1 - c0;
    out[1] = g - g0;
    out[2] = step;
}

__global__ void k_fill_f32(float *p, size_t n, unsigned seed, float lo, float hi)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = hash32((unsigned)i ^ hash32(seed + (unsigned)(i >> 32)));
        float u = (float)((h >> 8) + 1) * (1.0f / 16777217.0f);  // (0, 1)
        p[i] = lo + (hi - lo) * u;
    }
}

__global__ void k_fill_u32(unsigned *p, size_t n, unsigned v)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}

// ---- host side ---------------------------------------------------------------------
struct Dev {
    cudaDeviceProp p;
    int sms = 0;
    double mhz = 0;  // measured at init
    void *flush = nullptr;
    size_t flush_bytes = 0;
    float *sink = nullptr;
    std::chrono::steady_clock::time_point t_start;
};
inline Dev &dev()
{
    static Dev d;
    return d;
}

inline double measure_mhz(unsigned long long *step_ns = nullptr)
{
    unsigned long long *d, h[3];
    CK(cudaMalloc(&d, sizeof h));
    k_clock<<<1, 1>>>(20000000ull, d);  // 20 ms
    CKL();
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    if (step_ns) *step_ns = h[2];
    return (double)h[0] / (double)h[1] * 1e3;
}

inline void burn(double ms)
{
    Dev &D = dev();
    k_burn<<<D.sms * 4, 256>>>((unsigned long long)(ms * 1e6), D.sink);
    CKL();
    CK(cudaDeviceSynchronize());
}

inline void init(const char *name, const char *what)
{
    Dev &D = dev();
    D.t_start = std::chrono::steady_clock::now();
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "%s: no CUDA device (%s)\n", name, e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(2);
    }
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&D.p, 0));
    D.sms = D.p.multiProcessorCount;
    CK(cudaMalloc(&D.sink, 64));
    int l2 = 0, khz = 0, mkhz = 0, drv = 0, rt = 0;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&mkhz, cudaDevAttrMemoryClockRate, 0));
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    D.flush_bytes = 2 * (size_t)std::max(l2, 1 << 20);
    CK(cudaMalloc(&D.flush, D.flush_bytes));
    burn(300);
    unsigned long long step = 0;
    D.mhz = measure_mhz(&step);
    printf("# probe %s: %s\n", name, what);
    printf("# device %s, cc %d.%d, %d SMs, reported SM clock %d MHz, memory clock %d MHz, bus %d bit, L2 %d B, "
           "smem/SM %zu B, driver %d, runtime %d\n",
           D.p.name, D.p.major, D.p.minor, D.sms, khz / 1000, mkhz / 1000, D.p.memoryBusWidth, l2,
           D.p.sharedMemPerMultiprocessor, drv, rt);
    printf("# measured SM clock %.1f MHz after a 300 ms burn; globaltimer step %llu ns\n", D.mhz, step);
    fflush(stdout);
}

inline void finish()
{
    Dev &D = dev();
    double mhz = measure_mhz();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - D.t_start).count();
    printf("\n# measured SM clock %.1f MHz at the end (%.1f at the start); wall time %.1f s\n", mhz, D.mhz, s);
    fflush(stdout);
}

// Cycles of the SM clock measured at init in `ms` milliseconds.
inline double ms_to_cyc(double ms) { return ms * 1e3 * dev().mhz; }

inline void flush_l2(cudaStream_t s = 0)
{
    static unsigned char byte = 0;
    CK(cudaMemsetAsync(dev().flush, ++byte | 1, dev().flush_bytes, s));
}

inline void fill_f32(float *p, size_t n, unsigned seed, float lo = -1.f, float hi = 1.f)
{
    k_fill_f32<<<dev().sms * 8, 256>>>(p, n, seed, lo, hi);
    CKL();
}

inline void fill_u32(unsigned *p, size_t n, unsigned v)
{
    k_fill_u32<<<dev().sms * 8, 256>>>(p, n, v);
    CKL();
}

// Median over `reps` groups of `group` back-to-back launches of the time of
// one launch (ms). `before` runs before each group, outside the timing.
template <class F, class B>
double median_ms(F launch, int reps, int group, B before)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<double> v;
    for (int r = 0; r < reps; r++) {
        before();
        CK(cudaEventRecord(a));
        for (int g = 0; g < group; g++) launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CKL();
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        v.push_back(ms / group);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
template <class F>
double median_ms(F launch, int reps, int group)
{
    return median_ms(launch, reps, group, [] {});
}

// q-quantile (0..1) of sorted data, linear between ranks.
inline double qs(const std::vector<double> &s, double q)
{
    if (s.empty()) return NAN;
    double r = q * (double)(s.size() - 1);
    size_t i = (size_t)r;
    if (i + 1 >= s.size()) return s.back();
    return s[i] + (r - (double)i) * (s[i + 1] - s[i]);
}
inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return qs(v, 0.5);
}
inline double mean(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? NAN : s / (double)v.size();
}

struct SmRate {
    double rate = NAN;      // median over SMs of work / span (per cycle)
    double rate_min = NAN;  // slowest SM
    double rate_max = NAN;
    double span = NAN;      // median SM span (cycles)
    int sms = 0;            // SMs that ran blocks
};

// work_per_block: the unit of the rate (instructions, bytes, ...) one block did.
inline SmRate sm_rate(const std::vector<BlockRec> &recs, double work_per_block)
{
    std::vector<unsigned long long> lo(1024, ~0ull), hi(1024, 0);
    std::vector<int> cnt(1024, 0);
    for (const BlockRec &r : recs) {
        unsigned s = r.smid & 1023;
        lo[s] = std::min(lo[s], r.t0);
        hi[s] = std::max(hi[s], r.t1);
        cnt[s]++;
    }
    std::vector<double> rate, span;
    for (int s = 0; s < 1024; s++)
        if (cnt[s] && hi[s] > lo[s]) {
            double sp = (double)(hi[s] - lo[s]);
            span.push_back(sp);
            rate.push_back(cnt[s] * work_per_block / sp);
        }
    SmRate o;
    o.sms = (int)rate.size();
    if (rate.empty()) return o;
    std::sort(rate.begin(), rate.end());
    o.rate = qs(rate, 0.5);
    o.rate_min = rate.front();
    o.rate_max = rate.back();
    o.span = median(span);
    return o;
}

inline void table(const char *name, const char *what, const char *cols)
{
    printf("\n== %s: %s\n%s\n", name, what, cols);
}

// Blocks of `threads` per SM that `smem` bytes of dynamic shared memory
// leave room for (CUDA's answer for kernel f).
inline int occupancy(const void *f, int threads, size_t smem)
{
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, f, threads, smem));
    return b;
}

// Dynamic shared memory that limits a block of `threads` to `blocks` per SM
// (0 when the thread count alone already does), as the runner's twins do it.
inline size_t smem_for_blocks(int blocks, int threads)
{
    const cudaDeviceProp &p = dev().p;
    if (blocks >= p.maxThreadsPerMultiProcessor / threads) return 0;
    size_t s = (p.sharedMemPerMultiprocessor / blocks - p.reservedSharedMemPerBlock) / 128 * 128;
    return std::min(s, p.sharedMemPerBlockOptin);
}

inline void allow_smem(const void *f)
{
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dev().p.sharedMemPerBlockOptin));
}

}  // namespace probe
