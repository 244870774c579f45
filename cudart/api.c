/* cudart/api.c -- the CUDA runtime API as a program calls it, compiled
** against NVIDIA's own declarations (cuda_runtime_api.h) so that every
** signature and struct layout is CUDA 13's. Each call takes the runtime's
** lock, answers from the simulated device (cudart/runtime.h) and records
** its error as CUDA does: the last error per host thread, cleared by
** cudaGetLastError; a launch's fault sticky for the process. Calls the
** runtime does not implement are in cudart/unimplemented.c: they return
** cudaErrorNotSupported and are listed at exit, never a silent success.
** Device work runs when it is issued, in issue order, so every stream is
** complete whenever the host looks; the simulated clock (the events') moves
** by each kernel's simulated time, and copies and memsets take none.
** The memory calls are in cudart/api_memory.c.                          */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/api_int.h"
#include "isa/grid.h"
#include "sim/occupancy.h"
#include "sim/sector.h"

/* Registration and launch entry points nvcc's host code calls; NVIDIA
** declares them in C++-only headers. */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream);

static _Thread_local cudaError_t last_error;

cudaError_t api_fail(cudaError_t err)
{
    return last_error = err;
}

Runtime *api_enter(cudaError_t *err)
{
    Runtime *rt = rt_get();
    if (!rt) {
        *err = last_error = cudaErrorMemoryAllocation;
        return NULL;
    }
    rt_lock(rt);
    rt->api_calls++;
    if (!rt->ready) {
        if (!rt->said_no_device) fprintf(stderr, "gpusim: no simulated GPU: %s\n", rt->config_error);
        rt->said_no_device = true;
        rt_unlock(rt);
        *err = last_error = cudaErrorNoDevice;
        return NULL;
    }
    return rt;
}

cudaError_t api_leave(Runtime *rt, int err)
{
    if (err != cudaSuccess) last_error = (cudaError_t)err;
    rt_unlock(rt);
    return (cudaError_t)err;
}

bool api_valid_stream(const Runtime *rt, cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread || rt_handle_live(rt, s, RT_HANDLE_STREAM);
}

bool api_valid_event(const Runtime *rt, cudaEvent_t e)
{
    return rt_handle_live(rt, e, RT_HANDLE_EVENT);
}

/* ------------------------------------------------------------ registration */

void **__cudaRegisterFatBinary(void *fatCubin)
{
    Runtime *rt = rt_get();
    if (!rt) return NULL;
    rt_lock(rt);
    RtModule *m = rt_register_module(rt, fatCubin);
    rt_unlock(rt);
    return (void **)m;
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

/* The module stays: the exit report still names its kernels. */
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    Runtime *rt = rt_get();
    if (!rt) return;
    rt_lock(rt);
    rt_register_function(rt, (RtModule *)handle, hostFun, deviceName);
    rt_unlock(rt);
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext, size_t size,
                       int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    Runtime *rt = rt_get();
    if (!rt) return;
    rt_lock(rt);
    rt_register_var(rt, (RtModule *)handle, hostVar, deviceName, size, constant != 0);
    rt_unlock(rt);
}

/* A __managed__ variable: the host reads and writes it through *hostVarPtrAddress,
** which loading the module sets (after __cudaInitModule, which the host code
** calls before its first access). */
void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress, const char *deviceName,
                              int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)constant, (void)global;
    Runtime *rt = rt_get();
    if (!rt) return;
    rt_lock(rt);
    rt_register_managed_var(rt, (RtModule *)handle, hostVarPtrAddress, deviceName, size);
    rt_unlock(rt);
}

char __cudaInitModule(void **handle)
{
    cudaError_t e;
    Runtime *rt = api_enter(&e);
    if (!rt) return 0;
    int err = handle ? rt_load_module(rt, (RtModule *)handle) : RT_INVALID_VALUE;
    if (err)
        WHY(rt, "the device code holding the program's __managed__ variables could not be loaded (%s): the host "
                "cannot reach them", cudaGetErrorName((cudaError_t)err));
    api_leave(rt, err);
    return err == RT_SUCCESS;
}

/* ------------------------------------------------------------------ launch */

typedef struct {
    dim3         grid, block;
    size_t       smem;
    cudaStream_t stream;
} CallConfig;

