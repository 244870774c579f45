// managed.cu -- unified memory: one pointer for host code and kernels
// (cudaMallocManaged), prefetch and advice hints, pointer attributes, a
// managed allocation freed and made again.
#include "common.cuh"

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
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
