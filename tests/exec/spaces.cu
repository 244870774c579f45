// spaces.cu -- __isGlobal, __isShared and __isLocal (PTX isspacep) on
// generic pointers of each space, through a function the compiler may not
// see through, so that the test runs on the device, not at compile time.
// Checked on the host.
#include "common.cuh"

__device__ __noinline__ int classify(const void* p) {
  return (__isGlobal(p) ? 1 : 0) | (__isShared(p) ? 2 : 0) | (__isLocal(p) ? 4 : 0);
}

__global__ void spaces(const int* g, int* out, int pick) {
  __shared__ int s[64];
  int local[4];
  s[threadIdx.x] = threadIdx.x;
  for (int k = 0; k < 4; k++) local[k] = g[k] + pick;
  const void* ptrs[3] = {g + threadIdx.x, s + threadIdx.x, local + (threadIdx.x + pick) % 4};
  out[3 * threadIdx.x] = classify(ptrs[0]);
  out[3 * threadIdx.x + 1] = classify(ptrs[1]);
  out[3 * threadIdx.x + 2] = classify(ptrs[2]) + 8 * (local[pick % 4] == g[pick % 4] + pick);
}

int main() {
  int *dg, *dout;
  CUDA_CHECK(cudaMalloc(&dg, 64 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, 3 * 64 * sizeof(int)));
  CUDA_CHECK(cudaMemset(dg, 0, 64 * sizeof(int)));
  spaces<<<1, 64>>>(dg, dout, 3);
  CUDA_CHECK_LAST();
  std::vector<int> out(3 * 64);
  CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  const int want[3] = {1, 2, 4 + 8};
  for (int t = 0; t < 64 && ok; t++)
    for (int k = 0; k < 3; k++)
      if (out[3 * t + k] != want[k]) {
        std::printf("thread %d pointer %d: %d, want %d\n", t, k, out[3 * t + k], want[k]);
        ok = false;
      }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
