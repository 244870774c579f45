// validate/probes/cache_ops.cu -- which global loads L1 serves: the model
// sends ld .cg, .cv, .volatile and the strong loads of gpu or system scope
// to L2 alone (INSTR_L2_ONLY: neither hitting nor filling L1), and lets the
// default (.ca), .cs, .lu, .nc and a cta-scope strong load hit L1
// (sim/memsys.h memsys_load). One thread of one block chases pointers
// through 4 KB (32 lines, each 128 bytes apart, in a shuffled cycle) that
// an untimed pass of ld.ca has put in L1 and L2; each mode then walks the
// cycle 64 times with its own load form, timed by %clock64:
//   cyc_load   cycles per dependent load (median of 5 launches)
// Expected if the model holds: ca, cs, lu, nc, relaxed_cta ~ L1 hit
// (lat.l1_hit), cg, cv, volatile, relaxed_gpu, acquire_gpu, relaxed_sys ~ L2
// hit (lat.l2_hit, or + lat.l2_far on the far partition). A second table
// asks whether a load that skips L1 also drops the line from it: after one
// ld.cg pass over the lines (and after one ld.acquire.gpu pass, whose SASS
// may invalidate L1: CCTL.IVALL), the first ld.ca pass's cycles per load.
//
// Device time: 11 + 3 modes x 5 launches of < 1 ms: < 0.1 s; ~2 s in all.
#include "probe.h"

using namespace probe;

namespace {

enum Mode { CA, CS, LU, NC, CG, CV, VOLATILE, RELAXED_CTA, RELAXED_GPU, ACQUIRE_GPU, RELAXED_SYS };

template <Mode M>
__device__ __forceinline__ unsigned long long load(const unsigned long long *p)
{
    unsigned long long v;
    if (M == CA) asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == CS) asm volatile("ld.global.cs.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == LU) asm volatile("ld.global.lu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == NC) asm volatile("ld.global.nc.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == CG) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == CV) asm volatile("ld.global.cv.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == VOLATILE) asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == RELAXED_CTA) asm volatile("ld.relaxed.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == RELAXED_GPU) asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == ACQUIRE_GPU) asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    if (M == RELAXED_SYS) asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

// 32 lines in a cycle; the warm-up pass (ld.ca) and one pass of `First`
// are untimed, then M walks the cycle `passes` times; out[0] the cycles of
// the timed part, out[1] the sink.
template <Mode First, Mode M>
__global__ void chase(const unsigned long long *next, unsigned passes, unsigned long long *out)
{
    const unsigned long long *p = next;
    for (int i = 0; i < 32; i++) p = (const unsigned long long *)load<CA>(p);
    for (int i = 0; i < 32; i++) p = (const unsigned long long *)load<First>(p);
    unsigned long long t0 = clk();
    for (unsigned i = 0; i < passes * 32; i++) p = (const unsigned long long *)load<M>(p);
    unsigned long long t1 = clk();
    out[0] = t1 - t0;
    out[1] = (unsigned long long)p;
}

template <Mode First, Mode M>
double cycles_per_load(const unsigned long long *next, unsigned passes, unsigned long long *out)
{
    std::vector<double> c;
    for (int r = 0; r < 5; r++) {
        chase<First, M><<<1, 1>>>(next, passes, out);
        CKL();
        unsigned long long h[2];
        CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        c.push_back((double)h[0] / (32.0 * passes));
    }
    return median(c);
}

}  // namespace

int main()
{
    init("cache_ops", "which global load forms L1 serves: cycles per dependent load of a line in L1 and L2");
    unsigned long long *next, *out;
    CK(cudaMalloc(&next, 32 * 128));
    CK(cudaMalloc(&out, 16));
    // a shuffled cycle through the 32 lines (line i at byte 128 i)
    std::vector<unsigned long long> h(32 * 16, 0);
    int order[32];
    for (int i = 0; i < 32; i++) order[i] = i;
    for (int i = 31; i > 0; i--) std::swap(order[i], order[hash32(i) % (i + 1)]);
    for (int i = 0; i < 32; i++) h[order[i] * 16] = (unsigned long long)(next + order[(i + 1) % 32] * 16);
    CK(cudaMemcpy(next, h.data(), h.size() * 8, cudaMemcpyHostToDevice));
    const unsigned long long *start = next + order[0] * 16;

    table("cache_ops", "one thread, 32 lines in L1 and L2 (an ld.ca pass first), 64 dependent passes", "mode cyc_load");
    struct Row {
        const char *name;
        double (*f)(const unsigned long long *, unsigned, unsigned long long *);
    };
    const Row rows[] = {
        {"ca", cycles_per_load<CA, CA>},
        {"cs", cycles_per_load<CA, CS>},
        {"lu", cycles_per_load<CA, LU>},
        {"nc", cycles_per_load<CA, NC>},
        {"cg", cycles_per_load<CA, CG>},
        {"cv", cycles_per_load<CA, CV>},
        {"volatile", cycles_per_load<CA, VOLATILE>},
        {"relaxed_cta", cycles_per_load<CA, RELAXED_CTA>},
        {"relaxed_gpu", cycles_per_load<CA, RELAXED_GPU>},
        {"acquire_gpu", cycles_per_load<CA, ACQUIRE_GPU>},
        {"relaxed_sys", cycles_per_load<CA, RELAXED_SYS>},
    };
    for (const Row &r : rows) {
        printf("%-12s %7.1f\n", r.name, r.f(start, 64, out));
        fflush(stdout);
    }

    table("after", "the first ld.ca pass after one pass of another form: does that form drop the lines from L1?",
          "before first_ca_cyc_load");
    printf("%-12s %7.1f\n", "ca", cycles_per_load<CA, CA>(start, 1, out));
    printf("%-12s %7.1f\n", "cg", cycles_per_load<CG, CA>(start, 1, out));
    printf("%-12s %7.1f\n", "acquire_gpu", cycles_per_load<ACQUIRE_GPU, CA>(start, 1, out));
    fflush(stdout);
    finish();
    return 0;
}
