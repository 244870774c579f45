/* cudart/api_graph.c -- CUDA graphs: stream capture, instantiation, launch
** and update (cudart/api_graph_nodes.c builds graphs by hand). A graph is a
** list of nodes (a kernel launch with its arguments copied, a copy, a
** memset, a host function, an empty node, an event record or wait, a child
** graph) with their dependencies; captured work becomes nodes in the order
** it was issued. cudaGraphInstantiate puts a copy of the nodes in an order
** their dependencies allow (a cycle is refused; a child graph gets its own
** order), and cudaGraphLaunch runs them one after another through the
** ordinary calls, so each kernel is timed, counted and reported as a launch
** of its own. cudaGraphExecUpdate takes a graph of the same nodes, made in
** the same order with the same dependencies, and copies their parameters.
** Memory allocation and free nodes are cudart/api_graph_mem.c's,
** conditional nodes cudart/api_graph_cond.c's. Not implemented
** (cudaErrorNotSupported, listed at exit): external semaphore nodes, array
** copies in graphs, device-side launch. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

/* ------------------------------------------------------------- the graph */

void graph_free(void *p)
{
    struct CUgraph_st *g = p;
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->nodes[i]->kind == NODE_CHILD) graph_free(g->nodes[i]->u.child.graph);
        if (g->nodes[i]->kind == NODE_COND) graph_cond_free(g->nodes[i]);
        if (g->nodes[i]->kind == NODE_MEM_ALLOC || g->nodes[i]->kind == NODE_MEM_FREE) graph_mem_unref(g->nodes[i]->u.mem);
        free(g->nodes[i]->deps), free(g->nodes[i]);
    }
    graph_uref_free(&g->uref, &g->nuref, &g->uref_cap);
    free(g->conds);
    free(g->nodes);
    free(g);
}

void exec_free(void *p)
{
    struct CUgraphExec_st *x = p;
    for (uint32_t i = 0; x->order && i < x->n; i++) {
        if (x->order[i].kind == NODE_CHILD && x->order[i].u.child.exec) exec_free(x->order[i].u.child.exec);
        if (x->order[i].kind == NODE_COND) graph_cond_exec_free(&x->order[i]);
        if (x->order[i].kind == NODE_MEM_ALLOC || x->order[i].kind == NODE_MEM_FREE) graph_mem_unref(x->order[i].u.mem);
    }
    graph_uref_free(&x->uref, &x->nuref, &x->uref_cap);
    free(x->conds);
    free(x->order);
    free(x);
}

struct CUgraph_st *graph_new(Runtime *rt)
{
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (g && !rt_handle_add_owned(rt, g, RT_HANDLE_GRAPH, graph_free)) {
        free(g);
        return NULL;
    }
    if (g) g->serial = ++rt->graph_serials;
    return g;
}

bool graph_live(const Runtime *rt, const struct CUgraph_st *g)
{
    if (!g) return false;
    if (!g->owner) return rt_handle_live(rt, g, RT_HANDLE_GRAPH);
    if (!node_live(rt, g->owner)) return false;
    if (g->owner->kind == NODE_CHILD) return g->owner->u.child.graph == g;
    for (uint32_t i = 0; g->owner->kind == NODE_COND && i < g->owner->u.cond.size; i++) /* a conditional's body */
        if (g->owner->u.cond.body[i] == g) return true;
    return false;
}

struct CUgraphNode_st *node_add(struct CUgraph_st *g, NodeKind kind, struct CUgraphNode_st *const *deps, size_t n)
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
    node->id = g->made++;
    node->kind = kind;
    if (n) memcpy(node->deps, deps, n * sizeof *deps);
    node->ndeps = (uint32_t)n;
    g->nodes[g->n++] = node;
    return node;
}

bool node_live(const Runtime *rt, cudaGraphNode_t node)
{
    return node && graph_live(rt, node->graph) && node->index < node->graph->n && node->graph->nodes[node->index] == node;
}

int graph_kernel_params(Runtime *rt, struct CUgraphNode_st *node, const void *func, void **args)
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
    int err = graph_kernel_params(rt, &made, k->host_fun, args);
    if (err) return err;
    struct CUgraphNode_st *node = capture_node(s, NODE_KERNEL);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.kernel = made.u.kernel;
    node->u.kernel.grid = grid, node->u.kernel.block = block, node->u.kernel.smem = smem;
    return cudaSuccess;
}

