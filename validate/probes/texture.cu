// validate/probes/texture.cu -- what the texture model assumes (isa/exec_tex.c,
// docs/PTX.md "Textures and surfaces") and what it leaves out:
//   weights      linear filtering of a 1D float texture {0, 1} at x = 0.5 + k/1024,
//                k = 0..1024: the result is the weight of texel 1. The model
//                rounds it to 1/256 (9-bit fixed point, 8 fractional bits):
//                distinct_values 257, and weight_x256 of k = 2 (x - 0.5 = 1/512,
//                a half step) 1 if it rounds to nearest, 0 if it truncates
//   rules        tex1Dfetch out of range (the model: 0), an s8 texel -128 read as
//                a normalized float (the model: -1), the fourth channel of a
//                1-channel float texture (the model: 1)
//   latency      one thread's dependent fetches through 32 texels held in L1:
//                tex1Dfetch (linear memory) and tex2D (a 2D array) against ld.global
//                of the same chain (the model times tex as a global load: equal)
//   layout       a 2048 x 2048 float texture read once by 64 x 64 blocks whose
//                warps cover 32 x 1, 8 x 4 or 1 x 32 texels: ms per pass from
//                DRAM (arrays are rows in the model, so it favours 32 x 1; the
//                GPU's block-linear layout may favour 8 x 4)
//
// Device time: < 1 s of kernels; ~3 s in all.
#include "probe.h"

using namespace probe;

namespace {

__global__ void sample_linear(cudaTextureObject_t t, const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x[i]);
}

__global__ void rules(cudaTextureObject_t lin, cudaTextureObject_t s8, cudaTextureObject_t f1, float *out)
{
    out[0] = tex1Dfetch<float>(lin, -1);
    out[1] = tex1Dfetch<float>(lin, 1 << 20);
    out[2] = tex1D<float4>(s8, 0.5f).x;
    out[3] = tex1D<float4>(f1, 0.5f).w;
    out[4] = tex1D<float4>(f1, 0.5f).y;
}

// 32 texels in a cycle: texel i holds the next index. Warm-up pass, then
// `passes` timed passes; out[0] the cycles, out[1] the sink.
__global__ void chase_fetch(cudaTextureObject_t t, unsigned passes, unsigned long long *out)
{
    int i = 0;
    for (int k = 0; k < 32; k++) i = tex1Dfetch<int>(t, i);
    unsigned long long t0 = clk_after((unsigned)i);
    for (unsigned k = 0; k < passes * 32; k++) i = tex1Dfetch<int>(t, i);
    unsigned long long t1 = clk_after((unsigned)i);
    out[0] = t1 - t0;
    out[1] = (unsigned long long)i;
}

__global__ void chase_2d(cudaTextureObject_t t, unsigned passes, unsigned long long *out)
{
    int i = 0;
    for (int k = 0; k < 32; k++) i = tex2D<int>(t, i + 0.5f, 0.5f);
    unsigned long long t0 = clk_after((unsigned)i);
    for (unsigned k = 0; k < passes * 32; k++) i = tex2D<int>(t, i + 0.5f, 0.5f);
    unsigned long long t1 = clk_after((unsigned)i);
    out[0] = t1 - t0;
    out[1] = (unsigned long long)i;
}

__global__ void chase_ldg(const int *next, unsigned passes, unsigned long long *out)
{
    int i = 0;
    for (int k = 0; k < 32; k++) i = next[i];
    unsigned long long t0 = clk_after((unsigned)i);
    for (unsigned k = 0; k < passes * 32; k++) i = next[i];
    unsigned long long t1 = clk_after((unsigned)i);
    out[0] = t1 - t0;
    out[1] = (unsigned long long)i;
}

// Blocks of 256 threads cover 64 x 64 texels, each warp a tw x (32 / tw) tile.
__global__ void tiles(cudaTextureObject_t t, int tw, float *sink)
{
    int th = 32 / tw, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wx = warp % (64 / tw), wy = warp / (64 / tw);
    float acc = 0;
    for (int pass = 0; pass < 64 * 64 / 256; pass++) {
        int tile = wy + pass * (256 / 32) / (64 / tw);
        int x = blockIdx.x * 64 + wx * tw + lane % tw, y = blockIdx.y * 64 + (tile * th) % 64 + lane / tw;
        acc += tex2D<float>(t, x + 0.5f, y + 0.5f);
    }
    if (acc == 12345.f) sink[0] = acc;
}

template <class K>
double cycles_per_fetch(K kernel, unsigned long long *out)
{
    std::vector<double> c;
    for (int r = 0; r < 5; r++) {
        kernel(out);
        CKL();
        unsigned long long h[2];
        CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        c.push_back((double)h[0] / (32.0 * 64));
    }
    return median(c);
}

cudaTextureObject_t make_texture(const cudaResourceDesc &rd, bool linear, cudaTextureReadMode mode)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = mode;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

cudaTextureObject_t array_texture(cudaArray_t a, bool linear, cudaTextureReadMode mode = cudaReadModeElementType)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    return make_texture(rd, linear, mode);
}

}  // namespace

