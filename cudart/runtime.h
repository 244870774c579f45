/* cudart/runtime.h -- the simulated device behind our libcudart.so.13: one
** GPU per process (a GpuConfig, a GpuSession whose caches and queues carry
** over from launch to launch, and a GlobalMem that holds every cudaMalloc),
** the modules and kernels the program registered, and what each kernel's
** launches cost. cudart/api.c turns CUDA runtime calls into these calls;
** cudart/report.c prints the per-kernel report at exit.
**
** The CUDA runtime API has no handle: its state is the process's. So the
** Runtime lives in the one process-wide pointer cudart/runtime.c keeps, and
** every call takes its lock (programs call CUDA from several threads).
** Options come from the environment `gpusim exec` sets (docs/CUDA.md):
** GPUSIM_GPU, GPUSIM_SET (K=V lines),
** GPUSIM_REPORT, GPUSIM_TRACE, GPUSIM_SOURCE, GPUSIM_THREADS, GPUSIM_KERNELS,
** GPUSIM_MAX_LAUNCHES, GPUSIM_PROGRAM, GPUSIM_PROFILE_FROM_START,
** GPUSIM_PROGRESS.                                                        */
#ifndef GPUSIM_CUDART_RUNTIME_H
#define GPUSIM_CUDART_RUNTIME_H

#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "cli/trace_chrome.h"
#include "isa/gmem.h"
#include "isa/load.h"
#include "isa/program.h"
#include "sim/config.h"
#include "sim/gpu.h"
#include "sim/stats.h"

/* Runtime errors, with CUDA's numbers (driver_types.h), for the files
** that do not include NVIDIA's headers. */
enum {
    RT_SUCCESS = 0,
    RT_INVALID_VALUE = 1,
    RT_MEMORY_ALLOCATION = 2,
    RT_INVALID_CONFIGURATION = 9,
    RT_INVALID_SYMBOL = 13,
    RT_INVALID_DEVICE_FUNCTION = 98,
    RT_INVALID_DEVICE = 101,
    RT_NO_KERNEL_IMAGE = 209,
    RT_INVALID_PTX = 218,
    RT_INVALID_RESOURCE_HANDLE = 400,
    RT_NOT_READY = 600,
    RT_ILLEGAL_ADDRESS = 700,
    RT_LAUNCH_OUT_OF_RESOURCES = 701,
    RT_LAUNCH_TIMEOUT = 702,
    RT_ASSERT = 710,
    RT_ILLEGAL_INSTRUCTION = 715,
    RT_MISALIGNED_ADDRESS = 716,
    RT_LAUNCH_FAILURE = 719,
    RT_NOT_SUPPORTED = 801,
    RT_UNKNOWN = 999
};

/* Tags (gmem_set_tag) of device memory: cudaMalloc's, which the program
** may free; and buffers no device pointer of the program reaches (rt_device_ptr
** refuses them): a CUDA array's, and the runtime's own (the surface .zero
** mode's areas, a cooperative launch's workspace, the device heap, which
** CUDA forbids runtime calls to use). Other buffers (variables) keep 0:
** reachable, and cudaFree refuses them. A graph's
** allocation (cudaGraphAddMemAllocNode) is RT_TAG_GRAPH_LIVE while
** allocated, which cudaFree may free, and RT_TAG_GRAPH_IDLE, unreachable,
** while a graph only holds its address. */
enum { RT_TAG_PROGRAM = 1, RT_TAG_ARRAY = 2, RT_TAG_INTERNAL = 3, RT_TAG_GRAPH_IDLE = 4, RT_TAG_GRAPH_LIVE = 5 };

typedef struct RtModule RtModule;

/* One __device__ or __constant__ variable a module registered. */
typedef struct {
    const void *host;      /* the host shadow the program names it by         */
    char       *name;      /* its PTX name                                    */
    uint64_t    size;
    bool        constant;
    void      **managed_slot; /* __managed__: the host's pointer to it, which
                                 loading sets (the variable is host memory at
                                 its simulated address, as cudaMallocManaged's) */
    uint32_t    addr;      /* in the simulated global space, once loaded      */
} RtVar;

