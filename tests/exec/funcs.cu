// funcs.cu -- device functions nvcc keeps as .func (__noinline__): a value
// returned, a void function with a side effect, a function that calls
// another, early returns in divergent branches, a local array inside a
// function, one function called from two places and from two kernels, 64-bit
// arguments and returns, a pointer whose space the function cannot know (its
// byte and half-word accesses are generic: global for one call, shared for
// another). gpusim inlines each call; the results are checked against the host.
#include "common.cuh"

__device__ __noinline__ float scale(float x, int k) {
  if (k > 2) return x * (float)k;  // a return in each branch
  return x + 1.0f;
}

__device__ __noinline__ void bump(int* counter) { atomicAdd(counter, 1); }

__device__ __noinline__ int collatz_steps(long long n) {
  int steps = 0;
  while (n != 1) {
    if (steps > 500) return -1;  // an early return from a loop
    n = (n & 1) ? 3 * n + 1 : n / 2;
    ++steps;
  }
  return steps;
}

__device__ __noinline__ float sum_table(int seed) {
  float t[16];  // indexed at run time: a local array in the function
  for (int k = 0; k < 16; ++k) t[k] = (float)(k * seed);
  float s = 0.0f;
  for (int k = 0; k < 4; ++k) s += t[(seed + 3 * k) & 15];
  return s;
}

__device__ __noinline__ float twice(float x, int k) { return scale(x, k) + scale(x, k + 1); }  // a call in a call

__device__ __noinline__ long long widen(long long a, int b) { return a * b + (1LL << 40); }

__device__ __noinline__ int count_byte(const unsigned char* s, int n, unsigned char c, unsigned short* last) {
  int k = 0;
  for (int i = 0; i < n; ++i) k += s[i] == c;  // ld.u8 through a generic address
  *last = (unsigned short)(s[n - 1] * 3);      // st.u16 through one
  return k;
}

__global__ void bytes(const unsigned char* text, int n, int* counts, unsigned short* lasts) {
  __shared__ unsigned char tile[64];
  __shared__ unsigned short last_shared[2];
  if (threadIdx.x < 64) tile[threadIdx.x] = text[(blockIdx.x * 64 + threadIdx.x) % n];
  __syncthreads();
  if (threadIdx.x == 0) {
    counts[2 * blockIdx.x] = count_byte(text, n, (unsigned char)('a' + blockIdx.x), &lasts[2 * blockIdx.x]);
    counts[2 * blockIdx.x + 1] = count_byte(tile, 64, (unsigned char)('a' + blockIdx.x), &last_shared[0]);
    lasts[2 * blockIdx.x + 1] = last_shared[0];
  }
}

__global__ void calls(const float* in, float* out, int* counter, int* steps, float* tables, long long* wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = twice(in[i], i & 7);
  if (i & 1) bump(counter);
  steps[i] = collatz_steps(i + 1);
  tables[i] = sum_table(i);
  wide[i] = widen(i, 3);
}

__global__ void again(const float* in, float* out, int n) {  // the same function from another kernel
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale(in[i], 5);
}

static float host_scale(float x, int k) { return k > 2 ? x * (float)k : x + 1.0f; }

int main() {
  const int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = 0.25f * (float)(i % 13) - 1.0f;
  float *d_in, *d_out, *d_tables, *d_out2;
  int *d_counter, *d_steps;
  long long* d_wide;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out2, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_tables, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_counter, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_steps, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_wide, n * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_counter, 0, sizeof(int)));
  calls<<<(n + 127) / 128, 128>>>(d_in, d_out, d_counter, d_steps, d_tables, d_wide, n);
  CUDA_CHECK_LAST();
  again<<<(n + 255) / 256, 256>>>(d_in, d_out2, n);
  CUDA_CHECK_LAST();
  std::vector<float> out(n), out2(n), tables(n);
  std::vector<int> steps(n);
  std::vector<long long> wide(n);
  int counter = 0;
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out2.data(), d_out2, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(tables.data(), d_tables, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(steps.data(), d_steps, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(wide.data(), d_wide, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n && bad < 5; ++i) {
    float want = host_scale(in[i], i & 7) + host_scale(in[i], (i & 7) + 1);
    float want_table = 0.0f;
    for (int k = 0; k < 4; ++k) want_table += (float)(((i + 3 * k) & 15) * i);
    long long x = i + 1;
    int want_steps = 0;
    while (x != 1 && want_steps <= 500) x = (x & 1) ? 3 * x + 1 : x / 2, ++want_steps;
    if (x != 1) want_steps = -1;
    long long want_wide = (long long)i * 3 + (1LL << 40);
    if (out[i] != want || out2[i] != host_scale(in[i], 5) || tables[i] != want_table || steps[i] != want_steps ||
        wide[i] != want_wide) {
      std::fprintf(stderr, "i=%d: out %g/%g, again %g/%g, table %g/%g, steps %d/%d, wide %lld/%lld\n", i, out[i],
                   want, out2[i], host_scale(in[i], 5), tables[i], want_table, steps[i], want_steps, wide[i],
                   want_wide);
      ++bad;
    }
  }
  if (counter != n / 2) std::fprintf(stderr, "counter %d, expected %d\n", counter, n / 2), ++bad;

  const int tn = 300, blocks = 4;
  std::vector<unsigned char> text(tn);
  for (int i = 0; i < tn; ++i) text[i] = (unsigned char)('a' + (i * 7 + i / 5) % 6);
  unsigned char* d_text;
  int* d_counts;
  unsigned short* d_lasts;
  CUDA_CHECK(cudaMalloc(&d_text, tn));
  CUDA_CHECK(cudaMalloc(&d_counts, 2 * blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_lasts, 2 * blocks * sizeof(unsigned short)));
  CUDA_CHECK(cudaMemcpy(d_text, text.data(), tn, cudaMemcpyHostToDevice));
  bytes<<<blocks, 64>>>(d_text, tn, d_counts, d_lasts);
  CUDA_CHECK_LAST();
  int counts[2 * blocks];
  unsigned short lasts[2 * blocks];
  CUDA_CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(lasts, d_lasts, sizeof lasts, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    unsigned char c = (unsigned char)('a' + b);
    int whole = 0, tile = 0;
    for (int i = 0; i < tn; ++i) whole += text[i] == c;
    for (int i = 0; i < 64; ++i) tile += text[(b * 64 + i) % tn] == c;
    unsigned short last_whole = (unsigned short)(text[tn - 1] * 3), last_tile = (unsigned short)(text[(b * 64 + 63) % tn] * 3);
    if (counts[2 * b] != whole || counts[2 * b + 1] != tile || lasts[2 * b] != last_whole || lasts[2 * b + 1] != last_tile) {
      std::fprintf(stderr, "block %d: counts %d/%d %d/%d, lasts %u/%u %u/%u\n", b, counts[2 * b], whole,
                   counts[2 * b + 1], tile, lasts[2 * b], last_whole, lasts[2 * b + 1], last_tile);
      ++bad;
    }
  }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
