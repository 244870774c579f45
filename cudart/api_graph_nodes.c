/* cudart/api_graph_nodes.c -- CUDA graphs built by hand: nodes of every
** kind the runtime runs (kernel, copy, memset, host, empty, event record and
** wait, child graph), dependencies, the queries of a graph's nodes and
** edges, a node's parameters got and set (in a graph and in an executable
** copy), a node enabled or disabled in an executable copy, a node
** destroyed, a graph cloned, and a graph printed as DOT (memory nodes:
** cudart/api_graph_mem.c). The graph structs
** and what the graph files share are in cudart/api_int.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cudart/api_int.h"

bool graph_deps_valid(const Runtime *rt, const struct CUgraph_st *g, const cudaGraphNode_t *deps, size_t n)
{
    if (!graph_live(rt, g) || (n && !deps)) return false;
    for (size_t i = 0; i < n; i++)
        if (!deps[i] || deps[i]->graph != g) return false;
    return true;
}


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
    graph_capture_end(rt, graph); /* a stream still capturing into it stops */
    graph_free(graph);
    return api_leave(rt, cudaSuccess);
}

/* The node-adding calls' common start: a node of `kind` in graph after
** deps, or NULL with *err set. */
static struct CUgraphNode_st *added(Runtime *rt, cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    size_t n, NodeKind kind, int *err)
{
    *err = cudaErrorInvalidValue;
    if (!pNode || !graph_deps_valid(rt, graph, deps, n)) return NULL;
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
    else err = graph_kernel_params(rt, node, pNodeParams->func, pNodeParams->kernelParams);
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
    graph_copy_1d(node, dst, src, count, kind);
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
    if (!graph_deps_valid(rt, graph, from, numDependencies) || !graph_deps_valid(rt, graph, to, numDependencies))
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

/* CUDA's rule for a list query: the count when out is NULL; else at most *n
** written, the rest of the first *n NULL, and *n lowered to the count. */
static void list_out(cudaGraphNode_t *out, const size_t *n, size_t i, cudaGraphNode_t v)
{
    if (out && i < *n) out[i] = v;
}

static void list_end(cudaGraphNode_t *out, cudaGraphEdgeData *edges, size_t *n, size_t k)
{
    for (size_t j = k; out && j < *n; j++) out[j] = NULL;
    for (size_t j = 0; edges && j < (out ? *n : 0); j++) edges[j] = (cudaGraphEdgeData){ 0 }; /* plain edges */
    if (!out || k < *n) *n = k;
}

/* The nodes (roots: those depending on none) into out, or their count. */
static cudaError_t list_nodes(cudaGraph_t graph, cudaGraphNode_t *out, size_t *n, bool roots)
{
    ENTER(rt);
    if (!n || !graph_live(rt, graph)) return api_leave(rt, cudaErrorInvalidValue);
    size_t k = 0;
    for (uint32_t i = 0; i < graph->n; i++)
        if (!roots || !graph->nodes[i]->ndeps) list_out(out, n, k++, graph->nodes[i]);
    list_end(out, NULL, n, k);
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

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    ENTER(rt);
    if (!pType || !node_live(rt, node)) return api_leave(rt, cudaErrorInvalidValue);
    static const enum cudaGraphNodeType TYPE[] = { [NODE_KERNEL] = cudaGraphNodeTypeKernel,
                                                   [NODE_MEMCPY] = cudaGraphNodeTypeMemcpy,
                                                   [NODE_MEMSET] = cudaGraphNodeTypeMemset,
                                                   [NODE_HOST] = cudaGraphNodeTypeHost,
                                                   [NODE_EMPTY] = cudaGraphNodeTypeEmpty,
                                                   [NODE_EVENT_RECORD] = cudaGraphNodeTypeEventRecord,
                                                   [NODE_EVENT_WAIT] = cudaGraphNodeTypeWaitEvent,
                                                   [NODE_CHILD] = cudaGraphNodeTypeGraph,
                                                   [NODE_MEM_ALLOC] = cudaGraphNodeTypeMemAlloc,
                                                   [NODE_MEM_FREE] = cudaGraphNodeTypeMemFree,
                                                   [NODE_COND] = cudaGraphNodeTypeConditional };
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

int api_kernel_node_set(Runtime *rt, struct CUgraphNode_st *node, const struct cudaKernelNodeParams *p)
{
    if (!p) return cudaErrorInvalidValue;
    if (p->extra) return rt_api_missing("a kernel node's 'extra' parameters");
    struct CUgraphNode_st next = *node;
    int err = graph_kernel_params(rt, &next, p->func, p->kernelParams);
    if (err) return err;
    next.u.kernel.grid = p->gridDim, next.u.kernel.block = p->blockDim, next.u.kernel.smem = p->sharedMemBytes;
    *node = next;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    ENTER(rt);
    if (!node_live(rt, node) || node->kind != NODE_KERNEL) return api_leave(rt, cudaErrorInvalidValue);
    return api_leave(rt, api_kernel_node_set(rt, node, pNodeParams));
}


/* A kernel node's launch attributes: cooperative (its launch is a
** cooperative one), a cluster of one block; the others are hints kept to be
** read back (a priority, an access-policy window, the memory-sync domain). */
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr, const cudaKernelNodeAttrValue *value)
{
    ENTER(rt);
    if (!value || !node_live(rt, hNode) || hNode->kind != NODE_KERNEL) return api_leave(rt, cudaErrorInvalidValue);
    switch (attr) {
    case cudaLaunchAttributeCooperative: hNode->u.kernel.cooperative = value->cooperative != 0; break;
    case cudaLaunchAttributePriority: hNode->u.kernel.priority = value->priority; break;
    case cudaLaunchAttributeAccessPolicyWindow: hNode->u.kernel.window = value->accessPolicyWindow; break;
    case cudaLaunchAttributeMemSyncDomainMap: hNode->u.kernel.domain_map = value->memSyncDomainMap; break;
    case cudaLaunchAttributeMemSyncDomain: hNode->u.kernel.domain = value->memSyncDomain; break;
    case cudaLaunchAttributeClusterDimension:
        if ((uint64_t)value->clusterDim.x * value->clusterDim.y * value->clusterDim.z > 1)
            return api_leave(rt, rt_api_missing("a graph kernel node with a thread-block cluster"));
        break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr, cudaKernelNodeAttrValue *value_out)
{
    ENTER(rt);
    if (!value_out || !node_live(rt, hNode) || hNode->kind != NODE_KERNEL) return api_leave(rt, cudaErrorInvalidValue);
    switch (attr) {
    case cudaLaunchAttributeCooperative: value_out->cooperative = hNode->u.kernel.cooperative; break;
    case cudaLaunchAttributePriority: value_out->priority = hNode->u.kernel.priority; break;
    case cudaLaunchAttributeAccessPolicyWindow: value_out->accessPolicyWindow = hNode->u.kernel.window; break;
    case cudaLaunchAttributeMemSyncDomainMap: value_out->memSyncDomainMap = hNode->u.kernel.domain_map; break;
    case cudaLaunchAttributeMemSyncDomain: value_out->memSyncDomain = hNode->u.kernel.domain; break;
    case cudaLaunchAttributeClusterDimension: value_out->clusterDim.x = value_out->clusterDim.y = value_out->clusterDim.z = 1; break;
    default: return api_leave(rt, cudaErrorInvalidValue);
    }
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    ENTER(rt);
    if (!node_live(rt, hDst) || !node_live(rt, hSrc) || hDst->kind != NODE_KERNEL || hSrc->kind != NODE_KERNEL)
        return api_leave(rt, cudaErrorInvalidValue);
    hDst->u.kernel.cooperative = hSrc->u.kernel.cooperative, hDst->u.kernel.priority = hSrc->u.kernel.priority;
    hDst->u.kernel.window = hSrc->u.kernel.window, hDst->u.kernel.domain_map = hSrc->u.kernel.domain_map;
    hDst->u.kernel.domain = hSrc->u.kernel.domain;
    return api_leave(rt, cudaSuccess);
}

/* --------------------------------------------------- event and child nodes */

static cudaError_t add_event_node(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies, cudaEvent_t event, NodeKind kind)
{
    ENTER(rt);
    if (!api_valid_event(rt, event)) return api_leave(rt, cudaErrorInvalidValue);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, kind, &err);
    if (!node) return api_leave(rt, err);
    node->u.event = event;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, NODE_EVENT_RECORD);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, NODE_EVENT_WAIT);
}

