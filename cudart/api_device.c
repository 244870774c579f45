/* cudart/api_device.c -- what the CUDA API says of the one simulated
** device: its properties and attributes (the preset's figures), its PCI
** address, its peers (none: there is one device), the shared-memory bank
** size (fixed at four bytes since sm_50, so setting it does nothing, as on
** such a GPU) and a kernel's name. */
#include <stdio.h>
#include <string.h>

#include "cudart/api_int.h"
#include "isa/grid.h"

/* The device's PCI domain, bus and device numbers, as cudaGetDeviceProperties
** gives them (pciDomainID, pciBusID, pciDeviceID). */
enum { PCI_DOMAIN = 0, PCI_BUS = 0, PCI_DEVICE = 0 };

static void fill_props(const Runtime *rt, struct cudaDeviceProp *p)
{
    const GpuConfig *c = &rt->cfg;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s (simulated by gpusim)", c->description[0] ? c->description : c->name);
    p->totalGlobalMem = DEVICE_BYTES;
    p->sharedMemPerBlock = c->shared_per_block;
    p->regsPerBlock = (int)c->max_regs_per_block;
    p->warpSize = 32;
    p->memPitch = INT32_MAX;
    p->maxThreadsPerBlock = (int)c->max_threads_per_block;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = GRID_MAX_BLOCK_DIM_XY;
    p->maxThreadsDim[2] = GRID_MAX_BLOCK_DIM_Z;
    p->maxGridSize[0] = GRID_MAX_GRID_DIM_X;
    p->maxGridSize[1] = p->maxGridSize[2] = GRID_MAX_GRID_DIM_YZ;
    p->totalConstMem = 65536;
    p->major = (int)(c->compute_capability / 10);
    p->minor = (int)(c->compute_capability % 10);
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)c->sm_count;
    p->canMapHostMemory = 1; /* pinned host memory is mapped (cudaHostAlloc) */
    p->concurrentKernels = 0; /* launches run one after another */
    p->asyncEngineCount = 0;
    p->unifiedAddressing = 1;
    p->l2CacheSize = (int)c->l2_size;
    p->maxThreadsPerMultiProcessor = (int)c->sm_max_threads;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = c->sm_shared_memory;
    p->regsPerMultiprocessor = (int)c->sm_registers;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1; /* as on Linux; a launch is over when its call returns */
    p->computePreemptionSupported = 0;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = c->shared_per_block_optin;
    p->maxBlocksPerMultiProcessor = (int)c->sm_max_blocks;
    p->reservedSharedMemPerBlock = c->shared_reserved;
    p->hostRegisterSupported = p->hostRegisterReadOnlySupported = 1;
    p->memoryPoolsSupported = 1; /* cudaMallocAsync and cudaMemPool*, device memory */
    p->deviceNumaId = p->hostNumaId = -1; /* no NUMA placement */
    /* textures and surfaces (cudart/api_texture.c); mipmaps and the
    ** alternate 3D shape are not implemented: 0 */
    p->maxTexture1D = API_MAX_TEX_1D;
    p->maxTexture2D[0] = API_MAX_TEX_2D_W, p->maxTexture2D[1] = API_MAX_TEX_2D_H;
    p->maxTexture2DLinear[0] = API_MAX_TEX_2D_LINEAR_W, p->maxTexture2DLinear[1] = API_MAX_TEX_2D_LINEAR_H;
    p->maxTexture2DLinear[2] = API_MAX_TEX_2D_LINEAR_PITCH;
    p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = API_MAX_TEX_2D_GATHER;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = API_MAX_TEX_3D;
    p->maxTexture1DLayered[0] = API_MAX_TEX_LAYERED_W, p->maxTexture1DLayered[1] = API_MAX_LAYERS;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = API_MAX_TEX_LAYERED_W;
    p->maxTexture2DLayered[2] = API_MAX_LAYERS;
    p->maxSurface1D = API_MAX_SURF_1D;
    p->maxSurface2D[0] = API_MAX_TEX_2D_W, p->maxSurface2D[1] = API_MAX_TEX_2D_H;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = API_MAX_TEX_3D;
    p->maxSurface1DLayered[0] = API_MAX_TEX_LAYERED_W, p->maxSurface1DLayered[1] = API_MAX_LAYERS;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = API_MAX_TEX_LAYERED_W;
    p->maxSurface2DLayered[2] = API_MAX_LAYERS;
    p->surfaceAlignment = API_SURFACE_ALIGNMENT;
    p->maxTextureCubemap = p->maxSurfaceCubemap = API_MAX_CUBEMAP;
    p->maxTextureCubemapLayered[0] = p->maxSurfaceCubemapLayered[0] = API_MAX_CUBEMAP;
    p->maxTextureCubemapLayered[1] = p->maxSurfaceCubemapLayered[1] = API_MAX_CUBEMAP_LAYERS;
}

