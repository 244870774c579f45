/* cudart/api_stream.c -- the CUDA API's further stream calls (see
** cudart/api.c): host functions and callbacks in a stream, stream-ordered
** allocation, what a stream says of itself, the extensible launch
** (cudaLaunchKernelExC, which cudaLaunchKernelEx calls) and the profiler's
** range. Work is done when it is issued (every stream is one timeline), so
** a host function runs at once: everything before it in its stream is
** done, which is all CUDA promises it. */
#include <cuda_profiler_api.h>
#include <stdlib.h>

#include "base/grow.h"
#include "cudart/api_int.h"

/* ------------------------------------------------ host functions, callbacks */

/* Runs outside the runtime's lock: CUDA forbids a host function to call
** the API, but one that does finds it working, not hanging. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    {
        ENTER(rt);
        if (!fn) return api_leave(rt, cudaErrorInvalidValue);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) return api_leave(rt, api_capture_host(stream, fn, userData));
        api_leave(rt, cudaSuccess);
    }
    fn(userData);
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    return cudaLaunchHostFunc(stream, fn, userData);
}

/* The callback gets the stream's status: cudaSuccess here, since a sticky
** fault refuses the call itself (ENTER) as it refuses every call after it. */
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags)
{
    {
        ENTER(rt);
        if (!callback || flags != 0) return api_leave(rt, cudaErrorInvalidValue); /* flags: reserved, 0 */
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) return api_leave(rt, cudaErrorStreamCaptureUnsupported); /* CUDA's rule */
        api_leave(rt, cudaSuccess);
    }
    callback(stream, cudaSuccess, userData);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags)
{
    return cudaStreamAddCallback(stream, callback, userData, flags);
}

/* ---------------------------------------------------- stream-ordered memory */

/* The stream's earlier work is done when the call is made, so the memory
** can be given and taken back at once: cudaMalloc's and cudaFree's, counted
** against the pool it came from (cudaMemPoolGetAttribute's figures). */

bool api_valid_pool(const Runtime *rt, cudaMemPool_t pool)
{
    return (RtPool *)pool == &rt->default_pool || rt_handle_live(rt, pool, RT_HANDLE_POOL);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    RtPool *pool;
    {
        ENTER(rt);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (!ptr || !api_valid_pool(rt, memPool)) return api_leave(rt, cudaErrorInvalidValue);
        if (api_capturing(rt, stream)) return api_leave(rt, api_capture_alloc(rt, stream, size, ptr));
        if (!grow_array((void **)&rt->pool_allocs, &rt->pool_allocs_cap, rt->npool_allocs + 1, sizeof *rt->pool_allocs))
            return api_leave(rt, cudaErrorMemoryAllocation);
        pool = (RtPool *)memPool;
        api_leave(rt, cudaSuccess);
    }
    cudaError_t err = cudaMalloc(ptr, size);
    if (err != cudaSuccess || size == 0) return err;
    ENTER(rt);
    rt->pool_allocs[rt->npool_allocs++] = (RtPoolAlloc){ (uint32_t)(uintptr_t)*ptr, size, pool };
    pool->used += size;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
    if (pool->used > pool->reserved_high) pool->reserved_high = pool->used;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    cudaMemPool_t pool;
    {
        ENTER(rt);
        pool = (cudaMemPool_t)(void *)rt->current_pool;
        api_leave(rt, cudaSuccess);
    }
    return cudaMallocFromPoolAsync(devPtr, size, pool, hStream);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    return cudaMallocAsync(devPtr, size, hStream);
}

