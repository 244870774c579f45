// host_memory.cu -- zero-copy host memory and the device's runtime facts:
// kernels reading and writing pinned host memory through the pointer
// cudaHostGetDevicePointer gives (cudaHostAllocMapped) and through
// cudaMallocHost's own pointer (unified addressing); the flags, attributes and
// errors of such memory; the properties and attributes a program checks
// before it starts or uses mapped or managed memory; cudaStreamAttachMemAsync; memory pools and their
// figures; the PCI bus id both ways; peers (there are none); the shared-memory
// bank size; a kernel's name.
#include <cstdint>
#include <cstring>
#include "common.cuh"

__global__ void square_into(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void add_one(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}

static bool check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "FAILED: %s\n", what);
  return ok;
}

static bool zero_copy() {
  bool ok = true;
  const int n = 1000;
  int *in, *out, *d_in, *d_out;
  CUDA_CHECK(cudaHostAlloc(&in, n * sizeof(int), cudaHostAllocMapped));
  CUDA_CHECK(cudaHostAlloc(&out, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; ++i) in[i] = i - 500, out[i] = -1;
  CUDA_CHECK(cudaHostGetDevicePointer(&d_in, in, 0));
  CUDA_CHECK(cudaHostGetDevicePointer(&d_out, out, 0));
  square_into<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) ok = ok && out[i] == (i - 500) * (i - 500);  // no copy back
  ok = check(ok, "a kernel's writes through the mapped pointer reach the host");
  void* none_yet = nullptr;
  int* inside = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&inside, in + 10, 0));
  ok = check(ok && inside == d_in + 10, "a pointer inside the allocation maps to the same offset");
  unsigned flags = 0;
  CUDA_CHECK(cudaHostGetFlags(&flags, out));
  ok = check(ok && (flags & cudaHostAllocMapped) && (flags & cudaHostAllocPortable), "cudaHostGetFlags");
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, in));
  ok = check(ok && attr.type == cudaMemoryTypeHost && attr.devicePointer == d_in && attr.hostPointer == in,
             "pinned memory's attributes name both pointers");

  // cudaMallocHost's memory, used by a kernel through its own pointer (UVA);
  // host memory, so the device's free memory does not drop
  size_t free_before = 0, free_after = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
  float* h;
  CUDA_CHECK(cudaMallocHost(&h, 300 * sizeof(float)));
  CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
  ok = check(ok && free_after == free_before, "pinned memory is not device memory");
  for (int i = 0; i < 300; ++i) h[i] = 0.5f * i;
  add_one<<<3, 128>>>(h, 300);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 300; ++i) ok = ok && h[i] == 0.5f * i + 1.f;
  ok = check(ok, "a kernel uses cudaMallocHost's pointer");

  // the program's own memory, registered and mapped: kernels see it at the address cudaHostGetDevicePointer gives
  std::vector<int> mine(n);
  for (int i = 0; i < n; ++i) mine[i] = i;
  CUDA_CHECK(cudaHostRegister(mine.data(), n * sizeof(int), cudaHostRegisterMapped));
  int* d_mine = nullptr;
  CUDA_CHECK(cudaHostGetDevicePointer(&d_mine, mine.data(), 0));
  square_into<<<(n + 127) / 128, 128>>>(d_mine, d_mine, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) ok = ok && mine[i] == i * i;
  ok = check(ok, "a kernel reads and writes registered host memory");
  int can_use_host_pointer = -1;
  CUDA_CHECK(cudaDeviceGetAttribute(&can_use_host_pointer, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
  CUDA_CHECK(cudaPointerGetAttributes(&attr, mine.data() + 3));
  ok = check(ok && attr.type == cudaMemoryTypeHost && attr.devicePointer == d_mine + 3 &&
                 (can_use_host_pointer == 1) == (d_mine == mine.data()),
             "registered memory's attributes name its device pointer");
  CUDA_CHECK(cudaHostUnregister(mine.data()));
  ok = check(ok && cudaHostGetDevicePointer(&none_yet, mine.data(), 0) == cudaErrorInvalidValue,
             "unregistered memory has no device pointer");
  cudaGetLastError();

  // copies in and out of pinned memory, and the wrong free
  int* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, in, n * sizeof(int), cudaMemcpyDefault));
  std::vector<int> back(n);
  CUDA_CHECK(cudaMemcpy(back.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  ok = check(ok && back[7] == -493, "a copy from pinned memory");
  ok = check(ok && cudaFree(in) == cudaErrorInvalidValue, "cudaFree of pinned memory is an error");
  cudaGetLastError();
  int stack_value = 0;
  void* none = nullptr;
  ok = check(ok && cudaHostGetDevicePointer(&none, &stack_value, 0) == cudaErrorInvalidValue,
             "ordinary host memory has no device pointer");
  ok = check(ok && cudaHostGetFlags(&flags, &stack_value) == cudaErrorInvalidValue, "nor flags");
  ok = check(ok && cudaHostAlloc(&none, 16, 0x80) == cudaErrorInvalidValue, "an unknown cudaHostAlloc flag");
  cudaGetLastError();
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(in));
  CUDA_CHECK(cudaFreeHost(out));
  CUDA_CHECK(cudaFreeHost(h));
  ok = check(ok && cudaFreeHost(h) == cudaErrorInvalidValue, "a second cudaFreeHost is an error");
  cudaGetLastError();
  return ok;
}

