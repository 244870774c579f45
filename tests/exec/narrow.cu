// narrow.cu -- what short, unsigned short, char and bool code compiles to
// (16-bit add/sub/mul/shift/min/max/div/rem, compares and selects on .s16 and
// .u16, the wrap at 16 bits), and a struct passed to a kernel by value
// (`.param .align 8 .b8 p[24]`, read with ld.param at offsets). Every
// element is checked against the same expression on the host.
#include <cstdint>
#include "common.cuh"

struct Coeffs {
  float scale;
  int offset;
  double bias;
  short step;
  unsigned char mask;
};

constexpr int kOut = 12;

__host__ __device__ inline void narrow_ops(short a, short b, unsigned short u, unsigned short v, const Coeffs& c,
                                           int* o) {
  short s1 = (short)(a + b);          // wraps at 16 bits
  short s2 = (short)(a * b);
  unsigned short u1 = (unsigned short)(u - v);
  o[0] = s1;
  o[1] = s2;
  o[2] = u1;
  o[3] = (short)(a >> 3);             // arithmetic shift of a negative short
  o[4] = (unsigned short)(u >> 5);
  o[5] = a < b ? 1 : 0;               // signed compare
  o[6] = u < v ? 1 : 0;               // unsigned compare
  o[7] = (short)(b != 0 ? a / b : 0) + (short)(b != 0 ? a % b : 0);
  o[8] = (short)(a > b ? a : b) * 3 + (unsigned short)(u < v ? u : v);
  bool flag = (a & 1) && (u > 1000);
  o[9] = flag ? c.step : (short)-c.step;
  o[10] = (int)(c.scale * (float)a) + c.offset + (int)c.bias + (unsigned char)(u & c.mask);
  o[11] = (int)(short)(a * (short)c.step) * (int)(unsigned short)(u + 40000u);
}

__global__ void narrow(const short* a, const short* b, const unsigned short* u, const unsigned short* v, Coeffs c,
                       int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) narrow_ops(a[i], b[i], u[i], v[i], c, out + (size_t)i * kOut);
}

int main() {
  const int n = 1024, threads = 128, blocks = n / threads;
  std::vector<short> a(n), b(n);
  std::vector<unsigned short> u(n), v(n);
  uint32_t s = 4242;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    a[i] = (short)(s >> 16);
    b[i] = (short)(i % 5 == 0 ? 0 : (short)(s & 0xffff));
    u[i] = (unsigned short)(s >> 8);
    v[i] = (unsigned short)(s * 7u >> 12);
  }
  a[1] = -32768, b[1] = -1;  // the division that overflows 16 bits
  Coeffs c = { 1.5f, -7, 2.75, 300, 0x3c };
  short *d_a, *d_b;
  unsigned short *d_u, *d_v;
  int* d_out;
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(short)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(short)));
  CUDA_CHECK(cudaMalloc(&d_u, n * sizeof(unsigned short)));
  CUDA_CHECK(cudaMalloc(&d_v, n * sizeof(unsigned short)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * kOut * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(short), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(short), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_u, u.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_v, v.data(), n * sizeof(unsigned short), cudaMemcpyHostToDevice));
  narrow<<<blocks, threads>>>(d_a, d_b, d_u, d_v, c, d_out, n);
  CUDA_CHECK_LAST();
  std::vector<int> out((size_t)n * kOut);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    int want[kOut];
    narrow_ops(a[i], b[i], u[i], v[i], c, want);
    for (int k = 0; k < kOut; ++k)
      if (out[(size_t)i * kOut + k] != want[k]) {
        std::fprintf(stderr, "element %d (a %d b %d u %u v %u) value %d: got %d, expected %d\n", i, a[i], b[i], u[i],
                     v[i], k, out[(size_t)i * kOut + k], want[k]);
        ++bad;
      }
  }
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