void api_pool_forget(Runtime *rt, uint32_t addr)
{
    for (uint32_t i = 0; i < rt->npool_allocs; i++) {
        if (rt->pool_allocs[i].addr != addr) continue;
        rt->pool_allocs[i].pool->used -= rt->pool_allocs[i].bytes;
        rt->pool_allocs[i] = rt->pool_allocs[--rt->npool_allocs];
        return;
    }
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    {
        ENTER(rt);
        if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, hStream)) return api_leave(rt, api_capture_mem_free(rt, hStream, devPtr));
        api_leave(rt, cudaSuccess);
    }
    return cudaFree(devPtr);
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) { return cudaFreeAsync(devPtr, hStream); }

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    ENTER(rt);
    if (!memPool) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    *memPool = (cudaMemPool_t)(void *)&rt->default_pool;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    ENTER(rt);
    if (!memPool) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    *memPool = (cudaMemPool_t)(void *)rt->current_pool;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    ENTER(rt);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    if (!api_valid_pool(rt, memPool)) return api_leave(rt, cudaErrorInvalidValue);
    rt->current_pool = (RtPool *)memPool;
    return api_leave(rt, cudaSuccess);
}

/* A pool of device memory on device 0; pools of host memory, or exported
** to other processes, are not implemented. */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    ENTER(rt);
    if (!memPool || !poolProps || poolProps->allocType != cudaMemAllocationTypePinned)
        return api_leave(rt, cudaErrorInvalidValue);
    if (poolProps->location.type != cudaMemLocationTypeDevice || poolProps->handleTypes != cudaMemHandleTypeNone) {
        rt_missing(rt, "cudaMemPoolCreate of a pool of host memory or with shareable handles");
        return api_leave(rt, cudaErrorNotSupported);
    }
    if (poolProps->location.id != 0) return api_leave(rt, cudaErrorInvalidDevice);
    RtPool *p = malloc(sizeof *p);
    if (!p || !rt_handle_add(rt, p, RT_HANDLE_POOL)) {
        free(p);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    rt_pool_init(p);
    *memPool = (cudaMemPool_t)(void *)p;
    return api_leave(rt, cudaSuccess);
}

/* A pool destroyed while allocations of it live keeps them alive (CUDA
** frees the pool when they are freed): their accounting is dropped. */
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    ENTER(rt);
    RtPool *p = (RtPool *)memPool;
    if (!rt_handle_remove(rt, p, RT_HANDLE_POOL)) return api_leave(rt, cudaErrorInvalidValue);
    for (uint32_t i = 0; i < rt->npool_allocs;)
        if (rt->pool_allocs[i].pool == p) rt->pool_allocs[i] = rt->pool_allocs[--rt->npool_allocs];
        else i++;
    if (rt->current_pool == p) rt->current_pool = &rt->default_pool;
    free(p);
    return api_leave(rt, cudaSuccess);
}

