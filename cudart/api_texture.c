/* cudart/api_texture.c -- CUDA arrays, texture objects and surface objects.
** A CUDA array is device memory laid out row after row (a row's pitch its
** width in bytes, a slice or layer after the last row of the one before):
** the GPU's block-linear layout is not modelled, so a texture's 2D
** locality reaches the caches only as the rows' sectors do. Texture and
** surface objects are entries of the runtime's table (handle = index + 1),
** which every launch gets (isa/exec_tex.c samples them); a cube map is a
** layered array of six square faces. Mipmapped arrays, sRGB, resource
** views and sparse arrays are not implemented:
** those calls return cudaErrorNotSupported and are counted in the exit
** report. The size limits are cudart/api_int.h's. */
#include <stdlib.h>
#include <string.h>

#include "cudart/api_int.h"

struct cudaArray {
    uint32_t                     addr;   /* its device memory                   */
    struct cudaChannelFormatDesc desc;
    size_t                       width, height, depth; /* as given: 0 when absent */
    unsigned                     flags;
    ExecTexture                  shape;  /* its format, extent and layout       */
};

/* What a texture or surface object was made from (cudaGetTextureObject*Desc). */
typedef struct {
    struct cudaResourceDesc res;
    struct cudaTextureDesc  tex;
} ObjectDescs;

/* A channel format into t's channels, their size and kind; *normalized when
** the format itself reads as normalized floats. False when it is none we take. */
static bool format_of(const struct cudaChannelFormatDesc *d, ExecTexture *t, bool *normalized)
{
    *normalized = false;
    int kind = d->f;
    if (kind >= cudaChannelFormatKindUnsignedNormalized8X1 && kind <= cudaChannelFormatKindSignedNormalized16X4) {
        int k = kind - cudaChannelFormatKindUnsignedNormalized8X1; /* 0..11: u8, u16, s8, s16 by threes */
        static const uint8_t CH[3] = { 1, 2, 4 };
        t->channels = CH[k % 3];
        t->channel_bytes = (uint8_t)((k / 3) % 2 ? 2 : 1);
        t->channel_kind = k >= 6 ? TEXC_SIGNED : TEXC_UNSIGNED;
        *normalized = true;
        return true;
    }
    if (kind != cudaChannelFormatKindSigned && kind != cudaChannelFormatKindUnsigned && kind != cudaChannelFormatKindFloat)
        return false;
    int bits = d->x, n = 1;
    if (d->y) n = d->z ? (d->w ? 4 : 3) : 2;
    if ((d->y && d->y != bits) || (d->z && d->z != bits) || (d->w && d->w != bits) || (d->z && !d->y) || (d->w && !d->z))
        return false;
    if (n == 3 || (bits != 8 && bits != 16 && bits != 32) || (kind == cudaChannelFormatKindFloat && bits == 8)) return false;
    t->channels = (uint8_t)n;
    t->channel_bytes = (uint8_t)(bits / 8);
    t->channel_kind = kind == cudaChannelFormatKindFloat ? TEXC_FLOAT : kind == cudaChannelFormatKindSigned ? TEXC_SIGNED
                                                                                                            : TEXC_UNSIGNED;
    return true;
}

static bool live_array(const Runtime *rt, const struct cudaArray *a)
{
    return a && rt_handle_live(rt, a, RT_HANDLE_ARRAY);
}

static void free_array(void *p)
{
    free(p); /* its device memory goes with the device (cudaDeviceReset) */
}

