/* cudart/api_graph.c -- CUDA graphs: stream capture and the graph calls
** ordinary programs make. A graph is a list of nodes (a kernel launch with
** its arguments copied, a copy, a memset, a host function, an empty node)
** with their dependencies; captured work becomes nodes in the order it was
** issued, and cudaGraphAdd*Node adds them by hand. cudaGraphInstantiate puts
** a copy of the nodes in an order their dependencies allow (a cycle is
** refused), and cudaGraphLaunch runs them one after another through the
** ordinary calls, so each kernel is timed, counted and reported as a launch
** of its own. Not implemented (cudaErrorNotSupported, listed at exit): child
** graphs, event and memory-allocation nodes, array copies, graph updates
** other than a kernel node's parameters, device-side launch. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

typedef enum { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY } NodeKind;

struct CUgraphNode_st {
    struct CUgraph_st      *graph;
    uint32_t                index;   /* in graph->nodes, and in an exec's copy  */
    NodeKind                kind;
    struct CUgraphNode_st **deps;
    uint32_t                ndeps, deps_cap;
    union {
        struct {
            const void *func;
            dim3        grid, block;
            size_t      smem;
            uint64_t    params[ISA_MAX_PARAM_WORDS / 2]; /* at each parameter's offset */
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
    } u;
};

struct CUgraph_st {
    struct CUgraphNode_st **nodes;
    uint32_t                n, cap;
    bool                    invalidated; /* its capture broke a rule: ended without a graph */
};

struct CUgraphExec_st {
    struct CUgraphNode_st *order; /* copies, dependencies first; their deps unused */
    uint32_t              *at;    /* at[node index]: its place in order          */
    uint32_t               n;
};

/* ------------------------------------------------------------- the graph */

static void graph_free(void *p)
{
    struct CUgraph_st *g = p;
    for (uint32_t i = 0; i < g->n; i++) free(g->nodes[i]->deps), free(g->nodes[i]);
    free(g->nodes);
    free(g);
}

static void exec_free(void *p)
{
    struct CUgraphExec_st *x = p;
    free(x->order);
    free(x->at);
    free(x);
}

static struct CUgraph_st *graph_new(Runtime *rt)
{
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (g && !rt_handle_add_owned(rt, g, RT_HANDLE_GRAPH, graph_free)) {
        free(g);
        return NULL;
    }
    return g;
}

/* A node of g depending on deps[0..n); NULL when out of memory. */
static struct CUgraphNode_st *node_add(struct CUgraph_st *g, NodeKind kind, struct CUgraphNode_st *const *deps, size_t n)
{
    struct CUgraphNode_st *node = calloc(1, sizeof *node);
    if (!node || !grow_array((void **)&g->nodes, &g->cap, g->n + 1, sizeof *g->nodes) ||
        (n && !grow_array((void **)&node->deps, &node->deps_cap, (uint32_t)n, sizeof *node->deps))) {
        if (node) free(node->deps);
        free(node);
        return NULL;
    }
    node->graph = g;
    node->index = g->n;
    node->kind = kind;
    if (n) memcpy(node->deps, deps, n * sizeof *deps);
    node->ndeps = (uint32_t)n;
    g->nodes[g->n++] = node;
    return node;
}

/* Whether deps[0..n) are nodes of g. */
static bool deps_valid(const Runtime *rt, const struct CUgraph_st *g, const cudaGraphNode_t *deps, size_t n)
{
    if (!rt_handle_live(rt, g, RT_HANDLE_GRAPH) || (n && !deps)) return false;
    for (size_t i = 0; i < n; i++)
        if (!deps[i] || deps[i]->graph != g) return false;
    return true;
}

/* A kernel node's parameters: the kernel loaded, each argument's bytes copied. */
static int kernel_params(Runtime *rt, struct CUgraphNode_st *node, const void *func, void **args)
{
    RtKernel *k = rt_find_kernel(rt, func);
    if (!k) return cudaErrorInvalidDeviceFunction;
    int err = rt_load_kernel(rt, k);
    if (err) return err;
    const Kernel *kk = k->kernel;
    uint8_t *bytes = (uint8_t *)node->u.kernel.params;
    for (uint32_t i = 0; i < kk->nparams; i++) {
        const KernelParam *p = &kk->params[i];
        if (!args || !args[i] || p->offset + p->size > sizeof node->u.kernel.params) return cudaErrorInvalidValue;
        memcpy(bytes + p->offset, args[i], p->size);
    }
    node->u.kernel.func = func;
    return cudaSuccess;
}

