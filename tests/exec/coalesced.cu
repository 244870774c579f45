// coalesced.cu -- cooperative_groups::coalesced_threads() in a branch taken
// by every third lane: its ranks, its size and a shuffle by rank, which
// CUDA's headers compute with __fns (PTX fns.b32) and __popc. Checked on
// the host; CI builds it with -O3 and with -G, whose PTX keeps every
// helper cooperative groups has.
#include <cooperative_groups.h>
#include "common.cuh"
namespace cg = cooperative_groups;
__global__ void k(int *o) {
  int t = threadIdx.x;
  if (t % 3 == 0) {
    auto c = cg::coalesced_threads();
    int v = c.shfl(t * 10, 1) + c.thread_rank() * 1000 + c.size() * 100000;  // rank 1 of the coalesced lanes
    o[t] = v;
  } else o[t] = -1;
}
int main() {
  int *d; cudaMalloc(&d, 64 * 4); k<<<1, 64>>>(d); int h[64]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int t = 0; t < 64; t++) {
    int want = -1;
    if (t % 3 == 0) { int w = t / 32 * 32, first = -1, second = -1, rank = 0, size = 0;
      for (int l = w; l < w + 32; l++) if (l % 3 == 0) { if (first < 0) first = l; else if (second < 0) second = l; if (l < t) rank++; size++; }
      want = second * 10 + rank * 1000 + size * 100000; }
    if (h[t] != want) { printf("t %d: %d want %d\n", t, h[t], want); ok = false; }
  }
  printf("%s\n", ok ? "PASS" : "FAIL"); return !ok;
}