/* Makes array *out of w x h x d elements (0: the dimension is absent). */
static cudaError_t make_array(Runtime *rt, cudaArray_t *out, const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                              size_t d, unsigned flags, const char *call)
{
    if (!out || !desc) return cudaErrorInvalidValue;
    *out = NULL;
    if (flags & (cudaArraySparse | cudaArrayDeferredMapping | cudaArrayColorAttachment))
        return (cudaError_t)rt_api_missing("sparse CUDA arrays");
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayCubemap))
        return cudaErrorInvalidValue;
    ExecTexture s;
    memset(&s, 0, sizeof s);
    bool normalized;
    if (!format_of(desc, &s, &normalized)) {
        WHY(rt, "%s: a channel format of %d/%d/%d/%d bits, kind %d, is not one gpusim takes (1, 2 or 4 equal channels "
            "of 8, 16 or 32 bits)", call, desc->x, desc->y, desc->z, desc->w, (int)desc->f);
        return cudaErrorInvalidChannelDescriptor;
    }
    bool cube = flags & cudaArrayCubemap, surface = flags & cudaArraySurfaceLoadStore;
    bool layered = (flags & cudaArrayLayered) || cube; /* a cube map: six layers, its faces */
    if (w == 0 || (h == 0 && d != 0 && !layered) || (layered && d == 0)) return cudaErrorInvalidValue;
    if (cube && (w != h || d % 6 || (!(flags & cudaArrayLayered) && d != 6))) {
        WHY(rt, "%s: a cube map is square, of 6 layers (a layered one a multiple of 6): %zu x %zu x %zu", call, w, h, d);
        return cudaErrorInvalidValue;
    }
    s.dims = (uint8_t)(layered ? (h ? 2 : 1) : d ? 3 : h ? 2 : 1);
    s.layered = layered;
    s.cubemap = cube;
    s.layers = layered ? (uint32_t)d : 1;
    size_t maxw = cube ? API_MAX_CUBEMAP : layered ? API_MAX_TEX_LAYERED_W : s.dims == 1 ? (surface ? API_MAX_SURF_1D : API_MAX_TEX_1D)
                : s.dims == 2 ? ((flags & cudaArrayTextureGather) ? API_MAX_TEX_2D_GATHER : API_MAX_TEX_2D_W) : API_MAX_TEX_3D;
    size_t maxh = cube ? API_MAX_CUBEMAP : layered ? API_MAX_TEX_LAYERED_W
                : s.dims == 2 ? ((flags & cudaArrayTextureGather) ? API_MAX_TEX_2D_GATHER : API_MAX_TEX_2D_H) : API_MAX_TEX_3D;
    size_t maxd = cube ? API_MAX_CUBEMAP_LAYERS : layered ? API_MAX_LAYERS : API_MAX_TEX_3D;
    if (w > maxw || h > maxh || d > maxd) {
        WHY(rt, "%s: an array of %zu x %zu x %zu elements is larger than the device allows", call, w, h, d);
        return cudaErrorInvalidValue;
    }
    uint32_t elem = (uint32_t)s.channels * s.channel_bytes;
    s.extent[0] = (uint32_t)w;
    s.extent[1] = h ? (uint32_t)h : 1;
    s.extent[2] = !layered && d ? (uint32_t)d : 1;
    s.row_pitch = (uint64_t)w * elem;
    s.slice_pitch = s.row_pitch * s.extent[1];
    uint64_t bytes = s.slice_pitch * s.extent[2] * s.layers;
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a) return cudaErrorMemoryAllocation;
    char name[96];
    snprintf(name, sizeof name, "CUDA array #%u (%zu x %zu x %zu)", ++rt->allocations, w, h, d);
    Diag dg = { 0 };
    a->addr = gmem_alloc(rt->gmem, bytes, name, &dg);
    if (!a->addr || !gmem_set_tag(rt->gmem, a->addr, RT_TAG_ARRAY) || !rt_handle_add_owned(rt, a, RT_HANDLE_ARRAY, free_array)) {
        if (a->addr) gmem_free(rt->gmem, a->addr);
        else WHY(rt, "%s of %llu bytes: %s", call, (unsigned long long)bytes, dg.message);
        free(a);
        return cudaErrorMemoryAllocation;
    }
    s.base = a->addr;
    a->desc = *desc;
    a->width = w, a->height = h, a->depth = d;
    a->flags = flags;
    a->shape = s;
    *out = a;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags)
{
    ENTER(rt);
    if (flags & cudaArrayLayered) return api_leave(rt, cudaErrorInvalidValue); /* cudaMalloc3DArray's */
    return api_leave(rt, make_array(rt, array, desc, width, height, 0, flags, "cudaMallocArray"));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                              unsigned int flags)
{
    ENTER(rt);
    return api_leave(rt, make_array(rt, array, desc, extent.width, extent.height, extent.depth, flags, "cudaMalloc3DArray"));
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    ENTER(rt);
    if (!array) return api_leave(rt, cudaSuccess);
    if (!live_array(rt, array)) return api_leave(rt, cudaErrorInvalidValue);
    gmem_free(rt->gmem, array->addr);
    rt_handle_remove(rt, array, RT_HANDLE_ARRAY);
    free(array);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array)
{
    ENTER(rt);
    if (!live_array(rt, array)) return api_leave(rt, cudaErrorInvalidValue);
    if (desc) *desc = array->desc;
    if (extent) *extent = (struct cudaExtent){ array->width, array->height, array->depth };
    if (flags) *flags = array->flags;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    ENTER(rt);
    if (!desc || !live_array(rt, array)) return api_leave(rt, cudaErrorInvalidValue);
    *desc = array->desc;
    return api_leave(rt, cudaSuccess);
}

