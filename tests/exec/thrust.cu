// thrust.cu -- Thrust and CUB as programs use them, on CUDA 13's CCCL
// (sm_90 kernels: the bulk-copy transform, decoupled look-back scans and
// selections, onesweep radix sort): sort by key (stable), scans, copy_if
// and count_if, unique, minmax, transform_reduce and inner_product on
// doubles, binary search, reduce_by_key, and CUB's device radix sort and
// histogram called directly. Checked on the host; prints PASS.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/copy.h>
#include <thrust/unique.h>
#include <thrust/count.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/inner_product.h>
#include <thrust/binary_search.h>
#include <thrust/fill.h>
#include <cub/cub.cuh>
#include <cstdio>
struct is_even { __host__ __device__ bool operator()(int x) const { return x % 2 == 0; } };
struct square { __host__ __device__ double operator()(double x) const { return x * x; } };
static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { std::fprintf(stderr, __VA_ARGS__); std::fputc('\n', stderr); ++fails; } } while (0)
int main() {
  const int n = 10000;
  thrust::host_vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1000;
  thrust::device_vector<int> d = h;
  // sort by key with values, stable
  thrust::device_vector<int> vals(n);
  thrust::sequence(vals.begin(), vals.end());
  thrust::stable_sort_by_key(d.begin(), d.end(), vals.begin());
  thrust::host_vector<int> k2 = d, v2 = vals;
  bool sorted = true;
  for (int i = 1; i < n; i++) sorted = sorted && (k2[i-1] < k2[i] || (k2[i-1] == k2[i] && v2[i-1] < v2[i]));
  CHECK(sorted, "stable_sort_by_key");
  // inclusive / exclusive scans
  thrust::device_vector<int> ones(n, 1), sc(n);
  thrust::inclusive_scan(ones.begin(), ones.end(), sc.begin());
  CHECK(sc[n-1] == n, "inclusive_scan %d", (int)sc[n-1]);
  thrust::exclusive_scan(ones.begin(), ones.end(), sc.begin());
  CHECK(sc[n-1] == n-1, "exclusive_scan %d", (int)sc[n-1]);
  // copy_if, count_if, unique
  thrust::device_vector<int> ev(n);
  auto end = thrust::copy_if(d.begin(), d.end(), ev.begin(), is_even());
  int evens = (int)(end - ev.begin());
  CHECK(evens == thrust::count_if(d.begin(), d.end(), is_even()), "copy_if/count_if %d", evens);
  auto uend = thrust::unique(d.begin(), d.end());
  CHECK(uend - d.begin() == 1000, "unique %d", (int)(uend - d.begin()));
  // min/max, transform_reduce on double, inner product
  auto mm = thrust::minmax_element(d.begin(), uend);
  CHECK(*mm.first == 0 && *mm.second == 999, "minmax %d %d", (int)*mm.first, (int)*mm.second);
  thrust::device_vector<double> x(n);
  thrust::sequence(x.begin(), x.end(), 0.0, 0.5);
  double ss = thrust::transform_reduce(x.begin(), x.end(), square(), 0.0, thrust::plus<double>());
  double want = 0; for (int i = 0; i < n; i++) want += 0.25 * i * (double)i;
  CHECK(ss == want, "transform_reduce %f %f", ss, want);
  double ip = thrust::inner_product(x.begin(), x.end(), x.begin(), 0.0);
  CHECK(ip == want, "inner_product %f", ip);
  // binary search on sorted keys
  thrust::device_vector<int> q(3); q[0] = 5; q[1] = 500; q[2] = 2000;
  thrust::device_vector<bool> found(3);
  thrust::binary_search(d.begin(), uend, q.begin(), q.end(), found.begin());
  CHECK(found[0] && found[1] && !found[2], "binary_search");
  // reduce_by_key
  thrust::device_vector<int> keys(n), kout(n), vout(n);
  for (int i = 0; i < n; i++) keys[i] = i / 100;
  auto rb = thrust::reduce_by_key(keys.begin(), keys.end(), ones.begin(), kout.begin(), vout.begin());
  CHECK(rb.first - kout.begin() == 100 && vout[0] == 100, "reduce_by_key %d %d", (int)(rb.first - kout.begin()), (int)vout[0]);
  // cub device-wide radix sort and histogram directly
  int *in, *out; void *tmp = nullptr; size_t tmpb = 0;
  cudaMalloc(&in, n * sizeof(int)); cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cub::DeviceRadixSort::SortKeys(tmp, tmpb, in, out, n);
  cudaMalloc(&tmp, tmpb);
  cub::DeviceRadixSort::SortKeys(tmp, tmpb, in, out, n);
  thrust::host_vector<int> o(n);
  cudaMemcpy(o.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool s2 = true; for (int i = 1; i < n; i++) s2 = s2 && o[i-1] <= o[i];
  CHECK(s2, "cub radix sort");
  int *hist; cudaMalloc(&hist, 10 * sizeof(int));
  void *t2 = nullptr; size_t t2b = 0;
  cub::DeviceHistogram::HistogramEven(t2, t2b, in, hist, 11, 0, 1000, n);
  cudaMalloc(&t2, t2b);
  cub::DeviceHistogram::HistogramEven(t2, t2b, in, hist, 11, 0, 1000, n);
  int hh[10]; cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost);
  int tot = 0; for (int i = 0; i < 10; i++) tot += hh[i];
  CHECK(tot == n, "cub histogram total %d", tot);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaSuccess, "sync %s", cudaGetErrorString(e));
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
