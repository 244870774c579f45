// texture.cu -- texture and surface objects on CUDA arrays, linear and
// pitched memory: tex1Dfetch (zeros out of range), tex1D/2D/3D with point and
// linear filtering, normalized coordinates, wrap/clamp/border addressing,
// uchar4 read as normalized floats and as elements, a half-float texture, a
// 2D layered texture, tex2Dgather; cube maps (texCubemap after surface
// writes to its faces, texCubemapLayered); surfaces read and written (2D float, 1D
// uchar4 with the zero boundary mode, a clamped read); array copies
// (cudaMemcpy2DToArray/FromArray, cudaMemcpy3D to and from a 3D array); the
// descriptor queries and the errors CUDA gives; last, a surface write out
// of bounds in trap mode, which ends the kernel with cudaErrorIllegalAddress.
// Each result is checked against the sampling rules computed on the host
// (linear filtering's weights in 9-bit fixed point, 8 fractional bits);
// prints PASS.
#include <cuda_fp16.h>

#include "common.cuh"

static int failures = 0;
#define EXPECT(cond, ...)                \
  do {                                   \
    if (!(cond)) {                       \
      std::fprintf(stderr, __VA_ARGS__); \
      std::fputc('\n', stderr);          \
      ++failures;                        \
    }                                    \
  } while (0)

__global__ void fetch1d(cudaTextureObject_t t, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);  // two below the start: zeros
}

__global__ void sample2d(cudaTextureObject_t t, const float2* at, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void sample2d4(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}

__global__ void elements2d(cudaTextureObject_t t, uchar4* out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<uchar4>(t, x, y);
}

__global__ void sample1d(cudaTextureObject_t t, const float* at, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, at[i]);
}

__global__ void sample3d(cudaTextureObject_t t, float* out, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x % h, z = blockIdx.x / h;
  if (x < w && z < d) out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void layered(cudaTextureObject_t t, float* out, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x % h, l = blockIdx.x / h;
  if (x < w && l < layers) out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void gather(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, at[i].x, at[i].y, 1);  // channel y
}

// a cube map's faces written through a surface: face f, texel (x, y) holds 1000 c + 100 f + 10 y + x
__global__ void fill_faces(cudaSurfaceObject_t s, int side, int cube) {
  int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x;
  float v = 1000.f * cube + 100.f * f + 10.f * y + x;
  if (cube == 0) surfCubemapwrite(v, s, x * 4, y, f);
  else surfCubemapLayeredwrite(v, s, x * 4, y, cube * 6 + f);
}

__global__ void sample_cube(cudaTextureObject_t t, const float4* dir, float* out, int n, int layered_cube) {
  int i = threadIdx.x;
  if (i >= n) return;
  if (layered_cube < 0) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
  else out[i] = texCubemapLayered<float>(t, dir[i].x, dir[i].y, dir[i].z, layered_cube);
}

__global__ void scale_surface(cudaSurfaceObject_t s, int w, int h, float k) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x >= w || y >= h) return;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(v * k + y, s, x * 4, y);
}

__global__ void zero_mode(cudaSurfaceObject_t s, uchar4* read_back, int w) {
  int x = threadIdx.x;  // lanes past w read zeros and write nothing
  uchar4 v = surf1Dread<uchar4>(s, x * 4, cudaBoundaryModeZero);
  read_back[x] = v;
  surf1Dwrite(make_uchar4(v.x + 1, v.y + 1, v.z + 1, v.w + 1), s, x * 4, cudaBoundaryModeZero);
}

__global__ void clamp_read(cudaSurfaceObject_t s, float* out, int w) {
  int x = threadIdx.x - 3;  // three lanes to the left of the surface, three to its right
  surf2Dread(&out[threadIdx.x], s, x * 4, 0, cudaBoundaryModeClamp);
  (void)w;
}

__global__ void trap_write(cudaSurfaceObject_t s, int w) {
  surf2Dwrite(1.0f, s, (w + threadIdx.x) * 4, 0);  // past the right edge: the default trap mode
}