/* ------------------------------------------------------------------ copies */

/* Host bytes of the array's rows [y, y + rows) of slice z, from byte x, width
** bytes each (NULL: out of the array, or its memory is gone); *pitch the row pitch. */
static uint8_t *array_rows(Runtime *rt, const struct cudaArray *a, size_t x, size_t y, size_t z, size_t width, size_t rows,
                           size_t *pitch)
{
    const ExecTexture *s = &a->shape;
    size_t slices = (size_t)s->extent[2] * s->layers;
    if (x > s->row_pitch || width > s->row_pitch - x || y > s->extent[1] || rows > s->extent[1] - y || z >= slices)
        return NULL;
    *pitch = s->row_pitch;
    if (!width || !rows) return gmem_translate(rt->gmem, s->base, 1);
    uint64_t span = (rows - 1) * s->row_pitch + width;
    return span > UINT32_MAX ? NULL : gmem_translate(rt->gmem, s->base + z * s->slice_pitch + y * s->row_pitch + x, (uint32_t)span);
}

/* The other side of an array copy: host memory, or device memory when the
** kind says so (cudaMemcpyDefault: by where it points); NULL when that is
** not [p, p + span). `to_array`: the array is the destination. */
static uint8_t *other_side(Runtime *rt, const void *p, size_t span, enum cudaMemcpyKind kind, bool to_array, cudaError_t *err)
{
    *err = cudaSuccess;
    bool device;
    switch (kind) {
    case cudaMemcpyHostToDevice: device = false; if (!to_array) *err = cudaErrorInvalidMemcpyDirection; break;
    case cudaMemcpyDeviceToHost: device = false; if (to_array) *err = cudaErrorInvalidMemcpyDirection; break;
    case cudaMemcpyDeviceToDevice: device = true; break;
    case cudaMemcpyDefault: device = api_is_device(rt, p); break;
    default: *err = cudaErrorInvalidMemcpyDirection; return NULL;
    }
    if (*err) return NULL;
    if (!p) {
        *err = cudaErrorInvalidValue;
        return NULL;
    }
    if (!device) return (uint8_t *)p;
    uint8_t *h = span ? rt_device_ptr(rt, (uintptr_t)p, span) : rt_device_ptr(rt, (uintptr_t)p, 1);
    if (!h) *err = cudaErrorInvalidValue;
    return h;
}

