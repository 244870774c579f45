// virtual_functions.cu -- C++ virtual functions and tables of function
// pointers in device code: objects of three classes made with new in one
// kernel (each lane its own class, so a warp's virtual call goes three
// ways), their virtual methods called from another through a base-class
// pointer, one method overriding a base's that calls the base's, deleted
// through a virtual destructor that counts its calls; and __device__ tables
// in initializers: of function pointers, of strings, a pointer into an
// array. PTX: .global tables of .u64 that name .func (_ZTV*), loaded and
// called through a register with a .callprototype; generic($str) and
// generic(values)+8 in initializers. Checked on the host; CI builds it with
// -O3 and with -G.
#include "common.cuh"

__device__ int destroyed;

struct Shape {
  float size;
  __device__ explicit Shape(float s) : size(s) {}
  __device__ virtual float area() const = 0;
  __device__ virtual float scaled(float k) const { return k * area(); }
  __device__ virtual ~Shape() { atomicAdd(&destroyed, 1); }
};
struct Square : Shape {
  __device__ explicit Square(float s) : Shape(s) {}
  __device__ float area() const override { return size * size; }
};
struct Circle : Shape {
  __device__ explicit Circle(float s) : Shape(s) {}
  __device__ float area() const override { return 3.0f * size * size; }
};
struct Ring : Circle {
  __device__ explicit Ring(float s) : Circle(s) {}
  __device__ float area() const override { return Circle::area() - 1.0f; }
  __device__ float scaled(float k) const override { return Shape::scaled(k) + 0.5f; }
};

typedef int (*int_op)(int, int);
__device__ int plus(int a, int b) { return a + b; }
__device__ int minus(int a, int b) { return a - b; }
__device__ int times(int a, int b) { return a * b; }
__device__ int_op table[3] = {plus, minus, times};
__device__ const char* names[3] = {"square", "circle", "ring"};
__device__ int values[4] = {5, 6, 7, 8};
__device__ int* third = &values[2];

__global__ void make(Shape** objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = (float)(i % 10);
  if (i % 3 == 0) objs[i] = new Square(s);
  else if (i % 3 == 1) objs[i] = new Circle(s);
  else objs[i] = new Ring(s);
}

__global__ void use(Shape* const* objs, float* area, float* scaled, int* ops, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  area[i] = objs[i]->area();
  scaled[i] = objs[i]->scaled(2.0f);
  ops[i] = table[i % 3](i, 7) + 1000 * names[i % 3][1] + 100000 * third[i % 2];
}

__global__ void destroy(Shape** objs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) delete objs[i];
}

int main() {
  const int n = 200;
  Shape** objs;
  float *area, *scaled;
  int* ops;
  CUDA_CHECK(cudaMalloc(&objs, n * sizeof(Shape*)));
  CUDA_CHECK(cudaMallocManaged(&area, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&scaled, n * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&ops, n * sizeof(int)));
  make<<<(n + 63) / 64, 64>>>(objs, n);
  CUDA_CHECK_LAST();
  use<<<(n + 63) / 64, 64>>>(objs, area, scaled, ops, n);
  CUDA_CHECK_LAST();
  destroy<<<(n + 63) / 64, 64>>>(objs, n);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());
  int gone = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&gone, destroyed, sizeof gone));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    float s = (float)(i % 10);
    float a = i % 3 == 0 ? s * s : i % 3 == 1 ? 3.0f * s * s : 3.0f * s * s - 1.0f;
    float k = 2.0f * a + (i % 3 == 2 ? 0.5f : 0.0f);
    int o = (i % 3 == 0 ? i + 7 : i % 3 == 1 ? i - 7 : i * 7) + 1000 * "qii"[i % 3] + 100000 * (i % 2 ? 8 : 7);
    if (area[i] != a) std::printf("area[%d] = %g, want %g\n", i, area[i], a), ok = false;
    if (scaled[i] != k) std::printf("scaled[%d] = %g, want %g\n", i, scaled[i], k), ok = false;
    if (ops[i] != o) std::printf("ops[%d] = %d, want %d\n", i, ops[i], o), ok = false;
  }
  if (gone != n) std::printf("%d objects destroyed, want %d\n", gone, n), ok = false;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
