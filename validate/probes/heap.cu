// validate/probes/heap.cu -- what device malloc and free cost: cycles per
// call (%clock64 around each, the median over a thread's calls) for one
// lane, for a warp whose 32 lanes call together, and per block of 256 at
// 1 and 8 blocks per SM on every SM (the allocator's contention), for 16,
// 256 and 4096 bytes, the heap warmed (every size allocated and freed once
// first). The model times each as one control slot [ASSUME] in
// sim/presets/SOURCES.md; this says what a lowering of LOW(n, CTRL, CTRL),
// or a per-lane cost, should be.
//
// Device time: 3 sizes x 4 shapes x 64 calls per thread, < 1 s in all.
#include "probe.h"

#include <algorithm>

using namespace probe;

namespace {

constexpr int CALLS = 64;

// Each thread times CALLS malloc/free pairs; rec[t] = {median malloc, median free} cycles.
__global__ void k_heap(size_t bytes, unsigned long long *rec, int active_lanes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if ((int)(threadIdx.x % 32) >= active_lanes) return;
    unsigned long long m[CALLS], f[CALLS];
    for (int i = 0; i < CALLS; i++) {
        unsigned long long t0 = clock64();
        char *p = static_cast<char *>(malloc(bytes));
        unsigned long long t1 = clock64();
        if (p) p[0] = (char)i;  // touched: the call is not dead
        __syncwarp(__activemask());
        unsigned long long t2 = clock64();
        free(p);
        unsigned long long t3 = clock64();
        m[i] = t1 - t0;
        f[i] = t3 - t2;
    }
    for (int i = 1; i < CALLS; i++)  // insertion sorts: 64 values
        for (int j = i; j > 0 && m[j] < m[j - 1]; j--) {
            unsigned long long x = m[j];
            m[j] = m[j - 1], m[j - 1] = x;
        }
    for (int i = 1; i < CALLS; i++)
        for (int j = i; j > 0 && f[j] < f[j - 1]; j--) {
            unsigned long long x = f[j];
            f[j] = f[j - 1], f[j - 1] = x;
        }
    rec[2 * t] = m[CALLS / 2];
    rec[2 * t + 1] = f[CALLS / 2];
}

}  // namespace

int main()
{
    init("heap", "device malloc/free cycles per call by size and concurrency");
    Dev &D = dev();
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)2 << 30));  // 8 blocks of 256 on every SM, 4 KiB each: 1.1 GB
    const size_t sizes[] = { 16, 256, 4096 };
    struct Shape { const char *name; int blocks, threads, lanes; } shapes[] = {
        { "one_lane", 1, 32, 1 }, { "one_warp", 1, 32, 32 },
        { "block256_x1_per_sm", D.sms, 256, 32 }, { "block256_x8_per_sm", 8 * D.sms, 256, 32 } };
    size_t most = (size_t)8 * D.sms * 256;
    unsigned long long *rec;
    CK(cudaMalloc(&rec, most * 2 * sizeof *rec));
    for (size_t b : sizes) k_heap<<<D.sms, 256>>>(b, rec, 32);  // warm: every size once
    CK(cudaDeviceSynchronize());
    table("heap", "median cycles per call; p10/p90 over the threads' medians",
          "shape bytes threads malloc_p50_cyc malloc_p10_cyc malloc_p90_cyc free_p50_cyc free_p10_cyc free_p90_cyc kernel_ms");
    for (const Shape &s : shapes)
        for (size_t b : sizes) {
            cudaEvent_t e0, e1;
            CK(cudaEventCreate(&e0));
            CK(cudaEventCreate(&e1));
            CK(cudaEventRecord(e0));
            k_heap<<<s.blocks, s.threads>>>(b, rec, s.lanes);
            CK(cudaEventRecord(e1));
            CKL();
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            size_t n = (size_t)s.blocks * s.threads;
            std::vector<unsigned long long> h(2 * n);
            CK(cudaMemcpy(h.data(), rec, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
            std::vector<double> m, f;
            for (size_t t = 0; t < n; t++)
                if ((int)(t % 32) < s.lanes) m.push_back((double)h[2 * t]), f.push_back((double)h[2 * t + 1]);
            std::sort(m.begin(), m.end());
            std::sort(f.begin(), f.end());
            printf("%s %zu %zu %.0f %.0f %.0f %.0f %.0f %.0f %.3f\n", s.name, b, m.size(), qs(m, 0.5), qs(m, 0.1),
                   qs(m, 0.9), qs(f, 0.5), qs(f, 0.1), qs(f, 0.9), ms);
            CK(cudaEventDestroy(e0));
            CK(cudaEventDestroy(e1));
        }
    CK(cudaFree(rec));
    finish();
    return 0;
}