/* ------------------------------------------------------------------ capture */

bool api_capturing(const Runtime *rt, cudaStream_t s)
{
    return s && s != cudaStreamLegacy && s != cudaStreamPerThread && rt_handle_live(rt, s, RT_HANDLE_STREAM) &&
           s->cap.graph;
}

void api_capture_free(ApiCapture *c)
{
    free(c->tail);
    *c = (ApiCapture){ 0 };
}

static bool tail_set(ApiCapture *c, struct CUgraphNode_st *const *nodes, uint32_t n)
{
    if (!grow_array((void **)&c->tail, &c->tail_cap, n, sizeof *c->tail)) return false;
    if (n) memmove(c->tail, nodes, n * sizeof *nodes);
    c->ntail = n;
    return true;
}

/* A node of the stream's capture after its tail, which it becomes (the
** capture is not invalidated: the callers check). */
static struct CUgraphNode_st *capture_node(cudaStream_t s, NodeKind kind)
{
    struct CUgraphNode_st *node = node_add(s->cap.graph, kind, s->cap.tail, s->cap.ntail);
    if (node && !tail_set(&s->cap, &node, 1)) return NULL;
    return node;
}

/* The launch's parameters are taken first: a launch the kernel refuses
** leaves no node behind. */
int api_capture_kernel(Runtime *rt, cudaStream_t s, RtKernel *k, dim3 grid, dim3 block, void **args, size_t smem)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st made = { 0 };
    int err = kernel_params(rt, &made, k->host_fun, args);
    if (err) return err;
    struct CUgraphNode_st *node = capture_node(s, NODE_KERNEL);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.kernel = made.u.kernel;
    node->u.kernel.grid = grid, node->u.kernel.block = block, node->u.kernel.smem = smem;
    return cudaSuccess;
}

/* A copy of count bytes as one row of one slice. */
static void copy_1d(struct CUgraphNode_st *node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    node->u.copy = (struct cudaMemcpy3DParms){
        .srcPtr = { .ptr = (void *)src, .pitch = count, .xsize = count, .ysize = 1 },
        .dstPtr = { .ptr = dst, .pitch = count, .xsize = count, .ysize = 1 },
        .extent = { .width = count, .height = 1, .depth = 1 },
        .kind = kind,
    };
}

int api_capture_copy(cudaStream_t s, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_MEMCPY);
    if (!node) return cudaErrorMemoryAllocation;
    copy_1d(node, dst, src, count, kind);
    return cudaSuccess;
}

int api_capture_memset(cudaStream_t s, void *dst, int value, size_t count)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_MEMSET);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.set.dst = dst, node->u.set.value = (unsigned char)value, node->u.set.element = 1;
    node->u.set.pitch = node->u.set.width = count, node->u.set.height = 1;
    return cudaSuccess;
}

int api_capture_host(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_HOST);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.host.fn = fn, node->u.host.user = user;
    return cudaSuccess;
}

void api_capture_invalidate(cudaStream_t s)
{
    s->cap.graph->invalidated = true;
}

int api_capture_record(cudaEvent_t e, cudaStream_t s)
{
    e->cap.graph = s->cap.graph;
    e->cap.id = s->cap.id;
    return tail_set(&e->cap, s->cap.tail, s->cap.ntail) ? cudaSuccess : cudaErrorMemoryAllocation;
}

/* s joins e's capture: its next work depends on what e saw, and on its own
** tail when it was capturing already. */
int api_capture_wait(cudaStream_t s, cudaEvent_t e)
{
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread)
        return rt_api_missing("cudaStreamWaitEvent of the default stream on a captured event");
    if (s->cap.graph && s->cap.graph != e->cap.graph)
        return rt_api_missing("cudaStreamWaitEvent joining two captures");
    uint32_t have = s->cap.graph ? s->cap.ntail : 0;
    if (!grow_array((void **)&s->cap.tail, &s->cap.tail_cap, have + e->cap.ntail, sizeof *s->cap.tail))
        return cudaErrorMemoryAllocation;
    for (uint32_t i = 0; i < e->cap.ntail; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < have && !seen; j++) seen = s->cap.tail[j] == e->cap.tail[i];
        if (!seen) s->cap.tail[have++] = e->cap.tail[i];
    }
    s->cap.ntail = have;
    s->cap.graph = e->cap.graph;
    s->cap.id = e->cap.id;
    return cudaSuccess;
}

