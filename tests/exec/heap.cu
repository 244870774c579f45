// heap.cu -- malloc and free in kernels (the device heap): each thread
// allocates a buffer of its own size, fills it, and a later kernel reads
// and frees it (the heap lasts from launch to launch); freed memory is
// reused (rounds that together allocate more than the heap holds all
// succeed); a request larger than the heap gets NULL; an aligned
// allocation (__nv_aligned_device_malloc) is aligned; free(NULL) does
// nothing; and cudaDeviceSetLimit sets the heap's size until the first
// launch that uses it, not after. Checked against the host.
#include "common.cuh"

__global__ void fill(int** bufs, int* sizes) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 1 + t % 37;  // sizes from 4 to 148 bytes, a mix of classes
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  bufs[t] = p;
  sizes[t] = p ? n : -1;
  if (p)
    for (int i = 0; i < n; i++) p[i] = t * 1000 + i;
}

__global__ void sum_and_free(int** bufs, const int* sizes, long long* sums) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long s = 0;
  for (int i = 0; i < sizes[t]; i++) s += bufs[t][i];
  sums[t] = s;
  free(bufs[t]);
}

// Allocates, writes, checks and frees `bytes` per thread; counts failures.
__global__ void churn(size_t bytes, int* failures) {
  char* p = static_cast<char*>(malloc(bytes));
  if (!p) {
    atomicAdd(failures, 1);
    return;
  }
  for (size_t i = 0; i < bytes; i += 64) p[i] = static_cast<char>(threadIdx.x + i);
  for (size_t i = 0; i < bytes; i += 64)
    if (p[i] != static_cast<char>(threadIdx.x + i)) atomicAdd(failures, 1);
  free(p);
  free(nullptr);  // nothing
}

__global__ void odd_requests(unsigned long long* out) {
  void* huge = malloc(size_t(1) << 40);  // more than any heap
  void* aligned = __nv_aligned_device_malloc(100, 4096);
  void* plain = malloc(24);
  out[0] = reinterpret_cast<unsigned long long>(huge);
  out[1] = reinterpret_cast<unsigned long long>(aligned);
  out[2] = reinterpret_cast<unsigned long long>(plain);
  if (aligned) static_cast<char*>(aligned)[99] = 1;  // its 100 bytes are its own
  free(aligned);
  free(plain);
}

int main() {
  bool ok = true;
  size_t heap = 0;
  CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  if (heap != 8u << 20) std::fprintf(stderr, "default heap %zu bytes, expected 8 MiB\n", heap), ok = false;
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20));
  CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  if (heap != 16u << 20) std::fprintf(stderr, "heap %zu bytes after setting 16 MiB\n", heap), ok = false;

  // one launch allocates, the next reads and frees
  const int blocks = 8, threads = 128, n = blocks * threads;
  int **bufs, *sizes;
  long long* sums;
  CUDA_CHECK(cudaMalloc(&bufs, n * sizeof(int*)));
  CUDA_CHECK(cudaMalloc(&sizes, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&sums, n * sizeof(long long)));
  fill<<<blocks, threads>>>(bufs, sizes);
  CUDA_CHECK_LAST();
  sum_and_free<<<blocks, threads>>>(bufs, sizes, sums);
  CUDA_CHECK_LAST();
  std::vector<long long> got(n);
  std::vector<int> sz(n);
  std::vector<int*> ptrs(n);
  CUDA_CHECK(cudaMemcpy(got.data(), sums, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sz.data(), sizes, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ptrs.data(), bufs, n * sizeof(int*), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n && ok; t++) {
    int m = 1 + t % 37;
    long long want = 1000LL * t * m + m * (m - 1) / 2;
    if (sz[t] != m || got[t] != want || reinterpret_cast<size_t>(ptrs[t]) % 16)
      std::fprintf(stderr, "thread %d: size %d sum %lld at %p, expected %d, %lld\n", t, sz[t], got[t],
                   static_cast<void*>(ptrs[t]), m, want),
          ok = false;
    for (int u = 0; u < t && ok && t < 64; u++)  // distinct blocks
      if (ptrs[u] == ptrs[t]) std::fprintf(stderr, "threads %d and %d got one block\n", u, t), ok = false;
  }

  // device malloc's memory is no runtime call's (CUDA's rule): a copy from it and cudaFree of it fail
  int probe;
  if (cudaMemcpy(&probe, ptrs[0], sizeof probe, cudaMemcpyDeviceToHost) != cudaErrorInvalidValue)
    std::fprintf(stderr, "a copy from the device heap ran\n"), ok = false;
  if (cudaFree(ptrs[0]) != cudaErrorInvalidValue) std::fprintf(stderr, "cudaFree of device heap memory ran\n"), ok = false;
  cudaGetLastError();

  // 6 rounds of 2048 threads x 4 KiB = 48 MiB through a 16 MiB heap: only reuse lets them all succeed
  int* failures;
  CUDA_CHECK(cudaMalloc(&failures, sizeof(int)));
  CUDA_CHECK(cudaMemset(failures, 0, sizeof(int)));
  for (int round = 0; round < 6; round++) churn<<<16, 128>>>(4096, failures);
  CUDA_CHECK_LAST();
  int fails = -1;
  CUDA_CHECK(cudaMemcpy(&fails, failures, sizeof(int), cudaMemcpyDeviceToHost));
  if (fails) std::fprintf(stderr, "%d allocations of the churn failed\n", fails), ok = false;

  unsigned long long* odd;
  CUDA_CHECK(cudaMalloc(&odd, 3 * sizeof(unsigned long long)));
  odd_requests<<<1, 1>>>(odd);
  CUDA_CHECK_LAST();
  unsigned long long o[3];
  CUDA_CHECK(cudaMemcpy(o, odd, sizeof o, cudaMemcpyDeviceToHost));
  if (o[0] != 0) std::fprintf(stderr, "a 1 TiB malloc returned %llx\n", o[0]), ok = false;
  if (!o[1] || o[1] % 4096) std::fprintf(stderr, "aligned malloc returned %llx\n", o[1]), ok = false;
  if (!o[2] || o[2] % 16) std::fprintf(stderr, "malloc(24) returned %llx\n", o[2]), ok = false;

  // the heap's size is fixed once a kernel that uses it has run
  cudaError_t late = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20);
  if (late != cudaErrorInvalidValue)
    std::fprintf(stderr, "setting the heap after its use: %s\n", cudaGetErrorName(late)), ok = false;
  cudaGetLastError();
  CUDA_CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  if (heap != 16u << 20) std::fprintf(stderr, "heap %zu bytes after a refused change\n", heap), ok = false;

  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
