// managed.cu -- unified memory: one pointer for host code and kernels
// (cudaMallocManaged), prefetch and advice hints, pointer attributes, a
// managed allocation freed and made again; __managed__ variables, with an
// initializer, read and written by host code before and after kernels, and
// kept across a cudaDeviceReset (placed again with their initial values).
#include "common.cuh"

__managed__ int hits = 5;
__managed__ float table[64];

__global__ void count(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&hits, 1);
    table[i % 64] = 2.f * (float)(i % 64);
  }
}

__global__ void scale(float* x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= a;
}

int main() {
  const int n = 1 << 16;
  float* x;
  CUDA_CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);  // the host writes it directly
  cudaMemLocation dev = {};
  dev.type = cudaMemLocationTypeDevice;
  dev.id = 0;
  CUDA_CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation, dev));
  CUDA_CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), dev, 0, 0));
  scale<<<64, 256>>>(x, 3.f, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && x[i] == 3.f * i;  // and reads the kernel's results
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, x + 5));
  ok = ok && attr.type == cudaMemoryTypeManaged;
  int* d;
  CUDA_CHECK(cudaMalloc(&d, 64));
  CUDA_CHECK(cudaMemcpy(d, x, 64, cudaMemcpyDefault));  // managed to device, by address
  int first = -1;
  CUDA_CHECK(cudaMemcpy(&first, d, 4, cudaMemcpyDefault));
  ok = ok && first == 0;
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaMallocManaged(&x, 16 * sizeof(float)));
  x[15] = 1.f;
  scale<<<1, 32>>>(x, 2.f, 16);
  CUDA_CHECK(cudaDeviceSynchronize());
  ok = ok && x[15] == 2.f;
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(d));

  ok = ok && hits == 5 && table[10] == 0.f;  // the host reads the initial values, before any kernel
  hits = 100;                                // and writes one the kernel sees
  count<<<2, 64>>>(128);
  CUDA_CHECK(cudaDeviceSynchronize());
  ok = ok && hits == 228 && table[63] == 126.f;
  int* where = nullptr;
  CUDA_CHECK(cudaGetSymbolAddress((void**)&where, hits));
  ok = ok && where == &hits;  // one address for both sides
  CUDA_CHECK(cudaDeviceReset());
  ok = ok && hits == 5;  // placed again with its initializer
  count<<<1, 32>>>(32);
  CUDA_CHECK(cudaDeviceSynchronize());
  ok = ok && hits == 37;
  if (!ok) std::fprintf(stderr, "hits %d table[63] %g\n", hits, table[63]);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
