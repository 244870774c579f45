// validate/probes/mem_path.cu -- the load and store path's throughput at
// each level, the figures behind l1.sectors_per_cycle (4, from the bank
// width, not measured), l2.bandwidth_bytes_per_clk (5120, assumed as A100),
// l2.requests_per_clk (34, from stores only) and dram.bandwidth_gbs (4186,
// a copy): RESULTS.md's gemm (L1 hit throughput) and coalescing stride2
// (-23%: "L1/L2 sector traffic ... not measured") pairs.
//
// l1  ld.global.ca / ld.global.nc (the largest L1 carveout asked for); all
//     warps of an SM re-read two alternating blocks of 8 (float) or 4
//     (float4) warp instructions' spans: 2 KB (stride 1) to 64 KB (stride
//     32), footprint_KB; hits after 8 untimed warm-up iterations
// l2  ld.global.cg (L1 bypassed), 16 MB footprint spread over the blocks,
//     warm (an untimed launch first)
// st  st.global into a 16 MB footprint that stays in L2 (warm)
//     For these three: 8 blocks of 256 per SM; each warp issues 8 (float)
//     or 4 (float4) independent loads or stores per iteration, at
//     immediate offsets from one pointer (address arithmetic stays off the
//     issue slots); lanes at stride S floats (float) or float4 at stride 1;
//     per-block %clock64 records -> per SM, cycles per warp instruction
//     (cyc_instr), sectors and requested bytes per cycle, and the chip's
//     sectors per cycle (x SMs) and GB/s of requested bytes.
//     lines_instr / sectors_instr: 128-byte lines and 32-byte sectors one
//     warp instruction touches.
// dram  events around one launch after an L2 flush (median of 5): read-only
//     streams (float4 and float, 1 GB, each thread's sum kept by a store that
//     never happens), a float4 copy (512 MB -> 512 MB), a float4 store
//     stream (1 GB); MB_moved counts reads and writes; then the coalescing twin's strided read, out[i] =
//     in[i * S] for i < 2^22 (in = 512 MB), with and without the store.
//     GBs: bytes moved (DRAM-side reads + writes of useful data); for the
//     strided rows also sector GB/s (32 B per lane at S >= 8).
//
// Device time: 21 L1/L2/store rows x 3 launches of 0.1-1 ms, 4 DRAM
// streams x 5 of ~0.25 ms, 12 strided reads x 5 of <= 0.1 ms, L2 flushes:
// < 0.2 s of kernels; ~4 s in all (2 GB of allocations and fills).
#include "probe.h"

using namespace probe;

namespace {

enum Cop { CA, CG, NC };

template <int V, Cop C>
__device__ __forceinline__ void ld(const float *p, float *v)
{
    if (V == 4) {
        if (C == CA) asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(p));
        if (C == CG) asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(p));
        if (C == NC) asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v[0]), "=f"(v[1]), "=f"(v[2]), "=f"(v[3]) : "l"(p));
    } else {
        if (C == CA) asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v[0]) : "l"(p));
        if (C == CG) asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v[0]) : "l"(p));
        if (C == NC) asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v[0]) : "l"(p));
    }
}

// Geometry of the rd / wr kernels (bytes): lane l of warp w reads V floats at
//   q + ((blockIdx * bstride + k * adv) & mask) + j * JSTEP,  q = base + l * LANE + w * warp_b,
// in iteration k, load j < UNR: one pointer per iteration, the loads at
// immediate offsets from it (so that address arithmetic does not limit the
// issue rate of the scalar loads). JSTEP is one warp instruction's span.
template <int V, int S>
struct Geo {
    static constexpr int LANE = V == 4 ? 16 : 4 * S, JSTEP = 32 * LANE, UNR = V == 4 ? 4 : 8;
};

template <int V, int S, Cop C>
__global__ void __launch_bounds__(256, 8) rd(const char *base, size_t warp_b, size_t bstride, size_t adv, size_t mask,
                                             unsigned warm, unsigned iters, BlockRec *rec, float *out)
{
    typedef Geo<V, S> G;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    const char *q = base + (threadIdx.x & 31) * G::LANE + (threadIdx.x >> 5) * warp_b;
    size_t o = blockIdx.x * bstride;
    unsigned long long t0 = 0;
#pragma unroll 1
    for (unsigned k = 0; k < warm + iters; k++) {
        if (k == warm) {
            t0 = sync_clk();
        }
        const char *p = q + (o & mask);
        float v[G::UNR][4];
#pragma unroll
        for (int j = 0; j < G::UNR; j++) ld<V, C>((const float *)(p + j * G::JSTEP), v[j]);
#pragma unroll
        for (int j = 0; j < G::UNR; j++)
#pragma unroll
            for (int c = 0; c < V; c++) acc[c] += v[j][c];
        o += adv;
    }
    unsigned long long t1 = sync_clk();
    put_rec(rec, t0, t1);
    float s = acc[0] + acc[1] + acc[2] + acc[3];
    if (__float_as_uint(s) == 0x7fc0dead) out[0] = s;  // never: keeps the loads
}

