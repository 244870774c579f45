// graph_api.cu -- the graph calls CUDA 12 code makes beyond the classic
// ones: nodes by generic parameters (cudaGraphAddNode, cudaGraphNodeSetParams,
// cudaGraphExecNodeSetParams), a child graph moved into its parent, copy
// nodes to and from a __device__ variable, an edge removed, instantiation
// with parameters (a cycle's result) and its flags, a child graph node's
// executable copy updated, capture into a graph the program made and a
// capture's dependencies changed, 2D/3D/symbol copies and 2D memsets
// captured, an external event record node, and user objects whose
// references graphs and executable graphs hold. Checked on the host;
// prints PASS.
#include <cstring>
#include "common.cuh"

__device__ int table[16];

__global__ void add(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

__global__ void add_table(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += table[i % 16];
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

static int destroyed = 0;
static void CUDART_CB on_destroy(void* by) { destroyed += *static_cast<int*>(by); }
static int host_runs = 0;
static void CUDART_CB bump(void* by) { host_runs += *static_cast<int*>(by); }

static cudaGraphNodeParams kernel_params(void* func, void** args, int threads) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(threads);
  p.kernel.kernelParams = args;
  return p;
}

static int get(const int* d, int i) {
  int h;
  CUDA_CHECK(cudaMemcpy(&h, d + i, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

static void generic_nodes(int* d, int n) {
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNodeParams set = {};
  set.type = cudaGraphNodeTypeMemset;
  set.memset.dst = d;
  set.memset.value = 0;
  set.memset.elementSize = 4;
  set.memset.width = n;
  set.memset.height = 1;
  cudaGraphNode_t m, k, h, e;
  CUDA_CHECK(cudaGraphAddNode(&m, g, nullptr, nullptr, 0, &set));
  int v = 5;
  void* args[] = {&d, &n, &v};
  cudaGraphNodeParams kp = kernel_params((void*)add, args, 64);
  CUDA_CHECK(cudaGraphAddNode(&k, g, &m, nullptr, 1, &kp));
  int by = 1;
  cudaGraphNodeParams hp = {};
  hp.type = cudaGraphNodeTypeHost;
  hp.host.fn = bump;
  hp.host.userData = &by;
  CUDA_CHECK(cudaGraphAddNode(&h, g, &k, nullptr, 1, &hp));
  cudaGraphNodeParams ep = {};
  ep.type = cudaGraphNodeTypeEmpty;
  CUDA_CHECK(cudaGraphAddNode(&e, g, &h, nullptr, 1, &ep));
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(k, &type));
  EXPECT(type == cudaGraphNodeTypeKernel, "generic kernel node type %d", (int)type);
  cudaGraphEdgeData prog = {};
  prog.type = cudaGraphDependencyTypeProgrammatic;
  cudaGraphNode_t refused;
  EXPECT(cudaGraphAddNode(&refused, g, &k, &prog, 1, &kp) == cudaErrorNotSupported, "a programmatic edge was taken");
  cudaGetLastError();
  cudaGraphNodeParams sem = {};
  sem.type = cudaGraphNodeTypeExtSemaphoreSignal;
  EXPECT(cudaGraphAddNode(&refused, g, nullptr, nullptr, 0, &sem) == cudaErrorNotSupported,
         "an external semaphore node was taken");
  cudaGetLastError();

  // a child graph moved in: the parent owns it
  cudaGraph_t child;
  CUDA_CHECK(cudaGraphCreate(&child, 0));
  int w = 100;
  void* cargs[] = {&d, &n, &w};
  cudaGraphNode_t ck;
  cudaGraphNodeParams ckp = kernel_params((void*)add, cargs, 64);
  CUDA_CHECK(cudaGraphAddNode(&ck, child, nullptr, nullptr, 0, &ckp));
  cudaGraphNodeParams gp = {};
  gp.type = cudaGraphNodeTypeGraph;
  gp.graph.graph = child;
  gp.graph.ownership = cudaGraphChildGraphOwnershipMove;
  cudaGraphNode_t c;
  CUDA_CHECK(cudaGraphAddNode(&c, g, &e, nullptr, 1, &gp));
  EXPECT(cudaGraphDestroy(child) == cudaErrorInvalidValue, "a moved child graph was destroyed by its old handle");
  cudaGetLastError();

  unsigned long long flags = 0;
  cudaGraphInstantiateParams ip = {};
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = 0;
  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiateWithParams(&x, g, &ip));
  EXPECT(ip.result_out == cudaGraphInstantiateSuccess, "instantiate result %d", (int)ip.result_out);
  CUDA_CHECK(cudaGraphExecGetFlags(x, &flags));
  EXPECT(flags == cudaGraphInstantiateFlagUpload, "exec flags %llu", flags);
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(d, 3) == 105 && host_runs == 1, "first launch: %d, host node %d", get(d, 3), host_runs);

  // parameters set generically: in the graph, and in the executable graph
  v = 7;
  kp = kernel_params((void*)add, args, 64);
  CUDA_CHECK(cudaGraphExecNodeSetParams(x, k, &kp));
  by = 10;
  CUDA_CHECK(cudaGraphExecNodeSetParams(x, h, &hp));
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(d, 3) == 107 && host_runs == 11, "after exec set params: %d, host node %d", get(d, 3), host_runs);
  EXPECT(cudaGraphExecNodeSetParams(x, k, &hp) == cudaErrorInvalidValue, "a host node's params went to a kernel node");
  cudaGetLastError();
  v = 1;
  CUDA_CHECK(cudaGraphNodeSetParams(k, &kp));
  cudaKernelNodeParams back = {};
  CUDA_CHECK(cudaGraphKernelNodeGetParams(k, &back));
  EXPECT(back.blockDim.x == 64 && back.func == (void*)add, "kernel node params read back");

  // the child's executable copy updated from a graph of the same shape
  cudaGraph_t child2;
  CUDA_CHECK(cudaGraphCreate(&child2, 0));
  int w2 = 1000;
  void* cargs2[] = {&d, &n, &w2};
  cudaGraphNode_t ck2;
  ckp = kernel_params((void*)add, cargs2, 64);
  CUDA_CHECK(cudaGraphAddNode(&ck2, child2, nullptr, nullptr, 0, &ckp));
  CUDA_CHECK(cudaGraphExecChildGraphNodeSetParams(x, c, child2));
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(d, 3) == 1007, "after the child's update: %d", get(d, 3));
  CUDA_CHECK(cudaGraphExecDestroy(x));

  // an edge removed: e no longer waits for h
  CUDA_CHECK(cudaGraphRemoveDependencies(g, &h, &e, nullptr, 1));
  size_t edges = 0;
  CUDA_CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  EXPECT(edges == 3, "edges after removing one: %zu", edges);
  EXPECT(cudaGraphRemoveDependencies(g, &h, &e, nullptr, 1) == cudaErrorInvalidValue, "a missing edge was removed");
  cudaGetLastError();
  // a cycle: instantiation says so
  cudaGraphNode_t from[] = {c, h}, to[] = {m, e};  // m after c, e after h again: e -> c -> m -> k -> h -> e
  CUDA_CHECK(cudaGraphAddDependencies(g, from, to, nullptr, 2));
  ip = {};
  EXPECT(cudaGraphInstantiateWithParams(&x, g, &ip) == cudaErrorInvalidValue &&
             ip.result_out == cudaGraphInstantiateInvalidStructure,
         "a cycle's instantiation: result %d", (int)ip.result_out);
  cudaGetLastError();
  CUDA_CHECK(cudaGraphDestroy(child2));
  CUDA_CHECK(cudaGraphDestroy(g));
}

