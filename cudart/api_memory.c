/* cudart/api_memory.c -- the CUDA API's memory calls (see cudart/api.c):
** device allocations in the simulated global space (a freed range is
** reused), pinned host memory (plain host memory: there is no copy engine),
** copies and memsets in every direction, pitched 2D copies, and the
** __device__ / __constant__ variables through the symbol calls. A range
** that is not inside one allocation fails the call with
** cudaErrorInvalidValue and a line on stderr saying which. */
#include <stdlib.h>
#include <string.h>

#include "cudart/api_int.h"

static void *side(Runtime *rt, const void *p, size_t n, bool device, const char *call, const char *which);

/* The stream of an Async form that runs at once must be one of ours (a
** capturing one records the work as a node instead: capture_3d and the
** callers that check api_capturing first). */
static cudaError_t async_stream(cudaStream_t stream)
{
    ENTER(rt);
    return api_leave(rt, api_valid_stream(rt, stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

/* A 3D copy or a 2D memset in a capture: its node, or (an array's copy, a
** 3D memset of several slices) cudaErrorNotSupported; -1: not capturing. */
static int capture_3d(cudaStream_t stream, const struct cudaMemcpy3DParms *copy, const struct cudaPitchedPtr *set,
                      int value, struct cudaExtent extent)
{
    ENTER(rt);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!api_capturing(rt, stream)) {
        api_leave(rt, cudaSuccess);
        return -1;
    }
    if (copy && (copy->srcArray || copy->dstArray))
        return api_leave(rt, rt_api_missing("a copy of a CUDA array in a stream capture"));
    if (set && extent.depth > 1) return api_leave(rt, rt_api_missing("cudaMemset3DAsync of several slices in a stream capture"));
    if (set && extent.width > set->pitch && extent.height > 1) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, copy ? api_capture_copy3d(stream, copy)
                              : api_capture_memset2d(stream, set->ptr, set->pitch, value, extent.width, extent.height));
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    ENTER(rt);
    if (!devPtr) return api_leave(rt, cudaErrorInvalidValue);
    *devPtr = NULL;
    if (size == 0) return api_leave(rt, cudaSuccess);
    char name[64];
    snprintf(name, sizeof name, "cudaMalloc #%u (%zu bytes)", ++rt->allocations, size);
    Diag d = { 0 };
    uint32_t addr = gmem_alloc(rt->gmem, size, name, &d);
    if (!addr) {
        WHY(rt, "cudaMalloc of %zu bytes: %s", size, d.message);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    gmem_set_tag(rt->gmem, addr, RT_TAG_PROGRAM);
    *devPtr = (void *)(uintptr_t)addr;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch) return api_fail(cudaErrorInvalidValue);
    size_t p = (width + 511) / 512 * 512;
    *pitch = p;
    return cudaMalloc(devPtr, p * height);
}

/* Host code and kernels use one pointer: host pages mapped where the
** simulated space has room (the data is always where it is used, so there
** is nothing to migrate and no page fault to time). */
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    ENTER(rt);
    if (!devPtr || size == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return api_leave(rt, cudaErrorInvalidValue);
    char name[64];
    snprintf(name, sizeof name, "cudaMallocManaged #%u (%zu bytes)", ++rt->allocations, size);
    uint32_t addr = rt_map_host(rt, size, name, false, 0);
    if (!addr) {
        WHY(rt, "cudaMallocManaged of %zu bytes: no room in the simulated 32-bit space that the host can map", size);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    *devPtr = (void *)(uintptr_t)addr;
    return api_leave(rt, cudaSuccess);
}

/* Hints about where managed memory should live: it lives where it is used
** already, so they change nothing (as on a device without page migration). */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream)
{
    ENTER(rt);
    (void)location, (void)flags;
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    return api_leave(rt, count == 0 || side(rt, devPtr, count, true, "cudaMemPrefetchAsync", "range") ? cudaSuccess
                                                                                                   : cudaErrorInvalidValue);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, struct cudaMemLocation location)
{
    ENTER(rt);
    (void)advice, (void)location;
    return api_leave(rt, count == 0 || side(rt, devPtr, count, true, "cudaMemAdvise", "range") ? cudaSuccess
                                                                                           : cudaErrorInvalidValue);
}

cudaError_t cudaFree(void *devPtr)
{
    ENTER(rt);
    if (!devPtr) return api_leave(rt, cudaSuccess);
    if ((uintptr_t)devPtr <= UINT32_MAX && rt_unmap_host(rt, (uint32_t)(uintptr_t)devPtr, false)) return api_leave(rt, cudaSuccess);
    if ((uintptr_t)devPtr <= UINT32_MAX && api_graph_mem_free(rt, (uint32_t)(uintptr_t)devPtr)) return api_leave(rt, cudaSuccess);
    const RtMapping *mapped = rt_mapping_of(rt, devPtr);
    bool ours = (uintptr_t)devPtr <= UINT32_MAX && gmem_tag(rt->gmem, (uint32_t)(uintptr_t)devPtr) == RT_TAG_PROGRAM;
    if (mapped || !ours || !gmem_free(rt->gmem, (uint32_t)(uintptr_t)devPtr)) {
        if (mapped && mapped->pinned)
            WHY(rt, "cudaFree(%p): pinned host memory (cudaMallocHost or cudaHostAlloc), which cudaFreeHost frees", devPtr);
        else
            WHY(rt, "cudaFree(%p): not the start of a live cudaMalloc or cudaMallocManaged allocation", devPtr);
        return api_leave(rt, cudaErrorInvalidValue);
    }
    api_pool_forget(rt, (uint32_t)(uintptr_t)devPtr);
    return api_leave(rt, cudaSuccess);
}

/* Whether p is pinned host memory at its own address (cudaHostAlloc's):
** host memory, though the simulated space maps it for kernels. */
static bool pinned_host(const Runtime *rt, const void *p)
{
    const RtMapping *m = rt_mapping_of(rt, p);
    return m && m->pinned;
}

/* The device address of host pointer p inside registered memory that is
** mapped (at an address of its own); 0: none. */
static uint32_t registered_device(const Runtime *rt, const void *p)
{
    const RtHandle *reg = rt_handle_inside(rt, p, RT_HANDLE_REGISTERED);
    return reg && reg->device ? reg->device + (uint32_t)((uintptr_t)p - (uintptr_t)reg->ptr) : 0;
}

/* Pinned host memory is host memory (there is no copy engine to pin for),
** placed where the simulated space has room so that kernels can use it
** through the same pointer, as under CUDA's unified addressing: zero-copy
** access (cudaHostAllocMapped, cudaHostGetDevicePointer). Their accesses are
** timed as device memory's: the host link is not modelled. Without room
** there, memory that was not asked to be mapped is plain host memory that
** only host code and copies can use. */
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    ENTER(rt);
    if (!pHost || (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
        return api_leave(rt, cudaErrorInvalidValue);
    *pHost = NULL;
    if (size == 0) return api_leave(rt, cudaSuccess);
    char name[80];
    snprintf(name, sizeof name, "pinned host memory #%u (%zu bytes)", ++rt->allocations, size);
    uint32_t addr = rt_map_host(rt, size, name, true, flags | cudaHostAllocMapped);
    if (addr) {
        *pHost = (void *)(uintptr_t)addr;
        return api_leave(rt, cudaSuccess);
    }
    if (flags & cudaHostAllocMapped) {
        WHY(rt, "cudaHostAlloc of %zu bytes, mapped: no room in the simulated 32-bit space that the host can map", size);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    void *p = malloc(size);
    if (!p || !rt_handle_add_host(rt, p, RT_HANDLE_PINNED, size, NULL)) {
        free(p);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    *pHost = p;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void *ptr)
{
    ENTER(rt);
    if (!ptr) return api_leave(rt, cudaSuccess);
    if ((uintptr_t)ptr <= UINT32_MAX && rt_unmap_host(rt, (uint32_t)(uintptr_t)ptr, true)) return api_leave(rt, cudaSuccess);
    if (!rt_handle_remove(rt, ptr, RT_HANDLE_PINNED)) {
        WHY(rt, "cudaFreeHost(%p): not memory that cudaMallocHost or cudaHostAlloc gave, or freed already", ptr);
        return api_leave(rt, cudaErrorInvalidValue);
    }
    free(ptr);
    return api_leave(rt, cudaSuccess);
}

/* Pinned memory is mapped at its own address: the device pointer is the
** host pointer, as under unified addressing. */
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    ENTER(rt);
    if (!pDevice || flags != 0) return api_leave(rt, cudaErrorInvalidValue);
    uint32_t registered = registered_device(rt, pHost);
    if (pinned_host(rt, pHost)) *pDevice = pHost;
    else if (registered) *pDevice = (void *)(uintptr_t)registered;
    else {
        WHY(rt, "cudaHostGetDevicePointer(%p): not inside pinned host memory that kernels can use (cudaHostAlloc, "
                "cudaMallocHost, cudaHostRegister)", pHost);
        return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    ENTER(rt);
    if (!pFlags) return api_leave(rt, cudaErrorInvalidValue);
    const RtMapping *m = rt_mapping_of(rt, pHost);
    if (m && m->pinned) *pFlags = m->flags;
    else if (rt_handle_inside(rt, pHost, RT_HANDLE_PINNED)) *pFlags = cudaHostAllocDefault;
    else if (rt_handle_inside(rt, pHost, RT_HANDLE_REGISTERED))
        *pFlags = registered_device(rt, pHost) ? cudaHostAllocMapped : cudaHostAllocDefault;
    else return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, cudaSuccess);
}

/* The bytes of host memory (pinned or registered) the simulated space
** holds for kernels to reach: host memory, which the device's does not
** count (though it takes room in the space cudaMalloc draws from). */
static uint64_t host_bytes_mapped(const Runtime *rt)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < rt->nmappings; i++)
        if (rt->mappings[i].pinned) n += rt->mappings[i].bytes;
    for (uint32_t i = 0; i < rt->nhandles; i++)
        if (rt->handles[i].kind == RT_HANDLE_REGISTERED && rt->handles[i].device) n += rt->handles[i].bytes;
    return n;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    ENTER(rt);
    if (!free_bytes || !total) return api_leave(rt, cudaErrorInvalidValue);
    *total = DEVICE_BYTES;
    *free_bytes = DEVICE_BYTES - (gmem_bytes(rt->gmem) - host_bytes_mapped(rt));
    return api_leave(rt, cudaSuccess);
}

/* Host address of [p, p+n) for a copy: device memory when `device`, else p. */
static void *side(Runtime *rt, const void *p, size_t n, bool device, const char *call, const char *which)
{
    if (!device) {
        if (!p) WHY(rt, "%s: the %s is a NULL host pointer", call, which);
        return (void *)p;
    }
    void *h = (uintptr_t)p <= UINT32_MAX && !pinned_host(rt, p) ? rt_device_ptr(rt, (uintptr_t)p, n) : NULL;
    uint32_t base;
    uint64_t size;
    if (!h && rt->heap && gmem_buffer_at(rt->gmem, (uintptr_t)p, &base, &size) && base == rt->heap)
        WHY(rt, "%s: the %s %p is memory a kernel's malloc gave, which no runtime call may use (CUDA's rule)", call,
            which, p);
    else if (!h)
        WHY(rt, "%s: %s range [%p, +%zu) is not inside one device allocation", call, which, p, n);
    return h;
}

bool api_is_device(Runtime *rt, const void *p)
{
    return (uintptr_t)p <= UINT32_MAX && !pinned_host(rt, p) && rt_device_ptr(rt, (uintptr_t)p, 1) != NULL;
}

static cudaError_t copy(Runtime *rt, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, const char *call)
{
    if (count == 0) return cudaSuccess;
    bool ddev, sdev;
    switch (kind) {
    case cudaMemcpyHostToHost: ddev = false, sdev = false; break;
    case cudaMemcpyHostToDevice: ddev = true, sdev = false; break;
    case cudaMemcpyDeviceToHost: ddev = false, sdev = true; break;
    case cudaMemcpyDeviceToDevice: ddev = true, sdev = true; break;
    case cudaMemcpyDefault: ddev = api_is_device(rt, dst), sdev = api_is_device(rt, src); break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    void *d = side(rt, dst, count, ddev, call, "destination");
    const void *s = side(rt, src, count, sdev, call, "source");
    if (!d || !s) return cudaErrorInvalidValue;
    memmove(d, s, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    ENTER(rt);
    return api_leave(rt, copy(rt, dst, src, count, kind, "cudaMemcpy"));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    ENTER(rt);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (api_capturing(rt, stream)) return api_leave(rt, api_capture_copy(stream, dst, src, count, kind));
    return api_leave(rt, copy(rt, dst, src, count, kind, "cudaMemcpyAsync"));
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyAsync(dst, src, count, kind, stream);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    ENTER(rt);
    if (width > dpitch || width > spitch) return api_leave(rt, cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = copy(rt, (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, "cudaMemcpy2D");
        if (e) return api_leave(rt, e);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t stream)
{
    {
        ENTER(rt);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) {
            if (width > dpitch || width > spitch) return api_leave(rt, cudaErrorInvalidPitchValue);
            return api_leave(rt, api_capture_copy2d(stream, dst, dpitch, src, spitch, width, height, kind));
        }
        api_leave(rt, cudaSuccess);
    }
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind); /* the Async forms run at once */
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

int api_symbol_range(Runtime *rt, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                     bool to_symbol, const void *other, bool *other_device, uint32_t *addr, const char *call)
{
    int err;
    RtVar *v = rt_find_var(rt, symbol, &err);
    if (!v) {
        if (err == cudaErrorInvalidSymbol)
            WHY(rt, "%s: %p is not a registered __device__ or __constant__ variable", call, symbol);
        return err;
    }
    if (offset > v->size || count > v->size - offset) {
        WHY(rt, "%s: %zu bytes at offset %zu overrun %s (%llu bytes)", call, count, offset, v->name,
            (unsigned long long)v->size);
        return cudaErrorInvalidValue;
    }
    if (kind == cudaMemcpyDefault) *other_device = api_is_device(rt, other);
    else if (kind == cudaMemcpyDeviceToDevice) *other_device = true;
    else if (kind == (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost)) *other_device = false;
    else return cudaErrorInvalidMemcpyDirection;
    *addr = (uint32_t)(v->addr + offset);
    return cudaSuccess;
}

/* A copy between a variable and `other` (host memory, or device memory for
** cudaMemcpyDeviceToDevice and cudaMemcpyDefault on a device pointer). */
static cudaError_t symbol_copy(const void *symbol, void *other, size_t count, size_t offset, enum cudaMemcpyKind kind,
                               bool to_symbol, const char *call)
{
    ENTER(rt);
    bool other_device = false;
    uint32_t addr = 0;
    int err = api_symbol_range(rt, symbol, count, offset, kind, to_symbol, other, &other_device, &addr, call);
    if (err) return api_leave(rt, err);
    if (count == 0) return api_leave(rt, cudaSuccess);
    void *sym = rt_device_ptr(rt, addr, count);
    void *h = side(rt, other, count, other_device, call, to_symbol ? "source" : "destination");
    if (!sym || !h) return api_leave(rt, cudaErrorInvalidValue);
    if (to_symbol) memmove(sym, h, count);
    else memmove(h, sym, count);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, (void *)src, count, offset, kind, true, "cudaMemcpyToSymbol");
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_copy(symbol, dst, count, offset, kind, false, "cudaMemcpyFromSymbol");
}

/* In a capture, a copy node of the variable's bytes (its address found now,
** as CUDA does); else the copy, at once. */
static cudaError_t symbol_copy_async(const void *symbol, void *other, size_t count, size_t offset,
                                     enum cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream, const char *call)
{
    {
        ENTER(rt);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) {
            bool other_device = false;
            uint32_t addr = 0;
            int err = api_symbol_range(rt, symbol, count, offset, kind, to_symbol, other, &other_device, &addr, call);
            if (err) return api_leave(rt, err);
            void *sym = (void *)(uintptr_t)addr;
            enum cudaMemcpyKind k = other_device ? cudaMemcpyDeviceToDevice
                                    : to_symbol  ? cudaMemcpyHostToDevice
                                                 : cudaMemcpyDeviceToHost;
            return api_leave(rt, api_capture_copy(stream, to_symbol ? sym : other, to_symbol ? other : sym, count, k));
        }
        api_leave(rt, cudaSuccess);
    }
    return symbol_copy(symbol, other, count, offset, kind, to_symbol, call);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy_async(symbol, (void *)src, count, offset, kind, true, stream, "cudaMemcpyToSymbolAsync");
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return symbol_copy_async(symbol, dst, count, offset, kind, false, stream, "cudaMemcpyFromSymbolAsync");
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    ENTER(rt);
    int err;
    RtVar *v = rt_find_var(rt, symbol, &err);
    if (!v) return api_leave(rt, err);
    if (!devPtr) return api_leave(rt, cudaErrorInvalidValue);
    *devPtr = (void *)(uintptr_t)v->addr;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    ENTER(rt);
    int err;
    RtVar *v = rt_find_var(rt, symbol, &err);
    if (!v) return api_leave(rt, err);
    if (!size) return api_leave(rt, cudaErrorInvalidValue);
    *size = (size_t)v->size;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    ENTER(rt);
    if (count == 0) return api_leave(rt, cudaSuccess);
    void *h = side(rt, devPtr, count, true, "cudaMemset", "destination");
    if (!h) return api_leave(rt, cudaErrorInvalidValue);
    memset(h, value, count);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    {
        ENTER(rt); /* the Async forms run at once; their stream must be one */
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) return api_leave(rt, api_capture_memset(stream, devPtr, value, count));
        api_leave(rt, cudaSuccess);
    }
    return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) { return cudaMemset(devPtr, value, count); }

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    return cudaMemsetAsync(devPtr, value, count, stream);
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = cudaMemset((char *)devPtr + r * pitch, value, width);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    ENTER(rt);
    if (!attributes) return api_leave(rt, cudaErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    const RtMapping *mapped = rt_mapping_of(rt, ptr);
    if (mapped) { /* managed, or pinned and mapped: one pointer for both sides */
        attributes->type = mapped->pinned ? cudaMemoryTypeHost : cudaMemoryTypeManaged;
        attributes->devicePointer = attributes->hostPointer = (void *)ptr;
    } else if (api_is_device(rt, ptr)) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->devicePointer = (void *)ptr;
    } else if (rt_handle_inside(rt, ptr, RT_HANDLE_PINNED) || rt_handle_inside(rt, ptr, RT_HANDLE_REGISTERED)) {
        attributes->type = cudaMemoryTypeHost;
        attributes->hostPointer = (void *)ptr;
        attributes->devicePointer = (void *)(uintptr_t)registered_device(rt, ptr); /* NULL: none */
    } else {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->hostPointer = (void *)ptr;
    }
    attributes->device = 0;
    return api_leave(rt, cudaSuccess);
}


