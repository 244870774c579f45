/* cudart/api_one_device.c -- calls about several devices, peers, pools by
** location, kernels as handles and batches, answered as the one simulated
** device answers them: a 3D peer copy between device 0 and itself is a 3D
** copy; P2P attributes of a device with itself are CUDA's error; a pool's
** access from device 0 is read-write and cannot change; a batch of copies,
** prefetches or discards is each of them in turn (work is done when it is
** issued: one timeline). Also the calls whose work is already done here: the
** persisting L2 lines reset (none persist: cudaLimitPersistingL2CacheSize is
** 0) and GPUDirect RDMA writes flushed (kernels' writes are in memory when
** their launch returns). */
#include <string.h>

#include "cudart/api_int.h"

/* ------------------------------------------------------------ peer copies */

static cudaError_t peer_params(const struct cudaMemcpy3DPeerParms *p, struct cudaMemcpy3DParms *out)
{
    if (!p) return api_fail(cudaErrorInvalidValue);
    if (p->srcDevice != 0 || p->dstDevice != 0) return api_fail(cudaErrorInvalidDevice);
    *out = (struct cudaMemcpy3DParms){ .srcArray = p->srcArray, .srcPos = p->srcPos, .srcPtr = p->srcPtr,
                                       .dstArray = p->dstArray, .dstPos = p->dstPos, .dstPtr = p->dstPtr,
                                       .extent = p->extent, .kind = cudaMemcpyDefault };
    return cudaSuccess;
}

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    struct cudaMemcpy3DParms q;
    cudaError_t e = peer_params(p, &q);
    return e ? e : cudaMemcpy3D(&q);
}

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    struct cudaMemcpy3DParms q;
    cudaError_t e = peer_params(p, &q);
    return e ? e : cudaMemcpy3DAsync(&q, stream);
}

cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p) { return cudaMemcpy3DPeer(p); }

cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream)
{
    return cudaMemcpy3DPeerAsync(p, stream);
}

/* ---------------------------------------------------------- peer queries */

/* P2P attributes name two devices; the only one is device 0, and a device
** and itself are not a pair (CUDA's cudaErrorInvalidDevice). */
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice)
{
    ENTER(rt);
    (void)attr;
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    (void)srcDevice, (void)dstDevice;
    return api_leave(rt, cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities, const enum cudaAtomicOperation *operations,
                                               unsigned int count, int srcDevice, int dstDevice)
{
    ENTER(rt);
    (void)srcDevice, (void)dstDevice;
    if (!capabilities || (count && !operations)) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, cudaErrorInvalidDevice);
}

/* Host-native atomics: none, as cudaDevAttrHostNativeAtomicSupported says
** (a device on PCIe, as the presets are). */
cudaError_t cudaDeviceGetHostAtomicCapabilities(unsigned int *capabilities, const enum cudaAtomicOperation *operations,
                                                unsigned int count, int device)
{
    ENTER(rt);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    if (!capabilities || (count && !operations)) return api_leave(rt, cudaErrorInvalidValue);
    memset(capabilities, 0, count * sizeof *capabilities);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    ENTER(rt);
    if (len < 0 || (len && !device_arr)) return api_leave(rt, cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (device_arr[i] != 0) return api_leave(rt, cudaErrorInvalidDevice);
    return api_leave(rt, cudaSuccess);
}

/* Work already done: nothing to reset or flush (the file's head says why). */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    ENTER(rt);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(enum cudaFlushGPUDirectRDMAWritesTarget target,
                                               enum cudaFlushGPUDirectRDMAWritesScope scope)
{
    ENTER(rt);
    bool ok = target == cudaFlushGPUDirectRDMAWritesTargetCurrentDevice &&
              (scope == cudaFlushGPUDirectRDMAWritesToOwner || scope == cudaFlushGPUDirectRDMAWritesToAllDevices);
    return api_leave(rt, ok ? cudaSuccess : cudaErrorInvalidValue);
}

/* ------------------------------------------------------------------ pools */

/* Device 0 reads and writes its pools' memory; no other device exists, and
** the host is given no access (host access to a device pool is not implemented). */
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList, size_t count)
{
    ENTER(rt);
    if (!api_valid_pool(rt, memPool) || (count && !descList)) return api_leave(rt, cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++) {
        const struct cudaMemAccessDesc *d = &descList[i];
        if (d->location.type == cudaMemLocationTypeDevice && d->location.id != 0) return api_leave(rt, cudaErrorInvalidDevice);
        if (d->location.type != cudaMemLocationTypeDevice) {
            WHY(rt, "cudaMemPoolSetAccess: host access to a device pool is not implemented");
            return api_leave(rt, rt_api_missing("cudaMemPoolSetAccess for the host"));
        }
        if (d->flags != cudaMemAccessFlagsProtReadWrite) return api_leave(rt, cudaErrorInvalidValue); /* its own device's */
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool, struct cudaMemLocation *location)
{
    ENTER(rt);
    if (!flags || !location || !api_valid_pool(rt, memPool)) return api_leave(rt, cudaErrorInvalidValue);
    if (location->type == cudaMemLocationTypeDevice) {
        if (location->id != 0) return api_leave(rt, cudaErrorInvalidDevice);
        *flags = cudaMemAccessFlagsProtReadWrite;
    } else {
        *flags = cudaMemAccessFlagsProtNone;
    }
    return api_leave(rt, cudaSuccess);
}

/* CUDA 13's pools by location: device 0's device memory is the only kind
** (host_missing: what the exit report lists for a pool of host memory). */
static cudaError_t device_location(const struct cudaMemLocation *location, enum cudaMemAllocationType type,
                                   const char *host_missing)
{
    if (!location || type != cudaMemAllocationTypePinned) return api_fail(cudaErrorInvalidValue);
    if (location->type != cudaMemLocationTypeDevice) return api_fail(rt_api_missing(host_missing));
    return location->id == 0 ? cudaSuccess : api_fail(cudaErrorInvalidDevice);
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type)
{
    cudaError_t e = device_location(location, type, "cudaMemGetDefaultMemPool of host memory");
    return e ? e : cudaDeviceGetDefaultMemPool(memPool, 0);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location, enum cudaMemAllocationType type)
{
    cudaError_t e = device_location(location, type, "cudaMemGetMemPool of host memory");
    return e ? e : cudaDeviceGetMemPool(memPool, 0);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type, cudaMemPool_t memPool)
{
    cudaError_t e = device_location(location, type, "cudaMemSetMemPool of host memory");
    return e ? e : cudaDeviceSetMemPool(0, memPool);
}

/* ---------------------------------------------------------------- kernels */

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    ENTER(rt);
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    int err = rt_load_kernel(rt, k);
    if (err) return api_leave(rt, err);
    if (paramIndex >= k->kernel->nparams || !paramOffset || !paramSize) return api_leave(rt, cudaErrorInvalidValue);
    *paramOffset = k->kernel->params[paramIndex].offset;
    *paramSize = k->kernel->params[paramIndex].size;
    return api_leave(rt, cudaSuccess);
}

