// validate/micro/micro.cu -- microbenchmarks that calibrate the h200 preset,
// each the twin of a mini-ISA kernel beside it (latency.asm, pipes.asm,
// bandwidth.asm, run by latency.json, pipes.json, bandwidth.json).
// The same kernel measured on both sides: the preset's lat.* and bandwidth
// knobs are right when the simulator's cycles per step equal these.
//
//   latency   chase: one thread follows off = (off + buf[off]) & mask over a
//             buffer filled with the constant `stride` (bytes), after `warm`
//             untimed steps; cycles/step from clock64 around `steps` steps.
//             L1 (16 KB footprint, warm), L2 (4 MB, warm), DRAM (256 MB,
//             cold: L2 flushed, 64 KB stride, 32 steps per 2 MB page so the
//             TLB mostly hits, as the simulator has no TLB).
//             smem_chase: the same through a shared-memory array (1 LDS/step).
//   pipes     fma_lat / sfu_lat: one warp, 16 dependent FFMA / MUFU.RSQ per
//             iteration; fma_tput / sfu_tput: 8 blocks x 256 threads per SM,
//             8 independent chains x 4 per iteration; the rate per SM and
//             clock is the whole kernel's (events around launches).
//   bandwidth copy4: float4 copy of 2^26 floats (2 x 256 MB), DRAM bandwidth.
//   l2        scatter_store / line_store: 4 x 256 threads per SM each store
//             32 words `rounds` times into 17 MB that stays in L2, 32 lines
//             per warp instruction or one: the L2's request throughput.
//
// Checked in the compiled code (PTX here, SASS on the H200): every loop is
// kept rolled (#pragma unroll 1) with the unrolled bodies the .asm writes
// out; the chase is IADD/LDG/IADD/LOP per step (64-bit address add: one more
// IADD.X than the .asm's 32-bit add); rsqrt.approx.ftz is one MUFU.RSQ.
// Each cycles-per-step figure includes the loop's own instructions, on both
// sides alike.
#include "../runner/harness.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace vh;

namespace {

// ---- latency ----------------------------------------------------------------
__global__ void chase(const unsigned *buf, unsigned mask, unsigned warm, unsigned steps, unsigned *out)
{
    const char *base = (const char *)buf;
    unsigned off = 0;
#pragma unroll 1
    for (unsigned k = 0; k < warm; k++) off = (off + *(const unsigned *)(base + off)) & mask;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < steps; k++) off = (off + *(const unsigned *)(base + off)) & mask;
    long long t1 = clock64();
    out[0] = (unsigned)(t1 - t0);
    out[1] = off;
}

// Shared memory: arr[k] holds the byte offset of arr[(k+1) % 1024].
__global__ void smem_chase(unsigned steps, unsigned *out)
{
    __shared__ unsigned arr[1024];
#pragma unroll 1
    for (unsigned k = 0; k < 1024; k++) arr[k] = ((k + 1) & 1023) * 4;
    unsigned off = 0;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < steps; k++) off = *(volatile unsigned *)((char *)arr + off);
    long long t1 = clock64();
    out[0] = (unsigned)(t1 - t0);
    out[1] = off;
}

// ---- pipes ------------------------------------------------------------------
__device__ __forceinline__ float rsq(float x)
{
    float y;
    asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));  // one MUFU.RSQ
    return y;
}

// One warp; out[0] = cycles of the loop, out[1 + lane] = the chain's value.
__global__ void fma_lat(unsigned iters, float a, float b, float *out)
{
    float x = (float)threadIdx.x;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 16; j++) x = fmaf(x, a, b);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (float)(t1 - t0);
    out[1 + threadIdx.x] = x;
}

__global__ void sfu_lat(unsigned iters, float *out)
{
    float x = (float)threadIdx.x + 2.0f;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 16; j++) x = rsq(x);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (float)(t1 - t0);
    out[1 + threadIdx.x] = x;
}

// Every thread: 8 independent chains, 4 deep per iteration. cycles[block] =
// the block's duration; out[gid] = sum of the chains.
__global__ void fma_tput(unsigned iters, float a, float b, float *out, unsigned *cycles)
{
    float x[8];
#pragma unroll
    for (int c = 0; c < 8; c++) x[c] = (float)(threadIdx.x + c);
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int c = 0; c < 8; c++) x[c] = fmaf(x[c], a, b);
    }
    __syncthreads();
    long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int c = 0; c < 8; c++) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0) cycles[blockIdx.x] = (unsigned)(t1 - t0);
}

