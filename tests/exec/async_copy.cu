// async_copy.cu -- asynchronous copies into shared memory and the barriers
// that wait for them, in the forms CUDA programs write: the pipeline
// primitives (__pipeline_memcpy_async of 4, 8 and 16 bytes, with zero fill,
// double-buffered with __pipeline_wait_prior(1)), cooperative groups'
// memcpy_async and wait, cuda::memcpy_async completing on a cuda::barrier
// reused tile after tile (with 16-byte aligned sizes too: sm_90's bulk
// copy, completing on the barrier's byte count), cuda::pipeline (a thread's own, and a block's
// with its shared state), and cuda::barrier on its own as a split
// arrive/wait with arrive_and_drop. Each kernel's output is checked
// against the host's. Prints PASS.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include "common.cuh"

namespace cg = cooperative_groups;
constexpr int TILE = 128;

// Sums each 128-element tile of `in` (a block walks `tiles` tiles), loading
// the next tile while it adds the current one: two stages, 16-byte copies.
__global__ void tile_sums_pipelined(const float4* in, float* out, int tiles) {
  __shared__ float4 buf[2][TILE / 4];
  const float4* base = in + (size_t)blockIdx.x * tiles * (TILE / 4);
  if (threadIdx.x < TILE / 4) __pipeline_memcpy_async(&buf[0][threadIdx.x], &base[threadIdx.x], 16);
  __pipeline_commit();
  for (int t = 0; t < tiles; t++) {
    if (t + 1 < tiles && threadIdx.x < TILE / 4)
      __pipeline_memcpy_async(&buf[(t + 1) & 1][threadIdx.x], &base[(t + 1) * (TILE / 4) + threadIdx.x], 16);
    __pipeline_commit();
    __pipeline_wait_prior(1);  // tile t is in; t + 1 may still be on its way
    __syncthreads();
    if (threadIdx.x == 0) {
      float s = 0;
      for (int k = 0; k < TILE / 4; k++) s += buf[t & 1][k].x + buf[t & 1][k].y + buf[t & 1][k].z + buf[t & 1][k].w;
      out[blockIdx.x * tiles + t] = s;
    }
    __syncthreads();  // the buffer is refilled next
  }
}

