/* workloads/ref_group_b.c -- CPU references of the reduction, rmsnorm,
** gemv, gemm and compaction workloads. Each function follows the RefFn
** contract of workloads/reference.h: shape checks first, then
** `if (!out) return true;`, then the computation. Dot products and sums are
** accumulated in double (the exact answer to about 1e-16), so the float
** kernels, which add in their own order, are judged with an rtol: each
** workload file states the rounding bound it uses. Elementwise float work
** (x + r, x * 0.5, the FMA chain) is done in float exactly as the kernels
** do it, so those checks use tolerance 0. */
#include "workloads/ref_group_b.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------- helpers */

/* One block per row: a 1D grid whose x is the number of rows. */
static bool b_rows(const RefCall *call, uint64_t *rows, char *msg, size_t cap)
{
    if (call->grid[1] != 1 || call->grid[2] != 1) {
        snprintf(msg, cap, "expects one block per row: a 1D grid [rows]");
        return false;
    }
    *rows = call->grid[0];
    return true;
}

/* ----------------------------------------------------------- reduction */

bool ref_b_sum(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *in = &call->args[0], *sum = &call->args[1], *n = &call->args[2];
    if (!ref_nonneg(n, "n", msg, cap) || !ref_need(in, "in", (uint64_t)n->i, "n", msg, cap) ||
        !ref_need(sum, "sum", 1, "1", msg, cap))
        return false;
    if (!out) return true;
    const float *x = in->data;
    float *s = out;
    double acc = s[0];
    for (int64_t i = 0; i < n->i; i++) acc += x[i];
    s[0] = (float)acc;
    return true;
}

/* ------------------------------------------------------------- rmsnorm */

/* y[t][j] = h[t][j] * rstd_t * w[j] for rows t, rstd from the row's mean
** square in double. */
static void rmsnorm_rows(const float *h, const float *w, float *y, uint64_t rows, uint64_t hidden, float eps)
{
    for (uint64_t t = 0; t < rows; t++) {
        const float *row = h + t * hidden;
        double ss = 0;
        for (uint64_t j = 0; j < hidden; j++) ss += (double)row[j] * row[j];
        double rstd = 1.0 / sqrt(ss / (double)hidden + (double)eps);
        for (uint64_t j = 0; j < hidden; j++) y[t * hidden + j] = (float)((double)row[j] * rstd * (double)w[j]);
    }
}

bool ref_b_rmsnorm(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *x = &call->args[0], *w = &call->args[1], *y = &call->args[2], *hidden = &call->args[3];
    uint64_t rows;
    if (!b_rows(call, &rows, msg, cap) || !ref_nonneg(hidden, "hidden", msg, cap)) return false;
    uint64_t hd = (uint64_t)hidden->i, cnt = rows * hd;
    if (!ref_need(x, "x", cnt, "rows*hidden", msg, cap) || !ref_need(w, "w", hd, "hidden", msg, cap) ||
        !ref_need(y, "y", cnt, "rows*hidden", msg, cap))
        return false;
    if (!out) return true;
    rmsnorm_rows(x->data, w->data, out, rows, hd, call->args[4].f);
    return true;
}

static bool fused_shape(const RefCall *call, uint64_t *rows, uint64_t *hd, char *msg, size_t cap)
{
    const RefArg *a = call->args;
    if (!b_rows(call, rows, msg, cap) || !ref_nonneg(&a[5], "hidden", msg, cap)) return false;
    *hd = (uint64_t)a[5].i;
    uint64_t cnt = *rows * *hd;
    return ref_need(&a[0], "x", cnt, "rows*hidden", msg, cap) && ref_need(&a[1], "r", cnt, "rows*hidden", msg, cap) &&
           ref_need(&a[2], "w", *hd, "hidden", msg, cap) && ref_need(&a[3], "h", cnt, "rows*hidden", msg, cap) &&
           ref_need(&a[4], "y", cnt, "rows*hidden", msg, cap);
}

bool ref_b_fused_residual(const RefCall *call, void *out, char *msg, size_t cap)
{
    uint64_t rows, hd;
    if (!fused_shape(call, &rows, &hd, msg, cap)) return false;
    if (!out) return true;
    const float *x = call->args[0].data, *r = call->args[1].data;
    float *h = out;
    for (uint64_t i = 0; i < rows * hd; i++) h[i] = x[i] + r[i];
    return true;
}

bool ref_b_fused_rmsnorm(const RefCall *call, void *out, char *msg, size_t cap)
{
    uint64_t rows, hd;
    if (!fused_shape(call, &rows, &hd, msg, cap)) return false;
    if (!out) return true;
    const float *x = call->args[0].data, *r = call->args[1].data;
    float *h = malloc(rows * hd * sizeof *h + 1);
    if (!h) {
        snprintf(msg, cap, "out of memory");
        return false;
    }
    for (uint64_t i = 0; i < rows * hd; i++) h[i] = x[i] + r[i]; /* the float sum the kernel normalises */
    rmsnorm_rows(h, call->args[2].data, out, rows, hd, call->args[6].f);
    free(h);
    return true;
}