/* One kernel: registered by its host stub, loaded with its module. */
typedef struct {
    const void  *host_fun;     /* the stub's address: the program's handle   */
    char        *mangled;      /* the .entry name                              */
    RtModule    *module;
    const Kernel *kernel;      /* NULL until the module is loaded             */
    uint32_t     regs;         /* per thread (ptxas), 0 until loaded          */
    /* cudaFuncAttributeMaxDynamicSharedMemorySize as the program set it;
    ** unset, a launch may have sm.shared_per_block less the static bytes */
    bool         dynamic_smem_set;
    uint32_t     dynamic_smem_max;
    /* what the report prints */
    uint32_t     launches, timed, failed;
    uint32_t     grid[3], block[3]; /* of the last launch                      */
    bool         shapes_vary;  /* not every launch had the same grid/block    */
    uint32_t     zero_copy;    /* launches given a pointer to pinned host
                                  memory, timed as if it were device memory */
    KernelStats *launch_st;    /* one per timed launch                         */
    uint32_t     launch_st_cap;
    uint64_t     untimed_cycles_estimate;
    PcCounters  *pcs;          /* GPUSIM_SOURCE: the timed launches' sum      */
} RtKernel;

struct RtModule {
    const void *wrapper;       /* what __cudaRegisterFatBinary got            */
    bool        loaded, failed;
    int         load_error;    /* RT_* when failed                             */
    char        message[DIAG_MESSAGE_MAX + DIAG_FILE_MAX];
    Program     program;
    char       *ptx;           /* the PTX text (kept for --source)            */
    size_t      ptx_len;
    char        name[DIAG_FILE_MAX]; /* the saved PTX's path ("PROGRAM#N" until
                                  loaded, or when it cannot be saved)   */
    RtVar      *vars;
    uint32_t    nvars, vars_cap;
};

typedef struct {
    bool     recorded, timing;
    uint64_t cycle;            /* the simulated clock when recorded           */
} RtEvent;

/* What the program holds a pointer to: our streams and events, and pinned
** host memory. Calls look a handle up here before they touch it, so a
** destroyed, freed or made-up one is an error, not a read of freed memory. */
typedef enum {
    RT_HANDLE_STREAM, RT_HANDLE_EVENT, RT_HANDLE_PINNED, RT_HANDLE_GRAPH, RT_HANDLE_GRAPH_EXEC,
    RT_HANDLE_REGISTERED, /* cudaHostRegister: the program's memory, never freed by the runtime */
    RT_HANDLE_POOL,       /* cudaMemPoolCreate's */
    RT_HANDLE_ARRAY       /* a CUDA array (cudaMallocArray, cudaMalloc3DArray) */
} RtHandleKind;
typedef struct {
    void        *ptr;
    RtHandleKind kind;
    void       (*destroy)(void *ptr); /* what cudaDeviceReset frees it with (NULL: free) */
    size_t       bytes;               /* host memory (pinned, registered): its size   */
    uint32_t     device;              /* registered memory's simulated address (0: none) */
} RtHandle;

/* A memory pool (a cudaMemPool_t points at one): its attributes, and what
** its allocations hold now and at most. Freed memory goes back to the
** device at once, so a pool reserves just what it uses. */
typedef struct {
    uint64_t release_threshold;
    uint64_t used, used_high, reserved_high;
    int      reuse[3]; /* cudaMemPoolReuseFollowEventDependencies .. AllowInternalDependencies */
} RtPool;

/* An allocation made from a pool (cudaMallocAsync, cudaMallocFromPoolAsync). */
typedef struct {
    uint32_t addr;
    uint64_t bytes;
    RtPool  *pool;
} RtPoolAlloc;

/* A graph's memory allocation (cudart/api_graph_mem.c, api_int.h). */
typedef struct RtGraphAlloc RtGraphAlloc;

/* Host pages mapped where the simulated space has room (rt_map_host). */
typedef struct {
    uint32_t addr;
    uint64_t bytes;  /* asked for: the allocation (gmem's)               */
    uint64_t len;    /* mapped: whole pages, whose tail gmem may give out */
    bool     pinned; /* cudaMallocHost/cudaHostAlloc's; else managed memory */
    unsigned flags;  /* cudaHostAlloc's flags, cudaHostAllocMapped among them */
} RtMapping;

typedef struct {
    const char *name;          /* a call gpusim does not implement            */
    uint64_t    calls;
} RtMissing;

