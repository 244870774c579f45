// large_tiles.cu -- cooperative groups' tiles of more than a warp
// (tiled_partition<64>, <128>): on sm_80 and later they meet and share
// partial results in the block's reserved shared memory, which PTX names
// %reserved_smem_offset_1. Reductions and a scan-like sum over each tile,
// synchronized by the tile, in blocks of 256 threads with dynamic shared
// memory beside them (which the reserved bytes must not overlap). Launched
// twice so that `--max-launches 1` runs the second untimed. Checked on the
// host.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "common.cuh"
namespace cg = cooperative_groups;

template <int N>
__device__ int tile_work(cg::thread_block b, int v) {
  auto t = cg::tiled_partition<N>(b);
  int sum = cg::reduce(t, v, cg::plus<int>());
  int top = cg::reduce(t, v, cg::greater<int>());
  t.sync();
  return sum * 3 + top + (int)t.meta_group_rank() * 1000000;
}

__global__ void tiles(const int* in, int* out) {
  extern __shared__ int dyn[];
  auto b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
  dyn[threadIdx.x] = -v;  // the user's shared memory, beside the reserved bytes
  b.sync();
  out[2 * i] = tile_work<64>(b, v);
  out[2 * i + 1] = tile_work<128>(b, v) + dyn[threadIdx.x ^ 1];
}

int main() {
  const int blocks = 5, threads = 256, n = blocks * threads;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 20;
  int *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, 2 * n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int launch = 0; launch < 2 && ok; launch++) {
    CUDA_CHECK(cudaMemset(dout, 0, 2 * n * sizeof(int)));
    tiles<<<blocks, threads, threads * sizeof(int)>>>(din, dout);
    CUDA_CHECK_LAST();
    std::vector<int> out(2 * n);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n && ok; i++) {
      int want[2];
      for (int k = 0; k < 2; k++) {
        int size = k ? 128 : 64, first = i / size * size, sum = 0, top = in[first];
        for (int j = first; j < first + size; j++) sum += in[j], top = in[j] > top ? in[j] : top;
        want[k] = sum * 3 + top + (i % threads) / size * 1000000 + (k ? -in[i ^ 1] : 0);
      }
      for (int k = 0; k < 2; k++)
        if (out[2 * i + k] != want[k]) {
          std::printf("launch %d thread %d tile<%d>: %d, want %d\n", launch, i, k ? 128 : 64, out[2 * i + k], want[k]);
          ok = false;
        }
    }
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
