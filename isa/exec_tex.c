/* isa/exec_tex.c -- texture and surface objects: tex and tld4 (a lane's
** texels read, filtered, converted) and the address half of suld and sust
** (the element a surface coordinate names, by the boundary mode). Part of
** the exec module (isa/exec.h). Semantics: the CUDA programming guide's
** "Texture Fetching" appendix: point sampling reads texel floor(x); linear
** filtering blends the texels around x - 0.5 with weights in 9-bit fixed
** point (8 fractional bits); wrap and mirror apply to normalized
** coordinates only (unnormalized ones clamp); tld4 returns one channel of
** the four texels linear filtering reads, counter-clockwise from (i, j+1). */
#include "isa/exec.h"

#include <math.h>

/* The live object of `kind` that handle h names, or NULL. */
static const ExecTexture *object(const ExecBlock *b, uint64_t h, TexObjectKind kind)
{
    if (!b->textures || h == 0 || h > b->textures->n) return NULL;
    const ExecTexture *t = &b->textures->v[h - 1];
    return t->kind == kind ? t : NULL;
}

/* Whether the object returns floats: float channels, or integers read as
** normalized floats. */
static bool returns_float(const ExecTexture *t)
{
    return t->channel_kind == TEXC_FLOAT || (t->read_normalized && t->channel_bytes < 4);
}

/* One channel of a texel at p, as the read mode gives it: float bits when
** fl, else the integer sign- or zero-extended. */
static uint32_t channel(const ExecTexture *t, const uint8_t *p, bool fl)
{
    uint32_t n = t->channel_bytes, raw = 0;
    memcpy(&raw, p, n);
    if (t->channel_kind == TEXC_FLOAT) return n == 2 ? bits_of_f32((float)exec_small_value(raw, TYPE_F16)) : raw;
    bool sign = t->channel_kind == TEXC_SIGNED;
    int32_t v = n == 1 ? (sign ? (int8_t)raw : (int32_t)raw) : n == 2 ? (sign ? (int16_t)raw : (int32_t)raw) : (int32_t)raw;
    if (!fl) return (uint32_t)v;
    float full = sign ? (float)((1u << (8 * n - 1)) - 1) : (float)((1u << 8 * n) - 1);
    float f = (float)v / full;
    return bits_of_f32(f < -1.0f ? -1.0f : f);
}

/* The four components of the texel at p (NULL: the border colour): absent
** channels read 0, and 1 for the fourth. */
static void texel(const ExecTexture *t, const uint8_t *p, bool fl, uint32_t v[4])
{
    for (uint32_t c = 0; c < 4; c++) {
        if (!p) v[c] = fl ? bits_of_f32(t->border[c]) : (uint32_t)(int32_t)t->border[c];
        else if (c < t->channels) v[c] = channel(t, p + c * t->channel_bytes, fl);
        else v[c] = c == 3 ? (fl ? bits_of_f32(1.0f) : 1u) : 0u;
    }
}

/* floor(x) as a texel index, a non-finite or huge coordinate held within
** +-2^40 (NaN: 0), far outside every texture, so that no conversion
** overflows. */
static int64_t index_of(double x)
{
    if (isnan(x)) return 0;
    double f = floor(x), lim = 1099511627776.0; /* 2^40 */
    return (int64_t)(f < -lim ? -lim : f > lim ? lim : f);
}

/* Texel index i of a dimension of n texels by address mode `mode`
** (wrap and mirror already applied to the coordinate); -1 when it lies
** outside under TEXA_BORDER. */
static int64_t address(int64_t i, uint32_t n, uint8_t mode, bool wrap_index)
{
    if (wrap_index) return ((i % n) + n) % n;
    if (i >= 0 && i < n) return i;
    if (mode == TEXA_BORDER) return -1;
    return i < 0 ? 0 : (int64_t)n - 1;
}

/* A coordinate c of dimension d in texel space: normalized ones scaled by
** the extent after wrap or mirror; unnormalized ones as they are. */
static double texel_space(const ExecTexture *t, uint32_t d, double c)
{
    if (!t->normalized_coords) return c;
    if (t->address[d] == TEXA_WRAP) c -= floor(c);
    else if (t->address[d] == TEXA_MIRROR) {
        double f = floor(c);
        c -= f;
        if (index_of(f) & 1) c = 1.0 - c;
    }
    return c * t->extent[d];
}

/* Per dimension: the two texel indices linear filtering reads (or the one
** point sampling reads, twice) and the weight of the second. */
typedef struct {
    int64_t i[2];
    float   w;
} Taps;

