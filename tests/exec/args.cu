// args.cu -- a program's own arguments, output and exit status pass through
// gpusim exec untouched: it echoes its arguments, runs one kernel on
// argv[1] elements, and exits with the status argv[2] names.
#include "common.cuh"
#include <cstring>

__global__ void iota(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: args N STATUS [WORDS...]\n");
    return 64;
  }
  int n = std::atoi(argv[1]), status = std::atoi(argv[2]);
  for (int i = 3; i < argc; ++i) std::printf("arg %d: %s\n", i, argv[i]);
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  iota<<<(n + 127) / 128, 128>>>(d, n);
  CUDA_CHECK_LAST();
  std::vector<int> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int v : h) sum += v;
  std::printf("sum %ld\n", sum);
  CUDA_CHECK(cudaFree(d));
  return status;
}
