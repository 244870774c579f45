/* tests/check_ptx.c -- the PTX front end (isa/ptx.h) and the PTX rows of
** the executor: snippets of PTX with the lane results the PTX ISA manual
** gives (64-bit arithmetic and its edge cases, mul.wide, cvt rounding and
** saturation, prmt's modes, bfe/bfi/brev, setp combining, sub-word and
** generic memory, atomics, votes, shuffles), run by isa/grid.c's functional
** runner; the committed nvcc output of every CUDA twin (tests/ptx/); the
** register allocation; kernel names; faults; and inputs that must fail
** cleanly (truncations, random bytes) in bounded time.                   */
#include "isa/ptx.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/file.h"
#include "isa/grid.h"
#include "isa/load.h"

#define PTX_DIR TESTS_DIR "/ptx"

static void parse_ok(const char *src, Program *p)
{
    Diag d;
    bool ok = ptx_parse(src, strlen(src), "t.ptx", p, &d);
    ck_assert_msg(ok, "t.ptx:%u:%u: %s\n%s", d.line, d.col, d.message, src);
}

/* ----------------------------------------------------------------- Lanes */

/* Each snippet leaves its result in %rd9 (or %r9, widened); lane l of a
** 32-thread block writes out[l]. %r0 = %tid.x, %rd0 the same as u64,
** sbuf a 64-byte shared array. */
static const char TEMPLATE[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry t(.param .u64 t_param_0)\n{\n"
    "  .reg .pred %%p<8>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<16>;\n  .reg .f32 %%f<8>;\n  .reg .b16 %%rs<4>;\n"
    "  .reg .f64 %%fd<8>;\n"
    "  .shared .align 8 .b8 sbuf[64];\n"
    "  mov.u32 %%r0, %%tid.x;\n  cvt.u64.u32 %%rd0, %%r0;\n  mov.u32 %%r9, 0;\n  mov.u64 %%rd9, 0;\n"
    "%s\n"
    "  ld.param.u64 %%rd14, [t_param_0];\n  cvta.to.global.u64 %%rd14, %%rd14;\n  mul.wide.u32 %%rd13, %%r0, 8;\n"
    "  add.s64 %%rd14, %%rd14, %%rd13;\n  st.global.u64 [%%rd14], %%rd9;\n  ret;\n}\n";

#define W32 "\n  cvt.u64.u32 %rd9, %r9;"

typedef struct {
    const char *body;
    uint64_t    lane0, lane31;
} LaneCase;

static const LaneCase LANES[] = {
    /* 64-bit integers: carries, wide products, shifts, division edges */
    { "  mov.u64 %rd1, 4294967295;\n  add.s64 %rd9, %rd1, 1;", 0x100000000ull, 0x100000000ull },
    { "  mov.u64 %rd1, 4294967296;\n  sub.s64 %rd9, %rd1, 1;", 0xffffffffull, 0xffffffffull },
    { "  mov.u32 %r1, -3;\n  mul.wide.s32 %rd9, %r1, 100000;", (uint64_t)-300000ll, (uint64_t)-300000ll },
    { "  mov.u32 %r1, -1;\n  mul.wide.u32 %rd9, %r1, %r1;", 0xfffffffe00000001ull, 0xfffffffe00000001ull },
    { "  mov.u64 %rd1, 4294967297;\n  mul.lo.s64 %rd9, %rd1, %rd1;", 0x200000001ull, 0x200000001ull },
    { "  mov.u64 %rd1, 0x8000000000000000;\n  shr.s64 %rd9, %rd1, 63;", UINT64_MAX, UINT64_MAX },
    { "  mov.u64 %rd1, 0x8000000000000000;\n  shr.u64 %rd9, %rd1, 63;", 1, 1 },
    { "  mov.u64 %rd1, 1;\n  shl.b64 %rd9, %rd1, 40;", 1ull << 40, 1ull << 40 },
    { "  mov.u64 %rd1, 1;\n  shl.b64 %rd9, %rd1, 64;", 0, 0 },
    { "  mov.u64 %rd1, 0x8000000000000000;\n  div.s64 %rd9, %rd1, -1;", 0x8000000000000000ull, 0x8000000000000000ull },
    { "  mov.u64 %rd1, 77;\n  rem.u64 %rd9, %rd1, 0;", 77, 77 },
    { "  mov.u64 %rd1, -7;\n  div.s64 %rd9, %rd1, 2;", (uint64_t)-3ll, (uint64_t)-3ll },
    { "  mov.u64 %rd1, -7;\n  rem.s64 %rd9, %rd1, 2;", (uint64_t)-1ll, (uint64_t)-1ll },
    { "  mov.u64 %rd1, -5;\n  min.u64 %rd9, %rd1, 3;", 3, 3 },
    { "  mov.u64 %rd1, -5;\n  max.s64 %rd9, %rd1, 3;", 3, 3 },
    { "  mov.u64 %rd1, -5;\n  abs.s64 %rd9, %rd1;", 5, 5 },
    { "  neg.s64 %rd9, %rd0;", 0, (uint64_t)-31ll },
    { "  mov.u64 %rd1, 0xff00ff00ff00ff00;\n  xor.b64 %rd9, %rd1, -1;", 0x00ff00ff00ff00ffull, 0x00ff00ff00ff00ffull },
    { "  mov.u32 %r1, 7;\n  mad.wide.u32 %rd9, %r1, %r1, 4294967296;", 0x100000031ull, 0x100000031ull },
    { "  mov.u64 %rd1, 4294967296;\n  setp.gt.u64 %p1, %rd1, 4294967295;\n  selp.b64 %rd9, %rd1, 5, %p1;", 1ull << 32, 1ull << 32 },
    { "  mov.u64 %rd1, -1;\n  popc.b64 %r9, %rd1;" W32, 64, 64 },
    { "  clz.b64 %r9, %rd0;" W32, 64, 59 },
    { "  mov.b64 %rd1, {%r0, %r0};\n  mov.b64 {%r1, %r2}, %rd1;\n  add.s32 %r9, %r1, %r2;" W32, 0, 62 },
    /* 32-bit extras */
    { "  mov.u32 %r1, -1;\n  mul.hi.u32 %r9, %r1, %r1;" W32, 0xfffffffe, 0xfffffffe },
    { "  mov.u32 %r1, 0xABCD1234;\n  bfe.u32 %r9, %r1, 8, 12;" W32, 0xd12, 0xd12 },
    { "  mov.u32 %r1, 0xABCD1234;\n  bfe.s32 %r9, %r1, 8, 12;" W32, 0xfffffd12, 0xfffffd12 },
    { "  mov.u32 %r1, 0xABCD1234;\n  bfe.s32 %r9, %r1, 28, 8;" W32, 0xfffffffa, 0xfffffffa },
    { "  mov.u32 %r1, 0xABCD1234;\n  bfe.u32 %r9, %r1, 8, 0;" W32, 0, 0 },
    { "  mov.u32 %r1, 0x12345678;\n  bfi.b32 %r9, 255, %r1, 8, 4;" W32, 0x12345f78, 0x12345f78 },
    { "  brev.b32 %r9, 1;" W32, 0x80000000, 0x80000000 },
    { "  mov.u32 %r1, 0x33221100;\n  mov.u32 %r2, 0x77665544;\n  prmt.b32 %r9, %r1, %r2, 0x1074;" W32, 0x11007744, 0x11007744 },
    { "  mov.u32 %r1, 0xA0000000;\n  prmt.b32 %r9, %r1, 0, 0xBBBB;" W32, 0xffffffff, 0xffffffff },
    { "  mov.u32 %r1, 0x33221100;\n  mov.u32 %r2, 0x77665544;\n  prmt.b32.f4e %r9, %r1, %r2, 1;" W32, 0x44332211, 0x44332211 },
    { "  mov.u32 %r1, 0x33221100;\n  mov.u32 %r2, 0x77665544;\n  prmt.b32.b4e %r9, %r1, %r2, 1;" W32, 0x66770011, 0x66770011 },
    { "  mov.u32 %r1, 0x33221100;\n  prmt.b32.rc8 %r9, %r1, 0, 2;" W32, 0x22222222, 0x22222222 },
    { "  mov.u32 %r1, 0x33221100;\n  prmt.b32.ecl %r9, %r1, 0, 1;" W32, 0x33221111, 0x33221111 },
    { "  mov.u32 %r1, 0x33221100;\n  prmt.b32.ecr %r9, %r1, 0, 1;" W32, 0x11111100, 0x11111100 },
    { "  mov.u32 %r1, 0x33221100;\n  prmt.b32.rc16 %r9, %r1, 0, 1;" W32, 0x33223322, 0x33223322 },
    { "  shf.l.wrap.b32 %r9, 0x80000000, 1, 33;" W32, 3, 3 },
    { "  shf.r.clamp.b32 %r9, 1, 2, 40;" W32, 2, 2 },
    { "  slct.s32.s32 %r9, 1, 2, -5;" W32, 2, 2 },
    { "  mul24.lo.s32 %r9, 0xffffff, 2;" W32, 0xfffffffe, 0xfffffffe },
    /* cvt: rounding, saturation, widths */
    { "  cvt.rni.s32.f32 %r9, 0f40200000;" W32, 2, 2 },            /* 2.5 -> 2 */
    { "  cvt.rni.s32.f32 %r9, 0fC0200000;" W32, 0xfffffffe, 0xfffffffe }, /* -2.5 -> -2 */
    { "  cvt.rmi.s32.f32 %r9, 0fBFC00000;" W32, 0xfffffffe, 0xfffffffe }, /* -1.5 -> -2 */
    { "  cvt.rpi.s32.f32 %r9, 0f3F99999A;" W32, 2, 2 },            /* 1.2 -> 2 */
    { "  cvt.rzi.s32.f32 %r9, 0fBFD9999A;" W32, 0xffffffff, 0xffffffff }, /* -1.7 -> -1 */
    { "  cvt.rzi.u32.f32 %r9, 0fBF666666;" W32, 0, 0 },            /* -0.9 -> 0 */
    { "  cvt.rzi.s32.f32 %r9, 0f501502F9;" W32, 0x7fffffff, 0x7fffffff }, /* 1e10 saturates */
    { "  cvt.rzi.u32.f32 %r9, 0f7FC00000;" W32, 0, 0 },            /* NaN -> 0 */
    { "  cvt.rzi.s64.f32 %rd9, 0fE0AD78EC;", 0x8000000000000000ull, 0x8000000000000000ull }, /* -1e20 */
    { "  cvt.sat.f32.f32 %f1, 0f3FC00000;\n  mov.b32 %r9, %f1;" W32, 0x3f800000, 0x3f800000 },
    { "  cvt.sat.f32.f32 %f1, 0fBF800000;\n  mov.b32 %r9, %f1;" W32, 0, 0 },
    { "  cvt.rmi.f32.f32 %f1, 0fBFC00000;\n  mov.b32 %r9, %f1;" W32, 0xc0000000, 0xc0000000 },
    { "  cvt.rni.f32.f32 %f1, 0f40200000;\n  mov.b32 %r9, %f1;" W32, 0x40000000, 0x40000000 },
    { "  mov.u64 %rd1, 9007199254740993;\n  cvt.rn.f32.s64 %f1, %rd1;\n  mov.b32 %r9, %f1;" W32, 0x5a000000, 0x5a000000 },
    { "  mov.u32 %r1, 16777217;\n  cvt.rz.f32.u32 %f1, %r1;\n  mov.b32 %r9, %f1;" W32, 0x4b800000, 0x4b800000 },
    { "  mov.u32 %r1, 16777217;\n  cvt.rp.f32.u32 %f1, %r1;\n  mov.b32 %r9, %f1;" W32, 0x4b800001, 0x4b800001 },
    { "  mov.u32 %r1, -16777217;\n  cvt.rm.f32.s32 %f1, %r1;\n  mov.b32 %r9, %f1;" W32, 0xcb800001, 0xcb800001 },
    { "  cvt.u8.u32 %r9, 511;" W32, 0xff, 0xff },
    { "  cvt.s32.s8 %r9, 128;" W32, 0xffffff80, 0xffffff80 },
    { "  cvt.sat.u8.s32 %r9, 300;" W32, 255, 255 },
    { "  cvt.sat.s8.s32 %r9, -300;" W32, 0xffffff80, 0xffffff80 },
    { "  cvt.u16.u32 %rs1, 70000;\n  cvt.u32.u16 %r9, %rs1;" W32, 70000 - 65536, 70000 - 65536 },
    { "  cvt.s64.s32 %rd9, -1;", UINT64_MAX, UINT64_MAX },
    { "  mov.u64 %rd1, 0x123456789;\n  cvt.u32.u64 %r9, %rd1;" W32, 0x23456789, 0x23456789 },
    /* floats */
    { "  div.rn.f32 %f1, 0f3F800000, 0f40400000;\n  mov.b32 %r9, %f1;" W32, 0x3eaaaaab, 0x3eaaaaab },
    { "  sqrt.rn.f32 %f1, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0x3fb504f3, 0x3fb504f3 },
    { "  copysign.f32 %f1, 0fBF800000, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0xc0000000, 0xc0000000 },
    { "  testp.finite.f32 %p1, 0f7F800000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 2, 2 },
    { "  testp.subnormal.f32 %p1, 0f00000001;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  setp.ltu.f32 %p1, 0f7FC00000, 0f3F800000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  setp.lt.f32 %p1, 0f7FC00000, 0f3F800000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 2, 2 },
    { "  setp.nan.f32 %p1, 0f7FC00000, 0f3F800000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    /* f32 with directed rounding: both sides of a rounding, signed zeros,
    ** overflow to FLT_MAX or inf, subnormals; fma rounded once */
    { "  add.rm.f32 %f1, 0f3F800000, 0f30800000;\n  mov.b32 %r9, %f1;" W32, 0x3f800000u, 0x3f800000u },
    { "  add.rp.f32 %f1, 0f3F800000, 0f30800000;\n  mov.b32 %r9, %f1;" W32, 0x3f800001u, 0x3f800001u },
    { "  add.rz.f32 %f1, 0fBF800000, 0fB0800000;\n  mov.b32 %r9, %f1;" W32, 0xbf800000u, 0xbf800000u },
    { "  add.rm.f32 %f1, 0fBF800000, 0fB0800000;\n  mov.b32 %r9, %f1;" W32, 0xbf800001u, 0xbf800001u },
    { "  sub.rm.f32 %f1, 0f3F800000, 0f3F800000;\n  mov.b32 %r9, %f1;" W32, 0x80000000u, 0x80000000u },
    { "  sub.rp.f32 %f1, 0f3F800000, 0f3F800000;\n  mov.b32 %r9, %f1;" W32, 0x0u, 0x0u },
    { "  mul.rp.f32 %f1, 0f3F800001, 0f3F800001;\n  mov.b32 %r9, %f1;" W32, 0x3f800003u, 0x3f800003u },
    { "  mul.rz.f32 %f1, 0f3F800001, 0f3F800001;\n  mov.b32 %r9, %f1;" W32, 0x3f800002u, 0x3f800002u },
    { "  fma.rm.f32 %f1, 0f3F800001, 0f3F800001, 0f00000000;\n  mov.b32 %r9, %f1;" W32, 0x3f800002u, 0x3f800002u },
    { "  fma.rp.f32 %f1, 0f3F800001, 0f3F800001, 0f00000000;\n  mov.b32 %r9, %f1;" W32, 0x3f800003u, 0x3f800003u },
    { "  fma.rz.f32 %f1, 0fBF800001, 0f3F800001, 0f00000000;\n  mov.b32 %r9, %f1;" W32, 0xbf800002u, 0xbf800002u },
    { "  fma.rm.f32 %f1, 0fBF800001, 0f3F800001, 0f00000000;\n  mov.b32 %r9, %f1;" W32, 0xbf800003u, 0xbf800003u },
    { "  fma.rm.f32 %f1, 0f3F800001, 0f3F7FFFFF, 0fBF800000;\n  mov.b32 %r9, %f1;" W32, 0x337ffffeu, 0x337ffffeu },
    { "  fma.rp.f32 %f1, 0f3F800000, 0f3F800000, 0f33000000;\n  mov.b32 %r9, %f1;" W32, 0x3f800001u, 0x3f800001u },
    { "  mul.rz.f32 %f1, 0f7F7FFFFF, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0x7f7fffffu, 0x7f7fffffu },
    { "  mul.rp.f32 %f1, 0f7F7FFFFF, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0x7f800000u, 0x7f800000u },
    { "  mul.rm.f32 %f1, 0fFF7FFFFF, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0xff800000u, 0xff800000u },
    { "  mul.rz.f32 %f1, 0fFF7FFFFF, 0f40000000;\n  mov.b32 %r9, %f1;" W32, 0xff7fffffu, 0xff7fffffu },
    { "  mul.rp.f32 %f1, 0f00000001, 0f3F000000;\n  mov.b32 %r9, %f1;" W32, 0x1u, 0x1u },
    { "  mul.rz.f32 %f1, 0f00000001, 0f3F000000;\n  mov.b32 %r9, %f1;" W32, 0x0u, 0x0u },
    { "  fma.rm.f32 %f1, 0f3F800000, 0f00000000, 0f80000000;\n  mov.b32 %r9, %f1;" W32, 0x80000000u, 0x80000000u },
    /* 16-bit integers: values read as their type whatever extension the
    ** register holds, results wrapped at 16 bits */
    { "  mov.u16 %rs1, 0xffff;\n  setp.lt.s16 %p1, %rs1, 0;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  mov.u16 %rs1, 0xffff;\n  setp.lt.u16 %p1, %rs1, 0;\n  selp.u32 %r9, 1, 2, %p1;" W32, 2, 2 },
    { "  mov.u16 %rs1, 0xffff;\n  setp.eq.s16 %p1, %rs1, 0xffff;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  mov.u16 %rs1, 32767;\n  add.s16 %rs2, %rs1, 1;\n  cvt.s32.s16 %r9, %rs2;" W32, 0xffff8000u, 0xffff8000u },
    { "  mov.u16 %rs1, 0x8000;\n  shr.s16 %rs2, %rs1, 15;\n  cvt.u32.u16 %r9, %rs2;" W32, 0xffff, 0xffff },
    { "  mov.u16 %rs1, 0x8000;\n  shr.u16 %rs2, %rs1, 15;\n  cvt.u32.u16 %r9, %rs2;" W32, 1, 1 },
    { "  mov.u16 %rs1, 0xffff;\n  min.u16 %rs2, %rs1, 5;\n  cvt.u32.u16 %r9, %rs2;" W32, 5, 5 },
    { "  mov.u16 %rs1, 0xffff;\n  max.s16 %rs2, %rs1, 5;\n  cvt.u32.u16 %r9, %rs2;" W32, 5, 5 },
    { "  mov.u16 %rs1, 0xffff;\n  mul.wide.s16 %r9, %rs1, 3;" W32, 0xfffffffdu, 0xfffffffdu },
    { "  mov.u16 %rs1, 300;\n  mul.lo.u16 %rs2, %rs1, %rs1;\n  cvt.u32.u16 %r9, %rs2;" W32, 90000 - 65536, 90000 - 65536 },
    { "  mov.u16 %rs1, 0x8000;\n  abs.s16 %rs2, %rs1;\n  cvt.s32.s16 %r9, %rs2;" W32, 0xffff8000u, 0xffff8000u },
    { "  mov.u16 %rs1, 0x8000;\n  div.s16 %rs2, %rs1, -1;\n  cvt.s32.s16 %r9, %rs2;" W32, 0xffff8000u, 0xffff8000u },
    { "  cvt.u16.u32 %rs1, %r0;\n  setp.gt.u16 %p1, %rs1, 15;\n  selp.b16 %rs2, 7, 9, %p1;\n  cvt.u32.u16 %r9, %rs2;" W32, 9, 7 },
    { "  mov.u16 %rs1, 0x00f0;\n  not.b16 %rs2, %rs1;\n  cvt.u32.u16 %r9, %rs2;" W32, 0xff0f, 0xff0f },
    /* bit search, byte dot products, 64-bit high products, matches, reductions */
    { "  fns.b32 %r9, 0x00f0f000, 0, 1;" W32, 12, 12 },        /* the first set bit from 0 */
    { "  fns.b32 %r9, 0x00f0f000, 13, 3;" W32, 15, 15 },       /* 13 (base counts), 14, 15 */
    { "  fns.b32 %r9, 0x00f0f000, 20, -2;" W32, 15, 15 },      /* down: 20, then 15 */
    { "  fns.b32 %r9, 0x00f0f000, 12, 0;" W32, 12, 12 },       /* offset 0: is bit 12 set */
    { "  fns.b32 %r9, 0x00f0f000, 11, 0;" W32, 0xffffffff, 0xffffffff },
    { "  fns.b32 %r9, 0x00f0f000, 0, 9;" W32, 0xffffffff, 0xffffffff }, /* only 8 set */
    { "  bfind.u32 %r9, 0x00010000;" W32, 16, 16 },
    { "  bfind.shiftamt.u32 %r9, 0x00010000;" W32, 15, 15 },
    { "  bfind.u32 %r9, 0;" W32, 0xffffffff, 0xffffffff },
    { "  bfind.s32 %r9, -2;" W32, 0, 0 },
    { "  bfind.s32 %r9, -1;" W32, 0xffffffff, 0xffffffff },
    { "  mov.u64 %rd1, 0x0000010000000000;\n  bfind.u64 %r9, %rd1;" W32, 40, 40 },
    { "  mov.u64 %rd1, 0x0000010000000000;\n  bfind.shiftamt.u64 %r9, %rd1;" W32, 23, 23 },
    { "  dp4a.s32.s32 %r9, 0x80ff0203, 0x01020304, 5;" W32, (uint32_t)(12 + 6 - 2 - 128 + 5), (uint32_t)(12 + 6 - 2 - 128 + 5) },
    { "  dp4a.u32.u32 %r9, 0x80ff0203, 0x01020304, 5;" W32, 5 + 128 + 510 + 6 + 12, 5 + 128 + 510 + 6 + 12 },
    { "  mov.u64 %rd1, -1;\n  mul.hi.u64 %rd9, %rd1, %rd1;", 0xfffffffffffffffeull, 0xfffffffffffffffeull },
    { "  mov.u64 %rd1, -1;\n  mul.hi.s64 %rd9, %rd1, %rd1;", 0, 0 },
    { "  mov.u64 %rd1, 0x8000000000000000;\n  mul.hi.s64 %rd9, %rd1, 2;", UINT64_MAX, UINT64_MAX },
    { "  sad.s32 %r9, -5, 3, 100;" W32, 108, 108 },
    { "  and.b32 %r1, %r0, 3;\n  match.any.sync.b32 %r9, %r1, -1;" W32, 0x11111111, 0x88888888 },
    { "  and.b32 %r1, %r0, 1;\n  cvt.u64.u32 %rd1, %r1;\n  match.any.sync.b64 %r9, %rd1, 0x0000ffff;" W32, 0x5555, 0xaaaa },
    { "  sub.s32 %r1, 10, %r0;\n  redux.sync.min.s32 %r9, %r1, -1;" W32, (uint32_t)-21, (uint32_t)-21 },
    { "  sub.s32 %r1, 10, %r0;\n  redux.sync.max.u32 %r9, %r1, -1;" W32, 0xffffffff, 0xffffffff }, /* lane 11's -1 */
    { "  redux.sync.or.b32 %r9, %r0, -1;" W32, 31, 31 },
    { "  redux.sync.xor.b32 %r9, %r0, -1;" W32, 0, 0 },
    { "  or.b32 %r1, %r0, 64;\n  redux.sync.and.b32 %r9, %r1, -1;" W32, 64, 64 },
    /* 16-bit floats: conversions in every rounding mode */
    { "  cvt.rn.f16.f32 %rs1, 0f3F800000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3c00, 0x3c00 },
    { "  cvt.rn.f16.f32 %rs1, 0f3F801000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3c00, 0x3c00 },  /* 1 + 2^-11: tie to even */
    { "  cvt.rn.f16.f32 %rs1, 0f3F803000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3c02, 0x3c02 },  /* 1 + 3*2^-11: tie up */
    { "  cvt.rp.f16.f32 %rs1, 0f3F800001;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3c01, 0x3c01 },
    { "  cvt.rm.f16.f32 %rs1, 0fBF800001;\n  cvt.u32.u16 %r9, %rs1;" W32, 0xbc01, 0xbc01 },
    { "  cvt.rn.f16.f32 %rs1, 0f477FF000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x7c00, 0x7c00 },  /* 65520: overflows */
    { "  cvt.rz.f16.f32 %rs1, 0f477FF000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x7bff, 0x7bff },
    { "  cvt.rn.f16.f32 %rs1, 0f33800000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x0001, 0x0001 },  /* 2^-24: the smallest */
    { "  cvt.rn.f16.f32 %rs1, 0f33000000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x0000, 0x0000 },  /* 2^-25: tie to 0 */
    { "  cvt.rn.f16.f32 %rs1, 0f7FC00000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x7fff, 0x7fff },
    { "  cvt.rn.bf16.f32 %rs1, 0f3F808000;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3f80, 0x3f80 },  /* tie to even */
    { "  cvt.rp.bf16.f32 %rs1, 0f3F800001;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3f81, 0x3f81 },
    { "  mov.u16 %rs1, 0x3555;\n  cvt.f32.f16 %f1, %rs1;\n  mov.b32 %r9, %f1;" W32, 0x3eaaa000, 0x3eaaa000 },
    { "  mov.u16 %rs1, 0x0001;\n  cvt.f32.f16 %f1, %rs1;\n  mov.b32 %r9, %f1;" W32, 0x33800000, 0x33800000 },
    { "  mov.u16 %rs1, 0xc049;\n  cvt.f32.bf16 %f1, %rs1;\n  mov.b32 %r9, %f1;" W32, 0xc0490000, 0xc0490000 },
    { "  cvt.rn.f16.u32 %rs1, %r0;\n  cvt.rzi.s32.f16 %r9, %rs1;" W32, 0, 31 },
    { "  cvt.rn.f16.f64 %rs1, 0d3FF0020000000001;\n  cvt.u32.u16 %r9, %rs1;" W32, 0x3c01, 0x3c01 },
    /* lop3 truth tables, mad.hi, __syncwarp, inline asm's scoped registers */
    { "  lop3.b32 %r9, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96;" W32, 0x96969696, 0x96969696 },
    { "  lop3.b32 %r9, %r0, 12, 10, 0xE8;" W32, 8, 14 },  /* majority(a, b, c) */
    { "  mov.u32 %r1, -1;\n  mad.hi.u32 %r9, %r1, %r1, 5;" W32, 0xfffffffe + 5, 0xfffffffe + 5 },
    { "  mad.hi.s32 %r9, -1, 7, 100;" W32, 99, 99 },
    { "  bar.warp.sync -1;\n  mov.u32 %r9, %r0;" W32, 0, 31 },
    { "  {\n  .reg .pred p;\n  .reg .b32 t;\n  setp.lt.u32 p, %r0, 16;\n  selp.b32 t, 3, 4, p;\n  mov.u32 %r9, t;\n  }\n"
      "  {\n  .reg .pred p;\n  setp.eq.u32 p, %r9, 4;\n  @p add.u32 %r9, %r9, 10;\n  }" W32, 3, 14 },
    /* local memory: each thread's own depot, through ld/st.local and the
    ** generic window; a 64-bit register stored as its low word; bfi.b64 */
    { "  .local .align 8 .b8 dep[64];\n  mov.u64 %rd1, dep;\n  shl.b32 %r1, %r0, 1;\n  st.local.u32 [%rd1+8], %r1;\n"
      "  bar.sync 0;\n  ld.local.u32 %r9, [%rd1+8];" W32, 0, 62 },
    { "  .local .align 8 .b8 dep[64];\n  mov.u64 %rd1, dep;\n  cvta.local.u64 %rd2, %rd1;\n  st.u32 [%rd2+4], %r0;\n"
      "  cvta.to.local.u64 %rd3, %rd2;\n  ld.local.u32 %r9, [%rd3+4];" W32, 0, 31 },
    { "  .local .align 8 .b8 dep[64];\n  mov.u64 %rd1, dep;\n  st.local.u32 [%rd1+60], %rd0;\n  ld.local.u32 %r9, [dep+60];" W32, 0, 31 },
    { "  .local .align 8 .b8 dep[64];\n  mov.u64 %rd1, dep;\n  st.local.v2.u32 [%rd1+16], {%r0, 7};\n  ld.local.u64 %rd9, [%rd1+16];",
      7ull << 32, 7ull << 32 | 31 },
    { "  .local .align 4 .b8 dep[64];\n  mov.u64 %rd1, dep;\n  st.local.u32 [%rd1], 0;\n  cvt.u16.u32 %rs1, %r0;\n"
      "  st.local.u8 [%rd1+1], %rs1;\n  st.local.b16 [%rd1+2], 0xffff;\n  ld.local.u32 %r1, [%rd1];\n  ld.local.s8 %r2, [%rd1+3];\n"
      "  add.s32 %r9, %r1, %r2;" W32, 0xffff0000u - 1, 0xffff1f00u - 1 },
    /* a narrower load into a 64-bit register: extended as its type */
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], -5;\n  bar.sync 0;\n  ld.shared.s32 %rd9, [%r1];", (uint64_t)-5ll, (uint64_t)-5ll },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], -5;\n  bar.sync 0;\n  ld.shared.u32 %rd9, [%r1];", 0xfffffffbull, 0xfffffffbull },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], -5;\n  bar.sync 0;\n  ld.shared.s8 %rd9, [%r1];", (uint64_t)-5ll, (uint64_t)-5ll },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], -5;\n  bar.sync 0;\n  ld.shared.u16 %rd9, [%r1];", 0xfffbull, 0xfffbull },
    { "  mov.u64 %rd1, 255;\n  bfi.b64 %rd9, %rd1, 0, 60, 8;", 0xf000000000000000ull, 0xf000000000000000ull },
    { "  mov.u64 %rd1, -1;\n  bfi.b64 %rd9, 0, %rd1, 4, 32;", 0xfffffff00000000full, 0xfffffff00000000full },
    /* binary64: rounding of add/mul in every mode, fma's single rounding,
    ** conversions, compares with NaN, signed zeros, classes, atomics */
#define F64R "\n  mov.b64 %rd9, %fd1;"
    { "  add.f64 %fd1, 0d3FF0000000000000, 0d3C30000000000000;" F64R, 0x3ff0000000000000ull, 0x3ff0000000000000ull },
    { "  add.rp.f64 %fd1, 0d3FF0000000000000, 0d3C30000000000000;" F64R, 0x3ff0000000000001ull, 0x3ff0000000000001ull },
    { "  add.rm.f64 %fd1, 0d3FF0000000000000, 0dBC30000000000000;" F64R, 0x3fefffffffffffffull, 0x3fefffffffffffffull },
    { "  add.rz.f64 %fd1, 0d3FF0000000000000, 0dBC30000000000000;" F64R, 0x3fefffffffffffffull, 0x3fefffffffffffffull },
    { "  sub.rm.f64 %fd1, 0d4000000000000000, 0d4000000000000000;" F64R, 0x8000000000000000ull, 0x8000000000000000ull },
    { "  add.rz.f64 %fd1, 0d7FEFFFFFFFFFFFFF, 0d7FEFFFFFFFFFFFFF;" F64R, 0x7fefffffffffffffull, 0x7fefffffffffffffull },
    { "  mul.rz.f64 %fd1, 0d3FF0000000000001, 0d3FF0000000000001;" F64R, 0x3ff0000000000002ull, 0x3ff0000000000002ull },
    { "  mul.rp.f64 %fd1, 0d3FF0000000000001, 0d3FF0000000000001;" F64R, 0x3ff0000000000003ull, 0x3ff0000000000003ull },
    { "  mul.rm.f64 %fd1, 0dBFF0000000000001, 0d3FF0000000000001;" F64R, 0xbff0000000000003ull, 0xbff0000000000003ull },
    { "  fma.rn.f64 %fd1, 0d3FF0000000000001, 0d3FEFFFFFFFFFFFFF, 0dBFF0000000000000;" F64R, 0x3c9ffffffffffffeull, 0x3c9ffffffffffffeull },
    { "  div.rn.f64 %fd1, 0d3FF0000000000000, 0d4008000000000000;" F64R, 0x3fd5555555555555ull, 0x3fd5555555555555ull },
    { "  sqrt.rn.f64 %fd1, 0d4000000000000000;" F64R, 0x3ff6a09e667f3bcdull, 0x3ff6a09e667f3bcdull },
    { "  rcp.rn.f64 %fd1, 0d4010000000000000;" F64R, 0x3fd0000000000000ull, 0x3fd0000000000000ull },
    { "  min.f64 %fd1, 0d7FF8000000000000, 0d4000000000000000;" F64R, 0x4000000000000000ull, 0x4000000000000000ull },
    { "  max.f64 %fd1, 0d8000000000000000, 0d0000000000000000;" F64R, 0, 0 },
    { "  abs.f64 %fd1, 0dC000000000000000;" F64R, 0x4000000000000000ull, 0x4000000000000000ull },
    { "  neg.f64 %fd1, 0d0000000000000000;" F64R, 0x8000000000000000ull, 0x8000000000000000ull },
    { "  copysign.f64 %fd1, 0d8000000000000000, 0d4000000000000000;" F64R, 0xc000000000000000ull, 0xc000000000000000ull },
    { "  cvt.rn.f64.u32 %fd1, %r0;" F64R, 0, 0x403f000000000000ull },
    { "  mov.u64 %rd1, -1;\n  cvt.rn.f64.u64 %fd1, %rd1;" F64R, 0x43f0000000000000ull, 0x43f0000000000000ull },
    { "  mov.u64 %rd1, -1;\n  cvt.rz.f64.u64 %fd1, %rd1;" F64R, 0x43efffffffffffffull, 0x43efffffffffffffull },
    { "  cvt.f64.f32 %fd1, 0f3DCCCCCD;" F64R, 0x3fb99999a0000000ull, 0x3fb99999a0000000ull },
    { "  cvt.rn.f32.f64 %f1, 0d3FB999999999999A;\n  mov.b32 %r9, %f1;" W32, 0x3dcccccd, 0x3dcccccd },
    { "  cvt.rz.f32.f64 %f1, 0d3FB999999999999A;\n  mov.b32 %r9, %f1;" W32, 0x3dcccccc, 0x3dcccccc },
    { "  cvt.rz.f32.f64 %f1, 0d7FEFFFFFFFFFFFFF;\n  mov.b32 %r9, %f1;" W32, 0x7f7fffff, 0x7f7fffff },
    { "  cvt.rni.s32.f64 %r9, 0d4004000000000000;" W32, 2, 2 },
    { "  cvt.rzi.s64.f64 %rd9, 0dC00599999999999A;", (uint64_t)-2ll, (uint64_t)-2ll },
    { "  cvt.rmi.f64.f64 %fd1, 0dBFF8000000000000;" F64R, 0xc000000000000000ull, 0xc000000000000000ull },
    { "  cvt.rzi.u32.f64 %r9, 0d7FF8000000000000;" W32, 0, 0 },
    { "  setp.gtu.f64 %p1, 0d7FF8000000000000, 0d3FF0000000000000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  setp.gt.f64 %p1, 0d7FF8000000000000, 0d3FF0000000000000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 2, 2 },
    { "  cvt.rn.f64.u32 %fd1, %r0;\n  setp.lt.f64 %p1, %fd1, 0d4030000000000000;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 2 },
    { "  testp.subnormal.f64 %p1, 0d0000000000000001;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    { "  testp.normal.f64 %p1, 0d0000000000000001;\n  selp.u32 %r9, 1, 2, %p1;" W32, 2, 2 },
    { "  mov.f64 %fd2, 0d3FE0000000000000;\n  selp.f64 %fd1, %fd2, 0d4000000000000000, %p0;\n  setp.eq.u32 %p0, %r0, 0;\n"
      "  selp.f64 %fd1, %fd2, 0d4000000000000000, %p0;" F64R, 0x3fe0000000000000ull, 0x4000000000000000ull },
    { "  mov.u32 %r1, sbuf;\n  st.shared.f64 [%r1+8], 0d0000000000000000;\n  bar.sync 0;\n  atom.shared.add.f64 %fd2, [%r1+8], 0d3FE0000000000000;\n"
      "  bar.sync 0;\n  ld.shared.f64 %fd1, [%r1+8];" F64R, 0x4030000000000000ull, 0x4030000000000000ull },
    /* setp combining and the p|q form */
    { "  setp.eq.u32 %p2, %r0, 0;\n  setp.lt.and.s32 %p1, 1, 2, %p2;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 2 },
    { "  setp.lt.u32 %p1|%p2, %r0, 16;\n  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 2, 0, %p2;\n  or.b32 %r9, %r1, %r2;" W32, 1, 2 },
    { "  setp.eq.u32 %p3, %r0, 31;\n  setp.hi.or.u32 %p1|%p2, %r0, 100, %p3;\n  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 2, 0, %p2;\n"
      "  or.b32 %r9, %r1, %r2;" W32, 2, 3 },
    { "  mov.pred %p1, 1;\n  selp.u32 %r9, 1, 2, %p1;" W32, 1, 1 },
    /* warp level */
    { "  mov.u32 %r9, %lanemask_lt;" W32, 0, 0x7fffffff },
    { "  mov.u32 %r9, %lanemask_ge;" W32, 0xffffffff, 0x80000000 },
    { "  activemask.b32 %r9;" W32, 0xffffffff, 0xffffffff },
    { "  setp.eq.u32 %p1, %r0, 5;\n  vote.sync.any.pred %p2, %p1, -1;\n  selp.u32 %r9, 1, 2, %p2;" W32, 1, 1 },
    { "  setp.eq.u32 %p1, %r0, 5;\n  vote.sync.all.pred %p2, %p1, -1;\n  selp.u32 %r9, 1, 2, %p2;" W32, 2, 2 },
    { "  setp.lt.u32 %p1, %r0, 2;\n  vote.sync.ballot.b32 %r9, %p1, -1;" W32, 3, 3 },
    { "  shfl.sync.down.b32 %r1|%p1, %r0, 1, 31, -1;\n  selp.u32 %r9, %r1, 99, %p1;" W32, 1, 99 },
    { "  redux.sync.add.u32 %r9, %r0, -1;" W32, 496, 496 },
    /* memory: sub-word, generic through the shared window, atomics */
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], 0x8180ff7f;\n  bar.sync 0;\n  ld.shared.s8 %r9, [%r1+1];" W32, 0xffffffff, 0xffffffff },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], 0x8180ff7f;\n  bar.sync 0;\n  ld.shared.u16 %rs1, [%r1+2];\n"
      "  cvt.u32.u16 %r9, %rs1;" W32, 0x8180, 0x8180 },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1+8], 0;\n  bar.sync 0;\n  setp.eq.u32 %p1, %r0, 3;\n"
      "  @%p1 st.shared.b8 [%r1+9], 0x1ff;\n  bar.sync 0;\n  ld.shared.u32 %r9, [%r1+8];" W32, 0xff00, 0xff00 },
    { "  mov.u64 %rd1, sbuf;\n  cvta.shared.u64 %rd2, %rd1;\n  st.u32 [%rd2+4], 1234;\n  bar.sync 0;\n"
      "  cvta.to.shared.u64 %rd3, %rd2;\n  cvt.u32.u64 %r1, %rd3;\n  ld.shared.u32 %r9, [%r1+4];" W32, 1234, 1234 },
    { "  mov.u32 %r1, sbuf;\n  st.shared.v2.u32 [%r1+24], {5, 7};\n  bar.sync 0;\n  ld.shared.u32 %r9, [%r1+28];" W32, 7, 7 },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], 0;\n  bar.sync 0;\n  atom.shared.inc.u32 %r2, [%r1], 9;\n  bar.sync 0;\n"
      "  ld.shared.u32 %r9, [%r1];" W32, 2, 2 }, /* 32 increments wrapping at 9: 32 mod 10 */
    { "  mov.u32 %r1, sbuf;\n  st.shared.u32 [%r1], 0;\n  bar.sync 0;\n  shl.b32 %r2, 1, %r0;\n  atom.shared.or.b32 %r3, [%r1], %r2;\n"
      "  bar.sync 0;\n  ld.shared.u32 %r9, [%r1];" W32, 0xffffffff, 0xffffffff },
    { "  mov.u32 %r1, sbuf;\n  st.shared.u64 [%r1+16], 0;\n  bar.sync 0;\n  red.shared.add.u64 [%r1+16], 4294967296;\n  bar.sync 0;\n"
      "  ld.shared.u64 %rd9, [%r1+16];", 32ull << 32, 32ull << 32 },
};

START_TEST(test_lanes)
{
    const LaneCase *c = &LANES[_i];
    char src[4096];
    snprintf(src, sizeof src, TEMPLATE, c->body);
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 32 * 8, "out", &d);
    ck_assert_uint_ne(out, 0);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    bool ok = grid_run_functional(&p.kernels[0], g, &L, &r);
    ck_assert_msg(ok, "%s\n%s", r.message, c->body);
    const uint64_t *res = gmem_translate(g, out, 32 * 8);
    ck_assert_msg(res[0] == c->lane0 && res[31] == c->lane31, "%s\nlane 0: 0x%llx (expected 0x%llx), lane 31: 0x%llx (expected 0x%llx)",
                  c->body, (unsigned long long)res[0], (unsigned long long)c->lane0, (unsigned long long)res[31],
                  (unsigned long long)c->lane31);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* A 64-bit address with a nonzero high word faults with its own kind. */
START_TEST(test_addr64_fault)
{
    char src[4096];
    snprintf(src, sizeof src, TEMPLATE, "  mov.u64 %rd1, 0x100010000;\n  ld.global.u32 %r9, [%rd1];" W32);
    Program p;
    parse_ok(src, &p);
    GlobalMem *g = gmem_create();
    Diag d;
    uint32_t out = gmem_alloc(g, 256, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
    ck_assert_int_eq(r.status, GRID_FAULT);
    ck_assert_msg(strstr(r.message, "64-bit address beyond the simulated 32-bit space") &&
                      strstr(r.message, "0x100010000"), "%s", r.message);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Per lane: a high word in a lane the guard leaves out is no fault; in an
** active lane it is, at that lane's address (the lanes' high words are
** tested all at once, the lane found only then: isa/exec.c addresses64). */
START_TEST(test_addr64_fault_lane)
{
    static const char body[] =
        "  ld.param.u64 %%rd1, [t_param_0];\n  cvta.to.global.u64 %%rd1, %%rd1;\n"
        "  setp.eq.u32 %%p1, %%r0, 9;\n  setp.eq.u32 %%p2, %%r0, %d;\n"
        "  selp.b64 %%rd2, 4294967296, 0, %%p1;\n  selp.b64 %%rd3, 8589934592, 0, %%p2;\n"
        "  add.s64 %%rd1, %%rd1, %%rd2;\n  add.s64 %%rd1, %%rd1, %%rd3;\n"
        "  setp.ne.u32 %%p3, %%r0, 9;\n  @%%p3 ld.global.u32 %%r9, [%%rd1];\n  cvt.u64.u32 %%rd9, %%r9;";
    for (int bad = 7; bad <= 40; bad += 33) { /* lane 7, then none (40 is no lane) */
        char snippet[1024], src[4096];
        snprintf(snippet, sizeof snippet, body, bad);
        snprintf(src, sizeof src, TEMPLATE, snippet);
        Program p;
        parse_ok(src, &p);
        GlobalMem *g = gmem_create();
        Diag d;
        uint32_t out = gmem_alloc(g, 256, "out", &d);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
        GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
        GridResult r;
        bool ok = grid_run_functional(&p.kernels[0], g, &L, &r);
        if (bad == 40) {
            ck_assert_msg(ok, "%s", r.message);
        } else {
            char want[64];
            snprintf(want, sizeof want, "0x%llx", (unsigned long long)(out + 8589934592ull));
            ck_assert(!ok);
            ck_assert_msg(strstr(r.message, "64-bit address beyond the simulated 32-bit space") && strstr(r.message, want) &&
                              strstr(r.message, "thread (7,0,0)"), "%s", r.message);
        }
        gmem_destroy(g);
        program_destroy(&p);
    }
}
END_TEST

/* A local access past the thread's depot faults with its own kind, at the
** offset the kernel used; so does a generic access mixing windows. */
START_TEST(test_local_faults)
{
    static const struct { const char *body, *msg; } cases[] = {
        { "  .local .align 4 .b8 dep[16];\n  mov.u64 %rd1, dep;\n  ld.local.u32 %r9, [%rd1+16];" W32,
          "out-of-bounds local access of 4 bytes at address 0x10" },
        { "  .local .align 4 .b8 dep[16];\n  mov.u64 %rd1, dep;\n  cvta.local.u64 %rd2, %rd1;\n  mov.u64 %rd3, sbuf;\n"
          "  cvta.shared.u64 %rd4, %rd3;\n  setp.eq.u32 %p1, %r0, 3;\n  selp.b64 %rd5, %rd2, %rd4, %p1;\n  ld.u32 %r9, [%rd5];" W32,
          "generic access mixing shared, local and global lanes" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[4096];
        snprintf(src, sizeof src, TEMPLATE, cases[i].body);
        Program p;
        parse_ok(src, &p);
        GlobalMem *g = gmem_create();
        Diag d;
        uint32_t out = gmem_alloc(g, 256, "out", &d);
        uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
        GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
        GridResult r;
        ck_assert(!grid_run_functional(&p.kernels[0], g, &L, &r));
        ck_assert_int_eq(r.status, GRID_FAULT);
        ck_assert_msg(strstr(r.message, cases[i].msg), "%s", r.message);
        gmem_destroy(g);
        program_destroy(&p);
    }
}
END_TEST

/* ------------------------------------------------------------------ Twins */

static char *slurp(const char *path, size_t *len)
{
    char *t;
    ck_assert_msg(file_read(path, 64u << 20, &t, len, NULL, 0) == FILE_READ_OK, "cannot read %s", path);
    return t;
}

/* Every committed twin's PTX reads; its kernels have demangled bare
** names (where the demangler is built in), params at their offsets, and
** every instruction a cost. */
START_TEST(test_twins_read)
{
    DIR *dir = opendir(PTX_DIR);
    ck_assert_ptr_nonnull(dir);
    uint32_t files = 0, kernels = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", PTX_DIR, e->d_name);
        Program p;
        Diag d;
        ck_assert_msg(program_load_file(path, &p, &d), "%s:%u:%u: %s", path, d.line, d.col, d.message);
        for (uint32_t i = 0; i < p.nkernels; i++) {
            const Kernel *k = &p.kernels[i];
            ck_assert(k->ptx && k->mangled);
            if (ptx_can_demangle()) ck_assert_msg(k->signature && strstr(k->signature, k->name), "%s", k->mangled);
            ck_assert_msg(strlen(k->name) < strlen(k->mangled), "%s: bare name %s", k->mangled, k->name);
            for (uint32_t j = 1; j < k->nparams; j++)
                ck_assert(k->params[j].offset >= k->params[j - 1].offset + k->params[j - 1].size);
            for (uint32_t pc = 0; pc < k->ncode; pc++) ck_assert(k->code[pc].slots < 64);
            ck_assert_uint_le(k->regs_used, 255);
            kernels++;
        }
        program_destroy(&p);
        files++;
    }
    closedir(dir);
    ck_assert_uint_ge(files, 15);
    ck_assert_uint_ge(kernels, 30);
}
END_TEST

/* vecadd_scalar from its nvcc output, run: c = a + b; and timed as ptxas
** emits it: mul.wide folded into three IMAD.WIDE, ld.param and cvta free,
** and `@%p1 bra $L__BB0_2` to the kernel's ret an `@P0 EXIT`. */
START_TEST(test_twin_vecadd_runs)
{
    Program p;
    Diag d;
    ck_assert_msg(program_load_file(PTX_DIR "/vecadd.ptx", &p, &d), "%s", d.message);
    char msg[1024];
    const Kernel *k = program_match_kernel(&p, "vecadd_scalar", msg, sizeof msg);
    ck_assert_msg(k != NULL, "%s", msg);
    uint32_t slots = 0, folded = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        slots += k->code[pc].slots;
        folded += k->code[pc].op == OP_MUL_WIDE_U32 && k->code[pc].slots == 0;
    }
    ck_assert_uint_eq(folded, 1);
    ck_assert_uint_lt(slots, k->ncode);
    uint32_t branches = 0, guarded_exits = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        branches += k->code[pc].op == OP_BRA;
        guarded_exits += k->code[pc].op == OP_EXIT && k->code[pc].guard != ISA_NO_GUARD;
    }
    ck_assert_uint_eq(branches, 0);
    ck_assert_uint_eq(guarded_exits, 1);
    const uint32_t n = 1000;
    GlobalMem *g = gmem_create();
    uint32_t a = gmem_alloc(g, n * 4, "a", &d), b = gmem_alloc(g, n * 4, "b", &d), c = gmem_alloc(g, n * 4, "c", &d);
    float *ha = gmem_translate(g, a, n * 4), *hb = gmem_translate(g, b, n * 4), *hc = gmem_translate(g, c, n * 4);
    for (uint32_t i = 0; i < n; i++) ha[i] = (float)i * 0.5f, hb[i] = 3.0f - (float)i;
    uint32_t params[ISA_MAX_PARAM_WORDS] = { 0 };
    params[k->params[0].offset / 4] = a;
    params[k->params[1].offset / 4] = b;
    params[k->params[2].offset / 4] = c;
    params[k->params[3].offset / 4] = n;
    GridLaunch L = { .grid = { (n + 255) / 256, 1, 1 }, .block = { 256, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(k, g, &L, &r), "%s", r.message);
    for (uint32_t i = 0; i < n; i++) ck_assert_float_eq(hc[i], ha[i] + hb[i]);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* ---------------------------------------------------------------- Names */

static const char TWO_F[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".entry _Z1fPf(.param .u64 _Z1fPf_param_0)\n{\n  ret;\n}\n"
    ".entry _Z1fPi(.param .u64 _Z1fPi_param_0)\n{\n  ret;\n}\n"
    ".entry _ZN2ns5innerEv()\n{\n  ret;\n}\n"
    ".entry plain_c()\n{\n  ret;\n}\n";

START_TEST(test_kernel_names)
{
    Program p;
    parse_ok(TWO_F, &p);
    char msg[1024];
    ck_assert_ptr_null(program_match_kernel(&p, "f", msg, sizeof msg));
    ck_assert_msg(strstr(msg, "ambiguous"), "%s", msg);
    ck_assert_ptr_eq(program_match_kernel(&p, "_Z1fPi", msg, sizeof msg), &p.kernels[1]);
    ck_assert_ptr_eq(program_match_kernel(&p, "inner", msg, sizeof msg), &p.kernels[2]);
    ck_assert_ptr_eq(program_match_kernel(&p, "plain_c", msg, sizeof msg), &p.kernels[3]);
    ck_assert_ptr_null(program_match_kernel(&p, "nope", msg, sizeof msg));
    ck_assert_msg(strstr(msg, "plain_c"), "%s", msg);
    if (ptx_can_demangle()) {
        ck_assert_msg(strstr(msg, "inner") != NULL, "%s", msg);
        ck_assert_ptr_eq(program_match_kernel(&p, "f(float*)", msg, sizeof msg), &p.kernels[0]);
        ck_assert_str_eq(p.kernels[2].signature, "ns::inner()");
    }
    program_destroy(&p);
}
END_TEST

/* Runs k over one warp with out (32 words) as its parameter, the program's
** variables mapped at their addresses; returns out's first and last word. */
static void run_with_vars(const Program *p, uint32_t *first, uint32_t *last)
{
    GlobalMem *g = gmem_create();
    Diag d;
    for (uint32_t i = 0; i < p->nvars; i++) {
        ck_assert_msg(gmem_alloc_at(g, p->vars[i].addr, p->vars[i].size, p->vars[i].name, &d), "%s", d.message);
        if (p->vars[i].init) memcpy(gmem_translate(g, p->vars[i].addr, p->vars[i].size), p->vars[i].init, p->vars[i].size);
    }
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p->kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *res = gmem_translate(g, out, 32 * 4);
    *first = res[0];
    *last = res[31];
    gmem_destroy(g);
}

/* Module-scope variables (__device__, __constant__): laid out in the
** variable window with their initializers (bytes, words, floats, nested
** braces, a size taken from the initializer); read by ld.const and
** ld.global at a displacement and through a generic address (mov, cvta),
** written by st.global; moved by program_bind_vars. Unused ones (the
** one-byte tags CUDA's headers put in every file) cost nothing. Before,
** a kernel that named one was refused. */
START_TEST(test_module_variables)
{
    static const char *src =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".global .align 1 .b8 _ZN4cuda3std3__45__cpo4sizeE[1];\n"
        ".const .align 4 .b8 bytes[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"
        ".const .align 4 .f32 scale[2] = {0f40000000, 0.5};\n"
        ".global .align 4 .u32 grid[2][2] = {{10, 20}, {30, 40}};\n"
        ".global .align 4 .u32 open[] = {5, 6, 7};\n"
        ".global .align 4 .u32 counter;\n"
        ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .b32 %r<12>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<6>;\n"
        "  .reg .pred %p<2>;\n"
        "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r1, %tid.x;\n"
        "  ld.const.u32 %r2, [bytes+4];\n"              /* 2 */
        "  ld.const.f32 %f1, [scale];\n"                /* 2.0 */
        "  cvt.rzi.u32.f32 %r3, %f1;\n"
        "  mov.u64 %rd2, grid;\n  ld.global.u32 %r4, [%rd2+12];\n" /* 40 */
        "  cvta.global.u64 %rd3, open;\n  ld.u32 %r5, [%rd3+8];\n"    /* 7 */
        "  st.global.u32 [counter], %r1;\n  ld.global.u32 %r6, [counter];\n"
        "  add.s32 %r7, %r2, %r3;\n  add.s32 %r8, %r7, %r4;\n  add.s32 %r9, %r8, %r5;\n" /* 51 */
        "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"
        "  setp.eq.u32 %p1, %r1, 31;\n  @%p1 mov.u32 %r9, %r6;\n"
        "  st.global.u32 [%rd5], %r9;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    ck_assert_uint_eq(p.nvars, 6);
    ck_assert_str_eq(p.vars[1].name, "bytes");
    ck_assert(p.vars[1].constant && !p.vars[3].constant);
    ck_assert_uint_eq(p.vars[3].size, 16);
    ck_assert_uint_eq(p.vars[4].size, 12); /* from its initializer */
    ck_assert(p.vars[5].init == NULL);
    float half;
    memcpy(&half, p.vars[2].init + 4, 4);
    ck_assert(half == 0.5f);
    for (uint32_t i = 0; i < p.nvars; i++) {
        ck_assert_uint_ge(p.vars[i].addr, ISA_VAR_WINDOW);
        ck_assert_uint_eq(p.vars[i].addr % ISA_VAR_ALIGN, 0);
    }
    uint32_t first, last;
    run_with_vars(&p, &first, &last);
    ck_assert_uint_eq(first, 51);
    ck_assert_uint_eq(last, 31); /* the last store to counter: lane 31 */
    uint32_t moved[6];
    for (uint32_t i = 0; i < 6; i++) moved[i] = 0x100000 + 0x1000 * i;
    program_bind_vars(&p, moved);
    ck_assert_uint_eq(p.vars[3].addr, 0x103000);
    run_with_vars(&p, &first, &last);
    ck_assert_uint_eq(first, 51);
    ck_assert_uint_eq(last, 31);
    program_destroy(&p);
}
END_TEST

/* mov.pred takes any integer, nonzero true: nvcc writes `mov.pred %p, -1`
** (it was refused as "expected a predicate ... found '1'"). */
START_TEST(test_mov_pred_immediates)
{
    static const char *src = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                             "  .reg .pred %p<4>;\n  mov.pred %p1, -1;\n  mov.pred %p2, 0;\n  mov.pred %p3, 1;\n"
                             "  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    const Kernel *k = &p.kernels[0];
    static const uint32_t want[] = { 1, 0, 1 };
    uint32_t seen = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++)
        if (k->code[pc].op == OP_MOV_PRED) {
            ck_assert_uint_lt(seen, 3);
            ck_assert_int_eq(k->code[pc].src[0].kind, OPND_IMM);
            ck_assert_uint_eq(k->code[pc].src[0].value, want[seen++]);
        }
    ck_assert_uint_eq(seen, 3);
    program_destroy(&p);
}
END_TEST

/* An instruction refused in nvcc's output is reported at the CUDA source
** line its .loc gives, the PTX position after the message (a .cu user's
** error named only the cached PTX's line); an error outside an
** instruction stays at the PTX. */
START_TEST(test_refusal_names_cuda_line)
{
    static const char *src = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/kern.cu\"\n"
                             ".visible .entry k()\n{\n.loc 1 12 5\n  brkpt;\n  ret;\n}\n";
    Program p;
    Diag d;
    ck_assert(ptx_parse(src, strlen(src), "cached.ptx", &p, &d)); /* the kernel is refused, not the file */
    ck_assert(!kernel_runnable(&p, &p.kernels[0], &d));
    ck_assert_str_eq(d.file, "/src/kern.cu");
    ck_assert_uint_eq(d.line, 12);
    ck_assert_uint_eq(d.col, 0);
    ck_assert_msg(strstr(d.message, "'brkpt' is not supported yet") && strstr(d.message, " (PTX cached.ptx:8:3)"),
                  "%s", d.message);
    program_destroy(&p);
    static const char *dir = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/kern.cu\"\n"
                             ".visible .entry k()\n{\n.loc 1 12 5\n  ret;\n}\n.bogus\n";
    ck_assert(!ptx_parse(dir, strlen(dir), "cached.ptx", &p, &d));
    ck_assert_msg(!strstr(d.message, "(PTX "), "%s", d.message);
    ck_assert_str_eq(d.file, "cached.ptx");
    /* as nvcc writes it: the .file table after the kernels, and code inlined
    ** from a header naming the user's line it was inlined at */
    static const char *late = ".version 8.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k()\n{\n.loc 2 169 5, function_name $L__info_string0, inlined_at 1 7 3\n"
                              "  brkpt;\n  ret;\n}\n\t.file\t1 \"/src/kern.cu\"\n\t.file\t2 \"/cuda/include/sm_70_rt.hpp\"\n";
    ck_assert(ptx_parse(late, strlen(late), "cached.ptx", &p, &d));
    ck_assert(!kernel_runnable(&p, &p.kernels[0], &d));
    ck_assert_str_eq(d.file, "/src/kern.cu"); /* the user's line, not the header's */
    ck_assert_uint_eq(d.line, 7);
    ck_assert_msg(strstr(d.message, " (in /cuda/include/sm_70_rt.hpp:169, inlined here; PTX cached.ptx:7:3)"), "%s", d.message);
    program_destroy(&p);
    /* inlined twice (tex1Dfetch's helper inside tex1Dfetch): the user's line,
    ** followed out through the outer call's .loc */
    static const char *twice = ".version 8.0\n.target sm_90\n.address_size 64\n"
                               ".visible .entry k()\n{\n.loc 1 3 3\n"
                               ".loc 2 122 3, function_name $L__info_string0, inlined_at 1 3 3\n"
                               ".loc 2 115 4, function_name $L__info_string1, inlined_at 2 122 3\n"
                               "  brkpt;\n  ret;\n}\n\t.file\t1 \"/src/kern.cu\"\n\t.file\t2 \"/cuda/include/tex.h\"\n";
    ck_assert(ptx_parse(twice, strlen(twice), "cached.ptx", &p, &d));
    ck_assert(!kernel_runnable(&p, &p.kernels[0], &d));
    ck_assert_str_eq(d.file, "/src/kern.cu");
    ck_assert_uint_eq(d.line, 3);
    ck_assert_msg(strstr(d.message, " (in /cuda/include/tex.h:115, inlined here; PTX cached.ptx:9:3)"), "%s", d.message);
    program_destroy(&p);
}
END_TEST

/* A kernel the front end cannot take is refused alone: the file loads, the
** others run, and the refused one keeps its first error (with its CUDA
** line) for whoever launches it; the file is read on after its body, even
** when the error was in a nested block, or inside a vector operand's
** braces (whose '}' once closed the kernel early and refused the file).
** Before, the first unsupported kernel refused the whole file. The good
** kernel reads a 64-bit value's halves into inline assembly's scoped
** registers, named without '%' (CUB's shuffles). */
START_TEST(test_refused_kernel_alone)
{
    static const char *src =
        ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/two.cu\"\n"
        ".visible .entry bad(.param .u64 bad_param_0)\n{\n  .reg .b32 %r<3>;\n.loc 1 7 3\n"
        "  { .reg .b32 inner;\n  brkpt;\n  }\n  ret;\n}\n"
        ".visible .entry bad_vector(.param .u64 bad_vector_param_0)\n{\n  .reg .b64 %rd<3>;\n"
        "  { .reg .u32 lo; mov.b64 {lo, nothing}, %rd1; }\n  ret;\n}\n"
        ".visible .entry good(.param .u64 good_param_0)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [good_param_0];\n  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n"
        "  { .reg .u32 lo; .reg .u32 hi; mov.b64 {lo, hi}, %rd2; add.u32 %r1, %r1, lo; }\n"
        "  add.s64 %rd1, %rd1, %rd2;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    ck_assert_uint_eq(p.nkernels, 3);
    Diag d;
    ck_assert(!kernel_runnable(&p, &p.kernels[0], &d));
    ck_assert_uint_eq(d.line, 7);
    ck_assert_str_eq(d.file, "/src/two.cu");
    ck_assert_msg(strstr(d.message, "brkpt") && strstr(d.message, "(PTX t.ptx:10:3)"), "%s", d.message);
    ck_assert_uint_eq(p.kernels[0].ncode, 0);
    ck_assert(!kernel_runnable(&p, &p.kernels[1], &d));
    ck_assert_msg(strstr(d.message, "found 'nothing'"), "%s", d.message);
    ck_assert(kernel_runnable(&p, &p.kernels[2], &d));
    GlobalMem *g = gmem_create();
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[2], g, &L, &r), "%s", r.message);
    ck_assert_uint_eq(((const uint32_t *)gmem_translate(g, out, 128))[31], 31 * 5);
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* Inline asm's `{.reg .pred %p; ...}` in a kernel that declares %p<3>:
** `%p` is a register of its own, not one of %p0 .. %p2 (CCCL's mbarrier
** waits on sm_80 declare it so, twice in one kernel); it was refused as
** declared twice. Lane l's result: %p1 (l < 16) and the scoped %p (l odd). */
START_TEST(test_scalar_beside_family)
{
    static const char *src =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 16;\n"
        "  and.b32 %r2, %r1, 1;\n"
        "  {.reg .pred %p;setp.ne.u32 %p, %r2, 0;selp.u32 %r3, 10, 0, %p;}\n"
        "  {.reg .pred %p;setp.eq.u32 %p, %r2, 0;selp.u32 %r4, 100, 0, %p;}\n"
        "  selp.u32 %r5, 1, 0, %p1;\n  add.u32 %r5, %r5, %r3;\n  add.u32 %r5, %r5, %r4;\n"
        "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd1, %rd1, %rd2;\n  st.global.u32 [%rd1], %r5;\n  ret;\n}\n";
    Program p;
    parse_ok(src, &p);
    Diag d;
    ck_assert(kernel_runnable(&p, &p.kernels[0], &d));
    GlobalMem *g = gmem_create();
    uint32_t out = gmem_alloc(g, 32 * 4, "out", &d);
    uint32_t params[ISA_MAX_PARAM_WORDS] = { out, 0 };
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { 32, 1, 1 }, .params = params, .nsm = 1 };
    GridResult r;
    ck_assert_msg(grid_run_functional(&p.kernels[0], g, &L, &r), "%s", r.message);
    const uint32_t *o = gmem_translate(g, out, 128);
    for (uint32_t l = 0; l < 32; l++) ck_assert_uint_eq(o[l], (l < 16) + (l & 1 ? 10 : 100));
    gmem_destroy(g);
    program_destroy(&p);
}
END_TEST

/* ------------------------------------------------------------- BadInput */

/* Every prefix of a real file either reads or fails with a position inside
** it; never a crash (ASan) or a read past the end. */
START_TEST(test_truncations)
{
    size_t len;
    char *text = slurp(PTX_DIR "/transpose.ptx", &len);
    for (size_t n = 0; n < len; n += 7) {
        char *cut = malloc(n ? n : 1); /* exactly n bytes: ASan sees a read past them */
        memcpy(cut, text, n);
        Program p;
        Diag d;
        if (ptx_parse(cut, n, "cut.ptx", &p, &d)) program_destroy(&p);
        else ck_assert_msg(d.line >= 1 && d.message[0], "prefix %zu: no position", n);
        free(cut);
    }
    free(text);
}
END_TEST

/* Random bytes, and the real file with random bytes flipped. */
START_TEST(test_random_bytes)
{
    size_t len;
    char *text = slurp(PTX_DIR "/reduction.ptx", &len);
    uint64_t s = 12345;
    for (int round = 0; round < 300; round++) {
        char *buf = malloc(len);
        memcpy(buf, text, len);
        for (int k = 0; k < 8; k++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            buf[(s >> 33) % len] = (char)(s >> 17);
        }
        Program p;
        Diag d;
        if (ptx_parse(buf, len, "r.ptx", &p, &d)) program_destroy(&p);
        free(buf);
    }
    free(text);
}
END_TEST

/* O(n log n): a kernel of 240,000 instructions, 20,000 labels and 50,000
** registers reads in well under the time a quadratic scan would take. */
START_TEST(test_large_kernel_time)
{
    size_t cap = 16u << 20, len = 0;
    char *src = malloc(cap);
    len += (size_t)snprintf(src + len, cap - len,
                            ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n  .reg .pred %%p<2>;\n"
                            "  .reg .b32 %%r<200002>;\n  mov.u32 %%r0, %%tid.x;\n");
    for (int i = 1; i <= 200000; i++) {
        if (i % 10 == 0) len += (size_t)snprintf(src + len, cap - len, "$L%d:\n", i);
        int d = i <= 50000 ? i : 50001 + i % 2, a = i <= 50001 ? i - 1 : 50001 + (i + 1) % 2; /* 50,000 in a chain, then two */
        len += (size_t)snprintf(src + len, cap - len, "  add.s32 %%r%d, %%r%d, 1;\n", d, a);
        if (i % 10 == 5) len += (size_t)snprintf(src + len, cap - len, "  setp.eq.u32 %%p1, %%r1, 0;\n  @%%p1 bra $L%d;\n", i + 5);
    }
    len += (size_t)snprintf(src + len, cap - len, "  ret;\n}\n");
    clock_t t0 = clock();
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, len, "big.ptx", &p, &d), "%u:%u: %s", d.line, d.col, d.message);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_uint_eq(p.kernels[0].ncode, 200000 + 2 + 2 * 20000);
    ck_assert_msg(secs < 20.0, "%.1f s", secs);
    program_destroy(&p);
    free(src);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ptx");
    TCase *lanes = tcase_create("Lanes");
    tcase_add_loop_test(lanes, test_lanes, 0, (int)(sizeof LANES / sizeof LANES[0]));
    tcase_add_test(lanes, test_addr64_fault);
    tcase_add_test(lanes, test_addr64_fault_lane);
    tcase_add_test(lanes, test_local_faults);
    suite_add_tcase(s, lanes);
    TCase *twins = tcase_create("Twins");
    tcase_add_test(twins, test_twins_read);
    tcase_add_test(twins, test_twin_vecadd_runs);
    suite_add_tcase(s, twins);
    TCase *names = tcase_create("Names");
    tcase_add_test(names, test_kernel_names);
    tcase_add_test(names, test_module_variables);
    tcase_add_test(names, test_refused_kernel_alone);
    tcase_add_test(names, test_scalar_beside_family);
    tcase_add_test(names, test_mov_pred_immediates);
    tcase_add_test(names, test_refusal_names_cuda_line);
    suite_add_tcase(s, names);
    TCase *bad = tcase_create("BadInput");
    tcase_add_test(bad, test_truncations);
    tcase_add_test(bad, test_random_bytes);
    tcase_add_test(bad, test_large_kernel_time);
    tcase_set_timeout(bad, 300);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
