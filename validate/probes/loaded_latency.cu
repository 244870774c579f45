// validate/probes/loaded_latency.cu -- DRAM latency under load (not a twin:
// the simulator cannot run two kernels at once, so it is fitted, not compared).
// A streaming kernel (hog) on K blocks runs while one thread chases pointers
// through a cold 256 MB buffer (64 KB stride, as micro chase_dram).
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void hog(const float4 *in, float4 *out, size_t n4, unsigned reps) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (unsigned r = 0; r < reps; r++) {
#pragma unroll 4
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) out[i] = in[i];
    }
}
__global__ void chase(const unsigned *buf, unsigned mask, unsigned steps, unsigned start, unsigned *out) {
    const char *base = (const char *)buf; unsigned off = start;
    long long t0 = clock64();
#pragma unroll 1
    for (unsigned k = 0; k < steps; k++) off = (off + *(const unsigned *)(base + off)) & mask;
    long long t1 = clock64();
    out[0] = (unsigned)(t1 - t0); out[1] = off;
}
__global__ void fill(unsigned *b, size_t n, unsigned v) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = v; }

int main() {
    const size_t big = 256u << 20, hogbytes = 512u << 20;
    unsigned *cb, *out; float4 *hin, *hout;
    CK(cudaMalloc(&cb, big)); CK(cudaMalloc(&out, 16)); CK(cudaMalloc(&hin, hogbytes)); CK(cudaMalloc(&hout, hogbytes));
    CK(cudaMemset(hin, 0, hogbytes));
    fill<<<(big / 4 + 255) / 256, 256>>>(cb, big / 4, 65536);
    CK(cudaDeviceSynchronize());
    cudaStream_t s1, s2; CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    size_t n4 = hogbytes / 16;
    const unsigned steps = 2048;
    printf("blocks threads hog_GBs chase_cycles_per_step(median of 5)\n");
    for (unsigned K : {0u, 16u, 33u, 66u, 132u, 198u, 264u, 396u, 528u, 792u, 1056u}) {
        for (unsigned T : {128u, 256u}) {
            if (K == 0 && T == 256) continue;
            double gbs = 0; unsigned reps = 1;
            if (K) {
                // alone: bandwidth, and reps so that one launch lasts >= 4 ms
                hog<<<K, T, 0, s1>>>(hin, hout, n4, 1); CK(cudaStreamSynchronize(s1));
                CK(cudaEventRecord(a, s1)); hog<<<K, T, 0, s1>>>(hin, hout, n4, 1); CK(cudaEventRecord(b, s1)); CK(cudaEventSynchronize(b));
                float ms; CK(cudaEventElapsedTime(&ms, a, b));
                gbs = 2.0 * hogbytes / (ms * 1e-3) / 1e9;
                reps = (unsigned)std::max(1.0, 4.0 / ms);
            }
            std::vector<double> lat;
            for (int r = 0; r < 5; r++) {
                if (K) hog<<<K, T, 0, s1>>>(hin, hout, n4, reps);
                chase<<<1, 1, 0, s2>>>(cb, (unsigned)(big - 1), steps, (unsigned)(r * 4096 + (r & 1) * (128u << 20) + K * 128), out);
                CK(cudaDeviceSynchronize());
                unsigned h[2]; CK(cudaMemcpy(h, out, 8, cudaMemcpyDeviceToHost));
                lat.push_back((double)h[0] / steps);
            }
            std::sort(lat.begin(), lat.end());
            printf("%u %u %.0f %.1f\n", K, T, gbs, lat[2]);
        }
    }
    return 0;
}
