// tiles.cu -- cooperative groups' tiles smaller than a warp, where each
// tile's collective must see its own lanes alone (redux.sync, vote.sync and
// elect.sync over the tile's member mask, which gpusim once took as the
// whole warp's): reductions (sum and max) over tiles of 16 and 8, any, all
// and ballot over tiles of 16, invoke_one per tile, an inclusive scan over
// a warp, a block-wide memcpy_async, and coalesced groups. Checked on the
// host; prints PASS.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include "common.cuh"
namespace cg = cooperative_groups;

struct Out {
  int sum16[256], max16[256], sum8[256], scan[256];
  int any16[256], all16[256];
  unsigned ballot16[256];
  int leaders, thirds;
};

__global__ void tiles(const int* in, Out* out) {
  auto block = cg::this_thread_block();
  __shared__ int buf[256];
  cg::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(int) * 256);
  cg::wait(block);
  int t = block.thread_rank(), v = buf[t];
  auto t16 = cg::tiled_partition<16>(block);
  auto t8 = cg::tiled_partition<8>(block);
  out->sum16[t] = cg::reduce(t16, v, cg::plus<int>());
  out->max16[t] = cg::reduce(t16, v, cg::greater<int>());
  out->sum8[t] = cg::reduce(t8, v, cg::plus<int>());
  out->scan[t] = cg::inclusive_scan(cg::tiled_partition<32>(block), v);
  out->any16[t] = t16.any(v == 7);
  out->all16[t] = t16.all(v < 40);
  out->ballot16[t] = t16.ballot(v % 2 == 1);
  cg::invoke_one(t16, [&] { atomicAdd(&out->leaders, 1); });
  if (t % 3 == 0) {
    auto sub = cg::coalesced_threads();
    int c = cg::reduce(sub, 1, cg::plus<int>());
    if (sub.thread_rank() == 0) atomicAdd(&out->thirds, c);
  }
}

int main() {
  int h[256];
  for (int i = 0; i < 256; i++) h[i] = (i * 37) % 50;
  int* in;
  Out* out;
  CUDA_CHECK(cudaMalloc(&in, sizeof h));
  CUDA_CHECK(cudaMalloc(&out, sizeof(Out)));
  CUDA_CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(out, 0, sizeof(Out)));
  tiles<<<1, 256>>>(in, out);
  CUDA_CHECK_LAST();
  Out o;
  CUDA_CHECK(cudaMemcpy(&o, out, sizeof o, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < 256; t++) {
    int b16 = t / 16 * 16, b8 = t / 8 * 8, b32 = t / 32 * 32;
    int s16 = 0, m16 = 0, s8 = 0, sc = 0, any = 0, all = 1;
    unsigned ballot = 0;
    for (int i = b16; i < b16 + 16; i++) {
      s16 += h[i];
      m16 = h[i] > m16 ? h[i] : m16;
      any |= h[i] == 7;
      all &= h[i] < 40;
      if (h[i] % 2 == 1) ballot |= 1u << (i - b16);  // a tile's ballot: bit r for its thread of rank r
    }
    for (int i = b8; i < b8 + 8; i++) s8 += h[i];
    for (int i = b32; i <= t; i++) sc += h[i];
    if (o.sum16[t] != s16 || o.max16[t] != m16 || o.sum8[t] != s8 || o.scan[t] != sc || o.any16[t] != any ||
        o.all16[t] != all) {
      if (bad++ < 4)
        std::fprintf(stderr, "thread %d: sum16 %d/%d max16 %d/%d sum8 %d/%d scan %d/%d any %d/%d all %d/%d\n", t,
                     o.sum16[t], s16, o.max16[t], m16, o.sum8[t], s8, o.scan[t], sc, o.any16[t], any, o.all16[t], all);
    }
    if (o.ballot16[t] != ballot && bad++ < 4)
      std::fprintf(stderr, "thread %d: ballot %08x, expected %08x\n", t, o.ballot16[t], ballot);
  }
  int thirds = 0;
  for (int t = 0; t < 256; t++) thirds += t % 3 == 0;
  if (o.leaders != 16 || o.thirds != thirds)
    std::fprintf(stderr, "leaders %d (16), coalesced %d (%d)\n", o.leaders, o.thirds, thirds), bad++;
  std::printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