static void taps(const ExecTexture *t, uint32_t d, double c, bool integer, bool linear, Taps *o)
{
    uint32_t n = t->extent[d];
    uint8_t mode = t->address[d];
    bool wrap_index = t->normalized_coords && mode == TEXA_WRAP;
    if (!t->normalized_coords && (mode == TEXA_WRAP || mode == TEXA_MIRROR)) mode = TEXA_CLAMP;
    if (t->normalized_coords && mode == TEXA_MIRROR) mode = TEXA_CLAMP; /* mirrored: the edge texel repeats */
    o->w = 0.0f;
    if (integer || !linear) {
        int64_t i = index_of(integer ? c : texel_space(t, d, c));
        o->i[0] = o->i[1] = address(i, n, mode, wrap_index);
        return;
    }
    double u = texel_space(t, d, c) - 0.5, f = floor(u);
    o->w = isfinite(u) ? (float)(nearbyint((u - f) * 256.0) / 256.0) : 0.0f; /* 9-bit fixed point, 8 fractional bits */
    o->i[0] = address(index_of(u), n, mode, wrap_index);
    o->i[1] = address(index_of(u) + 1, n, mode, wrap_index);
}

/* Host bytes of texel (i, j, k) of `layer`, NULL for a border texel; false
** (a fault at its address) when the texture's memory is gone. */
static bool texel_at(const ExecBlock *b, const ExecTexture *t, int64_t i, int64_t j, int64_t k, uint32_t layer, uint32_t lane,
                     const uint8_t **p, uint64_t *addr, ExecOut *out)
{
    *p = NULL;
    if (i < 0 || j < 0 || k < 0) return true;
    uint32_t elem = (uint32_t)t->channels * t->channel_bytes;
    uint64_t a = t->base + ((uint64_t)layer * t->extent[2] + (uint64_t)k) * t->slice_pitch + (uint64_t)j * t->row_pitch +
                 (uint64_t)i * elem;
    *addr = a;
    *p = gmem_translate(b->gmem, a, elem);
    return *p ? true : exec_fault_at(out, FAULT_GLOBAL_OOB, lane, a, elem);
}

/* A coordinate source of lane l: its float value, or its integer one. */
static double coordinate(const WarpExec *w, const Operand *o, uint32_t l, bool integer)
{
    uint32_t v = o->kind == OPND_REG ? w->r[o->index][l] : o->value;
    return integer ? (double)(int32_t)v : (double)bits_f32(v);
}

/* A direction's cube-map face (+x -x +y -y +z -z: 0..5, the major axis,
** x before y before z on a tie) and where it meets that face, (u, v) in
** [0, 1]: the programming guide's table of s, t and m per face. */
static uint32_t cube_face(double x, double y, double z, double *u, double *v)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z), m, sc, tc;
    uint32_t face;
    if (ax >= ay && ax >= az) face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    else if (ay >= az) face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    else face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
    if (m == 0) m = 1; /* the zero direction: the face's centre */
    *u = (sc / m + 1) / 2;
    *v = (tc / m + 1) / 2;
    return face;
}

bool exec_texture(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    TexGeom geom = (TexGeom)in->sub;
    bool cube = geom == TEXG_CUBE || geom == TEXG_ACUBE;
    bool layered = geom == TEXG_A1D || geom == TEXG_A2D || geom == TEXG_ACUBE, integer = in->stype == TYPE_S32;
    uint32_t dims = geom == TEXG_1D || geom == TEXG_A1D ? 1 : geom == TEXG_3D ? 3 : 2, first = layered ? 2 : 1;
    uint32_t gather = in->mod; /* tld4: 1 + the channel */
    out->space = SPACE_GLOBAL;
    out->async_reads = 0;
    out->width = 4;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t h = exec_lane64(b, w, &in->src[0], l);
        const ExecTexture *t = object(b, h, TEXO_TEXTURE);
        bool shape = t && (cube ? t->cubemap
                                : !t->cubemap && layered == t->layered && (t->dims == dims || (t->fetch_only && dims == 1)));
        if (!shape) return exec_fault_at(out, FAULT_BAD_TEXTURE, l, h, 0);
        ExecTexture face; /* a cube map's face: normalized coordinates, clamped at its edges */
        double at[3] = { 0, 0, 0 }; /* the coordinates, in the texture's terms */
        uint32_t layer = 0;
        if (layered) {
            int64_t L = (int32_t)(in->src[1].kind == OPND_REG ? w->r[in->src[1].index][l] : in->src[1].value);
            int64_t n = cube ? t->layers / 6 : t->layers;
            layer = (uint32_t)(L < 0 ? 0 : L >= n ? n - 1 : L) * (cube ? 6 : 1);
        }
        if (cube) {
            face = *t;
            face.normalized_coords = true;
            face.address[0] = face.address[1] = TEXA_CLAMP;
            t = &face;
            layer += cube_face(coordinate(w, &in->src[first], l, false), coordinate(w, &in->src[first + 1], l, false),
                               coordinate(w, &in->src[first + 2], l, false), &at[0], &at[1]);
        } else {
            for (uint32_t d = 0; d < dims; d++) at[d] = coordinate(w, &in->src[first + d], l, integer);
        }
        bool fl = returns_float(t), linear = fl && t->filter_linear && !integer && !t->fetch_only;
        Taps tp[3] = { { { 0, 0 }, 0.0f }, { { 0, 0 }, 0.0f }, { { 0, 0 }, 0.0f } };
        uint32_t v[4] = { 0, 0, 0, 0 };
        bool outside = false;
        if (t->fetch_only) { /* tex1Dfetch: an integer index, zeros out of range */
            int64_t i = index_of(at[0]);
            outside = i < 0 || i >= t->extent[0];
            tp[0].i[0] = tp[0].i[1] = i;
        } else {
            for (uint32_t d = 0; d < dims; d++) taps(t, d, at[d], integer, linear || gather, &tp[d]);
        }
        const uint8_t *p;
        uint64_t a = 0;
        if (!outside && !texel_at(b, t, tp[0].i[0], tp[1].i[0], tp[2].i[0], layer, l, &p, &a, out)) return false;
        if (!outside && p) {
            out->async_reads |= 1u << l;
            out->addr[l] = a;
            out->width = (uint32_t)t->channels * t->channel_bytes;
        }
        if (outside) {
            /* v stays zero */
        } else if (gather) { /* (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
            static const uint8_t I[4] = { 0, 1, 1, 0 }, J[4] = { 1, 1, 0, 0 };
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t px[4];
                if (!texel_at(b, t, tp[0].i[I[c]], tp[1].i[J[c]], 0, layer, l, &p, &a, out)) return false;
                texel(t, p, fl, px);
                v[c] = px[gather - 1];
            }
        } else if (!linear) {
            texel(t, p, fl, v);
        } else { /* the 2, 4 or 8 texels around, weighted */
            float acc[4] = { 0, 0, 0, 0 };
            for (uint32_t corner = 0; corner < (1u << dims); corner++) {
                float weight = 1.0f;
                int64_t idx[3] = { 0, 0, 0 };
                for (uint32_t d = 0; d < dims; d++) {
                    uint32_t hi = corner >> d & 1;
                    idx[d] = tp[d].i[hi];
                    weight *= hi ? tp[d].w : 1.0f - tp[d].w;
                }
                uint32_t px[4];
                if (!texel_at(b, t, idx[0], idx[1], idx[2], layer, l, &p, &a, out)) return false;
                texel(t, p, true, px);
                for (uint32_t c = 0; c < 4; c++) acc[c] += weight * bits_f32(px[c]);
            }
            for (uint32_t c = 0; c < 4; c++) v[c] = bits_of_f32(acc[c]);
        }
        for (uint32_t c = 0; c < 4; c++) w->r[in->dst[c].index][l] = v[c];
    }
    return true;
}

