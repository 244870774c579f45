/* tests/check_exec_tex.c -- texture and surface instructions (isa/exec_tex.c,
** isa/ptx_decode_tex.c) run functionally on objects made here: the address
** modes, linear filtering's 9-bit weights, the read modes, tex1Dfetch out of
** range, tld4's order, the surface boundary modes, and the faults. Each
** kernel writes its lanes' results to out[lane * 4 + c]. */
#include "isa/exec.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "isa/gmem.h"
#include "isa/grid.h"
#include "isa/ptx.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* One texture (or surface) over `data`, kernel `body` sampling handle 1 at
** coordinate x = tid * step + start (f32) or tid (s32): out[lane][4]. */
typedef struct {
    GlobalMem  *g;
    uint32_t    out, mem;
    ExecTexture obj;
    GridResult  r;
    bool        ok;
} Run;

static void run_with(Run *R, const char *body, const void *data, size_t bytes, uint32_t threads, const void *out0)
{
    char src[4096];
    snprintf(src, sizeof src,
             HEAD ".visible .entry t(.param .u64 out, .param .f32 step, .param .f32 start)\n{\n"
                  "  .reg .b32 %%r<16>;\n  .reg .f32 %%f<16>;\n  .reg .b64 %%rd<8>;\n  .reg .b16 %%rs<8>;\n"
                  "  ld.param.u64 %%rd1, [out];\n  ld.param.f32 %%f1, [step];\n  ld.param.f32 %%f2, [start];\n"
                  "  mov.u32 %%r1, %%tid.x;\n  cvt.rn.f32.u32 %%f3, %%r1;\n  fma.rn.f32 %%f3, %%f3, %%f1, %%f2;\n"
                  "  mov.b64 %%rd2, 1;\n  mul.wide.u32 %%rd3, %%r1, 16;\n  add.s64 %%rd4, %%rd1, %%rd3;\n"
                  "%s\n  ret;\n}\n",
             body);
    Program p;
    Diag d;
    ck_assert_msg(ptx_parse(src, strlen(src), "t.ptx", &p, &d), "t.ptx:%u:%u: %s", d.line, d.col, d.message);
    R->g = gmem_create();
    R->out = gmem_alloc(R->g, 16 * threads, "out", &d);
    if (out0) memcpy(gmem_translate(R->g, R->out, 16 * threads), out0, 16 * threads);
    R->mem = gmem_alloc(R->g, bytes + 32, "texels", &d);
    memcpy(gmem_translate(R->g, R->mem, (uint32_t)bytes), data, bytes);
    R->obj.base = R->mem;
    ExecTextures table = { &R->obj, 1, R->mem + bytes, R->mem + bytes + 16 };
    float step = 0.25f, start = -1.0f;
    uint32_t params[ISA_MAX_PARAM_WORDS] = { R->out, 0 };
    memcpy(&params[2], &step, 4);
    memcpy(&params[3], &start, 4);
    GridLaunch L = { .grid = { 1, 1, 1 }, .block = { threads, 1, 1 }, .params = params, .nsm = 1, .textures = &table };
    R->ok = grid_run_functional(&p.kernels[0], R->g, &L, &R->r);
    program_destroy(&p);
}

static void run(Run *R, const char *body, const void *data, size_t bytes, uint32_t threads)
{
    run_with(R, body, data, bytes, threads, NULL);
}

static const float *results(Run *R, uint32_t threads)
{
    return gmem_translate(R->g, R->out, 16 * threads);
}

/* A 1D float texture of n texels. */
static ExecTexture tex1d(uint32_t n, uint8_t mode, bool linear, bool normalized)
{
    ExecTexture t;
    memset(&t, 0, sizeof t);
    t.kind = TEXO_TEXTURE;
    t.channels = 1, t.channel_bytes = 4, t.channel_kind = TEXC_FLOAT;
    t.dims = 1;
    t.filter_linear = linear, t.normalized_coords = normalized;
    t.address[0] = t.address[1] = t.address[2] = mode;
    t.extent[0] = n, t.extent[1] = t.extent[2] = t.layers = 1;
    t.row_pitch = 4u * n, t.slice_pitch = 4u * n;
    t.border[0] = 9.0f;
    return t;
}

