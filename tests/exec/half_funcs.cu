// half_funcs.cu -- cuda_fp16.h's math functions (hexp, hexp2, hexp10, hlog,
// hlog2, hlog10, hsqrt, hrsqrt, hrcp, hsin, hcos, and their half2 forms),
// whose inline assembly declares registers as `.reg.b32 f;` and runs the
// f32 approximations on converted halves, and __floats2half2_rn
// (cvt.rn.f16x2.f32). Checked against the host's float
// functions rounded to half, within the functions' documented few units in
// the last place (3 here; sin and cos near zeros by an absolute 2^-10).
#include "common.cuh"
#include <cuda_fp16.h>

const int NF = 11;

__global__ void funcs(const __half* x, __half* y, __half2* y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = x[i];
  __half r[NF] = { hexp(a), hexp2(a), hexp10(a), hlog(a), hlog2(a), hlog10(a), hsqrt(a), hrsqrt(a), hrcp(a), hsin(a), hcos(a) };
  for (int k = 0; k < NF; k++) y[k * n + i] = r[k];
  __half2 p = __halves2half2(a, a);
  __half2 q[4] = { h2exp(p), h2log(p), h2sqrt(p), h2sin(p) };
  for (int k = 0; k < 4; k++) y2[k * n + i] = q[k];
  float f = __half2float(a);
  y2[4 * n + i] = __floats2half2_rn(f, 2 * f + 1);  // cvt.rn.f16x2.f32: .x low, .y high
}

static double ref(int k, double a) {
  switch (k) {
  case 0: return std::exp(a);
  case 1: return std::exp2(a);
  case 2: return std::pow(10.0, a);
  case 3: return std::log(a);
  case 4: return std::log2(a);
  case 5: return std::log10(a);
  case 6: return std::sqrt(a);
  case 7: return 1 / std::sqrt(a);
  case 8: return 1 / a;
  case 9: return std::sin(a);
  default: return std::cos(a);
  }
}

static bool close_half(float got, double want, int k) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::fabs(want) > 65504) return std::isinf(got) || std::fabs(got) >= 65504;
  double ulp = std::fabs(want) < 6.1e-5 ? 5.96e-8 : std::ldexp(1.0, std::ilogb(want) - 10);
  double tol = 3 * ulp + (k >= 9 ? 1.0 / 1024 : 0);
  return std::fabs(got - want) <= tol;
}

int main() {
  const int n = 512;
  std::vector<__half> x(n);
  for (int i = 0; i < n; i++) x[i] = __float2half(0.01f + 0.02f * i * (i % 3 ? 1 : 0.25f));  // 0.01 .. about 10
  __half *dx, *dy;
  __half2* dy2;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dy, NF * n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dy2, 5 * n * sizeof(__half2)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  funcs<<<(n + 127) / 128, 128>>>(dx, dy, dy2, n);
  CUDA_CHECK_LAST();
  std::vector<__half> y(NF * n);
  std::vector<__half2> y2(5 * n);
  CUDA_CHECK(cudaMemcpy(y.data(), dy, y.size() * sizeof(__half), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(y2.data(), dy2, y2.size() * sizeof(__half2), cudaMemcpyDeviceToHost));
  int bad = 0;
  static const int pair_of[4] = { 0, 3, 6, 9 };
  for (int i = 0; i < n; i++) {
    double a = __half2float(x[i]);
    for (int k = 0; k < NF; k++) {
      float got = __half2float(y[k * n + i]);
      if (!close_half(got, ref(k, a), k) && bad++ < 5) std::printf("function %d of %g: %g, want %g\n", k, a, got, ref(k, a));
    }
    for (int k = 0; k < 4; k++) {
      float lo = __low2float(y2[k * n + i]), hi = __high2float(y2[k * n + i]);
      if ((!close_half(lo, ref(pair_of[k], a), pair_of[k]) || lo != hi) && bad++ < 5)
        std::printf("pair function %d of %g: %g %g, want %g\n", k, a, lo, hi, ref(pair_of[k], a));
    }
    float lo = __low2float(y2[4 * n + i]), hi = __high2float(y2[4 * n + i]);
    if ((lo != (float)a || hi != __half2float(__float2half_rn((float)(2 * a + 1)))) && bad++ < 5)
      std::printf("__floats2half2_rn(%g, %g): %g %g\n", a, 2 * a + 1, lo, hi);
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