/* An event node's event, got or set (in a graph, or an executable copy). */
static cudaError_t event_of(cudaGraphExec_t x, cudaGraphNode_t node, NodeKind kind, cudaEvent_t *get, cudaEvent_t set)
{
    ENTER(rt);
    struct CUgraphNode_st *n = x ? api_exec_node(rt, x, node, (int)kind) : node_live(rt, node) ? node : NULL;
    if (!n || n->kind != kind || (!get && !api_valid_event(rt, set))) return api_leave(rt, cudaErrorInvalidValue);
    if (get) *get = n->u.event;
    else n->u.event = set;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_out ? event_of(NULL, node, NODE_EVENT_RECORD, event_out, NULL) : api_fail(cudaErrorInvalidValue);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return event_of(NULL, node, NODE_EVENT_RECORD, NULL, event);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_out ? event_of(NULL, node, NODE_EVENT_WAIT, event_out, NULL) : api_fail(cudaErrorInvalidValue);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    return event_of(NULL, node, NODE_EVENT_WAIT, NULL, event);
}
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event)
{
    return hGraphExec ? event_of(hGraphExec, hNode, NODE_EVENT_RECORD, NULL, event) : api_fail(cudaErrorInvalidValue);
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event)
{
    return hGraphExec ? event_of(hGraphExec, hNode, NODE_EVENT_WAIT, NULL, event) : api_fail(cudaErrorInvalidValue);
}

