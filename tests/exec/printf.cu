// printf.cu -- device printf as students debug with it: from several blocks
// and warps, under a branch, with ints, unsigned, 64-bit integers, floats
// (passed as doubles), doubles, chars, strings, widths, precisions and
// flags, and %%. Its stdout is compared with printf.expected (sorted: CUDA
// gives no order between threads) by tests/e2e_exec.sh; the return value
// of printf (characters printed) is checked here, and that the printf
// buffer's size (cudaLimitPrintfFifoSize) can be set before a kernel that
// prints has run and not after.
#include "common.cuh"

__global__ void hello(int* lengths, float scale, long long big) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 16 == 3) {
    lengths[i] = printf("block %d thread %3d: %u %lld %.3f %e|%-5s|%c %x %5.1f%%\n", blockIdx.x, threadIdx.x,
                        (unsigned)i * 2654435761u, big * i, scale * i, (double)i / 3.0, i & 1 ? "odd" : "even",
                        'a' + i % 26, i, 100.0 * i / 64);
  } else {
    lengths[i] = 0;
  }
  if (i == 0) printf("no arguments\n");
}

int main() {
  const int threads = 64, blocks = 3, n = threads * blocks;
  int* d_len;
  CUDA_CHECK(cudaMalloc(&d_len, n * sizeof(int)));
  size_t fifo = 0;  // the printf buffer: 1 MiB, settable until a kernel that prints has run
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2u << 20));
  CUDA_CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  int bad = fifo != 2u << 20;
  hello<<<blocks, threads>>>(d_len, 0.25f, 1ll << 40);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());
  if (cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4u << 20) != cudaErrorInvalidValue) {
    std::fprintf(stderr, "the printf buffer changed after a kernel printed\n");
    ++bad;
  }
  cudaGetLastError();
  std::vector<int> len(n);
  CUDA_CHECK(cudaMemcpy(len.data(), d_len, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int want = 0;
    if (i % threads % 16 == 3) {
      char buf[512];
      want = std::snprintf(buf, sizeof buf, "block %d thread %3d: %u %lld %.3f %e|%-5s|%c %x %5.1f%%\n", i / threads,
                           i % threads, (unsigned)i * 2654435761u, (1ll << 40) * i, (double)(0.25f * i), (double)i / 3.0,
                           i & 1 ? "odd" : "even", 'a' + i % 26, i, 100.0 * i / 64);
    }
    if (len[i] != want) {
      std::fprintf(stderr, "thread %d: printf returned %d, expected %d\n", i, len[i], want);
      ++bad;
    }
  }
  std::printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
