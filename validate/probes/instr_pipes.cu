// validate/probes/instr_pipes.cu -- dependent latency and issue rate of
// each instruction class the model times with lat.alu / lat.fma / lat.sfu /
// lat.shfl and pipe.{alu,fma,sfu,mio}_interval: FFMA, FADD, FMUL, IMAD,
// IMAD.HI, IADD3, LOP3, SHF, ISETP+SEL, FSETP+FSEL, I2F, F2I, MUFU (rsqrt,
// rcp, ex2, sin, cos, sqrt), SHFL, and DFMA/DADD/DMUL (lat.fp64,
// pipe.fp64_interval). The preset's figures are the programming
// guide's and [MB-Jia18]'s, not measured here except FFMA and MUFU.RSQ.
//
// Every link is inline PTX with operands from a kernel parameter (the
// compiler cannot fold a chain into fewer links); ptxas may still merge
// two PTX adds into one IADD3 or two XORs into one LOP3: the SASS summary
// (run_probes.sh, NAME.sass_summary.txt) gives the SASS instructions per
// link of each lat_X_u16/u8 pair, and the opening comment of chains.h the
// method. Columns (chains.h chain_columns):
//   cyc_link_u16/u8  cycles per link, loop included (16 or 8 links per
//                    iteration); cyc_link = (t16 - t8) / 8 per iteration:
//                    the loop's own instructions cancel
//   tput_occ         blocks of 256 per SM of the throughput kernel (8: full)
//   ops_per_clk_SM   thread results per cycle per SM (median over SMs;
//                    _min/_max: slowest and fastest SM), 8 chains/thread
//   warp_issue_cyc   128 / ops_per_clk_SM: cycles between two such warp
//                    instructions per scheduler (the model's pipe interval
//                    when a link is one instruction and 4 schedulers)
// Chains keep their values away from zero (and from inf/NaN): ex2 is
// 2^-x, select chains alternate between two values, conversions go
// through the float's bit pattern. Two links carry an extra instruction,
// as ptxas folds them otherwise (rcp(rcp(x)) = x, and the u32 -> f32 -> u32
// round trip is idempotent): mufu_rcp adds 1.0 (FADD), i2f_f2i XORs (LOP3);
// subtract fadd's / lop3's cyc_link. Each row's `what` says what a link is.
//
// Device time: 28 ops x (6 one-warp launches of <= 0.3 ms + 3 launches of
// ~0.3 ms at full occupancy) ~ 0.1 s; ~2 s in all.
#include "chains.h"

using namespace probe;

namespace {

#define F32_OP(Name, init_expr, ...)                                                    \
    struct Name {                                                                       \
        typedef float T;                                                                \
        static __device__ __forceinline__ T init(unsigned s) { return init_expr; }     \
        static __device__ __forceinline__ T step(T x, const Args &a, int j)           \
        {                                                                               \
            __VA_ARGS__;                                                                \
            return x;                                                                   \
        }                                                                               \
    };
#define U32_OP(Name, init_expr, ...)                                                    \
    struct Name {                                                                       \
        typedef unsigned T;                                                             \
        static __device__ __forceinline__ T init(unsigned s) { return init_expr; }     \
        static __device__ __forceinline__ T step(T x, const Args &a, int j)           \
        {                                                                               \
            __VA_ARGS__;                                                                \
            return x;                                                                   \
        }                                                                               \
    };

#define F64_OP(Name, init_expr, ...)                                                    \
    struct Name {                                                                       \
        typedef double T;                                                               \
        static __device__ __forceinline__ T init(unsigned s) { return init_expr; }     \
        static __device__ __forceinline__ T step(T x, const Args &a, int j)           \
        {                                                                               \
            __VA_ARGS__;                                                                \
            return x;                                                                   \
        }                                                                               \
    };

#define J (j & 3)
F32_OP(Ffma, 1.0f + s * 1e-3f, asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a.f[J]), "f"(a.g[J])))
F32_OP(Fadd, 1.0f + s * 1e-3f, asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(a.g[J])))
F32_OP(Fmul, 1.0f + s * 1e-3f, asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(a.f[J])))
U32_OP(Imad, 0x12345u * s + 7u, asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a.u[J]), "r"(a.v[J])))
U32_OP(ImadHi, 0x12345u * s + 7u, asm volatile("mad.hi.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a.u[J]), "r"(a.v[J])))
U32_OP(Iadd, 0x12345u * s + 7u, asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a.u[J])))
U32_OP(Iadd3, 0x12345u * s + 7u,
       asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(x) : "r"(a.u[J]), "r"(a.v[J])))
U32_OP(Lop3, 0x12345u * s + 7u, asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x) : "r"(a.u[J]), "r"(a.v[J])))
U32_OP(Xor, 0x12345u * s + 7u, asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(a.u[J])))
U32_OP(Shf, 0x12345u * s + 7u, asm volatile("shf.l.wrap.b32 %0, %0, %0, %1;" : "+r"(x) : "r"(a.s[J])))
U32_OP(ShfImm, 0x12345u * s + 7u, asm volatile("shf.l.wrap.b32 %0, %0, %0, 5;" : "+r"(x)))
// x < 2^31 picks v (>= 2^31), else w (< 2^31): the chain alternates
U32_OP(SetpSel, 0x12345u * s + 7u,
       asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %0, 0x80000000;\n\tselp.b32 %0, %1, %2, p;\n\t}"
                    : "+r"(x) : "r"(a.v[J]), "r"(a.w[J])))
