/* cudart/api_graph_params.c -- the rest of the graph API that CUDA 12 code
** uses: nodes by their generic parameters (cudaGraphAddNode,
** cudaGraphNodeSetParams, cudaGraphExecNodeSetParams), each passed on to the
** call of its kind; copies to and from a __device__ variable as copy nodes;
** edges removed; instantiation with parameters and its flags read back; a
** child graph node's executable copy updated; stream capture into a graph
** the program made, and a capture's dependencies changed; user objects,
** whose references graphs and executable graphs hold (a clone, an
** instantiation and an update copy them; the object is destroyed, its
** function called, when the last one goes). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

/* Whether edge data asks for nothing but plain dependencies (NULL, or
** zeroed: programmatic dependencies are not implemented). */
static bool plain_edges(const cudaGraphEdgeData *data, size_t n)
{
    for (size_t i = 0; data && i < n; i++)
        if (data[i].type != cudaGraphDependencyTypeDefault || data[i].from_port || data[i].to_port) return false;
    return true;
}

static struct cudaKernelNodeParams kernel_v1(const struct cudaKernelNodeParamsV2 *k)
{
    return (struct cudaKernelNodeParams){ k->func, k->gridDim, k->blockDim, k->sharedMemBytes, k->kernelParams, k->extra };
}

static struct cudaMemsetParams memset_v1(const struct cudaMemsetParamsV2 *m)
{
    return (struct cudaMemsetParams){ m->dst, m->pitch, m->value, m->elementSize, m->width, m->height };
}

/* A kind the generic calls do not take: external semaphores. */
static cudaError_t unsupported_kind(enum cudaGraphNodeType type)
{
    if (type == cudaGraphNodeTypeExtSemaphoreSignal || type == cudaGraphNodeTypeExtSemaphoreWait)
        return api_fail(rt_api_missing("external semaphore nodes (cudaGraphAddNode)"));
    return api_fail(cudaErrorInvalidValue);
}

