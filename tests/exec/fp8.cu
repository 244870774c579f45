// fp8.cu -- the 8-bit floats of cuda_fp8.h on the device (PTX cvt with
// .e4m3x2 / .e5m2x2: cvt.rn.satfinite{.relu}.e4m3x2.f32, .f16x2 sources,
// and cvt.rn.f16x2.e4m3x2 back), checked bit for bit against the header's
// own host conversions; and %dynamic_smem_size. The inputs take in every
// binade of both formats, their subnormals, the halfway cases between two
// neighbours (ties to even), values past the largest finite one (clamped:
// .satfinite), infinities and NaN.
#include <cuda_fp8.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstring>
#include "common.cuh"

struct Out {
  unsigned short e4, e5, e4_half, e5_half, e4_relu;
  unsigned e4_back, e5_back;
};

__global__ void convert(const float2* in, Out* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = in[i];
  __half2_raw h = __half2(__floats2half2_rn(v.x, v.y));
  Out o;
  o.e4 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  o.e5 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E5M2);
  o.e4_half = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E4M3);
  o.e5_half = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E5M2);
  o.e4_relu = __nv_cvt_float2_to_fp8x2(make_float2(fmaxf(v.x, 0.f), fmaxf(v.y, 0.f)), __NV_SATFINITE, __NV_E4M3);
  __half2_raw b4 = __nv_cvt_fp8x2_to_halfraw2(o.e4, __NV_E4M3), b5 = __nv_cvt_fp8x2_to_halfraw2(o.e5, __NV_E5M2);
  o.e4_back = (unsigned)b4.y << 16 | b4.x;
  o.e5_back = (unsigned)b5.y << 16 | b5.x;
  out[i] = o;
}

__global__ void dynamic_size(unsigned* out) {
  extern __shared__ float dyn[];
  unsigned s;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(s));
  dyn[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s + (unsigned)dyn[5];
}

static unsigned short half_bits(__half h) { __half_raw r = h; return r.x; }

int main() {
  std::vector<float> vals = {0.f, -0.f, 1.f, -1.f, 0.5f, 448.f, 449.f, 464.f, 465.f, 480.f, 1e6f, -1e6f, 57344.f, 61440.f,
                             65504.f, INFINITY, -INFINITY, NAN, 1e-3f, -1e-3f, 1.953125e-3f, 9.765625e-4f, 1e-6f, 1e-8f,
                             3.0517578e-5f, 1.5258789e-5f, 7.6293945e-6f, 0.1f, 0.3f, 3.14159f, -2.71828f, 240.f, 17.f, 19.f};
  for (int e = -20; e <= 17; e++)  // every binade, and the points between neighbours
    for (int m = 0; m < 16; m++) vals.push_back(std::ldexp(1.0f + m / 16.0f, e) * (m & 1 ? -1.f : 1.f));
  int n = (int)vals.size();
  std::vector<float2> in(n);
  for (int i = 0; i < n; i++) in[i] = make_float2(vals[i], vals[(i * 7 + 3) % n]);
  float2* din;
  Out* dout;
  unsigned* dsz;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CUDA_CHECK(cudaMalloc(&dsz, sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  convert<<<(n + 127) / 128, 128>>>(din, dout, n);
  CUDA_CHECK_LAST();
  dynamic_size<<<1, 64, 1000>>>(dsz);
  CUDA_CHECK_LAST();
  std::vector<Out> out(n);
  unsigned sz = 0;
  CUDA_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&sz, dsz, sizeof sz, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    float2 v = in[i];
    __half2_raw h = __half2(__floats2half2_rn(v.x, v.y));
    unsigned short e4 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    unsigned short e5 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E5M2);
    unsigned short e4h = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E4M3);
    unsigned short e5h = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E5M2);
    unsigned short e4r = __nv_cvt_float2_to_fp8x2(make_float2(std::fmax(v.x, 0.f), std::fmax(v.y, 0.f)), __NV_SATFINITE, __NV_E4M3);
    __half2_raw b4 = __nv_cvt_fp8x2_to_halfraw2(e4, __NV_E4M3), b5 = __nv_cvt_fp8x2_to_halfraw2(e5, __NV_E5M2);
    unsigned back4 = (unsigned)b4.y << 16 | b4.x, back5 = (unsigned)b5.y << 16 | b5.x;
    const Out& o = out[i];
    if (o.e4 != e4 || o.e5 != e5 || o.e4_half != e4h || o.e5_half != e5h || o.e4_relu != e4r || o.e4_back != back4 ||
        o.e5_back != back5) {
      std::printf("(%g, %g): e4m3 %04x/%04x e5m2 %04x/%04x from halves %04x/%04x %04x/%04x relu %04x/%04x back "
                  "%08x/%08x %08x/%08x\n", v.x, v.y, o.e4, e4, o.e5, e5, o.e4_half, e4h, o.e5_half, e5h, o.e4_relu, e4r,
                  o.e4_back, back4, o.e5_back, back5);
      ok = false;
    }
  }
  (void)half_bits;
  if (sz != 1000 + 5) {
    std::printf("%%dynamic_smem_size read %u, want 1000\n", sz - 5);
    ok = false;
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
