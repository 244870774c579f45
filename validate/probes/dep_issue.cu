// validate/probes/dep_issue.cu -- why dependent chains from many warps do
// not fill an SM's issue slots. coresidency.cu found that one FFMA chain
// per thread (fma x, x, a, b; a and b in registers) runs at 47.6 links per
// cycle per SM with 2 warps per scheduler and saturates at 55-56 with 4 to
// 16 (0.6 instructions per cycle per scheduler), while 4 or 8 independent
// chains per thread reach 117-122 at 2 warps per scheduler. The timing
// model issues a ready warp every cycle, so 4 warps of one chain fill a
// scheduler (80 links per cycle per SM simulated, 4+ warps). Candidates:
// register-file bank conflicts (an instruction reading 3 registers from
// 2 banks takes 2 cycles unless the operand reuse cache holds one, which
// only helps a warp that issues back to back), or a cost to switching
// warps every cycle. The modes change one thing at a time:
//   ffma_rr   fma x, x, a, b    a, b in registers (3 register reads)
//   ffma_ri   fma x, x, a, 0.5  a register, an immediate (2 reads)
//   fmul_i    mul x, x, 0.9999  one register read
//   fadd_r    add x, x, b       2 register reads
//   ffma_rr2  two chains per thread, interleaved (x0, x1), as ffma_rr:
//             the same warp can issue twice in a row
//   iadd_r    add.u32 x, x, a   (ptxas may merge two links into an IADD3:
//             see the SASS summary; links counted as written)
//   loop1     one FFMA per loop iteration (unroll 1: FFMA, IADD3, ISETP,
//             BRA), as the waves twin: the loop's IADD -> ISETP -> BRA ->
//             IADD path sets the pace. The waves twin takes 30 cycles an
//             iteration with one warp per scheduler on the H200, the model
//             17 (lat.alu 4 + 4 + lat.branch 8 + 1): how a taken branch's
//             predicate and redirect cost, and whether more warps hide it
// k blocks of 256 per SM (k = 1, 2, 4, 8: 2 to 16 warps per scheduler),
// held to k by unused dynamic shared memory, all resident at once. Per
// block %clock64 as in coresidency.cu:
//   ops_clk_SM  links per cycle per SM (probe::sm_rate)
//   block_cyc   block lifetime, median over blocks
//
// Device time: 7 modes x 4 k x 2 launches of 0.05-0.5 ms: ~10 ms; ~1 s
// in all.
#include "probe.h"

using namespace probe;

namespace {

enum Mode { FFMA_RR, FFMA_RI, FMUL_I, FADD_R, FFMA_RR2, IADD_R, LOOP1 };

template <Mode M>
__global__ void __launch_bounds__(256) work(float a0, float b0, unsigned ua0, unsigned iters, BlockRec *rec, float *out)
{
    extern __shared__ unsigned unused[];  // only limits blocks per SM
    float a, b;
    unsigned ua;
    // opaque to ptxas: the operands live in registers, not constant banks
    asm volatile("mov.b32 %0, %1;" : "=f"(a) : "f"(a0));
    asm volatile("mov.b32 %0, %1;" : "=f"(b) : "f"(b0));
    asm volatile("mov.b32 %0, %1;" : "=r"(ua) : "r"(ua0));
    float x0 = 1.0f + threadIdx.x * 1e-4f, x1 = x0 + 0.5f;
    unsigned y = threadIdx.x * 0x9E3779B9u;
    unsigned long long t0 = clk();
    if (M == LOOP1) {  // FFMA, IADD, ISETP, BRA: the loop's own path is the critical one
#pragma unroll 1
        for (unsigned k = 0; k < iters * 8; k++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x0) : "f"(a), "f"(b));
    }
#pragma unroll 1
    for (unsigned k = 0; M != LOOP1 && k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (M == FFMA_RR) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x0) : "f"(a), "f"(b));
            if (M == FFMA_RI) asm volatile("fma.rn.f32 %0, %0, %1, 0f3F000000;" : "+f"(x0) : "f"(a));
            if (M == FMUL_I) asm volatile("mul.rn.f32 %0, %0, 0f3F7FF972;" : "+f"(x0));
            if (M == FADD_R) asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x0) : "f"(b));
            if (M == FFMA_RR2) {
                asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x0) : "f"(a), "f"(b));
                asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x1) : "f"(a), "f"(b));
            }
            if (M == IADD_R) asm volatile("add.u32 %0, %0, %1;" : "+r"(y) : "r"(ua));
        }
    }
    unsigned long long t1 = sync_clk();  // the block ends with its last warp
    put_rec(rec, t0, t1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + (float)y;
}