/* A child graph node that takes childGraph itself (ownership moved): the
** graph is the node's from then on, no longer the program's handle. */
static cudaError_t add_moved_child(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                                   cudaGraph_t child)
{
    ENTER(rt);
    if (!pNode || !rt_handle_live(rt, child, RT_HANDLE_GRAPH) || child == graph || !graph_deps_valid(rt, graph, deps, n))
        return api_leave(rt, cudaErrorInvalidValue);
    if (child->cond_nodes) return api_leave(rt, cudaErrorNotSupported); /* CUDA's rule */
    if (child->mem_nodes) { /* its allocations would need the parent's launch to ready them */
        WHY(rt, "cudaGraphAddNode: a child graph with memory allocation or free nodes is not implemented");
        return api_leave(rt, rt_api_missing("a child graph with memory nodes"));
    }
    struct CUgraphNode_st *node = node_add(graph, NODE_CHILD, deps, n);
    if (!node) return api_leave(rt, cudaErrorMemoryAllocation);
    rt_handle_remove(rt, child, RT_HANDLE_GRAPH);
    child->owner = node;
    node->u.child.graph = child;
    *pNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *p)
{
    if (!p) return api_fail(cudaErrorInvalidValue);
    if (!plain_edges(dependencyData, numDependencies))
        return api_fail(rt_api_missing("programmatic graph dependencies (cudaGraphEdgeData)"));
    const cudaGraphNode_t *deps = pDependencies;
    size_t n = numDependencies;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = kernel_v1(&p->kernel);
        return cudaGraphAddKernelNode(pGraphNode, graph, deps, n, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags) return api_fail(cudaErrorInvalidValue);
        return cudaGraphAddMemcpyNode(pGraphNode, graph, deps, n, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = memset_v1(&p->memset);
        return cudaGraphAddMemsetNode(pGraphNode, graph, deps, n, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = { p->host.fn, p->host.userData };
        return cudaGraphAddHostNode(pGraphNode, graph, deps, n, &h);
    }
    case cudaGraphNodeTypeGraph:
        if (p->graph.ownership == cudaGraphChildGraphOwnershipMove)
            return add_moved_child(pGraphNode, graph, deps, n, p->graph.graph);
        return cudaGraphAddChildGraphNode(pGraphNode, graph, deps, n, p->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(pGraphNode, graph, deps, n);
    case cudaGraphNodeTypeWaitEvent: return cudaGraphAddEventWaitNode(pGraphNode, graph, deps, n, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord: return cudaGraphAddEventRecordNode(pGraphNode, graph, deps, n, p->eventRecord.event);
    case cudaGraphNodeTypeMemAlloc: {
        struct cudaMemAllocNodeParams a = { p->alloc.poolProps, p->alloc.accessDescs, p->alloc.accessDescCount,
                                            p->alloc.bytesize, NULL };
        cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, deps, n, &a);
        if (!e) p->alloc.dptr = a.dptr; /* an out parameter */
        return e;
    }
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(pGraphNode, graph, deps, n, p->free.dptr);
    case cudaGraphNodeTypeConditional: return api_graph_add_cond(pGraphNode, graph, deps, n, &p->conditional);
    default: return unsupported_kind(p->type);
    }
}

/* cudaGraphNodeSetParams (x NULL) and cudaGraphExecNodeSetParams: the
** node's kind must be p's. */
static cudaError_t set_params(cudaGraphExec_t x, cudaGraphNode_t node, struct cudaGraphNodeParams *p)
{
    enum cudaGraphNodeType type;
    if (!p) return api_fail(cudaErrorInvalidValue);
    cudaError_t e = cudaGraphNodeGetType(node, &type);
    if (e) return e;
    if (type != p->type) return api_fail(cudaErrorInvalidValue);
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = kernel_v1(&p->kernel);
        return x ? cudaGraphExecKernelNodeSetParams(x, node, &k) : cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags) return api_fail(cudaErrorInvalidValue);
        return x ? cudaGraphExecMemcpyNodeSetParams(x, node, &p->memcpy.copyParams)
                 : cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = memset_v1(&p->memset);
        return x ? cudaGraphExecMemsetNodeSetParams(x, node, &m) : cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams h = { p->host.fn, p->host.userData };
        return x ? cudaGraphExecHostNodeSetParams(x, node, &h) : cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeWaitEvent:
        return x ? cudaGraphExecEventWaitNodeSetEvent(x, node, p->eventWait.event)
                 : cudaGraphEventWaitNodeSetEvent(node, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
        return x ? cudaGraphExecEventRecordNodeSetEvent(x, node, p->eventRecord.event)
                 : cudaGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
    case cudaGraphNodeTypeGraph:
        if (x) return cudaGraphExecChildGraphNodeSetParams(x, node, p->graph.graph);
        return api_fail(cudaErrorInvalidValue); /* a graph's child node is changed through its graph */
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    default: return api_fail(cudaErrorInvalidValue); /* memory nodes: CUDA changes none */
    }
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams)
{
    return set_params(NULL, node, nodeParams);
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       struct cudaGraphNodeParams *nodeParams)
{
    if (!graphExec) return api_fail(cudaErrorInvalidValue);
    return set_params(graphExec, node, nodeParams);
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, cudaGraph_t childGraph)
{
    ENTER(rt);
    struct CUgraphNode_st *c = node && node_live(rt, node) && node->kind == NODE_CHILD
                                   ? api_exec_node(rt, hGraphExec, node, NODE_CHILD)
                                   : NULL;
    if (!c || !graph_live(rt, childGraph)) return api_leave(rt, cudaErrorInvalidValue);
    cudaGraphNode_t bad;
    enum cudaGraphExecUpdateResult r = graph_exec_update(childGraph, c->u.child.exec, &bad);
    if (r != cudaGraphExecUpdateSuccess)
        WHY(rt, "cudaGraphExecChildGraphNodeSetParams: the new child graph's nodes do not pair with the old one's "
            "(their number, kinds or dependencies differ)");
    return api_leave(rt, r == cudaGraphExecUpdateSuccess ? cudaSuccess : cudaErrorInvalidValue);
}

/* ------------------------------------------------------ copies of variables */

