// validate/probes/smem.cu -- shared memory: what one warp instruction costs
// the SM's shared-memory pipe for 4-, 8- and 16-byte accesses at each lane
// pattern, its latency, and its bandwidth under load. The model
// (sim/smem.c) splits a W-byte access into W/4 phases of 32/(W/4)
// consecutive lanes, counts per phase the most distinct words any bank is
// asked for (one wavefront each; equal words are a broadcast) and holds
// the pipe one cycle per wavefront (lat.shared + wavefronts - 1 for the
// data). model_wf is that count for each pattern, to compare with cyc_instr.
//
// tput: 2 blocks of 1024 threads per SM (full occupancy), every warp
//   issues 8 x iters ld.volatile.shared (or st.volatile.shared) at
//   base + off(lane), off from the pattern; per-block %clock64 records ->
//   cycles per warp instruction per SM (cyc_instr; 1.0 = one instruction
//   per cycle per SM) and the bytes the lanes asked for per cycle per SM
//   (B_clk_SM = 32 W / cyc_instr).
// lat: one warp chases a pointer through shared memory, each lane its own
//   chain at base + off(lane) + k * 4096 (k = 0..3), W-byte loads whose
//   first word is the next address: cycles per load, loop cancelled by
//   16- and 8-link loops (cyc_link = (t16 - t8) / 8 per iteration).
// Patterns (off(lane), bytes): sN = lane * W * N; bcast = 0 (all lanes one
// address); w4 two_rows = 0 for lanes 0-15, 128 for 16-31 (two words of
// bank 0); w8 halves_same = 8 (l % 16) (lanes l and l+16 read the same
// 8 bytes), halves_conf = 8 (l % 16) + 256 (l / 16) (the half-warps on the
// same banks, other rows), evenodd = 8 (l / 2) + 256 (l % 2) (conflicts if
// phases are lane halves, none if they are even/odd lanes); w16
// quarters_same / quarters_conf / mod4 / halves_same likewise with
// quarter-warps of 8 lanes (128 B).
//
// Device time: ~40 patterns x 1 launch of 0.1-4 ms + ~10 chases x 6
// launches of < 0.1 ms: < 0.2 s; ~2 s in all.
#include "probe.h"

using namespace probe;

namespace {

struct Pattern {
    unsigned off[32];
};

template <int W>
__device__ __forceinline__ unsigned lds(unsigned addr)
{
    unsigned a, b, c, d;
    if (W == 4) {
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(addr) : "memory");
        return a;
    } else if (W == 8) {
        asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr) : "memory");
        return a ^ b;
    } else {
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr) : "memory");
        return a ^ d;  // two of the four words keep it cheap; the load is volatile: all 16 bytes are read
    }
}

// Stores the same registers every time (volatile: each store is done), so
// that no ALU work goes with a store.
template <int W>
__device__ __forceinline__ void sts(unsigned addr, unsigned a, unsigned b, unsigned c, unsigned d)
{
    if (W == 4) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(addr), "r"(a) : "memory");
    else if (W == 8) asm volatile("st.volatile.shared.v2.u32 [%0], {%1,%2};" ::"r"(addr), "r"(a), "r"(b) : "memory");
    else asm volatile("st.volatile.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(addr), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
}

constexpr int WORDS = 4096;  // 16 KB per block

template <int W, bool ST>
__global__ void __launch_bounds__(1024, 2) smem_tput(Pattern pat, unsigned iters, BlockRec *rec, unsigned *out)
{
    __shared__ unsigned sm[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) sm[i] = hash32(i) | 1u;
    __syncthreads();
    const unsigned addr = (unsigned)__cvta_generic_to_shared(sm) + pat.off[threadIdx.x & 31];
    unsigned acc = threadIdx.x;
    const unsigned s0 = hash32(threadIdx.x), s1 = s0 + 1, s2 = s0 + 2, s3 = s0 + 3;
    unsigned long long t0 = sync_clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (ST) sts<W>(addr, s0, s1, s2, s3);
            else acc ^= lds<W>(addr);
        }
    }
    unsigned long long t1 = sync_clk();
    put_rec(rec, t0, t1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc ^ sm[threadIdx.x];
}