struct ModeInfo {
    const char *name;
    Mode m;
    unsigned iters;        // x 8 unrolled steps
    double links_per_step; // links per thread per unrolled step
    double instr_per_step; // SASS instructions per step, the loop's included
};

template <Mode M>
void launch(int grid, size_t smem, unsigned iters, BlockRec *rec, float *out)
{
    work<M><<<grid, 256, smem>>>(0.9999f, 0.5f, 0x9E3779B9u, iters, rec, out);
    CKL();
}

}  // namespace

int main()
{
    init("dep_issue", "dependent chains from many warps: what limits their issue");
    Dev &D = dev();
    BlockRec *rec;
    float *out;
    CK(cudaMalloc(&rec, 8 * D.sms * sizeof(BlockRec)));
    CK(cudaMalloc(&out, 8 * D.sms * 256 * 4));
    const void *fs[] = {(const void *)work<FFMA_RR>,  (const void *)work<FFMA_RI>, (const void *)work<FMUL_I>,
                        (const void *)work<FADD_R>,   (const void *)work<FFMA_RR2>, (const void *)work<IADD_R>,
                        (const void *)work<LOOP1>};
    for (const void *f : fs) allow_smem(f);
    const ModeInfo modes[] = {
        {"ffma_rr", FFMA_RR, 2048, 1, 1.375},   {"ffma_ri", FFMA_RI, 2048, 1, 1.375},
        {"fmul_i", FMUL_I, 2048, 1, 1.375},     {"fadd_r", FADD_R, 2048, 1, 1.375},
        {"ffma_rr2", FFMA_RR2, 1024, 2, 2.375}, {"iadd_r", IADD_R, 2048, 1, 1.375},
        {"loop1", LOOP1, 512, 1, 4},
    };
    table("dep_issue", "k blocks of 256 per SM; links per cycle per SM; block cycles (median)",
          "mode k occ warps_sched block_cyc ops_clk_SM ops_clk_SM_min ops_clk_SM_max instr_per_clk_sched");
    for (const ModeInfo &mi : modes) {
        for (int k : {1, 2, 4, 8}) {
            const size_t smem = smem_for_blocks(k, 256);
            const int grid = k * D.sms;
            const int occ = occupancy(fs[mi.m], 256, smem);
            std::vector<BlockRec> best;
            double best_med = 0;
            for (int r = 0; r < 2; r++) {
                if (mi.m == FFMA_RR) launch<FFMA_RR>(grid, smem, mi.iters, rec, out);
                if (mi.m == FFMA_RI) launch<FFMA_RI>(grid, smem, mi.iters, rec, out);
                if (mi.m == FMUL_I) launch<FMUL_I>(grid, smem, mi.iters, rec, out);
                if (mi.m == FADD_R) launch<FADD_R>(grid, smem, mi.iters, rec, out);
                if (mi.m == FFMA_RR2) launch<FFMA_RR2>(grid, smem, mi.iters, rec, out);
                if (mi.m == IADD_R) launch<IADD_R>(grid, smem, mi.iters, rec, out);
                if (mi.m == LOOP1) launch<LOOP1>(grid, smem, mi.iters, rec, out);
                CK(cudaDeviceSynchronize());
                std::vector<BlockRec> h(grid);
                CK(cudaMemcpy(h.data(), rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
                std::vector<double> c;
                for (auto &b : h) c.push_back((double)(b.t1 - b.t0));
                double m = median(c);
                if (r == 0 || m < best_med) best_med = m, best = h;  // the first launch: cold instruction caches
            }
            std::vector<double> c;
            for (auto &b : best) c.push_back((double)(b.t1 - b.t0));
            const double links = 256.0 * mi.iters * 8 * mi.links_per_step;  // per block
            SmRate s = sm_rate(best, links);
            // instructions per cycle per scheduler, counting the loop's 3 (IADD3, ISETP, BRA) per 8 steps
            const double per_step = mi.instr_per_step;
            printf("%-8s %d %d %4.1f %9.0f %7.2f %7.2f %7.2f %5.3f\n", mi.name, k, occ, k * 8 / 4.0, median(c), s.rate,
                   s.rate_min, s.rate_max, s.rate / mi.links_per_step * per_step / 32.0 / 4.0);
            fflush(stdout);
        }
    }
    finish();
    return 0;
}
