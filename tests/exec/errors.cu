// errors.cu -- errors as CUDA gives them: bad arguments fail the call and
// set the last error (cleared by cudaGetLastError); a launch that cannot
// start is refused at once and nothing sticks; a call gpusim does not
// implement answers cudaErrorNotSupported; an out-of-bounds store faults,
// the fault reaches the program at the next synchronizing call, and sticks.
#include "common.cuh"

__global__ void store(int* p, int i, int v) { p[i] = v; }

static int failures = 0;
#define EXPECT_ERR(call, want)                                                               \
  do {                                                                                       \
    cudaError_t got_ = (call);                                                               \
    if (got_ != (want)) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s gave %s, expected %s\n", __FILE__, __LINE__, #call,    \
                   cudaGetErrorName(got_), cudaGetErrorName(want));                          \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)

int main() {
  EXPECT_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_ERR(cudaGetLastError(), cudaSuccess);
  int* d;
  CUDA_CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  int h[64] = {0};
  EXPECT_ERR(cudaMemcpy(h, d, 65 * sizeof(int), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidValue);
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_ERR(cudaFree(d + 1), cudaErrorInvalidValue);
  cudaGetLastError();

  store<<<1, 2048>>>(d, 0, 1);  // more threads than a block may have
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_ERR(cudaDeviceSynchronize(), cudaSuccess);

  cudaIpcMemHandle_t handle;
  EXPECT_ERR(cudaIpcGetMemHandle(&handle, d), cudaErrorNotSupported);
  cudaGetLastError();

  store<<<1, 1>>>(d, 5, 42);
  EXPECT_ERR(cudaDeviceSynchronize(), cudaSuccess);
  CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  if (h[5] != 42) ++failures;

  store<<<1, 1>>>(d, 1 << 20, 7);  // 4 MiB past a 256-byte allocation
  EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);  // sticky
  EXPECT_ERR(cudaMalloc(&d, 4), cudaErrorIllegalAddress);
  std::printf("%s: %s\n", failures ? "FAIL" : "PASS", cudaGetErrorString(cudaErrorIllegalAddress));
  return failures ? 1 : 0;
}