#define MAX_PUSHED 64
static _Thread_local CallConfig pushed[MAX_PUSHED];
static _Thread_local unsigned npushed;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream)
{
    if (npushed == MAX_PUSHED) return 1;
    pushed[npushed++] = (CallConfig){ gridDim, blockDim, sharedMem, stream };
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (npushed == 0) return api_fail(cudaErrorMissingConfiguration);
    CallConfig c = pushed[--npushed];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.smem;
    memcpy(stream, &c.stream, sizeof c.stream);
    return cudaSuccess;
}

cudaError_t api_launch(void *kernel, const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                       cudaStream_t stream, bool cooperative)
{
    ENTER(rt);
    RtKernel *k = kernel ? (RtKernel *)kernel : rt_find_kernel(rt, func);
    if (!k) {
        WHY(rt, "a launch names %p, which is not a registered kernel", func);
        return api_leave(rt, cudaErrorInvalidDeviceFunction);
    }
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (api_capturing(rt, stream))
        return api_leave(rt, cooperative ? rt_api_missing("a cooperative launch in a stream capture")
                                         : api_capture_kernel(rt, stream, k, grid, block, args, smem));
    uint32_t g[3] = { grid.x, grid.y, grid.z }, b[3] = { block.x, block.y, block.z };
    int err = rt_launch(rt, k, g, b, args, cooperative, smem);
    if (err == cudaErrorIllegalAddress || err == cudaErrorLaunchFailure || err == cudaErrorLaunchTimeout ||
        err == cudaErrorAssert || err == cudaErrorMisalignedAddress || err == cudaErrorIllegalInstruction ||
        err == cudaErrorUnknown)
        rt->sticky = err;
    /* a launch's fault reaches the program at its next synchronizing call,
    ** as on a GPU; a launch that cannot start is refused at once */
    return api_leave(rt, rt->sticky ? cudaSuccess : err);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    return api_launch(NULL, func, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream)
{
    return api_launch(NULL, func, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    ENTER(rt);
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    *kernel = (cudaKernel_t)(void *)k;
    return api_leave(rt, cudaSuccess);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                               cudaStream_t stream)
{
    if (!kernel) return api_fail(cudaErrorInvalidDeviceFunction);
    return api_launch((void *)kernel, NULL, gridDim, blockDim, args, sharedMem, stream, false);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                    cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

/* Blocks that fit the device at once for k (regs and static shared memory
** from its PTX and ptxas) with `smem` dynamic bytes. */
static bool kernel_occupancy(Runtime *rt, RtKernel *k, uint32_t threads, size_t smem, OccResult *occ)
{
    Diag d = { 0 };
    if (smem > UINT32_MAX) return false;
    bool ok = occupancy_compute(&rt->cfg, threads, k->regs, k->kernel->static_smem, (uint32_t)smem, occ, &d);
    return ok;
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream)
{
    {
        ENTER(rt);
        RtKernel *k = rt_find_kernel(rt, func);
        if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
        int err = rt_load_kernel(rt, k);
        if (err) return api_leave(rt, err);
        OccResult occ;
        uint64_t blocks = (uint64_t)gridDim.x * gridDim.y * gridDim.z;
        if (!kernel_occupancy(rt, k, blockDim.x * blockDim.y * blockDim.z, sharedMem, &occ) ||
            blocks > (uint64_t)occ.blocks_per_sm * rt->cfg.sm_count) {
            WHY(rt, "cooperative launch of %s: %llu blocks do not all fit the device at once (%u per SM x %u SMs)",
                k->kernel->name, (unsigned long long)blocks, occ.blocks_per_sm, rt->cfg.sm_count);
            return api_leave(rt, cudaErrorCooperativeLaunchTooLarge);
        }
        api_leave(rt, cudaSuccess);
    }
    return api_launch(NULL, func, gridDim, blockDim, args, sharedMem, stream, true);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    ENTER(rt);
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k || !attr) return api_leave(rt, k ? cudaErrorInvalidValue : cudaErrorInvalidDeviceFunction);
    int err = rt_load_kernel(rt, k);
    if (err) return api_leave(rt, err);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = k->kernel->static_smem;
    attr->numRegs = (int)k->regs;
    attr->ptxVersion = (int)rt->cfg.compute_capability;
    attr->binaryVersion = (int)rt->cfg.compute_capability;
    attr->maxDynamicSharedSizeBytes = (int)rt_dynamic_smem_max(rt, k);
    /* the largest block whose registers fit one SM */
    uint32_t max = rt->cfg.max_threads_per_block;
    OccResult occ;
    while (max > 32 && !kernel_occupancy(rt, k, max, 0, &occ)) max -= 32;
    attr->maxThreadsPerBlock = (int)max;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    ENTER(rt);
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        int err = rt_load_kernel(rt, k);
        if (err) return api_leave(rt, err);
        uint32_t fixed = k->kernel->static_smem, optin = rt->cfg.shared_per_block_optin;
        if (value < 0 || fixed > optin || (uint32_t)value > optin - fixed) {
            WHY(rt, "cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d): at most %u bytes "
                    "(the opt-in limit %u less %u of static shared memory)",
                k->kernel->name, value, fixed > optin ? 0 : optin - fixed, optin, fixed);
            return api_leave(rt, cudaErrorInvalidValue);
        }
        k->dynamic_smem_set = true;
        k->dynamic_smem_max = (uint32_t)value;
        return api_leave(rt, cudaSuccess);
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) /* a hint CUDA may ignore; the model takes the largest */
        return api_leave(rt, value < -1 || value > 100 ? cudaErrorInvalidValue : cudaSuccess);
    rt_missing(rt, "cudaFuncSetAttribute (attributes other than the shared-memory ones)");
    return api_leave(rt, cudaErrorNotSupported);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    ENTER(rt);
    (void)cacheConfig; /* a preference, which CUDA too may ignore */
    return api_leave(rt, rt_find_kernel(rt, func) ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags)
{
    ENTER(rt);
    (void)flags;
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    int err = rt_load_kernel(rt, k);
    if (err) return api_leave(rt, err);
    if (!numBlocks || blockSize <= 0) return api_leave(rt, cudaErrorInvalidValue);
    OccResult occ;
    *numBlocks = kernel_occupancy(rt, k, (uint32_t)blockSize, dynamicSMemSize, &occ) ? (int)occ.blocks_per_sm : 0;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize)
{
    ENTER(rt);
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    int err = rt_load_kernel(rt, k);
    if (err) return api_leave(rt, err);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return api_leave(rt, cudaErrorInvalidValue);
    /* the most dynamic shared memory with which numBlocks still fit */
    uint32_t lo = 0, hi = rt->cfg.shared_per_block_optin;
    OccResult occ;
    if (!kernel_occupancy(rt, k, (uint32_t)blockSize, 0, &occ) || occ.blocks_per_sm < (uint32_t)numBlocks) {
        *dynamicSmemSize = 0;
        return api_leave(rt, cudaSuccess);
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (kernel_occupancy(rt, k, (uint32_t)blockSize, mid, &occ) && occ.blocks_per_sm >= (uint32_t)numBlocks) lo = mid;
        else hi = mid - 1;
    }
    *dynamicSmemSize = lo;
    return api_leave(rt, cudaSuccess);
}

/* ------------------------------------------------------------------ device */

cudaError_t cudaGetDeviceCount(int *count)
{
    cudaError_t e;
    Runtime *rt = api_enter(&e);
    if (!rt) {
        if (count) *count = 0;
        return e;
    }
    if (!count) return api_leave(rt, cudaErrorInvalidValue);
    *count = 1;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGetDevice(int *device)
{
    ENTER(rt);
    if (!device) return api_leave(rt, cudaErrorInvalidValue);
    *device = 0;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaSetDevice(int device)
{
    ENTER(rt);
    return api_leave(rt, device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    ENTER(rt);
    (void)deviceFlags, (void)flags;
    return api_leave(rt, device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    ENTER(rt);
    (void)prop;
    if (!device) return api_leave(rt, cudaErrorInvalidValue);
    *device = 0;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    ENTER(rt);
    (void)flags; /* how the host waits: every wait here is already over */
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    ENTER(rt);
    if (!flags) return api_leave(rt, cudaErrorInvalidValue);
    *flags = cudaDeviceScheduleAuto;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceSynchronize(void)
{
    ENTER(rt);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceReset(void)
{
    cudaError_t e;
    Runtime *rt = api_enter(&e);
    if (!rt) return e;
    rt_reset(rt);
    api_graph_mem_reset(rt);
    api_user_objects_reset(rt);
    return api_leave(rt, cudaSuccess);
}

/* The limits CUDA 13 has on an sm_90 device. The heap's size and the
** printf buffer's are real here (the heap is made at the first launch of a
** kernel that calls malloc or free, and after it neither may change, as in
** CUDA); the stack size is kept and read back (device functions are
** inlined: no stack to bound); the L2 hints are taken as CUDA may take them,
** ignored, the persisting L2 set aside as 0 bytes (not modelled). The
** device runtime's limits answer as sm_90 does (sync depth) or as a device
** without dynamic parallelism would (pending launches). */
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    ENTER(rt);
    switch (limit) {
    case cudaLimitStackSize: rt->stack_bytes = value; break;
    case cudaLimitPrintfFifoSize:
        if (rt->printf_used) return api_leave(rt, cudaErrorInvalidValue);
        rt->printf_bytes = value < 4096 ? 4096 : value; /* clamped, as CUDA may: room for one printf */
        break;
    case cudaLimitMallocHeapSize:
        if (rt->heap) return api_leave(rt, cudaErrorInvalidValue);
        rt->heap_bytes = value;
        break;
    case cudaLimitMaxL2FetchGranularity:
        if (value > 128) return api_leave(rt, cudaErrorInvalidValue);
        break;
    case cudaLimitPersistingL2CacheSize: break;
    default: return api_leave(rt, cudaErrorUnsupportedLimit);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    ENTER(rt);
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    switch (limit) {
    case cudaLimitStackSize: *value = rt->stack_bytes; break;
    case cudaLimitPrintfFifoSize: *value = rt->printf_bytes; break;
    case cudaLimitMallocHeapSize: *value = rt->heap_bytes; break;
    case cudaLimitMaxL2FetchGranularity: *value = SECTOR_BYTES; break; /* what an L2 miss fetches */
    case cudaLimitPersistingL2CacheSize: *value = 0; break;
    default: return api_leave(rt, cudaErrorUnsupportedLimit);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    ENTER(rt);
    (void)cacheConfig; /* a preference, which CUDA too may ignore */
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    ENTER(rt);
    if (!pCacheConfig) return api_leave(rt, cudaErrorInvalidValue);
    *pCacheConfig = cudaFuncCachePreferNone;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion) return api_fail(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) return api_fail(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

/* ------------------------------------------------------- streams and events */

/* A stream or an event with what a capture left in it. */
static void stream_free(void *p)
{
    api_capture_free(&((struct CUstream_st *)p)->cap);
    free(p);
}

static void event_free(void *p)
{
    api_capture_free(&((struct CUevent_st *)p)->cap);
    free(p);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    ENTER(rt);
    if (!pStream) return api_leave(rt, cudaErrorInvalidValue);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s || !rt_handle_add_owned(rt, s, RT_HANDLE_STREAM, stream_free)) {
        free(s);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    /* one priority level (launches run one at a time): CUDA clamps to the range */
    *s = (struct CUstream_st){ .flags = flags, .id = ++rt->stream_ids };
    (void)priority;
    *pStream = s;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream) { return cudaStreamCreateWithPriority(pStream, 0, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    ENTER(rt);
    if (!rt_handle_remove(rt, stream, RT_HANDLE_STREAM)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    stream_free(stream);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    ENTER(rt);
    if (api_capturing(rt, stream)) { /* its work is not run: CUDA's rule, and the capture is broken */
        api_capture_invalidate(stream);
        return api_leave(rt, cudaErrorStreamCaptureUnsupported);
    }
    return api_leave(rt, api_valid_stream(rt, stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

/* Work is done when it is issued: a query is a synchronization. */
cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    ENTER(rt);
    if (flags & ~(unsigned)cudaEventWaitExternal) return api_leave(rt, cudaErrorInvalidValue);
    bool ok = api_valid_stream(rt, stream) && api_valid_event(rt, event);
    if (ok && (flags & cudaEventWaitExternal) && api_capturing(rt, stream)) /* an event wait node */
        return api_leave(rt, api_capture_event_node(stream, event, false));
    if (ok && event->cap.graph) return api_leave(rt, api_capture_wait(stream, event)); /* joins its capture */
    return api_leave(rt, ok ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    ENTER(rt);
    if (!event) return api_leave(rt, cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e || !rt_handle_add_owned(rt, e, RT_HANDLE_EVENT, event_free)) {
        free(e);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    e->e.timing = !(flags & cudaEventDisableTiming);
    *event = e;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    ENTER(rt);
    if (!api_valid_event(rt, event) || !api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (api_capturing(rt, stream)) return api_leave(rt, api_capture_record(event, stream));
    event->cap.graph = NULL; /* recorded outside a capture again */
    event->e.recorded = true;
    event->e.cycle = rt->clock;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecord(event, stream); }

/* cudaEventRecordExternal: in a capture, an event record node (which also
** marks the capture's tail, as cudaEventRecord does). */
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    {
        ENTER(rt);
        if (flags & ~(unsigned)cudaEventRecordExternal) return api_leave(rt, cudaErrorInvalidValue);
        if ((flags & cudaEventRecordExternal) && api_valid_event(rt, event) && api_valid_stream(rt, stream) &&
            api_capturing(rt, stream)) {
            int err = api_capture_event_node(stream, event, true);
            if (err) return api_leave(rt, err);
        }
        api_leave(rt, cudaSuccess);
    }
    return cudaEventRecord(event, stream);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    return cudaEventRecordWithFlags(event, stream, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    ENTER(rt);
    return api_leave(rt, api_valid_event(rt, event) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    ENTER(rt);
    return api_leave(rt, api_valid_event(rt, event) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    ENTER(rt);
    if (!ms) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_event(rt, start) || !api_valid_event(rt, end))
        return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!start->e.timing || !end->e.timing) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!start->e.recorded || !end->e.recorded) return api_leave(rt, cudaErrorInvalidResourceHandle);
    double d = end->e.cycle >= start->e.cycle ? rt_cycles_to_ms(rt, end->e.cycle - start->e.cycle)
                                              : -rt_cycles_to_ms(rt, start->e.cycle - end->e.cycle);
    *ms = (float)d;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    ENTER(rt);
    if (!rt_handle_remove(rt, event, RT_HANDLE_EVENT)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    event_free(event);
    return api_leave(rt, cudaSuccess);
}

/* Per-thread default stream spellings (nvcc --default-stream per-thread):
** every stream is the same timeline here. */
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { return cudaStreamSynchronize(stream); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { return cudaStreamQuery(stream); }
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    return cudaStreamWaitEvent(stream, event, flags);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind)
{
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind)
{
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* Texture channel descriptions are plain values (textures themselves are
** not simulated: cudaCreateTextureObject is not implemented). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){ x, y, z, w, f };
}

int rt_api_missing(const char *name)
{
    Runtime *rt = rt_get();
    if (rt) {
        rt_lock(rt);
        rt_missing(rt, name);
        rt_unlock(rt);
    }
    last_error = cudaErrorNotSupported;
    return cudaErrorNotSupported;
}

/* ------------------------------------------------------------------ errors */

cudaError_t cudaGetLastError(void)
{
    Runtime *rt = rt_get();
    cudaError_t e = last_error;
    if (rt) {
        rt_lock(rt);
        if (rt->sticky) e = (cudaError_t)rt->sticky; /* sticky: never cleared */
        rt_unlock(rt);
    }
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    Runtime *rt = rt_get();
    cudaError_t e = last_error;
    if (rt) {
        rt_lock(rt);
        if (rt->sticky) e = (cudaError_t)rt->sticky;
        rt_unlock(rt);
    }
    return e;
}

const char *cudaGetErrorName(cudaError_t error)
{
    switch ((int)error) {
#define ERR(name, number) case number: return #name;
#include "cudart/errors.def"
#undef ERR
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorMissingConfiguration: return "__global__ function call is not configured";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidPtx: return "a PTX JIT compilation failed";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    default: break;
    }
    const char *name = cudaGetErrorName(error);
    return strcmp(name, "cudaErrorUnknown") == 0 ? "unrecognized error code" : name;
}
