/* cudart/api_device.c -- what the CUDA API says of the one simulated
** device beyond its properties (cudart/api.c): its PCI address, its peers
** (none: there is one device), the shared-memory bank size (fixed at four
** bytes since sm_50, so setting it does nothing, as on such a GPU) and a
** kernel's name. */
#include <stdio.h>
#include <string.h>

#include "cudart/api_int.h"

/* The device's PCI domain, bus and device numbers, as cudaGetDeviceProperties
** gives them (pciDomainID, pciBusID, pciDeviceID). */
enum { PCI_DOMAIN = 0, PCI_BUS = 0, PCI_DEVICE = 0 };

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