// 4- and 8-byte copies, and a zero fill: element i of a row of n keeps its
// value when i < n and is 0 past it (the copy reads none of its bytes).
__global__ void narrow_and_zfill(const int* in, const int2* in2, int* out, int2* out2, int n) {
  __shared__ int a[64];
  __shared__ int2 b[64];
  int i = threadIdx.x;
  __pipeline_memcpy_async(&a[i], &in[i < n ? i : 0], 4, i < n ? 0 : 4);
  __pipeline_memcpy_async(&b[i], &in2[i], 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = a[63 - i];
  out2[i] = b[63 - i];
}

// cooperative groups: the whole block copies a tile, then waits for it.
__global__ void cg_reverse(const float* in, float* out) {
  __shared__ float tile[TILE];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * TILE, sizeof(float) * TILE);
  cg::wait(block);
  out[blockIdx.x * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

// cuda::memcpy_async completing on a barrier, the barrier reused per tile:
// each tile's squares summed per thread.
__global__ void barrier_tiles(const float* in, float* out, int tiles) {
  __shared__ float tile[TILE];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  float acc = 0;
  for (int t = 0; t < tiles; t++) {
    cuda::memcpy_async(block, tile, in + ((size_t)blockIdx.x * tiles + t) * TILE, sizeof(float) * TILE, bar);
    bar.arrive_and_wait();
    float v = tile[(threadIdx.x * 7) % TILE];
    acc += v * v;
    bar.arrive_and_wait();  // everyone has read the tile before it is refilled
  }
  out[blockIdx.x * TILE + threadIdx.x] = acc;
}

// The same with 16-byte aligned sizes (cuda::aligned_size_t<16>): on sm_90
// one thread's bulk copy (cp.async.bulk, the TMA) completing on the
// barrier's byte count, elsewhere cp.async; each tile reversed by float4.
__global__ void bulk_tiles(const float4* in, float4* out, int tiles) {
  __shared__ alignas(16) float4 tile[TILE / 4];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  for (int t = 0; t < tiles; t++) {
    const float4* src = in + ((size_t)blockIdx.x * tiles + t) * (TILE / 4);
    cuda::memcpy_async(block, tile, src, cuda::aligned_size_t<16>(sizeof(float4) * (TILE / 4)), bar);
    bar.arrive_and_wait();
    float4 v = tile[TILE / 4 - 1 - threadIdx.x];
    out[((size_t)blockIdx.x * tiles + t) * (TILE / 4) + threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
    bar.arrive_and_wait();  // read before the next tile lands
  }
}

// A thread's own pipeline of two stages (cuda::make_pipeline()).
__global__ void thread_pipeline(const int* in, int* out, int per_thread) {
  __shared__ int stage[2][TILE];
  auto pipe = cuda::make_pipeline();
  const int* mine = in + ((size_t)blockIdx.x * TILE + threadIdx.x) * per_thread;
  int acc = 0;
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[0][threadIdx.x], mine, sizeof(int), pipe);
  pipe.producer_commit();
  for (int k = 0; k < per_thread; k++) {
    if (k + 1 < per_thread) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[(k + 1) & 1][threadIdx.x], mine + k + 1, sizeof(int), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc = acc * 3 + stage[k & 1][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * TILE + threadIdx.x] = acc;
}

// A block's pipeline (shared state in shared memory, two stages).
__global__ void block_pipeline(const float* in, float* out, int tiles) {
  constexpr int STAGES = 2;
  __shared__ float stage[STAGES][TILE];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0;
  for (int fetch = 0, use = 0; use < tiles; use++) {
    for (; fetch < tiles && fetch < use + STAGES; fetch++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage[fetch % STAGES], in + ((size_t)blockIdx.x * tiles + fetch) * TILE,
                         sizeof(float) * TILE, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += stage[use % STAGES][TILE - 1 - threadIdx.x] * (use + 1);
    pipe.consumer_release();
  }
  out[blockIdx.x * TILE + threadIdx.x] = acc;
}

// cuda::barrier alone: warps 1.. produce, warp 0 waits for each round;
// then the producers drop out and warp 0 goes on alone on the same barrier.
__global__ void split_barrier(int* out, int rounds) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int slot[TILE];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  int total = 0;
  for (int r = 0; r < rounds; r++) {
    slot[threadIdx.x] = r * 1000 + threadIdx.x;
    auto token = bar.arrive();  // the write above happens before the phase ends
    bar.wait(std::move(token));
    total += slot[(threadIdx.x + 32) % TILE];
    bar.arrive_and_wait();  // all reads done before the next round's writes
  }
  if (threadIdx.x >= 32) {
    bar.arrive_and_drop();  // from now on the barrier expects warp 0 alone
    out[threadIdx.x] = total;
    return;
  }
  bar.arrive_and_wait();  // the phase the others dropped out of
  for (int r = 0; r < 3; r++) bar.arrive_and_wait();  // 32 arrivals now complete a phase
  out[threadIdx.x] = total + 1;
}

int main() {
  // tile_sums_pipelined
  const int blocks = 6, tiles = 5, n = blocks * tiles * TILE;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 101) - 50.0f;
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  tile_sums_pipelined<<<blocks, 64>>>((const float4*)d_in, d_out, tiles);
  CUDA_CHECK_LAST();
  std::vector<float> sums(blocks * tiles);
  CUDA_CHECK(cudaMemcpy(sums.data(), d_out, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int t = 0; t < blocks * tiles; t++) {
    float s = 0;
    for (int k = 0; k < TILE; k += 4) s += h[t * TILE + k] + h[t * TILE + k + 1] + h[t * TILE + k + 2] + h[t * TILE + k + 3];
    if (sums[t] != s) { std::fprintf(stderr, "tile_sums_pipelined: tile %d: %g, expected %g\n", t, sums[t], s); return 1; }
  }

  // narrow_and_zfill
  std::vector<int> ia(64), ib(128);
  for (int i = 0; i < 64; i++) ia[i] = 1000 + i;
  for (int i = 0; i < 128; i++) ib[i] = -i;
  int *d_ia, *d_ib, *d_oa, *d_ob;
  CUDA_CHECK(cudaMalloc(&d_ia, 64 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ib, 128 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_oa, 64 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ob, 128 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_ia, ia.data(), 64 * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_ib, ib.data(), 128 * sizeof(int), cudaMemcpyHostToDevice));
  narrow_and_zfill<<<1, 64>>>(d_ia, (const int2*)d_ib, d_oa, (int2*)d_ob, 40);
  CUDA_CHECK_LAST();
  std::vector<int> oa(64), ob(128);
  CUDA_CHECK(cudaMemcpy(oa.data(), d_oa, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ob.data(), d_ob, 128 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) {
    int src = 63 - i, want = src < 40 ? 1000 + src : 0;
    if (oa[i] != want || ob[2 * i] != -2 * src || ob[2 * i + 1] != -2 * src - 1) {
      std::fprintf(stderr, "narrow_and_zfill: element %d: %d (%d, %d), expected %d (%d, %d)\n", i, oa[i], ob[2 * i],
                   ob[2 * i + 1], want, -2 * src, -2 * src - 1);
      return 1;
    }
  }

  // cg_reverse
  cg_reverse<<<blocks, TILE>>>(d_in, d_out);
  CUDA_CHECK_LAST();
  std::vector<float> rev(blocks * TILE);
  CUDA_CHECK(cudaMemcpy(rev.data(), d_out, rev.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < blocks * TILE; i++)
    if (rev[i] != h[(i / TILE) * TILE + TILE - 1 - i % TILE]) { std::fprintf(stderr, "cg_reverse: element %d\n", i); return 1; }

  // barrier_tiles (blocks * tiles tiles of in)
  barrier_tiles<<<blocks, TILE>>>(d_in, d_out, tiles);
  CUDA_CHECK_LAST();
  std::vector<float> sq(blocks * TILE);
  CUDA_CHECK(cudaMemcpy(sq.data(), d_out, sq.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int x = 0; x < TILE; x++) {
      float acc = 0;
      for (int t = 0; t < tiles; t++) {
        float v = h[((size_t)b * tiles + t) * TILE + (x * 7) % TILE];
        acc += v * v;
      }
      if (sq[b * TILE + x] != acc) { std::fprintf(stderr, "barrier_tiles: block %d thread %d: %g, expected %g\n", b, x, sq[b * TILE + x], acc); return 1; }
    }

  // bulk_tiles: each tile of in reversed
  bulk_tiles<<<blocks, TILE / 4>>>((const float4*)d_in, (float4*)d_out, tiles);
  CUDA_CHECK_LAST();
  std::vector<float> bt(n);
  CUDA_CHECK(cudaMemcpy(bt.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (bt[i] != h[(i / TILE) * TILE + TILE - 1 - i % TILE]) {
      std::fprintf(stderr, "bulk_tiles: element %d: %g, expected %g\n", i, bt[i], h[(i / TILE) * TILE + TILE - 1 - i % TILE]);
      return 1;
    }

  // thread_pipeline
  const int per = 4, tb = 2;
  std::vector<int> hi(tb * TILE * per);
  for (size_t i = 0; i < hi.size(); i++) hi[i] = (int)(i % 13) - 6;
  int *d_hi, *d_ho;
  CUDA_CHECK(cudaMalloc(&d_hi, hi.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ho, tb * TILE * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_hi, hi.data(), hi.size() * sizeof(int), cudaMemcpyHostToDevice));
  thread_pipeline<<<tb, TILE>>>(d_hi, d_ho, per);
  CUDA_CHECK_LAST();
  std::vector<int> ho(tb * TILE);
  CUDA_CHECK(cudaMemcpy(ho.data(), d_ho, ho.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < tb * TILE; t++) {
    int acc = 0;
    for (int k = 0; k < per; k++) acc = acc * 3 + hi[(size_t)t * per + k];
    if (ho[t] != acc) { std::fprintf(stderr, "thread_pipeline: thread %d: %d, expected %d\n", t, ho[t], acc); return 1; }
  }

  // block_pipeline
  block_pipeline<<<blocks, TILE>>>(d_in, d_out, tiles);
  CUDA_CHECK_LAST();
  std::vector<float> bp(blocks * TILE);
  CUDA_CHECK(cudaMemcpy(bp.data(), d_out, bp.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int x = 0; x < TILE; x++) {
      float acc = 0;
      for (int t = 0; t < tiles; t++) acc += h[((size_t)b * tiles + t) * TILE + TILE - 1 - x] * (t + 1);
      if (bp[b * TILE + x] != acc) { std::fprintf(stderr, "block_pipeline: block %d thread %d: %g, expected %g\n", b, x, bp[b * TILE + x], acc); return 1; }
    }

  // split_barrier
  const int rounds = 4;
  split_barrier<<<1, TILE>>>(d_ho, rounds);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(ho.data(), d_ho, TILE * sizeof(int), cudaMemcpyDeviceToHost));
  for (int x = 0; x < TILE; x++) {
    int total = 0;
    for (int r = 0; r < rounds; r++) total += r * 1000 + (x + 32) % TILE;
    int want = x >= 32 ? total : total + 1;
    if (ho[x] != want) { std::fprintf(stderr, "split_barrier: thread %d: %d, expected %d\n", x, ho[x], want); return 1; }
  }
  std::printf("PASS\n");
  return 0;
}
