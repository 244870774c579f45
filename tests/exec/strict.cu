// strict.cu -- the runtime's error table (docs/CUDA.md, "What a bad call
// returns"), one row per line: a call given bad arguments, or made in a bad
// state, and the error it must return. It prints, per row,
//   row ID: ok ERROR                 (the call returned what the table says)
//   row ID: WRONG got ERROR, want ERROR
// and PASS or FAIL at the end. tests/e2e_exec.sh holds every row of the docs'
// table to this output. The program also builds with nvcc against NVIDIA's
// runtime: on a GPU it says what CUDA itself returns (validate/runtime.sh).
// Rows marked gpusim_only are undefined behaviour in CUDA (a handle used
// after it was destroyed); they run only on the simulated device.
#include <cstdlib>
#include <cstring>
#include "common.cuh"

__global__ void store(int* p, int i, int v) { p[i] = v; }
__global__ void load(const int* p, int* out) { *out = *p; }
__global__ void uses_shared(int* out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
__device__ int table[16];
static void host_function() {}
static void CUDART_CB no_callback(cudaStream_t, cudaError_t, void*) {}

static int failures = 0;
static bool on_gpusim = false;

static void row(const char* id, cudaError_t got, cudaError_t want) {
  if (got == want) {
    std::printf("row %s: ok %s\n", id, cudaGetErrorName(got));
  } else {
    std::printf("row %s: WRONG got %s, want %s\n", id, cudaGetErrorName(got), cudaGetErrorName(want));
    ++failures;
  }
  if (want != cudaErrorIllegalAddress) cudaGetLastError();  // each row starts clean
}
#define ROW(id, call, want) row(id, (call), (want))
#define LAUNCH_ROW(id, launch, want) \
  do {                               \
    launch;                          \
    row(id, cudaGetLastError(), (want)); \
  } while (0)

int main() {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  on_gpusim = std::strstr(prop.name, "gpusim") != nullptr;
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));

  // ---- the device
  ROW("device-ordinal", cudaSetDevice(count), cudaErrorInvalidDevice);
  ROW("properties-ordinal", cudaGetDeviceProperties(&prop, -1), cudaErrorInvalidDevice);
  int value;
  ROW("attribute-unknown", cudaDeviceGetAttribute(&value, (cudaDeviceAttr)100000, 0), cudaErrorInvalidValue);
  ROW("count-null", cudaGetDeviceCount(nullptr), cudaErrorInvalidValue);

  // ---- allocations
  int* d = nullptr;
  int* spare = nullptr;
  CUDA_CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&spare, 64 * sizeof(int)));
  int h[64] = {0};
  ROW("malloc-null", cudaMalloc(nullptr, 4), cudaErrorInvalidValue);
  void* huge = nullptr;
  ROW("malloc-too-much", cudaMalloc(&huge, (size_t)1 << 50), cudaErrorMemoryAllocation);
  void* empty = &value;
  ROW("malloc-zero", cudaMalloc(&empty, 0), cudaSuccess);
  if (empty != nullptr) std::printf("row malloc-zero: WRONG pointer not null\n"), ++failures;
  ROW("free-null", cudaFree(nullptr), cudaSuccess);
  ROW("free-host", cudaFree(h), cudaErrorInvalidValue);
  ROW("free-inside", cudaFree(d + 1), cudaErrorInvalidValue);
  int* gone = nullptr;
  CUDA_CHECK(cudaMalloc(&gone, 64 * sizeof(int)));
  CUDA_CHECK(cudaFree(gone));
  ROW("free-twice", cudaFree(gone), cudaErrorInvalidValue);
  int* pinned = nullptr;
  CUDA_CHECK(cudaMallocHost(&pinned, 256));
  CUDA_CHECK(cudaFreeHost(pinned));
  int* pageable = (int*)std::malloc(256);
  ROW("freehost-pageable", cudaFreeHost(pageable), cudaErrorInvalidValue);
  std::free(pageable);

  // ---- copies and sets
  ROW("copy-past-end", cudaMemcpy(h, d, 65 * sizeof(int), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  ROW("copy-freed", cudaMemcpy(gone, h, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  ROW("copy-kind", cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
  ROW("copy-null-source", cudaMemcpy(d, nullptr, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  ROW("copy-host-as-device", cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  ROW("copy-zero-bytes", cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDeviceToHost), cudaSuccess);
  ROW("copy-default", cudaMemcpy(spare, d, sizeof h, cudaMemcpyDefault), cudaSuccess);
  ROW("memset-host", cudaMemset(h, 0, sizeof h), cudaErrorInvalidValue);
  ROW("memset-past-end", cudaMemset(d, 0, 65 * sizeof(int)), cudaErrorInvalidValue);
  ROW("symbol-unknown", cudaMemcpyToSymbol(h, h, 4), cudaErrorInvalidSymbol);
  ROW("symbol-overrun", cudaMemcpyToSymbol(table, h, 17 * sizeof(int)), cudaErrorInvalidValue);
  ROW("symbol-kind", cudaMemcpyToSymbol(table, h, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);

  // ---- launches
  LAUNCH_ROW("launch-no-threads", (store<<<1, dim3(0, 1, 1)>>>(d, 0, 1)), cudaErrorInvalidConfiguration);
  LAUNCH_ROW("launch-no-blocks", (store<<<dim3(0, 1, 1), 32>>>(d, 0, 1)), cudaErrorInvalidConfiguration);
  LAUNCH_ROW("launch-1025-threads", (store<<<1, 1025>>>(d, 0, 1)), cudaErrorInvalidConfiguration);
  LAUNCH_ROW("launch-block-z", (store<<<1, dim3(1, 1, 65)>>>(d, 0, 1)), cudaErrorInvalidConfiguration);
  LAUNCH_ROW("launch-grid-y", (store<<<dim3(1, 65536, 1), 1>>>(d, 0, 1)), cudaErrorInvalidConfiguration);
  LAUNCH_ROW("launch-shared-unasked", (uses_shared<<<1, 32, 64 * 1024>>>(d)), cudaErrorInvalidValue);
  ROW("attribute-shared-above-optin",
      cudaFuncSetAttribute(uses_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           (int)prop.sharedMemPerBlockOptin + 1),
      cudaErrorInvalidValue);
  ROW("attribute-shared-asked",
      cudaFuncSetAttribute(uses_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024), cudaSuccess);
  LAUNCH_ROW("launch-shared-asked", (uses_shared<<<1, 32, 64 * 1024>>>(d)), cudaSuccess);
  LAUNCH_ROW("launch-shared-above-asked", (uses_shared<<<1, 32, 64 * 1024 + 4>>>(d)), cudaErrorInvalidValue);
  void* args[] = {&d, &value, &value};
  ROW("launch-host-function", cudaLaunchKernel((const void*)host_function, 1, 1, args, 0, 0),
      cudaErrorInvalidDeviceFunction);
  void* coop_args[] = {&d, &value, &value};
  ROW("cooperative-too-large",
      cudaLaunchCooperativeKernel((const void*)store, dim3(prop.multiProcessorCount * 64 + 1), 1024, coop_args, 0, 0),
      cudaErrorCooperativeLaunchTooLarge);
  CUDA_CHECK(cudaDeviceSynchronize());

  // ---- streams and events
  ROW("stream-create-null", cudaStreamCreate(nullptr), cudaErrorInvalidValue);
  ROW("event-create-null", cudaEventCreate(nullptr), cudaErrorInvalidValue);
  cudaStream_t s1, s2;
  cudaEvent_t a, b, never, untimed;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  CUDA_CHECK(cudaEventCreate(&never));
  CUDA_CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(a, s1));
  store<<<1, 1, 0, s1>>>(d, 0, 1);
  CUDA_CHECK(cudaEventRecord(b, s2));
  CUDA_CHECK(cudaEventRecord(untimed, s2));
  CUDA_CHECK(cudaDeviceSynchronize());
  float ms;
  ROW("elapsed-two-streams", cudaEventElapsedTime(&ms, a, b), cudaSuccess);
  ROW("elapsed-not-recorded", cudaEventElapsedTime(&ms, a, never), cudaErrorInvalidResourceHandle);
  ROW("elapsed-untimed", cudaEventElapsedTime(&ms, a, untimed), cudaErrorInvalidResourceHandle);
  ROW("elapsed-null", cudaEventElapsedTime(nullptr, a, b), cudaErrorInvalidValue);
  ROW("query-not-recorded", cudaEventQuery(never), cudaSuccess);
  ROW("synchronize-not-recorded", cudaEventSynchronize(never), cudaSuccess);
  ROW("wait-not-recorded", cudaStreamWaitEvent(s2, never, 0), cudaSuccess);
  ROW("host-function-null", cudaLaunchHostFunc(s1, nullptr, nullptr), cudaErrorInvalidValue);
  ROW("callback-flags", cudaStreamAddCallback(s1, no_callback, nullptr, 1), cudaErrorInvalidValue);

  // ---- graphs and capture (each capture ended unchecked: a failed call may have ended it)
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ROW("end-capture-not-capturing", cudaStreamEndCapture(s1, &graph), cudaErrorIllegalState);
  ROW("begin-capture-legacy", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
      cudaErrorStreamCaptureUnsupported);
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  ROW("begin-capture-twice", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
  graph = nullptr;
  cudaStreamEndCapture(s1, &graph);
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  ROW("sync-capturing", cudaStreamSynchronize(s1), cudaErrorStreamCaptureUnsupported);
  graph = (cudaGraph_t)(void*)&value;  // must come back NULL
  ROW("end-broken-capture", cudaStreamEndCapture(s1, &graph), cudaErrorStreamCaptureInvalidated);
  if (graph) std::printf("row end-broken-capture: WRONG a graph came back\n"), ++failures;
  ROW("graph-create-flags", cudaGraphCreate(&graph, 1), cudaErrorInvalidValue);
  ROW("instantiate-null-graph", cudaGraphInstantiate(&exec, nullptr, 0), cudaErrorInvalidValue);

  // ---- registered host memory, peer copies
  ROW("host-unregister-unknown", cudaHostUnregister(h), cudaErrorHostMemoryNotRegistered);
  ROW("peer-copy-device", cudaMemcpyPeer(d, 1, spare, 0, 4), cudaErrorInvalidDevice);
  CUDA_CHECK(cudaStreamDestroy(s2));
  CUDA_CHECK(cudaEventDestroy(never));
  if (on_gpusim) {  // undefined behaviour in CUDA: a destroyed handle
    ROW("stream-destroyed-twice", cudaStreamDestroy(s2), cudaErrorInvalidResourceHandle);
    void* async_ptr = nullptr;
    ROW("malloc-async-destroyed-stream", cudaMallocAsync(&async_ptr, 4, s2), cudaErrorInvalidResourceHandle);
    LAUNCH_ROW("launch-destroyed-stream", (store<<<1, 1, 0, s2>>>(d, 0, 1)),
               cudaErrorInvalidResourceHandle);
    ROW("record-destroyed-stream", cudaEventRecord(a, s2), cudaErrorInvalidResourceHandle);
    ROW("record-destroyed-event", cudaEventRecord(never, s1), cudaErrorInvalidResourceHandle);
    ROW("memset-async-destroyed-stream", cudaMemsetAsync(d, 0, 4, s2), cudaErrorInvalidResourceHandle);
    ROW("copy-async-destroyed-stream", cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s2),
        cudaErrorInvalidResourceHandle);
    ROW("stream-not-a-handle", cudaStreamSynchronize((cudaStream_t)(void*)h), cudaErrorInvalidResourceHandle);
    ROW("freehost-twice", cudaFreeHost(pinned), cudaErrorInvalidValue);
  }

  // ---- the last error
  ROW("last-error-peek", (cudaMalloc(nullptr, 4), cudaPeekAtLastError(), cudaPeekAtLastError()),
      cudaErrorInvalidValue);
  ROW("last-error-read", (cudaMalloc(nullptr, 4), cudaGetLastError()), cudaErrorInvalidValue);
  ROW("last-error-cleared", (cudaMalloc(nullptr, 4), cudaGetLastError(), cudaGetLastError()), cudaSuccess);
  ROW("last-error-success-keeps", (cudaMalloc(nullptr, 4), cudaDeviceSynchronize(), cudaGetLastError()),
      cudaErrorInvalidValue);

  // ---- a fault sticks: every later call returns it
  load<<<1, 1>>>(d + (1 << 28), d);  // reads 1 GiB past a 256-byte allocation
  ROW("fault-at-synchronize", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  ROW("sticky-last-error", cudaGetLastError(), cudaErrorIllegalAddress);
  ROW("sticky-last-error-again", cudaGetLastError(), cudaErrorIllegalAddress);
  ROW("sticky-malloc", cudaMalloc(&gone, 4), cudaErrorIllegalAddress);
  ROW("sticky-copy", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
  LAUNCH_ROW("sticky-launch", (store<<<1, 1>>>(d, 0, 1)), cudaErrorIllegalAddress);

  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