__global__ void sfu_tput(unsigned iters, float *out, unsigned *cycles)
{
    float x[8];
#pragma unroll
    for (int c = 0; c < 8; c++) x[c] = (float)(threadIdx.x + c) + 2.0f;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int c = 0; c < 8; c++) x[c] = rsq(x[c]);
    }
    __syncthreads();
    long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int c = 0; c < 8; c++) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0) cycles[blockIdx.x] = (unsigned)(t1 - t0);
}

// ---- bandwidth ----------------------------------------------------------------
__global__ void copy4(const float *in, float *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) reinterpret_cast<float4 *>(out)[i] = reinterpret_cast<const float4 *>(in)[i];
}

// ---- l2 -------------------------------------------------------------------------
// One st.global.u32 per store, kept by inline PTX: every round stores the
// same values, which the compiler would otherwise drop as dead stores.
__device__ __forceinline__ void store_u32(unsigned *p, unsigned v)
{
    asm volatile("st.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

// Thread g owns line g and stores word k of it in step k: 32 lines per warp instruction.
__global__ void scatter_store(unsigned *out, unsigned rounds)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *line = out + (size_t)g * 32;
#pragma unroll 1
    for (unsigned r = 0; r < rounds; r++) {
#pragma unroll 1
        for (unsigned k = 0; k < 32; k++) store_u32(line + k, g);
    }
}

// Warp w owns lines 32w .. 32w+31 and fills line 32w+k in step k.
__global__ void line_store(unsigned *out, unsigned rounds)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *base = out + (size_t)(g / 32) * 32 * 32 + (g % 32);
#pragma unroll 1
    for (unsigned r = 0; r < rounds; r++) {
#pragma unroll 1
        for (unsigned k = 0; k < 32; k++) store_u32(base + k * 32, g);
    }
}

float host_rsq(float x) { return 1.0f / std::sqrt(x); }

