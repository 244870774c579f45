/* fuzz/fuzz_cudart.c -- libFuzzer harness for our CUDA runtime's API (cudart/):
** the input is a program, a sequence of calls an ill-behaved host program
** could make (allocations, frees of any pointer, copies and sets of any
** range and kind, pinned memory, streams and events used before and after
** they are destroyed, device queries, the last error, device resets), and
** a model of CUDA's rules runs beside it. Oracle, beyond "no crash, no
** leak, no read of freed memory":
**   - each call returns what the model says (success, or the error the
**     rules of docs/CUDA.md's error table give);
**   - device memory holds what the model's shadow copy holds (every copy
**     back to the host is compared);
**   - cudaMemGetInfo's free bytes are the device less the live allocations;
**   - cudaGetLastError and cudaPeekAtLastError give the last failed call's
**     error, cleared by the one and kept by the other.
** CUDA arrays (made in several formats, freed, copied in and out at any
** offset) and texture and surface objects on them (made with any
** description, queried, destroyed) are in it too, arrays counted as device
** memory. Graph memory too: allocation and free nodes added to graphs
** (of allocations of any graph, or of none), executable graphs made
** (auto-free or not), launched and destroyed, graphs destroyed, and each
** allocation freed by cudaFree and set while allocated or not; the model
** counts which nodes name an allocation, so a freed one's memory being
** reached, or a forgotten one's being kept, shows. Launches are not in it (a kernel needs a module and ptxas); tests/exec/
** strict.cu covers their errors. Every input begins with cudaDeviceReset,
** so inputs do not see each other. Seeds: fuzz/corpus/cudart.        */
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEV_SLOTS    8
#define HOST_BYTES   4096
#define PIN_SLOTS    4
#define STREAM_SLOTS 4
#define EVENT_SLOTS  4
#define ARRAY_SLOTS  4
#define TEX_SLOTS    4
#define GRAPH_SLOTS  2
#define GALLOC_SLOTS 4
#define GNODES       8

typedef struct {
    cudaArray_t ptr;
    bool        live, surface; /* surface: made with cudaArraySurfaceLoadStore */
    size_t      w, rows, elem;  /* rows: the height, 1 for a 1D array     */
    uint8_t    *shadow;
} ArraySlot;

typedef struct {
    void    *ptr;
    size_t   bytes;
    bool     live;
    uint8_t *shadow;       /* what the device memory holds */
} DevSlot;

/* A graph's allocation: exists while a node names it (refs) or it is live. */
typedef struct {
    void  *addr;
    size_t bytes;
    int    refs;
    bool   exists, live, has_free;
} GraphAlloc;

/* A graph or an executable graph: its memory nodes in order (no other
** nodes, no dependencies: they run in the order they were added). */
typedef struct {
    void *ptr;     /* cudaGraph_t or cudaGraphExec_t; NULL once destroyed */
    int   source;  /* an executable graph: its graph's slot serial          */
    int   serial;  /* a graph: which making of the slot it is               */
    bool  auto_free;
    int   n;
    bool  free_node[GNODES];
    int   alloc[GNODES];
} GraphSlot;

typedef struct {
    DevSlot      dev[DEV_SLOTS];
    GraphAlloc   galloc[GALLOC_SLOTS];
    GraphSlot    graph[GRAPH_SLOTS], exec[GRAPH_SLOTS];
    int          serials;
    void        *pinned[PIN_SLOTS];
    bool         pinned_live[PIN_SLOTS];
    cudaStream_t stream[STREAM_SLOTS];
    bool         stream_live[STREAM_SLOTS];
    cudaEvent_t  event[EVENT_SLOTS];
    bool         event_live[EVENT_SLOTS], event_recorded[EVENT_SLOTS], event_timing[EVENT_SLOTS];
    ArraySlot    array[ARRAY_SLOTS];
    unsigned long long tex[TEX_SLOTS];
    bool         tex_live[TEX_SLOTS], tex_surface[TEX_SLOTS];
    bool         zero_pages; /* the 32 bytes the first surface object takes */
    cudaError_t  last;     /* the model's last error                      */
    uint8_t      host[HOST_BYTES];
    uint8_t      back[HOST_BYTES];
} Model;