int api_capture_alloc(Runtime *rt, cudaStream_t s, size_t size, void **ptr)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct cudaMemAllocNodeParams p = { .poolProps = { .allocType = cudaMemAllocationTypePinned,
                                                       .location = { cudaMemLocationTypeDevice, 0 } },
                                        .bytesize = size };
    int err;
    RtGraphAlloc *a = graph_mem_alloc(rt, &p, &err);
    if (!a) return err;
    graph_mem_ref(a); /* the node's, or let go at once when no node is made */
    struct CUgraphNode_st *node = capture_node(s, NODE_MEM_ALLOC);
    if (!node) {
        graph_mem_unref(a);
        return cudaErrorMemoryAllocation;
    }
    node->u.mem = a;
    s->cap.graph->mem_nodes++;
    *ptr = a->params.dptr;
    return cudaSuccess;
}

int api_capture_mem_free(Runtime *rt, cudaStream_t s, void *ptr)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    RtGraphAlloc *a = (uintptr_t)ptr <= UINT32_MAX ? graph_mem_find(rt, (uint32_t)(uintptr_t)ptr) : NULL;
    if (!a || a->has_free_node) {
        WHY(rt, "cudaFreeAsync(%p) in a stream capture: %s", ptr,
            a ? "a free node for this allocation exists already"
              : "not memory a graph allocates (cudaMallocAsync in a capture, or an allocation node)");
        return cudaErrorInvalidValue;
    }
    struct CUgraphNode_st *node = capture_node(s, NODE_MEM_FREE);
    if (!node) return cudaErrorMemoryAllocation;
    graph_mem_ref(a);
    a->has_free_node = true;
    node->u.mem = a;
    s->cap.graph->mem_nodes++;
    return cudaSuccess;
}

void graph_copy_1d(struct CUgraphNode_st *node, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
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
    graph_copy_1d(node, dst, src, count, kind);
    return cudaSuccess;
}

int api_capture_copy2d(cudaStream_t s, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, enum cudaMemcpyKind kind)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_MEMCPY);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.copy = (struct cudaMemcpy3DParms){
        .srcPtr = { .ptr = (void *)src, .pitch = spitch, .xsize = width, .ysize = height },
        .dstPtr = { .ptr = dst, .pitch = dpitch, .xsize = width, .ysize = height },
        .extent = { .width = width, .height = height, .depth = 1 },
        .kind = kind,
    };
    return cudaSuccess;
}

int api_capture_copy3d(cudaStream_t s, const struct cudaMemcpy3DParms *p)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_MEMCPY);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.copy = *p;
    return cudaSuccess;
}

int api_capture_memset2d(cudaStream_t s, void *dst, size_t pitch, int value, size_t width, size_t height)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_MEMSET);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.set.dst = dst, node->u.set.value = (unsigned char)value, node->u.set.element = 1;
    node->u.set.pitch = pitch, node->u.set.width = width, node->u.set.height = height;
    return cudaSuccess;
}

int api_capture_memset(cudaStream_t s, void *dst, int value, size_t count)
{
    return api_capture_memset2d(s, dst, count, value, count, 1);
}

int api_capture_host(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, NODE_HOST);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.host.fn = fn, node->u.host.user = user;
    return cudaSuccess;
}

int api_capture_event_node(cudaStream_t s, cudaEvent_t e, bool record)
{
    if (s->cap.graph->invalidated) return cudaErrorStreamCaptureInvalidated;
    struct CUgraphNode_st *node = capture_node(s, record ? NODE_EVENT_RECORD : NODE_EVENT_WAIT);
    if (!node) return cudaErrorMemoryAllocation;
    node->u.event = e;
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
void graph_capture_end(Runtime *rt, const struct CUgraph_st *g)
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
    graph_capture_end(rt, g);
    if (g->invalidated) { /* the graph goes with it, but one the program made */
        *pGraph = NULL;
        if (!g->user_owned) {
            rt_handle_remove(rt, g, RT_HANDLE_GRAPH);
            graph_free(g);
        }
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

/* ------------------------------------------------- instantiate and launch */

/* A node's dependencies as one number: a hash of their indices, in order
** (an executable copy keeps it for cudaGraphExecUpdate). */
static uint64_t deps_signature(const struct CUgraphNode_st *node)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t d = 0; d < node->ndeps; d++) h = (h ^ node->deps[d]->index) * 1099511628211ull;
    return h ^ node->ndeps;
}

