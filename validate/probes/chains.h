// validate/probes/chains.h -- dependent-chain latency and full-occupancy
// throughput of one operation, shared by instr_pipes.cu and int_div.cu.
//
// An operation is a struct with a value type T, init(seed) and
// step(x, args, j): one link of a chain (j: its place in the unrolled body,
// so that operands can differ from link to link). Its operands come from
// Args, a kernel parameter (values the compiler cannot know). CHAIN(name,
// Op, C) defines three kernels with plain (extern "C") names, so that their
// SASS is easy to find:
//   lat_NAME_u8, lat_NAME_u16   one warp, one chain, `iters` x 8 or 16
//                               unrolled links between two clock reads (the
//                               second waits for the last link); the
//                               difference of the two cancels the loop's
//                               own instructions: (t16 - t8) / (8 iters)
//   tput_NAME                   blocks of 256 (__launch_bounds__(256, 8):
//                               full occupancy, 2048 threads per SM), C
//                               independent chains x 16 links per iteration;
//                               per-block clock records -> thread ops per
//                               cycle per SM (probe::sm_rate)
// run_chain() measures all three and prints one row (columns in
// chain_columns()). sass_summary in run_probes.sh prints, for every
// lat_X_u16 / lat_X_u8 pair, the SASS instructions per link
// ((count16 - count8) / 8 per opcode): divide cyc_link by it for cycles per
// SASS instruction when a link compiles to more or fewer than one.
#pragma once
#include "probe.h"

namespace probe {

struct Args {
    unsigned u[4], v[4], w[4], s[4];
    float f[4], g[4];
};

template <class T>
__device__ __forceinline__ unsigned bits(T x);
template <>
__device__ __forceinline__ unsigned bits<unsigned>(unsigned x) { return x; }
template <>
__device__ __forceinline__ unsigned bits<int>(int x) { return (unsigned)x; }
template <>
__device__ __forceinline__ unsigned bits<float>(float x) { return __float_as_uint(x); }
template <>
__device__ __forceinline__ unsigned bits<double>(double x)
{
    unsigned long long u = __double_as_longlong(x);
    return (unsigned)u ^ (unsigned)(u >> 32);
}

template <class Op, int U>
__device__ __forceinline__ void lat_body(const Args &a, unsigned iters, unsigned long long *cyc, typename Op::T *out)
{
    typename Op::T x = Op::init(threadIdx.x + 1);
    __syncwarp();
    unsigned long long t0 = clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < U; j++) x = Op::step(x, a, j);
    }
    unsigned long long t1 = clk_after(bits(x));
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
    out[threadIdx.x] = x;
}

template <class Op, int C>
__device__ __forceinline__ void tput_body(const Args &a, unsigned iters, BlockRec *rec, unsigned *out)
{
    typename Op::T x[C];
#pragma unroll
    for (int c = 0; c < C; c++) x[c] = Op::init(threadIdx.x * C + c + 1);
    unsigned long long t0 = sync_clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 16; j++)
#pragma unroll
            for (int c = 0; c < C; c++) x[c] = Op::step(x[c], a, j);
    }
    unsigned long long t1 = sync_clk();
    put_rec(rec, t0, t1);
    unsigned s = 0;