static bool properties() {
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  int managed = 0, map = 0, concurrent = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&map, cudaDevAttrCanMapHostMemory, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0));
  bool ok = check(p.canMapHostMemory == 1 && p.managedMemory == 1 && p.unifiedAddressing == 1 && managed == 1 &&
                      map == 1 && concurrent == p.concurrentManagedAccess,
                  "the device says it maps host memory and has managed memory");
  // what cuda-samples' helper_cuda.h (findCudaDevice) and deviceQuery ask, each call checked
  int mode = -1, timeout = -1, pools = -1, reg = -1, ratio = -1, prio = -1;
  CUDA_CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&reg, cudaDevAttrHostRegisterSupported, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&prio, cudaDevAttrStreamPrioritiesSupported, 0));
  int least = -1, greatest = -1;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return check(ok && mode == cudaComputeModeDefault && timeout == 0 && pools == 1 && pools == p.memoryPoolsSupported &&
                   reg == 1 && ratio == 2 && prio == (least != greatest),
               "the attributes programs check before they start");  // an H200 does 2 FP32 operations per FP64 one
}

static bool attach() {
  bool ok = true;
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float* m;
  CUDA_CHECK(cudaMallocManaged(&m, 64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) m[i] = (float)i;
  CUDA_CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle));
  add_one<<<1, 64, 0, s>>>(m, 64);
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachHost));
  ok = check(ok && m[63] == 64.f, "managed memory attached to a stream");
  ok = check(ok && cudaStreamAttachMemAsync(0, m, 0, cudaMemAttachSingle) == cudaErrorInvalidValue,
             "cudaMemAttachSingle on the default stream is an error");
  int* d;
  CUDA_CHECK(cudaMalloc(&d, 64));  // may be placed in the tail of m's page: still device memory
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, d));
  ok = check(ok && attr.type == cudaMemoryTypeDevice, "device memory beside managed memory is device memory");
  ok = check(ok && cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachGlobal) == cudaErrorInvalidValue,
             "attaching device memory is an error");
  ok = check(ok && cudaStreamAttachMemAsync(s, m, 1 << 20, cudaMemAttachGlobal) == cudaErrorInvalidValue,
             "attaching past the allocation is an error");
  cudaGetLastError();
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(m));
  CUDA_CHECK(cudaStreamDestroy(s));
  return ok;
}

