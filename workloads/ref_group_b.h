/* workloads/ref_group_b.h -- CPU references of the reduction, rmsnorm, gemv,
** gemm and compaction workloads (workloads/ref_group_b.c). Each is a RefFn
** (workloads/reference.h); the rows that name them are in the REFERENCES
** table of workloads/reference.c. Sums are computed in double: the kernels
** add in another order in float, so their checks carry an rtol that covers
** the float rounding (the workload files say how much and why).          */
#ifndef GPUSIM_WORKLOADS_REF_GROUP_B_H
#define GPUSIM_WORKLOADS_REF_GROUP_B_H

#include "workloads/reference.h"

/* (in f32[], sum f32[], n): sum[0] += in[0] + ... + in[n-1]. */
bool ref_b_sum(const RefCall *call, void *out, char *msg, size_t cap);

/* (x f32[], w f32[], y f32[], hidden, eps), one block per row (grid.x rows):
** y[t][j] = x[t][j] / sqrt(mean_j x[t][j]^2 + eps) * w[j]. */
bool ref_b_rmsnorm(const RefCall *call, void *out, char *msg, size_t cap);

/* (x, r, w, h, y f32[], hidden, eps), grid.x rows: h = x + r (float). */
bool ref_b_fused_residual(const RefCall *call, void *out, char *msg, size_t cap);
/* the same call: y = rmsnorm(x + r) * w. */
bool ref_b_fused_rmsnorm(const RefCall *call, void *out, char *msg, size_t cap);

/* (A f32[], x f32[], y f32[], n): y = A x, A n x n row-major. */
bool ref_b_gemv(const RefCall *call, void *out, char *msg, size_t cap);

/* (A f32[], B f32[], C f32[], n): C = A B, all n x n row-major. */
bool ref_b_gemm(const RefCall *call, void *out, char *msg, size_t cap);

/* (x f32[], y f32[], n, threshold, iters): y[i] = x[i] > threshold ?
** f^iters(x[i]) with f(v) = fmaf(v, 0.999f, 0.5f) : x[i] * 0.5f, i < n. */
bool ref_b_special(const RefCall *call, void *out, char *msg, size_t cap);
/* (x f32[], y f32[], list u32[], count u32[], n, threshold, iters): the
** same y (ref_b_compact_y) and count[0] += #{i < n : x[i] > threshold}
** (ref_b_compact_count). */
bool ref_b_compact_y(const RefCall *call, void *out, char *msg, size_t cap);
bool ref_b_compact_count(const RefCall *call, void *out, char *msg, size_t cap);

#endif
