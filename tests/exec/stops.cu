// stops.cu -- kernels that stop themselves, and what the program sees, as on
// a GPU: a failed assert() gives cudaErrorAssert (and CUDA's "Assertion ...
// failed." line on stderr), __trap() gives cudaErrorLaunchFailure, a
// misaligned access cudaErrorMisalignedAddress; each at the next
// synchronizing call, and sticky after it. An assert that holds costs
// nothing: the kernel runs to the end. A fault inside a header's code (__ldg)
// is told at the user's line. Usage: stops assert|trap|ldg|misaligned|holds
#include "common.cuh"
#include <cassert>
#include <cstring>

__global__ void check_sizes(const int* v, int n, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] < limit);
}

__global__ void give_up(int* flag) {
  if (threadIdx.x == 5 && flag[0] == 7) __trap();
  flag[1] = 1;
}

__global__ void read_far(const float* p, float* out) {
  out[threadIdx.x] = __ldg(p + 100000000 + threadIdx.x);  // a fault inside a header's inline asm
}

__global__ void read_odd(const char* p, int* out) {
  out[threadIdx.x] = *reinterpret_cast<const int*>(p + 1 + 4 * threadIdx.x);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "holds";
  const int n = 100;
  int* v;
  CUDA_CHECK(cudaMalloc(&v, n * sizeof(int)));
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = i;
  h[70] = 7;  // give_up's flag is v[0] == 0: only the trap mode sets it
  CUDA_CHECK(cudaMemcpy(v, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaError_t want = cudaSuccess;
  if (!std::strcmp(mode, "assert")) {  // v[i] < 50 fails from i = 50 on
    check_sizes<<<(n + 31) / 32, 32>>>(v, n, 50);
    want = cudaErrorAssert;
  } else if (!std::strcmp(mode, "trap")) {
    CUDA_CHECK(cudaMemcpy(v, &h[70], sizeof(int), cudaMemcpyHostToDevice));
    give_up<<<1, 32>>>(v);
    want = cudaErrorLaunchFailure;
  } else if (!std::strcmp(mode, "ldg")) {
    read_far<<<1, 32>>>(reinterpret_cast<const float*>(v), reinterpret_cast<float*>(v));
    want = cudaErrorIllegalAddress;
  } else if (!std::strcmp(mode, "misaligned")) {
    read_odd<<<1, 32>>>(reinterpret_cast<const char*>(v), v + 64);
    want = cudaErrorMisalignedAddress;
  } else {
    check_sizes<<<(n + 31) / 32, 32>>>(v, n, n);
    give_up<<<1, 32>>>(v);
  }
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t after = cudaMemset(v, 0, sizeof(int));
  std::printf("launch: %s\nsync: %s (%s)\nafter: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorString(sync), cudaGetErrorName(after));
  // the launch itself may or may not have seen the error yet (kernels are asynchronous)
  bool ok = (launch == cudaSuccess || launch == want) && sync == want && after == want;
  if (want == cudaSuccess) {
    int flag1 = 0;
    CUDA_CHECK(cudaMemcpy(&flag1, v + 1, sizeof(int), cudaMemcpyDeviceToHost));
    ok = ok && flag1 == 1;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
