// long_launch.cu -- one launch long enough to simulate (a second or more on
// one host thread) that gpusim exec --progress shows its line; the result
// is checked on the host. Usage: long_launch [BLOCKS]
#include "common.cuh"

__global__ void spin(float* out, int iters) {
  float x = (float)threadIdx.x;
  for (int i = 0; i < iters; i++) x = x * 0.999f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 1500, iters = 2000;
  float* d;
  CUDA_CHECK(cudaMalloc(&d, blocks * 256 * sizeof(float)));
  spin<<<blocks, 256>>>(d, iters);
  CUDA_CHECK_LAST();
  std::vector<float> h(blocks * 256);
  CUDA_CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 256; t++) {
    float x = (float)t;
    for (int i = 0; i < iters; i++) x = std::fma(x, 0.999f, 0.5f);
    for (int b = 0; b < blocks; b += 97)
      if (h[b * 256 + t] != x) {
        std::printf("FAIL: block %d thread %d: %g, expected %g\n", b, t, h[b * 256 + t], x);
        return 1;
      }
  }
  std::printf("PASS\n");
  return 0;
}