/* A kernel's handle is its entry function's address: every call that takes
** a kernel takes it. */
cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    ENTER(rt);
    if (!kernelPtr) return api_leave(rt, cudaErrorInvalidValue);
    if (!rt_find_kernel(rt, entryFuncAddr)) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    *kernelPtr = (cudaKernel_t)(uintptr_t)entryFuncAddr;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr, int value, int device)
{
    if (device != 0) return api_fail(cudaErrorInvalidDevice);
    return cudaFuncSetAttribute((const void *)(uintptr_t)kernel, attr, value);
}

/* ---------------------------------------------------------------- batches */

/* Whether idxs[0..n) split count operations as the batch calls ask: the
** first 0, each greater than the one before, the last below count. */
static bool batch_split(const size_t *idxs, size_t n, size_t count)
{
    if (!n || n > count || !idxs || idxs[0] != 0) return false;
    for (size_t k = 1; k < n; k++)
        if (idxs[k] <= idxs[k - 1] || idxs[k] >= count) return false;
    return true;
}

/* The batch's stream: not the legacy default stream (CUDA's rule). */
static cudaError_t batch_stream(cudaStream_t stream)
{
    ENTER(rt);
    if (stream == NULL || stream == cudaStreamLegacy) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (api_capturing(rt, stream)) return api_leave(rt, rt_api_missing("a batch of copies or prefetches in a stream capture"));
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count,
                                 struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                 cudaStream_t stream)
{
    if (!count || !dsts || !srcs || !sizes || !attrs || !batch_split(attrsIdxs, numAttrs, count))
        return api_fail(cudaErrorInvalidValue);
    for (size_t k = 0; k < numAttrs; k++)
        if (attrs[k].srcAccessOrder == cudaMemcpySrcAccessOrderInvalid) return api_fail(cudaErrorInvalidValue);
    cudaError_t e = batch_stream(stream);
    for (size_t i = 0; !e && i < count; i++) e = cudaMemcpyAsync(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault, stream);
    return e;
}

cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t count,
                                      struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
                                      cudaStream_t stream)
{
    return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream);
}

/* Prefetches (prefetch) and discards of managed ranges: each checked as
** cudaMemPrefetchAsync checks it. Nothing moves (host code and kernels read
** the same pages), and a discarded range keeps its bytes, which CUDA leaves
** undefined. */
static cudaError_t ranges_batch(void **dptrs, size_t *sizes, size_t count, struct cudaMemLocation *locs, size_t *idxs,
                                size_t nlocs, unsigned long long flags, cudaStream_t stream, bool prefetch)
{
    if (!count || !dptrs || !sizes || flags) return api_fail(cudaErrorInvalidValue);
    if (prefetch && (!locs || !batch_split(idxs, nlocs, count))) return api_fail(cudaErrorInvalidValue);
    cudaError_t e = batch_stream(stream);
    for (size_t i = 0, k = 0; !e && i < count; i++) {
        while (prefetch && k + 1 < nlocs && idxs[k + 1] <= i) k++;
        struct cudaMemLocation at = prefetch ? locs[k] : (struct cudaMemLocation){ cudaMemLocationTypeDevice, 0 };
        e = cudaMemPrefetchAsync(dptrs[i], sizes[i], at, 0, stream);
    }
    return e;
}

cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count, struct cudaMemLocation *prefetchLocs,
                                      size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
                                      cudaStream_t stream)
{
    return ranges_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream, true);
}

cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count, struct cudaMemLocation *prefetchLocs,
                                           size_t *prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
                                           cudaStream_t stream)
{
    return cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream);
}

cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                     cudaStream_t stream)
{
    return ranges_batch(dptrs, sizes, count, NULL, NULL, 0, flags, stream, false);
}

cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count, unsigned long long flags,
                                          cudaStream_t stream)
{
    return cudaMemDiscardBatchAsync(dptrs, sizes, count, flags, stream);
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)
{
    return ranges_batch(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream, true);
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                     struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                     size_t numPrefetchLocs, unsigned long long flags,
                                                     cudaStream_t stream)
{
    return cudaMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                                               flags, stream);
}