double median_of(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.empty() ? NAN : v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// ---- runs -------------------------------------------------------------------
void run_latency(Ctx &ctx)
{
    // As latency.json: buf_small (4 MB of 128s) serves the L1 and L2 chases,
    // buf_big (256 MB of 65536s) the DRAM chase.
    const unsigned small = 4u << 20, big = 256u << 20;
    DevBuf<unsigned> buf_small(small / 4), buf_big(big / 4), out(4);
    struct C { const char *name, *prefix; DevBuf<unsigned> *buf; unsigned footprint, stride, warm, steps; bool cold; };
    const C cs[] = {
        {"chase_l1", "l1_", &buf_small, 16u << 10, 128, 128, 4096, false},
        {"chase_l2", "l2_", &buf_small, 4u << 20, 128, 32768, 32768, false},
        {"chase_dram", "dram_", &buf_big, big, 64u << 10, 0, 4096, true},
    };
    for (const C &c : cs) {
        Variant v;
        v.workload = "micro_latency";
        v.file = "validate/micro/latency.json";
        v.variant = c.name;
        v.kernel = "chase";
        std::string p = c.prefix;
        if (c.cold) v.params = {{"big", big}, {p + "steps", c.steps}};
        else v.params = {{"small", small}, {p + "footprint", c.footprint}, {p + "warm", c.warm}, {p + "steps", c.steps}};
        v.grid = dim3(1);
        v.block = dim3(1);
        v.func = (const void *)chase;
        v.note = c.cold ? "cold: L2 flushed before the measured launches, as the simulator starts with empty caches"
                        : "warm-up steps inside the kernel bring the footprint into the cache first";
        unsigned last = 0;
        Body b;
        b.reset = [&] {
            fill_const_u32(c.buf->p, c.buf->n, c.stride);
            out.poison();
            if (c.cold) ctx.flush_l2();
            CK(cudaDeviceSynchronize());
        };
        b.launch = [&](cudaStream_t s) { chase<<<1, 1, 0, s>>>(c.buf->p, c.footprint - 1, c.warm, c.steps, out.p); };
        b.check = [&] {
            std::vector<unsigned> h = out.host();
            unsigned want = (unsigned)(((unsigned long long)c.warm + c.steps) * c.stride % c.footprint);
            last = h[0];
            if (h[1] != want) return std::string("final offset ") + std::to_string(h[1]) + ", expected " + std::to_string(want);
            return std::string();
        };
        b.measure = [&](JObj &m) {
            // The check's launch was the first; repeat for a median (DRAM: cold each time).
            std::vector<double> cyc = {(double)last};
            for (int r = 0; r < 4; r++) {
                b.reset();
                b.launch(ctx.stream());
                CK(cudaStreamSynchronize(ctx.stream()));
                cyc.push_back((double)out.host()[0]);
            }
            double med = median_of(cyc);
            m.num("cycles", med).num("cycles_per_step", med / c.steps).i64("runs", (long long)cyc.size());
        };
        ctx.run(v, b);
    }

    Variant v;
    v.workload = "micro_latency";
    v.file = "validate/micro/latency.json";
    v.variant = "smem_chase";
    v.kernel = "smem_chase";
    const unsigned steps = 4096;
    v.params = {{"smem_steps", steps}};
    v.grid = dim3(1);
    v.block = dim3(1);
    v.func = (const void *)smem_chase;
    Body b;
    b.reset = [&] { out.poison(); };
    b.launch = [&](cudaStream_t s) { smem_chase<<<1, 1, 0, s>>>(steps, out.p); };
    b.check = [&] {
        std::vector<unsigned> h = out.host();
        unsigned want = (steps % 1024) * 4;
        return h[1] == want ? std::string() : "final offset " + std::to_string(h[1]) + ", expected " + std::to_string(want);
    };
    b.measure = [&](JObj &m) {
        double c = out.host()[0];
        m.num("cycles", c).num("cycles_per_step", c / steps);
    };
    ctx.run(v, b);
}

void run_pipes(Ctx &ctx)
{
    const float a = 0.999f, bb = 0.5f;
    // Latency: one warp.
    {
        const unsigned iters = 256;
        DevBuf<float> out(33);
        for (int sfu = 0; sfu < 2; sfu++) {
            Variant v;
            v.workload = "micro_pipes";
            v.file = "validate/micro/pipes.json";
            v.variant = sfu ? "sfu_lat" : "fma_lat";
            v.kernel = v.variant;
            v.params = {{"lat_iters", iters}};
            v.grid = dim3(1);
            v.block = dim3(32);
            v.func = sfu ? (const void *)sfu_lat : (const void *)fma_lat;
            Body b;
            b.reset = [&] { out.poison(); };
            b.launch = [&, sfu](cudaStream_t s) {
                if (sfu) sfu_lat<<<1, 32, 0, s>>>(iters, out.p);
                else fma_lat<<<1, 32, 0, s>>>(iters, a, bb, out.p);
            };
            b.check = [&, sfu] {
                std::vector<float> h = out.host(), ref(32);
                for (int t = 0; t < 32; t++) {
                    float x = sfu ? (float)t + 2.0f : (float)t;
                    for (unsigned k = 0; k < 16 * iters; k++) x = sfu ? host_rsq(x) : fmaf(x, a, bb);
                    ref[t] = x;
                }
                // MUFU.RSQ is an approximation (a few ulp); the chain converges to 1.
                return compare_f32(h.data() + 1, ref.data(), 32, 0.0, sfu ? 1e-5 : 1e-6);
            };
            b.measure = [&](JObj &m) {
                double c = out.host()[0];
                m.num("cycles", c).num("cycles_per_op", c / (16.0 * iters));
            };
            ctx.run(v, b);
        }
    }
    // Throughput: 8 blocks of 256 threads per SM (full occupancy).
    {
        const unsigned blocks = 8 * ctx.sm_count(), threads = 256;
        DevBuf<float> out((size_t)blocks * threads);
        DevBuf<unsigned> cycles(blocks);
        for (int sfu = 0; sfu < 2; sfu++) {
            const unsigned iters = sfu ? 32 : 64;
            Variant v;
            v.workload = "micro_pipes";
            v.file = "validate/micro/pipes.json";
            v.variant = sfu ? "sfu_tput" : "fma_tput";
            v.kernel = v.variant;
            v.params = {{sfu ? "sfu_iters" : "fma_iters", iters}, {"blocks", blocks}};
            v.grid = dim3(blocks);
            v.block = dim3(threads);
            v.func = sfu ? (const void *)sfu_tput : (const void *)fma_tput;
            double ops = 32.0 * iters * blocks * threads;
            if (!sfu) v.flops = 2 * ops;
            Body b;
            b.reset = [&] { out.poison(); cycles.poison(); };
            b.launch = [&, sfu, iters](cudaStream_t s) {
                if (sfu) sfu_tput<<<blocks, threads, 0, s>>>(iters, out.p, cycles.p);
                else fma_tput<<<blocks, threads, 0, s>>>(iters, a, bb, out.p, cycles.p);
            };
            b.check = [&, sfu, iters] {
                std::vector<float> h = out.host(), ref(h.size());
                std::vector<float> per_tid(threads);
                for (unsigned t = 0; t < threads; t++) {
                    float s = 0;
                    for (int c = 0; c < 8; c++) {
                        float x = (float)(t + c) + (sfu ? 2.0f : 0.0f);
                        for (unsigned k = 0; k < 4 * iters; k++) x = sfu ? host_rsq(x) : fmaf(x, a, bb);
                        s += x;
                    }
                    per_tid[t] = s;
                }
                for (size_t i = 0; i < ref.size(); i++) ref[i] = per_tid[i % threads];
                return compare_f32(h.data(), ref.data(), h.size(), 0.0, 1e-5);
            };
            b.measure = [&, sfu, ops](JObj &m) {
                // The rate is the whole kernel's: ops over the kernel's time in
                // SM cycles, from events around back-to-back launches (the
                // median of 11 groups of 20). Blocks do not all overlap (an SM
                // starts its first blocks before the last arrive), so one
                // block's own duration overstates the rate (the first H200 run
                // recorded 920 FMA/clk/SM that way, above the SM's 128).
                std::vector<unsigned> c = cycles.host();
                std::vector<double> d(c.begin(), c.end());
                cudaEvent_t e0, e1;
                CK(cudaEventCreate(&e0));
                CK(cudaEventCreate(&e1));
                std::vector<double> per_launch;
                for (int r = 0; r < 11; r++) {
                    CK(cudaEventRecord(e0, ctx.stream()));
                    for (int g = 0; g < 20; g++) b.launch(ctx.stream());
                    CK(cudaEventRecord(e1, ctx.stream()));
                    CK(cudaEventSynchronize(e1));
                    float ms = 0;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    per_launch.push_back(ms / 20);
                }
                CK(cudaEventDestroy(e0));
                CK(cudaEventDestroy(e1));
                int dev = 0, khz = 0;
                CK(cudaGetDevice(&dev));
                CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
                double ms = median_of(per_launch), kernel_cycles = ms * 1e-3 * khz * 1e3;
                m.num("block_cycles_median", median_of(d)).num("kernel_ms", ms).num("kernel_cycles", kernel_cycles)
                    .num(sfu ? "rsq_per_clk_per_sm" : "fma_per_clk_per_sm", ops / ctx.sm_count() / kernel_cycles);
            };
            ctx.run(v, b);
        }
    }
}

void run_bandwidth(Ctx &ctx)
{
    const unsigned n = 1u << 26;
    DevBuf<float> in(n), out(n);
    std::vector<float> h_in;
    Variant v;
    v.workload = "micro_bandwidth";
    v.file = "validate/micro/bandwidth.json";
    v.variant = "copy4";
    v.kernel = "copy4";
    v.params = {{"n", n}};
    v.grid = dim3((n / 4 + 255) / 256);
    v.block = dim3(256);
    v.func = (const void *)copy4;
    v.bytes = 2.0 * n * sizeof(float);
    Body b;
    b.reset = [&] {
        fill_uniform(in.p, n, ctx.next_seed(), -1.f, 1.f);
        out.poison();
        h_in = in.host();
    };
    b.launch = [&](cudaStream_t s) { copy4<<<v.grid, v.block, 0, s>>>(in.p, out.p, n); };
    b.check = [&] {
        std::vector<float> got = out.host();
        return compare_f32(got.data(), h_in.data(), n, 0.0, 0.0);
    };
    ctx.run(v, b);
}

void run_l2(Ctx &ctx)
{
    const unsigned blocks = 4 * ctx.sm_count(), threads = 256, rounds = 4;
    const size_t words = (size_t)blocks * threads * 32;
    DevBuf<unsigned> out(words);
    for (int line = 0; line < 2; line++) {
        Variant v;
        v.workload = "micro_l2";
        v.file = "validate/micro/l2.json";
        v.variant = line ? "line_store" : "scatter_store";
        v.kernel = v.variant;
        v.params = {{"blocks", blocks}, {"rounds", rounds}};
        v.grid = dim3(blocks);
        v.block = dim3(threads);
        v.func = line ? (const void *)line_store : (const void *)scatter_store;
        v.bytes = 4.0 * words * rounds;
        v.note = "17 MB of stores stay in L2 (60 MB); back-to-back launches find it warm";
        Body b;
        b.reset = [&] { out.poison(); };
        b.launch = [&, line](cudaStream_t s) {
            if (line) line_store<<<blocks, threads, 0, s>>>(out.p, rounds);
            else scatter_store<<<blocks, threads, 0, s>>>(out.p, rounds);
        };
        b.check = [&] {
            std::vector<unsigned> h = out.host(), ref(words);
            for (size_t i = 0; i < words; i++) ref[i] = (unsigned)(i / 32);  // scatter: word i belongs to thread i/32
            if (line)
                for (size_t i = 0; i < words; i++) ref[i] = (unsigned)(i / (32 * 32) * 32 + i % 32);
            return compare_u32(h.data(), ref.data(), words);
        };
        ctx.run(v, b);
    }
}

}  // namespace

VH_TWIN("micro_latency", 0, run_latency);
VH_TWIN("micro_pipes", 1, run_pipes);
VH_TWIN("micro_bandwidth", 2, run_bandwidth);
VH_TWIN("micro_l2", 3, run_l2);
