/* cudart/api_stream.c -- the CUDA API's further stream calls (see
** cudart/api.c): host functions and callbacks in a stream, stream-ordered
** allocation, what a stream says of itself, the extensible launch
** (cudaLaunchKernelExC, which cudaLaunchKernelEx calls) and the profiler's
** range. Work is done when it is issued (every stream is one timeline), so
** a host function runs at once: everything before it in its stream is
** done, which is all CUDA promises it. */
#include <cuda_profiler_api.h>

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
** can be given and taken back at once: cudaMalloc's and cudaFree's. The
** memory pools behind them in CUDA (cudaMemPool*) are not implemented. */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    {
        ENTER(rt);
        if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, hStream))
            return api_leave(rt, rt_api_missing("cudaMallocAsync in a stream capture (a memory node)"));
        api_leave(rt, cudaSuccess);
    }
    return cudaMalloc(devPtr, size);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    return cudaMallocAsync(devPtr, size, hStream);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    {
        ENTER(rt);
        if (!api_valid_stream(rt, hStream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, hStream))
            return api_leave(rt, rt_api_missing("cudaFreeAsync in a stream capture (a memory node)"));
        api_leave(rt, cudaSuccess);
    }
    return cudaFree(devPtr);
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream) { return cudaFreeAsync(devPtr, hStream); }

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
    static const struct CUstream_st DEFAULT = { cudaStreamDefault, 0, 0, { 0 } };
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
