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
** handle registry knows which are live (rt_handle_live). A stream that is
** capturing (cudaStreamBeginCapture, or joined to a capture by waiting on
** one of its events) records its work into `capture` instead of running
** it, each new node depending on the stream's `tail`; an event recorded in
** a capture keeps the tail it saw (cudart/api_graph.c). */
typedef struct {
    struct CUgraph_st      *graph;   /* NULL: not capturing                     */
    struct CUgraphNode_st **tail;    /* what the next captured work depends on */
    uint32_t                ntail, tail_cap;
    unsigned long long      id;      /* the capture's (cudaStreamGetCaptureInfo) */
} ApiCapture;
/* A stream's attributes (cudaStreamSetAttribute): hints kept to be read
** back (an L2 access-policy window: no line persists here), the
** synchronization policy and the memory-synchronization domain. */
typedef struct {
    struct cudaAccessPolicyWindow window;
    enum cudaSynchronizationPolicy sync_policy;
    cudaLaunchMemSyncDomainMap domain_map;
    enum cudaLaunchMemSyncDomain domain;
} ApiStreamAttrs;
struct CUstream_st { unsigned flags; int priority; unsigned long long id; ApiCapture cap; ApiStreamAttrs attrs; };
struct CUevent_st { RtEvent e; ApiCapture cap; };

/* Texture and surface size limits (elements; the pitch in bytes): the CUDA
** programming guide's technical specifications for compute capability 7.0
** to 9.0, the presets' range. Mipmapped and alternate 3D shapes are not
** implemented, so their limits are 0. */
enum {
    API_MAX_TEX_1D = 131072, API_MAX_TEX_2D_W = 131072, API_MAX_TEX_2D_H = 65536, API_MAX_TEX_3D = 16384,
    API_MAX_TEX_LAYERED_W = 32768, API_MAX_LAYERS = 2048, API_MAX_SURF_1D = 32768, API_MAX_TEX_2D_GATHER = 32768,
    API_MAX_TEX_1D_LINEAR = 1 << 28, API_MAX_TEX_2D_LINEAR_W = 131072, API_MAX_TEX_2D_LINEAR_H = 65000,
    API_MAX_TEX_2D_LINEAR_PITCH = 2097120, API_SURFACE_ALIGNMENT = 512, API_MAX_CUBEMAP = 32768,
    API_MAX_CUBEMAP_LAYERS = 2046
};

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

