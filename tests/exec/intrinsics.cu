// intrinsics.cu -- the integer and warp intrinsics of the CUDA Math API and
// Programming Guide as programs call them: bit search (__ffs, __ffsll,
// __clz, __clzll, __popc, __brev, __brevll), byte dot products (__dp4a, __dp2a_lo,
// __dp2a_hi), 64-bit high
// products (__umul64hi, __mul64hi), __sad/__usad, __byte_perm, funnel
// shifts, warp matches (__match_any_sync, __match_all_sync), reductions (__reduce_*_sync),
// votes and shuffles, and 64-bit atomics. Each value is checked against a
// host model of the same operation (for the warp ones, of the whole warp).
#include <cstdint>
#include "common.cuh"

constexpr int kOut = 29;

__global__ void intrinsics(const int* x, long long* out, unsigned long long* atom) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  long long* o = out + (size_t)i * kOut;
  o[0] = __ffs(v);
  o[1] = __ffsll((long long)v << 20);
  o[2] = __clz(v);
  o[3] = __clzll((long long)v);
  o[4] = __popc(v);
  o[5] = (unsigned)__brev(v);
  o[6] = __dp4a(v, (int)0x80ff0203, 5);
  o[7] = __dp4a((unsigned)v, 0x01020304u, 7u);
  o[8] = (long long)__umul64hi((unsigned long long)v * 0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full);
  o[9] = __mul64hi((long long)((unsigned long long)(long long)v * (unsigned long long)-12345678901ll), 987654321987ll);
  o[10] = __mulhi(v, -7777777) + (long long)__umulhi((unsigned)v, 3000000000u);
  o[11] = __sad(v, (int)(0u - 3u * (unsigned)v), 11u) + (long long)__usad((unsigned)v, 12345u, 1u);
  o[12] = (unsigned)__byte_perm(v, 0x76543210, 0x5140);
  o[13] = (unsigned)__funnelshift_l((unsigned)v, 0xdeadbeefu, v & 63) ^ __funnelshift_rc((unsigned)v, 0xabcu, v & 63);
  o[14] = __match_any_sync(0xffffffffu, v & 3);
  o[15] = __match_any_sync(0xffffffffu, (unsigned long long)(v & 1) << 40);
  o[16] = __reduce_add_sync(0xffffffffu, (unsigned)v);
  o[17] = __reduce_min_sync(0xffffffffu, v) + (long long)__reduce_max_sync(0xffffffffu, (unsigned)v);
  o[18] = __reduce_and_sync(0xffffffffu, (unsigned)v | 0x100) ^ __reduce_or_sync(0xffffffffu, (unsigned)v) ^
          __reduce_xor_sync(0xffffffffu, (unsigned)v);
  o[19] = __shfl_xor_sync(0xffffffffu, v, 5) + __shfl_up_sync(0xffffffffu, v, 3) + __shfl_down_sync(0xffffffffu, v, 2);
  o[20] = __ballot_sync(0xffffffffu, v > 0) + __all_sync(0xffffffffu, v > -2000000000) * 2 + __any_sync(0xffffffffu, v == 7) * 4;
  o[21] = __popcll((unsigned long long)(unsigned)v * 0x100000001ull);
  o[22] = __sad(v, v >> 1, 0u);
  o[23] = max(v, -5) + min(v, 9) + abs(v % 100);
  int agree = 0, agree_wide = 0;
  o[24] = __match_all_sync(0xffffffffu, v & 3, &agree) + ((long long)agree << 32);
  o[25] = __match_all_sync(0xffffffffu, (unsigned long long)(i / 32) << 40, &agree_wide) + ((long long)agree_wide << 32);
  o[26] = __dp2a_lo(v, (int)0x80ff0203, -9);
  o[27] = (unsigned)__dp2a_hi((unsigned)v, 0xfe017f80u, 3u);
  o[28] = (long long)__brevll((unsigned long long)(long long)v * 0x9E3779B97F4A7C15ull);
  atomicMax((long long*)atom, (long long)v);
  atomicMin((long long*)atom + 1, (long long)v);
  atomicAdd(atom + 2, (unsigned long long)(unsigned)v);
  atomicCAS(atom + 3 + (i & 1), 0ull, (unsigned long long)i + 1);
}