/* Nothing is held beyond what is in use, so there is nothing to trim. */
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    ENTER(rt);
    (void)minBytesToKeep;
    return api_leave(rt, api_valid_pool(rt, memPool) ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    ENTER(rt);
    if (!api_valid_pool(rt, memPool) || !value) return api_leave(rt, cudaErrorInvalidValue);
    RtPool *p = (RtPool *)memPool;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: p->reuse[attr - cudaMemPoolReuseFollowEventDependencies] = *(int *)value; break;
    case cudaMemPoolAttrReleaseThreshold: p->release_threshold = *(uint64_t *)value; break;
    case cudaMemPoolAttrReservedMemHigh: /* only reset, to the current figure */
    case cudaMemPoolAttrUsedMemHigh:
        if (*(uint64_t *)value != 0) return api_leave(rt, cudaErrorInvalidValue);
        if (attr == cudaMemPoolAttrUsedMemHigh) p->used_high = p->used;
        else p->reserved_high = p->used;
        break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    ENTER(rt);
    if (!api_valid_pool(rt, memPool) || !value) return api_leave(rt, cudaErrorInvalidValue);
    const RtPool *p = (const RtPool *)memPool;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: *(int *)value = p->reuse[attr - cudaMemPoolReuseFollowEventDependencies]; break;
    case cudaMemPoolAttrReleaseThreshold: *(uint64_t *)value = p->release_threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *(uint64_t *)value = p->used; break;
    case cudaMemPoolAttrReservedMemHigh: *(uint64_t *)value = p->reserved_high; break;
    case cudaMemPoolAttrUsedMemHigh: *(uint64_t *)value = p->used_high; break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

/* Which stream may use managed memory: a promise that lets CUDA move it,
** where here it never moves (host code and kernels read the same pages, and
** a launch is over before the call that made it returns), so the call only
** checks its arguments as CUDA does. */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    ENTER(rt);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return api_leave(rt, cudaErrorInvalidValue);
    if (flags == cudaMemAttachSingle && (stream == NULL || stream == cudaStreamLegacy)) {
        WHY(rt, "cudaStreamAttachMemAsync: cudaMemAttachSingle needs a stream other than the default one");
        return api_leave(rt, cudaErrorInvalidValue);
    }
    const RtMapping *m = rt_mapping_of(rt, devPtr);
    if (!m || m->pinned || (length && length > m->bytes - ((uintptr_t)devPtr - m->addr))) {
        WHY(rt, "cudaStreamAttachMemAsync: [%p, +%zu) is not inside managed memory", devPtr, length);
        return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags)
{
    return cudaStreamAttachMemAsync(stream, devPtr, length, flags);
}

/* ------------------------------------------------------ what a stream says */

/* One priority level: launches run one at a time, so no priority could
** change their order (CUDA clamps a stream's priority into this range). */
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    ENTER(rt);
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = 0;
    return api_leave(rt, cudaSuccess);
}

/* The default stream's names have the flags and id 0; ours their own. */
static const struct CUstream_st *stream_of(cudaStream_t s)
{
    static const struct CUstream_st DEFAULT = { .flags = cudaStreamDefault };
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread ? &DEFAULT : s;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    ENTER(rt);
    if (!flags) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    *flags = stream_of(hStream)->flags;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    ENTER(rt);
    if (!priority) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    *priority = stream_of(hStream)->priority;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    ENTER(rt);
    if (!streamId) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    *streamId = stream_of(hStream)->id;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    ENTER(rt);
    if (!device) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    *device = 0;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags) { return cudaStreamGetFlags(hStream, flags); }
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    return cudaStreamGetPriority(hStream, priority);
}
cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    return cudaStreamGetId(hStream, streamId);
}
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device) { return cudaStreamGetDevice(hStream, device); }

/* A stream's attributes: the default stream's kept in the runtime (NULL
** when out of memory). */
static ApiStreamAttrs *attrs_of(Runtime *rt, cudaStream_t s)
{
    if (s != NULL && s != cudaStreamLegacy && s != cudaStreamPerThread) return &s->attrs;
    if (!rt->default_stream_attrs) rt->default_stream_attrs = calloc(1, sizeof(ApiStreamAttrs));
    return rt->default_stream_attrs;
}