/* ------------------------------------------------- 3D, peer, registered */

/* Rows padded to 512 bytes, as cudaMallocPitch. */
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr) return api_fail(cudaErrorInvalidValue);
    size_t pitch = 0;
    void *p = NULL;
    cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, extent.height * extent.depth);
    if (e) return e;
    *pitchedDevPtr = (struct cudaPitchedPtr){ .ptr = p, .pitch = pitch, .xsize = extent.width, .ysize = extent.height };
    return cudaSuccess;
}

/* Pitched pointers: each slice a 2D copy; with a CUDA array on either
** side, cudart/api_texture.c's. */
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    if (!p) return api_fail(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) return api_memcpy3d_array(p);
    const struct cudaPitchedPtr *d = &p->dstPtr, *s = &p->srcPtr;
    char *dst = (char *)d->ptr + (p->dstPos.z * d->ysize + p->dstPos.y) * d->pitch + p->dstPos.x;
    const char *src = (const char *)s->ptr + (p->srcPos.z * s->ysize + p->srcPos.y) * s->pitch + p->srcPos.x;
    for (size_t z = 0; z < p->extent.depth; z++) {
        cudaError_t e = cudaMemcpy2D(dst + z * d->pitch * d->ysize, d->pitch, src + z * s->pitch * s->ysize, s->pitch,
                                     p->extent.width, p->extent.height, p->kind);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    if (!p) {
        cudaError_t e = async_stream(stream);
        return e ? e : cudaMemcpy3D(p);
    }
    int e = capture_3d(stream, p, NULL, 0, p->extent);
    return e >= 0 ? (cudaError_t)e : cudaMemcpy3D(p);
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    for (size_t z = 0; z < extent.depth; z++) {
        cudaError_t e = cudaMemset2D((char *)pitchedDevPtr.ptr + z * pitchedDevPtr.pitch * pitchedDevPtr.ysize,
                                     pitchedDevPtr.pitch, value, extent.width, extent.height);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                              cudaStream_t stream)
{
    int e = capture_3d(stream, NULL, &pitchedDevPtr, value, extent);
    return e >= 0 ? (cudaError_t)e : cudaMemset3D(pitchedDevPtr, value, extent);
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream)
{
    struct cudaPitchedPtr at = { devPtr, pitch, width, height };
    int e = capture_3d(stream, NULL, &at, value, (struct cudaExtent){ width, height, 1 });
    return e >= 0 ? (cudaError_t)e : cudaMemset2D(devPtr, pitch, value, width, height);
}

cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p) { return cudaMemcpy3D(p); }
cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return cudaMemcpy3DAsync(p, stream);
}
cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    return cudaMemset3D(pitchedDevPtr, value, extent);
}
cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                   cudaStream_t stream)
{
    return cudaMemset3DAsync(pitchedDevPtr, value, extent, stream);
}
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    return cudaMemset2D(devPtr, pitch, value, width, height);
}
cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                   cudaStream_t stream)
{
    return cudaMemset2DAsync(devPtr, pitch, value, width, height, stream);
}