static int ffs64(long long x) { return x ? __builtin_ctzll((unsigned long long)x) + 1 : 0; }
/* a's two 16-bit halves times b's bytes 0 and 1 (lo) or 2 and 3 (hi), plus c */
static int dp2a_host(uint32_t a, uint32_t b, int c, bool hi, bool sa, bool sb) {
  long long s = c;
  for (int k = 0; k < 2; k++) {
    uint32_t h = a >> (16 * k) & 0xffff, y = b >> (8 * (k + (hi ? 2 : 0))) & 0xff;
    s += (long long)(sa ? (int16_t)h : (int)h) * (sb ? (int8_t)y : (int)y);
  }
  return (int)s;
}

static int dp4a_host(uint32_t a, uint32_t b, int c, bool sa, bool sb) {
  long long s = c;
  for (int k = 0; k < 4; ++k) {
    int x = sa ? (int8_t)(a >> 8 * k) : (uint8_t)(a >> 8 * k), y = sb ? (int8_t)(b >> 8 * k) : (uint8_t)(b >> 8 * k);
    s += (long long)x * y;
  }
  return (int)s;
}
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t b = (uint64_t)y << 32 | x;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) r |= (uint32_t)(b >> 8 * ((s >> 4 * k) & 7) & 0xff) << 8 * k;
  return r;
}

