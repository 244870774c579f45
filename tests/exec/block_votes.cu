// block_votes.cu -- __syncthreads_count, __syncthreads_and and
// __syncthreads_or (PTX bar.red.popc / .and / .or): a barrier that reduces a
// predicate over the whole block, every thread receiving the result. Blocks
// of 200 threads (a partial last warp), three predicates per block, twice in
// a row in one kernel; checked against the host. Launched twice, so that
// `--max-launches 1` runs the second one untimed (the functional path).
#include "common.cuh"

__global__ void votes(const int* v, int* out) {
  int t = threadIdx.x, b = blockIdx.x, x = v[b * blockDim.x + t];
  int count = __syncthreads_count(x % 3 == 0);
  int all = __syncthreads_and(x >= b);
  int any = __syncthreads_or(x == 7 * b + 1);
  int again = __syncthreads_count(t < b);  // a second reduction right after
  out[b * blockDim.x + t] = count * 1000000 + all * 100000 + any * 10000 + again;
}

int main() {
  const int blocks = 9, threads = 200, n = blocks * threads;
  std::vector<int> v(n);
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < threads; t++) v[b * threads + t] = b == 4 && t == 150 ? 3 : b + (t * 37 + b * 11) % (b + 5);  // block 4: not all >= b
  int *dv, *dout;
  CUDA_CHECK(cudaMalloc(&dv, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int launch = 0; launch < 2 && ok; launch++) {
    CUDA_CHECK(cudaMemset(dout, 0, n * sizeof(int)));
    votes<<<blocks, threads>>>(dv, dout);
    CUDA_CHECK_LAST();
    std::vector<int> out(n);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks && ok; b++) {
      int count = 0, all = 1, any = 0, again = 0;
      for (int t = 0; t < threads; t++) {
        int x = v[b * threads + t];
        count += x % 3 == 0, all &= x >= b, any |= x == 7 * b + 1, again += t < b;
      }
      int want = count * 1000000 + all * 100000 + any * 10000 + again;
      for (int t = 0; t < threads; t++)
        if (out[b * threads + t] != want) {
          std::printf("launch %d block %d thread %d: %d, want %d\n", launch, b, t, out[b * threads + t], want);
          ok = false;
          break;
        }
    }
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