/* width x rows bytes between array a (byte x, row y of slice z) and p (pitch ppitch). */
static cudaError_t array_copy(Runtime *rt, struct cudaArray *a, size_t x, size_t y, size_t z, void *p, size_t ppitch,
                              size_t width, size_t rows, enum cudaMemcpyKind kind, bool to_array, const char *call)
{
    if (!live_array(rt, a)) return cudaErrorInvalidResourceHandle;
    if (rows > 1 && width > ppitch) return cudaErrorInvalidPitchValue;
    size_t apitch;
    uint8_t *arr = array_rows(rt, a, x, y, z, width, rows, &apitch);
    if (!arr) {
        WHY(rt, "%s: %zu rows of %zu bytes at byte %zu, row %zu overrun the CUDA array (%zu x %zu elements)", call, rows, width,
            x, y, a->width, a->height ? a->height : 1);
        return cudaErrorInvalidValue;
    }
    cudaError_t err;
    uint8_t *o = other_side(rt, p, rows ? (rows - 1) * ppitch + width : 0, kind, to_array, &err);
    if (!o) return err;
    for (size_t r = 0; r < rows; r++) {
        if (to_array) memmove(arr + r * apitch, o + r * ppitch, width);
        else memmove(o + r * ppitch, arr + r * apitch, width);
    }
    return cudaSuccess;
}

/* The deprecated 1D forms: count bytes from (wOffset, hOffset) on, row after row. */
static cudaError_t array_linear(Runtime *rt, struct cudaArray *a, size_t wOffset, size_t hOffset, void *p, size_t count,
                                enum cudaMemcpyKind kind, bool to_array, const char *call)
{
    if (!live_array(rt, a)) return cudaErrorInvalidResourceHandle;
    const ExecTexture *s = &a->shape;
    uint64_t total = s->slice_pitch * s->extent[2] * s->layers, at = hOffset * s->row_pitch + wOffset;
    if (wOffset > s->row_pitch || at > total || count > total - at) {
        WHY(rt, "%s: %zu bytes at byte %zu of row %zu overrun the CUDA array", call, count, wOffset, hOffset);
        return cudaErrorInvalidValue;
    }
    if (!count) return cudaSuccess;
    uint8_t *arr = count <= UINT32_MAX ? gmem_translate(rt->gmem, s->base + at, (uint32_t)count) : NULL;
    cudaError_t err;
    uint8_t *o = other_side(rt, p, count, kind, to_array, &err);
    if (!arr || !o) return arr ? err : cudaErrorInvalidValue;
    memmove(to_array ? arr : o, to_array ? o : arr, count);
    return cudaSuccess;
}

/* An Async form's stream, which runs at once: a valid one, not capturing. */
static cudaError_t stream_ok(Runtime *rt, cudaStream_t stream)
{
    if (!api_valid_stream(rt, stream)) return cudaErrorInvalidResourceHandle;
    if (api_capturing(rt, stream)) return (cudaError_t)rt_api_missing("a CUDA array copy in a stream capture");
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_copy(rt, dst, wOffset, hOffset, 0, (void *)src, spitch, width, height, kind, true,
                                    "cudaMemcpy2DToArray"));
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_copy(rt, (struct cudaArray *)src, wOffset, hOffset, 0, dst, dpitch, width, height, kind, false,
                                    "cudaMemcpy2DFromArray"));
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_copy(rt, dst, wOffset, hOffset, 0, (void *)src, spitch, width, height, kind, true,
                                            "cudaMemcpy2DToArrayAsync"));
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_copy(rt, (struct cudaArray *)src, wOffset, hOffset, 0, dst, dpitch, width, height,
                                            kind, false, "cudaMemcpy2DFromArrayAsync"));
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_linear(rt, dst, wOffset, hOffset, (void *)src, count, kind, true, "cudaMemcpyToArray"));
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_linear(rt, (struct cudaArray *)src, wOffset, hOffset, dst, count, kind, false,
                                      "cudaMemcpyFromArray"));
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_linear(rt, dst, wOffset, hOffset, (void *)src, count, kind, true, "cudaMemcpyToArrayAsync"));
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_linear(rt, (struct cudaArray *)src, wOffset, hOffset, dst, count, kind, false,
                                              "cudaMemcpyFromArrayAsync"));
}

