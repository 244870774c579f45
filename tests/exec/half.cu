// half.cu -- half precision as storage, as most ML code uses it: floats,
// doubles and integers converted to __half and __nv_bfloat16 in every
// rounding mode and back (cvt.*.f16, cvt.*.bf16), over ties, subnormals,
// overflow and NaN. The reference is the host side of cuda_fp16.h and
// cuda_bf16.h (their own software conversions), compared bit for bit.
#include <cstdint>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "common.cuh"

constexpr int kOut = 16;

__host__ __device__ inline uint16_t hb(__half h) { return __half_as_ushort(h); }
__host__ __device__ inline uint16_t bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__host__ __device__ inline uint32_t fb(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

__host__ __device__ inline void convert(float f, int i, uint32_t* o) {
  o[0] = hb(__float2half_rn(f));
  o[1] = hb(__float2half_rz(f));
  o[2] = hb(__float2half_rd(f));
  o[3] = hb(__float2half_ru(f));
  o[4] = bb(__float2bfloat16_rn(f));
  o[5] = bb(__float2bfloat16_rz(f));
  o[6] = bb(__float2bfloat16_rd(f));
  o[7] = bb(__float2bfloat16_ru(f));
  o[8] = fb(__half2float(__float2half_rn(f)));
  o[9] = fb(__bfloat162float(__float2bfloat16_rn(f)));
  o[10] = hb(__double2half((double)f * 1.0000001));
  o[11] = hb(__int2half_rn(i));
  o[12] = hb(__int2half_rz(i * 7));
  o[13] = (uint32_t)__half2int_rz(__float2half_rn(f));
  o[14] = (uint32_t)__half2int_rz(__float2half_rn(f * 0.5f));
  o[15] = bb(__int2bfloat16_rn(i * 1000003));
}

__global__ void halves(const float* x, const int* y, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) convert(x[i], y[i], out + (size_t)i * kOut);
}

int main() {
  const int n = 4096, threads = 256, blocks = n / threads;
  std::vector<float> x(n);
  std::vector<int> y(n);
  uint32_t s = 2025;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    float r = (float)(s >> 8) / 16777216.0f;
    // every binade from the half subnormals to past its overflow, both signs
    x[i] = (i & 1 ? -1.0f : 1.0f) * std::ldexp(1.0f + r, (i % 48) - 28);
    y[i] = (int)(s >> 16) - 32768;
  }
  const float special[] = { 0.0f, -0.0f, 65504.0f, 65520.0f, 65519.99f, 1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048,
                            5.96e-8f, 2.98e-8f, 1e-10f, INFINITY, -INFINITY, NAN, 3.3895314e38f, 1.0f + 1.0f / 256 };
  for (size_t k = 0; k < sizeof special / sizeof special[0]; ++k) x[k] = special[k];
  float* d_x;
  int* d_y;
  uint32_t* d_out;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * kOut * sizeof(uint32_t)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  halves<<<blocks, threads>>>(d_x, d_y, d_out, n);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> out((size_t)n * kOut);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    uint32_t want[kOut];
    convert(x[i], y[i], want);
    for (int k = 0; k < kOut; ++k) {
      uint32_t got = out[(size_t)i * kOut + k];
      bool both_nan = (k == 8 || k == 9) && std::isnan(x[i]);  // a NaN's payload is not compared
      if (got != want[k] && !both_nan) {
        std::fprintf(stderr, "element %d (%a, %d) conversion %d: got 0x%x, expected 0x%x\n", i, x[i], y[i], k, got, want[k]);
        ++bad;
      }
    }
  }
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
