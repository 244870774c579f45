// one_device.cu -- calls about several devices, pools by location, kernels
// as handles and batches, as the one simulated device answers them: a 3D
// peer copy between device 0 and itself, P2P queries refused, host atomic
// capabilities, valid devices, the persisting-L2 reset and RDMA flush, a
// pool's access, CUDA 13's pools by location, a kernel's parameter layout,
// a launch through cudaGetKernel's handle, and batches of copies,
// prefetches and discards. Checked on the host; prints PASS.
#include <cstring>
#include "common.cuh"

__global__ void scale(float* p, double by, char tag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * (float)by + (float)tag;
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

int main() {
  const int n = 256;
  float* d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  std::vector<float> h(n), back(n);
  for (int i = 0; i < n; i++) h[i] = (float)i;

  // a 3D peer copy between device 0 and itself, and one naming device 1
  cudaMemcpy3DPeerParms pp = {};
  pp.srcPtr = make_cudaPitchedPtr(h.data(), n * sizeof(float), n, 1);
  pp.dstPtr = make_cudaPitchedPtr(d, n * sizeof(float), n, 1);
  pp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  CUDA_CHECK(cudaMemcpy3DPeer(&pp));
  CUDA_CHECK(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(back[200] == 200.0f, "3D peer copy gave %g", back[200]);
  pp.dstDevice = 1;
  EXPECT(cudaMemcpy3DPeerAsync(&pp, 0) == cudaErrorInvalidDevice, "a peer copy to device 1 ran");
  cudaGetLastError();

  int value = 7;
  EXPECT(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice,
         "a P2P attribute of device 0 with itself");
  cudaGetLastError();
  cudaAtomicOperation ops[2] = {cudaAtomicOperationIntegerAdd, cudaAtomicOperationFloatAdd};
  unsigned caps[2] = {9, 9};
  CUDA_CHECK(cudaDeviceGetHostAtomicCapabilities(caps, ops, 2, 0));
  EXPECT(caps[0] == 0 && caps[1] == 0, "host atomic capabilities %u %u", caps[0], caps[1]);
  int valid[] = {0}, invalid[] = {0, 1};
  CUDA_CHECK(cudaSetValidDevices(valid, 1));
  EXPECT(cudaSetValidDevices(invalid, 2) == cudaErrorInvalidDevice, "device 1 was a valid device");
  cudaGetLastError();
  CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  CUDA_CHECK(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                                cudaFlushGPUDirectRDMAWritesToOwner));

  // pools: access, and CUDA 13's pools by location
  cudaMemPool_t pool, by_location, current;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  cudaMemAccessFlags access;
  CUDA_CHECK(cudaMemPoolGetAccess(&access, pool, &dev0));
  EXPECT(access == cudaMemAccessFlagsProtReadWrite, "device 0's access to its pool: %d", (int)access);
  cudaMemAccessDesc rw = {dev0, cudaMemAccessFlagsProtReadWrite};
  CUDA_CHECK(cudaMemPoolSetAccess(pool, &rw, 1));
  cudaMemAccessDesc dev1 = {{cudaMemLocationTypeDevice, 1}, cudaMemAccessFlagsProtReadWrite};
  EXPECT(cudaMemPoolSetAccess(pool, &dev1, 1) == cudaErrorInvalidDevice, "device 1 was given access");
  cudaGetLastError();
  CUDA_CHECK(cudaMemGetDefaultMemPool(&by_location, &dev0, cudaMemAllocationTypePinned));
  EXPECT(by_location == pool, "the default pool by location differs");
  cudaMemPool_t mine;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = dev0;
  CUDA_CHECK(cudaMemPoolCreate(&mine, &props));
  CUDA_CHECK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, mine));
  CUDA_CHECK(cudaMemGetMemPool(&current, &dev0, cudaMemAllocationTypePinned));
  EXPECT(current == mine, "the current pool by location is not the one set");
  CUDA_CHECK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, pool));
  CUDA_CHECK(cudaMemPoolDestroy(mine));

  // a kernel's parameters, and a launch through its handle
  size_t offset = 99, size = 99;
  CUDA_CHECK(cudaFuncGetParamInfo((void*)scale, 1, &offset, &size));
  EXPECT(offset == 8 && size == 8, "param 1 at %zu, %zu bytes", offset, size);
  CUDA_CHECK(cudaFuncGetParamInfo((void*)scale, 2, &offset, &size));
  EXPECT(offset == 16 && size == 1, "param 2 at %zu, %zu bytes", offset, size);
  EXPECT(cudaFuncGetParamInfo((void*)scale, 4, &offset, &size) == cudaErrorInvalidValue, "param 4 exists");
  cudaGetLastError();
  cudaKernel_t k;
  CUDA_CHECK(cudaGetKernel(&k, (void*)scale));
  CUDA_CHECK(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0));
  double by = 2.0;
  char tag = 1;
  int count = n;
  void* args[] = {&d, &by, &tag, &count};
  CUDA_CHECK(cudaLaunchKernel((const void*)k, dim3(2), dim3(128), args, 0, 0));
  CUDA_CHECK(cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(back[10] == 21.0f, "launch through the kernel handle gave %g", back[10]);

  // batches: copies, then prefetches and discards of managed memory
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, out[8] = {};
  void* dsts[] = {d, d + 4, out};
  const void* srcs[] = {a, b, d};
  size_t sizes[] = {sizeof a, sizeof b, 8 * sizeof(float)};
  cudaMemcpyAttributes attrs[2] = {};
  attrs[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  attrs[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t idxs[] = {0, 2};
  CUDA_CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, s));
  CUDA_CHECK(cudaMemcpyBatchAsync(dsts + 2, srcs + 2, sizes + 2, 1, attrs, idxs, 1, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(out[0] == 1 && out[7] == 8, "batched copies gave %g %g", out[0], out[7]);
  size_t bad_idxs[] = {1, 2};
  EXPECT(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, bad_idxs, 2, s) == cudaErrorInvalidValue,
         "a batch whose first attribute index is not 0");
  EXPECT(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, 0) == cudaErrorInvalidValue,
         "a batch on the legacy default stream");
  cudaGetLastError();
  float* m;
  CUDA_CHECK(cudaMallocManaged(&m, 4096));
  void* ranges[] = {m, m + 512};
  size_t lens[] = {2048, 2048};
  cudaMemLocation locs[] = {dev0};
  size_t loc_idxs[] = {0};
  CUDA_CHECK(cudaMemPrefetchBatchAsync(ranges, lens, 2, locs, loc_idxs, 1, 0, s));
  CUDA_CHECK(cudaMemDiscardBatchAsync(ranges, lens, 2, 0, s));
  CUDA_CHECK(cudaMemDiscardAndPrefetchBatchAsync(ranges, lens, 2, locs, loc_idxs, 1, 0, s));
  EXPECT(cudaMemDiscardBatchAsync(ranges, lens, 2, 1, s) == cudaErrorInvalidValue, "a discard with flags");
  cudaGetLastError();
  CUDA_CHECK(cudaFree(m));
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d));
  if (failures) {
    std::printf("FAIL (%d)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