/* A copy node's 1D parameters between a variable and `other`. */
static cudaError_t symbol_node(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n,
                               cudaGraphExec_t x, cudaGraphNode_t node, const void *symbol, void *other, size_t count,
                               size_t offset, enum cudaMemcpyKind kind, bool to_symbol, const char *call)
{
    bool other_device = false;
    uint32_t addr = 0;
    {
        ENTER(rt);
        int err = api_symbol_range(rt, symbol, count, offset, kind, to_symbol, other, &other_device, &addr, call);
        if (err) return api_leave(rt, err);
        api_leave(rt, cudaSuccess);
    }
    void *sym = (void *)(uintptr_t)addr;
    enum cudaMemcpyKind k = other_device ? cudaMemcpyDeviceToDevice
                            : to_symbol  ? cudaMemcpyHostToDevice
                                         : cudaMemcpyDeviceToHost;
    void *dst = to_symbol ? sym : other;
    const void *src = to_symbol ? other : sym;
    if (pNode) return cudaGraphAddMemcpyNode1D(pNode, graph, deps, n, dst, src, count, k);
    if (x) return cudaGraphExecMemcpyNodeSetParams1D(x, node, dst, src, count, k);
    return cudaGraphMemcpyNodeSetParams1D(node, dst, src, count, k);
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const void *symbol, const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    if (!pGraphNode) return api_fail(cudaErrorInvalidValue);
    return symbol_node(pGraphNode, graph, pDependencies, numDependencies, NULL, NULL, symbol, (void *)src, count, offset,
                       kind, true, "cudaGraphAddMemcpyNodeToSymbol");
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                             const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    if (!pGraphNode) return api_fail(cudaErrorInvalidValue);
    return symbol_node(pGraphNode, graph, pDependencies, numDependencies, NULL, NULL, symbol, dst, count, offset, kind,
                       false, "cudaGraphAddMemcpyNodeFromSymbol");
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol, const void *src, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_node(NULL, NULL, NULL, 0, NULL, node, symbol, (void *)src, count, offset, kind, true,
                       "cudaGraphMemcpyNodeSetParamsToSymbol");
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, const void *symbol, size_t count,
                                                   size_t offset, enum cudaMemcpyKind kind)
{
    return symbol_node(NULL, NULL, NULL, 0, NULL, node, symbol, dst, count, offset, kind, false,
                       "cudaGraphMemcpyNodeSetParamsFromSymbol");
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const void *symbol, const void *src, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind)
{
    if (!hGraphExec) return api_fail(cudaErrorInvalidValue);
    return symbol_node(NULL, NULL, NULL, 0, hGraphExec, node, symbol, (void *)src, count, offset, kind, true,
                       "cudaGraphExecMemcpyNodeSetParamsToSymbol");
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count, size_t offset,
                                                       enum cudaMemcpyKind kind)
{
    if (!hGraphExec) return api_fail(cudaErrorInvalidValue);
    return symbol_node(NULL, NULL, NULL, 0, hGraphExec, node, symbol, dst, count, offset, kind, false,
                       "cudaGraphExecMemcpyNodeSetParamsFromSymbol");
}

/* -------------------------------------------------- edges, instantiation */

/* Each edge from[i] -> to[i] must exist; none is removed unless all do. */
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    ENTER(rt);
    if (!graph_live(rt, graph) || (numDependencies && (!from || !to))) return api_leave(rt, cudaErrorInvalidValue);
    if (!plain_edges(edgeData, numDependencies)) return api_leave(rt, cudaErrorInvalidValue);
    if (graph->mem_nodes && numDependencies) {
        WHY(rt, "cudaGraphRemoveDependencies: a graph with memory allocation or free nodes keeps its edges (CUDA's rule)");
        return api_leave(rt, cudaErrorNotSupported);
    }
    for (size_t i = 0; i < numDependencies; i++) {
        bool found = false;
        if (from[i] && to[i] && from[i]->graph == graph && to[i]->graph == graph)
            for (uint32_t d = 0; d < to[i]->ndeps && !found; d++) found = to[i]->deps[d] == from[i];
        if (!found) return api_leave(rt, cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < numDependencies; i++) {
        struct CUgraphNode_st *t = to[i];
        for (uint32_t d = 0; d < t->ndeps; d++)
            if (t->deps[d] == from[i]) {
                memmove(&t->deps[d], &t->deps[d + 1], (t->ndeps - d - 1) * sizeof *t->deps);
                t->ndeps--;
                break;
            }
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *params)
{
    if (!params) return api_fail(cudaErrorInvalidValue);
    params->errNode_out = NULL;
    {
        ENTER(rt);
        bool upload = params->flags & cudaGraphInstantiateFlagUpload;
        if (upload && !api_valid_stream(rt, params->uploadStream)) {
            params->result_out = cudaGraphInstantiateError;
            return api_leave(rt, cudaErrorInvalidResourceHandle);
        }
        api_leave(rt, cudaSuccess);
    }
    cudaError_t e = cudaGraphInstantiate(pGraphExec, graph, params->flags);
    bool cycle = false; /* cudaGraphInstantiate's one cudaErrorInvalidValue of a live graph */
    if (e == cudaErrorInvalidValue && pGraphExec) {
        ENTER(rt);
        cycle = graph_live(rt, graph);
        api_leave(rt, cudaSuccess);
    }
    params->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess
                         : cycle          ? cudaGraphInstantiateInvalidStructure
                                          : cudaGraphInstantiateError;
    return e;
}

cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                cudaGraphInstantiateParams *instantiateParams)
{
    return cudaGraphInstantiateWithParams(pGraphExec, graph, instantiateParams);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    ENTER(rt);
    if (!flags || !rt_handle_live(rt, graphExec, RT_HANDLE_GRAPH_EXEC)) return api_leave(rt, cudaErrorInvalidValue);
    *flags = graphExec->flags;
    return api_leave(rt, cudaSuccess);
}

