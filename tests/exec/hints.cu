// hints.cu -- what sm_90 code writes around its work: programmatic
// dependent launch (cudaGridDependencySynchronize,
// cudaTriggerProgrammaticLaunchCompletion: griddepcontrol), L2 access
// properties (cuda::annotated_ptr with streaming and persisting
// properties: createpolicy and ld/st .L2::cache_hint; cuda::discard_memory:
// discard.global.L2; cuda::apply_access_property: applypriority) and
// cooperative_groups::invoke_one (elect.sync). Two kernels in one stream,
// the second waiting on the first; checked on the host.
#include <cooperative_groups.h>
#include <cuda/annotated_ptr>
#include "common.cuh"
namespace cg = cooperative_groups;

__global__ void produce(float* data, int* leaders) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::annotated_ptr<float, cuda::access_property::streaming> out(data);
  out[i] = (float)i;
  // one lane of each warp, and only one, counts the warp; odd lanes elect among themselves
  cg::invoke_one(warp, [&] { atomicAdd(&leaders[0], 1); });
  if (threadIdx.x & 1) {
    auto odd = cg::coalesced_threads();
    cg::invoke_one(odd, [&] { atomicAdd(&leaders[1], (int)threadIdx.x % 32); });
  }
  cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void consume(float* data, float* scratch, float* sum) {
  cudaGridDependencySynchronize();  // produce's writes are visible from here on
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::annotated_ptr<float, cuda::access_property> in(
      data, cuda::access_property(data, 4096, 4096, cuda::access_property::persisting{}));
  cuda::apply_access_property(data, 4096, cuda::access_property::persisting{});
  scratch[i] = in[i] * 2.0f;
  if (threadIdx.x == 0) cuda::discard_memory(scratch + 4096, 128);  // a line of it we no longer need
  atomicAdd(sum, in[i]);
}

int main() {
  const int n = 2048;
  float *data, *scratch, *sum;
  int* leaders;
  CUDA_CHECK(cudaMalloc(&data, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&scratch, 2 * n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sum, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&leaders, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemset(sum, 0, sizeof(float)));
  CUDA_CHECK(cudaMemset(leaders, 0, 2 * sizeof(int)));
  produce<<<n / 256, 256>>>(data, leaders);
  CUDA_CHECK_LAST();
  consume<<<n / 256, 256>>>(data, scratch, sum);
  CUDA_CHECK_LAST();
  std::vector<float> got(n);
  float s = 0;
  int lead[2];
  CUDA_CHECK(cudaMemcpy(got.data(), scratch, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(lead, leaders, sizeof lead, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    if (got[i] != 2.0f * i) std::printf("scratch[%d] = %g, want %g\n", i, got[i], 2.0f * i), ok = false;
  if (s != (float)n * (n - 1) / 2) std::printf("sum %g, want %g\n", s, (float)n * (n - 1) / 2), ok = false;
  if (lead[0] != n / 32) std::printf("%d warp leaders, want %d\n", lead[0], n / 32), ok = false;
  if (lead[1] != n / 32) std::printf("odd leaders' lanes sum to %d, want %d (lane 1 of each warp)\n", lead[1], n / 32), ok = false;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