int main()
{
    init("texture", "texture filtering weights, sampling rules, fetch latency and 2D locality");
    float *dx, *dy, *dout;
    const int n = 1025;
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMalloc(&dout, 64));

    // weights
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t two;
    CK(cudaMallocArray(&two, &fd, 2, 0));
    float texels[2] = {0.f, 1.f};
    CK(cudaMemcpy2DToArray(two, 0, 0, texels, 8, 8, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t lin = array_texture(two, true);
    std::vector<float> xs(n), ys(n);
    for (int k = 0; k < n; k++) xs[k] = 0.5f + k / 1024.f;
    CK(cudaMemcpy(dx, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    sample_linear<<<(n + 255) / 256, 256>>>(lin, dx, dy, n);
    CKL();
    CK(cudaMemcpy(ys.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> distinct(ys);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    table("weights", "tex1D, linear filtering, texels {0, 1}: the weight of texel 1 at x = 0.5 + k/1024",
          "k frac weight weight_x256");
    for (int k : {0, 1, 2, 3, 4, 5, 6, 7, 8, 256, 511, 512, 513, 1020, 1021, 1022, 1023, 1024})
        printf("%-5d %.6f %.8f %.4f\n", k, k / 1024.0, ys[k], ys[k] * 256.0);
    printf("distinct_values %zu\n", distinct.size());
    fflush(stdout);

    // rules
    {
        int *lmem;
        CK(cudaMalloc(&lmem, 64 * sizeof(float)));
        fill_u32((unsigned *)lmem, 64, 0x3f800000u);  // 1.0f everywhere
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = lmem;
        rd.res.linear.desc = fd;
        rd.res.linear.sizeInBytes = 64 * sizeof(float);
        cudaTextureObject_t tl = make_texture(rd, false, cudaReadModeElementType);
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<signed char>();
        cudaArray_t a8;
        CK(cudaMallocArray(&a8, &cd, 1, 0));
        signed char m128 = -128;
        CK(cudaMemcpy2DToArray(a8, 0, 0, &m128, 1, 1, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t t8 = array_texture(a8, false, cudaReadModeNormalizedFloat);
        cudaTextureObject_t tf = array_texture(two, false);
        rules<<<1, 1>>>(tl, t8, tf, dout);
        CKL();
        float h[5];
        CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
        table("rules", "sampling rules the model states", "case value model");
        printf("fetch_below_range %g 0\nfetch_above_range %g 0\ns8_minus128_normalized %g -1\n"
               "absent_w_channel %g 1\nabsent_y_channel %g 0\n", h[0], h[1], h[2], h[3], h[4]);
        fflush(stdout);
    }

    // latency
    {
        std::vector<int> next(32);
        int order[32];
        for (int i = 0; i < 32; i++) order[i] = i;
        for (int i = 31; i > 0; i--) std::swap(order[i], order[hash32(i) % (i + 1)]);
        for (int i = 0; i < 32; i++) next[order[i]] = order[(i + 1) % 32];
        int *dn;
        CK(cudaMalloc(&dn, 32 * sizeof(int)));
        CK(cudaMemcpy(dn, next.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = dn;
        rd.res.linear.desc = cudaCreateChannelDesc<int>();
        rd.res.linear.sizeInBytes = 32 * sizeof(int);
        cudaTextureObject_t tn = make_texture(rd, false, cudaReadModeElementType);
        cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
        cudaArray_t an;
        CK(cudaMallocArray(&an, &id, 32, 1));
        CK(cudaMemcpy2DToArray(an, 0, 0, next.data(), 128, 128, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t t2 = array_texture(an, false);
        unsigned long long *out;
        CK(cudaMalloc(&out, 16));
        table("latency", "one thread, 32 elements in L1, 64 dependent passes", "path cyc_fetch");
        printf("tex1Dfetch %.1f\n", cycles_per_fetch([&](unsigned long long *o) { chase_fetch<<<1, 1>>>(tn, 64, o); }, out));
        printf("tex2D      %.1f\n", cycles_per_fetch([&](unsigned long long *o) { chase_2d<<<1, 1>>>(t2, 64, o); }, out));
        printf("ld.global  %.1f\n", cycles_per_fetch([&](unsigned long long *o) { chase_ldg<<<1, 1>>>(dn, 64, o); }, out));
        fflush(stdout);
    }

    // layout
    {
        const int side = 2048;
        cudaArray_t big;
        CK(cudaMallocArray(&big, &fd, side, side));
        float *tmp;
        CK(cudaMalloc(&tmp, (size_t)side * side * sizeof(float)));
        fill_f32(tmp, (size_t)side * side, 7);
        CK(cudaMemcpy2DToArray(big, 0, 0, tmp, side * 4, side * 4, side, cudaMemcpyDeviceToDevice));
        cudaTextureObject_t tb = array_texture(big, false);
        table("layout", "2048 x 2048 floats from DRAM, 64 x 64 texels a block, by each warp's tile", "tile_w x tile_h ms");
        for (int tw : {32, 8, 1}) {
            double ms = median_ms([&] { tiles<<<dim3(side / 64, side / 64), 256>>>(tb, tw, dout); }, 5, 1,
                                  [&] { flush_l2(); });
            printf("%-6d x %-6d %.4f\n", tw, 32 / tw, ms);
        }
        fflush(stdout);
    }
    finish();
    return 0;
}
