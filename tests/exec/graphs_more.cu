// graphs_more.cu -- the rest of the graph calls ordinary programs make: a
// graph cloned (and a node found in the clone), a child graph node, event
// record nodes timing a kernel node, a node's dependencies, dependents and
// the graph's edges, a node destroyed, a kernel node disabled in the
// executable graph, a copy, memset and host node's parameters got and set,
// cudaGraphExecUpdate of a recaptured graph (as a solver that captures each
// iteration does) and its refusal of a graph of another shape, the graph
// printed as DOT; kernel node attributes (a cooperative launch, a window
// read back) and stream attributes (set, read back, copied). Checked on the
// host; prints PASS.
#include <cstring>
#include <fstream>
#include <sstream>
#include "common.cuh"

__global__ void add(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

static int host_calls = 0;
static void CUDART_CB bump(void* by) { host_calls += *static_cast<int*>(by); }

static int failures = 0;
#define EXPECT(cond, ...)                \
  do {                                   \
    if (!(cond)) {                       \
      std::fprintf(stderr, __VA_ARGS__); \
      std::fputc('\n', stderr);          \
      ++failures;                        \
    }                                    \
  } while (0)

static int first(int* d) {
  int h;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, int* p, int count, int v) {
  void* args[] = {&p, &count, &v};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  cudaGraphNode_t node;
  CUDA_CHECK(cudaGraphAddKernelNode(&node, g, deps, n, &kp));
  return node;
}

int main() {
  const int n = 64;
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMemset(d, 0, n * sizeof(int)));

  // a graph: memset -> +1 -> +10, and a host node after +1
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  cudaGraphNode_t set, k1, k2, host;
  CUDA_CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp));
  k1 = kernel_node(g, &set, 1, d, n, 1);
  k2 = kernel_node(g, &k1, 1, d, n, 10);
  int by = 1;
  cudaHostNodeParams hp = {bump, &by};
  CUDA_CHECK(cudaGraphAddHostNode(&host, g, &k1, 1, &hp));

  // queries: dependencies, dependents, edges
  size_t count = 0;
  CUDA_CHECK(cudaGraphNodeGetDependentNodes(k1, nullptr, nullptr, &count));
  EXPECT(count == 2, "k1 has %zu dependents, expected 2", count);
  cudaGraphNode_t deps[4] = {};
  count = 4;
  CUDA_CHECK(cudaGraphNodeGetDependencies(k2, deps, nullptr, &count));
  EXPECT(count == 1 && deps[0] == k1 && deps[1] == nullptr, "k2's dependencies: %zu", count);
  cudaGraphNode_t from[8], to[8];
  count = 8;
  CUDA_CHECK(cudaGraphGetEdges(g, from, to, nullptr, &count));
  EXPECT(count == 3, "%zu edges, expected 3", count);
  bool seen = false;
  for (size_t i = 0; i < count; i++) seen = seen || (from[i] == k1 && to[i] == host);
  EXPECT(seen, "the edge k1 -> host is missing");

  // a clone runs alone; a node is found in it
  cudaGraph_t c;
  CUDA_CHECK(cudaGraphClone(&c, g));
  cudaGraphNode_t k2c;
  CUDA_CHECK(cudaGraphNodeFindInClone(&k2c, k2, c));
  cudaKernelNodeParams back = {};
  CUDA_CHECK(cudaGraphKernelNodeGetParams(k2c, &back));
  EXPECT(back.func == (void*)add && back.blockDim.x == 64, "the clone's kernel node differs");
  cudaGraphExec_t xc;
  CUDA_CHECK(cudaGraphInstantiate(&xc, c, 0));
  CUDA_CHECK(cudaGraphDestroy(g));  // the clone does not need it
  CUDA_CHECK(cudaGraphLaunch(xc, 0));
  CUDA_CHECK(cudaStreamSynchronize(0));
  EXPECT(first(d) == 11 && host_calls == 1, "the clone gave %d (host calls %d), expected 11 (1)", first(d), host_calls);

  // a node disabled in the executable graph does nothing
  CUDA_CHECK(cudaGraphNodeSetEnabled(xc, k2c, 0));
  unsigned enabled = 1;
  CUDA_CHECK(cudaGraphNodeGetEnabled(xc, k2c, &enabled));
  EXPECT(enabled == 0, "k2 still enabled");
  CUDA_CHECK(cudaGraphLaunch(xc, 0));
  EXPECT(first(d) == 1, "with k2 disabled: %d, expected 1", first(d));
  CUDA_CHECK(cudaGraphNodeSetEnabled(xc, k2c, 1));

  // the host node's and the memset node's parameters, in the executable graph
  by = 5;
  int by2 = 100;
  cudaGraphNode_t hostc;
  cudaGraph_t c_again = c;
  size_t nn = 0;
  CUDA_CHECK(cudaGraphGetNodes(c_again, nullptr, &nn));
  std::vector<cudaGraphNode_t> all(nn);
  CUDA_CHECK(cudaGraphGetNodes(c_again, all.data(), &nn));
  hostc = all[3];
  cudaHostNodeParams hp2 = {bump, &by2};
  CUDA_CHECK(cudaGraphExecHostNodeSetParams(xc, hostc, &hp2));
  mp.value = 7;
  CUDA_CHECK(cudaGraphExecMemsetNodeSetParams(xc, all[0], &mp));
  cudaMemsetParams mback = {};
  CUDA_CHECK(cudaGraphMemsetNodeGetParams(all[0], &mback));
  EXPECT(mback.value == 0, "the graph's memset node changed with the executable one's");
  host_calls = 0;
  CUDA_CHECK(cudaGraphLaunch(xc, 0));
  EXPECT(first(d) == 18 && host_calls == 100, "after the updates: %d (host %d), expected 18 (100)", first(d), host_calls);

  // a child graph node, and event record nodes around it
  cudaGraph_t parent;
  CUDA_CHECK(cudaGraphCreate(&parent, 0));
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  cudaGraphNode_t r0, child, r1;
  CUDA_CHECK(cudaGraphAddEventRecordNode(&r0, parent, nullptr, 0, e0));
  CUDA_CHECK(cudaGraphAddChildGraphNode(&child, parent, &r0, 1, c));
  CUDA_CHECK(cudaGraphAddEventRecordNode(&r1, parent, &child, 1, e1));
  cudaGraph_t embedded;
  CUDA_CHECK(cudaGraphChildGraphNodeGetGraph(child, &embedded));
  size_t inner = 0;
  CUDA_CHECK(cudaGraphGetNodes(embedded, nullptr, &inner));
  EXPECT(inner == 4, "the child graph has %zu nodes, expected 4", inner);
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(child, &type));
  EXPECT(type == cudaGraphNodeTypeGraph, "the child node's type is %d", (int)type);
  cudaEvent_t got;
  CUDA_CHECK(cudaGraphEventRecordNodeGetEvent(r1, &got));
  EXPECT(got == e1, "the record node's event differs");
  cudaGraphExec_t xp;
  CUDA_CHECK(cudaGraphInstantiate(&xp, parent, 0));
  host_calls = 0;
  by = 1;
  CUDA_CHECK(cudaGraphLaunch(xp, 0));
  CUDA_CHECK(cudaEventSynchronize(e1));
  float ms = -1;
  CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  EXPECT(first(d) == 11 && host_calls == 1 && ms > 0, "the child graph gave %d (host %d), %g ms", first(d), host_calls, ms);

  // a node destroyed: k2's work goes with it
  cudaGraphNode_t k2e = all[2];
  CUDA_CHECK(cudaGraphDestroyNode(k2e));
  CUDA_CHECK(cudaGraphGetNodes(c, nullptr, &nn));
  EXPECT(nn == 3, "%zu nodes after one was destroyed, expected 3", nn);
  cudaGraphExec_t x3;
  CUDA_CHECK(cudaGraphInstantiate(&x3, c, 0));
  CUDA_CHECK(cudaGraphLaunch(x3, 0));
  EXPECT(first(d) == 1, "without k2: %d, expected 1", first(d));

  // the DOT file names the kernel
  CUDA_CHECK(cudaGraphDebugDotPrint(parent, "graphs_more.dot", 0));
  std::ifstream dot("graphs_more.dot");
  std::stringstream text;
  text << dot.rdbuf();
  EXPECT(text.str().find("digraph") != std::string::npos && text.str().find("add") != std::string::npos &&
             text.str().find("->") != std::string::npos,
         "the DOT file lacks the graph");
  std::remove("graphs_more.dot");

  // update: each iteration recaptures the same work with other values
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  cudaGraphExec_t xs = nullptr;
  for (int it = 1; it <= 3; it++) {
    cudaGraph_t cap;
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CUDA_CHECK(cudaMemsetAsync(d, 0, n * sizeof(int), s));
    add<<<1, 64, 0, s>>>(d, n, it * 1000);
    CUDA_CHECK(cudaStreamEndCapture(s, &cap));
    if (!xs) {
      CUDA_CHECK(cudaGraphInstantiate(&xs, cap, 0));
    } else {
      cudaGraphExecUpdateResultInfo info;
      CUDA_CHECK(cudaGraphExecUpdate(xs, cap, &info));
      EXPECT(info.result == cudaGraphExecUpdateSuccess, "update %d: result %d", it, (int)info.result);
    }
    CUDA_CHECK(cudaGraphLaunch(xs, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    EXPECT(first(d) == it * 1000, "iteration %d gave %d", it, first(d));
    CUDA_CHECK(cudaGraphDestroy(cap));
  }
  // a graph of another shape is refused, and the executable graph stays
  cudaGraph_t other;
  CUDA_CHECK(cudaGraphCreate(&other, 0));
  kernel_node(other, nullptr, 0, d, n, 5);
  cudaGraphExecUpdateResultInfo info;
  EXPECT(cudaGraphExecUpdate(xs, other, &info) == cudaErrorGraphExecUpdateFailure &&
             info.result == cudaGraphExecUpdateErrorTopologyChanged,
         "an update of another shape: result %d", (int)info.result);
  cudaGetLastError();
  CUDA_CHECK(cudaGraphLaunch(xs, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(first(d) == 3000, "after a refused update: %d", first(d));

  // kernel node attributes: cooperative runs the node as a cooperative launch; a window is kept
  cudaGraph_t ga;
  CUDA_CHECK(cudaGraphCreate(&ga, 0));
  cudaGraphNode_t ka = kernel_node(ga, nullptr, 0, d, n, 1);
  cudaKernelNodeAttrValue av = {};
  av.cooperative = 1;
  CUDA_CHECK(cudaGraphKernelNodeSetAttribute(ka, cudaKernelNodeAttributeCooperative, &av));
  av = {};
  av.accessPolicyWindow.base_ptr = d;
  av.accessPolicyWindow.num_bytes = n * sizeof(int);
  av.accessPolicyWindow.hitRatio = 0.5f;
  av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  CUDA_CHECK(cudaGraphKernelNodeSetAttribute(ka, cudaKernelNodeAttributeAccessPolicyWindow, &av));
  cudaKernelNodeAttrValue aback = {};
  CUDA_CHECK(cudaGraphKernelNodeGetAttribute(ka, cudaKernelNodeAttributeCooperative, &aback));
  EXPECT(aback.cooperative == 1, "the cooperative attribute came back %d", aback.cooperative);
  CUDA_CHECK(cudaGraphKernelNodeGetAttribute(ka, cudaKernelNodeAttributeAccessPolicyWindow, &aback));
  EXPECT(aback.accessPolicyWindow.base_ptr == d && aback.accessPolicyWindow.hitRatio == 0.5f, "the window came back changed");
  cudaGraphExec_t xa;
  CUDA_CHECK(cudaGraphInstantiate(&xa, ga, 0));
  CUDA_CHECK(cudaGraphLaunch(xa, 0));
  EXPECT(first(d) == 3001, "the cooperative node gave %d", first(d));
  CUDA_CHECK(cudaGraphExecDestroy(xa));
  CUDA_CHECK(cudaGraphDestroy(ga));

  // stream attributes: set on a stream, read back, copied to the default stream
  cudaStreamAttrValue sv = {};
  sv.accessPolicyWindow.base_ptr = d;
  sv.accessPolicyWindow.num_bytes = 256;
  sv.accessPolicyWindow.hitRatio = 1.0f;
  sv.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  sv.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CUDA_CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &sv));
  sv = {};
  sv.syncPolicy = cudaSyncPolicyYield;
  CUDA_CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &sv));
  CUDA_CHECK(cudaStreamCopyAttributes(0, s));
  cudaStreamAttrValue sb = {};
  CUDA_CHECK(cudaStreamGetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &sb));
  EXPECT(sb.accessPolicyWindow.base_ptr == d && sb.accessPolicyWindow.num_bytes == 256 &&
             sb.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
         "the copied window differs");
  CUDA_CHECK(cudaStreamGetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &sb));
  EXPECT(sb.syncPolicy == cudaSyncPolicyYield, "the copied policy is %d", (int)sb.syncPolicy);
  sv = {};
  sv.accessPolicyWindow.hitRatio = 2.0f;
  EXPECT(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &sv) == cudaErrorInvalidValue,
         "a hit ratio of 2 was taken");
  cudaGetLastError();

  for (cudaGraphExec_t x : {xc, xp, x3, xs}) CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(c));
  CUDA_CHECK(cudaGraphDestroy(parent));
  CUDA_CHECK(cudaGraphDestroy(other));
  if (failures) {
    std::printf("FAIL: %d check(s)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
