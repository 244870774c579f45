/* cudart/api_int.h -- what the files of the CUDA API (cudart/api.c: launch,
** device, streams, events, errors; cudart/api_memory.c: memory and
** variables) share: the call prologue and epilogue, our stream and event
** structs, the thread's last error. Private to cudart/. */
#ifndef GPUSIM_CUDART_API_INT_H
#define GPUSIM_CUDART_API_INT_H

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "cudart/runtime.h"

/* Streams and events are ours; CUDA only names their structs. The runtime's
** handle registry knows which are live (rt_handle_live). */
struct CUstream_st { unsigned flags; int priority; unsigned long long id; };
struct CUevent_st { RtEvent e; };

/* The simulated device's address space, all of it available to cudaMalloc. */
#define DEVICE_BYTES ((size_t)(GMEM_LIMIT - GMEM_BASE))

/* Takes the runtime's lock; NULL (after setting *err and the last error)
** when there is no simulated device. */
Runtime *api_enter(cudaError_t *err);

/* Sets the thread's last error when err is one, unlocks, returns err. */
cudaError_t api_leave(Runtime *rt, int err);

/* Sets the thread's last error without the lock; returns err. */
cudaError_t api_fail(cudaError_t err);

/* The default stream's names, or a live stream of ours. */
bool api_valid_stream(const Runtime *rt, cudaStream_t s);

/* A launch of kernel k (or the kernel registered for func): cudaLaunchKernel's
** and its kin's checks, the run, and a fault made sticky. */
cudaError_t api_launch(void *k, const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                       cudaStream_t stream, bool cooperative);

/* A live event of ours. */
bool api_valid_event(const Runtime *rt, cudaEvent_t e);

/* Every call but the error queries begins so: no device, or a sticky fault. */
#define ENTER(rt)                                           \
    cudaError_t enter_err_;                                 \
    Runtime *rt = api_enter(&enter_err_);                   \
    if (!rt) return enter_err_;                             \
    if (rt->sticky) return api_leave(rt, rt->sticky)

/* A message for the user when a call gets bad arguments; CUDA says nothing,
** but a simulator can say what was wrong. */
#define WHY(rt, ...) (fprintf(stderr, "gpusim: %s: ", (rt)->program), fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))

#endif
