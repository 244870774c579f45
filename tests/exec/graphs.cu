// graphs.cu -- CUDA graphs: a stream capture that forks to a second stream
// and joins back (events), with copies, kernels and a host function; the
// graph launched three times, each replay reading the host buffer as it is
// then; a graph built by hand (memset, kernel and copy nodes, a dependency
// added after the nodes, so that the order to run them is not the order
// they were added), its roots, and a kernel node's parameters changed in
// the instantiated graph; a pitched copy node of a sub-rectangle. Checked
// on the host; prints PASS.
#include <cstring>
#include "common.cuh"

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

__global__ void scale(int* p, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= by;
}

static int host_calls = 0;
static void CUDART_CB count_call(void*) { host_calls++; }

static int failures = 0;
#define EXPECT(cond, ...)                \
  do {                                   \
    if (!(cond)) {                       \
      std::fprintf(stderr, __VA_ARGS__); \
      std::fputc('\n', stderr);          \
      ++failures;                        \
    }                                    \
  } while (0)

int main() {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const bool on_gpusim = std::strstr(prop.name, "gpusim") != nullptr;
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  int *a, *b, *h_in, *h_a, *h_b;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&h_in, n * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&h_a, n * sizeof(int)));
  CUDA_CHECK(cudaMallocHost(&h_b, n * sizeof(int)));
  for (int i = 0; i < n; i++) h_in[i] = i, h_a[i] = -1, h_b[i] = -1;
  CUDA_CHECK(cudaMemset(b, 0, n * sizeof(int)));

  // ---- capture: s1 copies in and adds one; s2 (forked by an event) scales b;
  // s1 runs a host function, joins s2, copies both out
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  cudaEvent_t fork, join;
  CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  cudaStreamCaptureStatus status;
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusActive, "s1 is not capturing after cudaStreamBeginCapture");
  CUDA_CHECK(cudaMemcpyAsync(a, h_in, n * sizeof(int), cudaMemcpyHostToDevice, s1));
  add_one<<<blocks, threads, 0, s1>>>(a, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaEventRecord(fork, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CUDA_CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT(status == cudaStreamCaptureStatusActive, "s2 did not join the capture by waiting on its event");
  CUDA_CHECK(cudaMemcpyAsync(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice, s2));
  scale<<<blocks, threads, 0, s2>>>(b, n, 3);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaLaunchHostFunc(s1, count_call, nullptr));
  CUDA_CHECK(cudaEventRecord(join, s2));
  CUDA_CHECK(cudaStreamWaitEvent(s1, join, 0));
  CUDA_CHECK(cudaMemcpyAsync(h_a, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CUDA_CHECK(cudaMemcpyAsync(h_b, b, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  unsigned long long capture_id = 0;
  cudaGraph_t in_capture = nullptr;
  size_t ndeps = 0;
  CUDA_CHECK(cudaStreamGetCaptureInfo(s1, &status, &capture_id, &in_capture, nullptr, nullptr, &ndeps));
  EXPECT(status == cudaStreamCaptureStatusActive && in_capture != nullptr && ndeps == 1,
         "capture info: status %d, graph %p, %zu dependencies", (int)status, (void*)in_capture, ndeps);
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamEndCapture(s1, &graph));
  EXPECT(graph == in_capture, "cudaStreamEndCapture gave another graph than the capture's");
  CUDA_CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT(status == cudaStreamCaptureStatusNone, "s2 still capturing after the capture ended");
  EXPECT(h_a[0] == -1 && host_calls == 0, "captured work ran during the capture");
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 7, "the capture made %zu nodes (want 7: 2 kernels, 4 copies, a host function)", nodes);

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 1; launch <= 3; launch++) {
    for (int i = 0; i < n; i++) h_in[i] = i * launch;  // each replay copies the buffer as it is now
    CUDA_CHECK(cudaGraphLaunch(exec, s1));
    CUDA_CHECK(cudaStreamSynchronize(s1));
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && h_a[i] == i * launch + 1 && h_b[i] == 3 * (i * launch + 1);
    EXPECT(ok, "replay %d: a[1] = %d (want %d), b[1] = %d (want %d)", launch, h_a[1], launch + 1, h_b[1],
           3 * (launch + 1));
  }
  EXPECT(host_calls == 3, "the host function ran %d times in 3 replays", host_calls);
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));

  // ---- a capture broken by a synchronization: its work refused, no graph at its end
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  add_one<<<blocks, threads, 0, s1>>>(a, n);
  EXPECT(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported, "a capturing stream was synchronized");
  CUDA_CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusInvalidated, "a broken capture's status is %d", (int)status);
  cudaGraph_t broken = graph;
  EXPECT(cudaStreamEndCapture(s1, &broken) == cudaErrorStreamCaptureInvalidated && broken == nullptr,
         "a broken capture ended with a graph");
  cudaGetLastError();

  // ---- by hand: a kernel node added first, then the memset it must follow
  cudaGraph_t g2;
  CUDA_CHECK(cudaGraphCreate(&g2, 0));
  int by = 5, count = n;
  void* scale_args[] = { &a, &count, &by };
  cudaKernelNodeParams kp = {};
  kp.func = (void*)scale;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(threads);
  kp.kernelParams = scale_args;
  cudaGraphNode_t k_node, set_node, copy_node, empty_node;
  CUDA_CHECK(cudaGraphAddKernelNode(&k_node, g2, nullptr, 0, &kp));
  by = 1000;  // the node keeps the value the argument had when it was added
  cudaMemsetParams mp = {};
  mp.dst = a;
  mp.value = 7;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CUDA_CHECK(cudaGraphAddMemsetNode(&set_node, g2, nullptr, 0, &mp));
  size_t roots = 0;
  CUDA_CHECK(cudaGraphGetRootNodes(g2, nullptr, &roots));
  EXPECT(roots == 2, "%zu roots before the dependency (want 2)", roots);
  CUDA_CHECK(cudaGraphAddDependencies(g2, &set_node, &k_node, nullptr, 1));
  CUDA_CHECK(cudaGraphGetRootNodes(g2, nullptr, &roots));
  EXPECT(roots == 1, "%zu roots after the dependency (want 1)", roots);
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_node, g2, &k_node, 1, h_a, a, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaGraphAddEmptyNode(&empty_node, g2, &copy_node, 1));
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(set_node, &type));
  EXPECT(type == cudaGraphNodeTypeMemset, "a memset node's type is %d", (int)type);
  CUDA_CHECK(cudaGraphInstantiate(&exec, g2, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && h_a[i] == 35;
  EXPECT(ok, "by hand: a[0] = %d (want 7 * 5 = 35: the memset first)", h_a[0]);
  by = 2;
  CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, k_node, &kp));
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  ok = true;
  for (int i = 0; i < n; i++) ok = ok && h_a[i] == 14;
  EXPECT(ok, "new kernel parameters: a[0] = %d (want 7 * 2 = 14)", h_a[0]);

  // a pitched copy node: rows 5-6, ints 2-4 of b seen as rows of 10 ints, to the host
  cudaGraph_t g3;
  cudaGraphExec_t exec3;
  CUDA_CHECK(cudaGraphCreate(&g3, 0));
  int box[6] = { -1, -1, -1, -1, -1, -1 };
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(b, 10 * sizeof(int), 10, n / 10);
  cp.srcPos = make_cudaPos(2 * sizeof(int), 5, 0);
  cp.dstPtr = make_cudaPitchedPtr(box, 3 * sizeof(int), 3, 2);
  cp.extent = make_cudaExtent(3 * sizeof(int), 2, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  cudaGraphNode_t box_node;
  CUDA_CHECK(cudaGraphAddMemcpyNode(&box_node, g3, nullptr, 0, &cp));
  CUDA_CHECK(cudaGraphInstantiate(&exec3, g3, 0));
  CUDA_CHECK(cudaGraphLaunch(exec3, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  ok = true;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) ok = ok && box[r * 3 + c] == 3 * (3 * ((5 + r) * 10 + 2 + c) + 1);
  EXPECT(ok, "a pitched copy node: box[0] = %d (want %d)", box[0], 3 * (3 * 52 + 1));
  CUDA_CHECK(cudaGraphExecDestroy(exec3));
  CUDA_CHECK(cudaGraphDestroy(g3));

  if (on_gpusim) {  // a dependency cycle: refused when the graph is instantiated
    cudaGraphExec_t bad;
    CUDA_CHECK(cudaGraphAddDependencies(g2, &copy_node, &set_node, nullptr, 1));
    EXPECT(cudaGraphInstantiate(&bad, g2, 0) == cudaErrorInvalidValue, "a cycle was instantiated");
    cudaGetLastError();
  }
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(g2));
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(join));
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
  CUDA_CHECK(cudaFreeHost(h_in));
  CUDA_CHECK(cudaFreeHost(h_a));
  CUDA_CHECK(cudaFreeHost(h_b));
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