#pragma unroll
    for (int c = 0; c < C; c++) s ^= bits(x[c]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define CHAIN(name, Op, C)                                                                                         \
    extern "C" __global__ void lat_##name##_u8(probe::Args a, unsigned iters, unsigned long long *cyc, void *out)  \
    {                                                                                                              \
        probe::lat_body<Op, 8>(a, iters, cyc, (Op::T *)out);                                                       \
    }                                                                                                              \
    extern "C" __global__ void lat_##name##_u16(probe::Args a, unsigned iters, unsigned long long *cyc, void *out) \
    {                                                                                                              \
        probe::lat_body<Op, 16>(a, iters, cyc, (Op::T *)out);                                                      \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(256, 8)                                                           \
        tput_##name(probe::Args a, unsigned iters, probe::BlockRec *rec, unsigned *out)                            \
    {                                                                                                              \
        probe::tput_body<Op, C>(a, iters, rec, out);                                                               \
    }

struct Chain {
    const char *name;
    const void *lat8, *lat16, *tput;
    int chains;       // C of the throughput kernel
    unsigned cost;    // expected warp issue cycles per link per scheduler (128 / ops per clock per SM), to size the runs
    const char *what;
};
#define CHAIN_ENTRY(name, C, cost, what) \
    probe::Chain { #name, (const void *)lat_##name##_u8, (const void *)lat_##name##_u16, (const void *)tput_##name, C, cost, what }

struct ChainBufs {
    unsigned long long *cyc = nullptr;
    unsigned *out = nullptr;
    BlockRec *rec = nullptr;
    int blocks = 0;
};

inline ChainBufs chain_bufs()
{
    ChainBufs b;
    b.blocks = 8 * dev().sms;
    CK(cudaMalloc(&b.cyc, 8));
    CK(cudaMalloc(&b.out, (size_t)b.blocks * 256 * 4));
    CK(cudaMalloc(&b.rec, (size_t)b.blocks * sizeof(BlockRec)));
    return b;
}

inline const char *chain_columns()
{
    return "op lat_iters cyc_link_u16 cyc_link_u8 cyc_link tput_occ tput_chains ops_per_clk_SM ops_per_clk_SM_min "
           "ops_per_clk_SM_max warp_issue_cyc what";
}

// One warp: cycles of `iters` x U links (median of 3 launches).
inline double chain_lat(const void *f, const Args &a, unsigned iters, ChainBufs &b)
{
    std::vector<double> c;
    for (int r = 0; r < 3; r++) {
        Args aa = a;
        unsigned it = iters;
        void *out = b.out;
        void *args[] = {&aa, &it, &b.cyc, &out};
        CK(cudaLaunchKernel(f, dim3(1), dim3(32), args, 0, 0));
        CKL();
        unsigned long long h = 0;
        CK(cudaMemcpy(&h, b.cyc, 8, cudaMemcpyDeviceToHost));
        c.push_back((double)h);
    }
    return median(c);
}

inline void run_chain(const Chain &ch, const Args &a, ChainBufs &b)
{
    const unsigned lat_iters = ch.cost >= 16 ? 256 : 1024;
    double t16 = chain_lat(ch.lat16, a, lat_iters, b), t8 = chain_lat(ch.lat8, a, lat_iters, b);
    // Throughput: 2048 threads x C chains x 16 links x iters per SM, about
    // 2^19 cycles at the expected rate.
    const unsigned tput_iters = std::max(4u, 2048u / (ch.cost * (unsigned)ch.chains));
    int occ = occupancy(ch.tput, 256, 0);
    SmRate best;
    for (int r = 0; r < 3; r++) {
        Args aa = a;
        unsigned it = tput_iters;
        void *args[] = {&aa, &it, &b.rec, &b.out};
        CK(cudaLaunchKernel(ch.tput, dim3(b.blocks), dim3(256), args, 0, 0));
        CKL();
        CK(cudaDeviceSynchronize());
        std::vector<BlockRec> rec(b.blocks);
        CK(cudaMemcpy(rec.data(), b.rec, rec.size() * sizeof(BlockRec), cudaMemcpyDeviceToHost));
        SmRate s = sm_rate(rec, 256.0 * ch.chains * 16 * tput_iters);
        if (r == 0 || s.rate > best.rate) best = s;  // the best of 3 (first launch: cold instruction cache)
    }
    printf("%-16s %5u %8.2f %8.2f %8.2f %3d %2d %8.2f %8.2f %8.2f %7.2f %s\n", ch.name, lat_iters,
           t16 / (16.0 * lat_iters), t8 / (8.0 * lat_iters), (t16 - t8) / (8.0 * lat_iters), occ, ch.chains, best.rate,
           best.rate_min, best.rate_max, 128.0 / best.rate, ch.what);
    fflush(stdout);
}

}  // namespace probe