/* The capture into g ends for every stream in it (the ones that joined
** too), and the events recorded in it are plain ones from then on. */
static void capture_end(Runtime *rt, const struct CUgraph_st *g)
{
    for (uint32_t i = 0; i < rt->nhandles; i++) {
        RtHandle *h = &rt->handles[i];
        ApiCapture *c = h->kind == RT_HANDLE_STREAM  ? &((struct CUstream_st *)h->ptr)->cap
                        : h->kind == RT_HANDLE_EVENT ? &((struct CUevent_st *)h->ptr)->cap
                                                     : NULL;
        if (c && c->graph == g) c->graph = NULL, c->ntail = 0;
    }
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    ENTER(rt);
    (void)mode; /* which other calls a capture forbids: here none runs work behind it */
    if (stream == NULL || stream == cudaStreamLegacy) return api_leave(rt, cudaErrorStreamCaptureUnsupported);
    if (stream == cudaStreamPerThread)
        return api_leave(rt, rt_api_missing("cudaStreamBeginCapture of the per-thread default stream"));
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (stream->cap.graph) return api_leave(rt, cudaErrorIllegalState);
    struct CUgraph_st *g = graph_new(rt);
    if (!g) return api_leave(rt, cudaErrorMemoryAllocation);
    stream->cap.graph = g;
    stream->cap.ntail = 0;
    stream->cap.id = ++rt->capture_ids;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    ENTER(rt);
    if (!pGraph) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!api_capturing(rt, stream)) return api_leave(rt, cudaErrorIllegalState);
    struct CUgraph_st *g = stream->cap.graph;
    capture_end(rt, g);
    if (g->invalidated) { /* the graph goes with it */
        *pGraph = NULL;
        rt_handle_remove(rt, g, RT_HANDLE_GRAPH);
        graph_free(g);
        return api_leave(rt, cudaErrorStreamCaptureInvalidated);
    }
    *pGraph = g;
    return api_leave(rt, cudaSuccess);
}

/* What cudaStreamIsCapturing and cudaStreamGetCaptureInfo say of s. */
static enum cudaStreamCaptureStatus capture_status(const Runtime *rt, cudaStream_t s)
{
    if (!api_capturing(rt, s)) return cudaStreamCaptureStatusNone;
    return s->cap.graph->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    ENTER(rt);
    if (!pCaptureStatus) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    *pCaptureStatus = capture_status(rt, stream);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    ENTER(rt);
    if (!captureStatus_out) return api_leave(rt, cudaErrorInvalidValue);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    bool on = api_capturing(rt, stream);
    *captureStatus_out = capture_status(rt, stream);
    if (id_out && on) *id_out = stream->cap.id;
    if (graph_out && on) *graph_out = stream->cap.graph;
    if (dependencies_out && on) *dependencies_out = (const cudaGraphNode_t *)stream->cap.tail;
    if (edgeData_out && on) *edgeData_out = NULL; /* every edge is a plain one */
    if (numDependencies_out && on) *numDependencies_out = stream->cap.ntail;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCapture(stream, mode);
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    return cudaStreamEndCapture(stream, pGraph);
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    return cudaStreamIsCapturing(stream, pCaptureStatus);
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, cudaGraph_t *graph_out,
                                          const cudaGraphNode_t **dependencies_out,
                                          const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out);
}

/* The capture mode decides which calls a capture forbids; none runs work
** behind a capture here, so the thread's mode is only kept and exchanged. */
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    static _Thread_local enum cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;
    if (!mode) return api_fail(cudaErrorInvalidValue);
    enum cudaStreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

/* ------------------------------------------------------- nodes by hand */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    ENTER(rt);
    if (!pGraph || flags) return api_leave(rt, cudaErrorInvalidValue);
    struct CUgraph_st *g = graph_new(rt);
    if (!g) return api_leave(rt, cudaErrorMemoryAllocation);
    *pGraph = g;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    ENTER(rt);
    if (!rt_handle_remove(rt, graph, RT_HANDLE_GRAPH)) return api_leave(rt, cudaErrorInvalidValue);
    capture_end(rt, graph); /* a stream still capturing into it stops */
    graph_free(graph);
    return api_leave(rt, cudaSuccess);
}

/* The node-adding calls' common start: a node of `kind` in graph after
** deps, or NULL with *err set. */
static struct CUgraphNode_st *added(Runtime *rt, cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    size_t n, NodeKind kind, int *err)
{
    *err = cudaErrorInvalidValue;
    if (!pNode || !deps_valid(rt, graph, deps, n)) return NULL;
    struct CUgraphNode_st *node = node_add(graph, kind, deps, n);
    if (!node) *err = cudaErrorMemoryAllocation;
    return node;
}