bool exec_surface_address(const ExecBlock *b, WarpExec *w, const Instr *in, uint32_t m, ExecOut *out)
{
    TexGeom geom = (TexGeom)in->sub;
    bool layered = geom == TEXG_A1D || geom == TEXG_A2D;
    uint32_t dims = geom == TEXG_1D || geom == TEXG_A1D ? 1 : geom == TEXG_3D ? 3 : 2, first = layered ? 2 : 1;
    uint32_t access = (uint32_t)in->offset, mode = in->mod & 3u;
    bool store = in->mod & SURF_STORE;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        uint64_t h = exec_lane64(b, w, &in->src[0], l);
        const ExecTexture *t = object(b, h, TEXO_SURFACE);
        if (!t || layered != t->layered || t->dims != dims) return exec_fault_at(out, FAULT_BAD_TEXTURE, l, h, 0);
        uint32_t elem = (uint32_t)t->channels * t->channel_bytes;
        int64_t c[4] = { 0, 0, 0, 0 }, limit[4] = { (int64_t)t->extent[0] * elem - access, (int64_t)t->extent[1] - 1,
                                                    (int64_t)t->extent[2] - 1, (int64_t)t->layers - 1 };
        for (uint32_t d = 0; d < dims; d++) c[d] = (int32_t)(in->src[first + d].kind == OPND_REG ? w->r[in->src[first + d].index][l]
                                                                                             : in->src[first + d].value);
        if (layered) c[3] = (int32_t)(in->src[1].kind == OPND_REG ? w->r[in->src[1].index][l] : in->src[1].value);
        c[0] -= ((c[0] % (int64_t)access) + (int64_t)access) % (int64_t)access; /* the low bits select nothing (down) */
        bool inside = true;
        for (uint32_t d = 0; d < 4; d++) inside = inside && c[d] >= 0 && c[d] <= limit[d];
        uint64_t a;
        if (!inside && mode == SURF_TRAP) {
            out->fault = (ExecFault){ .kind = FAULT_SURFACE_OOB, .pc = out->pc, .lane = l, .size = access,
                                      .addr = (uint64_t)c[0], .line = (uint32_t)c[1], .file = (uint64_t)(layered ? c[3] : c[2]) };
            return false;
        }
        if (!inside && mode == SURF_ZERO) {
            a = store ? b->textures->discard_page : b->textures->zero_page;
        } else {
            for (uint32_t d = 0; d < 4; d++) c[d] = c[d] < 0 ? 0 : c[d] > limit[d] ? limit[d] - (d == 0 ? limit[d] % access : 0) : c[d];
            a = t->base + ((uint64_t)c[3] * t->extent[2] + (uint64_t)c[2]) * t->slice_pitch + (uint64_t)c[1] * t->row_pitch +
                (uint64_t)c[0];
        }
        w->r[in->dst[0].index][l] = (uint32_t)a;
        w->r[in->dst[0].index + 1][l] = (uint32_t)(a >> 32);
    }
    return true;
}