/* The attributes CUDA gives a stream: an access-policy window and the
** memory-synchronization domain (hints: no line persists in L2 here), the
** synchronization policy (how a host wait waits: it returns at once here),
** and the priority (one level: it stays 0). */
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    ENTER(rt);
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    ApiStreamAttrs *a = attrs_of(rt, hStream);
    if (!a) return api_leave(rt, cudaErrorMemoryAllocation);
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: {
        const struct cudaAccessPolicyWindow *w = &value->accessPolicyWindow;
        if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f) || (unsigned)w->hitProp > cudaAccessPropertyPersisting ||
            (unsigned)w->missProp > cudaAccessPropertyPersisting)
            return api_leave(rt, cudaErrorInvalidValue);
        a->window = *w;
        break;
    }
    case cudaLaunchAttributeSynchronizationPolicy:
        if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync)
            return api_leave(rt, cudaErrorInvalidValue);
        a->sync_policy = value->syncPolicy;
        break;
    case cudaLaunchAttributePriority: break; /* clamped into the one level */
    case cudaLaunchAttributeMemSyncDomainMap: a->domain_map = value->memSyncDomainMap; break;
    case cudaLaunchAttributeMemSyncDomain: a->domain = value->memSyncDomain; break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value)
{
    ENTER(rt);
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    ApiStreamAttrs none = { 0 }, *a = attrs_of(rt, hStream);
    if (!a) a = &none;
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: value->accessPolicyWindow = a->window; break;
    case cudaLaunchAttributeSynchronizationPolicy: value->syncPolicy = a->sync_policy; break;
    case cudaLaunchAttributePriority: value->priority = stream_of(hStream)->priority; break;
    case cudaLaunchAttributeMemSyncDomainMap: value->memSyncDomainMap = a->domain_map; break;
    case cudaLaunchAttributeMemSyncDomain: value->memSyncDomain = a->domain; break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    ENTER(rt);
    if (!api_valid_stream(rt, dst) || !api_valid_stream(rt, src)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    ApiStreamAttrs *d = attrs_of(rt, dst), *s = attrs_of(rt, src);
    if (!d || !s) return api_leave(rt, cudaErrorMemoryAllocation);
    *d = *s;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    return cudaStreamSetAttribute(hStream, attr, value);
}
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue *value)
{
    return cudaStreamGetAttribute(hStream, attr, value);
}
cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src) { return cudaStreamCopyAttributes(dst, src); }

/* ------------------------------------------------------- extensible launch */

/* A launch attribute: whether the launch is cooperative; false (with the
** call counted as not implemented) for one the model cannot honour. The
** others are hints with nothing to change here: a priority (one level), an
** L2 access-policy window (no persisting lines: cudaLimitPersistingL2CacheSize
** is 0), programmatic serialization (the next launch may start early; here
** it starts after, which CUDA allows), the shared-memory carveout (the model
** takes the largest, as for cudaFuncSetAttribute). */
static bool launch_attribute(Runtime *rt, const cudaLaunchAttribute *a, bool *cooperative)
{
    switch (a->id) {
    case cudaLaunchAttributeIgnore:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeAccessPolicyWindow:
    case cudaLaunchAttributeProgrammaticStreamSerialization:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
        return true;
    case cudaLaunchAttributeCooperative:
        *cooperative = a->val.cooperative != 0;
        return true;
    case cudaLaunchAttributeClusterDimension:
    case cudaLaunchAttributePreferredClusterDimension:
        if ((uint64_t)a->val.clusterDim.x * a->val.clusterDim.y * a->val.clusterDim.z <= 1) return true;
        rt_missing(rt, "cudaLaunchKernelExC with a thread-block cluster");
        return false;
    default:
        rt_missing(rt, "cudaLaunchKernelExC with a launch attribute other than cooperative, cluster size 1 or a hint");
        return false;
    }
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    bool cooperative = false;
    {
        ENTER(rt);
        if (!config || (config->numAttrs && !config->attrs)) return api_leave(rt, cudaErrorInvalidValue);
        for (unsigned i = 0; i < config->numAttrs; i++)
            if (!launch_attribute(rt, &config->attrs[i], &cooperative)) return api_leave(rt, cudaErrorNotSupported);
        api_leave(rt, cudaSuccess);
    }
    if (cooperative)
        return cudaLaunchCooperativeKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                                           config->stream);
    return api_launch(NULL, func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
                      false);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}

/* ---------------------------------------------------------------- profiler */

/* The profiler is gpusim's own report: with `gpusim exec --profile-from-start
** off` only the launches between cudaProfilerStart and cudaProfilerStop are
** timed (the others run exactly, untimed), as Nsight Compute's option of that
** name does; by default every launch is, and these calls change nothing (as
** under a profiler without a capture range). */
cudaError_t cudaProfilerStart(void)
{
    ENTER(rt);
    if (rt->profile_range) rt->profiling = true;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaProfilerStop(void)
{
    ENTER(rt);
    if (rt->profile_range) rt->profiling = false;
    return api_leave(rt, cudaSuccess);
}
