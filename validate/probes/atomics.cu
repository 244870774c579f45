// validate/probes/atomics.cu -- atomics under contention. The model
// resolves a global atomic at L2 with lat.atomic (530, a dependent chain)
// plus one cycle per extra lane on the same address, and a shared atomic
// in the shared pipe with the lanes on one word applied one after another
// (sim/memsys.c memsys_atomic, sim/gpu.c issue_mio): neither rate was
// measured.
//
// global  full occupancy (8 x 256 threads per SM), each thread K atomic
//         adds of 1 to: one  one word for the whole grid; bins  256
//         consecutive words, each atomic to a hashed bin; distinct  its
//         own word (coalesced: a warp covers one line); one_raw  one word
//         at an address the compiler cannot prove uniform (base + (g & 0),
//         the 0 a parameter): ptxas turns a provably warp-uniform atomic
//         into one atomic per warp (vote, popc; a shuffle of the result for
//         atom), so "one" measures that code and "one_raw" what the
//         hardware does with 32 lanes on one address. Ops: red.add.u32
//         and red.add.f32 (result unused: RED), atom.add.u32 (result used:
//         ATOM). Events around one launch (median of 5): atomics per cycle
//         for the whole GPU (and per SM). The u32 sums are checked.
// shared  the same, per block in shared memory (8 x 256 per SM), %clock64
//         records per block -> atomics per cycle per SM: warp_one  every
//         lane of a warp on one word (the warp's own); block_one  every
//         thread of the block on one word; lanes32  each lane its own word
//         (conflict-free); bins  256 words per block, hashed bins;
//         *_raw  as one_raw. Ops: red.shared.add.u32, atom.shared.add.u32,
//         red.shared.add.f32 (not native on sm_90 shared memory: a CAS loop
//         in SASS, expected; its rate counts successful adds).
//
// Device time: global 12 rows x 7 launches of 0.05-2 ms, shared 16 rows x
// 2 launches of 0.1-2 ms: < 0.2 s; ~2 s in all.
#include "probe.h"

using namespace probe;

namespace {

enum Op { RED_U32, RED_F32, ATOM_U32 };
enum Target { ONE, ONE_RAW, BINS, DISTINCT, WARP_ONE, WARP_ONE_RAW, BLOCK_ONE, BLOCK_ONE_RAW, LANES32 };

template <Op O, bool SHARED>
__device__ __forceinline__ unsigned do_atom(unsigned *p, unsigned sp)
{
    unsigned r = 0;
    if (!SHARED) {
        if (O == RED_U32) asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
        if (O == RED_F32) asm volatile("red.global.add.f32 [%0], 0f3F800000;" ::"l"(p) : "memory");
        if (O == ATOM_U32) asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(p) : "memory");
    } else {
        if (O == RED_U32) asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(sp) : "memory");
        if (O == RED_F32) asm volatile("red.shared.add.f32 [%0], 0f3F800000;" ::"r"(sp) : "memory");
        if (O == ATOM_U32) asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r) : "r"(sp) : "memory");
    }
    return r;
}

template <Op O, Target T>
__global__ void __launch_bounds__(256) g_atomics(unsigned *base, unsigned iters, unsigned zero, unsigned *sink)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
        unsigned *p = T == ONE       ? base
                      : T == ONE_RAW ? base + (g & zero)  // the same word, but not provably: no aggregation
                      : T == DISTINCT ? base + g
                                      : base + (hash32(g * 977u + k) & 255u);
        acc += do_atom<O, false>(p, 0);
    }
    if (O == ATOM_U32 && acc == 0x7fc0dead) sink[0] = acc;
}

template <Op O, Target T>
__global__ void __launch_bounds__(256) s_atomics(unsigned iters, unsigned zero, BlockRec *rec, unsigned *sums, unsigned *sink)
{
    __shared__ unsigned w[256];
    w[threadIdx.x] = 0;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned base = (unsigned)__cvta_generic_to_shared(w);
    unsigned acc = 0;
    unsigned long long t0 = sync_clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
        unsigned word = T == WARP_ONE        ? warp * 32
                        : T == WARP_ONE_RAW  ? warp * 32 + (lane & zero)
                        : T == BLOCK_ONE     ? 0
                        : T == BLOCK_ONE_RAW ? threadIdx.x & zero
                        : T == LANES32       ? threadIdx.x
                                             : hash32(threadIdx.x * 977u + k) & 255u;
        acc += do_atom<O, true>(nullptr, base + word * 4);
    }
    unsigned long long t1 = sync_clk();
    put_rec(rec, t0, t1);
    // the block's total (u32 ops: checked on the host)
    if (O != RED_F32) {
        unsigned s = w[threadIdx.x];
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0) atomicAdd(&sums[blockIdx.x], s);
    }
    if (O == ATOM_U32 && acc == 0x7fc0dead) sink[0] = acc;
}

const char *op_name(Op o) { return o == RED_U32 ? "red.u32" : o == RED_F32 ? "red.f32" : "atom.u32"; }
const char *t_name(Target t)
{
    const char *n[] = {"one", "one_raw", "bins", "distinct", "warp_one", "warp_one_raw", "block_one", "block_one_raw", "lanes32"};
    return n[t];
}