/* -------------------------------------------------------- gemv, gemm */

bool ref_b_gemv(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *A = &call->args[0], *x = &call->args[1], *y = &call->args[2], *n = &call->args[3];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t side = (uint64_t)n->i;
    if (!ref_need(A, "A", side * side, "n*n", msg, cap) || !ref_need(x, "x", side, "n", msg, cap) ||
        !ref_need(y, "y", side, "n", msg, cap))
        return false;
    if (!out) return true;
    const float *a = A->data, *v = x->data;
    float *dst = out;
    for (uint64_t r = 0; r < side; r++) {
        double acc = 0;
        for (uint64_t k = 0; k < side; k++) acc += (double)a[r * side + k] * v[k];
        dst[r] = (float)acc;
    }
    return true;
}

bool ref_b_gemm(const RefCall *call, void *out, char *msg, size_t cap)
{
    const RefArg *A = &call->args[0], *B = &call->args[1], *C = &call->args[2], *n = &call->args[3];
    if (!ref_nonneg(n, "n", msg, cap)) return false;
    uint64_t side = (uint64_t)n->i, nn = side * side;
    if (!ref_need(A, "A", nn, "n*n", msg, cap) || !ref_need(B, "B", nn, "n*n", msg, cap) || !ref_need(C, "C", nn, "n*n", msg, cap))
        return false;
    if (!out) return true;
    const float *a = A->data, *b = B->data;
    float *c = out;
    double *row = malloc(side * sizeof *row + 1);
    if (!row) {
        snprintf(msg, cap, "out of memory");
        return false;
    }
    for (uint64_t i = 0; i < side; i++) { /* i-k-j order: B is read row by row */
        for (uint64_t j = 0; j < side; j++) row[j] = 0;
        for (uint64_t k = 0; k < side; k++) {
            double aik = a[i * side + k];
            const float *bk = b + k * side;
            for (uint64_t j = 0; j < side; j++) row[j] += aik * bk[j];
        }
        for (uint64_t j = 0; j < side; j++) c[i * side + j] = (float)row[j];
    }
    free(row);
    return true;
}

/* ---------------------------------------------------------- compaction */

/* x, y, n, threshold and iters sit at args[ix], [iy], [in], [in+1], [in+2]. */
static bool special_shape(const RefCall *call, uint32_t in, char *msg, size_t cap)
{
    const RefArg *n = &call->args[in], *iters = &call->args[in + 2];
    if (!ref_nonneg(n, "n", msg, cap) || !ref_nonneg(iters, "iters", msg, cap)) return false;
    return ref_need(&call->args[0], "x", (uint64_t)n->i, "n", msg, cap) &&
           ref_need(&call->args[1], "y", (uint64_t)n->i, "n", msg, cap);
}

static void special_apply(const RefCall *call, uint32_t in, float *y)
{
    const float *x = call->args[0].data;
    int64_t n = call->args[in].i, iters = call->args[in + 2].i;
    float thr = call->args[in + 1].f;
    for (int64_t i = 0; i < n; i++) {
        float v = x[i];
        if (v > thr)
            for (int64_t k = 0; k < iters; k++) v = fmaf(v, 0.999f, 0.5f);
        else
            v = v * 0.5f;
        y[i] = v;
    }
}

bool ref_b_special(const RefCall *call, void *out, char *msg, size_t cap)
{
    if (!special_shape(call, 2, msg, cap)) return false;
    if (!out) return true;
    special_apply(call, 2, out);
    return true;
}

/* list must have room for every index, whatever the data: n elements. */
static bool compact_shape(const RefCall *call, char *msg, size_t cap)
{
    return special_shape(call, 4, msg, cap) &&
           ref_need(&call->args[2], "list", (uint64_t)call->args[4].i, "n", msg, cap) &&
           ref_need(&call->args[3], "count", 1, "1", msg, cap);
}

bool ref_b_compact_y(const RefCall *call, void *out, char *msg, size_t cap)
{
    if (!compact_shape(call, msg, cap)) return false;
    if (!out) return true;
    special_apply(call, 4, out);
    return true;
}

bool ref_b_compact_count(const RefCall *call, void *out, char *msg, size_t cap)
{
    if (!compact_shape(call, msg, cap)) return false;
    if (!out) return true;
    const float *x = call->args[0].data;
    float thr = call->args[5].f;
    uint32_t special = 0;
    for (int64_t i = 0; i < call->args[4].i; i++) special += x[i] > thr;
    uint32_t *c = out;
    c[0] += special;
    return true;
}
