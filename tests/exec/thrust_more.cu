// thrust_more.cu -- more of Thrust and CUB as programs use them: sorts of
// structs by a comparator on a stream's execution policy, merge, set
// intersection, partition, remove_if with placeholders, Thrust's random
// engines in device code, shuffle and gather, adjacent differences, a zip
// iterator's sort, and CUB's run-length encoding, segmented reduction and
// merge sort with a comparator. Checked on the host; prints PASS.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/merge.h>
#include <thrust/set_operations.h>
#include <thrust/partition.h>
#include <thrust/remove.h>
#include <thrust/replace.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/adjacent_difference.h>
#include <thrust/tabulate.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/random.h>
#include <thrust/shuffle.h>
#include <cub/cub.cuh>
#include <cstdio>
struct P { float x, y; int id; };
struct byx { __host__ __device__ bool operator()(const P &a, const P &b) const { return a.x < b.x; } };
struct mk { __host__ __device__ P operator()(int i) const { return P{ (float)((i * 37) % 101), (float)i, i }; } };
struct rnd { __host__ __device__ float operator()(int i) const { thrust::default_random_engine e(1234); e.discard(i); thrust::uniform_real_distribution<float> d(0, 1); return d(e); } };
static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { std::fprintf(stderr, __VA_ARGS__); std::fputc('\n', stderr); ++fails; } } while (0)
int main() {
  const int n = 5000;
  cudaStream_t s; cudaStreamCreate(&s);
  thrust::device_vector<P> ps(n);
  thrust::tabulate(thrust::cuda::par.on(s), ps.begin(), ps.end(), mk());
  thrust::sort(thrust::cuda::par.on(s), ps.begin(), ps.end(), byx());
  P first = ps[0], last = ps[n - 1];
  CHECK(first.x == 0 && last.x == 100, "sort structs %f %f", first.x, last.x);
  thrust::device_vector<int> a(n), b(n), m(2 * n), si(n);
  thrust::sequence(a.begin(), a.end(), 0, 2); thrust::sequence(b.begin(), b.end(), 1, 2);
  thrust::merge(a.begin(), a.end(), b.begin(), b.end(), m.begin());
  CHECK(m[1] == 1 && m[2 * n - 1] == 2 * n - 1, "merge");
  thrust::sequence(b.begin(), b.end(), 0, 3);
  auto ie = thrust::set_intersection(a.begin(), a.end(), b.begin(), b.end(), si.begin());
  CHECK(ie - si.begin() > 0 && si[1] == 6, "set_intersection %d", (int)si[1]);
  auto pe = thrust::partition(a.begin(), a.end(), thrust::placeholders::_1 % 4 == 0);
  CHECK(pe - a.begin() == n / 2, "partition %d", (int)(pe - a.begin()));
  auto re = thrust::remove_if(a.begin(), a.end(), thrust::placeholders::_1 > 100);
  CHECK(re - a.begin() == 51, "remove_if %d", (int)(re - a.begin()));
  thrust::device_vector<float> r(n), g(n);
  thrust::tabulate(r.begin(), r.end(), rnd());
  float mean = thrust::reduce(r.begin(), r.end()) / n;
  CHECK(mean > 0.4 && mean < 0.6, "random mean %f", mean);
  thrust::device_vector<int> idx(n); thrust::sequence(idx.begin(), idx.end());
  thrust::shuffle(idx.begin(), idx.end(), thrust::default_random_engine(3));
  thrust::gather(idx.begin(), idx.end(), r.begin(), g.begin());
  float mean2 = thrust::reduce(g.begin(), g.end()) / n;
  CHECK(fabsf(mean2 - mean) < 1e-3, "gather mean %f %f", mean2, mean);
  thrust::device_vector<int> ad(n);
  thrust::adjacent_difference(b.begin(), b.end(), ad.begin());
  CHECK(ad[5] == 3, "adjacent_difference %d", (int)ad[5]);
  auto z = thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin()));
  thrust::sort(z, z + 100);
  // CUB device algorithms
  int *in, *out, *flags_out; int *num; cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&num, 4);
  thrust::host_vector<int> h(n); for (int i = 0; i < n; i++) h[i] = i / 10;
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
  int *uniq, *counts; cudaMalloc(&uniq, n * 4); cudaMalloc(&counts, n * 4);
  void *tmp = nullptr; size_t tb = 0;
  cub::DeviceRunLengthEncode::Encode(tmp, tb, in, uniq, counts, num, n); cudaMalloc(&tmp, tb);
  cub::DeviceRunLengthEncode::Encode(tmp, tb, in, uniq, counts, num, n);
  int hn; cudaMemcpy(&hn, num, 4, cudaMemcpyDeviceToHost);
  CHECK(hn == n / 10, "run length encode %d", hn);
  int *offs; cudaMalloc(&offs, 11 * 4); thrust::host_vector<int> ho(11); for (int i = 0; i <= 10; i++) ho[i] = i * (n / 10);
  cudaMemcpy(offs, ho.data(), 44, cudaMemcpyHostToDevice);
  int *sums; cudaMalloc(&sums, 40); void *t2 = nullptr; size_t t2b = 0;
  cub::DeviceSegmentedReduce::Sum(t2, t2b, in, sums, 10, offs, offs + 1); cudaMalloc(&t2, t2b);
  cub::DeviceSegmentedReduce::Sum(t2, t2b, in, sums, 10, offs, offs + 1);
  int hs[10]; cudaMemcpy(hs, sums, 40, cudaMemcpyDeviceToHost);
  int want0 = 0; for (int i = 0; i < n / 10; i++) want0 += i / 10;
  CHECK(hs[0] == want0, "segmented reduce %d %d", hs[0], want0);
  void *t3 = nullptr; size_t t3b = 0;
  cub::DeviceMergeSort::SortKeys(t3, t3b, in, n, cuda::std::greater<int>()); cudaMalloc(&t3, t3b);
  cub::DeviceMergeSort::SortKeys(t3, t3b, in, n, cuda::std::greater<int>());
  cudaMemcpy(h.data(), in, n * 4, cudaMemcpyDeviceToHost);
  CHECK(h[0] == n / 10 - 1 && h[n - 1] == 0, "merge sort desc %d %d", h[0], h[n-1]);
  cudaError_t e = cudaDeviceSynchronize();
  CHECK(e == cudaSuccess, "sync %s", cudaGetErrorString(e));
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