template <int W, int U>
__global__ void smem_chase(Pattern pat, unsigned iters, unsigned long long *cyc, unsigned *out)
{
    __shared__ unsigned sm[WORDS];
    const unsigned base = (unsigned)__cvta_generic_to_shared(sm), lane = threadIdx.x & 31;
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) sm[i] = hash32(i) | 1u;
    __syncwarp();
    // lane's cells: off + k * 4096, k = 0..3; the first word of each holds the next one's address
    for (int k = 0; k < 4; k++) sm[(pat.off[lane] + k * 4096) / 4] = base + pat.off[lane] + ((k + 1) & 3) * 4096;
    __syncwarp();
    unsigned a = base + pat.off[lane];
    unsigned long long t0 = clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < U; j++) {
            unsigned a0, a1, a2, a3;
            if (W == 4) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a0) : "r"(a) : "memory");
            else if (W == 8)
                asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a0), "=r"(a1) : "r"(a) : "memory");
            else
                asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                             : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(a) : "memory");
            a = a0;
        }
    }
    unsigned long long t1 = clk_after(a);
    if (lane == 0) cyc[0] = t1 - t0;
    out[lane] = a;
}

// The model's wavefronts (sim/smem.c): per phase of 32/(W/4) lanes, the
// most distinct words one bank is asked for.
int model_wf(const Pattern &p, int W)
{
    const int wpl = W / 4, lanes = 32 / wpl;
    int total = 0;
    for (int ph = 0; ph < wpl; ph++) {
        std::vector<std::vector<unsigned>> bank(32);
        for (int l = ph * lanes; l < (ph + 1) * lanes; l++)
            for (int k = 0; k < wpl; k++) {
                unsigned w = p.off[l] / 4 + k;
                std::vector<unsigned> &b = bank[w % 32];
                if (std::find(b.begin(), b.end(), w) == b.end()) b.push_back(w);
            }
        size_t worst = 1;
        for (auto &b : bank) worst = std::max(worst, b.size());
        total += (int)worst;
    }
    return total;
}

struct Pat {
    const char *name;
    int w;
    unsigned (*off)(unsigned l, unsigned w);
};
unsigned s1(unsigned l, unsigned w) { return l * w; }
unsigned s2(unsigned l, unsigned w) { return l * w * 2; }
unsigned s4(unsigned l, unsigned w) { return l * w * 4; }
unsigned s8(unsigned l, unsigned w) { return l * w * 8; }
unsigned s16(unsigned l, unsigned w) { return l * w * 16; }
unsigned s32(unsigned l, unsigned w) { return l * w * 32; }
unsigned bcast(unsigned, unsigned) { return 0; }
unsigned two_rows(unsigned l, unsigned) { return l < 16 ? 0 : 128; }
unsigned h_same(unsigned l, unsigned) { return 8 * (l % 16); }
unsigned h_conf(unsigned l, unsigned) { return 8 * (l % 16) + 256 * (l / 16); }
unsigned evenodd(unsigned l, unsigned) { return 8 * (l / 2) + 256 * (l % 2); }
unsigned q_same(unsigned l, unsigned) { return 16 * (l % 8); }
unsigned q_conf(unsigned l, unsigned) { return 16 * (l % 8) + 1024 * (l / 8); }
unsigned mod4(unsigned l, unsigned) { return 16 * (l / 4) + 1024 * (l % 4); }
unsigned h16_same(unsigned l, unsigned) { return 16 * (l % 16); }

Pattern make(const Pat &p)
{
    Pattern q;
    for (unsigned l = 0; l < 32; l++) q.off[l] = p.off(l, p.w);
    return q;
}

template <int W, bool ST>
SmRate tput(const Pattern &p, unsigned iters, BlockRec *rec, unsigned *out, int blocks)
{
    SmRate best;
    for (int r = 0; r < 2; r++) {
        smem_tput<W, ST><<<blocks, 1024>>>(p, iters, rec, out);
        CKL();
        CK(cudaDeviceSynchronize());
        std::vector<BlockRec> h(blocks);
        CK(cudaMemcpy(h.data(), rec, blocks * sizeof(BlockRec), cudaMemcpyDeviceToHost));
        SmRate s = sm_rate(h, 32.0 * 8 * iters);  // warp instructions per block
        if (r == 0 || s.rate > best.rate) best = s;
    }
    return best;
}

template <int W, int U>
double chase(const Pattern &p, unsigned iters, unsigned long long *cyc, unsigned *out)
{
    std::vector<double> v;
    for (int r = 0; r < 3; r++) {
        smem_chase<W, U><<<1, 32>>>(p, iters, cyc, out);
        CKL();
        unsigned long long h;
        CK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
        v.push_back((double)h);
    }
    return median(v);
}

}  // namespace

