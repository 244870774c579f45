// graph_conditional.cu -- CUDA 12.4's conditional graph nodes as programs
// write them: a while loop whose body kernel decides, through
// cudaGraphSetConditional, whether to run again (its handle reset at each
// launch by cudaGraphCondAssignDefault); an if/else decided by a kernel
// upstream; a switch; a body filled by cudaStreamBeginCaptureToGraph; and
// CUDA's rules (no clone, no child graph). Checked on the host; prints PASS.
#include <cstring>
#include <fstream>
#include <sstream>
#include "common.cuh"

__global__ void loop_body(cudaGraphConditionalHandle h, int* counter, int* sum) {
  if (threadIdx.x == 0) {
    *sum += *counter;
    int left = --*counter;
    cudaGraphSetConditional(h, left > 0 ? 1 : 0);
  }
}

__global__ void start(int* counter, int n) { *counter = n; }

__global__ void decide(cudaGraphConditionalHandle h, const int* value) { cudaGraphSetConditional(h, (unsigned)*value); }

__global__ void write(int* out, int v) { *out = v; }

static int failures = 0;
#define EXPECT(cond, ...)                \
  do {                                   \
    if (!(cond)) {                       \
      std::fprintf(stderr, __VA_ARGS__); \
      std::fputc('\n', stderr);          \
      ++failures;                        \
    }                                    \
  } while (0)

static int get(const int* d) {
  int h;
  CUDA_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

static void set(int* d, int v) { CUDA_CHECK(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice)); }

static cudaGraphNode_t kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, void* func, void** args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(32);
  p.kernel.kernelParams = args;
  cudaGraphNode_t node;
  CUDA_CHECK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  return node;
}

static cudaGraphNode_t conditional(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, cudaGraphConditionalHandle h,
                                   cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t** bodies) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node;
  CUDA_CHECK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  *bodies = p.conditional.phGraph_out;
  return node;
}

int main() {
  int *counter, *sum, *value, *out;
  CUDA_CHECK(cudaMalloc(&counter, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&sum, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&value, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, sizeof(int)));

  // while: sum += 5 + 4 + 3 + 2 + 1
  cudaGraph_t g;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  int n = 5;
  void* start_args[] = {&counter, &n};
  cudaGraphNode_t s = kernel(g, nullptr, 0, (void*)start, start_args);
  cudaGraph_t* body;
  cudaGraphNode_t w = conditional(g, &s, 1, h, cudaGraphCondTypeWhile, 1, &body);
  void* loop_args[] = {&h, &counter, &sum};
  kernel(body[0], nullptr, 0, (void*)loop_body, loop_args);
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(w, &type));
  EXPECT(type == cudaGraphNodeTypeConditional, "conditional node type %d", (int)type);
  cudaGraph_t clone;
  EXPECT(cudaGraphClone(&clone, g) == cudaErrorNotSupported, "a graph with a conditional node was cloned");
  cudaGraph_t parent;
  CUDA_CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child;
  EXPECT(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, g) == cudaErrorNotSupported,
         "a graph with a conditional node became a child graph");
  cudaGetLastError();
  cudaGraphExec_t x;
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  set(sum, 0);
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(sum) == 15 && get(counter) == 0, "while loop: sum %d, counter %d", get(sum), get(counter));
  n = 3;  // the node's argument is copied: the same 5 again, the handle reset to 1
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(sum) == 30, "second launch of the while loop: sum %d", get(sum));
  CUDA_CHECK(cudaGraphDebugDotPrint(g, "graph_conditional.dot", 0));
  std::ifstream dot("graph_conditional.dot");
  std::stringstream text;
  text << dot.rdbuf();
  EXPECT(text.str().find("conditional") != std::string::npos && text.str().find("loop_body") != std::string::npos,
         "the DOT file lacks the conditional node and its body");
  std::remove("graph_conditional.dot");
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));

  // if/else, decided upstream; its handle keeps the value the kernel set
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  void* decide_args[] = {&h, &value};
  cudaGraphNode_t d = kernel(g, nullptr, 0, (void*)decide, decide_args);
  conditional(g, &d, 1, h, cudaGraphCondTypeIf, 2, &body);
  int yes = 1, no = 2;
  void* yes_args[] = {&out, &yes};
  void* no_args[] = {&out, &no};
  kernel(body[0], nullptr, 0, (void*)write, yes_args);
  kernel(body[1], nullptr, 0, (void*)write, no_args);
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  set(value, 7);
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(out) == 1, "if with a non-zero condition ran body %d", get(out));
  set(value, 0);
  CUDA_CHECK(cudaGraphLaunch(x, 0));
  EXPECT(get(out) == 2, "if with a zero condition ran body %d", get(out));
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));

  // switch of three, body 1 filled by a capture
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  d = kernel(g, nullptr, 0, (void*)decide, decide_args);
  conditional(g, &d, 1, h, cudaGraphCondTypeSwitch, 3, &body);
  int ten = 10, thirty = 30;
  void* ten_args[] = {&out, &ten};
  void* thirty_args[] = {&out, &thirty};
  kernel(body[0], nullptr, 0, (void*)write, ten_args);
  cudaStream_t st;
  CUDA_CHECK(cudaStreamCreate(&st));
  CUDA_CHECK(cudaStreamBeginCaptureToGraph(st, body[1], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  write<<<1, 1, 0, st>>>(out, 20);
  cudaGraph_t captured;
  CUDA_CHECK(cudaStreamEndCapture(st, &captured));
  EXPECT(captured == body[1], "the capture into a body gave another graph");
  kernel(body[2], nullptr, 0, (void*)write, thirty_args);
  CUDA_CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int v = 0; v < 4; v++) {
    set(out, -1);
    set(value, v);
    CUDA_CHECK(cudaGraphLaunch(x, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    int want = v < 3 ? 10 * (v + 1) : -1;
    EXPECT(get(out) == want, "switch on %d wrote %d, expected %d", v, get(out), want);
  }
  CUDA_CHECK(cudaGraphExecDestroy(x));
  CUDA_CHECK(cudaGraphDestroy(g));
  CUDA_CHECK(cudaGraphDestroy(parent));
  CUDA_CHECK(cudaStreamDestroy(st));

  cudaGraphNodeParams bad = {};
  bad.type = cudaGraphNodeTypeConditional;
  bad.conditional.handle = h;  // another (destroyed) graph's handle
  bad.conditional.type = cudaGraphCondTypeWhile;
  bad.conditional.size = 1;
  CUDA_CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t refused;
  EXPECT(cudaGraphAddNode(&refused, g, nullptr, nullptr, 0, &bad) == cudaErrorInvalidValue,
         "a conditional node took another graph's handle");
  cudaGetLastError();
  CUDA_CHECK(cudaGraphDestroy(g));

  if (failures) {
    std::printf("FAIL (%d)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
