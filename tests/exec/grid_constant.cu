// grid_constant.cu -- kernel parameters as programs pass them beyond a few
// scalars: a struct of 260 bytes by value (more than the old 256-byte
// bound; CUDA takes 4 KB), read as __grid_constant__ through a pointer and
// indexed at run time (ld.param through a register), and a kernel of 40
// parameters. Checked on the host; prints PASS.
#include "common.cuh"

struct Big {
  int a[64];
  float scale;
};

__device__ int pick(const Big* b, int i) { return b->a[i % 64]; }

__global__ void indexed(const __grid_constant__ Big big, int* out) {
  int i = threadIdx.x;
  const Big* p = &big;
  out[i] = (int)(pick(p, i * 7) * big.scale);
}

#define P8(x) int x##0, int x##1, int x##2, int x##3, int x##4, int x##5, int x##6, int x##7
#define S8(x) x##0 + x##1 + x##2 + x##3 + x##4 + x##5 + x##6 + x##7
__global__ void many(int* out, P8(a), P8(b), P8(c), P8(d), int e0, int e1, int e2, int e3, int e4, int e5, int e6) {
  *out = S8(a) + S8(b) + S8(c) + S8(d) + e0 + e1 + e2 + e3 + e4 + e5 + e6;
}

int main() {
  Big b;
  for (int i = 0; i < 64; i++) b.a[i] = i * 3;
  b.scale = 2.0f;
  int* o;
  CUDA_CHECK(cudaMalloc(&o, 128 * sizeof(int)));
  indexed<<<1, 128>>>(b, o);
  CUDA_CHECK_LAST();
  int h[128];
  CUDA_CHECK(cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 128; i++)
    if (h[i] != (i * 7 % 64) * 3 * 2 && bad++ < 4) std::fprintf(stderr, "out[%d] = %d, expected %d\n", i, h[i], (i * 7 % 64) * 6);
  many<<<1, 1>>>(o, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(h, o, sizeof(int), cudaMemcpyDeviceToHost));
  if (h[0] != 39 * 40 / 2) std::fprintf(stderr, "40 parameters summed to %d, expected %d\n", h[0], 39 * 40 / 2), bad++;
  std::printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