template <int V, int S>
__global__ void __launch_bounds__(256, 8) wr(char *base, size_t warp_b, size_t bstride, size_t adv, size_t mask,
                                             unsigned iters, BlockRec *rec)
{
    typedef Geo<V, S> G;
    char *q = base + (threadIdx.x & 31) * G::LANE + (threadIdx.x >> 5) * warp_b;
    size_t o = blockIdx.x * bstride;
    const float x = 1.0f + threadIdx.x, y = x + 1.f, z = x + 2.f, w = x + 3.f;
    unsigned long long t0 = sync_clk();
#pragma unroll 1
    for (unsigned k = 0; k < iters; k++) {
        char *p = q + (o & mask);
#pragma unroll
        for (int j = 0; j < G::UNR; j++) {
            float *pj = (float *)(p + j * G::JSTEP);
            if (V == 4) asm volatile("st.global.v4.f32 [%0], {%1,%2,%3,%4};" ::"l"(pj), "f"(x), "f"(y), "f"(z), "f"(w) : "memory");
            else asm volatile("st.global.f32 [%0], %1;" ::"l"(pj), "f"(x) : "memory");
        }
        o += adv;
    }
    unsigned long long t1 = sync_clk();
    put_rec(rec, t0, t1);
}

struct Level {
    bool l1;         // footprint: two alternating UNR x JSTEP blocks shared by all warps (L1 hits)
    size_t window;   // else: warps apart, blocks spread over `window` bytes (L2)
};

// Launches rd / wr for one geometry; returns the footprint in bytes.
template <int V, int S>
size_t geo_args(const Level &L, int blocks, size_t *warp_b, size_t *bstride, size_t *adv, size_t *mask)
{
    typedef Geo<V, S> G;
    const size_t span = (size_t)G::UNR * G::JSTEP;  // one warp's loads of one iteration
    if (L.l1) {
        *warp_b = 0;
        *bstride = 0;
        *adv = span;
        *mask = 2 * span - 1;
        return 2 * span;
    }
    *warp_b = span;
    *adv = 8 * span;  // the block's 8 warps
    *mask = L.window - 1;
    *bstride = L.window / blocks / 128 * 128;
    return L.window + 8 * span;
}

template <int V, int S, Cop C>
size_t launch_rd(const Level &L, int blocks, const char *base, unsigned iters, BlockRec *rec, float *out)
{
    size_t wb, bs, adv, mask, fp = geo_args<V, S>(L, blocks, &wb, &bs, &adv, &mask);
    rd<V, S, C><<<blocks, 256>>>(base, wb, bs, adv, mask, L.l1 ? 8 : 0, iters, rec, out);
    CKL();
    return fp;
}

template <int V, int S>
size_t launch_wr(const Level &L, int blocks, char *base, unsigned iters, BlockRec *rec)
{
    size_t wb, bs, adv, mask, fp = geo_args<V, S>(L, blocks, &wb, &bs, &adv, &mask);
    wr<V, S><<<blocks, 256>>>(base, wb, bs, adv, mask, iters, rec);
    CKL();
    return fp;
}

template <Cop C>
size_t dispatch_rd(int v, unsigned s, const Level &L, int blocks, const char *base, unsigned iters, BlockRec *rec, float *out)
{
    if (v == 4) return launch_rd<4, 1, C>(L, blocks, base, iters, rec, out);
    switch (s) {
    case 1: return launch_rd<1, 1, C>(L, blocks, base, iters, rec, out);
    case 2: return launch_rd<1, 2, C>(L, blocks, base, iters, rec, out);
    case 4: return launch_rd<1, 4, C>(L, blocks, base, iters, rec, out);
    case 8: return launch_rd<1, 8, C>(L, blocks, base, iters, rec, out);
    case 16: return launch_rd<1, 16, C>(L, blocks, base, iters, rec, out);
    default: return launch_rd<1, 32, C>(L, blocks, base, iters, rec, out);
    }
}