/* A child graph node holds its own clone of childGraph, as CUDA's does. */
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph)
{
    ENTER(rt);
    if (!graph_live(rt, childGraph) || childGraph == graph) return api_leave(rt, cudaErrorInvalidValue);
    if (childGraph->cond_nodes) { /* CUDA's rule */
        WHY(rt, "cudaGraphAddChildGraphNode: a graph with conditional nodes cannot be a child graph");
        return api_leave(rt, cudaErrorNotSupported);
    }
    if (childGraph->mem_nodes) { /* CUDA's rule: only by moving the graph (cudaGraphAddNode), not implemented */
        WHY(rt, "cudaGraphAddChildGraphNode: a graph with memory allocation or free nodes cannot be a child graph");
        return api_leave(rt, cudaErrorNotSupported);
    }
    struct CUgraph_st *copy = graph_clone(childGraph);
    if (!copy) return api_leave(rt, cudaErrorMemoryAllocation);
    int err;
    struct CUgraphNode_st *node = added(rt, pGraphNode, graph, pDependencies, numDependencies, NODE_CHILD, &err);
    if (!node) {
        graph_free(copy);
        return api_leave(rt, err);
    }
    copy->owner = node;
    node->u.child.graph = copy;
    *pGraphNode = node;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    ENTER(rt);
    if (!pGraph || !node_live(rt, node) || node->kind != NODE_CHILD) return api_leave(rt, cudaErrorInvalidValue);
    *pGraph = node->u.child.graph;
    return api_leave(rt, cudaSuccess);
}

/* ----------------------------------------------------- other node params */

static struct CUgraphNode_st *node_of(Runtime *rt, cudaGraphNode_t node, NodeKind kind)
{
    return node_live(rt, node) && node->kind == kind ? node : NULL;
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams)
{
    ENTER(rt);
    struct CUgraphNode_st *n = node_of(rt, node, NODE_MEMCPY);
    if (!n || !pNodeParams) return api_leave(rt, cudaErrorInvalidValue);
    *pNodeParams = n->u.copy;
    return api_leave(rt, cudaSuccess);
}

/* A copy node's new parameters, in a graph or in an executable copy. */
static cudaError_t memcpy_set(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
    ENTER(rt);
    struct CUgraphNode_st *n = x ? api_exec_node(rt, x, node, NODE_MEMCPY) : node_of(rt, node, NODE_MEMCPY);
    if (!n || !p) return api_leave(rt, cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) return api_leave(rt, rt_api_missing("a graph's copy node with a CUDA array"));
    n->u.copy = *p;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
    return memcpy_set(NULL, node, pNodeParams);
}
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    return hGraphExec ? memcpy_set(hGraphExec, node, pNodeParams) : api_fail(cudaErrorInvalidValue);
}

