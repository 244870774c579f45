// validate/probes/block_launch.cu -- block launch cost against block size,
// and 1D vs 2D copies, on the H200.
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void noop(unsigned *out) { if (threadIdx.x == 0 && blockIdx.x == 0xFFFFFFFFu) out[0] = 1; }
__global__ void store_idx(float *out, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = (float)i; }
__global__ void light(float *x, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 2.0f + 1.0f; }
__global__ void copy1d(const float *in, float *out, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }
__global__ void copy2d(const float *in, float *out, unsigned n) {
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (c < n && r < n) out[r * n + c] = in[r * n + c];
}

template <class F> double time_ms(F launch) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++) launch();
    CK(cudaDeviceSynchronize());
    std::vector<double> v;
    for (int r = 0; r < 15; r++) {
        CK(cudaEventRecord(a)); for (int g = 0; g < 10; g++) launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); v.push_back(ms / 10);
    }
    std::sort(v.begin(), v.end()); return v[v.size() / 2];
}

int main() {
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const double mhz = 1980;
    unsigned *u; CK(cudaMalloc(&u, 64));
    const unsigned n = 1u << 24;
    float *a, *b; CK(cudaMalloc(&a, (size_t)n * 4 * 2)); CK(cudaMalloc(&b, (size_t)n * 4 * 2));
    CK(cudaMemset(a, 0, (size_t)n * 8)); CK(cudaMemset(b, 0, (size_t)n * 8));
    printf("kernel bs blocks ms cycles_per_block_per_sm GBs\n");
    for (unsigned bs = 32; bs <= 1024; bs *= 2) {
        unsigned blocks = n / bs;
        double ms = time_ms([&] { noop<<<blocks, bs>>>(u); });
        printf("noop_n %u %u %.4f %.1f 0\n", bs, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms));
    }
    for (unsigned bs = 32; bs <= 1024; bs *= 2) {
        unsigned blocks = 64 * sms;
        double ms = time_ms([&] { noop<<<blocks, bs>>>(u); });
        printf("noop_fixed %u %u %.4f %.1f 0\n", bs, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms));
    }
    for (unsigned bs = 32; bs <= 1024; bs *= 2) {
        unsigned blocks = n / bs;
        double ms = time_ms([&] { store_idx<<<blocks, bs>>>(a, n); });
        printf("store %u %u %.4f %.1f %.0f\n", bs, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms), n * 4.0 / ms / 1e6);
        ms = time_ms([&] { light<<<blocks, bs>>>(a, n); });
        printf("light %u %u %.4f %.1f %.0f\n", bs, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms), n * 8.0 / ms / 1e6);
        ms = time_ms([&] { copy1d<<<blocks, bs>>>(a, b, n); });
        printf("copy1d %u %u %.4f %.1f %.0f\n", bs, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms), n * 8.0 / ms / 1e6);
    }
    for (unsigned side : {4096u, 4000u, 4128u, 5792u}) {
        unsigned nn = side * side;
        for (unsigned by : {32u, 8u}) {
            dim3 blk(32, by), grd((side + 31) / 32, (side + by - 1) / by);
            double ms = time_ms([&] { copy2d<<<grd, blk>>>(a, b, side); });
            printf("copy2d_%u_32x%u %u %u %.4f %.1f %.0f\n", side, by, 32 * by, grd.x * grd.y, ms,
                   ms * mhz * 1e3 / ((double)grd.x * grd.y / sms), nn * 8.0 / ms / 1e6);
        }
        unsigned blocks = (nn + 1023) / 1024;
        double ms = time_ms([&] { copy1d<<<blocks, 1024>>>(a, b, nn); });
        printf("copy1d_%u 1024 %u %.4f %.1f %.0f\n", side, blocks, ms, ms * mhz * 1e3 / ((double)blocks / sms), nn * 8.0 / ms / 1e6);
    }
    return 0;
}
