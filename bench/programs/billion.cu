// billion.cu -- a CUDA program of about a billion simulated warp
// instructions, for the host time `gpusim exec` takes on a whole program
// (issue: big programs). Three kinds of work, as ordinary programs mix
// them: a streaming saxpy over 2^24 floats (memory-bound), a shared-memory
// tiled matrix product of 1024 x 1024 (shared memory and FMA), and a
// compute-bound polynomial per element (FMA chains); each repeated. Checks
// its results against the host. Usage: billion [SCALE] (SCALE 1: ~1.0e9
// warp instructions on the h200 preset: saxpy 0.20e9, matmul 0.52e9, poly
// 0.26e9; 0.1 for a quick run).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(call)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

constexpr int TILE = 16;
__global__ void matmul(int n, const float* A, const float* B, float* C) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void poly(int n, int terms, float* v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = v[i], r = 0.f;
  for (int k = 0; k < terms; k++) r = r * x + 1.0f / (k + 1);
  v[i] = r;
}

int main(int argc, char** argv) {
  double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int n = 1 << 24, m = 1024;
  int saxpy_runs = (int)(30 * scale + 0.5), matmul_runs = (int)(4 * scale + 0.5), poly_terms = (int)(680 * scale);
  if (saxpy_runs < 1) saxpy_runs = 1;
  if (matmul_runs < 1) matmul_runs = 1;
  if (poly_terms < 4) poly_terms = 4;
  std::vector<float> hx(n), hy(n), hA(m * m), hB(m * m);
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 1000) / 1000.f, hy[i] = 1.f;
  for (int i = 0; i < m * m; i++) hA[i] = (float)(i % 7) - 3.f, hB[i] = (float)(i % 5) - 2.f;
  float *x, *y, *A, *B, *C, *v;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&y, n * sizeof(float)));
  CK(cudaMalloc(&A, m * m * sizeof(float)));
  CK(cudaMalloc(&B, m * m * sizeof(float)));
  CK(cudaMalloc(&C, m * m * sizeof(float)));
  CK(cudaMalloc(&v, (n / 16) * sizeof(float)));
  CK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(A, hA.data(), m * m * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, hB.data(), m * m * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(v, hx.data(), (n / 16) * sizeof(float), cudaMemcpyHostToDevice));
  for (int r = 0; r < saxpy_runs; r++) saxpy<<<n / 256, 256>>>(n, 0.5f, x, y);
  for (int r = 0; r < matmul_runs; r++) matmul<<<dim3(m / TILE, m / TILE), dim3(TILE, TILE)>>>(m, A, B, C);
  poly<<<n / 16 / 256, 256>>>(n / 16, poly_terms, v);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> gy(n), gC(m * m), gv(n / 16);
  CK(cudaMemcpy(gy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gC.data(), C, m * m * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gv.data(), v, (n / 16) * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; i += 4099) {
    float want = 1.f;
    for (int r = 0; r < saxpy_runs; r++) want = 0.5f * hx[i] + want;
    if (std::fabs(gy[i] - want) > 1e-4f * std::fabs(want)) std::fprintf(stderr, "y[%d] %g, want %g\n", i, gy[i], want), ok = false;
  }
  for (int i = 0; i < m && ok; i += 97)
    for (int j = 0; j < m && ok; j += 89) {
      double want = 0;
      for (int k = 0; k < m; k++) want += (double)hA[i * m + k] * hB[k * m + j];
      if (std::fabs(gC[i * m + j] - want) > 1e-3 * (1 + std::fabs(want)))
        std::fprintf(stderr, "C[%d][%d] %g, want %g\n", i, j, gC[i * m + j], want), ok = false;
    }
  for (int i = 0; i < n / 16 && ok; i += 1013) {
    float r = 0.f;
    for (int k = 0; k < poly_terms; k++) r = r * hx[i] + 1.0f / (k + 1);
    if (std::fabs(gv[i] - r) > 1e-3f * (1 + std::fabs(r))) std::fprintf(stderr, "v[%d] %g, want %g\n", i, gv[i], r), ok = false;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