static cudaError_t memcpy1d_set(cudaGraphExec_t x, cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind)
{
    ENTER(rt);
    struct CUgraphNode_st *n = x ? api_exec_node(rt, x, node, NODE_MEMCPY) : node_of(rt, node, NODE_MEMCPY);
    if (!n) return api_leave(rt, cudaErrorInvalidValue);
    graph_copy_1d(n, dst, src, count, kind);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind)
{
    return memcpy1d_set(NULL, node, dst, src, count, kind);
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst, const void *src,
                                               size_t count, enum cudaMemcpyKind kind)
{
    return hGraphExec ? memcpy1d_set(hGraphExec, node, dst, src, count, kind) : api_fail(cudaErrorInvalidValue);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
    ENTER(rt);
    struct CUgraphNode_st *n = node_of(rt, node, NODE_MEMSET);
    if (!n || !pNodeParams) return api_leave(rt, cudaErrorInvalidValue);
    *pNodeParams = (struct cudaMemsetParams){ .dst = n->u.set.dst, .pitch = n->u.set.pitch, .value = n->u.set.value,
                                              .elementSize = n->u.set.element, .width = n->u.set.width,
                                              .height = n->u.set.height };
    return api_leave(rt, cudaSuccess);
}

static cudaError_t memset_set(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    ENTER(rt);
    struct CUgraphNode_st *n = x ? api_exec_node(rt, x, node, NODE_MEMSET) : node_of(rt, node, NODE_MEMSET);
    if (!n || !p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return api_leave(rt, cudaErrorInvalidValue);
    n->u.set.dst = p->dst, n->u.set.pitch = p->pitch, n->u.set.width = p->width;
    n->u.set.height = p->height ? p->height : 1, n->u.set.value = p->value, n->u.set.element = p->elementSize;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
    return memset_set(NULL, node, pNodeParams);
}
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    return hGraphExec ? memset_set(hGraphExec, node, pNodeParams) : api_fail(cudaErrorInvalidValue);
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
    ENTER(rt);
    struct CUgraphNode_st *n = node_of(rt, node, NODE_HOST);
    if (!n || !pNodeParams) return api_leave(rt, cudaErrorInvalidValue);
    *pNodeParams = (struct cudaHostNodeParams){ .fn = n->u.host.fn, .userData = n->u.host.user };
    return api_leave(rt, cudaSuccess);
}

static cudaError_t host_set(cudaGraphExec_t x, cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    ENTER(rt);
    struct CUgraphNode_st *n = x ? api_exec_node(rt, x, node, NODE_HOST) : node_of(rt, node, NODE_HOST);
    if (!n || !p || !p->fn) return api_leave(rt, cudaErrorInvalidValue);
    n->u.host.fn = p->fn, n->u.host.user = p->userData;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
    return host_set(NULL, node, pNodeParams);
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    return hGraphExec ? host_set(hGraphExec, node, pNodeParams) : api_fail(cudaErrorInvalidValue);
}

/* Kernel, copy and memset nodes of an executable copy may be disabled: they
** then do nothing when it is launched. */
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
    ENTER(rt);
    struct CUgraphNode_st *n = api_exec_node(rt, hGraphExec, hNode, -1);
    if (!n || (n->kind != NODE_KERNEL && n->kind != NODE_MEMCPY && n->kind != NODE_MEMSET))
        return api_leave(rt, cudaErrorInvalidValue);
    n->disabled = !isEnabled;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled)
{
    ENTER(rt);
    struct CUgraphNode_st *n = api_exec_node(rt, hGraphExec, hNode, -1);
    if (!n || !isEnabled || (n->kind != NODE_KERNEL && n->kind != NODE_MEMCPY && n->kind != NODE_MEMSET))
        return api_leave(rt, cudaErrorInvalidValue);
    *isEnabled = !n->disabled;
    return api_leave(rt, cudaSuccess);
}