/* ------------------------------------------------------------------ capture */

/* The capture records into graph, the program's, after dependencies;
** cudaStreamEndCapture gives graph back. */
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                          enum cudaStreamCaptureMode mode)
{
    ENTER(rt);
    (void)mode; /* as cudaStreamBeginCapture's */
    if (stream == NULL || stream == cudaStreamLegacy) return api_leave(rt, cudaErrorStreamCaptureUnsupported);
    if (stream == cudaStreamPerThread)
        return api_leave(rt, rt_api_missing("cudaStreamBeginCaptureToGraph of the per-thread default stream"));
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!graph_live(rt, graph) || (numDependencies && !dependencies)) /* a conditional node's body too */
        return api_leave(rt, cudaErrorInvalidValue);
    if (!plain_edges(dependencyData, numDependencies))
        return api_leave(rt, rt_api_missing("programmatic graph dependencies (cudaGraphEdgeData)"));
    for (size_t i = 0; i < numDependencies; i++)
        if (!dependencies[i] || dependencies[i]->graph != graph) return api_leave(rt, cudaErrorInvalidValue);
    if (stream->cap.graph) return api_leave(rt, cudaErrorIllegalState);
    if (!grow_array((void **)&stream->cap.tail, &stream->cap.tail_cap, (uint32_t)numDependencies + 1,
                    sizeof *stream->cap.tail))
        return api_leave(rt, cudaErrorMemoryAllocation);
    if (numDependencies) memcpy(stream->cap.tail, dependencies, numDependencies * sizeof *dependencies);
    stream->cap.ntail = (uint32_t)numDependencies;
    stream->cap.graph = graph;
    stream->cap.id = ++rt->capture_ids;
    graph->user_owned = true;
    graph->invalidated = false;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                               const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                               enum cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCaptureToGraph(stream, graph, dependencies, dependencyData, numDependencies, mode);
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                unsigned int flags)
{
    ENTER(rt);
    if (!api_valid_stream(rt, stream)) return api_leave(rt, cudaErrorInvalidResourceHandle);
    if (!api_capturing(rt, stream)) return api_leave(rt, cudaErrorIllegalState);
    if ((flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) ||
        (numDependencies && !dependencies) || !plain_edges(dependencyData, numDependencies))
        return api_leave(rt, cudaErrorInvalidValue);
    ApiCapture *c = &stream->cap;
    for (size_t i = 0; i < numDependencies; i++)
        if (!dependencies[i] || dependencies[i]->graph != c->graph) return api_leave(rt, cudaErrorInvalidValue);
    uint32_t have = flags == cudaStreamSetCaptureDependencies ? 0 : c->ntail;
    if (!grow_array((void **)&c->tail, &c->tail_cap, have + (uint32_t)numDependencies + 1, sizeof *c->tail))
        return api_leave(rt, cudaErrorMemoryAllocation);
    for (size_t i = 0; i < numDependencies; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < have && !seen; j++) seen = c->tail[j] == dependencies[i];
        if (!seen) c->tail[have++] = dependencies[i];
    }
    c->ntail = have;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                     const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                     unsigned int flags)
{
    return cudaStreamUpdateCaptureDependencies(stream, dependencies, dependencyData, numDependencies, flags);
}

/* ------------------------------------------------------------ user objects */

static bool user_object_live(const Runtime *rt, const struct CUuserObject_st *o)
{
    for (uint32_t i = 0; o && i < rt->nuser_objects; i++)
        if (rt->user_objects[i] == o) return true;
    return false;
}

