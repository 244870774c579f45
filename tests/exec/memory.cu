// memory.cu -- device memory through the runtime: cudaMalloc/Free (a freed
// range reused), every cudaMemcpy direction, cudaMemset, pinned host memory,
// cudaMallocPitch with cudaMemcpy2D, cudaMemGetInfo, and __device__ /
// __constant__ variables through the symbol calls. Checks every byte.
#include "common.cuh"
#include <cstring>

__device__ int table[64];
__constant__ float weights[4] = {1.f, 2.f, 3.f, 4.f};
__device__ unsigned hits = 7;

// reads both kinds of variable and counts its threads in a third
__global__ void lookup(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = weights[i % 4] * static_cast<float>(table[i % 64]);
    atomicAdd(&hits, 1u);
  }
}

__global__ void axpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void add_rows(float* m, size_t pitch, int w, int h) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < w && r < h) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + r * pitch);
    row[c] += static_cast<float>(r);
  }
}

static int failures = 0;
#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

int main() {
  const int n = 3000;
  std::vector<float> hx(n), hy(n), out(n);
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * i, hy[i] = 1.f;
  size_t free0 = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free0, &total));
  EXPECT(total > 0 && free0 <= total);

  float *dx, *dy, *dz;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  size_t free1 = 0;
  CUDA_CHECK(cudaMemGetInfo(&free1, &total));
  EXPECT(free1 + 2 * n * sizeof(float) <= free0);
  CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyDefault));
  axpy<<<(n + 127) / 128, 128>>>(dx, dy, 2.f, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(out[i] == 2.f * hx[i] + 1.f || (i = n));

  // device to device, then memset, then a freed range comes back
  CUDA_CHECK(cudaMalloc(&dz, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dz, dy, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy(out.data(), dz, n * sizeof(float), cudaMemcpyDefault));
  EXPECT(out[n - 1] == 2.f * hx[n - 1] + 1.f);
  CUDA_CHECK(cudaMemset(dz, 0xff, 16));
  unsigned head[5];
  CUDA_CHECK(cudaMemcpy(head, dz, sizeof head, cudaMemcpyDeviceToHost));
  EXPECT(head[0] == 0xffffffffu && head[3] == 0xffffffffu && head[4] != 0xffffffffu);
  CUDA_CHECK(cudaFree(dy));
  float* again;
  CUDA_CHECK(cudaMalloc(&again, 64));
  EXPECT(again == dy);
  CUDA_CHECK(cudaFree(again));
  CUDA_CHECK(cudaFree(nullptr));

  // pinned host memory, async copies on a stream
  float* pinned;
  cudaStream_t s;
  CUDA_CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaMemcpyAsync(pinned, dx, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT(pinned[7] == hx[7]);
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFreeHost(pinned));

  // pitched 2D
  const int w = 100, h = 7;
  float* dm;
  size_t pitch = 0;
  CUDA_CHECK(cudaMallocPitch(&dm, &pitch, w * sizeof(float), h));
  EXPECT(pitch >= w * sizeof(float) && pitch % 128 == 0);
  std::vector<float> hm(w * h, 1.f), back(w * h);
  CUDA_CHECK(cudaMemcpy2D(dm, pitch, hm.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  add_rows<<<dim3(1, h), 128>>>(dm, pitch, w, h);
  CUDA_CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), dm, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
  EXPECT(back[0] == 1.f && back[w * 6 + 99] == 7.f);
  CUDA_CHECK(cudaFree(dm));

  // variables: their initializers, then copies to and from them
  float wt[4];
  CUDA_CHECK(cudaMemcpyFromSymbol(wt, weights, sizeof wt));
  EXPECT(wt[0] == 1.f && wt[3] == 4.f);
  int ht[64];
  for (int i = 0; i < 64; ++i) ht[i] = i * i;
  CUDA_CHECK(cudaMemcpyToSymbol(table, ht, sizeof ht));
  int back_t[2] = {0, 0};
  CUDA_CHECK(cudaMemcpyFromSymbol(back_t, table, sizeof back_t, 10 * sizeof(int)));
  EXPECT(back_t[0] == 100 && back_t[1] == 121);
  void* addr = nullptr;
  size_t size = 0;
  CUDA_CHECK(cudaGetSymbolAddress(&addr, table));
  CUDA_CHECK(cudaGetSymbolSize(&size, table));
  EXPECT(addr != nullptr && size == sizeof ht);
  int via_ptr = 0;
  CUDA_CHECK(cudaMemcpy(&via_ptr, static_cast<int*>(addr) + 3, sizeof via_ptr, cudaMemcpyDeviceToHost));
  EXPECT(via_ptr == 9);
  // a variable is no cudaMalloc allocation: cudaFree refuses it, and it stays
  EXPECT(cudaFree(addr) == cudaErrorInvalidValue);
  cudaGetLastError();
  CUDA_CHECK(cudaMemcpy(&via_ptr, static_cast<int*>(addr) + 3, sizeof via_ptr, cudaMemcpyDeviceToHost));
  EXPECT(via_ptr == 9);

  // kernels read the variables where the symbol calls wrote them
  lookup<<<(n + 255) / 256, 256>>>(dz, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(out.data(), dz, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(out[i] == (1.f + i % 4) * static_cast<float>((i % 64) * (i % 64)) || (i = n));
  unsigned count = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&count, hits, sizeof count));
  EXPECT(count == 7u + n);

  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dz));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
