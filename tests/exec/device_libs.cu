// device_libs.cu -- header libraries of the toolkit that kernels call, as
// ordinary programs use them: cuRAND's device API (XORWOW states seeded by
// curand_init, uniform draws), CUB's block-wide exclusive scan and radix
// sort, and libcu++'s cuda::atomic_ref. Checked on the host: the scan and
// the sort exactly, the atomics' total exactly, the random numbers by their
// range, their mean, and by a second launch with the same seed giving the
// same numbers and one with another seed different ones. Prints PASS.
#include <algorithm>
#include <cub/cub.cuh>
#include <cuda/atomic>
#include <curand_kernel.h>
#include "common.cuh"

__global__ void draw(unsigned long long seed, float* out, int per_thread) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState st;
  curand_init(seed, i, 0, &st);  // one sequence per thread
  for (int k = 0; k < per_thread; k++) out[i * per_thread + k] = curand_uniform(&st);
}

__global__ void scan_and_sort(const unsigned* in, unsigned* scanned, unsigned* sorted) {
  typedef cub::BlockScan<unsigned, 128> Scan;
  typedef cub::BlockRadixSort<unsigned, 128, 4> Sort;
  __shared__ union {
    typename Scan::TempStorage scan;
    typename Sort::TempStorage sort;
  } tmp;
  unsigned v = in[threadIdx.x], prefix;
  Scan(tmp.scan).ExclusiveSum(v, prefix);
  scanned[threadIdx.x] = prefix;
  __syncthreads();  // the union's storage is reused
  unsigned keys[4];
  for (int j = 0; j < 4; j++) keys[j] = in[(threadIdx.x * 4 + j) % 128] * 2654435761u + j;
  Sort(tmp.sort).Sort(keys);
  for (int j = 0; j < 4; j++) sorted[threadIdx.x * 4 + j] = keys[j];
}

__global__ void count(int* total, unsigned long long* wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> t(*total);
  t.fetch_add(i % 3, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(*wide);
  w.fetch_max((unsigned long long)i << 32, cuda::std::memory_order_relaxed);
}

int main() {
  const int threads = 256, blocks = 8, per = 16, n = threads * blocks * per;
  float *a, *b, *c;
  CUDA_CHECK(cudaMallocManaged(&a, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&b, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&c, n * sizeof(float)));
  draw<<<blocks, threads>>>(1234, a, per);
  draw<<<blocks, threads>>>(1234, b, per);
  draw<<<blocks, threads>>>(99, c, per);
  CUDA_CHECK(cudaDeviceSynchronize());
  bool ok = true;
  double mean = 0;
  int same_seed_differs = 0, other_seed_same = 0;
  for (int i = 0; i < n; i++) {
    ok = ok && a[i] > 0.0f && a[i] <= 1.0f;
    mean += a[i];
    same_seed_differs += a[i] != b[i];
    other_seed_same += a[i] == c[i];
  }
  mean /= n;
  if (!ok || mean < 0.49 || mean > 0.51 || same_seed_differs || other_seed_same > n / 1000) {
    std::fprintf(stderr, "curand: in range %d, mean %g, %d differ for one seed, %d equal for two\n", ok, mean,
                 same_seed_differs, other_seed_same);
    ok = false;
  }

  unsigned *in, *scanned, *sorted;
  CUDA_CHECK(cudaMallocManaged(&in, 128 * sizeof(unsigned)));
  CUDA_CHECK(cudaMallocManaged(&scanned, 128 * sizeof(unsigned)));
  CUDA_CHECK(cudaMallocManaged(&sorted, 512 * sizeof(unsigned)));
  for (int i = 0; i < 128; i++) in[i] = (i * 37 + 11) % 101;
  scan_and_sort<<<1, 128>>>(in, scanned, sorted);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> want(512);
  for (int i = 0; i < 512; i++) want[i] = in[i % 128] * 2654435761u + i % 4;
  std::sort(want.begin(), want.end());
  unsigned run = 0;
  for (int i = 0; i < 128; i++) {
    if (scanned[i] != run) ok = false;
    run += in[i];
  }
  for (int i = 0; i < 512; i++)
    if (sorted[i] != want[i]) ok = false;
  if (!ok) std::fprintf(stderr, "cub: scan or sort differs from the host's\n");

  int* total;
  unsigned long long* wide;
  const int m = 10000;
  CUDA_CHECK(cudaMallocManaged(&total, sizeof(int)));
  CUDA_CHECK(cudaMallocManaged(&wide, sizeof(unsigned long long)));
  *total = 0, *wide = 0;
  count<<<(m + 255) / 256, 256>>>(total, wide, m);
  CUDA_CHECK(cudaDeviceSynchronize());
  int want_total = 0;
  for (int i = 0; i < m; i++) want_total += i % 3;
  if (*total != want_total || *wide != (unsigned long long)(m - 1) << 32) {
    std::fprintf(stderr, "atomic_ref: total %d (want %d), max %llx\n", *total, want_total, *wide);
    ok = false;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
