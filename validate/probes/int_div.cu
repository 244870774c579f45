// validate/probes/int_div.cu -- integer division and remainder (u32, s32)
// and FP32 division: dependent latency and full-occupancy throughput, for a
// loop-invariant divisor (a kernel parameter: nvcc computes its reciprocal
// once, outside the loop) and for a varying one (the chain's value is the
// divisor: the whole sequence every time). The model has one lat.div (146,
// a varying u32 division) and one pipe.div_interval (16, assumed) for all
// of div/rem.{u32,s32} and div.rn.f32; this says how far apart they are.
//
// Links (chains.h; K, P, d, c from a kernel parameter):
//   u32_div_inv  x = (x / d) ^ K          u32_div_var  x = (P / x) ^ K
//   u32_rem_inv  x = (x % d) ^ K          u32_rem_var  x = (P % x) ^ K
//   s32_*        the same on int (K < 0, so signs change)
//   f32_div_inv  x = x / d + c            f32_div_var  x = c / x + k     (div.rn.f32, IEEE)
//   f32_divf_*   the same with div.full.f32 (__fdividef: MUFU.RCP + FMUL)
//   f32_rcp_var  x = rcp.rn(x) + k        (IEEE reciprocal, software)
// Each link holds one extra dependent LOP3 (integer) or FADD (float): take
// instr_pipes' lop3 / fadd cyc_link off cyc_link for the division alone.
// Values stay away from zero and from the slow paths of div.rn (the FP
// chains converge to about 3.0 / 1.6). Columns as instr_pipes (chains.h);
// the SASS per link (NAME.sass_summary.txt) is the instruction count of
// each form; the throughput kernel runs 4 chains per thread.
//
// Device time: 13 forms x (6 one-warp launches of <= 0.3 ms + 3 launches
// of ~0.3-1 ms) ~ 0.05 s; ~2 s in all.
#include "chains.h"

using namespace probe;

namespace {

struct U32DivInv {
    typedef unsigned T;
    static __device__ __forceinline__ T init(unsigned s) { return 0x9E3779B9u * s + 12345u; }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (x / a.u[0]) ^ a.v[0]; }
};
struct U32DivVar {
    typedef unsigned T;
    static __device__ __forceinline__ T init(unsigned s) { return 0x9E3779B9u * s + 12345u; }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (a.w[0] / x) ^ a.v[0]; }
};
struct U32RemInv {
    typedef unsigned T;
    static __device__ __forceinline__ T init(unsigned s) { return 0x9E3779B9u * s + 12345u; }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (x % a.u[0]) ^ a.v[0]; }
};
struct U32RemVar {
    typedef unsigned T;
    static __device__ __forceinline__ T init(unsigned s) { return 0x9E3779B9u * s + 12345u; }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (a.w[0] % x) ^ a.v[0]; }
};
struct S32DivInv {
    typedef int T;
    static __device__ __forceinline__ T init(unsigned s) { return (int)(0x9E3779B9u * s + 12345u); }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (x / (int)a.u[1]) ^ (int)a.v[0]; }
};
struct S32DivVar {
    typedef int T;
    static __device__ __forceinline__ T init(unsigned s) { return (int)(0x9E3779B9u * s + 12345u); }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return ((int)a.w[1] / x) ^ (int)a.v[0]; }
};
struct S32RemInv {
    typedef int T;
    static __device__ __forceinline__ T init(unsigned s) { return (int)(0x9E3779B9u * s + 12345u); }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return (x % (int)a.u[1]) ^ (int)a.v[0]; }
};
struct S32RemVar {
    typedef int T;
    static __device__ __forceinline__ T init(unsigned s) { return (int)(0x9E3779B9u * s + 12345u); }
    static __device__ __forceinline__ T step(T x, const Args &a, int) { return ((int)a.w[1] % x) ^ (int)a.v[0]; }
};
struct F32DivInv {
    typedef float T;
    static __device__ __forceinline__ T init(unsigned s) { return 1.0f + s * 1e-3f; }
    static __device__ __forceinline__ T step(T x, const Args &a, int)
    {
        asm volatile("div.rn.f32 %0, %0, %1;\n\tadd.f32 %0, %0, %2;" : "+f"(x) : "f"(a.f[0]), "f"(a.g[0]));
        return x;
    }
};
struct F32DivVar {
    typedef float T;
    static __device__ __forceinline__ T init(unsigned s) { return 1.0f + s * 1e-3f; }
    static __device__ __forceinline__ T step(T x, const Args &a, int)
    {
        asm volatile("div.rn.f32 %0, %1, %0;\n\tadd.f32 %0, %0, %2;" : "+f"(x) : "f"(a.f[1]), "f"(a.g[1]));
        return x;
    }
};
struct F32DivfInv {
    typedef float T;
    static __device__ __forceinline__ T init(unsigned s) { return 1.0f + s * 1e-3f; }
    static __device__ __forceinline__ T step(T x, const Args &a, int)
    {
        asm volatile("div.full.f32 %0, %0, %1;\n\tadd.f32 %0, %0, %2;" : "+f"(x) : "f"(a.f[0]), "f"(a.g[0]));
        return x;
    }
};
struct F32DivfVar {
    typedef float T;
    static __device__ __forceinline__ T init(unsigned s) { return 1.0f + s * 1e-3f; }
    static __device__ __forceinline__ T step(T x, const Args &a, int)
    {
        asm volatile("div.full.f32 %0, %1, %0;\n\tadd.f32 %0, %0, %2;" : "+f"(x) : "f"(a.f[1]), "f"(a.g[1]));
        return x;
    }
};
struct F32RcpVar {
    typedef float T;
    static __device__ __forceinline__ T init(unsigned s) { return 1.0f + s * 1e-3f; }
    static __device__ __forceinline__ T step(T x, const Args &a, int)
    {
        asm volatile("rcp.rn.f32 %0, %0;\n\tadd.f32 %0, %0, %1;" : "+f"(x) : "f"(a.g[1]));
        return x;
    }
};

}  // namespace