static void symbol_nodes(int* d, int n) {
  int host[16], other[16], out[16];
  for (int i = 0; i < 16; i++) host[i] = i, other[i] = 2 * i;
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t to, k, from;
  CUDA_CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, g, nullptr, 0, table, host, sizeof host, 0, cudaMemcpyHostToDevice));
  void* args[] = {&d, &n};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add_table;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  CUDA_CHECK(cudaGraphAddKernelNode(&k, g, &to, 1, &kp));
  CUDA_CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &k, 1, out, table, 8 * sizeof(int), 8 * sizeof(int),
                                              cudaMemcpyDeviceToHost));
  cudaGraphNode_t bad;
  EXPECT(cudaGraphAddMemcpyNodeToSymbol(&bad, g, nullptr, 0, table, host, sizeof host, 4, cudaMemcpyHostToDevice) ==
             cudaErrorInvalidValue,
         "a copy past the variable's end was taken");
  cudaGetLastError();
  CUDA_CHECK(cudaMemset(d, 0, n * sizeof(int)));
  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(d, 17) == 1 && out[0] == 8 && out[7] == 15, "symbol nodes: %d %d %d", get(d, 17), out[0], out[7]);
  CUDA_CHECK(cudaGraphExecMemcpyNodeSetParamsToSymbol(x, to, table, other, sizeof other, 0, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(d, 17) == 3 && out[0] == 16, "after the exec's new source: %d %d", get(d, 17), out[0]);
  CUDA_CHECK(cudaGraphMemcpyNodeSetParamsFromSymbol(from, out, table, 4, 0, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));
}