static const char SAMPLE1D[] = "  tex.1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd2, {%f3}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";

static const float RAMP[4] = { 10, 20, 30, 40 };

/* Point sampling, unnormalized: x = -1 .. 6.75 by 0.25; clamp and border. */
START_TEST(test_point_modes)
{
    for (uint8_t mode = TEXA_CLAMP; mode <= TEXA_BORDER; mode++) {
        if (mode == TEXA_MIRROR) continue;
        Run R = { 0 };
        R.obj = tex1d(4, mode, false, false);
        run(&R, SAMPLE1D, RAMP, sizeof RAMP, 32);
        ck_assert_msg(R.ok, "%s", R.r.message);
        const float *o = results(&R, 32);
        for (int l = 0; l < 32; l++) {
            float x = l * 0.25f - 1.0f;
            int i = (int)floorf(x);
            float want = mode == TEXA_BORDER && (i < 0 || i > 3) ? 9.0f : RAMP[i < 0 ? 0 : i > 3 ? 3 : i];
            ck_assert_msg(o[l * 4] == want, "mode %d x %g: got %g, want %g", mode, x, o[l * 4], want);
            ck_assert(o[l * 4 + 1] == 0.0f && o[l * 4 + 3] == (mode == TEXA_BORDER && (i < 0 || i > 3) ? 0.0f : 1.0f));
        }
        gmem_destroy(R.g);
    }
}
END_TEST

/* Wrap and mirror apply to normalized coordinates; unnormalized, they clamp. */
START_TEST(test_wrap_mirror)
{
    Run R = { 0 };
    R.obj = tex1d(4, TEXA_WRAP, false, true);
    run(&R, SAMPLE1D, RAMP, sizeof RAMP, 32); /* x from -1 to 6.75: wraps every 1.0 */
    const float *o = results(&R, 32);
    for (int l = 0; l < 32; l++) {
        float x = l * 0.25f - 1.0f, f = x - floorf(x);
        ck_assert_msg(o[l * 4] == RAMP[(int)(f * 4)], "wrap x %g: got %g", x, o[l * 4]);
    }
    gmem_destroy(R.g);
    R = (Run){ 0 };
    R.obj = tex1d(4, TEXA_MIRROR, false, true);
    run(&R, SAMPLE1D, RAMP, sizeof RAMP, 32);
    o = results(&R, 32);
    for (int l = 0; l < 32; l++) {
        float x = l * 0.25f - 1.0f, fl = floorf(x), f = x - fl;
        if ((int)fl & 1) f = 1.0f - f;
        int i = (int)(f * 4);
        ck_assert_msg(o[l * 4] == RAMP[i > 3 ? 3 : i], "mirror x %g: got %g", x, o[l * 4]);
    }
    gmem_destroy(R.g);
    R = (Run){ 0 };
    R.obj = tex1d(4, TEXA_WRAP, false, false); /* unnormalized: clamps */
    run(&R, SAMPLE1D, RAMP, sizeof RAMP, 32);
    o = results(&R, 32);
    ck_assert(o[0] == 10.0f && o[31 * 4] == 40.0f);
    gmem_destroy(R.g);
}
END_TEST

/* Coordinates that are no number, infinite or huge read some texel (or the
** border), never an address outside the texture; under linear filtering too. */
START_TEST(test_nonfinite_coordinates)
{
    static const char body[] = "  ld.global.f32 %f8, [%rd4];\n"
                               "  tex.1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd2, {%f8}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";
    float coords[8][4] = { { NAN }, { INFINITY }, { -INFINITY }, { 1e30f }, { -1e30f }, { 3.9f }, { -0.0f }, { 4.0f } };
    for (int mode = 0; mode < 8; mode++) {
        Run R = { 0 };
        R.obj = tex1d(4, (uint8_t)(mode % 4), mode >= 4, mode % 2 == 0);
        run_with(&R, body, RAMP, sizeof RAMP, 8, coords);
        ck_assert_msg(R.ok, "%s", R.r.message);
        const float *o = results(&R, 8);
        for (int l = 0; l < 8; l++)
            ck_assert_msg(isfinite(o[l * 4]) && o[l * 4] >= 9.0f && o[l * 4] <= 40.0f, "mode %d, coordinate %g: %g", mode,
                          coords[l][0], o[l * 4]);
        gmem_destroy(R.g);
    }
}
END_TEST

