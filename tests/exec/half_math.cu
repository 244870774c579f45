// half_math.cu -- half-precision arithmetic as ML code uses it: __hadd,
// __hsub, __hmul, __hfma (and their _sat forms), __hmin, __hmax, __hneg,
// __habs and the comparisons on __half and __nv_bfloat16, and the packed
// __half2 / __nv_bfloat162 forms, over pairs of ordinary values, ties,
// subnormals, infinities and NaN. The reference is the host side of
// cuda_fp16.h and cuda_bf16.h, compared bit for bit (any NaN for a NaN).
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "common.cuh"

constexpr int kOps = 12;  // results per pair and type

template <typename T>
__host__ __device__ inline uint16_t bits(T h) {
  return *reinterpret_cast<const uint16_t*>(&h);
}

// fma has no host form in cuda_fp16.h: the host rounds the double result,
// which holds a 16-bit product exactly (one rounding, as the device's)
__host__ __device__ inline __half fma3(__half a, __half b, __half c, bool sat) {
#ifdef __CUDA_ARCH__
  return sat ? __hfma_sat(a, b, c) : __hfma(a, b, c);
#else
  double r = (double)__half2float(a) * (double)__half2float(b) + (double)__half2float(c);
  if (sat) r = r != r || r <= 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;  // NaN and -0 give +0
  return __double2half(r);
#endif
}

__host__ __device__ inline __nv_bfloat16 fma3(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c, bool sat) {
#ifdef __CUDA_ARCH__
  return sat ? __hfma_sat(a, b, c) : __hfma(a, b, c);
#else
  double r = (double)__bfloat162float(a) * (double)__bfloat162float(b) + (double)__bfloat162float(c);
  if (sat) r = r != r || r <= 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;  // NaN and -0 give +0
  return __double2bfloat16(r);
#endif
}

template <typename T>
__host__ __device__ inline void ops(T a, T b, T c, uint16_t* o) {
  o[0] = bits(__hadd(a, b));
  o[1] = bits(__hsub(a, b));
  o[2] = bits(__hmul(a, b));
  o[3] = bits(fma3(a, b, c, false));
  o[4] = bits(__hadd_sat(a, b));
  o[5] = bits(fma3(a, b, c, true));
  o[6] = bits(__hmin(a, b));
  o[7] = bits(__hmax(a, b));
  o[8] = bits(__hneg(a));
  o[9] = bits(__habs(b));
  o[10] = (uint16_t)(__hlt(a, b) | __hle(a, b) << 1 | __hgt(a, b) << 2 | __hge(a, b) << 3 | __heq(a, b) << 4 |
                     __hne(a, b) << 5 | __hltu(a, b) << 6 | __hgeu(a, b) << 7 | __hneu(a, b) << 8);
  o[11] = bits(__hmul(__hadd(a, c), b));  // a chain: each step rounded
}

template <typename T, typename T2>
__host__ __device__ inline void pair_ops(T a, T b, T c, uint16_t* o) {
  T2 x = {a, c}, y = {b, a}, z = {c, b};
  T2 s = __hadd2(x, y), p = __hmul2(x, y), m = __hmin2(x, y);
#ifdef __CUDA_ARCH__
  T2 f = __hfma2(x, y, z);
#else
  T2 f = {fma3(x.x, y.x, z.x, false), fma3(x.y, y.y, z.y, false)};
#endif
  o[0] = bits(s.x), o[1] = bits(s.y), o[2] = bits(p.x), o[3] = bits(p.y);
  o[4] = bits(f.x), o[5] = bits(f.y), o[6] = bits(m.x), o[7] = bits(m.y);
}

__global__ void half_ops(const uint16_t* a, const uint16_t* b, const uint16_t* c, uint16_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half ha = __ushort_as_half(a[i]), hb = __ushort_as_half(b[i]), hc = __ushort_as_half(c[i]);
  __nv_bfloat16 ba = __ushort_as_bfloat16(a[i]), bb = __ushort_as_bfloat16(b[i]), bc = __ushort_as_bfloat16(c[i]);
  uint16_t* o = out + (size_t)i * (2 * kOps + 16);
  ops(ha, hb, hc, o);
  ops(ba, bb, bc, o + kOps);
  pair_ops<__half, __half2>(ha, hb, hc, o + 2 * kOps);
  pair_ops<__nv_bfloat16, __nv_bfloat162>(ba, bb, bc, o + 2 * kOps + 8);
}

static bool is_nan(uint16_t v, bool bf) {
  return bf ? (v & 0x7f80) == 0x7f80 && (v & 0x7f) : (v & 0x7c00) == 0x7c00 && (v & 0x3ff);
}

int main() {
  // the bits of 16-bit values, read as f16 and as bf16: 1, 1.5, 2, 3, -0.5,
  // +-0, smallest subnormals, the largest finite, +-inf, NaN, and values
  // whose sums and products round (ties included)
  const uint16_t values[] = {0x3c00, 0x3e00, 0x4000, 0x4200, 0xb800, 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff,
                             0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x3bff, 0x4801, 0x5640, 0x1234, 0xc0f0,
                             0x3f80, 0x4040, 0x7f7f, 0x0080, 0x7f80, 0xbf81, 0x4b7f, 0x3555};
  const int nv = sizeof values / sizeof values[0];
  std::vector<uint16_t> a, b, c;
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nv; ++j) a.push_back(values[i]), b.push_back(values[j]), c.push_back(values[(i * 7 + j) % nv]);
  const int n = (int)a.size(), per = 2 * kOps + 16;
  uint16_t *da, *db, *dc, *dout;
  CUDA_CHECK(cudaMalloc(&da, n * 2));
  CUDA_CHECK(cudaMalloc(&db, n * 2));
  CUDA_CHECK(cudaMalloc(&dc, n * 2));
  CUDA_CHECK(cudaMalloc(&dout, (size_t)n * per * 2));
  CUDA_CHECK(cudaMemcpy(da, a.data(), n * 2, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), n * 2, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dc, c.data(), n * 2, cudaMemcpyHostToDevice));
  half_ops<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
  CUDA_CHECK_LAST();
  std::vector<uint16_t> got((size_t)n * per), want(per);
  CUDA_CHECK(cudaMemcpy(got.data(), dout, got.size() * 2, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    __half ha = __ushort_as_half(a[i]), hb = __ushort_as_half(b[i]), hc = __ushort_as_half(c[i]);
    __nv_bfloat16 ba = __ushort_as_bfloat16(a[i]), bb = __ushort_as_bfloat16(b[i]), bc = __ushort_as_bfloat16(c[i]);
    ops(ha, hb, hc, want.data());
    ops(ba, bb, bc, want.data() + kOps);
    pair_ops<__half, __half2>(ha, hb, hc, want.data() + 2 * kOps);
    pair_ops<__nv_bfloat16, __nv_bfloat162>(ba, bb, bc, want.data() + 2 * kOps + 8);
    for (int k = 0; k < per; ++k) {
      bool bf = (k >= kOps && k < 2 * kOps) || k >= 2 * kOps + 8, flags = k % kOps == 10 && k < 2 * kOps;
      uint16_t g = got[(size_t)i * per + k], w = want[k];
      bool same = g == w || (!flags && is_nan(g, bf) && is_nan(w, bf));
      if (!same && bad++ < 10)
        std::fprintf(stderr, "a=%04x b=%04x c=%04x result %d (%s): got %04x, expected %04x\n", a[i], b[i], c[i], k,
                     bf ? "bf16" : "f16", g, w);
    }
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