/* ------------------------------------------------------- edges and clones */

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData,
                                         size_t *pNumDependencies)
{
    ENTER(rt);
    if (!node_live(rt, node) || !pNumDependencies) return api_leave(rt, cudaErrorInvalidValue);
    for (uint32_t d = 0; d < node->ndeps; d++) list_out(pDependencies, pNumDependencies, d, node->deps[d]);
    list_end(pDependencies, edgeData, pNumDependencies, node->ndeps);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    ENTER(rt);
    if (!node_live(rt, node) || !pNumDependentNodes) return api_leave(rt, cudaErrorInvalidValue);
    size_t k = 0;
    const struct CUgraph_st *g = node->graph;
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t d = 0; d < g->nodes[i]->ndeps; d++)
            if (g->nodes[i]->deps[d] == node) list_out(pDependentNodes, pNumDependentNodes, k++, g->nodes[i]);
    list_end(pDependentNodes, edgeData, pNumDependentNodes, k);
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
                              size_t *numEdges)
{
    ENTER(rt);
    if (!graph_live(rt, graph) || !numEdges || (!from != !to)) return api_leave(rt, cudaErrorInvalidValue);
    size_t k = 0;
    for (uint32_t i = 0; i < graph->n; i++)
        for (uint32_t d = 0; d < graph->nodes[i]->ndeps; d++, k++) {
            list_out(from, numEdges, k, graph->nodes[i]->deps[d]);
            list_out(to, numEdges, k, graph->nodes[i]);
        }
    size_t n = *numEdges;
    list_end(from, NULL, &n, k);
    list_end(to, edgeData, numEdges, k);
    return api_leave(rt, cudaSuccess);
}

/* Takes the node out of its graph and of every node's dependencies. */
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    ENTER(rt);
    if (!node_live(rt, node)) return api_leave(rt, cudaErrorInvalidValue);
    struct CUgraph_st *g = node->graph;
    if (g->mem_nodes) {
        WHY(rt, "cudaGraphDestroyNode: a graph with memory allocation or free nodes keeps its nodes (CUDA's rule)");
        return api_leave(rt, cudaErrorNotSupported);
    }
    for (uint32_t i = 0; i < g->n; i++) {
        struct CUgraphNode_st *m = g->nodes[i];
        uint32_t k = 0;
        for (uint32_t d = 0; d < m->ndeps; d++)
            if (m->deps[d] != node) m->deps[k++] = m->deps[d];
        m->ndeps = k;
    }
    for (uint32_t i = node->index + 1; i < g->n; i++) g->nodes[i - 1] = g->nodes[i], g->nodes[i - 1]->index = i - 1;
    g->n--;
    if (node->kind == NODE_CHILD) graph_free(node->u.child.graph);
    if (node->kind == NODE_COND) graph_cond_free(node), g->cond_nodes--;
    free(node->deps);
    free(node);
    return api_leave(rt, cudaSuccess);
}