/* FP32 operations per FP64 one: the preset's pipe intervals (an H200 SM
** does 128 FP32 and 64 FP64 FMAs a cycle: 2). */
static int single_to_double_ratio(const GpuConfig *c)
{
    return c->fma_interval ? (int)(c->fp64_interval / c->fma_interval) : 0;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    ENTER(rt);
    if (!prop) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    fill_props(rt, prop);
    return api_leave(rt, cudaSuccess);
}

/* The texture and surface limits (cudart/api_texture.c's), from the
** properties; false for any other attribute. */
static bool texture_attribute(const struct cudaDeviceProp *p, enum cudaDeviceAttr attr, int *value)
{
    switch (attr) {
    case cudaDevAttrMaxTexture1DWidth: *value = p->maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *value = p->maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *value = p->maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *value = p->maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *value = p->maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *value = p->maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *value = p->maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *value = p->maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *value = p->maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *value = p->maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *value = p->maxTexture2DLayered[2]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: *value = p->maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: *value = p->maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: *value = API_MAX_TEX_1D_LINEAR; break;
    case cudaDevAttrMaxTexture2DLinearWidth: *value = p->maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: *value = p->maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: *value = p->maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxSurface1DWidth: *value = p->maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: *value = p->maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: *value = p->maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: *value = p->maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: *value = p->maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: *value = p->maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *value = p->maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *value = p->maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *value = p->maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *value = p->maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *value = p->maxSurface2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: *value = (int)p->surfaceAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: *value = p->maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *value = p->maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *value = p->maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *value = p->maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *value = p->maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *value = p->maxSurfaceCubemapLayered[1]; break;
    /* mipmaps and the alternate 3D shape are not implemented */
    case cudaDevAttrMaxTexture3DWidthAlt: case cudaDevAttrMaxTexture3DHeightAlt: case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrMaxTexture2DMipmappedWidth: case cudaDevAttrMaxTexture2DMipmappedHeight:
    case cudaDevAttrMaxTexture1DMipmappedWidth: *value = 0; break;
    default: return false;
    }
    return true;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    ENTER(rt);
    if (!value) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    struct cudaDeviceProp p;
    fill_props(rt, &p);
    const GpuConfig *c = &rt->cfg;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = (int)(c->clock_mhz * 1000); break; /* kHz */
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrUnifiedAddressing: *value = 1; break;
    case cudaDevAttrCooperativeLaunch: *value = 1; break;
    case cudaDevAttrConcurrentKernels: *value = 0; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = 1; break;
    case cudaDevAttrLocalL1CacheSupported: *value = 1; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrPageableMemoryAccess: case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = 0; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = 0; break; /* registered memory maps elsewhere */
    case cudaDevAttrHostNativeAtomicSupported: case cudaDevAttrDirectManagedMemAccessFromHost: *value = 0; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrAsyncEngineCount: *value = 0; break;
    case cudaDevAttrEccEnabled: *value = 0; break;
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: *value = 0; break;
    case cudaDevAttrGpuPciDeviceId: case cudaDevAttrGpuPciSubsystemId: *value = 0; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break; /* any process may use it */
    case cudaDevAttrKernelExecTimeout: *value = 0; break;                  /* no display watchdog */
    case cudaDevAttrTccDriver: case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrMultiGpuBoardGroupID: *value = 0; break;
    case cudaDevAttrMaxPitch: *value = (int)p.memPitch; break;
    case cudaDevAttrTextureAlignment: *value = (int)p.textureAlignment; break;
    case cudaDevAttrTexturePitchAlignment: *value = (int)p.texturePitchAlignment; break;
    case cudaDevAttrGpuOverlap: *value = p.asyncEngineCount > 0; break; /* no copy engine */
    case cudaDevAttrMemoryClockRate: case cudaDevAttrGlobalMemoryBusWidth: *value = 0; break; /* no knob: as the properties */
    case cudaDevAttrStreamPrioritiesSupported: *value = 0; break; /* one level (cudaDeviceGetStreamPriorityRange) */
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = single_to_double_ratio(c); break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *value = 0; break; /* no shareable handles */
    /* not modelled, so not offered: L2 persistence windows, clusters of
    ** more than one block, IPC, RDMA, external semaphores, sparse and
    ** deferred arrays, MPS, NUMA placement */
    case cudaDevAttrMaxPersistingL2CacheSize: case cudaDevAttrMaxAccessPolicyWindowSize: *value = 0; break;
    case cudaDevAttrClusterLaunch: case cudaDevAttrIpcEventSupport: case cudaDevAttrGPUDirectRDMASupported: *value = 0; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = 0; break;
    case cudaDevAttrCanFlushRemoteWrites: case cudaDevAttrTimelineSemaphoreInteropSupported: *value = 0; break;
    case cudaDevAttrSparseCudaArraySupported: case cudaDevAttrDeferredMappingCudaArraySupported: *value = 0; break;
    case cudaDevAttrMpsEnabled: case cudaDevAttrNumaConfig: *value = 0; break;
    case cudaDevAttrNumaId: case cudaDevAttrHostNumaId: *value = -1; break;
    case cudaDevAttrHostMemoryPoolsSupported: case cudaDevAttrHostNumaMemoryPoolsSupported: *value = 0; break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *value = 0; break;
    case cudaDevAttrD3D12CigSupported: case cudaDevAttrVulkanCigSupported: *value = 0; break;
    default:
        if (texture_attribute(&p, attr, value)) break;
        if ((int)attr <= 0 || attr >= cudaDevAttrMax) return api_leave(rt, cudaErrorInvalidValue); /* not one */
        rt_missing(rt, "cudaDeviceGetAttribute (an attribute the simulated machine has no figure for)");
        return api_leave(rt, cudaErrorNotSupported);
    }
    return api_leave(rt, cudaSuccess);
}


cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    ENTER(rt);
    if (!pciBusId || len <= 0) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0) return api_leave(rt, cudaErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", PCI_DOMAIN, PCI_BUS, PCI_DEVICE);
    return api_leave(rt, cudaSuccess);
}

/* Takes "[domain]:[bus]:[device].[function]", "[domain]:[bus]:[device]" and
** "[bus]:[device].[function]", in hexadecimal, as CUDA does. */
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    ENTER(rt);
    if (!device || !pciBusId) return api_leave(rt, cudaErrorInvalidValue);
    unsigned domain = 0, bus, dev, function = 0;
    char end;
    bool parsed = sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &dev, &function, &end) == 4 ||
                  sscanf(pciBusId, "%x:%x:%x%c", &domain, &bus, &dev, &end) == 3 ||
                  (domain = 0, sscanf(pciBusId, "%x:%x.%x%c", &bus, &dev, &function, &end) == 3);
    if (!parsed) return api_leave(rt, cudaErrorInvalidValue);
    if (domain != PCI_DOMAIN || bus != PCI_BUS || dev != PCI_DEVICE) return api_leave(rt, cudaErrorInvalidDevice);
    *device = 0;
    return api_leave(rt, cudaSuccess);
}

/* One device: it is no peer of itself, and there is no other. */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    ENTER(rt);
    if (!canAccessPeer) return api_leave(rt, cudaErrorInvalidValue);
    if (device != 0 || peerDevice != 0) return api_leave(rt, cudaErrorInvalidDevice);
    *canAccessPeer = 0;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    ENTER(rt);
    if (flags != 0) return api_leave(rt, cudaErrorInvalidValue);
    (void)peerDevice; /* another device, which does not exist, or this one */
    return api_leave(rt, cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    ENTER(rt);
    (void)peerDevice;
    return api_leave(rt, cudaErrorInvalidDevice);
}

static bool valid_bank_size(enum cudaSharedMemConfig config)
{
    return config == cudaSharedMemBankSizeDefault || config == cudaSharedMemBankSizeFourByte ||
           config == cudaSharedMemBankSizeEightByte;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    ENTER(rt);
    if (!pConfig) return api_leave(rt, cudaErrorInvalidValue);
    *pConfig = cudaSharedMemBankSizeFourByte;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    ENTER(rt);
    return api_leave(rt, valid_bank_size(config) ? cudaSuccess : cudaErrorInvalidValue);
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    ENTER(rt);
    if (!rt_find_kernel(rt, func)) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    return api_leave(rt, valid_bank_size(config) ? cudaSuccess : cudaErrorInvalidValue);
}

/* The kernel's name as the device code has it (mangled), as cuFuncGetName. */
cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    ENTER(rt);
    if (!name) return api_leave(rt, cudaErrorInvalidValue);
    const RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return api_leave(rt, cudaErrorInvalidDeviceFunction);
    *name = k->mangled;
    return api_leave(rt, cudaSuccess);
}
