// mathf.cu -- single-precision math as CUDA code writes it: the
// directed-rounding intrinsics (__fadd_rd, __fmul_ru, __fmaf_rz, __fdiv_rd,
// __frcp_ru, __fsqrt_rz, ...),
// checked bit for bit against the host in the same rounding mode, and the
// library functions whose inlined code uses them (expf, logf, powf, tanhf,
// exp2f, log2f: libdevice's range reductions round with fma.rm), checked
// against the host's double-precision result within the CUDA Programming
// Guide's error bounds.
#include <cfenv>
#include <cfloat>
#include <cstdint>
#include <cstring>
#include "common.cuh"

constexpr int kDirected = 18, kFuncs = 6;

__global__ void directed(const float* x, const float* y, const float* z, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = y[i], c = z[i];
  float* o = out + (size_t)i * kDirected;
  o[0] = __fadd_rd(a, b);
  o[1] = __fadd_ru(a, b);
  o[2] = __fadd_rz(a, b);
  o[3] = __fmul_rd(a, b);
  o[4] = __fmul_ru(a, b);
  o[5] = __fmul_rz(a, b);
  o[6] = __fmaf_rd(a, b, c);
  o[7] = __fmaf_ru(a, b, c);
  o[8] = __fmaf_rz(a, b, c);
  o[9] = __fdiv_rd(a, b);
  o[10] = __fdiv_ru(a, b);
  o[11] = __fdiv_rz(a, b);
  o[12] = __frcp_rd(a);
  o[13] = __frcp_ru(a);
  o[14] = __frcp_rz(a);
  o[15] = __fsqrt_rd(fabsf(a));
  o[16] = __fsqrt_ru(fabsf(a));
  o[17] = __fsqrt_rz(fabsf(a));
}

__global__ void funcs(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i];
  float* o = out + (size_t)i * kFuncs;
  o[0] = expf(a);
  o[1] = logf(fabsf(a) + 0.001f);
  o[2] = powf(fabsf(a) + 0.5f, 1.7f);
  o[3] = tanhf(a);
  o[4] = exp2f(a * 0.5f);
  o[5] = log2f(fabsf(a) + 1.0f);
}

// The host's result in a rounding mode: operands read through volatile
// after fesetround, so the operation cannot be computed before it.
static float host_rounded(int mode, int op, float a, float b, float c) {
  std::fesetround(mode);
  volatile float va = a, vb = b, vc = c;
  float r = op == 0 ? va + vb : op == 1 ? va * vb : op == 2 ? std::fmaf(va, vb, vc) : op == 3 ? va / vb
          : op == 4 ? 1.0f / va : std::sqrt(std::fabs(va));
  volatile float vr = r;
  std::fesetround(FE_TONEAREST);
  return vr;
}

static double ulps(float got, double want) {
  if (std::isinf(want) || std::isnan(want)) return got == want || (got != got && want != want) ? 0 : 1e9;
  int e;
  std::frexp(want, &e);
  double ulp = std::ldexp(1.0, (e - 24 < -149 ? -149 : e - 24));
  return std::fabs(got - want) / ulp;
}

int main() {
  const int n = 2048, threads = 256, blocks = n / threads;
  std::vector<float> x(n), y(n), z(n);
  uint32_t s = 12345;
  auto rnd = [&s]() { s = s * 1664525u + 1013904223u; return (s >> 8) / 16777216.0f; };
  for (int i = 0; i < n; ++i) {
    x[i] = (rnd() - 0.5f) * std::ldexp(1.0f, (i % 24) - 12);
    y[i] = (rnd() - 0.5f) * std::ldexp(1.0f, (i % 17) - 8);
    z[i] = (rnd() - 0.5f) * std::ldexp(1.0f, (i % 29) - 14);
  }
  x[0] = 3.0e38f, y[0] = 4.0f;        // overflow: rd/rz stop at FLT_MAX
  x[1] = 1.0f, y[1] = -1.0f, z[1] = 1.0f;  // exact zeros: rd gives -0
  x[2] = 1e-30f, y[2] = 1e-20f;       // a subnormal product
  x[3] = 1e-38f, y[3] = 1e8f;         // a subnormal quotient
  x[4] = 3.0e38f, y[4] = 1e-3f;       // a quotient past the range
  x[5] = 0.0f, y[5] = -2.0f;          // a signed zero quotient; rcp and sqrt of zero
  x[6] = 9.0f, y[6] = 3.0f;           // exact: quotient 3, root 3
  float *d_x, *d_y, *d_z, *d_d, *d_f;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_z, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_d, (size_t)n * kDirected * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_f, (size_t)n * kFuncs * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_z, z.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  directed<<<blocks, threads>>>(d_x, d_y, d_z, d_d, n);
  CUDA_CHECK_LAST();
  funcs<<<blocks, threads>>>(d_x, d_f, n);
  CUDA_CHECK_LAST();
  std::vector<float> dir((size_t)n * kDirected), fn((size_t)n * kFuncs);
  CUDA_CHECK(cudaMemcpy(dir.data(), d_d, dir.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fn.data(), d_f, fn.size() * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  const int modes[3] = { FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };
  for (int i = 0; i < n && bad < 10; ++i) {
    for (int k = 0; k < kDirected; ++k) {
      float want = host_rounded(modes[k % 3], k / 3, x[i], y[i], z[i]), got = dir[(size_t)i * kDirected + k];
      if (std::memcmp(&got, &want, 4) != 0) {
        std::fprintf(stderr, "element %d, directed op %d: got %a, expected %a\n", i, k, got, want);
        ++bad;
      }
    }
    // the arguments in float, as the kernel forms them; the results in double
    float a = x[i], l = std::fabs(a) + 0.001f, p = std::fabs(a) + 0.5f, l2 = std::fabs(a) + 1.0f;
    double want[kFuncs] = { std::exp((double)a), std::log((double)l), std::pow((double)p, (double)1.7f),
                            std::tanh((double)a), std::exp2(a * 0.5), std::log2((double)l2) };
    for (double& v : want)
      if (std::fabs(v) > FLT_MAX) v = v > 0 ? INFINITY : -INFINITY;  // past the float range
    const double bound[kFuncs] = { 2, 1, 4, 2, 2, 1 };  // ulp, CUDA C++ Programming Guide (single precision)
    for (int k = 0; k < kFuncs; ++k) {
      float got = fn[(size_t)i * kFuncs + k];
      if (ulps(got, want[k]) > bound[k] + 0.5) {
        std::fprintf(stderr, "element %d, function %d of %g: got %.9g, expected %.9g (%.1f ulp)\n", i, k, x[i], got,
                     want[k], ulps(got, want[k]));
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