typedef struct {
    pthread_mutex_t lock;
    bool            ready;     /* config loaded                               */
    char            config_error[DIAG_MESSAGE_MAX + DIAG_FILE_MAX];
    GpuConfig       cfg;
    GlobalMem      *gmem;
    GpuSession     *session;
    uint64_t        clock;     /* simulated cycles since the device started   */
    int             sticky;    /* a launch's fault: every call returns it     */
    RtModule      **modules;
    uint32_t        nmodules, modules_cap;
    RtKernel      **kernels;
    uint32_t        nkernels, kernels_cap;
    RtMissing      *missing;
    uint32_t        nmissing, missing_cap;
    /* options */
    const char     *program;   /* argv[0] as gpusim exec saw it              */
    const char     *report_path;
    const char     *trace_path;  /* GPUSIM_TRACE: the timed launches' Chrome trace */
    FILE           *trace_file;
    ChromeTrace    *trace;
    TraceSink       trace_sink;
    bool            source, have_regex;
    regex_t         kernels_regex;
    uint32_t        max_launches; /* timed per kernel; 0: all                  */
    bool            profiling;    /* launches may be timed: at the start unless
                                     GPUSIM_PROFILE_FROM_START is 0, then as
                                     cudaProfilerStart/Stop say (profile_range) */
    bool            profile_range;
    bool            progress;     /* a progress line while a timed launch runs
                                     long (GPUSIM_PROGRESS: 1, 0, or auto:
                                     when stderr is a terminal)             */
    uint64_t        stream_ids;   /* cudaStreamGetId's ids given out so far     */
    uint64_t        capture_ids;  /* stream captures begun so far               */
    uint32_t        threads;
    bool            threads_auto;  /* GPUSIM_THREADS unset or auto: the default  */
    bool            threads_exact; /* GPUSIM_THREADS_EXACT: not fitted to the host */
    uint64_t        api_calls;
    uint32_t        allocations;   /* cudaMalloc calls, to name each in faults */
    RtMapping      *mappings;      /* host pages at their simulated address    */
    uint32_t        nmappings, mappings_cap;
    uint32_t        grid_workspace; /* cooperative launches' grid-sync words (0: none yet) */
    /* cudaDeviceSetLimit's: the device heap (made at the first launch of a
    ** kernel that calls malloc or free; its size is fixed from then on), the
    ** printf buffer, the stack (kept to be read back: device functions are
    ** inlined, so no stack is laid out) */
    uint32_t        heap;
    uint64_t        heap_bytes, printf_bytes, stack_bytes;
    bool            printf_used;   /* a kernel that calls printf was launched */
    RtPool          default_pool;  /* the device's memory pools                 */
    RtPool         *current_pool;  /* cudaMallocAsync's (cudaDeviceSetMemPool)  */
    RtPoolAlloc    *pool_allocs;
    uint32_t        npool_allocs, pool_allocs_cap;
    RtGraphAlloc  **graph_allocs;  /* graphs' allocations, and their figures */
    uint32_t        ngraph_allocs, graph_allocs_cap;
    uint64_t        graph_used, graph_used_high, graph_reserved, graph_reserved_high;
    uint64_t        graph_serials; /* graphs made so far (each one's serial) */
    void          **user_objects;  /* live user objects (cudart/api_graph_params.c) */
    uint32_t        nuser_objects, user_objects_cap;
    /* texture and surface objects (cudart/api_texture.c): the object of
    ** handle h at textures[h - 1] (kind TEXO_NONE once destroyed), the CUDA
    ** descriptions it was made from (texture_descs, malloc'd), the table a
    ** launch gets, with the .zero surface mode's two areas (0: not made) */
    ExecTexture    *textures;
    void          **texture_descs;
    uint32_t        ntextures, textures_cap;
    ExecTextures    texture_table;
    void           *default_stream_attrs; /* the default stream's attributes
                                     (cudart/api_stream.c; NULL: never set) */
    RtHandle       *handles;   /* live streams, events, pinned memory, pools  */
    uint32_t        nhandles, handles_cap;
    bool            said_no_device;
} Runtime;

/* cudaDeviceSetLimit's limits as a new context has them (no heap yet), and
** its memory pools (the default one current and empty). */
void rt_limits_default(Runtime *rt);

/* A pool as cudaMemPoolCreate makes it. */
void rt_pool_init(RtPool *p);

/* The process's runtime, made on first use (NULL only when out of memory). */
Runtime *rt_get(void);
void rt_lock(Runtime *rt);
void rt_unlock(Runtime *rt);

/* Registration, called by the program's static constructors. */
RtModule *rt_register_module(Runtime *rt, const void *wrapper);
void rt_register_function(Runtime *rt, RtModule *m, const void *host_fun, const char *mangled);
void rt_register_var(Runtime *rt, RtModule *m, const void *host, const char *name, uint64_t size, bool constant);
/* A __managed__ variable: slot is the host's pointer to it (set on loading). */
void rt_register_managed_var(Runtime *rt, RtModule *m, void **slot, const char *name, uint64_t size);