/* Takes back the node `added` made last, when its parameters are refused. */
static void unadd(struct CUgraphNode_st *node)
{
    node->graph->n--;
    free(node->deps);
    free(node);
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    int err;
    struct CUgraphNode_st *node = pNodeParams ? added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_KERNEL, &err)
                                              : NULL;
    if (!node) return api_leave(rt, pNodeParams ? err : cudaErrorInvalidValue);
    if (pNodeParams->extra) err = rt_api_missing("cudaGraphAddKernelNode with 'extra' parameters");
    else err = kernel_params(rt, node, pNodeParams->func, pNodeParams->kernelParams);
    if (err) {
        unadd(node);
        return api_leave(rt, err);
    }
    node->u.kernel.grid = pNodeParams->gridDim, node->u.kernel.block = pNodeParams->blockDim;
    node->u.kernel.smem = pNodeParams->sharedMemBytes;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                     size_t numDependencies, void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    ENTER(rt);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_MEMCPY, &err);
    if (!node) return api_leave(rt, err);
    copy_1d(node, dst, src, count, kind);
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

/* Pitched pointers only: a CUDA array on either side is not implemented. */
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *p)
{
    ENTER(rt);
    if (!p) return api_leave(rt, cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) return api_leave(rt, rt_api_missing("cudaGraphAddMemcpyNode with a CUDA array"));
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_MEMCPY, &err);
    if (!node) return api_leave(rt, err);
    node->u.copy = *p;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *p)
{
    ENTER(rt);
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return api_leave(rt, cudaErrorInvalidValue);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_MEMSET, &err);
    if (!node) return api_leave(rt, err);
    node->u.set.dst = p->dst, node->u.set.pitch = p->pitch, node->u.set.width = p->width;
    node->u.set.height = p->height ? p->height : 1, node->u.set.value = p->value, node->u.set.element = p->elementSize;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *p)
{
    ENTER(rt);
    if (!p || !p->fn) return api_leave(rt, cudaErrorInvalidValue);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_HOST, &err);
    if (!node) return api_leave(rt, err);
    node->u.host.fn = p->fn, node->u.host.user = p->userData;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies)
{
    ENTER(rt);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_EMPTY, &err);
    if (!node) return api_leave(rt, err);
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

/* Edge data other than the default (a plain dependency) is not implemented. */
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    ENTER(rt);
    if (!deps_valid(rt, graph, from, numDependencies) || !deps_valid(rt, graph, to, numDependencies))
        return api_leave(rt, cudaErrorInvalidValue);
    static const cudaGraphEdgeData plain = { 0 };
    for (size_t i = 0; edgeData && i < numDependencies; i++)
        if (memcmp(&edgeData[i], &plain, sizeof plain) != 0)
            return api_leave(rt, rt_api_missing("cudaGraphAddDependencies with edge data"));
    for (size_t i = 0; i < numDependencies; i++) {
        struct CUgraphNode_st *t = to[i];
        bool seen = from[i] == t;
        for (uint32_t j = 0; j < t->ndeps && !seen; j++) seen = t->deps[j] == from[i];
        if (seen) return api_leave(rt, cudaErrorInvalidValue); /* a node on itself, or an edge twice */
        if (!grow_array((void **)&t->deps, &t->deps_cap, t->ndeps + 1, sizeof *t->deps))
            return api_leave(rt, cudaErrorMemoryAllocation);
        t->deps[t->ndeps++] = from[i];
    }
    return api_leave(rt, cudaSuccess);
}

/* The nodes (roots: those depending on none) into out, or their count. */
static cudaError_t list_nodes(cudaGraph_t graph, cudaGraphNode_t *out, size_t *n, bool roots)
{
    ENTER(rt);
    if (!n || !rt_handle_live(rt, graph, RT_HANDLE_GRAPH)) return api_leave(rt, cudaErrorInvalidValue);
    size_t k = 0;
    for (uint32_t i = 0; i < graph->n; i++) {
        if (roots && graph->nodes[i]->ndeps) continue;
        if (out && k < *n) out[k] = graph->nodes[i];
        k++;
    }
    /* CUDA: the count when out is NULL; else at most *n written, the rest
    ** of *n set to NULL and *n lowered to the count */
    for (size_t j = k; out && j < *n; j++) out[j] = NULL;
    if (!out || k < *n) *n = k;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    return list_nodes(graph, nodes, numNodes, false);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    return list_nodes(graph, pRootNodes, pNumRootNodes, true);
}