/* One device: a peer copy is a copy within it. */
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    if (dstDevice != 0 || srcDevice != 0) return api_fail(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    if (dstDevice != 0 || srcDevice != 0) return api_fail(cudaErrorInvalidDevice);
    return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

/* Registered host memory is pinned host memory, as cudaMallocHost's: kept
** track of (so that registering twice, or unregistering what was not, is
** CUDA's error), never freed by the runtime. It is mapped for kernels where
** the simulated space has room, at an address of its own (the program's
** memory lies outside the space), which cudaHostGetDevicePointer gives:
** cudaDevAttrCanUseHostPointerForRegisteredMem is 0. I/O memory
** (cudaHostRegisterIoMemory) is not implemented. */
static void not_ours(void *p) { (void)p; }

static uint32_t map_registered(Runtime *rt, void *ptr, size_t size)
{
    uint64_t at = gmem_free_space(rt->gmem, size, GMEM_BASE);
    if (at == UINT64_MAX) return 0;
    char name[80];
    snprintf(name, sizeof name, "registered host memory #%u (%zu bytes)", ++rt->allocations, size);
    Diag d = { 0 };
    return gmem_adopt_at(rt->gmem, (uint32_t)at, ptr, size, name, &d);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    ENTER(rt);
    if (!ptr || size == 0 || (flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                                                   cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)))
        return api_leave(rt, cudaErrorInvalidValue);
    if (flags & cudaHostRegisterIoMemory) {
        rt_missing(rt, "cudaHostRegister with cudaHostRegisterIoMemory");
        return api_leave(rt, cudaErrorNotSupported);
    }
    if (rt_handle_live(rt, ptr, RT_HANDLE_REGISTERED)) return api_leave(rt, cudaErrorHostMemoryAlreadyRegistered);
    uint32_t device = map_registered(rt, ptr, size);
    if (!device && (flags & cudaHostRegisterMapped)) {
        WHY(rt, "cudaHostRegister of %zu bytes, mapped: no room in the simulated 32-bit space", size);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    if (!rt_handle_add_host(rt, ptr, RT_HANDLE_REGISTERED, size, not_ours)) {
        if (device) gmem_free(rt->gmem, device);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    rt->handles[rt->nhandles - 1].device = device;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaHostUnregister(void *ptr)
{
    ENTER(rt);
    const RtHandle *h = rt_handle_inside(rt, ptr, RT_HANDLE_REGISTERED);
    if (h && h->ptr == ptr && h->device) gmem_free(rt->gmem, h->device);
    if (!rt_handle_remove(rt, ptr, RT_HANDLE_REGISTERED)) return api_leave(rt, cudaErrorHostMemoryNotRegistered);
    return api_leave(rt, cudaSuccess);
}
