// libraries.cu -- the CUDA toolkit's own libraries, as ordinary programs use
// them: thrust (fill, sequence, transform with a functor, reduce,
// inclusive_scan, sort, sort_by_key), CUB's device-wide scan and radix sort
// (two calls each: the first asks for temporary storage), and CUB's block
// reduce and cooperative groups' tile reductions inside a kernel of our own.
// Their kernels carry what nvcc makes of modern C++: structs by value, bit
// utilities (bmsk), prefetch hints, inline-asm scoped registers. Results are
// checked against the host.
#include "common.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <algorithm>

namespace cg = cooperative_groups;

struct Scramble {
  __host__ __device__ int operator()(int x) const { return (x * 7919 + 13) % 1009 - 500; }
};

// one block's sum by CUB, one warp's by cooperative groups: both land in out
__global__ void block_and_tile_sums(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, 128>;
  __shared__ typename Reduce::TempStorage tmp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int block_sum = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = block_sum;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int tile_max = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) out[gridDim.x + blockIdx.x * 4 + tile.meta_group_rank()] = tile_max;
}

static bool check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "FAIL: %s\n", what);
  return ok;
}

int main() {
  const int n = 3000;
  bool ok = true;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = Scramble()(i);

  // thrust
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end());
  thrust::transform(v.begin(), v.end(), v.begin(), Scramble());
  long sum = thrust::reduce(v.begin(), v.end(), 0L);
  long want_sum = 0;
  for (int x : h) want_sum += x;
  ok &= check(sum == want_sum, "thrust::reduce");
  thrust::device_vector<int> scanned(n);
  thrust::inclusive_scan(v.begin(), v.end(), scanned.begin());
  thrust::host_vector<int> hs = scanned;
  int run = 0;
  for (int i = 0; i < n && ok; ++i) ok &= check(hs[i] == (run += h[i]), "thrust::inclusive_scan");
  thrust::device_vector<int> keys = v, vals(n);
  thrust::sequence(vals.begin(), vals.end());
  thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
  thrust::host_vector<int> hk = keys, hv = vals;
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < n && ok; ++i) ok &= check(hk[i] == sorted[i] && h[hv[i]] == hk[i], "thrust::sort_by_key");
  thrust::sort(v.begin(), v.end(), thrust::greater<int>());
  thrust::host_vector<int> hd = v;
  for (int i = 0; i < n && ok; ++i) ok &= check(hd[i] == sorted[n - 1 - i], "thrust::sort, descending");

  // CUB device-wide: exclusive sum, then a radix sort of unsigned keys
  int *d_in, *d_out;
  unsigned *d_keys, *d_sorted;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_sorted, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  void* tmp = nullptr;
  size_t tmp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
  CUDA_CHECK(cudaMalloc(&tmp, tmp_bytes));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, d_in, d_out, n));
  std::vector<int> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  run = 0;
  for (int i = 0; i < n && ok; run += h[i], ++i) ok &= check(got[i] == run, "cub::DeviceScan::ExclusiveSum");
  CUDA_CHECK(cudaFree(tmp));
  std::vector<unsigned> hu(n);
  for (int i = 0; i < n; ++i) hu[i] = (unsigned)h[i] * 2654435761u;
  CUDA_CHECK(cudaMemcpy(d_keys, hu.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  tmp = nullptr;
  CUDA_CHECK(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, d_keys, d_sorted, n));
  CUDA_CHECK(cudaMalloc(&tmp, tmp_bytes));
  CUDA_CHECK(cub::DeviceRadixSort::SortKeys(tmp, tmp_bytes, d_keys, d_sorted, n));
  std::vector<unsigned> gu(n);
  CUDA_CHECK(cudaMemcpy(gu.data(), d_sorted, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::sort(hu.begin(), hu.end());
  ok &= check(gu == hu, "cub::DeviceRadixSort::SortKeys");

  // our kernel: CUB's block reduce and cooperative groups' tile reduce
  const int blocks = n / 128;
  block_and_tile_sums<<<blocks, 128>>>(d_in, d_out);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(got.data(), d_out, blocks * 5 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks && ok; ++b) {
    int s = 0;
    for (int t = 0; t < 128; ++t) s += h[b * 128 + t];
    ok &= check(got[b] == s, "cub::BlockReduce::Sum");
    for (int w = 0; w < 4; ++w)
      ok &= check(got[blocks + b * 4 + w] == *std::max_element(&h[b * 128 + w * 32], &h[b * 128 + w * 32 + 32]),
                  "cooperative_groups::reduce");
  }
  CUDA_CHECK(cudaFree(tmp));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_sorted));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
