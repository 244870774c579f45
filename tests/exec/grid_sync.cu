// grid_sync.cu -- cooperative groups' grid-wide barrier: a cooperative launch
// (cudaLaunchCooperativeKernel) of two blocks per SM whose phases each read
// what every other block wrote in the phase before, across three
// grid.sync()s; and generic atomics (atomicAdd through a pointer that may be
// shared or global), which grid.sync() itself uses. Checked on the host.
#include "common.cuh"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __noinline__ void bump(int* counter, int v) { atomicAdd(counter, v); }  // generic: shared or global

__global__ void phases(int* data, int* partial, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) bump(&block_sum, data[i]);  // shared through a pointer
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
  grid.sync();  // phase 2 reads every block's partial
  int total = 0;
  for (int b = 0; b < (int)gridDim.x; b++) total += partial[b];
  grid.sync();  // phase 3 overwrites what phase 2 read
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = total - data[i];
  grid.sync();
  if (grid.thread_rank() == 0) out[0] = total;
  if (threadIdx.x == 0) bump(&out[1], 1);  // global through a pointer
}

int main() {
  int sms = sm_count(), blocks_per_sm = 0;
  const int threads = 128;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, phases, threads, 0));
  int blocks = sms * (blocks_per_sm < 2 ? blocks_per_sm : 2), n = 100000;
  std::vector<int> h(n);
  long long total = 0;
  for (int i = 0; i < n; i++) h[i] = i % 7 - 3 + (i % 1000 == 0), total += h[i];
  int *data, *partial, *out;
  CUDA_CHECK(cudaMalloc(&data, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, 2 * sizeof(int)));
  bool ok = true;
  for (int launch = 0; launch < 2; launch++) {  // the second finds the workspace as a new launch should
    CUDA_CHECK(cudaMemcpy(data, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(out, 0, 2 * sizeof(int)));
    void* args[] = { &data, &partial, &out, &n };
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)phases, blocks, threads, args, 0, 0));
    int got[2];
    std::vector<int> after(n);
    CUDA_CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(after.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += after[i] != total - h[i];
    if (got[0] != total || got[1] != blocks || wrong) {
      std::printf("launch %d: total %d, blocks %d, %d elements wrong; want %lld, %d\n", launch, got[0], got[1], wrong,
                  total, blocks);
      ok = false;
    }
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