/* Array to array: through a host buffer, rows of width bytes. */
static cudaError_t array_to_array(Runtime *rt, struct cudaArray *dst, size_t dx, size_t dy, struct cudaArray *src, size_t sx,
                                  size_t sy, size_t width, size_t rows, const char *call)
{
    if (!live_array(rt, dst) || !live_array(rt, src)) return cudaErrorInvalidResourceHandle;
    size_t dp, sp;
    uint8_t *d = array_rows(rt, dst, dx, dy, 0, width, rows, &dp), *s = array_rows(rt, src, sx, sy, 0, width, rows, &sp);
    if (!d || !s) {
        WHY(rt, "%s: %zu rows of %zu bytes overrun a CUDA array", call, rows, width);
        return cudaErrorInvalidValue;
    }
    for (size_t r = 0; r < rows; r++) memmove(d + r * dp, s + r * sp, width);
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind)
{
    ENTER(rt);
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return api_leave(rt, cudaErrorInvalidMemcpyDirection);
    return api_leave(rt, array_to_array(rt, dst, wOffsetDst, hOffsetDst, (struct cudaArray *)src, wOffsetSrc, hOffsetSrc,
                                        width, height, "cudaMemcpy2DArrayToArray"));
}

static cudaError_t linear_array_to_array(Runtime *rt, cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                         size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    uint8_t *buf = count ? malloc(count) : NULL;
    if (count && !buf) return cudaErrorMemoryAllocation;
    cudaError_t e = array_linear(rt, (struct cudaArray *)src, wOffsetSrc, hOffsetSrc, buf, count, cudaMemcpyDeviceToHost, false,
                                 "cudaMemcpyArrayToArray");
    if (!e) e = array_linear(rt, dst, wOffsetDst, hOffsetDst, buf, count, cudaMemcpyHostToDevice, true, "cudaMemcpyArrayToArray");
    free(buf);
    return e;
}

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, linear_array_to_array(rt, dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind));
}

cudaError_t api_memcpy3d_array(const struct cudaMemcpy3DParms *p)
{
    ENTER(rt);
    struct cudaArray *arr = p->dstArray ? p->dstArray : p->srcArray;
    if (!live_array(rt, arr) || (p->srcArray && !live_array(rt, p->srcArray))) return api_leave(rt, cudaErrorInvalidResourceHandle);
    size_t elem = (size_t)arr->shape.channels * arr->shape.channel_bytes, width = p->extent.width * elem;
    cudaError_t e = cudaSuccess;
    for (size_t z = 0; z < p->extent.depth && !e; z++) {
        if (p->dstArray && p->srcArray) {
            if (p->srcPos.z + z || p->dstPos.z + z) { /* slices beyond the first: row by row, through the host */
                size_t dp, sp;
                uint8_t *d = array_rows(rt, p->dstArray, p->dstPos.x * elem, p->dstPos.y, p->dstPos.z + z, width, p->extent.height, &dp);
                uint8_t *s = array_rows(rt, p->srcArray, p->srcPos.x * elem, p->srcPos.y, p->srcPos.z + z, width, p->extent.height, &sp);
                if (!d || !s) e = cudaErrorInvalidValue;
                for (size_t r = 0; !e && r < p->extent.height; r++) memmove(d + r * dp, s + r * sp, width);
            } else {
                e = array_to_array(rt, p->dstArray, p->dstPos.x * elem, p->dstPos.y, p->srcArray, p->srcPos.x * elem, p->srcPos.y,
                                   width, p->extent.height, "cudaMemcpy3D");
            }
            continue;
        }
        const struct cudaPitchedPtr *pp = p->dstArray ? &p->srcPtr : &p->dstPtr;
        const struct cudaPos *pos = p->dstArray ? &p->srcPos : &p->dstPos, *apos = p->dstArray ? &p->dstPos : &p->srcPos;
        char *ptr = (char *)pp->ptr + ((pos->z + z) * pp->ysize + pos->y) * pp->pitch + pos->x;
        e = array_copy(rt, arr, apos->x * elem, apos->y, apos->z + z, ptr, pp->pitch, width, p->extent.height, p->kind,
                       p->dstArray != NULL, "cudaMemcpy3D");
    }
    return api_leave(rt, e);
}

