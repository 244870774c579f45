// carry.cu -- extended-precision integer arithmetic through the carry flag
// (PTX add.cc, addc, sub.cc, subc, mad.lo.cc, madc.hi ...): 128-bit
// integers, and the double-precision sin, cos and tan of large arguments,
// whose argument reduction (Payne-Hanek) multiplies by 2/pi in a chain of
// 32-bit multiply-adds with carries. Checked against the host: the integers
// exactly, the functions within 2 units in the last place (CUDA's bound).
#include "common.cuh"
#include <cstdint>
#include <cstring>

typedef unsigned __int128 u128;

__global__ void wide_ints(const u128* a, const u128* b, u128* sum, u128* diff, u128* prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    sum[i] = a[i] + b[i];
    diff[i] = a[i] - b[i];
    prod[i] = a[i] * b[i];
  }
}

// A 96-bit product of three 32-bit limbs by one, in explicit carry chains.
__global__ void limbs(const unsigned* x, unsigned m, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x0 = x[3 * i], x1 = x[3 * i + 1], x2 = x[3 * i + 2], r0, r1, r2, r3;
  asm("mul.lo.u32 %0, %4, %7;\n\t"
      "mul.hi.u32 %1, %4, %7;\n\t"
      "mad.lo.cc.u32 %1, %5, %7, %1;\n\t"
      "madc.hi.u32 %2, %5, %7, 0;\n\t"
      "mad.lo.cc.u32 %2, %6, %7, %2;\n\t"
      "madc.hi.u32 %3, %6, %7, 0;"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "r"(x0), "r"(x1), "r"(x2), "r"(m));
  out[4 * i] = r0, out[4 * i + 1] = r1, out[4 * i + 2] = r2, out[4 * i + 3] = r3;
}

__global__ void trig(const double* x, double* s, double* c, double* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = sin(x[i]);
    c[i] = cos(x[i]);
    t[i] = tan(x[i]);
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next() {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

static int64_t ordered(double v) {
  int64_t b;
  std::memcpy(&b, &v, 8);
  return b < 0 ? INT64_MIN - b : b;
}

static bool within_ulps(double got, double want, int64_t ulps) {
  if (std::isnan(want)) return std::isnan(got);
  int64_t d = ordered(got) - ordered(want);
  return d <= ulps && d >= -ulps;
}

int main() {
  const int n = 200;
  bool ok = true;
  // 128-bit integers: random, with runs of ones so that carries cross every word
  std::vector<u128> a(n), b(n);
  for (int i = 0; i < n; i++) {
    a[i] = (u128)next() << 64 | next();
    b[i] = (u128)next() << 64 | next();
    if (i % 4 == 0) a[i] = ~(u128)0 >> (i % 61);
    if (i % 4 == 1) b[i] = a[i] + 1;
  }
  u128 *da, *db, *ds, *dd, *dp;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(u128)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(u128)));
  CUDA_CHECK(cudaMalloc(&ds, n * sizeof(u128)));
  CUDA_CHECK(cudaMalloc(&dd, n * sizeof(u128)));
  CUDA_CHECK(cudaMalloc(&dp, n * sizeof(u128)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(u128), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(u128), cudaMemcpyHostToDevice));
  wide_ints<<<(n + 63) / 64, 64>>>(da, db, ds, dd, dp, n);
  CUDA_CHECK_LAST();
  std::vector<u128> s(n), d(n), p(n);
  CUDA_CHECK(cudaMemcpy(s.data(), ds, n * sizeof(u128), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(d.data(), dd, n * sizeof(u128), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(p.data(), dp, n * sizeof(u128), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (s[i] != a[i] + b[i] || d[i] != a[i] - b[i] || p[i] != a[i] * b[i]) {
      std::printf("128-bit element %d wrong\n", i);
      ok = false;
      break;
    }
  // explicit multiply-add chains
  std::vector<unsigned> x(3 * n), r(4 * n);
  for (auto& v : x) v = (unsigned)next();
  for (int i = 0; i < 3 * n; i += 7) x[i] = 0xffffffffu;
  const unsigned m = 0xfffffffbu;
  unsigned *dx, *dr;
  CUDA_CHECK(cudaMalloc(&dx, x.size() * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&dr, r.size() * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  limbs<<<(n + 63) / 64, 64>>>(dx, m, dr, n);
  CUDA_CHECK(cudaMemcpy(r.data(), dr, r.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n && ok; i++) {
    u128 v = ((u128)x[3 * i + 2] << 64 | (u128)x[3 * i + 1] << 32 | x[3 * i]) * m;
    for (int k = 0; k < 4; k++)
      if (r[4 * i + k] != (unsigned)(v >> (32 * k))) {
        std::printf("limbs element %d word %d: %08x, want %08x\n", i, k, r[4 * i + k], (unsigned)(v >> (32 * k)));
        ok = false;
        break;
      }
  }
  // sin, cos, tan of doubles up to 1e300 (the slow reduction path from 2^20 on)
  std::vector<double> in(n);
  for (int i = 0; i < n; i++) in[i] = std::ldexp((double)(next() >> 11) / 9007199254740992.0, (int)(next() % 1000)) * (i % 2 ? -1 : 1);
  in[0] = 1e300, in[1] = 0.5, in[2] = 1048576.0 * 3.14159, in[3] = 6381956970095103.0 * 1125899906842624.0;
  double *dxin, *dsn, *dcs, *dtn;
  CUDA_CHECK(cudaMalloc(&dxin, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dsn, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dcs, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dtn, n * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(dxin, in.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  trig<<<(n + 63) / 64, 64>>>(dxin, dsn, dcs, dtn, n);
  std::vector<double> sn(n), cs(n), tn(n);
  CUDA_CHECK(cudaMemcpy(sn.data(), dsn, n * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(cs.data(), dcs, n * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(tn.data(), dtn, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n && ok; i++)
    if (!within_ulps(sn[i], std::sin(in[i]), 2) || !within_ulps(cs[i], std::cos(in[i]), 2) ||
        !within_ulps(tn[i], std::tan(in[i]), 2)) {
      std::printf("trig of %.17g: %.17g %.17g %.17g, want %.17g %.17g %.17g\n", in[i], sn[i], cs[i], tn[i],
                  std::sin(in[i]), std::cos(in[i]), std::tan(in[i]));
      ok = false;
    }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
