// divergence.cu -- the cost of a branch that splits warps: odd and even
// lanes take different paths (both paths issue, one after the other) versus
// a branch that is the same for a whole warp. The two kernels do the same
// arithmetic per thread; the first should take about twice as long.
#include "common.cuh"

__device__ __forceinline__ float work(float x, int iters, float c) {
  for (int k = 0; k < iters; ++k) x = x * c + 0.5f;
  return x;
}

__global__ void split_lanes(float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(threadIdx.x);
  x = (threadIdx.x & 1) ? work(x, iters, 0.998f) : work(x, iters, 0.999f);
  out[i] = x;
}

__global__ void split_warps(float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = static_cast<float>(threadIdx.x);
  x = ((threadIdx.x >> 5) & 1) ? work(x, iters, 0.998f) : work(x, iters, 0.999f);
  out[i] = x;
}

int main() {
  const int threads = 256, blocks = sm_count() * 2, iters = 64, n = threads * blocks;
  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  std::vector<float> got(n), want(n);
  split_warps<<<blocks, threads>>>(d_out, iters);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    int lane = t % threads;
    float x = static_cast<float>(lane), c = ((lane >> 5) & 1) ? 0.998f : 0.999f;
    for (int k = 0; k < iters; ++k) x = x * c + 0.5f;
    want[t] = x;
  }
  bool ok = check_close(got.data(), want.data(), n, 1e-3f, 1e-3f);
  float t_split = time_ms([&] { split_lanes<<<blocks, threads>>>(d_out, iters); });
  float t_warps = time_ms([&] { split_warps<<<blocks, threads>>>(d_out, iters); });
  std::printf("split lanes: %.4f ms\nsplit warps: %.4f ms\nratio      : %.2fx\n", t_split, t_warps,
              t_split / t_warps);
  CUDA_CHECK(cudaFree(d_out));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