/* --------------------------------------------------------- texture objects */

/* A new object's slot: a destroyed one again, or a new one. 0 when out of memory. */
static uint32_t new_object(Runtime *rt, const ExecTexture *t, const ObjectDescs *descs)
{
    uint32_t i = 0;
    while (i < rt->ntextures && rt->textures[i].kind != TEXO_NONE) i++;
    if (i == rt->ntextures) {
        if (rt->ntextures == rt->textures_cap) {
            uint32_t cap = rt->textures_cap ? 2 * rt->textures_cap : 16;
            ExecTexture *v = realloc(rt->textures, cap * sizeof *v);
            if (!v) return 0;
            rt->textures = v;
            void **dv = realloc(rt->texture_descs, cap * sizeof *dv);
            if (!dv) return 0;
            rt->texture_descs = dv;
            rt->textures_cap = cap;
        }
        rt->texture_descs[i] = NULL;
        rt->ntextures++;
    }
    ObjectDescs *d = malloc(sizeof *d);
    if (!d) return 0;
    *d = *descs;
    free(rt->texture_descs[i]);
    rt->texture_descs[i] = d;
    rt->textures[i] = *t;
    return i + 1;
}

static const ObjectDescs *object_descs(const Runtime *rt, unsigned long long h, TexObjectKind kind)
{
    if (h == 0 || h > rt->ntextures || rt->textures[h - 1].kind != kind) return NULL;
    return rt->texture_descs[h - 1];
}

static cudaError_t destroy_object(Runtime *rt, unsigned long long h, TexObjectKind kind)
{
    if (h == 0) return cudaSuccess;
    if (!object_descs(rt, h, kind)) return cudaErrorInvalidValue;
    rt->textures[h - 1].kind = TEXO_NONE;
    return cudaSuccess;
}

void rt_textures_reset(Runtime *rt)
{
    for (uint32_t i = 0; i < rt->ntextures; i++) free(rt->texture_descs[i]);
    free(rt->textures);
    free(rt->texture_descs);
    rt->textures = NULL;
    rt->texture_descs = NULL;
    rt->ntextures = rt->textures_cap = 0;
    rt->texture_table = (ExecTextures){ 0 };
}