// x < 0.5 picks f (~1), else g (|g| <= 0.5, < 0.5)
F32_OP(FsetpSel, 1.0f + s * 1e-3f,
       asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.f32 p, %0, 0f3F000000;\n\tselp.f32 %0, %1, %2, p;\n\t}"
                    : "+f"(x) : "f"(a.f[J]), "f"(a.g[J])))
U32_OP(I2f, 0x12345u * s + 7u, asm volatile("{\n\t.reg .f32 t;\n\tcvt.rn.f32.u32 t, %0;\n\tmov.b32 %0, t;\n\t}" : "+r"(x)))
// the round trip alone is idempotent (ptxas folds it): an XOR keeps it moving
U32_OP(I2fF2i, 0x12345u * s + 7u,
       asm volatile("{\n\t.reg .f32 t;\n\tcvt.rn.f32.u32 t, %0;\n\tcvt.rzi.u32.f32 %0, t;\n\txor.b32 %0, %0, %1;\n\t}"
                    : "+r"(x) : "r"(a.u[J])))
F32_OP(Rsq, 2.0f + s * 1e-3f, asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x)))
// rcp(rcp(x)) folds to x: x = 1/x + 1 (converges to 1.618)
F32_OP(Rcp, 2.0f + s * 1e-3f, asm volatile("rcp.approx.ftz.f32 %0, %0;\n\tadd.f32 %0, %0, 0f3F800000;" : "+f"(x)))
F32_OP(Ex2, 0.5f + s * 1e-3f, asm volatile("{\n\t.reg .f32 t;\n\tneg.f32 t, %0;\n\tex2.approx.ftz.f32 %0, t;\n\t}" : "+f"(x)))
F32_OP(Sin, 1.0f + s * 1e-3f, asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x)))
F32_OP(Cos, 1.0f + s * 1e-3f, asm volatile("cos.approx.ftz.f32 %0, %0;" : "+f"(x)))
F32_OP(Sqrt, 2.0f + s * 1e-3f, asm volatile("sqrt.approx.ftz.f32 %0, %0;" : "+f"(x)))
U32_OP(ShflBfly, 0x12345u * s + 7u, asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;" : "+r"(x)))
U32_OP(ShflDown, 0x12345u * s + 7u, asm volatile("shfl.sync.down.b32 %0, %0, 1, 0x1f, 0xffffffff;" : "+r"(x)))
U32_OP(ShflIdx, 0x12345u * s + 7u,
       asm volatile("shfl.sync.idx.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(x) : "r"((threadIdx.x + 1) & 31)))
// the reduction-tree step of rmsnorm: x = (x + shfl(x)) / 2
F32_OP(ShflFadd, 1.0f + s * 1e-3f,
       asm volatile("{\n\t.reg .f32 t;\n\tshfl.sync.bfly.b32 t, %0, 1, 0x1f, 0xffffffff;\n\tadd.f32 %0, %0, t;\n\t"
                    "mul.f32 %0, %0, 0f3F000000;\n\t}"
                    : "+f"(x)))
// FP64 (pipe.fp64_interval, lat.fp64): operands widened from the float
// parameters once, outside the loop
F64_OP(Dfma, 1.0 + s * 1e-3,
       asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"((double)a.f[J]), "d"((double)a.g[J])))
F64_OP(Dadd, 1.0 + s * 1e-3, asm volatile("add.f64 %0, %0, %1;" : "+d"(x) : "d"((double)a.g[J])))
F64_OP(Dmul, 1.0 + s * 1e-3, asm volatile("mul.f64 %0, %0, %1;" : "+d"(x) : "d"((double)a.f[J])))
#undef J

}  // namespace

CHAIN(ffma, Ffma, 8)
CHAIN(fadd, Fadd, 8)
CHAIN(fmul, Fmul, 8)
CHAIN(imad, Imad, 8)
CHAIN(imad_hi, ImadHi, 8)
CHAIN(iadd, Iadd, 8)
CHAIN(iadd3, Iadd3, 8)
CHAIN(lop3, Lop3, 8)
CHAIN(xor, Xor, 8)
CHAIN(shf, Shf, 8)
CHAIN(shf_imm, ShfImm, 8)
CHAIN(isetp_sel, SetpSel, 8)
CHAIN(fsetp_fsel, FsetpSel, 8)
CHAIN(i2f, I2f, 8)
CHAIN(i2f_f2i, I2fF2i, 8)
CHAIN(mufu_rsq, Rsq, 8)
CHAIN(mufu_rcp, Rcp, 8)
CHAIN(mufu_ex2, Ex2, 8)
CHAIN(mufu_sin, Sin, 8)
CHAIN(mufu_cos, Cos, 8)
CHAIN(mufu_sqrt, Sqrt, 8)
CHAIN(shfl_bfly, ShflBfly, 8)
CHAIN(shfl_down, ShflDown, 8)
CHAIN(shfl_idx, ShflIdx, 8)
CHAIN(shfl_fadd, ShflFadd, 8)
CHAIN(dfma, Dfma, 8)
CHAIN(dadd, Dadd, 8)
CHAIN(dmul, Dmul, 8)

int main()
{
    init("instr_pipes", "dependent latency and full-occupancy issue rate per instruction class");
    Args a;
    const unsigned u[4] = {0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu};
    for (int k = 0; k < 4; k++) {
        a.u[k] = u[k];
        a.v[k] = 0xC0000000u + 0x1111u * (k + 1);  // >= 2^31
        a.w[k] = 0x40000000u + 0x2222u * (k + 1);  // < 2^31, not 0
        a.s[k] = 5u + 2u * k;                      // 5, 7, 9, 11
    }
    const float f[4] = {0.9999f, 1.0001f, 0.99995f, 1.00005f}, g[4] = {0.5f, -0.5f, 0.25f, -0.25f};
    for (int k = 0; k < 4; k++) {
        a.f[k] = f[k];
        a.g[k] = g[k];
    }
    ChainBufs b = chain_bufs();
    const Chain cs[] = {
        CHAIN_ENTRY(ffma, 8, 1, "fma.rn.f32 x,x,a,b"),
        CHAIN_ENTRY(fadd, 8, 1, "add.f32 x,x,b"),
        CHAIN_ENTRY(fmul, 8, 1, "mul.f32 x,x,a"),
        CHAIN_ENTRY(imad, 8, 2, "mad.lo.u32 x,x,a,b"),
        CHAIN_ENTRY(imad_hi, 8, 2, "mad.hi.u32 x,x,a,b"),
        CHAIN_ENTRY(iadd, 8, 2, "add.u32 x,x,a (ptxas may merge 2 links into one IADD3)"),
        CHAIN_ENTRY(iadd3, 8, 2, "add.u32 x,x,a; add.u32 x,x,b (one IADD3 expected)"),
        CHAIN_ENTRY(lop3, 8, 2, "lop3.b32 x,x,a,b,0x96"),
        CHAIN_ENTRY(xor, 8, 2, "xor.b32 x,x,a (ptxas may merge 2 links into one LOP3)"),
        CHAIN_ENTRY(shf, 8, 2, "shf.l.wrap.b32 x,x,x,s (rotate, s from a parameter)"),
        CHAIN_ENTRY(shf_imm, 8, 2, "shf.l.wrap.b32 x,x,x,5"),
        CHAIN_ENTRY(isetp_sel, 8, 4, "setp.lt.u32 p,x,2^31; selp.b32 x,a,b,p"),
        CHAIN_ENTRY(fsetp_fsel, 8, 4, "setp.lt.f32 p,x,0.5; selp.f32 x,a,b,p"),
        CHAIN_ENTRY(i2f, 8, 8, "cvt.rn.f32.u32 on the bits of the last result"),
        CHAIN_ENTRY(i2f_f2i, 8, 16, "cvt.rn.f32.u32, cvt.rzi.u32.f32, xor.b32 (F2I = this - i2f - lop3)"),
        CHAIN_ENTRY(mufu_rsq, 8, 8, "rsqrt.approx.ftz.f32"),
        CHAIN_ENTRY(mufu_rcp, 8, 8, "rcp.approx.ftz.f32 then add.f32 1 (MUFU.RCP = this - fadd)"),
        CHAIN_ENTRY(mufu_ex2, 8, 8, "ex2.approx.ftz.f32 of -x (negation folded, expected)"),
        CHAIN_ENTRY(mufu_sin, 8, 8, "sin.approx.ftz.f32 (an FMUL of range reduction expected)"),
        CHAIN_ENTRY(mufu_cos, 8, 8, "cos.approx.ftz.f32"),
        CHAIN_ENTRY(mufu_sqrt, 8, 8, "sqrt.approx.ftz.f32"),
        CHAIN_ENTRY(shfl_bfly, 8, 4, "shfl.sync.bfly.b32 x,x,1"),
        CHAIN_ENTRY(shfl_down, 8, 4, "shfl.sync.down.b32 x,x,1"),
        CHAIN_ENTRY(shfl_idx, 8, 4, "shfl.sync.idx.b32 x,x,lane+1"),
        CHAIN_ENTRY(shfl_fadd, 8, 4, "shfl.sync.bfly then add.f32 and mul.f32 0.5 (rmsnorm's tree step)"),
        CHAIN_ENTRY(dfma, 8, 2, "fma.rn.f64 x,x,a,b (DFMA)"),
        CHAIN_ENTRY(dadd, 8, 2, "add.f64 x,x,b (DADD)"),
        CHAIN_ENTRY(dmul, 8, 2, "mul.f64 x,x,a (DMUL)"),
    };
    table("chains", "one warp's dependent chain (cycles per link) and full-occupancy rate (thread ops per cycle per SM)",
          chain_columns());
    for (const Chain &c : cs) run_chain(c, a, b);
    finish();
    return 0;
}