/* Drops `count` references; the last one destroys the object (its
** function runs here, synchronously, where CUDA runs it on a thread of its
** own: CUDA forbids it to call the API either way). */
static void user_object_release(struct CUuserObject_st *o, uint64_t count)
{
    o->refs = count < o->refs ? o->refs - count : 0;
    if (o->refs) return;
    Runtime *rt = o->rt;
    for (uint32_t i = 0; i < rt->nuser_objects; i++)
        if (rt->user_objects[i] == o) {
            rt->user_objects[i] = rt->user_objects[--rt->nuser_objects];
            break;
        }
    if (o->destroy) o->destroy(o->ptr);
    free(o);
}

bool graph_uref_copy(GraphUserRef **dst, uint32_t *n, uint32_t *cap, const GraphUserRef *src, uint32_t nsrc)
{
    if (nsrc && !grow_array((void **)dst, cap, nsrc, sizeof **dst)) return false;
    for (uint32_t i = 0; i < nsrc; i++) src[i].obj->refs += src[i].count; /* first: src may share objects with dst */
    for (uint32_t i = 0; i < *n; i++) user_object_release((*dst)[i].obj, (*dst)[i].count);
    if (nsrc) memcpy(*dst, src, nsrc * sizeof *src);
    *n = nsrc;
    return true;
}

void graph_uref_free(GraphUserRef **refs, uint32_t *n, uint32_t *cap)
{
    for (uint32_t i = 0; i < *n; i++) user_object_release((*refs)[i].obj, (*refs)[i].count);
    free(*refs);
    *refs = NULL;
    *n = *cap = 0;
}

void api_user_objects_reset(Runtime *rt)
{
    for (uint32_t i = 0; i < rt->nuser_objects; i++) free(rt->user_objects[i]); /* the program's own references */
    rt->nuser_objects = 0;
}

cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr, cudaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags)
{
    ENTER(rt);
    if (!object_out || !destroy || initialRefcount == 0 || flags != cudaUserObjectNoDestructorSync)
        return api_leave(rt, cudaErrorInvalidValue);
    struct CUuserObject_st *o = malloc(sizeof *o);
    if (!o || !grow_array((void **)&rt->user_objects, &rt->user_objects_cap, rt->nuser_objects + 1,
                          sizeof *rt->user_objects)) {
        free(o);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    *o = (struct CUuserObject_st){ rt, ptr, destroy, initialRefcount };
    rt->user_objects[rt->nuser_objects++] = o;
    *object_out = o;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
    ENTER(rt);
    if (!user_object_live(rt, object) || count == 0) return api_leave(rt, cudaErrorInvalidValue);
    object->refs += count;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
    ENTER(rt);
    if (!user_object_live(rt, object) || count == 0 || count > object->refs) return api_leave(rt, cudaErrorInvalidValue);
    user_object_release(object, count);
    return api_leave(rt, cudaSuccess);
}

/* The graph takes `count` new references (cudaGraphUserObjectMove: the
** caller's own, handed over). */
cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count, unsigned int flags)
{
    ENTER(rt);
    if (!graph_live(rt, graph) || !user_object_live(rt, object) || count == 0 || (flags & ~cudaGraphUserObjectMove))
        return api_leave(rt, cudaErrorInvalidValue);
    uint32_t i = 0;
    while (i < graph->nuref && graph->uref[i].obj != object) i++;
    if (i == graph->nuref) {
        if (!grow_array((void **)&graph->uref, &graph->uref_cap, graph->nuref + 1, sizeof *graph->uref))
            return api_leave(rt, cudaErrorMemoryAllocation);
        graph->uref[graph->nuref++] = (GraphUserRef){ object, 0 };
    }
    graph->uref[i].count += count;
    if (!(flags & cudaGraphUserObjectMove)) object->refs += count;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count)
{
    ENTER(rt);
    if (!graph_live(rt, graph) || !user_object_live(rt, object) || count == 0) return api_leave(rt, cudaErrorInvalidValue);
    uint32_t i = 0;
    while (i < graph->nuref && graph->uref[i].obj != object) i++;
    if (i == graph->nuref || graph->uref[i].count < count) return api_leave(rt, cudaErrorInvalidValue);
    graph->uref[i].count -= count;
    if (!graph->uref[i].count) graph->uref[i] = graph->uref[--graph->nuref];
    user_object_release(object, count);
    return api_leave(rt, cudaSuccess);
}