/* The resource's memory and shape into t (its format, extent, layout). */
static cudaError_t resource(Runtime *rt, const struct cudaResourceDesc *r, ExecTexture *t, bool *normalized, const char *call)
{
    if (r->flags) return cudaErrorInvalidValue;
    switch (r->resType) {
    case cudaResourceTypeArray:
        if (!live_array(rt, r->res.array.array)) return cudaErrorInvalidResourceHandle;
        *t = r->res.array.array->shape;
        return format_of(&r->res.array.array->desc, t, normalized) ? cudaSuccess : cudaErrorInvalidChannelDescriptor;
    case cudaResourceTypeLinear:
    case cudaResourceTypePitch2D: {
        bool linear = r->resType == cudaResourceTypeLinear;
        memset(t, 0, sizeof *t);
        if (!format_of(linear ? &r->res.linear.desc : &r->res.pitch2D.desc, t, normalized)) return cudaErrorInvalidChannelDescriptor;
        uint32_t elem = (uint32_t)t->channels * t->channel_bytes;
        uintptr_t p = (uintptr_t)(linear ? r->res.linear.devPtr : r->res.pitch2D.devPtr);
        size_t w = linear ? r->res.linear.sizeInBytes / elem : r->res.pitch2D.width;
        size_t h = linear ? 1 : r->res.pitch2D.height, pitch = linear ? w * elem : r->res.pitch2D.pitchInBytes;
        if (!p || w == 0 || h == 0) return cudaErrorInvalidValue;
        if (linear ? w > API_MAX_TEX_1D_LINEAR
                   : w > API_MAX_TEX_2D_LINEAR_W || h > API_MAX_TEX_2D_LINEAR_H || pitch > API_MAX_TEX_2D_LINEAR_PITCH ||
                         pitch % 32 || pitch < w * elem) {
            WHY(rt, "%s: a %s texture of %zu x %zu elements, pitch %zu, is not one the device takes (rows at most %d "
                "bytes apart, a multiple of the texture pitch alignment, 32)", call, linear ? "linear" : "pitched 2D", w, h,
                pitch, API_MAX_TEX_2D_LINEAR_PITCH);
            return cudaErrorInvalidValue;
        }
        if (p > UINT32_MAX || !rt_device_ptr(rt, p, (h - 1) * pitch + w * elem)) {
            WHY(rt, "%s: the texture's memory [%p, +%zu) is not inside one device allocation", call, (void *)p, (h - 1) * pitch + w * elem);
            return cudaErrorInvalidValue;
        }
        t->dims = (uint8_t)(linear ? 1 : 2);
        t->fetch_only = linear;
        t->extent[0] = (uint32_t)w;
        t->extent[1] = (uint32_t)h;
        t->extent[2] = t->layers = 1;
        t->base = p;
        t->row_pitch = pitch;
        t->slice_pitch = pitch * h;
        return cudaSuccess;
    }
    case cudaResourceTypeMipmappedArray: return (cudaError_t)rt_api_missing("mipmapped textures");
    }
    return cudaErrorInvalidValue;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc)
{
    ENTER(rt);
    if (!pTexObject || !pResDesc || !pTexDesc) return api_leave(rt, cudaErrorInvalidValue);
    if (pResViewDesc) return api_leave(rt, rt_api_missing("texture resource views"));
    if (pTexDesc->sRGB) return api_leave(rt, rt_api_missing("sRGB textures"));
    ExecTexture t;
    bool normalized;
    cudaError_t e = resource(rt, pResDesc, &t, &normalized, "cudaCreateTextureObject");
    if (e) return api_leave(rt, e);
    for (int d = 0; d < 3; d++) {
        if ((unsigned)pTexDesc->addressMode[d] > cudaAddressModeBorder) return api_leave(rt, cudaErrorInvalidValue);
        t.address[d] = (uint8_t)pTexDesc->addressMode[d];
    }
    if ((unsigned)pTexDesc->filterMode > cudaFilterModeLinear || (unsigned)pTexDesc->readMode > cudaReadModeNormalizedFloat)
        return api_leave(rt, cudaErrorInvalidValue);
    t.kind = TEXO_TEXTURE;
    t.filter_linear = pTexDesc->filterMode == cudaFilterModeLinear && !t.fetch_only;
    t.normalized_coords = pTexDesc->normalizedCoords != 0 && !t.fetch_only;
    t.read_normalized = normalized || (pTexDesc->readMode == cudaReadModeNormalizedFloat && t.channel_kind != TEXC_FLOAT);
    memcpy(t.border, pTexDesc->borderColor, sizeof t.border);
    ObjectDescs descs = { *pResDesc, *pTexDesc };
    uint32_t h = new_object(rt, &t, &descs);
    if (!h) return api_leave(rt, cudaErrorMemoryAllocation);
    *pTexObject = h;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    ENTER(rt);
    return api_leave(rt, destroy_object(rt, texObject, TEXO_TEXTURE));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject)
{
    ENTER(rt);
    const ObjectDescs *d = object_descs(rt, texObject, TEXO_TEXTURE);
    if (!pResDesc || !d) return api_leave(rt, cudaErrorInvalidValue);
    *pResDesc = d->res;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    ENTER(rt);
    const ObjectDescs *d = object_descs(rt, texObject, TEXO_TEXTURE);
    if (!pTexDesc || !d) return api_leave(rt, cudaErrorInvalidValue);
    *pTexDesc = d->tex;
    return api_leave(rt, cudaSuccess);
}

