// validate/probes/async_copy.cu -- what asynchronous copies and mbarriers
// cost on one warp: the model times cp.async (LDGSTS) as a global load of
// its size, cp.async.wait_group (DEPBAR) as the wait for the load's data,
// and each mbarrier instruction as one shared-memory access
// (sim/presets/SOURCES.md, "PTX lowering": [ASSUME] until this runs).
//
// Rows (one warp of one block, median of 64 repetitions, cycles):
//   copy_wait_<where>  cp.async of 4 bytes a lane + commit + wait_group 0,
//                      from the copy's issue to after the wait, the source
//                      line in L1 (second touch), in L2 (L1 flushed by
//                      .cg) or in DRAM (a fresh 4 KiB page each time);
//   load_<where>       a dependent ld.global of the same line, for the
//                      difference;
//   copies_per_clk     16-byte copies (cg) of 32 lanes issued back to back,
//                      128 of them from L2, then one wait: copies a cycle;
//   mbar_arrive_test   mbarrier.arrive then test_wait.parity on a barrier of
//                      32, the predicate read: the round trip;
//   mbar_tracked       cp.async + cp.async.mbarrier.arrive.noinc, then
//                      try_wait.parity until true: the data's wait through
//                      a barrier, against copy_wait_l2.
//
// Device time: well under a second.
#include "probe.h"

using namespace probe;

namespace {

constexpr int REPS = 64;

__device__ __forceinline__ void cp4(unsigned dst, const void *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp16cg(unsigned dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void commit_wait0() { asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory"); }

// mode 0: L1 (the line touched just before), 1: L2 (.cg touch, then .ca),
// 2: DRAM (a page never touched). out[2 * r] the copy's cycles, out[2 * r + 1]
// the dependent load's.
__global__ void k_copy_wait(const unsigned *src, int mode, unsigned long long *out)
{
    __shared__ __align__(16) unsigned buf[64 * 4];
    unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
    for (int r = 0; r < REPS; r++) {
        const unsigned *p = src + (size_t)r * 1024 * (mode == 2 ? 4 : 1) + threadIdx.x;
        if (mode == 0) (void)*(volatile const unsigned *)p;
        if (mode == 1) cp16cg((unsigned)__cvta_generic_to_shared(&buf[128 + (threadIdx.x & ~3)]), p - (threadIdx.x & 3));
        if (mode == 1) commit_wait0();
        __syncwarp();
        unsigned long long t0 = clk_with(p);
        cp4(dst, p);
        commit_wait0();
        unsigned v = buf[threadIdx.x];
        unsigned long long t1 = clk_after(v);
        const unsigned *q = p + 32 * 1024 * 64;  // the same place in a second copy of the data
        if (mode == 0) (void)*(volatile const unsigned *)q;
        if (mode == 1) cp16cg((unsigned)__cvta_generic_to_shared(&buf[128 + (threadIdx.x & ~3)]), q - (threadIdx.x & 3));
        if (mode == 1) commit_wait0();
        __syncwarp();
        unsigned long long t2 = clk_with(q);
        unsigned w = *(volatile const unsigned *)q;
        unsigned long long t3 = clk_after(w);
        if (threadIdx.x == 0) out[2 * r] = t1 - t0, out[2 * r + 1] = t3 - t2;
    }
}

// 128 back-to-back 16-byte copies of 32 lanes from L2, one wait.
__global__ void k_copy_rate(const uint4 *src, unsigned long long *out)
{
    __shared__ __align__(16) uint4 buf[32];
    unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
    for (int r = 0; r < REPS; r++) {
        __syncwarp();
        unsigned long long t0 = clk();
#pragma unroll
        for (int k = 0; k < 128; k++) cp16cg(dst, &src[(size_t)k * 32 + threadIdx.x]);
        commit_wait0();
        unsigned long long t1 = clk_after(buf[threadIdx.x].x);
        if (threadIdx.x == 0) out[r] = t1 - t0;
    }
}

// mode 0: arrive + test_wait; mode 1: a copy tracked by the barrier, then try_wait.
__global__ void k_mbar(const unsigned *src, int mode, unsigned long long *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ unsigned buf[32];
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), dst = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 32;" ::"r"(b) : "memory");
    __syncwarp();
    for (int r = 0; r < REPS; r++) {
        const unsigned *p = src + (size_t)r * 1024 + threadIdx.x;
        unsigned parity = r & 1, done = 0;
        __syncwarp();
        unsigned long long t0 = clk_with(p);
        if (mode == 0) {
            asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(b) : "memory");
        } else {
            cp4(dst, p);
            asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(b) : "memory");
        }
        while (!done)
            asm volatile("{\n\t.reg .pred q;\n\tmbarrier.try_wait.parity.shared.b64 q, [%1], %2;\n\tselp.u32 %0, 1, 0, q;\n\t}"
                         : "=r"(done)
                         : "r"(b), "r"(parity)
                         : "memory");
        unsigned v = mode ? buf[threadIdx.x] : done;
        unsigned long long t1 = clk_after(v);
        if (threadIdx.x == 0) out[r] = t1 - t0;
    }
}

}  // namespace

int main()
{
    init("async_copy", "cp.async and mbarrier cycles on one warp");
    size_t words = (size_t)2 * 32 * 1024 * 64;  // two copies of 8 MiB: fresh DRAM pages for every repetition
    unsigned *src;
    unsigned long long *rec;
    CK(cudaMalloc(&src, words * sizeof *src));
    CK(cudaMalloc(&rec, 4 * REPS * sizeof *rec));
    k_fill_u32<<<256, 256>>>(src, words, 7u);
    CKL();
    CK(cudaDeviceSynchronize());
    table("async_copy", "median over 64 repetitions, one warp",
          "row copy_cyc load_cyc");
    const char *where[] = { "l1", "l2", "dram" };
    for (int mode = 0; mode < 3; mode++) {
        k_copy_wait<<<1, 32>>>(src + (mode == 2 ? words / 4 : 0), mode, rec);
        CKL();
        std::vector<unsigned long long> h(2 * REPS);
        CK(cudaMemcpy(h.data(), rec, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
        std::vector<double> c, l;
        for (int r = 1; r < REPS; r++) c.push_back((double)h[2 * r]), l.push_back((double)h[2 * r + 1]);
        printf("copy_wait_%s %.0f %.0f\n", where[mode], median(c), median(l));
    }
    k_copy_rate<<<1, 32>>>((const uint4 *)src, rec);
    CKL();
    std::vector<unsigned long long> h(REPS);
    CK(cudaMemcpy(h.data(), rec, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
    std::vector<double> c;
    for (int r = 1; r < REPS; r++) c.push_back((double)h[r]);
    printf("copies_per_clk %.4f -\n", 128.0 / median(c));
    const char *mb[] = { "mbar_arrive_test", "mbar_tracked" };
    for (int mode = 0; mode < 2; mode++) {
        k_mbar<<<1, 32>>>(src, mode, rec);
        CKL();
        CK(cudaMemcpy(h.data(), rec, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
        c.clear();
        for (int r = 1; r < REPS; r++) c.push_back((double)h[r]);
        printf("%s %.0f -\n", mb[mode], median(c));
    }
    CK(cudaFree(src));
    CK(cudaFree(rec));
    finish();
    return 0;
}