// ---- DRAM streams (grid-stride) ----
template <int V>
__global__ void stream_read(const float *in, size_t n, float *out)
{
    float s = 0.f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n / V; i += (size_t)gridDim.x * blockDim.x) {
        if (V == 4) {
            float4 v = reinterpret_cast<const float4 *>(in)[i];
            s += v.x + v.y + v.z + v.w;
        } else s += in[i];
    }
    if (__float_as_uint(s) == 0x7fc0dead) out[0] = s;
}
__global__ void stream_copy(const float4 *in, float4 *out, size_t n4)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}
__global__ void stream_write(float4 *out, size_t n4)
{
    const float4 v = make_float4(1.f + threadIdx.x, 2.f, 3.f, 4.f);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) out[i] = v;
}
// The coalescing twin (validate/twins/coalescing.cu), and its read-only form.
__global__ void strided_read(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = in[(unsigned)i * (unsigned)stride];
}
__global__ void strided_read_only(const float *in, float *out, int stride, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[(unsigned)i * (unsigned)stride];
    if (__float_as_uint(v) == 0x7fc0dead) out[i] = v;
}

// lines and sectors one warp instruction touches
void geometry(int v, unsigned s, double *lines, double *sectors)
{
    const double span = 32.0 * (v == 4 ? 16 : 4 * s);  // bytes from lane 0's start to lane 31's end
    if (v == 4 || s * 4 <= 32) {
        *sectors = span / 32;
        *lines = std::max(1.0, span / 128);
    } else {
        *sectors = 32;
        *lines = s * 4 >= 128 ? 32 : span / 128;
    }
}

}  // namespace

