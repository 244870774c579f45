// graph_memory.cu -- graph memory nodes, as programs use them: an
// allocation node, a kernel and a copy using it and a free node, launched
// twice at the same address; an allocation left allocated by the graph,
// used by stream work after it and freed by cudaFree, a relaunch refused
// until it is freed, and cudaGraphInstantiateFlagAutoFreeOnLaunch; an
// allocation freed by another graph's free node; cudaMallocAsync and
// cudaFreeAsync captured as memory nodes; the nodes' parameters, the
// device's graph-memory figures, and CUDA's rules (no clone, no second
// executable graph, no child graph, one free node). Checked on the host;
// prints PASS.
#include "common.cuh"

__global__ void fill(int* p, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

__global__ void add_to(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

static int failures = 0;
#define EXPECT(cond, ...)                \
  do {                                   \
    if (!(cond)) {                       \
      std::fprintf(stderr, __VA_ARGS__); \
      std::fputc('\n', stderr);          \
      ++failures;                        \
    }                                    \
  } while (0)

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t* deps, size_t nd, void* func, void** args) {
  cudaKernelNodeParams kp = {};
  kp.func = func;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, g, deps, nd, &kp));
  return node;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes) {
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

static unsigned long long graph_attr(cudaGraphMemAttributeType a) {
  unsigned long long v = 0;
  CUDA_CHECK(cudaDeviceGetGraphMemAttribute(0, a, &v));
  return v;
}

int main() {
  const int n = 200;
  const size_t bytes = n * sizeof(int);
  std::vector<int> h(n);

  // 1. alloc -> fill -> copy out -> free, launched twice
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params(bytes);
  cudaGraphNode_t a;
  CUDA_CHECK(cudaGraphAddMemAllocNode(&a, g, nullptr, 0, &ap));
  EXPECT(ap.dptr != nullptr, "the allocation node gave no address");
  int* buf = static_cast<int*>(ap.dptr);
  int count = n, base = 1000;
  void* fill_args[] = {&buf, &count, &base};
  cudaGraphNode_t k = kernel_node(g, &a, 1, (void*)fill, fill_args);
  cudaGraphNode_t c;
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&c, g, &k, 1, h.data(), buf, bytes, cudaMemcpyDeviceToHost));
  cudaGraphNode_t f;
  CUDA_CHECK(cudaGraphAddMemFreeNode(&f, g, &c, 1, buf));
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(a, &type));
  EXPECT(type == cudaGraphNodeTypeMemAlloc, "allocation node type %d", (int)type);
  CUDA_CHECK(cudaGraphNodeGetType(f, &type));
  EXPECT(type == cudaGraphNodeTypeMemFree, "free node type %d", (int)type);
  cudaMemAllocNodeParams back = {};
  CUDA_CHECK(cudaGraphMemAllocNodeGetParams(a, &back));
  EXPECT(back.dptr == buf && back.bytesize == bytes, "allocation node params %p %zu", back.dptr, back.bytesize);
  void* freed = nullptr;
  CUDA_CHECK(cudaGraphMemFreeNodeGetParams(f, &freed));
  EXPECT(freed == buf, "free node params %p", freed);
  EXPECT(graph_attr(cudaGraphMemAttrReservedMemCurrent) >= bytes, "reserved %llu",
         graph_attr(cudaGraphMemAttrReservedMemCurrent));

  // CUDA's rules for a graph with memory nodes
  cudaGraph_t clone;
  EXPECT(cudaGraphClone(&clone, g) == cudaErrorNotSupported, "a graph with memory nodes was cloned");
  cudaGraph_t parent;
  CUDA_CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child;
  EXPECT(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g) == cudaErrorNotSupported,
         "a graph with memory nodes became a child graph");
  cudaGraphNode_t twice;
  EXPECT(cudaGraphAddMemFreeNode(&twice, g, &f, 1, buf) == cudaErrorInvalidValue, "a second free node was added");
  int* plain;
  CUDA_CHECK(cudaMalloc(&plain, bytes));
  EXPECT(cudaGraphAddMemFreeNode(&twice, g, &f, 1, plain) == cudaErrorInvalidValue,
         "a free node for cudaMalloc's memory was added");
  EXPECT(cudaGraphDestroyNode(k) == cudaErrorNotSupported, "a node of a graph with memory nodes was destroyed");
  cudaGetLastError();

  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  cudaGraphExec_t x2;
  EXPECT(cudaGraphInstantiate(&x2, g, 0) == cudaErrorNotSupported, "a second executable graph was made");
  cudaGetLastError();
  for (int launch = 0; launch < 2; launch++) {
    std::fill(h.begin(), h.end(), 0);
    CUDA_CHECK(cudaGraphLaunch(x, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && h[i] == 1000 + i;
    EXPECT(ok, "launch %d: the copy out of the graph's allocation is wrong", launch);
  }
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemCurrent) == 0, "in use after the free node: %llu",
         graph_attr(cudaGraphMemAttrUsedMemCurrent));
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemHigh) >= bytes, "high watermark %llu", graph_attr(cudaGraphMemAttrUsedMemHigh));
  unsigned long long zero = 0, one = 1;
  CUDA_CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemHigh) == 0, "high watermark not reset");
  EXPECT(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one) == cudaErrorInvalidValue,
         "a high watermark was set to 1");
  cudaGetLastError();
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));
  CUDA_CHECK(cudaDeviceGraphMemTrim(0));

  // 2. an allocation the graph leaves allocated
  cudaGraph_t g2;
  CUDA_CHECK(cudaGraphCreate(&g2, 0));
  ap = alloc_params(bytes);
  CUDA_CHECK(cudaGraphAddMemAllocNode(&a, g2, nullptr, 0, &ap));
  int* kept = static_cast<int*>(ap.dptr);
  base = 7;
  void* fill_kept[] = {&kept, &count, &base};
  kernel_node(g2, &a, 1, (void*)fill, fill_kept);
  CUDA_CHECK(cudaGraphInstantiate(&x, g2, 0));
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemCurrent) == bytes, "in use after the launch: %llu",
         graph_attr(cudaGraphMemAttrUsedMemCurrent));
  CUDA_CHECK(cudaMemset(plain, 0, bytes));
  add_to<<<2, 128>>>(plain, kept, n);  // stream work after the graph reads it
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(h.data(), plain, bytes, cudaMemcpyDeviceToHost));
  EXPECT(h[0] == 7 && h[n - 1] == 7 + n - 1, "stream work read %d %d from the graph's allocation", h[0], h[n - 1]);
  EXPECT(cudaGraphLaunch(x, 0) == cudaErrorInvalidValue, "a relaunch with the allocation still allocated ran");
  cudaGetLastError();
  CUDA_CHECK(cudaFree(kept));
  EXPECT(cudaMemcpy(h.data(), kept, bytes, cudaMemcpyDeviceToHost) != cudaSuccess, "a copy from freed graph memory ran");
  cudaGetLastError();
  CUDA_CHECK(cudaGraphLaunch(x, 0));  // freed: it runs again, at the same address
  CUDA_CHECK(cudaMemcpy(h.data(), kept, bytes, cudaMemcpyDeviceToHost));
  EXPECT(h[5] == 12, "second launch wrote %d", h[5]);

  // freed by another graph's free node
  cudaGraph_t g3;
  CUDA_CHECK(cudaGraphCreate(&g3, 0));
  CUDA_CHECK(cudaGraphAddMemFreeNode(&f, g3, nullptr, 0, kept));
  cudaGraphExec_t x3;
  CUDA_CHECK(cudaGraphInstantiate(&x3, g3, 0));
  CUDA_CHECK(cudaGraphLaunch(x3, 0));
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemCurrent) == 0, "in use after another graph's free node: %llu",
         graph_attr(cudaGraphMemAttrUsedMemCurrent));
  EXPECT(cudaGraphLaunch(x3, 0) == cudaErrorInvalidValue, "a free node freed memory twice");
  cudaGetLastError();
  CUDA_CHECK(cudaGraphExecDestroy(x3));
  CUDA_CHECK(cudaGraphDestroy(g3));
  CUDA_CHECK(cudaGraphExecDestroy(x));

  // auto-free on launch
  CUDA_CHECK(cudaGraphInstantiate(&x, g2, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int launch = 0; launch < 3; launch++) CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(graph_attr(cudaGraphMemAttrUsedMemCurrent) == bytes, "auto-free: in use %llu",
         graph_attr(cudaGraphMemAttrUsedMemCurrent));
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g2));
  CUDA_CHECK(cudaMemcpy(h.data(), kept, bytes, cudaMemcpyDeviceToHost));  // allocated still, though no graph names it
  EXPECT(h[1] == 8, "after its graph went, the allocation reads %d", h[1]);
  CUDA_CHECK(cudaFree(kept));
  EXPECT(graph_attr(cudaGraphMemAttrReservedMemCurrent) == 0, "reserved after everything is gone: %llu",
         graph_attr(cudaGraphMemAttrReservedMemCurrent));

  // 3. cudaMallocAsync and cudaFreeAsync captured
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  cudaGraph_t cap;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int* tmp = nullptr;
  CUDA_CHECK(cudaMallocAsync(&tmp, bytes, s));
  fill<<<2, 128, 0, s>>>(tmp, n, 50);
  add_to<<<2, 128, 0, s>>>(plain, tmp, n);
  CUDA_CHECK(cudaFreeAsync(tmp, s));
  EXPECT(cudaFreeAsync(plain, s) == cudaErrorInvalidValue, "cudaFreeAsync of cudaMalloc's memory was captured");
  cudaGetLastError();
  CUDA_CHECK(cudaStreamEndCapture(s, &cap));
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(cap, nullptr, &nodes));
  EXPECT(nodes == 4, "the capture made %zu nodes", nodes);
  std::vector<cudaGraphNode_t> list(nodes);
  CUDA_CHECK(cudaGraphGetNodes(cap, list.data(), &nodes));
  CUDA_CHECK(cudaGraphNodeGetType(list[0], &type));
  EXPECT(type == cudaGraphNodeTypeMemAlloc, "first captured node type %d", (int)type);
  CUDA_CHECK(cudaGraphNodeGetType(list[3], &type));
  EXPECT(type == cudaGraphNodeTypeMemFree, "last captured node type %d", (int)type);
  CUDA_CHECK(cudaMemset(plain, 0, bytes));
  CUDA_CHECK(cudaGraphInstantiate(&x, cap, 0));
  CUDA_CHECK(cudaGraphLaunch(x, s));
  CUDA_CHECK(cudaGraphLaunch(x, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaMemcpy(h.data(), plain, bytes, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && h[i] == 2 * (50 + i);
  EXPECT(ok, "the captured graph's two launches gave %d %d", h[0], h[n - 1]);
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(cap));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(plain));
  CUDA_CHECK(cudaGraphDestroy(parent));

  if (failures) {
    std::printf("FAIL (%d)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
