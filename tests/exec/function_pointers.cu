// function_pointers.cu -- calls through device function pointers: a
// pointer chosen per thread (so a warp's lanes call different functions),
// passed to a function that is not inlined and called there, and the
// libcu++ atomics whose debug build (-G) passes its operation as a function
// pointer. PTX: mov.u64 of a .func's name, call through a register with a
// .callprototype. Checked on the host; CI builds it with -O3 and with -G.
#include <cuda/atomic>
#include "common.cuh"

typedef float (*binary_op)(float, float);
__device__ __noinline__ float add(float a, float b) { return a + b; }
__device__ __noinline__ float mul(float a, float b) { return a * b; }
__device__ __noinline__ float sub(float a, float b) { return a - b; }
__device__ __noinline__ float apply(binary_op f, float a, float b) { return f(a, b); }

__global__ void kernel(const float* a, const float* b, float* out, int* count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  binary_op f = t % 3 == 0 ? add : t % 3 == 1 ? mul : sub;
  out[t] = apply(f, a[t], b[t]);
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  c.fetch_add(t % 3 == 0 ? 1 : 0, cuda::memory_order_relaxed);
  c.fetch_max(t % 7 == 0 ? 0 : 0);
}

int main() {
  const int n = 256;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; i++) a[i] = (float)(i % 17), b[i] = (float)(i % 5) + 0.5f;
  float *da, *db, *dout;
  int* dcount;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dcount, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dcount, 0, sizeof(int)));
  kernel<<<n / 64, 64>>>(da, db, dout, dcount);
  CUDA_CHECK_LAST();
  std::vector<float> out(n);
  int count = 0;
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&count, dcount, sizeof count, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    float want = i % 3 == 0 ? a[i] + b[i] : i % 3 == 1 ? a[i] * b[i] : a[i] - b[i];
    if (out[i] != want) std::printf("out[%d] = %g, want %g\n", i, out[i], want), ok = false;
  }
  if (count != (n + 2) / 3) std::printf("count %d, want %d\n", count, (n + 2) / 3), ok = false;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
