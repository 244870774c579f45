// structs.cu -- structs passed to and returned from device functions by
// value, which nvcc keeps as .func with `.param .b8 p[N]` (CUB, thrust and
// cooperative groups pass their small objects so): fields of every width
// (double, float, int, short, signed and unsigned char, bool), float2 and
// float4 moved as vectors, a struct returned and passed on to another
// function, a struct returned and not used, a 64-byte struct, and a struct
// argument of a kernel passed on whole. gpusim inlines each call, each field
// a register of its own; the results are checked against the host.
#include "common.cuh"

struct Mixed {
  double d;
  float f;
  int i;
  short s;
  signed char c;
  unsigned char u;
  bool flag;
};

struct Big {
  float v[16];
};

__device__ __noinline__ double weigh(Mixed m, float x) {
  double r = m.d * x + m.f - m.i;
  r += m.s * 0.5 + m.c * 0.25 + m.u * 0.125;  // a negative short and char: sign-extended
  return m.flag ? r : -r;
}

__device__ __noinline__ float2 rotate(float2 p, float4 m) {  // vectors by value
  return make_float2(m.x * p.x + m.y * p.y, m.z * p.x + m.w * p.y);
}

__device__ __noinline__ Mixed make_mixed(int k) {  // a struct returned
  Mixed m;
  m.d = 1.5 * k;
  m.f = 0.25f * (float)k;
  m.i = 3 - k;
  m.s = (short)(-7 * k);
  m.c = (signed char)(-k);
  m.u = (unsigned char)(200 + (k & 31));
  m.flag = (k & 1) != 0;
  return m;
}

__device__ __noinline__ Mixed shifted(Mixed m, int by) {  // a struct in, a struct out
  m.i += by;
  m.c = (signed char)(m.c - by);
  m.flag = !m.flag;
  return m;
}

__device__ __noinline__ float total(Big b, int skip) {
  float s = 0.0f;
  for (int k = 0; k < 16; ++k)
    if (k != skip) s += b.v[k];
  return s;
}

__device__ int side_effects;

__device__ __noinline__ Mixed counted(int k) {  // its value unused: only the side effect counts
  atomicAdd(&side_effects, 1);
  return make_mixed(k);
}

__global__ void structs(Mixed base, double* weights, float2* rotated, float* totals, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  Mixed m = shifted(make_mixed(t), t & 3);
  weights[2 * t] = weigh(m, 0.5f * (float)t);
  weights[2 * t + 1] = weigh(base, (float)t);  // the kernel's own struct argument, passed on
  float a = 0.01f * (float)t;
  rotated[t] = rotate(make_float2(1.0f + a, 2.0f - a), make_float4(a, 1.0f, -1.0f, a));
  Big b;
  for (int k = 0; k < 16; ++k) b.v[k] = (float)(t * k % 7);
  totals[t] = total(b, t & 15);
  if (t % 5 == 0) counted(t);
}

static Mixed host_make(int k) {
  Mixed m;
  m.d = 1.5 * k;
  m.f = 0.25f * (float)k;
  m.i = 3 - k;
  m.s = (short)(-7 * k);
  m.c = (signed char)(-k);
  m.u = (unsigned char)(200 + (k & 31));
  m.flag = (k & 1) != 0;
  return m;
}

static double host_weigh(Mixed m, float x) {
  double r = m.d * x + m.f - m.i;
  r += m.s * 0.5 + m.c * 0.25 + m.u * 0.125;
  return m.flag ? r : -r;
}

int main() {
  const int n = 300;
  Mixed base = host_make(-5);
  base.flag = true;
  double* d_weights;
  float2* d_rotated;
  float* d_totals;
  CUDA_CHECK(cudaMalloc(&d_weights, 2 * n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_rotated, n * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&d_totals, n * sizeof(float)));
  int zero = 0;
  CUDA_CHECK(cudaMemcpyToSymbol(side_effects, &zero, sizeof zero));
  structs<<<(n + 127) / 128, 128>>>(base, d_weights, d_rotated, d_totals, n);
  CUDA_CHECK_LAST();
  std::vector<double> weights(2 * n);
  std::vector<float2> rotated(n);
  std::vector<float> totals(n);
  int counted_calls = 0;
  CUDA_CHECK(cudaMemcpy(weights.data(), d_weights, 2 * n * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(rotated.data(), d_rotated, n * sizeof(float2), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(totals.data(), d_totals, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpyFromSymbol(&counted_calls, side_effects, sizeof counted_calls));
  int bad = 0;
  for (int t = 0; t < n && bad < 5; ++t) {
    Mixed m = host_make(t);
    m.i += t & 3;
    m.c = (signed char)(m.c - (t & 3));
    m.flag = !m.flag;
    double w0 = host_weigh(m, 0.5f * (float)t), w1 = host_weigh(base, (float)t);
    float a = 0.01f * (float)t, px = 1.0f + a, py = 2.0f - a;
    float rx = a * px + 1.0f * py, ry = -1.0f * px + a * py;
    float tot = 0.0f;
    for (int k = 0; k < 16; ++k)
      if (k != (t & 15)) tot += (float)(t * k % 7);
    if (std::fabs(weights[2 * t] - w0) > 1e-9 * (1 + std::fabs(w0)) ||
        std::fabs(weights[2 * t + 1] - w1) > 1e-9 * (1 + std::fabs(w1)) || std::fabs(rotated[t].x - rx) > 1e-5f ||
        std::fabs(rotated[t].y - ry) > 1e-5f || totals[t] != tot) {
      std::fprintf(stderr, "t=%d: weights %.9g/%.9g %.9g/%.9g, rotated %g,%g/%g,%g, total %g/%g\n", t,
                   weights[2 * t], w0, weights[2 * t + 1], w1, rotated[t].x, rotated[t].y, rx, ry, totals[t], tot);
      ++bad;
    }
  }
  if (counted_calls != (n + 4) / 5) std::fprintf(stderr, "counted %d calls, expected %d\n", counted_calls, (n + 4) / 5), ++bad;
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