static void captures(int* d, int n) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  // into a graph of the program's, after its memset node
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t m;
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.elementSize = 1;
  mp.width = n * sizeof(int);
  mp.height = 1;
  CUDA_CHECK(cudaGraphAddMemsetNode(&m, g, nullptr, 0, &mp));
  CUDA_CHECK(cudaStreamBeginCaptureToGraph(s, g, &m, nullptr, 1, cudaStreamCaptureModeGlobal));
  add<<<1, 64, 0, s>>>(d, n, 3);
  CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0, cudaStreamSetCaptureDependencies));
  int host16[16];
  for (int i = 0; i < 16; i++) host16[i] = 40 + i;
  CUDA_CHECK(cudaMemcpyToSymbolAsync(table, host16, sizeof host16, 0, cudaMemcpyHostToDevice, s));
  cudaEvent_t ev;
  CUDA_CHECK(cudaEventCreate(&ev));
  CUDA_CHECK(cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal));
  cudaGraph_t same;
  CUDA_CHECK(cudaStreamEndCapture(s, &same));
  EXPECT(same == g, "capture into a graph gave another graph");
  size_t nodes = 0, roots = 0;
  CUDA_CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  CUDA_CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
  EXPECT(nodes == 4 && roots == 2, "captured into the graph: %zu nodes, %zu roots", nodes, roots);
  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  CUDA_CHECK(cudaGraphLaunch(x, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  int t5;
  CUDA_CHECK(cudaMemcpyFromSymbol(&t5, table, sizeof t5, 5 * sizeof(int)));
  EXPECT(get(d, 9) == 3 && t5 == 45, "capture-to-graph run: %d, table[5] %d", get(d, 9), t5);
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));

  // 2D and 3D copies and a 2D memset, captured
  const int w = 8, rows = 4;
  int* p2;
  size_t pitch;
  CUDA_CHECK(cudaMallocPitch(&p2, &pitch, w * sizeof(int), rows));
  int src[rows][w], back[rows][w];
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < w; c++) src[r][c] = r * 100 + c;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaMemset2DAsync(p2, pitch, 0xff, w * sizeof(int), rows, s));
  CUDA_CHECK(cudaMemcpy2DAsync(p2, pitch, src, w * sizeof(int), (w - 2) * sizeof(int), rows, cudaMemcpyHostToDevice, s));
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(p2, pitch, w, rows);
  p3.dstPtr = make_cudaPitchedPtr(back, w * sizeof(int), w, rows);
  p3.extent = make_cudaExtent(w * sizeof(int), rows, 1);
  p3.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3DAsync(&p3, s));
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  CUDA_CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
  EXPECT(nodes == 3, "2D/3D capture made %zu nodes", nodes);
  std::memset(back, 0, sizeof back);
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  CUDA_CHECK(cudaGraphLaunch(x, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(back[2][3] == 203 && back[3][5] == 305 && back[1][6] == -1 && back[0][7] == -1,
         "2D/3D captured copies: %d %d %d %d", back[2][3], back[3][5], back[1][6], back[0][7]);
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));
  CUDA_CHECK(cudaFree(p2));
  CUDA_CHECK(cudaEventDestroy(ev));
  CUDA_CHECK(cudaStreamDestroy(s));
}

static void user_objects() {
  int one = 1;
  cudaUserObject_t o;
  CUDA_CHECK(cudaUserObjectCreate(&o, &one, on_destroy, 1, cudaUserObjectNoDestructorSync));
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  CUDA_CHECK(cudaGraphRetainUserObject(g, o, 1, cudaGraphUserObjectMove));  // the program's reference moves in
  cudaGraph_t clone;
  CUDA_CHECK(cudaGraphClone(&clone, g));
  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  CUDA_CHECK(cudaGraphDestroy(g));
  CUDA_CHECK(cudaGraphDestroy(clone));
  EXPECT(destroyed == 0, "destroyed while an executable graph holds it");
  CUDA_CHECK(cudaGraphExecDestroy(x));
  EXPECT(destroyed == 1, "not destroyed with its last reference (%d)", destroyed);

  CUDA_CHECK(cudaUserObjectCreate(&o, &one, on_destroy, 2, cudaUserObjectNoDestructorSync));
  CUDA_CHECK(cudaUserObjectRetain(o, 1));
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  CUDA_CHECK(cudaGraphRetainUserObject(g, o, 2, 0));
  CUDA_CHECK(cudaGraphReleaseUserObject(g, o, 1));
  EXPECT(cudaGraphReleaseUserObject(g, o, 5) == cudaErrorInvalidValue, "a graph released references it does not hold");
  cudaGetLastError();
  CUDA_CHECK(cudaUserObjectRelease(o, 3));
  EXPECT(destroyed == 1, "destroyed while a graph holds it");
  CUDA_CHECK(cudaGraphDestroy(g));
  EXPECT(destroyed == 2, "not destroyed with its graph (%d)", destroyed);
  EXPECT(cudaUserObjectCreate(&o, &one, on_destroy, 1, 0) == cudaErrorInvalidValue, "flags 0 were taken");
  cudaGetLastError();
}

int main() {
  const int n = 64;
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  generic_nodes(d, n);
  symbol_nodes(d, n);
  captures(d, n);
  user_objects();
  CUDA_CHECK(cudaFree(d));
  if (failures) {
    std::printf("FAIL (%d)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