// The host's rules: texel index and weight of one dimension, as CUDA's
// appendix describes them (9-bit fixed point: 8 fractional bits).
static float frac_q8(float u) {
  float f = u - std::floor(u);
  return std::nearbyint(f * 256.0f) / 256.0f;
}

static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
static int wrapi(int i, int n) { return ((i % n) + n) % n; }

int main() {
  // 1. tex1Dfetch on linear memory
  {
    const int n = 40;
    std::vector<float> v(n);
    for (int i = 0; i < n; i++) v[i] = 1.5f * i;
    float *dv, *dout;
    CUDA_CHECK(cudaMalloc(&dv, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, (n + 4) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dv, v.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = dv;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    fetch1d<<<1, 64>>>(t, dout, n + 4);
    CUDA_CHECK_LAST();
    std::vector<float> got(n + 4);
    CUDA_CHECK(cudaMemcpy(got.data(), dout, (n + 4) * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n + 4; i++) {
      int j = i - 2;
      float want = j >= 0 && j < n ? v[j] : 0.0f;
      EXPECT(got[i] == want, "tex1Dfetch(%d): got %g, expected %g", j, got[i], want);
    }
    cudaResourceDesc back;
    CUDA_CHECK(cudaGetTextureObjectResourceDesc(&back, t));
    EXPECT(back.resType == cudaResourceTypeLinear && back.res.linear.devPtr == dv, "the resource description came back changed");
    CUDA_CHECK(cudaDestroyTextureObject(t));
    EXPECT(cudaDestroyTextureObject(t) == cudaErrorInvalidValue, "a texture object destroyed twice");
    cudaGetLastError();
    CUDA_CHECK(cudaFree(dv));
    CUDA_CHECK(cudaFree(dout));
  }

  // 2. a 2D float array: point sampling with clamp, then linear filtering
  //    with normalized coordinates and wrap, then border
  const int w = 13, h = 7;
  std::vector<float> img(w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) img[y * w + x] = (float)((x * 3 + y * 5) % 10);
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CUDA_CHECK(cudaMallocArray(&arr, &fdesc, w, h));
  CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  {
    std::vector<float> round(w * h, -1.0f);
    CUDA_CHECK(cudaMemcpy2DFromArray(round.data(), w * sizeof(float), arr, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    EXPECT(round == img, "a 2D array copied in and out changed");
    cudaChannelFormatDesc got_desc;
    cudaExtent ext;
    unsigned flags = 99;
    CUDA_CHECK(cudaArrayGetInfo(&got_desc, &ext, &flags, arr));
    EXPECT(got_desc.x == 32 && got_desc.f == cudaChannelFormatKindFloat && ext.width == (size_t)w && ext.height == (size_t)h &&
               ext.depth == 0 && flags == 0,
           "cudaArrayGetInfo: %d bits kind %d, %zu x %zu x %zu, flags %u", got_desc.x, (int)got_desc.f, ext.width, ext.height,
           ext.depth, flags);
  }
  const int np = 64;
  std::vector<float2> at(np);
  for (int i = 0; i < np; i++) at[i] = make_float2(-2.0f + 0.37f * i, -1.0f + 0.19f * i);
  float2* dat;
  float* dres;
  float4* dres4;
  CUDA_CHECK(cudaMalloc(&dat, np * sizeof(float2)));
  CUDA_CHECK(cudaMalloc(&dres, np * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dres4, np * sizeof(float4)));
  CUDA_CHECK(cudaMemcpy(dat, at.data(), np * sizeof(float2), cudaMemcpyHostToDevice));
  std::vector<float> res(np);
  for (int mode = 0; mode < 3; mode++) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    if (mode == 0) {  // point, unnormalized, clamp
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
      td.filterMode = cudaFilterModePoint;
    } else if (mode == 1) {  // linear, normalized, wrap
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
      td.filterMode = cudaFilterModeLinear;
      td.normalizedCoords = 1;
    } else {  // linear, unnormalized, border colour 7
      td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
      td.filterMode = cudaFilterModeLinear;
      td.borderColor[0] = 7.0f;
    }
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    if (mode == 1) {
      cudaTextureDesc back;
      CUDA_CHECK(cudaGetTextureObjectTextureDesc(&back, t));
      EXPECT(back.normalizedCoords == 1 && back.filterMode == cudaFilterModeLinear && back.addressMode[1] == cudaAddressModeWrap,
             "the texture description came back changed");
    }
    // normalized coordinates: the same points as fractions of the extent
    std::vector<float2> pts(at);
    if (mode == 1)
      for (auto& p : pts) p = make_float2(p.x / w, p.y / h);
    CUDA_CHECK(cudaMemcpy(dat, pts.data(), np * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d<<<1, np>>>(t, dat, dres, np);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(res.data(), dres, np * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < np; i++) {
      float want;
      if (mode == 0) {
        want = img[clampi((int)std::floor(pts[i].y), h) * w + clampi((int)std::floor(pts[i].x), w)];
      } else {
        float u = (mode == 1 ? (pts[i].x - std::floor(pts[i].x)) * w : pts[i].x) - 0.5f;
        float v = (mode == 1 ? (pts[i].y - std::floor(pts[i].y)) * h : pts[i].y) - 0.5f;
        int i0 = (int)std::floor(u), j0 = (int)std::floor(v);
        float a = frac_q8(u), b = frac_q8(v);
        auto T = [&](int x, int y) {
          if (mode == 1) return img[wrapi(y, h) * w + wrapi(x, w)];
          return x < 0 || x >= w || y < 0 || y >= h ? 7.0f : img[y * w + x];
        };
        want = (1 - a) * (1 - b) * T(i0, j0) + a * (1 - b) * T(i0 + 1, j0) + (1 - a) * b * T(i0, j0 + 1) + a * b * T(i0 + 1, j0 + 1);
      }
      EXPECT(std::fabs(res[i] - want) <= 1e-4f, "2D mode %d at (%g, %g): got %g, expected %g", mode, pts[i].x, pts[i].y, res[i],
             want);
    }
    CUDA_CHECK(cudaDestroyTextureObject(t));
  }

  // 3. uchar4: normalized floats, and the elements themselves; a 2D gather
  {
    const int cw = 9, ch = 4;
    std::vector<uchar4> px(cw * ch);
    for (int i = 0; i < cw * ch; i++) px[i] = make_uchar4(i * 7, 255 - i, i * 3, 200);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ca;
    CUDA_CHECK(cudaMallocArray(&ca, &cd, cw, ch, cudaArrayTextureGather));
    CUDA_CHECK(cudaMemcpy2DToArray(ca, 0, 0, px.data(), cw * 4, cw * 4, ch, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = ca;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tn, te;
    CUDA_CHECK(cudaCreateTextureObject(&tn, &rd, &td, nullptr));
    td.readMode = cudaReadModeElementType;
    CUDA_CHECK(cudaCreateTextureObject(&te, &rd, &td, nullptr));
    std::vector<float2> pts(cw * ch);
    for (int i = 0; i < cw * ch; i++) pts[i] = make_float2(i % cw + 0.5f, i / cw + 0.5f);
    CUDA_CHECK(cudaMemcpy(dat, pts.data(), cw * ch * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d4<<<1, cw * ch>>>(tn, dat, dres4, cw * ch);
    uchar4* dpx;
    CUDA_CHECK(cudaMalloc(&dpx, cw * ch * sizeof(uchar4)));
    elements2d<<<ch, cw>>>(te, dpx, cw, ch);
    CUDA_CHECK_LAST();
    std::vector<float4> f(cw * ch);
    std::vector<uchar4> e(cw * ch);
    CUDA_CHECK(cudaMemcpy(f.data(), dres4, cw * ch * sizeof(float4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(e.data(), dpx, cw * ch * sizeof(uchar4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < cw * ch; i++) {
      EXPECT(std::fabs(f[i].x - px[i].x / 255.0f) < 1e-6f && std::fabs(f[i].y - px[i].y / 255.0f) < 1e-6f &&
                 std::fabs(f[i].w - 200 / 255.0f) < 1e-6f,
             "uchar4 as normalized floats at %d: got (%g, %g, %g, %g)", i, f[i].x, f[i].y, f[i].z, f[i].w);
      EXPECT(e[i].x == px[i].x && e[i].y == px[i].y && e[i].z == px[i].z && e[i].w == px[i].w, "uchar4 elements at %d differ", i);
    }
    // gather: channel y of the four texels around each point, (i0,j1) (i1,j1) (i1,j0) (i0,j0)
    const int ng = 8;
    std::vector<float2> gp(ng);
    for (int i = 0; i < ng; i++) gp[i] = make_float2(0.3f + 1.1f * i, 0.2f + 0.45f * i);
    CUDA_CHECK(cudaMemcpy(dat, gp.data(), ng * sizeof(float2), cudaMemcpyHostToDevice));
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tg;
    CUDA_CHECK(cudaCreateTextureObject(&tg, &rd, &td, nullptr));
    gather<<<1, ng>>>(tg, dat, dres4, ng);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(f.data(), dres4, ng * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < ng; i++) {
      int i0 = (int)std::floor(gp[i].x - 0.5f), j0 = (int)std::floor(gp[i].y - 0.5f);
      auto Y = [&](int x, int y) { return px[clampi(y, ch) * cw + clampi(x, cw)].y / 255.0f; };
      float want[4] = { Y(i0, j0 + 1), Y(i0 + 1, j0 + 1), Y(i0 + 1, j0), Y(i0, j0) };
      float got[4] = { f[i].x, f[i].y, f[i].z, f[i].w };
      for (int c = 0; c < 4; c++)
        EXPECT(std::fabs(got[c] - want[c]) < 1e-6f, "tex2Dgather %d component %d: got %g, expected %g", i, c, got[c], want[c]);
    }
    CUDA_CHECK(cudaDestroyTextureObject(tn));
    CUDA_CHECK(cudaDestroyTextureObject(te));
    CUDA_CHECK(cudaDestroyTextureObject(tg));
    CUDA_CHECK(cudaFreeArray(ca));
    CUDA_CHECK(cudaFree(dpx));
  }

  // 4. a 1D half-float array, linear filtering: the texels read as floats
  {
    const int n = 10;
    std::vector<__half> hv(n);
    for (int i = 0; i < n; i++) hv[i] = __float2half(0.25f * i * i);
    cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
    cudaArray_t ha;
    CUDA_CHECK(cudaMallocArray(&ha, &hd, n, 0));
    CUDA_CHECK(cudaMemcpy2DToArray(ha, 0, 0, hv.data(), n * 2, n * 2, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = ha;
    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    std::vector<float> xs(16);
    for (int i = 0; i < 16; i++) xs[i] = -0.5f + 0.77f * i;
    float* dxs;
    CUDA_CHECK(cudaMalloc(&dxs, 16 * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dxs, xs.data(), 16 * sizeof(float), cudaMemcpyHostToDevice));
    sample1d<<<1, 16>>>(t, dxs, dres, 16);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(res.data(), dres, 16 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) {
      float u = xs[i] - 0.5f, a = frac_q8(u);
      int i0 = (int)std::floor(u);
      float want = (1 - a) * __half2float(hv[clampi(i0, n)]) + a * __half2float(hv[clampi(i0 + 1, n)]);
      EXPECT(std::fabs(res[i] - want) <= 1e-4f, "half tex1D(%g): got %g, expected %g", xs[i], res[i], want);
    }
    CUDA_CHECK(cudaDestroyTextureObject(t));
    CUDA_CHECK(cudaFreeArray(ha));
    CUDA_CHECK(cudaFree(dxs));
  }

  // 5. a 3D array through cudaMemcpy3D, point sampled; and back out
  {
    const int xw = 6, yh = 5, zd = 4, nv = xw * yh * zd;
    std::vector<float> vol(nv), back(nv, -1.0f);
    for (int i = 0; i < nv; i++) vol[i] = 0.5f * i;
    cudaArray_t va;
    CUDA_CHECK(cudaMalloc3DArray(&va, &fdesc, make_cudaExtent(xw, yh, zd)));
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(vol.data(), xw * sizeof(float), xw, yh);
    up.dstArray = va;
    up.extent = make_cudaExtent(xw, yh, zd);
    up.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3D(&up));
    cudaMemcpy3DParms down = {};
    down.srcArray = va;
    down.dstPtr = make_cudaPitchedPtr(back.data(), xw * sizeof(float), xw, yh);
    down.extent = make_cudaExtent(xw, yh, zd);
    down.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3D(&down));
    EXPECT(back == vol, "a 3D array copied in and out changed");
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = va;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    float* dv;
    CUDA_CHECK(cudaMalloc(&dv, nv * sizeof(float)));
    sample3d<<<yh * zd, xw>>>(t, dv, xw, yh, zd);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(back.data(), dv, nv * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(back == vol, "tex3D at texel centres differs from the volume");
    CUDA_CHECK(cudaDestroyTextureObject(t));
    CUDA_CHECK(cudaFreeArray(va));
    CUDA_CHECK(cudaFree(dv));
  }

  // 6. a 2D layered array
  {
    const int lw = 8, lh = 3, nl = 5, nv = lw * lh * nl;
    std::vector<float> v(nv), back(nv);
    for (int i = 0; i < nv; i++) v[i] = (float)(i * 11 % 17);
    cudaArray_t la;
    CUDA_CHECK(cudaMalloc3DArray(&la, &fdesc, make_cudaExtent(lw, lh, nl), cudaArrayLayered));
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(v.data(), lw * sizeof(float), lw, lh);
    up.dstArray = la;
    up.extent = make_cudaExtent(lw, lh, nl);
    up.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3D(&up));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = la;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    float* dv;
    CUDA_CHECK(cudaMalloc(&dv, nv * sizeof(float)));
    layered<<<lh * nl, lw>>>(t, dv, lw, lh, nl);
    CUDA_CHECK_LAST();
    CUDA_CHECK(cudaMemcpy(back.data(), dv, nv * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(back == v, "tex2DLayered differs from the layers");
    CUDA_CHECK(cudaDestroyTextureObject(t));
    CUDA_CHECK(cudaFreeArray(la));
    CUDA_CHECK(cudaFree(dv));
  }

  // 6b. cube maps: directions through each face's texel centres (the
  //     programming guide's face table, inverted), point sampled
  {
    const int side = 4, nd = 6 * side * side;
    std::vector<float4> dirs(nd);
    std::vector<float> want(nd);
    for (int f = 0; f < 6; f++)
      for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
          float s = 2 * (x + 0.5f) / side - 1, t = 2 * (y + 0.5f) / side - 1, dx, dy, dz;
          switch (f) {
            case 0: dx = 1, dy = -t, dz = -s; break;
            case 1: dx = -1, dy = -t, dz = s; break;
            case 2: dx = s, dy = 1, dz = t; break;
            case 3: dx = s, dy = -1, dz = -t; break;
            case 4: dx = s, dy = -t, dz = 1; break;
            default: dx = -s, dy = -t, dz = -1; break;
          }
          int i = (f * side + y) * side + x;
          dirs[i] = make_float4(2 * dx, 2 * dy, 2 * dz, 0);
          want[i] = 100.f * f + 10.f * y + x;
        }
    float4* ddir;
    float* dv;
    CUDA_CHECK(cudaMalloc(&ddir, nd * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&dv, nd * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(ddir, dirs.data(), nd * sizeof(float4), cudaMemcpyHostToDevice));
    for (int layered = 0; layered < 2; layered++) {
      cudaArray_t ca;
      CUDA_CHECK(cudaMalloc3DArray(&ca, &fdesc, make_cudaExtent(side, side, layered ? 12 : 6),
                                   cudaArrayCubemap | cudaArraySurfaceLoadStore | (layered ? cudaArrayLayered : 0)));
      cudaResourceDesc rd = {};
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = ca;
      cudaSurfaceObject_t cs;
      CUDA_CHECK(cudaCreateSurfaceObject(&cs, &rd));
      for (int cube = 0; cube <= layered; cube++) fill_faces<<<6, dim3(side, side)>>>(cs, side, cube);
      cudaTextureDesc td = {};
      td.readMode = cudaReadModeElementType;
      cudaTextureObject_t t;
      CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
      sample_cube<<<1, nd>>>(t, ddir, dv, nd, layered ? 1 : -1);
      CUDA_CHECK_LAST();
      std::vector<float> got(nd);
      CUDA_CHECK(cudaMemcpy(got.data(), dv, nd * sizeof(float), cudaMemcpyDeviceToHost));
      for (int i = 0; i < nd; i++)
        EXPECT(got[i] == want[i] + 1000.f * layered, "cube map%s direction %d (%g, %g, %g): got %g, expected %g",
               layered ? " (layered, cube 1)" : "", i, dirs[i].x, dirs[i].y, dirs[i].z, got[i], want[i] + 1000.f * layered);
      CUDA_CHECK(cudaDestroyTextureObject(t));
      CUDA_CHECK(cudaDestroySurfaceObject(cs));
      CUDA_CHECK(cudaFreeArray(ca));
    }
    cudaArray_t bad;
    EXPECT(cudaMalloc3DArray(&bad, &fdesc, make_cudaExtent(4, 5, 6), cudaArrayCubemap) == cudaErrorInvalidValue,
           "a cube map of 4 x 5 faces was made");
    cudaGetLastError();
    CUDA_CHECK(cudaFree(ddir));
    CUDA_CHECK(cudaFree(dv));
  }

  // 7. a pitched 2D texture on cudaMallocPitch memory, point sampled
  {
    float* dp;
    size_t pitch;
    CUDA_CHECK(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
    CUDA_CHECK(cudaMemcpy2D(dp, pitch, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = dp;
    rd.res.pitch2D.desc = fdesc;
    rd.res.pitch2D.width = w;
    rd.res.pitch2D.height = h;
    rd.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CUDA_CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    std::vector<float2> pts(w * h);
    for (int i = 0; i < w * h; i++) pts[i] = make_float2(i % w + 0.5f, i / w + 0.5f);
    float2* dpts;
    float* dv;
    CUDA_CHECK(cudaMalloc(&dpts, w * h * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&dv, w * h * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dpts, pts.data(), w * h * sizeof(float2), cudaMemcpyHostToDevice));
    sample2d<<<(w * h + 31) / 32, 32>>>(t, dpts, dv, w * h);
    CUDA_CHECK_LAST();
    std::vector<float> back(w * h);
    CUDA_CHECK(cudaMemcpy(back.data(), dv, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(back == img, "a pitched 2D texture differs from its rows");
    rd.res.pitch2D.pitchInBytes = w * sizeof(float) + 4;  // not a multiple of the pitch alignment
    cudaTextureObject_t bad;
    EXPECT(cudaCreateTextureObject(&bad, &rd, &td, nullptr) == cudaErrorInvalidValue, "an unaligned pitch was taken");
    cudaGetLastError();
    CUDA_CHECK(cudaDestroyTextureObject(t));
    CUDA_CHECK(cudaFree(dp));
    CUDA_CHECK(cudaFree(dpts));
    CUDA_CHECK(cudaFree(dv));
  }

  // 8. surfaces
  cudaArray_t sa;
  CUDA_CHECK(cudaMallocArray(&sa, &fdesc, w, h, cudaArraySurfaceLoadStore));
  CUDA_CHECK(cudaMemcpy2DToArray(sa, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
  cudaResourceDesc srd = {};
  srd.resType = cudaResourceTypeArray;
  srd.res.array.array = arr;  // made without cudaArraySurfaceLoadStore
  cudaSurfaceObject_t s;
  EXPECT(cudaCreateSurfaceObject(&s, &srd) == cudaErrorInvalidValue, "a surface on an array without load/store was made");
  cudaGetLastError();
  srd.res.array.array = sa;
  CUDA_CHECK(cudaCreateSurfaceObject(&s, &srd));
  scale_surface<<<h, 32>>>(s, w, h, 2.0f);
  CUDA_CHECK_LAST();
  {
    std::vector<float> back(w * h);
    CUDA_CHECK(cudaMemcpy2DFromArray(back.data(), w * sizeof(float), sa, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; i++)
      EXPECT(back[i] == img[i] * 2.0f + i / w, "surface element %d: got %g, expected %g", i, back[i], img[i] * 2.0f + i / w);
    float* dv;
    CUDA_CHECK(cudaMalloc(&dv, 32 * sizeof(float)));
    clamp_read<<<1, w + 6>>>(s, dv, w);
    CUDA_CHECK_LAST();
    std::vector<float> got(w + 6);
    CUDA_CHECK(cudaMemcpy(got.data(), dv, (w + 6) * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < w + 6; i++)
      EXPECT(got[i] == back[clampi(i - 3, w)], "clamped surface read at x = %d: got %g, expected %g", i - 3, got[i],
             back[clampi(i - 3, w)]);
    CUDA_CHECK(cudaFree(dv));
  }
  {
    const int n = 20;
    std::vector<uchar4> px(n);
    for (int i = 0; i < n; i++) px[i] = make_uchar4(i, 2 * i, 3 * i, 4 * i);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t ua;
    CUDA_CHECK(cudaMallocArray(&ua, &cd, n, 0, cudaArraySurfaceLoadStore));
    CUDA_CHECK(cudaMemcpy2DToArray(ua, 0, 0, px.data(), n * 4, n * 4, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = ua;
    cudaSurfaceObject_t us;
    CUDA_CHECK(cudaCreateSurfaceObject(&us, &rd));
    uchar4* drb;
    CUDA_CHECK(cudaMalloc(&drb, 32 * sizeof(uchar4)));
    zero_mode<<<1, 32>>>(us, drb, n);
    CUDA_CHECK_LAST();
    std::vector<uchar4> rb(32), after(n);
    CUDA_CHECK(cudaMemcpy(rb.data(), drb, 32 * sizeof(uchar4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy2DFromArray(after.data(), n * 4, ua, 0, 0, n * 4, 1, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
      uchar4 want = i < n ? px[i] : make_uchar4(0, 0, 0, 0);
      EXPECT(rb[i].x == want.x && rb[i].w == want.w, "zero-mode surface read at %d: got %d, expected %d", i, rb[i].x, want.x);
    }
    for (int i = 0; i < n; i++)
      EXPECT(after[i].x == px[i].x + 1 && after[i].w == (unsigned char)(px[i].w + 1), "zero-mode surface write at %d", i);
    CUDA_CHECK(cudaDestroySurfaceObject(us));
    CUDA_CHECK(cudaFreeArray(ua));
    CUDA_CHECK(cudaFree(drb));
  }

  // 9. the limits the device reports, as CUDA reports them for sm_80 and sm_90
  int lim[4];
  CUDA_CHECK(cudaDeviceGetAttribute(&lim[0], cudaDevAttrMaxTexture2DWidth, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&lim[1], cudaDevAttrMaxTexture3DDepth, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&lim[2], cudaDevAttrMaxTextureCubemapLayeredLayers, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&lim[3], cudaDevAttrMaxTexture2DMipmappedWidth, 0));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(lim[0] == 131072 && lim[1] == 16384 && lim[2] == 2046 && lim[3] == 0 && prop.maxTexture1D == 131072 &&
             prop.maxSurface2D[1] == 65536 && prop.maxTextureCubemap == 32768,
         "texture limits: %d %d %d %d", lim[0], lim[1], lim[2], lim[3]);

  // 10. errors: a bad array, and a surface write out of bounds in trap mode
  EXPECT(cudaFreeArray((cudaArray_t)&failures) == cudaErrorInvalidValue, "a made-up array was freed");
  cudaGetLastError();
  trap_write<<<1, 32>>>(s, w);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorIllegalAddress, "a surface write out of bounds gave %s", cudaGetErrorName(e));
  if (failures) {
    std::printf("FAIL: %d check(s)\n", failures);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