int main() {
  const int n = 256, threads = 64, blocks = n / threads;
  std::vector<int> x(n);
  uint32_t s = 99;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    x[i] = i % 9 == 0 ? 0 : (int)s >> (i % 13);
  }
  x[7] = 7, x[8] = INT32_MIN, x[9] = -1;
  int* d_x;
  long long* d_out;
  unsigned long long* d_atom;
  unsigned long long atom0[5] = { (unsigned long long)LLONG_MIN, (unsigned long long)LLONG_MAX, 0, 0, 0 };
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * kOut * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&d_atom, sizeof atom0));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_atom, atom0, sizeof atom0, cudaMemcpyHostToDevice));
  intrinsics<<<blocks, threads>>>(d_x, d_out, d_atom);
  CUDA_CHECK_LAST();
  std::vector<long long> out((size_t)n * kOut);
  unsigned long long atom[5];
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(atom, d_atom, sizeof atom, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n && bad < 10; ++i) {
    int v = x[i], w0 = i / 32 * 32, lane = i % 32;
    long long want[kOut];
    want[0] = ffs64((unsigned)v);
    want[1] = ffs64((long long)v << 20);
    want[2] = v ? __builtin_clz((unsigned)v) : 32;
    want[3] = (long long)v ? __builtin_clzll((unsigned long long)(long long)v) : 64;
    want[4] = __builtin_popcount((unsigned)v);
    uint32_t r = 0;
    for (int k = 0; k < 32; ++k) r |= ((uint32_t)v >> k & 1) << (31 - k);
    want[5] = r;
    want[6] = dp4a_host((uint32_t)v, 0x80ff0203u, 5, true, true);
    want[7] = (unsigned)dp4a_host((uint32_t)v, 0x01020304u, 7, false, false);
    want[8] = (long long)(unsigned long long)((unsigned __int128)((unsigned long long)v * 0x9E3779B97F4A7C15ull) *
                                              0xC2B2AE3D27D4EB4Full >> 64);
    want[9] = (long long)((__int128)(long long)((unsigned long long)(long long)v * (unsigned long long)-12345678901ll) * 987654321987ll >> 64);
    want[10] = (int)((long long)v * -7777777 >> 32) + (long long)(unsigned)((unsigned long long)(unsigned)v * 3000000000u >> 32);
    long long d1 = (long long)v - (long long)(int)(0u - 3u * (unsigned)v);
    unsigned ud = (unsigned)v > 12345u ? (unsigned)v - 12345u : 12345u - (unsigned)v;
    want[11] = (long long)(unsigned)((unsigned)(d1 < 0 ? -d1 : d1) + 11u) + (long long)(unsigned)(ud + 1u);
    want[12] = byte_perm((uint32_t)v, 0x76543210u, 0x5140);
    uint32_t sh = (uint32_t)v & 31, shc = ((uint32_t)v & 63) > 32 ? 32 : (uint32_t)v & 63;
    uint64_t hl = (uint64_t)0xdeadbeefu << 32 | (uint32_t)v, hr = (uint64_t)0xabcu << 32 | (uint32_t)v;
    want[13] = (uint32_t)((hl << sh) >> 32) ^ (uint32_t)(hr >> shc);
    uint32_t m14 = 0, m15 = 0, bal = 0;
    long long sum = 0;
    int mn = INT32_MAX;
    uint32_t mx = 0, an = 0xffffffffu, orr = 0, xr = 0;
    bool all = true, any = false;
    for (int k = 0; k < 32; ++k) {
      int u = x[w0 + k];
      if ((u & 3) == (v & 3)) m14 |= 1u << k;
      if ((u & 1) == (v & 1)) m15 |= 1u << k;
      sum += (unsigned)u;
      mn = u < mn ? u : mn;
      mx = (unsigned)u > mx ? (unsigned)u : mx;
      an &= (unsigned)u | 0x100, orr |= (unsigned)u, xr ^= (unsigned)u;
      if (u > 0) bal |= 1u << k;
      all = all && u > -2000000000;
      any = any || u == 7;
    }
    want[14] = m14, want[15] = m15;
    want[16] = (unsigned)sum;
    want[17] = (long long)mn + (long long)mx;
    want[18] = an ^ orr ^ xr;
    want[19] = x[w0 + (lane ^ 5)] + (lane >= 3 ? x[i - 3] : v) + (lane + 2 < 32 ? x[i + 2] : v);
    want[20] = (unsigned)(bal + all * 2 + any * 4); /* __ballot_sync is unsigned: so is the sum */
    want[21] = 2 * __builtin_popcount((unsigned)v);
    long long d2 = (long long)v - (long long)(v >> 1);
    want[22] = (unsigned)(d2 < 0 ? -d2 : d2);
    want[23] = (v > -5 ? v : -5) + (v < 9 ? v : 9) + (v % 100 < 0 ? -(v % 100) : v % 100);
    want[24] = m14 == 0xffffffffu ? 0xffffffffll + (1ll << 32) : 0;  /* every lane's v & 3 alike, or not */
    want[25] = 0xffffffffll + (1ll << 32);                            /* i / 32: one value a warp */
    want[26] = dp2a_host((uint32_t)v, 0x80ff0203u, -9, false, true, true);
    want[27] = (unsigned)dp2a_host((uint32_t)v, 0xfe017f80u, 3, true, false, false);
    uint64_t h = (unsigned long long)(long long)v * 0x9E3779B97F4A7C15ull, rh = 0;
    for (int k = 0; k < 64; ++k) rh |= (h >> k & 1) << (63 - k);
    want[28] = (long long)rh;
    for (int k = 0; k < kOut; ++k)
      if (out[(size_t)i * kOut + k] != want[k]) {
        std::fprintf(stderr, "thread %d (x %d) value %d: got %lld, expected %lld\n", i, v, k, out[(size_t)i * kOut + k],
                     want[k]);
        ++bad;
      }
  }
  long long amax = LLONG_MIN, amin = LLONG_MAX;
  unsigned long long asum = 0;
  for (int v : x) amax = v > amax ? v : amax, amin = v < amin ? v : amin, asum += (unsigned)v;
  if ((long long)atom[0] != amax || (long long)atom[1] != amin || atom[2] != asum || atom[3] == 0 || atom[4] == 0 ||
      atom[3] % 2 != 1 || atom[4] % 2 != 0) {
    std::fprintf(stderr, "atomics: %lld %lld %llu %llu %llu\n", (long long)atom[0], (long long)atom[1], atom[2], atom[3],
                 atom[4]);
    ++bad;
  }
  if (bad) {
    std::printf("FAIL\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
