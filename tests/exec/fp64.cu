// fp64.cu -- double precision as ordinary CUDA code writes it: arithmetic
// with literals (2.0), division, square root, min/max/fabs, compares and
// selects, conversions to and from float and integers in every rounding
// mode, the directed-rounding intrinsics (add, mul, div, rcp, sqrt, fma), a double kernel argument, a
// shared-memory tree reduction of doubles and atomicAdd on a double. Every
// result is checked bit for bit against the host's IEEE binary64 (the
// reduction and the atomic sum, whose order differs, to a tolerance).
#include <cfenv>
#include <cstdint>
#include <cstring>
#include "common.cuh"

constexpr int kOps = 36;

__global__ void ops(const double* x, const double* y, double a, double* out, long long* iout, float* fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double u = x[i], v = y[i];
  double* o = out + (size_t)i * kOps;
  o[0] = __dadd_rn(u, v);
  o[1] = __dsub_rn(u, v);
  o[2] = __dmul_rn(u, v);
  o[3] = __fma_rn(u, v, a);
  o[4] = u / v;
  o[5] = sqrt(fabs(u));
  o[6] = fmin(u, v);
  o[7] = fmax(u, 0.25);
  o[8] = u > 3.0 ? -u : u;
  o[9] = __drcp_rn(v);
  o[10] = __dadd_rd(u, v);
  o[11] = __dadd_ru(u, v);
  o[12] = __dadd_rz(u, v);
  o[13] = __dmul_rd(u, v);
  o[14] = __dmul_ru(u, v);
  o[15] = __dmul_rz(u, v);
  o[16] = (double)i * 0.5 + 2.0;
  o[17] = __ll2double_rd((long long)i * 1000000007LL * 1000003LL + 1);
  o[18] = copysign(u, v);
  o[19] = (double)(float)u;
  o[20] = isnan(u / v) ? 1.0 : isinf(u / v) ? 2.0 : 0.0;
  o[21] = floor(u) + ceil(v) + trunc(u * 3.0) + rint(v * 7.0);
  o[22] = __uint2double_rn(0xfffffff0u + (unsigned)(i & 15));
  o[23] = (double)(unsigned long long)(fabs(u) * 1e15);
  o[24] = __ddiv_rd(u, v);
  o[25] = __ddiv_ru(u, v);
  o[26] = __ddiv_rz(u, v);
  o[27] = __drcp_rd(v);
  o[28] = __drcp_ru(v);
  o[29] = __drcp_rz(v);
  o[30] = __dsqrt_rd(fabs(u));
  o[31] = __dsqrt_ru(fabs(u));
  o[32] = __dsqrt_rz(fabs(u));
  o[33] = __fma_rd(u, v, a);
  o[34] = __fma_ru(u, v, a);
  o[35] = __fma_rz(u, v, -u * v);
  iout[2 * i] = __double2ll_rn(u * 1e12);
  iout[2 * i + 1] = (long long)__double2int_rz(v * 1000.0);
  fout[4 * i] = __double2float_rn(u);
  fout[4 * i + 1] = __double2float_rd(u);
  fout[4 * i + 2] = __double2float_ru(u);
  fout[4 * i + 3] = __double2float_rz(u);
}

__global__ void sum(const double* x, double* block_sums, double* total, int n) {
  __shared__ double s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = s[0];
    atomicAdd(total, s[0]);
  }
}

// The host's result in a rounding mode: the operands are read through
// volatile after fesetround, so the compiler cannot compute the operation
// before the mode is set.
static double rounded(int mode, char op, double p, double q, double c = 0) {
  std::fesetround(mode);
  volatile double vp = p, vq = q, vc = c;
  volatile double r = op == '+' ? vp + vq : op == '*' ? vp * vq : op == '/' ? vp / vq
                    : op == 's' ? std::sqrt(std::fabs(vp)) : std::fma(vp, vq, vc);
  std::fesetround(FE_TONEAREST);
  return r;
}
static double ll_to_double(long long v, int mode) {
  std::fesetround(mode);
  volatile long long vv = v;
  volatile double r = (double)vv;
  std::fesetround(FE_TONEAREST);
  return r;
}
static float to_float(double v, int mode) {
  std::fesetround(mode);
  volatile double vv = v;
  volatile float r = (float)vv;
  std::fesetround(FE_TONEAREST);
  return r;
}
static double add(double p, double q) { volatile double r = p + q; return r; }
static double sub(double p, double q) { volatile double r = p - q; return r; }
static double mul(double p, double q) { volatile double r = p * q; return r; }

