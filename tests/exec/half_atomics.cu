// half_atomics.cu -- atomicAdd on __half, __half2, __nv_bfloat16 and
// __nv_bfloat162 (PTX atom.add.noftz.f16 / .f16x2 / .bf16 / .bf16x2), in
// global and in shared memory, and atomicCAS on an unsigned short (PTX
// atom.cas.b16): counters incremented by compare-and-swap loops, each
// beside a sentinel half-word the swaps must leave alone. The sums are of small integers, exact in
// both types, so the results are known exactly; the old values returned
// are each a distinct partial sum.
#include "common.cuh"
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void sums(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2, float* olds) {
  __shared__ __half sh;
  __shared__ __nv_bfloat162 sb2;
  if (threadIdx.x == 0) sh = __float2half(0.f), sb2 = __floats2bfloat162_rn(0.f, 0.f);
  __syncthreads();
  int t = threadIdx.x;
  __half old = atomicAdd(&h[t % 4], __float2half(1.f));                     // 4 counters, 64 adds each
  atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
  atomicAdd(&b[t % 2], __float2bfloat16(2.f));                               // 2 counters, 128 adds each
  atomicAdd(b2, __floats2bfloat162_rn(-1.f, 0.5f));
  atomicAdd(&sh, __float2half(0.5f));
  atomicAdd(&sb2, __floats2bfloat162_rn(1.f, 4.f));
  __syncthreads();
  olds[t] = __half2float(old);
  if (t == 0) olds[256] = __half2float(sh), olds[257] = __low2float(sb2), olds[258] = __high2float(sb2);
}

__global__ void cas16(unsigned short* g, unsigned short* out) {
  __shared__ unsigned short s[2];
  if (threadIdx.x == 0) s[0] = 0, s[1] = 0xbeef;
  __syncthreads();
  unsigned short* counters[2] = { g, s };
  for (int k = 0; k < 2; k++) {
    unsigned short *p = counters[k], old = *p, assumed;
    do {
      assumed = old;
      old = atomicCAS(p, assumed, (unsigned short)(assumed + 3));
    } while (old != assumed);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[0], out[1] = s[1];
}

int main() {
  __half* h;
  __half2* h2;
  __nv_bfloat16* b;
  __nv_bfloat162* b2;
  float* olds;
  CUDA_CHECK(cudaMalloc(&h, 4 * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&h2, sizeof(__half2)));
  CUDA_CHECK(cudaMalloc(&b, 2 * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&b2, sizeof(__nv_bfloat162)));
  CUDA_CHECK(cudaMalloc(&olds, 259 * sizeof(float)));
  CUDA_CHECK(cudaMemset(h, 0, 4 * sizeof(__half)));
  CUDA_CHECK(cudaMemset(h2, 0, sizeof(__half2)));
  CUDA_CHECK(cudaMemset(b, 0, 2 * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMemset(b2, 0, sizeof(__nv_bfloat162)));
  sums<<<1, 256>>>(h, h2, b, b2, olds);
  CUDA_CHECK_LAST();
  __half hh[4];
  __half2 hh2;
  __nv_bfloat16 bb[2];
  __nv_bfloat162 bb2;
  std::vector<float> o(259);
  CUDA_CHECK(cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&hh2, h2, sizeof hh2, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(bb, b, sizeof bb, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&bb2, b2, sizeof bb2, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(o.data(), olds, o.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 4; i++) ok &= __half2float(hh[i]) == 64.f;
  ok &= __low2float(hh2) == 256.f && __high2float(hh2) == 512.f;
  ok &= __bfloat162float(bb[0]) == 256.f && __bfloat162float(bb[1]) == 256.f;
  ok &= __low2float(bb2) == -256.f && __high2float(bb2) == 128.f;
  ok &= o[256] == 128.f && o[257] == 256.f && o[258] == 1024.f;
  std::vector<int> seen(4 * 64, 0);  // each counter's old values: 0 .. 63, once each
  for (int t = 0; t < 256; t++) {
    int v = (int)o[t];
    if (v < 0 || v >= 64 || seen[(t % 4) * 64 + v]++) ok = false;
  }
  if (!ok)
    std::printf("h %g %g %g %g, h2 %g %g, b %g %g, b2 %g %g, shared %g %g %g\n", __half2float(hh[0]), __half2float(hh[1]),
                __half2float(hh[2]), __half2float(hh[3]), __low2float(hh2), __high2float(hh2), __bfloat162float(bb[0]),
                __bfloat162float(bb[1]), __low2float(bb2), __high2float(bb2), o[256], o[257], o[258]);
  unsigned short *g16, *o16, init[2] = { 7, 0xcafe }, got[2], shared_got[2];
  CUDA_CHECK(cudaMalloc(&g16, sizeof init));
  CUDA_CHECK(cudaMalloc(&o16, sizeof shared_got));
  CUDA_CHECK(cudaMemcpy(g16, init, sizeof init, cudaMemcpyHostToDevice));
  cas16<<<3, 200>>>(g16, o16);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaMemcpy(got, g16, sizeof got, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(shared_got, o16, sizeof shared_got, cudaMemcpyDeviceToHost));
  bool cas_ok = got[0] == 7 + 3 * 600 && got[1] == 0xcafe && shared_got[0] == 3 * 200 && shared_got[1] == 0xbeef;
  if (!cas_ok) std::printf("cas: global %u %#x, shared %u %#x\n", got[0], got[1], shared_got[0], shared_got[1]);
  ok &= cas_ok;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
