// bad_free.cu -- free() of an address malloc did not return: the launch
// stops with the fault named, as compute-sanitizer names it, and the
// program sees the sticky error. Usage: bad_free twice|stranger
#include "common.cuh"
#include <cstring>

__global__ void free_twice() {
  void* p = malloc(64);
  free(p);
  free(p);  // already freed
}

__global__ void free_stranger(int* buffer) {
  free(buffer + threadIdx.x);  // cudaMalloc's memory, not the heap's
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "twice";
  int* buffer;
  CUDA_CHECK(cudaMalloc(&buffer, 256));
  if (!std::strcmp(mode, "twice")) free_twice<<<1, 1>>>();
  else free_stranger<<<1, 32>>>(buffer);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("sync: %s\n", cudaGetErrorName(sync));
  return sync == cudaSuccess ? 1 : 0;
}
