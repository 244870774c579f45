// memory3d.cu -- pitched 3D memory: cudaMalloc3D, cudaMemcpy3D both ways
// (a sub-box at an offset back to the host), cudaMemset3D of a sub-box,
// cudaMemset2DAsync; a peer copy on the one device; registered host memory
// (registering twice and unregistering what was not are CUDA's errors) and
// the pointer attributes of pinned memory.
// Checked on the host; prints PASS.
#include "common.cuh"

__global__ void bump(cudaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= w || y >= h || z >= d) return;
  int* row = (int*)((char*)p.ptr + (z * p.ysize + y) * p.pitch);
  row[x] += 1000;
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
  const int w = 37, h = 5, d = 4;  // ints; rows of 148 bytes, padded on the device
  std::vector<int> vol(w * h * d), back(w * h * d, -1);
  for (int i = 0; i < w * h * d; i++) vol[i] = i;
  cudaPitchedPtr dv;
  CUDA_CHECK(cudaMalloc3D(&dv, make_cudaExtent(w * sizeof(int), h, d)));
  EXPECT(dv.pitch >= w * sizeof(int) && dv.xsize == w * sizeof(int) && dv.ysize == (size_t)h,
         "cudaMalloc3D: pitch %zu, xsize %zu, ysize %zu", dv.pitch, dv.xsize, dv.ysize);

  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(vol.data(), w * sizeof(int), w, h);
  up.dstPtr = dv;
  up.extent = make_cudaExtent(w * sizeof(int), h, d);
  up.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&up));
  bump<<<dim3(1, h, d), 64>>>(dv, w, h, d);
  CUDA_CHECK_LAST();

  // a sub-box: x 3..12, y 1..3, z 2..3, back to the same place on the host
  cudaMemcpy3DParms down = {};
  down.srcPtr = dv;
  down.srcPos = make_cudaPos(3 * sizeof(int), 1, 2);
  down.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(int), w, h);
  down.dstPos = make_cudaPos(3 * sizeof(int), 1, 2);
  down.extent = make_cudaExtent(10 * sizeof(int), 3, 2);
  down.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&down));
  bool ok = true;
  for (int z = 0; z < d; z++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int i = (z * h + y) * w + x;
        bool inside = x >= 3 && x < 13 && y >= 1 && y < 4 && z >= 2;
        ok = ok && back[i] == (inside ? vol[i] + 1000 : -1);
      }
  EXPECT(ok, "cudaMemcpy3D's sub-box came back wrong");

  // cudaMemset3D: bytes 0x01 over z = 1 only, then the whole volume back
  cudaPitchedPtr slice1 = dv;
  slice1.ptr = (char*)dv.ptr + dv.pitch * dv.ysize;
  CUDA_CHECK(cudaMemset3D(slice1, 1, make_cudaExtent(w * sizeof(int), h, 1)));
  down.srcPos = down.dstPos = make_cudaPos(0, 0, 0);
  down.extent = make_cudaExtent(w * sizeof(int), h, d);
  CUDA_CHECK(cudaMemcpy3D(&down));
  ok = true;
  for (int i = 0; i < w * h * d; i++) ok = ok && back[i] == (i / (w * h) == 1 ? 0x01010101 : vol[i] + 1000);
  EXPECT(ok, "cudaMemset3D wrote outside its slice or not all of it");

  // cudaMemset2DAsync on the first slice's first two rows, then a peer copy of the volume
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaMemset2DAsync(dv.ptr, dv.pitch, 0, w * sizeof(int), 2, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  void* copy = nullptr;
  size_t bytes = dv.pitch * h * d;
  CUDA_CHECK(cudaMalloc(&copy, bytes));
  CUDA_CHECK(cudaMemcpyPeer(copy, 0, dv.ptr, 0, bytes));
  int first = -1, third = -1;
  CUDA_CHECK(cudaMemcpy(&first, copy, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&third, (char*)copy + 2 * dv.pitch, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(first == 0 && third == vol[2 * w] + 1000, "after cudaMemset2DAsync and a peer copy: %d %d (want 0 %d)", first,
         third, vol[2 * w] + 1000);

  // registered host memory
  std::vector<int> pinned(256);
  CUDA_CHECK(cudaHostRegister(pinned.data(), pinned.size() * sizeof(int), cudaHostRegisterDefault));
  EXPECT(cudaHostRegister(pinned.data(), pinned.size() * sizeof(int), 0) == cudaErrorHostMemoryAlreadyRegistered,
         "registering twice was not cudaErrorHostMemoryAlreadyRegistered");
  cudaGetLastError();
  CUDA_CHECK(cudaMemcpyAsync(pinned.data(), copy, pinned.size() * sizeof(int), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(pinned[0] == 0, "a copy into registered memory: %d", pinned[0]);
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, pinned.data() + 10));  // inside the registered range
  EXPECT(attr.type == cudaMemoryTypeHost, "registered memory's type: %d", (int)attr.type);
  int* host_alloc = nullptr;
  CUDA_CHECK(cudaMallocHost(&host_alloc, 64));
  CUDA_CHECK(cudaPointerGetAttributes(&attr, host_alloc + 3));
  EXPECT(attr.type == cudaMemoryTypeHost, "cudaMallocHost memory's type: %d", (int)attr.type);
  CUDA_CHECK(cudaFreeHost(host_alloc));
  CUDA_CHECK(cudaHostUnregister(pinned.data()));
  CUDA_CHECK(cudaPointerGetAttributes(&attr, pinned.data()));
  EXPECT(attr.type == cudaMemoryTypeUnregistered, "unregistered memory's type: %d", (int)attr.type);
  EXPECT(cudaHostUnregister(pinned.data()) == cudaErrorHostMemoryNotRegistered,
         "unregistering twice was not cudaErrorHostMemoryNotRegistered");
  cudaGetLastError();

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(copy));
  CUDA_CHECK(cudaFree(dv.ptr));
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures ? 1 : 0;
}