/* Stream capture (cudart/api_graph.c). Whether s is capturing; its work
** then becomes nodes: a kernel launch (k loaded, args copied by its
** parameters' sizes), a copy, a memset, a host function. Each returns
** cudaSuccess or the error the call gives. */
bool api_capturing(const Runtime *rt, cudaStream_t s);
int api_capture_kernel(Runtime *rt, cudaStream_t s, RtKernel *k, dim3 grid, dim3 block, void **args, size_t smem);
int api_capture_copy(cudaStream_t s, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
int api_capture_memset(cudaStream_t s, void *dst, int value, size_t count);
int api_capture_copy3d(cudaStream_t s, const struct cudaMemcpy3DParms *p);
int api_capture_memset2d(cudaStream_t s, void *dst, size_t pitch, int value, size_t width, size_t height);
int api_capture_copy2d(cudaStream_t s, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, enum cudaMemcpyKind kind);
int api_capture_host(cudaStream_t s, cudaHostFn_t fn, void *user);
/* cudaEventRecordWithFlags/cudaStreamWaitEvent with the External flag in a
** capture: an event record (record) or wait node. */
int api_capture_event_node(cudaStream_t s, cudaEvent_t e, bool record);
/* A rule of capture broken on s (a synchronization of it): its capture
** records nothing more and ends without a graph, as CUDA's does. */
void api_capture_invalidate(cudaStream_t s);
/* cudaEventRecord in a capture (the event keeps the stream's tail), and
** cudaStreamWaitEvent on such an event (s joins the capture). */
int api_capture_record(cudaEvent_t e, cudaStream_t s);
int api_capture_wait(cudaStream_t s, cudaEvent_t e);
/* Frees what a capture holds (a stream or event destroyed, the device reset). */
void api_capture_free(ApiCapture *c);

/* The device's default pool, or a live pool of cudaMemPoolCreate's. */
bool api_valid_pool(const Runtime *rt, cudaMemPool_t pool);

/* cudaFree of memory a pool gave (cudaMallocAsync): the pool's figures drop. */
void api_pool_forget(Runtime *rt, uint32_t addr);

/* cudaMemcpy3D with a CUDA array on either side (cudart/api_texture.c):
** positions and the width in elements, as CUDA takes them then. */
cudaError_t api_memcpy3d_array(const struct cudaMemcpy3DParms *p);

/* Whether p is device memory (cudaMemcpyDefault's test): inside a device
** allocation a device pointer reaches, and not pinned host memory. */
bool api_is_device(Runtime *rt, const void *p);

/* A copy to (to_symbol) or from a __device__/__constant__ variable:
** checks the symbol, the range and the kind as cudaMemcpyToSymbol does,
** gives the variable's device address at offset and whether `other` is
** device memory; cudaSuccess or the call's error (said for the user). */
int api_symbol_range(Runtime *rt, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind,
                     bool to_symbol, const void *other, bool *other_device, uint32_t *addr, const char *call);

/* A live event of ours. */
bool api_valid_event(const Runtime *rt, cudaEvent_t e);

/* ------------------------------------------------------------------ graphs
** (cudart/api_graph.c: capture, instantiation, launch, update;
** cudart/api_graph_nodes.c: nodes by hand, queries, clones). A graph is a
** list of nodes with their dependencies; an executable graph a copy of the
** nodes in an order their dependencies allow. */
typedef enum { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY, NODE_EVENT_RECORD, NODE_EVENT_WAIT,
               NODE_CHILD, NODE_MEM_ALLOC, NODE_MEM_FREE, NODE_COND } NodeKind;

/* A conditional handle (cudaGraphConditionalHandleCreate): the device
** address of its condition word, which cudaGraphSetConditional stores to,
** and the value a launch of its graph starts it with (when `reset`). */
typedef struct {
    uint32_t addr;
    unsigned initial;
    bool     reset;
} GraphCond;

/* A graph's memory allocation (cudart/api_graph_mem.c): its address fixed
** when its allocation node is made, its buffer kept while a node of a graph
** or of an executable graph names it (refs: allocation and free nodes
** alike) or it is allocated (live: its allocation node ran and nothing has
** freed it since). */
struct RtGraphAlloc {
    Runtime *rt;
    uint32_t addr;
    uint64_t bytes;
    uint32_t refs;
    bool     live;
    bool     has_free_node; /* a free node of some graph names it */
    struct cudaMemAllocNodeParams params; /* as made, dptr set; accessDescs: access */
    struct cudaMemAccessDesc access[1];
};

/* A user object (cudaUserObjectCreate): the program's pointer, the function
** that destroys it when its last reference goes, and its references (the
** program's and every graph's and executable graph's). Runtime.user_objects
** lists the live ones. A graph's or executable graph's references to one:
** GraphUserRef. */
struct CUuserObject_st {
    Runtime     *rt;
    void        *ptr;
    cudaHostFn_t destroy;
    uint64_t     refs;
};
typedef struct {
    struct CUuserObject_st *obj;
    unsigned                count;
} GraphUserRef;

struct CUgraphNode_st {
    struct CUgraph_st      *graph;
    uint32_t                index;   /* in graph->nodes (an executable copy: its
                                        node's index when instantiated)      */
    uint32_t                id;      /* its graph's count of nodes made before
                                        it: kept by clones and executable copies */
    NodeKind                kind;
    bool                    disabled; /* an executable copy: cudaGraphNodeSetEnabled */
    uint64_t                deps_sig; /* an executable copy: its dependencies'
                                         indices, hashed (cudaGraphExecUpdate) */
    struct CUgraphNode_st **deps;
    uint32_t                ndeps, deps_cap;
    union {
        struct {
            const void *func;
            dim3        grid, block;
            size_t      smem;
            uint64_t    params[ISA_MAX_PARAM_WORDS / 2]; /* at each parameter's offset */
            bool        cooperative;  /* cudaGraphKernelNodeSetAttribute's; the
                                         others kept as hints:            */
            int         priority;
            struct cudaAccessPolicyWindow window;
            cudaLaunchMemSyncDomainMap domain_map;
            enum cudaLaunchMemSyncDomain domain;
        } kernel;
        struct cudaMemcpy3DParms copy; /* pitched pointers: cudaMemcpy3D runs it */
        struct {
            char    *dst;
            size_t   pitch, width, height; /* width in elements */
            unsigned value, element;
        } set;
        struct {
            cudaHostFn_t fn;
            void        *user;
        } host;
        cudaEvent_t event;
        struct {
            struct CUgraph_st     *graph; /* its own copy of the child graph */
            struct CUgraphExec_st *exec;  /* an executable copy: the child's */
        } child;
        RtGraphAlloc *mem; /* an allocation or free node's (a reference) */
        struct {
            uint32_t                handle; /* its condition word's address */
            enum cudaGraphConditionalNodeType type;
            uint32_t                size;   /* bodies */
            struct CUgraph_st     **body;   /* the node's own graphs          */
            struct CUgraphExec_st **exec;   /* an executable copy: each body's */
        } cond;
    } u;
};

struct CUgraph_st {
    struct CUgraphNode_st **nodes;
    uint32_t                n, cap;
    uint32_t                made;        /* nodes made so far (the next id)     */
    bool                    invalidated; /* its capture broke a rule: ended without a graph */
    const struct CUgraph_st *cloned_from; /* cudaGraphClone's original, or NULL  */
    struct CUgraphNode_st  *owner;       /* a child graph node's embedded graph:
                                            that node (no handle of its own)     */
    uint64_t                serial;      /* Runtime.graph_serials when made     */
    uint32_t                mem_nodes;   /* its allocation and free nodes       */
    bool                    user_owned;  /* a capture into it (cudaStreamBeginCaptureToGraph)
                                            that breaks leaves it to the program */
    GraphUserRef           *uref;        /* the user objects it holds           */
    uint32_t                nuref, uref_cap;
    uint32_t                cond_nodes;  /* its conditional nodes               */
    GraphCond              *conds;       /* the conditional handles made for it */
    uint32_t                nconds, conds_cap;
};

struct CUgraphExec_st {
    struct CUgraphNode_st *order; /* copies, dependencies first; their deps unused */
    uint32_t               n;
    uint64_t               source;    /* the serial of the graph it was made from */
    unsigned long long     flags;     /* cudaGraphInstantiate's                   */
    uint32_t               mem_nodes; /* its allocation and free nodes            */
    GraphUserRef          *uref;      /* the user objects it holds (its graph's)  */
    uint32_t               nuref, uref_cap;
    GraphCond             *conds;     /* its graph's conditional handles          */
    uint32_t               nconds;
};

/* What the two graph files share. graph_free and exec_free free a graph or
** an executable graph (child graphs with them); graph_new makes an empty
** graph, registered as a handle; graph_live: a live graph, or a child graph
** node's embedded one; node_add appends a node (its id the graph's next);
** node_live: a node of a live graph; graph_order builds an executable copy
** (false on a cycle, *cycle set, or out of memory); graph_clone copies a
** graph's nodes, dependencies and child graphs (not registered). */
void graph_free(void *p);
void exec_free(void *p);
struct CUgraph_st *graph_new(Runtime *rt);
bool graph_live(const Runtime *rt, const struct CUgraph_st *g);
struct CUgraphNode_st *node_add(struct CUgraph_st *g, NodeKind kind, struct CUgraphNode_st *const *deps, size_t n);
bool node_live(const Runtime *rt, cudaGraphNode_t node);
/* Whether g lives and deps[0..n) are nodes of it (a node-adding call's check). */
bool graph_deps_valid(const Runtime *rt, const struct CUgraph_st *g, const cudaGraphNode_t *deps, size_t n);
bool graph_order(const struct CUgraph_st *g, struct CUgraphExec_st *x, bool *cycle);
struct CUgraph_st *graph_clone(const struct CUgraph_st *g);
/* A kernel node's parameters: the kernel loaded, each argument's bytes copied. */
int graph_kernel_params(Runtime *rt, struct CUgraphNode_st *node, const void *func, void **args);
/* A copy node's parameters: count bytes as one row of one slice. */
void graph_copy_1d(struct CUgraphNode_st *node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
/* Ends the capture into g for every stream and event in it. */
void graph_capture_end(Runtime *rt, const struct CUgraph_st *g);
/* New parameters for a kernel node (of a graph, or an executable copy). */
int api_kernel_node_set(Runtime *rt, struct CUgraphNode_st *node, const struct cudaKernelNodeParams *p);
/* The executable copy of a graph's node in x, of `kind` (-1: any); NULL: none. */
struct CUgraphNode_st *api_exec_node(const Runtime *rt, cudaGraphExec_t x, cudaGraphNode_t node, int kind);

/* Graph memory (cudart/api_graph_mem.c). graph_mem_alloc checks an
** allocation node's parameters and makes its allocation, its address given
** out (NULL with *err set); graph_mem_find: the allocation made at addr, or
** NULL; graph_mem_ref/unref: a node holds it or lets it go (the last
** letting go of one not allocated unmaps it). graph_mem_launch readies x's
** allocations for a launch (its auto-free flag frees the ones still
** allocated; without it they refuse the launch); graph_mem_run runs an
** allocation or free node. api_graph_mem_free: cudaFree of a graph's live
** allocation (false: addr is none); api_graph_mem_reset: the device reset. */
RtGraphAlloc *graph_mem_alloc(Runtime *rt, const struct cudaMemAllocNodeParams *p, int *err);
RtGraphAlloc *graph_mem_find(const Runtime *rt, uint32_t addr);
void graph_mem_ref(RtGraphAlloc *a);
void graph_mem_unref(RtGraphAlloc *a);
int graph_mem_launch(Runtime *rt, const struct CUgraphExec_st *x);
int graph_mem_run(Runtime *rt, const struct CUgraphNode_st *node);
bool api_graph_mem_free(Runtime *rt, uint32_t addr);
void api_graph_mem_reset(Runtime *rt);
/* Stream capture of cudaMallocAsync (an allocation node, its address in
** *ptr) and of cudaFreeAsync (a free node). */
int api_capture_alloc(Runtime *rt, cudaStream_t s, size_t size, void **ptr);
int api_capture_mem_free(Runtime *rt, cudaStream_t s, void *ptr);

/* User objects (cudart/api_graph_params.c). graph_uref_copy: dst's
** references become src's (each retained, dst's old ones released; false
** out of memory); graph_uref_free: every reference released, the list
** freed; api_user_objects_reset: the device reset frees those left. */
bool graph_uref_copy(GraphUserRef **dst, uint32_t *n, uint32_t *cap, const GraphUserRef *src, uint32_t nsrc);
void graph_uref_free(GraphUserRef **refs, uint32_t *n, uint32_t *cap);
void api_user_objects_reset(Runtime *rt);
/* Checks g against x's nodes as cudaGraphExecUpdate does and, when they
** pair, gives x g's parameters and user objects: the update's result. */
enum cudaGraphExecUpdateResult graph_exec_update(const struct CUgraph_st *g, struct CUgraphExec_st *x,
                                                 cudaGraphNode_t *error_node);

/* Conditional nodes (cudart/api_graph_cond.c): cudaGraphAddNode's, its
** parameters checked and its bodies made (phGraph_out set); freeing a
** node's bodies; executable copies of them (false out of memory, *cycle
** set for a cycle in one); running one (each body through run_exec);
** graph_conds_start gives a graph's handles their launch value. */
cudaError_t api_graph_add_cond(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                               struct cudaConditionalNodeParams *p);
void graph_cond_free(struct CUgraphNode_st *node);
bool graph_cond_order(struct CUgraphNode_st *copy, bool *cycle);
void graph_cond_exec_free(struct CUgraphNode_st *copy);
cudaError_t graph_cond_run(const struct CUgraphNode_st *node, cudaStream_t stream,
                           cudaError_t (*run_exec)(const struct CUgraphExec_st *, cudaStream_t));
void graph_conds_start(Runtime *rt, const struct CUgraphExec_st *x);

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