/* The nodes in an order their dependencies allow (Kahn's, the lowest index
** first among the ready: a captured graph runs in the order it was issued),
** a child graph's in an executable graph of its own. */
bool graph_order(const struct CUgraph_st *g, struct CUgraphExec_st *x, bool *cycle)
{
    uint32_t n = g->n, *waits = calloc(n ? n : 1, sizeof *waits);
    bool *done = calloc(n ? n : 1, sizeof *done);
    x->order = calloc(n ? n : 1, sizeof *x->order);
    x->n = 0;
    *cycle = false;
    x->conds = g->nconds ? malloc(g->nconds * sizeof *x->conds) : NULL;
    x->nconds = x->conds ? g->nconds : 0;
    if (x->conds) memcpy(x->conds, g->conds, g->nconds * sizeof *x->conds);
    bool ok = waits && done && x->order && (x->conds || !g->nconds);
    for (uint32_t i = 0; ok && i < n; i++) waits[i] = g->nodes[i]->ndeps;
    while (ok && x->n < n) {
        uint32_t i = 0;
        while (i < n && (done[i] || waits[i])) i++;
        if (i == n) {
            ok = false, *cycle = true; /* every node left waits on another */
            break;
        }
        done[i] = true;
        struct CUgraphNode_st *c = &x->order[x->n++];
        *c = *g->nodes[i];
        c->deps_sig = deps_signature(g->nodes[i]);
        c->deps = NULL, c->ndeps = c->deps_cap = 0;
        if (c->kind == NODE_CHILD) {
            c->u.child.exec = calloc(1, sizeof *c->u.child.exec);
            ok = c->u.child.exec && graph_order(c->u.child.graph, c->u.child.exec, cycle);
        }
        if (c->kind == NODE_MEM_ALLOC || c->kind == NODE_MEM_FREE) graph_mem_ref(c->u.mem), x->mem_nodes++;
        if (c->kind == NODE_COND) ok = graph_cond_order(c, cycle);
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t d = 0; d < g->nodes[j]->ndeps; d++) waits[j] -= g->nodes[j]->deps[d] == g->nodes[i];
    }
    free(waits);
    free(done);
    return ok;
}

/* Whether an executable graph made from g lives. */
static bool graph_instantiated(const Runtime *rt, const struct CUgraph_st *g)
{
    for (uint32_t i = 0; i < rt->nhandles; i++)
        if (rt->handles[i].kind == RT_HANDLE_GRAPH_EXEC && ((struct CUgraphExec_st *)rt->handles[i].ptr)->source == g->serial)
            return true;
    return false;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    ENTER(rt);
    if (!pGraphExec || !graph_live(rt, graph)) return api_leave(rt, cudaErrorInvalidValue);
    /* upload (nothing to upload) and node priorities (one level) change
    ** nothing; auto-free is graph_mem_launch's; a device launch is not implemented */
    if (flags & ~(unsigned long long)(cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                      cudaGraphInstantiateFlagUseNodePriority))
        return api_leave(rt, rt_api_missing("cudaGraphInstantiate for a device launch"));
    if (graph->mem_nodes && graph_instantiated(rt, graph)) {
        WHY(rt, "cudaGraphInstantiate: a graph with memory allocation or free nodes has one executable graph at a "
            "time, and this one has one (destroy it first)");
        return api_leave(rt, cudaErrorNotSupported);
    }
    struct CUgraphExec_st *x = calloc(1, sizeof *x);
    if (!x) return api_leave(rt, cudaErrorMemoryAllocation);
    x->source = graph->serial;
    x->flags = flags;
    bool cycle = false;
    if (!graph_order(graph, x, &cycle) || !graph_uref_copy(&x->uref, &x->nuref, &x->uref_cap, graph->uref, graph->nuref)) {
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

/* The executable copy of a graph's node (NULL: none, or not of `kind`). */
struct CUgraphNode_st *api_exec_node(const Runtime *rt, cudaGraphExec_t x, cudaGraphNode_t node, int kind)
{
    if (!rt_handle_live(rt, x, RT_HANDLE_GRAPH_EXEC) || !node_live(rt, node)) return NULL;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->order[i].id == node->id && (kind < 0 || x->order[i].kind == (NodeKind)kind)) return &x->order[i];
    return NULL;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    struct CUgraphNode_st *c = node && node->kind == NODE_KERNEL ? api_exec_node(rt, hGraphExec, node, NODE_KERNEL) : NULL;
    if (!c) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, api_kernel_node_set(rt, c, pNodeParams));
}

/* Why graph g cannot update executable graph x (cudaGraphExecUpdate): its
** nodes, paired in the order they were made, differ in number, kind or
** dependencies; cudaGraphExecUpdateSuccess when they do not. */
static enum cudaGraphExecUpdateResult update_check(const struct CUgraph_st *g, const struct CUgraphExec_st *x,
                                                   cudaGraphNode_t *error_node)
{
    *error_node = NULL;
    if (g->n != x->n) return cudaGraphExecUpdateErrorTopologyChanged;
    for (uint32_t i = 0; i < x->n; i++) {
        const struct CUgraphNode_st *c = &x->order[i], *m = c->index < g->n ? g->nodes[c->index] : NULL;
        *error_node = (cudaGraphNode_t)m;
        if (!m) return cudaGraphExecUpdateErrorTopologyChanged;
        if (m->kind != c->kind) return cudaGraphExecUpdateErrorNodeTypeChanged;
        if (m->kind == NODE_COND) return cudaGraphExecUpdateErrorNotSupported; /* CUDA's rule */
        if ((m->kind == NODE_MEM_ALLOC || m->kind == NODE_MEM_FREE) && m->u.mem != c->u.mem)
            return cudaGraphExecUpdateErrorNotSupported; /* CUDA updates no memory node */
        if (m->kind == NODE_CHILD) {
            cudaGraphNode_t inner;
            enum cudaGraphExecUpdateResult r = update_check(m->u.child.graph, c->u.child.exec, &inner);
            if (r != cudaGraphExecUpdateSuccess) return r;
        }
    }
    for (uint32_t i = 0; i < x->n; i++)
        if (deps_signature(g->nodes[x->order[i].index]) != x->order[i].deps_sig) {
            *error_node = g->nodes[x->order[i].index];
            return cudaGraphExecUpdateErrorTopologyChanged;
        }
    return cudaGraphExecUpdateSuccess;
}

