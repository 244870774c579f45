// nosync.cu -- a program that launches and exits without synchronizing,
// which CUDA allows (the context's teardown waits for the work). Its kernel
// must still run and be reported (tests/e2e_exec.sh reads the report).
#include "common.cuh"

__global__ void fill(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  int* d;
  CUDA_CHECK(cudaMalloc(&d, 4096 * sizeof(int)));
  fill<<<16, 256>>>(d, 4096);
  std::printf("launched\n");
  return 0;
}
