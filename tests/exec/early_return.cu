// early_return.cu -- `if (i >= n) return;` before __syncthreads(), as
// students write it: the threads past the end leave, and the barrier waits
// only for the threads still running (on the GPU, exited threads no longer
// count at a barrier). n ends inside the last block, within a warp and
// after whole warps, so both a partial warp and exited warps meet the
// barrier. Each block sums its elements through shared memory; checked
// against the host, timed and then untimed (`--max-launches 1`).
#include "common.cuh"

__global__ void block_sums(const int* v, int n, int* sums) {
  __shared__ int part[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // the tail block's last threads leave here
  part[threadIdx.x] = v[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0, valid = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    for (int t = 0; t < valid; t++) s += part[t];
    sums[blockIdx.x] = s;
  }
}

int main() {
  const int threads = 256;
  const int sizes[] = { 3 * 256 + 40, 5 * 256 + 1, 4 * 256 };  // a partial warp; one thread; no tail
  bool ok = true;
  for (int n : sizes) {
    int blocks = (n + threads - 1) / threads;
    std::vector<int> v(n);
    for (int i = 0; i < n; i++) v[i] = (i * 7919) % 1000 - 300;
    int *dv, *dsums;
    CUDA_CHECK(cudaMalloc(&dv, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_sums<<<blocks, threads>>>(dv, n, dsums);
    CUDA_CHECK_LAST();
    std::vector<int> sums(blocks);
    CUDA_CHECK(cudaMemcpy(sums.data(), dsums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
      int want = 0;
      for (int i = b * threads; i < n && i < (b + 1) * threads; i++) want += v[i];
      if (sums[b] != want) {
        std::printf("n %d block %d: got %d, want %d\n", n, b, sums[b], want);
        ok = false;
      }
    }
    CUDA_CHECK(cudaFree(dv));
    CUDA_CHECK(cudaFree(dsums));
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