/* x's copies take g's parameters, node by node (update_check said they pair). */
static void update_apply(const struct CUgraph_st *g, struct CUgraphExec_st *x)
{
    for (uint32_t i = 0; i < x->n; i++) {
        struct CUgraphNode_st *c = &x->order[i];
        const struct CUgraphNode_st *m = g->nodes[c->index];
        if (c->kind == NODE_CHILD) update_apply(m->u.child.graph, c->u.child.exec);
        else if (c->kind != NODE_MEM_ALLOC && c->kind != NODE_MEM_FREE) c->u = m->u;
    }
}

enum cudaGraphExecUpdateResult graph_exec_update(const struct CUgraph_st *g, struct CUgraphExec_st *x,
                                                 cudaGraphNode_t *error_node)
{
    enum cudaGraphExecUpdateResult r = update_check(g, x, error_node);
    if (r != cudaGraphExecUpdateSuccess) return r;
    if (!graph_uref_copy(&x->uref, &x->nuref, &x->uref_cap, g->uref, g->nuref)) return cudaGraphExecUpdateError;
    update_apply(g, x);
    return cudaGraphExecUpdateSuccess;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo)
{
    ENTER(rt);
    if (!rt_handle_live(rt, hGraphExec, RT_HANDLE_GRAPH_EXEC) || !graph_live(rt, hGraph)) return api_leave(rt, cudaErrorInvalidValue);
    cudaGraphNode_t bad;
    enum cudaGraphExecUpdateResult r = graph_exec_update(hGraph, hGraphExec, &bad);
    if (resultInfo) *resultInfo = (cudaGraphExecUpdateResultInfo){ .result = r, .errorNode = r ? bad : NULL };
    return api_leave(rt, r == cudaGraphExecUpdateSuccess ? cudaSuccess : cudaErrorGraphExecUpdateFailure);
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

static cudaError_t run_order(const struct CUgraphExec_st *x, cudaStream_t stream);

/* One node's work, through the calls the program could have made. */
static cudaError_t run_node(const struct CUgraphNode_st *node, cudaStream_t stream)
{
    if (node->disabled) return cudaSuccess;
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
        if (node->u.kernel.cooperative)
            return cudaLaunchCooperativeKernel(node->u.kernel.func, node->u.kernel.grid, node->u.kernel.block, args,
                                               node->u.kernel.smem, stream);
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
    case NODE_EVENT_RECORD:
        return cudaEventRecord(node->u.event, stream);
    case NODE_EVENT_WAIT: /* the work before it is done: the stream runs in order */
        return cudaStreamWaitEvent(stream, node->u.event, 0);
    case NODE_CHILD:
        return run_order(node->u.child.exec, stream);
    case NODE_COND:
        return graph_cond_run(node, stream, run_order);
    case NODE_MEM_ALLOC:
    case NODE_MEM_FREE: {
        ENTER(rt);
        return api_leave(rt, graph_mem_run(rt, node));
    }
    }
    return cudaErrorInvalidValue;
}

static cudaError_t run_order(const struct CUgraphExec_st *x, cudaStream_t stream)
{
    if (x->nconds) { /* its conditional handles' launch values */
        ENTER(rt);
        graph_conds_start(rt, x);
        api_leave(rt, cudaSuccess);
    }
    for (uint32_t i = 0; i < x->n; i++) {
        cudaError_t e = run_node(&x->order[i], stream);
        if (e) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    {
        ENTER(rt);
        if (!rt_handle_live(rt, graphExec, RT_HANDLE_GRAPH_EXEC)) return api_leave(rt, cudaErrorInvalidValue);
        if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
        if (api_capturing(rt, stream)) return api_leave(rt, rt_api_missing("cudaGraphLaunch into a stream capture"));
        int err = graphExec->mem_nodes ? graph_mem_launch(rt, graphExec) : cudaSuccess;
        if (err) return api_leave(rt, err);
        api_leave(rt, cudaSuccess);
    }
    return run_order(graphExec, stream);
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