/* Linear filtering: weights rounded to 1/256 (x - 0.5 = 0.3 gives 77/256). */
START_TEST(test_linear_weights)
{
    static const char body[] = "  mov.f32 %f8, 0f3FE66666;\n" /* 1.8: between texels 1 and 2, fraction 0.3 */
                               "  tex.1d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd2, {%f8}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";
    Run R = { 0 };
    R.obj = tex1d(4, TEXA_CLAMP, true, false);
    run(&R, body, RAMP, sizeof RAMP, 1);
    ck_assert_msg(R.ok, "%s", R.r.message);
    float a = 77.0f / 256.0f, want = (1 - a) * 20.0f + a * 30.0f;
    ck_assert_msg(fabsf(results(&R, 1)[0] - want) < 1e-5f, "got %.7g, want %.7g", results(&R, 1)[0], want);
    ck_assert(fabsf(results(&R, 1)[0] - 23.0f) > 1e-3f); /* not the exact blend */
    gmem_destroy(R.g);
}
END_TEST

/* Normalized reads of 8- and 16-bit integers: v / max, at least -1. */
START_TEST(test_read_normalized)
{
    static const char body[] = "  tex.1d.v4.f32.s32 {%f4, %f5, %f6, %f7}, [%rd2, {%r1}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";
    const int8_t s8[4] = { 127, -127, -128, 0 };
    Run R = { 0 };
    R.obj = tex1d(4, TEXA_CLAMP, false, false);
    R.obj.channel_bytes = 1, R.obj.channel_kind = TEXC_SIGNED, R.obj.read_normalized = true;
    R.obj.row_pitch = R.obj.slice_pitch = 4;
    run(&R, body, s8, sizeof s8, 4);
    const float *o = results(&R, 4);
    ck_assert(o[0] == 1.0f && o[4] == -1.0f && o[8] == -1.0f && o[12] == 0.0f);
    gmem_destroy(R.g);
    const uint16_t u16[2] = { 65535, 32768 };
    R = (Run){ 0 };
    R.obj = tex1d(2, TEXA_CLAMP, false, false);
    R.obj.channel_bytes = 2, R.obj.channel_kind = TEXC_UNSIGNED, R.obj.read_normalized = true;
    R.obj.row_pitch = R.obj.slice_pitch = 4;
    run(&R, body, u16, sizeof u16, 2);
    o = results(&R, 2);
    ck_assert(o[0] == 1.0f && fabsf(o[4] - 32768.0f / 65535.0f) < 1e-7f);
    gmem_destroy(R.g);
}
END_TEST

/* tex1Dfetch on linear memory: integer index, all zeros out of range. */
START_TEST(test_fetch_out_of_range)
{
    static const char body[] = "  add.s32 %r2, %r1, -2;\n"
                               "  tex.1d.v4.f32.s32 {%f4, %f5, %f6, %f7}, [%rd2, {%r2}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";
    Run R = { 0 };
    R.obj = tex1d(4, TEXA_CLAMP, false, false);
    R.obj.fetch_only = true;
    run(&R, body, RAMP, sizeof RAMP, 8);
    const float *o = results(&R, 8);
    for (int l = 0; l < 8; l++) {
        int i = l - 2;
        ck_assert(o[l * 4] == (i >= 0 && i < 4 ? RAMP[i] : 0.0f));
        ck_assert(o[l * 4 + 3] == (i >= 0 && i < 4 ? 1.0f : 0.0f));
    }
    gmem_destroy(R.g);
}
END_TEST

