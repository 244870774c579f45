// half_compare.cu -- comparisons of packed halves as half2 code writes them:
// __heq2/__hlt2/__hgeu2 (a __half2 of 1.0 or 0.0 per half: set.CMP.f16x2),
// their _mask forms (all ones or zeros per half: set.CMP.u32.f16x2),
// __hbeq2/__hblt2 (both halves), the same on __nv_bfloat162, and the pair
// predicate form setp.CMP.f16x2 p|q (inline PTX: no intrinsic emits it),
// over ordinary values, signed zeros, infinities and NaN. The reference is
// the host side of cuda_fp16.h and cuda_bf16.h.
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "common.cuh"

constexpr int kOut = 12;

__host__ __device__ inline uint32_t u32(__half2 h) { return *reinterpret_cast<const uint32_t*>(&h); }
__host__ __device__ inline uint32_t u32(__nv_bfloat162 h) { return *reinterpret_cast<const uint32_t*>(&h); }

__host__ __device__ inline void compare(__half2 a, __half2 b, __nv_bfloat162 c, __nv_bfloat162 d, uint32_t* o) {
  o[0] = u32(__heq2(a, b));
  o[1] = u32(__hlt2(a, b));
  o[2] = u32(__hgeu2(a, b));
  o[3] = __heq2_mask(a, b);
  o[4] = __hne2_mask(a, b);
  o[5] = __hbeq2(a, b) | __hblt2(a, b) << 1 | __hbgtu2(a, b) << 2;
  o[6] = u32(__heq2(c, d));
  o[7] = u32(__hle2(c, d));
  o[8] = __hgt2_mask(c, d);
  o[9] = __hbne2(c, d) | __hbge2(c, d) << 1 | __hbltu2(c, d) << 2;
}

__global__ void compare_all(const uint32_t* x, const uint32_t* y, uint32_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 a = *reinterpret_cast<const __half2*>(&x[i]), b = *reinterpret_cast<const __half2*>(&y[i]);
  __nv_bfloat162 c = *reinterpret_cast<const __nv_bfloat162*>(&x[i]), d = *reinterpret_cast<const __nv_bfloat162*>(&y[i]);
  uint32_t* o = out + (size_t)i * kOut;
  compare(a, b, c, d, o);
  uint32_t lo, hi;  // the pair form: p for the low halves, q for the high ones
  asm("{ .reg .pred p, q;\n setp.lt.f16x2 p|q, %2, %3;\n selp.u32 %0, 1, 0, p;\n selp.u32 %1, 1, 0, q;\n}"
      : "=r"(lo), "=r"(hi) : "r"(x[i]), "r"(y[i]));
  o[10] = lo | hi << 1;
  asm("{ .reg .pred p, q;\n setp.geu.bf16x2 p|q, %2, %3;\n selp.u32 %0, 1, 0, p;\n selp.u32 %1, 1, 0, q;\n}"
      : "=r"(lo), "=r"(hi) : "r"(x[i]), "r"(y[i]));
  o[11] = lo | hi << 1;
}

int main() {
  // halves read as f16 (and the same bits as bf16): 1, 2, -0.5, +-0, inf, NaN, ...
  const uint16_t h[] = {0x3c00, 0x4000, 0xb800, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x3f80, 0x7fc0, 0x0001};
  const int nh = sizeof h / sizeof h[0];
  std::vector<uint32_t> x, y;
  for (int i = 0; i < nh; ++i)
    for (int j = 0; j < nh; ++j) {
      x.push_back(h[i] | (uint32_t)h[(i + j) % nh] << 16);
      y.push_back(h[j] | (uint32_t)h[(i * 3 + 1) % nh] << 16);
    }
  const int n = (int)x.size();
  uint32_t *dx, *dy, *dout;
  CUDA_CHECK(cudaMalloc(&dx, n * 4));
  CUDA_CHECK(cudaMalloc(&dy, n * 4));
  CUDA_CHECK(cudaMalloc(&dout, (size_t)n * kOut * 4));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice));
  compare_all<<<(n + 63) / 64, 64>>>(dx, dy, dout, n);
  CUDA_CHECK_LAST();
  std::vector<uint32_t> got((size_t)n * kOut);
  CUDA_CHECK(cudaMemcpy(got.data(), dout, got.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t want[kOut];
    __half2 a = *reinterpret_cast<const __half2*>(&x[i]), b = *reinterpret_cast<const __half2*>(&y[i]);
    __nv_bfloat162 c = *reinterpret_cast<const __nv_bfloat162*>(&x[i]), d = *reinterpret_cast<const __nv_bfloat162*>(&y[i]);
    compare(a, b, c, d, want);
    want[10] = (uint32_t)__hlt(a.x, b.x) | (uint32_t)__hlt(a.y, b.y) << 1;
    want[11] = (uint32_t)__hgeu(c.x, d.x) | (uint32_t)__hgeu(c.y, d.y) << 1;
    for (int k = 0; k < kOut; ++k)
      if (got[(size_t)i * kOut + k] != want[k] && bad++ < 10)
        std::fprintf(stderr, "x=%08x y=%08x result %d: got %08x, expected %08x\n", x[i], y[i], k,
                     got[(size_t)i * kOut + k], want[k]);
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