/* The .zero surface mode's two 16-byte areas, made with the first surface. */
static bool zero_pages(Runtime *rt)
{
    if (rt->texture_table.zero_page) return true;
    Diag d = { 0 };
    uint32_t z = gmem_alloc(rt->gmem, 16, "surface reads out of bounds (.zero)", &d);
    uint32_t w = z ? gmem_alloc(rt->gmem, 16, "surface writes out of bounds (.zero)", &d) : 0;
    if (!w) {
        if (z) gmem_free(rt->gmem, z);
        return false;
    }
    gmem_set_tag(rt->gmem, z, RT_TAG_INTERNAL); /* no device pointer of the program's reaches them */
    gmem_set_tag(rt->gmem, w, RT_TAG_INTERNAL);
    rt->texture_table.zero_page = z;
    rt->texture_table.discard_page = w;
    return true;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    ENTER(rt);
    if (!pSurfObject || !pResDesc) return api_leave(rt, cudaErrorInvalidValue);
    if (pResDesc->resType != cudaResourceTypeArray) return api_leave(rt, cudaErrorInvalidValue); /* CUDA's rule */
    ExecTexture t;
    bool normalized;
    cudaError_t e = resource(rt, pResDesc, &t, &normalized, "cudaCreateSurfaceObject");
    if (e) return api_leave(rt, e);
    if (!(pResDesc->res.array.array->flags & cudaArraySurfaceLoadStore)) {
        WHY(rt, "cudaCreateSurfaceObject: the CUDA array was not made with cudaArraySurfaceLoadStore");
        return api_leave(rt, cudaErrorInvalidValue);
    }
    if (!zero_pages(rt)) return api_leave(rt, cudaErrorMemoryAllocation);
    t.kind = TEXO_SURFACE;
    ObjectDescs descs;
    memset(&descs, 0, sizeof descs);
    descs.res = *pResDesc;
    uint32_t h = new_object(rt, &t, &descs);
    if (!h) return api_leave(rt, cudaErrorMemoryAllocation);
    *pSurfObject = h;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    ENTER(rt);
    return api_leave(rt, destroy_object(rt, surfObject, TEXO_SURFACE));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject)
{
    ENTER(rt);
    const ObjectDescs *d = object_descs(rt, surfObject, TEXO_SURFACE);
    if (!pResDesc || !d) return api_leave(rt, cudaErrorInvalidValue);
    *pResDesc = d->res;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, const struct cudaChannelFormatDesc *fmtDesc,
                                                 int device)
{
    ENTER(rt);
    if (!maxWidthInElements || !fmtDesc) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    ExecTexture t;
    bool normalized;
    if (!format_of(fmtDesc, &t, &normalized)) return api_leave(rt, cudaErrorInvalidChannelDescriptor);
    *maxWidthInElements = API_MAX_TEX_1D_LINEAR;
    return api_leave(rt, cudaSuccess);
}

/* The per-thread default stream's entry points (nvcc --default-stream
** per-thread): launches and copies run in call order, so they are the same. */
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                       size_t width, size_t height, enum cudaMemcpyKind kind)
{
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                          size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}

cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                            size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}

cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_linear(rt, dst, wOffset, hOffset, (void *)src, count, kind, true, "cudaMemcpyToArray"));
}

cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, array_linear(rt, (struct cudaArray *)src, wOffset, hOffset, dst, count, kind, false,
                                      "cudaMemcpyFromArray"));
}

cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_linear(rt, dst, wOffset, hOffset, (void *)src, count, kind, true, "cudaMemcpyToArrayAsync"));
}

cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                          enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    cudaError_t e = stream_ok(rt, stream);
    return api_leave(rt, e ? e : array_linear(rt, (struct cudaArray *)src, wOffset, hOffset, dst, count, kind, false,
                                              "cudaMemcpyFromArrayAsync"));
}

cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                          size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                          enum cudaMemcpyKind kind)
{
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}

cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                        size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, linear_array_to_array(rt, dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind));
}