int main()
{
    init("mem_path", "L1 / L2 / DRAM load and store throughput, by access width and lane stride");
    Dev &D = dev();
    const int blocks = 8 * D.sms;
    const size_t big = 1u << 30, win_l2 = 16u << 20;
    char *a, *b;
    float *out;
    BlockRec *rec;
    CK(cudaMalloc(&a, big));
    CK(cudaMalloc(&b, big));
    CK(cudaMalloc(&out, 1u << 24));
    CK(cudaMalloc(&rec, blocks * sizeof(BlockRec)));
    fill_f32((float *)a, big / 4, 3);
    fill_f32((float *)b, big / 4, 4);
    CK(cudaDeviceSynchronize());
    printf("# rd/wr kernels: %d blocks of 256 per SM (CUDA), grid %d; L1 rows ask for the largest L1 carveout\n",
           occupancy((const void *)rd<4, 1, CA>, 256, 0), blocks);

    auto records = [&](auto go, double instr_per_block) -> SmRate {
        SmRate best;
        go();  // warm: brings the footprint into L2 (and the code into the instruction caches)
        for (int k = 0; k < 2; k++) {
            go();
            CK(cudaDeviceSynchronize());
            std::vector<BlockRec> h(blocks);
            CK(cudaMemcpy(h.data(), rec, blocks * sizeof(BlockRec), cudaMemcpyDeviceToHost));
            SmRate r = sm_rate(h, instr_per_block);
            if (k == 0 || r.rate > best.rate) best = r;
        }
        return best;
    };
    auto print = [&](const char *level, const char *op, int v, unsigned s, size_t footprint, const SmRate &r) {
        double lines, sectors;
        geometry(v, s, &lines, &sectors);
        const double req_b = 32.0 * 4 * v;  // bytes the lanes asked for
        printf("%-3s %-6s %2d %2u %8.0f %5.1f %5.1f %7.2f %7.2f %8.1f %8.1f %8.0f %7.2f %7.2f\n", level, op, 4 * v, s,
               footprint / 1024.0, lines, sectors, 1.0 / r.rate, sectors * r.rate, req_b * r.rate,
               sectors * r.rate * D.sms, req_b * r.rate * D.sms * D.mhz * 1e6 / 1e9, 1.0 / r.rate_max, 1.0 / r.rate_min);
        fflush(stdout);
    };

    table("levels", "per warp instruction; _SM: median over SMs, chip = x SMs; GBs: requested bytes at the measured clock",
          "level op width_B stride footprint_KB lines_instr sectors_instr cyc_instr sectors_clk_SM B_clk_SM "
          "sectors_clk_chip GBs_chip cyc_instr_fastest_SM cyc_instr_slowest_SM");
    const unsigned strides[] = {1, 2, 4, 8, 16, 32};
    const Level L1{true, 0}, L2{false, win_l2};
    // The largest L1 (the probe kernels use no shared memory).
    for (const void *f : {(const void *)rd<4, 1, CA>, (const void *)rd<1, 1, CA>, (const void *)rd<1, 2, CA>,
                          (const void *)rd<1, 4, CA>, (const void *)rd<1, 8, CA>, (const void *)rd<1, 16, CA>,
                          (const void *)rd<1, 32, CA>, (const void *)rd<4, 1, NC>, (const void *)rd<1, 1, NC>,
                          (const void *)rd<1, 32, NC>})
        CK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (Cop c : {CA, NC, CG}) {
        const Level &L = c == CG ? L2 : L1;
        const char *level = c == CG ? "l2" : "l1", *op = c == CA ? "ld.ca" : c == NC ? "ld.nc" : "ld.cg";
        const unsigned iters = c == CG ? 32 : 256;
        for (int v : {4, 1})
            for (unsigned s : strides) {
                if (v == 4 && s != 1) continue;
                if (c == NC && s != 1 && s != 32) continue;
                const double unr = v == 4 ? 4 : 8;
                size_t fp = 0;
                SmRate r = records(
                    [&] {
                        if (c == CA) fp = dispatch_rd<CA>(v, s, L, blocks, a, iters, rec, out);
                        else if (c == NC) fp = dispatch_rd<NC>(v, s, L, blocks, a, iters, rec, out);
                        else fp = dispatch_rd<CG>(v, s, L, blocks, a, iters, rec, out);
                    },
                    8.0 * unr * iters);
                print(level, op, v, s, fp, r);
            }
    }
    for (int v : {4, 1})
        for (unsigned s : {1u, 2u, 32u}) {
            if (v == 4 && s != 1) continue;
            const double unr = v == 4 ? 4 : 8;
            const unsigned iters = 32;
            size_t fp = 0;
            SmRate r = records(
                [&] {
                    if (v == 4) fp = launch_wr<4, 1>(L2, blocks, b, iters, rec);
                    else if (s == 1) fp = launch_wr<1, 1>(L2, blocks, b, iters, rec);
                    else if (s == 2) fp = launch_wr<1, 2>(L2, blocks, b, iters, rec);
                    else fp = launch_wr<1, 32>(L2, blocks, b, iters, rec);
                },
                8.0 * unr * iters);
            print("st", "st", v, s, fp, r);
        }

    // ---- DRAM ----
    const int sgrid = D.sms * 8;
    auto dram = [&](const char *name, double bytes, auto launch) {
        double ms = median_ms(launch, 5, 1, [] { flush_l2(); });
        printf("%-16s %6.0f %8.4f %7.0f\n", name, bytes / 1048576.0, ms, bytes / ms / 1e6);
        fflush(stdout);
    };
    table("dram", "one launch after an L2 flush, median of 5; grid-stride kernels on 8 x 256 threads per SM",
          "kernel MB_moved ms GBs");
    dram("read_v4", (double)big, [&] { stream_read<4><<<sgrid, 256>>>((const float *)a, big / 4, out); });
    dram("read_f32", (double)big, [&] { stream_read<1><<<sgrid, 256>>>((const float *)a, big / 4, out); });
    dram("copy_v4", (double)big, [&] { stream_copy<<<sgrid, 256>>>((const float4 *)a, (float4 *)b, big / 32); });
    dram("write_v4", (double)big, [&] { stream_write<<<sgrid, 256>>>((float4 *)b, big / 16); });

    table("strided", "the coalescing twin: out[i] = in[i*S], i < 2^22, block 256; one launch after an L2 flush, median of 5",
          "kernel stride ms useful_GBs sector_GBs");
    const int n = 1 << 22;
    for (int ro = 0; ro < 2; ro++)
        for (unsigned s : strides) {
            double ms = median_ms(
                [&] {
                    if (ro) strided_read_only<<<n / 256, 256>>>((const float *)a, out, (int)s, n);
                    else strided_read<<<n / 256, 256>>>((const float *)a, out, (int)s, n);
                },
                5, 1, [] { flush_l2(); });
            double sec_bytes = (double)n * std::min(32.0, 4.0 * s);
            printf("%-17s %2u %8.4f %7.0f %7.0f\n", ro ? "strided_read_only" : "strided_read", s, ms,
                   (ro ? 4.0 : 8.0) * n / ms / 1e6, (sec_bytes + (ro ? 0 : 4.0 * n)) / ms / 1e6);
            fflush(stdout);
        }
    finish();
    return 0;
}
