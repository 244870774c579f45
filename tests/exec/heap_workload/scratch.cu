// scratch.cu -- a kernel that takes scratch memory with malloc, for
// heap.json: gpusim run gives a workload's kernels the device heap too.
__global__ void scratch(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float* t = static_cast<float*>(malloc(4 * sizeof(float)));
  if (!t) return;  // out[i] stays 0: the check fails
  for (int k = 0; k < 4; k++) t[k] = static_cast<float>(i + k);
  if (i < n) out[i] = t[0] + t[1] + t[2] + t[3];
  free(t);
}