/* tld4: channel r of (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
START_TEST(test_gather_order)
{
    static const char body[] = "  mov.f32 %f8, 0f3F800000;\n" /* (1, 1): texels 0 and 1 of rows 0 and 1 */
                               "  tld4.r.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd2, {%f8, %f8}];\n"
                               "  st.global.v4.f32 [%rd4], {%f4, %f5, %f6, %f7};";
    const float img[4] = { 1, 2, 3, 4 }; /* 2 x 2: row 0 = 1 2, row 1 = 3 4 */
    Run R = { 0 };
    R.obj = tex1d(2, TEXA_CLAMP, false, false);
    R.obj.dims = 2, R.obj.extent[1] = 2, R.obj.row_pitch = 8, R.obj.slice_pitch = 16;
    run(&R, body, img, sizeof img, 1);
    ck_assert_msg(R.ok, "%s", R.r.message);
    const float *o = results(&R, 1);
    ck_assert_msg(o[0] == 3 && o[1] == 4 && o[2] == 2 && o[3] == 1, "got %g %g %g %g", o[0], o[1], o[2], o[3]);
    gmem_destroy(R.g);
}
END_TEST

/* Cube maps: a direction picks the face of its major axis and a point on
** it (the programming guide's s, t, m per face); 2 x 2 faces, point
** sampled, each lane's direction through one texel's centre. */
START_TEST(test_cube_faces)
{
    static const char body[] = "  ld.global.v4.f32 {%f6, %f7, %f8, %f9}, [%rd4];\n"
                               "  tex.cube.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd2, {%f6, %f7, %f8, %f8}];\n"
                               "  st.global.v4.f32 [%rd4], {%f10, %f11, %f12, %f13};";
    float tex[24];
    for (int i = 0; i < 24; i++) tex[i] = (float)i; /* face f, texel (i, j): 4 f + 2 j + i */
    float dir[24][4];
    for (int l = 0; l < 24; l++) { /* face l / 4, texel (l % 2, l / 2 % 2): the table's inverse */
        float s = (l % 2 + 0.5f) - 1, t = (l / 2 % 2 + 0.5f) - 1, x, y, z;
        switch (l / 4) {
        case 0: x = 1, y = -t, z = -s; break;
        case 1: x = -1, y = -t, z = s; break;
        case 2: x = s, y = 1, z = t; break;
        case 3: x = s, y = -1, z = -t; break;
        case 4: x = s, y = -t, z = 1; break;
        default: x = -s, y = -t, z = -1; break;
        }
        dir[l][0] = 3 * x, dir[l][1] = 3 * y, dir[l][2] = 3 * z, dir[l][3] = 0; /* any length */
    }
    Run R = { 0 };
    R.obj = tex1d(2, TEXA_WRAP, false, false); /* wrap and unnormalized: a cube map's faces clamp, normalized */
    R.obj.dims = 2, R.obj.extent[1] = 2, R.obj.row_pitch = 8, R.obj.slice_pitch = 16;
    R.obj.layered = R.obj.cubemap = true, R.obj.layers = 6;
    run_with(&R, body, tex, sizeof tex, 24, dir);
    ck_assert_msg(R.ok, "%s", R.r.message);
    const float *o = results(&R, 24);
    for (int l = 0; l < 24; l++) ck_assert_msg(o[l * 4] == (float)l, "direction %d: texel %g", l, o[l * 4]);
    gmem_destroy(R.g);
    R = (Run){ 0 };
    R.obj = tex1d(2, TEXA_CLAMP, false, false); /* a 2D texture is no cube map */
    R.obj.dims = 2, R.obj.extent[1] = 2, R.obj.row_pitch = 8, R.obj.slice_pitch = 16;
    run_with(&R, body, tex, sizeof tex, 1, dir);
    ck_assert(!R.ok);
    ck_assert_int_eq(R.r.fault, FAULT_BAD_TEXTURE);
    gmem_destroy(R.g);
}
END_TEST

static ExecTexture surface2d(uint32_t w, uint32_t h)
{
    ExecTexture t = tex1d(w, TEXA_CLAMP, false, false);
    t.kind = TEXO_SURFACE;
    t.dims = 2, t.extent[1] = h, t.slice_pitch = t.row_pitch * h;
    return t;
}