struct CUgraph_st *graph_clone(const struct CUgraph_st *g)
{
    struct CUgraph_st *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->cloned_from = g;
    c->made = g->made;
    bool ok = grow_array((void **)&c->nodes, &c->cap, g->n ? g->n : 1, sizeof *c->nodes);
    for (uint32_t i = 0; ok && i < g->n; i++) { /* the nodes, then their dependencies (on any other) */
        const struct CUgraphNode_st *m = g->nodes[i];
        struct CUgraphNode_st *n = calloc(1, sizeof *n);
        if (!(ok = n != NULL)) break;
        *n = *m;
        n->graph = c;
        n->deps = NULL, n->ndeps = n->deps_cap = 0;
        c->nodes[c->n++] = n;
        if (m->kind == NODE_CHILD) {
            ok = (n->u.child.graph = graph_clone(m->u.child.graph)) != NULL;
            if (!ok) n->kind = NODE_EMPTY; /* nothing of its own to free */
            else n->u.child.graph->owner = n;
        }
    }
    ok = ok && graph_uref_copy(&c->uref, &c->nuref, &c->uref_cap, g->uref, g->nuref);
    for (uint32_t i = 0; ok && i < g->n; i++) {
        const struct CUgraphNode_st *m = g->nodes[i];
        struct CUgraphNode_st *n = c->nodes[i];
        ok = !m->ndeps || grow_array((void **)&n->deps, &n->deps_cap, m->ndeps, sizeof *n->deps);
        for (uint32_t d = 0; ok && d < m->ndeps; d++) n->deps[n->ndeps++] = c->nodes[m->deps[d]->index];
    }
    if (!ok) {
        graph_free(c);
        return NULL;
    }
    return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    ENTER(rt);
    if (!pGraphClone || !graph_live(rt, originalGraph)) return api_leave(rt, cudaErrorInvalidValue);
    if (originalGraph->mem_nodes || originalGraph->cond_nodes) {
        WHY(rt, "cudaGraphClone: a graph with memory allocation, free or conditional nodes cannot be cloned (CUDA's rule)");
        return api_leave(rt, cudaErrorNotSupported);
    }
    struct CUgraph_st *c = graph_clone(originalGraph);
    if (!c || !rt_handle_add_owned(rt, c, RT_HANDLE_GRAPH, graph_free)) {
        if (c) graph_free(c);
        return api_leave(rt, cudaErrorMemoryAllocation);
    }
    *pGraphClone = c;
    return api_leave(rt, cudaSuccess);
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph)
{
    ENTER(rt);
    if (!pNode || !node_live(rt, originalNode) || !graph_live(rt, clonedGraph) || clonedGraph->cloned_from != originalNode->graph)
        return api_leave(rt, cudaErrorInvalidValue);
    for (uint32_t i = 0; i < clonedGraph->n; i++)
        if (clonedGraph->nodes[i]->id == originalNode->id) {
            *pNode = clonedGraph->nodes[i];
            return api_leave(rt, cudaSuccess);
        }
    return api_leave(rt, cudaErrorInvalidValue);
}

/* The graph as Graphviz DOT: a box per node (its kind, and a kernel's
** name), an arrow per dependency; child graphs as clusters. */
static void dot_graph(FILE *f, Runtime *rt, const struct CUgraph_st *g, const char *prefix)
{
    static const char *const KIND[] = { "kernel",     "memcpy", "memset",    "host",     "empty",
                                        "event record", "event wait", "graph", "mem alloc", "mem free", "conditional" };
    for (uint32_t i = 0; i < g->n; i++) {
        const struct CUgraphNode_st *n = g->nodes[i];
        const char *name = "";
        if (n->kind == NODE_KERNEL) {
            RtKernel *k = rt_find_kernel(rt, n->u.kernel.func);
            name = k && k->kernel ? k->kernel->name : k ? k->mangled : "?";
        }
        fprintf(f, "  \"%s%u\" [shape=box, label=\"%s%s%s\"];\n", prefix, n->id, KIND[n->kind], *name ? "\\n" : "", name);
        for (uint32_t d = 0; d < n->ndeps; d++) fprintf(f, "  \"%s%u\" -> \"%s%u\";\n", prefix, n->deps[d]->id, prefix, n->id);
        for (uint32_t b = 0; b < (n->kind == NODE_CHILD ? 1 : n->kind == NODE_COND ? n->u.cond.size : 0); b++) {
            char inner[64];
            snprintf(inner, sizeof inner, "%s%u_%u_", prefix, n->id, b);
            fprintf(f, "  subgraph \"cluster_%s\" {\n", inner);
            dot_graph(f, rt, n->kind == NODE_CHILD ? n->u.child.graph : n->u.cond.body[b], inner);
            fprintf(f, "  }\n");
        }
    }
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    ENTER(rt);
    (void)flags; /* what to print of each node: the kind and a kernel's name, always */
    if (!path || !graph_live(rt, graph)) return api_leave(rt, cudaErrorInvalidValue);
    FILE *f = fopen(path, "w");
    if (!f) return api_leave(rt, cudaErrorOperatingSystem);
    fprintf(f, "digraph cuda_graph {\n");
    dot_graph(f, rt, graph, "n");
    fprintf(f, "}\n");
    bool ok = fclose(f) == 0;
    return api_leave(rt, ok ? cudaSuccess : cudaErrorOperatingSystem);
}