static bool same(double got, double want) { return std::memcmp(&got, &want, 8) == 0 || (got != got && want != want); }

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  const double a = 0.1;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 7 == 0 ? -1.0 : 1.0) * (i + 1) * 1.0000001 / 3.0;
    y[i] = i % 50 == 0 ? 0.0 : std::ldexp(1.0 + i * 0.0123, (i % 40) - 20);
  }
  double *d_x, *d_y, *d_out, *d_bs, *d_total;
  long long* d_i;
  float* d_f;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * kOps * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_i, 2 * n * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&d_f, 4 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_bs, blocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(double)));
  CUDA_CHECK(cudaMemset(d_total, 0, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  ops<<<blocks, threads>>>(d_x, d_y, a, d_out, d_i, d_f, n);
  CUDA_CHECK_LAST();
  sum<<<blocks, threads>>>(d_x, d_bs, d_total, n);
  CUDA_CHECK_LAST();
  std::vector<double> out((size_t)n * kOps), bs(blocks);
  std::vector<long long> iout(2 * n);
  std::vector<float> fout(4 * n);
  double total = 0;
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(iout.data(), d_i, iout.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(fout.data(), d_f, fout.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(bs.data(), d_bs, blocks * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    double u = x[i], v = y[i], w[kOps];
    w[0] = add(u, v);
    w[1] = sub(u, v);
    w[2] = mul(u, v);
    w[3] = std::fma(u, v, a);
    w[4] = u / v;
    w[5] = std::sqrt(std::fabs(u));
    w[6] = std::fmin(u, v);
    w[7] = std::fmax(u, 0.25);
    w[8] = u > 3.0 ? -u : u;
    w[9] = 1.0 / v;
    w[10] = rounded(FE_DOWNWARD, '+', u, v);
    w[11] = rounded(FE_UPWARD, '+', u, v);
    w[12] = rounded(FE_TOWARDZERO, '+', u, v);
    w[13] = rounded(FE_DOWNWARD, '*', u, v);
    w[14] = rounded(FE_UPWARD, '*', u, v);
    w[15] = rounded(FE_TOWARDZERO, '*', u, v);
    w[16] = (double)i * 0.5 + 2.0;
    w[17] = ll_to_double((long long)i * 1000000007LL * 1000003LL + 1, FE_DOWNWARD);
    w[18] = std::copysign(u, v);
    w[19] = (double)(float)u;
    w[20] = std::isnan(u / v) ? 1.0 : std::isinf(u / v) ? 2.0 : 0.0;
    w[21] = std::floor(u) + std::ceil(v) + std::trunc(u * 3.0) + std::rint(v * 7.0);
    w[22] = (double)(0xfffffff0u + (unsigned)(i & 15));
    w[23] = (double)(unsigned long long)(std::fabs(u) * 1e15);
    const int modes[3] = { FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };
    for (int m = 0; m < 3; ++m) {
      w[24 + m] = rounded(modes[m], '/', u, v);
      w[27 + m] = rounded(modes[m], '/', 1.0, v);
      w[30 + m] = rounded(modes[m], 's', u, 0);
      w[33 + m] = rounded(modes[m], 'f', u, v, m == 2 ? -mul(u, v) : a);  // rz: the product's own error
    }
    for (int k = 0; k < kOps; ++k)
      if (!same(out[(size_t)i * kOps + k], w[k])) {
        std::fprintf(stderr, "element %d op %d: got %.17g, expected %.17g\n", i, k, out[(size_t)i * kOps + k], w[k]);
        ++bad;
      }
    long long wi0 = std::llrint(u * 1e12), wi1 = (long long)(int)(v * 1000.0 > 2147483647.0 ? 2147483647 : v * 1000.0);
    if (iout[2 * i] != wi0 || iout[2 * i + 1] != wi1) {
      std::fprintf(stderr, "element %d: integers %lld %lld, expected %lld %lld\n", i, iout[2 * i], iout[2 * i + 1], wi0, wi1);
      ++bad;
    }
    float wf[4] = { to_float(u, FE_TONEAREST), to_float(u, FE_DOWNWARD), to_float(u, FE_UPWARD), to_float(u, FE_TOWARDZERO) };
    for (int k = 0; k < 4; ++k)
      if (std::memcmp(&fout[4 * i + k], &wf[k], 4) != 0) {
        std::fprintf(stderr, "element %d: float %d is %.9g, expected %.9g\n", i, k, fout[4 * i + k], wf[k]);
        ++bad;
      }
  }
  double want_total = 0;
  for (int b = 0; b < blocks; ++b) {
    double s = 0;
    for (int i = b * threads; i < n && i < (b + 1) * threads; ++i) s += x[i];
    want_total += s;
    if (std::fabs(bs[b] - s) > 1e-9 * std::fabs(s) + 1e-12) {
      std::fprintf(stderr, "block %d: sum %.17g, expected %.17g\n", b, bs[b], s);
      ++bad;
    }
  }
  if (std::fabs(total - want_total) > 1e-9 * std::fabs(want_total)) {
    std::fprintf(stderr, "atomic total %.17g, expected %.17g\n", total, want_total);
    ++bad;
  }
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
