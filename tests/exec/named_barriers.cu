// named_barriers.cu -- the block's 16 barriers by name (PTX bar.sync a, b;
// bar.arrive a, b; bar.red with a barrier and a count), as warp-specialized
// kernels write them in inline asm: a producer half of the block fills a
// shared buffer and arrives at barrier 1, the consumer half waits there,
// reads, and arrives at barrier 2, which the producers wait at before they
// refill. Then a reduction over the consumer half alone (bar.red on barrier
// 3 with 64 threads), a barrier named by registers, and a whole-block
// barrier other than 0. Launched twice so that `--max-launches 1` runs the
// second untimed (the functional path). Checked against the host.
#include "common.cuh"

__device__ __forceinline__ void sync_named(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void arrive_named(unsigned id, unsigned threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// 128 threads: warps 0-1 produce, warps 2-3 consume, `tiles` tiles of 64.
__global__ void pipeline(const float* in, float* out, int* counts, int tiles) {
  __shared__ float buf[64];
  __shared__ int total;
  int t = threadIdx.x, base = blockIdx.x * tiles * 64;
  if (t == 0) total = 0;
  asm volatile("bar.sync 5;" ::: "memory");  // a whole-block barrier other than 0
  for (int i = 0; i < tiles; i++) {
    if (t < 64) {
      if (i > 0) asm volatile("bar.sync 2, 128;" ::: "memory");  // the consumers are done with buf
      buf[t] = in[base + i * 64 + t] * 2.0f;
      asm volatile("bar.arrive 1, 128;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 128;" ::: "memory");
      float v = buf[t - 64] + 1.0f;
      out[base + i * 64 + t - 64] = v;
      arrive_named(2, 128);
      // the consumers alone count the values above 10, each one of them told the count
      int big;
      asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.f32 p, %1, 0f41200000;\n\tbar.red.popc.u32 %0, 3, 64, p;\n\t}"
                   : "=r"(big)
                   : "f"(v)
                   : "memory");
      if (t == 64) atomicAdd(&total, big);
    }
  }
  sync_named(7, blockDim.x);  // by registers, the whole block
  if (t == 0) counts[blockIdx.x] = total;
}

int main() {
  const int blocks = 6, tiles = 5, n = blocks * tiles * 64;
  std::vector<float> in(n);
  for (int i = 0; i < n; i++) in[i] = (float)((i * 7) % 13) - 2.0f;
  float *din, *dout;
  int* dcounts;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dcounts, blocks * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  bool ok = true;
  for (int launch = 0; launch < 2 && ok; launch++) {
    CUDA_CHECK(cudaMemset(dout, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dcounts, 0, blocks * sizeof(int)));
    pipeline<<<blocks, 128>>>(din, dout, dcounts, tiles);
    CUDA_CHECK_LAST();
    std::vector<float> out(n);
    std::vector<int> counts(blocks);
    CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts.data(), dcounts, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks && ok; b++) {
      int big = 0;
      for (int i = 0; i < tiles * 64; i++) {
        float want = in[b * tiles * 64 + i] * 2.0f + 1.0f;
        big += want > 10.0f;
        if (out[b * tiles * 64 + i] != want) {
          std::printf("launch %d block %d value %d: %g, want %g\n", launch, b, i, out[b * tiles * 64 + i], want);
          ok = false;
          break;
        }
      }
      if (ok && counts[b] != big) {
        std::printf("launch %d block %d: %d values above 10, want %d\n", launch, b, counts[b], big);
        ok = false;
      }
    }
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