/* Surfaces: x in bytes; .zero reads zeros and drops the write; .clamp the edge. */
START_TEST(test_surface_modes)
{
    static const char body[] = "  shl.b32 %r2, %r1, 2;\n  add.s32 %r2, %r2, -4;\n  mov.u32 %r3, 1;\n"
                               "  suld.b.2d.b32.zero {%r4}, [%rd2, {%r2, %r3}];\n"
                               "  suld.b.2d.b32.clamp {%r5}, [%rd2, {%r2, %r3}];\n"
                               "  sust.b.2d.b32.zero [%rd2, {%r2, %r3}], {%r1};\n"
                               "  st.global.v4.u32 [%rd4], {%r4, %r5, %r4, %r5};";
    const uint32_t img[8] = { 0, 1, 2, 3, 100, 101, 102, 103 }; /* 4 x 2 */
    Run R = { 0 };
    R.obj = surface2d(4, 2);
    run(&R, body, img, sizeof img, 6); /* x = -1 .. 4 elements */
    ck_assert_msg(R.ok, "%s", R.r.message);
    const uint32_t *o = (const uint32_t *)results(&R, 6);
    const uint32_t *mem = gmem_translate(R.g, R.mem, sizeof img + 16);
    for (int l = 0; l < 6; l++) {
        int x = l - 1, c = x < 0 ? 0 : x > 3 ? 3 : x;
        ck_assert_msg(o[l * 4] == (x >= 0 && x < 4 ? img[4 + x] : 0u), "zero-mode read x %d: %u", x, o[l * 4]);
        ck_assert_msg(o[l * 4 + 1] == img[4 + c], "clamped read x %d: %u", x, o[l * 4 + 1]);
    }
    for (int x = 0; x < 4; x++) ck_assert_uint_eq(mem[4 + x], (uint32_t)x + 1); /* lane x + 1 wrote it */
    ck_assert_uint_eq(mem[8], 0); /* the zero area stayed zero */
    gmem_destroy(R.g);
}
END_TEST

/* Faults: a surface access out of bounds in .trap, a handle of no object. */
START_TEST(test_faults)
{
    static const char oob[] = "  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, 0;\n"
                              "  sust.b.2d.b32.trap [%rd2, {%r2, %r3}], {%r1};";
    Run R = { 0 };
    R.obj = surface2d(4, 2);
    const uint32_t img[8] = { 0 };
    run(&R, oob, img, sizeof img, 8);
    ck_assert(!R.ok);
    ck_assert_int_eq(R.r.fault, FAULT_SURFACE_OOB);
    ck_assert_msg(strstr(R.r.message, "byte x = 16"), "%s", R.r.message);
    gmem_destroy(R.g);
    static const char left[] = "  mov.u32 %r2, -3;\n  mov.u32 %r3, 0;\n" /* 3 bytes left of the row: outside */
                               "  sust.b.2d.b32.trap [%rd2, {%r2, %r3}], {%r1};";
    R = (Run){ 0 };
    R.obj = surface2d(4, 2);
    run(&R, left, img, sizeof img, 1);
    ck_assert(!R.ok);
    ck_assert_int_eq(R.r.fault, FAULT_SURFACE_OOB);
    gmem_destroy(R.g);
    R = (Run){ 0 };
    R.obj = tex1d(4, TEXA_CLAMP, false, false);
    run(&R, oob, img, sizeof img, 1); /* a texture named as a surface */
    ck_assert(!R.ok);
    ck_assert_int_eq(R.r.fault, FAULT_BAD_TEXTURE);
    gmem_destroy(R.g);
    R = (Run){ 0 };
    R.obj = tex1d(4, TEXA_CLAMP, false, false);
    R.obj.kind = TEXO_NONE; /* destroyed */
    run(&R, SAMPLE1D, RAMP, sizeof RAMP, 1);
    ck_assert(!R.ok);
    ck_assert_int_eq(R.r.fault, FAULT_BAD_TEXTURE);
    ck_assert_msg(strstr(R.r.message, "invalid texture or surface object"), "%s", R.r.message);
    gmem_destroy(R.g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("exec_tex");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_point_modes);
    tcase_add_test(tc, test_wrap_mirror);
    tcase_add_test(tc, test_linear_weights);
    tcase_add_test(tc, test_nonfinite_coordinates);
    tcase_add_test(tc, test_read_normalized);
    tcase_add_test(tc, test_fetch_out_of_range);
    tcase_add_test(tc, test_gather_order);
    tcase_add_test(tc, test_cube_faces);
    tcase_add_test(tc, test_surface_modes);
    tcase_add_test(tc, test_faults);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