int main()
{
    init("smem", "shared-memory cost per warp instruction by width and lane pattern, latency, bandwidth");
    Dev &D = dev();
    const int blocks = 2 * D.sms;
    BlockRec *rec;
    unsigned *out;
    unsigned long long *cyc;
    CK(cudaMalloc(&rec, blocks * sizeof(BlockRec)));
    CK(cudaMalloc(&out, (size_t)blocks * 1024 * 4));
    CK(cudaMalloc(&cyc, 8));
    const int occ = occupancy((const void *)smem_tput<4, false>, 1024, 0);
    printf("# tput kernels: %d blocks of 1024 per SM (CUDA), grid %d\n", occ, blocks);

    const Pat loads[] = {
        {"s1", 4, s1},      {"s2", 4, s2},           {"s4", 4, s4},           {"s8", 4, s8},
        {"s16", 4, s16},    {"s32", 4, s32},         {"bcast", 4, bcast},     {"two_rows", 4, two_rows},
        {"s1", 8, s1},      {"s2", 8, s2},           {"s4", 8, s4},           {"s8", 8, s8},
        {"s16", 8, s16},    {"s32", 8, s32},         {"bcast", 8, bcast},     {"halves_same", 8, h_same},
        {"halves_conf", 8, h_conf}, {"evenodd", 8, evenodd}, {"s1", 16, s1},  {"s2", 16, s2},
        {"s4", 16, s4},     {"s8", 16, s8},          {"s16", 16, s16},        {"s32", 16, s32},
        {"bcast", 16, bcast}, {"quarters_same", 16, q_same}, {"quarters_conf", 16, q_conf}, {"mod4", 16, mod4},
        {"halves_same", 16, h16_same},
    };
    const Pat stores[] = {
        {"s1", 4, s1}, {"s2", 4, s2}, {"s32", 4, s32}, {"bcast", 4, bcast},
        {"s1", 8, s1}, {"s1", 16, s1}, {"bcast", 16, bcast}, {"s2", 16, s2},
    };
    const unsigned iters = 256;
    table("tput", "per warp instruction, full occupancy; cyc_instr = SM cycles per warp instruction (median over SMs)",
          "op width_B pattern model_wf cyc_instr B_clk_SM cyc_instr_fastest_SM cyc_instr_slowest_SM");
    for (int st = 0; st < 2; st++) {
        const Pat *ps = st ? stores : loads;
        const size_t np = st ? sizeof stores / sizeof stores[0] : sizeof loads / sizeof loads[0];
        for (size_t k = 0; k < np; k++) {
            const Pat &p = ps[k];
            Pattern q = make(p);
            SmRate r;
            if (!st && p.w == 4) r = tput<4, false>(q, iters, rec, out, blocks);
            else if (!st && p.w == 8) r = tput<8, false>(q, iters, rec, out, blocks);
            else if (!st) r = tput<16, false>(q, iters, rec, out, blocks);
            else if (p.w == 4) r = tput<4, true>(q, iters, rec, out, blocks);
            else if (p.w == 8) r = tput<8, true>(q, iters, rec, out, blocks);
            else r = tput<16, true>(q, iters, rec, out, blocks);
            printf("%-3s %2d %-14s %3d %7.2f %7.1f %7.2f %7.2f\n", st ? "st" : "ld", p.w, p.name, model_wf(q, p.w),
                   1.0 / r.rate, 32.0 * p.w * r.rate, 1.0 / r.rate_max, 1.0 / r.rate_min);
            fflush(stdout);
        }
    }

    const Pat chases[] = {
        {"s1", 4, s1},  {"bcast", 4, bcast}, {"s2", 4, s2},   {"s4", 4, s4},    {"s32", 4, s32},
        {"s1", 8, s1},  {"bcast", 8, bcast}, {"s1", 16, s1},  {"bcast", 16, bcast}, {"s2", 16, s2},
    };
    const unsigned citers = 512;
    table("lat", "one warp, dependent loads (cycles per load; the loop cancelled in cyc_link)",
          "op width_B pattern model_wf cyc_link_u16 cyc_link_u8 cyc_link");
    for (const Pat &p : chases) {
        Pattern q = make(p);
        double t16, t8;
        if (p.w == 4) t16 = chase<4, 16>(q, citers, cyc, out), t8 = chase<4, 8>(q, citers, cyc, out);
        else if (p.w == 8) t16 = chase<8, 16>(q, citers, cyc, out), t8 = chase<8, 8>(q, citers, cyc, out);
        else t16 = chase<16, 16>(q, citers, cyc, out), t8 = chase<16, 8>(q, citers, cyc, out);
        printf("ld  %2d %-14s %3d %7.2f %7.2f %7.2f\n", p.w, p.name, model_wf(q, p.w), t16 / (16.0 * citers),
               t8 / (8.0 * citers), (t16 - t8) / (8.0 * citers));
        fflush(stdout);
    }
    finish();
    return 0;
}