/* Loads module m if it is not yet (__cudaInitModule: before the host
** touches a __managed__ variable): RT_SUCCESS or the error. */
int rt_load_module(Runtime *rt, RtModule *m);

/* The kernel the program names by its stub (NULL: not registered). */
RtKernel *rt_find_kernel(Runtime *rt, const void *host_fun);

/* Loads k's module if it is not yet (its PTX parsed, registers from ptxas,
** variables placed): RT_SUCCESS or the error the program sees. */
int rt_load_kernel(Runtime *rt, RtKernel *k);

/* The variable the program names by its host shadow, its module loaded
** (NULL: none; *err RT_INVALID_SYMBOL or the module's load error). */
RtVar *rt_find_var(Runtime *rt, const void *host, int *err);

/* The most dynamic shared memory a launch of loaded kernel k may ask for. */
uint32_t rt_dynamic_smem_max(const Runtime *rt, const RtKernel *k);

/* Bytes of a cooperative launch's grid-sync workspace: cooperative groups
** count arrivals in the word at offset 4 (cooperative_groups/details/sync.h). */
#define GRID_WORKSPACE_BYTES 16u

/* Runs one launch: args[i] points at parameter i's value; a cooperative one
** (cudaLaunchCooperativeKernel) gets a zeroed grid-sync workspace and is
** always timed. Returns RT_*. */
int rt_launch(Runtime *rt, RtKernel *k, const uint32_t grid[3], const uint32_t block[3], void **args, bool cooperative,
              uint64_t dynamic_smem);

/* Host pointer for [addr, addr+bytes) of device memory, or NULL when that
** range is not inside one allocation (or is a CUDA array's, which only the
** array calls reach). */
void *rt_device_ptr(Runtime *rt, uint64_t addr, uint64_t bytes);

/* Memory that host code and kernels address alike: host pages mapped at a
** free address of the simulated space, which is also their host address.
** Managed memory (cudaMallocManaged, __managed__ variables) when !pinned;
** pinned host memory (cudaMallocHost, cudaHostAlloc, with its flags) when
** pinned. Returns the address, 0 when no such place can be mapped. */
uint32_t rt_map_host(Runtime *rt, uint64_t bytes, const char *name, bool pinned, unsigned flags);

/* The mapping p is inside (NULL: none). */
const RtMapping *rt_mapping_of(const Runtime *rt, const void *p);

/* Whether addr starts a mapping that is pinned (or not); if so it is
** unmapped. */
bool rt_unmap_host(Runtime *rt, uint32_t addr, bool pinned);

/* The handle registry: add (false when out of memory), whether ptr is a
** live handle of that kind, and remove (false when it was not one). */
bool rt_handle_add(Runtime *rt, void *ptr, RtHandleKind kind);
/* ... one that cudaDeviceReset frees with destroy (it owns more than ptr). */
bool rt_handle_add_owned(Runtime *rt, void *ptr, RtHandleKind kind, void (*destroy)(void *ptr));
/* Host memory of `bytes` (pinned or registered), and the one of that kind
** p is inside (NULL: none). */
bool rt_handle_add_host(Runtime *rt, void *ptr, RtHandleKind kind, size_t bytes, void (*destroy)(void *ptr));
const RtHandle *rt_handle_inside(const Runtime *rt, const void *p, RtHandleKind kind);
bool rt_handle_live(const Runtime *rt, const void *ptr, RtHandleKind kind);
bool rt_handle_remove(Runtime *rt, const void *ptr, RtHandleKind kind);

/* Counts a call the runtime does not implement (name: a static string). */
void rt_missing(Runtime *rt, const char *name);

/* A call of the program that gpusim does not implement (cudart/api.c):
** counted for the exit report, the thread's last error set; returns
** cudaErrorNotSupported's number. */
int rt_api_missing(const char *name);

/* Ends the device: memory, session, streams, events, pinned memory and
** modules' loaded state (cudaDeviceReset). */
void rt_reset(Runtime *rt);

/* Forgets every texture and surface object (cudaDeviceReset). */
void rt_textures_reset(Runtime *rt);

/* Simulated milliseconds of a cycle count. */
double rt_cycles_to_ms(const Runtime *rt, uint64_t cycles);

/* The per-kernel report (cudart/report.c): text on stderr, and JSON to
** GPUSIM_REPORT when set. */
void rt_report(Runtime *rt);

#endif