/* A node of a live graph. */
static bool node_live(const Runtime *rt, cudaGraphNode_t node)
{
    if (!node) return false;
    for (uint32_t i = 0; i < rt->nhandles; i++)
        if (rt->handles[i].kind == RT_HANDLE_GRAPH && rt->handles[i].ptr == node->graph)
            return node->index < node->graph->n && node->graph->nodes[node->index] == node;
    return false;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    ENTER(rt);
    if (!pType || !node_live(rt, node)) return api_leave(rt, cudaErrorInvalidValue);
    static const enum cudaGraphNodeType TYPE[] = { [NODE_KERNEL] = cudaGraphNodeTypeKernel,
                                                   [NODE_MEMCPY] = cudaGraphNodeTypeMemcpy,
                                                   [NODE_MEMSET] = cudaGraphNodeTypeMemset,
                                                   [NODE_HOST] = cudaGraphNodeTypeHost,
                                                   [NODE_EMPTY] = cudaGraphNodeTypeEmpty };
    *pType = TYPE[node->kind];
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    if (!pNodeParams || !node_live(rt, node) || node->kind != NODE_KERNEL) return api_leave(rt, cudaErrorInvalidValue);
    /* kernelParams would point into the node: CUDA gives them only back as the
    ** program set them, so they are left out (NULL) rather than made up */
    *pNodeParams = (struct cudaKernelNodeParams){ .func = (void *)node->u.kernel.func, .gridDim = node->u.kernel.grid,
                                                  .blockDim = node->u.kernel.block,
                                                  .sharedMemBytes = (unsigned)node->u.kernel.smem };
    return api_leave(rt, cudaSuccess);
}

/* New parameters for a kernel node (of a graph, or an instantiated copy). */
static int kernel_node_set(Runtime *rt, struct CUgraphNode_st *node, const struct cudaKernelNodeParams *p)
{
    if (!p) return cudaErrorInvalidValue;
    if (p->extra) return rt_api_missing("a kernel node's 'extra' parameters");
    struct CUgraphNode_st next = *node;
    int err = kernel_params(rt, &next, p->func, p->kernelParams);
    if (err) return err;
    next.u.kernel.grid = p->gridDim, next.u.kernel.block = p->blockDim, next.u.kernel.smem = p->sharedMemBytes;
    *node = next;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    if (!node_live(rt, node) || node->kind != NODE_KERNEL) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, kernel_node_set(rt, node, pNodeParams));
}

/* ------------------------------------------------- instantiate and launch */

/* The nodes in an order their dependencies allow (Kahn's, the lowest index
** first among the ready: a captured graph runs in the order it was issued);
** false on a cycle or out of memory. */
static bool order_nodes(const struct CUgraph_st *g, struct CUgraphExec_st *x)
{
    uint32_t n = g->n, *waits = calloc(n ? n : 1, sizeof *waits);
    bool *done = calloc(n ? n : 1, sizeof *done);
    x->order = malloc((n ? n : 1) * sizeof *x->order);
    x->at = malloc((n ? n : 1) * sizeof *x->at);
    bool ok = waits && done && x->order && x->at;
    for (uint32_t i = 0; ok && i < n; i++) waits[i] = g->nodes[i]->ndeps;
    for (x->n = 0; ok && x->n < n;) {
        uint32_t i = 0;
        while (i < n && (done[i] || waits[i])) i++;
        if (i == n) {
            ok = false; /* every node left waits on another: a cycle */
            break;
        }
        done[i] = true;
        x->at[i] = x->n;
        x->order[x->n] = *g->nodes[i];
        x->order[x->n].deps = NULL, x->order[x->n].ndeps = x->order[x->n].deps_cap = 0;
        x->n++;
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t d = 0; d < g->nodes[j]->ndeps; d++) waits[j] -= g->nodes[j]->deps[d] == g->nodes[i];
    }
    free(waits);
    free(done);
    return ok;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    ENTER(rt);
    if (!pGraphExec || !rt_handle_live(rt, graph, RT_HANDLE_GRAPH)) return api_leave(rt, cudaErrorInvalidValue);
    /* auto-free (no allocation nodes), upload (nothing to upload), node
    ** priorities (one level) change nothing; a device launch is not implemented */
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                      cudaGraphInstantiateFlagUseNodePriority))
        return api_leave(rt, rt_api_missing("cudaGraphInstantiate for a device launch"));
    struct CUgraphExec_st *x = calloc(1, sizeof *x);
    if (!x) return api_leave(rt, cudaErrorMemoryAllocation);
    if (!order_nodes(graph, x)) {
        bool cycle = x->order && x->at;
        exec_free(x);
        if (cycle) WHY(rt, "cudaGraphInstantiate: the graph's dependencies form a cycle");
        return api_leave(rt, cycle ? cudaErrorInvalidValue : cudaErrorMemoryAllocation);
    }
    if (!rt_handle_add_owned(rt, x, RT_HANDLE_GRAPH_EXEC, exec_free)) {
        exec_free(x);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    *pGraphExec = x;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    ENTER(rt);
    if (!rt_handle_remove(rt, graphExec, RT_HANDLE_GRAPH_EXEC)) return api_leave(rt, cudaErrorInvalidValue);
    exec_free(graphExec);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    if (!rt_handle_live(rt, hGraphExec, RT_HANDLE_GRAPH_EXEC) || !node_live(rt, node) || node->kind != NODE_KERNEL ||
        node->index >= hGraphExec->n || hGraphExec->order[hGraphExec->at[node->index]].kind != NODE_KERNEL)
        return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, kernel_node_set(rt, &hGraphExec->order[hGraphExec->at[node->index]], pNodeParams));
}