template <Op O, Target T>
void run_global(unsigned *base, unsigned *sink, int grid, unsigned iters)
{
    const size_t words = T == DISTINCT ? (size_t)grid * 256 : 256;
    auto go = [&] { g_atomics<O, T><<<grid, 256>>>(base, iters, 0u, sink); };
    CK(cudaMemset(base, 0, words * 4));
    go();
    CK(cudaDeviceSynchronize());
    CKL();
    // check the one launch (u32): the words must add up to grid x 256 x iters
    const char *check = "-";
    if (O != RED_F32) {
        std::vector<unsigned> h(words);
        CK(cudaMemcpy(h.data(), base, words * 4, cudaMemcpyDeviceToHost));
        unsigned long long s = 0;
        for (unsigned v : h) s += v;
        check = s == (unsigned long long)grid * 256 * iters ? "ok" : "WRONG";
    }
    double ms = median_ms(go, 5, 1);
    const double n = (double)grid * 256 * iters, cyc = ms_to_cyc(ms);
    printf("global %-8s %-9s %5u %8.4f %9.2f %8.3f %s\n", op_name(O), t_name(T), iters, ms, n / cyc,
           n / cyc / dev().sms, check);
    fflush(stdout);
}

template <Op O, Target T>
void run_shared(int grid, unsigned iters, BlockRec *rec, unsigned *sums, unsigned *sink)
{
    SmRate best;
    const char *check = "-";
    for (int r = 0; r < 2; r++) {
        CK(cudaMemset(sums, 0, grid * 4));
        s_atomics<O, T><<<grid, 256>>>(iters, 0u, rec, sums, sink);
        CKL();
        CK(cudaDeviceSynchronize());
        std::vector<BlockRec> h(grid);
        CK(cudaMemcpy(h.data(), rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
        SmRate s = sm_rate(h, 256.0 * iters);
        if (r == 0 || s.rate > best.rate) best = s;
        if (O != RED_F32) {
            std::vector<unsigned> hs(grid);
            CK(cudaMemcpy(hs.data(), sums, grid * 4, cudaMemcpyDeviceToHost));
            bool ok = true;
            for (unsigned v : hs) ok = ok && v == 256u * iters;
            check = ok ? "ok" : "WRONG";
        }
    }
    printf("shared %-8s %-9s %5u %8.2f %8.2f %8.2f %s\n", op_name(O), t_name(T), iters, best.rate, best.rate_min,
           best.rate_max, check);
    fflush(stdout);
}

}  // namespace

int main()
{
    init("atomics", "global and shared atomicAdd throughput: one address, 256 bins, no conflict");
    Dev &D = dev();
    const int grid = 8 * D.sms;
    unsigned *base, *sink, *sums;
    BlockRec *rec;
    CK(cudaMalloc(&base, (size_t)grid * 256 * 4));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&sums, grid * 4));
    CK(cudaMalloc(&rec, grid * sizeof(BlockRec)));

    table("global", "K atomics per thread, 8 x 256 threads per SM; events around one launch (median of 5)",
          "space op target K ms atomics_per_clk_gpu atomics_per_clk_SM check");
    run_global<RED_U32, ONE>(base, sink, grid, 16);
    run_global<RED_U32, ONE_RAW>(base, sink, grid, 2);
    run_global<RED_U32, BINS>(base, sink, grid, 16);
    run_global<RED_U32, DISTINCT>(base, sink, grid, 64);
    run_global<RED_F32, ONE>(base, sink, grid, 16);
    run_global<RED_F32, ONE_RAW>(base, sink, grid, 2);
    run_global<RED_F32, BINS>(base, sink, grid, 16);
    run_global<RED_F32, DISTINCT>(base, sink, grid, 64);
    run_global<ATOM_U32, ONE>(base, sink, grid, 16);
    run_global<ATOM_U32, ONE_RAW>(base, sink, grid, 2);
    run_global<ATOM_U32, BINS>(base, sink, grid, 16);
    run_global<ATOM_U32, DISTINCT>(base, sink, grid, 64);

    table("shared", "K atomics per thread, 8 x 256 threads per SM; per-block clock records (median SM; slowest, fastest)",
          "space op target K atomics_per_clk_SM slowest_SM fastest_SM check");
    run_shared<RED_U32, WARP_ONE>(grid, 256, rec, sums, sink);
    run_shared<RED_U32, WARP_ONE_RAW>(grid, 64, rec, sums, sink);
    run_shared<RED_U32, BLOCK_ONE>(grid, 256, rec, sums, sink);
    run_shared<RED_U32, BLOCK_ONE_RAW>(grid, 32, rec, sums, sink);
    run_shared<RED_U32, LANES32>(grid, 1024, rec, sums, sink);
    run_shared<RED_U32, BINS>(grid, 512, rec, sums, sink);
    run_shared<ATOM_U32, WARP_ONE>(grid, 256, rec, sums, sink);
    run_shared<ATOM_U32, WARP_ONE_RAW>(grid, 64, rec, sums, sink);
    run_shared<ATOM_U32, BLOCK_ONE>(grid, 256, rec, sums, sink);
    run_shared<ATOM_U32, BLOCK_ONE_RAW>(grid, 32, rec, sums, sink);
    run_shared<ATOM_U32, LANES32>(grid, 1024, rec, sums, sink);
    run_shared<ATOM_U32, BINS>(grid, 512, rec, sums, sink);
    run_shared<RED_F32, WARP_ONE_RAW>(grid, 64, rec, sums, sink);
    run_shared<RED_F32, BLOCK_ONE_RAW>(grid, 32, rec, sums, sink);
    run_shared<RED_F32, LANES32>(grid, 1024, rec, sums, sink);
    run_shared<RED_F32, BINS>(grid, 512, rec, sums, sink);
    finish();
    return 0;
}
