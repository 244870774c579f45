// local.cu -- per-thread local memory as ordinary CUDA code gets it: an
// array indexed by a value known only at run time (nvcc puts it in a
// .local depot, not in registers), and sinf/cosf of large arguments, whose
// slow path (the Payne-Hanek reduction) keeps a table in local memory.
// Results are checked against the host: the array exactly, the functions
// within the CUDA Programming Guide's 2 ulp.
#include <cstdint>
#include "common.cuh"

__global__ void table(const int* idx, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float buf[32];
  for (int k = 0; k < 32; ++k) buf[k] = x[i] * (float)k + (float)(i & 7);
  float acc = 0.0f;
  for (int k = 0; k < 8; ++k) acc += buf[(idx[i] + 5 * k) & 31];  // indices known only at run time
  buf[idx[i] & 31] = -1.0f;                                       // a store through a run-time index
  out[i] = acc + buf[(idx[i] + 1) & 31] + buf[idx[i] & 31];
}

__global__ void trig(const float* x, float* s, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[i] = sinf(x[i]);
  c[i] = cosf(x[i]);
}

static double ulps(float got, double want) {
  int e;
  std::frexp(want, &e);
  double ulp = std::ldexp(1.0, (e - 24 < -149 ? -149 : e - 24));
  return std::fabs(got - want) / ulp;
}

int main() {
  const int n = 1024, threads = 128, blocks = n / threads;
  std::vector<int> idx(n);
  std::vector<float> x(n), big(n);
  uint32_t s = 777;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    idx[i] = (int)(s >> 20);
    x[i] = (float)(s >> 8) / 16777216.0f - 0.5f;
    // half small (the fast path), half up to 1e30 (the reduction in local memory)
    big[i] = i % 2 ? x[i] * 3.0f : std::ldexp(1.0f + x[i], 10 + (i % 90));
  }
  int* d_idx;
  float *d_x, *d_big, *d_out, *d_s, *d_c;
  CUDA_CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_big, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_s, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_c, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_big, big.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  table<<<blocks, threads>>>(d_idx, d_x, d_out, n);
  CUDA_CHECK_LAST();
  trig<<<blocks, threads>>>(d_big, d_s, d_c, n);
  CUDA_CHECK_LAST();
  std::vector<float> out(n), sn(n), cs(n);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sn.data(), d_s, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(cs.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    float buf[32];
    for (int k = 0; k < 32; ++k) buf[k] = x[i] * (float)k + (float)(i & 7);
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k) acc += buf[(idx[i] + 5 * k) & 31];
    buf[idx[i] & 31] = -1.0f;
    float want = acc + buf[(idx[i] + 1) & 31] + buf[idx[i] & 31];
    if (std::fabs(out[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
      std::fprintf(stderr, "table element %d: got %.9g, expected %.9g\n", i, out[i], want);
      ++bad;
    }
    double ws = std::sin((double)big[i]), wc = std::cos((double)big[i]);
    if (ulps(sn[i], ws) > 2.5 || ulps(cs[i], wc) > 2.5) {
      std::fprintf(stderr, "sin/cos of %g: got %.9g %.9g, expected %.9g %.9g\n", big[i], sn[i], cs[i], ws, wc);
      ++bad;
    }
  }
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
