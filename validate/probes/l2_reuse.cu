// validate/probes/l2_reuse.cu -- how much of a buffer read twice the L2
// keeps between the passes, by size: a two-pass RMSNorm reads its input for
// the sum of squares and again to scale it; rmsnorm is simulated 22% fast
// (validate/RESULTS.md) and the model's L2 is LRU with hashed sets
// (l2.size 60 MiB, l2.assoc 16, both [ASSUME] for the policy).
//
// For F = 8 .. 200 MB: L2 flushed, then back to back (events between):
//   pass1  read F (float4 grid-stride, 8 x 256 threads per SM) -- cold
//   pass2  read the same F again
//   pass3  and once more
// variants: rr (pass2 in the same order), rr_rev (pass2 and 3 walk the
// buffer backwards: the most recently read data first), wr (pass1 also
// writes F bytes of output, y = 2x + 1, as a residual add does, and the
// passes after it read x only). Median of 5 of each time.
// Estimates (columns): t_hit = a + F / B_l2 and t_dram = c + F / B_dram are
// fitted to pass2 of rr at F <= 32 MB (all hits) and to pass1 (all misses)
// of every F; hit2 = (t_dram - t2) / (t_dram - t_hit), the fraction of pass2
// served by L2, and dram2_MB = (1 - hit2) F. (For wr, pass1's time includes
// the writes; hit2 is still from the read-only fits.)
//
// Device time: 14 sizes x 3 variants x 5 x (flush + 3 passes of 2-60 us):
// ~0.1 s; ~3 s in all.
#include "probe.h"

using namespace probe;

namespace {

__global__ void pass_read(const float4 *x, size_t n4, int reverse, float *out)
{
    float s = 0.f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[reverse ? n4 - 1 - i : i];
        s += v.x + v.y + v.z + v.w;
    }
    if (__float_as_uint(s) == 0x7fc0dead) out[0] = s;  // never: keeps the loads
}

__global__ void pass_rw(const float4 *x, float4 *y, size_t n4)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[i];
        y[i] = make_float4(2.f * v.x + 1.f, 2.f * v.y + 1.f, 2.f * v.z + 1.f, 2.f * v.w + 1.f);
    }
}

// least squares t = a + F * b
void fit(const std::vector<double> &F, const std::vector<double> &t, double *a, double *b)
{
    double n = (double)F.size(), sf = 0, st = 0, sff = 0, sft = 0;
    for (size_t i = 0; i < F.size(); i++) sf += F[i], st += t[i], sff += F[i] * F[i], sft += F[i] * t[i];
    *b = (n * sft - sf * st) / (n * sff - sf * sf);
    *a = (st - *b * sf) / n;
}

}  // namespace

int main()
{
    init("l2_reuse", "L2 hits of a second pass over a buffer of F bytes, by F");
    Dev &D = dev();
    const size_t maxF = 200u << 20;
    float4 *x, *y;
    float *out;
    CK(cudaMalloc(&x, maxF));
    CK(cudaMalloc(&y, maxF));
    CK(cudaMalloc(&out, 64));
    fill_f32((float *)x, maxF / 4, 21);
    fill_f32((float *)y, maxF / 4, 22);
    CK(cudaDeviceSynchronize());
    const int grid = 8 * D.sms;
    const int sizes_mb[] = {8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 160, 200};
    const char *vnames[] = {"rr", "rr_rev", "wr"};
    cudaEvent_t ev[4];
    for (auto &e : ev) CK(cudaEventCreate(&e));
    struct R { int v, mb; double t1, t2, t3; };
    std::vector<R> rows;
    for (int v = 0; v < 3; v++)
        for (int mb : sizes_mb) {
            const size_t n4 = ((size_t)mb << 20) / 16;
            std::vector<double> t[3];
            for (int r = 0; r < 6; r++) {  // the first is a warm-up
                flush_l2();
                CK(cudaEventRecord(ev[0]));
                if (v == 2) pass_rw<<<grid, 256>>>(x, y, n4);
                else pass_read<<<grid, 256>>>(x, n4, 0, out);
                CK(cudaEventRecord(ev[1]));
                pass_read<<<grid, 256>>>(x, n4, v == 1, out);
                CK(cudaEventRecord(ev[2]));
                pass_read<<<grid, 256>>>(x, n4, v == 1, out);
                CK(cudaEventRecord(ev[3]));
                CK(cudaEventSynchronize(ev[3]));
                CKL();
                if (r == 0) continue;
                for (int p = 0; p < 3; p++) {
                    float ms = 0;
                    CK(cudaEventElapsedTime(&ms, ev[p], ev[p + 1]));
                    t[p].push_back(ms * 1e3);
                }
            }
            rows.push_back(R{v, mb, median(t[0]), median(t[1]), median(t[2])});
        }
    // fits (us against MB)
    std::vector<double> fh, th, fd, td;
    for (const R &r : rows)
        if (r.v == 0) {
            if (r.mb <= 32) fh.push_back(r.mb), th.push_back(r.t2);
            fd.push_back(r.mb), td.push_back(r.t1);
        }
    double ah, bh, ad, bd;
    fit(fh, th, &ah, &bh);
    fit(fd, td, &ad, &bd);
    printf("# fits: all-hit read t = %.2f us + F x %.4f us/MB (%.0f GB/s); cold read t = %.2f us + F x %.4f us/MB "
           "(%.0f GB/s)\n",
           ah, bh, 1048576.0 / bh / 1e3, ad, bd, 1048576.0 / bd / 1e3);
    table("passes", "us per pass (median of 5); GBs = F / time; hit2: fraction of pass2 from L2 (see the fits)",
          "variant F_MB t1_us t2_us t3_us t2_over_t1 GBs1 GBs2 GBs3 hit2 dram2_MB hit3");
    for (const R &r : rows) {
        const double F = r.mb, thit = ah + bh * F, tdram = ad + bd * F;
        const double h2 = (tdram - r.t2) / (tdram - thit), h3 = (tdram - r.t3) / (tdram - thit);
        const double bytes = (double)((size_t)r.mb << 20);
        printf("%-6s %4d %8.2f %8.2f %8.2f %6.3f %6.0f %6.0f %6.0f %6.3f %6.1f %6.3f\n", vnames[r.v], r.mb, r.t1, r.t2,
               r.t3, r.t2 / r.t1, bytes / r.t1 / 1e3, bytes / r.t2 / 1e3, bytes / r.t3 / 1e3, h2, (1 - h2) * F, h3);
    }
    finish();
    return 0;
}
