// streams.cu -- a stream's further calls: a host function and a callback run
// after the work before them in their stream (they see its results) and
// before the work after them; stream-ordered allocation; what a stream says
// of itself (flags, a priority inside the device's range, distinct ids, its
// device); cudaLaunchKernelEx, plain and cooperative; the profiler's range
// calls. Checked on the host; prints PASS.
#include <cstring>
#include <cooperative_groups.h>
#include <cuda_profiler_api.h>
#include "common.cuh"
namespace cg = cooperative_groups;

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

// every block adds to a counter; after grid.sync() block 0 reads the total
__global__ void count_blocks(int* counter, int* seen) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) atomicAdd(counter, 1);
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *seen = *counter;
}

struct HostStep {
  const int* mapped;  // host copy the stream's earlier work filled
  int first;          // what the host function read there
  int calls;
};

static void CUDART_CB host_step(void* user) {
  HostStep* h = static_cast<HostStep*>(user);
  h->first = h->mapped[0];
  h->calls++;
}

struct CallbackSeen {
  cudaStream_t stream;
  cudaError_t status;
  int calls;
};

static void CUDART_CB on_done(cudaStream_t s, cudaError_t status, void* user) {
  CallbackSeen* c = static_cast<CallbackSeen*>(user);
  c->stream = s;
  c->status = status;
  c->calls++;
}

static int failures = 0;
#define EXPECT(cond, ...)                      \
  do {                                         \
    if (!(cond)) {                             \
      std::fprintf(stderr, __VA_ARGS__);       \
      std::fputc('\n', stderr);                \
      ++failures;                              \
    }                                          \
  } while (0)

int main() {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const bool on_gpusim = std::strstr(prop.name, "gpusim") != nullptr;
  const int n = 1000;
  cudaStream_t s, quiet;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaStreamCreateWithFlags(&quiet, cudaStreamNonBlocking));

  // ---- stream-ordered allocation, a host function between two copies
  int* d = nullptr;
  CUDA_CHECK(cudaMallocAsync(&d, n * sizeof(int), s));
  EXPECT(d != nullptr, "cudaMallocAsync gave no memory");
  int* h = nullptr;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(int)));
  fill<<<(n + 255) / 256, 256, 0, s>>>(d, n, 40);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  HostStep step = { h, -1, 0 };
  CUDA_CHECK(cudaLaunchHostFunc(s, host_step, &step));
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CallbackSeen seen = { nullptr, cudaErrorUnknown, 0 };
  CUDA_CHECK(cudaStreamAddCallback(s, on_done, &seen, 0));
  CUDA_CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaFreeAsync(d, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(step.calls == 1 && step.first == 40, "host function: %d calls, read %d (want 1 call reading 40)", step.calls,
         step.first);
  EXPECT(seen.calls == 1 && seen.stream == s && seen.status == cudaSuccess,
         "callback: %d calls, stream %s, status %s", seen.calls, seen.stream == s ? "right" : "wrong",
         cudaGetErrorName(seen.status));
  bool values = true;
  for (int i = 0; i < n; i++) values = values && h[i] == 41 + i;
  EXPECT(values, "the kernel after the host function did not run after it");

  EXPECT(cudaStreamAddCallback(s, on_done, &seen, 1) == cudaErrorInvalidValue, "callback flags other than 0 accepted");
  cudaGetLastError();
  EXPECT(cudaLaunchHostFunc(s, nullptr, nullptr) == cudaErrorInvalidValue, "a null host function accepted");
  cudaGetLastError();

  // ---- what a stream says of itself
  unsigned flags = 99;
  CUDA_CHECK(cudaStreamGetFlags(quiet, &flags));
  EXPECT(flags == cudaStreamNonBlocking, "non-blocking stream's flags: %u", flags);
  CUDA_CHECK(cudaStreamGetFlags(s, &flags));
  EXPECT(flags == cudaStreamDefault, "default stream's flags: %u", flags);
  int least = 1, greatest = 1;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(greatest <= least, "priority range [%d, %d]", least, greatest);
  cudaStream_t urgent;
  CUDA_CHECK(cudaStreamCreateWithPriority(&urgent, cudaStreamDefault, greatest - 100));  // clamped into the range
  int priority = 1;
  CUDA_CHECK(cudaStreamGetPriority(urgent, &priority));
  EXPECT(priority == greatest, "a priority past the greatest reads %d (want %d)", priority, greatest);
  unsigned long long id1 = 0, id2 = 0;
  CUDA_CHECK(cudaStreamGetId(s, &id1));
  CUDA_CHECK(cudaStreamGetId(quiet, &id2));
  EXPECT(id1 != id2, "two streams share the id %llu", id1);
  int device = -1;
  CUDA_CHECK(cudaStreamGetDevice(urgent, &device));
  EXPECT(device == 0, "a stream's device: %d", device);

  // ---- cudaLaunchKernelEx: plain, then cooperative
  int* e = nullptr;
  CUDA_CHECK(cudaMalloc(&e, n * sizeof(int)));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  config.stream = quiet;
  CUDA_CHECK(cudaLaunchKernelEx(&config, fill, e, n, 7));
  CUDA_CHECK(cudaMemcpy(h, e, n * sizeof(int), cudaMemcpyDeviceToHost));
  values = true;
  for (int i = 0; i < n; i++) values = values && h[i] == 7 + i;
  EXPECT(values, "cudaLaunchKernelEx's kernel did not run as launched");

  int *counter, *total;
  CUDA_CHECK(cudaMalloc(&counter, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&total, sizeof(int)));
  CUDA_CHECK(cudaMemset(counter, 0, sizeof(int)));
  cudaLaunchAttribute coop[1];
  coop[0].id = cudaLaunchAttributeCooperative;
  coop[0].val.cooperative = 1;
  config.gridDim = dim3(2 * prop.multiProcessorCount);
  config.attrs = coop;
  config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&config, count_blocks, counter, total));
  int blocks = 0;
  CUDA_CHECK(cudaMemcpy(&blocks, total, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(blocks == 2 * prop.multiProcessorCount, "the cooperative launch's grid.sync() saw %d blocks (want %d)", blocks,
         2 * prop.multiProcessorCount);

  if (on_gpusim) {  // clusters are not modelled: refused, never run as something else
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = 2;
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    config.gridDim = dim3(4);
    config.attrs = cluster;
    EXPECT(cudaLaunchKernelEx(&config, fill, e, n, 0) == cudaErrorNotSupported, "a cluster launch was not refused");
    cudaGetLastError();
  }

  // ---- the profiler's range: accepted (gpusim exec --profile-from-start off times only what is inside)
  CUDA_CHECK(cudaProfilerStart());
  add_one<<<(n + 255) / 256, 256>>>(e, n);
  CUDA_CHECK(cudaProfilerStop());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaFree(counter));
  CUDA_CHECK(cudaFree(total));
  CUDA_CHECK(cudaFree(e));
  CUDA_CHECK(cudaFreeHost(h));
  CUDA_CHECK(cudaStreamDestroy(urgent));
  CUDA_CHECK(cudaStreamDestroy(quiet));
  CUDA_CHECK(cudaStreamDestroy(s));
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