static bool pools() {
  bool ok = true;
  cudaMemPool_t def, cur;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CUDA_CHECK(cudaDeviceGetMemPool(&cur, 0));
  ok = check(ok && def == cur, "the default pool is current");
  uint64_t threshold = UINT64_MAX, used = 1, high = 0;
  CUDA_CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  threshold = 0;
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  ok = check(ok && threshold == UINT64_MAX, "the release threshold reads back");
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 0, "an unused pool uses nothing");
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float *a, *b;
  CUDA_CHECK(cudaMallocAsync(&a, 4096, s));
  CUDA_CHECK(cudaMallocAsync(&b, 1000, s));
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 5096, "the pool counts its allocations");
  CUDA_CHECK(cudaFreeAsync(a, s));
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemHigh, &high));
  ok = check(ok && used == 1000 && high == 5096, "a free lowers the pool's use, not its high mark");
  CUDA_CHECK(cudaFree(b));  // cudaFree of a pool's memory is allowed
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 0, "cudaFree gives a pool's memory back");

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CUDA_CHECK(cudaMemPoolCreate(&mine, &props));
  int* c;
  CUDA_CHECK(cudaMallocFromPoolAsync(&c, 256, mine, s));
  square_into<<<1, 64, 0, s>>>(c, c, 64);
  CUDA_CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 256, "a created pool counts its own");
  CUDA_CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 0, "and the default pool not them");
  CUDA_CHECK(cudaDeviceSetMemPool(0, mine));
  CUDA_CHECK(cudaMallocAsync(&a, 100, s));
  CUDA_CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  ok = check(ok && used == 356, "cudaMallocAsync takes from the current pool");
  CUDA_CHECK(cudaFreeAsync(a, s));
  CUDA_CHECK(cudaFreeAsync(c, s));
  CUDA_CHECK(cudaMemPoolTrimTo(mine, 0));
  CUDA_CHECK(cudaMemPoolDestroy(mine));
  CUDA_CHECK(cudaDeviceGetMemPool(&cur, 0));
  ok = check(ok && cur == def, "destroying the current pool makes the default current");
  ok = check(ok && cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used) == cudaErrorInvalidValue,
             "a destroyed pool is an error");
  high = 5;
  ok = check(ok && cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &high) == cudaErrorInvalidValue,
             "a high mark is only reset to 0");
  cudaGetLastError();
  CUDA_CHECK(cudaStreamDestroy(s));
  return ok;
}

static bool device_facts() {
  bool ok = true;
  char bus[32];
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  int dev = -1;
  CUDA_CHECK(cudaDeviceGetByPCIBusId(&dev, bus));
  ok = check(ok && dev == 0 && std::strlen(bus) == 12, "the PCI bus id names the device");
  ok = check(ok && cudaDeviceGetByPCIBusId(&dev, "0000:99:00.0") == cudaErrorInvalidDevice,
             "another bus id is no device");
  ok = check(ok && cudaDeviceGetByPCIBusId(&dev, "bus 0") == cudaErrorInvalidValue, "nor is a malformed one");
  int can = -1;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
  ok = check(ok && can == 0, "a device is no peer of itself");
  ok = check(ok && cudaDeviceCanAccessPeer(&can, 0, 1) == cudaErrorInvalidDevice, "there is no device 1");
  ok = check(ok && cudaDeviceEnablePeerAccess(1, 0) == cudaErrorInvalidDevice, "nor peer access to it");
  cudaGetLastError();
  cudaSharedMemConfig bank;
  CUDA_CHECK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));  // no effect since sm_50
  CUDA_CHECK(cudaDeviceGetSharedMemConfig(&bank));
  ok = check(ok && bank == cudaSharedMemBankSizeFourByte, "banks are four bytes wide");
  CUDA_CHECK(cudaFuncSetSharedMemConfig(add_one, cudaSharedMemBankSizeDefault));
  const char* name = nullptr;
  CUDA_CHECK(cudaFuncGetName(&name, add_one));
  ok = check(ok && name && std::strcmp(name, "_Z7add_onePfi") == 0, "a kernel's name");
  return ok;
}

int main() {
  bool ok = zero_copy();
  ok = properties() && ok;
  ok = attach() && ok;
  ok = pools() && ok;
  ok = device_facts() && ok;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
