// occupancy.cu -- the occupancy API against the machine: blocks per SM of
// two kernels over block sizes and dynamic shared memory, the block size the
// runtime suggests, and the registers cudaFuncGetAttributes reports (so that
// the test can ask `gpusim occupancy` the same question).
#include "common.cuh"

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.f + 1.f;
}

__global__ void mirror(float* x, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = (i < n) ? x[i] : 0.f;
  __syncthreads();
  if (i < n) x[i] = tile[blockDim.x - 1 - threadIdx.x];
}

template <typename K>
void show(const char* name, K kernel, int block, size_t smem) {
  cudaFuncAttributes fa;
  CUDA_CHECK(cudaFuncGetAttributes(&fa, kernel));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  std::printf("%s block=%d smem=%zu regs=%d blocks_per_sm=%d\n", name, block, smem, fa.numRegs, per_sm);
}

int main() {
  for (int block : {32, 256, 1024}) show("scale", scale, block, 0);
  for (size_t smem : {0, 32 * 1024, 100 * 1024}) show("mirror", mirror, 256, smem);
  int min_grid = 0, best = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, scale, 0, 0));
  std::printf("suggested block=%d min_grid=%d\n", best, min_grid);
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("device sms=%d cc=%d.%d threads_per_sm=%d\n", p.multiProcessorCount, p.major, p.minor,
              p.maxThreadsPerMultiProcessor);
  std::printf("%s\n", best > 0 && min_grid > 0 ? "PASS" : "FAIL");
  return 0;
}
