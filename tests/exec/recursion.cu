// recursion.cu -- device functions that call themselves: a sum over an
// implicit binary tree (two calls a level) and a depth-first count of the
// paths through a small grid, each to a depth the data decides. gpusim
// inlines device functions, recursion PTX_RECURSION_MAX (24) levels deep;
// a call deeper than that stops the kernel with a fault the program sees
// as cudaErrorLaunchFailure, which the last launch checks. Checked on the
// host.
#include "common.cuh"

__device__ __noinline__ int tree_sum(const int* v, int node, int n) {
  if (node >= n) return 0;
  return v[node] + tree_sum(v, 2 * node + 1, n) + tree_sum(v, 2 * node + 2, n);
}

__device__ __noinline__ int chain(int depth) {  // one call a level
  if (depth <= 0) return 1;
  return 2 * chain(depth - 1) + depth % 3;
}

__global__ void sums(const int* v, int n, int* out, int depth) {
  int t = threadIdx.x;
  out[t] = tree_sum(v, t % 7, n);
  out[blockDim.x + t] = chain(depth + t % 4);
}

static int host_tree(const std::vector<int>& v, int node) {
  return node >= (int)v.size() ? 0 : v[node] + host_tree(v, 2 * node + 1) + host_tree(v, 2 * node + 2);
}
static int host_chain(int d) { return d <= 0 ? 1 : 2 * host_chain(d - 1) + d % 3; }

int main() {
  const int n = 31, threads = 64;  // a tree of 5 levels
  std::vector<int> v(n);
  for (int i = 0; i < n; i++) v[i] = i * 3 + 1;
  int *dv, *dout;
  CUDA_CHECK(cudaMalloc(&dv, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, 2 * threads * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  sums<<<1, threads>>>(dv, n, dout, 10);
  CUDA_CHECK_LAST();
  std::vector<int> out(2 * threads);
  CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int t = 0; t < threads && ok; t++) {
    int want = host_tree(v, t % 7), want_chain = host_chain(10 + t % 4);
    if (out[t] != want) std::printf("tree_sum from %d: %d, want %d\n", t % 7, out[t], want), ok = false;
    if (out[threads + t] != want_chain)
      std::printf("chain(%d): %d, want %d\n", 10 + t % 4, out[threads + t], want_chain), ok = false;
  }
  // deeper than gpusim inlines: the launch fails as a GPU's would on a blown stack
  sums<<<1, threads>>>(dv, n, dout, 40);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaErrorLaunchFailure) std::printf("a recursion 40 deep: %s, want cudaErrorLaunchFailure\n", cudaGetErrorName(e)), ok = false;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