/* A memset node's elements, row by row, in device memory. */
static cudaError_t run_memset(const struct CUgraphNode_st *node)
{
    ENTER(rt);
    for (size_t r = 0; r < node->u.set.height; r++) {
        uint64_t addr = (uint64_t)(uintptr_t)(node->u.set.dst + r * node->u.set.pitch);
        uint8_t *p = rt_device_ptr(rt, addr, node->u.set.width * node->u.set.element);
        if (!p && node->u.set.width) {
            WHY(rt, "a graph's memset node: [%p, +%zu) is not inside one device allocation", (void *)(uintptr_t)addr,
                node->u.set.width * node->u.set.element);
            return api_leave(rt, cudaErrorInvalidValue);
        }
        for (size_t e = 0; e < node->u.set.width; e++) memcpy(p + e * node->u.set.element, &node->u.set.value, node->u.set.element);
    }
    return api_leave(rt, cudaSuccess);
}

/* One node's work, through the calls the program could have made. */
static cudaError_t run_node(const struct CUgraphNode_st *node, cudaStream_t stream)
{
    switch (node->kind) {
    case NODE_KERNEL: {
        void *args[ISA_MAX_PARAMS];
        {
            ENTER(rt);
            RtKernel *k = rt_find_kernel(rt, node->u.kernel.func);
            int err = k ? rt_load_kernel(rt, k) : cudaErrorInvalidDeviceFunction; /* loaded when the node was made */
            if (err) return api_leave(rt, err);
            for (uint32_t i = 0; i < k->kernel->nparams && i < ISA_MAX_PARAMS; i++)
                args[i] = (uint8_t *)node->u.kernel.params + k->kernel->params[i].offset;
            api_leave(rt, cudaSuccess);
        }
        return api_launch(NULL, node->u.kernel.func, node->u.kernel.grid, node->u.kernel.block, args, node->u.kernel.smem,
                          stream, false);
    }
    case NODE_MEMCPY:
        return cudaMemcpy3D(&node->u.copy);
    case NODE_MEMSET:
        return run_memset(node);
    case NODE_HOST:
        node->u.host.fn(node->u.host.user);
        return cudaSuccess;
    case NODE_EMPTY:
        return cudaSuccess;
    }
    return cudaErrorInvalidValue;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    {
        ENTER(rt);
        if (!rt_handle_live(rt, graphExec, RT_HANDLE_GRAPH_EXEC)) return api_leave(rt, cudaErrorInvalidValue);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) return api_leave(rt, rt_api_missing("cudaGraphLaunch into a stream capture"));
        api_leave(rt, cudaSuccess);
    }
    for (uint32_t i = 0; i < graphExec->n; i++) {
        cudaError_t e = run_node(&graphExec->order[i], stream);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return cudaGraphLaunch(graphExec, stream);
}

/* Nothing to upload: the nodes run from host memory. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    ENTER(rt);
    if (!rt_handle_live(rt, graphExec, RT_HANDLE_GRAPH_EXEC)) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, api_valid_stream(rt, stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return cudaGraphUpload(graphExec, stream);
}
