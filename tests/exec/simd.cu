// simd.cu -- SIMD within a register, as the __v* intrinsics compile for
// sm_90: packed 16-bit adds, subtracts, minima and maxima (add.u16x2,
// max.s16x2 ...), the sm_90 "DPX" forms with .relu, and the video
// instructions vabsdiff2/vabsdiff4 (also with .add: a sum of absolute
// differences) and, through inline PTX, vadd4/vsub2/vmin2/vmax4 with .sat
// and .add. Every result is checked against the host's per-element
// reference over random words and their edge values (0x8000, 0x7fff,
// 0x80, 0xff ...).
#include <cstdint>
#include "common.cuh"

constexpr int kOps = 26;

__device__ unsigned vadd4_sat_s(unsigned a, unsigned b) {
  unsigned d;
  asm("vadd4.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  return d;
}
__device__ unsigned vsub2_u(unsigned a, unsigned b) {
  unsigned d;
  asm("vsub2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  return d;
}
__device__ unsigned vmin2_add_s(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("vmin2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__device__ unsigned vmax4_sat_u_from_s(unsigned a, unsigned b) {
  unsigned d;
  asm("vmax4.u32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  return d;
}
__device__ unsigned vabsdiff2_sat_s(unsigned a, unsigned b) {
  unsigned d;
  asm("vabsdiff2.s32.s32.s32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  return d;
}

__global__ void simd(const unsigned* x, const unsigned* y, const unsigned* z, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = x[i], b = y[i], c = z[i];
  unsigned* o = out + (size_t)i * kOps;
  o[0] = __vadd2(a, b);
  o[1] = __vsub2(a, b);
  o[2] = __vneg2(a);
  o[3] = __vmaxs2(a, b);
  o[4] = __vmaxu2(a, b);
  o[5] = __vmins2(a, b);
  o[6] = __vminu2(a, b);
  o[7] = __vabsdiffu4(a, b);
  o[8] = __vabsdiffs4(a, b);
  o[9] = __vsadu4(a, b);
  o[10] = __vsadu2(a, b);
  o[11] = __vsads4(a, b);
  o[12] = __viaddmax_s16x2(a, b, c);
  o[13] = __viaddmax_u16x2(a, b, c);
  o[14] = __viaddmin_u16x2(a, b, c);
  o[15] = __vimax_s32_relu(a, b);
  o[16] = __vimin_s16x2_relu(a, b);
  o[17] = __vimax3_s16x2_relu(a, b, c);
  o[18] = __viaddmax_s32_relu(a, b, c);
  o[19] = vadd4_sat_s(a, b);
  o[20] = vsub2_u(a, b);
  o[21] = vmin2_add_s(a, b, c);
  o[22] = vmax4_sat_u_from_s(a, b);
  o[23] = vabsdiff2_sat_s(a, b);
  o[24] = __vimax3_u16x2(a, b, c);
  o[25] = __vimin3_s32(a, b, c);
}

// ---- the host's reference, element by element
static int32_t el(uint32_t w, int i, int bits, bool sign) {
  uint32_t u = w >> (bits * i) & ((1u << bits) - 1);
  return sign && u >> (bits - 1) ? (int32_t)u - (1 << bits) : (int32_t)u;
}
template <class F>
static uint32_t per(uint32_t a, uint32_t b, int bits, bool sign, F f) {
  uint32_t d = 0;
  for (int i = 0; i < 32 / bits; i++) d |= ((uint32_t)f(el(a, i, bits, sign), el(b, i, bits, sign)) & ((1u << bits) - 1)) << (bits * i);
  return d;
}
template <class F>
static uint32_t sum(uint32_t a, uint32_t b, uint32_t c, int bits, bool sign, F f) {
  uint32_t s = c;
  for (int i = 0; i < 32 / bits; i++) s += (uint32_t)f(el(a, i, bits, sign), el(b, i, bits, sign));
  return s;
}
static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int32_t mx(int32_t p, int32_t q) { return p > q ? p : q; }
static int32_t mn(int32_t p, int32_t q) { return p < q ? p : q; }
static int32_t ad(int32_t p, int32_t q) { return p > q ? p - q : q - p; }

static void reference(uint32_t a, uint32_t b, uint32_t c, uint32_t* w) {
  w[0] = per(a, b, 16, false, [](int p, int q) { return p + q; });
  w[1] = per(a, b, 16, false, [](int p, int q) { return p - q; });
  w[2] = per(a, 0, 16, false, [](int p, int) { return -p; });
  w[3] = per(a, b, 16, true, mx);
  w[4] = per(a, b, 16, false, mx);
  w[5] = per(a, b, 16, true, mn);
  w[6] = per(a, b, 16, false, mn);
  w[7] = per(a, b, 8, false, ad);
  w[8] = per(a, b, 8, true, ad);
  w[9] = sum(a, b, 0, 8, false, ad);
  w[10] = sum(a, b, 0, 16, false, ad);
  w[11] = sum(a, b, 0, 8, true, ad);
  uint32_t s16 = per(a, b, 16, false, [](int p, int q) { return p + q; });
  w[12] = per(s16, c, 16, true, mx);
  w[13] = per(s16, c, 16, false, mx);
  w[14] = per(s16, c, 16, false, mn);
  w[15] = (uint32_t)mx(mx((int32_t)a, (int32_t)b), 0);
  w[16] = per(a, b, 16, true, [](int p, int q) { return mx(mn(p, q), 0); });
  w[17] = per(per(a, b, 16, true, mx), c, 16, true, [](int p, int q) { return mx(mx(p, q), 0); });
  w[18] = (uint32_t)mx(mx((int32_t)(a + b), (int32_t)c), 0);
  w[19] = per(a, b, 8, true, [](int p, int q) { return (int)clamp(p + q, -128, 127); });
  w[20] = per(a, b, 16, false, [](int p, int q) { return p - q; });
  w[21] = sum(a, b, c, 16, true, mn);
  w[22] = per(a, b, 8, true, [](int p, int q) { return (int)clamp(mx(p, q), 0, 255); });
  w[23] = per(a, b, 16, true, [](int p, int q) { return (int)clamp(ad(p, q), -32768, 32767); });
  w[24] = per(per(a, b, 16, false, mx), c, 16, false, mx);
  w[25] = (uint32_t)mn(mn((int32_t)a, (int32_t)b), (int32_t)c);
}

int main() {
  const int n = 4096, threads = 256;
  std::vector<unsigned> x(n), y(n), z(n);
  const unsigned edges[] = { 0u, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu, 0x00ff00ffu, 0x8000ffffu, 1u };
  uint32_t s = 2024;
  auto rnd = [&s]() { s = s * 1664525u + 1013904223u; return s; };
  for (int i = 0; i < n; i++) {
    x[i] = i < 81 ? edges[i % 9] : rnd();
    y[i] = i < 81 ? edges[i / 9] : rnd();
    z[i] = i % 3 ? rnd() : edges[i % 9];
  }
  unsigned *dx, *dy, *dz, *dout;
  CUDA_CHECK(cudaMalloc(&dx, n * 4));
  CUDA_CHECK(cudaMalloc(&dy, n * 4));
  CUDA_CHECK(cudaMalloc(&dz, n * 4));
  CUDA_CHECK(cudaMalloc(&dout, (size_t)n * kOps * 4));
  CUDA_CHECK(cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dz, z.data(), n * 4, cudaMemcpyHostToDevice));
  simd<<<n / threads, threads>>>(dx, dy, dz, dout, n);
  CUDA_CHECK_LAST();
  std::vector<unsigned> out((size_t)n * kOps);
  CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n && bad < 10; i++) {
    uint32_t w[kOps];
    reference(x[i], y[i], z[i], w);
    for (int k = 0; k < kOps; k++)
      if (out[(size_t)i * kOps + k] != w[k]) {
        std::fprintf(stderr, "element %d op %d of %08x %08x %08x: got %08x, expected %08x\n", i, k, x[i], y[i], z[i],
                     out[(size_t)i * kOps + k], w[k]);
        ++bad;
      }
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