typedef struct {
    const uint8_t *p;
    size_t         n;
} Input;

static unsigned take(Input *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static unsigned take16(Input *in) { return take(in) | take(in) << 8; }

static void fail(const char *what, int got, int want)
{
    fprintf(stderr, "fuzz_cudart: %s returned %d, the model says %d\n", what, got, want);
    abort();
}

/* A call's result against the model; a failure becomes the last error. */
static void expect(Model *m, const char *what, cudaError_t got, cudaError_t want)
{
    if (got != want) fail(what, got, want);
    if (want != cudaSuccess) m->last = want;
}

static uint64_t live_bytes(const Model *m)
{
    uint64_t sum = 0;
    for (int i = 0; i < DEV_SLOTS; i++)
        if (m->dev[i].live) sum += m->dev[i].bytes;
    for (int i = 0; i < ARRAY_SLOTS; i++)
        if (m->array[i].live) sum += m->array[i].w * m->array[i].rows * m->array[i].elem;
    for (int i = 0; i < GALLOC_SLOTS; i++)
        if (m->galloc[i].exists) sum += m->galloc[i].bytes;
    return sum + (m->zero_pages ? 32 : 0);
}

/* Whether [p, p+n) lies inside one live allocation; its slot and offset. */
static bool in_allocation(const Model *m, const void *p, size_t n, int *slot, size_t *off)
{
    for (int i = 0; i < DEV_SLOTS; i++) {
        const DevSlot *s = &m->dev[i];
        if (!s->live || (const uint8_t *)p < (const uint8_t *)s->ptr) continue;
        size_t o = (size_t)((const uint8_t *)p - (const uint8_t *)s->ptr);
        if (o < s->bytes && n <= s->bytes - o) {
            *slot = i, *off = o;
            return true;
        }
    }
    return false;
}

/* A device address near a slot's allocation (or its old one): inside, at its
** end, past it, or a host address. */
static uint8_t *device_address(Model *m, Input *in)
{
    unsigned pick = take(in);
    DevSlot *s = &m->dev[pick % DEV_SLOTS];
    if (pick >= 240) return m->host + (pick & 15); /* a host pointer */
    if (!s->ptr) return NULL;
    uint8_t *p = (uint8_t *)s->ptr + take16(in) % (s->bytes + 64);
    for (int i = 0; i < GALLOC_SLOTS; i++) { /* a stale address a graph's allocation took over: op_graph_mem's */
        const GraphAlloc *a = &m->galloc[i];
        if (a->exists && p >= (uint8_t *)a->addr && p < (uint8_t *)a->addr + a->bytes) return m->host + (pick & 15);
    }
    return p;
}

static void op_malloc(Model *m, Input *in)
{
    DevSlot *s = &m->dev[take(in) % DEV_SLOTS];
    if (s->live) return; /* keep it: the model tracks one allocation a slot */
    size_t bytes = take16(in) % 2048;
    void *p = (void *)1;
    expect(m, "cudaMalloc", cudaMalloc(&p, bytes), cudaSuccess);
    if (bytes == 0) {
        if (p) fail("cudaMalloc of 0 bytes set a pointer", 1, 0);
        return;
    }
    free(s->shadow);
    s->shadow = calloc(bytes, 1);
    if (!s->shadow) abort();
    cudaError_t e = cudaMemset(p, 0, bytes); /* the model's shadow starts at 0 */
    if (e) fail("cudaMemset of a new allocation", e, 0);
    *s = (DevSlot){ p, bytes, true, s->shadow };
}

static void op_free(Model *m, Input *in)
{
    void *p = device_address(m, in);
    int slot;
    size_t off;
    bool ok = !p || (in_allocation(m, p, 1, &slot, &off) && off == 0);
    expect(m, "cudaFree", cudaFree(p), ok ? cudaSuccess : cudaErrorInvalidValue);
    if (p && ok) m->dev[slot].live = false;
}

static void op_copy(Model *m, Input *in)
{
    unsigned how = take(in);
    size_t n = take16(in) % (HOST_BYTES / 2);
    size_t hoff = take16(in) % (HOST_BYTES / 2);
    uint8_t *dst, *src;
    int ds = -1, ss = -1;
    size_t doff = 0, soff = 0;
    enum cudaMemcpyKind kind;
    switch (how % 4) {
    case 0: /* host to device, from bytes of the input */
        kind = cudaMemcpyHostToDevice;
        dst = device_address(m, in), src = m->host + hoff;
        for (size_t i = 0; i < n; i++) m->host[hoff + i] = (uint8_t)take(in);
        break;
    case 1:
        kind = cudaMemcpyDeviceToHost;
        dst = m->back + hoff, src = device_address(m, in);
        break;
    case 2:
        kind = cudaMemcpyDeviceToDevice;
        dst = device_address(m, in), src = device_address(m, in);
        break;
    default: /* a kind that is none */
        kind = (enum cudaMemcpyKind)(5 + how / 4 % 8);
        dst = device_address(m, in), src = m->host;
        break;
    }
    bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    cudaError_t want = cudaSuccess;
    if (kind > cudaMemcpyDefault) want = n ? cudaErrorInvalidMemcpyDirection : cudaSuccess;
    else if (n && ((dev_dst && !in_allocation(m, dst, n, &ds, &doff)) || (dev_src && !in_allocation(m, src, n, &ss, &soff))))
        want = cudaErrorInvalidValue;
    else if (n && (!dst || !src))
        want = cudaErrorInvalidValue;
    expect(m, "cudaMemcpy", cudaMemcpy(dst, src, n, kind), want);
    if (want != cudaSuccess || n == 0) return;
    if (kind == cudaMemcpyHostToDevice) memcpy(m->dev[ds].shadow + doff, src, n);
    if (kind == cudaMemcpyDeviceToDevice) memmove(m->dev[ds].shadow + doff, m->dev[ss].shadow + soff, n);
    if (kind == cudaMemcpyDeviceToHost && memcmp(dst, m->dev[ss].shadow + soff, n) != 0) {
        fprintf(stderr, "fuzz_cudart: device memory differs from what was written to it\n");
        abort();
    }
}

static void op_memset(Model *m, Input *in)
{
    uint8_t *p = device_address(m, in);
    size_t n = take16(in) % 2048;
    int value = (int)take(in);
    int slot;
    size_t off;
    bool ok = n == 0 || in_allocation(m, p, n, &slot, &off);
    expect(m, "cudaMemset", cudaMemset(p, value, n), ok ? cudaSuccess : cudaErrorInvalidValue);
    if (ok && n) memset(m->dev[slot].shadow + off, value, n);
}

/* A new handle may have the address of a destroyed one another slot still
** holds; that slot forgets it (NULL), so that one address is one slot's. */
static void forget_aliases(void **slots, unsigned n, unsigned fresh)
{
    for (unsigned k = 0; k < n; k++)
        if (k != fresh && slots[k] == slots[fresh]) slots[k] = NULL;
}

static void op_pinned(Model *m, Input *in)
{
    unsigned what = take(in), i = what / 4 % PIN_SLOTS;
    if (what % 4 == 0 && !m->pinned_live[i]) {
        expect(m, "cudaMallocHost", cudaMallocHost(&m->pinned[i], 1 + take(in)), cudaSuccess);
        m->pinned_live[i] = true;
        forget_aliases(m->pinned, PIN_SLOTS, i);
    } else if (what % 4 == 1) {
        /* a pinned pointer, live or freed, or one that never was pinned */
        void *p = what & 128 ? (void *)m->host : m->pinned[i];
        bool ok = p == NULL || (p == m->pinned[i] && m->pinned_live[i]);
        expect(m, "cudaFreeHost", cudaFreeHost(p), ok ? cudaSuccess : cudaErrorInvalidValue);
        if (ok && p) m->pinned_live[i] = false;
    }
}

/* A stream: the default one, a slot's (live or destroyed), or garbage. */
static cudaStream_t pick_stream(Model *m, Input *in, bool *valid)
{
    unsigned s = take(in);
    if (s % 8 == 0) return *valid = true, (cudaStream_t)0;
    if (s % 8 == 1) return *valid = false, (cudaStream_t)(void *)m->host;
    unsigned i = s % STREAM_SLOTS;
    *valid = !m->stream[i] || m->stream_live[i]; /* NULL: the default stream */
    return m->stream[i];
}

static void op_stream(Model *m, Input *in)
{
    unsigned what = take(in), i = what / 4 % STREAM_SLOTS;
    bool valid;
    switch (what % 4) {
    case 0:
        if (m->stream_live[i]) return;
        expect(m, "cudaStreamCreate", cudaStreamCreate(&m->stream[i]), cudaSuccess);
        m->stream_live[i] = true;
        forget_aliases((void **)m->stream, STREAM_SLOTS, i);
        return;
    case 1: {
        cudaStream_t s = m->stream[i];
        bool ok = s && m->stream_live[i];
        expect(m, "cudaStreamDestroy", cudaStreamDestroy(s), ok ? cudaSuccess : cudaErrorInvalidResourceHandle);
        for (int j = 0; j < STREAM_SLOTS; j++)
            if (ok && m->stream[j] == s) m->stream_live[j] = false;
        return;
    }
    case 2: {
        cudaStream_t s = pick_stream(m, in, &valid);
        expect(m, "cudaStreamSynchronize", cudaStreamSynchronize(s), valid ? cudaSuccess : cudaErrorInvalidResourceHandle);
        return;
    }
    default: {
        cudaStream_t s = pick_stream(m, in, &valid);
        size_t n = take(in);
        int slot;
        size_t off;
        uint8_t *p = device_address(m, in);
        cudaError_t want = !valid ? cudaErrorInvalidResourceHandle
                           : n == 0 || in_allocation(m, p, n, &slot, &off) ? cudaSuccess
                                                                           : cudaErrorInvalidValue;
        expect(m, "cudaMemsetAsync", cudaMemsetAsync(p, 7, n, s), want);
        if (want == cudaSuccess && n) memset(m->dev[slot].shadow + off, 7, n);
    }
    }
}

static void op_event(Model *m, Input *in)
{
    unsigned what = take(in), i = what / 8 % EVENT_SLOTS, j = take(in) % EVENT_SLOTS;
    cudaEvent_t e = m->event[i];
    bool live = e && m->event_live[i];
    switch (what % 4) {
    case 0:
        if (m->event_live[i]) return;
        m->event_timing[i] = !(what & 128);
        expect(m, "cudaEventCreateWithFlags",
               cudaEventCreateWithFlags(&m->event[i], m->event_timing[i] ? cudaEventDefault : cudaEventDisableTiming),
               cudaSuccess);
        m->event_live[i] = true, m->event_recorded[i] = false;
        forget_aliases((void **)m->event, EVENT_SLOTS, i);
        return;
    case 1: {
        bool valid;
        cudaStream_t s = pick_stream(m, in, &valid);
        bool ok = live && valid;
        expect(m, "cudaEventRecord", cudaEventRecord(e, s), ok ? cudaSuccess : cudaErrorInvalidResourceHandle);
        if (ok) m->event_recorded[i] = true;
        return;
    }
    case 2: {
        float ms;
        bool ok = live && m->event_live[j] && m->event[j] && m->event_timing[i] && m->event_timing[j] &&
                  m->event_recorded[i] && m->event_recorded[j];
        expect(m, "cudaEventElapsedTime", cudaEventElapsedTime(&ms, e, m->event[j]),
               ok ? cudaSuccess : cudaErrorInvalidResourceHandle);
        return;
    }
    default:
        expect(m, "cudaEventDestroy", cudaEventDestroy(e), live ? cudaSuccess : cudaErrorInvalidResourceHandle);
        if (live) m->event_live[i] = false;
    }
}

static void op_query(Model *m, Input *in)
{
    unsigned what = take(in);
    int device = (int)(take(in) % 3) - 1, value;
    struct cudaDeviceProp prop;
    size_t free_bytes, total;
    cudaError_t got, want;
    switch (what % 5) {
    case 0:
        expect(m, "cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, device),
               device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
        return;
    case 1:
        got = cudaDeviceGetAttribute(&value, (enum cudaDeviceAttr)take(in), device);
        if (device != 0) want = cudaErrorInvalidDevice;
        else want = got == cudaErrorNotSupported || got == cudaErrorInvalidValue ? got : cudaSuccess;
        expect(m, "cudaDeviceGetAttribute", got, want);
        return;
    case 2:
        expect(m, "cudaMemGetInfo", cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
        if (total - free_bytes != live_bytes(m)) fail("cudaMemGetInfo's used bytes", (int)(total - free_bytes), (int)live_bytes(m));
        return;
    case 3:
        expect(m, "cudaPeekAtLastError", cudaPeekAtLastError(), m->last);
        return;
    default:
        got = cudaGetLastError();
        if (got != m->last) fail("cudaGetLastError", got, m->last);
        m->last = cudaSuccess;
    }
}

/* Channel formats: those gpusim takes, then ones it refuses. */
static const struct {
    int x, y, z, w;
    enum cudaChannelFormatKind f;
    size_t elem; /* 0: refused */
} FORMATS[] = {
    { 32, 0, 0, 0, cudaChannelFormatKindFloat, 4 },     { 8, 8, 8, 8, cudaChannelFormatKindUnsigned, 4 },
    { 16, 16, 0, 0, cudaChannelFormatKindSigned, 4 },   { 16, 0, 0, 0, cudaChannelFormatKindFloat, 2 },
    { 32, 32, 32, 32, cudaChannelFormatKindFloat, 16 }, { 8, 0, 0, 0, cudaChannelFormatKindSigned, 1 },
    { 0, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X2, 2 },
    { 8, 8, 8, 0, cudaChannelFormatKindUnsigned, 0 },   { 8, 16, 0, 0, cudaChannelFormatKindUnsigned, 0 },
    { 8, 0, 0, 0, cudaChannelFormatKindFloat, 0 },      { 32, 0, 0, 0, cudaChannelFormatKindNone, 0 },
};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

/* A CUDA array slot's array, a freed one, or a made-up pointer. */
static cudaArray_t pick_array(Model *m, Input *in, ArraySlot **slot)
{
    unsigned a = take(in);
    *slot = NULL;
    if (a % 16 == 15) return (cudaArray_t)(void *)m->host;
    ArraySlot *s = &m->array[a % ARRAY_SLOTS];
    if (s->live) *slot = s;
    return s->ptr;
}

static void op_array(Model *m, Input *in)
{
    unsigned what = take(in);
    ArraySlot *s;
    switch (what % 4) {
    case 0: { /* make one */
        ArraySlot *new_slot = &m->array[what / 4 % ARRAY_SLOTS];
        if (new_slot->live) return;
        unsigned f = take(in) % NFORMATS, flag = take(in) % 4;
        size_t w = take(in) % 40, h = take(in) % 6;
        unsigned flags = flag == 1 ? cudaArraySurfaceLoadStore : flag == 2 ? cudaArrayLayered : 0;
        struct cudaChannelFormatDesc d = { FORMATS[f].x, FORMATS[f].y, FORMATS[f].z, FORMATS[f].w, FORMATS[f].f };
        cudaError_t want = flag == 2 ? cudaErrorInvalidValue : !FORMATS[f].elem ? cudaErrorInvalidChannelDescriptor
                         : w == 0 ? cudaErrorInvalidValue : cudaSuccess;
        cudaArray_t a = NULL;
        expect(m, "cudaMallocArray", cudaMallocArray(&a, &d, w, h, flags), want);
        if (want) return;
        size_t rows = h ? h : 1, bytes = w * rows * FORMATS[f].elem;
        uint8_t *zero = calloc(bytes, 1), *shadow = calloc(bytes, 1);
        if (!zero || !shadow) abort();
        cudaError_t e = cudaMemcpy2DToArray(a, 0, 0, zero, w * FORMATS[f].elem, w * FORMATS[f].elem, rows, cudaMemcpyHostToDevice);
        if (e) fail("cudaMemcpy2DToArray of a new array", e, 0);
        free(zero);
        free(new_slot->shadow);
        *new_slot = (ArraySlot){ a, true, flag == 1, w, rows, FORMATS[f].elem, shadow };
        for (int k = 0; k < ARRAY_SLOTS; k++) /* a freed one's address may come back */
            if (&m->array[k] != new_slot && m->array[k].ptr == a) m->array[k].ptr = NULL;
        return;
    }
    case 1: { /* free one */
        cudaArray_t a = pick_array(m, in, &s);
        expect(m, "cudaFreeArray", cudaFreeArray(a), s || !a ? cudaSuccess : cudaErrorInvalidValue);
        if (s) s->live = false;
        return;
    }
    default: { /* a 2D copy in or out, at any offset and size */
        bool to = what % 4 == 2;
        cudaArray_t a = pick_array(m, in, &s);
        size_t x = take(in) % 48, y = take(in) % 8, width = take(in) % 64, rows = take(in) % 8, pitch = 1 + take(in) % 96;
        cudaError_t want = !s ? cudaErrorInvalidResourceHandle
                         : rows > 1 && width > pitch ? cudaErrorInvalidPitchValue
                         : x > s->w * s->elem || width > s->w * s->elem - x || y > s->rows || rows > s->rows - y
                             ? cudaErrorInvalidValue
                             : cudaSuccess;
        if (rows && (rows - 1) * pitch + width > HOST_BYTES) return;
        if (to) {
            for (size_t i = 0; rows && i < (rows - 1) * pitch + width; i++) m->host[i] = (uint8_t)take(in);
            expect(m, "cudaMemcpy2DToArray", cudaMemcpy2DToArray(a, x, y, m->host, pitch, width, rows, cudaMemcpyHostToDevice), want);
        } else {
            expect(m, "cudaMemcpy2DFromArray", cudaMemcpy2DFromArray(m->back, pitch, a, x, y, width, rows, cudaMemcpyDeviceToHost),
                   want);
        }
        if (want) return;
        size_t apitch = s->w * s->elem;
        for (size_t r = 0; r < rows; r++) {
            uint8_t *row = s->shadow + (y + r) * apitch + x;
            if (to) memcpy(row, m->host + r * pitch, width);
            else if (memcmp(m->back + r * pitch, row, width) != 0) {
                fprintf(stderr, "fuzz_cudart: a CUDA array differs from what was copied into it\n");
                abort();
            }
        }
    }
    }
}

/* Texture and surface objects on an array slot, with any description. */
static void op_texture(Model *m, Input *in)
{
    unsigned what = take(in), i = what / 4 % TEX_SLOTS;
    ArraySlot *s;
    switch (what % 4) {
    case 0:
    case 1: {
        if (m->tex_live[i]) return;
        bool surface = what % 4 == 1;
        struct cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = pick_array(m, in, &s);
        struct cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        unsigned bits = take(in);
        td.addressMode[0] = (enum cudaTextureAddressMode)(bits % 5); /* 4: none */
        td.filterMode = (enum cudaTextureFilterMode)(bits / 5 % 2);
        td.readMode = (enum cudaTextureReadMode)(bits / 10 % 2);
        td.normalizedCoords = (int)(bits / 20 % 2);
        cudaError_t want = !s ? cudaErrorInvalidResourceHandle
                         : surface ? (s->surface ? cudaSuccess : cudaErrorInvalidValue)
                         : td.addressMode[0] > cudaAddressModeBorder ? cudaErrorInvalidValue : cudaSuccess;
        cudaError_t got = surface ? cudaCreateSurfaceObject(&m->tex[i], &rd) : cudaCreateTextureObject(&m->tex[i], &rd, &td, NULL);
        expect(m, surface ? "cudaCreateSurfaceObject" : "cudaCreateTextureObject", got, want);
        if (want) return;
        if (surface) m->zero_pages = true;
        m->tex_live[i] = true, m->tex_surface[i] = surface;
        for (int k = 0; k < TEX_SLOTS; k++) /* a destroyed one's handle comes back */
            if (k != (int)i && m->tex[k] == m->tex[i]) m->tex[k] = 0;
        if (!surface) {
            struct cudaTextureDesc back;
            expect(m, "cudaGetTextureObjectTextureDesc", cudaGetTextureObjectTextureDesc(&back, m->tex[i]), cudaSuccess);
            if (memcmp(&back, &td, sizeof td) != 0) fail("cudaGetTextureObjectTextureDesc's description", 1, 0);
        }
        return;
    }
    default: {
        unsigned long long h = what & 128 ? (unsigned long long)take(in) : m->tex[i];
        bool surface = what % 4 == 3, ok = false;
        for (int k = 0; k < TEX_SLOTS; k++) ok = ok || (h && m->tex[k] == h && m->tex_live[k] && m->tex_surface[k] == surface);
        cudaError_t want = h == 0 || ok ? cudaSuccess : cudaErrorInvalidValue;
        expect(m, surface ? "cudaDestroySurfaceObject" : "cudaDestroyTextureObject",
               surface ? cudaDestroySurfaceObject(h) : cudaDestroyTextureObject(h), want);
        for (int k = 0; k < TEX_SLOTS; k++)
            if (ok && m->tex[k] == h) m->tex_live[k] = false;
    }
    }
}

/* ----------------------------------------------------------- graph memory */

static void graph_let_go(Model *m, GraphSlot *g)
{
    for (int k = 0; k < g->n; k++) {
        GraphAlloc *a = &m->galloc[g->alloc[k]];
        if (--a->refs == 0 && !a->live) a->exists = false;
    }
    g->ptr = NULL, g->n = 0;
}

/* An executable graph's launch: an allocation still allocated is freed
** (auto-free) or refuses it; then each node runs until one fails. */
static cudaError_t graph_launch_model(Model *m, const GraphSlot *x)
{
    for (int k = 0; k < x->n; k++)
        if (!x->free_node[k] && m->galloc[x->alloc[k]].live && !x->auto_free) return cudaErrorInvalidValue;
    for (int k = 0; k < x->n; k++)
        if (!x->free_node[k]) m->galloc[x->alloc[k]].live = false;
    for (int k = 0; k < x->n; k++) {
        GraphAlloc *a = &m->galloc[x->alloc[k]];
        if (a->live == !x->free_node[k]) return cudaErrorInvalidValue;
        a->live = !x->free_node[k];
    }
    return cudaSuccess;
}

static void op_graph_mem(Model *m, Input *in)
{
    unsigned what = take(in), gi = take(in) % GRAPH_SLOTS, ai = take(in) % GALLOC_SLOTS;
    GraphSlot *g = &m->graph[gi], *x = &m->exec[gi];
    GraphAlloc *a = &m->galloc[ai];
    cudaGraphNode_t node;
    switch (what % 8) {
    case 0:
        if (g->ptr) return;
        expect(m, "cudaGraphCreate", cudaGraphCreate((cudaGraph_t *)&g->ptr, 0), cudaSuccess);
        g->serial = ++m->serials;
        return;
    case 1: { /* an allocation node */
        if (a->exists || g->n == GNODES) return;
        struct cudaMemAllocNodeParams p = { .bytesize = take16(in) % 1024 + 1 };
        p.poolProps.allocType = cudaMemAllocationTypePinned;
        p.poolProps.location = (struct cudaMemLocation){ cudaMemLocationTypeDevice, 0 };
        expect(m, "cudaGraphAddMemAllocNode", cudaGraphAddMemAllocNode(&node, g->ptr, NULL, 0, &p),
               g->ptr ? cudaSuccess : cudaErrorInvalidValue);
        if (!g->ptr) return;
        *a = (GraphAlloc){ p.dptr, p.bytesize, 1, true, false, false };
        g->free_node[g->n] = false, g->alloc[g->n++] = (int)ai;
        return;
    }
    case 2: { /* a free node: of an allocation, or of cudaMalloc's memory */
        if (g->n == GNODES || (!a->exists && !(what & 8))) return;
        void *p = a->exists ? a->addr : device_address(m, in);
        bool ok = g->ptr && a->exists && !a->has_free;
        expect(m, "cudaGraphAddMemFreeNode", cudaGraphAddMemFreeNode(&node, g->ptr, NULL, 0, p),
               ok ? cudaSuccess : cudaErrorInvalidValue);
        if (!ok) return;
        a->refs++, a->has_free = true;
        g->free_node[g->n] = true, g->alloc[g->n++] = (int)ai;
        return;
    }
    case 3: { /* instantiate: one executable graph at a time when it has memory nodes */
        if (x->ptr) return;
        bool twice = false;
        for (int k = 0; k < GRAPH_SLOTS; k++) twice |= m->exec[k].ptr && m->exec[k].source == g->serial && g->n;
        unsigned long long flags = what & 8 ? cudaGraphInstantiateFlagAutoFreeOnLaunch : 0;
        cudaError_t want = !g->ptr ? cudaErrorInvalidValue : twice ? cudaErrorNotSupported : cudaSuccess;
        expect(m, "cudaGraphInstantiate", cudaGraphInstantiate((cudaGraphExec_t *)&x->ptr, g->ptr, flags), want);
        if (want) {
            x->ptr = NULL;
            return;
        }
        void *made = x->ptr;
        *x = *g;
        x->ptr = made, x->source = g->serial, x->auto_free = flags != 0;
        for (int k = 0; k < x->n; k++) m->galloc[x->alloc[k]].refs++;
        return;
    }
    case 4:
        if (!x->ptr) return;
        expect(m, "cudaGraphLaunch", cudaGraphLaunch(x->ptr, 0), graph_launch_model(m, x));
        return;
    case 5:
        if (!g->ptr) return;
        expect(m, "cudaGraphDestroy", cudaGraphDestroy(g->ptr), cudaSuccess);
        graph_let_go(m, g);
        return;
    case 6:
        if (!x->ptr) return;
        expect(m, "cudaGraphExecDestroy", cudaGraphExecDestroy(x->ptr), cudaSuccess);
        graph_let_go(m, x);
        return;
    default: /* cudaFree of it, or a memset of it: either only while allocated */
        if (!a->exists) return;
        if (what & 8) {
            expect(m, "cudaMemset of a graph's allocation", cudaMemset(a->addr, 3, a->bytes),
                   a->live ? cudaSuccess : cudaErrorInvalidValue);
            return;
        }
        expect(m, "cudaFree of a graph's allocation", cudaFree(a->addr), a->live ? cudaSuccess : cudaErrorInvalidValue);
        if (a->live && !(a->live = false) && a->refs == 0) a->exists = false;
    }
}

/* cudaDeviceReset: every allocation, stream, event and pinned buffer goes. */
static void reset(Model *m)
{
    cudaError_t e = cudaDeviceReset();
    if (e) fail("cudaDeviceReset", e, 0);
    for (int i = 0; i < DEV_SLOTS; i++) m->dev[i].live = false;
    memset(m->pinned_live, 0, sizeof m->pinned_live);
    memset(m->stream_live, 0, sizeof m->stream_live);
    memset(m->event_live, 0, sizeof m->event_live);
    for (int i = 0; i < ARRAY_SLOTS; i++) m->array[i].live = false;
    memset(m->tex_live, 0, sizeof m->tex_live);
    m->zero_pages = false;
    memset(m->galloc, 0, sizeof m->galloc);
    memset(m->graph, 0, sizeof m->graph);
    memset(m->exec, 0, sizeof m->exec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Model m;
    reset(&m);
    cudaGetLastError();
    m.last = cudaSuccess;
    for (int i = 0; i < DEV_SLOTS; i++) m.dev[i].ptr = NULL;
    memset(m.pinned, 0, sizeof m.pinned);
    memset(m.stream, 0, sizeof m.stream);
    memset(m.event, 0, sizeof m.event);
    for (int i = 0; i < ARRAY_SLOTS; i++) m.array[i].ptr = NULL;
    memset(m.tex, 0, sizeof m.tex);
    Input in = { data, size };
    for (int calls = 0; in.n && calls < 256; calls++) {
        switch (take(&in) % 12) {
        case 0: op_malloc(&m, &in); break;
        case 1: op_free(&m, &in); break;
        case 2: case 3: op_copy(&m, &in); break;
        case 4: op_memset(&m, &in); break;
        case 5: op_pinned(&m, &in); break;
        case 6: op_stream(&m, &in); break;
        case 7: op_event(&m, &in); break;
        case 8: op_array(&m, &in); break;
        case 9: op_texture(&m, &in); break;
        case 10: op_graph_mem(&m, &in); break;
        default:
            if (take(&in) == 255) {
                reset(&m);
                break;
            }
            op_query(&m, &in);
        }
    }
    return 0;
}