CHAIN(u32_div_inv, U32DivInv, 4)
CHAIN(u32_div_var, U32DivVar, 4)
CHAIN(u32_rem_inv, U32RemInv, 4)
CHAIN(u32_rem_var, U32RemVar, 4)
CHAIN(s32_div_inv, S32DivInv, 4)
CHAIN(s32_div_var, S32DivVar, 4)
CHAIN(s32_rem_inv, S32RemInv, 4)
CHAIN(s32_rem_var, S32RemVar, 4)
CHAIN(f32_div_inv, F32DivInv, 4)
CHAIN(f32_div_var, F32DivVar, 4)
CHAIN(f32_divf_inv, F32DivfInv, 4)
CHAIN(f32_divf_var, F32DivfVar, 4)
CHAIN(f32_rcp_var, F32RcpVar, 4)

int main()
{
    init("int_div", "integer div/rem and fp32 division: dependent latency and full-occupancy throughput");
    Args a;
    memset(&a, 0, sizeof a);
    a.u[0] = 1000003u;             // u32 divisor
    a.u[1] = (unsigned)-1000003;   // s32 divisor (negative)
    a.v[0] = 0x9E3779B9u;          // K (negative as int)
    a.w[0] = 0xFFFFFFF7u;          // P (u32)
    a.w[1] = 0x7FFFFFF7u;          // P (s32)
    a.f[0] = 1.3f;                 // d: x = x / 1.3 + 0.7 -> 3.03
    a.g[0] = 0.7f;
    a.f[1] = 1.7f;                 // c: x = 1.7 / x + 0.5 -> 1.57
    a.g[1] = 0.5f;
    ChainBufs b = chain_bufs();
    const Chain cs[] = {
        CHAIN_ENTRY(u32_div_inv, 4, 16, "(x / d) ^ K, d loop-invariant"),
        CHAIN_ENTRY(u32_div_var, 4, 32, "(P / x) ^ K"),
        CHAIN_ENTRY(u32_rem_inv, 4, 16, "(x % d) ^ K, d loop-invariant"),
        CHAIN_ENTRY(u32_rem_var, 4, 32, "(P % x) ^ K"),
        CHAIN_ENTRY(s32_div_inv, 4, 16, "(x / d) ^ K, d loop-invariant, signed"),
        CHAIN_ENTRY(s32_div_var, 4, 32, "(P / x) ^ K, signed"),
        CHAIN_ENTRY(s32_rem_inv, 4, 16, "(x % d) ^ K, d loop-invariant, signed"),
        CHAIN_ENTRY(s32_rem_var, 4, 32, "(P % x) ^ K, signed"),
        CHAIN_ENTRY(f32_div_inv, 4, 16, "div.rn.f32 x / d + c, d loop-invariant"),
        CHAIN_ENTRY(f32_div_var, 4, 16, "div.rn.f32 c / x + k"),
        CHAIN_ENTRY(f32_divf_inv, 4, 8, "div.full.f32 x / d + c, d loop-invariant"),
        CHAIN_ENTRY(f32_divf_var, 4, 8, "div.full.f32 c / x + k"),
        CHAIN_ENTRY(f32_rcp_var, 4, 16, "rcp.rn.f32 x + k"),
    };
    table("chains", "one warp's dependent chain (cycles per link) and full-occupancy rate (thread ops per cycle per SM)",
          chain_columns());
    for (const Chain &c : cs) run_chain(c, a, b);
    finish();
    return 0;
}
