// partial.cu -- a program one of whose kernels gpusim cannot run yet (it
// syncs a thread-block cluster, which gpusim does not model): the others run, and the launch of that one fails with
// cudaErrorInvalidPtx and a message naming the kernel and its CUDA line.
#include "common.cuh"
#include <cooperative_groups.h>
__global__ void talk(int* out, int v, unsigned long long t) {
  cooperative_groups::this_cluster().sync();
  if (threadIdx.x == 0) out[0] = v + (int)t;
}

__global__ void twice(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2 * i;
}

int main() {
  const int n = 500;
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  twice<<<(n + 127) / 128, 128>>>(d, n);
  CUDA_CHECK_LAST();
  std::vector<int> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = h[n - 1] == 2 * (n - 1);
  talk<<<1, 32>>>(d, 5, 0);  // never runs: no texture object needed
  cudaError_t e = cudaGetLastError();
  std::printf("talk: %s\n", cudaGetErrorName(e));
  // captured into a graph, its launch fails alike and leaves no node behind
  cudaStream_t s;
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  talk<<<1, 32, 0, s>>>(d, 5, 0);
  e = cudaGetLastError();
  twice<<<(n + 127) / 128, 128, 0, s>>>(d, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  std::printf("captured talk: %s, %zu node\n", cudaGetErrorName(e), nodes);
  ok = ok && nodes == 1;
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
